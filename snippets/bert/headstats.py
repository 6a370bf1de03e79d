"""Per-head statistics of attention maps, and Clark et al. (2019)'s categories with explicit thresholds.

Maps are (n, h, T, T) for one text: n layers, h heads, rows are queries and each row sums to 1.
Statistics are pooled over every query row of every text (as Clark et al. average over tokens).

>>> import torch
>>> prev = torch.eye(4).roll(-1, dims=1)  # row i puts all its weight on i - 1 (row 0 on 3)
>>> stats = head_stats([(prev.expand(1, 1, 4, 4), ["[CLS]", "a", "b", "[SEP]"])])
>>> round(stats["prev"][0, 0].item(), 3), round(stats["entropy"][0, 0].item(), 3)
(1.0, 0.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import Tensor

__all__ = ["STATS", "THRESHOLDS", "row_entropy", "head_stats", "classify", "CATEGORIES", "STAT_OF"]

STATS = ("entropy", "norm_entropy", "cls", "sep", "prev", "next")

# --8<-- [start:thresholds]
THRESHOLDS = {
    "prev": 0.5,  # Clark et al. §3: heads putting > 50% of their attention on the previous token
    "next": 0.5,  # ... and on the next token
    "sep": 0.5,  # over half of the attention on [SEP]
    "cls": 0.5,  # over half on [CLS]
    "broad": 0.8,  # entropy at least 80% of a uniform row's (ln of the number of keys)
}
CATEGORIES = ("prev", "next", "sep", "cls", "broad", "other")
# --8<-- [end:thresholds]

# The statistic that places a head in each category (and ranks the heads in it).
STAT_OF = {"prev": "prev", "next": "next", "sep": "sep", "cls": "cls", "broad": "norm_entropy", "other": "entropy"}


def row_entropy(weights: Tensor) -> Tensor:
    """Entropy in nats of each row of (..., L, S) weights: (..., L). 0 log 0 counts as 0.

    >>> round(row_entropy(torch.full((1, 4), 0.25)).item(), 4), round(math.log(4), 4)
    (1.3863, 1.3863)
    """
    if not isinstance(weights, Tensor) or weights.dim() < 2 or not torch.is_floating_point(weights):
        raise ValueError(f"weights must be a floating-point tensor (..., L, S), got {weights!r:.60}")
    return -torch.xlogy(weights, weights).sum(-1)


def _check_map(weights: Tensor, tokens: Sequence[str]) -> None:
    if not isinstance(weights, Tensor) or weights.dim() != 4 or weights.size(-1) != weights.size(-2):
        raise ValueError(f"weights must be a (n, h, T, T) tensor, got {getattr(weights, 'shape', type(weights))}")
    if len(tokens) != weights.size(-1):
        raise ValueError(f"expected one token per row ({weights.size(-1)}), got {len(tokens)} tokens")
    if weights.size(-1) < 3:
        raise ValueError(f"need at least 3 tokens ([CLS], one word, [SEP]), got {weights.size(-1)}")
    sums = weights.sum(-1)
    if not torch.allclose(sums, torch.ones_like(sums), atol=1e-3):
        raise ValueError(f"each row must sum to 1, got row sums from {sums.min():.3f} to {sums.max():.3f}")


# --8<-- [start:head_stats]
def head_stats(maps: Sequence[tuple[Tensor, Sequence[str]]]) -> dict[str, Tensor]:
    """Per head, pooled over all query rows of all texts: each statistic is an (n, h) tensor.

    entropy: mean row entropy (nats); norm_entropy: the same divided by ln T;
    cls / sep: mean weight on [CLS] / [SEP] tokens; prev / next: mean weight on position i - 1 / i + 1
    (rows that have such a neighbour only).
    """
    if not maps:
        raise ValueError("maps must be a non-empty list of (weights, tokens) pairs")
    sums: dict[str, Tensor] = {}
    counts = dict.fromkeys(STATS, 0)
    for weights, tokens in maps:
        _check_map(weights, tokens)
        w = weights.double()  # (n, h, T, T)
        T = w.size(-1)
        is_cls = torch.tensor([t == "[CLS]" for t in tokens], dtype=w.dtype)  # (T,)
        is_sep = torch.tensor([t == "[SEP]" for t in tokens], dtype=w.dtype)  # (T,)
        ent = row_entropy(w)  # (n, h, T)
        part = {
            "entropy": ent.sum(-1),
            "norm_entropy": ent.sum(-1) / math.log(T),
            "cls": (w @ is_cls).sum(-1),
            "sep": (w @ is_sep).sum(-1),
            "prev": w.diagonal(offset=-1, dim1=-2, dim2=-1).sum(-1),  # w[i, i-1] for i = 1..T-1
            "next": w.diagonal(offset=1, dim1=-2, dim2=-1).sum(-1),  # w[i, i+1] for i = 0..T-2
        }
        for name, value in part.items():
            sums[name] = sums.get(name, 0) + value  # (n, h)
            counts[name] += T - 1 if name in ("prev", "next") else T
    return {name: (sums[name] / counts[name]).float() for name in STATS}
# --8<-- [end:head_stats]


# --8<-- [start:classify]
def classify(stats: dict[str, Tensor], thresholds: dict[str, float] | None = None) -> list[list[str]]:
    """Category of each head, (n, h) nested lists: the strongest share above its threshold
    (prev, next, sep, cls), else 'broad' if the normalised entropy reaches its threshold, else 'other'."""
    th = THRESHOLDS if thresholds is None else thresholds
    missing = [k for k in (*STATS, *th) if k not in stats and k != "broad"]
    if missing or set(th) != set(THRESHOLDS):
        raise ValueError(f"stats need {STATS} and thresholds need {tuple(THRESHOLDS)}; "
                         f"got stats {tuple(stats)} and thresholds {tuple(th)}")
    shares = torch.stack([stats[k] for k in ("prev", "next", "sep", "cls")], dim=-1)  # (n, h, 4)
    limits = torch.tensor([th[k] for k in ("prev", "next", "sep", "cls")])  # (4,)
    margin = torch.where(shares > limits, shares, torch.full_like(shares, -1.0))  # (n, h, 4)
    best = margin.argmax(-1)  # (n, h)
    result = []
    for layer in range(shares.size(0)):
        row = []
        for head in range(shares.size(1)):
            if margin[layer, head].max() >= 0:
                row.append(CATEGORIES[int(best[layer, head])])
            elif stats["norm_entropy"][layer, head] >= th["broad"]:
                row.append("broad")
            else:
                row.append("other")
        result.append(row)
    return result
# --8<-- [end:classify]
