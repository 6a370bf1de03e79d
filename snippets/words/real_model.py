"""Words printed into pages: real model (see snippets.i18n)."""

ZH = {
    # snippets.bert.analysis, snippets.bert.headfigures: the real-model page
    "bert.prev": "前一个词元",
    "bert.next": "后一个词元",
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
    "bert.stats": ["层", "头", "熵（奈特，nat）", "熵 / ln T", "[CLS]", "[SEP]", "前一个词元", "后一个词元", "类别"],
    "bert.cats": ["类别", "判据", "头数", "哪些头（层-头：数值）"],
    "bert.rule_share": "平均份额（{what}）> {t:.0%}",
    "bert.rule_broad": "不属于以上各类，且熵 / ln T ≥ {t:.0%}",
    "bert.rule_other": "以上都不是",
    "bert.field": "日志字段",
    "bert.split": "WordPiece 切分",
    "bert.finding": ("{n} 个头里，{cls} 个把一半以上的注意力放在 [CLS] 上，放在 [SEP] 上的{sep:有 # 个|一个也没有}。"
                     "所有头平均，[CLS] 拿到 {cls_mean:.0%} 的注意力，[SEP] 拿到 {sep_mean:.0%}。"
                     "第 0 层的 {first} 个头里有 {broad_first} 个是宽泛的；"
                     "专看前一个词元的头有 {prev} 个，专看后一个词元的有 {next} 个。"),
    "bert.entropy": ("[CLS] 类的头，熵 / ln T 平均为 {cls:.2f}；宽泛类的 {broad_n} 个头平均为 {broad:.2f}（完全均匀的分布是 1），"
                     "其中 {broad_first} 个在第 0 层，另外 {broad_others} 个是 {broad_rest}。"),
    "bert.length": ["文本", "词元数 T", "均匀的一行给每个词元 1/T", "宽泛头里最大权重 > 10% 的行"],
    "bert.length_summary": ("四段短文本各有 {tmin}–{tmax} 个词元，完全均匀的一行也会给每个词元 {umin:.1%}–{umax:.1%}；"
                            "在这些文本上，宽泛头平均 {short_over:.0%} 的行里有词元拿到 10% 以上。"
                            "换成 {t} 个词元的长日志，均匀的一行每个词元只有 {u:.1%}，这个比例降到 {long_over:.0%}。"),
    "bert.ablation_scale": ("完整模型在 {pairs} 对文本上的检索准确率为 {acc:.1%}。"
                            "一条日志和它的改写，句向量夹角的中位数是 {pair:.0f}°；不成对的两段文本之间是 {other:.0f}°。"
                            "去掉一个头，句向量转得最多的是 {head}：{texts} 段文本上转角的中位数为 {med:.1f}°"
                            "（10%–90% 分位数：{p10:.1f}°–{p90:.1f}°）；全部 {n} 个头的中位数只有 {all_med:.1f}°。"),
    "bert.layers": ["层", "转角中位数：最小", "层内中位数", "最大（层-头）",
                    "检索下降最多的头：变化 [Holm 校正后的区间]（百分点）", "测得降低检索的头数（Holm 校正）"],
    "bert.layer_summary": ("第 {last} 层每个头的转角中位数都不小于 {last_min:.1f}°，前面各层的头最多只有 {before_max:.1f}°："
                           "句向量取自最后一层，这一层的头直接写进句向量；跨层比较时，离读出位置近本身就占便宜。"
                           "第 {last} 层的 {heads} 个头里又有 {other} 个属于“其他”类，所以跨层排名也说明不了类别。"),
    "bert.verdict_head": "{head}（{cat}，{iv}）",
    "bert.angle_head": "{a:.1f}°（{h}）",
    "bert.list_sep": "、",
    "bert.head_value": "{head}：{v}",
    "bert.interval": "{d:+.1f} [{lo:+.1f}, {hi:+.1f}]",
    "bert.verdict_family": "{n} 个头是一起检验的，所以区间按这 {n} 个头一起做了 Holm 校正（各个区间的置信水平见下面全部头的表）。",
    "bert.verdict_lower": "去掉其中 {k} 个头，检索准确率测得下降：{heads}。",
    "bert.verdict_higher": "去掉 {k} 个头，检索准确率测得上升：{heads}。",
    "bert.verdict_negligible": "{k} 个头的变化小于值得在意的幅度：{heads}。",
    "bert.verdict_rest": "其余 {k} 个头（共 {n} 个）的区间包含 0：在这 {pairs} 对文本上测不出差别。",
    "bert.verdict_all_none": ("所有区间都包含 0：在这 {pairs} 对文本上，单独去掉哪一个头，检索都没有可测的变化。"
                              "就连 p 值最小的 {head}（{cat}，{iv} 个百分点，p = {p:.3f}）也没有通过 Holm 的第一步"
                              "（p 要小于 0.05/{n}），所以每个区间都按这一步的置信水平 {level} 给出。"),
    "bert.verdict_alone": ("\n\n如果不做校正，每个头各按 95% 单独判断，{n} 个区间里会有 {k} 个不含 0：{heads}；"
                           "而即使哪个头都不起作用，单凭偶然也预计有约 {expected:.1f} 个（{n} 的 5%）。"),
    "bert.verdict_alone_none": "\n\n即使不做校正，每个头各按 95% 单独判断，{n} 个区间也没有一个不含 0。",
    "bert.verdict_power": ("\n\n{pairs} 对文本能看出多大的影响？假如去掉某个头，让其中 {k} 对完全失分、其余各对都不变"
                           "（下降 {points:.0f} 个百分点），这已是能通过 Holm 第一步的最小的这类损失；更小的损失，"
                           "或者一些文本对变差、另一些变好而部分抵消的影响，都可能藏在这些区间里，"
                           "所以这里的“没有可测的变化”并不等于没有影响。"),
    "bert.broad_removal": ("去掉 {n} 个宽泛头中的一个，句向量转过的角度中位数是 {broad:.1f}°（先取每个头在各段文本上的"
                           "中位角度，再取这些头的中位数）；去掉其余 {others} 个头中的一个，是 {other:.1f}°。"),
    "bert.takeaway_none": ("在日志检索上，{n} 个头一起检验、做 Holm 校正之后，在这 {pairs} 对文本上，"
                           "单独去掉哪个头都测不出对准确率的影响。"),
    "bert.takeaway_some": ("在日志检索上，{n} 个头一起检验、做 Holm 校正之后，在这 {pairs} 对文本上，"
                           "去掉其中 {survive} 个头对准确率有可测的影响。"),
    "bert.takeaway_alone": "如果每个头各按 95% 单独判断，会有 {k} 个看似有影响，而单凭偶然预计就有约 {expected:.1f} 个。",
    # stats.verdict's four keys, for removing one head (the head table)
    "bert.effect_lower": "检索测得变差",
    "bert.effect_higher": "检索测得变好",
    "bert.effect_none": "没有可测的变化",
    "bert.effect_negligible": "变化小到可以忽略",
    "bert.effect_cell": "{verdict}（{level}）",
    "bert.heads_table": ["层-头", "类别", "转角中位数", "10%–90% 分位", "检索准确率变化 [区间]（百分点）",
                         "结论（区间的置信水平，Holm 校正）"],
    "bert.broad_vs_clark": ("第 0 层的 {first} 个头里有 {broad_first} 个是宽泛的，全模型共有 {heads} 个宽泛头。"
                            "它们放在 [CLS] 上的平均份额在 {cls_min:.0%} 到 {cls_max:.0%} 之间；"
                            "平均 {over_10:.0%} 的查询行里，权重最大的那个词元拿到了 10% 以上。"),
    "bert.neighbours": ("专看前一个词元的头有 {prev} 个（{prev_heads}），专看后一个词元的头有 {next} 个（{next_heads}）；"
                        "括号里是“层-头：落在这个邻居上的平均份额”。"),
    "bert.special": ("把一半以上的注意力放在 [CLS] 上的头共有 {cls} 个，从第 0 层到第 {last} 层依次是 {per_layer} 个；"
                     "放在 [SEP] 上的头{sep:有 # 个|一个也没有}。所有头平均，[CLS] 拿到 {cls_mean:.0%} 的注意力，[SEP] 拿到 {sep_mean:.0%}。"),
    # snippets.bert.viewer: the interactive head view (sent to headview.js in this order)
    "headview.text": "文本",
    "headview.layer": "层",
    "headview.head": "头",
    "headview.tokens": "查询词元（悬停或用 Tab 键聚焦）",
    "headview.keys": "被关注的词元",
    "headview.hint": ("把鼠标移到左列的词元上，或用 Tab / ↑ ↓ 键选中它，看它把注意力分给了谁。"
                      "没有选中时，画出的是所有词元的注意力。"),
    "headview.attends": "{token} 的注意力最多给了：",
    "headview.all": "所有词元的注意力",
    "headview.nojs": "交互式头视图需要 JavaScript。",
    "headview.error": "头视图的数据没能加载（{status}），请刷新页面再试。",
    # snippets.bert.report.quick_ablation: one head off, on two texts
    "bert.quick": ("两段文本的句向量夹角：所有头都开着时 {both:.1f}°，去掉第 {layer} 层第 {head} 个头后 {both_off:.1f}°。"
                   "去掉这个头，第一段的句向量转了 {turn_a:.2f}°，第二段转了 {turn_b:.2f}°。"),
    # snippets.bert.report.two_minute_bullets and category_grid(legend=True): the two-minute version
    "bert.box_look": ("**头在看哪里**（见下表）：{n} 个头里，{cls} 个把一半以上的注意力放在 [CLS]（每段文本开头加的词元）上，"
                      "所有头平均给它 {cls_mean:.0%}；放在 [SEP]（结尾加的词元）上的{sep:有 # 个|一个也没有}，"
                      "而 Clark 等在 BERT-base 里看到，闲着的头多把注意力停在 [SEP] 上。第 0 层的 {first} 个头里有 "
                      "{broad_first} 个是宽泛的：注意力几乎平均撒开（熵不低于均匀分布的 {broad_t:.0%}）。"
                      "专看前一个词元的头有 {prev} 个，专看后一个词元的有 {next} 个。"),
    "bert.box_turn": ("**去掉一个头**：模型把每段文本变成一个向量（句向量），意思相近的文本向量夹角小："
                      "一条日志和它的改写相差 {pair:.0f}°（中位数），不成对的两段文本相差 {other:.0f}°。"
                      "去掉一个头，句向量转过的角度中位数只有 {all_med:.1f}°（{n} 个头）；转得最多的是第 {layer} 层"
                      "第 {head} 个头，{med:.1f}°。宽泛并不等于没用：去掉 {broad_n} 个宽泛头中的一个，转 {broad:.1f}°，"
                      "和去掉其他头（{rest:.1f}°）差不多。"),
    "bert.box_retrieval": ("**检索**：在 {pairs} 对文本里给每条日志找它的改写，完整模型的准确率是 {acc:.1%}；"
                           "{n} 个头一起检验（Holm 校正），"
                           "{survive:去掉其中 # 个头对准确率有可测的影响|单独去掉哪个头都测不出对准确率的影响}。"),
    "bert.legend": "每格是一个头（行是层，列是头，都从 0 数起）：{items}。",
    "bert.legend_sep": "；",
    "bert.legend.prev": "{mark} 一半以上的注意力给前一个词元",
    "bert.legend.next": "{mark} 给后一个词元",
    "bert.legend.sep": "{mark} 给 [SEP]",
    "bert.legend.cls": "{mark} 给 [CLS]",
    "bert.legend.broad": "{mark} 宽泛",
    "bert.legend.other": "{mark} 都不是",
}

