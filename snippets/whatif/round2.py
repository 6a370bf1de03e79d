"""Tables, sentences and figures for §4's second round, from the committed results/whatif-sweeps.json.

Nothing here trains: the runs were trained once by ``python -m sitebuild.results whatif`` under the protocol of
snippets/whatif/protocol.py, committed before them. Every comparison goes through snippets.stats (paired by
seed, Student's t interval, Holm over each family), and every verdict word comes from stats.verdict.

Functions that feed the page's prose take templates and labels in the page's language.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import resultcache

from .. import stats
from ..figures import Figure, svg_figure
from .protocol import LEARNED, MINIMUM, SWEEPS
from .report import fmt_offset

__all__ = ["RESULT_NAME", "load_sweeps", "groups", "config_of", "heads_rows", "fewest_learned", "heads_family",
           "family_sentences", "lookups_stats", "width_stats", "one_head_stats", "phase_grid", "phase_rows",
           "phase_stats", "round2_regime_stats", "protocol_stats", "unconverged", "heads_figure", "phase_figure",
           "width_figure2", "verdict_word", "false_positive_stats", "round2_regime_rows",
           "family_rows", "evidence_stats", "heads_tables", "threshold_stats", "ffn_enough_stats",
           "sign_flip_stats", "history_stats"]

RESULT_NAME = "whatif-sweeps.json"


def load_sweeps(path: Path | None = None) -> dict:
    """The committed result's data: {"protocol": ..., "models": [...]} (and its provenance under "provenance")."""
    path = resultcache.results_dir() / RESULT_NAME if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"expected the committed §4 sweeps at {path}; run `python -m sitebuild.results whatif`")
    raw = json.loads(path.read_text(encoding="utf-8"))
    data = raw.get("data", raw)
    return {**data, "provenance": raw.get("provenance", {})}


def config_of(sweep: str, index: int) -> dict:
    if sweep not in SWEEPS or not 0 <= index < len(SWEEPS[sweep]):
        raise ValueError(f"expected a sweep of {sorted(SWEEPS)} and an index into it, got {sweep!r}, {index!r}")
    return SWEEPS[sweep][index]


def groups(data: dict, sweep: str) -> list[list[dict]]:
    """The sweep's runs, one list per configuration (in the protocol's order), seeds in order."""
    if sweep not in SWEEPS:
        raise ValueError(f"expected one of the sweeps {sorted(SWEEPS)}, got {sweep!r}")
    out: list[list[dict]] = [[] for _ in SWEEPS[sweep]]
    for m in data["models"]:
        if m["sweep"] == sweep:
            out[m["index"]].append(m)
    for g in out:
        g.sort(key=lambda m: m["seed"])
    if any(not g for g in out):
        raise ValueError(f"the results have no runs for some configurations of {sweep!r}")
    return out


def _acc(runs: Sequence[dict]) -> np.ndarray:
    return np.array([r["accuracy"] for r in runs])


def _pts(x: float, digits: int = 1) -> float:
    """Points rounded for printing, without a minus sign on zero.

    >>> f"{_pts(-0.003):+.1f}", f"{_pts(-1.26):+.1f}"
    ('+0.0', '-1.3')
    """
    return round(float(x), digits) + 0.0


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def _mean_ci(runs: Sequence[dict]) -> str:
    """Mean accuracy and its 95% t interval over seeds, in points: '97.4% [96.1, 98.7]'."""
    a = _acc(runs)
    if np.ptp(a) == 0:
        return _pct(a[0])
    mean, lo, hi = stats.t_interval(a)
    lo_s, hi_s = f"{100 * lo:.1f}", f"{100 * min(hi, 1.0):.1f}"
    return _pct(mean) if lo_s == hi_s else f"{_pct(mean)} [{lo_s}, {hi_s}]"


def unconverged(runs: Sequence[dict]) -> int:
    """Runs that reached the step limit still learning (no plateau by the protocol's rule)."""
    return sum(not r.get("converged", True) for r in runs)


