"""Figures for §1 and §2, drawn from numbers the lesson code computes.

Every figure is a function of the page's language that returns the ``<figure>`` HTML of
``snippets.figures.svg_figure`` (inline SVG, alt text and caption from ``snippets.i18n``):

- §1: ``budget_figure`` (one head's weights against two heads'), ``swap_figure`` (the outputs
  before and after the two tokens swap places), ``ceiling_figure`` (the weight on each target
  against sharpness, capped at 1/2 for one head);
- §2: ``datapath_figure`` (the shapes of a real forward pass, recorded by ``record_shapes``),
  ``concat_figure`` (each head's contribution through its block of W^O, and their sum against the
  layer's output), ``params_figure`` (parameters and d_k for several head counts);
- home: ``snippets.homefig`` (it loads the pretrained model, so it lives apart).

``budget_widget`` prints the container of §1's live widget (docs/assets/budget-widget.js) with the
data it needs: the tokens and their value vectors, computed here.
"""

from __future__ import annotations

import contextlib
import html
import json
import math

import numpy as np
import torch

from . import multihead
from ._checks import check_divisible, check_positive_int
from .attention import scaled_dot_product_attention
from .figures import FG, MIN_FONT_PT, Figure, svg_figure
from .heads import _check_wanted, concat_vs_sum, parameter_table
from .i18n import check_lang, text
from .logline import embed_tokens, log_tokens
from .multihead import MultiHeadAttention

__all__ = ["HEAD_COLORS", "DEMO_WANTED", "attention_budget", "budget_figure", "swap_figure", "ceiling_figure",
           "record_shapes", "datapath_figure", "pair_across_heads", "pair_across_heads_sentence", "head_contributions", "concat_figure", "params_figure",
           "budget_widget"]

# One colour per head, readable on the light and the dark palette (Okabe-Ito first).
HEAD_COLORS = ("#e69f00", "#56b4e9", "#009e73", "#d55e00", "#cc79a7", "#3b8fd9", "#8c9c1f", "#b07aa1",
               "#e15759", "#4e9a8f", "#c49c3a", "#7f7fd5", "#d37295", "#5fa2ce", "#a0a03c", "#9d7660")
DEMO_WANTED = ("[order-api]", "5000ms")
LABEL = MIN_FONT_PT


def _t(lang: str, key: str, **values) -> str:
    return text(lang, f"figs.{key}", **values)


def _fig(lang: str, name: str, draw, **values) -> str:
    return svg_figure(draw, alt=_t(lang, f"{name}.alt", **values), caption=_t(lang, f"{name}.caption", **values))


def _check_sharpness(sharpness: float) -> float:
    if isinstance(sharpness, bool) or not isinstance(sharpness, (int, float)) or not sharpness >= 0 \
            or not math.isfinite(sharpness):
        raise ValueError(f"sharpness must be a finite number >= 0, got {sharpness!r}")
    return float(sharpness)


@torch.no_grad()
def attention_budget(tokens: list[str], wanted: tuple[str, str], sharpness: float = 100.0) -> tuple[np.ndarray,
                                                                                                   np.ndarray]:
    """The full weight rows of one_head_vs_two's queries: one head (T,), and two heads (2, T).

    Same keys (one-hot positions) and queries as snippets.heads.one_head_vs_two, so the weights
    at the two wanted tokens are the ones it returns."""
    _check_wanted(tokens, wanted)
    s = _check_sharpness(sharpness)
    a, b = (tokens.index(t) for t in wanted)
    T = len(tokens)
    k = torch.eye(T, dtype=torch.float64).unsqueeze(0)  # (1, T, T)
    one = s * (k[:, a] + k[:, b]).unsqueeze(1)  # (1, 1, T)
    two = s * k[0, [a, b]].unsqueeze(1)  # (2, 1, T)
    v = torch.zeros(1, T, 1, dtype=torch.float64)  # only the weights are used
    _, w1 = scaled_dot_product_attention(one, k, v)
    _, w2 = scaled_dot_product_attention(two, k.expand(2, T, T), v.expand(2, T, 1))
    return w1[0, 0].numpy(), w2[:, 0].numpy()


