"""Schematic diagrams drawn from the configuration they show: change h, and the picture changes.

Each diagram is built in two steps. A ``*_sketch`` function computes the layout from the lesson
code (the shapes a real forward pass records, the head mapping the layer itself uses, the rows a
KV cache really holds) and returns a ``Sketch``: a list of boxes, labels and arrows, each with a
tag, so a test can count them. The matching ``*_figure`` function draws the sketch as the site's
inline SVG (``snippets.figures.svg_figure``), with alt text and caption from ``snippets.i18n``.

- §2: ``layer_figure`` (x → W_Q, W_K, W_V → h heads → h maps → concat → W_O → output) and
  ``wo_sum_figure`` (concat · W_O equals the sum of each head through its block of W_O);
- §3: ``inproj_figure`` (the packed in_proj_weight cut into W_q, W_k, W_v), ``reshape_figure``
  ((N, L, E) → (N, L, h, d_k) → (N, h, L, d_k) and back) and ``average_figure`` (where the default,
  head-averaged weights come from);
- §4: ``task_figure`` (the log stream, the offsets one position must look up, and what it names);
- key/value heads: ``kv_groups_figure`` (which query heads share which key/value head),
  ``kv_cache_figure`` (the cache growing one row per decoded token) and ``mla_figure`` (MLA's cached
  latent, and its two uses: rebuilt into every head's keys and values, or scored and mixed as it is).

Coordinates are points (1/72 inch), y pointing down. Every diagram is at most ``NARROW_PT`` wide,
so at the smallest text size a phone's column shows it whole (no sideways scrolling).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import torch

from ._checks import check_divisible, check_positive_int
from .figures import FG, MIN_FONT_PT, PHONE_COLUMN_PX, PHONE_MIN_PX, Figure, svg_figure
from .i18n import check_lang, text

__all__ = ["Sketch", "PHONE_FIGURE_PX", "NARROW_PT", "WIDTH", "LESSON_WIDTH", "PHONE_LABEL_PX", "wrap_label", "layer_sketch", "layer_figure", "wo_sum_sketch", "wo_sum_figure",
           "inproj_sketch", "inproj_figure", "reshape_shapes", "reshape_sketch", "reshape_figure",
           "average_sketch", "average_figure", "kv_groups", "kv_groups_sketch", "kv_groups_figure",
           "cache_schematic_rows", "kv_cache_sketch", "kv_cache_figure", "mla_forms", "mla_sketch", "mla_figure",
           "task_sketch", "task_figure"]

LABEL = MIN_FONT_PT
# On a 390 px phone a figure printed by an exec block sits in markdown-exec's result box, whose padding
# (16 px a side) leaves 324 px of the 356 px column (measured in Chromium); an SVG wider than that at its
# smallest text size is clipped, so the drawings are made to fit it.
PHONE_FIGURE_PX = PHONE_COLUMN_PX - 34
NARROW_PT = PHONE_FIGURE_PX * MIN_FONT_PT / PHONE_MIN_PX  # widest figure a phone shows whole
WIDTH = NARROW_PT - 20  # the drawing area; svg_figure's margin adds the rest
# The lesson's schematics (§2, §3) are read on a phone too: drawn narrower, so that in the same 324 px
# their smallest label is PHONE_LABEL_PX or more. They grow taller instead (long labels wrap).
PHONE_LABEL_PX = 11
PAD_PT = 14.4  # savefig's tight bbox pads 0.1 in on each side
LESSON_WIDTH = math.floor(PHONE_FIGURE_PX * LABEL / PHONE_LABEL_PX - PAD_PT)
LINE = 12.0  # the step from one line of a wrapped label to the next
GREY = 0.22  # alpha of FG for neutral boxes (reads on both palettes)


MAX_HEADS = 16  # one column per head: beyond this the head numbers no longer fit at LABEL size


def _check_heads(h: int) -> None:
    check_positive_int(h, "num_heads")
    if h > MAX_HEADS:
        raise ValueError(f"a schematic draws at most {MAX_HEADS} heads side by side, got num_heads={h}")


def _color(i: int) -> str:
    from .lessonfigs import HEAD_COLORS

    return HEAD_COLORS[i % len(HEAD_COLORS)]


@dataclass
class Sketch:
    """A diagram as data: boxes, labels, arrows and images, each tagged for counting."""

    width: float
    height: float
    items: list[tuple[str, str, dict]] = field(default_factory=list)

    def box(self, tag: str, x: float, y: float, w: float, h: float, color: str = FG, alpha: float = GREY,
            dashed: bool = False, edge: bool = False) -> None:
        self.items.append(("box", tag, {"x": x, "y": y, "w": w, "h": h, "color": color, "alpha": alpha,
                                        "dashed": dashed, "edge": edge}))

    def label(self, tag: str, x: float, y: float, s: str, ha: str = "center", va: str = "center",
              size: float = LABEL, wrap: float | None = None) -> int:
        """A text at (x, y); with wrap, broken into lines no wider than wrap points. Returns the number
        of lines, so that the caller can make room for them. labels() gives the text unwrapped."""
        drawn = s if wrap is None else wrap_label(s, wrap, size)
        self.items.append(("label", tag, {"x": x, "y": y, "s": drawn, "text": s, "ha": ha, "va": va,
                                          "size": size}))
        return drawn.count("\n") + 1

    def arrow(self, tag: str, x0: float, y0: float, x1: float, y1: float, head: bool = True,
              rad: float = 0.0, color: str = FG) -> None:
        self.items.append(("arrow", tag, {"x0": x0, "y0": y0, "x1": x1, "y1": y1, "head": head, "rad": rad,
                                          "color": color}))

    def image(self, tag: str, x: float, y: float, w: float, h: float, values: np.ndarray, color: str,
              vmax: float) -> None:
        self.items.append(("image", tag, {"x": x, "y": y, "w": w, "h": h, "values": values, "color": color,
                                          "vmax": vmax}))

    def strip(self, tag: str, x: float, y: float, w: float, h: float, colors: list[str], gap: bool = False) -> None:
        """A row of equal cells, one colour each (gap: a thin space between cells); drawn as one small
        image, so a figure with many cells stays light."""
        self.items.append(("strip", tag, {"x": x, "y": y, "w": w, "h": h, "colors": list(colors), "gap": gap}))

    def cells(self, tag: str, x: float, y: float, w: float, h: float, rows: list[list[str]]) -> None:
        """A grid of equal cells, rows top to bottom, one colour each, a thin space between cells; drawn as
        one small image, like strip."""
        self.items.append(("cells", tag, {"x": x, "y": y, "w": w, "h": h, "rows": [list(r) for r in rows]}))

    def pointer(self, tag: str, x0: float, y0: float, x1: float, y1: float) -> None:
        """A straight arrow drawn as one filled outline, about half the bytes of arrow's two paths."""
        self.items.append(("pointer", tag, {"x0": x0, "y0": y0, "x1": x1, "y1": y1}))

    def count(self, tag: str) -> int:
        """How many items carry this tag."""
        return sum(t == tag for _, t, _ in self.items)

    def counts(self) -> Counter:
        return Counter(t for _, t, _ in self.items)

    def labels(self, tag: str | None = None) -> list[str]:
        """The label texts, in drawing order (of one tag, or all)."""
        return [d["text"] for kind, t, d in self.items if kind == "label" and (tag is None or t == tag)]

    def figure(self) -> Figure:
        """The sketch drawn with matplotlib, one point per unit."""
        from matplotlib.colors import LinearSegmentedColormap
        from matplotlib.patches import Rectangle

        fig = Figure(figsize=(self.width / 72, self.height / 72))
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, self.width)
        ax.set_ylim(self.height, 0)
        ax.axis("off")
        for kind, _, d in self.items:
            if kind == "box":
                ax.add_patch(Rectangle((d["x"], d["y"]), d["w"], d["h"], facecolor=d["color"], alpha=d["alpha"],
                                       lw=0))
                if d["dashed"] or d["edge"]:
                    ax.add_patch(Rectangle((d["x"], d["y"]), d["w"], d["h"], facecolor="none", edgecolor=FG,
                                           lw=0.8, linestyle=(0, (3, 2)) if d["dashed"] else "-"))
            elif kind == "label":
                ax.text(d["x"], d["y"], d["s"], ha=d["ha"], va=d["va"], fontsize=d["size"])
            elif kind == "arrow":
                style = "-|>" if d["head"] else "-"
                ax.annotate("", xy=(d["x1"], d["y1"]), xytext=(d["x0"], d["y0"]),
                            arrowprops={"arrowstyle": style, "color": d["color"], "lw": 0.8 if d["color"] == FG else 1.6,
                                        "shrinkA": 0, "shrinkB": 0, "connectionstyle": f"arc3,rad={d['rad']}"})
            elif kind == "strip":
                from matplotlib.colors import to_rgba

                px = 8  # pixels per cell; with a gap, its last pixel is left clear
                row = np.zeros((1, px * len(d["colors"]), 4))
                for i, c in enumerate(d["colors"]):
                    row[0, i * px:(i + 1) * px - (1 if d["gap"] else 0)] = to_rgba(c, 0.85)
                ax.imshow(row, interpolation="nearest", aspect="auto",
                          extent=(d["x"], d["x"] + d["w"], d["y"] + d["h"], d["y"]))
            elif kind == "cells":
                from matplotlib.colors import to_rgba

                n_r, n_c = len(d["rows"]), len(d["rows"][0])
                cw, ch = d["w"] / n_c, d["h"] / n_r
                px, py = 8 * max(1, round(cw / ch)), 8 * max(1, round(ch / cw))  # the clear pixel stays thin
                grid = np.zeros((py * n_r, px * n_c, 4))
                for r, cols in enumerate(d["rows"]):
                    for i, c in enumerate(cols):
                        grid[r * py:(r + 1) * py - 1, i * px:(i + 1) * px - 1] = to_rgba(c, 0.85)
                ax.imshow(grid, interpolation="nearest", aspect="auto",
                          extent=(d["x"], d["x"] + d["w"], d["y"] + d["h"], d["y"]))
            elif kind == "pointer":
                from matplotlib.patches import FancyArrow

                ax.add_patch(FancyArrow(d["x0"], d["y0"], d["x1"] - d["x0"], d["y1"] - d["y0"], width=0.8,
                                        head_width=5, head_length=5, length_includes_head=True, color=FG, lw=0))
            else:
                cmap = LinearSegmentedColormap.from_list("head", [(0, 0, 0, 0), d["color"]])
                ax.imshow(d["values"], cmap=cmap, vmin=0, vmax=d["vmax"], interpolation="nearest",
                          extent=(d["x"], d["x"] + d["w"], d["y"] + d["h"], d["y"]), aspect="auto")
                ax.add_patch(Rectangle((d["x"], d["y"]), d["w"], d["h"], facecolor="none", edgecolor=FG,
                                       lw=0.5))
        return fig


