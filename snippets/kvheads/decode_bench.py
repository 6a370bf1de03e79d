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

MLA (``snippets.kvheads.mla``) caches one latent of d_c numbers per position and is timed with the
cache in its two forms: naive (every cached latent expanded to h keys and h values at every step)
and absorbed (the query moved into latent space, nothing expanded). With d_k = 8, d_c = 16 caches
exactly MQA's 2·1·8 numbers per token and d_c = 32 = 4·d_k (the paper's ratio) GQA g=2's 2·2·8.

Every contender's FLOPs per step are counted once, by ``FlopCounterMode`` on the very function
that is timed, and stored beside its times.

All of them are timed with the performance page's ``time_rounds`` (``snippets.bench``): every contender, each
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
>>> mla = latent_fns(LatentAttention(d_model=16, num_heads=4, d_latent=8), torch.randn(1, 5, 16))
>>> step_flops(mla["mla_naive"]), step_flops(mla["mla_absorbed"])
(4160, 2432)
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterator, Sequence

import torch
from torch import Tensor
from torch.utils.flop_counter import FlopCounterMode

from .._checks import check_positive_int, check_tensor
from ..bench import time_rounds
from .attention import GroupedQueryAttention, KVCache, check_kv_heads
from .mla import LatentAttention, LatentCache
from .sharedq import SharedQueryAttention

__all__ = ["METHODS", "MLA_METHODS", "SHARED_QUERY", "DECODE", "grouped_attend", "next_token_fns", "latent_fns",
           "shared_query_fns", "step_flops", "cache_bytes", "contenders", "measure", "block_slices"]

log = logging.getLogger(__name__)

METHODS = ("cache", "cache_grouped", "no_cache")
MLA_METHODS = ("mla_naive", "mla_absorbed")
SHARED_QUERY = "shared_query"  # the control: h key/value heads, one query (snippets.kvheads.sharedq)
# The page's layer (d_model = 64, 8 query heads, d_k = 8): MHA, GQA and MQA, and MLA with d_c = 16 (MQA's cache
# bytes) and 32 (GQA g=2's, 4·d_k as in the paper), and the shared-query control; 30 interleaved rounds in 6
# blocks, each block in a process of its own (so the blocks' spread is the spread between separate runs).
DECODE = dict(lengths=(64, 128, 256, 512, 1024, 2048), d_model=64, num_heads=8, kv_heads=(8, 2, 1), latents=(16, 32),
              shared_query=True, rounds=30, blocks=6, min_sample_time=0.05, num_threads=1, seed=0, processes=True)


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


# --8<-- [start:latent]
def latent_fns(layer: LatentAttention,
               x: Tensor) -> dict[str, Callable[[], Tensor]]:
    """MLA's output at the last position of x (N, L, E) with the L - 1
    earlier latents cached, in both forms: naive (every cached latent
    expanded to h keys and h values) and absorbed (nothing expanded)."""
    _check_prefix(layer, x, LatentAttention)
    cache = LatentCache()
    with torch.no_grad():
        layer(x[:, :-1], cache)  # the L - 1 earlier latents, once
    past = cache.c  # (N, L - 1, d_c): the same cache for both forms

    def step(absorbed: bool) -> Callable[[], Tensor]:
        @torch.no_grad()
        def fn() -> Tensor:
            cache.c = past  # back to L - 1 positions
            return layer(x[:, -1:], cache, absorbed=absorbed)
        return fn

    return {"mla_naive": step(False), "mla_absorbed": step(True)}
# --8<-- [end:latent]


# --8<-- [start:shared_query_fn]
def shared_query_fns(layer: SharedQueryAttention,
                     x: Tensor) -> dict[str, Callable[[], Tensor]]:
    """The control's output at the last position of x (N, L, E), with
    the L - 1 earlier positions' h key/value heads cached."""
    _check_prefix(layer, x, SharedQueryAttention)
    cache = KVCache()
    with torch.no_grad():
        layer(x[:, :-1], cache)
    past_k, past_v = cache.k, cache.v  # (N, h, L - 1, d_k): MHA's size

    @torch.no_grad()
    def step() -> Tensor:
        cache.k, cache.v = past_k, past_v
        return layer(x[:, -1:], cache)  # one shared query, h heads read

    return {SHARED_QUERY: step}