# ---------------------------------------------------------------- §1


def budget_figure(lang: str, tokens: list[str] | None = None, wanted: tuple[str, str] = DEMO_WANTED,
                  sharpness: float = 100.0) -> str:
    """Grouped bars: for each token, one head's weight and each of two heads' weights."""
    check_lang(lang)
    tokens = log_tokens() if tokens is None else tokens
    w1, w2 = attention_budget(tokens, wanted, sharpness)
    T = len(tokens)
    a, b = (tokens.index(t) for t in wanted)
    series = [(w1, FG, _t(lang, "one_head")), (w2[0], HEAD_COLORS[0], _t(lang, "head", i=0)),
              (w2[1], HEAD_COLORS[1], _t(lang, "head", i=1))]

    def draw():
        fig = Figure(figsize=(4.9, 0.42 * T + 0.9))
        ax = fig.subplots()
        bar = 0.26
        y = np.arange(T)
        for n, (w, color, label) in enumerate(series):
            ax.barh(y + (n - 1) * bar, w, height=bar, color=color, alpha=0.55 if color == FG else 1.0,
                    label=label)
            for i in (a, b):
                if w[i] > 0.05:
                    ax.text(w[i] + 0.015, i + (n - 1) * bar, f"{w[i]:.3f}", va="center", fontsize=LABEL)
        ax.set_yticks(y, tokens, fontsize=LABEL)
        ax.invert_yaxis()
        ax.set_xlim(0, 1.18)
        ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"], fontsize=LABEL)
        ax.axvline(0.5, color=FG, lw=0.6, ls=":")
        ax.set_xlabel(_t(lang, "budget.x", s=f"{sharpness:g}"), fontsize=LABEL)
        ax.spines[["top", "right"]].set_visible(False)
        ax.legend(fontsize=LABEL, frameon=False, loc="lower left", bbox_to_anchor=(-0.02, 1.0), ncols=3,
                  handlelength=1.2, columnspacing=1.0)
        return fig

    return _fig(lang, "budget", draw, T=T, a=wanted[0], b=wanted[1], w1a=f"{w1[a]:.3f}", w1b=f"{w1[b]:.3f}",
                w2a=f"{w2[0, a]:.3f}", w2b=f"{w2[1, b]:.3f}")