def heads_rows(data: dict, sweep: str, learned_of: str = "{k}/{n}") -> list[list[object]]:
    """Per configuration of a one-layer sweep: h, d_k, d_model, parameters, mean accuracy [95% interval],
    lowest – highest, seeds that learned (>= LEARNED), runs without a plateau."""
    rows = []
    for runs in groups(data, sweep):
        c, a = config_of(sweep, runs[0]["index"]), _acc(runs)
        rows.append([c["num_heads"], runs[0]["d_k"], runs[0]["d_model"], f"{runs[0]['params']:,}", _mean_ci(runs),
                     f"{_pct(a.min())} – {_pct(a.max())}",
                     learned_of.format(k=int((a >= LEARNED).sum()), n=len(a)), unconverged(runs)])
    return rows


def heads_tables(data: dict, sweeps: Sequence[tuple[str, str]], header: Sequence[str]) -> str:
    """heads_rows of each (title, sweep) as a Markdown table under its title in bold."""
    from ..tables import md_table

    if not sweeps:
        raise ValueError("sweeps must name at least one (title, sweep)")
    return "\n\n".join(f"**{title}**\n\n{md_table(list(header), heads_rows(data, sweep))}" for title, sweep in sweeps)


def fewest_learned(data: dict, sweep: str) -> int | None:
    """The fewest heads with which every seed learned the task (>= LEARNED); None if no setting did."""
    for runs in groups(data, sweep):
        if (_acc(runs) >= LEARNED).all():
            return config_of(sweep, runs[0]["index"])["num_heads"]
    return None


def verdict_word(c: stats.Comparison, words: dict[str, str], **fmt) -> str:
    """The page's words for a stats verdict: words has keys higher, lower, none, negligible."""
    if set(words) != {"higher", "lower", "none", "negligible"}:
        raise ValueError(f"words must have keys higher, lower, none, negligible; got {sorted(words)}")
    return words[c.verdict].format(n=c.n, minimum=100 * MINIMUM, **fmt)


def heads_family(data: dict, sweep: str) -> list[tuple[int, int, stats.Comparison]]:
    """Each head count against the next one, paired by seed, as one Holm-corrected family."""
    gs = groups(data, sweep)
    pairs = [(_acc(a), _acc(b)) for a, b in zip(gs, gs[1:])]
    fam = stats.compare_family(pairs, minimum=MINIMUM, sign_flip=True)
    return [(config_of(sweep, a[0]["index"])["num_heads"], config_of(sweep, b[0]["index"])["num_heads"], c)
            for a, b, c in zip(gs[:-1], gs[1:], fam, strict=True)]


def family_sentences(family: Sequence[tuple[object, object, stats.Comparison]], template: str,
                     words: dict[str, str], sep: str = "\n\n") -> str:
    """One sentence per comparison of a family. template fields: a, b, mean_a, mean_b, diff, lo, hi (points),
    level (%), n, m (family size), verdict."""
    out = []
    for a, b, c in family:
        out.append(template.format(a=a, b=b, mean_a=100 * c.mean_a, mean_b=100 * c.mean_b, diff=100 * c.mean,
                                   lo=100 * c.lo, hi=100 * c.hi, level=100 * c.level, n=c.n, m=c.family,
                                   verdict=verdict_word(c, words, a=a, b=b)))
    return sep.join(out)


def family_rows(family: Sequence[tuple[object, object, stats.Comparison]], words: dict[str, str],
                label: str = "{b} vs {a}") -> list[list[str]]:
    """A Holm family as table rows: comparison, mean a, mean b, b - a [interval] in points, the interval's level
    (Holm's step), verdict."""
    return [[label.format(a=a, b=b), _pct(c.mean_a), _pct(c.mean_b),
             f"{_pts(100 * c.mean):+.1f} [{_pts(100 * c.lo):+.1f}, {_pts(100 * c.hi):+.1f}]", f"{100 * c.level:.1f}%",
             verdict_word(c, words, a=a, b=b)] for a, b, c in family]


