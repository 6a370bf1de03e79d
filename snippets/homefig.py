"""The home page's figure: the running log line read by three heads of the pretrained all-MiniLM-L6-v2.

Kept apart from ``snippets.lessonfigs`` because it loads the real model: a page (and its notebook)
that imports only the §1/§2 figures then needs nothing but torch.
"""

from __future__ import annotations

import torch

from .figures import FG, Figure
from .i18n import check_lang, text
from .lessonfigs import HEAD_COLORS, LABEL, _fig, _t

__all__ = ["home_heads", "home_figure", "split_word"]


def home_heads(threshold: float = 0.2):
    """Three heads of the pretrained model on the log line, and their arcs.

    The strongest 'previous token' and 'next token' heads of the real-model page, and the head whose
    tokens look farthest (mean over tokens of the largest weight on a key two or more places away,
    [CLS] and [SEP] left out). For each head, each token's strongest other key (not [CLS] or [SEP])
    when its weight is at least threshold: (layer, head, category, [(query, key, weight)]), and the tokens."""
    from .bert.analysis import bert_attention_maps, strongest_heads

    if not 0 < threshold < 1:
        raise ValueError(f"threshold must be between 0 and 1, got {threshold!r}")
    from .logline import LOG_LINE

    maps, tokens = bert_attention_maps(LOG_LINE)  # (n, h, T, T)
    special = torch.tensor([t in ("[CLS]", "[SEP]") for t in tokens])
    T = len(tokens)
    idx = torch.arange(T)
    w = maps.clone()
    w[..., special] = 0
    w[..., idx, idx] = 0  # not itself
    top, arg = w.max(-1)  # (n, h, T)
    far = (top * ((arg - idx).abs() >= 2)).masked_fill(special, 0).mean(-1)  # (n, h)
    best = {cat: (layer, head) for cat, layer, head in strongest_heads()}
    picked = [("prev", *best["prev"]), ("next", *best["next"])]
    far[[p[1] for p in picked], [p[2] for p in picked]] = -1
    layer, head = divmod(int(far.argmax()), far.shape[1])
    picked.append(("far", layer, head))
    heads = []
    for cat, layer, head in picked:
        arcs = [(i, int(arg[layer, head, i]), float(top[layer, head, i])) for i in range(T)
                if not special[i] and top[layer, head, i] >= threshold]
        heads.append((layer, head, cat, arcs))
    return heads, tokens


def home_figure(lang: str, threshold: float = 0.2) -> str:
    """The log line's WordPieces with the arcs of three heads of all-MiniLM-L6-v2, one row and colour per head."""
    check_lang(lang)
    heads, tokens = home_heads(threshold)
    T = len(tokens)
    step = 11.6  # pt between tokens
    band = 44.0  # pt per head
    W = step * T + 8
    label_h = 78.0

    def draw():
        from matplotlib.patches import Arc

        H = band * len(heads) + label_h + 8
        fig = Figure(figsize=(W / 72, H / 72))
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, W)
        ax.set_ylim(H, 0)
        ax.axis("off")
        xs = [4 + step * (i + 0.5) for i in range(T)]
        for r, (layer, head, cat, arcs) in enumerate(heads):
            base = 8 + band * (r + 1) - 4
            color = HEAD_COLORS[r]
            ax.text(2, base - band + 12, _t(lang, f"home.{cat}", layer=layer, head=head), fontsize=LABEL,
                    color=color, va="center", fontweight="bold")
            ax.plot([xs[0], xs[-1]], [base, base], color=FG, lw=0.3, alpha=0.5)
            for i, j, wt in arcs:
                x0, x1 = sorted((xs[i], xs[j]))
                height = min(band - 20, 5 * abs(i - j) ** 0.8 + 3)  # the y axis points down: arcs rise
                ax.add_patch(Arc(((x0 + x1) / 2, base), x1 - x0, 2 * height, theta1=180, theta2=360,
                                 color=color, lw=0.6 + 2.2 * wt, alpha=0.35 + 0.65 * wt))
        base = 8 + band * len(heads)
        for i, t in enumerate(tokens):
            ax.text(xs[i], base + 4, t, rotation=90, ha="center", va="top", fontsize=LABEL)
        return fig

    pieces, word = split_word(tokens)
    wordpieces = text(lang, "figs.home.pieces", word=word, pieces=text(lang, "figs.home.join").join(pieces))
    return _fig(lang, "home", draw, n=len(heads), T=T, t=f"{threshold:g}", wordpieces=wordpieces)


def split_word(tokens: list[str]) -> tuple[list[str], str]:
    """The first word the tokenizer cut into pieces: its WordPieces and the word they spell.

    >>> split_word(["[CLS]", "retry", "=", "3", "duration", "=", "500", "##0", "##ms", "[SEP]"])
    (['500', '##0', '##ms'], '5000ms')
    """
    for j, t in enumerate(tokens):
        if t.startswith("##") and j > 0:
            end = j + 1
            while end < len(tokens) and tokens[end].startswith("##"):
                end += 1
            pieces = tokens[j - 1:end]
            return pieces, pieces[0] + "".join(p[2:] for p in pieces[1:])
    raise ValueError(f"tokens must hold a word cut into pieces (a '##' piece after a token), got {tokens}")