def swap_figure(lang: str, tokens: list[str] | None = None, wanted: tuple[str, str] = DEMO_WANTED,
                width: int = 4, sharpness: float = 100.0) -> str:
    """one_head_vs_two's outputs as a grid: rows are (setup, line or swapped line), cells the output's features.

    A cell's colour says where its number comes from: the first wanted token, the second, or (one head)
    the average of both."""
    from .heads import one_head_vs_two

    check_lang(lang)
    tokens = log_tokens() if tokens is None else tokens
    result = one_head_vs_two(tokens, wanted, width=width, sharpness=sharpness)
    (_, _, out1, sw1), (_, _, out2, sw2) = result[1], result[2]
    half = width // 2
    col_a, col_b = HEAD_COLORS[0], HEAD_COLORS[1]
    rows = [  # (label, values, source colour of each feature)
        (_t(lang, "swap.row", setup=_t(lang, "one_head"), line=_t(lang, "swap.line")), out1, [FG] * width),
        (_t(lang, "swap.row", setup=_t(lang, "one_head"), line=_t(lang, "swap.swapped")), sw1, [FG] * width),
        (_t(lang, "swap.row", setup=_t(lang, "two_heads"), line=_t(lang, "swap.line")), out2,
         [col_a] * half + [col_b] * half),
        (_t(lang, "swap.row", setup=_t(lang, "two_heads"), line=_t(lang, "swap.swapped")), sw2,
         [col_b] * half + [col_a] * half),
    ]
    d1 = (out1 - sw1).abs().max().item()
    d2 = (out2 - sw2).abs().max().item()
    diffs = {1: _t(lang, "swap.diff", d=f"{d1:.2f}"), 3: _t(lang, "swap.diff", d=f"{d2:.2f}")}

    def draw():
        fig = Figure(figsize=(5.6, 2.75))
        ax = fig.add_axes((0.33, 0.24, 0.42, 0.62))
        for r, (_, vals, colors) in enumerate(rows):
            y = r + (0.35 if r >= 2 else 0)
            for c in range(width):
                color = colors[c]
                ax.add_patch(_rect(c + 0.04, y + 0.06, 0.92, 0.88, color, 0.18 if color == FG else 0.5))
                ax.text(c + 0.5, y + 0.5, f"{vals[c].item():.2f}", ha="center", va="center", fontsize=LABEL)
            ax.text(-0.15, y + 0.5, rows[r][0], ha="right", va="center", fontsize=LABEL)
            if r in diffs:
                ax.text(width + 0.15, y + 0.5, diffs[r], ha="left", va="center", fontsize=LABEL)
        if width >= 2:
            for r in (2, 3):  # which head wrote which half
                y = r + 0.35
                for i in range(2):
                    ax.plot([i * half + 0.08, (i + 1) * half - 0.08], [y + 0.97] * 2, color=FG, lw=0.8)
            for i in range(2):
                ax.text(i * half + half / 2, 2.35 - 0.02, _t(lang, "head", i=i), ha="center", va="bottom",
                        fontsize=LABEL)
        ax.set_xlim(0, width)
        ax.set_ylim(4.35, -0.1)
        ax.set_xticks([c + 0.5 for c in range(width)], [str(c) for c in range(width)], fontsize=LABEL)
        ax.xaxis.tick_top()
        ax.set_xlabel(_t(lang, "swap.features"), fontsize=LABEL)
        ax.tick_params(length=0)
        ax.set_yticks([])
        ax.spines[:].set_visible(False)
        handles = [_rect(0, 0, 1, 1, FG, 0.18), _rect(0, 0, 1, 1, col_a, 0.5), _rect(0, 0, 1, 1, col_b, 0.5)]
        labels = [_t(lang, "swap.mixed"), _t(lang, "swap.from", t=wanted[0]), _t(lang, "swap.from", t=wanted[1])]
        fig.legend(handles, labels, loc="lower center", ncols=1, fontsize=LABEL, frameon=False,
                   bbox_to_anchor=(0.5, -0.2))
        return fig

    return _fig(lang, "swap", draw, a=wanted[0], b=wanted[1], d1=f"{d1:.2f}", d2=f"{d2:.2f}")


def _rect(x, y, w, h, color, alpha):
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), w, h, facecolor=color, alpha=alpha, edgecolor="none")


def ceiling_figure(lang: str, tokens: list[str] | None = None, wanted: tuple[str, str] = DEMO_WANTED,
                   lo: float = 0.1, hi: float = 1000.0, points: int = 61) -> str:
    """Weight on each target against sharpness (log axis): one head stays under 1/2, a head per target goes to 1."""
    check_lang(lang)
    tokens = log_tokens() if tokens is None else tokens
    if not (isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and 0 < lo < hi):
        raise ValueError(f"expected 0 < lo < hi, got lo={lo!r}, hi={hi!r}")
    check_positive_int(points, "points")
    a, b = (tokens.index(t) for t in wanted)
    s = np.geomspace(lo, hi, points)
    one, two = [], []
    for x in s:
        w1, w2 = attention_budget(tokens, wanted, float(x))
        one.append(w1[a])
        two.append(w2[0, a])
    one, two = np.array(one), np.array(two)
    top = float(one.max())

    def draw():
        fig = Figure(figsize=(4.9, 2.9))
        ax = fig.subplots()
        ax.axhline(0.5, color=FG, lw=0.8, ls="--")
        ax.text(lo, 0.52, _t(lang, "ceiling.cap"), fontsize=LABEL, va="bottom")
        ax.plot(s, two, color=HEAD_COLORS[0], lw=2, label=_t(lang, "ceiling.two"))
        ax.plot(s, one, color=FG, lw=2, label=_t(lang, "ceiling.one"))
        ax.axhline(1 / len(tokens), color=FG, lw=0.6, ls=":")
        ax.text(hi, 1 / len(tokens) + 0.02, _t(lang, "ceiling.uniform", n=len(tokens)), fontsize=LABEL,
                ha="right", va="bottom")
        ax.set_xscale("log")
        decades = [10.0 ** e for e in range(math.ceil(math.log10(lo)), math.floor(math.log10(hi)) + 1)]
        ax.set_xticks(decades, [f"{d:g}" for d in decades])
        ax.minorticks_off()
        ax.set_ylim(0, 1.05)
        ax.set_xlabel(_t(lang, "ceiling.x"), fontsize=LABEL)
        ax.set_ylabel(_t(lang, "ceiling.y"), fontsize=LABEL)
        ax.tick_params(labelsize=LABEL)
        ax.spines[["top", "right"]].set_visible(False)
        ax.legend(fontsize=LABEL, frameon=False, loc="lower left", bbox_to_anchor=(0.0, 1.0))
        return fig

    return _fig(lang, "ceiling", draw, top=f"{top:.4f}", hi=f"{hi:g}", n=len(tokens))