def lookups_stats(data: dict) -> dict:
    """The fewest heads with which every seed learns, for 2, 4 and 6 lookups (fixed d_k = 8), and at fixed
    d_model = 120: fewest_2, fewest_4, fewest_6, fewest_120 (None if none did), and for each sweep the mean
    accuracy of the setting one head below (below_<k>) and its seeds that learned (below_learned_<k>); d_k, the
    head width of the three lookup sweeps (d_model grows with the heads)."""
    out: dict = {"n_seeds": len(data["protocol"]["seeds"]), "learned": LEARNED}
    widths = {c["d_model"] // c["num_heads"] for s in ("offsets_2", "fixed_dk", "offsets_6")
              for c in data["protocol"]["sweeps"][s]}
    if len(widths) != 1:
        raise ValueError(f"expected one head width across the lookup sweeps, got {sorted(widths)}")
    out["d_k"] = widths.pop()
    for key, sweep in (("2", "offsets_2"), ("4", "fixed_dk"), ("6", "offsets_6"), ("120", "fixed_dmodel")):
        h = fewest_learned(data, sweep)
        out[f"fewest_{key}"] = h
        gs = {config_of(sweep, g[0]["index"])["num_heads"]: g for g in groups(data, sweep)}
        below = max((k for k in gs if h is not None and k < h), default=None)
        if below is not None:
            a = _acc(gs[below])
            out[f"below_{key}"], out[f"below_h_{key}"] = float(a.mean()), below
            out[f"below_learned_{key}"] = int((a >= LEARNED).sum())
        if h is not None:
            out[f"acc_{key}"] = float(_acc(gs[h]).mean())
    return out


THRESHOLD_SWEEPS = (("2", "offsets_2"), ("4", "fixed_dk"), ("6", "offsets_6"), ("120", "fixed_dmodel"))


def threshold_stats(data: dict, words: dict[str, str] | None = None) -> dict:
    """Two readings of "the heads a layer needs", per sweep (keys 2, 4, 6 lookups with d_k = 8; 120: 4 lookups
    with d_model = 120), each with its uncertainty:

    - the 95% bar: all_<k>, the fewest heads with which every seed reached LEARNED; below_<k> its share one
      head fewer (below_k_<k> of n seeds, Clopper-Pearson interval below_lo_<k>, below_hi_<k>) and Fisher's
      exact p between the two settings' counts (p_<k>, and pf_<k> as printed; sure_<k> True when it is under 5%, i.e. the setting
      one head fewer learns measurably less often);
    - within 1 point of the best: near_<k>, the fewest heads whose mean accuracy is within MINIMUM of the
      sweep's best mean, and gap_<k>, how far (points) the setting one head fewer falls short of the best;
    - the family's paired comparison of all_<k> heads against one fewer: diff_<k>, lo_<k>, hi_<k> (points),
      verdict_<k>;
    - fewer_bar, fewer_near: the lookups (2, 4, 6) at which each reading needs fewer heads than lookups.
    words (keys sure, unsure; fields {a}, {b} the head counts, {n} the seeds): say_<k>, the page's words for
    whether one head fewer learns measurably less often; words["join"] joins the lookups of fewer_bar and
    fewer_near (default ", ").
    """
    out: dict = {"n_seeds": len(data["protocol"]["seeds"]), "learned_pct": 100 * LEARNED,
                 "minimum_pts": 100 * MINIMUM}
    for key, sweep in THRESHOLD_SWEEPS:
        gs = groups(data, sweep)
        hs = [config_of(sweep, g[0]["index"])["num_heads"] for g in gs]
        accs = [_acc(g) for g in gs]
        counts = [int((a >= LEARNED).sum()) for a in accs]
        n = len(accs[0])
        i = next((j for j, k in enumerate(counts) if k == n), None)
        if i is None or i == 0:
            raise ValueError(f"{sweep}: expected a head count above the first with every seed past the bar")
        k = counts[i - 1]
        lo, hi = stats.clopper_pearson(k, n)
        p = stats.fisher_exact(k, n, n, n)
        c = dict(((a, b), c) for a, b, c in heads_family(data, sweep))[(hs[i - 1], hs[i])]
        out.update({f"diff_{key}": _pts(100 * c.mean), f"lo_{key}": _pts(100 * c.lo), f"hi_{key}": _pts(100 * c.hi),
                    f"verdict_{key}": c.verdict})
        if words is not None and "sure" in words:
            out[f"say_{key}"] = words["sure" if p_ok(k, n) else "unsure"].format(a=hs[i - 1], b=hs[i], n=n)
        out[f"pf_{key}"] = "< 0.001" if p < 0.001 else f"= {p:.2g}"  # Fisher's p as printed: "p < 0.001", "p = 1"
        out.update({f"all_{key}": hs[i], f"below_h_{key}": hs[i - 1], f"below_k_{key}": k,
                    f"below_lo_{key}": 100 * lo, f"below_hi_{key}": 100 * hi, f"p_{key}": p,
                    f"sure_{key}": p < 1 - stats.LEVEL})
        means = [float(a.mean()) for a in accs]
        j = next(j for j, m in enumerate(means) if m >= max(means) - MINIMUM - 1e-12)
        out[f"near_{key}"] = hs[j]
        out[f"gap_{key}"] = 100 * (max(means) - means[j - 1]) if j > 0 else math.nan
        out[f"near_below_h_{key}"] = hs[j - 1] if j > 0 else None
    for reading in ("bar", "near"):
        pre = "all" if reading == "bar" else "near"
        out[f"fewer_{reading}"] = (words or {}).get("join", ", ").join(k for k, _ in THRESHOLD_SWEEPS[:3] if out[f"{pre}_{k}"] < int(k))
    return out


