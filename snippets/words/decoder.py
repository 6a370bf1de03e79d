"""Words printed into pages: decoder (see snippets.i18n)."""

ZH = {
    # snippets.decoder.report: the real decoder page (SmolLM2-135M)
    "decoder.config": ("{num_layers} 层，每层 {num_heads} 个查询头、{num_kv_heads} 个键/值头（每 {group} 个查询头共用一个），"
                       "`d_model` = {d_model}，`d_k` = {d_k}，前馈网络宽 {d_ff}，词表 {vocab:,}，上下文 {context:,} 个词元，"
                       "RoPE 基数 {rope_base:,.0f}"),
    "decoder.tolerance": ("测试要求：在同一批中英文文本上，两边 logits 的最大绝对误差小于 {tol:g}，"
                          "每个位置预测的下一个词元（argmax）完全一致；一批中英文提示用贪心解码各生成 {steps} 个新词元，"
                          "有缓存和没缓存逐个词元完全相同。"),
    "decoder.bullet.same": ("**本站的层复现了这个模型**：SmolLM2-135M-Instruct 是一个小型解码器，做过指令微调（在预训练之后"
                            "再训练，学会按指令作答），权重矩阵量化成 4 位存储。把它装进本站的 `GroupedQueryAttention`（外加 "
                            "RoPE、RMSNorm 和 SwiGLU），和 `transformers` 读同一个文件算出的 logits 相差不到 {tol:g}（有测试断言）。"),
    "decoder.bullet.cache": ("**共用键/值头，缓存变小**：{h} 个查询头只配 {g} 个键/值头，bfloat16 下每个词元缓存 {kib:.1f} KiB，"
                             "上下文 {context:,} 个词元时共 {mib:,.0f} MiB；如果每个头都有自己的键和值（MHA），"
                             "要 {mha_mib:,.0f} MiB。"),
    "decoder.bullet.prev": ("**有些头和小模型里的很像**：有的看前一个词元（最突出的第 {layer} 层头 {head}，平均把 {score:.0%} "
                            "的注意力给它）；"),
    "decoder.bullet.induction": ("有的像归纳头：一段随机词元写两遍（每遍 {T} 个），从第二遍的每个词元出发，去看第一遍里同一个词元"
                                 "后面的那个位置，也就是接着抄该抄的地方（前缀匹配）。{total} 个头里有 {n} 个的前缀匹配分数超过 {thr}，"
                                 "在第 {first} 到第 {last} 层；最高的是第 {layer} 层头 {head}（{score:.2f}）。"),
    "decoder.bullet.sink": ("**第一个词元拿走大量注意力**：在两段普通文字上，各头给第 0 个位置的平均份额是 {mean:.0%}，"
                            "{total} 个头里有 {n} 个超过一半。"),
    "decoder.layers": ("前缀匹配分数超过 {thr} 的头，按层计数（层:个数）：{listed}。{layers} 层里有 {n_layers} 层至少有一个。"),
    "decoder.top_head": ["名次", "前一个词元（两段正文）", "前缀匹配（写两遍的随机词元）", "第一个词元（两段正文）"],
    "decoder.timing_head": ["已缓存的词元数 L", "缓存（MiB，float32）", "复制键/值头：毫秒/词元",
                            "不复制：毫秒/词元", "不复制 ÷ 复制"],
    "decoder.timing_judged": "{ratio}（{level} 置信区间），{verdict}",
    "decoder.timing_sentence": ("两种做法算出的 logits 相同，最大差别 {diff}，只是 float32 的舍入。"
                                "{layers} 层里每一层都把 {g} 个键/值头原地读给 {h} 个查询头、不再复制：{where}"),
    "decoder.timing_all": "测的 {n} 个长度上，一步都确实更快（{n} 个比值一起做 Holm 校正）；缓存 {L} 个词元时，少用了 {share:.0%} 的时间。",
    "decoder.timing_some": "测的 {n} 个长度里，只有 L = {lengths} 时一步确实更快（{n} 个比值一起做 Holm 校正）。",
    "decoder.timing_none": "测的 {n} 个长度上，都看不出可测的差别（{n} 个比值一起做 Holm 校正）。",
    "decoder.timing_sep": "、",
    "decoder.cache_head": ["结构", "键/值头", "字节/词元（float32）", "字节/词元（bfloat16）",
                           "上下文占满时（MiB，bfloat16）"],
    "decoder.kind.MHA": "MHA（每个查询头一个键/值头）",
    "decoder.kind.GQA": "GQA（本模型）",
    "decoder.kind.MQA": "MQA（所有头共用一个）",
    "decoder.cache_check": ("直接从一次真实前向计算留下的 30 个 `KVCache` 里读：每个词元 {read:,.0f} 字节（float32），"
                            "公式给出 {formula:,} 字节，{same}。"),
    "decoder.same": "两者相同",
    "decoder.differs": "两者不同",
    "decoder.fig.prev": "前一个词元",
    "decoder.fig.prefix": "前缀匹配",
    "decoder.fig.sink": "第一个词元",
    "decoder.fig.heads": "头",
    "decoder.fig.layers": "层",
    "decoder.fig.alt": "SmolLM2-135M 的 {layers} 层 × {heads} 个头在三种分数上的热力图",
    "decoder.fig.caption": ("每格一个头（行是层，列是头）。左和右：中英两段正文上的平均；"
                            "中：{n} 条写两遍的随机词元（每遍 {T} 个）上的前缀匹配分数。颜色刻度相同，0 到 1。"),
    "decoder.group.q": "一层里的 {h} 个查询头",
    "decoder.group.kv": "{g} 个键/值头，每个服务 {per} 个查询头（d_k = {d_k}）",
    "decoder.group.note": "{layers} 层都这样分组；缓存里只存键/值头",
    "decoder.group.alt": "{h} 个查询头分成 {g} 组，每组 {per} 个头连到同一个键/值头",
    "decoder.group.caption": ("SmolLM2-135M 每层的分组，按模型的配置画出：{h} 个查询头共用 {g} 个键/值头，"
                              "缓存只有每个头各存一份时的 1/{per}。"),
    # the cut of the top induction heads (results/decoder-ablation.json)
    "decoder.bullet.ablation": ("**切掉最像归纳头的头**：把前缀匹配分数最高的 {k} 个头置零，随机词元第二遍上的损失从 {a:.2f} "
                                "变为 {b:.2f} 奈特（{d}，{v}）；改为在同样几层里随机置零 {k} 个头，是 {rnd:.2f} 奈特：{vr}。"
                                "普通文本上的变化是 {do}，{vo}。"),
    "decoder.bullet.vs_random_higher": "切前几名比切随机头代价更大",
    "decoder.bullet.vs_random_lower": "切前几名比切随机头代价更小",
    "decoder.bullet.vs_random_none": "{n} 段文本下，两者没有可测的差别",
    "decoder.bullet.vs_random_negligible": "两者相差不到 {minimum:g} 奈特，可以忽略",
    "decoder.abl_head": ["切掉的头", "比较", "平均损失（奈特）：对照 → 切除", "差（奈特，Holm 区间）", "结论"],
    "decoder.abl_cut_zero": "前 {k} 个，置零",
    "decoder.abl_cut_mean": "前 {k} 个，换成均值",
    "decoder.abl_comp.cut-intact:repeated": "随机词元第二遍：切除 − 完整",
    "decoder.abl_comp.cut-intact:ordinary": "普通文本：切除 − 完整",
    "decoder.abl_comp.top-random:repeated": "随机词元第二遍：前 k 个 − 随机 k 个",
    "decoder.abl_diff": "{d:+.2f} 奈特[{lo:+.2f}, {hi:+.2f}]",
    "decoder.v_higher": "损失更高",
    "decoder.v_lower": "损失更低",
    "decoder.v_none": "{n} 段文本下没有可测的差别",
    "decoder.v_negligible": "有差别，但小于 {minimum:g} 奈特，可以忽略",
    "decoder.abl_join": "。",
    "decoder.abl_sentence": ("完整的模型在随机词元的第一遍上平均损失 {first:.2f} 奈特（词元是随机抽的，无从预测），"
                             "到第二遍只有 {second:.2f} 奈特：它在照着第一遍抄；{n_ord} 段普通文本上平均 {ordinary:.2f} 奈特。"
                             "下面的差都按文本配对（写两遍的随机词元 {n_rep} 条，每遍 {T} 个词元；普通文本 {n_ord} 段），"
                             "{family} 个比较用 Holm 方法一起校正，还要求精确的符号翻转检验也通过。{parts}。"),
    "decoder.abl_part": ("置零前 {k} 个头：第二遍的损失变为 {top:.2f} 奈特，变化 {d}，{v}；"
                         "在同一层里随机置零同样多的头，损失是 {rnd:.2f} 奈特，前 {k} 个减随机的为 {dr}，{vr}；"
                         "普通文本上变化 {do}，{vo}。把这 {k} 个头换成各自的均值输出，第二遍的损失是 {mean:.2f} 奈特，"
                         "变化 {dm}，{vm}；普通文本上 {dmo}，{vmo}"),
    "decoder.abl_heads": ("按已提交的前缀匹配分数（括号里的数），k = {k1} 时切掉的是 {first}；k = {k2} 时再加上 {more}。对照组的头每段文本重新抽一次（共 {units} 次，种子固定）："
                          "每个被切的头，对应同一层里另一个不在前 k 名中的头。"),
    "decoder.abl_induction": ("作为参照，[归纳头](induction-heads.md#causes)一页训练的两层模型里，置零第 1 层唯一的归纳头，"
                              "可预测词元上的损失从 {a1:.2f} 变为 {b1:.2f} 奈特（{one}，{seeds} 个种子）；"
                              "每层 4 个头时，置零第 1 层分数最高的归纳头，从 {a4:.2f} 变为 {b4:.2f} 奈特（{four}）。"),
    # the exercises (snippets.exercises.decoder)
    "decoder.ex_prev": "手算：{hand:.4f}；heads.previous_token：{code:.4f}",
    "decoder.ex_cache_head": ["结构", "键/值头", "缓存（MiB，bfloat16）", "是 GQA 的几倍"],
    "decoder.ex_holm_head": ["比较", "p", "这一步的门槛", "手算：有差别？", "本页的结论"],
    "decoder.ex_sep": "；",
    "decoder.ex_yes": "是",
    "decoder.ex_no": "否",
    "decoder.abl_reading": ("换句话说：第一遍和第二遍之间的损失差距，置零前 {k1} 个头就抹掉了 {s1:.0%}，置零前 {k2} 个抹掉了 {s2:.0%}。"
                            "普通文本上的 {n} 个区间都落在 ±{bound:.2f} 奈特以内，{inside}。"),
    "decoder.abl_inside": "小于实验方案定下的、算得上有影响的最小差别 {minimum:g} 奈特",
    "decoder.abl_outside": "有的超出了实验方案定下的最小差别 {minimum:g} 奈特，所以说不上影响可以忽略",
    "decoder.abl_head_item": "L{L} H{h}（{s:.2f}）",
    "decoder.abl_list_sep": "、",
    # the small runs on the page (snippets.decoder.report.quick_decode, quick_scores)
    "decoder.quick_decode": ("提示 {prompt} 之后，有缓存时生成的 {n} 个词元是 {cached}，没有缓存时是 {again}：{same}。"
                             "{P} 个位置的 RoPE 角度：cos 和 sin 的形状都是 {shape}（{P} 个位置 × d_k/2 = {pairs} 对）。"),
    "decoder.quick_copies": "缓存了 {L} 个位置之后，两种写法算出的 logits 形状都是 {shape}，最大差别 {diff}：{same}。",
    "decoder.quick_cut": ("把第 {layer} 层的第 {head} 个头换成{fill}，logits 最多变了 {moved}；"
                          "离开 with 块之后再算一遍，和原来的最大差别是 {back}：{restored}。"),
    "decoder.quick_fill_zero": "零",
    "decoder.quick_fill_mean": "它在这些词元上的平均输出",
    "decoder.quick_restored": "钩子已经摘掉，模型恢复原样",
    "decoder.quick_not_restored": "模型没有恢复原样",
    "decoder.quick_same": "两者相同",
    "decoder.quick_differs": "两者不同",
    "decoder.quick_scores_head": ["编出来的头", "前一个词元", "前缀匹配", "第一个词元"],
    "decoder.quick_heads": ["只看前一个词元", "只看第一个词元", "归纳：看上一次出现之后的那个位置"],
}

