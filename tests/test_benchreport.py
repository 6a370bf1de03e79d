"""The performance page's verdicts come from paired intervals, and every sentence it prints reads whole.

Each comparison is the geometric mean of the per-round time ratios with exp of Student's t interval on
their logs (snippets.stats); the ratios a table prints together are Holm-corrected as one family, and
the verdict is snippets.stats.verdict's, with 5% as the smallest difference that matters. The interval
is checked on data with a known ratio; the synthetic sweeps below have a known ratio per pair, a load
shared by every contender in a round (which pairing cancels) and a little noise of each contender's own. The sentence
tests spell out each printed sentence in full, in both languages: a template that loses its words (as
"…91 GFLOP/s, which is 100% below." once did) fails here, where a reader of the test sees the whole
sentence.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from conftest import ROOT
from snippets import benchreport as br
from snippets import stats
from snippets.bench import IMPLS

SHARED = (1.0, 1.25, 0.9, 1.1, 1.0, 1.3, 0.95, 1.05, 1.15)  # load in each round, the same for every contender
OWN = (0.97, 1.02, 0.99, 1.03, 1.0, 0.98, 1.01, 0.96, 1.04)  # each contender's own noise, rotated per contender


def samples(t: float, k: int) -> list[float]:
    """Round-ordered samples of a contender with median time about t; k picks its rotation of OWN."""
    own = OWN[2 * k % len(OWN):] + OWN[:2 * k % len(OWN)]
    return [t * s * o for s, o in zip(SHARED, own, strict=True)]


def synthetic(times: dict[str, dict[int, float]], peaks: dict[str, dict[int, int]] | None = None) -> dict:
    """A sweep result with the given typical seconds per impl and length, in len(SHARED) interleaved rounds."""
    lengths = sorted(next(iter(times.values())))
    rows = []
    for L in lengths:
        for k, impl in enumerate(IMPLS):
            peak = (peaks or {}).get(impl, {}).get(L, 1000 * L)
            rows.append({"impl": impl, "L": L, "samples": samples(times[impl][L], k),
                         "flops": 2 * 10**9, "peak_bytes": peak})
    return {"params": {"lengths": lengths, "N": 1, "d_model": 768, "num_heads": 12, "rounds": len(SHARED),
                       "min_sample_time": 0.05, "num_threads": 1},
            "rows": rows, "matmul": {"n": 1024, "flops": 2 * 1024**3,
                                     "samples": [2 * 1024**3 / 50e9 * f for f in (0.98, 0.99, 1.0, 1.01, 1.02)]}}


def flat(value: float, lengths=(1024, 2048)) -> dict[int, float]:
    return {L: value for L in lengths}


# What the synthetic sweeps below print, worked out from SHARED and OWN (the per-round ratios are exact, and their
# geometric mean is the ratio the sweep was built with, since OWN's rotations have the same product).
EN_ROWS = ("| fast path, no weights vs training mode (SDPA) | 1024 | 1.005 [0.980–1.030] | 98.33% | "
           "can't tell |\n|  | 2048 | 1.500 [1.457–1.544] | 99.17% | slower |")
ZH_ROWS = ("| 融合版对比最快的 nn.MHA 配置 | 1024 | 1.000 [0.964, 1.037] | 98.33% | 分不出 |\n"
           "|  | 2048 | 1.000 [0.964, 1.037] | 98.33% | 分不出 |")  # an interval is [a, b] on zh pages
GOAL_ROW = ("| fused time ÷ fastest nn.MHA time | ≤ 1.05 | geometric mean of the per-round ratios [95% interval], "
            "highest upper end at L=2048: 1.050 [1.021–1.080]; the interval covers 1.05 at L = 2048 | "
            "≈ undecided: the interval covers the target |")
GOAL_ROW_OVER = ("| 融合版用时 ÷ 最快的 nn.MHA 配置用时 | ≤ 1.05 | 逐轮用时之比的几何平均 [95% 置信区间]，L=2048 时上限最高："
                 "1.200 [1.167, 1.234]；L = 2048 时整个区间高于 1.05 | ❌ 未达成 |")


def test_comparison_table_words_each_verdict_once():
    """The comparison table is where the page prints each comparison, its verdict in one short word."""
    times = {"scratch": flat(3.0), "mha_default": flat(1.2), "mha_no_weights": flat(1.0),
             "mha_fastpath": {1024: 1.005, 2048: 1.5}, "fast": flat(1.0)}
    data = synthetic(times)
    table = br.comparison_table(data, "en")
    assert EN_ROWS in table
    assert ZH_ROWS in br.comparison_table(data, "zh")
    assert "| fused vs from scratch | 1024 | 0.333 [0.313–0.355] | 99.38% | faster |" in table
    assert not hasattr(br, "pair_sentences") and not hasattr(br, "which_sentences")  # printed once, not retold


def test_time_goal_met_missed_and_undecided():
    base = {"scratch": flat(3.0), "mha_default": flat(1.2), "mha_no_weights": flat(1.0), "mha_fastpath": flat(1.1)}
    verdict = lambda fast: br.goals(synthetic(base | {"fast": fast}))[0]["verdict"]  # noqa: E731
    assert verdict(flat(0.9)) == "met"  # well below 1.05 × the best official
    assert verdict({1024: 0.9, 2048: 1.2}) == "not_met"  # clearly above 1.05× at one length
    assert verdict({1024: 0.9, 2048: 1.05}) == "undecided"  # on the bound, within the noise
    g = br.goals(synthetic(base | {"fast": {1024: 0.9, 2048: 1.05}}))[0]
    assert g["per_length"] == {1024: "met", 2048: "undecided"} and g["at"] == 2048
    assert g["ratio"].low < 1.05 < g["ratio"].high and g["family"] == 3  # two lengths and the speedup
    assert g["level"] == 0.95  # Holm's last step: the other two were clear of their bounds
    assert GOAL_ROW in br.goals_table(synthetic(base | {"fast": {1024: 0.9, 2048: 1.05}}), "en")
    assert GOAL_ROW_OVER in br.goals_table(synthetic(base | {"fast": {1024: 0.9, 2048: 1.2}}), "zh")


def test_speedup_and_memory_goals():
    base = {"mha_default": flat(1.2), "mha_no_weights": flat(1.0), "mha_fastpath": flat(1.1), "fast": flat(1.0)}
    peaks = {"scratch": {1024: 1024**2, 2048: 2048**2}}
    speed = lambda s: br.goals(synthetic(base | {"scratch": flat(s)}, peaks))[1]  # noqa: E731
    assert speed(3.0)["verdict"] == "met" and speed(3.0)["ratio"].median == pytest.approx(3.0)
    assert speed(1.2)["verdict"] == "not_met"
    assert speed(1.5)["verdict"] == "undecided"
    memory = br.goals(synthetic(base | {"scratch": flat(3.0)}, peaks))[2]
    assert memory["verdict"] == "met" and memory["ratio"] == pytest.approx(1.0) and memory["naive"] == pytest.approx(2)
    flat_scratch = br.goals(synthetic(base | {"scratch": flat(3.0)}))[2]
    assert flat_scratch["verdict"] == "not_met"  # the naive version would have to grow quadratically


def test_printed_sentences_read_whole_in_both_languages():
    """Every sentence the page prints from a template, in full: no template may lose its words."""
    base = {"scratch": flat(3.0), "mha_default": flat(1.2), "mha_no_weights": flat(1.0), "mha_fastpath": flat(1.1),
            "fast": flat(1.0)}
    peaks = {"scratch": {1024: 4 * 2**20, 2048: 16 * 2**20}, "mha_default": {1024: 3 * 2**20, 2048: 12 * 2**20},
             "mha_fastpath": {1024: 3 * 2**20, 2048: 12 * 2**20}, "mha_no_weights": {1024: 2**20, 2048: 2 * 2**20},
             "fast": {1024: 2**20, 2048: 2 * 2**20}}
    data = synthetic(base, peaks)
    assert br.matmul_sentence(data, "en") == (
        "Reference: a 1024×1024 float32 dense matmul on this machine, timed in the same rounds as the implementations, "
        "reaches a median of **50 GFLOP/s** over 5 samples (interquartile range 50–51). The percentages in the "
        "throughput table are shares of that median.")
    assert br.matmul_sentence(data, "zh") == (
        "参照：本机 1024×1024 float32 稠密矩阵乘法，和各个实现在同样的轮次里轮流计时，5 个样本的中位数是 "
        "**50 GFLOP/s**（四分位距 50–51）。吞吐表括号里的百分比，都是相对这个中位数而言的。")
    assert br.memory_sentence(data, "en") == (
        "Between L=1024 and L=2048, peak memory grows about quadratically (p ≥ 1.5) for from scratch (p = 2.00), "
        "fast path, weights (p = 2.00), fast path, no weights (p = 2.00), and about linearly "
        "(p ≤ 1.2) for training mode (SDPA) (p = 1.00), fused (p = 1.00). At L=2048, from scratch "
        "holds the most (16.0 MiB) and training mode (SDPA) the least (2.0 MiB).")
    assert br.memory_sentence(data, "zh") == (
        "在 L=1024→2048 之间，峰值内存近似按平方增长（p ≥ 1.5）的有：手写版，p = 2.00；"
        "快速路径（返回权重），p = 2.00；快速路径（不返回权重），p = 2.00。"
        "近似线性增长（p ≤ 1.2）的有：训练模式（走 SDPA），p = 1.00；融合版，p = 1.00。"
        "L=2048 时占得最多的是手写版（16.0 MiB），最少的是训练模式（走 SDPA）（2.0 MiB）。")


RUNS = [{"run": "L=128", "seconds": 50.0, "load_before": [1.02, 1.1, 1.2], "load_after": [1.04, 1.1, 1.2],
         "others_cpu": 0.02},
        {"run": "L=256", "seconds": 60.0, "load_before": [1.04, 1.1, 1.2], "load_after": [2.51, 1.5, 1.3],
         "others_cpu": 0.31}]
RESULT = {"provenance": {
    "result": "bench-full", "command": "python -m sitebuild.results bench", "date": "2026-11-30 10:40 UTC",
    "commit": "55edf0791676", "uncommitted_changes": True, "fingerprint": "ea84bbb084192d33834b2b624046a90e",
    "fingerprint_covers": {"modules": ["snippets.bench"], "files": ["snippets/bench.py", "snippets/fast.py"],
                           "packages": ["torch", "numpy"]},
    "machine": {"cpu": "Intel(R) Xeon(R) Processor", "cores": 2, "threads": 1, "simd": "AVX512"},
    "torch": "2.13.0+cpu", "python": "3.11.7", "load_before": [3.5, 2.96, 2.2], "load_after": [2.0, 2.5, 2.4],
    "others_cpu": 0.17, "runs": RUNS, "wall_seconds": 450.0}, "data": {}}


def test_provenance_is_rendered_next_to_the_numbers():
    en = br.provenance_table("en", "bench-full", RESULT)
    for row in ["| Measured | 2026-11-30 10:40 UTC |", "| Commit | `55edf0791676` (plus uncommitted changes) |",
                "| Machine | Intel(R) Xeon(R) Processor, 2 cores, SIMD level AVX512 |", "| Benchmark threads | 1 |",
                "| Software | torch 2.13.0+cpu, Python 3.11.7 |",
                "| Load on the machine | load average (1 / 5 / 15 min) 3.50 / 2.96 / 2.20 at the start, 2.00 / 2.50 / "
                "2.40 at the end. During the measurement, other processes used 17% of the machine's CPU time (at most "
                "31% in any one run): the machine was not idle, so the timings are noisier. |",
                "| Each run (1-min load average before → after; CPU used by other processes) | L=128: 1.02 → 1.04, 2%; "
                "L=256: 1.04 → 2.51, 31% |",
                "| Time the measurement took | 7.5 min |",
                "| Code fingerprint | `ea84bbb084192d33834b2b624046a90e`, from the files below and the torch, numpy and "
                "Python versions<details><summary>2 files</summary><code>snippets/bench.py</code>, "
                "<code>snippets/fast.py</code></details> |",
                "| Command to measure again | `python -m sitebuild.results bench` |"]:
        assert row in en
    zh = br.provenance_table("zh", "bench-full", RESULT)
    assert ("| 机器负载 | 平均负载（1 / 5 / 15 分钟）开始时 3.50 / 2.96 / 2.20，结束时 2.00 / 2.50 / 2.40。"
            "测量期间，别的进程占用了整台机器 CPU 时间的 17%（各次运行中最多 31%），机器并不空闲，计时噪声会偏大。 |") in zh
    assert "| 每次运行（1 分钟平均负载，运行前 → 运行后；别的进程占用的 CPU） | L=128：1.02 → 1.04，2%；L=256：1.04 → 2.51，31% |" in zh
    assert "| 代码版本（提交） | `55edf0791676`（另有未提交的改动） |" in zh
    quiet = [r | {"others_cpu": 0.03} for r in RUNS]
    idle = RESULT | {"provenance": RESULT["provenance"] | {"uncommitted_changes": False, "others_cpu": 0.02,
                                                           "runs": quiet}}
    idle_en = br.provenance_table("en", "bench-full", idle)
    assert "(at most 3% in any one run): the machine was close to idle." in idle_en
    assert "| Commit | `55edf0791676` |" in br.provenance_table("en", "bench-full", idle)
    with pytest.raises(ValueError, match="expected a committed result at"):
        br.provenance_table("en", "nope")


def test_a_result_without_a_load_record_says_so():
    """Results measured before the load was recorded (a flag, not a check) are printed as unchecked, not as idle."""
    old = {"provenance": {k: v for k, v in RESULT["provenance"].items() if k not in ("others_cpu", "runs")}
           | {"shared_machine": False}, "data": {}}
    en = br.provenance_table("en", "bench-full", old)
    assert ("at the end. How much CPU other processes used was not recorded: this result predates that record, so "
            "whether the machine was idle was not checked; it must be measured again. |") in en
    assert "| not recorded (this result predates that record) |" in en
    assert "No other jobs" not in en and "idle." not in en
    assert "测量期间机器是否空闲并未核实，需要重新测量。 |" in br.provenance_table("zh", "bench-full", old)
    for lang in ("zh", "en"):  # the committed files build, whichever kind they are
        assert br.provenance_table(lang, "bench-full").count("\n") >= 10
        assert "| 4096 |" in br.full_sweep_tables(lang) and br.build_table(lang).count("✅") >= 4


def test_cjk_spacing():
    assert br.cjk_spacing("是 从零手写（16.0 MiB） 对比 nn.MHA：L = 2048 时") == "是从零手写（16.0 MiB）对比 nn.MHA：L = 2048 时"
    assert br.cjk_spacing("a  b (c) d") == "a  b (c) d"


def test_tables_and_figures_from_the_committed_sweep():
    data = br.bench_sweep()["data"]
    assert data["params"]["lengths"] == [128, 256, 512, 1024, 2048, 4096]
    assert len(data["rows"]) == 6 * len(IMPLS) and all(len(r["samples"]) == data["params"]["rounds"]
                                                        for r in data["rows"])
    for lang in ("zh", "en"):
        tables = br.full_sweep_tables(lang)
        assert tables.count("\n| 4096 |") == 3  # time, throughput, memory
        figs = br.full_sweep_figures(lang)
        assert figs.count("<svg") == 2


def test_committed_sweep_verdicts_come_from_the_paired_intervals():
    """The committed sweep read the paired way, Holm-corrected over the comparison table's 24 ratios."""
    data = br.bench_sweep()["data"]
    family = br.comparisons(data)
    assert len(family) == 24 and {r.family for r in family.values()} == {24}
    got = {k: r.verdict for k, r in family.items()}
    assert got["mha_fastpath", "mha_no_weights", 128] == "lower" and got["mha_fastpath", "mha_no_weights", 512] == "higher"
    assert got["mha_default", "mha_fastpath", 4096] == "higher"
    # Under 5% and clear of 1: the bootstrap had called these faster / slower / faster.
    assert [got["mha_fastpath", "mha_no_weights", 256], got["fast", "best_official", 128],
            got["fast", "best_official", 256]] == ["negligible"] * 3
    assert got["fast", "best_official", 1024] == got["fast", "best_official", 4096] == "none"
    r = family["fast", "best_official", 256]
    assert br.ratio_text("en", r.ratio) == "0.987 [0.976–0.998]" and br.level_text(r.level) == "98.33%"
    assert [g["verdict"] for g in br.goals(data)] == ["met", "met", "met"]
    for lang, words in (("zh", ("Holm", "几何平均", "5%")), ("en", ("Holm", "geometric mean", "5%"))):
        page = (ROOT / "docs" / "lab" / f"performance.{lang}.md").read_text(encoding="utf-8")
        assert all(w in page for w in words) and "bootstrap" not in page and "5000" not in page


