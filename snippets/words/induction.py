"""Words printed into pages: induction (see snippets.i18n)."""

ZH = {
    "ind.live_ids": ("每个字符先换成一个编号：它的 Unicode 码位除以 {vocab}（模型的词表大小）的余数。"
                     "ASCII 字符各有各的编号，汉字散在全部 {vocab} 个编号上，但不同的字符仍可能撞上同一个编号，"
                     "比如 `{a}` 和 `{b}`。训练时最长的序列有 {max} 个编号，所以文本最多 {max} 个字符。"),
    "ind.live_reader": ("两个模型用同样的数据、同样的步数训练：每条序列长 {min_len}–{max_len} 个编号（长度随机），其中占全长"
                        "四分之一到一半（至少 {min_seg} 个编号）的一段写了两遍，位置随机，两遍之间隔 0–{max_gap} 个编号；"
                        "编号从每条序列随机挑的一组里抽，所以一遍之内也会重复，就像句子里的字母。各训练 {steps} 步"
                        "（每步 {batch} 条序列），单线程分别用了 {cpu_kept:.0f} 秒和 {cpu_first:.0f} 秒 CPU。"
                        "在留出的 {n_eval} 条这样的序列上，第二遍里能推出的下一个编号，两个头的模型（{kept}）猜中 {acc_kept:.0%}，"
                        "一个头的模型（{first}）猜中 {acc_first:.0%}。差别几乎都出在当前编号在第二遍之前出现过不止一次的位置上"
                        "（占 {share:.0%}）：这些位置上前者猜中 {sev_kept:.0%}，后者只有 {sev_first:.0%}。"
                        "一个头的模型正是这一页的最小回路：第 0 层那个头的前一词元分数是 {prev:.2f}，"
                        "第 1 层那个头的前缀匹配分数是 {prefix:.2f}。"),
    "ind.live_bench": ("检验用的是一组模型训练时没见过、也没拿来选过任何设置的文本：{n_zh} 句中文和 {n_en} 句英文，"
                       "每句 {short}–{long} 个字符，各写两遍，有的两遍之间隔着标点或空格，有的前面还有一段别的文字。"
                       "第二遍里能从第一遍推出的下一个字符，视图默认的模型（{kept}）平均猜中 {zh:.0%}（中文）和 "
                       "{en:.0%}（英文），最差的一句也有 {lo:.0%}。一个头的模型是 {zh1:.0%} 和 {en1:.0%}："
                       "当前字符在第二遍之前只出现过一次时，它几乎总能猜中（两种语言合起来 {once1:.0%}）；"
                       "出现过好几次时只猜中 {sev1:.0%}，因为它只拿当前这一个字符去找。英文字母重复得多，"
                       "这样的位置在英文里占 {en_share:.0%}，在中文里只占 {zh_share:.0%}。"
                       "两个头的模型在这些位置上猜中 {sev:.0%}。"),
    "ind.live_choice": ("这组检验文本最早只跑过一个头的模型。它的差距指向一处：只按当前一个字符去找。"
                        "于是又训练了几个候选模型，数据、步数、种子都和它一样，只是头数和每个头的维数不同；"
                        "留哪一个只看留出的随机编号序列，从不看检验文本：准确率最高的那个，两个相差不到 0.01 时留头少的。"
                        "先定下、先跑的两个候选每个头仍是 {width} 维，都没学会同时对上两个字符："
                        "留出集上的准确率 {a2:.1%} 和 {a4:.1%}，一个头的模型是 {first:.1%}。"
                        "一个 {width} 维的查询要单独分辨 256 个编号，同时装下两个就更挤了，"
                        "所以之后又加了两个每头 {wide} 维的候选（同样在跑之前定下）：{w2:.1%} 和 {w4:.1%}。"
                        "按同一规则留下的是两个头、每头 {wide} 维的那个（{kept}），检验文本随后只在它上面跑了一次。"),
    "ind.live_choice_head": ["模型", "留出集准确率", "当前编号此前出现一次", "出现多次", "留下"],
    "ind.task": ("这里每条序列有 {seq_len} 个词元，每个词元从词表的 {vocab} 个编号里抽取；$L$ 在 {lo} 到 {hi} 之间均匀地抽。"
                 "随机的位置上，最好的猜法也只能做到约 ln {vocab} = {chance:.2f} 奈特（nat，以 e 为底的信息量单位）的损失。"),
    "ind.setting_1_4": "1 层 × 4 个头",
    "ind.setting_2_1": "2 层 × 1 个头",
    "ind.setting_2_2": "2 层 × 2 个头",
    "ind.setting_width": "{setting}，每个头 {d_head} 维",
    "ind.setting_2_4": "2 层 × 4 个头",
    "ind.depth_head": ["模型", "参数量", "形成归纳回路的种子", "可预测词元上的损失（奈特，平均，最低–最高）",
                       "相变所在步数（中位数，最早–最晚）", "与 1 层 × 4 个头之差（奈特，Holm 区间）", "结论"],
    "ind.phase_cell": "{median:,}（{lo:,}–{hi:,}）",
    "ind.baseline": "基准",
    "ind.v_higher": "损失更高",
    "ind.v_lower": "损失更低",
    "ind.v_none": "{seeds} 个种子下没有可测的差别",
    "ind.v_negligible": "有差别，但小于 {minimum} 奈特，可以忽略",
    "ind.join": "；",
    "ind.depth_part": ("{label}平均 {mean:.2f} 奈特，与它之差 {diff:+.2f} 奈特 [{lo:+.2f}, {hi:+.2f}]，{verdict}"),
    "ind.m_higher": "确实升高了",
    "ind.m_lower": "确实降低了",
    "ind.m_none": "{seeds} 个种子下没有可测的变化",
    "ind.m_negligible": "有变化，但小到可以忽略",
    "ind.depth": ("只有一层的模型（{base}）在可预测的词元上平均损失 {base_mean:.2f} 奈特，离瞎猜（ln 64 = {chance:.2f}）"
                  "不远。两层的模型按种子与它配对，{family} 个比较用 Holm 方法一起校正。{parts}。"),
    "ind.cause_head": ["改动", "可预测词元上的损失（奈特，平均）", "与完整模型之差（奈特，Holm 区间）", "结论"],
    "ind.intact": "完整模型",
    "ind.switch_ablate_prev": "置零第 0 层的前一词元头",
    "ind.switch_ablate_induction": "置零第 1 层的归纳头",
    "ind.switch_cut_k": "只从第 1 层的键里去掉前一词元头的输出（K 组合）",
    "ind.switch_cut_k_all": "只从第 1 层的键里去掉第 0 层全部 4 个头的输出",
    "ind.switch_cut_q": "只从第 1 层的查询里去掉它（对照）",
    "ind.switch_cut_v": "只从第 1 层的值里去掉它（对照）",
    "ind.cause_part": "{switch}，损失变化 {diff:+.2f} 奈特 [{lo:+.2f}, {hi:+.2f}]，{verdict}",
    "ind.causes": ("{label}：与完整模型按种子配对，{family} 种改动用 Holm 方法一起校正。{parts}。"),
    "ind.heads": ("{label}的 {seeds} 个种子里，第 1 层前缀匹配分最高的头在 {prefix_lo:.2f} 到 {prefix_hi:.2f} 之间，"
                  "而且第 1 层四个头的分数都不低：每个种子里最低的那个也有 {every_lo:.2f}。第 0 层前一词元分最高的头"
                  "在 {prev_lo:.2f} 到 {prev_hi:.2f} 之间，第二高的不超过 {second_hi:.2f}；作为对照，{one}的模型里第 0 层"
                  "那个头是 {one_lo:.2f} 到 {one_hi:.2f}。如果注意力在前面的词元上平均分配，前一词元分是 "
                  "{uniform:.3f}：四头模型最好的头并不比均匀注意力高，第 0 层没有哪个头偏向前一个词元。"),
    "ind.pattern": ("上图用的是最终留出批次里的第 {index} 条序列，重复的片段长 {length} 个词元。在第一遍的各个位置上，"
                    "第 0 层的头平均把 {prev:.2f} 的注意力放在紧挨着的前一个词元上；在第二遍的各个位置上，第 1 层的头"
                    "平均把 {prefix:.2f} 放在“上一次出现之后的那个词元”上。{predictable} 个可预测的词元，模型猜对了 "
                    "{right} 个。放到整批留出序列上，这两个分数是 {prev_all:.2f} 和 {prefix_all:.2f}：这个前一词元头并不"
                    "专一，它有 {elsewhere:.0%} 的注意力落在别的位置上。第 1 层靠不靠它，要看下面把路径切断以后的结果。"),
    "circ.path_head": ["改动", "可预测词元上的损失（奈特，平均）", "与完整模型之差（奈特，Holm 区间）", "结论"],
    "circ.part_q": "第 0 层四个头全部从第 1 层的查询里去掉",
    "circ.part_k": "第 0 层四个头全部从第 1 层的键里去掉",
    "circ.part_v": "第 0 层四个头全部从第 1 层的值里去掉",
    "circ.seed_head": ["种子", "完整模型（奈特）", "第 0 层最高的前一词元分（头）", "切断查询后损失增加", "切断键后损失增加", "切断值后损失增加",
                       "代价最大的一刀"],
    "circ.prev_cell": "{score:.2f}（头 {head}）",
    "circ.main_q": "查询",
    "circ.main_k": "键",
    "circ.main_v": "值",
    "circ.qk_higher": "切查询的代价更大",
    "circ.qk_lower": "切键的代价更大",
    "circ.qk_none": "{seeds} 个种子下没有可测的差别",
    "circ.qk_negligible": "有差别，但小到可以忽略",
    "circ.held": "得到证实",
    "circ.failed": "没有得到证实",
    "circ.minority": "得到证实：{textbook} 个对 {other} 个（{seeds} 个种子，双侧符号检验 p = {p:.2f}）",
    "circ.minority_count": ("它在 {seeds} 个种子里出现了 {textbook} 次，但 {other} 对 {textbook} 的种子数还不足以说明"
                            "哪一种更常见（双侧符号检验 p = {p:.2f}）"),
    "circ.sentence": ("{seeds} 个新种子{formed:里有 # 个形成了归纳回路|里没有一个形成归纳回路|全部形成了归纳回路=seeds}。把第 0 层的四个头全部从第 1 层的查询里去掉，"
                      "可预测词元上的损失平均变化 {q:+.2f} 奈特；从键里去掉，变化 {k:+.2f}；从值里去掉，变化 {v:+.2f}。"
                      "查询那一刀减去键那一刀，按种子配对是 {qk:+.2f} 奈特 [{qk_lo:+.2f}, {qk_hi:+.2f}]，{qk_verdict}。"
                      "逐个种子看，代价最大的一刀{main_q:有 # 个是查询|没有一个是查询}，{main_k:# 个是键|没有一个是键}，{main_v:# 个是值|没有一个是值}。{seeds} 个种子里，"
                      "第 0 层有前一词元头（前一词元分不低于 {limit}）的{textbook:有 # 个|一个也没有|是全部 # 个=seeds}。跑之前写下的两条预期：查询那一刀比键那一刀代价大，"
                      "{held_paths}；教科书式的回路只在少数种子里出现，{held_textbook}。"),
    "circ.fig_part_q": "从查询里去掉",
    "circ.fig_part_k": "从键里去掉",
    "circ.fig_part_v": "从值里去掉",
    "circ.fig_y": "损失增加（奈特）",
    "circ.fig_other": "没有前一词元头的种子（{seeds} 个）",
    "circ.fig_textbook": "有前一词元头的种子（{seeds} 个，分数 ≥ {limit}）",
    "circ.fig_mean": "平均值和 Holm 区间",
    "circ.fig_alt": ("点线图：横轴是三种切法，把第 0 层四个头全部从第 1 层的查询、键或值里去掉；纵轴是可预测词元上"
                     "损失增加了多少。{seeds} 个种子各画一条折线，旁边是平均值和区间。"),
    "circ.fig_caption": ("每条折线是一个种子（共 {seeds} 个），连起它三种切法各自让损失增加多少；带端帽的竖线是平均值和 "
                         "Holm 校正后的区间。"),
    "circ.split": ("下面这几个数是看过结果以后才读的，不在实验方案里。{seeds} 个种子分成两类，把它们放在一起求平均，就把区别抹掉了。"
                   "有前一词元头的 {textbook} 个种子，把第 0 层的头从键里去掉，损失增加 {tk_lo:.2f}–{tk_hi:.2f} 奈特，"
                   "从查询里去掉只变化 {tq_lo:+.2f} 到 {tq_hi:+.2f}：这是教科书式的回路，和单头模型一样。其余 {other} 个"
                   "种子正好反过来：切查询让损失增加 {oq_lo:.2f}–{oq_hi:.2f} 奈特，切键只增加 {ok_lo:.2f}–{ok_hi:.2f}。"
                   "在这 {seeds} 个种子里，代价最大的那一刀至少是第二大的 {ratio:.1f} 倍，所以这些种子都归得清；这个倍数只是"
                   "这几个种子的观察，不是界限：换别的种子，也可能长出两种混在一起的模型，既有前一词元头，又有走查询的头，"
                   "最大的一刀领先不了多少。预先登记的检验比的是"
                   "平均值，而两个峰的差值算出来的区间很宽，所以它分不出来。"),
    "ind.pat_first": "第一遍",
    "ind.pat_second": "第二遍",
    "ind.pat_guess": "猜测",
    "ind.pat_layer0": "第 0 层的头看向哪里（前一词元头）",
    "ind.pat_layer1": "第 1 层的头看向哪里（归纳头）",
    "ind.pat_alt": ("示意图：一段长 {length} 个词元的片段写了两遍，第一遍在上，第二遍在下，下面每个词元都对齐在它"
                    "第一次出现的位置正下方。上方的弧线是第 0 层的头，大多从一个词元指向它前面的那个；从下往上的"
                    "箭头是第 1 层的头，大多斜着指向上一次出现之后的那个词元。最下面一行是模型猜的下一个词元和对错。"),
    "ind.pat_caption": ("2 层 × 1 个头的模型（实验方案的种子 0），最终留出批次的第 {index} 条序列：按固定规则选出，是第一条"
                        "重复片段长 {shortest} 到 {longest} 个词元、片段里没有重复词元的序列。只画出所示位置之间、权重不低于 "
                        "{drawn} 的注意力，权重越大，线越粗越深。“第一遍”左边多画了一格，是片段前面那个随机词元。✗ 表示猜错。"),
    "ind.spread": ("下面几个数是看过结果以后才去读的，不在实验方案里。{label}的 {seeds} 个种子里，各有一个第 0 层的头，"
                   "把它置零，可预测词元上的损失就升到 {worst_lo:.2f}–{worst_hi:.2f} 奈特，"
                   "{above:其中 # 个种子比瞎猜（{chance:.2f}）还差|但没有一个比瞎猜（{chance:.2f}）还差}；"
                   "可它的前一词元分只有 {prev_lo:.2f}–{prev_hi:.2f}，并不是前一词元头。第 1 层的头单独置零一个，"
                   "损失在 {one_lo:.2f}–{one_hi:.2f} 奈特之间：归纳分散在四个头上。把第 0 层的四个头全都从第 1 层"
                   "的键里去掉，损失平均 {cut:.2f} 奈特，与 {base}相比差 {diff:+.2f} 奈特 [{lo:+.2f}, {hi:+.2f}]，"
                   "{verdict}：这个模型的归纳大部分不经过键。"),
    "ind.one_layer": ("{label}的模型学到的是另一件事：把概率分给这条序列里已经出现过的词元。在随机的目标上，这部分概率"
                      "从第 0 步的平均 {start:.3f} 升到训练结束时的 {end:.3f}；按种子配对检验，{verdict}，差 {diff:+.3f} "
                      "[{lo:+.3f}, {hi:+.3f}]。这让它在可预测的词元上降到 {loss_lo:.2f}–{loss_hi:.2f} 奈特，"
                      "比瞎猜的 {chance:.2f} 低一些，但离“照抄上一次后面那个词元”差得远。"),
    "ind.protocol": ("每种模型 {seeds} 个种子，各训练 {steps:,} 步（每批 {batch} 条序列，不提前停）；每 {every} 步在留出的 "
                     "256 条序列上记一次曲线，最终数字取自另外 {size:,} 条留出序列。训练结束时可预测词元上的损失低于 "
                     "{formed} 奈特，算形成了归纳回路；损失第一次低于 {phase} 奈特的那一步，记作相变的位置。"
                     "损失差别小于 {minimum} 奈特的，算作可以忽略。"),
    "ind.pilot_head": ["模型", "种子", "训练步数", "最终损失（奈特）", "损失首次低于 2 奈特的步数"],
    "ind.fig_loss": "可预测词元上的损失（奈特）",
    "ind.fig_score": "注意力分数",
    "ind.fig_step": "训练步数",
    "ind.fig_prefix": "{label}：第 1 层最高的前缀匹配分",
    "ind.fig_prev": "{label}：第 0 层最高的前一词元分",
    "ind.fig_alt": ("两幅曲线图，横轴是训练步数。上图：三种模型每个种子在可预测词元上的损失；两层的模型在某一步突然"
                    "从接近瞎猜降到很低，一层的模型一直停在高处。下图：两层模型第 1 层最高的前缀匹配分随损失的骤降一起升高；第 0 层最高的前一词元分只在一个头的模型里升高。"),
    "ind.fig_caption": ("每条线是一个种子（每种模型 {seeds} 个）。上图虚线是瞎猜的损失 ln 64 = {chance:.2f}，点线是"
                        "“形成归纳回路”的阈值 {formed} 奈特。"),
    "ind.ex_by_hand": ("在 {size:,} 条留出序列上，手搭的回路在可预测词元上的平均损失是 {predictable:.2f} 奈特，"
                       "在随机词元上是 {random:.2f} 奈特；瞎猜是 ln 64 = {chance:.2f} 奈特。"),
    "ind.ex_offset": ("在 {size:,} 条留出序列上，最好的固定距离是往回 {d} 个位置，它只猜中 {share:.1%} 的可预测词元。"),
    "ind.ex_cut_head": ["切断的路径（- 表示不切）", "可预测词元上的损失（奈特）"],
    "pq.head": ["改动", "可预测词元上的损失（奈特，平均）", "与完整模型之差（奈特，Holm 区间）", "结论"],
    "pq.row_cut": "这个头从第 1 层的查询里去掉",
    "pq.row_pos": "查询里只留它的位置部分",
    "pq.row_tok": "查询里只留它的词元部分",
    "pq.row_mean": "查询里换成它的平均输出",
    "pq.intro": ("{seeds} 个新种子{formed:里有 # 个形成了归纳回路|里没有一个形成归纳回路|全部形成了归纳回路=seeds}，"
                 "{with_head:其中 # 个有走查询的头|没有一个有走查询的头|每一个都有走查询的头=seeds}（第 0 层四个头一起从第 1 层的查询、键、值里分别去掉，以去掉查询的代价最大；"
                 "走查询的头是单独从查询里去掉时代价最大的那个）{others}。"),
    "pq.others": "；种子 {seeds} 代价最大的一刀不在查询上，不参与下面的比较",
    "pq.others_many": "；种子 {seeds} 代价最大的一刀不在查询上，不参与下面的比较",
    "pq.seed_sep": "、",
    "pq.cell_sep": "；",
    "pq.seed_cell": "种子 {seed}（头 {head}）：去掉 {cut:+.2f}，只留位置部分 {pos:+.2f}，只留词元部分 {tok:+.2f}，换成平均 {mean:+.2f}",
    "pq.too_few": "这不到比较所需的 {need} 个种子，所以一项比较也不做；逐个种子看，每种改动让损失增加多少（奈特）：{cells}。",
    "pq.sentence": ("在这些种子里，把这个头从第 1 层的查询里去掉，可预测词元上的损失增加 {cut:+.2f} 奈特 "
                    "[{cut_lo:+.2f}, {cut_hi:+.2f}]；查询里只留它的位置部分，增加 {pos:+.2f} [{pos_lo:+.2f}, {pos_hi:+.2f}]；"
                    "只留词元部分，增加 {tok:+.2f}；换成平均输出，增加 {mean:+.2f}。“去掉”与“只留位置部分”之差，按种子配对是 "
                    "{pc:+.2f} 奈特 [{pc_lo:+.2f}, {pc_hi:+.2f}]，{pc_verdict}。在第二遍里，这个头平均把 {score:.2f} 的注意力"
                    "（{score_lo:.2f}–{score_hi:.2f}）放在当前词元先前出现过的位置上，注意力平均摊开的话是 {even:.2f}。"
                    "跑之前写下的三条预期：只留位置部分比去掉代价小，{held_pos}；换成平均输出的代价大到不可忽略，{held_mean}；"
                    "每个这样的种子里，这个头放在先前出现处的注意力都多于平均摊开，{held_same}（{with_head} 个{above:里有 # 个|里一个也没有|全都如此=with_head}）。"),
    "pq.pc_higher": "去掉的代价更大",
    "pq.pc_lower": "只留位置部分的代价反而更大",
    "pq.pc_none": "{seeds} 个种子下没有可测的差别",
    "pq.pc_negligible": "有差别，但小到可以忽略",
    "pq.parts": ("在一个未训练的 2 层 × {heads} 个头的模型上，第 0 层每个头的词元部分加位置部分，与这个头的输出最多差 "
                 "{worst:.1e}，而输出本身最大到 {size:.2f}：两部分之和就是输出，差的只是舍入误差。"),
}

