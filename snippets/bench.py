"""Benchmark: from-scratch vs nn.MultiheadAttention (three ways) vs FastMultiHeadAttention.

Time comes from torch.utils.benchmark (warm-up, thread count, blocked_autorange; min and
median over blocks). Throughput is an analytic FLOP count divided by the fastest time and
compared with this machine's measured dense matmul FLOP/s. Peak memory is read from the
profiler's record of every CPU allocation made during one forward pass.

Small sizes run while the site builds; the full sweep (L = 128 … 4096, BERT-base sizes)
is a command whose results land in the joblib cache, where the page finds them:

    python -m snippets.bench --full

>>> attention_flops(N=1, L=128, d_model=768) == attention_flops(N=1, L=128, d_model=768, num_heads=1)
True
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import html
import math
import os
import platform
import statistics
import sys
from collections.abc import Callable, Sequence

import torch
from torch import nn
from torch.utils import benchmark

from ._checks import check_divisible
from .cache import memory
from .fast import FastMultiHeadAttention, load_fast_from_torch
from .multihead import MultiHeadAttention, load_from_torch
from .tables import md_table

__all__ = [
    "IMPLS", "SMALL", "FULL", "attention_flops", "make_impls", "peak_bytes",
    "time_fns", "sweep", "small_sweep", "full_sweep", "machine_info", "machine_table", "flop_table", "time_table",
    "throughput_table", "memory_table", "time_figure", "memory_figure", "goals", "goals_table",
    "report", "full_sweep_tables", "full_sweep_figures", "memory_slope",
]

IMPLS = ("scratch", "mha_default", "mha_no_weights", "mha_fastpath", "fast")
SMALL = dict(lengths=(128, 256, 512), N=1, d_model=768, num_heads=12, min_run_time=0.08, rounds=2)
FULL = dict(lengths=(128, 256, 512, 1024, 2048, 4096), N=1, d_model=768, num_heads=12, min_run_time=2.0, rounds=6)
NAMES = {
    "zh": {
        "scratch": "从零手写",
        "mha_default": "nn.MHA 默认",
        "mha_no_weights": "nn.MHA need_weights=False",
        "mha_fastpath": "nn.MHA 推理快速路径",
        "fast": "融合 QKV + SDPA",
    },
    "en": {
        "scratch": "from scratch",
        "mha_default": "nn.MHA default",
        "mha_no_weights": "nn.MHA need_weights=False",
        "mha_fastpath": "nn.MHA inference fast path",
        "fast": "fused QKV + SDPA",
    },
}


def _lang(lang: str) -> str:
    if lang not in NAMES:
        raise ValueError(f"lang must be one of {sorted(NAMES)}, got {lang!r}")
    return lang


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


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info(num_threads: int = 1) -> dict[str, object]:
    """What the numbers depend on: CPU, cores, benchmark threads, SIMD level, torch version."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "threads": num_threads,
        "simd": torch.backends.cpu.get_cpu_capability(),
        "torch": torch.__version__,
        "python": platform.python_version(),
    }


def sweep(lengths: Sequence[int], N: int, d_model: int, num_heads: int, min_run_time: float,
          rounds: int = 2, num_threads: int = 1) -> dict:
    """Time, throughput and peak memory of every implementation at every length."""
    if not lengths or any(not isinstance(L, int) or L < 1 for L in lengths):
        raise ValueError(f"lengths must be a non-empty sequence of positive integers, got {lengths!r}")
    rows, best_mm = [], 0.0
    n = 1024
    a, b = torch.randn(n, n), torch.randn(n, n)
    for L in lengths:
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


_sweep_cached = memory.cache(sweep)


def small_sweep() -> dict:
    """The build-time sizes (cached, so the second language and warm builds read from disk)."""
    return _sweep_cached(**SMALL)


def full_sweep(run: bool = False) -> dict | None:
    """The full sweep from the cache; None if it has not been run (run=True runs it)."""
    if not run and not _sweep_cached.check_call_in_cache(**FULL):
        return None
    return _sweep_cached(**FULL)


