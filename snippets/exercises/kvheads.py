"""Solutions to the key/value-heads page's exercises (docs/lab/kv-heads.*.md); tests/test_kvheads_exercises.py."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .._checks import check_positive_int
from ..i18n import text
from ..kvheads.attention import GroupedQueryAttention, KVCache
from ..kvheads.attention import cache_bytes_per_token

__all__ = ["as_mha", "mha_difference", "mha_difference_lines", "max_context", "context_rows", "head_weights",
           "shared_query_weights", "closest_pair", "closest_heads", "closest_heads_lines"]


# --8<-- [start:as_mha]
def as_mha(layer: GroupedQueryAttention) -> nn.MultiheadAttention:
    """The same layer as PyTorch MHA: copy each key/value head's weights
    to the h // g query heads of its group."""
    h, g, d_k = layer.h, layer.g, layer.d_k
    E = h * d_k

    def rep(w):  # (g * d_k, E) -> (h * d_k, E)
        return w.view(g, d_k, E).repeat_interleave(h // g, dim=0).reshape(E, E)

    mha = nn.MultiheadAttention(E, h, bias=False, batch_first=True,
                                dtype=layer.W_q.weight.dtype)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat(
            [layer.W_q.weight, rep(layer.W_k.weight), rep(layer.W_v.weight)]))
        mha.out_proj.weight.copy_(layer.W_o.weight)
    return mha
# --8<-- [end:as_mha]


def mha_difference(num_heads: int = 8, num_kv_heads: int = 2, d_k: int = 8, L: int = 10, seed: int = 0) -> float:
    """Largest difference between a GQA layer and as_mha(layer) with a causal mask (float64)."""
    torch.manual_seed(seed)
    layer = GroupedQueryAttention(num_heads * d_k, num_heads, num_kv_heads, dtype=torch.float64)
    x = torch.randn(2, L, num_heads * d_k, dtype=torch.float64)
    causal = torch.ones(L, L, dtype=torch.bool).triu(1)
    with torch.no_grad():
        ref, _ = as_mha(layer)(x, x, x, attn_mask=causal, need_weights=False)
        return float((layer(x) - ref).abs().max())


# --8<-- [start:max_context]
def max_context(budget_gib: float, num_kv_heads: int, d_model: int = 4096,
                num_heads: int = 32, num_layers: int = 32,
                dtype=torch.bfloat16) -> int:
    """Longest context whose KV cache (all layers, one sequence) fits."""
    layer = GroupedQueryAttention(d_model, num_heads, num_kv_heads,
                                  device="meta", dtype=dtype)
    cache = KVCache()
    layer(torch.empty(1, 1, d_model, device="meta", dtype=dtype), cache)
    per_token = cache_bytes_per_token(cache) * num_layers  # measured
    return int(budget_gib * 2**30 // per_token)
# --8<-- [end:max_context]


def context_rows(budget_gib: float = 16, kv_heads=(32, 8, 1)) -> list[list[object]]:
    """g, and the longest context of one sequence within budget_gib."""
    if not budget_gib > 0:
        raise ValueError(f"budget_gib must be positive, got {budget_gib!r}")
    return [[g, f"{max_context(budget_gib, g):,}"] for g in kv_heads]


# --8<-- [start:head_weights]
@torch.no_grad()
def head_weights(layer: GroupedQueryAttention, x: Tensor) -> Tensor:
    """Each query head's attention weights (N, h, L, L): the forward,
    stopped before the values."""
    N, L, _ = x.shape
    h, g, d_k = layer.h, layer.g, layer.d_k
    q = layer.W_q(x).view(N, L, h, d_k).transpose(1, 2)  # (N, h, L, d_k)
    k = layer.W_k(x).view(N, L, g, d_k).transpose(1, 2)  # (N, g, L, d_k)
    k = k.repeat_interleave(h // g, dim=1)  # (N, h, L, d_k)
    scores = q @ k.transpose(-2, -1) / d_k ** 0.5  # (N, h, L, L)
    future = torch.ones(L, L, dtype=torch.bool).triu(1)
    return scores.masked_fill(future, float("-inf")).softmax(-1)
# --8<-- [end:head_weights]


# --8<-- [start:shared_query]
@torch.no_grad()
def shared_query_weights(num_key_heads: int, x: Tensor, d_k: int) -> Tensor:
    """The control: one query head (one W_q) against num_key_heads key
    heads. If the query alone set the distribution, all would be equal."""
    N, L, E = x.shape
    h = num_key_heads
    W_q = nn.Linear(E, d_k, bias=False)  # one query head, shared
    W_k = nn.Linear(E, h * d_k, bias=False)  # h key heads
    q = W_q(x).view(N, 1, L, d_k)  # (N, 1, L, d_k): the same for all
    k = W_k(x).view(N, L, h, d_k).transpose(1, 2)  # (N, h, L, d_k)
    scores = q @ k.transpose(-2, -1) / d_k ** 0.5  # (N, h, L, L)
    future = torch.ones(L, L, dtype=torch.bool).triu(1)
    return scores.masked_fill(future, float("-inf")).softmax(-1)
# --8<-- [end:shared_query]


# --8<-- [start:closest_pair]
def closest_pair(w: Tensor) -> tuple[float, int, int]:
    """w (h, L, L): the two heads whose weights are most alike, and the
    largest difference between their weights (0: identical)."""
    h = w.shape[0]
    return min((float((w[i] - w[j]).abs().max()), i, j)
               for i in range(h) for j in range(i + 1, h))
# --8<-- [end:closest_pair]


def closest_heads(num_heads: int = 8, num_kv_heads: int | None = 1, d_k: int = 8, L: int = 10, seed: int = 0,
                  shared_query: bool = False) -> dict:
    """In one freshly initialised layer, the two heads whose attention weights are most alike: how far apart
    they still are. shared_query: the control, one query head against num_heads key heads."""
    check_positive_int(L, "L")
    check_positive_int(num_heads, "num_heads")
    torch.manual_seed(seed)
    x = torch.randn(1, L, num_heads * d_k)
    if shared_query:
        w = shared_query_weights(num_heads, x, d_k)[0]  # (h, L, L)
        q_heads, kv_heads = 1, num_heads
    else:
        layer = GroupedQueryAttention(num_heads * d_k, num_heads, num_kv_heads)
        w = head_weights(layer, x)[0]  # (h, L, L)
        q_heads, kv_heads = num_heads, num_kv_heads
    d, i, j = closest_pair(w)
    return {"h": num_heads, "q_heads": q_heads, "g": kv_heads, "closest": d, "a": i, "b": j,
            "pairs": num_heads * (num_heads - 1) // 2}


def mha_difference_lines(num_heads: int = 8, kv_heads=(8, 4, 2, 1)) -> str:
    """mha_difference for each g, one line each."""
    return "\n".join(f"h={num_heads}, g={g}: max |GQA - MHA| = {mha_difference(num_heads, g):.1e}"
                     for g in kv_heads)


def closest_heads_lines(lang: str, num_heads: int = 8, kv_heads=(8, 1), control: bool = True) -> str:
    """closest_heads for each g, then (control) for one shared query head against num_heads key heads, one
    line each, in lang."""
    runs = [closest_heads(num_heads=num_heads, num_kv_heads=g) for g in kv_heads]
    if control:
        runs.append(closest_heads(num_heads=num_heads, shared_query=True))
    return "\n".join(text(lang, "kvheads.closest", q=r["q_heads"], g=r["g"], a=r["a"], b=r["b"], d=r["closest"])
                     for r in runs)
