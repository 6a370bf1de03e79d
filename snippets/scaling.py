"""Why the scores are divided by √d_k (§3; Vaswani et al. 2017, §3.2.1 and footnote 4).

If the entries of q and k are independent with mean 0 and variance 1, then q·k is a sum of d_k
products, each with mean 0 and variance 1, so q·k has mean 0 and variance d_k. The wider the head,
the larger the scores, the closer the softmax gets to a one-hot vector, and the smaller the
gradient that flows back through it. Dividing by √d_k brings the variance back to 1 at any width.

Shapes: ``q`` is (n, 1, d_k), one query in each of n = ``rows`` rows; ``k`` is (n, S, d_k), S = ``keys``
keys per row.

>>> abs(dot_variance(64) / 64 - 1) < 0.05
True
>>> row = softmax_row_stats(512, scaled=False)
>>> row.entropy < 0.3 < softmax_row_stats(512, scaled=True).entropy
True
>>> softmax_row_stats(8, scaled=True, keys=1)
Traceback (most recent call last):
...
ValueError: keys must be an integer >= 2 (one key leaves nothing to choose), got 1
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import torch

from resultcache import fingerprint, memory

from ._checks import check_positive_int
from .figures import FG, MIN_FONT_PT, Figure, svg_figure
from .i18n import check_lang, text

__all__ = ["DK_SHOWN", "KEYS", "RowStats", "dot_variance", "softmax_row_stats", "row_stats", "scaling_rows",
           "scaling_sentence", "scaling_figure"]

DK_SHOWN = (8, 64, 512)  # the head widths the page prints
KEYS = 8  # keys per query: a short row, about as long as the log line
ROWS = 2000  # random (query, keys) draws averaged per point
COLORS = ("#d55e00", "#0072b2")  # unscaled, scaled (Okabe-Ito, both palettes)


class RowStats(NamedTuple):
    """Means over the drawn rows: entropy of the weights (nats), largest weight, gradient size."""
    entropy: float
    top_weight: float
    grad_norm: float


def _check_keys(keys: int) -> int:
    if isinstance(keys, bool) or not isinstance(keys, int) or keys < 2:
        raise ValueError(f"keys must be an integer >= 2 (one key leaves nothing to choose), got {keys!r}")
    return keys


# --8<-- [start:variance]
def dot_variance(d_k, n=20_000, seed=0):
    """Variance of q·k for random q, k with unit-variance entries."""
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n, d_k, generator=g)
    k = torch.randn(n, d_k, generator=g)
    return (q * k).sum(-1).var().item()  # a sum of d_k unit variances
# --8<-- [end:variance]


def _check_rows(d_k: int, keys: int, rows: int) -> None:
    check_positive_int(d_k, "d_k")
    _check_keys(keys)
    check_positive_int(rows, "rows")


# --8<-- [start:saturation]
def softmax_row_stats(d_k, scaled, keys=KEYS, rows=ROWS, seed=0):
    """Entropy, top weight and gradient size of softmax(q·k [/ √d_k])."""
    _check_rows(d_k, keys, rows)
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(rows, 1, d_k, generator=g, dtype=torch.float64)
    k = torch.randn(rows, keys, d_k, generator=g, dtype=torch.float64)
    scores = q @ k.transpose(-2, -1)  # (n, 1, S)
    if scaled:
        scores = scores / math.sqrt(d_k)
    scores.requires_grad_(True)
    w = torch.softmax(scores, dim=-1)
    # a random upstream gradient, sent back through the softmax
    upstream = torch.randn(w.shape, generator=g, dtype=torch.float64)
    (w * upstream).sum().backward()
    entropy = -(w * torch.log(w.clamp_min(1e-300))).sum(-1)
    return RowStats(entropy.mean().item(), w.max(-1).values.mean().item(),
                    scores.grad.norm(dim=-1).mean().item())
# --8<-- [end:saturation]


def row_stats(d_ks: tuple[int, ...], keys: int = KEYS) -> dict[tuple[int, bool], RowStats]:
    """softmax_row_stats of every d_k, without and with the scale: {(d_k, scaled): RowStats}. Kept on disk by
    its arguments and the code it runs (the table, the sentence and the figure, on the page and in its
    notebook, in both languages, ask for the same rows)."""
    if isinstance(d_ks, (str, bytes)) or not hasattr(d_ks, "__iter__"):
        raise ValueError(f"d_ks must be a sequence of head widths, got {d_ks!r}")
    return _row_stats_cached(tuple(d_ks), keys, fingerprint(["snippets.scaling"]))


@memory.cache
def _row_stats_cached(d_ks: tuple[int, ...], keys: int, code: str) -> dict[tuple[int, bool], RowStats]:
    return {(d, s): softmax_row_stats(d, s, keys) for d in d_ks for s in (False, True)}


def scaling_rows(d_ks: tuple[int, ...] = DK_SHOWN, keys: int = KEYS) -> list[tuple]:
    """Table rows: d_k, Var(q·k), the entropy without and with the scale, the gradient without and with it."""
    out = []
    stats = row_stats(d_ks, keys)
    for d_k in d_ks:
        raw, scaled = stats[d_k, False], stats[d_k, True]
        out.append((d_k, f"{dot_variance(d_k):.1f}", f"{raw.entropy:.2f}", f"{scaled.entropy:.2f}",
                    f"{raw.grad_norm:.3f}", f"{scaled.grad_norm:.3f}"))
    return out


def scaling_sentence(lang: str, d_ks: tuple[int, ...] = DK_SHOWN, keys: int = KEYS) -> str:
    """The demonstration in one sentence, its numbers filled in."""
    check_lang(lang)
    rows = scaling_rows(d_ks, keys)
    first, last = rows[0], rows[-1]
    sep = text(lang, "scaling.sep")
    top = row_stats(d_ks, keys)[last[0], False].top_weight
    return text(lang, "scaling.sentence", dks=sep.join(str(r[0]) for r in rows),
                var=sep.join(r[1] for r in rows), keys=keys, uniform=f"{math.log(keys):.2f}",
                d0=first[0], d1=last[0], e0=first[2], e1=last[2], top=f"{top:.2f}", g0=first[4], g1=last[4],
                se0=first[3], se1=last[3], sg0=first[5], sg1=last[5])


def scaling_figure(lang: str, keys: int = KEYS, d_ks: tuple[int, ...] = tuple(2 ** i for i in range(1, 11))) -> str:
    """Two panels against d_k (log axis): the entropy of an attention row, and the gradient through the
    softmax, each without and with the 1/√d_k scale."""
    check_lang(lang)
    _check_keys(keys)
    by_key = row_stats(d_ks, keys)
    stats = {s: [by_key[d, s] for d in d_ks] for s in (False, True)}
    t = lambda key, **v: text(lang, f"scaling.fig.{key}", **v)  # noqa: E731
    label = {False: t("raw"), True: t("scaled")}

    def draw():
        fig = Figure(figsize=(7.2, 3.0))
        left, right = fig.subplots(1, 2, gridspec_kw={"wspace": 0.35})
        for s, color, marker in ((False, COLORS[0], "o"), (True, COLORS[1], "s")):
            left.plot(d_ks, [r.entropy for r in stats[s]], marker=marker, color=color, lw=2, label=label[s])
            right.plot(d_ks, [r.grad_norm for r in stats[s]], marker=marker, color=color, lw=2)
        left.axhline(math.log(keys), color=FG, lw=0.8, ls=":")
        left.text(d_ks[0], math.log(keys) * 1.02, t("uniform", keys=keys), fontsize=MIN_FONT_PT, va="bottom")
        left.set_ylim(0, math.log(keys) * 1.2)
        left.set_ylabel(t("entropy"), fontsize=MIN_FONT_PT)
        right.set_ylim(0, None)
        right.set_ylabel(t("grad"), fontsize=MIN_FONT_PT)
        for ax in (left, right):
            ax.set_xscale("log", base=2)
            ax.set_xticks(list(DK_SHOWN), [str(d) for d in DK_SHOWN], fontsize=MIN_FONT_PT)
            ax.minorticks_off()
            ax.tick_params(labelsize=MIN_FONT_PT)
            ax.set_xlabel("d_k", fontsize=MIN_FONT_PT)
            ax.spines[["top", "right"]].set_visible(False)
        left.legend(fontsize=MIN_FONT_PT, frameon=False, loc="lower left", bbox_to_anchor=(0.0, 1.02), ncols=2,
                    handlelength=1.5)
        return fig

    at = {d: i for i, d in enumerate(d_ks)}
    big = at[d_ks[-1]]
    return svg_figure(draw, alt=t("alt", keys=keys, d1=d_ks[-1], e_raw=f"{stats[False][big].entropy:.2f}",
                                  e_scaled=f"{stats[True][big].entropy:.2f}",
                                  g_raw=f"{stats[False][big].grad_norm:.3f}",
                                  g_scaled=f"{stats[True][big].grad_norm:.3f}"),
                      caption=t("caption", keys=keys))