# ---------------------------------------------------------------- §2


@contextlib.contextmanager
def record_shapes(layer: MultiHeadAttention):
    """Record the shape of every step of layer's forward pass, in order: yields the list it fills.

    Forward hooks on the four projections, and the module's own split_heads,
    scaled_dot_product_attention and merge_heads wrapped while the block runs (the forward calls
    them by their module-level names). Entries are (step, shape); 'weights' is the softmax's
    output, which has the shape of the scores it normalises."""
    if not isinstance(layer, MultiHeadAttention):
        raise ValueError(f"layer must be a snippets.multihead.MultiHeadAttention, got {type(layer).__name__}")
    log: list[tuple[str, tuple[int, ...]]] = []
    handles = []
    for name in ("W_q", "W_k", "W_v", "W_o"):
        def hook(mod, args, out, name=name):
            if name == "W_q":
                log.append(("x", tuple(args[0].shape)))
            log.append((name, tuple(out.shape)))
        handles.append(getattr(layer, name).register_forward_hook(hook))
    originals = {n: getattr(multihead, n) for n in ("split_heads", "scaled_dot_product_attention", "merge_heads")}

    def split(x, h):
        out = originals["split_heads"](x, h)
        log.append(("split", tuple(out.shape)))
        return out

    def sdpa(q, k, v, mask=None):
        out, w = originals["scaled_dot_product_attention"](q, k, v, mask)
        log.append(("scores", tuple(w.shape)))  # q kᵀ / √d_k: softmax keeps the shape
        log.append(("weights", tuple(w.shape)))
        log.append(("context", tuple(out.shape)))
        return out, w

    def merge(x):
        out = originals["merge_heads"](x)
        log.append(("merge", tuple(out.shape)))
        return out

    try:
        multihead.split_heads, multihead.scaled_dot_product_attention, multihead.merge_heads = split, sdpa, merge
        yield log
    finally:
        for n, f in originals.items():
            setattr(multihead, n, f)
        for h in handles:
            h.remove()


@torch.no_grad()
def datapath_shapes(d_model: int = 512, num_heads: int = 8, seed: int = 0) -> tuple[dict, torch.Tensor]:
    """The recorded shapes of one forward pass on the embedded log line, and the weights (h, L, S)."""
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    layer = MultiHeadAttention(d_model, num_heads)
    x = embed_tokens(log_tokens(), d_model)  # (1, L, E)
    with record_shapes(layer) as log:
        _, w = layer(x, x, x, average_attn_weights=False)
    shapes: dict[str, list[tuple[int, ...]]] = {}
    for step, shape in log:
        shapes.setdefault(step, []).append(shape)
    return shapes, w[0]


def pair_across_heads(d_model: int = 512, num_heads: int = 8, seed: int = 0) -> tuple[str, str, int, float, int,
                                                                                      float, int]:
    """The (query, key) pair of the data path figure whose weight differs most between two heads:
    (query token, key token, head where it is largest, that weight, head where it is smallest, that weight,
    number of tokens). The layer is datapath_figure's (seeded, untrained)."""
    _, w = datapath_shapes(d_model, num_heads, seed)  # (h, L, S)
    tokens = log_tokens()
    spread = w.max(0).values - w.min(0).values  # (L, S)
    i, j = divmod(int(spread.argmax()), w.shape[-1])
    hi, lo = int(w[:, i, j].argmax()), int(w[:, i, j].argmin())
    return tokens[i], tokens[j], hi, float(w[hi, i, j]), lo, float(w[lo, i, j]), len(tokens)


