"""The numbers of the two-minute versions that open the long pages, taken from the report functions each
page already prints further down, so the summary and the detail cannot disagree.

Each ``*_stats`` function returns a dict of numbers (and verdict words in the page's language); each
``*_bullets`` function fills the page's templates (snippets/words/twominute.py) with them, and a page's box
prints ``bullets(lang, page)``.
"""

from __future__ import annotations

import inspect

import numpy as np

from . import benchreport
from .i18n import and_list, check_lang, fill, text

__all__ = ["PAGES", "bullets", "whatif_stats", "second_round_stats", "kv_heads_stats", "kv_accuracy_stats",
           "induction_stats", "performance_stats", "whatif_bullets", "second_round_bullets", "kv_heads_bullets",
           "kv_accuracy_bullets", "induction_bullets", "performance_bullets"]


def kv_heads_stats(lang: str) -> dict:
    """Key/value heads: the cache at real scale (the cache table's rows), what the cache, GQA and MQA save when
    decoding, with and without head copies (the decoding family), and what absorbed MLA reads and computes in
    one step (the FLOPs table)."""
    from .kvheads import cost as C
    from .kvheads import report as R

    check_lang(lang)
    sizes = {k: v.default for k, v in inspect.signature(R.cache_rows).parameters.items() if k != "lang"}
    rows = {row[0]: row for row in R.cache_rows(lang)}
    heads = sizes["num_heads"]
    g_gqa = max(g for g in sizes["kv_heads"] if 1 < g < heads)  # the largest grouping, as in 7B-class models
    mha, mqa = R._kv_label(lang, heads, heads), R._kv_label(lang, heads, min(sizes["kv_heads"]))
    gqa = R._kv_label(lang, heads, g_gqa)
    out = {"gib_mha": float(rows[mha][4]), "gib_gqa": float(rows[gqa][4]), "gib_mqa": float(rows[mqa][4]),
           "g_gqa_real": g_gqa, "context": sizes["context"], "layers": sizes["num_layers"],
           "d_model": sizes["d_model"], "heads": heads}

    data = R._decode_data(None)
    p = data["params"]
    h, L = p["num_heads"], p["lengths"][-1]
    small = min(p["kv_heads"])
    mid = max(g for g in p["kv_heads"] if small < g < h)  # GQA in the timed layer
    family = R.decode_family(data)
    verdict = lambda r: text(lang, f"bench.verdict_{r.verdict}",  # noqa: E731
                             minimum=f"{benchreport.MINIMUM - 1:.0%}")
    kib = {g: R.decode_row(data, g, L, "cache")["cache_bytes"] for g in (h, mid)}
    ratio, gqa_ratio = family["g", small, "cache_grouped"], family["g", mid, "cache_grouped"]
    out |= {"L": L, "h": h, "g_small": small, "g_mid": mid, "speedup": R._speedup(data, h, L).median,
            "mqa_time": ratio.ratio.median, "mqa_time_verdict": verdict(ratio),
            "gqa_share": kib[mid] / kib[h], "gqa_time": gqa_ratio.ratio.median, "gqa_time_verdict": verdict(gqa_ratio),
            # the same ratios when the layer first copies each key/value head to its query heads
            "gqa_copies": family["g", mid, "cache"].ratio.median, "mqa_copies": family["g", small, "cache"].ratio.median}

    cost = {k: v.default for k, v in inspect.signature(C.flops_rows).parameters.items() if k != "lang"}
    flops = dict(zip(C.KINDS, C.flops_rows(lang), strict=True))
    # the table's own strings: MiB of cache read per step and layer, and MFLOP relative to MHA
    out |= {"S": cost["S"], "d_c": cost["d_latent"], "read_mha": flops["mha"][2],
            "read_mla": flops["mla_absorbed"][2], "flops_mla": flops["mla_absorbed"][4]}
    return out


