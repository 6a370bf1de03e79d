"""The key/value-heads page's tables, checks, figure and sentences, in the page's language.

>>> rows = cache_rows("en", kv_heads=(32, 8, 1))
>>> [r[2] for r in rows]  # bytes per token and layer, bf16, d_k = 128
['16,384', '4,096', '512', '1,024']
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor
from torch.utils.flop_counter import FlopCounterMode

import resultcache

from .. import benchreport, stats
from ..figures import Figure, svg_figure
from ..i18n import and_list, check_lang, text
from ..tables import md_table
from ..whatif.compare import diff_interval, interval_verdict  # the page's old method, for its history table
from .attention import GroupedQueryAttention, KVCache, cache_bytes_per_token, decode, formula_bytes_per_token
from . import cost
from .decode_bench import METHODS, MLA_METHODS, SHARED_QUERY, block_slices
from .decoder import TinyDecoder, generate_tokens
from .mla import LatentAttention, LatentCache
from .recall import D_MODEL, IGNORE, KEYS, RecallModel, make_recall_batch

__all__ = ["decode_demo", "show_sequence", "cache_rows", "cache_header", "cache_check_rows", "load_recall", "recall_header",
           "recall_rows", "recall_figure", "recall_family", "verdict_sentences", "family_sentence", "learned_sentence",
           "history_rows", "parameter_count", "cost_sentence", "recall_intro", "load_decode", "decode_row",
           "decode_header", "decode_rows", "growth", "decode_sentences", "control_row", "control_sentence", "quick_control",
           "process_spread", "decode_spread_sentence", "decode_figure", "stored_rows", "stored_header",
           "decoder_rows", "decoder_sentence", "row_difference", "decoder_step_flops", "step_flops_lines", "flops_header", "flops_check_rows",
           "false_positive_sentence", "summary_sentence", "decode_family", "decode_flops_rows",
           "decode_flops_header", "mla_row", "mla_header", "mla_rows", "mla_flops_header", "mla_flops_rows", "quick_steps", "quick_recall", "step_fns",
           "mla_family", "mla_sentences", "DECODE_PARTS", "MLA_PARTS"]

RESULT_NAME = "kvheads-recall.json"


def _kv_label(lang: str, h: int, g: int) -> str:
    kind = "mha" if g == h else "mqa" if g == 1 else "gqa"
    return text(lang, f"kvheads.{kind}", g=g)


# --8<-- [start:cache_rows]
def cache_rows(lang: str, d_model: int = 4096, num_heads: int = 32,
               num_layers: int = 32, kv_heads: Sequence[int] = (32, 8, 4, 1),
               d_latent: int = 512, dtype=torch.bfloat16,
               context: int = 32_768) -> list[list[str]]:
    """Cache bytes per token, read off the cache after one forward of each
    layer. device="meta": shapes and dtypes only, no memory, no compute."""
    x = torch.empty(1, 4, d_model, device="meta", dtype=dtype)
    d_k = d_model // num_heads
    layers = [(_kv_label(lang, num_heads, g),
               f"2 × {g} × {d_k} = {2 * g * d_k}",
               GroupedQueryAttention(d_model, num_heads, g, device="meta",
                                     dtype=dtype),
               KVCache(),
               formula_bytes_per_token(g, d_k, dtype)) for g in kv_heads]
    mla = LatentAttention(d_model, num_heads, d_latent, device="meta",
                          dtype=dtype)
    layers.append((text(lang, "kvheads.mla"), f"d_c = {d_latent}", mla,
                   LatentCache(), d_latent * x.element_size()))
    rows = []
    for name, shape, layer, cache, formula in layers:
        layer(x, cache)
        per_layer = cache_bytes_per_token(cache)  # from the tensors
        assert per_layer == formula
        total = per_layer * num_layers
        rows.append([name, shape, f"{per_layer:,.0f}", f"{total / 2**10:,.0f}",
                     f"{total * context / 2**30:,.1f}"])
    return rows
# --8<-- [end:cache_rows]


# --8<-- [start:stored_rows]
def stored_rows(lang: str, d_model: int = 4096, num_heads: int = 32,
                num_layers: int = 32, kv_heads: Sequence[int] = (32, 8, 1),
                d_latent: int = 512, dtype=torch.bfloat16,
                context: int = 4096) -> list[list[str]]:
    """Per token and layer: the query's bytes (used at its own step only)
    and what the cache keeps (read again at every later step), both read
    off the tensors of one forward on the meta device."""
    x = torch.empty(1, 1, d_model, device="meta", dtype=dtype)
    f = {"device": "meta", "dtype": dtype}
    layers = [(_kv_label(lang, num_heads, g),
               GroupedQueryAttention(d_model, num_heads, g, **f), KVCache())
              for g in kv_heads]
    layers.append((text(lang, "kvheads.mla"),
                   LatentAttention(d_model, num_heads, d_latent, **f),
                   LatentCache()))
    rows = []
    for name, layer, cache in layers:
        q = layer.W_q(x)  # the query: this step's scores, then dropped
        layer(x, cache)
        kept = cache_bytes_per_token(cache)  # stays for every later step
        step = kept * context * num_layers  # one step at this context
        rows.append([name, f"{q.numel() * q.element_size():,}",
                     f"{kept:,.0f}", f"{step / 2**20:,.0f}"])
    return rows
# --8<-- [end:stored_rows]


def stored_header(lang: str, num_layers: int = 32, context: int = 4096) -> list[str]:
    return [*text(lang, "kvheads.stored_head"), text(lang, "kvheads.stored_step", context=context, layers=num_layers)]


# --8<-- [start:decode_demo]
def decode_demo(d_model: int = 64, num_heads: int = 8,
                kv_heads: Sequence[int] = (8, 4, 2, 1), L: int = 10,
                seed: int = 0) -> str:
    """Decode L positions one at a time with each g; per g: the cache's key
    shape, its bytes per token (from its tensors) and the formula 2·g·d_k·4."""
    torch.manual_seed(seed)
    x = torch.randn(1, L, d_model)  # (N, L, E)
    lines = []
    for g in kv_heads:
        layer = GroupedQueryAttention(d_model, num_heads, num_kv_heads=g)
        out, cache = decode(layer, x)
        formula = formula_bytes_per_token(g, d_model // num_heads,
                                          torch.float32)
        lines.append(f"g={g}: cache.k {tuple(cache.k.shape)}, "
                     f"{cache_bytes_per_token(cache):.0f} B/token, "
                     f"2*g*d_k*4 = {formula}")
    return "\n".join(lines)
# --8<-- [end:decode_demo]


def show_sequence(num_pairs: int = 4, seed: int = 0) -> str:
    """One recall sequence as two lines: its tokens (kN a key, vN a value), and the targets (· where none)."""
    x, y = make_recall_batch(1, num_pairs=num_pairs, seed=seed)
    name = lambda t: f"k{t}" if t < KEYS else f"v{t - KEYS}"  # noqa: E731
    return "\n".join([" ".join(f"{name(t):>4}" for t in x[0].tolist()),
                      " ".join(f"{'·' if t == IGNORE else name(t):>4}" for t in y[0].tolist())])


def cache_header(lang: str, num_layers: int = 32, context: int = 32_768) -> list[str]:
    """cache_rows' column names, with its number of layers and context length."""
    return [*text(lang, "kvheads.cache_head"), text(lang, "kvheads.cache_all", layers=num_layers),
            text(lang, "kvheads.cache_context", layers=num_layers, context=context)]


