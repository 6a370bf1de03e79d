"""Words printed into pages: mqar (see snippets.i18n)."""

ZH = {
    "mqarf.head": ["d_c", "不加：学会", "不加：平均", "加了：学会", "加了：平均", "加了减不加（百分点）", "结论"],
    "mqarf.v_higher": "加了归一化更高",
    "mqarf.v_lower": "加了归一化更低",
    "mqarf.v_none": "{seeds} 个种子下没有可测的差别",
    "mqarf.v_negligible": "有差别，但小于 {minimum:.0f} 个百分点，可以忽略",
    "mqarf.part": "d_c = {size} 时{k:有 # 个|一个也没有}（不加时{plain:有 # 个|也一个都没有}）",
    "mqarf.part_none": "d_c = {size} 时加不加归一化都没有种子学会",
    "mqarf.none": ("给潜向量加上 RMSNorm 之后，每种宽度各 {seeds} 个种子里学会任务的：{normed}；MHA 是 {mha} 个。"
                   "按种子与不加归一化的同一个模型配对，{family} 个准确率差别都不可测（Holm 校正，{family} 个一组）。"
                   "所以在这个训练预算里，没有证据表明缺了这层归一化就是这里的 MLA 学不会的原因。"),
    "mqarf.chance": ("d_c = {size} 时的差别可测，但只有 {diff:+.1f} 个百分点 [{lo:+.1f}, {hi:+.1f}]，而且两边没有一个种子学会："
                     "归一化只让这些没学会的模型瞎猜时稍微准了一点，并没有让它们学会回忆。"),
    "mqarf.found": ("给潜向量加上 RMSNorm 之后，每种宽度各 {seeds} 个种子里学会任务的：{normed}；MHA 是 {mha} 个。"
                    "按种子与不加归一化的同一个模型配对，对这 {family} 个准确率差别做 Holm 校正，有 {found} 个可测；"
                    "各自的区间见上表。"),
    "mqar.pilot_head": ["键值对", "位置数", "每批序列", "训练步数", "种子", "留出集准确率", "学会了？"],
    "mqar.yes": "是",
    "mqar.no": "否",
    "mqar.setting": "{label}",
    "mqar.head": ["结构", "每层每个位置的缓存（字节，float32）", "参数量", "学会的种子", "平均准确率（最低–最高）",
                  "与 MHA 之差（百分点，Holm 区间）", "结论"],
    "mqar.baseline": "基准",
    "mqar.part": "{name} 相差 {diff:+.1f} 个百分点 [{lo:+.1f}, {hi:+.1f}]（{level:.1%} 置信区间），{verdict}",
    "mqar.verdicts": ("MHA 平均答对 {mha:.1%}（{seeds} 个种子）。其余 {family} 种结构各自按种子与 MHA 配对，"
                      "{family} 个比较用 Holm 方法一起校正，{found:其中 # 个判为有差别|没有一个判为有差别}。逐个来看：{parts}。"),
    "mqar.shares_same": "没有一种结构学会的比例与 MHA 有可测的差别",
    "mqar.learned_part": "{name} {k}/{seeds}（与 MHA 比，p {p}）",
    "mqar.learned": ("学会了任务（留出集上的准确率不低于 {threshold:.0%}）的种子数：{shares}。{tests} 个 Fisher "
                     "精确检验用 Holm 方法一起校正后，{said}。只看学会了的种子，平均准确率（括号里是最低到最高）："
                     "{among}。"),
    "mqar.ev_higher": "MLA 更高",
    "mqar.ev_lower": "MLA 更低",
    "mqar.ev_none": "{seeds} 个种子下没有可测的差别",
    "mqar.ev_negligible": "有差别，但小于 {minimum:.0f} 个百分点，可以忽略",
    "mqar.equal_part": ("{mla} 对 {gqa}（每个位置都缓存 {numbers} 字节）：相差 {diff:+.1f} 个百分点 "
                        "[{lo:+.1f}, {hi:+.1f}]（{level:.1%} 置信区间），{verdict}"),
    "mqar.params_fewer": "{label} 少 {share:.0%}",
    "mqar.params_more": "{mla} 比 {gqa} 多 {share:.0%}",
    "mqar.params": ("参数量没有对齐。键/值头越少，W_k 和 W_v 越小：与 {mha} 相比，{fewer}。所以 GQA、MQA 与 MHA "
                    "的差别里，混着“共享键和值”和“模型更小”两件事，这次测试分不开；没有训练参数量对齐的对照。"
                    "MLA 反过来，比缓存一样大的搭档参数更多：{more}。它在测得出差距的地方（上一句）比搭档差，原因不会是参数不够。"),
    "mqar.equal": ("缓存一样大时，把 MLA 和 GQA 直接配对比较（这是另一组比较，共 {family} 个，也用 Holm 校正）："
                   "{parts}。"),
    "mqar.curves": ("学习曲线：{runs} 次训练里，有 {rising} 次在最后 {window} 步涨了半个百分点以上，其中 {big} 次涨了"
                    " 2 个百分点以上（{names}），这些模型到第 {steps} 步预算用完时显然还在学。"),
    "mqar.curves_small": ("学习曲线：{runs} 次训练里，有 {rising} 次在最后 {window} 步涨了半个百分点以上，"
                          "但没有一次涨到 2 个百分点；到第 {steps} 步时，各次训练都已接近停下。"),
    "mqar.curve_part": "{name} 有 {n} 次",
    "mqar.curve_sep": "，",
    "mqar.holds": ("d_c = {d_c} 时，把一个随机初始化的 MHA 模型照上面的办法抄成 MLA，两者在同一批序列上的输出最多相差 "
                   "{diff:.1e}；MHA 每层每个位置缓存 {mha} 字节，这个 MLA 只缓存 {mla} 字节。"),
    "mqar.holds_exact": ("d_c = {d_c} 时，把一个随机初始化的 MHA 模型照上面的办法抄成 MLA，两者在同一批序列上的输出完全相同"
                         "（逐位相等，差为 {diff:.0f}）；可 MHA 每层每个位置缓存 {mha} 字节，这个 MLA 只缓存 {mla} 字节。"),
    "mqar.curves_flat": ("学习曲线：{runs} 次训练在最后 {window} 步里都没再涨半个百分点，"
                         "到第 {steps} 步时都已经停在各自的水平上。"),
    "mqar.protocol": ("实验方案（提交 {commit}，在训练任何一个模型之前提交）：{seq_len} 个位置、{pairs} 个键值对，"
                      "{settings} 种结构，每种 {seeds} 个种子，每个模型训练 {steps} 步、每批 {batch} 条序列，"
                      "不提前停；留出集上的准确率不低于 {learned:.0%} 算学会。"),
    "mqar.cost": ("这 {models} 个模型每个在一个线程上要 {lo:.0f} 到 {hi:.0f} 秒 CPU 时间，合计 {total:.0f} "
                  "分钟，所以结果是提交好的，网站构建时只读取。"),
    "mqar.fig_gqa": "GQA（g 取 1、2、4、8）",
    "mqar.fig_mla": "MLA（d_c 取 16、32、64）",
    "mqar.fig_x": "每层每个位置的缓存（字节，float32，对数轴）",
    "mqar.fig_y": "留出集准确率（%）",
    "mqar.fig_alt": "带干扰词元的多查询联想回忆：准确率对每个位置缓存的数，GQA 和 MLA 各一条线",
    "mqar.fig_caption": ("横轴是每层为每个位置缓存的字节数：GQA 存 2 g d_k 个数，MLA 存 d_c 个，每个数 4 字节。浅色小点是 {seeds} 个种子，"
                         "实心点是平均值，竖线是它的 95% t 区间（每个设置单独算，未做多重比较校正）。"
                         "缓存一样大的两个点左右错开一点，免得重叠。"),
    # followup_quick: a short run of the normed MLA on the page
    "mqarf.quick": ("d_c = {d_c} 加归一化的 MLA，只训练 {steps} 步（每批 {batch} 条）：每 {every} 步在 {size} 条留出序列上的准确率依次是 "
                    "{curve}；瞎猜一个值是 {chance:.1%}。上面的实验每个模型训练 {full} 步。"),
}

