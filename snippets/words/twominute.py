"""Words printed into pages: the two-minute versions that open the long pages (see snippets.i18n and
snippets.twominute). Each page's entry is its list of bullets, filled with snippets.i18n.fill."""

ZH = {
    "twomin.whatif.join": "、",
    # docs/article/4-what-if: the §4 two-minute version (the first round, the source's regime, roles, pruning)
    "twomin.whatif": [
        "**一个头不够**：任务要求日志里的每个位置同时说出偏移 {offsets} 处的事件（共 {lookups} 处，"
        "−1 就是紧挨在它前面的那个）。`d_model` = {d_model_first} 的单层注意力里，一个头在留出日志上平均"
        "只答对 {acc_1:.1%}（随机猜是 {chance:.2%}），两个头 {acc_2:.1%}，从 {plateau} 个头到 "
        "{plateau_end} 个头都与最好的（{best:.1%}）相差不到 1 个百分点。头数变了，总宽度和参数量都不变；"
        "一个头只有一组加起来等于 1 的权重，给不了 {lookups} 处各自的全部权重。",
        "**头太多、太窄，是欠拟合而不是拟合噪声**：{widest} 个 d_k = 1 的头平均只有 {acc_32:.1%}，"
        "最后 50 步的训练损失 {train_loss_32:.3f}，和留出集上的损失 {loss_32:.3f} 一样高；"
        "这些头没有一个把超过 {top_32:.0%} 的注意力放在同一个偏移上。",
        "**训练数据有限时**：只用 {pool} 段日志训练（`d_model` = {d_model}），4 个头和 8 个头在训练日志上"
        "分别答对 {train_4:.1%} 和 {train_8:.1%}；到了留出日志上，按种子配对，8 个头减 4 个头得 "
        "{diff_pts:+.1f} 个百分点，{level_pct:.0f}% 置信区间 [{lo_pts:+.1f}, {hi_pts:+.1f}]：{verdict}。"
        "这是小数据集上的过拟合，这个任务的标签里并没有噪声可拟合。",
        "**分工是训练出来的**：4 个头的模型里，{roles_covered:{roles_seeds} 个种子里有 # 个的四个头正好"
        "一头盯一个偏移|{roles_seeds} 个种子里没有一个的四个头正好一头盯一个偏移|{roles_seeds} 个种子无一例外，"
        "四个头正好一头盯一个偏移=roles_seeds}，谁盯哪个却各不相同（{roles_seeds} 个种子，{roles_distinct} 种分法）；"
        "种子 0 的模型去掉一个头，它盯的那个偏移准确率平均下降 {own_drop_pts:.1f} 个百分点。",
        "**能剪掉的头很少，能剪几个还随种子变**：准确率的下降按种子配对，{prune_level:.0f}% 置信区间的上端"
        "不超过 {tolerance_points:g} 个百分点，才算去掉了没有损失。第一轮的 {prune_seeds} 个种子里，"
        "8 个头的模型{removable_8:能去掉 # 个|一个也去不掉}，16 个头的模型{removable_16:能去掉 # 个|一个也去不掉}；"
        "另换 {fresh_first} 个种子，8 个头的{fresh_removable_8:能去掉 # 个|一个也去不掉}，"
        "16 个头的{fresh_removable_16:能去掉 # 个|一个也去不掉}。",
    ],
    # docs/article/4b-second-round: the second round's two-minute version
    "twomin.secondround": [
        "**一个头不够**：每个位置要同时取 {lookups} 处的事件，单层单头（第二轮的设置："
        "`d_model` = d_k = {d_model_1}）在留出集上只有 {acc_1:.1%}："
        "一个头的权重加起来是 1，给不了 {lookups} 处各自的全部权重。",
        "**要同时取的处数越多，需要的头越多，但不总是一处一个头**：每个头 d_k = 8 时，要让 {n_seeds} "
        "个种子全部超过 95%，取 2 处要 {all_2} 个头，4 处要 {all_4} 个，6 处要 {all_6} 个；"
        "按“平均准确率离最好的设置不到 1 个百分点”算，分别是 {near_2}、{near_4}、{near_6} 个。"
        "头比处数少也够用的，按前一种算法是取 {fewer_bar} 处时，按后一种是取 {fewer_near} 处时。",
        "**头太窄才是下限**：4 个头、`d_model` = {width_d_model}，每个头的维数 d_k 单独设定："
        "d_k = 1 时平均只有 {acc_dk1:.1%}，{width_learned_1:{width_seeds} 个种子里有 # 个|"
        "{width_seeds} 个种子里没有一个|{width_seeds} 个种子全部=width_seeds}"
        "达到 95%；d_k = 2 时{width_learned_2:有 # 个|没有一个|全部=width_seeds}达到。",
        "**加层、加前馈网络会改变答案**：残差模型（每层把输出加回输入）的 {cells} 种层数 × 头数组合里，"
        "只有注意力时 {all_learned_no} 种每个种子都超过 95%，加前馈网络时 {all_learned_ffn} 种。"
        "1 层 × 1 个头（`d_model` = {stack_d_model}、d_k = {stack_d_k}）加前馈网络也只有 {ffn_1x1:.1%}，"
        "2 层 × 1 个头加前馈网络，{ffn_2x1_learned:{n_seeds} 个种子里有 # 个|{n_seeds} 个种子里没有一个|"
        "{n_seeds} 个种子全部=n_seeds}超过 95%。",
    ],
    # the verdict on the source's regime (snippets.whatif.round2.round2_regime_stats; {n}: the seeds)
    "twomin.whatif.lower": "8 个头在留出集上比 4 个头差",
    "twomin.whatif.higher": "8 个头在留出集上比 4 个头好",
    "twomin.whatif.none": "在 {n} 个种子下测不出差别",
    "twomin.whatif.negligible": "差别不到 1 个百分点，可以忽略",
    # docs/lab/induction-heads
    "twomin.induction": [
        "**任务**：一段随机词元写两遍，第二遍的每个词元都能照着第一遍猜出来；"
        "纯靠瞎猜，损失是 ln {vocab} = {chance:.2f} 奈特。",
        "**一层不够**：{base}在可预测的词元上平均 {base_loss:.2f} 奈特，"
        "离瞎猜不远。",
        "**两层各一个头就够**：{small}平均 {small_loss:.2f} 奈特，{gap}；{seeds} 个种子"
        "{formed:里有 # 个形成了这条回路|里没有一个形成这条回路|全部形成了这条回路=seeds}，"
        "损失骤降的中位数在第 {phase_median:,} 步。这条回路是两个头的接力：第 0 层"
        "（层从 0 数起，和图里一样）的**前一词元头**只看前一个词元，把它记进每个位置；"
        "第 1 层的头凭这份记录找到当前词元上次出现的地方，把紧跟其后的词元抄过来。",
        "**因果证据（每层一个头）**：只把前一词元头的输出从第 1 层的键里减掉，损失变化 "
        "{cut_k:+.2f} 奈特 [{cut_k_lo:+.2f}, {cut_k_hi:+.2f}]，{cut_k_verdict}；只从查询里"
        "减掉（对照），变化 {cut_q:+.2f} 奈特 [{cut_q_lo:+.2f}, {cut_q_hi:+.2f}]，"
        "{cut_q_verdict}。",
        "**每层四个头时，路因种子而异**：在 {four}的 {circ_seeds} 个新种子上，第 1 层"
        "主要经由**查询**读第 0 层的有 {circ_q} 个（Q 组合：第 0 层在当前词元处写下的东西"
        "帮第 1 层的查询决定往哪里看），经由键的有 {circ_k} 个；"
        "{circ_seeds} 个种子里{circ_textbook:只有 # 个有前一词元头|没有一个有前一词元头}。"
        "种子这么少，还说不清哪条路更常见。",
    ],
    "twomin.induction.gap_lower": "比一层低 {drop:.2f} 奈特 [{drop_lo:.2f}, {drop_hi:.2f}]",
    "twomin.induction.gap_other": "与一层相比变化 {diff:+.2f} 奈特 [{lo:+.2f}, {hi:+.2f}]，{verdict}",
    # docs/lab/kv-heads
    "twomin.kvheads": [
        "**要缓存的是键和值**：查询只用一次，过去每个词元的键和值却每一步都要重读，"
        "所以存下来。`d_model` = {d_model}、{heads} 个头、bfloat16、{layers} 层、"
        "{context:,} 个词元时，每个查询头各有键/值头要缓存 {gib_mha:.1f} GiB，"
        "全部共用一个（MQA）只要 {gib_mqa:.1f} GiB。",
        "**缓存与解码速度**：L = {L:,} 时，有缓存生成下一个词元比不用缓存快 "
        "{speedup:,.0f} 倍（MHA g={h}，本站的 CPU）。",
        "**共用与解码速度**：有缓存、L = {L:,} 时，MQA（g={g_small}）每个词元"
        "的用时是 MHA 的 {mqa_time:.2f} 倍，{mqa_time_verdict}。",
        "**MLA 省缓存，多算术**：7B 级别的一层、缓存里已有 {S:,} 个位置时，吸收式 MLA"
        "（d_c = {d_c}）解码一步读 {read_mla} MiB 缓存，MHA 要读 {read_mha} MiB；"
        "它一步的 FLOPs 却是 MHA 的 {flops_mla} 倍。",
    ],
    # docs/lab/kv-heads-accuracy
    "twomin.kv_power": ("；不过区间一直延伸到少 {lo} 个百分点，这只说明这么多种子分辨不出，"
                        "并不说明共享不付代价"),
    "twomin.kvaccuracy": [
        "**第一轮，简化的联想回忆**：各个 g 与 MHA 按种子配对比较（每种 {recall_seeds} 个种子），"
        "{recall_family} 个比较一起做 Holm 校正，"
        "{recall_found:其中 # 个测得出差别|没有一个测得出差别|个个都测得出差别=recall_family}。",
        "**共用与准确率**（每种 {seeds} 个种子）：事先定好的测试（带干扰词元的联想回忆）里，"
        "MHA 的 {seeds} 个种子"
        "{learned_mha:里有 # 个学会了任务|里没有一个学会任务|全部学会了任务=seeds}，"
        "MQA 的 {seeds} 个种子{learned_mqa:里有 # 个|里没有一个|全部学会了=seeds}；"
        "平均答对率 MHA {acc_mha:.1%}、MQA {acc_mqa:.1%}。一个种子要么学会、要么没学会，"
        "所以按种子配对的差（平均 {diff_mqa:+.1f} 个百分点）起伏很大：它的 "
        "{level_mqa:.1%} 置信区间（同时比较好几组，所以比 95% 宽）是 "
        "[{lo_mqa:+.1f}, {hi_mqa:+.1f}]，据此判断：{verdict_mqa}{power_mqa}。",
        "**MLA**：这里训练的 {mla_n} 种潜向量大小"
        "{mla_lower:里有 # 种准确率低于 MHA|里没有一种准确率低于 MHA|，准确率都低于 MHA=mla_n}。",
        "**给潜向量加归一化**（看过结果才定的追加实验）：学会任务的种子最多的是 "
        "d_c = {norm_size}，{seeds} 个里有 {norm_learned} 个（不加归一化时 {norm_plain} 个），"
        "MHA 是 {learned_mha} 个。",
    ],
    # docs/lab/performance
    "twomin.performance": [
        "**慢在内存**：L = {L:,} 时，{scratch}的峰值内存是 {mib_scratch:,.0f} MiB，"
        "{fast}只要 {mib_fast:,.0f} MiB；峰值随 L 增长的指数，{scratch}是 "
        "{slope_scratch:.2f}，{fast}是 {slope_fast:.2f}（{memory_verdict}）。",
        "**融合投影 + SDPA 快多少**：L = {speedup_at:,} 时，{scratch}的用时是"
        "{fast}的 {speedup:.2f} 倍（目标至少 {speedup_goal}：{speedup_verdict}）。",
        "**和官方实现比**：{fast}的用时除以{official}的用时，各长度里最不利的"
        "一处（L = {time_at:,}）是 {time:.3f}（目标不超过 {time_goal}："
        "{time_verdict}）。",
    ],
}