def cache_check_rows(lang: str, seed: int = 0) -> list[list[str]]:
    """The page's equivalence checks on random inputs (float64): what, the largest difference, the tolerance."""
    check_lang(lang)
    torch.manual_seed(seed)
    N, L, h, g, d_k = 2, 12, 8, 2, 16
    x = torch.randn(N, L, h * d_k, dtype=torch.float64)
    rows = []
    with torch.no_grad():
        layer = GroupedQueryAttention(h * d_k, h, g, dtype=torch.float64)
        ours = layer(x)
        q = layer.W_q(x).view(N, L, h, d_k).transpose(1, 2)
        k = layer.W_k(x).view(N, L, g, d_k).transpose(1, 2)
        v = layer.W_v(x).view(N, L, g, d_k).transpose(1, 2)
        ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        ref = layer.W_o(ref.transpose(1, 2).reshape(N, L, h * d_k))
        rows.append(("sdpa", (ours - ref).abs().max(), 1e-10))
        stepped, _ = decode(layer, x)
        rows.append(("decode", (stepped - ours).abs().max(), 1e-6))
        mla = LatentAttention(h * d_k, h, 32, dtype=torch.float64)
        naive = mla(x)
        rows.append(("mla", (mla(x, absorbed=True) - naive).abs().max(), 1e-10))
        cache = LatentCache()
        stepped = torch.cat([mla(x[:, t:t + 1], cache, absorbed=True) for t in range(L)], dim=1)
        rows.append(("mla_decode", (stepped - naive).abs().max(), 1e-6))
    ok, bad = text(lang, "kvheads.ok"), text(lang, "kvheads.bad")
    return [[text(lang, f"kvheads.check.{key}", h=h, g=g), f"{float(err):.1e}", f"{tol:.0e}",
             ok if err <= tol else bad] for key, err, tol in rows]


def load_recall(path: Path | None = None) -> dict:
    """{"provenance": ..., "data": {"sweep": ..., "models": [...]}} committed by python -m sitebuild.results recall."""
    # results/ in a checkout, the downloaded copy elsewhere (a notebook run from the lesson wheel)
    path = resultcache.results_dir() / RESULT_NAME if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"expected the committed recall sweep at {path}; run `python -m sitebuild.results recall`")
    return json.loads(path.read_text(encoding="utf-8"))


def _grid(result: dict) -> tuple[dict, dict[tuple[int, int], list[float]]]:
    data = result["data"]
    sweep, acc = data["sweep"], {}
    for m in sorted(data["models"], key=lambda m: m["seed"]):
        acc.setdefault((m["num_pairs"], m["num_kv_heads"]), []).append(m["accuracy"])
    return sweep, acc


def _bytes(sweep: dict, g: int) -> int:
    """KV-cache bytes per token and layer of the small model (float32)."""
    return formula_bytes_per_token(g, D_MODEL // sweep["num_heads"], torch.float32)


def parameter_count(num_heads: int, num_kv_heads: int) -> int:
    """Parameters of the recall model with g key/value heads, counted from the model itself."""
    return sum(p.numel() for p in RecallModel(num_heads, num_kv_heads).parameters())


MINIMUM = 0.01  # one percentage point of accuracy: a smaller difference is called negligible
LEARNED = 0.5  # a seed whose held-out accuracy reaches this has learned the task (the rest sit near 13%)


# --8<-- [start:family]
def recall_family(result: dict | None = None
                  ) -> dict[tuple[int, int], stats.Comparison]:
    """Every g < h against MHA at every number of pairs, paired by seed:
    one family, Holm-corrected (snippets.stats.compare_family)."""
    sweep, acc = _grid(load_recall() if result is None else result)
    h = sweep["num_heads"]
    cells = [(n, g) for n in sweep["pairs"]
             for g in sweep["kv_heads"] if g != h]
    family = stats.compare_family([(acc[n, h], acc[n, g]) for n, g in cells],
                                  minimum=MINIMUM)
    return dict(zip(cells, family, strict=True))
# --8<-- [end:family]


def recall_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """One row per g: parameters (counted from the model), cache bytes, then the mean accuracy and the lowest and
    highest seed for each number of pairs."""
    sweep, acc = _grid(load_recall() if result is None else result)
    rows = []
    for g in sweep["kv_heads"]:
        cells = [f"{np.mean(acc[n, g]):.1%} ({min(acc[n, g]):.1%}–{max(acc[n, g]):.1%})" for n in sweep["pairs"]]
        rows.append([_kv_label(lang, sweep["num_heads"], g), f"{parameter_count(sweep['num_heads'], g):,}",
                     _bytes(sweep, g), *cells])
    return rows


def recall_header(lang: str, result: dict | None = None) -> list[str]:
    sweep, _ = _grid(load_recall() if result is None else result)
    return [*text(lang, "kvheads.recall_head"), *(text(lang, "kvheads.pairs", n=n) for n in sweep["pairs"])]


def recall_intro(lang: str, result: dict | None = None) -> str:
    """The line above the recall table: what its cells are, and over how many seeds."""
    sweep, _ = _grid(load_recall() if result is None else result)
    return text(lang, "kvheads.recall_intro", seeds=len(sweep["seeds"]))


def recall_figure(lang: str, result: dict | None = None) -> str:
    """Top: accuracy against KV-cache bytes per token, one line per number of pairs, seeds as dots, the mean as
    a line. Bottom: each g's difference from MHA, paired by seed, with its Holm-corrected interval (0 = MHA)."""
    result = load_recall() if result is None else result
    sweep, acc = _grid(result)
    family = recall_family(result)
    gs, pairs, h = list(sweep["kv_heads"]), list(sweep["pairs"]), sweep["num_heads"]
    xs = [_bytes(sweep, g) for g in gs]
    spread = lambda i: 2 ** (0.1 * (i - (len(pairs) - 1) / 2))  # noqa: E731  lines side by side

    def draw():
        fig = Figure(figsize=(5.4, 6.0), layout="constrained")
        top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(3, 2))
        for i, n in enumerate(pairs):
            shift = [x * spread(i) for x in xs]
            for x, g in zip(shift, gs, strict=True):
                top.scatter([x] * len(acc[n, g]), np.array(acc[n, g]) * 100, s=10, color=f"C{i}", alpha=0.45)
            top.plot(shift, [np.mean(acc[n, g]) * 100 for g in gs], "o-", color=f"C{i}",
                     label=text(lang, "kvheads.pairs", n=n))
            diffs = np.array([(c.mean, c.lo, c.hi) for c in (family[n, g] for g in gs[1:])]) * 100
            bottom.errorbar(shift[1:], diffs[:, 0], yerr=_bars(diffs), fmt="o", color=f"C{i}", capsize=3)
        bottom.axhline(0, color="0.3", linewidth=0.8)
        bottom.set_xscale("log", base=2)
        bottom.set_xticks(xs, [f"{x}\n{_kv_label(lang, h, g)}" for x, g in zip(xs, gs, strict=True)])
        bottom.minorticks_off()
        bottom.set_xlabel(text(lang, "kvheads.fig_x"))
        top.set_ylabel(text(lang, "kvheads.fig_y"))
        bottom.set_ylabel(text(lang, "kvheads.fig_diff"))
        for ax in (top, bottom):
            ax.grid(alpha=0.3)
        fig.legend(*top.get_legend_handles_labels(), loc="outside upper center", ncols=len(pairs), frameon=False)
        return fig

    level = next(iter(family.values())).level
    return svg_figure(draw, alt=text(lang, "kvheads.fig_alt"),
                      caption=text(lang, "kvheads.fig_caption", seeds=len(sweep["seeds"]), family=len(family),
                                   level=level))