def test_runs_cell_lists_a_few_runs_and_summarises_many():
    run = lambda i, share: {"run": f"r{i}", "load_before": [0.5 + i, 0, 0], "load_after": [1.0 + i, 0, 0],  # noqa: E731
                            "others_cpu": share}
    few = {"runs": [run(0, 0.01), run(1, 0.02)]}
    assert br.runs_cell("en", few) == "r0: 0.50 → 1.00, 1%; r1: 1.50 → 2.00, 2%"
    many = {"runs": [run(i, 0.01 * (i == 7) + 0.002) for i in range(br.RUNS_LISTED + 1)]}
    assert br.runs_cell("en", many) == (
        "13 runs: load 0.50–12.50 before a run and 1.00–13.00 after; other processes used a median 0% of the CPU, "
        "at most 1% (r7). Each run is recorded in the result file.")
    assert "共 13 次：运行前负载 0.50–12.50，运行后 1.00–13.00" in br.runs_cell("zh", many)


def test_rounds_sentence_prints_the_committed_round_count_next_to_the_shown_default():
    """The page's one count of rounds is the committed run's (every sample of the run), not time_rounds' default."""
    import inspect

    from snippets.bench import FULL, time_rounds

    data = br.bench_sweep()["data"]
    rounds = data["params"]["rounds"]
    assert rounds == FULL["rounds"] and all(len(r["samples"]) == rounds for r in data["rows"])
    default = inspect.signature(time_rounds).parameters["rounds"].default
    assert rounds != default  # the sentence exists because the shown default is not what was run
    en = br.rounds_sentence("en")
    assert en.startswith(f"The committed run timed {rounds} rounds (the default of `time_rounds` above is {default}) "
                         "at each of its 6 lengths (128, 256, 512, 1024, 2048, 4096), with samples of about 50 ms.")
    assert en.endswith(f"the median of those {rounds} samples, shown with its spread.")
    zh = br.rounds_sentence("zh")
    assert f"各测了 {rounds} 轮（上面 `time_rounds` 的默认值是 {default} 轮）" in zh and "128、256、512" in zh
    fake = {"params": dict(data["params"], rounds=7, lengths=[64])}
    assert br.rounds_sentence("en", fake).startswith("The committed run timed 7 rounds")
    with pytest.raises(ValueError, match="lang must be"):
        br.rounds_sentence("fr")


