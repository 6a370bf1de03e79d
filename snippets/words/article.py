"""Words printed into pages: article (see snippets.i18n)."""

ZH = {
    "official.fully_masked_labels": ["scaled_dot_product_attention（填 −inf），权重",
                                     "F.scaled_dot_product_attention，输出",
                                     "masked_fill(mask == 0, -1e9)，权重"],
    # snippets.heads: §1's one head vs several
    "heads.one": "1 个头",
    "heads.many": "{h} 个头",
    "heads.head": "头 {i}",
    "heads.rounding": "只是浮点舍入",
    "heads.not_rounding": "超出了浮点舍入",
    "heads.fetched": ("一个头把权重平分给两处（{a1} 和 {b1}），输出是两个值向量的平均。两个词元互换位置后，"
                      "这 {width} 维输出{change1}，看不出谁原来在哪里。两个头各取一处（{a2} 和 {b2}），"
                      "输出同样是 {width} 维，互换后最多变 {d2}：谁在哪里，输出里还留着。"),
    "heads.swap.content": "W·e（只有内容）",
    "heads.swap.content.keys": "位置",
    "heads.swap.uneven": "W·e（同上）",
    "heads.swap.uneven.keys": "位置；查询偏向一处",
    "heads.swap.position": "W·(e+p)（内容加位置）",
    "heads.swap.position.keys": "位置",
    "heads.swap.layer_norm": "W·LN(e+p)",
    "heads.swap.layer_norm.keys": "位置",
    "heads.swap.content_keys": "W·(e+p)（同上）",
    "heads.swap.content_keys.keys": "位置 + 0.01·内容",
    "heads.fetched.unchanged": "一点都没有变",
    "heads.fetched.changed": "最多只变 {d}",
    "heads.swap.sentence": ("值里带上位置（W·(e+p)）时，两个词元互换前后，输出最多差 {pos}，{verdict}："
                            "位置线性地加进值里，找不回“谁在哪里”。另外三种做法都打破了这种对称。"
                            "一是不相等的权重，哪怕它与内容无关：值只含内容，查询偏向两处中的一处，两处分到 {ua} 和 {ub}，"
                            "互换后输出差 {un}。二是非线性混合：先做层归一化再投影，互换后输出差 {ln}。"
                            "三是随内容变化的权重：键里掺进一点内容，互换后输出差 {keys}，两处的权重变成 {wa} 和 {wb}。"
                            "{fetch}"),
    "heads.swap.one_token": "这个头实际上只取回了一个词元：对称是打破了，代价是另一个目标几乎分不到权重。",
    "heads.swap.both_tokens": "两个词元都还取回了一些，只是多少不等。",
    "heads.projection": "先整体投影再切分，和每个头单独投影相比，最大差 {err}，{verdict}：同一个运算，两种写法。",
    "heads.concat": ("两种算法：一是把 {h} 个头的输出拼接起来乘 W^O，得到层的输出；二是让每个头乘上 W^O 里属于它的那一块，"
                     "把这 {h} 份贡献相加，再加偏置。两者最大差 {err}，{verdict}。"),
    "heads.params": ("从 {h0} 个头到 {h1} 个头，参数量都是 {params}；每个查询的注意力分布从 {h0} 个变成 {h1} 个，"
                     "每个头的维数 d_k 从 {d0} 降到 {d1}。"),
    "s2.rows_of_head": "`W_q.weight` 中属于头 {i} 的行",
    "s2.queries_of_head": "头 {i} 的查询",
    # snippets.official, snippets.exercises.s3: §3
    "s3.case.self_out": "自注意力，输出",
    "s3.case.self_weights": "自注意力，逐头权重 (N, h, L, S)",
    "s3.case.causal": "因果掩码（布尔 attn_mask）",
    "s3.case.cross": "交叉注意力（L≠S）加 key_padding_mask",
    "s3.case.sdpa": "手写的 scaled_dot_product_attention 对 F.scaled_dot_product_attention",
    "s3.output": "输出",
    "s3.weights": "权重",
    "s3.max_diff": "{d:.2g}",
    "s3.fast.no_grad": "torch.no_grad() 下",
    "s3.fast.inference": "torch.inference_mode() 下",
    "s3.fast.grad": "开着梯度，参数需要梯度（新建层的默认状态）",
    "s3.fast.frozen": "开着梯度，参数全部冻结（requires_grad=False）",
    "s3.fast.frozen_query_grad": "开着梯度，参数冻结，但输入需要梯度",
    "s3.fast.no_bias": "torch.no_grad() 下，bias=False",
    "s3.fast.disabled": "torch.no_grad() 下，torch.backends.mha.set_fastpath_enabled(False)",
    "s3.fast.yes": "是",
    "s3.fast.no": "否",
    "s3.path.ours": "本站的 MultiHeadAttention",
    "s3.path.train_weights": "nn.MultiheadAttention 训练模式，need_weights=True",
    "s3.path.train_sdpa": "nn.MultiheadAttention 训练模式，need_weights=False",
    "s3.path.fast_weights": "nn.MultiheadAttention 快速路径，need_weights=True",
    "s3.path.fast": "nn.MultiheadAttention 快速路径，need_weights=False",
    "s3.path.cross": "nn.MultiheadAttention 交叉注意力，need_weights=False",
    "s3.when.ours": "只有一条路径，训练模式和 eval() 下都一样",
    "s3.when.train_weights": "只要不走快速路径，eval() 下也一样",
    "s3.when.train_sdpa": "快速路径的任一条件不满足时都一样",
    "s3.when.fast_weights": "eval()、no_grad、batch_first=True、自注意力（查询、键、值三个参数是同一个张量）、头数为偶数",
    "s3.when.fast": "同上",
    "s3.when.cross": "eval()、no_grad，但键、值与查询不是同一个张量",
    "s3.none": "—（不返回）",
    "s3.is_bias": "恰好等于 out_proj.bias",
    "s3.list_sep": "；",
    "s3.masked_summary": ("这 {total} 条路径里，被整行屏蔽的第 0 行在 {n_nan} 条上输出 NaN，在 {n_bias} 条上输出恰好等于 "
                          "out_proj.bias。输出偏置的这 {n_bias} 条，运行的都是 {kernels}，它是 F.scaled_dot_product_attention "
                          "在 CPU 上的内核之一：它把这一行的注意力结果置为 0，输出投影之后只剩下偏置。"),
    "s3.forward_order": ("两边从第 {n} 个参数起就对不上：按位置传入的第 {n} 个参数，本站的层当它是 {ours}，"
                         "nn.MultiheadAttention 却当它是 {theirs}。所以掩码一律用关键字传。"),
    "s3.source_comparison": ("按原文的写法重跑一遍（两个层各用各的随机权重，输入也各不相同）："
                             "官方实现返回的权重形状是 {w1}，手写版是 {w2}，两者的输出最多相差 {diff:.2f}。"
                             "形状不一样，数值也对不上，这样的比较说明不了两者是否等价。"),
    "s3.wrong_training": ("wrong_convention_weights 在 eval() 和 no_grad 下运行，这时最后一行（查询 {last}）的权重是 NaN。"
                          "换成训练模式，结果取决于 need_weights：默认的 need_weights=True 时，损失是 {loss_true}，"
                          "{grads_true}；need_weights=False 时，损失是 {loss_false}，{grads_false}，"
                          "最后一行的输出{bias_false}。"),
    "s3.grads_nan": "梯度里有 {n} 个 NaN",
    "s3.grads_clean": "梯度里没有 NaN",
    "s3.is_bias_row": "恰好等于 out_proj.bias，错误不声不响地混了过去",
    "s3.not_bias_row": "不等于 out_proj.bias",
    # snippets.benchreport.which_sentences: what the measurements say about choosing a layer
    # snippets.fast.equivalence_rows
    "fast.case_self": "自注意力",
    "fast.case_causal": "is_causal=True 对比因果 attn_mask",
    "fast.case_cross": "交叉注意力，L≠S，带 key_padding_mask",
    "fast.case_weights": "need_weights=True，每个头的权重",
    "fast.ref_official": "nn.MultiheadAttention",
    "fast.ref_scratch": "从零手写版",
    # snippets.figures: the caption note of a figure that scrolls sideways on a phone
    "figures.scroll_note": "（窄屏上可左右滑动查看全图）",
    # snippets.symbols: the legend of the size letters
    "symbols.title": "符号",
    "symbols.colon": "：",
    "symbols.N": "批大小",
    "symbols.L": "查询序列长度（词元数）",
    "symbols.S": "键序列长度",
    "symbols.T": "= L = S，序列对自身做注意力时",
    "symbols.E": "= `d_model`，模型宽度",
    "symbols.h": "头数",
    "symbols.d_k": "= E / h，每个头的维数",
    # snippets.recap: §1's recap of one head of self-attention
    "recap.sentence": ("{query} 的查询和 {T} 个键各算出一个分数，softmax 把它们变成 {T} 个权重，合计 {total}，"
                       "最大的一个落在 {top} 上（{w}）。输出是 {T} 个值向量按这些权重的加权和，"
                       "和每个值向量一样是 {E} 维。投影是随机的、没有训练过，所以哪个词元分到最多权重，"
                       "在这里还没有意义。"),
    "recap.fig.scores": "{query} 的查询对每个键的分数 q·k / √d_k",
    "recap.fig.weights": "softmax 之后的权重（合计为 1）",
    "recap.fig.alt": ("两幅并排的条形图，纵轴是日志行的 {T} 个词元。左图是 {query} 的查询对每个键的分数，有正有负；"
                      "右图是 softmax 之后的权重，都是正数，合计为 1，最大的是 {top}（{w}）。"),
    "recap.fig.caption": "一个查询遇到每个键：分数经过 softmax 变成权重，权重再给值向量加权求和。投影未经训练。",
    # snippets.scaling: §3's why 1/√d_k
    "scaling.sep": "、",
    "scaling.head": ["d_k", "q·k 的方差", "熵（不缩放）", "熵（除以 √d_k）", "梯度（不缩放）", "梯度（除以 √d_k）"],
    "scaling.sentence": ("q 和 k 的各分量随机取、方差为 1 时，d_k = {dks} 下 q·k 的方差分别是 {var}，约等于 d_k。"
                         "不缩放时，头越宽，一行注意力在 {keys} 个键上越集中：熵从 d_k = {d0} 时的 {e0} 降到 "
                         "d_k = {d1} 时的 {e1}（均匀分布是 ln {keys} = {uniform}），这时最大的权重平均是 {top}，"
                         "经 softmax 回传的梯度从 {g0} 缩小到 {g1}。除以 √d_k 之后，熵在 d_k = {d0} 和 {d1} 时"
                         "分别是 {se0} 和 {se1}，梯度分别是 {sg0} 和 {sg1}，不随 d_k 变。"),
    "scaling.fig.raw": "q·k（不缩放）",
    "scaling.fig.scaled": "q·k / √d_k（缩放）",
    "scaling.fig.uniform": "均匀：ln {keys}",
    "scaling.fig.entropy": "一行权重的熵",
    "scaling.fig.grad": "经 softmax 回传的梯度范数",
    "scaling.fig.alt": ("两幅折线图，横轴是头的维数 d_k（2 到 {d1}，对数刻度），每个查询看 {keys} 个随机键。"
                        "左图是一行注意力权重的熵：不缩放时随 d_k 下降，到 d_k = {d1} 只剩 {e_raw}；"
                        "除以 √d_k 时保持在 {e_scaled} 左右。右图是经 softmax 回传的梯度范数："
                        "不缩放时降到 {g_raw}，缩放时保持在 {g_scaled} 左右。"),
    "scaling.fig.caption": ("q、k 随机，每个查询 {keys} 个键。不缩放，分数的方差随 d_k 增长，softmax 趋于独热，"
                            "梯度随之变小；除以 √d_k，两条线都是平的。"),
}