def p_ok(k: int, n: int) -> bool:
    """Whether k of n seeds past the bar is measurably fewer than n of n (Fisher's exact test, 5%)."""
    return stats.fisher_exact(k, n, n, n) < 1 - stats.LEVEL


def history_stats() -> dict:
    """The seeds the second round shares with the first (first_shared, last_shared, n_shared) and its own."""
    from .analysis import SEEDS as FIRST
    from .protocol import SEEDS

    shared = sorted(set(FIRST) & set(SEEDS))
    return {"first_shared": shared[0], "last_shared": shared[-1], "n_shared": len(shared), "n_seeds": len(SEEDS),
            "first_new": min(set(SEEDS) - set(FIRST)), "last_new": max(SEEDS)}


def ffn_enough_stats(data: dict, words: dict[str, str] | None = None) -> dict:
    """The feed-forward family restricted to the shapes where every seed learns with attention alone: how many
    (cells), how many the family calls a difference (called), and the largest mean change there (shape,
    diff, lo, hi in points, level, verdict: in the page's words when words (keys higher, lower, none,
    negligible) are given)."""
    no, yes = phase_grid(data, 0), phase_grid(data, 1)
    pairs = [(no[i, j], yes[i, j]) for i in range(no.shape[0]) for j in range(no.shape[1])]
    fam = stats.compare_family(pairs, minimum=MINIMUM, sign_flip=True)
    enough = [(i, j) for i in range(no.shape[0]) for j in range(no.shape[1]) if (no[i, j] >= LEARNED).all()]
    cs = {(i, j): fam[i * no.shape[1] + j] for i, j in enough}
    (i, j), c = max(cs.items(), key=lambda kv: abs(kv[1].mean))
    return {"cells": len(enough), "called": sum(x.verdict != "none" for x in cs.values()),
            "shape": f"{i + 1} × {j + 1}", "diff": _pts(100 * c.mean, 2), "lo": _pts(100 * c.lo, 2),
            "hi": _pts(100 * c.hi, 2), "level": 100 * c.level,
            "verdict": c.verdict if words is None else verdict_word(c, words),
            "minimum_pts": 100 * MINIMUM, "n_seeds": c.n, "family": c.family}


def sign_flip_stats(data: dict) -> dict:
    """How §4's verdicts fare with the exact sign-flip check: across the four head families, the
    feed-forward family and the two single comparisons (regime, depth), the differences the t test alone
    calls (t_called) and how many of them the sign-flip check keeps (kept)."""
    no, yes = phase_grid(data, 0), phase_grid(data, 1)
    fams = [[(_acc(a), _acc(b)) for a, b in zip(gs, gs[1:])] for gs in (groups(data, s) for _, s in THRESHOLD_SWEEPS)]
    fams.append([(no[i, j], yes[i, j]) for i in range(no.shape[0]) for j in range(no.shape[1])])
    few, many = groups(data, "regime")
    fams += [[(_acc(few), _acc(many))], [(no[0, 3], no[3, 0])]]
    t_called = kept = 0
    for pairs in fams:
        plain = stats.compare_family(pairs, minimum=MINIMUM)
        checked = stats.compare_family(pairs, minimum=MINIMUM, sign_flip=True)
        t_called += sum(c.verdict != "none" for c in plain)
        kept += sum(a.verdict != "none" and b.verdict == a.verdict for a, b in zip(plain, checked, strict=True))
    return {"t_called": t_called, "kept": kept, "families": len(fams)}