EN = {
    "ind.live_ids": ("Each character first becomes an id: its Unicode code point modulo {vocab}, the size of the "
                     "model's vocabulary. ASCII characters keep ids of their own and Chinese characters spread "
                     "over all {vocab}, but two characters can still share an id, `{a}` and `{b}` for instance. "
                     "The longest training sequences had {max} ids, so a text has at most {max} characters."),
    "ind.live_reader": ("Both models train on the same data for the same number of steps. Each sequence has "
                        "{min_len} to {max_len} ids (the length drawn at random), with a stretch of a quarter to half "
                        "its length (at least {min_seg} ids) written twice at a random place, 0 to {max_gap} ids "
                        "apart; the ids come from a small set drawn for each sequence, so they repeat within a copy "
                        "too, as letters do in a sentence. Each trained for {steps} steps of {batch} sequences, "
                        "{cpu_kept:.0f} and {cpu_first:.0f} CPU seconds on one thread. On {n_eval} held-out "
                        "sequences of this kind, the two-head model ({kept}) gets {acc_kept:.0%} of the second copy's "
                        "predictable next ids right and the one-head model ({first}) {acc_first:.0%}. Nearly all of the difference is where the current id "
                        "occurs more than once before the second copy ({share:.0%} of the positions): "
                        "{sev_kept:.0%} against {sev_first:.0%}. The one-head model is this page's minimal "
                        "circuit: its layer-0 head has a previous-token score of {prev:.2f}, its layer-1 head a "
                        "prefix-matching score of {prefix:.2f}."),
    "ind.live_bench": ("They are checked on texts the models never saw in training and that chose nothing about "
                       "them: {n_zh} Chinese and {n_en} English sentences of {short}–{long} characters, each typed "
                       "twice, some with punctuation or a space between the copies, some after other text. Of "
                       "the second copy's next characters that the first copy gives away, the model the view opens "
                       "on ({kept}) gets {zh:.0%} right in Chinese and {en:.0%} in English on average, and "
                       "{lo:.0%} on its worst sentence. The one-head model gets {zh1:.0%} and {en1:.0%}: where the "
                       "current character occurs only once before the second copy it is nearly always right "
                       "({once1:.0%} over both languages), but where it occurs several times it gets {sev1:.0%}, "
                       "since it looks up the current character alone. Letters repeat, so such positions are "
                       "{en_share:.0%} of the English ones and only {zh_share:.0%} of the Chinese. The two-head "
                       "model gets {sev:.0%} of them."),
    "ind.live_choice": ("The benchmark first ran on the one-head model alone, and its gap pointed at one thing: "
                        "looking up the current character alone. Candidates were then trained on the same data, "
                        "steps and seed, differing only in heads and head width, and the one kept was chosen on "
                        "held-out random ids, never on the benchmark: the highest accuracy, the fewer heads when "
                        "two were within 0.01. The first two candidates, fixed and run first, kept {width} "
                        "dimensions per head, and neither learned to match two characters at once: held-out "
                        "accuracy {a2:.1%} and {a4:.1%}, against the one-head model's {first:.1%}. A query of "
                        "{width} dimensions must tell 256 ids apart on its own, and holding two at once asks more, "
                        "so two candidates with {wide} dimensions per head were added after that, also fixed "
                        "before their runs: {w2:.1%} and {w4:.1%}. The same rule kept the two-head one with {wide} "
                        "dimensions per head ({kept}), and the benchmark then ran on it once."),
    "ind.live_choice_head": ["model", "held-out accuracy", "current id seen once", "seen several times", "kept"],
    "ind.task": ("Here every sequence has {seq_len} tokens, drawn from {vocab} ids, and $L$ is drawn uniformly "
                 "from {lo} to {hi}. On the random positions the best possible guess still costs about "
                 "ln {vocab} = {chance:.2f} nats."),
    "ind.setting_1_4": "1 layer × 4 heads",
    "ind.setting_2_1": "2 layers × 1 head",
    "ind.setting_2_2": "2 layers × 2 heads",
    "ind.setting_width": "{setting}, {d_head} dimensions per head",
    "ind.setting_2_4": "2 layers × 4 heads",
    "ind.depth_head": ["model", "parameters", "seeds that formed the circuit",
                       "loss on predictable tokens (nats, mean, lowest–highest)",
                       "phase change at step (median, earliest–latest)",
                       "difference from 1 layer × 4 heads (nats, Holm interval)", "verdict"],
    "ind.phase_cell": "{median:,} ({lo:,}–{hi:,})",
    "ind.baseline": "baseline",
    "ind.v_higher": "higher loss",
    "ind.v_lower": "lower loss",
    "ind.v_none": "no measurable difference at {seeds} seeds",
    "ind.v_negligible": "a difference, but under {minimum} nats: negligible",
    "ind.join": "; ",
    "ind.depth_part": ("{label} averages {mean:.2f} nats, {diff:+.2f} nats [{lo:+.2f}, {hi:+.2f}] from it: {verdict}"),
    "ind.m_higher": "it rose",
    "ind.m_lower": "it fell",
    "ind.m_none": "no measurable change at {seeds} seeds",
    "ind.m_negligible": "a change too small to matter",
    "ind.depth": ("With one layer, {base} averages {base_mean:.2f} nats on the predictable tokens, not far from "
                  "guessing (ln 64 = {chance:.2f}). Each two-layer model is paired with it by seed, and the {family} "
                  "comparisons are corrected together with Holm's method: {parts}."),
    "ind.cause_head": ["change", "loss on predictable tokens (nats, mean)",
                       "difference from the intact model (nats, Holm interval)", "verdict"],
    "ind.intact": "intact model",
    "ind.switch_ablate_prev": "layer 0's previous-token head zeroed",
    "ind.switch_ablate_induction": "layer 1's induction head zeroed",
    "ind.switch_cut_k": "previous-token head removed from layer 1's keys only (K-composition)",
    "ind.switch_cut_k_all": "all four layer-0 heads removed from layer 1's keys only",
    "ind.switch_cut_q": "removed from layer 1's queries only (control)",
    "ind.switch_cut_v": "removed from layer 1's values only (control)",
    "ind.cause_part": "{switch}: {diff:+.2f} nats [{lo:+.2f}, {hi:+.2f}], {verdict}",
    "ind.causes": ("{label}, paired by seed with the intact model, the {family} changes corrected together with "
                   "Holm's method. {parts}."),
    "ind.heads": ("Across the {seeds} seeds of {label}, the layer-1 head with the highest prefix-matching score "
                  "scores {prefix_lo:.2f} to {prefix_hi:.2f}, and all four layer-1 heads score high: the lowest in "
                  "any seed still scores {every_lo:.2f}. The layer-0 head with the highest previous-token score "
                  "scores {prev_lo:.2f} to {prev_hi:.2f}, and the second highest at most {second_hi:.2f}; for "
                  "comparison, the layer-0 head of {one} scores {one_lo:.2f} to {one_hi:.2f}. Attention spread "
                  "evenly over the earlier tokens would score {uniform:.3f}: the four-head model's best is no "
                  "higher than uniform attention, so no layer-0 head there favours the previous token."),
    "ind.pattern": ("The figure shows sequence {index} of the final held-out batch, whose segment is {length} tokens "
                    "long. Over the first copy, layer 0's head puts {prev:.2f} of its attention on the token just "
                    "before, on average; over the second copy, layer 1's head puts {prefix:.2f} on the token that "
                    "followed the first occurrence. The model guesses {right} of the {predictable} predictable tokens "
                    "right. Over the whole held-out batch the two scores are {prev_all:.2f} and {prefix_all:.2f}, so "
                    "this previous-token head is far from pure: {elsewhere:.0%} of its attention goes elsewhere. "
                    "Whether layer 1 depends on it is for the cuts below to show."),
    "circ.path_head": ["change", "loss on predictable tokens (nats, mean)",
                       "difference from the intact model (nats, Holm interval)", "verdict"],
    "circ.part_q": "all four layer-0 heads removed from layer 1's queries",
    "circ.part_k": "all four layer-0 heads removed from layer 1's keys",
    "circ.part_v": "all four layer-0 heads removed from layer 1's values",
    "circ.seed_head": ["seed", "intact (nats)", "best layer-0 previous-token score (head)", "Q cut +", "K cut +",
                       "V cut +", "costliest cut"],
    "circ.prev_cell": "{score:.2f} (head {head})",
    "circ.main_q": "queries",
    "circ.main_k": "keys",
    "circ.main_v": "values",
    "circ.qk_higher": "the query cut costs more",
    "circ.qk_lower": "the key cut costs more",
    "circ.qk_none": "no measurable difference at {seeds} seeds",
    "circ.qk_negligible": "a difference too small to matter",
    "circ.held": "borne out",
    "circ.failed": "not borne out",
    "circ.minority": "borne out, {textbook} against {other} ({seeds} seeds, two-sided sign test p = {p:.2f})",
    "circ.minority_count": ("it formed in {textbook} of the {seeds}, but {other} against {textbook} is too few seeds "
                            "to say which kind is more common (two-sided sign test p = {p:.2f})"),
    "circ.sentence": ("Of the {seeds} fresh seeds, {formed} formed the circuit. Removing all four layer-0 heads "
                      "from layer 1's queries changes the loss on the predictable tokens by {q:+.2f} nats on "
                      "average; from its keys, by {k:+.2f}; from its values, by {v:+.2f}. The query cut minus the "
                      "key cut, paired by seed, is {qk:+.2f} nats [{qk_lo:+.2f}, {qk_hi:+.2f}]: {qk_verdict}. Seed "
                      "by seed, the costliest cut is the queries in {main_q}, the keys in {main_k} and the values in "
                      "{main_v}. In {textbook} of the {seeds} seeds a layer-0 head has a previous-token score of at "
                      "least {limit}. Two expectations were written down before the runs. The query cut costs more "
                      "than the key cut: {held_paths}. The textbook circuit forms in a minority of seeds: "
                      "{held_textbook}."),
    "circ.fig_part_q": "from queries",
    "circ.fig_part_k": "from keys",
    "circ.fig_part_v": "from values",
    "circ.fig_y": "loss added (nats)",
    "circ.fig_other": "seeds without a previous-token head ({seeds})",
    "circ.fig_textbook": "seeds with one ({seeds}, score ≥ {limit})",
    "circ.fig_mean": "mean and Holm interval",
    "circ.fig_alt": ("Dot plot: the three cuts across, all four layer-0 heads removed from layer 1's queries, keys "
                     "or values; up, how much each adds to the loss on the predictable tokens. Each of the {seeds} "
                     "seeds is a line, with the mean and its interval beside each cut."),
    "circ.fig_caption": ("Each line is one seed ({seeds} in all), joining what its three cuts add to the loss; the "
                         "capped bars are the means with their Holm-corrected intervals."),
    "circ.split": ("The next numbers were read after the results and are not part of the protocol. The {seeds} seeds "
                   "fall into two groups, and a mean over all of them blurs the two. In the {textbook} seeds with a "
                   "previous-token head, removing the layer-0 heads from the keys costs {tk_lo:.2f}–{tk_hi:.2f} nats "
                   "and removing them from the queries changes the loss by {tq_lo:+.2f} to {tq_hi:+.2f}: the "
                   "textbook circuit, as in the one-head model. In the other {other} it is the other way round: the "
                   "query cut costs {oq_lo:.2f}–{oq_hi:.2f} nats and the key cut {ok_lo:.2f}–{ok_hi:.2f}. In these "
                   "{seeds} seeds the costliest cut costs at least {ratio:.1f} times the next, so each is easy to "
                   "place; that ratio is what these seeds showed, not a bound. Other seeds can form a mix, a "
                   "previous-token head beside heads read through the queries, with no cut far ahead of the next. "
                   "The test fixed in advance compared means, and the mean of a two-peaked difference gets a wide "
                   "interval; that is why it could not tell the two apart."),
    "ind.pat_first": "copy 1",
    "ind.pat_second": "copy 2",
    "ind.pat_guess": "guess",
    "ind.pat_layer0": "where layer 0's head looks (previous-token head)",
    "ind.pat_layer1": "where layer 1's head looks (induction head)",
    "ind.pat_alt": ("Diagram: a segment of {length} tokens written twice, the first copy above, the second below, "
                    "each token of the second copy under its first occurrence. Arcs over the first copy show layer "
                    "0's head, mostly pointing from each token to the one before it. Arrows from the second copy "
                    "up show layer 1's head, mostly pointing diagonally to the token after the first occurrence. "
                    "The bottom row holds the model's next-token guesses, marked right or wrong."),
    "ind.pat_caption": ("Seed 0 of 2 layers × 1 head on sequence {index} of the final held-out batch, picked by a "
                        "fixed rule: the first whose segment is {shortest} to {longest} tokens long with no token in "
                        "it twice. Arrows are drawn for attention weights of at least {drawn} between the positions "
                        "shown; a larger weight draws a thicker, darker line. The extra cell at the left of "
                        "copy 1 is the random token before it. ✗ marks a wrong guess."),
    "ind.spread": ("The next numbers were read after the results and are not part of the protocol. In each of the "
                   "{seeds} seeds of {label}, zeroing one layer-0 head raises the loss on the predictable tokens "
                   "to {worst_lo:.2f}–{worst_hi:.2f} nats ({above:worse than guessing, {chance:.2f}, in # of them|"
                   "in none of them worse than guessing, {chance:.2f}}), yet that head's "
                   "previous-token score is only {prev_lo:.2f}–{prev_hi:.2f}: it is not a previous-token head. "
                   "Zeroing any one layer-1 head gives {one_lo:.2f}–{one_hi:.2f} nats: induction is spread over "
                   "the four. With all four layer-0 heads removed from layer 1's keys the loss averages {cut:.2f} "
                   "nats, {diff:+.2f} nats [{lo:+.2f}, {hi:+.2f}] from {base}: {verdict}. Most of this model's "
                   "induction does not go through the keys."),
    "ind.one_layer": ("{label} learns something else: to put probability on tokens that already occurred in the "
                      "sequence. On the random targets that probability goes from {start:.3f} on average at step 0 to "
                      "{end:.3f} at the end of training, a paired difference of {diff:+.3f} [{lo:+.3f}, {hi:+.3f}]: "
                      "{verdict}. It brings the loss on the predictable tokens down to {loss_lo:.2f}–{loss_hi:.2f} "
                      "nats, a little under guessing ({chance:.2f}) and far from copying what came next last time."),
    "ind.protocol": ("Each model: {seeds} seeds, {steps:,} steps each (batches of {batch} sequences, no early "
                     "stopping); a point of the curve every {every} steps on 256 held-out sequences, the final numbers "
                     "on {size:,} other held-out sequences. A seed has formed an induction circuit when its final "
                     "loss on the predictable tokens is under {formed} nats; the first step at which that loss is "
                     "under {phase} nats dates its phase change. Differences in loss under {minimum} nats are "
                     "negligible."),
    "ind.pilot_head": ["model", "seed", "steps", "final loss (nats)", "first step under 2 nats"],
    "ind.fig_loss": "loss on predictable tokens (nats)",
    "ind.fig_score": "attention score",
    "ind.fig_step": "training step",
    "ind.fig_prefix": "{label}: best layer-1 prefix matching",
    "ind.fig_prev": "{label}: best layer-0 previous token",
    "ind.fig_alt": ("Two line charts against training steps. Top: every seed's loss on the predictable tokens for "
                    "the three models; the two-layer models drop suddenly from near guessing to low loss, the "
                    "one-layer model stays high. Bottom: the two-layer models' best layer-1 prefix-matching score "
                    "rises as the loss drops; the best layer-0 previous-token score rises only in the one-head model."),
    "ind.fig_caption": ("One line per seed ({seeds} per model). Top: the dashed line is guessing, ln 64 = "
                        "{chance:.2f}; the dotted line is the {formed}-nat threshold for a formed circuit."),
    "ind.ex_by_hand": ("On {size:,} held-out sequences, the hand-built circuit's mean loss is {predictable:.2f} nats "
                       "on the predictable tokens and {random:.2f} nats on the random ones; guessing costs "
                       "ln 64 = {chance:.2f} nats."),
    "ind.ex_offset": ("On {size:,} held-out sequences, the best fixed distance is {d} positions back, and it gets "
                      "only {share:.1%} of the predictable tokens right."),
    "ind.ex_cut_head": ["path cut (- for none)", "loss on the predictable tokens (nats)"],
    "pq.head": ["change", "loss on predictable tokens (nats, mean)",
                "difference from the intact model (nats, Holm interval)", "verdict"],
    "pq.row_cut": "that head removed from layer 1's queries",
    "pq.row_pos": "only its position part kept in the queries",
    "pq.row_tok": "only its token part kept in the queries",
    "pq.row_mean": "its mean output in the queries instead",
    "pq.intro": ("Of the {seeds} fresh seeds, {formed:# formed the circuit|none formed the circuit|all formed the "
                 "circuit=seeds}, and {with_head:# have|none has|all have=seeds} a query-path head: "
                 "of the three all-heads cuts, the query cut costs most, and the head is the layer-0 head whose own "
                 "query cut costs most{others}. "),
    "pq.others": "; in seed {seeds} another cut costs more, so it takes no part in the comparisons below",
    "pq.others_many": "; in seeds {seeds} another cut costs more, so they take no part in the comparisons below",
    "pq.seed_sep": ", ",
    "pq.cell_sep": "; ",
    "pq.seed_cell": ("seed {seed} (head {head}): removed {cut:+.2f}, position part only {pos:+.2f}, token part only "
                     "{tok:+.2f}, mean {mean:+.2f}"),
    "pq.too_few": ("That is fewer than the {need} seeds the comparisons need, so none is made; seed by seed, what each "
                   "change adds to the loss (nats): {cells}."),
    "pq.sentence": ("In those, removing that head from layer 1's queries adds {cut:+.2f} nats [{cut_lo:+.2f}, "
                    "{cut_hi:+.2f}] to the loss on the predictable tokens; keeping only its position part in the queries "
                    "adds {pos:+.2f} [{pos_lo:+.2f}, {pos_hi:+.2f}]; only its token part, {tok:+.2f}; its mean output, "
                    "{mean:+.2f}. Removal minus the position part alone, paired by seed, is {pc:+.2f} nats "
                    "[{pc_lo:+.2f}, {pc_hi:+.2f}]: {pc_verdict}. From the second copy, the head puts {score:.2f} of "
                    "its attention on average ({score_lo:.2f}–{score_hi:.2f}) on earlier occurrences of the current "
                    "token, where attention spread evenly would put {even:.2f}. Three expectations were written down "
                    "before the runs. The position part alone costs less than removal: {held_pos}. Its mean output "
                    "in its place costs more than a negligible amount: {held_mean}. The head attends to earlier occurrences more "
                    "than even attention would in every such seed: {held_same} ({above} of {with_head})."),
    "pq.pc_higher": "removal costs more",
    "pq.pc_lower": "the position part alone costs more",
    "pq.pc_none": "no measurable difference at {seeds} seeds",
    "pq.pc_negligible": "a difference too small to matter",
    "pq.parts": ("On an untrained 2-layer, {heads}-head model, the token part plus the position part differs from "
                 "each layer-0 head's output by at most {worst:.1e}, where the outputs reach {size:.2f}: the two "
                 "parts add up to the output, up to rounding."),
}
