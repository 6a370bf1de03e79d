"""Benchmark: from-scratch vs nn.MultiheadAttention (three ways) vs FastMultiHeadAttention.

Time comes from torch.utils.benchmark (warm-up, thread count, blocked_autorange; min and
median over blocks). Throughput is an analytic FLOP count divided by the fastest time and
compared with this machine's measured dense matmul FLOP/s. Peak memory is read from the
profiler's record of every CPU allocation made during one forward pass.

Small sizes run while the site builds; the full sweep (L = 128 … 4096, BERT-base sizes)
is a command whose results land in the joblib cache, where the page finds them:

    python -m snippets.bench --full

Cached sweeps are keyed by their arguments and by the fingerprint of this module and everything
it imports (FastMultiHeadAttention, the from-scratch layer...), the torch version and the machine,
so editing any of them measures again. The tables and plots are made in ``sitebuild.benchreport``.

>>> attention_flops(N=1, L=128, d_model=768) == attention_flops(N=1, L=128, d_model=768, num_heads=1)
True
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import math
import os
import platform
import logging
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import torch
from torch import nn
from torch.utils import benchmark

from resultcache import fingerprint, machine_facts, memory

from ._checks import check_divisible
from .fast import FastMultiHeadAttention, load_fast_from_torch
from .multihead import MultiHeadAttention, load_from_torch
from .tables import md_table

__all__ = [
    "IMPLS", "SMALL", "FULL", "attention_flops", "make_impls", "peak_bytes", "time_fns", "sweep",
    "small_sweep", "full_sweep", "sweep_fingerprint", "machine_info", "measurement", "memory_slope", "goals",
]

log = logging.getLogger(__name__)

IMPLS = ("scratch", "mha_default", "mha_no_weights", "mha_fastpath", "fast")
SMALL = dict(lengths=(128, 256, 512), N=1, d_model=768, num_heads=12, min_run_time=0.08, rounds=2)
FULL = dict(lengths=(128, 256, 512, 1024, 2048, 4096), N=1, d_model=768, num_heads=12, min_run_time=2.0, rounds=6)
# --8<-- [start:flops]
def attention_flops(N: int, L: int, d_model: int, num_heads: int = 1) -> int:
    """Multiply-adds x 2 of one self-attention forward; softmax and bias
    are left out.

    The count does not depend on num_heads: h heads of width E/h do the
    same matmuls as one of width E.
    """
    check_divisible(d_model, num_heads)
    # W_q, W_k, W_v, W_o: (N·L, E) @ (E, E)
    projections = 4 * 2 * N * L * d_model * d_model
    # q kᵀ over all heads: h · (L, d_k) @ (d_k, L)
    scores = 2 * N * L * L * d_model
    # weights @ v over all heads: h · (L, L) @ (L, d_k)
    mix = 2 * N * L * L * d_model
    return projections + scores + mix
# --8<-- [end:flops]


# --8<-- [start:impls]
def make_impls(N: int, L: int, d_model: int, num_heads: int,
               seed: int = 0) -> dict[str, Callable[[], object]]:
    """The five contenders, sharing one set of weights and one input x
    of shape (N, L, E)."""
    check_divisible(d_model, num_heads)
    E, h = d_model, num_heads
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(E, h, batch_first=True).eval()
    # dropout=0, so only the fast-path check differs
    training = copy.deepcopy(official).train()
    scratch = load_from_torch(MultiHeadAttention(E, h), official).eval()
    fast = load_fast_from_torch(FastMultiHeadAttention(E, h), official)
    fast = fast.eval()
    x = torch.randn(N, L, d_model)  # (N, L, E)

    def no_grad(f):
        def run():
            with torch.no_grad():
                return f()
        return run

    return {
        # always builds (N, h, L, L) weights
        "scratch": no_grad(lambda: scratch(x, x, x)),
        # fast path too, also returns averaged weights
        "mha_default": no_grad(lambda: official(x, x, x)),
        # Python path, SDPA inside
        "mha_no_weights": no_grad(
            lambda: training(x, x, x, need_weights=False)),
        "mha_fastpath": no_grad(
            lambda: official(x, x, x, need_weights=False)),  # (1)!
        "fast": no_grad(lambda: fast(x, x, x)),
    }
# --8<-- [end:impls]


# --8<-- [start:timing]
def time_fns(fns: dict[str, Callable[[], object]], min_run_time: float = 0.2,
             rounds: int = 2,
             num_threads: int = 1) -> dict[str, tuple[float, float]]:
    """(min, median) seconds per call for each fn, from torch.utils.benchmark.

    The fns take turns for several rounds, so a burst of load from other
    processes slows all of them rather than one; min is the least disturbed
    estimate.
    """
    if min_run_time <= 0 or rounds < 1 or num_threads < 1:
        raise ValueError(
            "need min_run_time > 0, rounds >= 1, num_threads >= 1; "
            f"got {min_run_time}, {rounds}, {num_threads}")
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            timer = benchmark.Timer(stmt="fn()", globals={"fn": fn},
                                    num_threads=num_threads)
            # warms up, then times blocks
            m = timer.blocked_autorange(min_run_time=min_run_time / rounds)
            times[name] += m.times  # seconds per call, one entry per block
    return {name: (min(t), statistics.median(t)) for name, t in times.items()}
# --8<-- [end:timing]


@contextlib.contextmanager
def _quiet_stderr():
    """Silence the profiler's start/stop lines, which its C++ side writes straight to file descriptor 2."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


