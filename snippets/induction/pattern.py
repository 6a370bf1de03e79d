"""The two heads of the minimal circuit on one sequence: where each looks, drawn as arrows.

The model is the live view's: seed 0 of the protocol's 2 layers x 1 head, trained again with its
weights kept (results/induction-live.json, snippets.induction.weights). The sequence is picked by a
fixed rule, not by eye: the first sequence of the protocol's final held-out batch whose repeated
segment is 8 to 10 tokens long (so that one copy fits a phone's width) and has no token twice (so
that every lookup has one right answer).

>>> row = example_row()
>>> row.index, row.length
(7, 9)
>>> pattern_summary()["right"], pattern_summary()["predictable"]
(7, 8)
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..figures import FG, Figure, svg_figure
from ..i18n import text
from .live import load_live
from .report import _light_paths
from .task import SEQ_LEN, make_repeat_batch
from .train import EVAL_SEED
from .weights import load_kept

__all__ = ["MODEL", "SHORTEST", "LONGEST", "DRAWN", "example_row", "pattern_summary", "pattern_sentence",
           "two_heads_figure"]

MODEL = (2, 1, 0)  # (layers, heads, seed): the live view's minimal circuit
SHORTEST, LONGEST = 8, 10  # the segment lengths the figure can show
DRAWN = 0.1  # arrows are drawn for attention weights at least this large


@dataclass(frozen=True)
class Row:
    index: int  # row of the held-out batch
    length: int  # L, the segment length
    tokens: list[int]  # the whole sequence, SEQ_LEN ids


# --8<-- [start:pick]
def example_row(size: int = 1024) -> Row:
    """The first held-out sequence whose segment is SHORTEST to
    LONGEST tokens long with no token in it twice."""
    x, second = make_repeat_batch(size, SEQ_LEN, seed=EVAL_SEED - 1)
    for i, L in enumerate(second.sum(1).tolist()):
        segment = x[i, SEQ_LEN - L:].tolist()
        if SHORTEST <= L <= LONGEST and len(set(segment)) == L:
            return Row(i, L, x[i].tolist())
    raise ValueError(f"expected a sequence with a segment of {SHORTEST} "
                     f"to {LONGEST} distinct tokens among {size}")
# --8<-- [end:pick]


def _record() -> dict:
    """MODEL's record in results/induction-live.json: its final scores and its weights."""
    return next(m for m in load_live()["data"]["models"] if (m["layers"], m["heads"], m["seed"]) == MODEL)


def _model_and_attention(row: Row):
    model = load_kept(_record())
    with torch.no_grad():
        logits, patterns = model(torch.tensor([row.tokens]), return_attention=True)
    return logits[0], [p[0, 0] for p in patterns]  # (T, V), two (T, T)


def pattern_summary(row: Row | None = None) -> dict:
    """On the example: layer 0's mean weight on the previous token over the first copy, layer 1's on
    the token after the first occurrence over the second copy, and the predictable tokens guessed right."""
    row = example_row() if row is None else row
    logits, (a0, a1) = _model_and_attention(row)
    T, L = SEQ_LEN, row.length
    first = range(T - 2 * L, T - L)
    lookups = range(T - L, T - 1)  # their next token is in the first copy
    right = sum(int(logits[t].argmax()) == row.tokens[t + 1] for t in lookups)
    return {"index": row.index, "length": L,
            "prev": float(sum(a0[s, s - 1] for s in first) / L),
            "prefix": float(sum(a1[t, t - L + 1] for t in lookups) / len(lookups)),
            "right": right, "predictable": len(lookups)}


def pattern_sentence(lang: str) -> str:
    """What the figure shows, in numbers, beside the same scores over the whole held-out batch."""
    s = pattern_summary()
    final = _record()["final"]
    return text(lang, "ind.pattern", index=s["index"] + 1, length=s["length"], prev=s["prev"],
                prefix=s["prefix"], right=s["right"], predictable=s["predictable"],
                prev_all=final["prev"][0][0], prefix_all=final["prefix"][1][0],
                elsewhere=1 - final["prev"][0][0])