EN = {
    "official.fully_masked_labels": ["scaled_dot_product_attention (−inf), weights",
                                     "F.scaled_dot_product_attention, output",
                                     "masked_fill(mask == 0, -1e9), weights"],
    "heads.one": "1 head",
    "heads.many": "{h} heads",
    "heads.head": "head {i}",
    "heads.rounding": "only floating-point rounding",
    "heads.not_rounding": "more than floating-point rounding",
    "heads.fetched": ("One head splits its weight between the two places ({a1} and {b1}), so its output is the "
                      "average of the two value vectors. Swap the two tokens and its {width} output features "
                      "{change1}: nothing in them says who stood where. Two heads take one place "
                      "each ({a2} and {b2}); their output is also {width} features wide, and the swap changes "
                      "it by up to {d2}: who stood where is still there."),
    "heads.swap.content": "W·e (content only)",
    "heads.swap.content.keys": "position",
    "heads.swap.uneven": "W·e (as above)",
    "heads.swap.uneven.keys": "position; query tilted to one place",
    "heads.swap.position": "W·(e+p) (content plus position)",
    "heads.swap.position.keys": "position",
    "heads.swap.layer_norm": "W·LayerNorm(e+p)",
    "heads.swap.layer_norm.keys": "position",
    "heads.swap.content_keys": "W·(e+p) (as above)",
    "heads.swap.content_keys.keys": "position + 0.01·content",
    "heads.fetched.unchanged": "do not change at all",
    "heads.fetched.changed": "change by at most {d}",
    "heads.swap.sentence": ("With position in the values, W·(e+p), swapping the two tokens changes the output "
                            "by at most {pos}, {verdict}: position added linearly into the values does not "
                            "bring back who stood where. Each of the other three setups breaks it. Unequal "
                            "weights, even ones that ignore content: with content-only values and the query tilted "
                            "towards one of the two places, which then get {ua} and {ub}, the swap changes the "
                            "output by {un}. Nonlinear mixing: with a layer normalisation before the "
                            "projection, it changes the output by {ln}. Weights that depend on content: with a "
                            "little content in the keys, it changes the output by {keys}, and the two places "
                            "get {wa} and {wb}. {fetch}"),
    "heads.swap.one_token": ("The head now fetches essentially one token: breaking the symmetry has cost the "
                             "other target nearly all of its weight."),
    "heads.swap.both_tokens": "The head still fetches both tokens, in unequal shares.",
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
    # snippets.official, snippets.exercises.s3: §3
    "s3.case.self_out": "self-attention, output",
    "s3.case.self_weights": "self-attention, weights (N, h, L, S)",
    "s3.case.causal": "causal bool attn_mask",
    "s3.case.cross": "cross-attention (L≠S) + key_padding_mask",
    "s3.case.sdpa": "our scaled_dot_product_attention vs F.scaled_dot_product_attention",
    "s3.output": "output",
    "s3.weights": "weights",
    "s3.max_diff": "{d:.2g}",
    "s3.fast.no_grad": "under torch.no_grad()",
    "s3.fast.inference": "under torch.inference_mode()",
    "s3.fast.grad": "gradients on, parameters need them (a new layer)",
    "s3.fast.frozen": "gradients on, every parameter frozen (requires_grad=False)",
    "s3.fast.frozen_query_grad": "gradients on, parameters frozen, the input needs gradients",
    "s3.fast.no_bias": "under torch.no_grad(), bias=False",
    "s3.fast.disabled": "under torch.no_grad(), torch.backends.mha.set_fastpath_enabled(False)",
    "s3.fast.yes": "yes",
    "s3.fast.no": "no",
    "s3.path.ours": "this site's MultiHeadAttention",
    "s3.path.train_weights": "nn.MultiheadAttention in training mode, need_weights=True",
    "s3.path.train_sdpa": "nn.MultiheadAttention in training mode, need_weights=False",
    "s3.path.fast_weights": "nn.MultiheadAttention fast path, need_weights=True",
    "s3.path.fast": "nn.MultiheadAttention fast path, need_weights=False",
    "s3.path.cross": "nn.MultiheadAttention cross-attention, need_weights=False",
    "s3.when.ours": "one path, the same in training mode and under eval()",
    "s3.when.train_weights": "the same under eval() unless the fast path runs",
    "s3.when.train_sdpa": "the same whenever any fast-path condition is unmet",
    "s3.when.fast_weights": ("eval(), no_grad, batch_first=True, self-attention (query, key and value the same"
                             " tensor), an even number of heads"),
    "s3.when.fast": "as above",
    "s3.when.cross": "eval(), no_grad, but key and value are not query",
    "s3.none": "— (not returned)",
    "s3.is_bias": "exactly out_proj.bias",
    "s3.list_sep": "; ",
    "s3.masked_summary": ("Of these {total} paths, {n_nan} return NaN for the fully masked row 0 and {n_bias}"
                          " return exactly out_proj.bias. The {n_bias} that give the bias run {kernels}, one of the CPU kernels"
                          " of F.scaled_dot_product_attention: it sets the row's attention result to 0, so only the"
                          " bias is left after the output projection."),
    "s3.forward_order": ("The two part ways at argument {n}: passed by position, argument {n} is {ours} to this"
                         " site's layer and {theirs} to nn.MultiheadAttention. So pass masks by keyword."),
    "s3.source_comparison": ("Rerun the source's way (each layer with its own random weights and its own inputs):"
                             " the official layer's weights have shape {w1} and the by-hand version's {w2}, and"
                             " the outputs differ by up to {diff:.2f}. Neither the shapes nor the numbers match,"
                             " so the comparison cannot tell whether the two are the same."),
    "s3.wrong_training": ("wrong_convention_weights runs under eval() and no_grad, where the last row (query"
                          " {last}) of the weights is NaN. In training mode it depends on need_weights: with the default"
                          " need_weights=True the loss is {loss_true} and {grads_true}; with need_weights=False"
                          " the loss is {loss_false} and {grads_false}, and the last output row {bias_false}."),
    "s3.grads_nan": "{n} gradient entries are NaN",
    "s3.grads_clean": "no gradient entry is NaN",
    "s3.is_bias_row": "is exactly out_proj.bias: the mistake passes silently",
    "s3.not_bias_row": "is not out_proj.bias",
    "fast.case_self": "self-attention",
    "fast.case_causal": "is_causal=True vs a causal attn_mask",
    "fast.case_cross": "cross-attention, L≠S, with key_padding_mask",
    "fast.case_weights": "need_weights=True, per-head weights",
    "fast.ref_official": "nn.MultiheadAttention",
    "fast.ref_scratch": "from-scratch version",
    "figures.scroll_note": " (On a narrow screen, scroll the figure sideways.)",
    # snippets.symbols: the legend of the size letters
    "symbols.title": "Symbols",
    "symbols.colon": ": ",
    "symbols.N": "batch size",
    "symbols.L": "query length (tokens)",
    "symbols.S": "key length",
    "symbols.T": "= L = S, when a sequence attends to itself",
    "symbols.E": "= `d_model`, the model's width",
    "symbols.h": "number of heads",
    "symbols.d_k": "= E / h, one head's width",
    # snippets.recap: §1's recap of one head of self-attention
    "recap.sentence": ("The query of {query} gets one score per key, {T} in all; the softmax turns them into "
                       "{T} weights that add up to {total}, the largest on {top} ({w}). The output is the "
                       "weighted sum of the {T} value vectors, {E} numbers wide like each value. The "
                       "projections are random and untrained, so which token gets the most weight means "
                       "nothing yet."),
    "recap.fig.scores": "scores q·k / √d_k of {query}'s query",
    "recap.fig.weights": "weights after the softmax (sum 1)",
    "recap.fig.alt": ("Two bar charts side by side over the log line's {T} tokens. Left, the score of "
                      "{query}'s query against each key, some positive, some negative; right, the weights "
                      "after the softmax, all positive and summing to 1, the largest on {top} ({w})."),
    "recap.fig.caption": ("One query meets every key: the softmax turns the scores into weights, and the "
                          "weights average the value vectors. The projections are untrained."),
    # snippets.scaling: §3's why 1/√d_k
    "scaling.sep": ", ",
    "scaling.head": ["d_k", "Var(q·k)", "entropy, unscaled", "entropy, ÷√d_k", "gradient, unscaled",
                     "gradient, ÷√d_k"],
    "scaling.sentence": ("With random q and k whose entries have variance 1, q·k has variance {var} at d_k = {dks}: "
                         "about d_k. Without the scale, the wider the head, the narrower an attention row over "
                         "{keys} keys: its entropy falls from {e0} at d_k = {d0} to {e1} at d_k = {d1} (a uniform "
                         "row has ln {keys} = {uniform}), where the largest weight averages {top}; the gradient "
                         "that flows back through the softmax shrinks from {g0} to {g1}. Divided by √d_k, the "
                         "entropy is {se0} at d_k = {d0} and {se1} at d_k = {d1}, and the gradient {sg0} and "
                         "{sg1}: the width no longer matters."),
    "scaling.fig.raw": "q·k (unscaled)",
    "scaling.fig.scaled": "q·k / √d_k (scaled)",
    "scaling.fig.uniform": "uniform: ln {keys}",
    "scaling.fig.entropy": "entropy of a row",
    "scaling.fig.grad": "gradient norm through softmax",
    "scaling.fig.alt": ("Two line charts against the head width d_k (2 to {d1}, log scale), each query looking "
                        "at {keys} random keys. Left, the entropy of a row of attention weights: unscaled it "
                        "falls as d_k grows, to {e_raw} at d_k = {d1}; divided by √d_k it stays near "
                        "{e_scaled}. Right, the gradient norm through the softmax: unscaled it falls to "
                        "{g_raw}, scaled it stays near {g_scaled}."),
    "scaling.fig.caption": ("Random q and k, {keys} keys per query. Unscaled, the scores' variance grows with "
                            "d_k, the softmax turns one-hot and its gradient fades; divided by √d_k, both "
                            "lines are flat."),
}