# --8<-- [start:peak]
def peak_bytes(fn: Callable[[], object]) -> int:
    """Largest number of bytes held at once by allocations made during one
    call of fn (CPU)."""
    from torch._C._profiler import _EventType
    from torch.profiler import ProfilerActivity, profile

    fn()  # warm-up: one-off buffers are not part of the steady state
    prof = profile(activities=[ProfilerActivity.CPU], profile_memory=True)
    with _quiet_stderr(), prof:
        fn()
    tree = prof.profiler.kineto_results.experimental_event_tree()
    events, stack = [], list(tree)
    while stack:  # walk the op tree; allocation records are its leaves
        e = stack.pop()
        stack.extend(e.children)
        if e.tag == _EventType.Allocation:
            # size < 0 for a free
            events.append((e.start_time_ns, e.extra_fields.alloc_size))
    held = peak = 0
    for _, size in sorted(events):
        held += size
        peak = max(peak, held)
    return peak
# --8<-- [end:peak]


def machine_info(num_threads: int = 1) -> dict[str, object]:
    """What the numbers depend on: CPU, cores, benchmark threads, SIMD level, torch version."""
    return machine_facts(num_threads) | {"torch": torch.__version__, "python": platform.python_version()}


def sweep(lengths: Sequence[int], N: int, d_model: int, num_heads: int, min_run_time: float,
          rounds: int = 2, num_threads: int = 1) -> dict:
    """Time, throughput and peak memory of every implementation at every length."""
    if not lengths or any(not isinstance(L, int) or L < 1 for L in lengths):
        raise ValueError(f"lengths must be a non-empty sequence of positive integers, got {lengths!r}")
    rows, best_mm = [], 0.0
    n = 1024
    a, b = torch.randn(n, n), torch.randn(n, n)
    start = time.perf_counter()
    for k, L in enumerate(lengths):
        if k:
            left = (time.perf_counter() - start) / k * (len(lengths) - k)
            log.info("benchmark L=%d (%d/%d), ~%.1f min left", L, k + 1, len(lengths), left / 60)
        else:
            log.info("benchmark L=%d (1/%d)", L, len(lengths))
        impls = make_impls(N, L, d_model, num_heads)
        # The matmul reference takes turns with the contenders, so it meets the same load.
        timings = time_fns(impls | {"matmul": lambda: a @ b}, min_run_time, rounds, num_threads)
        best_mm = max(best_mm, 2 * n**3 / timings.pop("matmul")[0])
        for name, fn in impls.items():
            rows.append({"impl": name, "L": L, "min_s": timings[name][0], "median_s": timings[name][1],
                         "flops": attention_flops(N, L, d_model, num_heads), "peak_bytes": peak_bytes(fn)})
        del impls
    info = machine_info() | {"threads": num_threads}
    return {"N": N, "d_model": d_model, "num_heads": num_heads, "lengths": list(lengths), "rows": rows,
            "matmul_flops": best_mm, "machine": info}


def sweep_fingerprint(num_threads: int = 1) -> str:
    """What a cached sweep depends on besides its arguments: this module's code and all it imports
    (transitively), the torch and numpy versions, and the machine."""
    return fingerprint([__name__], machine=True, num_threads=num_threads)


