"""Decoding, measured: the time to produce the next token with and without the KV cache, and the cache's bytes.

A generator that has produced L - 1 positions needs the layer's output at position L. With the cache
it runs the layer on that one position: one query against the L cached keys and values. Without a
cache it runs the whole causal forward over all L positions again and keeps the last row. Per token
that is O(L) work against O(L²) (the L × L scores); over a whole sequence of L tokens, O(L²) against
O(L³).

With the cache there are two ways to let h query heads read g key/value heads: the page's layer copies
each key/value head to the h/g query heads of its group (``repeat_interleave``), so the scores read h
heads' worth of keys whatever g is; ``grouped_attend`` instead stacks the h/g query heads of a group
and multiplies them against their one key/value head, so nothing is copied and a step reads only the
g heads the cache holds.

All three are timed with the performance page's ``time_rounds`` (``snippets.bench``): every contender, each
(g, L, with or without the cache), gives one sample per round, rounds interleaved, one thread. The
rounds come in blocks; each block is one call of ``time_rounds`` (warm-up and calibration included),
so the load around it can be recorded. Round i of one contender is paired with round i of another.

Timings are not taken while the site builds: ``python -m sitebuild.results decode`` runs
``measure(**DECODE)`` and commits the samples to ``results/kvheads-decode.json``, where the page
(``snippets.kvheads.report``) reads them.

>>> layer = GroupedQueryAttention(d_model=16, num_heads=4, num_kv_heads=1)
>>> fns = next_token_fns(layer, torch.randn(1, 5, 16))
>>> fns["cache"]().shape, fns["cache_grouped"]().shape, fns["no_cache"]().shape
(torch.Size([1, 1, 16]), torch.Size([1, 1, 16]), torch.Size([1, 1, 16]))
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterator, Sequence

import torch
from torch import Tensor

from .._checks import check_positive_int, check_tensor
from ..bench import time_rounds
from .attention import GroupedQueryAttention, KVCache, check_kv_heads

__all__ = ["METHODS", "DECODE", "grouped_attend", "next_token_fns", "cache_bytes", "contenders", "measure"]

log = logging.getLogger(__name__)

METHODS = ("cache", "cache_grouped", "no_cache")
# The page's layer (d_model = 64, 8 query heads, d_k = 8), MHA, GQA and MQA; 30 interleaved rounds in 6 blocks.
DECODE = dict(lengths=(64, 128, 256, 512, 1024, 2048), d_model=64, num_heads=8, kv_heads=(8, 2, 1), rounds=30,
              blocks=6, min_sample_time=0.05, num_threads=1, seed=0)


# --8<-- [start:grouped]
def grouped_attend(layer: GroupedQueryAttention, x: Tensor,
                   cache: KVCache) -> Tensor:
    """The layer's forward for new positions x (N, L, E) under a cache,
    without copying key/value heads: the h // g query heads of a group
    are stacked and multiplied against their group's one head."""
    N, L, E = x.shape
    h, g, d_k = layer.h, layer.g, layer.d_k
    q = layer.W_q(x).view(N, L, h, d_k).transpose(1, 2)  # (N, h, L, d_k)
    k = layer.W_k(x).view(N, L, g, d_k).transpose(1, 2)  # (N, g, L, d_k)
    v = layer.W_v(x).view(N, L, g, d_k).transpose(1, 2)
    k, v = cache.append(k, v)  # (N, g, S, d_k): read once, not copied
    S = k.shape[2]
    q = q.reshape(N, g, h // g * L, d_k)  # a group's queries, stacked
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (N, g, h//g*L, S)
    scores = scores.view(N, g, h // g, L, S)
    future = torch.ones(L, S, dtype=torch.bool, device=x.device)
    scores = scores.masked_fill(future.triu(S - L + 1), float("-inf"))
    weights = scores.softmax(-1).view(N, g, h // g * L, S)
    out = (weights @ v).view(N, h, L, d_k)  # (N, h, L, d_k)
    return layer.W_o(out.transpose(1, 2).reshape(N, L, E))
# --8<-- [end:grouped]


# --8<-- [start:next_token]
def next_token_fns(layer: GroupedQueryAttention,
                   x: Tensor) -> dict[str, Callable[[], Tensor]]:
    """Three ways to compute the output at the last position of x (N, L, E),
    the one a generator needs next: with the L - 1 earlier positions'
    keys and values cached (key/value heads copied to every query head,
    or grouped, no copy), or recomputing every position."""
    _check_prefix(layer, x)
    cache = KVCache()
    with torch.no_grad():
        layer(x[:, :-1], cache)  # the L - 1 earlier positions, once
    past_k, past_v = cache.k, cache.v  # (N, g, L - 1, d_k) each

    @torch.no_grad()
    def with_cache() -> Tensor:
        cache.k, cache.v = past_k, past_v  # back to L - 1 positions
        return layer(x[:, -1:], cache)  # one query, L keys: (N, 1, E)

    @torch.no_grad()
    def grouped() -> Tensor:
        cache.k, cache.v = past_k, past_v
        return grouped_attend(layer, x[:, -1:], cache)  # no head copies

    @torch.no_grad()
    def without_cache() -> Tensor:
        return layer(x)[:, -1:]  # all L queries again, L × L scores

    return {"cache": with_cache, "cache_grouped": grouped,
            "no_cache": without_cache}
# --8<-- [end:next_token]


def _check_prefix(layer: object, x: object) -> None:
    if not isinstance(layer, GroupedQueryAttention):
        raise ValueError(f"layer must be a GroupedQueryAttention, got {type(layer).__name__}")
    check_tensor(x, "x", 3)
    if x.shape[1] < 2:
        raise ValueError(f"x must hold at least 2 positions (earlier ones to cache, and the next), "
                         f"got shape {tuple(x.shape)}")


def cache_bytes(layer: GroupedQueryAttention, x: Tensor) -> int:
    """Bytes of the layer's cache after all L positions of x, read off its tensors (2·N·g·d_k·L·bytes)."""
    _check_prefix(layer, x)
    cache = KVCache()
    with torch.no_grad():
        layer(x, cache)
    return sum(t.numel() * t.element_size() for t in cache.tensors())


def _check_lengths(lengths: object) -> None:
    if (not isinstance(lengths, (list, tuple)) or not lengths
            or any(not isinstance(L, int) or isinstance(L, bool) or L < 2 for L in lengths)):
        raise ValueError(f"lengths must be a non-empty sequence of integers of at least 2, got {lengths!r}")
    if len(set(lengths)) != len(lengths):
        raise ValueError(f"lengths must not repeat, got {lengths!r}")


def contenders(lengths: Sequence[int], d_model: int, num_heads: int, kv_heads: Sequence[int],
               seed: int = 0) -> tuple[dict[str, Callable[[], Tensor]], list[dict]]:
    """Every (g, L, method) as a timed function keyed 'g=8 L=64 cache', and one record per key:
    {"key", "g", "L", "method", "cache_bytes"}. One layer per g (seeded), one input per L."""
    _check_lengths(lengths)
    if not isinstance(kv_heads, (list, tuple)) or not kv_heads:
        raise ValueError(f"kv_heads must be a non-empty sequence of key/value head counts, got {kv_heads!r}")
    for g in kv_heads:
        check_kv_heads(num_heads, g)
    fns, records = {}, []
    for g in kv_heads:
        torch.manual_seed(seed)
        layer = GroupedQueryAttention(d_model, num_heads, g).eval()
        for L in lengths:
            x = torch.randn(1, L, d_model, generator=torch.Generator().manual_seed(seed + L))
            size = cache_bytes(layer, x)
            for method, fn in next_token_fns(layer, x).items():
                key = f"g={g} L={L} {method}"
                fns[key] = fn
                records.append({"key": key, "g": g, "L": L, "method": method, "cache_bytes": size})
    return fns, records


def measure(lengths: Sequence[int], d_model: int, num_heads: int, kv_heads: Sequence[int], rounds: int = 30,
            blocks: int = 6, min_sample_time: float = 0.05, num_threads: int = 1, seed: int = 0,
            record: Callable[[str], contextlib.AbstractContextManager] | None = None) -> dict:
    """Seconds per next token for every (g, L, method), one sample per round, and the cache's bytes.

    The rounds run in `blocks` blocks of rounds // blocks; record(label), if given, is a context
    manager around each block (the load record of sitebuild.results). Returns {"params": ...,
    "rows": [{"g", "L", "method", "cache_bytes", "samples"}]}, samples in seconds.
    """
    check_positive_int(blocks, "blocks")
    check_positive_int(rounds, "rounds")
    if rounds % blocks or rounds // blocks < 1:
        raise ValueError(f"rounds must be a multiple of blocks, got rounds={rounds}, blocks={blocks}")
    fns, records = contenders(lengths, d_model, num_heads, kv_heads, seed)
    params = dict(lengths=list(lengths), d_model=d_model, num_heads=num_heads, d_k=d_model // num_heads,
                  kv_heads=list(kv_heads), N=1, dtype="float32", rounds=rounds, blocks=blocks,
                  min_sample_time=min_sample_time, num_threads=num_threads, seed=seed)
    samples: dict[str, list[float]] = {key: [] for key in fns}
    per, keys = rounds // blocks, list(fns)
    for b in range(blocks):
        label = f"rounds {b * per + 1}-{(b + 1) * per}"
        log.info("kvheads-decode: %s of %d", label, rounds)
        start = b * per % len(keys)  # time_rounds rotates within a block; the blocks carry on the rotation
        order = {key: fns[key] for key in keys[start:] + keys[:start]}
        with (record(label) if record else _nothing()):
            got = time_rounds(order, rounds=per, min_sample_time=min_sample_time, num_threads=num_threads)
        for key, s in got.items():
            samples[key] += s
    rows = [{k: r[k] for k in ("g", "L", "method", "cache_bytes")} | {"samples": samples[r["key"]]}
            for r in records]
    return {"params": params, "rows": rows}


@contextlib.contextmanager
def _nothing() -> Iterator[None]:
    yield
