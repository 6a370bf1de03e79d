"""Figures as inline SVG strings, deterministic and readable in light and dark palettes.

Text is kept as SVG text (``svg.fonttype: none``) so the browser draws it in the page's
font; the foreground colour is ``currentColor`` so it follows the palette. Ids are
prefixed per figure so several figures can share a page.

Figures are ``matplotlib.figure.Figure`` objects drawn straight to SVG: nothing here touches
pyplot's global state or the backend, so importing this module leaves a notebook's plots alone.
"""

from __future__ import annotations

import hashlib
import html
import io
import re
import warnings
from collections.abc import Callable, Sequence

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from ._checks import check_positive_int

__all__ = ["svg_figure", "heatmap_grid", "head_titles", "FG", "Figure"]

FG = "#010203"  # placeholder foreground colour, replaced by currentColor in the SVG
RC = {
    "svg.fonttype": "none",
    "svg.hashsalt": "multi-head-attention",
    "font.family": "sans-serif",
    # Only used to measure text for layout; the browser draws the text in the page's font.
    "font.sans-serif": ["DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK JP"],
    "font.size": 9,
    "text.color": FG,
    "axes.labelcolor": FG,
    "axes.edgecolor": FG,
    "xtick.color": FG,
    "ytick.color": FG,
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.transparent": True,
}
CMAP = "viridis"


def _clean_svg(svg: str, prefix: str) -> str:
    svg = svg[svg.index("<svg"):]  # drop the XML declaration and doctype
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = svg.replace(FG, "currentColor")
    svg = re.sub(r'id="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", svg)
    svg = re.sub(r'xlink:href="#([^"]+)"', lambda m: f'xlink:href="#{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r'font-family:[^;"]*', 'font-family: inherit', svg)
    svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1', svg, count=1)
    return svg


def svg_figure(draw: Callable[[], Figure], alt: str, caption: str | None = None) -> str:
    """Call draw() under the site's style; return a <figure> with the inline SVG and alt text."""
    if not alt or not alt.strip():
        raise ValueError("alt must be a non-empty description of the figure")
    with matplotlib.rc_context(RC), warnings.catch_warnings():
        # Without a CJK font installed, layout is measured with fallback glyph widths; the page still renders the text.
        warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
        fig = draw()
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    svg = buf.getvalue()
    prefix = "f" + hashlib.sha1((alt + svg).encode()).hexdigest()[:8]
    svg = _clean_svg(svg, prefix)
    label = html.escape(alt, quote=True)
    svg = svg.replace("<svg", f'<svg role="img" aria-label="{label}"', 1)
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="mha-fig">{svg}{cap}</figure>'


def heatmap_grid(weights, row_labels: Sequence[str], col_labels: Sequence[str] | None = None,
                 titles: Sequence[str] | None = None, alt: str = "", caption: str | None = None,
                 ncols: int = 4, vmax: float | None = 1.0, cell: float = 0.32) -> str:
    """One heatmap per map in weights (h, L, S): rows are queries, columns are keys."""
    w = np.asarray(getattr(weights, "detach", lambda: weights)(), dtype=float)
    if w.ndim == 2:
        w = w[None]
    if w.ndim != 3:
        raise ValueError(f"weights must be (h, L, S) or (L, S), got shape {w.shape}")
    h, L, S = w.shape
    col_labels = row_labels if col_labels is None else col_labels
    if len(row_labels) != L or len(col_labels) != S:
        raise ValueError(
            f"labels must match the maps: expected {L} row and {S} column labels, "
            f"got {len(row_labels)} and {len(col_labels)}"
        )
    if titles is not None and len(titles) != h:
        raise ValueError(f"expected {h} titles (one per map), got {len(titles)}")
    check_positive_int(ncols, "ncols")
    ncols = min(ncols, h)
    nrows = -(-h // ncols)
    vmax = float(w.max()) if vmax is None else vmax

    def draw():
        fig = Figure(figsize=(ncols * (S * cell + 1.2), nrows * (L * cell + 1.2)), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False)
        for i, ax in enumerate(axes.flat):
            if i >= h:
                ax.axis("off")
                continue
            im = ax.imshow(w[i], cmap=CMAP, vmin=0.0, vmax=vmax, aspect="equal")
            ax.set_xticks(range(S), col_labels, rotation=90, fontsize=7)
            ax.set_yticks(range(L), row_labels if i % ncols == 0 else [""] * L, fontsize=7)
            if titles is not None:
                ax.set_title(titles[i], fontsize=9)
        fig.colorbar(im, ax=axes, shrink=0.6)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def head_titles(num_heads: int, template: str) -> list[str]:
    """Panel titles such as '头 0', '头 1', … or 'head 0', 'head 1', …

    >>> head_titles(3, "head {}")
    ['head 0', 'head 1', 'head 2']
    """
    check_positive_int(num_heads, "num_heads")
    if "{}" not in template:
        raise ValueError(f"template must contain '{{}}' for the head index, got {template!r}")
    return [template.format(i) for i in range(num_heads)]