def _t(lang: str, key: str, **values) -> str:
    return text(lang, f"schem.{key}", **values)


_BREAK_AFTER = set("，：；）")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")


def wrap_label(s: str, width: float, size: float = LABEL) -> str:
    """s broken into lines at most width points wide (measured as snippets.figures measures text),
    only after a Chinese comma or colon, or at a space between two non-Chinese characters that follows
    a word longer than two characters (so "8 个头", "Q、K、V", "Q, K, V" and "8 heads" stay whole), never inside parentheses, so a shape such as (1, 8, 11, 64) stays on one
    line. A piece with no break that fits stays too wide.

    >>> print(wrap_label("cut into 8 heads, q, k, v of width 64: (1, 8, 11, 64)", 150))
    cut into 8 heads, q, k, v of
    width 64: (1, 8, 11, 64)
    """
    from .figures import _text_width_in

    def fits(t: str) -> bool:
        return _text_width_in([t.strip()], size) * 72 <= width

    if fits(s):
        return s
    pieces, depth, start = [], 0, 0
    for i, c in enumerate(s):
        depth += (c in "(（[") - (c in ")）]")
        word = s[:i].rsplit(" ", 1)[-1]  # a space after a short word ("8", "K,", "of") keeps it with the next
        space = (c == " " and (len(word) > 2 or word.endswith(")")) and not _CJK_CHAR.match(s[i - 1:i] or "x")
                 and not _CJK_CHAR.match(s[i + 1:i + 2] or "x"))
        if depth == 0 and (c in _BREAK_AFTER or space):
            pieces.append(s[start:i + 1])
            start = i + 1
    pieces.append(s[start:])
    lines = [""]
    for piece in pieces:
        if lines[-1] and not fits(lines[-1] + piece):
            lines.append(piece)
        else:
            lines[-1] += piece
    return "\n".join(line.strip() for line in lines if line.strip())


def _signed(lang: str, offset: int) -> str:
    """An offset with its sign, as the page's language writes numbers (−2 with a minus sign in zh)."""
    return _t(lang, "task.offset", o=offset)


