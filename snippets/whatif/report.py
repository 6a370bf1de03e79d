"""Tables, sentences and figures for the §4 page, from the cached runs and measurements.

Functions that feed the page's prose take a template with named fields, so the sentence
stays in the page's language and the numbers come from the measurement.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..figures import Figure, heatmap_grid, svg_figure
from ..heads import parameter_table
from ..i18n import fill, text
from .analysis import SHARE_OFFSETS, ablation, attention_maps, pruning, specialisation
from ..stats import LEVEL, t_interval
from .regime import regime_stats
from .task import EVENTS, OFFSETS, event_names, make_batch

__all__ = [
    "SAMPLE_SEED", "VASWANI_TABLE3A", "fmt_offset", "sweep_rows", "sweep_stats", "sweep_figure", "width_rows",
    "vaswani_rows", "share_rows", "role_rows", "sample_heatmaps", "ablation_rows", "ablation_stats",
    "pruning_rows", "pruning_stats", "share_stats", "role_stats", "roleless_stats", "sentence", "timeline_rows",
    "fixed_pool_sentence", "ablation_sentence", "removable", "pruning_interval_stats", "role_drop_stats",
    "specialisation_rows", "first_round_one_head_stats", "role_split_stats",
]

SAMPLE_SEED = 7  # the stream drawn in the heatmaps
# Vaswani et al. 2017, Table 3 row (A), newstest2013 dev; d_model = 512, d_k = d_v = 512 / h.
VASWANI_TABLE3A = {1: (24.9, 5.29), 4: (25.5, 5.00), 8: (25.8, 4.92), 16: (25.8, 4.91), 32: (25.4, 5.01)}


def _check_runs(runs) -> None:
    if not isinstance(runs, (list, tuple)) or not runs or not all(isinstance(r, dict) and "accuracy" in r for r in runs):
        raise ValueError(f"runs must be a non-empty list of train_run results, got {type(runs).__name__}")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def fmt_offset(o: int | None, none: str = "—") -> str:
    """'−2', '0', '+1'; none for a head without a single role.

    >>> [fmt_offset(o) for o in (-2, 0, 1, None)]
    ['−2', '0', '+1', '—']
    """
    if o is None:
        return none
    return "0" if o == 0 else f"{'+' if o > 0 else '−'}{abs(o)}"


def _by_heads(runs: list[dict]) -> dict[int, list[dict]]:
    _check_runs(runs)
    groups: dict[int, list[dict]] = {}
    for r in runs:
        groups.setdefault(r["num_heads"], []).append(r)
    return dict(sorted(groups.items()))


def _train_loss(r: dict, last: int = 50) -> float:
    return float(np.mean(r["loss_curve"][-last:]))


def sweep_rows(runs: list[dict]) -> list[list[str]]:
    """Per head count: h, d_k, accuracy mean ± std, accuracy min–max, held-out loss mean ± std."""
    rows = []
    for h, rs in _by_heads(runs).items():
        acc = np.array([r["accuracy"] for r in rs])
        loss = np.array([r["loss"] for r in rs])
        d_k = rs[0]["d_model"] // h
        rows.append([h, d_k, f"{_pct(acc.mean())} ± {100 * acc.std():.1f}", f"{_pct(acc.min())} – {_pct(acc.max())}",
                     f"{loss.mean():.3g} ± {loss.std():.2g}"])
    return rows


def sweep_stats(runs: list[dict]) -> dict:
    """Numbers for the page's sentences: acc_<h> (mean), lo_<h>, hi_<h>, loss_<h>, train_loss_<h>,
    best_offset_<h> / other_offsets_<h> (mean accuracy on each seed's best target / on the rest),
    best_h_offsets_<h> / other_h_offsets_<h> (on each seed's h best targets / on the rest; None when h >= targets),
    best / best_h (highest mean accuracy and its head count), plateau / plateau_end (first and last head count
    of the run of consecutive head counts, starting with the fewest, whose mean is within 1 point of the best),
    widest (most heads), n_models, n_seeds, minutes (training time), n_targets, chance (one of the events at random),
    naive_<h> for h < n_targets (h directions right and the rest at chance)."""
    groups = _by_heads(runs)
    stats: dict = {"n_models": len(runs), "n_seeds": len(next(iter(groups.values()))),
                   "minutes": sum(r["seconds"] for r in runs) / 60, "steps": runs[0]["steps"],
                   "n_targets": len(OFFSETS), "chance": 1 / len(EVENTS)}
    for h, rs in groups.items():
        acc = [r["accuracy"] for r in rs]
        by_offset = np.sort(np.array([r["acc_by_offset"] for r in rs]), axis=1)  # (seeds, T), ascending
        stats.update({f"best_offset_{h}": float(by_offset[:, -1].mean()), f"other_offsets_{h}": float(by_offset[:, :-1].mean()),
                      f"best_h_offsets_{h}": float(by_offset[:, -h:].mean()) if h < by_offset.shape[1] else None,
                      f"other_h_offsets_{h}": float(by_offset[:, :-h].mean()) if h < by_offset.shape[1] else None})
        if h < len(OFFSETS):  # h directions right, the rest guessed: what "one head, one direction" would give
            stats[f"naive_{h}"] = h / len(OFFSETS) + (1 - h / len(OFFSETS)) / len(EVENTS)
        stats.update({f"acc_{h}": float(np.mean(acc)), f"lo_{h}": min(acc), f"hi_{h}": max(acc),
                      f"loss_{h}": float(np.mean([r["loss"] for r in rs])),
                      f"train_loss_{h}": float(np.mean([_train_loss(r) for r in rs]))})
    best = max(stats[f"acc_{h}"] for h in groups)
    hs = list(groups)
    within = [stats[f"acc_{h}"] >= best - 0.01 for h in hs]
    start = within.index(True)
    end = start
    while end + 1 < len(hs) and within[end + 1]:
        end += 1
    stats.update({"best": best, "best_h": max(hs, key=lambda h: stats[f"acc_{h}"]),
                  "plateau": hs[start], "plateau_end": hs[end], "widest": max(groups)})
    return stats


def first_round_one_head_stats(runs: list[dict]) -> dict:
    """How the one-head models (h = 1 in runs) spend their single attention distribution: the mean share on the
    four target offsets, sorted largest first (w1 ... w4, averaged over seeds), the share left for the rest of
    the stream (w_rest), and in how many seeds (match of n_seeds) the direction answered best is the one the head
    weights most."""
    rs = _by_heads(runs).get(1)
    if not rs:
        raise ValueError("runs must include the one-head models (num_heads = 1)")
    cols = [SHARE_OFFSETS.index(o) for o in OFFSETS]
    w = np.array([specialisation(r)[0][0, cols] for r in rs])  # (seeds, T): share on each target offset
    acc = np.array([r["acc_by_offset"] for r in rs])  # (seeds, T)
    sw = np.sort(w, axis=1)[:, ::-1].mean(0)
    return {"w1": float(sw[0]), "w2": float(sw[1]), "w3": float(sw[2]), "w4": float(sw[3]),
            "w_rest": float(1 - w.sum(1).mean()), "match": int((acc.argmax(1) == w.argmax(1)).sum()),
            "n_seeds": len(rs)}


def sweep_figure(runs: list[dict], xlabel: str, acc_label: str, loss_label: str,
                 legend: Sequence[str], alt: str, caption: str | None = None) -> str:
    """Accuracy and held-out loss against the number of heads: seeds as dots, mean as a line, min–max as a band."""
    if len(legend) != 3:
        raise ValueError(f"legend must name (mean, seed, range), got {legend!r}")
    groups = _by_heads(runs)
    hs = list(groups)
    d = runs[0]["d_model"]
    def draw():
        fig = Figure(figsize=(8.4, 3.2), layout="constrained")
        axes = fig.subplots(1, 2)
        for ax, key, label in ((axes[0], "accuracy", acc_label), (axes[1], "loss", loss_label)):
            vals = [np.array([r[key] * (100 if key == "accuracy" else 1) for r in groups[h]]) for h in hs]
            ax.fill_between(hs, [v.min() for v in vals], [v.max() for v in vals], color="C0", alpha=0.2,
                            linewidth=0, label=legend[2])
            for i, (h, v) in enumerate(zip(hs, vals, strict=True)):
                ax.scatter([h] * len(v), v, s=12, color="C1", zorder=3, label=legend[1] if i == 0 else None)
            ax.plot(hs, [v.mean() for v in vals], "o-", color="C0", zorder=4, label=legend[0])
            ax.set_xscale("log", base=2)
            ax.set_xticks(hs, [f"{h}\n({d // h})" for h in hs])
            ax.minorticks_off()
            ax.set_xlabel(xlabel)
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
        axes[1].set_yscale("log")
        axes[0].legend(loc="lower center", frameon=False)
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def width_rows(d_model: int = 512, heads: Sequence[int] = (1, 8, 64)) -> list[list[object]]:
    """For each head count: h, d_k, h × d_k, parameters of the site's MultiHeadAttention, distributions per query.

    >>> width_rows(512, (1, 8))[1]
    [8, 64, 512, 1050624, 8]
    """
    return [[h, d_k, h * d_k, params, n] for h, d_k, params, n in parameter_table(d_model, tuple(heads))]


def vaswani_rows(runs: list[dict]) -> list[list[str]]:
    """Vaswani et al. 2017 Table 3 (A) beside this sweep, by number of heads."""
    groups = _by_heads(runs)
    d = runs[0]["d_model"]
    rows = []
    for h in sorted(set(groups) | set(VASWANI_TABLE3A)):
        bleu, ppl = "—", "—"
        if h in VASWANI_TABLE3A:
            bleu, ppl = f"{VASWANI_TABLE3A[h][0]:.1f}", f"{VASWANI_TABLE3A[h][1]:.2f}"
        ours = _pct(np.mean([r["accuracy"] for r in groups[h]])) if h in groups else "—"
        paper_d_k = 512 // h if h in VASWANI_TABLE3A else "—"  # the paper has no h = 2 row
        rows.append([h, paper_d_k, bleu, ppl, d // h if h in groups else "—", ours])
    return rows


def share_rows(run: dict, head_label: str = "{}", none: str = "—") -> list[list[str]]:
    """Head × offset table: share at each offset, the rest elsewhere, and the head's role."""
    shares, roles = specialisation(run)
    return [[head_label.format(i), *[_pct(float(v)) for v in s], _pct(1 - float(s.sum())), fmt_offset(r, none)]
            for i, (s, r) in enumerate(zip(shares, roles, strict=True))]


def role_rows(runs: list[dict], none: str = "—") -> list[list[object]]:
    """For each run: seed, each head's role, and whether the roles cover every target offset."""
    _check_runs(runs)
    rows = []
    for r in runs:
        roles = specialisation(r)[1]
        rows.append([r["seed"], *[fmt_offset(o, none) for o in roles], "✅" if set(OFFSETS) <= set(roles) else "❌"])
    return rows


def role_split_stats(runs: list[dict]) -> dict:
    """What recurs across seeds and what does not: covered (seeds whose heads' roles cover every target offset),
    distinct (different assignments of roles to heads among the seeds), n_seeds."""
    _check_runs(runs)
    roles = [tuple(specialisation(r)[1]) for r in runs]
    return {"covered": sum(set(OFFSETS) <= set(x) for x in roles), "distinct": len(set(roles)),
            "n_seeds": len(runs)}


def sample_heatmaps(run: dict, title: str, alt: str, caption: str | None = None) -> str:
    """Per-head heatmaps on one sample stream; title is a template such as 'head {head}: {role}'."""
    x, _ = make_batch(1, seed=SAMPLE_SEED)
    roles = specialisation(run)[1]
    labels = [f"{i} {e}" for i, e in enumerate(event_names(x[0]))]
    titles = [title.format(head=i, role=fmt_offset(r)) for i, r in enumerate(roles)]
    return heatmap_grid(attention_maps(run, x)[0], labels, titles=titles, alt=alt, caption=caption, ncols=2, cell=0.26)


def ablation_rows(run: dict, labels: dict[str, str]) -> list[list[str]]:
    """Ablation table; labels maps 'all', 'without', 'only' to row labels ('{}' is the head)."""
    if set(labels) != {"all", "without", "only"}:
        raise ValueError(f"labels must have keys 'all', 'without', 'only', got {sorted(labels)}")
    return [[labels[k].format(i), *[_pct(a) for a in res["acc_by_offset"]], _pct(res["accuracy"])]
            for k, i, res in ablation(run)]


def ablation_stats(run: dict) -> dict:
    """own_drop: mean accuracy lost on a head's own offset when it is removed; other_drop: the largest
    loss on any other offset (both also in percentage points, *_pts); own_alone / other_alone: mean accuracy with
    the head alone, on its offset / the others."""
    roles = specialisation(run)[1]
    res = ablation(run)
    full = np.array(res[0][2]["acc_by_offset"])
    own_drop, other_drop, own_alone, other_alone = [], [], [], []
    for kind, i, r in res[1:]:
        if roles[i] not in OFFSETS:
            continue
        t = OFFSETS.index(roles[i])
        acc = np.array(r["acc_by_offset"])
        others = np.delete(np.arange(len(OFFSETS)), t)
        if kind == "without":
            own_drop.append(full[t] - acc[t])
            other_drop.append((full[others] - acc[others]).max())
        else:
            own_alone.append(acc[t])
            other_alone.append(acc[others].mean())
    if not own_drop:
        raise ValueError("no head of this run has a single-offset role; ablation_stats needs at least one")
    stats = {"own_drop": float(np.mean(own_drop)), "other_drop": float(np.max(other_drop)),
             "own_alone": float(np.mean(own_alone)), "other_alone": float(np.mean(other_alone))}
    return {**stats, "own_drop_pts": 100 * stats["own_drop"], "other_drop_pts": 100 * stats["other_drop"],
            "n_roles": len(own_drop), "n_heads": len(roles)}


def pruning_rows(runs: list[dict], lang: str = "en") -> list[list[str]]:
    """Heads kept, then mean (min) accuracy over seeds for each head count in runs; the brackets full-width on a
    Chinese page: 99.9%（99.8%）."""
    left, right = text(lang, "whatif.cell_brackets")
    groups = _by_heads(runs)
    curves = {h: np.array([pruning(r) for r in rs]) for h, rs in groups.items()}  # (seeds, h)
    rows = []
    for kept in range(max(groups), 0, -1):
        row = [kept]
        for h, c in curves.items():
            row.append(f"{_pct(c[:, h - kept].mean())}{left}{_pct(c[:, h - kept].min())}{right}" if kept <= h else "—")
        rows.append(row)
    return rows


def pruning_stats(runs: list[dict], tolerance: float = 0.01) -> dict:
    """removable_<h>: fewest heads removable in any seed while accuracy stays within tolerance (absolute, so
    0.01 is one percentage point, also given as tolerance_points) of the accuracy with all heads;
    removable_max_<h>: the most, over seeds."""
    stats: dict = {"tolerance": tolerance, "tolerance_points": 100 * tolerance}
    for h, rs in _by_heads(runs).items():
        counts = []
        for r in rs:
            accs = pruning(r)
            ok = [k for k, a in enumerate(accs) if a >= accs[0] - tolerance]
            counts.append(max(k for k in range(len(accs)) if all(j in ok for j in range(k + 1))))
        stats[f"removable_{h}"], stats[f"removable_max_{h}"] = min(counts), max(counts)
    return stats




def share_stats(runs: list[dict]) -> dict:
    """top_<h>: the largest share any head of any seed puts on one offset; roles_<h>: mean heads with a role."""
    stats: dict = {}
    for h, rs in _by_heads(runs).items():
        measured = [specialisation(r) for r in rs]
        stats[f"top_{h}"] = float(max(s.max() for s, _ in measured))
        stats[f"roles_{h}"] = float(np.mean([sum(o is not None for o in roles) for _, roles in measured]))
    return stats


def roleless_stats(runs: list[dict], tolerance: float = 0.01) -> dict:
    """For heads without a role (no offset holds half their attention), per head count h:
    roleless_<h> (mean per model), target_lo_<h> / target_hi_<h> (their share on the target offsets, summed),
    drop_lo_<h> / drop_hi_<h> (accuracy points lost when one of them is removed alone), n_roleless_<h>,
    n_free_<h> / n_costly_<h> (how many of them lose at most / more than tolerance when removed alone)."""
    stats: dict = {}
    target_cols = [i for i, o in enumerate((-2, -1, 0, 1, 2)) if o in OFFSETS]
    for h, rs in _by_heads(runs).items():
        shares, drops, counts = [], [], []
        for r in rs:
            s, roles = specialisation(r)
            res = ablation(r)
            full = res[0][2]["accuracy"]
            without = {i: out["accuracy"] for kind, i, out in res[1:] if kind == "without"}
            none = [i for i, o in enumerate(roles) if o is None]
            counts.append(len(none))
            shares += [float(s[i, target_cols].sum()) for i in none]
            drops += [100 * (full - without[i]) for i in none]
        stats[f"roleless_{h}"] = float(np.mean(counts))
        stats[f"n_free_{h}"] = sum(d <= 100 * tolerance + 1e-9 for d in drops)  # removable alone by the page's rule
        stats[f"n_costly_{h}"] = len(drops) - stats[f"n_free_{h}"]
        stats[f"n_roleless_{h}"] = len(shares)
        if shares:
            stats.update({f"target_lo_{h}": min(shares), f"target_hi_{h}": max(shares),
                          f"drop_lo_{h}": min(drops), f"drop_hi_{h}": max(drops)})
    return stats


def role_stats(run: dict) -> dict:
    """For one run: weakest (the smallest share any head puts on its best offset), covered (how many target
    offsets some head has as its role), n_heads, n_targets."""
    shares, roles = specialisation(run)
    return {"weakest": float(shares.max(axis=1).min()), "covered": len(set(OFFSETS) & set(roles)),
            "n_heads": len(roles), "n_targets": len(OFFSETS)}


def sentence(template: str, stats: dict) -> str:
    """Fill a sentence written in the page's language with measured numbers; a count field may give
    zero its own words, {k:SOME|NONE} (snippets.i18n.fill).

    >>> sentence("{n} heads, {acc:.0%}", {"n": 4, "acc": 0.999, "unused": 1})
    '4 heads, 100%'
    >>> sentence("{k:# of|none of} {n} seeds", {"n": 10, "k": 0})
    'none of 10 seeds'
    """
    if not isinstance(template, str) or not template:
        raise ValueError(f"template must be a non-empty string, got {template!r}")
    if not isinstance(stats, dict):
        raise ValueError(f"stats must be a dict of measured values, got {type(stats).__name__}")
    try:
        return fill(template, **stats)
    except KeyError as e:
        raise ValueError(f"template uses {e.args[0]!r}, which is not among the measured values {sorted(stats)}") from None


def timeline_rows(seed: int = SAMPLE_SEED, positions: Sequence[int] = (0, 1, 2, 7, 14, 15)) -> list[list[str]]:
    """A few positions of one stream: position, event, then the event at each target offset ('—' if none)."""
    x, y = make_batch(1, seed=seed)
    names = event_names(x[0])
    if not positions or not all(isinstance(p, int) and 0 <= p < len(names) for p in positions):
        raise ValueError(f"positions must be non-empty indices in 0 … {len(names) - 1}, got {positions!r}")
    return [[p, names[p], *[EVENTS[int(t)] if t >= 0 else "—" for t in y[0, p]]] for p in positions]


def ablation_sentence(run: dict, template: str, others: tuple[str, str]) -> str:
    """The ablation sentence for one run. others = (clause when removing a head costs no other offset anything at
    the printed precision, clause template with {other_drop_pts} otherwise); the chosen one fills {others}."""
    if len(others) != 2:
        raise ValueError(f"others must be (unaffected, affected) clauses, got {others!r}")
    stats = {**ablation_stats(run), "chance": 1 / len(EVENTS)}
    clause = others[0] if round(stats["other_drop_pts"], 1) <= 0 else others[1]
    return sentence(template, {**stats, "others": sentence(clause, stats)})


def removable(curves: Sequence[Sequence[float]], tolerance: float = 0.01, level: float = LEVEL) -> dict:
    """The first round's pruning rule on pruning curves (per seed: accuracy with h, h-1, ..., 1 heads kept):
    the most heads that can go while the upper end of every paired interval of the drop so far stays within
    tolerance. The drop from all heads is paired by seed (each seed against its own full model), as a Student's t
    interval (snippets.stats), tested in a fixed order, one more head each time, stopping at the first that
    fails: a fixed-sequence procedure needs no further correction.
    Returns removable, drop / drop_lo / drop_hi at it and next / next_lo / next_hi one head more (points).

    >>> removable([[1.0, 1.0, 0.5], [1.0, 1.0, 0.6], [0.99, 0.99, 0.4]])["removable"]
    1
    """
    c = np.asarray(curves, dtype=float)
    if c.ndim != 2 or c.shape[0] < 2 or c.shape[1] < 2:
        raise ValueError(f"expected pruning curves of at least 2 seeds x 2 head counts, got shape {c.shape}")
    h = c.shape[1]
    intervals = [t_interval(c[:, 0] - c[:, k], level) if k else (0.0, 0.0, 0.0) for k in range(h)]
    k = 0
    while k + 1 < h and intervals[k + 1][2] <= tolerance:
        k += 1
    out = {"removable": k}
    for name, j in (("drop", k), ("next", min(k + 1, h - 1))):
        d, lo, hi = intervals[j]
        out |= {name: 100 * d, f"{name}_lo": 100 * lo, f"{name}_hi": 100 * hi}
    return out


def pruning_interval_stats(runs: list[dict], tolerance: float = 0.01, level: float = LEVEL) -> dict:
    """Per head count h, removing heads in pruning order, the rule of `removable` on the runs' pruning curves:
    removable_<h>, removable_pct_<h> (the same as a share of h), drop_<h> / drop_lo_<h> / drop_hi_<h> (points) at
    removable_<h> and next_<h> / next_lo_<h> / next_hi_<h> at one head more. Also tolerance_points, level_pct,
    n_seeds."""
    stats: dict = {"tolerance_points": 100 * tolerance, "level_pct": 100 * level}
    for h, rs in _by_heads(runs).items():
        r = removable([pruning(x) for x in rs], tolerance, level)  # (seeds, h): accuracy with h, h-1, ... heads
        stats["n_seeds"] = len(rs)
        stats.update({f"{k}_{h}": v for k, v in r.items()})
        stats[f"removable_pct_{h}"] = 100 * r["removable"] / h
    return stats


def role_drop_stats(runs: list[dict], tolerance: float = 0.01) -> dict:
    """Heads with a role, removed alone: how much their own offset loses. Per head count h: n_role_<h> (heads with
    a role over all seeds), n_role_free_<h> (those whose removal costs their offset at most tolerance),
    role_drop_lo_<h> / role_drop_hi_<h> (points), n_seeds_<h>."""
    stats: dict = {"tolerance_points": 100 * tolerance}
    for h, rs in _by_heads(runs).items():
        drops = []
        for r in rs:
            roles = specialisation(r)[1]
            res = ablation(r)
            full = np.array(res[0][2]["acc_by_offset"])
            for kind, i, out in res[1:]:
                if kind == "without" and roles[i] in OFFSETS:
                    t = OFFSETS.index(roles[i])
                    drops.append(100 * float(full[t] - out["acc_by_offset"][t]))
        if not drops:
            raise ValueError(f"no {h}-head run has a head with a role; role_drop_stats needs at least one")
        stats.update({f"n_role_{h}": len(drops), f"n_role_free_{h}": sum(d <= 100 * tolerance + 1e-9 for d in drops),
                      f"role_drop_lo_{h}": min(drops), f"role_drop_hi_{h}": max(drops), f"n_seeds_{h}": len(rs)})
    return stats


def specialisation_rows(runs: list[dict]) -> list[list[object]]:
    """Per head count: h, d_k, the largest share any head of any seed puts on one offset, mean heads with a role."""
    stats = share_stats(runs)
    d = runs[0]["d_model"]
    return [[h, d // h, f"{stats[f'top_{h}']:.0%}", f"{stats[f'roles_{h}']:.1f} / {h}"] for h in _by_heads(runs)]


def fixed_pool_sentence(train: dict, held_out: dict, num_heads: int, d_model: int, steps: int, pool: int,
                        lang: str) -> str:
    """One sentence on a short run of _train_fixed: accuracy and loss on its pool of training logs and on the
    held-out logs (evaluate's dicts)."""
    from ..i18n import text
    from .train import EVAL_SIZE

    for name, d in (("train", train), ("held_out", held_out)):
        if not isinstance(d, dict) or not {"loss", "accuracy"} <= set(d):
            raise ValueError(f"expected {name} to be evaluate's dict with 'loss' and 'accuracy', got {d!r}")
    return text(lang, "whatif.quick_fixed", h=num_heads, d_model=d_model, pool=pool, steps=steps,
                train_acc=train["accuracy"], train_loss=train["loss"], held=EVAL_SIZE,
                held_acc=held_out["accuracy"], held_loss=held_out["loss"])
