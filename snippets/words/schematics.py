"""Words printed into pages: schematics (see snippets.i18n)."""

ZH = {
    # snippets.schematics: diagrams drawn from the configuration they show
    "schem.layer.x": "输入 x：{shape}",
    "schem.layer.proj": "乘 W^Q、W^K、W^V（各 {E}×{E}），得 Q、K、V：各 {shape}",
    "schem.layer.split": "切成 {h} 个头，每个头的 q、k、v 宽 {d_k}：{shape}",
    "schem.layer.maps": "{h} 张注意力图，每个头一张：{shape}",
    "schem.layer.context": "每个头用自己的权重混合 v：{shape}",
    "schem.layer.concat": "拼接回一个向量：{shape}",
    "schem.layer.wo": "乘 W^O（{E}×{E}），把各头混在一起",
    "schem.layer.out": "输出：{shape}",
    "schem.layer.alt": ("示意图：一层多头注意力从输入到输出。输入 x 乘 W^Q、W^K、W^V，结果切成 {h} 个头，"
                        "每个头一种颜色，宽 {d_k}；每个头算出自己的 {L}×{L} 注意力图和输出，"
                        "{h} 个输出拼接回 {E} 维，再乘 W^O 得到输出。"),
    "schem.layer.caption": ("一层、{h} 个头，从上往下读。每一列是一个头：同一种颜色从 W^Q、W^K、W^V 里属于它的那几列，"
                            "走到拼接结果里属于它的那一段，再到 W^O 里属于它的那几行（按论文的写法，与下面的公式一致）。"
                            "形状来自本站的层在日志行上实际算一遍；注意力图是这个未训练层的真实权重。"),
    "schem.wo.concat": "拼接 {shape}",
    "schem.wo.terms": "拆开：头 i {head} · W^O 的第 i 块 {block}，再相加",
    "schem.wo.term": "头 {i}",
    "schem.wo.bias": "偏置 b",
    "schem.wo.alt": ("示意图：拼接后的向量乘 W^O，等于 {h} 项之和：头 i 的输出 {head} 乘 W^O 里属于它的 {block} 那一块，"
                     "最后加上偏置。颜色标出每个头。"),
    "schem.wo.caption": ("拼接再乘 W^O，就是每个头经过自己那块 W^O 后相加：头 i 在拼接向量里的那一段，只会乘到 W^O 里同色的那几行。"
                         "在本站的层上，两种算法最大差 {err}，{verdict}。"),
    "schem.groups.q": "查询头",
    "schem.groups.kv": "键/值头",
    "schem.groups.alt": ("示意图：g = {gs} 时，{h} 个查询头各读哪个键/值头。每一组里上排是查询头，下排是键/值头，"
                         "连线表示谁读谁，颜色标出键/值头。"),
    "schem.groups.caption": ("谁和谁共用键和值。g 个键/值头把 {h} 个查询头分成 g 个相邻的组，查询头 i 读键/值头 ⌊i/(h/g)⌋；"
                             "连线由层里用的 repeat_interleave 算出。缓存里只存下排。"),
    "schem.cache.step": "第 {t} 步",
    "schem.cache.q": "查询（用完即弃）",
    "schem.cache.kv": "KV 缓存",
    "schem.cache.alt": ("示意图：一层分组查询注意力（{h} 个查询头、{g} 个键/值头）逐个解码 {steps} 个位置。"
                        "每一步的查询算出来用一次就丢掉；缓存的键和值每步多一行，新的一行着色，旧的行灰色。"),
    "schem.cache.caption": ("KV 缓存每解码一个词元长一行。每一步只为新位置算一次 q、k、v：k 和 v 追加进缓存（彩色），"
                            "之前的行原样读出，不重算（灰色）；q 用一次就丢，不存。"
                            "最后一步记录到的形状：q 为 {q}，即 (N, 1, E)；缓存的键为 {k}，即 (N, g, S, d_k)。"),
    "schem.mla.per_position": "一个位置缓存多少个数（h = {h}，d_k = {d_k}）",
    "schem.mla.mha_size": "k 和 v：2·h·d_k = {n} 个",
    "schem.mla.mla_size": "一个潜向量 c：d_c = {C} 个",
    "schem.mla.naive": "朴素算法",
    "schem.mla.absorbed": "吸收式",
    "schem.mla.cache": "缓存 c：{shape}",
    "schem.mla.rebuild": "每一步都重新把全部 {S} 行",
    "schem.mla.rebuild_what": "乘 W_uk 得 k，乘 W_uv 得 v",
    "schem.mla.rebuilt_shape": "各 {shape}，用完即弃",
    "schem.mla.naive_attend": "照常对 k 打分、对 v 加权",
    "schem.mla.query": "查询 q：{shape}",
    "schem.mla.move": "每个头乘 W_ukᵀ，进入潜空间",
    "schem.mla.moved_shape": "d_c 维的查询：{shape}",
    "schem.mla.on_latents": "直接对缓存的 c 打分、加权",
    "schem.mla.like_mqa": "如同只有一个 d_c 维头的 MQA",
    "schem.mla.mixed": "c 的加权和：{shape}",
    "schem.mla.after_mix": "每个头乘 W_uv（可并进 W^O）",
    "schem.mla.out": "乘 W^O，两种算法的输出相同：{shape}",
    "schem.mla.alt": ("示意图：MLA 的潜向量和它的两种用法。上方对比一个位置的缓存：MHA 存 {h} 个头的键和值，共 {n} 个数；"
                      "MLA 只存一个潜向量 c，d_c = {C} 个数。下方左栏是朴素算法：每解码一步，都把缓存里全部 {S} 个 c "
                      "乘 W_uk、W_uv，重建每个头的键和值，再照常做注意力。右栏是吸收式：查询乘 W_ukᵀ 进入潜空间，"
                      "直接对缓存的 c 打分、加权，最后乘 W_uv。两栏最后都乘 W^O，得到相同的输出。"),
    "schem.mla.caption": ("MLA 缓存的是潜向量 c，两种算法读的是同一份缓存。朴素算法每一步都为全部 {S} 个已缓存的位置"
                          "重建 k 和 v（虚线框），计算量随序列变长而增长；吸收式把 W_uk 挪到查询一侧、W_uv 挪到加权之后，"
                          "分数和加权都直接在 d_c 维的 c 上做，相当于只有一个 d_c 维共享键/值头的 MQA。"
                          "图中的形状是本页的层（d_k = {d_k}，d_c = {C}）逐个解码 {S} 个位置时记录下来的；"
                          "两种算法的输出最多差 {err}，{verdict}。"),
    "schem.inproj.rows": "第 {lo}–{hi} 行 = .chunk(3)[{m}]",
    "schem.inproj.heads": "头 0 占 0–{a} 行，头 {last} 占 {b}–{c} 行",
    "schem.inproj.alt": ("示意图：nn.MultiheadAttention 的 in_proj_weight 形状是 ({E3}, {E})，按行切成三段，依次是 W_q、W_k、W_v，"
                         "各 ({E}, {E})；每段里又按行分给 {h} 个头，每个头 {d_k} 行，颜色标出每个头。"),
    "schem.inproj.caption": ("打包的 in_proj_weight：三个投影上下叠在一起，.chunk(3) 按行切开，就是本站层里的 W_q、W_k、W_v"
                             "（切出来的三块由 load_from_torch 复制后逐一核对）。每一块里，头 i 占第 i 组 {d_k} 行："
                             "PyTorch 按（输出，输入）存权重，所以是行。"),
    "schem.reshape.x": "x：{shape}，{L} 个词元，每个 E 维",
    "schem.reshape.view": ".view(N, L, h, d_k)：{shape}，每个词元切成 {h} 段，数据不动",
    "schem.reshape.transpose": ".transpose(1, 2)：{shape}，头在前：{h} 个头，每个头 {L} 个词元",
    "schem.reshape.back": "合回去：.transpose(1, 2).contiguous().view(N, L, E) → {shape}",
    "schem.reshape.alt": ("示意图：分头与合头时张量怎样排列。x 的形状是 {x}；view 把每个词元的 E 维切成 {h} 段；"
                          "transpose(1, 2) 把头换到前面，形状是 {split}；再 transpose、contiguous、view 回到 {x}。"
                          "颜色标出每个头，每组上方的数字是外层下标。"),
    "schem.reshape.caption": ("分头只是换个看法：view 不搬数据，只把每个词元的 E 维切成 {h} 段；transpose(1, 2) 换的是下标的顺序，"
                              "外层从 {L} 个词元变成 {h} 个头，之后每个头的矩阵乘法一次就能算完。合头反过来走一遍："
                              "contiguous() 先按新顺序把数排好，view 才能把它们合回去。每组上方的数字是外层下标（词元或头）。"),
    "schem.average.heads": "average_attn_weights=False：每个头一张，{shape}",
    "schem.average.mean": "默认（True）：在头这一维上取平均，{shape}",
    "schem.average.alt": "示意图：nn.MultiheadAttention 在日志行上给出的 {h} 张逐头注意力图，汇成一张平均图，也就是默认返回的权重。",
    "schem.average.caption": ("默认返回的权重从哪里来：{h} 个头的权重在头这一维上取平均（图里的平均与默认返回值逐项核对过）。"
                              "哪个头在看哪里，从平均图里就看不出来了。"),
    "schem.task.stream": "日志流：{L} 个事件",
    "schem.task.readout": "位置 {p} 要答出",
    "schem.task.before": "往前第 {n} 个：{event}",
    "schem.task.after": "往后第 {n} 个：{event}",
    "schem.task.before.none": "往前第 {n} 个：在流外，不计分",
    "schem.task.after.none": "往后第 {n} 个：在流外，不计分",
    "schem.task.offset_sep": "、",
    "schem.task.offset": "{o:+d}",
    "schem.task.alt": ("示意图：一条 {L} 个事件的日志流，从上往下排。位置 {p} 的事件连向偏移 {offs} 处的事件，"
                       "右边列出它要答出的 {T} 个事件。"),
    "schem.task.caption": ("要学的是什么：每个位置都要同时说出偏移 {offs} 处的事件，图里只画了位置 {p}。"
                           "答案直接取自生成训练数据的 make_batch；落在流外的目标不计分。"
                           "读出层的 {T} 组预测，各自要从不同的位置取信息。"),
}