def width_stats(data: dict) -> dict:
    """Head width apart from d_model (h = 4, d_model = 32): mean accuracy and seeds learned per d_k."""
    out: dict = {}
    for runs in groups(data, "width"):
        d_k, a = runs[0]["d_k"], _acc(runs)
        out[f"acc_{d_k}"], out[f"learned_{d_k}"] = float(a.mean()), int((a >= LEARNED).sum())
        out[f"lo_{d_k}"], out[f"hi_{d_k}"] = float(a.min()), float(a.max())
    out["n_seeds"] = len(runs)
    return out


def one_head_stats(data: dict, sweep: str = "fixed_dk") -> dict:
    """Why one head is not hopeless, in the one-layer model (sweep's h = 1): per seed, the attention the head
    puts on each target offset, sorted; the accuracy on the offset it favours against the others; and in how
    many seeds the favoured offset (best accuracy) is the one with the largest attention weight."""
    runs = groups(data, sweep)[0]
    offs = (-2, -1, 1, 2)
    cols = [o + 3 for o in offs]  # offset_profile covers -3 ... +3
    weights = np.array([[r["offset_profile"][0][c] for c in cols] for r in runs])  # (seeds, 4)
    accs = np.array([r["acc_by_offset"] for r in runs])  # (seeds, 4)
    best = accs.argmax(1)
    sorted_w = np.sort(weights, 1)[:, ::-1].mean(0)
    others = (accs.sum(1) - accs.max(1)) / (accs.shape[1] - 1)
    return {"acc_1": float(_acc(runs).mean()), "best_offset_1": float(accs.max(1).mean()),
            "other_offsets_1": float(others.mean()), "chance": 1 / 16, "d_model_1": runs[0]["d_model"],
            "w1": float(sorted_w[0]), "w2": float(sorted_w[1]), "w3": float(sorted_w[2]), "w4": float(sorted_w[3]),
            "w_rest": float(1 - weights.sum(1).mean()),
            "match": int((best == weights.argmax(1)).sum()), "n_seeds": len(runs)}


def phase_grid(data: dict, ffn: int) -> np.ndarray:
    """(4 layers, 4 heads, seeds) held-out accuracy of the heads x layers sweep, with or without FFN."""
    out = {}
    for runs in groups(data, "phase"):
        c = config_of("phase", runs[0]["index"])
        if bool(c["ffn"]) == bool(ffn):
            out[(c["layers"], c["num_heads"])] = _acc(runs)
    layers = sorted({k[0] for k in out})
    heads = sorted({k[1] for k in out})
    return np.array([[out[(n, h)] for h in heads] for n in layers])


def phase_rows(data: dict, learned_of: str = "{k}/{n}") -> list[list[object]]:
    """Per (layers, heads): parameters, accuracy [95% interval] and seeds learned, without and with FFN."""
    by = {}
    for runs in groups(data, "phase"):
        c = config_of("phase", runs[0]["index"])
        by[(c["layers"], c["num_heads"], bool(c["ffn"]))] = runs
    rows = []
    for n in range(1, 5):
        for h in range(1, 5):
            row = [f"{n} × {h}"]
            for f in (False, True):
                runs = by[(n, h, f)]
                a = _acc(runs)
                row += [f"{runs[0]['params']:,}", _mean_ci(runs),
                        learned_of.format(k=int((a >= LEARNED).sum()), n=len(a))]
            row.append(unconverged(by[(n, h, False)]) + unconverged(by[(n, h, True)]))
            rows.append(row)
    return rows


