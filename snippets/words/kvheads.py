"""Words printed into pages: kvheads (see snippets.i18n)."""

ZH = {
    # snippets.kvheads.report: the key/value-heads page
    "kvheads.mha": "MHA g={g}",
    "kvheads.gqa": "GQA g={g}",
    "kvheads.mqa": "MQA g={g}",
    "kvheads.mla": "MLA",
    "kvheads.cache_head": ["结构", "每个词元每层缓存的数", "每个词元每层（字节）"],
    "kvheads.cache_all": "每个词元，{layers} 层（KiB）",
    "kvheads.cache_context": "{context:,} 个词元，{layers} 层（GiB）",
    "kvheads.check.sdpa": "本站的层（h = {h}，g = {g}）对比 SDPA enable_gqa=True",
    "kvheads.check.decode": "逐个词元解码（KV 缓存）对比一次完整的因果前向",
    "kvheads.check.mla": "MLA：吸收式对比朴素式",
    "kvheads.check.mla_decode": "MLA：吸收式逐个词元解码（潜向量缓存）对比朴素式完整前向",
    "kvheads.check_head": ["比较", "最大绝对误差", "容差", "结论"],
    "kvheads.ok": "✅ 在容差内",
    "kvheads.bad": "❌ 超出容差",
    "kvheads.pairs": "{n} 个键值对",
    "kvheads.fig_x": "KV 缓存（字节/词元/层，float32）与键/值头数 g",
    "kvheads.fig_y": "留出查询准确率（%）",
    "kvheads.fig_diff": "与 MHA 之差（百分点）",
    "kvheads.sep": "；",
    "kvheads.closest": "{q} 个查询头、{g} 个键头：最接近的一对是头 {a} 和头 {b}，权重最大相差 {d:.3f}",
    "kvheads.recall_head": ["键/值头数", "参数量", "KV 缓存（字节/词元/层）"],
    "kvheads.recall_intro": "下表是每种设置在留出集上的准确率（{seeds} 个种子的平均），括号里是最低和最高的那个种子：",
    "kvheads.fig_alt": ("两幅图：上图是简化 MQAR 上留出集的准确率随 KV 缓存大小（键/值头数）变化的折线图，"
                        "每种键值对数一条线，各种子画成小点；下图是各个 g 与 MHA 的准确率之差，按种子配对，"
                        "带 Holm 校正后的区间"),
    "kvheads.fig_caption": ("上图每条线连的是 {seeds} 个种子的平均准确率，浅色小点是各个种子；"
                            "下图是各个 g 与 MHA 的准确率之差，按种子配对，竖线是 t 区间，"
                            "按 Holm 方法对全部 {family} 个比较一起校正（每条竖线的置信水平是 {level:.1%}），"
                            "整条竖线落在 0 线以下才算低于 MHA。几条线在横向上稍微错开，免得重叠；"
                            "横轴是对数坐标。"),
    "kvheads.v_higher": "高于 MHA",
    "kvheads.v_lower": "低于 MHA",
    "kvheads.v_none": "{seeds} 个种子下没有可测的差别",
    "kvheads.v_negligible": "有差别，但小于 {minimum:.0f} 个百分点，可以忽略",
    "kvheads.verdict_part": "{name} 相差 {diff:+.2f} 个百分点 [{lo:+.2f}, {hi:+.2f}]（置信水平 {level:.1%}），{verdict}",
    "kvheads.verdict": "{n} 个键值对：MHA 平均答对 {mha:.1%}（{seeds} 个种子）。按种子配对，与 MHA 相比，{parts}。",
    "kvheads.verdict_part_bare": "{name} {diff:+.2f} 个百分点 [{lo:+.2f}, {hi:+.2f}]（置信水平 {level:.1%}）",
    "kvheads.verdict_all_none": ("{n} 个键值对：MHA 平均答对 {mha:.1%}（{seeds} 个种子）。按种子配对，{count} 个比较"
                                 "都测不出与 MHA 的差别，与 MHA 之差分别是：{parts}。"),
    "kvheads.family": ("整张表一共 {family} 个比较，用 Holm 方法一起校正；其中判为有差别（区间整个在 0 的一侧，"
                       "且超出 {minimum:.0f} 个百分点）的{found:有 # 个|一个也没有}。"),
    "kvheads.learned": ("{n} 个键值对时，学会了这个任务（留出集上的准确率不低于 {threshold:.0%}）的种子数：{shares}。"
                        "这 {tests} 个 Fisher 精确检验用 Holm 方法一起校正后，{said}。"
                        "只看学会了的种子，平均准确率（括号里是最低到最高）：{among}。"),
    "kvheads.learned_mha": "{name} {k}/{seeds}",
    "kvheads.learned_part": "{name} {k}/{seeds}（与 MHA 比，p = {p:.2f}）",
    "kvheads.learned_found": "有 {found} 个的学会比例与 MHA 不同",
    "kvheads.among_part": "{name} {mean:.1%}（{lo:.1%}–{hi:.1%}）",
    "kvheads.learned_all": "每一档的每个种子都学会了这个任务（留出集上的准确率不低于 {threshold:.0%}）。",
    "kvheads.history_head": ["键值对", "结构", "百分位自助法区间（95%，各自单独）", "据此的结论",
                             "t 区间（Holm 校正后的置信水平）", "本页的结论"],
    "kvheads.stored_head": ["结构", "查询（字节/词元/层，只在本步用一次）", "缓存（字节/词元/层，以后每步都读）"],
    "kvheads.stored_step": "上下文 {context:,} 个词元时，一步要读的缓存（MiB，{layers} 层）",
    "kvheads.dec_head": ["注意力", "预分配缓存与无缓存：生成的词元相同", "torch.cat 缓存与无缓存：生成的词元相同",
                         "缓存下解码位置 t 与完整前向第 t 行之差（最大绝对值）", "结论"],
    "kvheads.dec_same": "{k}/{n}",
    "kvheads.dec_all_same": ("用两种缓存生成时，每种注意力（{names}）生成的 {n} 个词元都与不用缓存时相同；在缓存下单独解码一个位置，"
                             "与完整前向的最大差别是 {err}，{verdict}。"),
    "kvheads.dec_some_differ": ("用缓存生成的词元与不用缓存时不全相同：{parts}；在缓存下单独解码一个位置，"
                                "与完整前向的最大差别是 {err}，{verdict}。"),
    "kvheads.dec_differ_part": "{name} 预分配缓存 {pre}、torch.cat 缓存 {cat} 相同",
    "kvheads.dec_within": "在 {tol} 的容差内",
    "kvheads.dec_beyond": "超出了 {tol} 的容差",
    "kvheads.step_flops": ("已有 {t} 个词元，生成下一个：有缓存 {cached:,} FLOPs，"
                           "没有缓存 {full:,} FLOPs，是前者的 {ratio:.1f} 倍"),
    "kvheads.flops_head": ["结构", "每步每层（MFLOP）", "每步每层读的缓存（MiB）", "每读 1 字节缓存的 FLOPs",
                           "与 MHA 的 FLOPs 之比"],
    "kvheads.flops_check_head": ["结构", "FlopCounterMode 数出的 FLOPs", "公式", "结论"],
    "kvheads.dec_kind.MHA": "MHA g={num_kv_heads}",
    "kvheads.dec_kind.GQA": "GQA g={num_kv_heads}",
    "kvheads.dec_kind.MQA": "MQA g={num_kv_heads}",
    "kvheads.dec_kind.MLA": "MLA d_c={d_latent}",
    "kvheads.flops_kind.mha": "MHA",
    "kvheads.flops_kind.gqa": "GQA g={g}",
    "kvheads.flops_kind.mqa": "MQA",
    "kvheads.flops_kind.mla_naive": "MLA 朴素式（d_c = {c}）",
    "kvheads.flops_kind.mla_absorbed": "MLA 吸收式（d_c = {c}）",
    "kvheads.list_sep": "、",
    "kvheads.summary": ("在简化的多查询联想回忆任务（MQAR）上（{pairs} 个键值对，每种设置 {seeds} 个种子），与 MHA 的 {family} 个比较经 Holm "
                        "校正后，判为有差别的{found:有 # 个|一个也没有}；{hardest} 个键值对时，{mha} 的 {seeds} 个种子里"
                        "{k_a:有 # 个|没有一个}学会了任务，{small} {k_b:有 # 个|一个也没有}（Fisher 精确检验 p = {p:.2f}）。"),
    "kvheads.fp_part": "{rate:.1%}（{shape}）",
    "kvheads.shape.normal": "正态",
    "kvheads.shape.heavy-tailed": "厚尾",
    "kvheads.shape.two-peaked": "双峰",
    "kvheads.false_positive": ("在 {seeds} 个种子、两种设置其实没有差别的 {trials:,} 次模拟里，95% 百分位自助法区间"
                               "不含 0 的比例是 {boot}；t 区间是 {t}。"),
    # snippets.kvheads.report: decoding with and without the cache, measured
    "kvheads.decode_head": ["键/值头数", "L", "缓存（KiB）", "有缓存、复制键/值头：毫秒/词元",
                            "有缓存、不复制：毫秒/词元", "无缓存：毫秒/词元", "无缓存 ÷ 有缓存（不复制）"],
    "kvheads.decode_cache": ("有缓存、把键/值头复制给每个查询头（{name}）时，下一个词元在 L = {L0} 要 {t0} 毫秒，"
                             "在 L = {L2} 要 {t2} 毫秒，是前者的 {times:.1f} 倍。从 L = {L1} 到 {L2}，时间按 Lᵖ 增长，"
                             "p = {p:.2f} [{lo:.2f}, {hi:.2f}]；"
                             "一个查询对 L 个键，计算量是线性的，p = {theory}，区间{where}。"),
    "kvheads.decode_cache_grouped": ("有缓存、不复制键/值头（{name}）时，下一个词元在 L = {L0} 要 {t0} 毫秒，"
                                     "在 L = {L2} 要 {t2} 毫秒，是前者的 {times:.1f} 倍；"
                                     "从 L = {L1} 到 {L2}，p = {p:.2f} [{lo:.2f}, {hi:.2f}]，"
                                     "理论值 p = {theory}，区间{where}。"),
    "kvheads.decode_no_cache": ("没有缓存（{name}）时，下一个词元在 L = {L0} 要 {t0} 毫秒，"
                                "在 L = {L2} 要 {t2} 毫秒，"
                                "是前者的 {times:,.0f} 倍。从 L = {L1} 到 {L2}，p = {p:.2f} [{lo:.2f}, {hi:.2f}]；"
                                "L 个查询对 L 个键，计算量是平方的，p = {theory}，区间{where}。"),
    "kvheads.decode_above": "整个在它上面",
    "kvheads.decode_below": "整个在它下面",
    "kvheads.decode_covers": "包含它",
    "kvheads.decode_speedup": ("在 L = {L}，有缓存（不复制）时生成下一个词元比没有缓存快多少"
                               "（无缓存 ÷ 有缓存，按轮配对的几何平均，95% 置信区间）：{parts}。"),
    "kvheads.speedup_times": "快 {ratio} 倍 [{low}, {high}]",
    "kvheads.decode_speedup_part": "{name} {ratio}",
    "kvheads.decode_judged": "{ratio}（{level} 置信区间），{verdict}",
    "kvheads.decode_copies": ("在 L = {L}，不复制与复制键/值头的每词元时间之比"
                              "（与本节其他几个比值共 {family} 个，一起做 Holm 校正）：{parts}。"),
    "kvheads.decode_smaller": ("在 L = {L}，{small} 的缓存是 {kib_small} KiB，是 {big}（{kib_big} KiB）的 "
                               "{share:.1%}。每个词元的时间与 {big} 之比：有缓存、复制时 {cache}；"
                               "有缓存、不复制时 {cache_grouped}；没有缓存时 {no_cache}。"),
    "kvheads.control": ("对照：一层里 {h} 个键/值头共用一个查询（把 MQA 反过来，在 L = {L} 缓存 {kib} KiB，和 MHA 一样多）。"
                        "每个词元的时间与 {mha} 之比：这个对照 {control}；共用键和值的 {mqa} {mqa_ratio}（都有缓存、"
                        "不复制，与本节其他比值一起做 Holm 校正）。{ending}"),
    "kvheads.quick_control": ("L = {L} 时，对照层有缓存的一步与整段重算的最后一行相比：{same}。它缓存 {control_bytes} 字节，"
                              "MHA 是 {mha_bytes} 字节；一步的 FLOPs 是 {control_flops}，MHA（不复制）是 {mha_flops}。"),
    "kvheads.quick_control_same": "相同",
    "kvheads.quick_control_differs": "不同",
    "kvheads.control_cache": "可见让一步变快的不是“共用”本身，而是这一步要读的缓存变小了。",
    "kvheads.control_both": "两种共用都更快，所以读的缓存变小不是这里唯一的原因。",
    "kvheads.control_neither": "这次测量里 MQA 没有比 MHA 更快，所以这个对照回答不了快在哪里。",
    "kvheads.control_name": "共用查询的对照 ÷ {mha}",
    "kvheads.copies_name": "{name} 不复制 ÷ 复制",
    "kvheads.ratio_name": "{name} ÷ {mha}（{method}）",
    "kvheads.method_cache": "有缓存、复制",
    "kvheads.method_cache_grouped": "有缓存、不复制",
    "kvheads.method_no_cache": "无缓存",
    "kvheads.spread_processes": ("这些比值在各次运行之间会变多少？{blocks} 组轮次各在一个单独的进程里跑（每组 {per} 轮）。"
                                 "{held_text}"
                                 "进程之间变化最大的是“{widest}”：从 {low:.2f} 到 {high:.2f}，合起来是 {overall:.2f}。{ending}"),
    "kvheads.held_all": "判为更快或更慢的 {judged} 个比值，在每一{unit}里都落在 1 的同一侧。",
    "kvheads.held_some": "判为更快或更慢的 {judged} 个比值里，有 {held} 个在每一{unit}里都落在 1 的同一侧。",
    "kvheads.unit_process": "个进程",
    "kvheads.unit_block": "组",
    "kvheads.spread_all": "所以方向可以信，具体倍数只属于这台机器上的这次测量。",
    "kvheads.spread_some": "有的比值在某个进程里换到了 1 的另一侧，这些判断只代表这一次测量。",
    "kvheads.spread_blocks": ("这些比值在各组轮次之间会变多少？{blocks} 组轮次（每组 {per} 轮）在同一个进程里跑。"
                              "{held_text}"
                              "变化最大的是“{widest}”：从 {low:.2f} 到 {high:.2f}，合起来是 {overall:.2f}。{ending}"),
    "kvheads.decode_cache_label": "有缓存、复制，{name}",
    "kvheads.decode_cache_grouped_label": "有缓存、不复制，{name}",
    "kvheads.decode_no_cache_label": "无缓存，{name}",
    "kvheads.decode_x": "新词元的位置 L",
    "kvheads.decode_y": "下一个词元（毫秒，中位数）",
    "kvheads.decode_alt": ("对数坐标折线图：生成下一个词元的时间随已有词元数 L 的变化，三种做法（有缓存并复制键/值头、"
                           "有缓存不复制、无缓存）各三条线（MHA g=8、GQA g=2、MQA g=1），带四分位范围"),
    "kvheads.decode_caption": ("每个点是 {rounds} 轮交错计时的中位数，阴影是第 25 到第 75 百分位。"
                               "两条轴都是对数刻度。"),
    "kvheads.decode_flops_head": ["键/值头数", "一步读的缓存（KiB）", "有缓存：每步 MFLOP",
                                  "复制时 GFLOP/s", "不复制时 GFLOP/s", "无缓存：每步 MFLOP", "无缓存 GFLOP/s"],
    "kvheads.mla_head": ["MLA", "L", "潜向量缓存（KiB）", "朴素式：毫秒/词元", "吸收式：毫秒/词元", "吸收式 ÷ 朴素式"],
    "kvheads.mla_flops_head": ["L = {L} 时的一步", "一步读的缓存（KiB）", "每步 MFLOP（计数）", "毫秒/词元（中位数）",
                               "GFLOP/s"],
    "kvheads.mla_ref": "{name}，不复制",
    "kvheads.mla_load": ("MLA 和 MHA、GQA、MQA 在同一批交错轮次里计时（{rounds} 轮，单线程），其他进程突然占用 CPU 时，"
                         "MLA 和其他结构一起受影响；下面的 {family} 个时间比一起做 Holm 校正。测量时机器的状况：{load}"),
    "kvheads.mla_naive_vs": ("{name} 每个词元缓存 {c} 个数（float32 下 {bytes} 字节）。在 L = {L}，朴素式一步要 "
                             "{naive:.2f} MFLOP，其中 {share:.0%} 花在把 {L} 个潜向量展开成键和值上，"
                             "是吸收式 {absorbed:.2f} MFLOP 的 {times:.1f} 倍；吸收式与朴素式的时间之比：{ratio}。"),
    "kvheads.mla_against": ("在 L = {L}，把吸收式 {name} 和不复制键/值头的结构相比"
                            "（时间之比是吸收式除以对方）：{parts}。"),
    "kvheads.mla_vs_same": ("{name} 每个词元同样缓存 {numbers} 个数，吸收式的 FLOPs 是它的 {flops:.2f} 倍，"
                            "时间之比 {ratio}"),
    "kvheads.mla_vs_mha": ("{name} 的缓存是 {mla} 的 {cache:.0f} 倍（每个词元 {numbers} 个数），"
                           "吸收式的 FLOPs 是它的 {flops:.2f} 倍，时间之比 {ratio}"),
    "kvheads.cost": ("这 {models} 个模型，每个在一个线程上训练要 {lo:.0f} 到 {hi:.0f} 秒 CPU 时间，"
                     "合计 {total:.0f} CPU 分钟。"),
    # the small runs on the page (quick_steps, quick_recall)
    "kvheads.quick_steps_head": ["做法", "参照", "与参照相同（相差不到 1e-5）", "一步的 FLOPs"],
    "kvheads.quick_same": "是",
    "kvheads.quick_differs": "否",
    "kvheads.quick_recall": ("g = {g}，{pairs} 个键值对，只训练 {steps} 步（每批 {batch} 条）：留出集上的准确率是 {acc:.1%}，"
                             "瞎猜一个值是 {chance:.1%}。提交的结果每个模型训练 {full} 步。"),
}