def _bars(stats_: np.ndarray) -> np.ndarray:
    """Rows (mean, lo, hi) as errorbar's (2, k) distances below and above, rounding below 0 clipped."""
    return np.clip([stats_[:, 0] - stats_[:, 1], stats_[:, 2] - stats_[:, 0]], 0, None)


def _points(*values: float) -> list[float]:
    return [round(v * 100, 2) + 0.0 for v in values]  # + 0.0: no "-0.00"


def _verdict_words(lang: str, c: stats.Comparison) -> str:
    """The verdict's words in lang; the verdict itself comes from snippets.stats.verdict alone."""
    return text(lang, f"kvheads.v_{c.verdict}", seeds=c.n, minimum=MINIMUM * 100)


def verdict_sentences(lang: str, result: dict | None = None) -> str:
    """For each number of pairs and each g < h: the accuracy difference to MHA, paired by seed, its interval at
    the level Holm's procedure tested it at (over the whole grid), and the verdict."""
    result = load_recall() if result is None else result
    sweep, acc = _grid(result)
    family = recall_family(result)
    h = sweep["num_heads"]
    out = []
    for n in sweep["pairs"]:
        parts, bare, verdicts = [], [], []
        for g in sweep["kv_heads"]:
            if g == h:
                continue
            c = family[n, g]
            d, lo, hi = _points(c.mean, c.lo, c.hi)
            parts.append(text(lang, "kvheads.verdict_part", name=_kv_label(lang, h, g), diff=d, lo=lo, hi=hi,
                              level=c.level, verdict=_verdict_words(lang, c)))
            bare.append(text(lang, "kvheads.verdict_part_bare", name=_kv_label(lang, h, g), diff=d, lo=lo, hi=hi,
                             level=c.level))
            verdicts.append(c.verdict)
        # when no comparison at this size is a difference, the verdict is said once, not once per g
        none = all(v == "none" for v in verdicts)
        out.append(text(lang, "kvheads.verdict_all_none" if none else "kvheads.verdict", n=n,
                        mha=float(np.mean(acc[n, h])), seeds=len(acc[n, h]), count=len(verdicts),
                        parts=text(lang, "kvheads.sep").join(bare if none else parts)))
    return "\n\n".join(out)


def family_sentence(lang: str, result: dict | None = None) -> str:
    """How many comparisons the correction covered, and how many of them are a difference."""
    family = recall_family(result)
    found = [c for c in family.values() if c.verdict in ("higher", "lower")]
    return text(lang, "kvheads.family", family=len(family), found=len(found), minimum=MINIMUM * 100)


def learned_sentence(lang: str, result: dict | None = None, threshold: float = LEARNED) -> str:
    """At each number of pairs where some seed did not learn the task: how many seeds of each g learned it
    against MHA (Fisher's exact test, Holm-corrected over the g), and the accuracy among those that learned."""
    if not 0 < threshold < 1:
        raise ValueError(f"threshold must be a share between 0 and 1, got {threshold!r}")
    sweep, acc = _grid(load_recall() if result is None else result)
    h, out = sweep["num_heads"], []
    for n in sweep["pairs"]:
        if all(a >= threshold for g in sweep["kv_heads"] for a in acc[n, g]):
            continue
        others = [g for g in sweep["kv_heads"] if g != h]
        splits = {g: stats.learned_split(acc[n, h], acc[n, g], threshold) for g in others}
        reject, _ = stats.holm([s.p_share for s in splits.values()])
        mha = next(iter(splits.values()))
        shares = [text(lang, "kvheads.learned_mha", name=_kv_label(lang, h, h), k=mha.learned_a, seeds=mha.n_a)]
        shares += [text(lang, "kvheads.learned_part", name=_kv_label(lang, h, g), k=s.learned_b, seeds=s.n_b,
                        p=s.p_share) for g, s in splits.items()]
        found = int(reject.sum())
        among = [(h, mha.among_a)] + [(g, s.among_b) for g, s in splits.items()]
        out.append(text(lang, "kvheads.learned", n=n, threshold=threshold, shares=text(lang, "kvheads.sep").join(shares),
                        tests=len(others), said=(text(lang, "kvheads.learned_found", found=found) if found
                                                 else text(lang, "kvheads.v_none", seeds=mha.n_a)),
                        among=text(lang, "kvheads.sep").join(
                            text(lang, "kvheads.among_part", name=_kv_label(lang, h, g), mean=m, lo=lo, hi=hi)
                            for g, (m, lo, hi) in among)))
    if not out:
        return text(lang, "kvheads.learned_all", threshold=threshold)
    return "\n\n".join(out)


def history_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """What the page said before (percentile bootstrap, 95%, each comparison alone) and what it says now
    (t interval at the Holm step's level, over the grid), cell by cell."""
    result = load_recall() if result is None else result
    sweep, acc = _grid(result)
    family, h = recall_family(result), sweep["num_heads"]
    old_words = (text(lang, "kvheads.v_lower", seeds=0), text(lang, "kvheads.v_higher", seeds=0), "none")
    rows = []
    for (n, g), c in family.items():
        d, lo, hi = diff_interval(acc[n, h], acc[n, g], paired=True)
        old = interval_verdict(lo, hi, old_words)
        old = text(lang, "kvheads.v_none", seeds=len(acc[n, h])) if old == "none" else old
        rows.append([text(lang, "kvheads.pairs", n=n), _kv_label(lang, h, g),
                     "[{:+.2f}, {:+.2f}]".format(*_points(lo, hi)), old,
                     "[{:+.2f}, {:+.2f}] ({:.1%})".format(*_points(c.lo, c.hi), c.level), _verdict_words(lang, c)])
    return rows


def cost_sentence(lang: str, result: dict | None = None) -> str:
    """CPU seconds per model, measured, and what the whole sweep costs (why it is committed, not built)."""
    result = load_recall() if result is None else result
    secs = [m["cpu_seconds"] for m in result["data"]["models"]]
    return text(lang, "kvheads.cost", models=len(secs), lo=min(secs), hi=max(secs), total=sum(secs) / 60)


# The decoding timings (results/kvheads-decode.json, measured by snippets.kvheads.decode_bench).
DECODE_RESULT = "kvheads-decode"


def load_decode() -> dict:
    """{"provenance": ..., "data": {"params": ..., "rows": [...]}} committed by python -m sitebuild.results decode."""
    return benchreport.load(DECODE_RESULT)


def _decode_data(result: dict | None) -> dict:
    data = (load_decode() if result is None else result)["data"]
    if not isinstance(data, dict) or not {"params", "rows"} <= data.keys():
        raise ValueError(f"expected a decoding result with 'params' and 'rows', got keys "
                         f"{sorted(data) if isinstance(data, dict) else type(data).__name__}")
    return data