EN = {
    "decoder.config": ("{num_layers} layers, each with {num_heads} query heads and {num_kv_heads} key/value heads "
                       "(one shared by every {group} query heads), `d_model` = {d_model}, `d_k` = {d_k}, feed-forward "
                       "width {d_ff}, vocabulary {vocab:,}, context {context:,} tokens, RoPE base {rope_base:,.0f}"),
    "decoder.tolerance": ("The test requires, on the same zh and en texts, a largest absolute logit difference "
                          "below {tol:g} and the same next-token choice (argmax) at every position; and greedy decoding of "
                          "{steps} new tokens from a batch of zh and en prompts gives the same tokens, one by one, "
                          "with the cache and without it."),
    "decoder.bullet.same": ("**The site's layers reproduce this model**: SmolLM2-135M-Instruct is a small "
                            "decoder, instruction-tuned (trained further, after pretraining, to follow instructions) "
                            "and stored with its weight matrices quantized to 4 bits. Loaded into the site's "
                            "`GroupedQueryAttention`, with RoPE, RMSNorm and SwiGLU around it, it gives the logits "
                            "`transformers` gives from the same file, to within {tol:g} (a test asserts it)."),
    "decoder.bullet.cache": ("**Shared key/value heads, a smaller cache**: {h} query heads share {g} key/value heads, "
                             "so in bfloat16 the cache holds {kib:.1f} KiB per token, {mib:,.0f} MiB at the full "
                             "{context:,}-token context; with its own keys and values for every head (MHA) it would "
                             "need {mha_mib:,.0f} MiB."),
    "decoder.bullet.prev": ("**Some heads look like the small models'**: some look at the previous token (the "
                            "clearest, layer {layer} head {head}, gives it {score:.0%} of its attention on average); "),
    "decoder.bullet.induction": ("some are induction-like: on random tokens written twice ({T} per copy), from "
                                 "each token of the second copy they look at the position after the same token in "
                                 "the first copy, where copying would continue (prefix matching). {n} of the {total} "
                                 "heads score above {thr} on it, in layers {first} to {last}; the highest is layer "
                                 "{layer} head {head} ({score:.2f})."),
    "decoder.bullet.sink": ("**The first token draws much attention**: on two ordinary passages the heads give "
                            "position 0 a {mean:.0%} share on average, and {n} of the {total} heads more than half."),
    "decoder.layers": ("Heads scoring above {thr} on prefix matching, counted per layer (layer:count): {listed}. "
                       "{n_layers} of the {layers} layers have at least one."),
    "decoder.top_head": ["rank", "previous token (two passages)", "prefix matching (random tokens twice)",
                         "first token (two passages)"],
    "decoder.timing_head": ["cached tokens L", "cache (MiB, float32)", "heads copied: ms per token",
                            "no copies: ms per token", "no copies ÷ copies"],
    "decoder.timing_judged": "{ratio} ({level} interval), {verdict}",
    "decoder.timing_sentence": ("Both ways compute the same logits: the largest difference is {diff}, float32 "
                                "rounding. Reading the {g} key/value heads where they are, instead of copying them to "
                                "the {h} query heads, in each of the {layers} layers: {where}"),
    "decoder.timing_all": ("a step was measurably faster at all {n} lengths (Holm-corrected over the {n}); with {L} "
                           "tokens cached it took {share:.0%} less time."),
    "decoder.timing_some": ("a step was measurably faster only at L = {lengths} of the {n} lengths (Holm-corrected over "
                            "the {n})."),
    "decoder.timing_none": "no measurable difference at any of the {n} lengths (Holm-corrected over the {n}).",
    "decoder.timing_sep": ", ",
    "decoder.cache_head": ["layout", "key/value heads", "bytes/token (float32)", "bytes/token (bfloat16)",
                           "at full context (MiB, bfloat16)"],
    "decoder.kind.MHA": "MHA (one key/value head per query head)",
    "decoder.kind.GQA": "GQA (this model)",
    "decoder.kind.MQA": "MQA (one for all heads)",
    "decoder.cache_check": ("Read off the 30 `KVCache`s a real forward pass left behind: {read:,.0f} bytes per "
                            "token (float32); the formula gives {formula:,}; {same}."),
    "decoder.same": "the two agree",
    "decoder.differs": "the two differ",
    "decoder.fig.prev": "previous token",
    "decoder.fig.prefix": "prefix matching",
    "decoder.fig.sink": "first token",
    "decoder.fig.heads": "head",
    "decoder.fig.layers": "layer",
    "decoder.fig.alt": "Heatmaps of three scores over SmolLM2-135M's {layers} layers x {heads} heads",
    "decoder.fig.caption": ("One cell per head (rows: layers, columns: heads). Left and right: averaged over the "
                            "zh and en passages; middle: prefix matching on {n} random sequences shown twice "
                            "({T} tokens per copy). One colour scale, 0 to 1."),
    "decoder.group.q": "the {h} query heads of one layer",
    "decoder.group.kv": "{g} key/value heads, each serving {per} query heads (d_k = {d_k})",
    "decoder.group.note": "all {layers} layers are grouped this way; the cache keeps only the key/value heads",
    "decoder.group.alt": "{h} query heads in {g} groups, each group of {per} reading the same key/value head",
    "decoder.group.caption": ("The grouping in every layer of SmolLM2-135M, drawn from the model's config: {h} query "
                              "heads share {g} key/value heads, so the cache is 1/{per} of what one pair per head "
                              "would take."),
    "decoder.bullet.ablation": ("**Cutting the most induction-like heads**: zeroing the {k} heads with the "
                                "highest prefix-matching score takes the loss on the random tokens' second copy from "
                                "{a:.2f} to {b:.2f} nats ({d}, {v}); zeroing {k} random heads of the same layers "
                                "instead gives {rnd:.2f}: {vr}. On ordinary text the change is {do}, {vo}."),
    "decoder.bullet.vs_random_higher": "cutting the top heads costs more than cutting random ones",
    "decoder.bullet.vs_random_lower": "cutting the top heads costs less than cutting random ones",
    "decoder.bullet.vs_random_none": "no measurable difference between the two at {n} texts",
    "decoder.bullet.vs_random_negligible": "the two differ by under {minimum:g} nats: negligible",
    "decoder.abl_head": ["heads cut", "comparison", "mean loss (nats): reference → cut",
                         "difference (nats, Holm interval)", "verdict"],
    "decoder.abl_cut_zero": "top {k}, zeroed",
    "decoder.abl_cut_mean": "top {k}, mean output",
    "decoder.abl_comp.cut-intact:repeated": "random tokens, second copy: cut − intact",
    "decoder.abl_comp.cut-intact:ordinary": "ordinary text: cut − intact",
    "decoder.abl_comp.top-random:repeated": "random tokens, second copy: top k − random k",
    "decoder.abl_diff": "{d:+.2f} nats [{lo:+.2f}, {hi:+.2f}]",
    "decoder.v_higher": "higher loss",
    "decoder.v_lower": "lower loss",
    "decoder.v_none": "no measurable difference at {n} texts",
    "decoder.v_negligible": "a difference, but under {minimum:g} nats: negligible",
    "decoder.abl_join": ". ",
    "decoder.abl_sentence": ("Intact, the model averages {first:.2f} nats on the first copy of the random tokens "
                             "(drawn at random: nothing to predict) and {second:.2f} on the second: it copies from the "
                             "first. On the {n_ord} ordinary passages it averages {ordinary:.2f}. Every difference below "
                             "is paired by text ({n_rep} repeated sequences, {T} tokens per copy; {n_ord} passages), and "
                             "the {family} comparisons are corrected together with Holm's method, the exact sign-flip "
                             "test required as well. {parts}."),
    "decoder.abl_part": ("Zeroing the top {k}: the second copy's loss becomes {top:.2f} nats, a change of {d}, {v}; "
                         "zeroing as many random heads of the same layers gives {rnd:.2f}, top {k} minus random {dr}, {vr}; "
                         "on ordinary text the change is {do}, {vo}. With each of the {k} heads' mean output in its "
                         "place, the second copy's loss is {mean:.2f} nats, {dm}, {vm}; on ordinary text {dmo}, {vmo}"),
    "decoder.abl_heads": ("By the committed prefix-matching scores (in brackets), k = {k1} cuts {first}; k = {k2} "
                          "adds {more}. The control heads are drawn again for each text ({units} draws, "
                          "seeded): for every head cut, another head of the same layer that is not among the top k."),
    "decoder.abl_induction": ("For reference, in the 2-layer models the [induction heads](induction-heads.md#causes) "
                              "page trains, zeroing layer 1's only head, the induction head, takes the loss on the "
                              "predictable tokens from {a1:.2f} to {b1:.2f} nats ({one}, {seeds} seeds); with 4 heads "
                              "per layer, zeroing layer 1's highest-scoring induction head takes it from {a4:.2f} to "
                              "{b4:.2f} ({four})."),
    "decoder.ex_prev": "by hand: {hand:.4f}; heads.previous_token: {code:.4f}",
    "decoder.ex_cache_head": ["layout", "key/value heads", "cache (MiB, bfloat16)", "times GQA's"],
    "decoder.ex_holm_head": ["comparison", "p", "this step's bar", "by hand: a difference?", "the page's verdict"],
    "decoder.ex_sep": "; ",
    "decoder.ex_yes": "yes",
    "decoder.ex_no": "no",
    "decoder.abl_reading": ("Put another way: zeroing the top {k1} closes {s1:.0%} of the gap in loss between the first "
                            "copy and the second, and zeroing the top {k2} closes {s2:.0%}. On ordinary text all {n} "
                            "intervals lie within ±{bound:.2f} nats, {inside}."),
    "decoder.abl_inside": "inside the {minimum:g} nats the protocol set as the smallest difference that matters",
    "decoder.abl_outside": ("some reaching past the {minimum:g} nats the protocol set as the smallest difference that "
                            "matters, so the effect there is not shown to be negligible"),
    "decoder.abl_head_item": "L{L} H{h} ({s:.2f})",
    "decoder.abl_list_sep": ", ",
    # the small runs on the page (snippets.decoder.report.quick_decode, quick_scores)
    "decoder.quick_decode": ("After the prompt {prompt}, the {n} tokens generated with the cache are {cached}, and "
                             "without it {again}: {same}. RoPE's angles for {P} positions: cos and sin are "
                             "{shape} each ({P} positions × d_k/2 = {pairs} pairs)."),
    "decoder.quick_copies": ("After {L} cached positions both forms give logits of shape {shape}; the largest "
                             "difference is {diff}: {same}."),
    "decoder.quick_cut": ("With head {head} of layer {layer} replaced by {fill}, the logits moved by up to {moved}; "
                          "computed again after the with block, they differ from the original by {back}: {restored}."),
    "decoder.quick_fill_zero": "zeros",
    "decoder.quick_fill_mean": "its mean output on these tokens",
    "decoder.quick_restored": "the hooks are gone and the model is as it was",
    "decoder.quick_not_restored": "the model did not come back as it was",
    "decoder.quick_same": "the same",
    "decoder.quick_differs": "they differ",
    "decoder.quick_scores_head": ["made-up head", "previous token", "prefix matching", "first token"],
    "decoder.quick_heads": ["only the previous token", "only the first token",
                            "induction: the position after the last occurrence"],
}
