"""Figures for the real-model page: every head at a glance, and the clearest head of each category."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..figures import CMAP, heatmap_grid, svg_figure
from .analysis import TEXTS, _labels, attention_maps, strongest_heads

__all__ = ["all_heads_figure", "example_heads_figure"]


def all_heads_figure(text: str, lang: str, alt: str, caption: str) -> str:
    """A grid of small heatmaps: one row per layer, one column per head (no token labels; see the head view)."""
    lab = _labels(lang)
    maps, _ = attention_maps(text)
    w = maps.numpy()  # (n, h, T, T)
    n, h = w.shape[:2]

    def draw():
        fig, axes = plt.subplots(n, h, figsize=(h * 0.9, n * 0.95), squeeze=False)
        for (i, j), ax in np.ndenumerate(axes):
            ax.imshow(w[i, j], cmap=CMAP, vmin=0.0, vmax=1.0, interpolation="none")
            ax.set_xticks([])
            ax.set_yticks([])
            ax.spines[:].set_visible(False)
            if i == 0:
                ax.set_title(lab["head"].format(j), fontsize=7)
            if j == 0:
                ax.set_ylabel(lab["layer"].format(i), fontsize=7)
        fig.subplots_adjust(wspace=0.08, hspace=0.08)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def example_heads_figure(text: str, lang: str, alt: str, caption: str, texts=TEXTS) -> str:
    """Labelled heatmaps of the strongest head in each category (categories measured over texts)."""
    lab = _labels(lang)
    best = strongest_heads(texts)
    maps, tokens = attention_maps(text)
    picked = maps[[layer for _, layer, _ in best], [head for _, _, head in best]]  # (k, T, T)
    titles = [f"{lab['layer'].format(layer)} · {lab['head'].format(head)} · {lab[cat]}" for cat, layer, head in best]
    return heatmap_grid(picked, tokens, titles=titles, alt=alt, caption=caption, ncols=2)