# --8<-- [end:shared_query_fn]


# --8<-- [start:step_flops]
def step_flops(fn: Callable[[], Tensor]) -> int:
    """FLOPs of one call of a timed step, counted by PyTorch (matrix
    products, 2 per multiply-add; softmax and masking not counted)."""
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()
# --8<-- [end:step_flops]


def _check_prefix(layer: object, x: object, kind: type | None = None) -> None:
    # the class is looked up when called, not bound as a default: a notebook that edits GroupedQueryAttention
    # installs its own class in this module (snippets.notebook.use_definitions)
    kind = GroupedQueryAttention if kind is None else kind
    if not isinstance(layer, kind):
        raise ValueError(f"layer must be a {kind.__name__}, got {type(layer).__name__}")
    check_tensor(x, "x", 3)
    if x.shape[1] < 2:
        raise ValueError(f"x must hold at least 2 positions (earlier ones to cache, and the next), "
                         f"got shape {tuple(x.shape)}")


def cache_bytes(layer: GroupedQueryAttention | LatentAttention | SharedQueryAttention, x: Tensor) -> int:
    """Bytes of the layer's cache after all L positions of x, read off its tensors (2·N·g·d_k·L·bytes, or
    N·d_c·L·bytes for MLA; the shared-query control caches h heads, 2·N·h·d_k·L·bytes)."""
    latent = isinstance(layer, LatentAttention)
    kind = LatentAttention if latent else SharedQueryAttention if isinstance(layer, SharedQueryAttention) else None
    _check_prefix(layer, x, kind)
    cache = LatentCache() if latent else KVCache()
    with torch.no_grad():
        layer(x, cache)
    return sum(t.numel() * t.element_size() for t in cache.tensors())


def _check_lengths(lengths: object) -> None:
    if (not isinstance(lengths, (list, tuple)) or not lengths
            or any(not isinstance(L, int) or isinstance(L, bool) or L < 2 for L in lengths)):
        raise ValueError(f"lengths must be a non-empty sequence of integers of at least 2, got {lengths!r}")
    if len(set(lengths)) != len(lengths):
        raise ValueError(f"lengths must not repeat, got {lengths!r}")


def _check_latents(latents: object) -> None:
    if (not isinstance(latents, (list, tuple))
            or any(not isinstance(c, int) or isinstance(c, bool) or c < 1 for c in latents)
            or len(set(latents)) != len(latents)):
        raise ValueError(f"latents must be a sequence of distinct positive latent widths d_c, got {latents!r}")


def contenders(lengths: Sequence[int], d_model: int, num_heads: int, kv_heads: Sequence[int],
               latents: Sequence[int] = (), seed: int = 0,
               shared_query: bool = False) -> tuple[dict[str, Callable[[], Tensor]], list[dict]]:
    """Every (g, L, method) as a timed function keyed 'g=8 L=64 cache', every (d_c, L, form) of MLA keyed
    'd_c=16 L=64 mla_naive', the shared-query control keyed 'q=1 L=64 shared_query' if asked, and one record
    per key: {"key", "g" or "d_c" or "q", "L", "method", "cache_bytes", "flops"}, the FLOPs counted on the
    function itself (step_flops). One layer per g and per d_c (seeded), one input per L."""
    _check_lengths(lengths)
    if not isinstance(kv_heads, (list, tuple)) or not kv_heads:
        raise ValueError(f"kv_heads must be a non-empty sequence of key/value head counts, got {kv_heads!r}")
    for g in kv_heads:
        check_kv_heads(num_heads, g)
    _check_latents(latents)
    if not isinstance(shared_query, bool):
        raise ValueError(f"shared_query must be True or False, got {shared_query!r}")
    layers = []
    for g in kv_heads:
        torch.manual_seed(seed)
        layers.append(("g", g, GroupedQueryAttention(d_model, num_heads, g).eval(), next_token_fns))
    for c in latents:
        torch.manual_seed(seed)
        layers.append(("d_c", c, LatentAttention(d_model, num_heads, c).eval(), latent_fns))
    if shared_query:
        torch.manual_seed(seed)
        layers.append(("q", 1, SharedQueryAttention(d_model, num_heads).eval(), shared_query_fns))
    fns, records = {}, []
    for name, value, layer, make in layers:
        for L in lengths:
            x = torch.randn(1, L, d_model, generator=torch.Generator().manual_seed(seed + L))
            size = cache_bytes(layer, x)
            for method, fn in make(layer, x).items():
                key = f"{name}={value} L={L} {method}"
                fns[key] = fn
                records.append({"key": key, name: value, "L": L, "method": method, "cache_bytes": size,
                                "flops": step_flops(fn)})
    return fns, records


