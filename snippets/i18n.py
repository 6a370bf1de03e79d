"""Every word that code prints into a page, in both languages: one table, one way to look it up.

Prose lives in the pages; but table headers, row labels, verdicts and sentences with measured
numbers are printed by code, so they live here, keyed by ``area.name``. Both wings read it:
lesson code (``snippets``) and the site machinery (``sitebuild``). tests/test_parity.py checks
that every key exists in both languages with the same placeholders, and that Chinese entries
are written in Chinese (except the few listed in ``SAME_IN_BOTH``, such as code names).

A value is a string, a template for ``str.format``, or a list of strings (a table header).

>>> text("en", "faq.uniform")
'uniform row'
>>> text("fr", "faq.uniform")
Traceback (most recent call last):
...
ValueError: lang must be one of ('zh', 'en'), got 'fr'
"""

from __future__ import annotations

__all__ = ["LANGS", "TEXT", "SAME_IN_BOTH", "check_lang", "text", "texts"]

LANGS = ("zh", "en")

TEXT: dict[str, dict[str, str | list[str]]] = {
    "zh": {
        # snippets.heads: §1's one head vs several
        "heads.one": "1 个头",
        "heads.many": "{h} 个头",
        "heads.head": "头 {i}",
        "heads.rounding": "只是浮点舍入",
        "heads.not_rounding": "超出了浮点舍入",
        "heads.fetched": ("一个头把权重平分给两处（{a1} 和 {b1}），输出是两个值向量的平均。两个 token 互换位置后，"
                          "这 {width} 维输出最多只变 {d1}，看不出谁原来在哪里。两个头各取一处（{a2} 和 {b2}），"
                          "输出同样是 {width} 维，互换后最多变 {d2}：谁在哪里，输出里还留着。"),
        "heads.swap.content": "W·e（只有内容）",
        "heads.swap.content.keys": "位置",
        "heads.swap.position": "W·(e+p)（内容加位置）",
        "heads.swap.position.keys": "位置",
        "heads.swap.layer_norm": "W·层归一化(e+p)",
        "heads.swap.layer_norm.keys": "位置",
        "heads.swap.content_keys": "W·(e+p)（同上）",
        "heads.swap.content_keys.keys": "位置 + 0.01·内容",
        "heads.swap.sentence": ("值里带上位置（W·(e+p)）时，两个 token 互换前后，输出最多差 {pos}，{verdict}。"
                                "一个头的平均仍然对称：位置线性地加进值里，找不回“谁在哪里”。"
                                "能打破对称的只有两样。一是非线性混合，比如先做层归一化再投影，互换后输出差 {ln}；"
                                "二是随内容变化的权重，键里掺进一点内容，两处的权重就变成 {wa} 和 {wb}，互换后输出差 {keys}。"),
        "heads.projection": "先整体投影再切分，和每个头单独投影相比，最大差 {err}，{verdict}：同一个运算，两种写法。",
        "heads.concat": ("层的输出（{h} 个头拼接后乘 W^O），和 {h} 个头各自贡献之和（每个头乘上 W^O 里属于它的那一块，"
                         "再加偏置）相比，最大差 {err}，{verdict}。"),
        "heads.params": ("从 {h0} 个头到 {h1} 个头，参数量都是 {params}；每个查询的注意力分布从 {h0} 个变成 {h1} 个，"
                         "每个头的宽度 d_k 从 {d0} 降到 {d1}。"),
        "s2.rows_of_head": "`W_q.weight` 中属于头 {i} 的行",
        "s2.queries_of_head": "头 {i} 的查询",
        # snippets.faq
        "faq.random": "随机初始化的层",
        "faq.copies": "8 个头都复制头 0",
        "faq.full": "完整的层",
        "faq.pruned": "只保留头 0、2、5",
        "faq.one-hot": "one-hot 行（全部给一个键）",
        "faq.uniform": "均匀行",
        "faq.init-mean": "未训练的 8 头层，所有行的平均",
        "faq.init-min": "未训练的 8 头层，最集中的一行",
        "faq.per_pixel": "每个像素一个词元",
        "faq.per_patch": "每个 {patch}×{patch} 块一个词元",
        "faq.table": "表",
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
                              "矩阵乘法的计算量与头数无关，因为 h 个头、每个头的宽度 `d_k = d_model/h`，"
                              "乘加次数 `h·L·S·d_k` 恰好等于 `L·S·d_model`。随头数增长的是权重张量：从 {w_min} 个元素"
                              "（{mib_min} MiB）增长到 {w_max} 个（{mib_max} MiB），是 {ratio} 倍。"
                              "F.sdpa 默认路径被数到的是 {default} FLOPs。",
        "faq.flops_zero": "这个 0 并不是说没有计算：CPU 上 `F.scaled_dot_product_attention` 默认走 flash 内核，"
                          "FlopCounterMode 没有为它登记计数公式，所以 math 路径那一列是在 "
                          "`sdpa_kernel([SDPBackend.MATH])` 下数的。用 FlopCounterMode 数注意力时，一定要检查这一点。",
        "faq.similarity_sentence": "从没训练过的层，不同头之间的平均相似度已经是 {random}：初始化时每个头都接近均匀分布"
                                   "（见 Q15），头和头自然相像，而一个没训练过的层谈不上过拟合。把 8 个头都换成头 0 "
                                   "的副本，相似度是 {copies}：这是彻底的冗余，8 个头只顶 1 个，同样和过拟合无关。",
        "faq.entropy_sentence": "one-hot 行的归一化熵是 {one_hot}，均匀行是 {uniform}；刚初始化、没训练过的 8 头层，"
                                "所有行平均是 {mean}，连最集中的那一行也有 {min}。",
        "faq.real_width": "all-MiniLM-L6-v2（读自它的 config.json）：{layers} 层，每层 {h} 个头，"
                          "d_model = {E}，每个头的宽度 d_k = {d_k}。",
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
        # snippets.bert.analysis, snippets.bert.headfigures: the real-model page
        "bert.prev": "前一个词",
        "bert.next": "后一个词",
        "bert.sep": "[SEP]",
        "bert.cls": "[CLS]",
        "bert.broad": "宽泛",
        "bert.other": "其他",
        "bert.short.prev": "←",
        "bert.short.next": "→",
        "bert.short.sep": "SEP",
        "bert.short.cls": "CLS",
        "bert.short.broad": "≈",
        "bert.short.other": "·",
        "bert.layer": "层 {}",
        "bert.head": "头 {}",
        "bert.corner": "层 ＼ 头",
        "bert.text": "文本",
        "bert.words": "空格分词",
        "bert.pieces": "WordPiece（含 [CLS] [SEP]）",
        "bert.stats": ["层", "头", "熵 (nats)", "熵 / ln T", "[CLS]", "[SEP]", "前一个词", "后一个词", "类别"],
        "bert.cats": ["类别", "判据", "头数", "哪些头（层-头：数值）"],
        "bert.rule_share": "{what} 上的平均份额 > {t:.0%}",
        "bert.rule_broad": "不属于以上，且 熵 / ln T ≥ {t:.0%}",
        "bert.rule_other": "以上都不是",
        "bert.field": "日志字段",
        "bert.split": "WordPiece 切分",
        "bert.finding": ("{n} 个头里，{cls} 个把一半以上的注意力放在 [CLS] 上，放在 [SEP] 上的有 {sep} 个。"
                         "所有头平均，[CLS] 拿到 {cls_mean:.0%} 的注意力，[SEP] 拿到 {sep_mean:.0%}。"
                         "第 0 层的 {first} 个头里有 {broad_first} 个是宽泛的；"
                         "专看前一个词的头有 {prev} 个，专看后一个词的有 {next} 个。"),
        "bert.entropy": "[CLS] 类的头，熵 / ln T 平均为 {cls:.2f}；宽泛类的头为 {broad:.2f}；完全均匀的分布是 1。",
        "bert.importance": ["类别", "头数", "平均 1 − cos", "最大 1 − cos", "影响最大的头（层-头）"],
        "bert.head_ref": "{layer}-{head}（{cat}，{shift:.4f}）",
        "bert.list_sep": "、",
        "bert.importance_summary": ("去掉单个头时句向量变化最大的 {top} 个头（层-头，类别，1 − cos）：{best}。"
                                    "变化最小的是 {least}；{n} 个头的中位数是 {median:.4f}。"
                                    "作为参照，本页两段不同文本的句向量之间，1 − cos 平均为 {scale:.2f}。"),
        "bert.importance_broad": "宽泛类的 {count} 个头在这 {n} 个头的排名（1 = 影响最大）为 {ranks}。",
        "bert.broad_vs_clark": ("本页的 {heads} 个宽泛头放在 [CLS] 上的平均份额在 {cls_min:.0%} 到 {cls_max:.0%} 之间；"
                                "平均 {over_10:.0%} 的查询行里，权重最大的那个 token 拿到的超过 10%。"),
        # snippets.bert.viewer: the interactive head view (sent to headview.js in this order)
        "headview.text": "文本",
        "headview.layer": "层",
        "headview.head": "头",
        "headview.tokens": "查询 token（悬停或用 Tab 键聚焦）",
        "headview.keys": "被看的 token",
        "headview.hint": ("把鼠标移到左列的 token 上，或用 Tab / ↑ ↓ 键选中它，看它把注意力分给了谁。"
                          "没有选中时，画出的是所有 token 的注意力。"),
        "headview.attends": "{token} 的注意力最多给了：",
        "headview.all": "所有 token 的注意力",
        "headview.nojs": "交互式头视图需要 JavaScript。",
        "headview.error": "头视图的数据没能加载（{status}），请刷新页面再试。",
        # sitebuild.benchreport: the performance page
        "bench.scratch": "从零手写",
        "bench.mha_default": "nn.MHA 默认",
        "bench.mha_no_weights": "nn.MHA need_weights=False",
        "bench.mha_fastpath": "nn.MHA 推理快速路径",
        "bench.fast": "融合 QKV + SDPA",
        "bench.best_official": "nn.MHA 最快的配置",
        "bench.flop_head": ["L", "总 GFLOP", "注意力部分占比", "N·h·L² 权重 (MiB)"],
        "bench.exponent": "指数 p（L={a}→{b}）",
        "bench.matmul": ("参照：本机 {n}×{n} float32 稠密矩阵乘法，和各位选手在同样的轮次里轮流计时，"
                         "{samples} 个样本的中位数是 **{gflops:.0f} GFLOP/s**（四分位距 {low:.0f}–{high:.0f}）。"
                         "吞吐表括号里的百分比，都是相对这个中位数而言的。"),
        "bench.length": "序列长度 L",
        "bench.time_axis": "每次前向（毫秒，中位数）",
        "bench.memory_axis": "峰值内存（MiB）",
        "bench.alt_time": "五种多头注意力实现每次前向的中位用时随序列长度 L 变化的双对数折线图，阴影是四分位距",
        "bench.caption_time": "每次前向的中位用时（双对数坐标）；阴影带是各轮样本的第 25 到第 75 百分位。斜率 1 表示线性增长，斜率 2 表示平方增长。",
        "bench.alt_memory": "五种多头注意力实现的峰值内存随序列长度 L 变化的双对数折线图",
        "bench.caption_memory": "一次前向的峰值内存（双对数坐标）。存下 N·h·L² 权重的实现，曲线斜率趋近 2。",
        "bench.met": "✅ 达成",
        "bench.not_met": "❌ 未达成",
        "bench.undecided": "≈ 无法判定：差别在噪声以内",
        "bench.goal_time": "融合 QKV + SDPA 的用时 ÷ nn.MHA 最快配置",
        "bench.goal_time_value": "中位数之比，最差 {ratio:.3f}（L={at}）",
        "bench.goal_time_undecided": "；L = {lengths} 时与 1.05 倍没有可测的差别",
        "bench.goal_speedup": "从零手写用时 ÷ 融合 QKV + SDPA 用时",
        "bench.goal_speedup_value": "中位数之比 {ratio:.2f}（L={at}）",
        "bench.goal_memory": "峰值内存 ∝ Lᵖ 的指数 p（融合 / 手写）",
        "bench.goal_memory_value": "{ratio:.2f} / {naive:.2f}（L={a}→{b}）",
        "bench.goals_head": ["目标", "要求", "实测", "结论"],
        "bench.time_label": "用时（毫秒，中位数 [第 25–75 百分位]）",
        "bench.throughput_label": "吞吐（按中位用时算的 GFLOP/s；括号里是占矩阵乘法参照的百分比）",
        "bench.memory_label": "峰值内存（MiB）",
        "bench.same": "没有可测的差别",
        "bench.faster": "更快（速度 {x:.2f} 倍）",
        "bench.slower": "更慢（用时 {x:.2f} 倍）",
        "bench.pair_head": "比较（前者对后者）",
        "bench.pair_label": "{a} 对 {b}",
        "bench.list_sep": "、",
        "bench.slope_item": "{name}（p = {p:.2f}）",
        "bench.group_sep": "；",
        "bench.group_faster": "L = {lengths} 时更快（速度是后者的 {x} 倍）",
        "bench.group_slower": "L = {lengths} 时更慢（用时是后者的 {x} 倍）",
        "bench.group_same": "L = {lengths} 时没有可测的差别",
        "bench.pair_sentence": "{a} 对 {b}：{groups}。",
        "bench.memory_sentence": ("在 L={a}→{b} 之间，峰值内存近似按平方增长（p ≥ 1.5）的有：{quad}；"
                                  "近似线性增长（p ≤ 1.2）的有：{lin}。L={L} 时占得最多的是 {big}（{big_mib} MiB），"
                                  "最少的是 {small}（{small_mib} MiB）。"),
        # sitebuild.benchreport.provenance_table: where a committed measurement came from
        "provenance.head": ["项目", "值"],
        "provenance.date": "测量时间",
        "provenance.commit": "代码版本（提交）",
        "provenance.dirty": "（另有未提交的改动）",
        "provenance.machine": "机器",
        "provenance.machine_value": "{cpu}，{cores} 个核，SIMD 指令集 {simd}",
        "provenance.threads": "基准测试线程数",
        "provenance.software": "软件版本",
        "provenance.load": "机器负载",
        "provenance.load_value": "平均负载（1 / 5 / 15 分钟）开始时 {before}，结束时 {after}。{busy}",
        "provenance.shared": "测量期间机器上还有别的任务在跑，并不空闲。",
        "provenance.not_shared": "测量期间没有安排别的任务。",
        "provenance.duration": "测量耗时",
        "provenance.duration_value": "{minutes:.1f} 分钟",
        "provenance.fingerprint": "代码指纹",
        "provenance.fingerprint_value": "`{fp}`，由这些文件以及 torch、numpy、Python 的版本算出：{files}",
        "provenance.command": "重新测量的命令",
        # sitebuild.buildbench
        "buildbench.cold": "冷构建（空缓存，--strict）",
        "buildbench.warm": "热构建（--strict）",
        "buildbench.no_exec": "关闭代码执行的构建（非 strict）",
        "buildbench.serve": "mkdocs serve：改页面到拿到新页面",
        "buildbench.ratio": "热构建 ÷ 关闭执行的构建（目标 ≤ 2）",
        "buildbench.head": ["测量", "秒", "通过"],
        "buildbench.met": "达成",
        "buildbench.not_met": "未达成",
        "buildbench.failed": "失败",
        # sitebuild.notebooks and its hook
        "notebooks.intro": (
            "这是《{title}》一节的 Notebook：代码和[网页]({url})上的完全一样，都来自本站的课程代码包 `snippets`，"
            "由网页自动生成。\n\n"
            "展示函数定义的单元和网页上的代码框一致；后面调用它们的单元从 `snippets` 包导入同名函数。"
            "想改代码做实验，就在定义单元里改，再删掉调用单元里对应的 import。"
        ),
        "notebooks.setup": (
            "**怎么运行**：在 Jupyter 或 Colab 里从上到下运行即可。第一个代码单元用 `%pip` 从本站下载并安装课程代码包"
            "（`snippets`）；如果它已经能导入（比如在本站的代码仓库里），这一步就跳过。"
        ),
        "notebooks.setup_results": "本节展示的计时是在构建本站的机器上测的，所以这个单元还会从本站下载这些测量数据（和代码包放在一起的 JSON 文件），不在你的机器上重测。",
        "notebooks.setup_computes": (
            "本站构建时算好的结果（训练好的模型、真实模型上的测量）不随 Notebook 下载：第一次运行时由课程代码重新计算，"
            "边算边打印进度（最耗时的训练还会给出预计剩余时间）；算好的结果存在缓存文件夹里（`~/.cache/multi-head-attention`，"
            "或环境变量 `MHA_CACHE_DIR` 指定的位置），以后再运行直接读取。"
        ),
        "notebooks.download": "下载 Notebook",
        "notebooks.view": "查看 Notebook",
        "notebooks.back": "返回本节网页",
        # snippets.figures: the caption note of a figure that scrolls sideways on a phone
        "figures.scroll_note": "（窄屏上可左右滑动查看全图）",
        "notebooks.try": "# 先在这里自己试一试，再看下面折叠起来的答案",
        "notebooks.hidden": "**{title}**（代码单元已折叠，自己试过之后再展开）",
        # docs/assets/whatif-lab.js: the §4 lab's controls, read from the page (sitebuild.whatif_lab)
        "lab.heads": "头数 h",
        "lab.seed": "种子",
        "lab.random": "随机换一段日志",
        "lab.sample": "换回样本日志",
        "lab.log": "日志：选一个位置，看它的预测",
        "lab.pos": "位置 {i}",
        "lab.edit": "位置 {i} 的事件",
        "lab.attention": "位置 {i} 的查询，各头的注意力（行是头，列是被看的位置）",
        "lab.head": "头 {i}",
        "lab.role": "角色 {role}",
        "lab.none": "无",
        "lab.allOn": "全部打开",
        "lab.allOff": "全部关闭",
        "lab.headButton": "头 {i}，角色 {role}",
        "lab.headCells": "头 {i} 的注意力：{list}",
        "lab.cell": "位置 {j} {event} {p}%",
        "lab.preds": "位置 {i} 的四个预测",
        "lab.targets": ["前 2 个", "前 1 个", "后 1 个", "后 2 个"],
        "lab.outside": "超出日志，不计分",
        "lab.right": "✓ 对",
        "lab.wrong": "✗ 错，实际是 {event}",
        "lab.accuracy": "留出准确率",
        "lab.overall": "总体",
        "lab.full": "全部头开着：{v}",
        "lab.progress": "已算 {done} / {total} 段留出日志…",
        "lab.done": "共 {total} 段留出日志",
        "lab.off": "关掉的头：{list}",
        "lab.allHeadsOn": "所有头都开着",
        "lab.loading": "正在加载模型…",
        "lab.failed": "模型数据加载失败：{error}",
        "lab.sep": "、",
    },
    "en": {
        "heads.one": "1 head",
        "heads.many": "{h} heads",
        "heads.head": "head {i}",
        "heads.rounding": "only floating-point rounding",
        "heads.not_rounding": "more than floating-point rounding",
        "heads.fetched": ("One head splits its weight between the two places ({a1} and {b1}), so its output is the "
                          "average of the two value vectors. Swap the two tokens and its {width} output features "
                          "change by at most {d1}: nothing in them says who stood where. Two heads take one place "
                          "each ({a2} and {b2}); their output is also {width} features wide, and the swap changes "
                          "it by up to {d2}: who stood where is still there."),
        "heads.swap.content": "W·e (content only)",
        "heads.swap.content.keys": "position",
        "heads.swap.position": "W·(e+p) (content plus position)",
        "heads.swap.position.keys": "position",
        "heads.swap.layer_norm": "W·LayerNorm(e+p)",
        "heads.swap.layer_norm.keys": "position",
        "heads.swap.content_keys": "W·(e+p) (as above)",
        "heads.swap.content_keys.keys": "position + 0.01·content",
        "heads.swap.sentence": ("With position in the values, W·(e+p), swapping the two tokens changes the output "
                                "by at most {pos}, {verdict}. One head's average stays symmetric: position added "
                                "linearly into the values does not bring back who stood where. Only two things "
                                "break the symmetry. One is nonlinear mixing: with a layer normalisation before "
                                "the projection, the swap changes the output by {ln}. The other is weights that "
                                "depend on content: with a little content in the keys, the two places get {wa} "
                                "and {wb}, and the swap changes the output by {keys}."),
        "heads.projection": ("Project then split, against each head projecting on its own: the largest difference "
                             "is {err}, {verdict}; one operation, written two ways."),
        "heads.concat": ("The layer's output (the {h} heads concatenated, times W^O) and the sum of the {h} heads' "
                         "contributions (each head times its own block of W^O, plus the bias) differ by at most "
                         "{err}, {verdict}."),
        "heads.params": ("From {h0} to {h1} heads the parameter count stays at {params}; each query gets "
                         "{h1} attention distributions instead of {h0}, and each head's width d_k falls from {d0} "
                         "to {d1}."),
        "s2.rows_of_head": "rows of `W_q.weight` for head {i}",
        "s2.queries_of_head": "queries of head {i}",
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
                                   "{random}: at initialisation every head is close to uniform (see Q15), so heads "
                                   "look alike, and an untrained layer cannot be overfitted. With every head "
                                   "replaced by a copy of head 0 the similarity is {copies}: complete redundancy, "
                                   "eight heads doing the work of one, and again nothing to do with overfitting.",
        "faq.entropy_sentence": "A one-hot row has normalised entropy {one_hot} and a uniform row {uniform}; a "
                                "freshly initialised 8-head layer averages {mean} over its rows, and even its most "
                                "peaked row reaches {min}.",
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
        "bert.prev": "previous token",
        "bert.next": "next token",
        "bert.sep": "[SEP]",
        "bert.cls": "[CLS]",
        "bert.broad": "broad",
        "bert.other": "other",
        "bert.short.prev": "←",
        "bert.short.next": "→",
        "bert.short.sep": "SEP",
        "bert.short.cls": "CLS",
        "bert.short.broad": "≈",
        "bert.short.other": "·",
        "bert.layer": "layer {}",
        "bert.head": "head {}",
        "bert.corner": "layer ＼ head",
        "bert.text": "text",
        "bert.words": "whitespace words",
        "bert.pieces": "WordPieces (with [CLS] [SEP])",
        "bert.stats": ["layer", "head", "entropy (nats)", "entropy / ln T", "[CLS]", "[SEP]", "previous", "next",
                       "category"],
        "bert.cats": ["category", "criterion", "heads", "which (layer-head: value)"],
        "bert.rule_share": "mean share on {what} > {t:.0%}",
        "bert.rule_broad": "none of the above, and entropy / ln T ≥ {t:.0%}",
        "bert.rule_other": "none of the above",
        "bert.field": "log field",
        "bert.split": "WordPiece split",
        "bert.finding": ("Of the {n} heads, {cls} put more than half of their attention on [CLS]; "
                         "{sep} do so on [SEP]. Averaged over all heads, [CLS] receives {cls_mean:.0%} of the "
                         "attention and [SEP] {sep_mean:.0%}. {broad_first} of the {first} heads in layer 0 are broad. "
                         "Heads attending mostly to the previous token: {prev}; to the next token: {next}."),
        "bert.entropy": ("Heads in the [CLS] category have a mean entropy / ln T of {cls:.2f}; broad heads "
                         "{broad:.2f}; a perfectly uniform distribution scores 1."),
        "bert.importance": ["category", "heads", "mean 1 − cos", "largest 1 − cos", "largest (layer-head)"],
        "bert.head_ref": "{layer}-{head} ({cat}, {shift:.4f})",
        "bert.list_sep": ", ",
        "bert.importance_summary": ("The {top} heads whose removal moves the sentence embedding most (layer-head, "
                                    "category, 1 − cos): {best}. The least is {least}; the median over all {n} heads "
                                    "is {median:.4f}. For scale, two different texts of this page are on average "
                                    "{scale:.2f} apart (1 − cos)."),
        "bert.importance_broad": " The {count} broad heads rank {ranks} of {n} (1 = largest effect).",
        "bert.broad_vs_clark": ("This page's {heads} broad heads put between {cls_min:.0%} and {cls_max:.0%} of their "
                                "attention on [CLS] on average; in {over_10:.0%} of their query rows, on average, the "
                                "most-attended token gets more than 10%."),
        "headview.text": "Text",
        "headview.layer": "Layer",
        "headview.head": "Head",
        "headview.tokens": "Query tokens (hover or focus with Tab)",
        "headview.keys": "Attended tokens",
        "headview.hint": ("Hover over a token in the left column, or reach it with Tab / ↑ ↓, "
                          "to see where it attends. With nothing selected, every token's attention is drawn."),
        "headview.attends": "{token} attends most to:",
        "headview.all": "Attention of all tokens",
        "headview.nojs": "The interactive head view needs JavaScript.",
        "headview.error": "The head view's data could not be loaded ({status}); reload the page to try again.",
        "bench.scratch": "from scratch",
        "bench.mha_default": "nn.MHA default",
        "bench.mha_no_weights": "nn.MHA need_weights=False",
        "bench.mha_fastpath": "nn.MHA inference fast path",
        "bench.fast": "fused QKV + SDPA",
        "bench.best_official": "the fastest nn.MHA configuration",
        "bench.flop_head": ["L", "total GFLOP", "share of q kᵀ and weights·v", "N·h·L² weights (MiB)"],
        "bench.exponent": "exponent p (L={a}→{b})",
        "bench.matmul": ("Reference: a {n}×{n} float32 dense matmul on this machine, timed in the same rounds as the "
                         "contenders, reaches a median of **{gflops:.0f} GFLOP/s** over {samples} samples "
                         "(interquartile range {low:.0f}–{high:.0f}). The percentages in the throughput table are "
                         "shares of that median."),
        "bench.length": "sequence length L",
        "bench.time_axis": "ms per forward (median)",
        "bench.memory_axis": "peak memory (MiB)",
        "bench.alt_time": ("Log-log line chart of the median time per forward pass of five multi-head attention"
                           " implementations against sequence length L, with the interquartile range shaded"),
        "bench.caption_time": ("Median time per forward pass (log-log); the shaded band is the 25th to 75th "
                               "percentile of the rounds. Slope 1 is linear growth, slope 2 quadratic."),
        "bench.alt_memory": ("Log-log line chart of the peak memory of five multi-head attention "
                             "implementations against sequence length L"),
        "bench.caption_memory": ("Peak memory of one forward pass (log-log). Implementations that store N·h·L² "
                                 "weights approach slope 2."),
        "bench.met": "✅ met",
        "bench.not_met": "❌ not met",
        "bench.undecided": "≈ undecided: within the noise",
        "bench.goal_time": "fused QKV + SDPA time ÷ fastest nn.MHA",
        "bench.goal_time_value": "ratio of medians, worst {ratio:.3f} (L={at})",
        "bench.goal_time_undecided": "; no measurable difference from 1.05× at L = {lengths}",
        "bench.goal_speedup": "from-scratch time ÷ fused QKV + SDPA time",
        "bench.goal_speedup_value": "ratio of medians {ratio:.2f} (L={at})",
        "bench.goal_memory": "exponent p in peak ∝ Lᵖ (fused / from scratch)",
        "bench.goal_memory_value": "{ratio:.2f} / {naive:.2f} (L={a}→{b})",
        "bench.goals_head": ["Goal", "Target", "Measured", "Verdict"],
        "bench.time_label": "Time (ms, median [25th–75th percentile])",
        "bench.throughput_label": "Throughput (GFLOP/s at the median time; in brackets, share of the matmul reference)",
        "bench.memory_label": "Peak memory (MiB)",
        "bench.same": "no measurable difference",
        "bench.faster": "{x:.2f}× faster",
        "bench.slower": "{x:.2f}× slower",
        "bench.pair_head": "Comparison (first against second)",
        "bench.pair_label": "{a} vs {b}",
        "bench.list_sep": ", ",
        "bench.slope_item": "{name} (p = {p:.2f})",
        "bench.group_sep": "; ",
        "bench.group_faster": "faster at L = {lengths} ({x}× the speed)",
        "bench.group_slower": "slower at L = {lengths} ({x}× the time)",
        "bench.group_same": "no measurable difference at L = {lengths}",
        "bench.pair_sentence": "{a} against {b}: {groups}.",
        "bench.memory_sentence": ("Between L={a} and L={b}, peak memory grows about quadratically (p ≥ 1.5) for "
                                  "{quad}, and about linearly (p ≤ 1.2) for {lin}. At L={L}, {big} holds the most "
                                  "({big_mib} MiB) and {small} the least ({small_mib} MiB)."),
        "provenance.head": ["Item", "Value"],
        "provenance.date": "Measured",
        "provenance.commit": "Commit",
        "provenance.dirty": " (plus uncommitted changes)",
        "provenance.machine": "Machine",
        "provenance.machine_value": "{cpu}, {cores} cores, SIMD level {simd}",
        "provenance.threads": "Benchmark threads",
        "provenance.software": "Software",
        "provenance.load": "Load on the machine",
        "provenance.load_value": "load average (1 / 5 / 15 min) {before} at the start, {after} at the end. {busy}",
        "provenance.shared": "Other jobs were running on the machine during the measurement; it was not idle.",
        "provenance.not_shared": "No other jobs were scheduled during the measurement.",
        "provenance.duration": "Time the measurement took",
        "provenance.duration_value": "{minutes:.1f} min",
        "provenance.fingerprint": "Code fingerprint",
        "provenance.fingerprint_value": "`{fp}`, from these files and the torch, numpy and Python versions: {files}",
        "provenance.command": "Command to measure again",
        "buildbench.cold": "cold build (empty cache, --strict)",
        "buildbench.warm": "warm build (--strict)",
        "buildbench.no_exec": "build with code execution off (not strict)",
        "buildbench.serve": "mkdocs serve: edit to rebuilt page",
        "buildbench.ratio": "warm ÷ execution off (target ≤ 2)",
        "buildbench.head": ["Measurement", "Seconds", "Passed"],
        "buildbench.met": "met",
        "buildbench.not_met": "not met",
        "buildbench.failed": "failed",
        "notebooks.intro": (
            "This is the notebook for “{title}”: the same code as on the [web page]({url}), all of it from the "
            "site's lesson package, `snippets`, generated from the page.\n\n"
            "Cells that define functions match the page's code boxes; the cells that call them import the same "
            "functions from the `snippets` package. To experiment, edit a definition cell and drop the matching "
            "import from the calling cell."
        ),
        "notebooks.setup": (
            "**How to run it**: in Jupyter or Colab, run it top to bottom. The first code cell uses `%pip` to "
            "install the lesson package (`snippets`) from this site, and skips that when the package can already "
            "be imported, as it can inside the site's repository."
        ),
        "notebooks.setup_results": "The timings on this page were measured on the machine that builds the site, so the cell also downloads those measurements from the site (JSON files served next to the package) rather than measuring again on yours.",
        "notebooks.setup_computes": (
            "Results the site computed when it was built (trained models, measurements of the real model) do not "
            "come with the notebook: on the first run the lesson code computes them again and prints its progress, "
            "with the time left for the longest step, training. It keeps them in a cache folder (`~/.cache/multi-head-attention`, or the folder "
            "named by `MHA_CACHE_DIR`), so later runs read them from there."
        ),
        "notebooks.download": "Download notebook",
        "notebooks.view": "View notebook",
        "notebooks.back": "Back to the page",
        "figures.scroll_note": " (On a narrow screen, scroll the figure sideways.)",
        "notebooks.try": "# Try it here first, then open the collapsed answer below",
        "notebooks.hidden": "**{title}** (the code cells are collapsed: try it yourself before you open them)",
        # docs/assets/whatif-lab.js
        "lab.heads": "Heads h",
        "lab.seed": "Seed",
        "lab.random": "Draw a random log",
        "lab.sample": "Back to the sample log",
        "lab.log": "Log: pick a position to see its predictions",
        "lab.pos": "position {i}",
        "lab.edit": "Event at position {i}",
        "lab.attention": "Each head's attention from position {i} (rows are heads, columns the positions it looks at)",
        "lab.head": "head {i}",
        "lab.role": "role {role}",
        "lab.none": "none",
        "lab.allOn": "All heads on",
        "lab.allOff": "All heads off",
        "lab.headButton": "Head {i}, role {role}",
        "lab.headCells": "Head {i} attends to: {list}",
        "lab.cell": "position {j} {event} {p}%",
        "lab.preds": "The four predictions at position {i}",
        "lab.targets": ["2 before", "1 before", "1 after", "2 after"],
        "lab.outside": "outside the log, not scored",
        "lab.right": "✓ right",
        "lab.wrong": "✗ wrong, it was {event}",
        "lab.accuracy": "Held-out accuracy",
        "lab.overall": "overall",
        "lab.full": "all heads on: {v}",
        "lab.progress": "Scored {done} of {total} held-out logs…",
        "lab.done": "over all {total} held-out logs",
        "lab.off": "Heads off: {list}",
        "lab.allHeadsOn": "All heads on",
        "lab.loading": "Loading the model…",
        "lab.failed": "Could not load the model data: {error}",
        "lab.sep": ", ",
    },
}

# Entries written the same way in both languages on purpose (code names, symbols).
SAME_IN_BOTH = frozenset({
    "bench.mha_no_weights", "bert.sep", "bert.cls", "bert.short.prev", "bert.short.next", "bert.short.sep",
    "bert.short.cls", "bert.short.broad", "bert.short.other",
})


def check_lang(lang: object) -> str:
    """lang itself if it is one of LANGS, else ValueError."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    return lang


def text(lang: str, key: str, **values) -> str | list[str]:
    """The entry for key in lang, filled in with values when given."""
    entry = TEXT[check_lang(lang)].get(key)
    if entry is None:
        raise ValueError(f"expected a key of snippets.i18n.TEXT, got {key!r}")
    return entry.format(**values) if values else entry


def texts(lang: str, area: str) -> dict[str, str | list[str]]:
    """Every entry of one area, without the prefix: texts('en', 'bench')['fast'] == 'fused QKV + SDPA'."""
    prefix = f"{area}."
    found = {k[len(prefix):]: v for k, v in TEXT[check_lang(lang)].items() if k.startswith(prefix)}
    if not found:
        raise ValueError(f"expected an area of snippets.i18n.TEXT, got {area!r}")
    return found