def _find_row(data: dict, key: str, value: int, L: int, method: str) -> dict | None:
    """The decoding row whose `key` (g or d_c), length and method match, with its interval added; None if absent."""
    for r in data["rows"]:
        if r.get(key) == value and r["L"] == L and r["method"] == method:
            return r | {"time": benchreport.interval(r["samples"])}
    return None


def decode_row(data: dict, g: int, L: int, method: str) -> dict:
    """The row of the decoding result for one g, length and method, with its interval added."""
    row = _find_row(data, "g", g, L, method)
    if row is not None:
        return row
    p = data["params"]
    raise ValueError(f"no decoding measurement for g={g!r}, L={L!r}, method={method!r}; measured g in "
                     f"{p['kv_heads']}, L in {p['lengths']}, methods {list(METHODS)}")


def _ms(seconds: float) -> str:
    ms = seconds * 1e3
    return f"{ms:.3g}" if ms < 100 else f"{ms:,.0f}"


def _speedup(data: dict, g: int, L: int) -> benchreport.Interval:
    """Without the cache over with it (no head copies), paired by round: how many times faster the cache makes
    the next token."""
    return benchreport.paired_ratio(decode_row(data, g, L, "no_cache")["samples"],
                                    decode_row(data, g, L, "cache_grouped")["samples"])


def decode_header(lang: str) -> list[str]:
    return text(lang, "kvheads.decode_head")


def decode_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """One row per g and L: the cache's KiB, ms per next token with the cache (key/value heads copied, or
    grouped without copies) and without it (median [IQR] over the rounds), and without / with (no copies),
    paired by round (geometric mean [95% t interval])."""
    data = _decode_data(result)
    p = data["params"]
    rows = []
    for g in p["kv_heads"]:
        for L in p["lengths"]:
            got = [decode_row(data, g, L, method) for method in METHODS]
            cells = [benchreport.ms_spread(r["time"].median, r["time"].low, r["time"].high, grouped=True)
                     for r in got]
            rows.append([_kv_label(lang, p["num_heads"], g), L, f"{got[0]['cache_bytes'] / 2**10:,.0f}", *cells,
                         _ratio_text(lang, _speedup(data, g, L))])
    return rows


def growth(data: dict, g: int, method: str) -> tuple[float, float, float]:
    """Exponent p in time ∝ Lᵖ between the two largest lengths, with its interval: log of the paired per-round
    ratio t(L₂) / t(L₁) and its interval, over log(L₂ / L₁)."""
    L1, L2 = data["params"]["lengths"][-2:]
    r = benchreport.paired_ratio(decode_row(data, g, L2, method)["samples"],
                                 decode_row(data, g, L1, method)["samples"])
    return tuple(math.log(x) / math.log(L2 / L1) for x in r)


_THEORY = {"cache": 1, "cache_grouped": 1, "no_cache": 2}  # one query against L keys; L queries against L keys


def control_row(data: dict, L: int) -> dict:
    """The shared-query control's row (h key/value heads, one query) at length L, with its interval added."""
    row = _find_row(data, "q", 1, L, SHARED_QUERY)
    if row is None:
        raise ValueError(f"no shared-query control measured at L={L!r} (params: shared_query="
                         f"{data['params'].get('shared_query', False)!r}, lengths {data['params']['lengths']})")
    return row


def _family_pairs(data: dict) -> dict[tuple[str, int, str], tuple[list[float], list[float]]]:
    """Each judged ratio's two sample lists (a over b), at the longest length."""
    p = data["params"]
    h, L = p["num_heads"], p["lengths"][-1]
    t = lambda g, method: decode_row(data, g, L, method)["samples"]  # noqa: E731
    pairs = {("copies", g, ""): (t(g, "cache_grouped"), t(g, "cache")) for g in p["kv_heads"]}
    pairs |= {("g", g, method): (t(g, method), t(h, method))
              for g in p["kv_heads"] if g != h for method in METHODS}
    if p.get("shared_query"):  # the control against MHA, both reading h cached heads with no copies
        pairs[SHARED_QUERY, 1, ""] = (control_row(data, L)["samples"], t(h, "cache_grouped"))
    return pairs


def decode_family(data: dict) -> dict[tuple[str, int, str], benchreport.Ratio]:
    """The time ratios the decoding sentences judge, at the longest length, one Holm-corrected family:
    ("copies", g, "") = grouped over copied for each g; ("g", g, method) = g's time over MHA's, each smaller g
    and each method; (SHARED_QUERY, 1, "") = the shared-query control over MHA (cached, no copies), if measured."""
    pairs = _family_pairs(data)
    return dict(zip(pairs, benchreport.ratio_family(list(pairs.values())), strict=True))


def process_spread(data: dict) -> dict[tuple[str, int, str], list[float]]:
    """Each judged ratio once per block of rounds (the geometric mean of its per-round ratios in that block):
    with params["processes"], one value per separate process."""
    slices = block_slices(data["params"])
    return {key: [math.exp(statistics.fmean(math.log(x / y) for x, y in zip(a[s], b[s], strict=True)))
                  for s in slices]
            for key, (a, b) in _family_pairs(data).items()}


def control_sentence(lang: str, result: dict | None = None) -> str:
    """The shared-query control beside MQA at the longest length, judged in decode_family: does sharing make a
    cached step faster, or does reading a smaller cache?"""
    data = _decode_data(result)
    p = data["params"]
    h, L = p["num_heads"], p["lengths"][-1]
    kib = control_row(data, L)["cache_bytes"] / 2**10
    family = decode_family(data)
    control, mqa = family[SHARED_QUERY, 1, ""], family["g", 1, "cache_grouped"]
    ending = ("cache" if control.verdict != "lower" and mqa.verdict == "lower"
              else "both" if control.verdict == "lower" and mqa.verdict == "lower" else "neither")
    return benchreport.cjk_spacing(text(
        lang, "kvheads.control", h=h, L=L, kib=f"{kib:,.0f}",
        mha=_kv_label(lang, h, h), mqa=_kv_label(lang, h, 1), control=_judged(lang, control),
        mqa_ratio=_judged(lang, mqa), ending=text(lang, f"kvheads.control_{ending}")))


def decode_spread_sentence(lang: str, result: dict | None = None) -> str:
    """How far the judged ratios moved between the blocks of rounds (separate processes, if so measured), and
    whether each verdict's direction held in every block."""
    data = _decode_data(result)
    p = data["params"]
    family, spread = decode_family(data), process_spread(data)
    held = sum(all((v < 1) == (family[k].ratio.median < 1) for v in vs) for k, vs in spread.items()
               if family[k].verdict in ("lower", "higher"))
    judged = sum(r.verdict in ("lower", "higher") for r in family.values())
    widest = max(spread, key=lambda k: max(spread[k]) / min(spread[k]))
    return benchreport.cjk_spacing(text(
        lang, "kvheads.spread_processes" if p.get("processes") else "kvheads.spread_blocks",
        blocks=p["blocks"], per=p["rounds"] // p["blocks"],
        held_text=text(lang, "kvheads.held_all" if held == judged else "kvheads.held_some", judged=judged, held=held,
                       unit=text(lang, "kvheads.unit_process" if p.get("processes") else "kvheads.unit_block")),
        widest=_family_name(lang, widest, p["num_heads"]), low=min(spread[widest]), high=max(spread[widest]),
        overall=family[widest].ratio.median,
        ending=text(lang, "kvheads.spread_all" if held == judged else "kvheads.spread_some")))


