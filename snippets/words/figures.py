"""Words printed into pages: figures (see snippets.i18n)."""

ZH = {
    # snippets.lessonfigs: the figures of §1, §2 and the home page, and §1's widget
    "figs.one_head": "一个头",
    "figs.two_heads": "两个头",
    "figs.head": "头 {i}",
    "figs.budget.x": "注意力权重（锐度 = {s}）",
    "figs.budget.alt": ("条形图：查询要取回 {a} 和 {b} 时，日志行 {T} 个词元各分到的注意力权重。"
                        "一个头在两处各得 {w1a} 和 {w1b}，其余位置接近 0；两个头里，头 0 在 {a} 得 {w2a}，"
                        "头 1 在 {b} 得 {w2b}。"),
    "figs.budget.caption": "注意力预算：一个头在两处平分 1，两个头各自把 1 几乎全给自己的目标。",
    "figs.swap.row": "{setup}·{line}",
    "figs.swap.line": "互换前",
    "figs.swap.swapped": "互换后",
    "figs.swap.diff": "最大变化 {d}",
    "figs.swap.features": "输出的第几维",
    "figs.swap.mixed": "两处的平均",
    "figs.swap.from": "取自 {t}",
    "figs.swap.alt": ("表格式的图：一个头和两个头的 4 维输出，分别在 {a}、{b} 互换前和互换后。"
                      "一个头的两行数字相同，最大变化 {d1}；两个头的前后两半换了来源，最大变化 {d2}。"),
    "figs.swap.caption": "互换检验：颜色表示每一维的数字从哪个词元取来。",
    "figs.ceiling.cap": "一个头的上限 ½",
    "figs.ceiling.two": "两个头：头 0 在自己目标上的权重",
    "figs.ceiling.one": "一个头：每个目标的权重",
    "figs.ceiling.uniform": "均匀分布 1/{n}",
    "figs.ceiling.x": "锐度（sharpness，对数坐标）",
    "figs.ceiling.y": "目标位置的权重",
    "figs.ceiling.alt": ("折线图：锐度（sharpness）从小到大时目标位置的权重。一个头的曲线从 1/{n} 升起，"
                         "到锐度为 {hi} 时是 {top}，始终低于 ½；两个头时每个头的曲线升到接近 1。"),
    "figs.ceiling.caption": "½ 的上限：锐度再大，一个头也只能把预算平分给两个目标。",
    "figs.path.x": "输入 X",
    "figs.path.qkv": "Q、K、V = X·W",
    "figs.path.split": "split_heads",
    "figs.path.scores": "分数 QKᵀ/√d_k",
    "figs.path.softmax": "softmax（权重）",
    "figs.path.context": "权重·V",
    "figs.path.merge": "merge_heads",
    "figs.path.out": "乘 W^O，得到输出",
    "figs.path.alt": ("流程图：多头注意力从输入到输出的每一步和张量形状，{h} 个头各用一种颜色，模型宽度 {d_model}。"
                      "输入 {x}，切分后 {split}，分数和权重 {scores}，合并后乘 W^O 得到输出 {out}。"),
    "figs.path.caption": ("多头注意力的数据流。形状是本站的 MultiHeadAttention 在日志行上前向计算一次时记录下来的；"
                          "softmax 那一行画的是这次计算里 {h} 个头的真实权重（层未经训练）。"),
    "figs.path.pair": ("在上面数据流图的层里（权重随机初始化，没有训练），各头之间权重相差最大的一对：查询“{q}”分给键“{k}”的权重，"
                       "在头 {hi} 里是 "
                       "{w_hi}，在头 {lo} 里只有 {w_lo}，前者是后者的 {times} 倍；如果平均分给 {T} 个词元，每个是 {even}。"),
    "figs.concat.head": "头 {i}",
    "figs.concat.bias": "偏置 b",
    "figs.concat.sum": "Σ 头 + b",
    "figs.concat.out": "层的输出",
    "figs.concat.x": "输出向量的前 {f} 维（共 {E} 维）",
    "figs.concat.title": "最大 |输出 − (Σ + b)| = {err}",
    "figs.concat.alt": ("热力图：{h} 个头各自经过 W^O 里属于自己的那一块，写进输出前 {f} 维的贡献，"
                        "再加上偏置；最后两行是这些贡献之和与层的输出，两行相同，最大差 {err}。"),
    "figs.concat.caption": "每个头写进输出的贡献。最后两行（贡献之和、层的输出）相差不超过 {err}，只是浮点舍入。",
    "figs.params.top": "参数量",
    "figs.params.bottom": "每个头的维数 d_k 与每个查询的分布数 h（模型宽度 {E}）",
    "figs.params.dk": "d_k",
    "figs.params.h": "h",
    "figs.params.x": "头数 h",
    "figs.params.alt": ("两幅图：头数从 {h0} 到 {h1}，参数量始终是 {params}；每个头的维数 d_k 从 {d0} 降到 {d1}，"
                        "每个查询的分布数 h 同步增加，两者之积始终是 {E}。"),
    "figs.params.caption": "同样的参数，切成不同数量的头。",
    "figs.home.prev": "第 {layer} 层头 {head}：看前一个词元",
    "figs.home.next": "第 {layer} 层头 {head}：看后一个词元",
    "figs.home.far": "第 {layer} 层头 {head}：看得最远的头",
    "figs.home.alt": ("弧线图：预训练模型 all-MiniLM-L6-v2 读日志行（{T} 个子词）时 {n} 个头的注意力，每个头一行、一种颜色。"
                      "每条弧连接一个子词和它最关注的另一个子词（[CLS] 和 [SEP] 不算），权重低于 {t} 的不画。"),
    "figs.home.caption": ("同一行日志，三个头，三种看法：一个头看前一个子词，一个看后一个，一个跨过整段去找别处。"
                          "数据来自真实的预训练模型；[CLS] 和 [SEP] 不作为弧的终点，权重低于 {t} 的弧不画。{wordpieces}"),
    "figs.widget.nojs": ("这个交互小部件要在网页上运行，需要启用 JavaScript。在 Notebook 里，请打开第一个单元格链接的本节网页，"
                         "在“用代码看清这个限制”一节里操作。"),
    "figs.widget.title": "注意力预算：自己调一调",
    "figs.widget.a": "查询要的第一个词元",
    "figs.widget.b": "第二个词元",
    "figs.widget.sharpness": "sharpness",
    "figs.widget.weights": "每个词元分到的权重",
    "figs.widget.token": "词元",
    "figs.widget.one": "一个头",
    "figs.widget.two": "两个头",
    "figs.widget.head": "头 {i}",
    "figs.widget.swap": "互换检验：两个词元互换前后，输出的 4 维",
    "figs.widget.setup": "设置",
    "figs.widget.line": "互换前",
    "figs.widget.swapped": "互换后",
    "figs.widget.change": "最大变化",
    "figs.widget.same": "两个词元必须不同：已把第二个换成 {t}。",
    "figs.widget.summary": "sharpness = {s}：一个头在两处各得 {a1} 和 {b1}，{c1}；两个头各得 {a2} 和 {b2}，{c2}。",
    "figs.widget.changed": "互换后输出最多变 {d}",
    "figs.widget.unchanged": "互换后输出一点没变",
    # snippets.homefig: the WordPieces in the home figure's caption
    "figs.home.pieces": ("模型读的不是整词，而是 WordPiece：它的分词器切出的子词。接在词中间的子词以 ## 开头，"
                         "比如 {word} 被读成 {pieces}；[CLS] 和 [SEP] 是模型在每段输入首尾加上的标记。"),
    "figs.home.join": " + ",
}

