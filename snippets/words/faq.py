"""Words printed into pages: faq (see snippets.i18n)."""

ZH = {
    # sitebuild.corrections.faq_verdict: the FAQ's two-minute version, counted from its correction boxes
    "faq.verdict": ("**逐条核对的结果**：{questions} 个回答里，{corrected} 个需要更正，每处更正放在一个折叠框里，"
                    "框的标题写明正确的说法（[核对与更正](errata.md)一页全部列出）；"
                    "{standing:原样成立的有 # 个|没有一个原样成立}{standing_list}。"),
    "faq.verdict_join": "、",
    "faq.verdict_lead": "：",
    "roadmap.kv_done": "两个回忆测试都已跑完：一个是联想回忆，一个是带干扰词元的多查询联想回忆（MQAR）。结果见键/值头页。",
    "roadmap.kv_pending": "第一个回忆测试（联想回忆）的结果见键/值头页；第二个（带干扰词元的多查询联想回忆，MQAR）的结果还没有放上网站。",
    # snippets.faq
    "faq.random": "随机初始化的层",
    "faq.copies": "8 个头都复制头 0",
    "faq.full": "完整的层",
    "faq.pruned": "只保留头 0、2、5",
    "faq.one-hot": "独热行（全部给一个键）",
    "faq.uniform": "均匀行",
    "faq.init-mean": "未训练的 8 个头的层，所有行的平均",
    "faq.init-min": "未训练的 8 个头的层，最集中的一行",
    "faq.per_pixel": "每个像素一个词元",
    "faq.per_patch": "每个 {patch}×{patch} 块一个词元",
    "faq.table": "表",
    "faq.ref_sep": "，",
    "faq.yes": "是",
    "faq.no": "否（{n}）",
    "faq.no_plain": "否",
    "faq.section": "第 {n} 节",
    "faq.list_sep": "、",
    "faq.sep_sentence": "",
    "faq.self": "自注意力：m(x, x, x)",
    "faq.cross": "交叉注意力：m(x, mem, mem)",
    "faq.image": "图像",
    "faq.attn_out": "注意力输出",
    "faq.attn_weights": "逐头的注意力权重",
    "faq.flops_sentence": "h = {heads} 时，投影都是 {proj} FLOPs，QKᵀ 与 AV（math 路径）都是 {core} FLOPs："
                          "矩阵乘法的计算量与头数无关，因为 h 个头、每个头的维数 `d_k = d_model/h`，"
                          "乘加次数 `h·L·S·d_k` 恰好等于 `L·S·d_model`。随头数增长的是权重张量：从 {w_min} 个元素"
                          "（{mib_min} MiB）增长到 {w_max} 个（{mib_max} MiB），是 {ratio} 倍。"
                          "F.scaled_dot_product_attention 走默认路径时，数到的是 {default} FLOPs。",
    "faq.flops_zero": "这个 0 并不是说没有计算：CPU 上 `F.scaled_dot_product_attention` 默认走 flash 内核，"
                      "FlopCounterMode 没有为它登记计数公式，所以 math 路径那一列是在 "
                      "`sdpa_kernel([SDPBackend.MATH])` 下数的。用 FlopCounterMode 数注意力时，一定要检查这一点。",
    "faq.similarity_sentence": "从没训练过的层，不同头之间的平均相似度已经是 {random}：在默认初始化和单位尺度的输入下，每个头起初都接近均匀分布"
                               "（见 Q15），头和头自然相像，而一个没训练过的层谈不上过拟合。把 8 个头都换成头 0 "
                               "的副本，相似度是 {copies}：这是彻底的冗余，8 个头只顶 1 个，同样和过拟合无关。",
    "faq.entropy_sentence": "独热行的归一化熵是 {one_hot}，均匀行是 {uniform}；刚初始化、没训练过的 8 个头的层"
                            "（PyTorch 默认初始化，输入取自标准正态分布），"
                            "所有行平均是 {mean}，连最集中的那一行也有 {min}。",
    "faq.difference.exact": ("最大差值恰好是 0：在这个尺寸下，两种算法的舍入碰巧完全一样。这是巧合，不是规律："
                             "同样的求和换个顺序，末几位的舍入就会不同，差值会在 float32 机器精度（{eps:.2g}）的量级。"),
    "faq.difference.rounding": "最大差值是 {diff:.2g}，在 float32 舍入的量级（机器精度 {eps:.2g}）。",
    "faq.difference.more": "最大差值是 {diff:.2g}，超出了 float32 的舍入（机器精度 {eps:.2g}）。",
    "faq.permutation_sentence": "不加掩码时，最大差值是 {free:.2g}，与 float32 的机器精度（{eps:.2g}）同一量级，"
                                "只是舍入误差；加了因果掩码，差值是 {causal:.2g}：打乱顺序改变的是输出本身，"
                                "而不只是输出的排列。",
    "faq.real_width": "all-MiniLM-L6-v2（读自它的 config.json）：{layers} 层，每层 {h} 个头，"
                      "模型宽度 {E}，每个头的维数 d_k = {d_k}。",
    "faq.fp.default": "默认层（batch_first=False）+ eval()，need_weights=False",
    "faq.fp.default_weights": "默认层 + eval()，need_weights=True（默认值）",
    "faq.fp.bf": "batch_first=True + eval()，自注意力，need_weights=False",
    "faq.fp.bf_cross": "batch_first=True + eval()，交叉注意力，need_weights=False",
    "faq.fp.bf_train": "batch_first=True + 训练模式，自注意力，need_weights=False",
    "faq.fp_took": "走快速路径",
    "faq.fp_skipped": "不走快速路径",
    "faq.fp_builds": "会显式算出整张权重矩阵",
    "faq.fp_no_build": "不会写出整张权重矩阵",
    "faq.fast_sentence": "在 `eval()`、`torch.no_grad()`、`need_weights=False` 下，默认层（`batch_first=False`）"
                         "{default_path}，注意力由 {default_kernel} 计算，{default_weights}；把 `batch_first` "
                         "改成 `True`，同样的自注意力调用{bf_path}，注意力由 {bf_kernel} 计算，{bf_weights}。",
    # sitebuild.corrections: the errata table
    "errata.header": ["页面 › 小节", "原文的提法", "核对后的说法（点击跳到页内的框）"],
    # words a box title or heading must not open with (it states what is true instead)
    "errata.verbs": "更正|纠正|勘误|修正|订正|指正|纠错",
    "errata.none": "目前没有需要单独核对的提法。",
}

