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
EN_PAIR = ("nn.MHA fast path without weights against nn.MHA training → SDPA (in brackets, the time ratio with its "
           "interval, Holm-corrected over all 8 comparisons as in the table): measurably slower at L = 2048 "
           "(1.500 [1.457–1.544]); no measurable difference at L = 1024 (1.005 [0.980–1.030]).")
ZH_PAIR = ("nn.MHA 快速路径不返回权重对比 nn.MHA 训练模式 → SDPA（括号里是用时之比及其区间，与上表一样按全部 8 组比较"
           "做了 Holm 校正）：L = 2048（1.500 [1.457–1.544]）时测得更慢；L = 1024（1.005 [0.980–1.030]）时没有可测的差别。")
EN_SCRATCH = ("fused QKV + SDPA against from scratch (in brackets, the time ratio with its interval, Holm-corrected over "
              "all 8 comparisons as in the table): measurably faster at L = 1024 (0.333 [0.313–0.355]), 2048 "
              "(0.333 [0.314–0.354]).")
ZH_SCRATCH = ("融合 QKV + SDPA 对比从零手写（括号里是用时之比及其区间，与上表一样按全部 8 组比较做了 Holm 校正）："
              "L = 1024（0.333 [0.313–0.355]）、2048（0.333 [0.314–0.354]）时测得更快。")
EN_ROWS = ("| nn.MHA fast path without weights vs nn.MHA training → SDPA | 1024 | 1.005 [0.980–1.030] | 98.33% | "
           "no measurable difference |\n|  | 2048 | 1.500 [1.457–1.544] | 99.17% | measurably slower |")
ZH_ROWS = ("| 融合 QKV + SDPA 对比三种 nn.MHA 中最快的 | 1024 | 1.000 [0.964–1.037] | 98.33% | 没有可测的差别 |\n"
           "|  | 2048 | 1.000 [0.964–1.037] | 98.33% | 没有可测的差别 |")
GOAL_ROW = ("| fused QKV + SDPA time ÷ fastest nn.MHA | ≤ 1.05 | geometric mean of the per-round ratios [95% interval], "
            "highest upper end at L=2048: 1.050 [1.021–1.080]; the interval covers 1.05 at L = 2048 | "
            "≈ undecided: the interval covers the target |")
GOAL_ROW_OVER = ("| 融合 QKV + SDPA 的用时 ÷ 最快的 nn.MHA | ≤ 1.05 | 逐轮用时之比的几何平均 [95% 区间]，L=2048 时上限最高："
                 "1.200 [1.167–1.234]；L = 2048 时整个区间高于 1.05 | ❌ 未达成 |")
WHICH_EN = [
    "- Time: nn.MHA fast path without weights against nn.MHA training → SDPA (in brackets, the time ratio with its "
    "interval, Holm-corrected over all 8 comparisons as in the table): measurably slower at L = 1024 "
    "(1.100 [1.069–1.132]), 2048 (1.100 [1.070–1.131]).",
    "- Memory: at L=2048, from scratch, nn.MHA fast path with weights, nn.MHA fast path without weights store "
    "the L×L weights and peak at 12.0–16.0 MiB; nn.MHA training → SDPA, fused QKV + SDPA do not, and peak at "
    "2.0 MiB.",
    "- The cost of the from-scratch version: at L=2048 it takes 3.00 [2.85–3.16] times as long as fused QKV + SDPA "
    "(geometric mean of the per-round ratios [98.33% interval]), and its peak memory is 8× as much."]
WHICH_ZH = [
    "- 用时：nn.MHA 快速路径不返回权重对比 nn.MHA 训练模式 → SDPA（括号里是用时之比及其区间，与上表一样按全部 8 组比较"
    "做了 Holm 校正）：L = 1024（1.100 [1.069–1.132]）、2048（1.100 [1.070–1.131]）时测得更慢。",
    "- 内存：L=2048 时，存下 L×L 权重的有从零手写、nn.MHA 快速路径返回权重、nn.MHA 快速路径不返回权重，"
    "峰值 12.0–16.0 MiB；没有存的有 nn.MHA 训练模式 → SDPA、融合 QKV + SDPA，峰值 2.0 MiB。",
    "- 从零手写的代价：L=2048 时，它的用时是融合 QKV + SDPA 的 3.00 [2.85–3.16] 倍（逐轮之比的几何平均 [98.33% 区间]），"
    "峰值内存是后者的 8 倍。"]


def test_interval_is_the_spread_of_the_samples():
    assert tuple(br.interval([4.0, 1.0, 3.0, 2.0, 5.0])) == (3.0, 2.0, 4.0)
    with pytest.raises(ValueError, match="at least two positive samples"):
        br.interval([1.0])