def _row(result: dict, impl: str, L: int) -> dict:
    for r in result["rows"]:
        if r["impl"] == impl and r["L"] == L:
            return r
    raise ValueError(f"no measurement for impl={impl!r}, L={L}; lengths are {result['lengths']}")


def _ms(s: float) -> str:
    return f"{s * 1e3:.2f}" if s < 0.1 else f"{s * 1e3:.0f}"


def _mb(b: float) -> str:
    return f"{b / 2**20:.1f}"


def machine_table(lang: str, result: dict | None = None) -> str:
    """This build's machine, or the one a cached result came from."""
    lang = _lang(lang)
    info = machine_info() if result is None else result["machine"]
    keys = {"zh": ["CPU 型号", "CPU 核数", "基准测试线程数", "SIMD 指令集", "torch 版本", "Python 版本"],
            "en": ["CPU model", "CPU cores", "benchmark threads", "SIMD level", "torch version", "Python version"]}[lang]
    head = {"zh": ["项目", "值"], "en": ["Item", "Value"]}[lang]
    return md_table(head, list(zip(keys, info.values(), strict=True)))


def flop_table(lang: str, lengths: Sequence[int] = FULL["lengths"], N: int = 1, d_model: int = 768,
               num_heads: int = 12) -> str:
    """Where the work goes as L grows: projections (linear in L) vs attention (quadratic), and the weights' size."""
    lang = _lang(lang)
    head = {"zh": ["L", "总 GFLOP", "注意力部分占比", "N·h·L² 权重 (MiB)"],
            "en": ["L", "total GFLOP", "share of q kᵀ and weights·v", "N·h·L² weights (MiB)"]}[lang]
    rows = []
    for L in lengths:
        total = attention_flops(N, L, d_model, num_heads)
        quad = 4 * N * L * L * d_model
        rows.append([L, f"{total / 1e9:.1f}", f"{quad / total:.0%}", _mb(4 * N * num_heads * L * L)])
    return md_table(head, rows, align="rrrr")


def time_table(result: dict, lang: str) -> str:
    """Milliseconds per forward: min / median, one column per implementation."""
    lang = _lang(lang)
    head = ["L"] + [NAMES[lang][i] for i in IMPLS]
    rows = [[L] + [f"{_ms(_row(result, i, L)['min_s'])} / {_ms(_row(result, i, L)['median_s'])}" for i in IMPLS]
            for L in result["lengths"]]
    return md_table(head, rows, align="r" * len(head))


def throughput_table(result: dict, lang: str) -> str:
    """Achieved GFLOP/s (at the fastest time) and its share of the measured matmul FLOP/s."""
    lang = _lang(lang)
    peak = result["matmul_flops"]
    head = ["L"] + [NAMES[lang][i] for i in IMPLS]
    rows = []
    for L in result["lengths"]:
        cells = []
        for i in IMPLS:
            r = _row(result, i, L)
            achieved = r["flops"] / r["min_s"]
            cells.append(f"{achieved / 1e9:.0f} ({achieved / peak:.0%})")
        rows.append([L] + cells)
    return md_table(head, rows, align="r" * len(head))


def memory_table(result: dict, lang: str) -> str:
    """Peak MiB allocated during one forward pass; last row: the exponent p in peak ∝ Lᵖ."""
    lang = _lang(lang)
    head = ["L"] + [NAMES[lang][i] for i in IMPLS]
    rows = [[L] + [_mb(_row(result, i, L)["peak_bytes"]) for i in IMPLS] for L in result["lengths"]]
    a, b = result["lengths"][-2:]
    label = {"zh": f"指数 p（L={a}→{b}）", "en": f"exponent p (L={a}→{b})"}[lang]
    rows.append([label] + [f"{memory_slope(result, i):.2f}" for i in IMPLS])
    return md_table(head, rows, align="r" * len(head))


