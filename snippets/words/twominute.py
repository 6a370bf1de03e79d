"""Words printed into pages: the two-minute versions that open the long pages (see snippets.i18n and
snippets.twominute). Each page's entry is its list of bullets, filled with snippets.i18n.fill."""

ZH = {
    "twomin.whatif.join": "、",
    # docs/article/4-what-if: the §4 two-minute version (the first round, the source's regime, roles, pruning)
    "twomin.whatif": [
        "**一个头不够**：任务要求日志里的每个位置同时说出偏移 {offsets} 处的事件（共 {lookups} 处，"
        "−1 就是紧挨在它前面的那个）。`d_model` = {d_model_first} 的单层注意力里，一个头在留出日志上平均"
        "只答对 {acc_1:.1%}（随机猜是 {chance:.2%}），两个头 {acc_2:.1%}，{plateau_counts} 个头"
        "都与最好的（{best:.1%}）相差不到 1 个百分点。头数变了，总宽度和参数量都不变；"
        "一个头只有一组加起来等于 1 的权重，给不了 {lookups} 处各自的全部权重。",
        "**头太多、太窄，是欠拟合而不是拟合噪声**：{widest} 个 d_k = 1 的头平均只有 {acc_32:.1%}，"
        "最后 50 步的训练损失 {train_loss_32:.3f}，和留出集上的损失 {loss_32:.3f} 一样高；"
        "这些头没有一个把超过 {top_32:.0%} 的注意力放在同一个偏移上。",
        "**训练数据有限时**：只用 {pool} 段日志训练（`d_model` = {d_model}），4 个头和 8 个头在训练日志上"
        "分别答对 {train_4:.1%} 和 {train_8:.1%}；到了留出日志上，按种子配对，8 个头减 4 个头得 "
        "{diff_pts:+.1f} 个百分点，{level_pct:.0f}% 置信区间 [{lo_pts:+.1f}, {hi_pts:+.1f}]：{verdict}。"
        "这是小数据集上的过拟合（这个任务的标签里并没有噪声可拟合）；8 个头同时也更窄，所以分不清代价来自头数还是每个头的维数。",
        "**分工是训练出来的**：4 个头的模型里，{roles_covered:{roles_seeds} 个种子里有 # 个的四个头正好"
        "一头盯一个偏移|{roles_seeds} 个种子里没有一个的四个头正好一头盯一个偏移|{roles_seeds} 个种子无一例外，"
        "四个头正好一头盯一个偏移=roles_seeds}，谁盯哪个却各不相同（{roles_seeds} 个种子，{roles_distinct} 种分法）；"
        "种子 0 的模型去掉一个头，它盯的那个偏移准确率平均下降 {own_drop_pts:.1f} 个百分点。",
        "**能剪掉的头很少，能剪几个还随种子变**：准确率的下降按种子配对，{prune_level:.0f}% 置信区间的上端"
        "不超过 {tolerance_points:g} 个百分点，才算去掉了没有损失。本页训练的 {prune_seeds} 个种子里，"
        "8 个头的模型{removable_8:能去掉 # 个|一个也去不掉}，16 个头的模型{removable_16:能去掉 # 个|一个也去不掉}；"
        "另换 {fresh_first} 个种子，8 个头的{fresh_removable_8:能去掉 # 个|一个也去不掉}，"
        "16 个头的{fresh_removable_16:能去掉 # 个|一个也去不掉}。",
    ],
    # docs/article/4b-second-round: the second round's two-minute version
    "twomin.secondround": [
        "**一个头不够**：每个位置要同时取 {lookups} 处，单层单头（第二轮的设置："
        "`d_model` = d_k = {d_model_1}）在留出集上只有 {acc_1:.1%}："
        "一个头的权重加起来是 1，给不了 {lookups} 处各自的全部权重。",
        "**要同时取的处数越多，需要的头越多，但不总是一处一个头**：每个头 d_k = 8 时，要让 {n_seeds} "
        "个种子全部超过 95%，取 2 处要 {all_2} 个头，4 处要 {all_4} 个，6 处要 {all_6} 个；"
        "按“平均准确率离最好的设置不到 1 个百分点”算，分别是 {near_2}、{near_4}、{near_6} 个。"
        "头比处数少也够用：按“种子全部超过 95%”算，取 {fewer_bar} 处时如此；按“离最好不到 1 个百分点”算，取 {fewer_near} 处时如此。",
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
        "**要缓存的是键和值**：查询只用一次，过去每个词元的键和值却每一步都要重读，所以存下来。"
        "g 是键/值头的个数，由 {heads} 个查询头共用。7B 级别的模型（{layers} 层、`d_model` = {d_model}、"
        "bfloat16、{context:,} 个词元）每个查询头各有一个（MHA，g = {heads}）要缓存 {gib_mha:.1f} GiB，"
        "GQA g = {g_gqa_real} 要 {gib_gqa:.1f} GiB，全部共用一个（MQA，g = 1）只要 {gib_mqa:.1f} GiB。",
        "**缓存与解码速度**（一个有 {h} 个查询头的小层，在本站的 CPU 上计时）：L = {L:,} 时，"
        "有缓存生成下一个词元比每步从头重算快 {speedup:,.0f} 倍（MHA）。",
        "**键/值头越少，每步越快**：L = {L:,} 时，GQA（g = {g_mid}）的缓存是 MHA 的 {gqa_share:.1%}，"
        "每个词元的用时是 MHA 的 {gqa_time:.2f} 倍，{gqa_time_verdict}；MQA（g = {g_small}）是 "
        "{mqa_time:.2f} 倍，{mqa_time_verdict}。",
        "**这些用时是“不复制”的**：每个缓存的键/值头原样供它那组查询头用。图例里写“有缓存、复制”的线，"
        "是先把每个键/值头复制给用它的每个查询头再算（简单写法都这样做），省下的少一些："
        "GQA 是 MHA 用时的 {gqa_copies:.2f} 倍，MQA {mqa_copies:.2f} 倍。",
        "**MLA 省缓存，多算术**：MLA 每个位置只缓存一个宽 d_c 的潜向量，键和值由它还原；"
        "吸收式把查询移进潜空间直接打分，不必还原键和值。7B 级别的一层、缓存里已有 {S:,} 个位置时，"
        "吸收式 MLA（d_c = {d_c}）解码一步读 {read_mla} MiB 缓存，MHA 要读 {read_mha} MiB；"
        "它一步的 FLOPs 却是 MHA 的 {flops_mla} 倍。",
    ],
    # docs/lab/kv-heads-accuracy
    "twomin.kv_power": ("；不过 MQA 的区间一直延伸到少 {lo} 个百分点，这只说明种子太少、分辨不出，"
                        "并不说明共享不付代价"),
    "twomin.kvaccuracy": [
        "**第一项测试，简化的联想回忆**（列完键值对紧接着提问）：g = {recall_gs} 的 GQA/MQA 各与 "
        "{recall_h} 个头的 MHA 按种子配对，键值对 {recall_pairs} 个，每种 {recall_seeds} 个种子，"
        "共 {recall_family} 个比较。Holm 校正让每个比较的标准更严，使这 {recall_family} 个比较合起来"
        "误报的风险不超过 {alpha:.0%}。结论：{recall_found:其中 # 个测得出差别|"
        "GQA 和 MQA 与 MHA 都没有可测的差别|个个都测得出差别=recall_family}。",
        "**事先定好的测试**（带干扰词元的联想回忆；留出集准确率不低于 {learned_bar:.0%} 算学会）："
        "学会任务的种子，MHA {learned_mha}/{seeds}，GQA（g = {g_hi}）{learned_g_hi}/{seeds}，"
        "GQA（g = {g_lo}）{learned_g_lo}/{seeds}，MQA {learned_mqa}/{seeds}；"
        "平均答对率 MHA {acc_mha:.1%}、MQA {acc_mqa:.1%}。",
        "**GQA 和 MQA 的结论**：一个种子要么学会、要么没学会，所以按种子配对的差起伏很大："
        "MQA 平均差 {diff_mqa:+.1f} 个百分点，{level_mqa:.1%} 置信区间（同时做 {mqar_family} 个比较，"
        "所以比 95% 宽）是 [{lo_mqa:+.1f}, {hi_mqa:+.1f}]。结论：{shared_found:其中 # 种与 MHA "
        "的差别测得出来|{seeds} 个种子下，GQA 和 MQA 与 MHA 都没有可测的差别|"
        "{shared_n} 种都与 MHA 有可测的差别=shared_n}{power_mqa}。",
        "**本页搭的 MLA 几乎学不会**（每个位置只缓存一个宽 d_c 的潜向量）：d_c = {mla_sizes} 时，"
        "{seeds} 个种子里学会的分别是 {mla_learned} 个（MHA {learned_mha} 个）。结论："
        "{mla_lower:其中 # 种宽度的准确率低于 MHA，差别测得出来|没有一种宽度的准确率与 MHA 有可测的差别|"
        "{mla_n} 种宽度的准确率都低于 MHA，差别测得出来=mla_n}；这只是对本页这样搭的 MLA 而言。",
        "**给潜向量加归一化**（看过结果才定的追加实验）：加上 RMSNorm 后，学会的种子最多的是 "
        "d_c = {norm_size}，{seeds} 个里有 {norm_learned} 个（不加时 {norm_plain} 个，MHA "
        "{learned_mha} 个）；与不加相比，{norm_verdict}。结论：归一化没有救回这个 MLA。",
    ],
    # docs/lab/performance
    "twomin.performance": [
        "**比的是哪两版**：{scratch}是本站手写的那一层，要把 L × L 的注意力权重整张存下；"
        "{fast}是本页的写法，一次矩阵乘法算出 Q、K、V，再交给 PyTorch 的 SDPA"
        "（`scaled_dot_product_attention`），它在 CPU 上从不存这张表。"
        "两版都和 `nn.MultiheadAttention` 用同一组权重、同一个输入比。",
        "**`nn.MultiheadAttention` 慢在哪**：推理时（`eval()`、不求梯度、`batch_first=True`）"
        "它走 C++ 快速路径，即使 `need_weights=False` 也把 L × L 个权重全部存下："
        "峰值内存按 L 的 {fastpath_slope:.2f} 次方增长（2 次方就是 L²）；L = {L:,} 时，"
        "它的用时是同一层改走 SDPA 时的 {fastpath_time:.3f} 倍。",
        "**怎样让它走 SDPA**：传 `need_weights=False`，再让快速路径的某个条件不成立，"
        "比如保留默认的 `batch_first=False`，或者调用 "
        "`torch.backends.mha.set_fastpath_enabled(False)`；也可以直接用{fast}。",
        "**内存**：L = {L:,} 时，{scratch}的峰值内存是 {mib_scratch:,.0f} MiB，"
        "{fast}只要 {mib_fast:,.0f} MiB；峰值随 L 增长的指数分别是 {slope_scratch:.2f} 和 "
        "{slope_fast:.2f}（目标约为 2 和 1：{memory_verdict}）。",
        "**时间**：L = {speedup_at:,} 时，{scratch}的用时是{fast}的 {speedup:.2f} 倍"
        "（目标至少 {speedup_goal}：{speedup_verdict}）。和最快的 `nn.MultiheadAttention` 配置比，"
        "{fast}在最不利的长度（L = {time_at:,}）用时是它的 {time:.3f} 倍，即{time_dir} {time_pct:.1%}"
        "（目标：每个长度都最多慢 {time_goal_pct:.0%}：{time_verdict}）。",
    ],
    "twomin.performance.slower": "慢",
    "twomin.performance.faster": "快",
}

