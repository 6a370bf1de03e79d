"""Figures as inline SVG strings, deterministic and readable in light and dark palettes.

Text is kept as SVG text (``svg.fonttype: none``) so the browser draws it in the page's
font; the foreground colour is ``currentColor`` so it follows the palette. Ids are
prefixed per figure so several figures can share a page.

Figures are ``matplotlib.figure.Figure`` objects drawn straight to SVG: nothing here touches
pyplot's global state or the backend, so importing this module leaves a notebook's plots alone.

Legible at every width: an SVG's text is drawn at its font size times the figure's screen
scale. Figures are drawn at most ``WIDTH_PT`` wide with text of at least ``MIN_FONT_PT``, so
in the content column of a 1280 px screen (wider than ``WIDTH_PT``) every label is at least
10 px. The SVG never shrinks below the width at which its smallest text is ``PHONE_MIN_PX``;
on a phone a figure wider than that scrolls sideways in its own box, and its caption says so.
"""

from __future__ import annotations

import hashlib
import html
import io
import math
import re
import warnings
from collections.abc import Callable, Sequence

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from ._checks import check_positive_int
from .i18n import text

__all__ = ["svg_figure", "heatmap_grid", "head_titles", "FG", "Figure", "WIDTH_PT", "MIN_FONT_PT"]

FG = "#010203"  # placeholder foreground colour, replaced by currentColor in the SVG
RC = {
    "svg.fonttype": "none",
    "svg.hashsalt": "multi-head-attention",
    "font.family": "sans-serif",
    # Only used to measure text for layout; the browser draws the text in the page's font.
    "font.sans-serif": ["DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK JP"],
    "font.size": 10,
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
WIDTH_PT = 700  # widest figure, in SVG units (pt): narrower than the content column at 1280 px
MIN_FONT_PT = 10  # smallest text in a figure
PHONE_MIN_PX = 8  # smallest text size a figure may shrink to
PHONE_COLUMN_PX = 358  # the content column of a 390 px phone screen
MAX_UPSCALE = 1.5  # a small figure grows to at most this times its drawn size
_CJK = re.compile(r"[\u3400-\u9fff]")


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


def _sizes(svg: str) -> tuple[float, float]:
    """(width in SVG units, smallest font size) of a matplotlib SVG."""
    width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) [\d.]+"', svg).group(1))
    fonts = [float(f) for f in re.findall(r"font-size: ?([\d.]+)px", svg)]
    return width, min(fonts, default=MIN_FONT_PT)


def svg_figure(draw: Callable[[], Figure], alt: str, caption: str | None = None) -> str:
    """Call draw() under the site's style; return a <figure> with the inline SVG and alt text.

    The SVG gets its size limits inline: never narrower than where its smallest text is
    PHONE_MIN_PX, never wider than MAX_UPSCALE times its drawn width. A figure whose lower
    limit is wider than a phone's column scrolls there, and its caption says so (class
    mha-fig--wide; the note shows while the figure actually scrolls)."""
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
    width, smallest = _sizes(svg)
    min_px = math.ceil(width * PHONE_MIN_PX / smallest)
    max_px = math.floor(width * MAX_UPSCALE)
    label = html.escape(alt, quote=True)
    style = f"min-width: {min_px}px; max-width: min(100%, {max_px}px)"
    svg = svg.replace("<svg", f'<svg role="img" aria-label="{label}" style="{style}"', 1)
    lang = "zh" if _CJK.search(caption or alt) else "en"  # the page's language
    note = f'<span class="mha-fig__note">{text(lang, "figures.scroll_note")}</span>'
    wide = min_px > PHONE_COLUMN_PX
    if caption or wide:
        cap = f"<figcaption>{html.escape(caption or '')}{note if wide else ''}</figcaption>"
    else:
        cap = ""
    cls = "mha-fig mha-fig--wide" if wide else "mha-fig"
    return f'<figure class="{cls}">{svg}{cap}</figure>'