def kv_accuracy_stats(lang: str) -> dict:
    """Does sharing key/value heads cost accuracy: the first recall test's family (which g, which numbers of
    pairs, how many comparisons are a difference), the pre-registered MQAR test (seeds that learned per layout,
    MHA against MQA, how many GQA/MQA and MLA comparisons are a difference), and the follow-up with a
    normalised latent (the width where most normed seeds learned, and its verdict)."""
    from . import stats
    from .kvheads import mqar_report as M
    from .kvheads import report as R

    check_lang(lang)
    recall = R.recall_family()
    sweep, _ = R._grid(R.load_recall())
    out = {"recall_family": len(recall),
           "recall_found": sum(c.verdict in ("higher", "lower") for c in recall.values()),
           "recall_seeds": next(iter(recall.values())).n, "recall_h": sweep["num_heads"],
           "recall_gs": and_list(lang, sorted({g for _, g in recall}, reverse=True)),
           "recall_pairs": and_list(lang, sorted({n for n, _ in recall})),
           "alpha": 1 - stats.LEVEL}

    result = M.load_mqar()
    proto = result["data"]["protocol"]
    acc, mqar = M._acc(result), M.mqar_family(result)
    base = M._mha(result)
    learned = {s: int((np.array(a) >= proto["LEARNED"]).sum()) for s, a in acc.items()}
    mqa_setting = ("gqa", 1)
    c = mqar[mqa_setting]
    mla = sorted(s for s in mqar if s[0] == "mla")
    shared = [s for s in mqar if s[0] == "gqa"]  # GQA and MQA
    g_hi, g_lo = sorted((s[1] for s in shared if s != mqa_setting), reverse=True)[:2]
    out |= {"seeds": len(acc[base]), "acc_mha": float(np.mean(acc[base])), "acc_mqa": float(np.mean(acc[mqa_setting])),
            "diff_mqa": round(c.mean * 100, 1) + 0.0, "lo_mqa": round(c.lo * 100, 1) + 0.0,
            "hi_mqa": round(c.hi * 100, 1) + 0.0, "level_mqa": c.level, "mqar_family": len(mqar),
            "verdict_mqa": M._verdict_words(lang, c, proto["MINIMUM"]),
            # an interval that covers 0 but reaches a large cost: a limit of the seeds, not evidence of no cost
            "power_mqa": (text(lang, "twomin.kv_power", lo=abs(round(c.lo * 100)))
                          if c.verdict == "none" and c.lo * 100 <= -10 else ""),
            "learned_bar": proto["LEARNED"], "learned_mha": learned[base], "learned_mqa": learned[mqa_setting],
            "g_hi": g_hi, "g_lo": g_lo, "learned_g_hi": learned["gqa", g_hi], "learned_g_lo": learned["gqa", g_lo],
            "shared_n": len(shared), "shared_found": sum(mqar[s].verdict in ("higher", "lower") for s in shared),
            "mla_sizes": and_list(lang, [s[1] for s in mla]), "mla_learned": and_list(lang, [learned[s] for s in mla]),
            "mla_lower": sum(mqar[s].verdict == "lower" for s in mla), "mla_n": len(mla)}

    followup = M.load_followup()
    pairs = M._followup_pairs(result, followup)
    count = lambda a: int((np.array(a) >= proto["LEARNED"]).sum())  # noqa: E731
    size, plain, normed = max(pairs, key=lambda t: (count(t[2]), -t[0]))
    norm = M.followup_family(result, followup)[size]
    out |= {"norm_size": size, "norm_learned": count(normed), "norm_plain": count(plain),
            "norm_verdict": M._verdict_words(lang, norm, proto["MINIMUM"], "mqarf.v_")}
    return out


def induction_stats(lang: str) -> dict:
    """Induction heads: the one-layer baseline against guessing, the two-layer model of one head per layer
    (loss, seeds that formed the circuit, step of the phase change), what cutting the previous-token head
    from the next layer's keys, or from its queries, costs (the cause family), and the follow-up on two layers
    of four heads: in how many seeds layer 1 reads layer 0 mainly through its queries, or its keys."""
    import math

    from .induction import circuits_report as C
    from .induction import report as R

    check_lang(lang)
    result = R._result(None)
    loss, proto, models = R._loss(result), R._protocol(result), R._models(result)
    depth = R.depth_family(result)
    small, base = R.MINIMAL, R.BASELINE
    c = depth[small]
    steps = [st for m in models[small] if (st := R._phase_step(m, proto["PHASE"])) is not None]
    causes = R.cause_family(result, small)

    def verdict(comparison) -> str:
        return text(lang, f"ind.v_{comparison.verdict}", seeds=comparison.n, minimum=proto["MINIMUM"])

    # two layers against one, said as "lower by" when the family judges it lower, else signed with its verdict
    gap_key = "twomin.induction.gap_lower" if c.verdict == "lower" else "twomin.induction.gap_other"
    gap = text(lang, gap_key, drop=-c.mean, drop_lo=-c.hi, drop_hi=-c.lo, diff=c.mean, lo=c.lo, hi=c.hi,
               verdict=verdict(c))
    # the follow-up on 2 layers x 4 heads (snippets.induction.circuits_report): each seed's costliest path
    circ = C.load_circuits()
    paths = C.main_paths(circ)
    return {"chance": math.log(R.VOCAB), "vocab": R.VOCAB, "seeds": len(loss[small]),
            "base": R._label(lang, *base), "base_loss": float(np.mean(loss[base])),
            "small": R._label(lang, *small), "small_loss": float(np.mean(loss[small])),
            "diff": c.mean, "lo": c.lo, "hi": c.hi, "verdict": verdict(c), "gap": gap,
            "formed": sum(v < proto["FORMED"] for v in loss[small]), "formed_below": proto["FORMED"],
            "phase_median": int(np.median(steps)) if steps else None, "phase_formed": len(steps),
            "cut_k": causes["cut_k"].mean, "cut_k_lo": causes["cut_k"].lo, "cut_k_hi": causes["cut_k"].hi,
            "cut_k_verdict": verdict(causes["cut_k"]),
            "cut_q": causes["cut_q"].mean, "cut_q_lo": causes["cut_q"].lo, "cut_q_hi": causes["cut_q"].hi,
            "cut_q_verdict": verdict(causes["cut_q"]),
            "four": R._label(lang, *circ["data"]["protocol"]["SETTING"]), "circ_seeds": len(circ["data"]["models"]),
            "circ_q": paths["q"], "circ_k": paths["k"], "circ_textbook": len(C.textbook_seeds(circ))}


