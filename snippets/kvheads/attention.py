"""Causal self-attention with h query heads and g key/value heads, and a KV cache built from scratch.

g = h is multi-head attention (MHA), 1 < g < h grouped-query attention (GQA), g = 1 multi-query
attention (MQA). Query head i reads key/value head i // (h // g): heads come in g contiguous groups,
the convention of ``F.scaled_dot_product_attention(..., enable_gqa=True)``.

Shape letters: N batch, L new positions, P cached positions, S = P + L keys, E = d_model,
h query heads, g key/value heads, d_k = E // h.

>>> import torch
>>> layer = GroupedQueryAttention(d_model=64, num_heads=8, num_kv_heads=2)
>>> layer(torch.randn(3, 5, 64)).shape
torch.Size([3, 5, 64])
>>> layer.W_k.weight.shape  # g * d_k = 2 * 8 rows, not 64
torch.Size([16, 64])
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_positive_int, check_tensor

__all__ = ["GroupedQueryAttention", "KVCache", "decode", "cache_bytes_per_token", "formula_bytes_per_token",
           "check_kv_heads"]


def check_kv_heads(num_heads: int, num_kv_heads: int) -> None:
    """g must be a positive integer that divides h."""
    check_positive_int(num_heads, "num_heads")
    check_positive_int(num_kv_heads, "num_kv_heads")
    if num_heads % num_kv_heads != 0:
        raise ValueError(f"num_kv_heads must divide num_heads: got num_heads={num_heads}, "
                         f"num_kv_heads={num_kv_heads} ({num_heads} % {num_kv_heads} = {num_heads % num_kv_heads})")


# --8<-- [start:cache]
class KVCache:
    """The keys and values of every position seen so far, for one layer."""

    def __init__(self):
        self.k = self.v = None  # (N, g, P, d_k) each

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Add L new positions (N, g, L, d_k); return all S = P + L."""
        if self.k is None:
            self.k, self.v = k, v
        else:
            self.k = torch.cat([self.k, k], dim=2)  # (N, g, S, d_k)
            self.v = torch.cat([self.v, v], dim=2)  # (N, g, S, d_k)
        return self.k, self.v
# --8<-- [end:cache]

    def __len__(self) -> int:
        return 0 if self.k is None else self.k.shape[2]

    def tensors(self) -> list[Tensor]:
        """What the cache stores: here the keys and the values."""
        if self.k is None:
            raise ValueError("the cache is empty: run at least one position through the layer first")
        return [self.k, self.v]


# --8<-- [start:layer]
class GroupedQueryAttention(nn.Module):
    """Causal self-attention: h query heads share g key/value heads."""

    def __init__(self, d_model: int, num_heads: int, num_kv_heads: int,
                 bias: bool = False, device=None, dtype=None):
        super().__init__()
        _check_layer(d_model, num_heads, num_kv_heads)
        self.h, self.g = num_heads, num_kv_heads
        self.d_k = d_model // num_heads
        kv = num_kv_heads * self.d_k  # only g heads' worth of keys
        f = {"bias": bias, "device": device, "dtype": dtype}
        self.W_q = nn.Linear(d_model, d_model, **f)
        self.W_k = nn.Linear(d_model, kv, **f)
        self.W_v = nn.Linear(d_model, kv, **f)
        self.W_o = nn.Linear(d_model, d_model, **f)

    def forward(self, x: Tensor, cache: KVCache | None = None) -> Tensor:
        N, L, E = self._check(x, cache)
        h, g, d_k = self.h, self.g, self.d_k
        q = self.W_q(x).view(N, L, h, d_k).transpose(1, 2)  # (N, h, L, d_k)
        k = self.W_k(x).view(N, L, g, d_k).transpose(1, 2)  # (N, g, L, d_k)
        v = self.W_v(x).view(N, L, g, d_k).transpose(1, 2)  # (N, g, L, d_k)
        if cache is not None:
            k, v = cache.append(k, v)  # (N, g, S, d_k): the past, kept
        S = k.shape[2]
        # each of the g heads serves h // g query heads
        k = k.repeat_interleave(h // g, dim=1)  # (N, h, S, d_k)
        v = v.repeat_interleave(h // g, dim=1)  # (N, h, S, d_k)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (N, h, L, S)
        # new position i sits at S - L + i and sees keys 0 … S - L + i
        future = torch.ones(L, S, dtype=torch.bool, device=x.device)
        future = future.triu(diagonal=S - L + 1)  # (L, S)
        scores = scores.masked_fill(future, float("-inf"))
        weights = scores.softmax(dim=-1)  # (N, h, L, S): one per query head
        out = (weights @ v).transpose(1, 2).reshape(N, L, E)  # (N, L, E)
        return self.W_o(out)
# --8<-- [end:layer]

    def _check(self, x: object, cache: object) -> tuple[int, int, int]:
        check_tensor(x, "x", 3)
        N, L, E = x.shape
        if E != self.h * self.d_k:
            raise ValueError(f"x must have last dimension d_model={self.h * self.d_k}, got shape {tuple(x.shape)}")
        if L == 0:
            raise ValueError(f"x must have at least one position, got shape {tuple(x.shape)}")
        if cache is not None:
            if not isinstance(cache, KVCache):
                raise ValueError(f"cache must be a KVCache or None, got {type(cache).__name__}")
            if cache.k is not None and (cache.k.shape[0] != N or cache.k.shape[1] != self.g):
                raise ValueError(f"cache holds (N, g) = {tuple(cache.k.shape[:2])}, but x has N={N} "
                                 f"and this layer g={self.g}")
        return N, L, E


def _check_layer(d_model: int, num_heads: int, num_kv_heads: int) -> None:
    check_divisible(d_model, num_heads)
    check_kv_heads(num_heads, num_kv_heads)


# --8<-- [start:decode]
@torch.no_grad()
def decode(layer: GroupedQueryAttention, x: Tensor) -> tuple[Tensor, KVCache]:
    """Feed x (N, L, E) one position at a time, as generation does."""
    cache = KVCache()
    outs = [layer(x[:, t:t + 1], cache) for t in range(x.shape[1])]
    return torch.cat(outs, dim=1), cache  # (N, L, E), the filled cache
# --8<-- [end:decode]


# --8<-- [start:bytes]
def cache_bytes_per_token(cache) -> float:
    """Bytes the cache holds per position and sequence, read off its tensors."""
    tensors = cache.tensors()
    N, S = tensors[0].shape[0], len(cache)  # sequences, positions
    total = sum(t.numel() * t.element_size() for t in tensors)
    return total / (N * S)


def formula_bytes_per_token(num_kv_heads: int, d_k: int, dtype) -> int:
    """One key and one value of d_k numbers for each of the g heads."""
    return 2 * num_kv_heads * d_k * torch.empty(0, dtype=dtype).element_size()
# --8<-- [end:bytes]