EN = {
    # sitebuild.corrections.faq_verdict: the FAQ's two-minute version, counted from its correction boxes
    "faq.verdict": ("**What the check found**: {corrected} of the {questions} answers needed a correction, each in "
                    "a collapsed box whose title states what is true (the [errata page](errata.md) lists them all); "
                    "{standing:# left as the source wrote it|none left as the source wrote it}"
                    "{standing_list}."),
    "faq.verdict_join": ", ",
    "faq.verdict_lead": ": ",
    "roadmap.kv_done": ("Both recall tests, associative recall and MQAR with distractor tokens, have been run; "
                        "their results are on the key/value heads page."),
    "roadmap.kv_pending": ("The first recall test's results (associative recall) are on the key/value heads page; "
                           "the second's (MQAR with distractor tokens) are not on the site yet."),
    "faq.random": "randomly initialised layer",
    "faq.copies": "every head a copy of head 0",
    "faq.full": "full layer",
    "faq.pruned": "heads 0, 2, 5 kept",
    "faq.one-hot": "one-hot row (all on one key)",
    "faq.uniform": "uniform row",
    "faq.init-mean": "untrained 8-head layer, mean over rows",
    "faq.init-min": "untrained 8-head layer, most peaked row",
    "faq.per_pixel": "one token per pixel",
    "faq.per_patch": "one token per {patch}×{patch} patch",
    "faq.table": "Table",
    "faq.ref_sep": ", ",
    "faq.yes": "yes",
    "faq.no": "no ({n})",
    "faq.no_plain": "no",
    "faq.section": "§{n}",
    "faq.list_sep": ", ",
    "faq.sep_sentence": " ",
    "faq.self": "self-attention: m(x, x, x)",
    "faq.cross": "cross-attention: m(x, mem, mem)",
    "faq.image": "image",
    "faq.attn_out": "attention output",
    "faq.attn_weights": "attention weights, per head",
    "faq.flops_sentence": "At h = {heads}, the projections cost {proj} FLOPs and QKᵀ with AV (math path) "
                          "{core} FLOPs every time: matrix-multiplication work does not depend on the number of "
                          "heads, because with h heads of width `d_k = d_model/h` the multiply-adds "
                          "`h·L·S·d_k` come to exactly `L·S·d_model`. What grows with the heads is the weights "
                          "tensor: from {w_min} entries ({mib_min} MiB) to {w_max} ({mib_max} MiB), {ratio} "
                          "times as many. F.sdpa's default path is counted at {default} FLOPs.",
    "faq.flops_zero": "That zero does not mean nothing was computed: on the CPU, "
                      "`F.scaled_dot_product_attention` runs the flash kernel by default, and FlopCounterMode "
                      "has no counting formula registered for it, which is why the math-path column is counted "
                      "under `sdpa_kernel([SDPBackend.MATH])`. Check this whenever you count attention FLOPs "
                      "with FlopCounterMode.",
    "faq.similarity_sentence": "The heads of a layer that was never trained already have a mean similarity of "
                               "{random}: with default initialisation and unit-scale inputs every head starts close to uniform (see Q15), so heads "
                               "look alike, and an untrained layer cannot be overfitted. With every head "
                               "replaced by a copy of head 0 the similarity is {copies}: complete redundancy, "
                               "eight heads doing the work of one, and again nothing to do with overfitting.",
    "faq.entropy_sentence": "A one-hot row has normalised entropy {one_hot} and a uniform row {uniform}; a "
                            "freshly initialised 8-head layer (PyTorch's default initialisation, inputs drawn from a "
                            "standard normal) averages {mean} over its rows, and even its most "
                            "peaked row reaches {min}.",
    "faq.difference.exact": ("The largest difference is exactly 0: at this size the two ways happen to round "
                             "identically. That is luck, not a rule: the same sum added up in another order "
                             "rounds differently in its last bits, at the size of float32's machine epsilon "
                             "({eps:.2g})."),
    "faq.difference.rounding": "The largest difference is {diff:.2g}, the size of float32 rounding (machine "
                               "epsilon {eps:.2g}).",
    "faq.difference.more": "The largest difference is {diff:.2g}, more than float32 rounding (machine epsilon "
                           "{eps:.2g}).",
    "faq.permutation_sentence": "Without a mask the largest difference is {free:.2g}, the size of float32 "
                                "rounding (machine epsilon {eps:.2g}); with a causal mask it is {causal:.2g}: "
                                "shuffling the tokens changes the outputs themselves, not just their order.",
    "faq.real_width": "all-MiniLM-L6-v2 (read from its config.json): {layers} layers, {h} heads per layer, "
                      "d_model = {E}, head width d_k = {d_k}.",
    "faq.fp.default": "default layer (batch_first=False), eval(), need_weights=False",
    "faq.fp.default_weights": "default layer, eval(), need_weights=True (the default)",
    "faq.fp.bf": "batch_first=True, eval(), self-attention, need_weights=False",
    "faq.fp.bf_cross": "batch_first=True, eval(), cross-attention, need_weights=False",
    "faq.fp.bf_train": "batch_first=True, training mode, self-attention, need_weights=False",
    "faq.fp_took": "takes the fast path",
    "faq.fp_skipped": "does not take the fast path",
    "faq.fp_builds": "builds the whole weights matrix",
    "faq.fp_no_build": "never writes out the whole weights matrix",
    "faq.fast_sentence": "Under `eval()`, `torch.no_grad()` and `need_weights=False`, the default layer "
                         "(`batch_first=False`) {default_path}: attention is computed by {default_kernel}, "
                         "which {default_weights}. With `batch_first=True`, the same self-attention call "
                         "{bf_path}: attention is computed by {bf_kernel}, which {bf_weights}.",
    "errata.header": ["Page › section", "How the source puts it", "What the site found (links to the box)"],
    "errata.verbs": "Correction|Corrected|Correct|Erratum|Errata|Fix",
    "errata.none": "No claim of the source needs a box of its own at the moment.",
}