def _family_name(lang: str, key: tuple[str, int, str], h: int) -> str:
    kind, g, method = key
    if kind == SHARED_QUERY:
        return text(lang, "kvheads.control_name", mha=_kv_label(lang, h, h))
    if kind == "copies":
        return text(lang, "kvheads.copies_name", name=_kv_label(lang, h, g))
    return text(lang, "kvheads.ratio_name", name=_kv_label(lang, h, g), mha=_kv_label(lang, h, h),
                method=text(lang, f"kvheads.method_{method}"))


def _judged(lang: str, r: benchreport.Ratio) -> str:
    return text(lang, "kvheads.decode_judged", ratio=_ratio_text(lang, r.ratio, 2),
                level=benchreport.level_text(r.level),
                verdict=text(lang, f"bench.verdict_{r.verdict}", minimum=f"{benchreport.MINIMUM - 1:.0%}"))


DECODE_PARTS = ("growth", "speedup", "copies", "smaller")
MLA_PARTS = ("load", "naive", "against")


def _parts(parts: tuple[str, ...], known: tuple[str, ...]) -> tuple[str, ...]:
    """parts checked against known (a page shows some of a list and folds the rest)."""
    if isinstance(parts, str) or not parts or not set(parts) <= set(known):
        raise ValueError(f"expected parts among {list(known)}, got {parts!r}")
    return tuple(parts)


def decode_sentences(lang: str, result: dict | None = None, parts: tuple[str, ...] = DECODE_PARTS) -> str:
    """What the decoding timings say, numbers included, as a Markdown list: how the time per token grows
    with and without the cache ("growth"), what the cache saves at the longest length ("speedup"), what leaving
    out the head copies changes ("copies"), and how each smaller g compares with MHA ("smaller"; Holm-corrected
    over these ratios). `parts` picks which of these the list holds, in this order."""
    parts = _parts(parts, DECODE_PARTS)
    data = _decode_data(result)
    p = data["params"]
    h, gs, Ls = p["num_heads"], p["kv_heads"], p["lengths"]
    L1, L2 = Ls[-2:]
    g = h if h in gs else gs[0]
    lines = []  # (part, sentence)
    for method in METHODS:
        first, last = decode_row(data, g, Ls[0], method), decode_row(data, g, L2, method)
        e = growth(data, g, method)
        where = benchreport.judge(benchreport.Interval(e), _THEORY[method])
        lines.append(("growth", text(lang, f"kvheads.decode_{method}", name=_kv_label(lang, h, g), L0=Ls[0], L2=L2,
                          t0=_ms(first["time"].median), t2=_ms(last["time"].median),
                          times=last["time"].median / first["time"].median, L1=L1, p=e[0], lo=e[1], hi=e[2],
                          theory=_THEORY[method], where=text(lang, f"kvheads.decode_{where}"))))
    each = [text(lang, "kvheads.decode_speedup_part", name=_kv_label(lang, h, k),
                 ratio=_speedup_text(lang, _speedup(data, k, L2))) for k in gs]
    lines.append(("speedup", text(lang, "kvheads.decode_speedup", L=L2, parts=text(lang, "kvheads.sep").join(each))))
    family = decode_family(data)
    each = [text(lang, "kvheads.decode_speedup_part", name=_kv_label(lang, h, k),
                 ratio=_judged(lang, family["copies", k, ""])) for k in gs]
    lines.append(("copies", text(lang, "kvheads.decode_copies", L=L2, family=len(family),
                                 parts=text(lang, "kvheads.sep").join(each))))
    for small in gs:
        if small == g:
            continue
        kib = {k: decode_row(data, k, L2, "cache")["cache_bytes"] / 2**10 for k in (g, small)}
        lines.append(("smaller", text(
            lang, "kvheads.decode_smaller", small=_kv_label(lang, h, small), big=_kv_label(lang, h, g),
            L=L2, kib_small=f"{kib[small]:,.0f}", kib_big=f"{kib[g]:,.0f}", share=kib[small] / kib[g],
            **{method: _judged(lang, family["g", small, method]) for method in METHODS})))
    return "\n".join(f"- {benchreport.cjk_spacing(line)}" for part, line in lines if part in parts)


def decode_flops_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """At the longest measured length, per g: the cache a step reads, the FLOPs of one step with and without the
    cache (snippets.kvheads.cost's formula, checked against FlopCounterMode by the tests) and the rate the
    measured medians imply."""
    data = _decode_data(result)
    p = data["params"]
    h, E, L = p["num_heads"], p["d_model"], p["lengths"][-1]
    rows = []
    for g in p["kv_heads"]:
        kind = "mha" if g == h else "mqa" if g == 1 else "gqa"
        step = cost.formula_flops(kind, E, h, L, num_kv_heads=g)  # one query against L keys
        full = L * step  # all L positions again: L times the work (tested)
        read = cost.cache_read_bytes(kind, E, h, L, num_kv_heads=g, bytes_per=4)
        t = {m: decode_row(data, g, L, m)["time"].median for m in METHODS}
        rows.append([_kv_label(lang, h, g), f"{read / 2**10:,.0f}", f"{step / 1e6:.2f}",
                     f"{step / t['cache'] / 1e9:.2f}", f"{step / t['cache_grouped'] / 1e9:.2f}",
                     f"{full / 1e6:,.0f}", f"{full / t['no_cache'] / 1e9:.2f}"])
    return rows


def decode_flops_header(lang: str) -> list[str]:
    return text(lang, "kvheads.decode_flops_head")


# MLA in the same rounds: the naive and the absorbed form with the latent cache, FLOPs counted on the timed steps.

def mla_row(data: dict, d_c: int, L: int, method: str) -> dict:
    """The row of the decoding result for MLA with latent width d_c, one length and form, with its interval added."""
    row = _find_row(data, "d_c", d_c, L, method)
    if row is not None:
        return row
    p = data["params"]
    raise ValueError(f"no MLA decoding measurement for d_c={d_c!r}, L={L!r}, method={method!r}; measured d_c in "
                     f"{p.get('latents', [])}, L in {p['lengths']}, forms {list(MLA_METHODS)}")


def _mla_label(lang: str, d_c: int) -> str:
    return text(lang, "kvheads.dec_kind.MLA", d_latent=d_c)


def _mla_data(result: dict | None) -> dict:
    data = _decode_data(result)
    if not data["params"].get("latents"):
        raise ValueError("expected a decoding result with MLA rows (params 'latents'); measure again with "
                         "`python -m sitebuild.results decode`")
    return data


def _same_bytes(p: dict, d_c: int) -> int | None:
    """The g whose key/value cache holds as many numbers per token as a latent of d_c (2·g·d_k = d_c), if timed."""
    g, rest = divmod(d_c, 2 * p["d_k"])
    return g if not rest and g in p["kv_heads"] else None