def matmul_sentence(result: dict, lang: str) -> str:
    """The reference throughput, in words."""
    gflops = result["matmul_flops"] / 1e9
    if _lang(lang) == "zh":
        return (f"本机实测稠密矩阵乘法（1024×1024 float32）：**{gflops:.0f} GFLOP/s**，下表的百分比都以它为 100%。"
                "某格超过 100%，说明测矩阵乘法参照时机器正忙，参照被低估了。")
    return (f"Measured dense matmul on this machine (1024×1024 float32): **{gflops:.0f} GFLOP/s**, which is 100% "
            "below. A share above 100% means the machine was busy while the matmul reference was timed.")


def memory_slope(result: dict, impl: str) -> float:
    """Exponent p in peak ∝ L^p between the two largest lengths (1 = linear, 2 = quadratic)."""
    L1, L2 = result["lengths"][-2:]
    m1, m2 = _row(result, impl, L1)["peak_bytes"], _row(result, impl, L2)["peak_bytes"]
    return math.log(m2 / m1) / math.log(L2 / L1)


def _plot(result: dict, lang: str, key: str, ylabel: str, alt: str, caption: str) -> str:
    import matplotlib.pyplot as plt

    from .figures import svg_figure

    def draw():
        fig, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
        markers = dict(zip(IMPLS, "osD^v", strict=True))
        for i in IMPLS:
            ys = [_row(result, i, L)[key] for L in result["lengths"]]
            ys = [y * 1e3 for y in ys] if key == "min_s" else [y / 2**20 for y in ys]
            ax.plot(result["lengths"], ys, marker=markers[i], label=NAMES[lang][i])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(result["lengths"], [str(L) for L in result["lengths"]])
        ax.set_xlabel({"zh": "序列长度 L", "en": "sequence length L"}[lang])
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, frameon=False)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def time_figure(result: dict, lang: str, alt: str, caption: str) -> str:
    """Log-log plot of the fastest time per forward against L."""
    ylabel = {"zh": "每次前向（毫秒，最小值）", "en": "ms per forward (min)"}[_lang(lang)]
    return _plot(result, lang, "min_s", ylabel, alt, caption)


def memory_figure(result: dict, lang: str, alt: str, caption: str) -> str:
    """Log-log plot of peak memory against L."""
    ylabel = {"zh": "峰值内存（MiB）", "en": "peak memory (MiB)"}[_lang(lang)]
    return _plot(result, lang, "peak_bytes", ylabel, alt, caption)


@memory.cache
def _pair_at(L: int, N: int, d_model: int, num_heads: int, min_run_time: float) -> dict:
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
        best_official = min(_row(result, i, L)["min_s"] for i in ("mha_default", "mha_no_weights", "mha_fastpath"))
        ratio = _row(result, "fast", L)["min_s"] / best_official
        if ratio > worst:
            worst, worst_L = ratio, L
    if 2048 in lengths:
        speedup = _row(result, "scratch", 2048)["min_s"] / _row(result, "fast", 2048)["min_s"]
    else:
        pair = _pair_at(2048, result["N"], result["d_model"], result["num_heads"], 0.3)
        speedup = pair["scratch"] / pair["fast"]
    fast_p, naive_p = memory_slope(result, "fast"), memory_slope(result, "scratch")
    return [
        {"goal": "time", "ratio": worst, "at": worst_L, "met": worst <= 1.05},
        {"goal": "speedup", "ratio": speedup, "at": 2048, "met": speedup >= 1.5},
        {"goal": "memory", "ratio": fast_p, "naive": naive_p, "at": tuple(lengths[-2:]),
         "met": fast_p <= 1.2 and naive_p >= 1.5},
    ]