EN = {
    "figs.one_head": "one head",
    "figs.two_heads": "two heads",
    "figs.head": "head {i}",
    "figs.budget.x": "attention weight (sharpness = {s})",
    "figs.budget.alt": ("Bar chart: the attention weight each of the log line's {T} tokens gets when the query "
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
    "figs.path.out": "output = concat·W^O",
    "figs.path.alt": ("Flow chart: every step of multi-head attention from input to output with its tensor "
                      "shape, one colour for each of the {h} heads, d_model = {d_model}. Input {x}, split "
                      "{split}, scores and weights {scores}, merged and multiplied by W^O into the output {out}."),
    "figs.path.caption": ("The data path of multi-head attention. The shapes were recorded from one forward "
                          "pass of this site's MultiHeadAttention on the log line; the softmax row draws that "
                          "pass's real weights for the {h} heads (the layer is untrained)."),
    "figs.path.pair": ("In the data path figure's layer (random initial weights, untrained), the pair that "
                       "differs most between heads: the query “{q}” gives the key “{k}” a weight of {w_hi} "
                       "in head {hi} and only {w_lo} in head "
                       "{lo}, a ratio of {times}; spread evenly over the {T} tokens, each would get {even}."),
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
                            "contributions, the layer's output) are the same to within {err}: "
                            "floating-point rounding."),
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
                      "the other WordPiece it attends to most, not counting [CLS] and [SEP]; arcs below {t} are left "
                      "out."),
    "figs.home.caption": ("One log line, three heads, three ways of reading it: one looks back a token, one "
                          "looks ahead, one reaches across the line. Real weights of a pretrained model; [CLS] "
                          "and [SEP] are not drawn as targets, and arcs below {t} are left out. {wordpieces}"),
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
    "figs.widget.summary": ("sharpness = {s}: one head gives the two places {a1} and {b1}, and {c1}; two heads "
                            "give {a2} and {b2}, and {c2}."),
    "figs.widget.changed": "the swap changes the output by at most {d}",
    "figs.widget.unchanged": "the swap leaves the output exactly as it was",
    # snippets.homefig: the WordPieces in the home figure's caption
    "figs.home.pieces": ("The model reads WordPieces, the sub-word pieces its tokenizer cuts text into: a "
                         "piece that continues a word starts with ##, so {word} is read as {pieces}; [CLS] and "
                         "[SEP] are markers the model adds at the start and end of every input."),
    "figs.home.join": " + ",
}