EN = {
    # snippets.kvheads.report: the key/value-heads page
    "kvheads.mha": "MHA g={g}",
    "kvheads.gqa": "GQA g={g}",
    "kvheads.mqa": "MQA g={g}",
    "kvheads.mla": "MLA",
    "kvheads.cache_head": ["layout", "numbers cached per token and layer", "per token and layer (bytes)"],
    "kvheads.cache_all": "per token, {layers} layers (KiB)",
    "kvheads.cache_context": "{context:,} tokens, {layers} layers (GiB)",
    "kvheads.check.sdpa": "the site's layer (h = {h}, g = {g}) vs SDPA with enable_gqa=True",
    "kvheads.check.decode": "token-by-token decoding (KV cache) vs one full causal forward",
    "kvheads.check.mla": "MLA: absorbed vs naive",
    "kvheads.check.mla_decode": "MLA: absorbed, token by token (latent cache) vs naive full forward",
    "kvheads.check_head": ["comparison", "largest absolute difference", "tolerance", "result"],
    "kvheads.ok": "✅ within tolerance",
    "kvheads.bad": "❌ outside tolerance",
    "kvheads.pairs": "{n} pairs",
    "kvheads.fig_x": "KV cache (bytes per token and layer, float32) and key/value heads g",
    "kvheads.fig_y": "held-out query accuracy (%)",
    "kvheads.fig_diff": "difference from MHA (points)",
    "kvheads.sep": "; ",
    "kvheads.closest": "query heads {q}, key heads {g}: closest pair = heads {a} and {b}, max weight difference {d:.3f}",
    "kvheads.recall_head": ["key/value heads", "parameters", "KV cache (bytes per token and layer)"],
    "kvheads.recall_intro": "Mean held-out accuracy per setting over the {seeds} seeds, with the lowest and highest seed in parentheses:",
    "kvheads.fig_alt": ("Two charts. Top: held-out accuracy on simplified MQAR against KV-cache size (number of "
                        "key/value heads), one line per number of pairs, each seed a dot. Bottom: each g's "
                        "accuracy minus MHA's, paired by seed, with Holm-corrected intervals"),
    "kvheads.fig_caption": ("Top: each line joins the mean accuracy over {seeds} seeds; the faint dots are the "
                            "seeds. Bottom: each g's accuracy minus MHA's, paired by seed, with its t interval, "
                            "corrected with Holm's method over all {family} comparisons (each bar at "
                            "{level:.1%}); only a bar wholly below the zero line means lower than MHA. The lines "
                            "are nudged sideways so they do not overlap; the horizontal axis is logarithmic."),
    "kvheads.v_higher": "higher than MHA",
    "kvheads.v_lower": "lower than MHA",
    "kvheads.v_none": "no measurable difference at {seeds} seeds",
    "kvheads.v_negligible": "a difference, but smaller than {minimum:.0f} point, negligible",
    "kvheads.verdict_part": "{name} differs by {diff:+.2f} points [{lo:+.2f}, {hi:+.2f}] ({level:.1%} interval), {verdict}",
    "kvheads.verdict": ("With {n} pairs, MHA answers {mha:.1%} of the queries ({seeds} seeds). Paired by seed, "
                        "against MHA: {parts}."),
    "kvheads.verdict_part_bare": "{name} {diff:+.2f} points [{lo:+.2f}, {hi:+.2f}] ({level:.1%} interval)",
    "kvheads.verdict_all_none": ("With {n} pairs, MHA answers {mha:.1%} of the queries ({seeds} seeds). Paired by "
                                 "seed, none of the {count} comparisons with MHA is a measurable difference: {parts}."),
    "kvheads.family": ("The grid holds {family} comparisons, corrected together with Holm's method; "
                       "{found:# of them come|none of them comes} out as a difference (an interval wholly on one side of 0 and reaching past "
                       "{minimum:.0f} point)."),
    "kvheads.learned": ("At {n} pairs, seeds that learned the task (held-out accuracy of {threshold:.0%} or "
                        "more): {shares}. With the {tests} Fisher exact tests corrected together (Holm), {said}. "
                        "Among the seeds that learned, the mean accuracy (lowest to highest): {among}."),
    "kvheads.learned_mha": "{name} {k} of {seeds}",
    "kvheads.learned_part": "{name} {k} of {seeds} (p = {p:.2f} against MHA)",
    "kvheads.learned_found": "{found} of them learned in a different share of seeds than MHA",
    "kvheads.among_part": "{name} {mean:.1%} ({lo:.1%}–{hi:.1%})",
    "kvheads.learned_all": "Every seed learned the task at every level (held-out accuracy of {threshold:.0%} or more).",
    "kvheads.history_head": ["pairs", "layout", "before: bootstrap interval (95%, each alone)", "before",
                             "now: t interval (Holm's level)", "now"],
    "kvheads.stored_head": ["layout", "query (bytes per token and layer, used at its own step)",
                            "cache (bytes per token and layer, read at every later step)"],
    "kvheads.stored_step": "cache read by one step at a context of {context:,} tokens (MiB, {layers} layers)",
    "kvheads.dec_head": ["attention", "preallocated cache vs no cache: same tokens",
                         "torch.cat cache vs no cache: same tokens",
                         "position t decoded under a cache vs row t of the full forward (largest difference)",
                         "result"],
    "kvheads.dec_same": "{k} of {n}",
    "kvheads.dec_all_same": ("With either cache, every decoder ({names}) generated the same {n} tokens as without a cache, "
                             "and a position decoded alone under the cache differed from the full forward by at most "
                             "{err}, {verdict}."),
    "kvheads.dec_some_differ": ("With a cache, not every decoder generated the tokens it generated without one: {parts}; a "
                                "position decoded alone under the cache differed from the full forward by at most {err}, "
                                "{verdict}."),
    "kvheads.dec_differ_part": "{name} the same in {pre} with the preallocated cache and {cat} with torch.cat",
    "kvheads.dec_within": "within the tolerance of {tol}",
    "kvheads.dec_beyond": "beyond the tolerance of {tol}",
    "kvheads.step_flops": ("{t} tokens so far, the next one: {cached:,} FLOPs with the cache, {full:,} "
                           "without, {ratio:.1f} times as many"),
    "kvheads.flops_head": ["layout", "MFLOP per step and layer", "cache read per step and layer (MiB)",
                           "FLOPs per byte of cache read", "FLOPs relative to MHA"],
    "kvheads.flops_check_head": ["layout", "FLOPs counted by FlopCounterMode", "formula", "result"],
    "kvheads.dec_kind.MHA": "MHA g={num_kv_heads}",
    "kvheads.dec_kind.GQA": "GQA g={num_kv_heads}",
    "kvheads.dec_kind.MQA": "MQA g={num_kv_heads}",
    "kvheads.dec_kind.MLA": "MLA d_c={d_latent}",
    "kvheads.flops_kind.mha": "MHA",
    "kvheads.flops_kind.gqa": "GQA g={g}",
    "kvheads.flops_kind.mqa": "MQA",
    "kvheads.flops_kind.mla_naive": "MLA naive (d_c = {c})",
    "kvheads.flops_kind.mla_absorbed": "MLA absorbed (d_c = {c})",
    "kvheads.list_sep": ", ",
    "kvheads.summary": ("On simplified MQAR ({pairs} pairs, {seeds} seeds per setting), {found:# of the|none of the} {family} "
                        "Holm-corrected comparisons with MHA come out as a difference; at {hardest} pairs, {mha} "
                        "learned the task on {k_a:#|none} of {seeds} seeds and {small} on {k_b:#|none} (Fisher's exact test, p = {p:.2f})."),
    "kvheads.fp_part": "{rate:.1%} ({shape})",
    "kvheads.shape.normal": "normal",
    "kvheads.shape.heavy-tailed": "heavy-tailed",
    "kvheads.shape.two-peaked": "two-peaked",
    "kvheads.false_positive": ("In {trials:,} simulated comparisons at {seeds} seeds with no true difference, a 95% "
                               "percentile-bootstrap interval excluded 0 in {boot} of them; the t interval in {t}."),
    # snippets.kvheads.report: decoding with and without the cache, measured
    "kvheads.decode_head": ["key/value heads", "L", "cache (KiB)", "with cache, heads copied: ms per token",
                            "with cache, no copies: ms per token", "without: ms per token",
                            "without ÷ with (no copies)"],
    "kvheads.decode_cache": ("With the cache and key/value heads copied to every query head ({name}), the next "
                             "token takes {t0} ms at L = {L0} and {t2} ms at L = {L2}, {times:.1f} times as long. "
                             "From L = {L1} to {L2} the time grows as Lᵖ with p = {p:.2f} [{lo:.2f}, {hi:.2f}]; "
                             "one query against L keys is linear work, p = {theory}, and the interval {where}."),
    "kvheads.decode_cache_grouped": ("With the cache and no head copies ({name}), it takes {t0} ms at L = {L0} and "
                                     "{t2} ms at L = {L2}, {times:.1f} times as long; from L = {L1} to {L2}, "
                                     "p = {p:.2f} [{lo:.2f}, {hi:.2f}] against p = {theory}, and the interval "
                                     "{where}."),
    "kvheads.decode_no_cache": ("Without a cache ({name}), the next token takes {t0} ms at L = {L0} and {t2} ms "
                                "at L = {L2}, {times:,.0f} times as long. From L = {L1} to {L2}, "
                                "p = {p:.2f} [{lo:.2f}, {hi:.2f}]; L queries against L keys is quadratic work, "
                                "p = {theory}, and the interval {where}."),
    "kvheads.decode_above": "lies wholly above it",
    "kvheads.decode_below": "lies wholly below it",
    "kvheads.decode_covers": "covers it",
    "kvheads.decode_speedup": ("At L = {L}, the cache (no copies) makes the next token this many times faster "
                               "(without ÷ with, geometric mean over rounds, 95% interval): {parts}."),
    "kvheads.decode_speedup_part": "{name} {ratio}",
    "kvheads.speedup_times": "{ratio} [{low}–{high}]",
    "kvheads.decode_judged": "{ratio} ({level} interval), {verdict}",
    "kvheads.decode_copies": ("At L = {L}, time per token without head copies over with them (Holm-corrected "
                              "together with the section's other ratios, {family} in all): {parts}."),
    "kvheads.decode_smaller": ("At L = {L}, {small} caches {kib_small} KiB, {share:.1%} of the {kib_big} KiB of "
                               "{big}. Its time per token over that of {big}: with the cache and head copies "
                               "{cache}; with the cache and no copies {cache_grouped}; without a cache "
                               "{no_cache}."),
    "kvheads.control": ("The control: a layer whose {h} key/value heads share one query (MQA turned around; at L = {L} "
                        "it caches {kib} KiB, as much as MHA). Time per token over that of {mha}: the control "
                        "{control}; {mqa}, which shares the keys and values, {mqa_ratio} (both cached, no copies, "
                        "Holm-corrected with the section's other ratios). {ending}"),
    "kvheads.quick_control": ("At L = {L}, the control's cached step against the last row of its full forward: {same}. "
                              "It caches {control_bytes} bytes, MHA {mha_bytes}; one step costs {control_flops} FLOPs, "
                              "MHA's (no copies) {mha_flops}."),
    "kvheads.quick_control_same": "the same",
    "kvheads.quick_control_differs": "they differ",
    "kvheads.control_cache": "Sharing as such does not make a step faster; reading a smaller cache does.",
    "kvheads.control_both": "Both kinds of sharing are faster, so a smaller cache is not the only reason here.",
    "kvheads.control_neither": ("MQA was not measurably faster than MHA in this measurement, so the control cannot "
                                "say where a saving comes from."),
    "kvheads.control_name": "shared-query control ÷ {mha}",
    "kvheads.copies_name": "{name}, no copies ÷ copies",
    "kvheads.ratio_name": "{name} ÷ {mha} ({method})",
    "kvheads.method_cache": "cached, copies",
    "kvheads.method_cache_grouped": "cached, no copies",
    "kvheads.method_no_cache": "no cache",
    "kvheads.spread_processes": ("How much do these ratios move from one run to the next? The {blocks} blocks of "
                                 "{per} rounds each ran in a separate process. {held_text} The one that "
                                 "moved most, {widest}, ranged from {low:.2f} to {high:.2f} between processes "
                                 "({overall:.2f} overall). {ending}"),
    "kvheads.held_all": "All {judged} ratios judged faster or slower stayed on the same side of 1 in every {unit}.",
    "kvheads.held_some": "Of the {judged} ratios judged faster or slower, {held} stayed on the same side of 1 in every {unit}.",
    "kvheads.unit_process": "process",
    "kvheads.unit_block": "block",
    "kvheads.spread_all": "Trust the directions; the sizes belong to this run on this machine.",
    "kvheads.spread_some": "Some ratios crossed 1 in some process; those verdicts belong to this measurement only.",
    "kvheads.spread_blocks": ("How much do these ratios move between blocks? The {blocks} blocks of {per} rounds ran "
                              "in one process. {held_text} The one that moved most, {widest}, ranged from "
                              "{low:.2f} to {high:.2f} ({overall:.2f} overall). {ending}"),
    "kvheads.decode_cache_label": "cache, heads copied, {name}",
    "kvheads.decode_cache_grouped_label": "cache, no copies, {name}",
    "kvheads.decode_no_cache_label": "no cache, {name}",
    "kvheads.decode_x": "position of the new token, L",
    "kvheads.decode_y": "ms per next token (median)",
    "kvheads.decode_alt": ("Log-log line chart of the time to produce the next token against the number of tokens "
                           "so far, three ways (with the KV cache and key/value heads copied, with the cache and no "
                           "copies, without a cache), for MHA g=8, GQA g=2 and MQA g=1, interquartile range shaded"),
    "kvheads.decode_caption": ("Each point is the median of {rounds} interleaved rounds; shaded: 25th to 75th "
                               "percentile. Both axes are logarithmic."),
    "kvheads.decode_flops_head": ["key/value heads", "cache read per step (KiB)", "with cache: MFLOP per step",
                                  "GFLOP/s, heads copied", "GFLOP/s, no copies", "without: MFLOP per step",
                                  "GFLOP/s without"],
    "kvheads.mla_head": ["MLA", "L", "latent cache (KiB)", "naive: ms per token", "absorbed: ms per token",
                         "absorbed ÷ naive"],
    "kvheads.mla_flops_head": ["step at L = {L}", "cache read per step (KiB)", "MFLOP per step (counted)",
                               "ms per token (median)", "GFLOP/s"],
    "kvheads.mla_ref": "{name}, no copies",
    "kvheads.mla_load": ("MLA was timed in the same interleaved rounds as MHA, GQA and MQA ({rounds} rounds, "
                         "one thread), so a burst of load fell on it and on the other layouts alike; the {family} time "
                         "ratios below are Holm-corrected together. The machine while measuring: {load}"),
    "kvheads.mla_naive_vs": ("{name} caches {c} numbers per token ({bytes} B in float32). At L = {L} the naive "
                             "step does {naive:.2f} MFLOP, {share:.0%} of it expanding the {L} latents into keys "
                             "and values: {times:.1f} times the absorbed step's {absorbed:.2f} MFLOP. The "
                             "absorbed step's time over the naive one's: {ratio}."),
    "kvheads.mla_against": ("At L = {L}, absorbed {name} against key/value heads without copies (its time "
                            "over theirs): {parts}."),
    "kvheads.mla_vs_same": ("{name}, which caches the same {numbers} numbers per token: {flops:.2f} times the "
                            "FLOPs, {ratio}"),
    "kvheads.mla_vs_mha": ("{name}, whose cache is {cache:.0f} times {mla}'s ({numbers} numbers per token): "
                           "{flops:.2f} times the FLOPs, {ratio}"),
    "kvheads.cost": ("Each of these {models} models takes {lo:.0f} to {hi:.0f} CPU seconds to train on one thread, "
                     "{total:.0f} CPU minutes in all."),
    # the small runs on the page (quick_steps, quick_recall)
    "kvheads.quick_steps_head": ["method", "reference", "same as the reference (within 1e-5)", "FLOPs per step"],
    "kvheads.quick_same": "yes",
    "kvheads.quick_differs": "no",
    "kvheads.quick_recall": ("g = {g}, {pairs} pairs, trained for only {steps} steps ({batch} sequences a batch): "
                             "{acc:.1%} held-out accuracy, where guessing a value gives {chance:.1%}. Each model of "
                             "the committed results trains for {full} steps."),
}