def _absorbed_over_naive(data: dict, d_c: int, L: int) -> benchreport.Interval:
    return benchreport.paired_ratio(mla_row(data, d_c, L, "mla_absorbed")["samples"],
                                    mla_row(data, d_c, L, "mla_naive")["samples"])


def mla_header(lang: str) -> list[str]:
    return text(lang, "kvheads.mla_head")


def mla_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """One row per d_c and L: the latent cache's KiB, ms per next token in the naive and the absorbed form (median
    [IQR] over the rounds), and absorbed over naive, paired by round (geometric mean [95% t interval])."""
    data = _mla_data(result)
    p = data["params"]
    rows = []
    for d_c in p["latents"]:
        for L in p["lengths"]:
            got = [mla_row(data, d_c, L, m) for m in MLA_METHODS]
            cells = [benchreport.ms_spread(r["time"].median, r["time"].low, r["time"].high, grouped=True)
                     for r in got]
            rows.append([_mla_label(lang, d_c), L, f"{got[0]['cache_bytes'] / 2**10:,.0f}", *cells,
                         _ratio_text(lang, _absorbed_over_naive(data, d_c, L), 2)])
    return rows


def _mla_steps(data: dict, L: int) -> list[tuple[str, dict, dict]]:
    """(kind, label values, row) of every step the FLOPs table lists at L: MHA without copies, then per d_c the
    key/value heads with the same cache bytes (without copies), and MLA's absorbed and naive forms."""
    p = data["params"]
    h = p["num_heads"]
    steps = [("kv", {"g": h}, decode_row(data, h, L, "cache_grouped"))] if h in p["kv_heads"] else []
    for d_c in p["latents"]:
        g = _same_bytes(p, d_c)
        if g is not None and g != h:
            steps.append(("kv", {"g": g}, decode_row(data, g, L, "cache_grouped")))
        steps += [(m, {"c": d_c}, mla_row(data, d_c, L, m)) for m in ("mla_absorbed", "mla_naive")]
    return steps


def mla_flops_header(lang: str, result: dict | None = None) -> list[str]:
    L = _mla_data(result)["params"]["lengths"][-1]
    return [h.format(L=L) for h in text(lang, "kvheads.mla_flops_head")]


def mla_flops_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """At the longest length: per step (MHA and the same-bytes GQA/MQA without head copies, MLA in both forms) the
    cache it reads, its FLOPs (counted by FlopCounterMode on the timed function, stored with the times), the
    median ms per token and the rate they imply."""
    data = _mla_data(result)
    p = data["params"]
    rows = []
    for kind, values, r in _mla_steps(data, p["lengths"][-1]):
        name = (text(lang, "kvheads.mla_ref", name=_kv_label(lang, p["num_heads"], values["g"])) if kind == "kv"
                else text(lang, f"kvheads.flops_kind.{kind}", **values))
        t = r["time"].median
        rows.append([name, f"{r['cache_bytes'] / 2**10:,.0f}", f"{r['flops'] / 1e6:.2f}", _ms(t),
                     f"{r['flops'] / t / 1e9:.2f}"])
    return rows


def mla_family(data: dict) -> dict[tuple[str, int], benchreport.Ratio]:
    """The MLA ratios the sentences judge, at the longest length, one Holm-corrected family, per d_c:
    ("naive", d_c) absorbed over naive; ("same", d_c) absorbed over the key/value heads whose cache has the same
    bytes, without copies (when timed); ("mha", d_c) absorbed over MHA without copies."""
    p = data["params"]
    h, L = p["num_heads"], p["lengths"][-1]
    absorbed = lambda d_c: mla_row(data, d_c, L, "mla_absorbed")["samples"]  # noqa: E731
    grouped = lambda g: decode_row(data, g, L, "cache_grouped")["samples"]  # noqa: E731
    pairs = {}
    for d_c in p["latents"]:
        pairs["naive", d_c] = (absorbed(d_c), mla_row(data, d_c, L, "mla_naive")["samples"])
        g = _same_bytes(p, d_c)
        if g is not None and g != h:
            pairs["same", d_c] = (absorbed(d_c), grouped(g))
        if h in p["kv_heads"]:
            pairs["mha", d_c] = (absorbed(d_c), grouped(h))
    return dict(zip(pairs, benchreport.ratio_family(list(pairs.values())), strict=True))


def mla_sentences(lang: str, result: dict | None = None, parts: tuple[str, ...] = MLA_PARTS) -> str:
    """What the MLA timings say, numbers included, as a Markdown list: how busy the machine was ("load"); per d_c,
    the FLOPs of the naive and the absorbed step and their time ratio ("naive"); then the absorbed step against the
    key/value heads with the same cache bytes and against MHA (FLOPs ratio, time ratio; "against"), all time ratios
    one Holm-corrected family. `parts` picks which of these the list holds, in this order."""
    parts = _parts(parts, MLA_PARTS)
    result = load_decode() if result is None else result
    data = _mla_data(result)
    p = data["params"]
    h, d_k, L = p["num_heads"], p["d_k"], p["lengths"][-1]
    family = mla_family(data)
    lines = [("load", text(lang, "kvheads.mla_load", rounds=p["rounds"], family=len(family),
                           load=benchreport.load_sentence(lang, result["provenance"])))]
    for d_c in p["latents"]:
        naive, absorbed = (mla_row(data, d_c, L, m) for m in ("mla_naive", "mla_absorbed"))
        lines.append(("naive", text(lang, "kvheads.mla_naive_vs", name=_mla_label(lang, d_c), L=L, c=d_c,
                                    bytes=absorbed["cache_bytes"] // L, naive=naive["flops"] / 1e6,
                                    absorbed=absorbed["flops"] / 1e6, times=naive["flops"] / absorbed["flops"],
                                    share=2 * 2 * L * d_c * p["d_model"] / naive["flops"],  # W_uk, W_uv on L latents
                                    ratio=_judged(lang, family["naive", d_c]))))
        each = []
        for key, g in (("same", _same_bytes(p, d_c)), ("mha", h)):
            if (key, d_c) not in family:
                continue
            ref = decode_row(data, g, L, "cache_grouped")
            each.append(text(lang, f"kvheads.mla_vs_{key}", name=_kv_label(lang, h, g), mla=_mla_label(lang, d_c),
                             numbers=2 * g * d_k,
                             cache=ref["cache_bytes"] / absorbed["cache_bytes"],
                             flops=absorbed["flops"] / ref["flops"], ratio=_judged(lang, family[key, d_c])))
        if each:
            lines.append(("against", text(lang, "kvheads.mla_against", name=_mla_label(lang, d_c), L=L,
                                          parts=text(lang, "kvheads.sep").join(each))))
    return "\n".join(f"- {benchreport.cjk_spacing(line)}" for part, line in lines if part in parts)


def _speedup_text(lang: str, r: benchreport.Interval) -> str:
    """How many times faster, with its interval: 0 decimals from 100 up, else 1, thousands grouped."""
    digits = 0 if r.median >= 100 else 1
    return text(lang, "kvheads.speedup_times", ratio=f"{r.median:,.{digits}f}", low=f"{r.low:,.{digits}f}",
                high=f"{r.high:,.{digits}f}")


def _ratio_text(lang: str, r: benchreport.Interval, digits: int | None = None) -> str:
    """median [low–high]; digits after the point: given, or 0 from 100 up, else 1."""
    digits = (0 if r.median >= 100 else 1) if digits is None else digits
    return benchreport.ratio_text(lang, r, digits)