EN = {
    # snippets.schematics: diagrams drawn from the configuration they show
    "schem.layer.x": "input x: {shape}",
    "schem.layer.proj": "times W^Q, W^K, W^V (each {E}×{E}): Q, K, V, {shape} each",
    "schem.layer.split": "cut into {h} heads, q, k, v of width {d_k}: {shape}",
    "schem.layer.maps": "{h} attention maps, one per head: {shape}",
    "schem.layer.context": "each head mixes its v with its own weights: {shape}",
    "schem.layer.concat": "concatenated back into one vector: {shape}",
    "schem.layer.wo": "times W^O ({E}×{E}), which mixes the heads",
    "schem.layer.out": "output: {shape}",
    "schem.layer.alt": ("Diagram: one multi-head attention layer from input to output. The input x is multiplied "
                        "by W^Q, W^K and W^V, the results are cut into {h} heads of width {d_k}, one colour "
                        "each; every head computes its own {L}×{L} attention map and output, and the {h} "
                        "outputs are concatenated back to {E} features and multiplied by W^O."),
    "schem.layer.caption": ("One layer with {h} heads, read top to bottom. Each column is a head: its colour runs "
                            "from its columns of W^Q, W^K and W^V to its segment of the concatenation and its "
                            "rows of W^O (the paper's convention, as in the formulas below). The shapes come "
                            "from running this site's layer on the log line; the maps are that untrained "
                            "layer's real weights."),
    "schem.wo.concat": "concat {shape}",
    "schem.wo.terms": "split up: head i {head} · block i of W^O {block}, summed",
    "schem.wo.term": "head {i}",
    "schem.wo.bias": "bias b",
    "schem.wo.alt": ("Diagram: the concatenation times W^O equals a sum of {h} terms, head i's output {head} "
                     "times its own block {block} of W^O, plus the bias; colours mark the heads."),
    "schem.wo.caption": ("Concatenating and multiplying by W^O is each head going through its own block of W^O, "
                         "summed: head i's segment of the concatenation only ever meets the rows of W^O in its "
                         "colour. On this site's layer the two computations differ by at most {err}: "
                         "{verdict}."),
    "schem.groups.q": "query heads",
    "schem.groups.kv": "key/value heads",
    "schem.groups.alt": ("Diagram: which key/value head each of {h} query heads reads, for g = {gs}. In each "
                         "band the top row is the query heads and the bottom row the key/value heads; lines "
                         "show who reads what, colours mark the key/value heads."),
    "schem.groups.caption": ("Who shares keys and values. g key/value heads split the {h} query heads into g "
                             "neighbouring groups, and query head i reads key/value head ⌊i/(h/g)⌋; the lines "
                             "are computed with the repeat_interleave the layer uses. Only the bottom row "
                             "goes into the cache."),
    "schem.cache.step": "step {t}",
    "schem.cache.q": "query (dropped)",
    "schem.cache.kv": "KV cache",
    "schem.cache.alt": ("Diagram: one grouped-query attention layer ({h} query heads, {g} key/value heads) "
                        "decoding {steps} positions one at a time. Each step's query is computed, used once "
                        "and dropped; the cached keys and values gain one row per step, the new row "
                        "coloured, the older rows grey."),
    "schem.cache.caption": ("The KV cache grows one row per decoded token. Each step computes q, k and v for "
                            "the new position only: k and v are appended to the cache (coloured), the earlier "
                            "rows are read again, not recomputed (grey); q is used once and not stored. Shapes "
                            "recorded at the last step: q {q}, that is (N, 1, E); cached keys {k}, that is "
                            "(N, g, S, d_k)."),
    "schem.mla.per_position": "numbers cached per position (h = {h}, d_k = {d_k})",
    "schem.mla.mha_size": "k and v: 2·h·d_k = {n}",
    "schem.mla.mla_size": "one latent c: d_c = {C}",
    "schem.mla.naive": "naive form",
    "schem.mla.absorbed": "absorbed form",
    "schem.mla.cache": "cache c: {shape}",
    "schem.mla.rebuild": "every step, all {S} rows again",
    "schem.mla.rebuild_what": "times W_uk → k, times W_uv → v",
    "schem.mla.rebuilt_shape": "each {shape}, then dropped",
    "schem.mla.naive_attend": "scores k and mixes v, as usual",
    "schem.mla.query": "query q: {shape}",
    "schem.mla.move": "each head times W_ukᵀ",
    "schem.mla.moved_shape": "a query d_c wide: {shape}",
    "schem.mla.on_latents": "scores and mixes the cached c",
    "schem.mla.like_mqa": "as in MQA: one head, d_c wide",
    "schem.mla.mixed": "weighted sum of c: {shape}",
    "schem.mla.after_mix": "times W_uv (can fold into W^O)",
    "schem.mla.out": "times W^O: the same output in both, {shape}",
    "schem.mla.alt": ("Diagram: MLA's latent and its two uses. At the top, what one position caches: MHA keeps "
                      "keys and values for {h} heads, {n} numbers; MLA keeps one latent c, d_c = {C} numbers. "
                      "Below on the left, the naive form: at every decode step all {S} cached latents go "
                      "through W_uk and W_uv to rebuild every head's keys and values, then attention runs as "
                      "usual. On the right, the absorbed form: the query is multiplied by W_ukᵀ into latent "
                      "space, scores and mixes the cached c directly, and W_uv comes after the mix. Both end "
                      "with W^O in the same output."),
    "schem.mla.caption": ("MLA caches the latent c, and both forms read the same cache. The naive form rebuilds "
                          "k and v for all {S} cached positions at every step (dashed box), so its work grows "
                          "with the sequence; the absorbed form moves W_uk to the query side and W_uv after "
                          "the mix, so scores and mixing run on c itself, d_c wide: MQA with a single shared "
                          "key/value head of width d_c. The shapes were recorded from this page's layer "
                          "(d_k = {d_k}, d_c = {C}) decoding {S} positions one at a time; the two forms' "
                          "outputs differ by at most {err}: {verdict}."),
    "schem.inproj.rows": "rows {lo}–{hi} = .chunk(3)[{m}]",
    "schem.inproj.heads": "head 0: rows 0–{a} … head {last}: {b}–{c}",
    "schem.inproj.alt": ("Diagram: nn.MultiheadAttention's in_proj_weight, shape ({E3}, {E}), cut by rows into three "
                         "parts, W_q, W_k and W_v, each ({E}, {E}); within each part the rows go to the {h} heads, "
                         "{d_k} rows each, one colour per head."),
    "schem.inproj.caption": ("The packed in_proj_weight: the three projections stacked on top of each other. "
                             ".chunk(3) cuts it by rows into this site's W_q, W_k and W_v (the three parts are "
                             "checked against what load_from_torch copies). Within each part head i owns the "
                             "i-th group of {d_k} rows: PyTorch stores weights as (out, in), so rows."),
    "schem.reshape.x": "x: {shape}, {L} tokens of E features",
    "schem.reshape.view": ".view(N, L, h, d_k): {shape}, each token cut into {h} pieces, no data moved",
    "schem.reshape.transpose": ".transpose(1, 2): {shape}, heads first: {h} heads of {L} tokens",
    "schem.reshape.back": "back: .transpose(1, 2).contiguous().view(N, L, E) → {shape}",
    "schem.reshape.alt": ("Diagram: how the tensor is laid out when heads are split and merged. x is {x}; view cuts "
                          "each token's E features into {h} pieces; transpose(1, 2) moves the heads first, {split}; "
                          "transpose, contiguous and view bring it back to {x}. Colours mark the heads; the number "
                          "above each group is the outer index."),
    "schem.reshape.caption": ("Splitting is a new way of looking at the same numbers: .view moves no data, it only "
                              "cuts each token's E features into {h} pieces; .transpose(1, 2) swaps the order of "
                              "the indices, so the outer groups become {h} heads instead of {L} tokens and each "
                              "head's matrix products run in one go. Merging walks back: .contiguous() lays the "
                              "numbers out in the new order so that .view can join them. The number above each "
                              "group is the outer index (token or head)."),
    "schem.average.heads": "average_attn_weights=False: one map per head, {shape}",
    "schem.average.mean": "the default (True): their mean over the heads, {shape}",
    "schem.average.alt": ("Diagram: the {h} per-head attention maps nn.MultiheadAttention gives on the log line, "
                          "flowing into one averaged map, which is the weights it returns by default."),
    "schem.average.caption": ("Where the default weights come from: the {h} heads' weights averaged over the head "
                              "dimension (the mean drawn here is checked against the default return value). Which "
                              "head looks where does not survive the average."),
    "schem.task.stream": "log stream: {L} events",
    "schem.task.readout": "position {p} must name",
    "schem.task.before": "{n} before: {event}",
    "schem.task.after": "{n} after: {event}",
    "schem.task.before.none": "{n} before: outside, not scored",
    "schem.task.after.none": "{n} after: outside, not scored",
    "schem.task.offset_sep": ", ",
    "schem.task.offset": "{o:+d}",
    "schem.task.alt": ("Diagram: a log stream of {L} events, top to bottom. The event at position {p} is linked "
                       "to the events at offsets {offs}, and the {T} events it must name are listed on the right."),
    "schem.task.caption": ("What is learned: every position must name the events at offsets {offs}, all at once; "
                           "only position {p} is drawn. The answers are read from make_batch, which makes the "
                           "training data; targets that fall outside the stream are not scored. The readout's "
                           "{T} predictions each need information from a different position."),
}
