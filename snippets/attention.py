"""Scaled dot-product attention, written out by hand.

Shapes: ``q`` is (..., L, d_k), ``k`` is (..., S, d_k), ``v`` is (..., S, d_v);
the leading dimensions ``...`` are any batch dimensions (N, or N and h).

>>> import torch
>>> q = k = v = torch.zeros(2, 5, 4)
>>> out, w = scaled_dot_product_attention(q, k, v)
>>> tuple(out.shape), tuple(w.shape)
((2, 5, 4), (2, 5, 5))
>>> w[0, 0]  # equal scores give a uniform distribution
tensor([0.2000, 0.2000, 0.2000, 0.2000, 0.2000])
"""

from __future__ import annotations

import math

import torch
from torch import Tensor

from ._checks import check_mask_dtype, check_positive_int, check_tensor

__all__ = ["scaled_dot_product_attention", "causal_mask"]


def _check_qkv(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None) -> None:
    for name, t in (("q", q), ("k", k), ("v", v)):
        check_tensor(t, name, tuple(range(2, 9)))
    if q.size(-1) != k.size(-1):
        raise ValueError(
            f"q and k must have the same last dimension d_k: got q {tuple(q.shape)} and k {tuple(k.shape)}"
        )
    if k.size(-2) != v.size(-2):
        raise ValueError(
            f"k and v must have the same length S (dim -2): got k {tuple(k.shape)} and v {tuple(v.shape)}"
        )
    if mask is not None:
        check_mask_dtype(mask, "mask")
        scores_shape = (*q.shape[:-1], k.size(-2))  # (..., L, S)
        try:
            ok = torch.broadcast_shapes(mask.shape, scores_shape) == scores_shape
        except RuntimeError:
            ok = False
        if not ok:
            raise ValueError(
                f"mask must broadcast to the scores' shape (..., L, S) = {scores_shape}, got shape {tuple(mask.shape)}"
            )


# --8<-- [start:sdpa]
def scaled_dot_product_attention(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None
) -> tuple[Tensor, Tensor]:
    """softmax(q kᵀ / √d_k) v, returning (output, weights).

    mask: bool (True = may attend, as in F.scaled_dot_product_attention)
    or float (added to the scores), broadcastable to (..., L, S).
    """
    _check_qkv(q, k, v, mask)
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (..., L, S)
    if mask is not None and mask.dtype == torch.bool:
        scores = scores.masked_fill(~mask, float("-inf"))  # (1)!
    elif mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)  # (..., L, S), each row sums to 1
    return weights @ v, weights  # (..., L, d_v), (..., L, S)
# --8<-- [end:sdpa]


def causal_mask(length: int) -> Tensor:
    """Bool (L, L) mask, True where position i may attend to j (j <= i).

    >>> causal_mask(3)
    tensor([[ True, False, False],
            [ True,  True, False],
            [ True,  True,  True]])
    """
    check_positive_int(length, "length")
    return torch.ones(length, length, dtype=torch.bool).tril()