def phase_stats(data: dict, words: dict[str, str] | None = None) -> dict:
    """Numbers for the phase diagram's sentences: the FFN family (every cell with FFN against without, Holm over
    the 16 cells): how many cells are higher with FFN, lower, no measurable difference; the single-head cells;
    the cells where every seed learned, without and with FFN."""
    no, yes = phase_grid(data, 0), phase_grid(data, 1)
    pairs = [(no[i, j], yes[i, j]) for i in range(no.shape[0]) for j in range(no.shape[1])]
    fam = stats.compare_family(pairs, minimum=MINIMUM, sign_flip=True)
    verdicts = [c.verdict for c in fam]
    out = {f"ffn_{k}": verdicts.count(k) for k in ("higher", "lower", "none", "negligible")}
    out["cells"] = len(fam)
    for f, g in (("no", no), ("ffn", yes)):
        learned = (g >= LEARNED).all(-1)
        out[f"all_learned_{f}"] = int(learned.sum())
        for n in range(g.shape[0]):
            for h in range(g.shape[1]):
                out[f"{f}_{n + 1}x{h + 1}"] = float(g[n, h].mean())
                out[f"{f}_{n + 1}x{h + 1}_learned"] = int((g[n, h] >= LEARNED).sum())
    # split outcomes: seeds that learned with and without FFN (Fisher's exact test), for the single-head cells
    for n in range(no.shape[0]):
        split = stats.learned_split(no[n, 0], yes[n, 0], LEARNED)
        out[f"p_{n + 1}x1"] = split.p_share
    # depth at a matched number of heads: 4 x 1 against 1 x 4, without FFN
    c = stats.compare_paired(no[0, 3], no[3, 0], minimum=MINIMUM, sign_flip=True)
    out.update({"deep_diff": _pts(100 * c.mean), "deep_lo": _pts(100 * c.lo), "deep_hi": _pts(100 * c.hi),
                "deep_verdict": c.verdict})
    if words is not None:  # the page's words for 4 x 1 against 1 x 4 ({n} the seeds)
        out["deep_words"] = verdict_word(c, words)
    out["n_seeds"] = no.shape[-1]
    E, F = 32, data["protocol"]["ffn"]
    out["ffn_params"] = 3 * E + 2 * E * F + F  # one block's feed-forward layer: its layer norm, W_1, W_2
    out["attn_params_4"] = 4 * E * 4 * 8 + 3 * 4 * 8 + E  # a block's 4 heads of d_k = 8: W_q, W_k, W_v, W_o
    return out


def evidence_stats(data: dict) -> dict:
    """The numbers of the page's summary: lookups_stats, phase_stats, and acc_dk1 (4 heads of d_k = 1)."""
    return {**lookups_stats(data), **phase_stats(data), "acc_dk1": width_stats(data)["acc_1"]}


def round2_regime_stats(data: dict, words: dict[str, str] | None = None) -> dict:
    """The source's regime, 10 seeds: 8 heads (d_k = 8) minus 4 heads (d_k = 16), held-out accuracy, paired.
    words (keys higher, lower, none, negligible; {n} the seeds): the page's words for the verdict, as verdict."""
    few, many = groups(data, "regime")
    c = stats.compare_paired(_acc(few), _acc(many), minimum=MINIMUM, sign_flip=True)
    verdict = c.verdict if words is None else verdict_word(c, words)
    tr = lambda runs: float(np.mean([r["train_accuracy"] for r in runs]))  # noqa: E731
    from .regime import POOL, STEPS

    return {"n_seeds": c.n, "mean_4": c.mean_a, "mean_8": c.mean_b, "diff_pts": _pts(100 * c.mean), "pool": POOL,
            "steps": STEPS,
            "lo_pts": _pts(100 * c.lo), "hi_pts": _pts(100 * c.hi), "level_pct": 100 * c.level, "p": c.p,
            "train_4": tr(few), "train_8": tr(many), "verdict": verdict, "d_model": few[0]["d_model"]}


def round2_regime_rows(data: dict) -> list[list[object]]:
    """Per head count of the regime sweep: h, d_k, training-set accuracy (mean), held-out accuracy (mean [95%
    interval]), held-out lowest – highest."""
    rows = []
    for runs in groups(data, "regime"):
        h, a = config_of("regime", runs[0]["index"])["num_heads"], _acc(runs)
        rows.append([h, runs[0]["d_model"] // h, _pct(float(np.mean([r["train_accuracy"] for r in runs]))),
                     _mean_ci(runs), f"{_pct(a.min())} – {_pct(a.max())}"])
    return rows


def protocol_stats(data: dict) -> dict:
    """The protocol as the results record it, and what the runs cost."""
    p, prov = data["protocol"], data.get("provenance", {})
    models = data["models"]
    return {"n_seeds": len(p["seeds"]), "min_steps": p["min_steps"], "max_steps": p["max_steps"],
            "eval_every": p["eval_every"], "window": p["plateau_window"], "gain_pts": 100 * p["plateau_gain"],
            "learned_pct": 100 * p["learned"], "minimum_pts": 100 * p["minimum"], "ffn": p["ffn"],
            "n_models": len(models), "unconverged": sum(not m.get("converged", True) for m in models),
            "cpu_hours": sum(m["cpu_seconds"] for m in models) / 3600, "commit": prov.get("commit", ""),
            "date": prov.get("date", "")}