def performance_stats(lang: str) -> dict:
    """Performance: nn.MultiheadAttention's inference fast path against the same layer calling SDPA (its memory
    exponent and its time ratio at the longest length, as the memory sentence and the comparison table print
    them), the three goals as the goals table judges them (benchreport.goals), and the peak memory of the
    from-scratch and the fused version at the longest length."""
    from . import benchreport as B

    check_lang(lang)
    data = B.bench_sweep()["data"]
    found = {g["goal"]: g for g in B.goals(data)}
    names = B._names(lang)
    L = data["params"]["lengths"][-1]
    speed, time, memory = found["speedup"], found["time"], found["memory"]
    fastpath = B.comparisons(data)["mha_fastpath", "mha_no_weights", L]
    return {"scratch": names["scratch"], "fast": names["fast"], "official": names["best_official"],
            "speedup": speed["ratio"].median, "speedup_at": speed["at"], "speedup_goal": B.SPEEDUP_GOAL,
            "speedup_verdict": text(lang, f"bench.{speed['verdict']}"),
            "time": time["ratio"].median, "time_at": time["at"], "time_goal": B.TIME_GOAL,
            "time_goal_pct": B.TIME_GOAL - 1, "time_pct": abs(time["ratio"].median - 1),
            "time_dir": text(lang, "twomin.performance." + ("slower" if time["ratio"].median >= 1 else "faster")),
            "time_verdict": text(lang, f"bench.{time['verdict']}"),
            "slope_fast": memory["ratio"], "slope_scratch": memory["naive"],
            "memory_verdict": text(lang, f"bench.{memory['verdict']}"), "L": L,
            "mib_scratch": B.measurement(data, "scratch", L)["peak_bytes"] / 2**20,
            "mib_fast": B.measurement(data, "fast", L)["peak_bytes"] / 2**20,
            "fastpath_slope": B.memory_slope(data, "mha_fastpath"), "fastpath_time": fastpath.ratio.median,
            "fastpath_verdict": fastpath.verdict}


