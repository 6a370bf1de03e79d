"""The control for why MQA decodes faster: share the query instead of the keys and values.

MQA lets h query heads read one key/value head. The mirror image lets h key/value heads be read by one
shared query. If MQA were faster because it shares (fewer weights, fewer projections), the mirror would
be faster too; if it is faster because a step reads a smaller cache, the mirror is not, since it caches
as much as MHA. ``snippets.kvheads.decode_bench`` times it beside MHA and MQA.

>>> layer = SharedQueryAttention(d_model=16, num_heads=4)
>>> x = torch.randn(2, 5, 16)
>>> layer(x).shape
torch.Size([2, 5, 16])
>>> cache = KVCache()
>>> _ = layer(x, cache)
>>> tuple(cache.k.shape)  # h = 4 key heads cached, as in MHA
(2, 4, 5, 4)
>>> SharedQueryAttention(d_model=16, num_heads=3)
Traceback (most recent call last):
...
ValueError: d_model must be divisible by num_heads: got d_model=16, num_heads=3 (16 % 3 = 1)
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_tensor
from .attention import KVCache

__all__ = ["SharedQueryAttention"]


# --8<-- [start:shared_query]
class SharedQueryAttention(nn.Module):
    """Causal self-attention whose h key/value heads share one query:
    MQA turned around. It caches h heads, as much as MHA."""

    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        check_divisible(d_model, num_heads)
        self.h, self.d_k = num_heads, d_model // num_heads
        self.W_q = nn.Linear(d_model, self.d_k, bias=False)  # one query
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.W_o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x: Tensor, cache: KVCache | None = None) -> Tensor:
        N, L, E = self._check(x)
        h, d_k = self.h, self.d_k
        q = self.W_q(x).view(N, L, 1, d_k).transpose(1, 2)  # (N, 1, L, d_k)
        k = self.W_k(x).view(N, L, h, d_k).transpose(1, 2)  # (N, h, L, d_k)
        v = self.W_v(x).view(N, L, h, d_k).transpose(1, 2)
        if cache is not None:
            k, v = cache.append(k, v)  # (N, h, S, d_k): all h heads kept
        S = k.shape[2]
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (N, h, L, S)
        future = torch.ones(L, S, dtype=torch.bool, device=x.device)
        scores = scores.masked_fill(future.triu(S - L + 1), float("-inf"))
        out = scores.softmax(-1) @ v  # (N, h, L, d_k)
        return self.W_o(out.transpose(1, 2).reshape(N, L, E))
# --8<-- [end:shared_query]

    def _check(self, x: object) -> tuple[int, int, int]:
        check_tensor(x, "x", 3)
        N, L, E = x.shape
        if E != self.h * self.d_k or L == 0:
            raise ValueError(f"x must have shape (N, L >= 1, d_model={self.h * self.d_k}), got {tuple(x.shape)}")
        return N, L, E