def goals_table(lang: str, result: dict | None = None) -> str:
    """Each goal, its target, the measured value and met / not met."""
    lang = _lang(lang)
    zh = lang == "zh"
    rows = []
    for g in goals(result):
        verdict = ("✅ 达成" if g["met"] else "❌ 未达成") if zh else ("✅ met" if g["met"] else "❌ not met")
        if g["goal"] == "time":
            rows.append(["融合 QKV + SDPA 的用时 ÷ nn.MHA 最快配置" if zh else "fused QKV + SDPA time ÷ fastest nn.MHA",
                         "≤ 1.05", f"{g['ratio']:.3f}（L={g['at']}，最差）" if zh else f"{g['ratio']:.3f} (L={g['at']}, worst)",
                         verdict])
        elif g["goal"] == "speedup":
            rows.append(["从零手写用时 ÷ 融合 QKV + SDPA 用时" if zh else "from-scratch time ÷ fused QKV + SDPA time",
                         "≥ 1.5", f"{g['ratio']:.2f}（L=2048）" if zh else f"{g['ratio']:.2f} (L=2048)", verdict])
        else:
            a, b = g["at"]
            rows.append(["峰值内存 ∝ Lᵖ 的指数 p（融合 / 手写）" if zh else "exponent p in peak ∝ Lᵖ (fused / from scratch)",
                         "≈ 1 / ≈ 2", f"{g['ratio']:.2f} / {g['naive']:.2f}（L={a}→{b}）" if zh
                         else f"{g['ratio']:.2f} / {g['naive']:.2f} (L={a}→{b})", verdict])
    head = ["目标", "要求", "实测", "结论"] if zh else ["Goal", "Target", "Measured", "Verdict"]
    return md_table(head, rows)


def report(result: dict, lang: str) -> str:
    """The matmul reference and the three tables of one sweep, with headings."""
    lang = _lang(lang)
    label = {"zh": ("用时（毫秒，最小 / 中位）", "吞吐（GFLOP/s，括号里是占矩阵乘法的百分比）", "峰值内存（MiB）"),
             "en": ("Time (ms, min / median)", "Throughput (GFLOP/s; in brackets, share of matmul)",
                    "Peak memory (MiB)")}[lang]
    return "\n\n".join([matmul_sentence(result, lang), f"**{label[0]}**", time_table(result, lang),
                         f"**{label[1]}**", throughput_table(result, lang), f"**{label[2]}**",
                         memory_table(result, lang)])


def full_sweep_tables(lang: str) -> str:
    """Tables of the full sweep from the cache, or how to produce them."""
    lang = _lang(lang)
    result = full_sweep()
    if result is None:
        return {"zh": "缓存里还没有完整扫描的结果。在仓库根目录运行 `python -m snippets.bench --full`"
                      "（几分钟），再重新构建网站，这里就会出现表格和图。",
                "en": "The cache holds no full sweep yet. Run `python -m snippets.bench --full` at the repository "
                      "root (a few minutes), then rebuild the site; tables and plots will appear here."}[lang]
    label = {"zh": "测得这些数字的机器", "en": "Machine these numbers came from"}[lang]
    return "\n\n".join([f"**{label}**", machine_table(lang, result), report(result, lang)])


def full_sweep_figures(lang: str, alt_time: str, caption_time: str, alt_memory: str, caption_memory: str) -> str:
    """The two plots of the full sweep, or an empty note when it has not been run."""
    lang = _lang(lang)
    result = full_sweep()
    if result is None:
        note = {"zh": "（完整扫描尚未运行，暂无图。）", "en": "(No plots until the full sweep has been run.)"}[lang]
        return f"<p>{html.escape(note)}</p>"
    return time_figure(result, lang, alt_time, caption_time) + memory_figure(result, lang, alt_memory, caption_memory)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="run the full sweep L = 128 … 4096 into the cache")
    args = parser.parse_args(argv)
    result = full_sweep(run=True) if args.full else small_sweep()
    print(machine_table("en", result), "", matmul_sentence(result, "en"), "", time_table(result, "en"), "",
          throughput_table(result, "en"), "", memory_table(result, "en"), "", goals_table("en", result), sep="\n")


if __name__ == "__main__":
    from snippets.bench import main as _main  # the importable module, so the cache key is snippets.bench

    _main()