def test_paired_ratio_is_exp_of_the_t_interval_on_log_ratios():
    a, b = [2.0, 4.2, 6.0, 7.8, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0]
    logs = np.log(np.array(a) / np.array(b))  # per-round log ratios
    half = stats.t_quantile(0.975, 4) * logs.std(ddof=1) / np.sqrt(5)
    want = np.exp([logs.mean(), logs.mean() - half, logs.mean() + half])
    assert tuple(br.paired_ratio(a, b)) == pytest.approx(tuple(want))
    assert tuple(br.paired_ratio(a, b)) == pytest.approx((2.0094, 1.9432, 2.0779), abs=1e-4)
    assert tuple(br.paired_ratio(b, a)) == pytest.approx((1 / want[0], 1 / want[2], 1 / want[1]))  # reciprocal
    assert tuple(br.paired_ratio([2.0, 4.0, 6.0, 8.0, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0])) == pytest.approx((2, 2, 2))


def test_paired_ratio_recovers_a_known_ratio():
    rng = np.random.default_rng(1)
    load = rng.lognormal(0, 0.3, 25)  # a load shared by both in each round, far larger than the ratio's noise
    b = 0.01 * load * rng.lognormal(0, 0.03, 25)
    a = 1.2 * 0.01 * load * rng.lognormal(0, 0.03, 25)
    r = br.paired_ratio(a, b)
    assert r.low < 1.2 < r.high and r.high - r.low < 0.06 and r.median == pytest.approx(1.2, abs=0.02)
    assert br.interval(a).low < br.interval(b).high  # the spreads overlap; pairing still sees the 20%
    # Over many data sets with the true ratio 1.2, the 95% interval covers it about 95% of the time.
    covered = 0
    for _ in range(400):
        load = rng.lognormal(0, 0.3, 25)
        r = br.paired_ratio(1.2 * load * rng.lognormal(0, 0.03, 25), load * rng.lognormal(0, 0.03, 25))
        covered += r.low <= 1.2 <= r.high
    assert 364 <= covered <= 396, covered  # 95% of 400 is 380; this allows about ±2.9 standard errors


def test_a_family_of_ratios_is_holm_corrected():
    """Three ratios, all clear of 1: Holm tests them at 0.05/3, 0.05/2 and 0.05, smallest p first, and prints
    each interval at that level (the one with the smallest p widest)."""
    b = [1.0, 2.0, 3.0, 4.0, 5.0]
    fam = br.ratio_family([([2.0, 4.2, 6.0, 7.8, 10.0], b),  # 2.01×, p tiny
                           ([1.5, 3.3, 4.4, 6.3, 7.4], b),  # 1.5×, noisier
                           ([1.1, 2.3, 3.2, 4.5, 5.4], b)])  # 1.1×, noisier still
    assert [f.verdict for f in fam] == ["higher"] * 3
    assert [round(f.level, 4) for f in fam] == [0.9833, 0.975, 0.95] and {f.family for f in fam} == {3}
    assert fam[0].p < fam[1].p < fam[2].p < 0.05
    one = br.paired_ratio([2.0, 4.2, 6.0, 7.8, 10.0], b, level=1 - 0.05 / 3)  # the same interval, on its own
    assert tuple(fam[0].ratio) == pytest.approx(tuple(one))
    assert br.level_text(fam[0].level) == "98.33%" and br.level_text(fam[1].level) == "97.5%"
    # when the first step fails, every interval is printed at its level, 1 - 0.05/3, and every verdict is "none"
    none = br.ratio_family([(b, b[::-1]), ([1.1, 1.9, 3.2, 3.9, 5.1], b)])
    assert [f.verdict for f in none] == ["none", "none"] and {round(f.level, 4) for f in none} == {0.975}


def test_a_difference_under_the_minimum_is_negligible():
    """Clear of 1 but within 5% either way: measurable, too small to matter; reaching past 5%: a difference."""
    b = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    small = [1.02 * x * f for x, f in zip(b, (1.001, 0.999, 1.0, 1.002, 0.998, 1.0), strict=True)]
    big = [1.10 * x * f for x, f in zip(b, (1.001, 0.999, 1.0, 1.002, 0.998, 1.0), strict=True)]
    fam = br.ratio_family([(small, b), (b, small), (big, b)])
    assert [f.verdict for f in fam] == ["negligible", "negligible", "higher"]
    assert br.ratio_family([(small, b)], minimum=1.0)[0].verdict == "higher"  # with no minimum it is a difference
    assert br.MINIMUM == 1.05
    data = synthetic({"scratch": flat(3.0), "mha_default": flat(1.2), "mha_no_weights": flat(1.0),
                      "mha_fastpath": flat(1.02), "fast": flat(1.0)})
    assert ("| nn.MHA fast path without weights vs nn.MHA training → SDPA | 1024 | 1.020 [0.993–1.047] | 98.75% | "
            "no measurable difference |") in br.comparison_table(data, "en")  # noisier rounds: the interval covers 1