EN = {
    "twomin.whatif.join": ", ",
    # docs/article/4-what-if: the §4 two-minute version (the first round, the source's regime, roles, pruning)
    "twomin.whatif": [
        "**One head is not enough**: at every position of a log, the task asks for the events at offsets "
        "{offsets} ({lookups} lookups at once; −1 is the event just before). In one attention layer with "
        "d_model = {d_model_first}, one head gets {acc_1:.1%} of them right on held-out logs (chance is "
        "{chance:.2%}), two heads {acc_2:.1%}, and {plateau_counts} heads are each "
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
        "{hi_pts:+.1f}]: {verdict}. That is overfitting a small set (this task's labels hold no noise to fit), "
        "and since the 8 heads are also narrower, it does not tell whether the count or the width costs.",
        "**Roles are learned**: in the 4-head models, in {roles_covered:# of the {roles_seeds} seeds|none of "
        "the {roles_seeds} seeds|all {roles_seeds} seeds=roles_seeds}, the four heads come to watch one "
        "offset each, covering all four; which head takes which differs ({roles_distinct} assignments in "
        "{roles_seeds} seeds). Removing one head of seed 0's model costs its own offset {own_drop_pts:.1f} "
        "points on average.",
        "**Hardly any head can be pruned, and how many moves with the seeds**: a head may go only if the "
        "accuracy lost, paired by seed, stays within {tolerance_points:g} point at the upper end of its "
        "{prune_level:.0f}% interval. On the {prune_seeds} seeds this page trains, the 8-head models can lose "
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
        "Fewer heads than lookups are enough at {fewer_bar} lookups when every seed must pass 95%, and at "
        "{fewer_near} when the mean must come within 1 point of the best.",
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
        "so they are cached. g is the number of key/value heads that the "
        "{heads} query heads share. A 7B-class model ({layers} layers, "
        "d_model = {d_model}, bfloat16, {context:,} tokens) caches "
        "{gib_mha:.1f} GiB with one per query head (MHA, g = {heads}), "
        "{gib_gqa:.1f} GiB with GQA g = {g_gqa_real}, and {gib_mqa:.1f} GiB "
        "with one for all (MQA, g = 1).",
        "**The cache and decoding speed** (a small layer with {h} query "
        "heads, timed on this site's CPU): at L = {L:,}, the next token comes "
        "{speedup:,.0f} times faster with the cache than by recomputing every "
        "step from scratch (MHA).",
        "**Fewer key/value heads, faster steps**: at L = {L:,}, GQA "
        "(g = {g_mid}) caches {gqa_share:.1%} of MHA's keys and values and "
        "takes {gqa_time:.2f} times MHA's time per token, {gqa_time_verdict}; "
        "MQA (g = {g_small}) takes {mqa_time:.2f} times, {mqa_time_verdict}.",
        "**These times are without copies**: each cached key/value head "
        "serves its query heads as it is. The figure's \"heads copied\" lines "
        "first copy each key/value head to every query head that uses it, as "
        "simple code does, and save less: GQA takes {gqa_copies:.2f} times "
        "MHA's time, MQA {mqa_copies:.2f}.",
        "**MLA saves cache and spends arithmetic**: MLA caches one latent "
        "vector of width d_c per token and rebuilds keys and values from it; "
        "its absorbed form moves the query into the latent space instead, so "
        "nothing is rebuilt. For one 7B-class layer with {S:,} cached "
        "positions, absorbed MLA (d_c = {d_c}) reads {read_mla} MiB of cache "
        "per step where MHA reads {read_mha} MiB, but does {flops_mla} times "
        "MHA's FLOPs.",
    ],
    "twomin.kv_power": ("; but MQA's interval reaches a cost of {lo} points: too few seeds to tell, "
                        "not evidence that sharing costs nothing"),
    "twomin.kvaccuracy": [
        "**The first test, simplified recall** (each key asked right after "
        "the pairs): GQA/MQA with g = {recall_gs}, each paired by seed with "
        "{recall_h}-head MHA, at {recall_pairs} pairs, {recall_seeds} seeds "
        "each: {recall_family} comparisons. Holm's correction holds each to a "
        "stricter level, so that all {recall_family} together risk a false "
        "alarm at most {alpha:.0%} of the time. Verdict: {recall_found:# of "
        "them show a measurable difference|no measurable difference between "
        "GQA or MQA and MHA at {recall_seeds} seeds|all of them show a measurable difference="
        "recall_family}.",
        "**The test fixed in advance** (recall among distractors; a seed "
        "has learned at {learned_bar:.0%} held-out accuracy): seeds that "
        "learned the task, MHA {learned_mha}/{seeds}, GQA (g = {g_hi}) "
        "{learned_g_hi}/{seeds}, GQA (g = {g_lo}) {learned_g_lo}/{seeds}, MQA "
        "{learned_mqa}/{seeds}; MHA answers {acc_mha:.1%} of queries on "
        "average, MQA {acc_mqa:.1%}.",
        "**Verdict on GQA and MQA**: a seed either learns or does not, so "
        "paired differences swing widely: MQA's is {diff_mqa:+.1f} points, "
        "{level_mqa:.1%} interval [{lo_mqa:+.1f}, {hi_mqa:+.1f}] (wider than "
        "95%: {mqar_family} comparisons at once). {shared_found:# of the "
        "{shared_n} differ measurably from MHA|No measurable difference from "
        "MHA for GQA or MQA at {seeds} seeds|All {shared_n} differ measurably "
        "from MHA=shared_n}{power_mqa}.",
        "**MLA as built on this page almost never learned the task** (it "
        "caches one latent of width d_c per token): seeds that learned, "
        "{mla_learned} of {seeds} at d_c = {mla_sizes} (MHA {learned_mha}). Verdict: "
        "{mla_lower:measurably less accurate than MHA at # of the {mla_n} "
        "widths|no width measurably different from MHA|measurably less "
        "accurate than MHA at all {mla_n} widths=mla_n}.",
        "**A normalised latent** (a follow-up chosen after the results): "
        "with an RMSNorm on the latent, the most seeds, {norm_learned} of {seeds}, learned at d_c = "
        "{norm_size} ({norm_plain} without it; MHA "
        "{learned_mha}); against no norm, {norm_verdict}. Verdict: the norm "
        "did not rescue this MLA.",
    ],
    "twomin.performance": [
        "**The two versions**: \"{scratch}\" is this site's hand-written "
        "layer, which stores the whole L × L table of attention weights; "
        "\"{fast}\" is this page's: one matrix product for Q, K and V, then "
        "PyTorch's SDPA (`scaled_dot_product_attention`), which on CPU never "
        "stores that table. Both are timed against `nn.MultiheadAttention` "
        "with the same weights and input.",
        "**Where `nn.MultiheadAttention` loses time**: in inference "
        "(`eval()`, no gradients, `batch_first=True`) it takes a C++ fast path "
        "that stores every head's L × L weights even with `need_weights=False`: its "
        "peak memory grows as L to the power {fastpath_slope:.2f} (2 would be "
        "L²), and at L = {L:,} it takes {fastpath_time:.3f} times as long as "
        "the same layer calling SDPA.",
        "**To make it call SDPA**: pass `need_weights=False` and let one "
        "fast-path condition fail, e.g. keep the default `batch_first=False` "
        "or call `torch.backends.mha.set_fastpath_enabled(False)`; or use the "
        "{fast} version.",
        "**Memory**: at L = {L:,}, the {scratch} version peaks at "
        "{mib_scratch:,.0f} MiB and the {fast} one at {mib_fast:,.0f} MiB; "
        "peak memory grows as L to the power {slope_scratch:.2f} and "
        "{slope_fast:.2f} (goal: about 2 and 1; {memory_verdict}).",
        "**Time**: at L = {speedup_at:,}, the {scratch} version takes "
        "{speedup:.2f} times as long as the {fast} one (goal: at least "
        "{speedup_goal}; {speedup_verdict}). Against the fastest "
        "`nn.MultiheadAttention` setting, the {fast} version takes {time:.3f} "
        "times its time at its least favourable length (L = {time_at:,}), "
        "i.e. {time_pct:.1%} {time_dir} (goal: at most {time_goal_pct:.0%} "
        "slower at every length; {time_verdict}).",
    ],
    "twomin.performance.slower": "slower",
    "twomin.performance.faster": "faster",
}
