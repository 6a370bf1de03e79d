"""The performance page's tables, sentences and plots, from the measurements in ``snippets.bench``.

The measuring half (what is timed, how, and the cached sweeps) is lesson code the page shows;
this half only formats, in the page's language (strings from ``snippets.i18n``).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from snippets.bench import (
    FULL, IMPLS, attention_flops, full_sweep, goals, machine_info, measurement, memory_slope,
)
from snippets.figures import Figure, svg_figure
from snippets.i18n import check_lang, texts
from snippets.tables import md_table

__all__ = [
    "machine_table", "flop_table", "time_table", "throughput_table", "memory_table", "matmul_sentence",
    "time_figure", "memory_figure", "goals_table", "report", "full_sweep_tables", "full_sweep_figures",
]


def _names(lang: str) -> list[str]:
    t = texts(lang, "bench")
    return [t[i] for i in IMPLS]


def _ms(s: float) -> str:
    return f"{s * 1e3:.2f}" if s < 0.1 else f"{s * 1e3:.0f}"


def _mb(b: float) -> str:
    return f"{b / 2**20:.1f}"


def machine_table(lang: str, result: dict | None = None) -> str:
    """This build's machine, or the one a cached result came from."""
    t = texts(lang, "bench")
    info = machine_info() if result is None else result["machine"]
    return md_table(t["machine_head"], list(zip(t["machine_keys"], info.values(), strict=True)))


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


def time_table(result: dict, lang: str) -> str:
    """Milliseconds per forward: min / median, one column per implementation."""
    head = ["L"] + _names(lang)
    rows = [[L] + [f"{_ms(measurement(result, i, L)['min_s'])} / {_ms(measurement(result, i, L)['median_s'])}"
                   for i in IMPLS] for L in result["lengths"]]
    return md_table(head, rows, align="r" * len(head))


def throughput_table(result: dict, lang: str) -> str:
    """Achieved GFLOP/s (at the fastest time) and its share of the measured matmul FLOP/s."""
    peak = result["matmul_flops"]
    head = ["L"] + _names(lang)
    rows = []
    for L in result["lengths"]:
        cells = []
        for i in IMPLS:
            r = measurement(result, i, L)
            achieved = r["flops"] / r["min_s"]
            cells.append(f"{achieved / 1e9:.0f} ({achieved / peak:.0%})")
        rows.append([L] + cells)
    return md_table(head, rows, align="r" * len(head))


def memory_table(result: dict, lang: str) -> str:
    """Peak MiB allocated during one forward pass; last row: the exponent p in peak ∝ Lᵖ."""
    head = ["L"] + _names(lang)
    rows = [[L] + [_mb(measurement(result, i, L)["peak_bytes"]) for i in IMPLS] for L in result["lengths"]]
    a, b = result["lengths"][-2:]
    label = texts(lang, "bench")["exponent"].format(a=a, b=b)
    rows.append([label] + [f"{memory_slope(result, i):.2f}" for i in IMPLS])
    return md_table(head, rows, align="r" * len(head))


def matmul_sentence(result: dict, lang: str) -> str:
    """The reference throughput, in words."""
    return texts(lang, "bench")["matmul"].format(gflops=result["matmul_flops"] / 1e9)


def _plot(result: dict, lang: str, key: str, ylabel: str, alt: str, caption: str) -> str:
    names = dict(zip(IMPLS, _names(lang), strict=True))

    def draw():
        fig = Figure(figsize=(6.4, 3.8), layout="constrained")
        ax = fig.subplots()
        markers = dict(zip(IMPLS, "osD^v", strict=True))
        for i in IMPLS:
            ys = [measurement(result, i, L)[key] for L in result["lengths"]]
            ys = [y * 1e3 for y in ys] if key == "min_s" else [y / 2**20 for y in ys]
            ax.plot(result["lengths"], ys, marker=markers[i], label=names[i])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(result["lengths"], [str(L) for L in result["lengths"]])
        ax.set_xlabel(texts(lang, "bench")["length"])
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, frameon=False)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def time_figure(result: dict, lang: str, alt: str, caption: str) -> str:
    """Log-log plot of the fastest time per forward against L."""
    return _plot(result, lang, "min_s", texts(lang, "bench")["time_axis"], alt, caption)


def memory_figure(result: dict, lang: str, alt: str, caption: str) -> str:
    """Log-log plot of peak memory against L."""
    return _plot(result, lang, "peak_bytes", texts(lang, "bench")["memory_axis"], alt, caption)


def goals_table(lang: str, result: dict | None = None) -> str:
    """Each goal, its target, the measured value and met / not met."""
    t = texts(lang, "bench")
    rows = []
    for g in goals(result):
        verdict = t["met"] if g["met"] else t["not_met"]
        if g["goal"] == "time":
            rows.append([t["goal_time"], "≤ 1.05", t["goal_time_value"].format(ratio=g["ratio"], at=g["at"]), verdict])
        elif g["goal"] == "speedup":
            rows.append([t["goal_speedup"], "≥ 1.5", t["goal_speedup_value"].format(ratio=g["ratio"]), verdict])
        else:
            a, b = g["at"]
            rows.append([t["goal_memory"], "≈ 1 / ≈ 2",
                         t["goal_memory_value"].format(ratio=g["ratio"], naive=g["naive"], a=a, b=b), verdict])
    return md_table(t["goals_head"], rows)


def report(result: dict, lang: str) -> str:
    """The matmul reference and the three tables of one sweep, with headings."""
    t = texts(lang, "bench")
    return "\n\n".join([matmul_sentence(result, lang), f"**{t['time_label']}**", time_table(result, lang),
                        f"**{t['throughput_label']}**", throughput_table(result, lang), f"**{t['memory_label']}**",
                        memory_table(result, lang)])


def full_sweep_tables(lang: str) -> str:
    """Tables of the full sweep from the cache, or how to produce them."""
    t = texts(lang, "bench")
    result = full_sweep()
    if result is None:
        return t["no_full_sweep"]
    return "\n\n".join([f"**{t['machine_label']}**", machine_table(lang, result), report(result, lang)])


def full_sweep_figures(lang: str, alt_time: str, caption_time: str, alt_memory: str, caption_memory: str) -> str:
    """The two plots of the full sweep, or an empty note when it has not been run."""
    check_lang(lang)
    result = full_sweep()
    if result is None:
        return f"<p>{html.escape(texts(lang, 'bench')['no_plots'])}</p>"
    return time_figure(result, lang, alt_time, caption_time) + memory_figure(result, lang, alt_memory, caption_memory)