def pair_across_heads_sentence(lang: str, **kwargs) -> str:
    """pair_across_heads as one sentence, with the even share 1/T to compare against."""
    check_lang(lang)
    q, k, hi, w_hi, lo, w_lo, T = pair_across_heads(**kwargs)
    return text(lang, "figs.path.pair", q=q, k=k, hi=hi, w_hi=f"{w_hi:.2f}", lo=lo, w_lo=f"{w_lo:.2f}", T=T,
                even=f"{1 / T:.3f}", times=f"{w_hi / w_lo:.1f}")


def _shape(s: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in s) + ")"


def datapath_figure(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0) -> str:
    """The data path from X to the output, top to bottom, each step with the shape recorded from a real forward pass."""
    check_lang(lang)
    shapes, weights = datapath_shapes(d_model, num_heads, seed)
    h = num_heads
    colors = [HEAD_COLORS[i % len(HEAD_COLORS)] for i in range(h)]
    one = {k: v[0] for k, v in shapes.items()}
    qkv_same = len({*shapes["W_q"], *shapes["W_k"], *shapes["W_v"]}) == 1
    steps = [  # (label, letters, shape, glyph)
        (_t(lang, "path.x"), "(N, L, E)", one["x"], "plain"),
        (_t(lang, "path.qkv"), "(N, L, E)", one["W_q"] if qkv_same else None, "bands"),
        (_t(lang, "path.split"), "(N, h, L, d_k)", one["split"], "blocks"),
        (_t(lang, "path.scores"), "(N, h, L, S)", one["scores"], "squares"),
        (_t(lang, "path.softmax"), "(N, h, L, S)", one["weights"], "maps"),
        (_t(lang, "path.context"), "(N, h, L, d_k)", one["context"], "blocks"),
        (_t(lang, "path.merge"), "(N, L, E)", one["merge"], "bands"),
        (_t(lang, "path.out"), "(N, L, E)", one["W_o"], "mixed"),
    ]
    if steps[1][2] is None:
        raise ValueError(f"expected Q, K and V of one shape, recorded {shapes['W_q']}, {shapes['W_k']}, {shapes['W_v']}")
    W, row = 360.0, 46.0
    H = row * len(steps)
    gx, gw = 120.0, 128.0  # glyph column
    w = weights.numpy()

    def draw():
        fig = Figure(figsize=(W / 72, H / 72))
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, W)
        ax.set_ylim(H, 0)
        ax.axis("off")
        for r, (label, letters, shape, glyph) in enumerate(steps):
            top = r * row + 8
            gh = 20.0
            ax.text(gx - 8, top + gh / 2, label, ha="right", va="center", fontsize=LABEL)
            ax.text(gx + gw + 8, top + gh / 2 - 6, letters, ha="left", va="center", fontsize=LABEL)
            ax.text(gx + gw + 8, top + gh / 2 + 7, "= " + _shape(shape), ha="left", va="center", fontsize=LABEL)
            if glyph in ("plain", "mixed"):
                ax.add_patch(_rect(gx, top, gw, gh, FG, 0.25 if glyph == "plain" else 0.45))
            elif glyph == "bands":
                for i in range(h):
                    ax.add_patch(_rect(gx + i * gw / h, top, gw / h, gh, colors[i], 0.85))
            else:
                gap = 3.0
                bw = (gw - gap * (h - 1)) / h
                for i in range(h):
                    x0 = gx + i * (bw + gap)
                    if glyph == "blocks":
                        ax.add_patch(_rect(x0, top, bw, gh, colors[i], 0.85))
                    elif glyph == "squares":
                        ax.add_patch(_rect(x0, top, bw, gh, colors[i], 0.3))
                    else:  # the real weights of head i, drawn in its colour
                        L, S = w[i].shape
                        from matplotlib.colors import LinearSegmentedColormap
                        cmap = LinearSegmentedColormap.from_list(f"h{i}", [(0, 0, 0, 0), colors[i]])
                        ax.imshow(w[i], cmap=cmap, vmin=0, vmax=float(w.max()), interpolation="nearest",
                                  extent=(x0, x0 + bw, top + gh, top), aspect="auto")
            if r + 1 < len(steps):
                ax.annotate("", xy=(gx + gw / 2, top + row - 9), xytext=(gx + gw / 2, top + gh + 2),
                            arrowprops={"arrowstyle": "-|>", "color": FG, "lw": 0.8})
        return fig

    return _fig(lang, "path", draw, h=h, d_model=d_model, x=_shape(one["x"]), split=_shape(one["split"]),
                scores=_shape(one["scores"]), out=_shape(one["W_o"]))


