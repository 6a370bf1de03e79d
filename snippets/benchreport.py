"""The performance page's tables, sentences and plots, from the committed measurements.

The measuring half (what is timed, how) is ``snippets.bench``; its samples are committed in
``results/bench-full.json``, and the build timings in ``results/buildbench.json`` (both written by
``python -m sitebuild.results``). This half reads them and formats, in the page's language (strings
from ``snippets.i18n``). Nothing here is timed while the site builds.

A contender's spread is the interquartile range of its per-round samples (``interval``), shown in the
tables and plots; comparisons are not drawn from it. The rounds are interleaved (every contender gives
one sample per round), so a comparison pairs them: round i of a over round i of b. A time's noise is a
factor, so the ratio is the geometric mean of those per-round ratios and its interval is exp of
Student's t interval on their logs (``paired_ratio``, ``snippets.stats.ratio_interval``). The ratios a
page prints together (the comparison table, the goals) are one family each, Holm-corrected
(``ratio_family``, ``snippets.stats.compare_family``), every interval printed at the level its step used.
The verdict is ``snippets.stats.verdict``'s, on the log scale: a is measurably faster or slower than b
when the interval lies wholly below or above 1 and reaches past MINIMUM (5%) either way; an interval
that excludes 1 but stays within 5% is a difference too small to matter; one that covers 1 is "no
measurable difference". A goal's bound is judged the same way, the bound in place of 1.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import resultcache

from . import stats
from .bench import FULL, IMPLS, OFFICIAL, attention_flops
from .figures import Figure, svg_figure
from .i18n import check_lang, text, texts
from .tables import md_table

__all__ = [
    "Interval", "interval", "paired_ratio", "Ratio", "ratio_family", "comparisons", "level_text", "judge", "bench_sweep", "measurement", "memory_slope", "provenance_table",
    "flop_table", "time_table", "throughput_table", "memory_table", "matmul_sentence", "comparison_table",
    "memory_sentence", "goals", "goals_table", "time_figure", "memory_figure",
    "full_sweep_tables", "full_sweep_figures", "build_table", "build_results_table", "load",
    "PAIRS", "ratio_text", "impl_table", "cjk_spacing", "load_sentence", "runs_cell", "rounds_sentence",
    "quick_table",
]

def load(name: str, results_dir: Path | None = None) -> dict:
    """{"provenance": ..., "data": ...} of the committed result results/<name>.json."""
    if not isinstance(name, str) or not name or "/" in name:
        raise ValueError(f"expected the name of a committed result such as 'bench-full', got {name!r}")
    # results/ in a checkout, the downloaded copies elsewhere (a notebook run from the lesson wheel)
    path = (resultcache.results_dir() if results_dir is None else Path(results_dir)) / f"{name}.json"
    if not path.is_file():
        raise ValueError(f"expected a committed result at {path}; measure it with `python -m sitebuild.results`")
    return json.loads(path.read_text(encoding="utf-8"))

# Which contenders the page compares: (a, b) reads "a against b".
PAIRS = (("mha_fastpath", "mha_no_weights"), ("mha_default", "mha_fastpath"), ("fast", "best_official"),
         ("fast", "scratch"))
TIME_GOAL, SPEEDUP_GOAL, SPEEDUP_AT = 1.05, 1.5, 2048
LEVEL = stats.LEVEL  # 95%, before the correction over a family
# The smallest difference in time that matters here: a ratio between 1 / MINIMUM and MINIMUM (under 5% either
# way) that excludes 1 is measurable but negligible (stats.verdict's minimum, on the log scale).
MINIMUM = 1.05


class Interval(tuple):
    """(median, q1, q3) of samples; q1 and q3 are the 25th and 75th percentiles."""

    __slots__ = ()

    @property
    def median(self) -> float:
        return self[0]

    @property
    def low(self) -> float:
        return self[1]

    @property
    def high(self) -> float:
        return self[2]

    def scaled(self, factor: float) -> Interval:
        return Interval((self[0] * factor, self[1] * factor, self[2] * factor))


def interval(samples: Sequence[float]) -> Interval:
    """Median and interquartile range of at least two samples.

    >>> tuple(interval([1.0, 2.0, 3.0, 4.0, 5.0]))
    (3.0, 2.0, 4.0)
    """
    samples = list(samples)
    if len(samples) < 2 or any(not isinstance(s, (int, float)) or s <= 0 for s in samples):
        raise ValueError(f"expected at least two positive samples, got {samples!r}")
    q1, _, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return Interval((statistics.median(samples), q1, q3))


def _rounds(a: Sequence[float], b: Sequence[float]) -> tuple[list[float], list[float]]:
    a, b = list(a), list(b)
    for name, s in (("a", a), ("b", b)):
        if len(s) < stats.MIN_SEEDS or any(isinstance(x, bool) or not isinstance(x, (int, float)) or not x > 0
                                           for x in s):
            raise ValueError(f"expected at least {stats.MIN_SEEDS} positive times (one per round) in {name}, "
                             f"got {s!r}")
    if len(a) != len(b):
        raise ValueError(f"expected the same rounds for both contenders (one sample each per round), "
                         f"got {len(a)} samples against {len(b)}")
    return a, b


def paired_ratio(a: Sequence[float], b: Sequence[float], level: float = LEVEL) -> Interval:
    """Geometric mean over rounds of a[i] / b[i], with exp of the t interval on the log ratios.

    a and b are the per-round samples of two contenders timed in the same interleaved rounds, so
    round i of one is paired with round i of the other (``snippets.stats.ratio_interval``). Returns
    Interval((ratio, low, high)); b over a is exactly its reciprocal.

    >>> tuple(round(x, 3) for x in paired_ratio([2.0, 4.2, 6.0, 7.8, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0]))
    (2.009, 1.943, 2.078)
    """
    if not isinstance(level, float) or not 0 < level < 1:
        raise ValueError(f"expected a coverage level between 0 and 1 such as 0.95, got {level!r}")
    return Interval(stats.ratio_interval(*_rounds(a, b), level))


@dataclass(frozen=True)
class Ratio:
    """One time ratio of a family: geometric mean [interval] at `level` (Holm's level for its step), and
    the verdict of ``snippets.stats.verdict`` on the log scale: "higher" (above its bound: a slower than b),
    "lower", "none" (no measurable difference) or "negligible" (it excludes the bound by less than MINIMUM)."""

    ratio: Interval
    level: float
    verdict: str
    family: int  # how many ratios the correction covered
    p: float


def ratio_family(pairs: Sequence[tuple[Sequence[float], Sequence[float]]], bounds: Sequence[float] | None = None,
                 minimum: float = MINIMUM, level: float = LEVEL) -> list[Ratio]:
    """Paired time ratios a / b that a page prints together, Holm-corrected over them.

    Each ratio is held against its bound (1 unless given: a against b; a goal's bound otherwise):
    ``snippets.stats.compare_family`` on the per-round log a - log b - log bound. A ratio within
    1 / minimum … minimum times its bound that still excludes it is "negligible" (minimum=1: none is).

    >>> a, b = [2.0, 4.2, 6.0, 7.8, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0]
    >>> fam = ratio_family([(a, b), (b, a), (b, b)])
    >>> [f.verdict for f in fam], [round(f.level, 4) for f in fam]
    (['higher', 'lower', 'none'], [0.9833, 0.975, 0.95])
    """
    checked = [_rounds(a, b) for a, b in pairs]
    bounds = [1.0] * len(checked) if bounds is None else list(bounds)
    if len(bounds) != len(checked) or any(isinstance(x, bool) or not isinstance(x, (int, float)) or not x > 0
                                          for x in bounds):
        raise ValueError(f"expected one positive bound per ratio ({len(checked)}), got {bounds!r}")
    if isinstance(minimum, bool) or not isinstance(minimum, (int, float)) or not minimum >= 1:
        raise ValueError(f"minimum must be a ratio of at least 1 (1.05 = 5%), got {minimum!r}")
    family = stats.compare_family([(np.log(b) + math.log(bound), np.log(a))
                                   for (a, b), bound in zip(checked, bounds, strict=True)],
                                  level, math.log(minimum))
    return [Ratio(Interval((bound * math.exp(c.mean), bound * math.exp(c.lo), bound * math.exp(c.hi))), c.level,
                  c.verdict, c.family, c.p) for c, bound in zip(family, bounds, strict=True)]


def level_text(level: float) -> str:
    """An interval's level as printed: 95%, 97.5%, 99.79%.

    >>> level_text(0.95), level_text(0.975), level_text(1 - 0.05 / 24)
    ('95%', '97.5%', '99.79%')
    """
    return f"{100 * level:.2f}".rstrip("0").rstrip(".") + "%"


def judge(ratio: Interval, bound: float = 1.0) -> str:
    """Where one ratio's interval lies against bound: "below", "above", or "covers" (no measurable difference),
    as ``snippets.stats.verdict`` decides it (with no minimum). The distances to the bound are rounded to 12
    decimals first, so that the round-off of log and exp on noiseless data (every round the same) decides nothing.

    >>> judge(Interval((0.96, 0.94, 0.98))), judge(Interval((1.0, 0.99, 1.02)))
    ('below', 'covers')
    >>> judge(Interval((1.1, 1.05, 1.12)), bound=1.05)
    'covers'
    """
    if not isinstance(bound, (int, float)) or isinstance(bound, bool) or not bound > 0:
        raise ValueError(f"bound must be a positive number, got {bound!r}")
    if not isinstance(ratio, Interval):
        raise ValueError(f"expected an Interval (median, low, high), got {ratio!r}")
    lo, hi = (round(x / bound - 1, 12) for x in (ratio.low, ratio.high))
    return {"lower": "below", "higher": "above", "none": "covers"}[stats.verdict(lo, hi)]


def bench_sweep() -> dict:
    """The committed full sweep: {"provenance": ..., "data": ...}."""
    return load("bench-full")


def rounds_sentence(lang: str, data: dict | None = None) -> str:
    """How many rounds and how long a sample the committed sweep used, next to time_rounds' shown defaults."""
    import inspect

    from .bench import time_rounds

    check_lang(lang)
    p = (bench_sweep()["data"] if data is None else data)["params"]
    shown = inspect.signature(time_rounds).parameters
    lengths = text(lang, "bench.list_sep").join(str(L) for L in p["lengths"])
    return cjk_spacing(text(lang, "bench.rounds", rounds=p["rounds"], ms=round(p["min_sample_time"] * 1000),
                            n=len(p["lengths"]), lengths=lengths, d_rounds=shown["rounds"].default))


def measurement(data: dict, impl: str, L: int) -> dict:
    """The row of a sweep for one implementation at one length, with its interval added."""
    for r in data["rows"]:
        if r["impl"] == impl and r["L"] == L:
            return r | {"time": interval(r["samples"])}
    raise ValueError(f"no measurement for impl={impl!r}, L={L}; lengths are {data['params']['lengths']}")


def _best_official(data: dict, L: int) -> str:
    return min(OFFICIAL, key=lambda i: measurement(data, i, L)["time"].median)


def memory_slope(data: dict, impl: str) -> float:
    """Exponent p in peak ∝ L^p between the two largest lengths (1 = linear, 2 = quadratic)."""
    L1, L2 = data["params"]["lengths"][-2:]
    m1, m2 = (measurement(data, impl, L)["peak_bytes"] for L in (L1, L2))
    return math.log(m2 / m1) / math.log(L2 / L1)


_CJK = f"{chr(0x4E00)}-{chr(0x9FFF)}"  # CJK ideographs
_FULL = "".join(map(chr, (0xFF08, 0xFF09, 0xFF0C, 0x3002, 0xFF1A, 0xFF1B, 0x3001, 0x201C, 0x201D)))  # （），。：；、“”


def cjk_spacing(sentence: str) -> str:
    """A sentence filled from a template, spaced as Chinese text is: a space between Chinese and Latin
    letters or digits, none between Chinese characters or next to full-width punctuation. Text without
    Chinese (the English page) comes back unchanged.

    >>> cjk_spacing("最多的是 从零手写（16.0 MiB） 对 nn.MHA")
    '最多的是从零手写（16.0 MiB）对 nn.MHA'
    >>> cjk_spacing("from scratch (p = 2.00)")
    'from scratch (p = 2.00)'
    """
    s = re.sub(f"(?<=[{_CJK}{_FULL}]) +(?=[{_CJK}{_FULL}])", "", sentence)
    s = re.sub(f"(?<=[{_FULL}]) +| +(?=[{_FULL}])", "", s)
    s = re.sub(f"([{_CJK}])([A-Za-z0-9`])", r"\1 \2", s)
    return re.sub(f"([A-Za-z0-9`])([{_CJK}])", r"\1 \2", s)


def _names(lang: str) -> dict[str, str]:
    t = texts(lang, "bench")
    return {i: t[i] for i in (*IMPLS, "best_official")}


def _ms(s: float) -> str:
    ms = s * 1e3
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def ms_spread(median: float, low: float, high: float, grouped: bool = False) -> str:
    """Milliseconds as median [low–high], seconds in: the median to three significant digits, and the
    ends to as many decimals as the median has, so no trailing zero is lost ([8.39–8.60], not [8.39–8.6]).

    >>> ms_spread(8.47e-3, 8.39e-3, 8.6e-3), ms_spread(0.388e-3, 0.38e-3, 0.395e-3)
    ('8.47 [8.39–8.60]', '0.388 [0.380–0.395]')
    >>> ms_spread(1.2403, 1.196, 1.2861, grouped=True), ms_spread(2e-3, 1.96e-3, 2.1e-3)
    ('1,240 [1,196–1,286]', '2.00 [1.96–2.10]')
    """
    m = median * 1e3
    if m >= 100:
        places = 0
    else:  # three significant digits, trailing zeros kept
        places = max(0, 2 - math.floor(math.log10(abs(m)))) if m else 2
        m_text = f"{m:.{places}f}"
        if float(m_text) >= 10 ** (3 - places) and places > 0:  # 9.996 rounds up to 10.00: one place fewer
            places -= 1
    comma = "," if grouped else ""
    fmt = lambda x: f"{x * 1e3:{comma}.{places}f}"  # noqa: E731
    return f"{fmt(median)} [{fmt(low)}–{fmt(high)}]"


def _mb(b: float) -> str:
    return f"{b / 2**20:.1f}"


def _load(values: Sequence[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


# Other processes' share of the machine's CPU time in a run at or above which the machine counts as busy.
BUSY_SHARE = 0.10


# Committed results that are timings. The others record training runs: a busy machine slows them
# down but does not change what they learn, so their load rows must not warn about timing noise.
TIMED = frozenset({"bench-full", "buildbench", "kvheads-decode", "decoder-timing"})


def _share(value: float) -> str:
    """Other processes' share of the CPU as the pages print it: a whole percent."""
    return f"{value:.0%}"


def load_sentence(lang: str, p: dict, timed: bool = True) -> str:
    """How busy the machine was, from what the measurement recorded (never from a flag).

    The load average counts the measurement itself; ``others_cpu`` (the share of all cores' CPU time
    that processes other than the measurement used) is the check. Results measured before that was
    recorded say so. When every run rounds to 0% the sentence says so once instead of printing 0%
    twice; a busy machine is a caveat for timings only (``timed``), not for training runs.
    """
    t = texts(lang, "provenance")
    if p.get("others_cpu") is None or not p.get("runs") or any(r["others_cpu"] is None for r in p["runs"]):
        busy = t["unmeasured"]
    else:
        most = max(r["others_cpu"] for r in p["runs"])
        if _share(most) == _share(0.0):
            busy = t["others_none"]
        else:
            verdict = t["idle"] if most < BUSY_SHARE else t["busy"] if timed else t["busy_training"]
            busy = text(lang, "provenance.others", share=_share(p["others_cpu"]), most=_share(most), verdict=verdict)
    return text(lang, "provenance.load_value", before=_load(p["load_before"]), after=_load(p["load_after"]),
                busy=busy)


# A run's label as the runner wrote it into the result ("rounds 1-5", "h=8 g=4 n=12 seed 1",
# "2 layers x 4 heads seed 20: 0.346 nats", "MLA+norm d_c=64 seed 1"): its parts, which i18n words.
_ROUNDS = re.compile(r"rounds (\d+)-(\d+)")
_STACK = re.compile(r"(\d+) layers? x (\d+) heads?")
_SEEDED = re.compile(r"(?P<setting>.+?) seed (?P<seed>\d+)(?:: (?:(?P<loss>[\d.]+) nats|(?P<acc>[\d.]+) of the predictable ids right))?")


def run_label(lang: str, label: str) -> str:
    """A run's label in the page's language; a label of another form is returned as it is.

    >>> run_label("zh", "rounds 1-5"), run_label("en", "rounds 1-5")
    ('第 1–5 轮', 'rounds 1–5')
    >>> run_label("zh", "2 layers x 4 heads seed 20: 0.346 nats")
    '2 层 × 4 个头，种子 20（最终损失 0.346 奈特）'
    >>> run_label("en", "2 layers x 1 heads seed 0: 0.750 nats")
    '2 layers × 1 head, seed 0 (final loss 0.750 nats)'
    >>> run_label("zh", "h=8 g=4 n=12 seed 1"), run_label("zh", "MLA+norm d_c=64 seed 1")
    ('h=8，g=4，n=12，种子 1', 'MLA+norm，d_c=64，种子 1')
    >>> run_label("zh", "2 layers x 1 heads seed 0: 0.762 of the predictable ids right")
    '2 层 × 1 个头，种子 0（可预测的编号猜中 0.762）'
    >>> run_label("zh", "L=128")
    'L=128'
    """
    t = texts(lang, "provenance")
    m = _ROUNDS.fullmatch(label)
    if m:
        return text(lang, "provenance.run_rounds", first=int(m[1]), last=int(m[2]))
    m = _SEEDED.fullmatch(label)
    if not m:
        return label
    stack = _STACK.fullmatch(m["setting"])
    if stack:
        layers, heads = int(stack[1]), int(stack[2])
        setting = text(lang, "provenance.run_stack", layers=layers, heads=heads,
                       head_word=t["run_head" if heads == 1 else "run_heads"])
    else:
        setting = t["run_sep"].join(m["setting"].split(" "))
    out = setting + t["run_sep"] + text(lang, "provenance.run_seed", seed=int(m["seed"]))
    if m["loss"]:
        out += text(lang, "provenance.run_loss", loss=m["loss"])
    if m["acc"]:
        out += text(lang, "provenance.run_accuracy", acc=m["acc"])
    return out


RUNS_LISTED = 12  # more runs than this (a training sweep) are summarised in the table, not listed


def runs_cell(lang: str, p: dict) -> str:
    """Each run's load average (1 min) before and after it, and other processes' share of the CPU; for more
    than RUNS_LISTED runs, their range and the busiest run."""
    if not p.get("runs"):
        return text(lang, "provenance.runs_unmeasured")
    names = texts(lang, "buildbench")
    label = lambda run: names.get(run, run_label(lang, run))  # noqa: E731
    runs = p["runs"]
    measured = all(r["others_cpu"] is not None for r in runs)
    span = lambda key: "{:.2f}–{:.2f}".format(min(r[key][0] for r in runs), max(r[key][0] for r in runs))  # noqa: E731
    if measured and all(_share(r["others_cpu"]) == _share(0.0) for r in runs):
        return text(lang, "provenance.runs_idle", n=len(runs), before=span("load_before"), after=span("load_after"))
    if len(runs) > RUNS_LISTED and measured:
        busiest = max(runs, key=lambda r: r["others_cpu"])
        return text(lang, "provenance.runs_summary", n=len(runs), before=span("load_before"), after=span("load_after"),
                    median=_share(statistics.median(r["others_cpu"] for r in runs)),
                    most=_share(busiest["others_cpu"]), busiest=label(busiest["run"]))
    items = [text(lang, "provenance.run_item", run=label(r["run"]), before=f"{r['load_before'][0]:.2f}",
                  after=f"{r['load_after'][0]:.2f}",
                  share="—" if r["others_cpu"] is None else _share(r["others_cpu"])) for r in p["runs"]]
    return text(lang, "bench.group_sep").join(items)


def _no_emphasis(path: str) -> str:
    """A file name whose underscores Markdown cannot read as emphasis (__init__.py stays __init__.py).

    >>> _no_emphasis("snippets/__init__.py")
    'snippets/&#95;&#95;init&#95;&#95;.py'
    """
    return path.replace("_", "&#95;")


def provenance_table(lang: str, name: str, result: dict | None = None) -> str:
    """Where a committed result came from: date, commit, machine, software, load, fingerprint, command."""
    t = texts(lang, "provenance")
    result = load(name) if result is None else result
    p = result["provenance"]
    m = p["machine"]
    commit = f"`{p['commit']}`" + (t["dirty"] if p["uncommitted_changes"] else "")
    files = p["fingerprint_covers"]["files"]
    # the file list is for maintainers: folded, so the row stays one line until opened
    covers = (f"<details><summary>{text(lang, 'provenance.files_summary', n=len(files))}</summary>"
              + ", ".join(f"<code>{_no_emphasis(f)}</code>" for f in files) + "</details>")
    rows = [
        [t["date"], p["date"]],
        [t["commit"], commit],
        [t["machine"], text(lang, "provenance.machine_value", cpu=m["cpu"], cores=m["cores"], simd=m["simd"])],
        [t["threads"], m["threads"]],
        [t["software"], f"torch {p['torch']}, Python {p['python']}"],
        [t["load"], load_sentence(lang, p, timed=name in TIMED)],
        [t["runs"], runs_cell(lang, p)],
        [t["duration"], text(lang, "provenance.duration_value", minutes=p["wall_seconds"] / 60)],
        [t["fingerprint"], text(lang, "provenance.fingerprint_value", fp=p["fingerprint"], files=covers)],
        [t["command"], f"`{p['command']}`"],
    ]
    return md_table(t["head"], rows)


def flop_table(lang: str, lengths: Sequence[int] = FULL["lengths"], N: int = 1, d_model: int = 768,
               num_heads: int = 12) -> str:
    """Where the work goes as L grows: projections (linear in L) vs attention (quadratic), and the weights' size."""
    head = texts(lang, "bench")["flop_head"]
    rows = []
    for L in lengths:
        total = attention_flops(N, L, d_model, num_heads)
        quad = 4 * N * L * L * d_model
        rows.append([L, f"{total / 1e9:.1f}", f"{quad / total:.0%}", _mb(4 * N * num_heads * L * L)])
    return md_table(head, rows, align="rrrr")


def _per_impl(data: dict, lang: str, cell) -> str:
    """One row per length L, one column per implementation: cell(measurement) fills each."""
    names = _names(lang)
    head = ["L"] + [names[i] for i in IMPLS]
    rows = [[L] + [cell(measurement(data, i, L)) for i in IMPLS] for L in data["params"]["lengths"]]
    return md_table(head, rows, align="r" * len(head))


def time_table(data: dict, lang: str) -> str:
    """Milliseconds per forward: median [25th–75th percentile] over the rounds, one column per implementation."""
    def cell(r) -> str:
        return ms_spread(*r["time"])

    return _per_impl(data, lang, cell)


def _matmul(data: dict) -> Interval:
    """GFLOP/s of the matmul reference: median and interquartile range (from the time samples)."""
    mm = data["matmul"]
    t = interval(mm["samples"])
    return Interval((mm["flops"] / t.median / 1e9, mm["flops"] / t.high / 1e9, mm["flops"] / t.low / 1e9))


def throughput_table(data: dict, lang: str) -> str:
    """GFLOP/s at the median time, and its share of the matmul reference's median GFLOP/s."""
    peak = _matmul(data).median * 1e9

    def cell(r) -> str:
        achieved = r["flops"] / r["time"].median
        return f"{achieved / 1e9:.0f} ({achieved / peak:.0%})"

    return _per_impl(data, lang, cell)


def memory_table(data: dict, lang: str) -> str:
    """Peak MiB allocated during one forward pass; last row: the exponent p in peak ∝ Lᵖ."""
    names = _names(lang)
    head = ["L"] + [names[i] for i in IMPLS]
    rows = [[L] + [_mb(measurement(data, i, L)["peak_bytes"]) for i in IMPLS] for L in data["params"]["lengths"]]
    a, b = data["params"]["lengths"][-2:]
    rows.append([text(lang, "bench.exponent", a=a, b=b)] + [f"{memory_slope(data, i):.2f}" for i in IMPLS])
    return md_table(head, rows, align="r" * len(head))


def matmul_sentence(data: dict, lang: str) -> str:
    """The reference throughput, in words, with its spread."""
    g = _matmul(data)
    return text(lang, "bench.matmul", n=data["matmul"]["n"], gflops=g.median, low=g.low, high=g.high,
                samples=len(data["matmul"]["samples"]))


def _samples(data: dict, a: str, b: str, L: int) -> tuple[list[float], list[float]]:
    """The per-round samples of a and b at length L (b may be "best_official": the fastest nn.MHA there)."""
    b = _best_official(data, L) if b == "best_official" else b
    return measurement(data, a, L)["samples"], measurement(data, b, L)["samples"]


def comparisons(data: dict) -> dict[tuple[str, str, int], Ratio]:
    """Every pair in PAIRS at every length: the family the comparison table prints, Holm-corrected over
    all of its ratios, with MINIMUM as the smallest difference that matters. Keyed by (a, b, L)."""
    keys = [(a, b, L) for a, b in PAIRS for L in data["params"]["lengths"]]
    return dict(zip(keys, ratio_family([_samples(data, *k) for k in keys]), strict=True))


def _verdict_word(lang: str, key: str, ratio: Interval | None = None) -> str:
    """The comparison table's verdict column, the one place the page words a time verdict (bench.word_<key>).

    "faster" / "slower" alone only when the whole interval lies beyond MINIMUM; when it reaches past MINIMUM
    but also has a part within it, the word says the difference may be smaller (bench.word_<key>_small)."""
    if ratio is not None and (key == "lower" and ratio.high > 1 / MINIMUM or key == "higher" and ratio.low < MINIMUM):
        key = f"{key}_small"
    return text(lang, f"bench.word_{key}", minimum=f"{MINIMUM - 1:.0%}")


def impl_table(lang: str) -> str:
    """The short names the page's tables and plots use, each defined once: name, what it is, key in the code."""
    names = _names(lang)
    rows = [[names[i], text(lang, f"bench.about_{i}"), f"`{i}`"] for i in IMPLS]
    rows.append([names["best_official"], text(lang, "bench.about_best_official"), "—"])
    return md_table(texts(lang, "bench")["impls_head"], rows)


def ratio_text(lang: str, r: Interval, digits: int = 3) -> str:
    """ratio [low–high], thousands grouped."""
    return text(lang, "bench.ratio", ratio=f"{r.median:,.{digits}f}", low=f"{r.low:,.{digits}f}",
                high=f"{r.high:,.{digits}f}")


def comparison_table(data: dict, lang: str) -> str:
    """For each pair, at each length: the paired time ratio with its interval, the level that interval is at
    (Holm over the whole table), and the verdict drawn from it."""
    names = _names(lang)
    family = comparisons(data)
    rows = []
    for a, b in PAIRS:
        label = cjk_spacing(text(lang, "bench.pair_label", a=names[a], b=names[b]))
        for k, L in enumerate(data["params"]["lengths"]):
            r = family[a, b, L]
            rows.append([label if k == 0 else "", L, ratio_text(lang, r.ratio), level_text(r.level),
                         _verdict_word(lang, r.verdict, r.ratio)])
    return md_table(texts(lang, "bench")["pair_head"], rows, align="lrrrl")


def _lengths(lang: str, items: Sequence[object]) -> str:
    return text(lang, "bench.list_sep").join(str(i) for i in items)


def memory_sentence(data: dict, lang: str) -> str:
    """Which contenders' peak memory grows about quadratically, which about linearly, at the largest lengths."""
    names = _names(lang)
    slopes = {i: memory_slope(data, i) for i in IMPLS}
    sep = text(lang, "bench.name_sep")
    quad = sep.join(text(lang, "bench.slope_item", name=names[i], p=p) for i, p in slopes.items() if p >= 1.5)
    lin = sep.join(text(lang, "bench.slope_item", name=names[i], p=p) for i, p in slopes.items() if p <= 1.2)
    a, b = data["params"]["lengths"][-2:]
    L = data["params"]["lengths"][-1]
    biggest = max(IMPLS, key=lambda i: measurement(data, i, L)["peak_bytes"])
    smallest = min(IMPLS, key=lambda i: measurement(data, i, L)["peak_bytes"])
    return cjk_spacing(text(lang, "bench.memory_sentence", a=a, b=b, quad=quad or "—", lin=lin or "—", L=L,
                big=names[biggest], big_mib=_mb(measurement(data, biggest, L)["peak_bytes"]),
                small=names[smallest], small_mib=_mb(measurement(data, smallest, L)["peak_bytes"])))


# A goal's verdict from stats.verdict's key for its ratio against the bound: the time goal wants the ratio below
# TIME_GOAL, the speedup goal above SPEEDUP_GOAL; an interval that covers the bound leaves it undecided.
TIME_GOAL_VERDICT = {"lower": "met", "higher": "not_met", "none": "undecided"}
SPEEDUP_GOAL_VERDICT = {"higher": "met", "lower": "not_met", "none": "undecided"}


def goals(data: dict) -> list[dict]:
    """The three goals, each judged from an interval: "met", "not_met", or "undecided" (it covers the bound).

    The two timed goals make one family, Holm-corrected (``ratio_family`` with no minimum: the bound is what
    matters). Time: the paired ratio fused / fastest nn.MHA held against TIME_GOAL at every length (met when
    its interval lies below it at every length, not met when it lies above it at any). Speedup: the paired
    ratio from scratch / fused at SPEEDUP_AT held against SPEEDUP_GOAL. Memory (no noise: the same
    allocations every run): the log-log slopes.
    """
    lengths = data["params"]["lengths"]
    family = ratio_family([_samples(data, "fast", "best_official", L) for L in lengths]
                          + [_samples(data, "scratch", "fast", SPEEDUP_AT)],
                          bounds=[TIME_GOAL] * len(lengths) + [SPEEDUP_GOAL], minimum=1.0)
    per_length, speedup = dict(zip(lengths, family[:-1], strict=True)), family[-1]
    judged = {L: TIME_GOAL_VERDICT[r.verdict] for L, r in per_length.items()}
    verdict = ("not_met" if "not_met" in judged.values() else "met" if set(judged.values()) == {"met"}
               else "undecided")
    worst_L = max(lengths, key=lambda L: per_length[L].ratio.high)
    fast_p, naive_p = memory_slope(data, "fast"), memory_slope(data, "scratch")
    return [
        {"goal": "time", "ratio": per_length[worst_L].ratio, "level": per_length[worst_L].level, "at": worst_L,
         "verdict": verdict, "per_length": judged, "family": len(family)},
        {"goal": "speedup", "ratio": speedup.ratio, "level": speedup.level, "at": SPEEDUP_AT,
         "verdict": SPEEDUP_GOAL_VERDICT[speedup.verdict], "family": len(family)},
        {"goal": "memory", "ratio": fast_p, "naive": naive_p, "at": tuple(lengths[-2:]),
         "verdict": "met" if fast_p <= 1.2 and naive_p >= 1.5 else "not_met"},
    ]


def goals_table(data: dict, lang: str) -> str:
    """Each goal, its target, the measured value (ratios with their intervals) and the verdict drawn from them."""
    t = texts(lang, "bench")
    rows = []
    for g in goals(data):
        verdict = t[g["verdict"]]
        if g["goal"] == "time":
            value = text(lang, "bench.goal_time_value", ratio=ratio_text(lang, g["ratio"]), at=g["at"],
                         level=level_text(g["level"]))
            for v in ("undecided", "not_met"):
                Ls = [L for L, h in g["per_length"].items() if h == v]
                if Ls:
                    value += text(lang, f"bench.goal_time_{v}", lengths=_lengths(lang, Ls), bound=TIME_GOAL)
            rows.append([t["goal_time"], f"≤ {TIME_GOAL}", value, verdict])
        elif g["goal"] == "speedup":
            rows.append([t["goal_speedup"], f"≥ {SPEEDUP_GOAL}",
                         text(lang, "bench.goal_speedup_value", ratio=ratio_text(lang, g["ratio"], 2), at=g["at"],
                              level=level_text(g["level"])), verdict])
        else:
            a, b = g["at"]
            rows.append([t["goal_memory"], "≈ 1 / ≈ 2",
                         text(lang, "bench.goal_memory_value", ratio=g["ratio"], naive=g["naive"], a=a, b=b),
                         verdict])
    return md_table(t["goals_head"], [[cjk_spacing(str(c)) for c in row] for row in rows])


def _plot(data: dict, lang: str, key: str, ylabel: str, alt: str, caption: str) -> str:
    names = _names(lang)
    lengths = data["params"]["lengths"]

    def draw():
        fig = Figure(figsize=(6.4, 3.8), layout="constrained")
        ax = fig.subplots()
        markers = dict(zip(IMPLS, "osD^v", strict=True))
        for i in IMPLS:
            rows = [measurement(data, i, L) for L in lengths]
            if key == "time":
                ys = [r["time"].median * 1e3 for r in rows]
                lo = [r["time"].low * 1e3 for r in rows]
                hi = [r["time"].high * 1e3 for r in rows]
                line, = ax.plot(lengths, ys, marker=markers[i], label=names[i])
                ax.fill_between(lengths, lo, hi, color=line.get_color(), alpha=0.25, linewidth=0)
            else:
                ax.plot(lengths, [r["peak_bytes"] / 2**20 for r in rows], marker=markers[i], label=names[i])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(lengths, [str(L) for L in lengths])
        ax.set_xlabel(texts(lang, "bench")["length"])
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=9, frameon=False)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def time_figure(data: dict, lang: str, alt: str, caption: str) -> str:
    """Log-log plot of the median time per forward against L, the interquartile range shaded."""
    return _plot(data, lang, "time", texts(lang, "bench")["time_axis"], alt, caption)


def memory_figure(data: dict, lang: str, alt: str, caption: str) -> str:
    """Log-log plot of peak memory against L."""
    return _plot(data, lang, "peak_bytes", texts(lang, "bench")["memory_axis"], alt, caption)


def full_sweep_tables(lang: str) -> str:
    """The committed sweep: the matmul reference, then time, throughput and memory tables, with headings."""
    t = texts(check_lang(lang), "bench")
    data = bench_sweep()["data"]
    return "\n\n".join([matmul_sentence(data, lang), f"**{t['time_label']}**", time_table(data, lang),
                        f"**{t['throughput_label']}**", throughput_table(data, lang),
                        f"**{t['memory_label']}**", memory_table(data, lang)])


def full_sweep_figures(lang: str) -> str:
    """The two plots of the committed sweep, with their alt texts and captions in lang."""
    t = texts(check_lang(lang), "bench")
    data = bench_sweep()["data"]
    return (time_figure(data, lang, t["alt_time"], t["caption_time"])
            + memory_figure(data, lang, t["alt_memory"], t["caption_memory"]))


def build_results_table(results: dict, lang: str = "en") -> str:
    """The build timings (one run each) as a Markdown table."""
    t = texts(lang, "buildbench")
    rows = []
    for key in ("cold", "warm", "no_exec", "serve"):
        if key in results:
            r = results[key]
            secs = "—" if r["seconds"] is None else f"{r['seconds']:.1f}"
            rows.append([t[key], secs, t["ok"] if r["ok"] else f"❌ {t['failed']}"])
    verdict = t["met"] if results["target_met"] else t["not_met"]
    mark = "✅" if results["target_met"] else "❌"
    rows.append([t["ratio"], f"{results['warm_over_no_exec']:.2f}", f"{mark} {verdict}"])
    return md_table(t["head"], rows, align="lrl")


def build_table(lang: str) -> str:
    """The committed build benchmark (results/buildbench.json): provenance, timings, and what a single run means."""
    result = load("buildbench")
    return (f"{provenance_table(lang, 'buildbench', result)}\n\n{build_results_table(result['data'], lang)}\n\n"
            f"{text(lang, 'buildbench.runs')}")


def quick_table(samples: dict[str, list[float]], peaks: dict[str, int], L: int, d_model: int, num_heads: int,
                lang: str) -> str:
    """A small run of time_rounds and peak_bytes on the page: each implementation's sample count and peak
    memory, then a sentence with the from-scratch version's extra memory next to the size of its weights.
    The times are not printed (they differ from run to run, and two builds must give the same page)."""
    check_lang(lang)
    if set(samples) != set(IMPLS) or set(peaks) != set(IMPLS):
        raise ValueError(f"expected samples and peak bytes of {list(IMPLS)}, got {sorted(samples)} and "
                         f"{sorted(peaks)}")
    rounds = {len(s) for s in samples.values()}
    if len(rounds) != 1:
        raise ValueError(f"expected the same number of samples for every implementation, got {sorted(rounds)}")
    names = _names(lang)
    rows = [[names[i], str(len(samples[i])), f"{peaks[i] / 1024:,.0f}"] for i in IMPLS]
    sentence = text(lang, "bench.quick", L=L, E=d_model, h=num_heads, rounds=rounds.pop(),
                    extra=f"{(peaks['scratch'] - peaks['fast']) / 1024:,.0f}",
                    weights=f"{num_heads * L * L * 4 / 1024:,.0f}")
    return md_table(texts(lang, "bench")["quick_head"], rows, align="lrr") + "\n\n" + cjk_spacing(sentence)