@memory.cache
def _sweep_cached(lengths: Sequence[int], N: int, d_model: int, num_heads: int, min_run_time: float,
                  rounds: int, num_threads: int, code: str) -> dict:
    return sweep(lengths, N, d_model, num_heads, min_run_time, rounds, num_threads)


def _cached_args(params: dict) -> dict:
    args = {"rounds": 2, "num_threads": 1} | params
    return args | {"lengths": tuple(args["lengths"]), "code": sweep_fingerprint(args["num_threads"])}


def small_sweep() -> dict:
    """The build-time sizes (cached, so the second language and warm builds read from disk)."""
    return _sweep_cached(**_cached_args(SMALL))


def full_sweep(run: bool = False) -> dict | None:
    """The full sweep from the cache; None if it has not been run (run=True runs it)."""
    args = _cached_args(FULL)
    if not run and not _sweep_cached.check_call_in_cache(**args):
        return None
    return _sweep_cached(**args)


def measurement(result: dict, impl: str, L: int) -> dict:
    """The row of a sweep's result for one implementation at one length."""
    for r in result["rows"]:
        if r["impl"] == impl and r["L"] == L:
            return r
    raise ValueError(f"no measurement for impl={impl!r}, L={L}; lengths are {result['lengths']}")


def memory_slope(result: dict, impl: str) -> float:
    """Exponent p in peak ∝ L^p between the two largest lengths (1 = linear, 2 = quadratic)."""
    L1, L2 = result["lengths"][-2:]
    m1, m2 = measurement(result, impl, L1)["peak_bytes"], measurement(result, impl, L2)["peak_bytes"]
    return math.log(m2 / m1) / math.log(L2 / L1)


@memory.cache
def _pair_at(L: int, N: int, d_model: int, num_heads: int, min_run_time: float, code: str) -> dict:
    """From-scratch vs fast only, for goal 2 when the full sweep has not been run."""
    impls = make_impls(N, L, d_model, num_heads)
    timings = time_fns({i: impls[i] for i in ("scratch", "fast")}, min_run_time)
    return {i: t[0] for i, t in timings.items()}


def goals(result: dict | None = None) -> list[dict]:
    """The three goals with their measured ratios (full sweep if cached, else the small sweep)."""
    result = result or full_sweep() or small_sweep()
    lengths = result["lengths"]
    worst, worst_L = 0.0, lengths[0]
    for L in lengths:
        best_official = min(measurement(result, i, L)["min_s"] for i in ("mha_default", "mha_no_weights", "mha_fastpath"))
        ratio = measurement(result, "fast", L)["min_s"] / best_official
        if ratio > worst:
            worst, worst_L = ratio, L
    if 2048 in lengths:
        speedup = measurement(result, "scratch", 2048)["min_s"] / measurement(result, "fast", 2048)["min_s"]
    else:
        pair = _pair_at(2048, result["N"], result["d_model"], result["num_heads"], 0.3, code=sweep_fingerprint())
        speedup = pair["scratch"] / pair["fast"]
    fast_p, naive_p = memory_slope(result, "fast"), memory_slope(result, "scratch")
    return [
        {"goal": "time", "ratio": worst, "at": worst_L, "met": worst <= 1.05},
        {"goal": "speedup", "ratio": speedup, "at": 2048, "met": speedup >= 1.5},
        {"goal": "memory", "ratio": fast_p, "naive": naive_p, "at": tuple(lengths[-2:]),
         "met": fast_p <= 1.2 and naive_p >= 1.5},
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="run the full sweep L = 128 … 4096 into the cache")
    args = parser.parse_args(argv)
    result = full_sweep(run=True) if args.full else small_sweep()
    print(result["machine"])
    print(md_table(["impl", "L", "min ms", "median ms", "peak MiB"],
                   [[r["impl"], r["L"], f"{r['min_s'] * 1e3:.2f}", f"{r['median_s'] * 1e3:.2f}",
                     f"{r['peak_bytes'] / 2**20:.1f}"] for r in result["rows"]]))
    print(goals(result))


if __name__ == "__main__":
    from snippets.bench import main as _main  # the importable module, so the cache key is snippets.bench

    _main()