def test_faster_or_slower_alone_only_beyond_the_five_percent_band():
    """A verdict of a difference whose interval also reaches inside ±5% says the difference may be smaller."""
    data = br.bench_sweep()["data"]
    table = br.comparison_table(data, "en")
    assert "| fast path, weights vs fast path, no weights | 128 | 1.038 [1.025–1.052] | 99.55% | slower, maybe by " \
           "under 5% |" in table
    assert "| 0.964 [0.943–0.987] | 99.29% | faster, maybe by under 5% |" in table
    assert "|  | 4096 | 1.109 [1.100–1.119] | 99.75% | slower |" in table  # wholly beyond 5%: the plain word
    assert "更慢，但可能不到 5%" in br.comparison_table(data, "zh")
    for r in br.comparisons(data).values():  # the plain words only where the whole interval is beyond 5%
        word = br._verdict_word("en", r.verdict, r.ratio)
        if word == "faster":
            assert r.ratio.high <= 1 / br.MINIMUM
        if word == "slower":
            assert r.ratio.low >= br.MINIMUM
def test_load_rows_say_zero_once_and_warn_about_timings_only_for_timings():
    run = lambda label, share: {"run": label, "load_before": [1.0, 0, 0], "load_after": [1.5, 0, 0],  # noqa: E731
                                "others_cpu": share}
    idle = {"others_cpu": 0.001, "load_before": [1, 1, 1], "load_after": [2, 2, 2],
            "runs": [run("rounds 1-5", 0.001), run("rounds 6-10", 0.002)]}
    zh = br.load_sentence("zh", idle)
    assert "0%" not in zh and "不到 0.5%" in zh and "机器基本空闲" in zh
    assert br.runs_cell("zh", idle) == ("共 2 次：运行前负载 1.00–1.00，运行后 1.50–1.50；别的进程占用的 CPU 每次都不到 0.5%。"
                                        "每次的记录在结果文件里。")
    busy = {**idle, "others_cpu": 0.3, "runs": [run("2 layers x 4 heads seed 5: 0.350 nats", 0.58),
                                                run("2 layers x 1 heads seed 0: 0.750 nats", 0.01)]}
    assert "计时噪声" in br.load_sentence("zh", busy, timed=True)
    training = br.load_sentence("zh", busy, timed=False)
    assert "计时" not in training and "不影响训练出的结果" in training
    cell = br.runs_cell("zh", busy)
    assert "2 层 × 4 个头，种子 5（最终损失 0.350 奈特）：1.00 → 1.50，58%" in cell
    assert not re.search(r"layers|heads|seed|nats|rounds", cell)
    assert "2 layers × 1 head, seed 0 (final loss 0.750 nats)" in br.runs_cell("en", busy)
    # which committed results are timings: the ones whose page compares times
    assert br.TIMED <= {p.stem for p in (ROOT / "results").glob("*.json")}