EN = {
    "twomin.whatif.join": ", ",
    # docs/article/4-what-if: the §4 two-minute version (the first round, the source's regime, roles, pruning)
    "twomin.whatif": [
        "**One head is not enough**: at every position of a log, the task asks for the events at offsets "
        "{offsets} ({lookups} lookups at once; −1 is the event just before). In one attention layer with "
        "d_model = {d_model_first}, one head gets {acc_1:.1%} of them right on held-out logs (chance is "
        "{chance:.2%}), two heads {acc_2:.1%}, and every count from {plateau} to {plateau_end} heads is "
        "within 1 point of the best ({best:.1%}). Width and parameter count are the same at every head "
        "count; one head has a single set of weights summing to 1, so it cannot give {lookups} places "
        "full weight.",
        "**Too many narrow heads underfit; they do not fit noise**: {widest} heads of d_k = 1 get "
        "{acc_32:.1%}, with a training loss over the last 50 steps of {train_loss_32:.3f}, as high as the "
        "held-out loss ({loss_32:.3f}); none of those heads puts more than {top_32:.0%} of its attention "
        "on any one offset.",
        "**With limited training data**: trained on only {pool} logs (d_model = {d_model}), 4 and 8 heads "
        "get {train_4:.1%} and {train_8:.1%} of their training logs right; on held-out logs, paired by "
        "seed, 8 heads minus 4 heads is {diff_pts:+.1f} points, {level_pct:.0f}% interval [{lo_pts:+.1f}, "
        "{hi_pts:+.1f}]: {verdict}. That is overfitting a small set: this task's labels hold no noise to fit.",
        "**Roles are learned**: in the 4-head models, in {roles_covered:# of the {roles_seeds} seeds|none of "
        "the {roles_seeds} seeds|all {roles_seeds} seeds=roles_seeds}, the four heads come to watch one "
        "offset each, covering all four; which head takes which differs ({roles_distinct} assignments in "
        "{roles_seeds} seeds). Removing one head of seed 0's model costs its own offset {own_drop_pts:.1f} "
        "points on average.",
        "**Hardly any head can be pruned, and how many moves with the seeds**: a head may go only if the "
        "accuracy lost, paired by seed, stays within {tolerance_points:g} point at the upper end of its "
        "{prune_level:.0f}% interval. On the first round's {prune_seeds} seeds, the 8-head models can lose "
        "{removable_8:# of their 8 heads|none of their 8 heads} and the 16-head models "
        "{removable_16:# of their 16|none of their 16}; on {fresh_first} more seeds, "
        "{fresh_removable_8:# of 8|none of 8} and {fresh_removable_16:# of 16|none of 16}.",
    ],
    # docs/article/4b-second-round: the second round's two-minute version
    "twomin.secondround": [
        "**One head is not enough**: each position must fetch {lookups} events "
        "at once, and one layer with one head (the second round's setting: "
        "d_model = d_k = {d_model_1}) gets {acc_1:.1%} on held-out streams. "
        "Its weights sum to 1, so it cannot give {lookups} places full weight.",
        "**More lookups need more heads, not always one per lookup**: with heads of d_k = 8, every one of "
        "{n_seeds} seeds passes 95% from {all_2} heads when each position fetches 2 events, {all_4} heads for "
        "4 and {all_6} for 6; a mean within 1 point of the best takes {near_2}, {near_4} and {near_6} heads. "
        "Fewer heads than lookups suffice at {fewer_bar} lookups by the first count, at {fewer_near} by the "
        "second.",
        "**A head that is too narrow is the floor**: with 4 heads in a layer of d_model = "
        "{width_d_model} and each head's width d_k set on its own, heads of d_k = 1 get {acc_dk1:.1%} on "
        "average and {width_learned_1:# of the {width_seeds} seeds reach|none of the "
        "{width_seeds} seeds reaches|all {width_seeds} seeds reach=width_seeds} "
        "95%; with d_k = 2, {width_learned_2:# of them do|none does|all of them "
        "do=width_seeds}.",
        "**Layers and a feed-forward layer change the answer**: in a residual stack (each layer adds its "
        "output to its input), {all_learned_no} of {cells} shapes (layers × heads) have every seed past 95% "
        "with attention only and {all_learned_ffn} with a feed-forward layer. One layer of one head "
        "(d_model = {stack_d_model}, d_k = {stack_d_k}) with a feed-forward layer still gets only "
        "{ffn_1x1:.1%}; two such layers bring {ffn_2x1_learned:# of the {n_seeds} seeds|none of the "
        "{n_seeds} seeds|all {n_seeds} seeds=n_seeds} past 95%.",
    ],
    "twomin.whatif.lower": "8 heads generalise worse than 4",
    "twomin.whatif.higher": "8 heads generalise better than 4",
    "twomin.whatif.none": "no measurable difference at {n} seeds",
    "twomin.whatif.negligible": "a difference under 1 point",
    "twomin.induction": [
        "**The task**: a run of random tokens written twice, so that every "
        "token of the second copy can be read off the first; guessing costs "
        "ln {vocab} = {chance:.2f} nats.",
        "**One layer is not enough**: {base} averages {base_loss:.2f} nats on "
        "the predictable tokens, not far from guessing.",
        "**One head in each of two layers is**: {small} averages "
        "{small_loss:.2f} nats, {gap}. {formed} of {seeds} seeds formed the "
        "circuit, two heads in relay: a **previous-token head** in layer 0 "
        "(layers count from 0, as in the figure) looks at the token just before "
        "and writes it into each position; a head in layer 1 uses that to find "
        "where the current token appeared before, and copies the token after it. "
        "The loss drops suddenly as it forms, at step {phase_median:,} (median).",
        "**The causal evidence, one head per layer**: cutting the previous-token "
        "head's output from only layer 1's keys changes the loss by "
        "{cut_k:+.2f} nats [{cut_k_lo:+.2f}, {cut_k_hi:+.2f}], {cut_k_verdict}; "
        "from only its queries (a control), by {cut_q:+.2f} nats "
        "[{cut_q_lo:+.2f}, {cut_q_hi:+.2f}], {cut_q_verdict}.",
        "**With four heads per layer, the path varies**: on {circ_seeds} fresh "
        "seeds of {four}, layer 1 reads layer 0 mainly through its **queries** "
        "in {circ_q} (Q-composition: what layer 0 writes at the current token "
        "helps layer 1's query decide where to look) and through its keys in "
        "{circ_k}; {circ_textbook:only # of the|none of the} {circ_seeds} have a "
        "previous-token head. That is too few seeds to say which path is more "
        "common.",
    ],
    "twomin.induction.gap_lower": "{drop:.2f} nats below one layer [{drop_lo:.2f}, {drop_hi:.2f}]",
    "twomin.induction.gap_other": "{diff:+.2f} nats from one layer [{lo:+.2f}, {hi:+.2f}]: {verdict}",
    "twomin.kvheads": [
        "**Keys and values are what decoding keeps**: a query is used once, "
        "but every past token's key and value are read again at every step, "
        "so they are cached. With d_model = {d_model}, {heads} heads, "
        "bfloat16, {layers} layers and {context:,} tokens, a key/value head "
        "per query head caches {gib_mha:.1f} GiB; one shared head (MQA) "
        "caches {gib_mqa:.1f} GiB.",
        "**The cache and decoding speed**: at L = {L:,}, the next "
        "token comes {speedup:,.0f} times faster with the cache than without "
        "(MHA g={h}, this site's CPU).",
        "**Sharing and decoding speed**: with the cache at L = {L:,}, MQA "
        "(g={g_small}) takes {mqa_time:.2f} times MHA's time per token: "
        "{mqa_time_verdict}.",
        "**MLA saves cache and spends arithmetic**: for one 7B-class layer "
        "with {S:,} cached positions, absorbed MLA (d_c = {d_c}) reads "
        "{read_mla} MiB of cache per step where MHA reads {read_mha} MiB, but "
        "does {flops_mla} times MHA's FLOPs.",
    ],
    "twomin.kv_power": ("; but the interval reaches a cost of {lo} points, so this is a limit of the seeds, "
                        "not evidence that sharing costs nothing"),
    "twomin.kvaccuracy": [
        "**The first test, simplified recall**: each g paired by seed against "
        "MHA ({recall_seeds} seeds each), {recall_found} of {recall_family} "
        "Holm-corrected comparisons show a measurable difference.",
        "**Sharing and accuracy** ({seeds} seeds each): in the test fixed "
        "in advance (recall among distractors), {learned_mha} of {seeds} MHA seeds learned the task and "
        "{learned_mqa} of {seeds} MQA seeds; MHA answers {acc_mha:.1%} on "
        "average, MQA {acc_mqa:.1%}. A seed either learns or does not, so "
        "the paired difference ({diff_mqa:+.1f} points on average) swings "
        "widely: its {level_mqa:.1%} interval (wider than 95% because "
        "several comparisons are made at once) is [{lo_mqa:+.1f}, "
        "{hi_mqa:+.1f}], so {verdict_mqa}{power_mqa}.",
        "**MLA**: {mla_lower} of the {mla_n} latent sizes trained here answer "
        "measurably fewer queries than MHA.",
        "**A normalised latent** (a follow-up chosen after the results): the "
        "width where most normed seeds learned is d_c = {norm_size}, with "
        "{norm_learned} of {seeds} (without the norm {norm_plain}); MHA has "
        "{learned_mha}.",
    ],
    "twomin.performance": [
        "**Memory is the problem**: at L = {L:,}, the {scratch} version peaks "
        "at {mib_scratch:,.0f} MiB and the {fast} one at {mib_fast:,.0f} MiB; "
        "peak memory grows as L to the power {slope_scratch:.2f} for the "
        "{scratch} version and {slope_fast:.2f} for the {fast} one "
        "({memory_verdict}).",
        "**What a fused projection and SDPA buy**: at L = {speedup_at:,}, the "
        "{scratch} version takes {speedup:.2f} times as long as the {fast} one "
        "(goal: at least {speedup_goal}; {speedup_verdict}).",
        "**Against the official layer**: the {fast} version's time over that "
        "of the {official}, at its least favourable length (L = {time_at:,}), "
        "is {time:.3f} (goal: at most {time_goal}; {time_verdict}).",
    ],
}