def decode_figure(lang: str, result: dict | None = None) -> str:
    """Log-log: ms per next token against L, with and without the cache, one line per g, IQR shaded."""
    data = _decode_data(result)
    p = data["params"]
    Ls = p["lengths"]

    def draw():
        fig = Figure(figsize=(6.4, 5.0), layout="constrained")
        ax = fig.subplots()
        for i, method in enumerate(METHODS):
            for j, g in enumerate(p["kv_heads"]):
                t = [decode_row(data, g, L, method)["time"].scaled(1e3) for L in Ls]
                line, = ax.plot(Ls, [x.median for x in t], marker="os^"[j], linestyle=("-", "--", ":")[j],
                                color=f"C{i}", label=text(lang, f"kvheads.decode_{method}_label",
                                                          name=_kv_label(lang, p["num_heads"], g)))
                ax.fill_between(Ls, [x.low for x in t], [x.high for x in t], color=line.get_color(), alpha=0.2,
                                linewidth=0)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(Ls, [str(L) for L in Ls])
        low, high = ax.get_ylim()
        decades = [10.0**k for k in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)]
        ax.set_yticks(decades, [f"{d:g}" for d in decades])
        ax.set_ylim(decades[0], high)  # the decade below the fastest step is labelled too
        ax.minorticks_off()
        ax.set_xlabel(text(lang, "kvheads.decode_x"))
        ax.set_ylabel(text(lang, "kvheads.decode_y"))
        ax.grid(True, which="major", alpha=0.3)
        fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=len(METHODS), fontsize=9,
                   frameon=False)
        return fig

    return svg_figure(draw, alt=text(lang, "kvheads.decode_alt"),
                      caption=text(lang, "kvheads.decode_caption", rounds=p["rounds"]))


# The decoder with a real KV cache (snippets.kvheads.decoder): cached generation against uncached, positions.
DECODER_KINDS = {"MHA": {"num_kv_heads": 4}, "GQA": {"num_kv_heads": 2}, "MQA": {"num_kv_heads": 1},
                 "MLA": {"d_latent": 16}}


def _tiny(kw: dict, seed: int = 0, max_len: int = 48) -> TinyDecoder:
    torch.manual_seed(seed)
    return TinyDecoder(vocab=64, d_model=32, num_heads=4, max_len=max_len, **kw).double().eval()


@torch.no_grad()
def row_difference(model: TinyDecoder, tokens: Tensor, t: int) -> float:
    """Prefill the first t tokens into a cache, decode token t alone: its logits against row t of one
    full forward over all of tokens (largest absolute difference)."""
    caches = model.new_caches(tokens.shape[0])
    model(tokens[:, :t], caches)  # prefill: positions 0 … t - 1
    step = model(tokens[:, t:t + 1], caches)  # position t, under the cache
    return float((step[:, 0] - model(tokens)[:, t]).abs().max())


def decoder_rows(lang: str, prompt_len: int = 6, steps: int = 30, seed: int = 0) -> list[list[str]]:
    """Per attention kind, a two-layer TinyDecoder in float64: greedy tokens with the preallocated cache and
    with the torch.cat cache against generation without a cache (how many of the generated tokens agree), and
    the largest difference of position t decoded under a cache from row t of the full forward."""
    check_lang(lang)
    return [[text(lang, f"kvheads.dec_kind.{name}", **kw),
             *(text(lang, "kvheads.dec_same", k=k, n=n) for k, n in same), f"{err:.1e}",
             text(lang, "kvheads.ok") if err <= DECODER_TOLERANCE else text(lang, "kvheads.bad")]
            for name, kw, same, err in _decoder_checks(prompt_len, steps, seed)]


DECODER_TOLERANCE = 1e-6  # float64: a cached position against the full forward


def _decoder_checks(prompt_len: int, steps: int, seed: int) -> list[tuple[str, dict, list[tuple[int, int]], float]]:
    """Per attention kind: (kind, its arguments, [(tokens the same, tokens generated)] with the preallocated and
    the torch.cat cache, largest difference of a position decoded under a cache from the full forward)."""
    out = []
    for name, kw in DECODER_KINDS.items():
        model = _tiny(kw, seed)
        prompt = torch.randint(64, (2, prompt_len), generator=torch.Generator().manual_seed(seed))
        plain = generate_tokens(model, prompt, steps, cache=None)
        same = []
        for how in ("preallocated", "cat"):
            got = generate_tokens(model, prompt, steps, cache=how)
            new = got[:, prompt_len:] == plain[:, prompt_len:]
            same.append((int(new.sum()), new.numel()))
        t = prompt_len + steps // 2
        err = max(row_difference(model, plain, u) for u in (1, t, plain.shape[1] - 1))
        out.append((name, kw, same, err))
    return out


def decoder_sentence(lang: str, prompt_len: int = 6, steps: int = 30, seed: int = 0) -> str:
    """decoder_rows in one sentence: whether every decoder generated the same tokens with both caches as without
    one, and the largest difference of a position decoded under a cache from the full forward."""
    check_lang(lang)
    checks = _decoder_checks(prompt_len, steps, seed)
    err = max(c[3] for c in checks)
    verdict = text(lang, "kvheads.dec_within" if err <= DECODER_TOLERANCE else "kvheads.dec_beyond",
                   tol=f"{DECODER_TOLERANCE:.0e}".replace("e-0", "e-"))
    names = text(lang, "kvheads.sep").join(text(lang, f"kvheads.dec_kind.{name}", **kw) for name, kw, _, _ in checks)
    differ = [(name, kw, same) for name, kw, same, _ in checks if any(k != n for k, n in same)]
    if not differ:
        return text(lang, "kvheads.dec_all_same", names=names, n=checks[0][2][0][1], err=f"{err:.1e}", verdict=verdict)
    parts = text(lang, "kvheads.sep").join(
        text(lang, "kvheads.dec_differ_part", name=text(lang, f"kvheads.dec_kind.{name}", **kw),
             pre=text(lang, "kvheads.dec_same", k=same[0][0], n=same[0][1]),
             cat=text(lang, "kvheads.dec_same", k=same[1][0], n=same[1][1]))
        for name, kw, same in differ)
    return text(lang, "kvheads.dec_some_differ", parts=parts, err=f"{err:.1e}", verdict=verdict)


@torch.no_grad()
def decoder_step_flops(model: TinyDecoder, tokens: Tensor) -> tuple[int, int]:
    """FLOPs of the next token after tokens (N, t): with a cache holding the t - 1 earlier positions (one
    position through every layer), and without one (all t positions through every layer again)."""
    caches = model.new_caches(tokens.shape[0])
    model(tokens[:, :-1], caches)  # the past, cached: not counted
    with FlopCounterMode(display=False) as cached:
        model(tokens[:, -1:], caches)
    with FlopCounterMode(display=False) as full:
        model(tokens)
    return cached.get_total_flops(), full.get_total_flops()


