"""Benchmark: from-scratch vs nn.MultiheadAttention (three ways) vs FastMultiHeadAttention.

Time: every contender is timed once per round, in turn, for many rounds (interleaved), so
a burst of load from other processes falls on all of them; each round gives one sample
(seconds per call), and the page reports the median over rounds with its interquartile
range. Throughput is an analytic FLOP count divided by the median time, compared with
this machine's dense matmul, timed in the same rounds. Peak memory is read from the
profiler's record of every CPU allocation made during one forward pass, with the same
thread count as the timings.

Timings are not measured while the site builds (they would make every build different
and slow): ``python -m sitebuild.results bench`` runs ``measure(**FULL)`` and commits the
samples with their provenance to ``results/bench-full.json``, where the page reads them.
The tables, sentences and plots are made in ``snippets.benchreport``.

>>> attention_flops(N=1, L=128, d_model=768) == attention_flops(N=1, L=128, d_model=768, num_heads=1)
True
"""

from __future__ import annotations

import contextlib
import copy
import logging
import time
from collections.abc import Callable, Iterator, Sequence

import torch
from torch import nn

from ._checks import check_divisible, check_positive_int
from .fast import FastMultiHeadAttention, load_fast_from_torch
from .multihead import MultiHeadAttention, load_from_torch
from .profiling import quiet_stderr

__all__ = [
    "IMPLS", "OFFICIAL", "FULL", "attention_flops", "make_impls", "threads", "time_rounds", "peak_bytes",
    "measure",
]

log = logging.getLogger(__name__)

IMPLS = ("scratch", "mha_default", "mha_no_weights", "mha_fastpath", "fast")
OFFICIAL = ("mha_default", "mha_no_weights", "mha_fastpath")
# BERT-base sizes; 25 interleaved rounds of samples of at least 50 ms each, one thread.
FULL = dict(lengths=(128, 256, 512, 1024, 2048, 4096), N=1, d_model=768, num_heads=12,
            rounds=25, min_sample_time=0.05, num_threads=1)


# --8<-- [start:flops]
def attention_flops(N: int, L: int, d_model: int, num_heads: int = 1) -> int:
    """FLOPs of one self-attention forward (a multiply-add counts as 2).

    Softmax and biases are left out. The count does not depend on num_heads:
    h heads of width E/h do the same matmuls as one head of width E.
    """
    check_divisible(d_model, num_heads)
    E = d_model
    # W_q, W_k, W_v, W_o: four (N·L, E) @ (E, E)
    projections = 4 * 2 * N * L * E * E
    scores = 2 * N * L * L * E  # q kᵀ, all heads: h · (L, d_k) @ (d_k, L)
    mix = 2 * N * L * L * E  # weights @ v, all heads: h · (L, L) @ (L, d_k)
    return projections + scores + mix
# --8<-- [end:flops]


# --8<-- [start:impls]
def make_impls(N: int, L: int, d_model: int, num_heads: int,
               seed: int = 0) -> dict[str, Callable[[], object]]:
    """Five implementations: one set of weights, one input x (N, L, E).

    nn.MultiheadAttention with batch_first=True (not the default):
    the fast path needs it.
    """
    check_divisible(d_model, num_heads)
    E, h = d_model, num_heads
    torch.manual_seed(seed)
    E, h = d_model, num_heads
    official = nn.MultiheadAttention(E, h, batch_first=True).eval()
    training = copy.deepcopy(official).train()  # dropout=0: same output
    scratch = load_from_torch(MultiHeadAttention(E, h), official).eval()
    fast = load_fast_from_torch(FastMultiHeadAttention(E, h), official)
    fast = fast.eval()
    x = torch.randn(N, L, E)  # (N, L, E)

    def no_grad(f):
        def run():
            with torch.no_grad():
                return f()
        return run

    return {
        # always builds the (N, h, L, L) weights
        "scratch": no_grad(lambda: scratch(x, x, x)),
        # fast path; need_weights=True (default) returns weights
        "mha_default": no_grad(lambda: official(x, x, x)),
        # training mode: no fast path; SDPA inside
        "mha_no_weights": no_grad(
            lambda: training(x, x, x, need_weights=False)),
        "mha_fastpath": no_grad(  # (1)!
            lambda: official(x, x, x, need_weights=False)),
        "fast": no_grad(lambda: fast(x, x, x)),
    }
# --8<-- [end:impls]


@contextlib.contextmanager
def threads(n: int) -> Iterator[None]:
    """Run the block with torch using n threads, then restore the count."""
    check_positive_int(n, "num_threads")
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _check_rounds(rounds: object, min_sample_time: object) -> None:
    check_positive_int(rounds, "rounds")
    if not isinstance(min_sample_time, (int, float)) or min_sample_time <= 0:
        raise ValueError(f"min_sample_time must be a positive number of seconds, got {min_sample_time!r}")