def _compact(fig: str) -> str:
    """The same drawing in fewer bytes: no wrapper group per shape or label, no no-op rotation, no font
    family (text inherits the page's), no clipping, coordinates to 0.01 pt, no whitespace between tags."""
    two = re.compile(r"(\d+\.\d\d)\d+")
    fig = re.sub(r'<g id="[^"]+-(?:patch|text)_\d+">\s*(<(?:path|text)\b[^>]*(?:/>|>[^<]*</text>))\s*</g>', r"\1", fig)
    fig = re.sub(r' transform="rotate\(-0 [^"]*\)"', "", fig)
    fig = fig.replace("font-family: inherit; ", "")
    fig = re.sub(r' clip-path="url\(#[^)]*\)"', "", fig)  # everything lies inside the axes anyway

    def short(m: re.Match) -> str:
        return " " + m.group(1) + '="' + two.sub(r"\1", " ".join(m.group(2).split())) + '"'

    fig = re.sub(r' (d|x|y)="([^"]*)"', short, fig)
    return re.sub(r">\s+<", "><", fig)


def _draw(lang: str, name: str, sketch: Sketch, **values) -> str:
    if sketch.width > WIDTH:
        raise ValueError(f"a schematic must be at most {WIDTH:g} pt wide, got {sketch.width:g}")
    return _compact(svg_figure(sketch.figure, alt=_t(lang, f"{name}.alt", **values),
                               caption=_t(lang, f"{name}.caption", **values)))


def _wrapped(sk: Sketch, tag: str, x: float, y: float, s: str, width: float, ha: str = "center") -> float:
    """A label centred on y if it fits on one line; wrapped to width, its first line centred on y,
    if not. Returns the height its extra lines take below."""
    n = sk.label(tag, x, y, s, ha=ha, wrap=width)
    if n > 1:  # shift the block down: its first line stays where a one-line label would be
        sk.items[-1][2]["y"] = y + LINE * (n - 1) / 2
    return LINE * (n - 1)


def _shape(s) -> str:
    return "(" + ", ".join(str(int(n)) for n in s) + ")"


def _head_header(sk: Sketch, x0: float, col: float, y: float, h: int) -> None:
    for i in range(h):
        sk.label("head-index", x0 + (i + 0.5) * col, y, str(i))


# ---------------------------------------------------------------- §2


def _layer_config(d_model: int, num_heads: int, seed: int):
    from .lessonfigs import datapath_shapes

    shapes, weights = datapath_shapes(d_model, num_heads, seed)
    return {k: v[0] for k, v in shapes.items()}, weights.numpy()


