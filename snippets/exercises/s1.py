"""§1 exercises: one head has one attention budget per query.

>>> rows = budget_by_sharpness([100.0])
>>> [round(x, 3) for x in rows[0][1:]]
[0.5, 0.5, 1.0, 1.0]
>>> [round(x, 3) for x in one_head_many_targets(log_tokens(), ["ERROR", "3"])[0].tolist()]
[0.5, 0.5]
"""

from __future__ import annotations

from collections.abc import Sequence

import math

import torch

from ..attention import scaled_dot_product_attention
from ..heads import one_head_vs_two
from ..logline import log_tokens

__all__ = ["WANTED", "budget_by_sharpness", "one_head_many_targets", "sharpness_for", "sharpness_rows", "many_rows"]

WANTED = ("[order-api]", "5000ms")


def _check_sharpness(values: Sequence[float]) -> None:
    if not values or not all(isinstance(s, (int, float)) and s >= 0 for s in values):
        raise ValueError(f"sharpness values must be a non-empty list of numbers >= 0, got {values!r}")


# --8<-- [start:sharpness]
def budget_by_sharpness(values, wanted=WANTED):
    """(sharpness, one head's weight on each token, two heads' weights)."""
    _check_sharpness(values)
    rows = []
    for s in values:
        r = one_head_vs_two(log_tokens(), wanted, sharpness=s)
        (a1, b1), (a2, b2) = r[1][:2], r[2][:2]  # keyed by head count
        rows.append((s, a1, b1, a2, b2))
    return rows
# --8<-- [end:sharpness]


def _check_wanted(tokens: list[str], wanted: Sequence[str]) -> None:
    missing = [t for t in wanted if t not in tokens]
    if not wanted or missing or len(set(wanted)) != len(wanted):
        raise ValueError(f"wanted must be distinct tokens from {tokens}, got {list(wanted)!r}")


# --8<-- [start:many]
def one_head_many_targets(tokens, wanted, sharpness=100.0):
    """Weight on each wanted token: one head aiming at all of them,
    and one head per token. Keys are one-hot positions, as in §1; only
    the weights are read, so the values are one-hot too."""
    _check_wanted(tokens, wanted)
    T, m = len(tokens), len(wanted)
    idx = [tokens.index(t) for t in wanted]
    eye = torch.eye(T)
    k = v = eye.expand(m, T, T)  # (m, T, T): the same keys for every head
    q_one = sharpness * eye[idx].sum(0).view(1, 1, T)  # (1, 1, T)
    _, w_one = scaled_dot_product_attention(q_one, k[:1], v[:1])
    q_many = sharpness * eye[idx].view(m, 1, T)  # (m, 1, T): head i, token i
    _, w_many = scaled_dot_product_attention(q_many, k, v)  # (m, 1, T)
    return w_one[0, 0, idx], w_many[range(m), 0, idx]  # (m,), (m,)
# --8<-- [end:many]


def _check_target(target: float) -> None:
    if not isinstance(target, float) or not 0 < target < 0.5:
        raise ValueError(f"target must be a float in (0, 0.5), got {target!r}")


# --8<-- [start:ceiling]
def sharpness_for(target, wanted=WANTED, hi=1000.0, steps=50):
    """Smallest sharpness at which one head puts `target` on each of
    the two tokens: by bisection, and by solving the softmax by hand.
    Also the weight each token gets at sharpness `hi`."""
    _check_target(target)
    T = len(log_tokens())  # d_k = T: keys are one-hot

    def weight(s):  # one head's weight on the first wanted token
        return one_head_vs_two(log_tokens(), wanted, sharpness=s)[1][0]

    lo, up = 0.0, hi
    for _ in range(steps):
        mid = (lo + up) / 2
        lo, up = (lo, mid) if weight(mid) >= target else (mid, up)
    # e^z / (2 e^z + T - 2) = target, with z = s / sqrt(T)
    by_hand = math.sqrt(T) * math.log(target * (T - 2) / (1 - 2 * target))
    return up, by_hand, weight(hi)
# --8<-- [end:ceiling]


def sharpness_rows(values: Sequence[float]) -> list[tuple]:
    """budget_by_sharpness as printable rows: sharpness, then four weights to 3 decimals."""
    return [(s, *(f"{w:.3f}" for w in ws)) for s, *ws in budget_by_sharpness(values)]


def many_rows(tokens: list[str], wanted: Sequence[str]) -> list[tuple[str, str, str]]:
    """one_head_many_targets as printable rows: token, one head's weight, its own head's weight."""
    one, many = one_head_many_targets(tokens, wanted)
    return [(t, f"{a:.3f}", f"{b:.3f}") for t, a, b in zip(wanted, one.tolist(), many.tolist(), strict=True)]
