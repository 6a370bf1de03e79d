"""Figures for the real-model page: every head at a glance, and the clearest head of each category."""

from __future__ import annotations

import matplotlib
import numpy as np

from .. import i18n
from ..figures import CMAP, MIN_FONT_PT, Figure, heatmap_grid, svg_figure
from .analysis import TEXTS, bert_attention_maps, strongest_heads

__all__ = ["all_heads_figure", "example_heads_figure"]


def all_heads_figure(text: str, lang: str, alt: str, caption: str, gap: int = 3) -> str:
    """Every map in one image: one row of tiles per layer, one column per head (no token labels; see the head view).

    A single image with transparent gaps compresses far better than 72 separate ones.
    """
    if not isinstance(gap, int) or gap < 0:
        raise ValueError(f"gap must be a non-negative integer, got {gap!r}")
    lab = i18n.texts(lang, "bert")
    maps, _ = bert_attention_maps(text)
    w = maps.numpy()  # (n, h, T, T)
    n, h, T, _ = w.shape
    step = T + gap
    mosaic = np.full((n * step - gap, h * step - gap), np.nan)  # NaN = gap, drawn transparent
    for i in range(n):
        for j in range(h):
            mosaic[i * step:i * step + T, j * step:j * step + T] = w[i, j]

    def draw():
        fig = Figure(figsize=(h * 0.7, n * 0.74))
        ax = fig.subplots()
        ax.imshow(mosaic, cmap=matplotlib.colormaps[CMAP].with_extremes(bad=(0, 0, 0, 0)), vmin=0.0, vmax=1.0,
                  interpolation="none")
        ax.set_xticks([j * step + T / 2 for j in range(h)], [lab["head"].format(j) for j in range(h)],
                      fontsize=MIN_FONT_PT)
        ax.set_yticks([i * step + T / 2 for i in range(n)], [lab["layer"].format(i) for i in range(n)],
                      fontsize=MIN_FONT_PT)
        ax.xaxis.tick_top()
        ax.tick_params(length=0)
        ax.spines[:].set_visible(False)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def example_heads_figure(text: str, lang: str, alt: str, caption: str, texts=TEXTS) -> str:
    """Labelled heatmaps of the strongest head in each category (categories measured over texts)."""
    lab = i18n.texts(lang, "bert")
    best = strongest_heads(texts)
    maps, tokens = bert_attention_maps(text)
    picked = maps[[layer for _, layer, _ in best], [head for _, _, head in best]]  # (k, T, T)
    titles = [f"{lab['layer'].format(layer)} · {lab['head'].format(head)} · {lab[cat]}" for cat, layer, head in best]
    return heatmap_grid(picked, tokens, titles=titles, alt=alt, caption=caption, ncols=2)