def whatif_stats(lang: str) -> dict:
    """§4 (what if): the task's offsets, the first round's head sweep (one head, the plateau, 32 heads of d_k = 1, how
    much of its attention any of those heads puts on one offset), the source's
    regime of many narrow heads (with the page's verdict words), the roles of the 4-head models and the ablation
    of seed 0's, and how many heads the pruning keeps within tolerance (on the first round's seeds and on
    the replication's, snippets.whatif.fresh)."""
    from .whatif.analysis import HEADS, sweep
    from .whatif.fresh import fresh_stats, load_replication
    from .whatif.model import D_MODEL
    from .whatif.report import (ablation_stats, fmt_offset, pruning_interval_stats, role_split_stats, share_stats,
                                sweep_stats)
    from .whatif.round2 import load_sweeps, round2_regime_stats
    from .whatif.task import OFFSETS
    from .whatif.train import train_run

    check_lang(lang)
    first = sweep_stats(sweep())
    words = {w: text(lang, f"twomin.whatif.{w}") for w in ("lower", "higher", "none", "negligible")}
    roles = role_split_stats(sweep(heads=[4]))
    pruned = pruning_interval_stats(sweep(heads=[8, 16]))
    again = fresh_stats(load_sweeps(), load_replication())  # the first round's models on five more seeds
    keep = ("acc_1", "acc_2", "acc_32", "plateau", "plateau_end", "best", "widest", "chance", "train_loss_32",
            "loss_32")
    return {**{k: first[k] for k in keep}, **round2_regime_stats(load_sweeps(), words=words),
            "lookups": len(OFFSETS), "offsets": text(lang, "twomin.whatif.join").join(map(fmt_offset, OFFSETS)),
            "plateau_counts": and_list(lang, [h for h in HEADS if first["plateau"] <= h <= first["plateau_end"]]),
            "d_model_first": D_MODEL, "top_32": share_stats(sweep(heads=[32]))["top_32"],
            "prune_seeds": pruned["n_seeds"], "prune_level": pruned["level_pct"],
            "roles_covered": roles["covered"], "roles_seeds": roles["n_seeds"], "roles_distinct": roles["distinct"],
            "own_drop_pts": ablation_stats(train_run(num_heads=4, seed=0))["own_drop_pts"],
            **{k: pruned[k] for k in ("tolerance_points", "removable_8", "removable_pct_8", "removable_16",
                                      "removable_pct_16")},
            "fresh_removable_8": again["removable_8"], "fresh_removable_16": again["removable_16"],
            "fresh_first": again["n_first"]}


def second_round_stats(lang: str) -> dict:
    """§4's second round (4b): one head against chance, the heads each number of lookups needs, heads of width 1
    and 2 with the layer's width held, and the residual stacks with and without a feed-forward layer."""
    from .whatif import protocol
    from .whatif.round2 import evidence_stats, load_sweeps, one_head_stats, threshold_stats, width_stats
    from .whatif.task import OFFSETS

    check_lang(lang)
    d = load_sweeps()
    stack = protocol.SWEEPS["phase"][0]  # the residual stacks' width and head width
    width = width_stats(d)
    return {**evidence_stats(d), **one_head_stats(d), **threshold_stats(d, words={"join": text(lang, "twomin.whatif.join")}),
            "lookups": len(OFFSETS), "stack_d_model": stack["d_model"], "stack_d_k": stack["d_k"],
            "width_d_model": protocol.SWEEPS["width"][0]["d_model"], "width_seeds": width["n_seeds"],
            "width_learned_1": width["learned_1"], "width_learned_2": width["learned_2"]}


def _bullets(lang: str, page: str, stats: dict) -> str:
    """The page's two-minute templates filled with stats, one Markdown bullet a line."""
    return "\n".join("- " + fill(template, **stats) for template in text(lang, f"twomin.{page}"))


def whatif_bullets(lang: str) -> str:
    """The two-minute version of §4 (what if), as Markdown bullets."""
    return _bullets(lang, "whatif", whatif_stats(lang))


def second_round_bullets(lang: str) -> str:
    """The two-minute version of §4's second round (4b), as Markdown bullets."""
    return _bullets(lang, "secondround", second_round_stats(lang))


def induction_bullets(lang: str) -> str:
    """The two-minute version of the induction-heads page, as Markdown bullets."""
    return _bullets(lang, "induction", induction_stats(lang))


def kv_heads_bullets(lang: str) -> str:
    """The two-minute version of the key/value-heads page, as Markdown bullets."""
    return _bullets(lang, "kvheads", kv_heads_stats(lang))


def kv_accuracy_bullets(lang: str) -> str:
    """The two-minute version of the page on what sharing key/value heads costs in accuracy."""
    return _bullets(lang, "kvaccuracy", kv_accuracy_stats(lang))


def performance_bullets(lang: str) -> str:
    """The two-minute version of the performance page, as Markdown bullets."""
    return _bullets(lang, "performance", performance_stats(lang))


PAGES = {"whatif": whatif_bullets, "secondround": second_round_bullets, "induction": induction_bullets,
         "kvheads": kv_heads_bullets, "kvaccuracy": kv_accuracy_bullets,
         "performance": performance_bullets}
"""The pages with a two-minute version, by the name a page passes to bullets."""


def bullets(lang: str, page: str) -> str:
    """The two-minute version of one page (a key of PAGES) in lang, as Markdown bullets."""
    check_lang(lang)
    if page not in PAGES:
        raise ValueError(f"page must be one of {sorted(PAGES)}, got {page!r}")
    return PAGES[page](lang)
