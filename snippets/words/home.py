"""Words printed into pages: home (see snippets.i18n)."""

ZH = {
    # snippets.reading: the home page's core path and deep dives, with reading times
    "reading.core_header": ["步", "页面", "分钟", "读完能做什么"],
    "reading.deep_header": ["页面", "分钟", "先读", "读它是为了弄清"],
    "reading.title.article/1-single-head": "一、单头的局限",
    "reading.title.article/2-divide-and-conquer": "二、分而治之",
    "reading.title.article/3-pytorch": "三、PyTorch 实现",
    "reading.title.article/4-what-if": "四、假设实验",
    "reading.title.article/4b-second-round": "四（下）、到底需要几个头",
    "reading.title.lab/induction-heads": "归纳头",
    "reading.title.lab/kv-heads": "需要几个键/值头",
    "reading.title.lab/kv-heads-accuracy": "共享键/值头会损失准确率吗",
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
    "reading.after.induction": "讲清两层注意力怎样学会“上次 A 后面是 B”，并用置零和切断路径找出起作用的两个头",
    "reading.for.kv": "为什么共享的是键和值、KV 缓存省下多少内存和时间、MLA 又要多算多少",
    "reading.for.kvacc": "键/值头少了，小模型在联想回忆任务上答得还准不准，MLA 呢",
    "reading.for.real": "一个预训练模型的头实际在看哪里",
    "reading.for.decoder": "本站的分组查询注意力和 KV 缓存装进一个真实的语言模型，它的每个头各在做什么",
    "reading.for.perf": "注意力慢在哪里，各种实现快多少",
    "reading.for.secondround": "头数、每个头的维数和层数分开来变时，第四节的任务到底要几个头，前馈网络又改变了什么",
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
}

EN = {
    # snippets.reading: the home page's core path and deep dives, with reading times
    "reading.core_header": ["step", "page", "minutes", "afterwards you can"],
    "reading.deep_header": ["page", "minutes", "read first", "read it to learn"],
    "reading.title.article/1-single-head": "1. The limits of one head",
    "reading.title.article/2-divide-and-conquer": "2. Divide and conquer",
    "reading.title.article/3-pytorch": "3. The PyTorch implementation",
    "reading.title.article/4-what-if": "4. What if",
    "reading.title.article/4b-second-round": "4b. What really needs heads",
    "reading.title.lab/induction-heads": "Induction heads",
    "reading.title.lab/kv-heads": "How many key/value heads?",
    "reading.title.lab/kv-heads-accuracy": "Does sharing key/value heads cost accuracy?",
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
    "reading.for.kv": ("why models share keys and values, what a KV cache saves in memory and time, and what "
                       "MLA costs in arithmetic"),
    "reading.for.kvacc": "whether small models with fewer key/value heads, or with MLA, still recall accurately",
    "reading.for.real": "where a pretrained model's heads actually look",
    "reading.for.decoder": "the site's grouped-query attention and KV cache in a real language model, and its heads",
    "reading.for.perf": "where attention spends its time, and how much faster each implementation is",
    "reading.for.secondround": "how many heads section 4's task needs when heads, width and depth vary one at a time",
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
}