EN = {
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
                     "{sep:# do so on [SEP]|none does so on [SEP]}. Averaged over all heads, [CLS] receives {cls_mean:.0%} of the "
                     "attention and [SEP] {sep_mean:.0%}. {broad_first} of the {first} heads in layer 0 are broad. "
                     "Heads attending mostly to the previous token: {prev}; to the next token: {next}."),
    "bert.entropy": ("Heads in the [CLS] category have a mean entropy / ln T of {cls:.2f}; the {broad_n} broad "
                     "heads {broad:.2f} (a perfectly uniform distribution scores 1). {broad_first} of the broad "
                     "heads are in layer 0; the other {broad_others} are {broad_rest}."),
    "bert.length": ["text", "tokens T", "uniform row: 1/T per token", "broad heads' rows with a max > 10%"],
    "bert.length_summary": ("The four short texts have {tmin}–{tmax} tokens, so a perfectly uniform row already gives "
                            "each token {umin:.1%}–{umax:.1%}; on them, {short_over:.0%} of the "
                            "broad heads' rows give some token more than 10%. On the {t}-token log excerpt a uniform "
                            "row gives each token {u:.1%}, and the share falls to {long_over:.0%}."),
    "bert.ablation_scale": ("The full model retrieves with an accuracy of {acc:.1%} on {pairs} pairs. A log message "
                            "and its rewording are {pair:.0f}° apart (median), two texts that are not a pair "
                            "{other:.0f}°. The head whose removal turns the embedding most is {head}: a median of "
                            "{med:.1f}° over the {texts} texts (10th–90th percentile {p10:.1f}°–{p90:.1f}°); the "
                            "median over all {n} heads is {all_med:.1f}°."),
    "bert.layers": ["layer", "median angle: smallest", "layer median", "largest (layer-head)",
                    "largest retrieval drop: change [Holm-corrected interval] (points)",
                    "heads that measurably lower retrieval (Holm)"],
    "bert.layer_summary": ("Every head of layer {last} turns the embedding by a median of at least {last_min:.1f}°; "
                           "no head of an earlier layer reaches more than {before_max:.1f}°. The embedding is "
                           "pooled from the last layer and last-layer heads write straight into it, so a ranking "
                           "across layers mixes what a head does with how close it sits to the read-out. {other} of layer {last}'s {heads} heads "
                           "are \"other\", so such a ranking says nothing about categories either."),
    "bert.verdict_head": "{head} ({cat}, {iv})",
    "bert.angle_head": "{a:.1f}° ({h})",
    "bert.list_sep": ", ",
    "bert.head_value": "{head}: {v}",
    "bert.interval": "{d:+.1f} [{lo:+.1f}, {hi:+.1f}]",
    "bert.verdict_family": ("All {n} heads are tested together, so their intervals are Holm-corrected over the {n} "
                            "(the level of each is in the table of all heads below). "),
    "bert.verdict_lower": "Removing {k} of them measurably lowers retrieval accuracy: {heads}. ",
    "bert.verdict_higher": "Removing {k} measurably raises it: {heads}. ",
    "bert.verdict_negligible": "{k} change it by less than the minimum that matters: {heads}. ",
    "bert.verdict_rest": ("For the other {k} of the {n} heads the interval covers 0: no measurable difference on "
                          "these {pairs} pairs."),
    "bert.verdict_all_none": ("Every interval covers 0: on these {pairs} pairs, removing any one head makes no "
                              "measurable difference to retrieval. Not even the head with the smallest p-value, "
                              "{head} ({cat}, {iv} points, p = {p:.3f}), passes Holm's first step, which needs p below "
                              "0.05/{n}, so every interval is printed at that step's level, {level}."),
    "bert.verdict_power": (" How large an effect could {pairs} pairs show? A head whose removal cost {k} of them "
                           "their whole score and changed no other pair, a drop of {points:.0f} points, is the "
                           "smallest such loss that would pass Holm's first step; a smaller loss, or one where "
                           "losses on some pairs are partly offset by gains on others, can hide in these "
                           "intervals, so “no measurable difference” here does not mean no effect."),
    "bert.broad_removal": ("Removing one of the {n} broad heads turns the sentence embedding by a median "
                           "{broad:.1f}° (each head's median angle over the texts, then the median over those "
                           "heads); removing one of the other {others} heads, by {other:.1f}°."),
    "bert.verdict_alone": (" Judged one head at a time at 95%, without the correction, {k} of the {n} intervals "
                           "would exclude 0: {heads}; even if no head mattered, chance alone would give about "
                           "{expected:.1f} of {n} (5%)."),
    "bert.verdict_alone_none": (" Judged one head at a time at 95%, without the correction, none of the {n} "
                                "intervals would exclude 0 either."),
    "bert.takeaway_none": ("On log retrieval, with all {n} heads tested together (Holm), removing any single head "
                           "makes no measurable difference to accuracy on these {pairs} pairs."),
    "bert.takeaway_some": ("On log retrieval, with all {n} heads tested together (Holm), removing {survive} of them "
                           "measurably changes accuracy on these {pairs} pairs."),
    "bert.takeaway_alone": (" Judged one head at a time at 95%, {k} would seem to matter, where chance alone would "
                            "give about {expected:.1f}."),
    # stats.verdict's four keys, for removing one head (the head table)
    "bert.effect_lower": "measurably lowers retrieval",
    "bert.effect_higher": "measurably raises retrieval",
    "bert.effect_none": "no measurable change",
    "bert.effect_negligible": "a change too small to matter",
    "bert.effect_cell": "{verdict} ({level})",
    "bert.heads_table": ["layer-head", "category", "median angle", "10th–90th percentile",
                         "retrieval accuracy change [interval] (points)", "verdict (level of the interval, Holm)"],
    "bert.broad_vs_clark": ("{broad_first} of the {first} heads in layer 0 are broad, and {heads} in the "
                            "whole model. They put between {cls_min:.0%} and {cls_max:.0%} of their attention on "
                            "[CLS] on average; in {over_10:.0%} of their query rows, on average, the most-attended "
                            "token gets more than 10%."),
    "bert.neighbours": ("Heads that attend mostly to the previous token: {prev} ({prev_heads}); to the next token: "
                        "{next} ({next_heads}). In brackets: layer-head: mean share on that neighbour."),
    "bert.special": ("{cls} heads put more than half of their attention on [CLS], by layer (0 to {last}): "
                     "{per_layer}; {sep:# heads do so on [SEP]|no head does so on [SEP]}. Averaged over all heads, [CLS] receives "
                     "{cls_mean:.0%} of the attention and [SEP] {sep_mean:.0%}."),
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
    # snippets.bert.report.quick_ablation: one head off, on two texts
    "bert.quick": ("The angle between the two texts' sentence vectors: {both:.1f}° with every head on, "
                   "{both_off:.1f}° with head {head} of layer {layer} off. Removing that head turned the first "
                   "text's vector by {turn_a:.2f}° and the second's by {turn_b:.2f}°."),
    "bert.box_look": ("**Where heads look** (the grid below): of the {n} heads, {cls} put more than half of their "
                      "attention on [CLS], the token added in front of every text, and averaged over all heads it gets "
                      "{cls_mean:.0%}; {sep:# do so on [SEP]|none does so on [SEP]}, the token added at the end, "
                      "where Clark et al. found BERT-base parking attention when a head has nothing to do. "
                      "{broad_first} of the {first} heads in layer 0 are broad: they spread their attention almost "
                      "evenly (entropy at least {broad_t:.0%} of an even spread's). Heads mostly on the previous "
                      "token: {prev}; on the next: {next}."),
    "bert.box_turn": ("**Removing one head**: the model turns each text into one vector, its embedding, and similar "
                      "texts point in similar directions: a log message and its rewording are {pair:.0f}° apart "
                      "(median), two unrelated texts {other:.0f}°. Removing one head turns the embedding by a "
                      "median {all_med:.1f}° over the {n} heads; layer {layer}, head {head} turns it most, by "
                      "{med:.1f}°. Broad does not mean useless: removing one of the {broad_n} broad heads turns it "
                      "{broad:.1f}°, about as much as removing another head ({rest:.1f}°)."),
    "bert.box_retrieval": ("**Retrieval**: finding each log message's rewording among {pairs} pairs, the full model "
                           "is right {acc:.1%} of the time; with all {n} heads tested together (Holm), "
                           "{survive:removing # of them measurably changes that|removing any single head makes no "
                           "measurable difference}."),
    "bert.legend": "Each cell is one head (rows are layers, columns heads, both counted from 0): {items}.",
    "bert.legend_sep": "; ",
    "bert.legend.prev": "{mark} over half of its attention on the previous token",
    "bert.legend.next": "{mark} on the next token",
    "bert.legend.sep": "{mark} on [SEP]",
    "bert.legend.cls": "{mark} on [CLS]",
    "bert.legend.broad": "{mark} broad",
    "bert.legend.other": "{mark} none of these",
}
