"""Multi-head latent attention (MLA, DeepSeek-V2, arXiv 2405.04434), without its decoupled RoPE key.

Every position is compressed into one latent vector c of d_c numbers; each head's key and value
are linear functions of c, so the cache keeps c alone. Two ways to compute the same thing:
``naive`` rebuilds every head's keys and values from the cached latents; ``absorbed`` moves the
key up-projection into the query and the value up-projection after the weighted sum, so
attention runs over the latents themselves and no per-position key or value is ever built.

Shape letters: N batch, L new positions, S keys, E = d_model, h heads, d_k = E // h, C = d_c.

>>> import torch
>>> mla = LatentAttention(d_model=64, num_heads=8, d_latent=16)
>>> x = torch.randn(2, 5, 64)
>>> mla(x).shape, mla(x, absorbed=True).shape
(torch.Size([2, 5, 64]), torch.Size([2, 5, 64]))
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_positive_int, check_tensor

__all__ = ["LatentAttention", "LatentCache"]


class LatentCache:
    """The latent c of every position seen so far, for one layer."""

    def __init__(self):
        self.c = None  # (N, P, C)

    def append(self, c: Tensor) -> Tensor:
        self.c = c if self.c is None else torch.cat([self.c, c], dim=1)  # (N, S, C)
        return self.c

    def __len__(self) -> int:
        return 0 if self.c is None else self.c.shape[1]

    def tensors(self) -> list[Tensor]:
        if self.c is None:
            raise ValueError("the cache is empty: run at least one position through the layer first")
        return [self.c]


def _causal(L: int, S: int, device) -> Tensor:
    """True where new position i (at S - L + i) would see a later key."""
    return torch.ones(L, S, dtype=torch.bool, device=device).triu(diagonal=S - L + 1)  # (L, S)


# --8<-- [start:mla]
class LatentAttention(nn.Module):
    """Causal MLA: keys and values come from one shared latent."""

    def __init__(self, d_model: int, num_heads: int, d_latent: int,
                 device=None, dtype=None):
        super().__init__()
        _check_mla(d_model, num_heads, d_latent)
        self.h, self.d_k = num_heads, d_model // num_heads
        f = {"bias": False, "device": device, "dtype": dtype}
        self.W_q = nn.Linear(d_model, d_model, **f)
        self.W_dkv = nn.Linear(d_model, d_latent, **f)  # down: cached
        self.W_uk = nn.Linear(d_latent, d_model, **f)  # up: h keys
        self.W_uv = nn.Linear(d_latent, d_model, **f)  # up: h values
        self.W_o = nn.Linear(d_model, d_model, **f)

    def forward(self, x: Tensor, cache: LatentCache | None = None,
                absorbed: bool = False) -> Tensor:
        N, L, E = self._check(x, cache)
        q = self.W_q(x).view(N, L, self.h, self.d_k).transpose(1, 2)
        c = self.W_dkv(x)  # (N, L, C): all the cache keeps
        if cache is not None:
            c = cache.append(c)  # (N, S, C)
        go = self._absorbed if absorbed else self._naive
        out = go(q, c)  # (N, h, L, d_k)
        return self.W_o(out.transpose(1, 2).reshape(N, L, E))

    def _naive(self, q: Tensor, c: Tensor) -> Tensor:
        N, S, _ = c.shape
        # rebuild every head's key and value at every position
        k = self.W_uk(c).view(N, S, self.h, self.d_k).transpose(1, 2)
        v = self.W_uv(c).view(N, S, self.h, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1)  # (N, h, L, S)
        return self._softmax(scores) @ v  # (N, h, L, d_k)

    def _absorbed(self, q: Tensor, c: Tensor) -> Tensor:
        C = c.shape[-1]
        U_k = self.W_uk.weight.view(self.h, self.d_k, C)  # (h, d_k, C)
        U_v = self.W_uv.weight.view(self.h, self.d_k, C)  # (h, d_k, C)
        # q·(U_k c) = (U_kᵀ q)·c: the query moves into latent space
        q_c = q @ U_k  # (N, h, L, C)
        c = c.unsqueeze(1)  # (N, 1, S, C): one latent for all heads
        scores = q_c @ c.transpose(-2, -1)  # (N, h, L, S)
        ctx = self._softmax(scores) @ c  # (N, h, L, C)
        return ctx @ U_v.transpose(-2, -1)  # (N, h, L, d_k)

    def _softmax(self, scores: Tensor) -> Tensor:
        L, S = scores.shape[-2:]
        future = _causal(L, S, scores.device)
        scores = scores / math.sqrt(self.d_k)
        return scores.masked_fill(future, float("-inf")).softmax(dim=-1)
# --8<-- [end:mla]

    def _check(self, x: object, cache: object) -> tuple[int, int, int]:
        check_tensor(x, "x", 3)
        N, L, E = x.shape
        if E != self.h * self.d_k or L == 0:
            raise ValueError(f"x must be (N, L >= 1, d_model={self.h * self.d_k}), got shape {tuple(x.shape)}")
        if cache is not None and not isinstance(cache, LatentCache):
            raise ValueError(f"cache must be a LatentCache or None, got {type(cache).__name__}")
        if cache is not None and cache.c is not None and cache.c.shape[0] != N:
            raise ValueError(f"cache holds {cache.c.shape[0]} sequences, x has N={N}")
        return N, L, E


def _check_mla(d_model: int, num_heads: int, d_latent: int) -> None:
    check_divisible(d_model, num_heads)
    check_positive_int(d_latent, "d_latent")
