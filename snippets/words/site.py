"""Words printed into pages: site (see snippets.i18n)."""

ZH = {
    # snippets.i18n.and_list
    "list.sep": "、",
    "list.and": " 和 ",
    # sitebuild.benchreport.provenance_table: where a committed measurement came from
    "provenance.head": ["项目", "值"],
    "provenance.date": "测量时间",
    "provenance.commit": "代码版本（提交）",
    "provenance.dirty": "（另有未提交的改动）",
    "provenance.machine": "机器",
    "provenance.machine_value": "{cpu}，{cores} 个核，SIMD 指令集 {simd}",
    "provenance.threads": "运行时的线程数",
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
    "provenance.run_accuracy": "（可预测的编号猜中 {acc}）",
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
        "**改代码做实验**：定义函数或类的单元格就是网页上展示的代码，单元格末尾的 `use_definitions` 让下面的"
        "单元格，以及它们调用的课程代码（表格、图、报告），都用这份定义。改动它，重新运行这个单元格和下面的单元格，"
        "输出就跟着变；改回去，又回到网页上的结果。改动期间，课程代码缓存的计算结果不再使用，要用时当场重新算。"
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
    "notebooks.try": "# 先在这里自己试一试，再看下面折叠起来的答案",
    # sitebuild.hooks.fold_reports: the boxes a report's code and a provenance table fold into
    "fold.code": "代码：由 `{name}` 打印",
    "fold.provenance": "这组数据怎样测得：机器、命令、来源",
    "correction.quote": "原文：",
    # the first edit each notebook suggests (tests/test_notebook_download.py makes these edits and checks the effect)
    "notebooks.edit.article/3-pytorch": (
        "**先改一处试试**：在 `scaled_dot_product_attention` 里删掉 `/ math.sqrt(d_k)`，重新运行这个单元格和"
        "它下面的单元格：和 PyTorch 对照的那张表会变成 ❌。改回来再运行一遍，又会全是 ✅。"
    ),
    "notebooks.edit.lab/induction-heads": (
        "**先改一处试试**：在 `AttentionOnly.forward` 里把 `(layer, h) not in ablate` 改成 "
        "`(layer, h) not in ablate and h != 0`，让每一层的 0 号头什么也不写，重新运行这个单元格和它下面的单元格："
        "示例序列下面那句话里，模型猜对的词元数会掉到 0。"
    ),
    "notebooks.edit.lab/kv-heads": (
        "**先改一处试试**：在 `PreallocatedKVCache.append` 里把 `self.k_buf[:, :, self.size:S] = k` 改成 "
        "`self.k_buf[:, :, self.size + 1:S + 1] = k`，让新的键写错一行，重新运行这个单元格和它下面的单元格："
        "有缓存和没有缓存的对照表里会出现 ❌。"
    ),
    "notebooks.edit.lab/kv-heads-accuracy": (
        "**先改一处试试**：在 `make_recall_batch` 里把 `y[:, 2 * n:] = values.gather(1, order)` 改成 "
        "`y[:, 2 * n:] = values`，让答案不再跟着打乱后的提问顺序走，重新运行这个单元格和它下面的单元格："
        "示例序列第二行的答案就和第一行问的键对不上了。"
    ),
    "notebooks.use": "# 下面的单元格和它们调用的课程代码都用这些定义：改一处，往下运行就能看到变化",
    "notebooks.hidden": "**{title}**（单元格已折叠，自己试过之后再展开）",
    "ui.permalink": "永久链接",
    "ui.search_dialog": "搜索",
    "ui.not_found": ["404 - 找不到这个页面", "这个地址上没有页面：链接可能写错了，或者页面已经改名。", "回到首页"],
    "ui.space_after_sentence": "",
}

EN = {
    # snippets.i18n.and_list
    "list.sep": ", ",
    "list.and": " and ",
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
    "provenance.run_accuracy": " ({acc} of the predictable ids right)",
    "provenance.run_sep": ", ",
    "num.paired": "{mean:+.2f} [{lo:+.2f}, {hi:+.2f}]",
    "num.spread": "{mean:.2f} ({lo:.2f}–{hi:.2f})",
    "provenance.duration": "Time the measurement took",
    "provenance.duration_value": "{minutes:.1f} min",
    "provenance.fingerprint": "Code fingerprint",
    "provenance.fingerprint_value": "`{fp}`, from the files below and the torch, numpy and Python versions{files}",
    "provenance.files_summary": "{n} files",
    "provenance.command": "Command to measure again",
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
        "`use_definitions` line at its end makes the cells below, and the lesson code they call (tables, "
        "figures, reports), use that definition: edit it, run that cell and the cells below again, and their "
        "output follows; undo the edit and it is the page's again. While an edit is in use, results the lesson "
        "code had cached are computed again, when they are needed."
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
    "notebooks.try": "# Try it here first, then open the collapsed answer below",
    # sitebuild.hooks.fold_reports: the boxes a report's code and a provenance table fold into
    "fold.code": "Code: printed by `{name}`",
    "fold.provenance": "How these numbers were measured: machine, command, source",
    "correction.quote": "The source:",
    # the first edit each notebook suggests (tests/test_notebook_download.py makes these edits and checks the effect)
    "notebooks.edit.article/3-pytorch": (
        "**A first edit to try**: in `scaled_dot_product_attention`, delete `/ math.sqrt(d_k)` and run that cell "
        "and the cells below it again. The table that checks the layer against PyTorch turns ❌; undo the edit "
        "and it is all ✅ again."
    ),
    "notebooks.edit.lab/induction-heads": (
        "**A first edit to try**: in `AttentionOnly.forward`, change `(layer, h) not in ablate` to "
        "`(layer, h) not in ablate and h != 0`, so that head 0 of every layer writes nothing, and run that cell "
        "and the cells below it again. Under the example sequence, the count of tokens the model gets right "
        "drops to 0."
    ),
    "notebooks.edit.lab/kv-heads": (
        "**A first edit to try**: in `PreallocatedKVCache.append`, change `self.k_buf[:, :, self.size:S] = k` "
        "to `self.k_buf[:, :, self.size + 1:S + 1] = k`, which writes each new key one row too far, and run that "
        "cell and the cells below it again. The table comparing decoding with and without the cache shows ❌."
    ),
    "notebooks.edit.lab/kv-heads-accuracy": (
        "**A first edit to try**: in `make_recall_batch`, change `y[:, 2 * n:] = values.gather(1, order)` to "
        "`y[:, 2 * n:] = values`, so that the answers no longer follow the shuffled order of the questions, and "
        "run that cell and the cells below it again. In the example sequence, the answers on the second line "
        "no longer match the keys asked on the first."
    ),
    "notebooks.use": "# the cells below (and the lesson code they call) use these definitions",
    "notebooks.hidden": "**{title}** (the code cells are collapsed: try it yourself before you open them)",
    "ui.permalink": "Permanent link",
    "ui.search_dialog": "Search",
    "ui.not_found": ["404 - Page not found",
                     "There is no page at this address: the link may be wrong, or the page was renamed.",
                     "Go to the home page"],
    "ui.space_after_sentence": " ",
}
