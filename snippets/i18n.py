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

import numbers
import re
import string

from snippets.numfmt import typeset

__all__ = ["LANGS", "TEXT", "SAME_IN_BOTH", "check_lang", "fill", "text", "texts"]

LANGS = ("zh", "en")

TEXT: dict[str, dict[str, str | list[str]]] = {
    "zh": {
        # snippets.reading: the home page's core path and deep dives, with reading times
        "reading.core_header": ["步", "页面", "分钟", "读完能做什么"],
        "reading.deep_header": ["页面", "分钟", "先读", "读它是为了弄清"],
        "reading.title.article/1-single-head": "一、单头的局限",
        "reading.title.article/2-divide-and-conquer": "二、分而治之",
        "reading.title.article/3-pytorch": "三、PyTorch 实现",
        "reading.title.article/4-what-if": "四、What-if 实验",
        "reading.title.lab/induction-heads": "归纳头",
        "reading.title.lab/kv-heads": "需要几个键/值头",
        "reading.title.lab/real-model": "真实模型的注意力头",
        "reading.title.lab/real-decoder": "真实的解码器",
        "reading.title.lab/performance": "性能",
        "reading.title.faq": "常见问题",
        "reading.title.roadmap": "路线图",
        "reading.title.errata": "核对与更正",
        "reading.part.four": "：任务、实验一、实验三、消融和本节要点",
        "reading.part.induction": "：任务、相变、两个头各看哪里、最小模型的因果证据和结论的边界",
        "reading.after.one": "说清一个头为什么对每个查询只给出一个分布，一个词元同时需要两处信息时它会怎样顾此失彼",
        "reading.after.two": "写出多头注意力的公式，指出每个头的投影在哪里，说明参数量为什么不随头数变",
        "reading.after.three": "看懂 `nn.MultiheadAttention` 算了什么，自己写一遍，并验证两者只差舍入误差",
        "reading.after.four": "在小任务上训练不同头数的模型，读出每个头学到了什么，去掉一个头看哪个目标受影响",
        "reading.after.induction": "讲清两层注意力怎样学会“上次 A 后面是 B”，并用清零和切断路径找出起作用的两个头",
        "reading.for.kv": "为什么共享的是键和值、KV 缓存省下多少内存和时间、共享要不要付出准确率",
        "reading.for.real": "一个预训练模型的头实际在看哪里",
        "reading.for.decoder": "本站的分组查询注意力和 KV 缓存装进一个真实的语言模型，它的 270 个头各在做什么",
        "reading.for.perf": "注意力慢在哪里，各种实现快多少",
        "reading.for.faq": "原文 20 个问题核对过的回答",
        "reading.for.roadmap": "下一篇讲什么，本站比原文多了什么",
        "reading.for.errata": "全站核对过的提法，一条一行",
        "reading.core_total": "核心路径共 {steps} 步，约 {total} 分钟。",
        "reading.step": "第 {k} 步",
        "reading.sep": "、",
        "reading.none": "无",
        "reading.rule": ("时间按页面打开时看得到的内容估算：中文每分钟 {zh} 字，英文每分钟 {en} 词；每个显示源码的代码块"
                         "算 {code} 秒，每处打印出来的输出（图、表或一句话）再算 {output} 秒；默认折叠的框"
                         "（比如练习的答案）和各页末尾的练习不算在核心路径里。"),
        "reading.no_docs": "阅读时间由本站页面的源文件算出，notebook 里没有这些文件；这张表请在网站首页上看。",
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
        "heads.swap.layer_norm": "W·层归一化(e+p)",
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
        # snippets.lessonfigs: the figures of §1, §2 and the home page, and §1's widget
        "figs.one_head": "一个头",
        "figs.two_heads": "两个头",
        "figs.head": "头 {i}",
        "figs.budget.x": "注意力权重（sharpness = {s}）",
        "figs.budget.alt": ("条形图：查询要取回 {a} 和 {b} 时，日志行 8 个词元各分到的注意力权重。"
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
        "figs.swap.caption": "互换检验：颜色表示每一维的数字从哪个词元取来。",
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
        "figs.path.out": "乘 W^O，得到输出",
        "figs.path.alt": ("流程图：多头注意力从输入到输出的每一步和张量形状，{h} 个头各用一种颜色，模型宽度 {d_model}。"
                          "输入 {x}，切分后 {split}，分数和权重 {scores}，合并后乘 W^O 得到输出 {out}。"),
        "figs.path.caption": ("多头注意力的数据流。形状是本站的 MultiHeadAttention 在日志行上前向计算一次时记录下来的；"
                              "softmax 那一行画的是这次计算里 {h} 个头的真实权重（层未经训练）。"),
        "figs.path.pair": ("在上面数据流图的层里（权重随机初始化，没有训练），各头之间权重相差最大的一对：查询“{q}”分给键“{k}”的权重，"
                           "在头 {hi} 里是 "
                           "{w_hi}，在头 {lo} 里只有 {w_lo}，前者是后者的 {times} 倍；如果平均分给 {T} 个词元，每个是 {even}。"),
        "roadmap.kv_done": "两个回忆测试（联想回忆，以及带干扰词元的 MQAR）都已跑完，结果在键/值头页上。",
        "roadmap.kv_pending": "第一个回忆测试（联想回忆）的结果在键/值头页上；第二个（带干扰词元的 MQAR）的结果还没有放上网站。",
        "figs.concat.head": "头 {i}",
        "figs.concat.bias": "偏置 b",
        "figs.concat.sum": "Σ 头 + b",
        "figs.concat.out": "层的输出",
        "figs.concat.x": "输出向量的前 {f} 维（共 {E} 维）",
        "figs.concat.title": "最大 |输出 − (Σ + b)| = {err}",
        "figs.concat.alt": ("热力图：{h} 个头各自经过 W^O 里属于自己的那一块，写进输出前 {f} 维的贡献，"
                            "再加上偏置；最后两行是这些贡献之和与层的输出，两行相同，最大差 {err}。"),
        "figs.concat.caption": "每个头写进输出的贡献。最后两行（贡献之和、层的输出）相差不超过 {err}，只是浮点舍入。",
        # snippets.schematics: diagrams drawn from the configuration they show
        "schem.layer.x": "输入 x：{shape}",
        "schem.layer.proj": "乘 W^Q、W^K、W^V（各 {E}×{E}），得 Q、K、V：各 {shape}",
        "schem.layer.split": "切成 {h} 个头，每个头的 q、k、v 宽 {d_k}：{shape}",
        "schem.layer.maps": "{h} 张注意力图，每个头一张：{shape}",
        "schem.layer.context": "每个头用自己的权重混合 v：{shape}",
        "schem.layer.concat": "拼接回一个向量：{shape}",
        "schem.layer.wo": "乘 W^O（{E}×{E}），把各头混在一起",
        "schem.layer.out": "输出：{shape}",
        "schem.layer.alt": ("示意图：一层多头注意力从输入到输出。输入 x 乘 W^Q、W^K、W^V，结果切成 {h} 个头，"
                            "每个头一种颜色，宽 {d_k}；每个头算出自己的 {L}×{L} 注意力图和输出，"
                            "{h} 个输出拼接回 {E} 维，再乘 W^O 得到输出。"),
        "schem.layer.caption": ("一层、{h} 个头，从上往下读。每一列是一个头：同一种颜色从 W^Q、W^K、W^V 里属于它的那几列，"
                                "走到拼接结果里属于它的那一段，再到 W^O 里属于它的那几行（按论文的写法，与下面的公式一致）。"
                                "形状来自本站的层在日志行上实际算一遍；注意力图是这个未训练层的真实权重。"),
        "schem.wo.concat": "拼接 {shape}",
        "schem.wo.terms": "拆开：头 i {head} · W^O 的第 i 块 {block}，再相加",
        "schem.wo.term": "头 {i}",
        "schem.wo.bias": "偏置 b",
        "schem.wo.alt": ("示意图：拼接后的向量乘 W^O，等于 {h} 项之和：头 i 的输出 {head} 乘 W^O 里属于它的 {block} 那一块，"
                         "最后加上偏置。颜色标出每个头。"),
        "schem.wo.caption": ("拼接再乘 W^O，就是每个头经过自己那块 W^O 后相加：头 i 在拼接向量里的那一段，只会乘到 W^O 里同色的那几行。"
                             "在本站的层上，两种算法最大差 {err}，{verdict}。"),
        "schem.groups.q": "查询头",
        "schem.groups.kv": "键/值头",
        "schem.groups.alt": ("示意图：g = {gs} 时，{h} 个查询头各读哪个键/值头。每一组里上排是查询头，下排是键/值头，"
                             "连线表示谁读谁，颜色标出键/值头。"),
        "schem.groups.caption": ("谁和谁共用键和值。g 个键/值头把 {h} 个查询头分成 g 个相邻的组，查询头 i 读键/值头 ⌊i/(h/g)⌋；"
                                 "连线由层里用的 repeat_interleave 算出。缓存里只存下排。"),
        "schem.cache.step": "第 {t} 步",
        "schem.cache.q": "查询（用完即弃）",
        "schem.cache.kv": "KV 缓存",
        "schem.cache.alt": ("示意图：一层分组查询注意力（{h} 个查询头、{g} 个键/值头）逐个解码 {steps} 个位置。"
                            "每一步的查询算出来用一次就丢掉；缓存的键和值每步多一行，新的一行着色，旧的行灰色。"),
        "schem.cache.caption": ("KV 缓存每解码一个词元长一行。每一步只为新位置算一次 q、k、v：k 和 v 追加进缓存（彩色），"
                                "之前的行原样读出，不重算（灰色）；q 用一次就丢，不存。"
                                "最后一步记录到的形状：q 为 {q}，即 (N, 1, E)；缓存的键为 {k}，即 (N, g, S, d_k)。"),
        "schem.mla.per_position": "一个位置缓存多少个数（h = {h}，d_k = {d_k}）",
        "schem.mla.mha_size": "k 和 v：2·h·d_k = {n} 个",
        "schem.mla.mla_size": "一个潜向量 c：d_c = {C} 个",
        "schem.mla.naive": "朴素算法",
        "schem.mla.absorbed": "吸收式",
        "schem.mla.cache": "缓存 c：{shape}",
        "schem.mla.rebuild": "每一步都重新把全部 {S} 行",
        "schem.mla.rebuild_what": "乘 W_uk 得 k，乘 W_uv 得 v",
        "schem.mla.rebuilt_shape": "各 {shape}，用完即弃",
        "schem.mla.naive_attend": "照常对 k 打分、对 v 加权",
        "schem.mla.query": "查询 q：{shape}",
        "schem.mla.move": "每个头乘 W_ukᵀ，进入潜空间",
        "schem.mla.moved_shape": "d_c 维的查询：{shape}",
        "schem.mla.on_latents": "直接对缓存的 c 打分、加权",
        "schem.mla.like_mqa": "如同只有一个 d_c 维头的 MQA",
        "schem.mla.mixed": "c 的加权和：{shape}",
        "schem.mla.after_mix": "每个头乘 W_uv（可并进 W^O）",
        "schem.mla.out": "乘 W^O，两种算法的输出相同：{shape}",
        "schem.mla.alt": ("示意图：MLA 的潜向量和它的两种用法。上方对比一个位置的缓存：MHA 存 {h} 个头的键和值，共 {n} 个数；"
                          "MLA 只存一个潜向量 c，d_c = {C} 个数。下方左栏是朴素算法：每解码一步，都把缓存里全部 {S} 个 c "
                          "乘 W_uk、W_uv，重建每个头的键和值，再照常做注意力。右栏是吸收式：查询乘 W_ukᵀ 进入潜空间，"
                          "直接对缓存的 c 打分、加权，最后乘 W_uv。两栏最后都乘 W^O，得到相同的输出。"),
        "schem.mla.caption": ("MLA 缓存的是潜向量 c，两种算法读的是同一份缓存。朴素算法每一步都为全部 {S} 个已缓存的位置"
                              "重建 k 和 v（虚线框），计算量随序列变长而增长；吸收式把 W_uk 挪到查询一侧、W_uv 挪到加权之后，"
                              "分数和加权都直接在 d_c 维的 c 上做，相当于只有一个 d_c 维共享键/值头的 MQA。"
                              "图中的形状是本页的层（d_k = {d_k}，d_c = {C}）逐个解码 {S} 个位置时记录下来的；"
                              "两种算法的输出最多差 {err}，{verdict}。"),
        "schem.inproj.rows": "第 {lo}–{hi} 行 = .chunk(3)[{m}]",
        "schem.inproj.heads": "头 0 占 0–{a} 行，头 {last} 占 {b}–{c} 行",
        "schem.inproj.alt": ("示意图：nn.MultiheadAttention 的 in_proj_weight 形状是 ({E3}, {E})，按行切成三段，依次是 W_q、W_k、W_v，"
                             "各 ({E}, {E})；每段里又按行分给 {h} 个头，每个头 {d_k} 行，颜色标出每个头。"),
        "schem.inproj.caption": ("打包的 in_proj_weight：三个投影上下叠在一起，.chunk(3) 按行切开，就是本站层里的 W_q、W_k、W_v"
                                 "（切出来的三块由 load_from_torch 复制后逐一核对）。每一块里，头 i 占第 i 组 {d_k} 行："
                                 "PyTorch 按（输出，输入）存权重，所以是行。"),
        "schem.reshape.x": "x：{shape}，{L} 个词元，每个 E 维",
        "schem.reshape.view": ".view(N, L, h, d_k)：{shape}，每个词元切成 {h} 段，数据不动",
        "schem.reshape.transpose": ".transpose(1, 2)：{shape}，头在前：{h} 个头，每个头 {L} 个词元",
        "schem.reshape.back": "合回去：.transpose(1, 2).contiguous().view(N, L, E) → {shape}",
        "schem.reshape.alt": ("示意图：分头与合头时张量怎样排列。x 的形状是 {x}；view 把每个词元的 E 维切成 {h} 段；"
                              "transpose(1, 2) 把头换到前面，形状是 {split}；再 transpose、contiguous、view 回到 {x}。"
                              "颜色标出每个头，每组上方的数字是外层下标。"),
        "schem.reshape.caption": ("分头只是换个看法：view 不搬数据，只把每个词元的 E 维切成 {h} 段；transpose(1, 2) 换的是下标的顺序，"
                                  "外层从 {L} 个词元变成 {h} 个头，之后每个头的矩阵乘法一次就能算完。合头反过来走一遍："
                                  "contiguous() 先按新顺序把数排好，view 才能把它们合回去。每组上方的数字是外层下标（词元或头）。"),
        "schem.average.heads": "average_attn_weights=False：每个头一张，{shape}",
        "schem.average.mean": "默认（True）：在头这一维上取平均，{shape}",
        "schem.average.alt": "示意图：nn.MultiheadAttention 在日志行上给出的 {h} 张逐头注意力图，汇成一张平均图，也就是默认返回的权重。",
        "schem.average.caption": ("默认返回的权重从哪里来：{h} 个头的权重在头这一维上取平均（图里的平均与默认返回值逐项核对过）。"
                                  "哪个头在看哪里，从平均图里就看不出来了。"),
        "schem.task.stream": "日志流：{L} 个事件",
        "schem.task.readout": "位置 {p} 要答出",
        "schem.task.before": "前第 {n} 个：{event}",
        "schem.task.after": "后第 {n} 个：{event}",
        "schem.task.before.none": "前第 {n} 个：在流外，不计分",
        "schem.task.after.none": "后第 {n} 个：在流外，不计分",
        "schem.task.alt": ("示意图：一条 {L} 个事件的日志流，从上往下排。位置 {p} 的事件连向偏移 {offs} 处的事件，"
                           "右边列出它要答出的 {T} 个事件。"),
        "schem.task.caption": ("要学的是什么：每个位置都要同时说出偏移 {offs} 处的事件，图里只画了位置 {p}。"
                               "答案直接取自生成训练数据的 make_batch；落在流外的目标不计分。"
                               "模型输出端（readout）的 {T} 组预测，各自要从不同的位置取信息。"),
        "figs.params.top": "参数量",
        "figs.params.bottom": "每个头的维数 d_k 与每个查询的分布数 h（模型宽度 {E}）",
        "figs.params.dk": "d_k",
        "figs.params.h": "h",
        "figs.params.x": "头数 h",
        "figs.params.alt": ("两幅图：头数从 {h0} 到 {h1}，参数量始终是 {params}；每个头的维数 d_k 从 {d0} 降到 {d1}，"
                            "每个查询的分布数 h 同步增加，两者之积始终是 {E}。"),
        "figs.params.caption": "同样的参数，切成不同数量的头。",
        "figs.home.prev": "第 {layer} 层的头 {head}：看前一个词元",
        "figs.home.next": "第 {layer} 层的头 {head}：看后一个词元",
        "figs.home.far": "第 {layer} 层的头 {head}：看得最远的头",
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
        "figs.widget.swap": "互换检验：输出的 4 维，原行与两个词元互换后",
        "figs.widget.setup": "设置",
        "figs.widget.line": "原行",
        "figs.widget.swapped": "互换后",
        "figs.widget.change": "最大变化",
        "figs.widget.same": "两个词元必须不同：已把第二个换成 {t}。",
        "figs.widget.summary": ("sharpness = {s}：一个头在两处各得 {a1} 和 {b1}，互换后输出最多变 {d1}；"
                                "两个头各得 {a2} 和 {b2}，互换后输出最多变 {d2}。"),
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
                              "F.sdpa 走默认路径时，数到的是 {default} FLOPs。",
        "faq.flops_zero": "这个 0 并不是说没有计算：CPU 上 `F.scaled_dot_product_attention` 默认走 flash 内核，"
                          "FlopCounterMode 没有为它登记计数公式，所以 math 路径那一列是在 "
                          "`sdpa_kernel([SDPBackend.MATH])` 下数的。用 FlopCounterMode 数注意力时，一定要检查这一点。",
        "faq.similarity_sentence": "从没训练过的层，不同头之间的平均相似度已经是 {random}：初始化时每个头都接近均匀分布"
                                   "（见 Q15），头和头自然相像，而一个没训练过的层谈不上过拟合。把 8 个头都换成头 0 "
                                   "的副本，相似度是 {copies}：这是彻底的冗余，8 个头只顶 1 个，同样和过拟合无关。",
        "faq.entropy_sentence": "独热行的归一化熵是 {one_hot}，均匀行是 {uniform}；刚初始化、没训练过的 8 个头的层"
                                "（PyTorch 默认初始化，输入取自标准正态分布），"
                                "所有行平均是 {mean}，连最集中的那一行也有 {min}。",
        "faq.difference.exact": ("最大差值恰好是 0：在这个尺寸下，两种算法的舍入碰巧完全一样。这是巧合，不是规律："
                                 "同样的求和换个顺序，末几位的舍入就会不同，差值会在 float32 机器精度（{eps}）的量级。"),
        "faq.difference.rounding": "最大差值是 {diff}，在 float32 舍入的量级（机器精度 {eps}）。",
        "faq.difference.more": "最大差值是 {diff}，超出了 float32 的舍入（机器精度 {eps}）。",
        "faq.permutation_sentence": "不加掩码时，最大差值是 {free}，与 float32 的机器精度（{eps}）同一量级，"
                                    "只是舍入误差；加了因果掩码，差值是 {causal}：打乱顺序改变的是输出本身，"
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
        "bert.verdict_family": "{n} 个头是一起检验的，所以区间按这 {n} 个头一起做了 Holm 校正（各个区间的置信水平见下面全部头的表）。",
        "bert.verdict_lower": "去掉其中 {k} 个头，检索准确率测得下降：{heads}。",
        "bert.verdict_higher": "去掉 {k} 个头，检索准确率测得上升：{heads}。",
        "bert.verdict_negligible": "{k} 个头的变化小于值得在意的幅度：{heads}。",
        "bert.verdict_rest": "其余 {k} 个头（共 {n} 个）的区间包含 0：在这 {pairs} 对文本上测不出差别。",
        "bert.verdict_all_none": ("所有区间都包含 0：在这 {pairs} 对文本上，单独去掉哪一个头，检索都没有可测的变化。"
                                  "就连 p 值最小的 {head}（{cat}，{iv} 个百分点，p = {p:.3f}）也没有通过 Holm 的第一步"
                                  "（p 要小于 0.05/{n}），所以每个区间都按这一步的置信水平 {level} 打印。"),
        "bert.verdict_alone": ("如果不做校正，每个头各按 95% 单独判断，{n} 个区间里会有 {k} 个不含 0：{heads}；"
                               "而即使哪个头都不起作用，单凭偶然也预计有约 {expected:.1f} 个（{n} 的 5%）。"),
        "bert.verdict_alone_none": "即使不做校正，每个头各按 95% 单独判断，{n} 个区间也没有一个不含 0。",
        "bert.verdict_power": ("{pairs} 对文本能看出多大的影响？假如去掉某个头，让其中 {k} 对完全失分、其余各对都不变"
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
        "ind.live_ids": ("每个字符先换成一个编号：它的 Unicode 码位除以 {vocab}（模型的词表大小）的余数。"
                         "ASCII 字符各有各的编号，汉字散在全部 {vocab} 个编号上，但不同的字符仍可能撞上同一个编号，"
                         "比如 `{a}` 和 `{b}`。训练时最长的序列有 {max} 个编号，所以文本最多 {max} 个字符。"),
        "ind.live_reader": ("它训练时的每条序列长 {min_len}–{max_len} 个编号（长度随机），其中占全长四分之一到一半"
                            "（至少 {min_seg} 个编号）的一段写了两遍，位置随机，两遍之间隔 0–{max_gap} 个编号；编号从每条序列随机挑的一组里抽，"
                            "所以一遍之内也会重复，像句子里的字母。共训练 {steps} 步（每步 {batch} 条序列），"
                            "单线程用了 {cpu:.0f} 秒 CPU。在留出的 {n_eval} 条这样的序列上，第二遍里能推出的下一个编号"
                            "猜中 {acc:.0%}；第 0 层那个头的前一个词元分数是 {prev:.2f}，第 1 层那个头的前缀匹配分数是 {prefix:.2f}。"),
        "ind.live_bench": ("检验用的是一组模型训练时没见过、也没拿来调过任何设置的文本：{n_zh} 句中文和 {n_en} 句英文，"
                           "每句 {short}–{long} 个字符，各写两遍，有的两遍之间隔着标点或空格，有的前面还有一段别的文字。"
                           "第二遍里能从第一遍推出的下一个字符，平均猜中 {zh:.0%}（中文）和 {en:.0%}（英文），"
                           "最差的一句猜中 {lo:.0%}。英文低，差别几乎全在一处：当前字符在第二遍之前只出现过一次时，"
                           "中文猜中 {zh_once:.0%}，英文 {en_once:.0%}；出现过不止一次时，中文 {zh_sev:.0%}，"
                           "英文 {en_sev:.0%}。英文里这样的位置占 {en_share:.0%}，中文只占 {zh_share:.0%}。"
                           "这个模型只按当前一个字符去找，有好几处可抄时常常抄错；能不能按前两个字符去找，"
                           "比如第 0 层多几个头，这里没有试。"),
        # snippets.induction.live: the induction page's live view (sent to induction-live.js)
        "live.model": "模型",
        "live.text": "文本（最多 {max} 个字符）",
        "live.example_en_button": "英文例子",
        "live.example_zh_button": "中文例子",
        "live.example_en": "ERROR order-api timeout; ERROR order-api timeout",
        "live.example_zh": "错误：订单接口连接超时，正在第三次重试；错误：订单接口连接超时，正在第三次重试；",
        "live.ids": "编号（码位除以 {vocab} 的余数）：{ids}",
        "live.empty": "输入一段文本。",
        "live.heads": "头（取消勾选就关掉这个头）",
        "live.all_on": "全部打开",
        "live.head_label": "第 {layer} 层第 {head} 个头",
        "live.role_prev": "前一词元头",
        "live.role_induction": "归纳头",
        "live.scores": "前一词元分 {prev}，前缀匹配分数 {prefix}",
        "live.off": "（已关掉）",
        "live.summary": "{total} 个位置里，有 {hits} 个猜中了下一个字符。",
        "live.summary_none": "一个下一个字符也没猜中：文本里得有一段重复，归纳头才有东西可抄。",
        "live.summary_one": "只有一个字符，还没有下一个字符可猜。",
        "live.hash_note": ("“#{id}”这样的猜测是一个编号：模型猜的下一个字符编号是 {id}，"
                           "而文本到这里还没有哪个字符是这个编号，所以没法显示成字符。"),
        "live.predictions": "每个字符下面是模型猜的下一个字符（选中一个位置看注意力：点它，或用 Tab 和 ← → 键）",
        "live.hit": "猜中了",
        "live.miss": "没猜中",
        "live.cell": "位置 {pos}，{ch}，猜下一个是 {pred}",
        "live.attention": "位置 {pos}（{ch}）的注意力，每个头一行，每根柱子是一个位置",
        "live.attends": "最多给了位置 {pos}（{ch}，{pct}%）",
        "live.nojs": "实时视图需要 JavaScript。",
        "live.error": "实时视图的数据没能加载（{status}），请刷新页面再试。",
        # snippets.benchreport: the performance page
        "bench.scratch": "手写版",
        "bench.mha_default": "快速路径（返回权重）",
        "bench.mha_no_weights": "训练模式（走 SDPA）",
        "bench.mha_fastpath": "快速路径（不返回权重）",
        "bench.fast": "融合版",
        "bench.best_official": "最快的 nn.MHA 配置",
        "bench.impls_head": ["简称", "是什么", "代码里的键"],
        "bench.about_scratch": "第三节手写的 `MultiHeadAttention`：显式算出 QKᵀ 和 softmax 再乘 V，全部权重都要存下",
        "bench.about_mha_default": "`nn.MultiheadAttention`，`eval()`，`need_weights` 取默认值 `True`：走 C++ 快速路径，顺带返回权重",
        "bench.about_mha_fastpath": "同一个层，`eval()`，`need_weights=False`：照样走快速路径",
        "bench.about_mha_no_weights": ("同一个层留在训练模式（dropout 为 0，输出不变），`need_weights=False`："
                                       "不满足快速路径的条件，走 Python 实现，在里面调用 SDPA"),
        "bench.about_fast": "本页的 `FastMultiHeadAttention`：一次融合的 QKV 投影，再交给 SDPA",
        "bench.about_best_official": "在每个长度上，上面三种 nn.MHA 配置里中位用时最短的那个",
        "bench.word_lower": "更快",
        "bench.word_higher": "更慢",
        "bench.word_lower_small": "更快，但可能不到 {minimum}",
        "bench.word_higher_small": "更慢，但可能不到 {minimum}",
        "bench.word_negligible": "相差不到 {minimum}",
        "bench.word_none": "分不出",
        "bench.rounds": ("提交的这次测量在 {n} 个长度（{lengths}）上各测了 {rounds} 轮（上面 `time_rounds` 的默认值是 "
                         "{d_rounds} 轮），每个样本约 {ms} 毫秒。下面每个用时都是这 {rounds} 个样本的中位数，并附上离散程度。"),
        "bench.flop_head": ["L", "总 GFLOP", "注意力部分占比", "N·h·L² 权重（MiB）"],
        "bench.exponent": "指数 p（L={a}→{b}）",
        "bench.matmul": ("参照：本机 {n}×{n} float32 稠密矩阵乘法，和各个实现在同样的轮次里轮流计时，"
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
        "bench.undecided": "≈ 无法判定：区间包含目标值",
        "bench.goal_time": "融合版用时 ÷ 最快的 nn.MHA 配置用时",
        "bench.goal_time_value": "逐轮用时之比的几何平均 [{level} 区间]，L={at} 时上限最高：{ratio}",
        "bench.goal_time_undecided": "；L = {lengths} 时区间包含 {bound}",
        "bench.goal_time_not_met": "；L = {lengths} 时整个区间高于 {bound}",
        "bench.goal_speedup": "手写版用时 ÷ 融合版用时",
        "bench.goal_speedup_value": "逐轮用时之比的几何平均 [{level} 区间]：{ratio}（L={at}）",
        "bench.goal_memory": "峰值内存 ∝ Lᵖ 的指数 p（融合版 / 手写版）",
        "bench.goal_memory_value": "{ratio:.2f} / {naive:.2f}（L={a}→{b}）",
        "bench.goals_head": ["目标", "要求", "实测", "结论"],
        "bench.time_label": "用时（毫秒，中位数 [第 25–75 百分位]）",
        "bench.throughput_label": "吞吐（按中位用时算的 GFLOP/s；括号里是占矩阵乘法参照的百分比）",
        "bench.memory_label": "峰值内存（MiB）",
        "bench.pair_head": ["比较（前者对后者）", "L", "用时之比 [区间]", "置信水平（Holm）", "结论"],
        "bench.ratio": "{ratio} [{low}–{high}]",
        "bench.pair_label": "{a} 对比 {b}",
        "bench.list_sep": "、",
        "bench.name_sep": "、",
        "bench.slope_item": "{name}（p = {p:.2f}）",
        "bench.group_sep": "；",
        # stats.verdict's four keys, for a time ratio (first / second)
        "bench.verdict_lower": "更快",
        "bench.verdict_higher": "更慢",
        "bench.verdict_none": "没有可测的差别",
        "bench.verdict_negligible": "差别不到 {minimum}，可以忽略",
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
        "provenance.others": ("测量期间，别的进程占用了整台机器 CPU 时间的 {share}（各次运行中最多 {most}），"
                              "{verdict}"),
        "provenance.others_none": "测量期间几乎没有别的进程占用 CPU（每次运行都不到 0.5%），机器基本空闲。",
        "provenance.idle": "机器基本空闲。",
        "provenance.busy": "机器并不空闲，计时噪声会偏大。",
        "provenance.busy_training": "机器并不空闲；这只影响训练耗时，不影响训练出的结果。",
        "provenance.unmeasured": ("别的进程占用了多少 CPU 没有记录：这份结果早于这项记录，"
                                  "测量期间机器是否空闲并未核实，需要重新测量。"),
        "provenance.runs": "每次运行（1 分钟平均负载，运行前 → 运行后；别的进程占用的 CPU）",
        "provenance.run_item": "{run}：{before} → {after}，{share}",
        "provenance.runs_unmeasured": "没有记录（这份结果早于这项记录）",
        "provenance.runs_summary": ("共 {n} 次：运行前负载 {before}，运行后 {after}；别的进程占用的 CPU 中位数 {median}，"
                                    "最多 {most}（{busiest}）。每次的记录在结果文件里。"),
        "provenance.runs_idle": ("共 {n} 次：运行前负载 {before}，运行后 {after}；别的进程占用的 CPU 每次都不到 0.5%。"
                                 "每次的记录在结果文件里。"),
        "provenance.run_length": "L={L}",
        "provenance.run_rounds": "第 {first}–{last} 轮",
        "provenance.run_stack": "{layers} 层 × {heads} {head_word}",
        "provenance.run_head": "个头",
        "provenance.run_heads": "个头",
        "provenance.run_seed": "种子 {seed}",
        "provenance.run_loss": "（最终损失 {loss} 奈特）",
        "provenance.run_sep": "，",
        # snippets.numfmt: a paired difference with its interval, a mean with its range
        "num.paired": "{mean:+.2f} [{lo:+.2f}, {hi:+.2f}]",
        "num.spread": "{mean:.2f}（{lo:.2f}–{hi:.2f}）",
        "provenance.duration": "测量耗时",
        "provenance.duration_value": "{minutes:.1f} 分钟",
        "provenance.fingerprint": "代码指纹",
        "provenance.fingerprint_value": "`{fp}`，由下面这些文件以及 torch、numpy、Python 的版本算出{files}",
        "provenance.files_summary": "{n} 个文件",
        "provenance.command": "重新测量的命令",
        # sitebuild.buildbench
        "buildbench.cold": "冷构建（空缓存，--strict）",
        "buildbench.warm": "热构建（--strict）",
        "buildbench.no_exec": "关闭代码执行的构建（非 strict）",
        "buildbench.serve": "mkdocs serve：改页面到拿到新页面",
        "buildbench.ratio": "热构建 ÷ 关闭执行的构建（目标 ≤ 2）",
        "buildbench.head": ["测量", "秒", "结果"],
        "buildbench.ok": "✅ 无报错",
        "buildbench.met": "这一次达成",
        "buildbench.not_met": "这一次未达成",
        "buildbench.runs": ("这些构建时间每项只测了一次，没有离散程度，不像上面注意力的测量那样取多轮中位数。"
                            "热构建与关闭执行的构建之比也只是两次单独运行相除，所以“达成”只说明这一次在目标以内。"),
        "buildbench.failed": "失败",
        # snippets.benchreport.which_sentences: what the measurements say about choosing a layer
        # snippets.fast.equivalence_rows
        "fast.case_self": "自注意力",
        "fast.case_causal": "is_causal=True 对比因果 attn_mask",
        "fast.case_cross": "交叉注意力，L≠S，带 key_padding_mask",
        "fast.case_weights": "need_weights=True，每个头的权重",
        "fast.ref_official": "nn.MultiheadAttention",
        "fast.ref_scratch": "从零手写版",
        # snippets.kernels: which kernel nn.MultiheadAttention runs
        "kernels.head": ["调用（都在 torch.no_grad() 下）", "性能分析器看到的注意力内核"],
        "kernels.case_default_no_weights": "默认层（batch_first=False），eval()，need_weights=False",
        "kernels.case_default_weights": "默认层（batch_first=False），eval()，need_weights=True（默认）",
        "kernels.case_first_no_weights": "batch_first=True 的层，eval()，need_weights=False",
        "kernels.case_first_weights": "batch_first=True 的层，eval()，need_weights=True",
        "kernels.case_first_cross": "batch_first=True 的层，eval()，交叉注意力，need_weights=False",
        "kernels.case_first_train": "batch_first=True 的层，训练模式，need_weights=False",
        "kernels.kernel_fast_path": "快速路径：`_native_multi_head_attention`",
        "kernels.kernel_flash": "SDPA 的 flash 内核：`_scaled_dot_product_flash_attention_for_cpu`",
        "kernels.kernel_math": "SDPA 的 math 内核：`_scaled_dot_product_attention_math`",
        "kernels.kernel_bmm_softmax": "不走 SDPA，自己用 `bmm` 和 `softmax` 算出权重",
        "kernels.cond_no_float_mask": "`attn_mask` 和 `key_padding_mask` 都不是浮点掩码（布尔掩码可以）",
        "kernels.cond_enabled": "开关 `torch.backends.mha.get_fastpath_enabled()` 开着（默认开）",
        "kernels.cond_batched": "输入带批维，是三维张量",
        "kernels.cond_self_attention": "自注意力：`query`、`key`、`value` 是同一个张量对象（值相同的三个张量不算）",
        "kernels.cond_dtype": "输入的 dtype 和 `in_proj_weight`、`in_proj_bias` 的一致",
        "kernels.cond_in_proj": "层里有合并的 `in_proj_weight`",
        "kernels.cond_eval": "处在 `eval()` 模式",
        "kernels.cond_even_heads": "头数为偶数",
        "kernels.cond_batch_first": "`batch_first=True`（默认是 `False`）",
        "kernels.cond_no_bias_kv": "没有 `add_bias_kv`",
        "kernels.cond_no_zero_attn": "没有 `add_zero_attn`",
        "kernels.cond_same_embed_dim": "`kdim`、`vdim` 都等于 `embed_dim`",
        "kernels.cond_nested_masks": "嵌套张量（NestedTensor）输入不带任何掩码（`attn_mask` 和 `key_padding_mask` 都不能有）",
        "kernels.cond_no_autocast": "没有开 autocast",
        "kernels.cond_no_torch_function": "参与计算的张量都不是重载了 `__torch_function__` 的子类",
        "kernels.cond_device": "张量都在 CPU、CUDA 或已注册的 privateuse1 设备上",
        "kernels.cond_no_grad": "关闭了自动求导，或者输入和投影的权重、偏置都不需要梯度",
        "kernels.cond_no_tracing": "不在 `make_fx` 追踪之中",
        "kernels.cond_bias": "输入投影带偏置（`bias=True`）",
        # sitebuild.notebooks and its hook
        "notebooks.intro": (
            "这是《{title}》这一页的 Notebook：代码和[网页]({url})上的一样，由网页和本站的课程代码包 `snippets` 自动生成。"
        ),
        # the one text on running a notebook: home page, each notebook's first cell, README (sitebuild.notebooks)
        "notebooks.run": (
            "**怎么运行 Notebook**：每个 Notebook 都能单独从上到下运行。\n\n"
            "- **Jupyter**：在 Python 3.10 及以上的环境里执行 `pip install jupyterlab`，启动 `jupyter lab`，"
            "打开 `.ipynb` 文件，选 Run → Run All Cells。\n"
            "- **VS Code**：装好 Python 和 Jupyter 两个扩展，打开 `.ipynb` 文件，在 Select Kernel 里选一个 "
            "Python 3.10 及以上的解释器，再点 Run All。\n"
            "- **Colab**：选 File → Upload notebook（中文界面是“文件 → 上传笔记本”）上传 `.ipynb` 文件，"
            "再选 Runtime → Run all（“代码执行程序 → 全部运行”）。\n\n"
            "第一个单元格用 `%pip` 从本站安装课程代码包 `snippets`，缺少 torch、numpy、matplotlib 时一并装上"
            "（想用特定版本的 torch，比如 CPU 版，先自己装好：`pip install torch --index-url "
            "https://download.pytorch.org/whl/cpu`）。在本站代码仓库的克隆里，`snippets` 已经能直接导入，"
            "这个单元格什么也不装。\n\n"
            "**改代码做实验**：定义函数或类的单元格就是网页上展示的代码，下面调用它的单元格用的正是这份定义。"
            "改动它，再把下面的单元格重新运行一遍，输出就跟着变。网页没有展示的辅助函数来自 `snippets` 包；"
            "单元格里从包导入的课程函数也一样，它们内部调用的仍是包里的版本。"
        ),
        "notebooks.source": "仓库里的源文件",
        "notebooks.results_ready": "{n} 个测量数据文件已就绪。",
        "notebooks.setup_results": "本页用到的已提交结果（计时或训练记录）是在构建本站的机器上得到的，所以这个单元格还会从本站下载这些数据（和代码包放在一起的 JSON 文件），不在你的机器上重新计算。",
        "notebooks.setup_computes": (
            "本站构建时算好的结果（训练好的模型、真实模型上的测量）不随 Notebook 下载：第一次运行时由课程代码重新计算，"
            "边算边打印进度（最耗时的训练还会给出预计剩余时间）；算好的结果存在缓存文件夹里（`~/.cache/multi-head-attention`，"
            "或环境变量 `MHA_CACHE_DIR` 指定的位置），以后再运行直接读取。"
        ),
        "notebooks.download": "下载 Notebook",
        "notebooks.view": "查看 Notebook",
        "notebooks.back": "返回网页版",
        # snippets.figures: the caption note of a figure that scrolls sideways on a phone
        "figures.scroll_note": "（窄屏上可左右滑动查看全图）",
        "notebooks.try": "# 先在这里自己试一试，再看下面折叠起来的答案",
        "notebooks.hidden": "**{title}**（单元格已折叠，自己试过之后再展开）",
        # docs/assets/whatif-lab.js: the §4 lab's controls, read from the page (sitebuild.whatif_lab)
        "lab.model": "模型（层 × 头）",
        "lab.flatGroup": "单层注意力，无残差（除注明外模型宽度 32）",
        "lab.flatOption": "1 × {h}（d_k = {dk}）",
        "lab.flatOptionWidth": "1 × {h}（d_k = {dk}，模型宽度 {dm}）",
        "lab.stackGroup": "残差模型（d_k = 8，模型宽度 32）",
        "lab.stackOption": "残差模型 {n} × {h}",
        "lab.stackFfnOption": "残差模型 {n} × {h} + 前馈网络",
        "lab.seed": "种子",
        "lab.oneSeed": "残差模型只放了种子 {seed}",
        "lab.oneSeedModel": "这个模型只放了种子 {seed}",
        "lab.layer": "第 {n} 层",
        "lab.layerHead": "第 {layer} 层头 {i}",
        "lab.layerHeadButton": "第 {layer} 层头 {i}，角色 {role}",
        "lab.layerHeadCells": "第 {layer} 层头 {i} 的注意力：{list}",
        "lab.attentionStack": "位置 {i} 的查询，每一层各头的注意力（按层分组，行是头，列是被看的位置）",
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
        "lab.accuracy": "留出集准确率",
        "lab.overall": "总体",
        "lab.full": "全部头开着：{v}",
        "lab.progress": "已算 {done} / {total} 段留出日志…",
        "lab.done": "共 {total} 段留出日志",
        "lab.off": "关掉的头：{list}",
        "lab.allHeadsOn": "所有头都开着",
        "lab.loading": "正在加载模型…",
        "lab.failed": "模型数据加载失败：{error}",
        "lab.sep": "、",
        # sitebuild.corrections: the errata table
        "errata.header": ["页面 › 小节", "原文的提法", "核对后的说法（点击跳到页内的框）"],
        # words a box title or heading must not open with (it states what is true instead)
        "errata.verbs": "更正|纠正|勘误|修正|订正|指正|纠错",
        "errata.none": "目前没有需要单独核对的提法。",
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
        "ind.task": ("这里每条序列有 {seq_len} 个词元，编号取自 {vocab} 个；$L$ 在 {lo} 到 {hi} 之间均匀地抽。"
                     "随机的位置上，最好的猜法也只能做到约 ln {vocab} = {chance:.2f} 奈特（nat，以 e 为底的信息量单位）的损失。"),
        "ind.setting_1_4": "1 层 × 4 个头",
        "ind.setting_2_1": "2 层 × 1 个头",
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
        "ind.depth_part": ("{label}：平均 {mean:.2f} 奈特，与它之差 {diff:+.2f} 奈特[{lo:+.2f}, {hi:+.2f}]，{verdict}"),
        "ind.m_higher": "升高了",
        "ind.m_lower": "降低了",
        "ind.m_none": "{seeds} 个种子下没有可测的变化",
        "ind.m_negligible": "有变化，但小到可以忽略",
        "ind.depth": ("只有一层的模型（{base}）在可预测的词元上平均损失 {base_mean:.2f} 奈特，离瞎猜（ln 64 = {chance:.2f}）"
                      "不远。两层的模型按种子与它配对，{family} 个比较用 Holm 方法一起校正：{parts}。"),
        "ind.cause_head": ["改动", "可预测词元上的损失（奈特，平均）", "与完整模型之差（奈特，Holm 区间）", "结论"],
        "ind.intact": "完整模型",
        "ind.switch_ablate_prev": "置零第 0 层的前一词元头",
        "ind.switch_ablate_induction": "置零第 1 层的归纳头",
        "ind.switch_cut_k": "只从第 1 层的键里去掉前一词元头的输出（K 组合）",
        "ind.switch_cut_k_all": "只从第 1 层的键里去掉第 0 层全部 4 个头的输出",
        "ind.switch_cut_q": "只从第 1 层的查询里去掉它（对照）",
        "ind.switch_cut_v": "只从第 1 层的值里去掉它（对照）",
        "ind.cause_part": "{switch}，损失变化 {diff:+.2f} 奈特[{lo:+.2f}, {hi:+.2f}]，{verdict}",
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
        "circ.seed_head": ["种子", "完整模型（奈特）", "第 0 层最高的前一词元分（头）", "切查询 +", "切键 +", "切值 +",
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
                          "查询那一刀减去键那一刀，按种子配对是 {qk:+.2f} 奈特[{qk_lo:+.2f}, {qk_hi:+.2f}]，{qk_verdict}。"
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
                       "的键里去掉，损失平均 {cut:.2f} 奈特，与 {base}相比差 {diff:+.2f} 奈特[{lo:+.2f}, {hi:+.2f}]，"
                       "{verdict}：这个模型的归纳大部分不经过键。"),
        "ind.one_layer": ("{label}的模型学到的是另一件事：把概率分给这条序列里已经出现过的词元。在随机的目标上，这部分概率"
                          "从第 0 步的平均 {start:.3f} 升到训练结束时的 {end:.3f}，按种子配对相差 {diff:+.3f} "
                          "[{lo:+.3f}, {hi:+.3f}]，{verdict}。这让它在可预测的词元上降到 {loss_lo:.2f}–{loss_hi:.2f} 奈特，"
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
        "ui.permalink": "永久链接",
        "ui.search_dialog": "搜索",
        "ui.not_found": ["404 - 找不到这个页面", "这个地址上没有页面：链接可能写错了，或者页面已经改名。", "回到首页"],
        "ui.space_after_sentence": "",
        "mqar.setting": "{label}",
        "mqar.head": ["结构", "每层每个位置的缓存（字节，float32）", "参数量", "学会的种子", "平均准确率（最低–最高）",
                      "与 MHA 之差（百分点，Holm 区间）", "结论"],
        "mqar.baseline": "基准",
        "mqar.part": "{name} 相差 {diff:+.1f} 个百分点 [{lo:+.1f}, {hi:+.1f}]（{level:.1%} 区间），{verdict}",
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
                            "[{lo:+.1f}, {hi:+.1f}]（{level:.1%} 区间），{verdict}"),
        "mqar.params_fewer": "{label} 少 {share:.0%}",
        "mqar.params_more": "{mla} 比 {gqa} 多 {share:.0%}",
        "mqar.params": ("参数量没有对齐。键/值头越少，W_k 和 W_v 越小：与 {mha} 相比，{fewer}。所以 GQA、MQA 与 MHA "
                        "的差别里，混着“共享键和值”和“模型更小”两件事，这次测试分不开；没有训练参数量对齐的对照。"
                        "MLA 反过来，比缓存一样大的搭档参数更多：{more}。它在测得出差距的地方（上一句）比搭档差，原因不会是参数不够。"),
        "mqar.equal": ("缓存一样大时，把 MLA 和 GQA 直接配对比较（这是另一组比较，共 {family} 个，也用 Holm 校正）："
                       "{parts}。"),
        "mqar.curves": ("学习曲线：{runs} 次训练里，有 {rising} 次在最后 {window} 步涨了半个百分点以上，其中 {big} 次涨了"
                        " 2 个百分点以上，这些到第 {steps} 步预算用完时显然还在学：{names}。"),
        "mqar.curves_small": ("学习曲线：{runs} 次训练里，有 {rising} 次在最后 {window} 步涨了半个百分点以上，"
                              "但没有一次涨到 2 个百分点；到第 {steps} 步时，各次训练都已接近停下。"),
        "mqar.curve_part": "{name}：{n} 次",
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
        "kvheads.history_head": ["键值对", "结构", "以前：自助法区间（95%，各自单独）", "以前的结论",
                                 "现在：t 区间（Holm 校正后的水平）", "现在的结论"],
        "kvheads.stored_head": ["结构", "查询（字节/词元/层，只在本步用一次）", "缓存（字节/词元/层，以后每步都读）"],
        "kvheads.stored_step": "上下文 {context:,} 个词元时，一步要读的缓存（MiB，{layers} 层）",
        "kvheads.dec_head": ["注意力", "预分配缓存与无缓存：生成的词元相同", "torch.cat 缓存与无缓存：生成的词元相同",
                             "缓存下解码位置 t 与完整前向第 t 行之差（最大绝对值）", "结论"],
        "kvheads.dec_same": "{k}/{n}",
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
        "kvheads.list_and": " 和 ",
        "kvheads.summary": ("在简化 MQAR 上（{pairs} 个键值对，每种设置 {seeds} 个种子），与 MHA 的 {family} 个比较经 Holm "
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
        "kvheads.decode_speedup": ("在 L = {L}，缓存（不复制）让下一个词元快了这么多倍"
                                   "（无缓存 ÷ 有缓存，按轮配对的几何平均，95% 区间）：{parts}。"),
        "kvheads.decode_speedup_part": "{name} {ratio}",
        "kvheads.decode_judged": "{ratio}（{level} 区间），{verdict}",
        "kvheads.decode_copies": ("在 L = {L}，不复制与复制键/值头的每词元时间之比"
                                  "（与下面几个比值共 {family} 个，一起做 Holm 校正）：{parts}。"),
        "kvheads.decode_smaller": ("在 L = {L}，{small} 的缓存是 {kib_small} KiB，只有 {big} 的 {kib_big} KiB 的 "
                                   "{share:.1%}。每个词元的时间与 {big} 之比：有缓存、复制时 {cache}；"
                                   "有缓存、不复制时 {cache_grouped}；没有缓存时 {no_cache}。"),
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
        # snippets.symbols: the legend of the size letters
        "symbols.title": "符号",
        "symbols.colon": "：",
        "symbols.N": "批大小",
        "symbols.L": "查询序列长度（词元数）",
        "symbols.S": "键序列长度",
        "symbols.E": "= `d_model`，模型宽度",
        "symbols.h": "头数",
        "symbols.d_k": "= E / h，每个头的维数",
        # snippets.homefig: the WordPieces in the home figure's caption
        "figs.home.pieces": ("模型读的不是整词，而是 WordPiece：它的分词器切出的子词。接在词中间的子词以 ## 开头，"
                             "比如 {word} 被读成 {pieces}；[CLS] 和 [SEP] 是模型在每段输入首尾加上的标记。"),
        "figs.home.join": " + ",
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
        "decoder.bullet.prev": ("有专门看前一个词元的头：最突出的是第 {layer} 层的头 {head}，"
                                "平均把 {score:.0%} 的注意力给了前一个位置。"),
        "decoder.bullet.induction": ("在写两遍的随机词元上（每遍 {T} 个），{total} 个头里有 {n} 个的前缀匹配分数超过 {thr}，"
                                     "分布在第 {first} 到第 {last} 层；最高的是第 {layer} 层的头 {head}（{score:.2f}）。"),
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
    },
    "en": {
        # snippets.reading: the home page's core path and deep dives, with reading times
        "reading.core_header": ["step", "page", "minutes", "afterwards you can"],
        "reading.deep_header": ["page", "minutes", "read first", "read it to learn"],
        "reading.title.article/1-single-head": "1. The limits of one head",
        "reading.title.article/2-divide-and-conquer": "2. Divide and conquer",
        "reading.title.article/3-pytorch": "3. The PyTorch implementation",
        "reading.title.article/4-what-if": "4. What if",
        "reading.title.lab/induction-heads": "Induction heads",
        "reading.title.lab/kv-heads": "How many key/value heads?",
        "reading.title.lab/real-model": "What a real model's heads look at",
        "reading.title.lab/real-decoder": "A real decoder",
        "reading.title.lab/performance": "Performance",
        "reading.title.faq": "FAQ",
        "reading.title.roadmap": "Roadmap",
        "reading.title.errata": "Checks and corrections",
        "reading.part.four": ": the task, experiments 1 and 3, ablation and the takeaways",
        "reading.part.induction": (": the task, the phase change, where the two heads look, the causal evidence "
                                   "in the smallest model, and the limits"),
        "reading.after.one": ("say why one head gives each query a single distribution, and how it fails a token that "
                              "needs two things at once"),
        "reading.after.two": ("write multi-head attention down, point at each head's projection, and show why the "
                              "parameter count does not grow with the number of heads"),
        "reading.after.three": ("follow what `nn.MultiheadAttention` computes, write it yourself and check that the "
                                "two agree to rounding error"),
        "reading.after.four": ("train a small model with different numbers of heads, read off what each head learned, "
                               "and remove one head to see which target it served"),
        "reading.after.induction": ("explain how two attention layers learn \"last time A was followed by B\", and find "
                                    "the two heads responsible by zeroing heads and cutting paths"),
        "reading.for.kv": ("why models share keys and values, what a KV cache saves in memory and time, and whether "
                           "sharing costs accuracy"),
        "reading.for.real": "where a pretrained model's heads actually look",
        "reading.for.decoder": "the site's grouped-query attention and KV cache inside a real language model, and what its 270 heads do",
        "reading.for.perf": "where attention spends its time, and how much faster each implementation is",
        "reading.for.faq": "checked answers to the source's 20 questions",
        "reading.for.roadmap": "what the next article covers, and what this site adds to the source",
        "reading.for.errata": "every claim the site checked, one row each",
        "reading.core_total": "The core path is {steps} steps, about {total} minutes.",
        "reading.step": "step {k}",
        "reading.sep": ", ",
        "reading.none": "none",
        "reading.rule": ("Times count what a page shows when it opens: {en} English words or {zh} Chinese characters a "
                         "minute, {code} seconds for every code block whose source is shown and {output} seconds more "
                         "for everything printed (a figure, a table or a sentence). Boxes that start collapsed, such as "
                         "solutions, are not counted, and the core path leaves out the exercises at the end of each page."),
        "reading.no_docs": ("Reading times are counted from the site's page sources, which a notebook does not have; "
                            "see this table on the site's home page."),
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
        "figs.path.pair": ("In the data path figure's layer (random initial weights, untrained), the pair that "
                           "differs most between heads: the query “{q}” gives the key “{k}” a weight of {w_hi} "
                           "in head {hi} and only {w_lo} in head "
                           "{lo}, a ratio of {times}; spread evenly over the {T} tokens, each would get {even}."),
        "roadmap.kv_done": ("Both recall tests, associative recall and MQAR with distractor tokens, have been run; "
                            "their results are on the key/value heads page."),
        "roadmap.kv_pending": ("The first recall test's results (associative recall) are on the key/value heads page; "
                               "the second's (MQAR with distractor tokens) are not on the site yet."),
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
        # snippets.schematics: diagrams drawn from the configuration they show
        "schem.layer.x": "input x: {shape}",
        "schem.layer.proj": "times W^Q, W^K, W^V (each {E}×{E}): Q, K, V, {shape} each",
        "schem.layer.split": "cut into {h} heads, q, k, v of width {d_k}: {shape}",
        "schem.layer.maps": "{h} attention maps, one per head: {shape}",
        "schem.layer.context": "each head mixes its v with its own weights: {shape}",
        "schem.layer.concat": "concatenated back into one vector: {shape}",
        "schem.layer.wo": "times W^O ({E}×{E}), which mixes the heads",
        "schem.layer.out": "output: {shape}",
        "schem.layer.alt": ("Diagram: one multi-head attention layer from input to output. The input x is multiplied "
                            "by W^Q, W^K and W^V, the results are cut into {h} heads of width {d_k}, one colour "
                            "each; every head computes its own {L}×{L} attention map and output, and the {h} "
                            "outputs are concatenated back to {E} features and multiplied by W^O."),
        "schem.layer.caption": ("One layer with {h} heads, read top to bottom. Each column is a head: its colour runs "
                                "from its columns of W^Q, W^K and W^V to its segment of the concatenation and its "
                                "rows of W^O (the paper's convention, as in the formulas below). The shapes come "
                                "from running this site's layer on the log line; the maps are that untrained "
                                "layer's real weights."),
        "schem.wo.concat": "concat {shape}",
        "schem.wo.terms": "split up: head i {head} · block i of W^O {block}, summed",
        "schem.wo.term": "head {i}",
        "schem.wo.bias": "bias b",
        "schem.wo.alt": ("Diagram: the concatenation times W^O equals a sum of {h} terms, head i's output {head} "
                         "times its own block {block} of W^O, plus the bias; colours mark the heads."),
        "schem.wo.caption": ("Concatenating and multiplying by W^O is each head going through its own block of W^O, "
                             "summed: head i's segment of the concatenation only ever meets the rows of W^O in its "
                             "colour. On this site's layer the two computations differ by at most {err}: "
                             "{verdict}."),
        "schem.groups.q": "query heads",
        "schem.groups.kv": "key/value heads",
        "schem.groups.alt": ("Diagram: which key/value head each of {h} query heads reads, for g = {gs}. In each "
                             "band the top row is the query heads and the bottom row the key/value heads; lines "
                             "show who reads what, colours mark the key/value heads."),
        "schem.groups.caption": ("Who shares keys and values. g key/value heads split the {h} query heads into g "
                                 "neighbouring groups, and query head i reads key/value head ⌊i/(h/g)⌋; the lines "
                                 "are computed with the repeat_interleave the layer uses. Only the bottom row "
                                 "goes into the cache."),
        "schem.cache.step": "step {t}",
        "schem.cache.q": "query (dropped)",
        "schem.cache.kv": "KV cache",
        "schem.cache.alt": ("Diagram: one grouped-query attention layer ({h} query heads, {g} key/value heads) "
                            "decoding {steps} positions one at a time. Each step's query is computed, used once "
                            "and dropped; the cached keys and values gain one row per step, the new row "
                            "coloured, the older rows grey."),
        "schem.cache.caption": ("The KV cache grows one row per decoded token. Each step computes q, k and v for "
                                "the new position only: k and v are appended to the cache (coloured), the earlier "
                                "rows are read again, not recomputed (grey); q is used once and not stored. Shapes "
                                "recorded at the last step: q {q}, that is (N, 1, E); cached keys {k}, that is "
                                "(N, g, S, d_k)."),
        "schem.mla.per_position": "numbers cached per position (h = {h}, d_k = {d_k})",
        "schem.mla.mha_size": "k and v: 2·h·d_k = {n}",
        "schem.mla.mla_size": "one latent c: d_c = {C}",
        "schem.mla.naive": "naive form",
        "schem.mla.absorbed": "absorbed form",
        "schem.mla.cache": "cache c: {shape}",
        "schem.mla.rebuild": "every step, all {S} rows again",
        "schem.mla.rebuild_what": "times W_uk → k, times W_uv → v",
        "schem.mla.rebuilt_shape": "each {shape}, then dropped",
        "schem.mla.naive_attend": "scores k and mixes v, as usual",
        "schem.mla.query": "query q: {shape}",
        "schem.mla.move": "each head times W_ukᵀ",
        "schem.mla.moved_shape": "a query d_c wide: {shape}",
        "schem.mla.on_latents": "scores and mixes the cached c",
        "schem.mla.like_mqa": "as in MQA: one head, d_c wide",
        "schem.mla.mixed": "weighted sum of c: {shape}",
        "schem.mla.after_mix": "times W_uv (can fold into W^O)",
        "schem.mla.out": "times W^O: the same output in both, {shape}",
        "schem.mla.alt": ("Diagram: MLA's latent and its two uses. At the top, what one position caches: MHA keeps "
                          "keys and values for {h} heads, {n} numbers; MLA keeps one latent c, d_c = {C} numbers. "
                          "Below on the left, the naive form: at every decode step all {S} cached latents go "
                          "through W_uk and W_uv to rebuild every head's keys and values, then attention runs as "
                          "usual. On the right, the absorbed form: the query is multiplied by W_ukᵀ into latent "
                          "space, scores and mixes the cached c directly, and W_uv comes after the mix. Both end "
                          "with W^O in the same output."),
        "schem.mla.caption": ("MLA caches the latent c, and both forms read the same cache. The naive form rebuilds "
                              "k and v for all {S} cached positions at every step (dashed box), so its work grows "
                              "with the sequence; the absorbed form moves W_uk to the query side and W_uv after "
                              "the mix, so scores and mixing run on c itself, d_c wide: MQA with a single shared "
                              "key/value head of width d_c. The shapes were recorded from this page's layer "
                              "(d_k = {d_k}, d_c = {C}) decoding {S} positions one at a time; the two forms' "
                              "outputs differ by at most {err}: {verdict}."),
        "schem.inproj.rows": "rows {lo}–{hi} = .chunk(3)[{m}]",
        "schem.inproj.heads": "head 0: rows 0–{a} … head {last}: {b}–{c}",
        "schem.inproj.alt": ("Diagram: nn.MultiheadAttention's in_proj_weight, shape ({E3}, {E}), cut by rows into three "
                             "parts, W_q, W_k and W_v, each ({E}, {E}); within each part the rows go to the {h} heads, "
                             "{d_k} rows each, one colour per head."),
        "schem.inproj.caption": ("The packed in_proj_weight: the three projections stacked on top of each other. "
                                 ".chunk(3) cuts it by rows into this site's W_q, W_k and W_v (the three parts are "
                                 "checked against what load_from_torch copies). Within each part head i owns the "
                                 "i-th group of {d_k} rows: PyTorch stores weights as (out, in), so rows."),
        "schem.reshape.x": "x: {shape}, {L} tokens of E features",
        "schem.reshape.view": ".view(N, L, h, d_k): {shape}, each token cut into {h} pieces, no data moved",
        "schem.reshape.transpose": ".transpose(1, 2): {shape}, heads first: {h} heads of {L} tokens",
        "schem.reshape.back": "back: .transpose(1, 2).contiguous().view(N, L, E) → {shape}",
        "schem.reshape.alt": ("Diagram: how the tensor is laid out when heads are split and merged. x is {x}; view cuts "
                              "each token's E features into {h} pieces; transpose(1, 2) moves the heads first, {split}; "
                              "transpose, contiguous and view bring it back to {x}. Colours mark the heads; the number "
                              "above each group is the outer index."),
        "schem.reshape.caption": ("Splitting is a new way of looking at the same numbers: .view moves no data, it only "
                                  "cuts each token's E features into {h} pieces; .transpose(1, 2) swaps the order of "
                                  "the indices, so the outer groups become {h} heads instead of {L} tokens and each "
                                  "head's matrix products run in one go. Merging walks back: .contiguous() lays the "
                                  "numbers out in the new order so that .view can join them. The number above each "
                                  "group is the outer index (token or head)."),
        "schem.average.heads": "average_attn_weights=False: one map per head, {shape}",
        "schem.average.mean": "the default (True): their mean over the heads, {shape}",
        "schem.average.alt": ("Diagram: the {h} per-head attention maps nn.MultiheadAttention gives on the log line, "
                              "flowing into one averaged map, which is the weights it returns by default."),
        "schem.average.caption": ("Where the default weights come from: the {h} heads' weights averaged over the head "
                                  "dimension (the mean drawn here is checked against the default return value). Which "
                                  "head looks where does not survive the average."),
        "schem.task.stream": "log stream: {L} events",
        "schem.task.readout": "position {p} must name",
        "schem.task.before": "{n} before: {event}",
        "schem.task.after": "{n} after: {event}",
        "schem.task.before.none": "{n} before: outside, not scored",
        "schem.task.after.none": "{n} after: outside, not scored",
        "schem.task.alt": ("Diagram: a log stream of {L} events, top to bottom. The event at position {p} is linked "
                           "to the events at offsets {offs}, and the {T} events it must name are listed on the right."),
        "schem.task.caption": ("What is learned: every position must name the events at offsets {offs}, all at once; "
                               "only position {p} is drawn. The answers are read from make_batch, which makes the "
                               "training data; targets that fall outside the stream are not scored. The readout's "
                               "{T} predictions each need information from a different position."),
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
        "figs.widget.summary": ("sharpness = {s}: one head gives the two places {a1} and {b1}, and the swap changes "
                                "its output by at most {d1}; two heads give {a2} and {b2}, and the swap changes their "
                                "output by at most {d2}."),
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
                                "freshly initialised 8-head layer (PyTorch's default initialisation, inputs drawn from a "
                                "standard normal) averages {mean} over its rows, and even its most "
                                "peaked row reaches {min}.",
        "faq.difference.exact": ("The largest difference is exactly 0: at this size the two ways happen to round "
                                 "identically. That is luck, not a rule: the same sum added up in another order "
                                 "rounds differently in its last bits, at the size of float32's machine epsilon "
                                 "({eps})."),
        "faq.difference.rounding": "The largest difference is {diff}, the size of float32 rounding (machine "
                                   "epsilon {eps}).",
        "faq.difference.more": "The largest difference is {diff}, more than float32 rounding (machine epsilon "
                               "{eps}).",
        "faq.permutation_sentence": "Without a mask the largest difference is {free}, the size of float32 "
                                    "rounding (machine epsilon {eps}); with a causal mask it is {causal}: "
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
        "ind.live_ids": ("Each character first becomes an id: its Unicode code point modulo {vocab}, the size of the "
                         "model's vocabulary. ASCII characters keep ids of their own and Chinese characters spread "
                         "over all {vocab}, but two characters can still share an id, `{a}` and `{b}` for instance. "
                         "The longest training sequences had {max} ids, so a text has at most {max} characters."),
        "ind.live_reader": ("Each of its training sequences has {min_len} to {max_len} ids (the length drawn at random), "
                            "with a stretch of a quarter to half its length (at least {min_seg} ids) written twice at a random place, "
                            "0 to {max_gap} ids "
                            "apart; the ids come from a small set drawn for each sequence, so they repeat within a copy "
                            "too, as letters do in a sentence. It trained for {steps} steps of {batch} sequences, "
                            "{cpu:.0f} CPU seconds on one thread. On {n_eval} held-out sequences of this kind it gets "
                            "{acc:.0%} of the second copy's predictable next ids right; its layer-0 head has a "
                            "previous-token score of {prev:.2f}, its layer-1 head a prefix-matching score of {prefix:.2f}."),
        "ind.live_bench": ("It is checked on texts the model never saw in training and nothing was tuned on: "
                           "{n_zh} Chinese and {n_en} English sentences of {short}–{long} characters, each typed "
                           "twice, some with punctuation or a space between the copies, some after other text. Of "
                           "the second copy's next characters that the first copy gives away, it gets {zh:.0%} "
                           "right in Chinese and {en:.0%} in English on average; its worst sentence, {lo:.0%}. "
                           "English falls short, and nearly all of the gap is in one place: where the current "
                           "character occurs only once before the second copy, it gets {zh_once:.0%} right in "
                           "Chinese and {en_once:.0%} in English; where it occurs more than once, {zh_sev:.0%} and "
                           "{en_sev:.0%}. Such positions are {en_share:.0%} of the English ones and only "
                           "{zh_share:.0%} of the Chinese. The model looks the current character up on its own, "
                           "and with several places to copy from it often copies the wrong one; whether a model "
                           "with more layer-0 heads would look up the last two characters was not tried."),
        "live.model": "Model",
        "live.text": "Text (up to {max} characters)",
        "live.example_en_button": "English example",
        "live.example_zh_button": "Chinese example",
        "live.example_en": "ERROR order-api timeout; ERROR order-api timeout",
        "live.example_zh": "错误：订单接口连接超时，正在第三次重试；错误：订单接口连接超时，正在第三次重试；",
        "live.ids": "Ids (code point modulo {vocab}): {ids}",
        "live.empty": "Type a text.",
        "live.heads": "Heads (untick one to switch it off)",
        "live.all_on": "All heads on",
        "live.head_label": "layer {layer}, head {head}",
        "live.role_prev": "previous-token head",
        "live.role_induction": "induction head",
        "live.scores": "previous-token score {prev}, prefix-matching score {prefix}",
        "live.off": "(off)",
        "live.summary": "{hits} of {total} next characters predicted.",
        "live.summary_none": "No next character guessed right: the induction head needs a stretch that repeats to copy from.",
        "live.summary_one": "One character: there is no next one to guess yet.",
        "live.hash_note": ("A guess like “#{id}” is an id: the model's next character has id {id}, and no character "
                           "of the text so far has that id, so there is no character to show."),
        "live.predictions": ("Under each character, the model's guess at the next one (pick a position to see its "
                             "attention: click it, or use Tab and ← →)"),
        "live.hit": "right",
        "live.miss": "wrong",
        "live.cell": "position {pos}, {ch}, guesses {pred} next",
        "live.attention": "Attention from position {pos} ({ch}): one row per head, one bar per position",
        "live.attends": "most on position {pos} ({ch}, {pct}%)",
        "live.nojs": "The live view needs JavaScript.",
        "live.error": "The live view's data could not be loaded ({status}); reload the page to try again.",
        "bench.scratch": "from scratch",
        "bench.mha_default": "fast path, weights",
        "bench.mha_no_weights": "training mode (SDPA)",
        "bench.mha_fastpath": "fast path, no weights",
        "bench.fast": "fused",
        "bench.best_official": "fastest nn.MHA",
        "bench.impls_head": ["Short name", "What it is", "Key in the code"],
        "bench.about_scratch": ("§3's hand-written `MultiHeadAttention`: computes QKᵀ and softmax explicitly, then "
                                "multiplies by V, storing every weight"),
        "bench.about_mha_default": ("`nn.MultiheadAttention` in `eval()`, `need_weights` left at its default `True`: "
                                    "the C++ fast path, which also returns the weights"),
        "bench.about_mha_fastpath": "the same layer in `eval()` with `need_weights=False`: still the fast path",
        "bench.about_mha_no_weights": ("the same layer left in training mode (dropout 0, so the same output), "
                                       "`need_weights=False`: it fails a fast-path condition, so the Python "
                                       "implementation runs, and it calls SDPA"),
        "bench.about_fast": "this page's `FastMultiHeadAttention`: one fused QKV projection, then SDPA",
        "bench.about_best_official": "at each length, whichever of the three nn.MHA configurations above has the lowest median time",
        "bench.word_lower": "faster",
        "bench.word_higher": "slower",
        "bench.word_lower_small": "faster, maybe by under {minimum}",
        "bench.word_higher_small": "slower, maybe by under {minimum}",
        "bench.word_negligible": "within {minimum}",
        "bench.word_none": "can't tell",
        "bench.rounds": ("The committed run timed {rounds} rounds (the default of `time_rounds` above is {d_rounds}) "
                         "at each of its {n} lengths ({lengths}), with samples of about {ms} ms. Every time below is "
                         "the median of those {rounds} samples, shown with its spread."),
        "bench.flop_head": ["L", "total GFLOP", "share of q kᵀ and weights·v", "N·h·L² weights (MiB)"],
        "bench.exponent": "exponent p (L={a}→{b})",
        "bench.matmul": ("Reference: a {n}×{n} float32 dense matmul on this machine, timed in the same rounds as the "
                         "implementations, reaches a median of **{gflops:.0f} GFLOP/s** over {samples} samples "
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
        "bench.undecided": "≈ undecided: the interval covers the target",
        "bench.goal_time": "fused time ÷ fastest nn.MHA time",
        "bench.goal_time_value": ("geometric mean of the per-round ratios [{level} interval], highest upper end at "
                                  "L={at}: {ratio}"),
        "bench.goal_time_undecided": "; the interval covers {bound} at L = {lengths}",
        "bench.goal_time_not_met": "; the whole interval is above {bound} at L = {lengths}",
        "bench.goal_speedup": "from-scratch time ÷ fused time",
        "bench.goal_speedup_value": "geometric mean of the per-round ratios [{level} interval]: {ratio} (L={at})",
        "bench.goal_memory": "exponent p in peak ∝ Lᵖ (fused / from scratch)",
        "bench.goal_memory_value": "{ratio:.2f} / {naive:.2f} (L={a}→{b})",
        "bench.goals_head": ["Goal", "Target", "Measured", "Verdict"],
        "bench.time_label": "Time (ms, median [25th–75th percentile])",
        "bench.throughput_label": "Throughput (GFLOP/s at the median time; in brackets, share of the matmul reference)",
        "bench.memory_label": "Peak memory (MiB)",
        "bench.pair_head": ["Comparison (first against second)", "L", "Time ratio [interval]", "Level (Holm)",
                            "Verdict"],
        "bench.ratio": "{ratio} [{low}–{high}]",
        "bench.pair_label": "{a} vs {b}",
        "bench.list_sep": ", ",
        "bench.name_sep": ", ",
        "bench.slope_item": "{name} (p = {p:.2f})",
        "bench.group_sep": "; ",
        # stats.verdict's four keys, for a time ratio (first / second)
        "bench.verdict_lower": "measurably faster",
        "bench.verdict_higher": "measurably slower",
        "bench.verdict_none": "no measurable difference",
        "bench.verdict_negligible": "under {minimum} apart: too small to matter",
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
        "provenance.others": ("During the measurement, other processes used {share} of the machine's CPU time "
                              "(at most {most} in any one run): {verdict}"),
        "provenance.others_none": ("During the measurement other processes used almost none of the CPU (under 0.5% "
                                   "in every run): the machine was close to idle."),
        "provenance.idle": "the machine was close to idle.",
        "provenance.busy": "the machine was not idle, so the timings are noisier.",
        "provenance.busy_training": "the machine was not idle, which slows training down but does not change its results.",
        "provenance.unmeasured": ("How much CPU other processes used was not recorded: this result predates "
                                  "that record, so whether the machine was idle was not checked; it must be "
                                  "measured again."),
        "provenance.runs": "Each run (1-min load average before → after; CPU used by other processes)",
        "provenance.run_item": "{run}: {before} → {after}, {share}",
        "provenance.runs_unmeasured": "not recorded (this result predates that record)",
        "provenance.runs_summary": ("{n} runs: load {before} before a run and {after} after; other processes used a "
                                    "median {median} of the CPU, at most {most} ({busiest}). Each run is recorded in "
                                    "the result file."),
        "provenance.runs_idle": ("{n} runs: load {before} before a run and {after} after; other processes used under "
                                 "0.5% of the CPU in every run. Each run is recorded in the result file."),
        "provenance.run_length": "L={L}",
        "provenance.run_rounds": "rounds {first}–{last}",
        "provenance.run_stack": "{layers} layers × {heads} {head_word}",
        "provenance.run_head": "head",
        "provenance.run_heads": "heads",
        "provenance.run_seed": "seed {seed}",
        "provenance.run_loss": " (final loss {loss} nats)",
        "provenance.run_sep": ", ",
        "num.paired": "{mean:+.2f} [{lo:+.2f}, {hi:+.2f}]",
        "num.spread": "{mean:.2f} ({lo:.2f}–{hi:.2f})",
        "provenance.duration": "Time the measurement took",
        "provenance.duration_value": "{minutes:.1f} min",
        "provenance.fingerprint": "Code fingerprint",
        "provenance.fingerprint_value": "`{fp}`, from the files below and the torch, numpy and Python versions{files}",
        "provenance.files_summary": "{n} files",
        "provenance.command": "Command to measure again",
        "buildbench.cold": "cold build (empty cache, --strict)",
        "buildbench.warm": "warm build (--strict)",
        "buildbench.no_exec": "build with code execution off (not strict)",
        "buildbench.serve": "mkdocs serve: edit to rebuilt page",
        "buildbench.ratio": "warm ÷ execution off (target ≤ 2)",
        "buildbench.head": ["Measurement", "Seconds", "Result"],
        "buildbench.ok": "✅ no errors",
        "buildbench.met": "met in this run",
        "buildbench.not_met": "not met in this run",
        "buildbench.runs": ("Each build time is a single run with no spread, not a median over rounds like the "
                            "attention benchmark above. The ratio of the warm build to the build with execution "
                            "off divides two single runs, so “met” says only that this one run was within the "
                            "target."),
        "buildbench.failed": "failed",
        "fast.case_self": "self-attention",
        "fast.case_causal": "is_causal=True vs a causal attn_mask",
        "fast.case_cross": "cross-attention, L≠S, with key_padding_mask",
        "fast.case_weights": "need_weights=True, per-head weights",
        "fast.ref_official": "nn.MultiheadAttention",
        "fast.ref_scratch": "from-scratch version",
        "kernels.head": ["Call (all under torch.no_grad())", "Attention kernel the profiler sees"],
        "kernels.case_default_no_weights": "default layer (batch_first=False), eval(), need_weights=False",
        "kernels.case_default_weights": "default layer (batch_first=False), eval(), need_weights=True (the default)",
        "kernels.case_first_no_weights": "batch_first=True, eval(), need_weights=False",
        "kernels.case_first_weights": "batch_first=True, eval(), need_weights=True",
        "kernels.case_first_cross": "batch_first=True, eval(), cross-attention, need_weights=False",
        "kernels.case_first_train": "batch_first=True, training mode, need_weights=False",
        "kernels.kernel_fast_path": "fast path: `_native_multi_head_attention`",
        "kernels.kernel_flash": "SDPA's flash kernel: `_scaled_dot_product_flash_attention_for_cpu`",
        "kernels.kernel_math": "SDPA's math kernel: `_scaled_dot_product_attention_math`",
        "kernels.kernel_bmm_softmax": "no SDPA: the weights computed with `bmm` and `softmax`",
        "kernels.cond_no_float_mask": ("neither `attn_mask` nor `key_padding_mask` is a floating-point mask "
                                       "(boolean is fine)"),
        "kernels.cond_enabled": "the switch `torch.backends.mha.get_fastpath_enabled()` is on (it is by default)",
        "kernels.cond_batched": "the input is batched, a 3-D tensor",
        "kernels.cond_self_attention": ("self-attention: `query`, `key` and `value` are the same tensor object "
                                        "(three equal tensors do not count)"),
        "kernels.cond_dtype": "the input's dtype matches that of `in_proj_weight` and `in_proj_bias`",
        "kernels.cond_in_proj": "the layer has the packed `in_proj_weight`",
        "kernels.cond_eval": "the layer is in `eval()` mode",
        "kernels.cond_even_heads": "the number of heads is even",
        "kernels.cond_batch_first": "`batch_first=True` (the default is `False`)",
        "kernels.cond_no_bias_kv": "no `add_bias_kv`",
        "kernels.cond_no_zero_attn": "no `add_zero_attn`",
        "kernels.cond_same_embed_dim": "`kdim` and `vdim` both equal `embed_dim`",
        "kernels.cond_nested_masks": "a nested-tensor input comes with no mask at all (neither `attn_mask` nor `key_padding_mask`)",
        "kernels.cond_no_autocast": "autocast is off",
        "kernels.cond_no_torch_function": "no tensor involved is a subclass that overrides `__torch_function__`",
        "kernels.cond_device": "every tensor is on the CPU, CUDA or a registered privateuse1 device",
        "kernels.cond_no_grad": ("autograd is off, or neither the input nor the projections' weights and biases "
                                 "require grad"),
        "kernels.cond_no_tracing": "no `make_fx` tracing is under way",
        "kernels.cond_bias": "the input projection has a bias (`bias=True`)",
        "notebooks.intro": (
            "This is the notebook for “{title}”: the same code as on the [web page]({url}), generated from the "
            "page and the site's lesson package, `snippets`."
        ),
        "notebooks.run": (
            "**Running a notebook.** Each notebook runs on its own, top to bottom:\n\n"
            "- **Jupyter**: in a Python 3.10+ environment, `pip install jupyterlab`, start `jupyter lab`, open the "
            "`.ipynb` and choose Run → Run All Cells.\n"
            "- **VS Code**: with the Python and Jupyter extensions installed, open the `.ipynb`, pick a Python 3.10+ "
            "interpreter under Select Kernel, then Run All.\n"
            "- **Colab**: File → Upload notebook, choose the `.ipynb`, then Runtime → Run all.\n\n"
            "The first code cell installs the lesson package, `snippets`, from the site with `%pip`, along with "
            "torch, numpy and matplotlib if they are missing (for a particular torch build, such as the CPU one, "
            "install it first: `pip install torch --index-url https://download.pytorch.org/whl/cpu`). In a clone "
            "of the site's repository, where `snippets` already imports, it installs nothing.\n\n"
            "**Experimenting.** A cell that defines a function or class holds the code the page shows, and the "
            "cells below that call it use that definition: edit it, run the cells below again, and their output "
            "follows. Helpers the page does not show come from `snippets`, as do the lesson functions the cells "
            "import; those keep calling the package's own copies."
        ),
        "notebooks.source": "Source in the repository",
        "notebooks.results_ready": "{n} result files ready.",
        "notebooks.setup_results": "The committed results this page uses (timings or training runs) were produced on the machine that builds the site, so the cell also downloads them from the site (JSON files served next to the package) rather than producing them again on yours.",
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
        "lab.model": "Model (layers × heads)",
        "lab.flatGroup": "One attention layer, no residual (d_model = 32 unless shown)",
        "lab.flatOption": "1 × {h} (d_k = {dk})",
        "lab.flatOptionWidth": "1 × {h} (d_k = {dk}, d_model = {dm})",
        "lab.stackGroup": "Residual stacks (d_k = 8, d_model = 32)",
        "lab.stackOption": "residual stack {n} × {h}",
        "lab.stackFfnOption": "residual stack {n} × {h} + FFN",
        "lab.seed": "Seed",
        "lab.oneSeed": "stacks come with seed {seed} only",
        "lab.oneSeedModel": "this model comes with seed {seed} only",
        "lab.layer": "Layer {n}",
        "lab.layerHead": "layer {layer} head {i}",
        "lab.layerHeadButton": "Layer {layer} head {i}, role {role}",
        "lab.layerHeadCells": "Layer {layer} head {i} attends to: {list}",
        "lab.attentionStack": ("Each layer's heads' attention from position {i} (grouped by layer; rows are heads, "
                               "columns the positions they look at)"),
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
        "errata.header": ["Page › section", "How the source puts it", "What the site found (links to the box)"],
        "errata.verbs": "Correction|Corrected|Correct|Erratum|Errata|Fix",
        "errata.none": "No claim of the source needs a box of its own at the moment.",
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
        "ind.task": ("Here every sequence has {seq_len} tokens, drawn from {vocab} ids, and $L$ is drawn uniformly "
                     "from {lo} to {hi}. On the random positions the best possible guess still costs about "
                     "ln {vocab} = {chance:.2f} nats."),
        "ind.setting_1_4": "1 layer × 4 heads",
        "ind.setting_2_1": "2 layers × 1 head",
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
        "ui.permalink": "Permanent link",
        "ui.search_dialog": "Search",
        "ui.not_found": ["404 - Page not found",
                         "There is no page at this address: the link may be wrong, or the page was renamed.",
                         "Go to the home page"],
        "ui.space_after_sentence": " ",
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
        "kvheads.list_and": " and ",
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
        "kvheads.decode_judged": "{ratio} ({level} interval), {verdict}",
        "kvheads.decode_copies": ("At L = {L}, time per token without head copies over with them (Holm-corrected "
                                  "together with the ratios below, {family} in all): {parts}."),
        "kvheads.decode_smaller": ("At L = {L}, {small} caches {kib_small} KiB, {share:.1%} of the {kib_big} KiB of "
                                   "{big}. Its time per token over that of {big}: with the cache and head copies "
                                   "{cache}; with the cache and no copies {cache_grouped}; without a cache "
                                   "{no_cache}."),
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
        # snippets.symbols: the legend of the size letters
        "symbols.title": "Symbols",
        "symbols.colon": ": ",
        "symbols.N": "batch size",
        "symbols.L": "query length (tokens)",
        "symbols.S": "key length",
        "symbols.E": "= `d_model`, the model's width",
        "symbols.h": "number of heads",
        "symbols.d_k": "= E / h, one head's width",
        # snippets.homefig: the WordPieces in the home figure's caption
        "figs.home.pieces": ("The model reads WordPieces, the sub-word pieces its tokenizer cuts text into: a "
                             "piece that continues a word starts with ##, so {word} is read as {pieces}; [CLS] and "
                             "[SEP] are markers the model adds at the start and end of every input."),
        "figs.home.join": " + ",
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
    },
}

# Entries written the same way in both languages on purpose (code names, symbols).
SAME_IN_BOTH = frozenset({
    "figs.home.join",
    "live.example_en", "live.example_zh",  # the live view's example texts: the reader may pick either
    "fast.ref_official", "bert.sep", "bert.cls", "bert.short.prev", "bert.short.next", "bert.short.sep",
    "bert.short.cls", "bert.short.broad", "bert.short.other",
    "kvheads.mha", "kvheads.gqa", "kvheads.mqa", "kvheads.mla", "kvheads.decode_speedup_part",
    "kvheads.flops_kind.mha", "kvheads.flops_kind.gqa", "kvheads.flops_kind.mqa",
    "kvheads.dec_kind.MHA", "kvheads.dec_kind.GQA", "kvheads.dec_kind.MQA", "kvheads.dec_kind.MLA",
    "figs.path.split", "figs.path.merge", "figs.params.dk", "figs.params.h", "figs.widget.sharpness",
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
    if not values:
        return entry
    # every number a Chinese page prints is typeset (snippets.numfmt), whether or not the template has Chinese in it
    return _Counts(page_numbers=lang == "zh" or bool(_CJK.search(entry))).format(entry, **values)


class _Counts(string.Formatter):
    """str.format with one more format spec, for counts that may be zero: {k:SOME|NONE} writes SOME with
    each # replaced by k, or NONE when k is 0, so a template can say "没有一个" / "none" instead of "0 个"."""

    def __init__(self, page_numbers: bool = False):
        super().__init__()
        self.page_numbers = page_numbers
        self.values: dict = {}

    def vformat(self, format_string, args, kwargs):
        self.values = kwargs
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value, format_spec):
        if "|" not in format_spec:
            out = super().format_field(value, format_spec)
            if self.page_numbers and isinstance(value, numbers.Real) and not isinstance(value, bool):
                out = typeset(out)
            return out
        some, none, *every = format_spec.split("|", 2)
        if isinstance(value, bool) or not hasattr(value, "__index__") or value < 0:
            raise ValueError(f"a {{k:SOME|NONE}} field expects a count (an integer >= 0), got {value!r}")
        if every:  # {k:SOME|NONE|ALL=n}: ALL when k is all n
            words, _, total = every[0].rpartition("=")
            if total not in self.values:
                raise ValueError(f"a {{k:SOME|NONE|ALL=n}} field names its total n, got {format_spec!r}")
            if value == self.values[total] and value > 0:
                return words.replace("#", str(value.__index__()))
        return none if value == 0 else some.replace("#", str(value.__index__()))



_CJK = re.compile(r"[\u4e00-\u9fff]")


def fill(template: str, **values) -> str:
    """template.format(**values), where a field {k:SOME|NONE} gives its own wording to k == 0, and
    {k:SOME|NONE|ALL=n} also to k == n (all of them), so no sentence says "10 个里，10 个".

    In a Chinese template every number field is written as pages write numbers
    (snippets.numfmt.typeset: the minus sign −, no sign on a rounded zero, 1×10⁻⁵ for 1e-05).

    >>> fill("{n} 个种子里{k:有 # 个|没有一个}学会", n=10, k=0)
    '10 个种子里没有一个学会'
    >>> fill("{k:# of|none of} the {n} seeds, {acc:.0%}", n=10, k=3, acc=0.5)
    '3 of the 10 seeds, 50%'
    >>> fill("{n} 个种子{k:里有 # 个学会|里没有一个学会|全部学会=n}", n=10, k=10)
    '10 个种子全部学会'
    >>> fill("相差 {d:+.1f} 个百分点，p = {p:.1g}", d=-16.24, p=1.2e-5)
    '相差 −16.2 个百分点，p = 1×10⁻⁵'
    """
    return _Counts(page_numbers=bool(_CJK.search(template))).format(template, **values)

def texts(lang: str, area: str) -> dict[str, str | list[str]]:
    """Every entry of one area, without the prefix: texts('en', 'bench')['fast'] == 'fused QKV + SDPA'."""
    prefix = f"{area}."
    found = {k[len(prefix):]: v for k, v in TEXT[check_lang(lang)].items() if k.startswith(prefix)}
    if not found:
        raise ValueError(f"expected an area of snippets.i18n.TEXT, got {area!r}")
    return found