EN = {
    "mqarf.head": ["d_c", "learned, plain", "mean, plain", "learned, normed", "mean, normed",
                   "normed − plain (points)", "verdict"],
    "mqarf.v_higher": "higher with the norm",
    "mqarf.v_lower": "lower with the norm",
    "mqarf.v_none": "no measurable difference at {seeds} seeds",
    "mqarf.v_negligible": "a difference, but smaller than {minimum:.0f} point, negligible",
    "mqarf.part": "{k} at d_c = {size} ({plain} without it)",
    "mqarf.part_none": "none at d_c = {size}, with or without the norm",
    "mqarf.none": ("With an RMSNorm on the latent, the seeds out of {seeds} that learned the task were {normed}; "
                   "MHA's were {mha}. Paired by seed with the same model without the norm, none of the {family} "
                   "differences in accuracy is measurable (Holm over the {family}). Within this budget, nothing "
                   "here says the missing norm is why this MLA failed to learn."),
    "mqarf.chance": ("The difference at d_c = {size} is measurable but only {diff:+.1f} points [{lo:+.1f}, {hi:+.1f}], "
                     "between models none of which learned the task: the norm made failed models guess a little "
                     "better, it did not make them recall."),
    "mqarf.found": ("With an RMSNorm on the latent, the seeds out of {seeds} that learned the task were {normed}; "
                    "MHA's were {mha}. Paired by seed with the same model without the norm, Holm's correction over the "
                    "{family} differences in accuracy finds {found} measurable; the table gives each interval."),
    "mqar.pilot_head": ["pairs", "positions", "batch", "steps", "seed", "held-out accuracy", "learned?"],
    "mqar.yes": "yes",
    "mqar.no": "no",
    "mqar.setting": "{label}",
    "mqar.head": ["layout", "cache per position and layer (bytes, float32)", "parameters", "seeds that learned",
                  "mean accuracy (lowest–highest)", "difference from MHA (points, Holm interval)", "verdict"],
    "mqar.baseline": "baseline",
    "mqar.part": "{name} {diff:+.1f} points [{lo:+.1f}, {hi:+.1f}] ({level:.1%} interval), {verdict}",
    "mqar.verdicts": ("MHA answers {mha:.1%} of the queries on average ({seeds} seeds). Each of the other {family} "
                      "layouts is paired with MHA seed by seed, and the {family} comparisons are corrected together "
                      "with Holm's method. {found:Comparisons that show a difference: #|No comparison shows a difference}. One by one: {parts}."),
    "mqar.shares_same": "no layout learned in a measurably different share of seeds than MHA",
    "mqar.learned_part": "{name} {k} of {seeds} (p {p} against MHA)",
    "mqar.learned": ("Seeds that learned the task (held-out accuracy of {threshold:.0%} or more): {shares}. With the "
                     "{tests} Fisher exact tests corrected together (Holm), {said}. Among the seeds that learned, "
                     "the mean accuracy (lowest to highest): {among}."),
    "mqar.ev_higher": "MLA higher",
    "mqar.ev_lower": "MLA lower",
    "mqar.ev_none": "no measurable difference at {seeds} seeds",
    "mqar.ev_negligible": "a difference, but smaller than {minimum:.0f} point, negligible",
    "mqar.equal_part": ("{mla} against {gqa} (both cache {numbers} bytes per position): {diff:+.1f} points "
                        "[{lo:+.1f}, {hi:+.1f}] ({level:.1%} interval), {verdict}"),
    "mqar.params_fewer": "{label} {share:.0%} fewer",
    "mqar.params_more": "{mla} {share:.0%} more than {gqa}",
    "mqar.params": ("The parameter counts are not matched. Fewer key/value heads shrink W_k and W_v: against "
                    "{mha}, {fewer}. So each difference between GQA or MQA and MHA mixes sharing keys and values "
                    "with a smaller model, and this test cannot tell the two apart; no matched row was trained. "
                    "MLA goes the other way, with more parameters than the GQA setting that caches as much: "
                    "{more}. Where it fell measurably short of its partner (the sentence above), a lack of parameters is "
                    "not the reason."),
    "mqar.equal": ("At equal cache size, MLA paired directly with GQA (a second family of {family} comparisons, "
                   "Holm-corrected as well): {parts}."),
    "mqar.curves": ("Learning curves: in their last {window} steps, {rising} of the {runs} runs moved up by half a "
                    "point or more, and {big} of them by 2 points or more; those were clearly still learning when "
                    "the {steps:,}-step budget ran out: {names}."),
    "mqar.curves_small": ("Learning curves: in their last {window} steps, {rising} of the {runs} runs moved up by "
                          "half a point or more, none by 2 points; by step {steps:,} the runs had nearly settled."),
    "mqar.curve_part": "{name}: {n}",
    "mqar.curve_sep": "; ",
    "mqar.holds": ("At d_c = {d_c}, a randomly initialised MHA model copied into MLA this way gives outputs that "
                   "differ from the MHA model's by at most {diff:.1e} on one batch of the task, while MHA caches "
                   "{mha} bytes per position and layer and this MLA {mla}."),
    "mqar.holds_exact": ("At d_c = {d_c}, a randomly initialised MHA model copied into MLA this way gives exactly the "
                         "same outputs on one batch of the task (bit for bit, a difference of {diff:.0f}), while MHA "
                         "caches {mha} bytes per position and layer and this MLA {mla}."),
    "mqar.curves_flat": ("Learning curves: none of the {runs} runs gained half a point in its last {window} steps; "
                         "by step {steps:,} every run had settled at its level."),
    "mqar.protocol": ("Protocol (commit {commit}, made before any model was trained): {seq_len} positions, {pairs} "
                      "pairs, {settings} layouts, {seeds} seeds each, {steps:,} steps of {batch} sequences per model, "
                      "no early stopping; a seed has learned the task at {learned:.0%} held-out accuracy."),
    "mqar.cost": ("Each of these {models} models takes {lo:.0f} to {hi:.0f} CPU seconds on one thread, {total:.0f} "
                  "minutes in all, so the results are committed and the build only reads them."),
    "mqar.fig_gqa": "GQA (g = 1, 2, 4, 8)",
    "mqar.fig_mla": "MLA (d_c = 16, 32, 64)",
    "mqar.fig_x": "cache per position and layer (bytes, float32, log scale)",
    "mqar.fig_y": "held-out accuracy (%)",
    "mqar.fig_alt": "Recall with distractors: accuracy against the numbers cached per position, one line for GQA "
                    "and one for MLA",
    "mqar.fig_caption": ("The x axis is what one layer caches per position, in bytes: 2 g d_k numbers for GQA, d_c "
                         "for MLA, 4 bytes each. "
                         "Faint dots are the {seeds} seeds, solid points their mean with its 95% t interval (each setting "
                         "on its own, not corrected for multiple comparisons). Points of equal cache size are set "
                         "slightly apart so they do not overlap."),
    # followup_quick: a short run of the normed MLA on the page
    "mqarf.quick": ("The normed MLA with d_c = {d_c}, trained for only {steps} steps ({batch} sequences a batch): its "
                    "accuracy on {size} held-out sequences every {every} steps was {curve}; guessing a value gives "
                    "{chance:.1%}. Each model of the experiment above trains for {full} steps."),
}