@torch.no_grad()
def head_contributions(d_model: int = 512, num_heads: int = 8, seed: int = 0) -> tuple[np.ndarray, np.ndarray,
                                                                                         np.ndarray, float]:
    """For the first token of concat_vs_sum's input: each head's contribution head_i · W^O_i (h, E), the
    bias (E,), the layer's output (E,), and the largest |output - (sum + bias)| over the whole batch, from
    snippets.heads.concat_vs_sum on the same seed (one helper for the figure and the sentence beside it)."""
    from .multihead import split_heads

    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    m = MultiHeadAttention(d_model, num_heads)
    x = torch.randn(2, 10, d_model)  # (N, L, E), as in concat_vs_sum
    h, d_k = num_heads, d_model // num_heads
    q, k, v = (split_heads(W(x), h) for W in (m.W_q, m.W_k, m.W_v))
    heads, _ = scaled_dot_product_attention(q, k, v)  # (N, h, L, d_k)
    parts = torch.stack([heads[:, i] @ m.W_o.weight[:, i * d_k:(i + 1) * d_k].T for i in range(h)])  # (h, N, L, E)
    out, _ = m(x, x, x)
    err = concat_vs_sum(d_model, num_heads, seed)  # the number the page's sentence prints
    return parts[:, 0, 0].numpy(), m.W_o.bias.numpy(), out[0, 0].numpy(), err


def concat_figure(lang: str, d_model: int = 512, num_heads: int = 8, seed: int = 0, features: int = 12) -> str:
    """Rows: each head's contribution to the first features of one output vector, the bias, their sum, and the
    layer's output; the last two rows are equal."""
    check_lang(lang)
    check_positive_int(features, "features")
    parts, bias, out, err = head_contributions(d_model, num_heads, seed)
    f = min(features, d_model)
    grid = np.vstack([parts[:, :f], bias[:f], (parts.sum(0) + bias)[:f], out[:f]])
    h = num_heads
    labels = [_t(lang, "concat.head", i=i) for i in range(h)] + [
        _t(lang, "concat.bias"), _t(lang, "concat.sum"), _t(lang, "concat.out")]
    vmax = float(np.abs(grid).max())

    def draw():
        rows = len(labels)
        fig = Figure(figsize=(5.4, 0.24 * (rows + 1) + 1.3))
        ax = fig.add_axes((0.34, 0.2, 0.5, 0.66))
        ext = np.ma.masked_invalid(np.insert(grid, [h + 1], np.nan, axis=0))  # a gap before the sum
        im = ax.imshow(ext, cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="auto", interpolation="nearest")
        ys = list(range(h + 1)) + [h + 2, h + 3]
        ax.set_yticks(ys, labels, fontsize=LABEL)
        for i, tick in enumerate(ax.get_yticklabels()[:h]):
            tick.set_color(HEAD_COLORS[i % len(HEAD_COLORS)])
        ax.set_xticks(range(0, f, 2), [str(c) for c in range(0, f, 2)], fontsize=LABEL)
        ax.set_xlabel(_t(lang, "concat.x", f=f, E=d_model), fontsize=LABEL)
        ax.tick_params(length=0)
        ax.spines[:].set_visible(False)
        ax.set_title(_t(lang, "concat.title", err=f"{err:.1e}"), fontsize=LABEL)
        cax = fig.add_axes((0.87, 0.2, 0.025, 0.66))
        fig.colorbar(im, cax=cax)
        cax.tick_params(labelsize=LABEL)
        return fig

    return _fig(lang, "concat", draw, h=h, f=f, err=f"{err:.1e}")