def false_positive_stats(ns: Sequence[int] = (3, 5, 10), trials: int = 10_000, families: Sequence[int] = (7, 16),
                         family_trials: int = 2000) -> dict:
    """The interval's measured false-positive rate under no true difference: t_<n> (normal differences),
    t2_<n> (two-peaked, symmetric), boot_<n> (the percentile bootstrap), tl_<n> and tf_<n> (skewed, mean 0:
    log-normal, and one setting now and then fails); and the share of whole Holm families of m comparisons
    with a false difference under two-peaked nulls, the t test alone (ft_<n>_<m>) and with the sign-flip
    check §4 uses (fs_<n>_<m>), and that check under the skewed null "now and then fails" (fsf_<n>_<m>).
    Simulated once and kept on disk by the arguments and the statistics code (the page and its notebook, in
    both languages, print the same rates)."""
    return _false_positive_cached(tuple(ns), trials, tuple(families), family_trials,
                                  resultcache.fingerprint(["snippets.stats"]))


@resultcache.memory.cache
def _false_positive_cached(ns: tuple[int, ...], trials: int, families: tuple[int, ...], family_trials: int,
                           code: str) -> dict:
    out: dict = {"trials": trials, "family_trials": family_trials}
    for n in ns:
        out[f"t_{n}"] = stats.false_positive_rate("t", n, trials=trials)
        out[f"t2_{n}"] = stats.false_positive_rate("t", n, "two-peaked", trials=trials)
        out[f"tl_{n}"] = stats.false_positive_rate("t", n, "log-normal", trials=trials)
        out[f"tf_{n}"] = stats.false_positive_rate("t", n, "now-and-then-fails", trials=trials)
        out[f"boot_{n}"] = stats.false_positive_rate("percentile-bootstrap", n, trials=trials // 4)
        if n < 5:
            continue
        for m in families:
            out[f"ft_{n}_{m}"] = stats.family_error_rate("t", n, m, "two-peaked", trials=family_trials)
            out[f"fs_{n}_{m}"] = stats.family_error_rate("t+sign-flip", n, m, "two-peaked", trials=family_trials)
            out[f"fsf_{n}_{m}"] = stats.family_error_rate("t+sign-flip", n, m, "now-and-then-fails",
                                                           trials=family_trials)
    return out


# ---- figures -------------------------------------------------------------------------------------------

def _dots_and_mean(ax, xs, groups_, color, marker, label, offset=0.0):
    """Mean over seeds as a line, and each setting's lowest-to-highest seed as a bar (the seed spread)."""
    x = np.asarray(xs, dtype=float) + offset
    accs = [100 * _acc(g) for g in groups_]
    means = np.array([a.mean() for a in accs])
    lo = means - np.array([a.min() for a in accs])
    hi = np.array([a.max() for a in accs]) - means
    ax.errorbar(x, means, yerr=[lo, hi], fmt=marker + "-", color=color, label=label, capsize=2.5, markersize=4.5,
                linewidth=1.4, elinewidth=1.1, zorder=4)


def heads_figure(data: dict, labels: dict[str, str], alt: str, caption: str | None = None) -> str:
    """Left: held-out accuracy against the number of heads (d_k = 8) for 2, 4 and 6 lookups. Right: 4 lookups,
    heads of d_k = 8 against d_model fixed at 120. Means as lines, bars from the lowest to the highest seed, the
    LEARNED level dashed.
    labels: heads, acc, lookups (with {n}), fixed_dk, fixed_dmodel, left, right."""
    need = {"heads", "acc", "lookups", "fixed_dk", "fixed_dmodel", "left", "right"}
    if set(labels) != need:
        raise ValueError(f"labels must have keys {sorted(need)}, got {sorted(labels)}")

    def xs_of(sweep):
        return [config_of(sweep, g[0]["index"])["num_heads"] for g in groups(data, sweep)]

    def draw():
        fig = Figure(figsize=(8.4, 3.4), layout="constrained")
        left, right = fig.subplots(1, 2, sharey=True)
        for sweep, n, color, marker, dx in (("offsets_2", 2, "C2", "^", -0.12), ("fixed_dk", 4, "C0", "o", 0.0),
                                            ("offsets_6", 6, "C3", "s", 0.12)):
            _dots_and_mean(left, xs_of(sweep), groups(data, sweep), color, marker, labels["lookups"].format(n=n), dx)
        _dots_and_mean(right, xs_of("fixed_dk"), groups(data, "fixed_dk"), "C0", "o", labels["fixed_dk"], -0.08)
        _dots_and_mean(right, xs_of("fixed_dmodel"), groups(data, "fixed_dmodel"), "C1", "D",
                       labels["fixed_dmodel"], 0.08)
        for ax, title in ((left, labels["left"]), (right, labels["right"])):
            ax.axhline(100 * LEARNED, color="0.5", linestyle="--", linewidth=1)
            ax.set_xticks(range(1, 9))
            ax.set_xlabel(labels["heads"])
            ax.set_title(title, fontsize=11)
            ax.grid(alpha=0.3)
            ax.set_ylim(0, 104)
            ax.legend(loc="lower right", frameon=False, fontsize=10)
        left.set_ylabel(labels["acc"])
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def width_figure2(data: dict, labels: dict[str, str], alt: str, caption: str | None = None) -> str:
    """Held-out accuracy against the head width d_k, with h = 4 and d_model = 32 fixed: the mean as a line, the
    lowest to highest seed as a bar. labels: dk, acc."""
    if set(labels) != {"dk", "acc"}:
        raise ValueError(f"labels must have keys 'dk', 'acc', got {sorted(labels)}")
    gs = groups(data, "width")
    ks = [g[0]["d_k"] for g in gs]

    def draw():
        fig = Figure(figsize=(4.6, 3.0), layout="constrained")
        ax = fig.subplots()
        _dots_and_mean(ax, list(range(len(ks))), gs, "C2", "D", None)
        ax.set_xticks(range(len(ks)), [str(k) for k in ks])
        ax.axhline(100 * LEARNED, color="0.5", linestyle="--", linewidth=1)
        ax.set_xlabel(labels["dk"])
        ax.set_ylabel(labels["acc"])
        ax.set_ylim(0, 104)
        ax.grid(alpha=0.3)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def phase_figure(data: dict, labels: dict[str, str], alt: str, caption: str | None = None) -> str:
    """Two heatmaps, layers (rows) x heads (columns): mean held-out accuracy as colour, the mean and the seeds
    that learned written in each cell; left without, right with a feed-forward layer. labels: layers, heads,
    no_ffn, ffn, acc, learned (with {k} and {n})."""
    need = {"layers", "heads", "no_ffn", "ffn", "acc", "learned"}
    if set(labels) != need:
        raise ValueError(f"labels must have keys {sorted(need)}, got {sorted(labels)}")
    grids = [phase_grid(data, 0), phase_grid(data, 1)]

    def draw():
        fig = Figure(figsize=(8.4, 3.9), layout="constrained")
        axes = fig.subplots(1, 2, sharey=True)
        for ax, g, title in zip(axes, grids, (labels["no_ffn"], labels["ffn"]), strict=True):
            mean = 100 * g.mean(-1)
            im = ax.imshow(mean, cmap="viridis", vmin=0, vmax=100, origin="lower", aspect="auto")
            for i in range(mean.shape[0]):
                for j in range(mean.shape[1]):
                    k = int((g[i, j] >= LEARNED).sum())
                    ax.text(j, i, f"{mean[i, j]:.0f}\n{labels['learned'].format(k=k, n=g.shape[-1])}",
                            ha="center", va="center", fontsize=10, color="black" if mean[i, j] > 60 else "white")
            ax.set_xticks(range(mean.shape[1]), [str(h + 1) for h in range(mean.shape[1])])
            ax.set_yticks(range(mean.shape[0]), [str(n + 1) for n in range(mean.shape[0])])
            ax.set_xlabel(labels["heads"])
            ax.set_title(title, fontsize=11)
        axes[0].set_ylabel(labels["layers"])
        fig.colorbar(im, ax=list(axes), label=labels["acc"])
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def _fmt_offsets(offsets: Sequence[int]) -> str:
    return ", ".join(fmt_offset(o) for o in offsets)


def _isnan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)
