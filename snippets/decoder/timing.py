"""Decoding SmolLM2-135M, timed: the next token with its 3 key/value heads copied to the 9 query heads
(RotaryGQA, as the page runs the model), or read where they are (grouped, no copy).

The key/value heads page times this choice on a one-layer toy; here it is the whole real model, 30
layers with their feed-forward blocks, at several context lengths. Both ways compute the same logits
(checked here and in the tests). The cache is filled once per length from seeded random token ids
(what a step costs does not depend on which tokens they are) and put back before every timed step.

Timings are not taken while the site builds: ``python -m sitebuild.results decoder-timing`` runs
``measure()`` and commits the samples to ``results/decoder-timing.json``.

>>> from .weights import LlamaConfig
>>> from .model import tiny_decoder
>>> cfg = LlamaConfig(vocab=50, d_model=32, num_layers=2, num_heads=4, num_kv_heads=2,
...                   d_ff=48, context=64, rope_base=10000.0, eps=1e-5)
>>> fns = timing_step_fns(tiny_decoder(cfg), 10)
>>> a, b = fns["copies"](), fns["grouped"]()
>>> tuple(a.shape), bool((a - b).abs().max() < 1e-5)
((1, 1, 50), True)
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable

import torch
from torch import Tensor

from .._checks import check_positive_int
from ..bench import time_rounds
from ..kvheads.attention import KVCache
from .model import LlamaDecoder, RotaryGQA, apply_rope, rope_angles

__all__ = ["TIMING", "METHODS", "grouped_rotary", "decode_step", "timing_step_fns", "measure"]

log = logging.getLogger(__name__)

METHODS = ("copies", "grouped")
# Context lengths already cached when the next token comes; rounds interleaved, one thread.
TIMING = dict(lengths=(128, 512, 2048), rounds=30, min_sample_time=0.1, num_threads=1, seed=0)


# --8<-- [start:grouped]
def grouped_rotary(attn: RotaryGQA, x: Tensor, cache: KVCache,
                   base: float) -> Tensor:
    """RotaryGQA's forward for new positions x (N, L, E) under a cache,
    with no copies: a group's h // g query heads are stacked and read
    their one key/value head where the cache holds it."""
    N, L, E = attn._check(x, cache)
    h, g, d_k = attn.h, attn.g, attn.d_k
    cos, sin = rope_angles(d_k, len(cache), L, base)  # (L, d_k/2) each
    q = attn.W_q(x).view(N, L, h, d_k).transpose(1, 2)  # (N, h, L, d_k)
    k = attn.W_k(x).view(N, L, g, d_k).transpose(1, 2)  # (N, g, L, d_k)
    v = attn.W_v(x).view(N, L, g, d_k).transpose(1, 2)
    q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
    k, v = cache.append(k, v)  # (N, g, S, d_k): not copied
    S = k.shape[2]
    q = q.reshape(N, g, h // g * L, d_k)  # a group's queries, stacked
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (N, g, h//g*L, S)
    scores = scores.view(N, g, h // g, L, S)
    future = torch.ones(L, S, dtype=torch.bool, device=x.device)
    scores = scores.masked_fill(future.triu(S - L + 1), float("-inf"))
    weights = scores.softmax(-1).view(N, g, h // g * L, S)
    out = (weights @ v).view(N, h, L, d_k)  # (N, h, L, d_k)
    return attn.W_o(out.transpose(1, 2).reshape(N, L, E))
# --8<-- [end:grouped]


# --8<-- [start:step]
@torch.no_grad()
def decode_step(model: LlamaDecoder, token: Tensor, caches: list,
                copies: bool = True) -> Tensor:
    """One decoding step through every block, token (N, 1) -> logits
    (N, 1, V): LlamaDecoder.forward, with the attention either the
    block's own (copies) or grouped_rotary (no copies)."""
    x = model.embed(token)  # (N, 1, E)
    for block, cache in zip(model.blocks, caches):
        a = block.attn_norm(x)
        if copies:
            x = x + block.attn(a, cache, block.base)
        else:
            x = x + grouped_rotary(block.attn, a, cache, block.base)
        x = x + block.ffn(block.ffn_norm(x))
    return model.norm_f(x) @ model.embed.weight.T  # (N, 1, V)
# --8<-- [end:step]


def timing_step_fns(model: LlamaDecoder, L: int, seed: int = 0) -> dict[str, Callable[[], Tensor]]:
    """Both ways of producing the logits of position L + 1 with L positions cached (seeded random ids): each call
    puts the cache back to its L positions first."""
    if not isinstance(model, LlamaDecoder):
        raise ValueError(f"model must be a LlamaDecoder, got {type(model).__name__}")
    check_positive_int(L, "L")
    if L + 1 > model.cfg.context:
        raise ValueError(f"L + 1 = {L + 1} positions do not fit the model's context of {model.cfg.context}")
    g = torch.Generator().manual_seed(seed + L)
    ids = torch.randint(0, model.cfg.vocab, (1, L + 1), generator=g)  # (1, L + 1)
    caches = model.new_caches()
    with torch.no_grad():
        model(ids[:, :L], caches)  # prefill: the L earlier positions, once
    past = [(c.k, c.v) for c in caches]

    def step(copies: bool) -> Callable[[], Tensor]:
        def fn() -> Tensor:
            for c, (k, v) in zip(caches, past):
                c.k, c.v = k, v  # back to L positions
            return decode_step(model, ids[:, L:], caches, copies)
        return fn

    return {"copies": step(True), "grouped": step(False)}


def measure(model: LlamaDecoder | None = None, lengths=TIMING["lengths"], rounds: int = TIMING["rounds"],
            min_sample_time: float = TIMING["min_sample_time"], num_threads: int = TIMING["num_threads"],
            seed: int = TIMING["seed"], record=None) -> dict:
    """Seconds per next token, with and without head copies, at each cached length: one sample per round, rounds
    interleaved (snippets.bench.time_rounds). Also the largest difference between the two ways' logits, and the
    cache's bytes at each length. SmolLM2-135M unless a model is given."""
    import contextlib

    from .model import shared_model
    from .weights import file_hash

    record = record or (lambda run: contextlib.nullcontext())
    real = model is None
    model = shared_model() if real else model
    fns, rows = {}, []
    with torch.no_grad():
        for L in lengths:
            log.info("decoder-timing: prefill L = %d", L)
            made = timing_step_fns(model, L, seed)
            diff = float((made["copies"]() - made["grouped"]()).abs().max())
            cfg = model.cfg
            cache = 2 * cfg.num_layers * cfg.num_kv_heads * cfg.d_k * L * 4  # float32, all layers
            for method, fn in made.items():
                fns[f"L={L} {method}"] = fn
                rows.append({"L": L, "method": method, "cache_bytes": cache, "max_logit_difference": diff})
    with record(f"rounds 1-{rounds}"):
        samples = time_rounds(fns, rounds=rounds, min_sample_time=min_sample_time, num_threads=num_threads)
    for r in rows:
        r["samples"] = samples[f"L={r['L']} {r['method']}"]
    params = dict(lengths=list(lengths), rounds=rounds, min_sample_time=min_sample_time, num_threads=num_threads,
                  seed=seed, N=1, dtype="float32", num_heads=model.cfg.num_heads,
                  num_kv_heads=model.cfg.num_kv_heads, num_layers=model.cfg.num_layers)
    return {"file_sha256": file_hash() if real else None, "params": params, "rows": rows}