def test_quick_table_prints_sample_counts_and_peak_memory_but_no_times():
    samples = {i: [0.001 * (k + 1)] * 3 for k, i in enumerate(IMPLS)}
    peaks = {"scratch": 640 * 1024, "mha_default": 448 * 1024, "mha_no_weights": 192 * 1024,
             "mha_fastpath": 352 * 1024, "fast": 166 * 1024}
    en = br.quick_table(samples, peaks, 128, 64, 4, "en")
    assert "| from scratch | 3 | 640 |" in en and "| fused | 3 | 166 |" in en
    assert "held 474 KiB more at its peak than the fused one" in en
    assert "the 4 heads' 128×128 float32 weights take 256 KiB" in en
    assert "0.001" not in en and "0.005" not in en  # times would make two builds differ
    zh = br.quick_table(samples, peaks, 128, 64, 4, "zh")
    assert "| 手写版 | 3 | 640 |" in zh and "多 474 KiB" in zh and "一共 256 KiB" in zh
    with pytest.raises(ValueError, match="same number of samples"):
        br.quick_table(samples | {"fast": [0.1]}, peaks, 128, 64, 4, "en")
    with pytest.raises(ValueError, match="expected samples and peak bytes"):
        br.quick_table({"scratch": [0.1]}, peaks, 128, 64, 4, "en")


def test_quick_run_on_the_page_measures_every_implementation():
    from snippets.bench import make_impls, peak_bytes, threads, time_rounds

    impls = make_impls(N=1, L=64, d_model=32, num_heads=4)
    samples = time_rounds(impls, rounds=2, min_sample_time=0.001)
    assert {k: len(v) for k, v in samples.items()} == {i: 2 for i in IMPLS}
    with threads(1):
        peaks = {name: peak_bytes(fn) for name, fn in impls.items()}
    # from scratch keeps the scores and the softmax output, two (1, 4, 64, 64) float32 maps, at once
    assert peaks["scratch"] >= 2 * 4 * 64 * 64 * 4 > peaks["fast"]