def measure(lengths: Sequence[int], d_model: int, num_heads: int, kv_heads: Sequence[int],
            latents: Sequence[int] = (), shared_query: bool = False, rounds: int = 30, blocks: int = 6,
            min_sample_time: float = 0.05, num_threads: int = 1, seed: int = 0, processes: bool = False,
            record: Callable[[str], contextlib.AbstractContextManager] | None = None) -> dict:
    """Seconds per next token for every (g, L, method), every MLA (d_c, L, form) and, if asked, the
    shared-query control, one sample per round, with the cache's bytes and the FLOPs of one step.

    The rounds run in `blocks` blocks of rounds // blocks; with `processes`, each block in a new Python
    process of its own (the contenders rebuilt there from the same seeds), so that the spread between
    blocks is the spread between separate runs (block_slices). record(label), if given, is a context
    manager around each block (the load record of sitebuild.results). Returns {"params": ...,
    "rows": [{"g" (or "d_c", or "q"), "L", "method", "cache_bytes", "flops", "samples"}]}, samples in
    seconds, in block order.
    """
    check_positive_int(blocks, "blocks")
    check_positive_int(rounds, "rounds")
    if rounds % blocks or rounds // blocks < 1:
        raise ValueError(f"rounds must be a multiple of blocks, got rounds={rounds}, blocks={blocks}")
    if not isinstance(processes, bool):
        raise ValueError(f"processes must be True or False, got {processes!r}")
    setup = dict(lengths=tuple(lengths), d_model=d_model, num_heads=num_heads, kv_heads=tuple(kv_heads),
                 latents=tuple(latents), seed=seed, shared_query=shared_query)
    fns, records = contenders(**setup)
    params = dict(lengths=list(lengths), d_model=d_model, num_heads=num_heads, d_k=d_model // num_heads,
                  kv_heads=list(kv_heads), latents=list(latents), shared_query=shared_query, N=1, dtype="float32",
                  rounds=rounds, blocks=blocks, min_sample_time=min_sample_time, num_threads=num_threads,
                  seed=seed, processes=processes)
    samples: dict[str, list[float]] = {key: [] for key in fns}
    per, keys = rounds // blocks, list(fns)
    for b in range(blocks):
        label = f"rounds {b * per + 1}-{(b + 1) * per}"
        log.info("kvheads-decode: %s of %d", label, rounds)
        start = b * per % len(keys)  # time_rounds rotates within a block; the blocks carry on the rotation
        order = keys[start:] + keys[:start]
        with (record(label) if record else _nothing()):
            if processes:
                got = _in_new_process(setup, order, per, min_sample_time, num_threads)
            else:
                got = time_rounds({key: fns[key] for key in order}, rounds=per, min_sample_time=min_sample_time,
                                  num_threads=num_threads)
        for key, s in got.items():
            samples[key] += s
    rows = [{k: v for k, v in r.items() if k != "key"} | {"samples": samples[r["key"]]} for r in records]
    return {"params": params, "rows": rows}


def _block(setup: dict, order: list[str], rounds: int, min_sample_time: float,
           num_threads: int) -> dict[str, list[float]]:
    fns, _ = contenders(**setup)
    return time_rounds({key: fns[key] for key in order}, rounds=rounds, min_sample_time=min_sample_time,
                       num_threads=num_threads)


def _in_new_process(setup: dict, order: list[str], rounds: int, min_sample_time: float,
                    num_threads: int) -> dict[str, list[float]]:
    import concurrent.futures
    import multiprocessing

    with concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(_block, setup, order, rounds, min_sample_time, num_threads).result()


def block_slices(params: dict) -> list[slice]:
    """Where each block's samples sit in a row's samples: one slice per block (with params["processes"],
    one separate process each)."""
    per = params["rounds"] // params["blocks"]
    return [slice(b * per, (b + 1) * per) for b in range(params["blocks"])]


@contextlib.contextmanager
def _nothing() -> Iterator[None]:
    yield