# --8<-- [start:timing]
def time_rounds(fns: dict[str, Callable[[], object]], rounds: int = 15,
                min_sample_time: float = 0.05,
                num_threads: int = 1) -> dict[str, list[float]]:
    """Seconds per call of each fn: one sample per round, rounds interleaved.

    Each fn first runs once (warm-up) and once more to choose how many calls
    make one sample last >= min_sample_time. Then, round after round, every
    fn gives one sample in turn, starting one place later each round.
    """
    _check_rounds(rounds, min_sample_time)
    names = list(fns)
    calls, samples = {}, {name: [] for name in names}
    with threads(num_threads):
        for name in names:
            fns[name]()  # warm-up: one-off allocations and lazy init
            start = time.perf_counter()
            fns[name]()
            once = time.perf_counter() - start
            calls[name] = max(1, round(min_sample_time / once))
        for r in range(rounds):
            for name in names[r % len(names):] + names[:r % len(names)]:
                fn, n = fns[name], calls[name]
                start = time.perf_counter()
                for _ in range(n):
                    fn()
                samples[name].append((time.perf_counter() - start) / n)
    return samples
# --8<-- [end:timing]


# --8<-- [start:peak]
def peak_bytes(fn: Callable[[], object]) -> int:
    """Most bytes held at once by allocations made during one call of fn."""
    from torch._C._profiler import _EventType
    from torch.profiler import ProfilerActivity, profile

    fn()  # warm-up: one-off buffers are not part of the steady state
    with quiet_stderr(), profile(activities=[ProfilerActivity.CPU],
                                 profile_memory=True) as prof:
        fn()
    events = []
    stack = list(prof.profiler.kineto_results.experimental_event_tree())
    while stack:  # walk the op tree; allocation records are its leaves
        e = stack.pop()
        stack.extend(e.children)
        if e.tag == _EventType.Allocation:  # size < 0 for a free
            events.append((e.start_time_ns, e.extra_fields.alloc_size))
    held = peak = 0
    for _, size in sorted(events):
        held += size
        peak = max(peak, held)
    return peak
# --8<-- [end:peak]


def measure(lengths: Sequence[int], N: int, d_model: int, num_heads: int, rounds: int = 15,
            min_sample_time: float = 0.05, num_threads: int = 1, matmul_n: int = 1024) -> dict:
    """Time samples, FLOPs and peak memory of every contender at every length, plus a matmul reference.

    Returns {"params": ..., "rows": [{"impl", "L", "samples", "flops", "peak_bytes"}],
    "matmul": {"n", "flops", "samples"}}; samples are seconds per call, one per round.
    """
    if not lengths or any(not isinstance(L, int) or isinstance(L, bool) or L < 1 for L in lengths):
        raise ValueError(f"lengths must be a non-empty sequence of positive integers, got {lengths!r}")
    _check_rounds(rounds, min_sample_time)
    check_positive_int(num_threads, "num_threads")
    params = dict(lengths=list(lengths), N=N, d_model=d_model, num_heads=num_heads, rounds=rounds,
                  min_sample_time=min_sample_time, num_threads=num_threads)
    torch.manual_seed(0)
    a, b = torch.randn(matmul_n, matmul_n), torch.randn(matmul_n, matmul_n)
    rows, matmul = [], []
    start = time.perf_counter()
    for k, L in enumerate(lengths):
        spent = time.perf_counter() - start
        # the largest length costs most: estimate by FLOPs still to do
        done = sum(attention_flops(N, x, d_model, num_heads) for x in lengths[:k])
        left = sum(attention_flops(N, x, d_model, num_heads) for x in lengths[k:])
        eta = f", ~{spent / done * left / 60:.1f} min left" if done else ""
        log.info("benchmark L=%d (%d/%d)%s", L, k + 1, len(lengths), eta)
        impls = make_impls(N, L, d_model, num_heads)
        # The matmul reference takes turns with the contenders, so it meets the same load.
        samples = time_rounds(impls | {"matmul": lambda: a @ b}, rounds, min_sample_time, num_threads)
        matmul += samples.pop("matmul")
        with threads(num_threads):  # memory with the thread count of the timings
            for name, fn in impls.items():
                rows.append({"impl": name, "L": L, "samples": samples[name],
                             "flops": attention_flops(N, L, d_model, num_heads), "peak_bytes": peak_bytes(fn)})
        del impls
    return {"params": params, "rows": rows, "matmul": {"n": matmul_n, "flops": 2 * matmul_n**3, "samples": matmul}}
