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
        # snippets.lessonfigs: the figures of §1, §2 and the home page, and §1's widget
        "figs.one_head": "一个头",
        "figs.two_heads": "两个头",
        "figs.head": "头 {i}",
        "figs.budget.x": "注意力权重（sharpness = {s}）",
        "figs.budget.alt": ("条形图：查询要取回 {a} 和 {b} 时，日志行 8 个 token 各分到的注意力权重。"
                            "一个头在两处各得 {w1a} 和 {w1b}，其余位置接近 0；两个头里，头 0 在 {a} 得 {w2a}，"
                            "头 1 在 {b} 得 {w2b}。"),
        "figs.budget.caption": "注意力预算：一个头在两处平分 1，两个头各自把 1 几乎全给自己的目标。",
        "figs.swap.row": "{setup}·{line}",
        "figs.swap.line": "原行",
        "figs.swap.swapped": "互换后",
        "figs.swap.diff": "最大变化 {d}",
        "figs.swap.features": "输出的第几维",
        "figs.swap.mixed": "两处的平均",
        "figs.swap.from": "取自 {t}",
        "figs.swap.alt": ("表格式的图：一个头和两个头的 4 维输出，分别在原行和 {a}、{b} 互换后的行上。"
                          "一个头的两行数字相同，最大变化 {d1}；两个头的前后两半换了来源，最大变化 {d2}。"),
        "figs.swap.caption": "互换检验：颜色表示每一维的数字从哪个 token 取来。",
        "figs.ceiling.cap": "一个头的上限 ½",
        "figs.ceiling.two": "两个头：头 0 在自己目标上的权重",
        "figs.ceiling.one": "一个头：每个目标的权重",
        "figs.ceiling.uniform": "均匀分布 1/{n}",
        "figs.ceiling.x": "sharpness（对数坐标）",
        "figs.ceiling.y": "目标位置的权重",
        "figs.ceiling.alt": ("折线图：sharpness 从小到大时目标位置的权重。一个头的曲线从 1/{n} 升起，"
                             "到 sharpness = {hi} 时是 {top}，始终低于 ½；两个头时每个头的曲线升到接近 1。"),
        "figs.ceiling.caption": "½ 的上限：sharpness 再大，一个头也只能把预算平分给两个目标。",
        "figs.path.x": "输入 X",
        "figs.path.qkv": "Q、K、V = X·W",
        "figs.path.split": "split_heads",
        "figs.path.scores": "分数 QKᵀ/√d_k",
        "figs.path.softmax": "softmax（权重）",
        "figs.path.context": "权重·V",
        "figs.path.merge": "merge_heads",
        "figs.path.out": "输出 = ·W^O",
        "figs.path.alt": ("流程图：多头注意力从输入到输出的每一步和张量形状，{h} 个头各用一种颜色，d_model = {d_model}。"
                          "输入 {x}，切分后 {split}，分数和权重 {scores}，合并后乘 W^O 得到输出 {out}。"),
        "figs.path.caption": ("多头注意力的数据流。形状是本站的 MultiHeadAttention 在日志行上前向计算一次时记录下来的；"
                              "softmax 那一行画的是这次计算里 {h} 个头的真实权重（层未经训练）。"),
        "figs.concat.head": "头 {i}",
        "figs.concat.bias": "偏置 b",
        "figs.concat.sum": "Σ 头 + b",
        "figs.concat.out": "层的输出",
        "figs.concat.x": "输出向量的前 {f} 维（共 {E} 维）",
        "figs.concat.title": "最大 |输出 − (Σ + b)| = {err}",
        "figs.concat.alt": ("热力图：{h} 个头各自经过 W^O 里属于自己的那一块，写进输出前 {f} 维的贡献，"
                            "再加上偏置；最后两行是这些贡献之和与层的输出，两行相同，最大差 {err}。"),
        "figs.concat.caption": "每个头写进输出的贡献。最后两行（贡献之和、层的输出）一模一样。",
        "figs.params.top": "参数量",
        "figs.params.bottom": "每个头的宽度 d_k 与每个查询的分布数 h（d_model = {E}）",
        "figs.params.dk": "d_k",
        "figs.params.h": "h",
        "figs.params.x": "头数 h",
        "figs.params.alt": ("两幅图：头数从 {h0} 到 {h1}，参数量始终是 {params}；每个头的宽度 d_k 从 {d0} 降到 {d1}，"
                            "每个查询的分布数 h 同步增加，两者之积始终是 {E}。"),
        "figs.params.caption": "同样的参数，切成不同数量的头。",
        "figs.home.prev": "第 {layer} 层 头 {head}：看前一个词元",
        "figs.home.next": "第 {layer} 层 头 {head}：看后一个词元",
        "figs.home.far": "第 {layer} 层 头 {head}：看得最远的头",
        "figs.home.alt": ("弧线图：预训练模型 all-MiniLM-L6-v2 读日志行（{T} 个子词）时 {n} 个头的注意力，每个头一行、一种颜色。"
                          "每条弧连接一个子词和它最关注的另一个子词，权重低于 {t} 的不画。"),
        "figs.home.caption": ("同一行日志，三个头，三种看法：一个头看前一个子词，一个看后一个，一个跨过整段去找别处。"
                              "数据来自真实的预训练模型，权重低于 {t} 的弧不画。"),
        "figs.widget.nojs": ("这个交互小部件要在网页上运行，需要启用 JavaScript。在 Notebook 里，请打开第一个单元格链接的本节网页，"
                             "在“用代码看清这个限制”一节里操作。"),
        "figs.widget.title": "注意力预算：自己调一调",
        "figs.widget.a": "查询要的第一个 token",
        "figs.widget.b": "第二个 token",
        "figs.widget.sharpness": "sharpness",
        "figs.widget.weights": "每个 token 分到的权重",
        "figs.widget.token": "token",
        "figs.widget.one": "一个头",
        "figs.widget.two": "两个头",
        "figs.widget.head": "头 {i}",
        "figs.widget.swap": "互换检验：输出的 4 维，原行与两个 token 互换后",
        "figs.widget.setup": "设置",
        "figs.widget.line": "原行",
        "figs.widget.swapped": "互换后",
        "figs.widget.change": "最大变化",
        "figs.widget.same": "两个 token 必须不同：已把第二个换成 {t}。",
        "figs.widget.summary": ("sharpness = {s}：一个头在两处各得 {a1} 和 {b1}，互换后输出最多变 {d1}；"
                                "两个头各得 {a2} 和 {b2}，互换后输出最多变 {d2}。"),
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
        "faq.per_pixel": "每个像素一个 token",
        "faq.per_patch": "每个 {patch}×{patch} 块一个 token",
        "faq.table": "表",
        "faq.yes": "是",
        "faq.no": "否（{n}）",
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
            "这是《{title}》一节的 Notebook：代码和[网页]({url})上的完全一样，都来自仓库里的 `snippets/` 包，"
            "由网页自动生成。\n\n"
            "**怎么运行**：克隆本站的代码仓库，按 README 安装（`pip install -r requirements.txt`，其中包括本仓库自己），"
            "然后在任意位置用这个环境的内核打开本文件，从上到下运行。\n\n"
            "展示函数定义的单元和网页上的代码框一致；后面调用它们的单元从 `snippets` 包导入同名函数。"
            "想改代码做实验，就改 `snippets/` 里的文件，或者在定义单元里改完后删掉调用单元里对应的 import。"
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
        "figs.one_head": "one head",
        "figs.two_heads": "two heads",
        "figs.head": "head {i}",
        "figs.budget.x": "attention weight (sharpness = {s})",
        "figs.budget.alt": ("Bar chart: the attention weight each of the log line's 8 tokens gets when the query "
                            "wants {a} and {b}. One head gives the two places {w1a} and {w1b} and the rest almost "
                            "nothing; with two heads, head 0 gives {a} {w2a} and head 1 gives {b} {w2b}."),
        "figs.budget.caption": ("The attention budget: one head splits its 1 between the two places; each of two "
                                "heads spends almost all of its 1 on its own target."),
        "figs.swap.row": "{setup}, {line}",
        "figs.swap.line": "line",
        "figs.swap.swapped": "swapped",
        "figs.swap.diff": "largest change {d}",
        "figs.swap.features": "output feature",
        "figs.swap.mixed": "average of both places",
        "figs.swap.from": "from {t}",
        "figs.swap.alt": ("Grid: the 4-feature output of one head and of two heads, on the line and on the line "
                          "with {a} and {b} swapped. One head's two rows are equal, largest change {d1}; two "
                          "heads' halves change source, largest change {d2}."),
        "figs.swap.caption": "The swap test: a cell's colour says which token its number was fetched from.",
        "figs.ceiling.cap": "one head's ceiling, ½",
        "figs.ceiling.two": "two heads: head 0 on its target",
        "figs.ceiling.one": "one head: each target",
        "figs.ceiling.uniform": "uniform, 1/{n}",
        "figs.ceiling.x": "sharpness (log scale)",
        "figs.ceiling.y": "weight on a target",
        "figs.ceiling.alt": ("Line chart: the weight on a target as sharpness grows. One head's curve rises from "
                             "1/{n} to {top} at sharpness {hi}, always below ½; with two heads each head's curve "
                             "rises to almost 1."),
        "figs.ceiling.caption": ("The ½ ceiling: however sharp the query, one head can only split its budget between "
                                 "two targets."),
        "figs.path.x": "input X",
        "figs.path.qkv": "Q, K, V = X·W",
        "figs.path.split": "split_heads",
        "figs.path.scores": "scores QKᵀ/√d_k",
        "figs.path.softmax": "softmax (weights)",
        "figs.path.context": "weights·V",
        "figs.path.merge": "merge_heads",
        "figs.path.out": "output = ·W^O",
        "figs.path.alt": ("Flow chart: every step of multi-head attention from input to output with its tensor "
                          "shape, one colour for each of the {h} heads, d_model = {d_model}. Input {x}, split "
                          "{split}, scores and weights {scores}, merged and multiplied by W^O into the output {out}."),
        "figs.path.caption": ("The data path of multi-head attention. The shapes were recorded from one forward "
                              "pass of this site's MultiHeadAttention on the log line; the softmax row draws that "
                              "pass's real weights for the {h} heads (the layer is untrained)."),
        "figs.concat.head": "head {i}",
        "figs.concat.bias": "bias b",
        "figs.concat.sum": "Σ heads + b",
        "figs.concat.out": "layer output",
        "figs.concat.x": "first {f} features of the output (of {E})",
        "figs.concat.title": "largest |output − (Σ + b)| = {err}",
        "figs.concat.alt": ("Heat map: what each of the {h} heads writes into the first {f} output features through "
                            "its own block of W^O, and the bias; the last two rows, the sum of these and the "
                            "layer's output, are the same, largest difference {err}."),
        "figs.concat.caption": ("Each head's contribution to the output. The last two rows (the sum of the "
                                "contributions, the layer's output) are identical."),
        "figs.params.top": "parameters",
        "figs.params.bottom": "head width d_k and distributions per query h (d_model = {E})",
        "figs.params.dk": "d_k",
        "figs.params.h": "h",
        "figs.params.x": "heads h",
        "figs.params.alt": ("Two charts: from {h0} to {h1} heads the parameter count stays at {params}; the head "
                            "width d_k falls from {d0} to {d1} while the distributions per query, h, grow, and "
                            "their product stays {E}."),
        "figs.params.caption": "The same parameters, cut into different numbers of heads.",
        "figs.home.prev": "layer {layer}, head {head}: looks at the previous token",
        "figs.home.next": "layer {layer}, head {head}: looks at the next token",
        "figs.home.far": "layer {layer}, head {head}: looks farthest",
        "figs.home.alt": ("Arc diagram: the attention of {n} heads of the pretrained all-MiniLM-L6-v2 on the log "
                          "line ({T} WordPieces), one row and one colour per head. Each arc joins a WordPiece to "
                          "the other WordPiece it attends to most; arcs below {t} are left out."),
        "figs.home.caption": ("One log line, three heads, three ways of reading it: one looks back a token, one "
                              "looks ahead, one reaches across the line. Real weights of a pretrained model; arcs "
                              "below {t} are left out."),
        "figs.widget.nojs": ("This interactive widget runs on a web page, with JavaScript on. From a notebook, open "
                             "this section's page, linked in the first cell: the widget is in \"Seeing the limit in "
                             "code\"."),
        "figs.widget.title": "The attention budget: try it",
        "figs.widget.a": "First token the query wants",
        "figs.widget.b": "Second token",
        "figs.widget.sharpness": "sharpness",
        "figs.widget.weights": "The weight each token gets",
        "figs.widget.token": "token",
        "figs.widget.one": "one head",
        "figs.widget.two": "two heads",
        "figs.widget.head": "head {i}",
        "figs.widget.swap": "The swap test: the 4 output features, on the line and with the two tokens swapped",
        "figs.widget.setup": "setup",
        "figs.widget.line": "line",
        "figs.widget.swapped": "swapped",
        "figs.widget.change": "largest change",
        "figs.widget.same": "The two tokens must differ: the second is now {t}.",
        "figs.widget.summary": ("sharpness = {s}: one head gives the two places {a1} and {b1}, and the swap changes "
                                "its output by at most {d1}; two heads give {a2} and {b2}, and the swap changes their "
                                "output by at most {d2}."),
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
            "repository's `snippets/` package, generated from the page.\n\n"
            "**How to run it**: clone the site's repository, install it as its README says "
            "(`pip install -r requirements.txt`, which installs the repository itself too), then open this file "
            "anywhere with that environment's kernel and run it top to bottom.\n\n"
            "Cells that define functions match the page's code boxes; the cells that call them import the same "
            "functions from the `snippets` package. To experiment, edit the files in `snippets/`, or edit a "
            "definition cell and drop the matching import from the calling cell."
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
    "figs.path.split", "figs.path.merge", "figs.params.dk", "figs.params.h", "figs.widget.sharpness",
    "figs.widget.token",
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