def layer_sketch(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> Sketch:
    """One layer, heads as columns: x → W_Q, W_K, W_V → h heads' q, k, v → h maps → h outputs →
    concat → W_O → output. Shapes and maps come from one forward pass of this site's layer on the
    embedded log line (snippets.lessonfigs.datapath_shapes)."""
    check_lang(lang)
    _check_heads(num_heads)
    check_divisible(d_model, num_heads)
    s, w = _layer_config(d_model, num_heads, seed)
    h = num_heads
    N, L, E = s["x"]
    d_k = s["split"][-1]
    W = LESSON_WIDTH
    x0, x1 = 6.0, W - 6.0
    cw = x1 - x0
    col = cw / h
    gap = min(4.0, col * 0.15)
    sk = Sketch(W, 0)
    y = 4.0

    def caption(tag: str, key: str, **values):
        nonlocal y
        y += _wrapped(sk, tag, (x0 + x1) / 2, y + 7, _t(lang, f"layer.{key}", **values), cw) + 17

    def down(length: float = 16.0):
        nonlocal y
        sk.arrow("arrow", (x0 + x1) / 2, y + 2, (x0 + x1) / 2, y + length - 4)
        y += length

    caption("step", "x", shape=_shape(s["x"]))
    sk.box("x", x0, y, cw, 14)
    y += 14
    down()
    caption("step", "proj", E=E, shape=_shape(s["W_q"]))
    mw = (cw - 2 * 12) / 3
    for m, name in enumerate(("W^Q", "W^K", "W^V")):
        mx = x0 + m * (mw + 12)
        for i in range(h):
            sk.box("proj-stripe", mx + i * mw / h, y, mw / h, 26, _color(i), 0.85)
        sk.box("proj-frame", mx, y, mw, 26, "none", 1.0, edge=True)
        sk.label("matrix", mx + mw / 2, y + 34, name)
    y += 40
    down()
    caption("step", "split", h=h, d_k=d_k, shape=_shape(s["split"]))
    _head_header(sk, x0, col, y + 5, h)
    y += 12
    bh = 8.0
    for r in range(3):  # q, k, v of each head
        for i in range(h):
            sk.box("qkv", x0 + i * col + gap / 2, y + r * (bh + 2), col - gap, bh, _color(i), 0.85)
    y += 3 * (bh + 2)
    down()
    caption("step", "maps", h=h, shape=_shape(s["weights"]))
    side = min(col - gap, 34.0)
    vmax = float(w.max())
    for i in range(h):
        sk.image("map", x0 + i * col + (col - side) / 2, y, side, side, w[i], _color(i), vmax)
    y += side
    down()
    caption("step", "context", h=h, shape=_shape(s["context"]))
    for i in range(h):
        sk.box("head-out", x0 + i * col + gap / 2, y, col - gap, 10, _color(i), 0.85)
    y += 10
    down()
    caption("step", "concat", shape=_shape(s["merge"]))
    for i in range(h):
        sk.box("concat-seg", x0 + i * col, y, col, 14, _color(i), 0.85)
    y += 14
    down()
    caption("step", "wo", E=E)
    side = 44.0
    mx = (x0 + x1 - side) / 2
    for i in range(h):
        sk.box("wo-band", mx, y + i * side / h, side, side / h, _color(i), 0.85)
    sk.box("wo-frame", mx, y, side, side, "none", 1.0, edge=True)
    sk.label("matrix", mx + side + 6, y + side / 2, "W^O", ha="left")
    y += side
    down()
    caption("step", "out", shape=_shape(s["W_o"]))
    sk.box("out", x0, y, cw, 14, FG, 0.45)
    sk.height = y + 18
    return sk


def layer_figure(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> str:
    """layer_sketch as the page's inline SVG figure."""
    sk = layer_sketch(lang, d_model, num_heads, seed)
    s, _ = _layer_config(d_model, num_heads, seed)
    return _draw(lang, "layer", sk, h=num_heads, E=d_model, d_k=s["split"][-1], L=s["x"][1])


@torch.no_grad()
def _wo_blocks(d_model: int, num_heads: int, seed: int):
    """The shapes of concat, W_O (paper's convention, in × out), each head's slice and block, and
    the largest difference between the two ways of computing the output (snippets.heads)."""
    from .heads import concat_vs_sum
    from .multihead import MultiHeadAttention

    s, _ = _layer_config(d_model, num_heads, seed)
    torch.manual_seed(seed)
    layer = MultiHeadAttention(d_model, num_heads)
    d_k = d_model // num_heads
    W_O = layer.W_o.weight.T  # (h·d_k, E): the paper stores W^O this way round
    blocks = [tuple(W_O[i * d_k:(i + 1) * d_k].shape) for i in range(num_heads)]
    concat = tuple(s["merge"][1:])  # (L, E) of the one sequence
    head = (concat[0], d_k)
    return concat, tuple(W_O.shape), head, blocks, concat_vs_sum(d_model, num_heads, seed)


def wo_sum_sketch(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> Sketch:
    """Top: concat (L, E) times W_O (E, E), each head's part in its colour. Below: the same product
    as h terms, head i's output (L, d_k) times its block of rows W_O_i (d_k, E), summed."""
    check_lang(lang)
    _check_heads(num_heads)
    check_divisible(d_model, num_heads)
    concat, wo, head, blocks, _ = _wo_blocks(d_model, num_heads, seed)
    h = num_heads
    W = LESSON_WIDTH
    sk = Sketch(W, 0)
    sq, out_w = 52.0, 50.0  # W_O; the output bar
    bar_w, bar_h = W - 26 - 18 - sq - 22 - 6 - out_w, 16.0  # concat / output: (L, E) drawn wide and flat
    x_c, x_w = 26.0, 26.0 + bar_w + 18
    y = 4.0
    sk.label("step", W - 6, y + 6, _t(lang, "layer.out", shape=_shape(concat)), ha="right")  # a row of its own
    y += 14
    sk.label("step", x_c + bar_w / 2, y + 6, _t(lang, "wo.concat", shape=_shape(concat)))
    sk.label("step", x_w + sq / 2, y + 6, "W^O " + _shape(wo))
    y += 16
    for i in range(h):
        sk.box("concat-seg", x_c + i * bar_w / h, y + (sq - bar_h) / 2, bar_w / h, bar_h, _color(i), 0.85)
        sk.box("wo-band", x_w, y + i * sq / h, sq, sq / h, _color(i), 0.85)
    sk.box("wo-frame", x_w, y, sq, sq, "none", 1.0, edge=True)
    sk.label("op", x_c + bar_w + 9, y + sq / 2, "·")
    x_out = x_w + sq + 22
    sk.label("op", x_w + sq + 11, y + sq / 2, "=")
    sk.box("out", x_out, y + (sq - bar_h) / 2, out_w, bar_h, FG, 0.45)
    y += sq + 6
    sk.label("op", 12, y + 8, "=")
    y += _wrapped(sk, "step", (24 + W - 6) / 2, y + 8,
                  _t(lang, "wo.terms", h=h, head=_shape(head), block=_shape(blocks[0])), W - 30)
    y += 20
    hw = bar_w / h  # head i's slice keeps its width in the concat drawing
    bw, bh = 150.0, max(sq / h, 5.0)
    row = max(bh, 12.0) + 4
    for i in range(h):
        cy = y + i * row + row / 2
        if i:
            sk.label("op", 12, cy, "+")
        sk.box("head-slice", x_c, cy - 5, hw, 10, _color(i), 0.85)
        sk.label("op", x_c + hw + 9, cy, "·")
        sk.box("wo-block", x_c + hw + 18, cy - bh / 2, bw, bh, _color(i), 0.85)
        sk.label("term", x_c + hw + 18 + bw + 8, cy, _t(lang, "wo.term", i=i), ha="left")
    y += h * row
    sk.label("op", 12, y + 8, "+")
    sk.label("term", x_c, y + 8, _t(lang, "wo.bias"), ha="left")
    sk.height = y + 20
    return sk


def wo_sum_figure(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> str:
    """wo_sum_sketch as the page's inline SVG figure; the caption carries the measured difference."""
    sk = wo_sum_sketch(lang, d_model, num_heads, seed)
    from .heads import _rounding

    concat, wo, head, blocks, err = _wo_blocks(d_model, num_heads, seed)
    return _draw(lang, "wo", sk, h=num_heads, head=_shape(head), block=_shape(blocks[0]), err=f"{err:.1e}",
                 verdict=_rounding(lang, err))


# ---------------------------------------------------------------- key/value heads


def kv_groups(num_heads: int, num_kv_heads: int) -> list[int]:
    """The key/value head each query head reads, by the layer's own repeat_interleave.

    >>> kv_groups(8, 2)
    [0, 0, 0, 0, 1, 1, 1, 1]
    """
    from .kvheads.attention import check_kv_heads

    check_kv_heads(num_heads, num_kv_heads)
    return torch.arange(num_kv_heads).repeat_interleave(num_heads // num_kv_heads).tolist()


def _kind(h: int, g: int) -> str:
    return "MHA" if g == h else "MQA" if g == 1 else "GQA"


def kv_groups_sketch(lang: str, num_heads: int = 8, groups: tuple[int, ...] = (8, 4, 2, 1)) -> Sketch:
    """One band per g: the h query heads on top, the g key/value heads below, a line from each
    query head to the key/value head it reads. Colours are key/value heads."""
    check_lang(lang)
    _check_heads(num_heads)
    if not groups:
        raise ValueError("groups must name at least one number of key/value heads, got none")
    maps = {g: kv_groups(num_heads, g) for g in groups}
    h = num_heads
    W = WIDTH
    x0 = 92.0
    cw = W - 6 - x0
    col = cw / h
    side = min(col - 4, 24.0)
    sk = Sketch(W, 0)
    y = 4.0
    for g, m in maps.items():
        kcol = cw / g
        sk.label("band", 4, y + 6, f"g = {g} · {_kind(h, g)}", ha="left")
        y += 16
        sk.label("row-name", x0 - 8, y + 8, _t(lang, "groups.q"), ha="right")
        sk.label("row-name", x0 - 8, y + 48, _t(lang, "groups.kv"), ha="right")
        for i in range(h):
            cx = x0 + (i + 0.5) * col
            kx = x0 + (m[i] + 0.5) * kcol
            sk.box("q-head", cx - side / 2, y, side, 16, _color(m[i]), 0.85)
            sk.label("q-index", cx, y + 8, str(i))
            sk.arrow("link", cx, y + 16, kx, y + 40, head=False)
        for j in range(g):
            kx = x0 + (j + 0.5) * kcol
            sk.box("kv-head", kx - side / 2, y + 40, side, 16, _color(j), 0.85, edge=True)
            sk.label("kv-index", kx, y + 48, str(j))
        y += 68
    sk.height = y - 8
    return sk


def kv_groups_figure(lang: str, num_heads: int = 8, groups: tuple[int, ...] = (8, 4, 2, 1)) -> str:
    """kv_groups_sketch as the page's inline SVG figure."""
    sk = kv_groups_sketch(lang, num_heads, groups)
    return _draw(lang, "groups", sk, h=num_heads, gs=", ".join(str(g) for g in groups))


@torch.no_grad()
def cache_schematic_rows(d_model: int = 64, num_heads: int = 8, num_kv_heads: int = 2, steps: int = 5,
               seed: int = 0) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Decode steps positions one at a time through GroupedQueryAttention with a KVCache; after each
    step, (the query's shape, the cached keys' shape (N, g, S, d_k))."""
    from .kvheads.attention import GroupedQueryAttention, KVCache

    check_positive_int(steps, "steps")
    torch.manual_seed(seed)
    layer = GroupedQueryAttention(d_model, num_heads, num_kv_heads)
    x = torch.randn(1, steps, d_model)
    cache, seen = KVCache(), []
    q_shape = []
    hook = layer.W_q.register_forward_hook(lambda m, a, out: q_shape.append(tuple(out.shape)))
    try:
        for t in range(steps):
            layer(x[:, t:t + 1], cache)
            seen.append((q_shape[-1], tuple(cache.k.shape)))
    finally:
        hook.remove()
    return seen


def kv_cache_sketch(lang: str, d_model: int = 64, num_heads: int = 8, num_kv_heads: int = 2,
                    steps: int = 5, seed: int = 0) -> Sketch:
    """A column per decode step: the query (computed, used, dropped), then the cached keys and
    values, one row per position; the row this step added is coloured, the rows read again are grey."""
    check_lang(lang)
    seen = cache_schematic_rows(d_model, num_heads, num_kv_heads, steps, seed)
    g = num_kv_heads
    W = WIDTH
    x0 = 104.0
    col = (W - 4 - x0) / steps
    cell = min(12.0, (col - 14) / (2 * g))
    rowh = 10.0
    sk = Sketch(W, 0)
    y = 4.0
    for t in range(steps):
        sk.label("step-name", x0 + (t + 0.5) * col, y + 6, _t(lang, "cache.step", t=t))
    y += 18
    sk.label("row-name", x0 - 8, y + 7, _t(lang, "cache.q"), ha="right")
    for t in range(steps):
        cx = x0 + (t + 0.5) * col
        sk.box("query", cx - 2 * cell * g / 2 - 3, y, 2 * cell * g + 6, 14, FG, 0.1, dashed=True)
        sk.label("q-name", cx, y + 7, "q")
    y += 22
    sk.label("row-name", x0 - 8, y + 6, _t(lang, "cache.kv"), ha="right")
    for t in range(steps):
        cx = x0 + (t + 0.5) * col
        for part, name in enumerate("KV"):
            sk.label("kv-name", cx - g * cell / 2 - 3 + part * (g * cell + 6), y + 6, name)
    y += 14
    top = y
    for t, (_, k) in enumerate(seen):
        S = k[2]
        cx = x0 + (t + 0.5) * col
        for p in range(S):
            new = p == S - 1
            for part in range(2):  # keys, then values
                px = cx - g * cell - 3 + part * (g * cell + 6)
                for j in range(g):
                    sk.box("cache-new" if new else "cache-old", px + j * cell, top + p * rowh, cell - 1,
                           rowh - 1, _color(j) if new else FG, 0.85 if new else GREY)
        sk.label("length", cx, top + S * rowh + 8, f"S = {S}")
    sk.height = top + steps * rowh + 20
    return sk


def kv_cache_figure(lang: str, d_model: int = 64, num_heads: int = 8, num_kv_heads: int = 2,
                    steps: int = 5, seed: int = 0) -> str:
    """kv_cache_sketch as the page's inline SVG figure; the caption names the shapes it recorded."""
    sk = kv_cache_sketch(lang, d_model, num_heads, num_kv_heads, steps, seed)
    seen = cache_schematic_rows(d_model, num_heads, num_kv_heads, steps, seed)
    return _draw(lang, "cache", sk, h=num_heads, g=num_kv_heads, steps=steps, q=_shape(seen[-1][0]),
                 k=_shape(seen[-1][1]))


@torch.no_grad()
def mla_forms(d_model: int = 96, num_heads: int = 8, d_latent: int = 48, steps: int = 4,
              seed: int = 0) -> dict:
    """Decode steps positions one at a time through one LatentAttention twice, naive and absorbed, each
    form with its own LatentCache. Returns the shapes the MLA diagram draws, recorded from the layer
    (the cache, the query, the naive form's keys, the absorbed form's query in latent space, the output),
    how many positions' keys and values W_uk and W_uv built at each step of each form, and the largest
    difference between the two forms' outputs."""
    from .kvheads.mla import LatentAttention, LatentCache

    check_positive_int(steps, "steps")
    torch.manual_seed(seed)
    layer = LatentAttention(d_model, num_heads, d_latent)
    h, d_k = layer.h, layer.d_k
    x = torch.randn(1, steps, d_model)
    got: dict = {}
    for form in ("naive", "absorbed"):
        rec: dict = {"q": [], "k": [], "v": []}
        hooks = [m.register_forward_hook(lambda mod, a, out, key=key: rec[key].append(tuple(out.shape)))
                 for key, m in (("q", layer.W_q), ("k", layer.W_uk), ("v", layer.W_uv))]
        cache, built, outs = LatentCache(), [], []
        try:
            for t in range(steps):
                n = len(rec["k"]), len(rec["v"])
                outs.append(layer(x[:, t:t + 1], cache, absorbed=form == "absorbed"))
                built.append((sum(s[1] for s in rec["k"][n[0]:]), sum(s[1] for s in rec["v"][n[1]:])))
        finally:
            for hook in hooks:
                hook.remove()
        got[form] = {"cache": tuple(cache.c.shape), "built": built, "q": rec["q"][-1], "k": rec["k"],
                     "out": torch.cat(outs, dim=1)}
    N, S, C = got["absorbed"]["cache"]
    q = torch.zeros(got["absorbed"]["q"]).view(N, 1, h, d_k).transpose(1, 2)  # (N, h, 1, d_k)
    q_c = q @ layer.W_uk.weight.view(h, d_k, C)  # as _absorbed moves it: (N, h, 1, C)
    k = got["naive"]["k"][-1]  # (N, S, h·d_k) at the last step
    return {"h": h, "d_k": d_k, "d_c": C, "cache": (N, S, C), "q": tuple(q.shape),
            "kv": (k[0], h, k[1], d_k), "q_c": tuple(q_c.shape), "out": tuple(got["naive"]["out"][:, -1:].shape),
            "built": {f: got[f]["built"] for f in got},
            "err": float((got["naive"]["out"] - got["absorbed"]["out"]).abs().max())}


def mla_sketch(lang: str, d_model: int = 96, num_heads: int = 8, d_latent: int = 48, steps: int = 4,
               seed: int = 0) -> Sketch:
    """MLA's latent and its two uses. Top: what one position caches, MHA's h heads' keys and values
    against MLA's one latent c (grey: it belongs to no head). Below, side by side, one decode step after
    steps positions: the naive form rebuilds every cached position's keys and values with W_uk and W_uv,
    then attends as usual; the absorbed form moves the query into latent space (W_ukᵀ q), scores and
    mixes the cached c themselves, and applies W_uv after the mix. Both end in the same output through
    W_o. Widths count numbers: every vector is drawn u points per number, so c is d_c wide and each
    head's q, k or v d_k wide. Shapes are mla_forms', recorded from the layer."""
    check_lang(lang)
    _check_heads(num_heads)
    m = mla_forms(d_model, num_heads, d_latent, steps, seed)
    h, d_k, C = m["h"], m["d_k"], m["d_c"]
    S = m["cache"][1]
    W = WIDTH
    half = W / 2  # a column per form
    x0 = 40.0  # where the top band's vectors start
    u = min(1.25, (half - 24) / (2 * h * d_k + 6), (W - x0 - 150) / (2 * h * d_k + 6))  # points per number
    hw, cw = h * d_k * u, C * u  # all heads' q, k or v; one latent
    if cw > half / 2 - 12:
        raise ValueError(f"d_latent={d_latent} is too wide to draw beside a query: at most "
                         f"{int((half / 2 - 12) / u)} with d_model={d_model}")
    rowh = 8.0
    heads = [_color(i) for i in range(h)]
    grey = [AVERAGE_GREY]
    sk = Sketch(W, 0)
    y = 4.0

    def line(x: float, key: str, tag: str = "step", **values) -> None:
        nonlocal y
        sk.label(tag, x, y + 6, _t(lang, f"mla.{key}", **values))
        y += 14

    def down(x: float, length: float = 14.0) -> None:
        nonlocal y
        sk.pointer("arrow", x, y, x, y + length - 3)
        y += length

    # what one position caches
    line(W / 2, "per_position", h=h, d_k=d_k)
    y += 2
    sk.label("row-name", x0 - 6, y + 4, "MHA", ha="right")
    sk.cells("mha-k", x0, y, hw, rowh, [heads])
    sk.cells("mha-v", x0 + hw + 6, y, hw, rowh, [heads])
    sk.label("size", x0 + 2 * hw + 14, y + 4, _t(lang, "mla.mha_size", n=2 * h * d_k), ha="left")
    y += rowh + 8
    sk.label("row-name", x0 - 6, y + 4, "MLA", ha="right")
    sk.cells("latent", x0, y, cw, rowh, [grey])
    sk.label("size", x0 + cw + 8, y + 4, _t(lang, "mla.mla_size", C=C), ha="left")
    y += rowh + 10
    sk.box("divider", 4, y, W - 8, 0.8, FG, 0.6)
    y += 6
    top = y
    xl, xr = half / 2, half + half / 2
    block = S * (rowh + 1)  # S cached rows

    # the naive form: rebuild, then attend
    line(xl, "naive", "form")
    line(xl, "cache", shape=_shape(m["cache"]))
    sk.cells("cache", xl - cw / 2, y, cw, block, [grey] * S)
    y += block + 2
    down(xl)
    line(xl, "rebuild", S=S)
    line(xl, "rebuild_what")
    y += 3
    sk.box("rebuilt-frame", xl - hw - 6, y, 2 * hw + 12, block + 19, "none", 1.0, dashed=True)
    sk.label("kv-name", xl - 3 - hw / 2, y + 7, "k")
    sk.label("kv-name", xl + 3 + hw / 2, y + 7, "v")
    y += 14
    sk.cells("k-rebuilt", xl - hw - 3, y, hw, block, [heads] * S)
    sk.cells("v-rebuilt", xl + 3, y, hw, block, [heads] * S)
    y += block + 8
    line(xl, "rebuilt_shape", shape=_shape(m["kv"]))
    down(xl)
    line(xl, "query", shape=_shape(m["q"]))
    sk.cells("query", xl - hw / 2, y, hw, rowh, [heads])
    y += rowh + 2
    down(xl)
    line(xl, "naive_attend")
    naive_end = y

    # the absorbed form: the query moves, the cache is used as it is
    y = top
    line(xr, "absorbed", "form")
    line(xr, "query", shape=_shape(m["q"]))
    sk.cells("query", xr - hw / 2, y, hw, rowh, [heads])
    y += rowh + 2
    down(xr)
    line(xr, "move")
    line(xr, "moved_shape", shape=_shape(m["q_c"]))
    qx, cx = xr - cw - 8, xr + 8
    sk.label("kv-name", qx + cw / 2, y + 5, "W_ukᵀ q")
    sk.label("kv-name", cx + cw / 2, y + 5, "c")
    y += 12
    stack = h * 5.0  # h latent-space vectors, one row per head
    sk.cells("q-latent", qx, y, cw, stack, [[c] for c in heads])
    sk.label("op", xr, y + stack / 2, "·")
    sk.cells("cache", cx, y, cw, block, [grey] * S)
    y += max(stack, block) + 4
    line(xr, "on_latents")
    line(xr, "like_mqa")
    down(xr)
    line(xr, "mixed", shape=_shape(m["q_c"]))
    sk.cells("ctx-latent", xr - cw / 2, y, cw, stack, [[c] for c in heads])
    y += stack + 2
    down(xr)
    line(xr, "after_mix")
    absorbed_end = y

    # both forms end in the same per-head output and W_o
    y = max(naive_end, absorbed_end)
    for x, end in ((xl, naive_end), (xr, absorbed_end)):
        if y - end > 4:
            sk.pointer("arrow", x, end, x, y - 1)
    y += 2
    for x in (xl, xr):
        sk.cells("head-out", x - hw / 2, y, hw, rowh, [heads])
    sk.box("divider", half - 0.4, top, 0.8, y + rowh - top, FG, 0.6)
    y += rowh + 2
    for x in (xl, xr):
        sk.pointer("arrow", x, y, W / 2 + (x - W / 2) * 0.25, y + 14)
    y += 16
    line(W / 2, "out", shape=_shape(m["out"]))
    sk.box("out", W / 2 - hw / 2, y, hw, rowh, FG, 0.45)
    sk.height = y + rowh + 4
    return sk


def mla_figure(lang: str, d_model: int = 96, num_heads: int = 8, d_latent: int = 48, steps: int = 4,
               seed: int = 0) -> str:
    """mla_sketch as the page's inline SVG figure; the caption carries the difference between the forms."""
    from .heads import _rounding

    sk = mla_sketch(lang, d_model, num_heads, d_latent, steps, seed)
    m = mla_forms(d_model, num_heads, d_latent, steps, seed)
    return _draw(lang, "mla", sk, h=m["h"], d_k=m["d_k"], C=m["d_c"], S=m["cache"][1], n=2 * m["h"] * m["d_k"],
                 err=f"{m['err']:.1e}", verdict=_rounding(lang, m["err"]))


# ---------------------------------------------------------------- §3


@torch.no_grad()
def _official(d_model: int, num_heads: int, seed: int):
    """nn.MultiheadAttention on the embedded log line, its in_proj_weight cut in three, and ours loaded
    from it (snippets.multihead.load_from_torch): the cut is checked against what ours holds."""
    from torch import nn

    from .logline import embed_tokens, log_tokens
    from .multihead import MultiHeadAttention, load_from_torch

    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(d_model, num_heads, batch_first=True).eval()
    packed = official.in_proj_weight  # (3E, E)
    parts = packed.chunk(3)  # 3 x (E, E)
    mine = load_from_torch(MultiHeadAttention(d_model, num_heads), official)
    for part, ours in zip(parts, (mine.W_q, mine.W_k, mine.W_v), strict=True):
        if not torch.equal(part, ours.weight):  # pragma: no cover - a broken load_from_torch
            raise ValueError("load_from_torch does not hold the cut of in_proj_weight")
    x = embed_tokens(log_tokens(), d_model)
    _, w_avg = official(x, x, x)  # (N, L, S)
    _, w_heads = official(x, x, x, average_attn_weights=False)  # (N, h, L, S)
    return packed, parts, x, w_avg[0].numpy(), w_heads[0].numpy()


def inproj_sketch(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> Sketch:
    """The packed in_proj_weight (3E, E), one section per projection with a band per head, and the three
    (E, E) matrices .chunk(3) cuts it into (PyTorch's storage: rows are outputs)."""
    check_lang(lang)
    _check_heads(num_heads)
    packed, parts, *_ = _official(d_model, num_heads, seed)
    h, E = num_heads, d_model
    d_k = E // h
    W = LESSON_WIDTH
    sk = Sketch(W, 0)
    px, pw = 6.0, 50.0  # packed matrix
    sec = 100.0  # height of one section
    qx, qs = W - 6 - 80, 80.0  # the cut matrices
    mid, room = (px + pw + qx) / 2, qx - px - pw - 8  # the labels between them
    y = 4.0
    sk.label("name", px + pw / 2, y + 6, "in_proj_weight", ha="left")
    sk.label("shape", px + pw / 2, y + 20, _shape(packed.shape), ha="left")
    y += 32
    for m, (name, part) in enumerate(zip(("W_q", "W_k", "W_v"), parts, strict=True)):
        top = y + m * sec
        for i in range(h):
            sk.box("packed-band", px, top + i * sec / h, pw, sec / h, _color(i), 0.85)
        sk.box("packed-section", px, top, pw, sec, "none", 1.0, edge=True)
        lo, hi = m * E, (m + 1) * E - 1
        below = _wrapped(sk, "rows", mid, top + 14, _t(lang, "inproj.rows", lo=lo, hi=hi, m=m), room)
        below += _wrapped(sk, "head-rows", mid, top + 30 + below,
                          _t(lang, "inproj.heads", last=h - 1, a=d_k - 1, b=(h - 1) * d_k, c=E - 1), room)
        sk.arrow("arrow", px + pw + 4, top + 44 + below, qx - 4, top + 44 + below)
        sk.label("matrix", qx + qs, top + 8, f"{name} {_shape(part.shape)}", ha="right")
        for i in range(h):
            sk.box("part-band", qx, top + 16 + i * qs / h, qs, qs / h, _color(i), 0.85)
        sk.box("part-frame", qx, top + 16, qs, qs, "none", 1.0, edge=True)
    sk.height = y + 3 * sec + 8
    return sk


def inproj_figure(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> str:
    """inproj_sketch as the page's inline SVG figure."""
    sk = inproj_sketch(lang, d_model, num_heads, seed)
    return _draw(lang, "inproj", sk, E=d_model, E3=3 * d_model, h=num_heads, d_k=d_model // num_heads)


@torch.no_grad()
def reshape_shapes(d_model: int = 512, num_heads: int = 8) -> list[tuple[int, ...]]:
    """The shapes of split_heads' two steps and merge_heads' way back, on the embedded log line:
    x, .view, .transpose, and merged back (which equals x)."""
    from .logline import embed_tokens, log_tokens
    from .multihead import merge_heads, split_heads

    check_divisible(d_model, num_heads)
    x = embed_tokens(log_tokens(), d_model)  # (N, L, E)
    N, L, E = x.shape
    viewed = x.view(N, L, num_heads, E // num_heads)  # (N, L, h, d_k)
    split = split_heads(x, num_heads)  # (N, h, L, d_k)
    if not torch.equal(split, viewed.transpose(1, 2)):  # pragma: no cover - split_heads changed
        raise ValueError("split_heads is no longer .view then .transpose(1, 2)")
    back = merge_heads(split)
    if not torch.equal(back, x):  # pragma: no cover
        raise ValueError("merge_heads no longer undoes split_heads")
    return [tuple(x.shape), tuple(viewed.shape), tuple(split.shape), tuple(back.shape)]


def reshape_sketch(lang: str, d_model: int = 512, num_heads: int = 8) -> Sketch:
    """The reshapes as groups along the second dimension: L tokens of E features; L tokens of h pieces;
    after the transpose, h heads of L tokens; and back to L tokens of E features."""
    check_lang(lang)
    _check_heads(num_heads)
    shapes = reshape_shapes(d_model, num_heads)
    h = num_heads
    L = shapes[0][1]
    W = LESSON_WIDTH
    x0, x1 = 6.0, W - 6.0
    sk = Sketch(W, 0)
    y = 4.0

    def groups(tag: str, n: int, inner: int, color_of, gap: bool) -> None:
        nonlocal y
        gw = (x1 - x0 - (n - 1) * 6) / n
        for a in range(n):
            gx = x0 + a * (gw + 6)
            sk.label(tag + "-index", gx + gw / 2, y + 5, str(a))
            sk.strip(tag, gx, y + 12, gw, 18, [_color(color_of(a, b)) for b in range(inner)], gap)
        y += 34

    def caption(key: str, shape, **values) -> None:
        nonlocal y
        y += _wrapped(sk, "step", (x0 + x1) / 2, y + 7, _t(lang, f"reshape.{key}", shape=_shape(shape), **values),
                      x1 - x0) + 16

    def down() -> None:
        nonlocal y
        sk.arrow("arrow", (x0 + x1) / 2, y, (x0 + x1) / 2, y + 10)
        y += 14

    caption("x", shapes[0], L=L)
    groups("token", L, h, lambda a, b: b, False)
    down()
    caption("view", shapes[1], h=h)
    groups("piece", L, h, lambda a, b: b, True)
    down()
    caption("transpose", shapes[2], h=h, L=L)
    groups("head", h, L, lambda a, b: a, True)
    down()
    caption("back", shapes[3])
    groups("merged", L, h, lambda a, b: b, False)
    sk.height = y
    return sk


def reshape_figure(lang: str, d_model: int = 512, num_heads: int = 8) -> str:
    """reshape_sketch as the page's inline SVG figure."""
    sk = reshape_sketch(lang, d_model, num_heads)
    s = reshape_shapes(d_model, num_heads)
    return _draw(lang, "reshape", sk, h=num_heads, L=s[0][1], x=_shape(s[0]), split=_shape(s[2]))


AVERAGE_GREY = "#8a8a8a"  # the averaged map: neutral, visible on both palettes


def average_sketch(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> Sketch:
    """nn.MultiheadAttention's h maps (average_attn_weights=False), and their mean over the head
    dimension, which is what it returns by default; the mean is checked against the default."""
    check_lang(lang)
    _check_heads(num_heads)
    *_, w_avg, w_heads = _official(d_model, num_heads, seed)
    if not np.allclose(w_heads.mean(0), w_avg, atol=1e-6):  # pragma: no cover
        raise ValueError("the default weights are no longer the mean of the per-head weights")
    h, L = num_heads, w_avg.shape[0]
    W = LESSON_WIDTH
    x0, x1 = 6.0, W - 6.0
    col = (x1 - x0) / h
    side = min(col - 6, 40.0)
    vmax = float(w_heads.max())
    sk = Sketch(W, 0)
    y = 4.0
    y += _wrapped(sk, "step", (x0 + x1) / 2, y + 7, _t(lang, "average.heads", shape=_shape((1, *w_heads.shape))),
                  x1 - x0) + 16
    for i in range(h):
        sk.label("head-index", x0 + (i + 0.5) * col, y + 5, str(i))
        sk.image("map", x0 + (i + 0.5) * col - side / 2, y + 12, side, side, w_heads[i], _color(i), vmax)
    y += 12 + side + 4
    for i in range(h):  # every head's map flows into the mean
        sk.arrow("to-mean", x0 + (i + 0.5) * col, y, (x0 + x1) / 2, y + 22, head=False)
    y += 24
    y += _wrapped(sk, "step", (x0 + x1) / 2, y + 7, _t(lang, "average.mean", shape=_shape((1, *w_avg.shape))),
                  x1 - x0) + 16
    big = 60.0
    sk.image("mean-map", (x0 + x1 - big) / 2, y, big, big, w_avg, AVERAGE_GREY, vmax)
    sk.height = y + big + 6
    return sk


def average_figure(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> str:
    """average_sketch as the page's inline SVG figure."""
    sk = average_sketch(lang, d_model, num_heads, seed)
    return _draw(lang, "average", sk, h=num_heads)


# ---------------------------------------------------------------- §4


def _task(seed: int | None, seq_len: int, offsets: tuple[int, ...]):
    from .whatif.report import SAMPLE_SEED
    from .whatif.task import EVENTS, make_batch

    x, y = make_batch(1, seed=SAMPLE_SEED if seed is None else seed, seq_len=seq_len, offsets=offsets)
    names = [EVENTS[int(i)] for i in x[0]]
    return names, y[0], EVENTS  # y: (L, T), IGNORE where the neighbour is outside the stream


def task_sketch(lang: str, position: int = 7, seed: int | None = None, seq_len: int = 16,
                offsets: tuple[int, ...] = (-2, -1, 1, 2)) -> Sketch:
    """The stream top to bottom, one event per row; from the chosen position an arc to each offset it must
    look up, and on the right what it must name, read from the task's own targets (make_batch)."""
    from .whatif.task import IGNORE

    check_lang(lang)
    names, y, events = _task(seed, seq_len, offsets)
    L = len(names)
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < L:
        raise ValueError(f"position must be an index in 0 … {L - 1}, got {position!r}")
    W = WIDTH
    sk = Sketch(W, 0)
    row = 15.0
    ix, bx, bw = 14.0, 24.0, 110.0
    y0 = 20.0
    sk.label("title", bx + bw / 2, 8, _t(lang, "task.stream", L=L))
    for i, name in enumerate(names):
        cy = y0 + i * row + row / 2
        sk.label("pos", ix, cy, str(i), ha="right")
        picked = i == position
        sk.box("event", bx, cy - row / 2 + 1, bw, row - 2, FG, 0.35 if picked else 0.12, edge=picked)
        sk.label("event-name", bx + 6, cy, name, ha="left")
    rx = bx + bw + 72  # readout column
    T = len(offsets)
    top = y0 + position * row + row / 2 - (T - 1) * row / 2
    top = min(max(top, y0 + row / 2), y0 + (L - 1) * row + row / 2 - (T - 1) * row)
    sk.label("title", rx + 4, 8, _t(lang, "task.readout", p=position), ha="left")
    for t, off in enumerate(offsets):
        ty = top + t * row
        key = "task.before" if off < 0 else "task.after"
        target = int(y[position, t])
        if target == IGNORE:
            sk.label("answer", rx + 4, ty, _t(lang, f"{key}.none", n=abs(off)), ha="left")
            continue
        color = _color(t)
        ny = y0 + (position + off) * row + row / 2
        sk.box("target", bx, ny - row / 2 + 1, bw, row - 2, color, 0.55)
        sk.arrow("link", bx + bw + 2, ny, rx - 10, ty, color=color)
        sk.box("answer-mark", rx - 6, ty - 4, 8, 8, color, 0.9)
        sk.label("answer", rx + 6, ty, _t(lang, key, n=abs(off), event=events[target]), ha="left")
    sk.height = y0 + L * row + 4
    return sk


def task_figure(lang: str, position: int = 7, seed: int | None = None, seq_len: int = 16,
                offsets: tuple[int, ...] = (-2, -1, 1, 2)) -> str:
    """task_sketch as the page's inline SVG figure."""
    sk = task_sketch(lang, position, seed, seq_len, offsets)
    return _draw(lang, "task", sk, L=seq_len, p=position, T=len(offsets),
                 offs=_t(lang, "task.offset_sep").join(_signed(lang, o) for o in offsets))