def two_heads_figure(lang: str) -> str:
    """The example's segment written twice, the first copy above the second, each token of the second
    under its first occurrence. Arcs over the first copy: where layer 0's head looks. Lines from the
    second copy up: where layer 1's head looks. Under the second copy: the model's next-token guess."""
    row = example_row()
    logits, (a0, a1) = _model_and_attention(row)
    T, L = SEQ_LEN, row.length
    start = T - 2 * L - 1  # the token before the first copy, then the first copy: L + 1 cells
    top = {p: p - start for p in range(start, T - L)}  # position -> x of the top row
    bottom = {t: t - start - L for t in range(T - L, T)}  # under its first occurrence
    y_top, y_bottom, y_guess = 2.2, 0.0, -0.95

    def arrow(ax, xy_from, xy_to, weight, color, rad):
        ax.annotate("", xy=xy_to, xytext=xy_from, arrowprops={
            "arrowstyle": "-|>", "color": color, "lw": 0.6 + 2.4 * weight, "alpha": 0.3 + 0.7 * weight,
            "shrinkA": 0, "shrinkB": 0, "connectionstyle": f"arc3,rad={rad}", "mutation_scale": 8})

    def draw():
        fig = Figure(figsize=(4.4, 2.6), layout="constrained")
        ax = fig.subplots()
        for cells, y in ((top, y_top), (bottom, y_bottom)):
            for p, x in cells.items():
                ax.add_patch(_box(x, y))
                ax.text(x, y, str(row.tokens[p]), ha="center", va="center", fontsize=10)
        for s, x in top.items():  # layer 0, read at the first copy's positions
            for k, w in enumerate(a0[s].tolist()):
                if w >= DRAWN and k in top and k != s:
                    arrow(ax, (x, y_top + 0.34), (top[k], y_top + 0.34), w, "C0", 0.9)
        for t, x in bottom.items():  # layer 1, read at the second copy's positions
            for k, w in enumerate(a1[t].tolist()):
                if w >= DRAWN and k in top:
                    arrow(ax, (x, y_bottom + 0.36), (top[k], y_top - 0.36), w, "C1", 0.0)
        for t, x in bottom.items():
            if t + 1 < T:
                guess = int(logits[t].argmax())
                ok = guess == row.tokens[t + 1]
                ax.text(x, y_guess, f"{guess}\n{'✓' if ok else '✗'}", ha="center", va="center", fontsize=10,
                        color=FG if ok else "C3")
        labels = ((y_top, "ind.pat_first"), (y_bottom, "ind.pat_second"), (y_guess, "ind.pat_guess"))
        for y, key in labels:
            ax.text(-0.75, y, text(lang, key), ha="right", va="center", fontsize=10)
        ax.plot([], [], color="C0", lw=2, label=text(lang, "ind.pat_layer0"))
        ax.plot([], [], color="C1", lw=2, label=text(lang, "ind.pat_layer1"))
        fig.legend(loc="outside lower center", ncols=1, frameon=False)
        ax.set_xlim(-0.6, L + 0.6)
        ax.set_ylim(y_guess - 0.5, y_top + 1.1)
        ax.set_aspect("equal")
        ax.axis("off")
        return fig

    return _light_paths(svg_figure(draw, alt=text(lang, "ind.pat_alt", length=L),
                      caption=text(lang, "ind.pat_caption", index=row.index + 1, shortest=SHORTEST,
                                   longest=LONGEST, drawn=DRAWN)))


def _box(x: float, y: float):
    from matplotlib.patches import FancyBboxPatch

    return FancyBboxPatch((x - 0.36, y - 0.32), 0.72, 0.64, boxstyle="round,pad=0,rounding_size=0.08",
                          fill=False, edgecolor=FG, lw=0.8)