def step_flops_lines(lang: str, lengths: Sequence[int] = (8, 16, 32, 48), seed: int = 0) -> str:
    """decoder_step_flops of the MHA TinyDecoder at several lengths, one line each."""
    model = _tiny(DECODER_KINDS["MHA"], seed)
    tokens = torch.randint(64, (1, max(lengths)), generator=torch.Generator().manual_seed(seed))
    lines = []
    for t in lengths:
        with_cache, without = decoder_step_flops(model, tokens[:, :t])
        lines.append(text(lang, "kvheads.step_flops", t=t, cached=with_cache, full=without,
                          ratio=without / with_cache))
    return "\n".join(lines)


def flops_header(lang: str) -> list[str]:
    return text(lang, "kvheads.flops_head")


def flops_check_rows(lang: str, S: int = 9) -> list[list[str]]:
    """At a small shape (d_model = 32, 4 heads, GQA g = 2, d_c = 12): FLOPs counted on the modules by
    FlopCounterMode against the formula, per kind."""
    rows = []
    for kind in cost.KINDS:
        kw = {"num_kv_heads": 2 if kind == "gqa" else None, "d_latent": 12 if kind.startswith("mla") else None}
        counted = cost.counted_flops(kind, 32, 4, S, **kw)
        formula = cost.formula_flops(kind, 32, 4, S, **kw)
        rows.append([text(lang, f"kvheads.flops_kind.{kind}", g=2, c=12), f"{counted:,}", f"{formula:,}",
                     text(lang, "kvheads.ok") if counted == formula else text(lang, "kvheads.bad")])
    return rows


@resultcache.memory.cache
def _false_positive_rates(seeds: int, trials: int, code: str) -> dict[str, list[float]]:
    """stats.false_positive_rate per method and null shape, simulated once and kept on disk by the arguments
    and the statistics code (code: its fingerprint)."""
    return {method: [stats.false_positive_rate(method, seeds, shape, trials=trials) for shape in stats.NULL_SHAPES]
            for method in ("percentile-bootstrap", "t")}


def false_positive_sentence(lang: str, seeds: int = 10, trials: int = 4000) -> str:
    """How often a 95% interval excludes 0 when there is no difference, at this many seeds, for the old method
    (percentile bootstrap) and the new one (t), measured by simulation (snippets.stats.false_positive_rate)."""
    parts = {}
    simulated = _false_positive_rates(seeds, trials, resultcache.fingerprint(["snippets.stats"]))
    for method in ("percentile-bootstrap", "t"):
        rates = simulated[method]
        parts[method] = text(lang, "kvheads.list_sep").join(
            text(lang, "kvheads.fp_part", shape=text(lang, f"kvheads.shape.{shape}"), rate=r)
            for shape, r in zip(stats.NULL_SHAPES, rates, strict=True))
    return text(lang, "kvheads.false_positive", seeds=seeds, trials=trials, boot=parts["percentile-bootstrap"],
                t=parts["t"])


def summary_sentence(lang: str, result: dict | None = None, threshold: float = LEARNED) -> str:
    """The recall sweep in one sentence, for pages that point to it (FAQ Q20): the grid, how many of its
    Holm-corrected comparisons are a difference, and at the hardest level how many seeds of MHA and of MQA learned
    the task (Fisher's exact test). Printed from the committed results, so it cannot go stale."""
    result = load_recall() if result is None else result
    sweep, acc = _grid(result)
    family = recall_family(result)
    h, hardest, g = sweep["num_heads"], max(sweep["pairs"]), min(sweep["kv_heads"])
    found = sum(c.verdict in ("higher", "lower") for c in family.values())
    split = stats.learned_split(acc[hardest, h], acc[hardest, g], threshold)
    return text(lang, "kvheads.summary", pairs=and_list(lang, sweep["pairs"]), seeds=len(sweep["seeds"]),
                family=len(family), found=found, hardest=hardest, mha=_kv_label(lang, h, h), k_a=split.learned_a,
                small=_kv_label(lang, h, g), k_b=split.learned_b, p=split.p_share)



def step_fns(L: int, d_model: int, num_heads: int, kv_heads: int, d_latent: int, seed: int = 0) -> dict:
    """The timed steps on one seeded input x (1, L, E): next_token_fns of a GroupedQueryAttention with kv_heads
    key/value heads, then latent_fns of a LatentAttention with a d_latent latent (layers built here, by the
    lesson package's classes, which a notebook's edits replace)."""
    from .decode_bench import latent_fns, next_token_fns

    torch.manual_seed(seed)
    x = torch.randn(1, L, d_model)  # (N, L, E): L - 1 positions cached, then 1 new
    fns = next_token_fns(GroupedQueryAttention(d_model, num_heads, kv_heads), x)
    return fns | latent_fns(LatentAttention(d_model, num_heads, d_latent), x)


# The page's small runs: the timed steps once, and a short training (numbers a reader can change and run again).
def quick_steps(fns: dict, flops: dict[str, int], lang: str) -> str:
    """A table of the steps next_token_fns and latent_fns make: each method's FLOPs per step (counted by
    step_flops, given) and whether its output is its reference's: the output without a cache for the
    grouped-query methods, the naive form's for MLA."""
    check_lang(lang)
    known = set(METHODS) | set(MLA_METHODS)
    if not fns or set(fns) - known or set(flops) != set(fns):
        raise ValueError(f"expected steps among {sorted(known)} with the FLOPs of each, got {sorted(fns)} and "
                         f"{sorted(flops)}")
    out = {name: fn() for name, fn in fns.items()}
    rows = []
    for name in fns:
        ref = "no_cache" if name in METHODS else "mla_naive"
        if ref not in out:
            raise ValueError(f"expected the reference step {ref!r} next to {name!r}, got {sorted(fns)}")
        if name == ref:  # the reference itself
            rows.append([f"`{name}`", "—", "—", f"{flops[name]:,}"])
            continue
        same = torch.allclose(out[name], out[ref], rtol=0, atol=1e-5)
        rows.append([f"`{name}`", f"`{ref}`", text(lang, "kvheads.quick_same" if same else "kvheads.quick_differs"),
                     f"{flops[name]:,}"])
    return md_table(text(lang, "kvheads.quick_steps_head"), rows, align="lllr")


def quick_recall(accuracy: float, steps: int, pairs: int, kv_heads: int, batch: int, lang: str) -> str:
    """One sentence on a short training run: its held-out accuracy beside chance (one value in VALUES) and the
    steps the committed models train for."""
    from .recall import VALUES
    from .train import SWEEP

    if not 0 <= accuracy <= 1:
        raise ValueError(f"accuracy must be a share in [0, 1], got {accuracy!r}")
    return text(lang, "kvheads.quick_recall", g=kv_heads, pairs=pairs, steps=steps, batch=batch, acc=accuracy,
                chance=1 / VALUES, full=SWEEP["steps"])


def quick_control(L: int, same: bool, control_bytes: int, mha_bytes: int, control_flops: int, mha_flops: int,
                  lang: str) -> str:
    """The small run of the shared-query control: its cached step against its full forward, its cache and FLOPs
    beside MHA's."""
    return text(lang, "kvheads.quick_control", L=L, same=text(lang, "kvheads.quick_control_same" if same
                                                                else "kvheads.quick_control_differs"),
                control_bytes=f"{control_bytes:,}", mha_bytes=f"{mha_bytes:,}", control_flops=f"{control_flops:,}",
                mha_flops=f"{mha_flops:,}")
