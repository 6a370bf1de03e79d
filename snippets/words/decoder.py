"""Words printed into pages: decoder (see snippets.i18n)."""

ZH = {
    # snippets.decoder.report: the real decoder page (SmolLM2-135M)
    "decoder.config": ("{num_layers} 层，每层 {num_heads} 个查询头、{num_kv_heads} 个键/值头（每 {group} 个查询头共用一个），"
                       "`d_model` = {d_model}，`d_k` = {d_k}，前馈网络宽 {d_ff}，词表 {vocab:,}，上下文 {context:,} 个词元，"
                       "RoPE 基数 {rope_base:,.0f}"),
    "decoder.tolerance": ("测试要求：在同一批中英文文本上，两边 logits 的最大绝对误差小于 {tol:g}，"
                          "每个位置预测的下一个词元（argmax）完全一致；一批中英文提示用贪心解码各生成 {steps} 个新词元，"
                          "有缓存和没缓存逐个词元完全相同。"),
    "decoder.bullet.same": ("本站的 `GroupedQueryAttention` 加上 RoPE、RMSNorm 和 SwiGLU，装进真实权重，就是这个模型："
                            "和 `transformers` 读同一个文件算出的 logits 相差不到 {tol:g}（测试断言）。"),
    "decoder.bullet.cache": ("{h} 个查询头只配 {g} 个键/值头：bfloat16 下每个词元缓存 {kib:.1f} KiB，"
                             "上下文 {context:,} 个词元时共 {mib:,.0f} MiB；同样的模型如果每个头都有自己的键和值（MHA），"
                             "要 {mha_mib:,.0f} MiB。"),
    "decoder.bullet.prev": ("有专门看前一个词元的头：最突出的是第 {layer} 层头 {head}，"
                            "平均把 {score:.0%} 的注意力给了前一个位置。"),
    "decoder.bullet.induction": ("在写两遍的随机词元上（每遍 {T} 个），{total} 个头里有 {n} 个的前缀匹配分数超过 {thr}，"
                                 "分布在第 {first} 到第 {last} 层；最高的是第 {layer} 层头 {head}（{score:.2f}）。"),
    "decoder.bullet.sink": ("第一个词元拿走相当一部分注意力：在两段正文上，各头给第 0 个位置的平均份额是 {mean:.0%}，"
                            "{total} 个头里有 {n} 个超过一半。"),
    "decoder.layers": ("前缀匹配分数超过 {thr} 的头，按层计数（层:个数）：{listed}。{layers} 层里有 {n_layers} 层至少有一个。"),
    "decoder.top_head": ["名次", "前一个词元（两段正文）", "前缀匹配（写两遍的随机词元）", "第一个词元（两段正文）"],
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
    # the small runs on the page (snippets.decoder.report.quick_decode, quick_scores)
    "decoder.quick_decode": ("提示 {prompt} 之后，有缓存时生成的 {n} 个词元是 {cached}，没有缓存时是 {again}：{same}。"
                             "{P} 个位置的 RoPE 角度：cos 和 sin 的形状都是 {shape}（{P} 个位置 × d_k/2 = {pairs} 对）。"),
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
    "decoder.bullet.same": ("The site's `GroupedQueryAttention`, with RoPE, RMSNorm and SwiGLU around it and the real "
                            "weights in it, is this model: its logits agree with `transformers` reading the same "
                            "file to within {tol:g} (a test asserts it)."),
    "decoder.bullet.cache": ("{h} query heads share {g} key/value heads: in bfloat16 the cache holds {kib:.1f} KiB "
                             "per token, {mib:,.0f} MiB at the full {context:,}-token context; the same model with "
                             "its own keys and values for every head (MHA) would need {mha_mib:,.0f} MiB."),
    "decoder.bullet.prev": ("Some heads look at the previous token: the clearest, layer {layer} head {head}, gives "
                            "it {score:.0%} of its attention on average."),
    "decoder.bullet.induction": ("On random tokens shown twice ({T} per copy), {n} of the {total} heads score above "
                                 "{thr} on prefix matching, in layers {first} to {last}; the highest is layer "
                                 "{layer} head {head} ({score:.2f})."),
    "decoder.bullet.sink": ("The first token draws a sizeable share of attention: on the two passages the heads give "
                            "position 0 a {mean:.0%} share on average, and {n} of the {total} heads more than half."),
    "decoder.layers": ("Heads scoring above {thr} on prefix matching, counted per layer (layer:count): {listed}. "
                       "{n_layers} of the {layers} layers have at least one."),
    "decoder.top_head": ["rank", "previous token (two passages)", "prefix matching (random tokens twice)",
                         "first token (two passages)"],
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
    # the small runs on the page (snippets.decoder.report.quick_decode, quick_scores)
    "decoder.quick_decode": ("After the prompt {prompt}, the {n} tokens generated with the cache are {cached}, and "
                             "without it {again}: {same}. RoPE's angles for {P} positions: cos and sin are "
                             "{shape} each ({P} positions × d_k/2 = {pairs} pairs)."),
    "decoder.quick_same": "the same",
    "decoder.quick_differs": "they differ",
    "decoder.quick_scores_head": ["made-up head", "previous token", "prefix matching", "first token"],
    "decoder.quick_heads": ["only the previous token", "only the first token",
                            "induction: the position after the last occurrence"],
}