def _text_width_in(texts: Sequence[str], size: float) -> float:
    """Width in inches of the widest text at the given font size (site font stack, 10% slack)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    prop = FontProperties(family="sans-serif", size=size)
    measure = TextToPath()
    with matplotlib.rc_context(RC), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
        widths = [measure.get_text_width_height_descent(str(t), prop, ismath=False)[0] for t in texts]
    return 1.1 * max(widths, default=0.0) / 72


def heatmap_grid(weights, row_labels: Sequence[str], col_labels: Sequence[str] | None = None,
                 titles: Sequence[str] | None = None, alt: str = "", caption: str | None = None,
                 ncols: int = 4, vmax: float | None = 1.0, cell: float = 0.32) -> str:
    """One heatmap per map in weights (h, L, S): rows are queries, columns are keys.

    Labels sit on the outer panels only (keys under the bottom panel of each column, queries left
    of the first column). ncols and cell (inches per heatmap cell) are upper bounds: the grid takes
    the most columns, then the largest cells, that keep the figure within WIDTH_PT with labels of
    MIN_FONT_PT that do not overlap.
    """
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
    if not cell > 0:
        raise ValueError(f"cell must be a positive size in inches, got {cell!r}")
    vmax = float(w.max()) if vmax is None else vmax

    label_pt, title_pt = MIN_FONT_PT, MIN_FONT_PT + 1
    min_cell = 1.4 * label_pt / 72  # neighbouring labels do not touch
    y_margin = _text_width_in(row_labels, label_pt) + 0.1
    x_margin = _text_width_in(col_labels, label_pt) + 0.1  # rotated: its width is the height it needs
    title_h = (1.6 * title_pt / 72) if titles is not None else 0.1
    title_w = _text_width_in(titles or [], title_pt)
    gap = 0.2
    cbar = 0.15 + 0.12 + _text_width_in(["0.00"], label_pt) + 0.1  # gap, bar, tick labels
    budget = WIDTH_PT / 72

    def fit(nc: int) -> float:  # the largest cell that keeps nc columns within the budget
        return min(cell, (budget - y_margin - (nc - 1) * gap - cbar) / (nc * S))

    # the most columns that fit, preferring full rows (a column count that divides h)
    counts = sorted(range(1, min(ncols, h) + 1), key=lambda n: (h % n == 0, n), reverse=True)
    nc = next((n for n in counts if fit(n) >= min_cell), 1)
    c = max(fit(nc), min_cell)
    nrows = -(-h // nc)
    pw = max(S * c, title_w)  # panel slot: the heatmap, or its title if that is wider
    ph = L * c
    ragged = h % nc != 0  # a panel above an empty slot carries key labels too
    row_gap = title_h + (x_margin if ragged else 0.1)
    fig_w = y_margin + nc * pw + (nc - 1) * gap + cbar
    fig_h = title_h + nrows * ph + (nrows - 1) * row_gap + x_margin

    def draw():
        fig = Figure(figsize=(fig_w, fig_h))
        axes = []
        for i in range(h):
            r, col = divmod(i, nc)
            left = y_margin + col * (pw + gap) + (pw - S * c) / 2
            top = title_h + r * (ph + row_gap)
            ax = fig.add_axes((left / fig_w, 1 - (top + ph) / fig_h, S * c / fig_w, ph / fig_h))
            im = ax.imshow(w[i], cmap=CMAP, vmin=0.0, vmax=vmax, aspect="auto")
            bottom = i + nc >= h
            ax.set_xticks(range(S), col_labels if bottom else [""] * S, rotation=90, fontsize=label_pt)
            ax.set_yticks(range(L), row_labels if col == 0 else [""] * L, fontsize=label_pt)
            ax.tick_params(length=2 if bottom or col == 0 else 0)
            if titles is not None:
                ax.set_title(titles[i], fontsize=title_pt)
            axes.append(ax)
        bar_left = y_margin + nc * pw + (nc - 1) * gap + 0.15
        bar_h = min(fig_h - title_h - x_margin, max(ph, 1.2))
        cax = fig.add_axes((bar_left / fig_w, 1 - (title_h + bar_h) / fig_h, 0.12 / fig_w, bar_h / fig_h))
        fig.colorbar(im, cax=cax)
        cax.tick_params(labelsize=label_pt)
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