def test_verdict_from_where_the_interval_lies():
    assert br.judge(br.Interval((0.96, 0.94, 0.98))) == "below"
    assert br.judge(br.Interval((1.10, 1.05, 1.12))) == "above"
    assert br.judge(br.Interval((1.01, 0.98, 1.03))) == "covers"
    assert br.judge(br.Interval((0.99, 0.97, 1.0))) == "covers"  # touching 1 is not clear of it
    assert br.judge(br.Interval((1.02, 1.00, 1.04)), 1.05) == "below"  # a goal's bound instead of 1
    assert br.judge(br.Interval((1.04, 1.03, 1.06)), 1.05) == "covers"
    with pytest.raises(ValueError, match="bound must be a positive number"):
        br.judge(br.Interval((1.0, 0.9, 1.1)), 0)


def test_paired_ratio_rejects_mismatched_rounds():
    five = [1.0, 2.0, 3.0, 4.0, 5.0]
    with pytest.raises(ValueError, match="same rounds for both contenders.*got 6 samples against 5"):
        br.paired_ratio(five + [6.0], five)
    with pytest.raises(ValueError, match="at least 5 positive times \\(one per round\\) in b"):
        br.paired_ratio(five, [1.0, 0.0, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="at least 5 positive times"):
        br.paired_ratio([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="one positive bound per ratio"):
        br.ratio_family([(five, five)], bounds=[1.0, 1.5])
    data = synthetic({i: flat(1.0) for i in IMPLS})
    data["rows"][0]["samples"] = data["rows"][0]["samples"][:-1]  # one round lost from one contender
    with pytest.raises(ValueError, match="same rounds for both contenders"):
        br.comparison_table(data, "en")


def test_pair_sentences_from_paired_intervals():
    times = {"scratch": flat(3.0), "mha_default": flat(1.2), "mha_no_weights": flat(1.0),
             "mha_fastpath": {1024: 1.005, 2048: 1.5}, "fast": flat(1.0)}
    data = synthetic(times)
    en = br.pair_sentence(data, "en", "mha_fastpath", "mha_no_weights")
    assert en == EN_PAIR
    zh = br.pair_sentence(data, "zh", "mha_fastpath", "mha_no_weights")
    assert zh == ZH_PAIR
    assert br.pair_sentence(data, "en", "fast", "scratch") == EN_SCRATCH
    assert br.pair_sentence(data, "zh", "fast", "scratch") == ZH_SCRATCH
    listed = br.pair_sentences(data, "en").splitlines()
    assert len(listed) == len(br.PAIRS) and f"- {en}" in listed
    table = br.comparison_table(data, "en")
    assert EN_ROWS in table
    assert ZH_ROWS in br.comparison_table(data, "zh")


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
        "nn.MHA fast path with weights (p = 2.00), nn.MHA fast path without weights (p = 2.00), and about linearly "
        "(p ≤ 1.2) for nn.MHA training → SDPA (p = 1.00), fused QKV + SDPA (p = 1.00). At L=2048, from scratch "
        "holds the most (16.0 MiB) and nn.MHA training → SDPA the least (2.0 MiB).")
    assert br.memory_sentence(data, "zh") == (
        "在 L=1024→2048 之间，峰值内存近似按平方增长（p ≥ 1.5）的有：从零手写（p = 2.00）、"
        "nn.MHA 快速路径返回权重（p = 2.00）、nn.MHA 快速路径不返回权重（p = 2.00）；"
        "近似线性增长（p ≤ 1.2）的有：nn.MHA 训练模式 → SDPA（p = 1.00）、融合 QKV + SDPA（p = 1.00）。"
        "L=2048 时占得最多的是从零手写（16.0 MiB），最少的是 nn.MHA 训练模式 → SDPA（2.0 MiB）。")
    assert br.which_sentences("en", data, at=2048).splitlines() == WHICH_EN
    assert br.which_sentences("zh", data, at=2048).splitlines() == WHICH_ZH


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
                "| Code fingerprint | `ea84bbb084192d33834b2b624046a90e`, from these files and the torch, numpy and "
                "Python versions: `snippets/bench.py`, `snippets/fast.py` |",
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
