"""§1's recap of single-head self-attention on the log line: one query meets every key.

Shapes: the log line's T = 11 tokens embedded E = 16 wide; one head as wide as the model
(d_k = E). The projections are random and untrained: the recap shows the mechanism, not what a
trained head would pick.

>>> step = attend_once(log_tokens(), "ERROR")
>>> step.scores.shape, step.weights.shape, step.out.shape
(torch.Size([11]), torch.Size([11]), torch.Size([16]))
>>> round(step.weights.sum().item(), 6)
1.0
>>> attend_once(log_tokens(), "WARN")
Traceback (most recent call last):
...
ValueError: query must be one of the tokens ['2024-01-15', '10:30:45', 'ERROR', '[order-api]', 'connection_timeout', 'retry', '3', 'duration', '5000ms', 'service', 'database'], got 'WARN'
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import torch
from torch import Tensor

from ._checks import check_positive_int
from .figures import FG, MIN_FONT_PT, Figure, svg_figure
from .i18n import check_lang, text
from .logline import embed_tokens, log_tokens

__all__ = ["QUERY", "Step", "attend_once", "recap_rows", "recap_sentence", "recap_figure"]

QUERY = "ERROR"  # the token whose query the recap follows


class Step(NamedTuple):
    scores: Tensor  # (T,) the query's score against every key
    weights: Tensor  # (T,) softmax of the scores: sums to 1
    values: Tensor  # (T, E)
    out: Tensor  # (E,) the weighted sum of the values


def _check_query(tokens: list[str], query: str) -> int:
    if query not in tokens:
        raise ValueError(f"query must be one of the tokens {tokens}, got {query!r}")
    return tokens.index(query)


# --8<-- [start:attend_once]
@torch.no_grad()
def attend_once(tokens, query, d_model=16, seed=0):
    """One head of self-attention, followed for one query token."""
    i = _check_query(tokens, query)
    check_positive_int(d_model, "d_model")
    x = embed_tokens(tokens, d_model)[0]  # (T, E): one vector per token
    g = torch.Generator().manual_seed(seed)
    W = torch.randn(3, d_model, d_model, generator=g) / math.sqrt(d_model)
    W_q, W_k, W_v = W  # (E, E), (E, E), (E, E)
    q, k, v = x[i] @ W_q, x @ W_k, x @ W_v  # (E,), (T, E), (T, E)
    scores = k @ q / math.sqrt(d_model)  # (T,): the query meets every key
    weights = torch.softmax(scores, dim=0)  # (T,): sums to 1
    out = weights @ v  # (E,): a weighted sum of the values
    return Step(scores, weights, v, out)
# --8<-- [end:attend_once]


def recap_rows(tokens: list[str] | None = None, query: str = QUERY) -> list[tuple[str, str, str]]:
    """Per key token: its score and its weight, as printed on the page."""
    tokens = log_tokens() if tokens is None else tokens
    step = attend_once(tokens, query)
    return [(f"`{t}`", f"{s:+.2f}", f"{w:.3f}") for t, s, w in zip(tokens, step.scores.tolist(),
                                                                       step.weights.tolist())]


def recap_sentence(lang: str, tokens: list[str] | None = None, query: str = QUERY) -> str:
    """What the step found, in one sentence with its numbers."""
    check_lang(lang)
    tokens = log_tokens() if tokens is None else tokens
    step = attend_once(tokens, query)
    top = int(step.weights.argmax())
    return text(lang, "recap.sentence", query=query, T=len(tokens), top=tokens[top],
                w=f"{step.weights[top].item():.3f}", total=f"{step.weights.sum().item():.3f}",
                E=step.out.numel())


def recap_figure(lang: str, tokens: list[str] | None = None, query: str = QUERY) -> str:
    """Two bar charts over the keys: the query's scores, and the softmax weights they become."""
    check_lang(lang)
    tokens = log_tokens() if tokens is None else tokens
    step = attend_once(tokens, query)
    scores, weights = step.scores.numpy(), step.weights.numpy()
    i, T = tokens.index(query), len(tokens)
    top = int(weights.argmax())
    t = lambda key, **v: text(lang, f"recap.fig.{key}", **v)  # noqa: E731

    def draw():
        fig = Figure(figsize=(6.6, 0.36 * T + 1.0))
        left, right = fig.subplots(1, 2, sharey=True, gridspec_kw={"wspace": 0.08})
        y = np.arange(T)
        left.barh(y, scores, color=FG, alpha=0.45, height=0.6)
        left.axvline(0, color=FG, lw=0.8)
        right.barh(y, weights, color="#0072b2", height=0.6)
        for n, w in enumerate(weights):
            right.text(w + 0.01, n, f"{w:.2f}", va="center", fontsize=MIN_FONT_PT)
        right.set_xlim(0, max(weights) * 1.35)
        left.set_yticks(y, tokens, fontsize=MIN_FONT_PT)
        left.get_yticklabels()[i].set_fontweight("bold")
        left.invert_yaxis()
        left.set_title(t("scores", query=query), fontsize=MIN_FONT_PT)
        right.set_title(t("weights"), fontsize=MIN_FONT_PT)
        for ax in (left, right):
            ax.tick_params(labelsize=MIN_FONT_PT)
            ax.spines[["top", "right"]].set_visible(False)
        return fig

    return svg_figure(draw, alt=t("alt", query=query, T=T, top=tokens[top], w=f"{weights[top]:.2f}"),
                      caption=t("caption", query=query))