def params_figure(lang: str, d_model: int = 512, heads: tuple[int, ...] = (1, 2, 4, 8, 16)) -> str:
    """parameter_table's rows: the parameter count (the same bar for every h), and d_k and h on a log axis."""
    check_lang(lang)
    rows = parameter_table(d_model, heads)
    hs = [r[0] for r in rows]
    dk = [r[1] for r in rows]
    params = [r[2] for r in rows]
    x = np.arange(len(rows))

    def draw():
        fig = Figure(figsize=(4.8, 4.4))
        top, bottom = fig.subplots(2, 1, gridspec_kw={"hspace": 0.75})
        top.bar(x, params, color=FG, alpha=0.45, width=0.6)
        for i, p in enumerate(params):
            top.text(i, p, f"{p:,}", ha="center", va="bottom", fontsize=LABEL)
        top.set_ylim(0, max(params) * 1.3)
        top.set_yticks([])
        top.set_title(_t(lang, "params.top"), fontsize=LABEL)
        bottom.plot(x, dk, "o-", color=HEAD_COLORS[0], lw=2, label=_t(lang, "params.dk"))
        bottom.plot(x, hs, "s-", color=HEAD_COLORS[1], lw=2, label=_t(lang, "params.h"))
        for i in range(len(rows)):
            bottom.text(i, dk[i] * 1.35, str(dk[i]), ha="center", va="bottom", fontsize=LABEL)
            bottom.text(i, hs[i] / 1.35, str(hs[i]), ha="center", va="top", fontsize=LABEL)
        bottom.set_yscale("log", base=2)
        bottom.set_ylim(min(hs) / 5, max(dk) * 3)
        bottom.set_yticks([])
        bottom.minorticks_off()
        bottom.set_title(_t(lang, "params.bottom", E=d_model), fontsize=LABEL)
        bottom.legend(fontsize=LABEL, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
        for ax in (top, bottom):
            ax.set_xticks(x, [str(h) for h in hs], fontsize=LABEL)
            ax.set_xlabel(_t(lang, "params.x"), fontsize=LABEL)
            ax.spines[["top", "right", "left"]].set_visible(False)
        return fig

    return _fig(lang, "params", draw, E=d_model, params=f"{params[0]:,}", h0=hs[0], h1=hs[-1], d0=dk[0], d1=dk[-1])


# ---------------------------------------------------------------- §1's widget


def budget_widget(lang: str, tokens: list[str] | None = None, wanted: tuple[str, str] = DEMO_WANTED,
                  width: int = 4, sharpness: float = 100.0) -> str:
    """The container of §1's live widget: the tokens, each token's value vector (embed_tokens, as
    one_head_vs_two uses them), the starting choices, and the widget's words in the page's language.
    docs/assets/budget-widget.js draws it; without JavaScript the paragraph inside stays."""
    check_lang(lang)
    tokens = log_tokens() if tokens is None else tokens
    _check_wanted(tokens, wanted)
    check_divisible(width, 2)
    s = _check_sharpness(sharpness)
    values = embed_tokens(tokens, width)[0]  # (T, width)
    data = {
        "tokens": tokens,
        "values": [[float(x) for x in row] for row in values],
        "wanted": list(wanted),
        "sharpness": s,
        "ui": {k.removeprefix("widget."): v for k, v in _widget_words(lang).items()},
    }
    payload = html.escape(json.dumps(data, ensure_ascii=False, separators=(",", ":")), quote=True)
    note = html.escape(text(lang, "figs.widget.nojs"))
    return (f'<div class="budget-widget" data-budget-widget data-config="{payload}">'
            f'<p class="bw-nojs">{note}</p></div>')


def _widget_words(lang: str) -> dict[str, str]:
    from .i18n import texts

    return {k: v for k, v in texts(lang, "figs").items() if k.startswith("widget.") and k != "widget.nojs"}
