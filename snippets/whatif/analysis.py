"""Measurements on trained timeline models: the head sweep, offset shares, ablation and pruning.

Shape letters: N batch, h heads, L queries, S keys, O offsets.

>>> import torch
>>> w = torch.eye(6).roll(1, dims=1)[None]  # one head that looks at the next position
>>> offset_shares(w, offsets=(-1, 0, 1)).tolist()
[[0.0, 0.0, 1.0]]
>>> head_roles(offset_shares(w, offsets=(-1, 0, 1)), offsets=(-1, 0, 1))
[1]
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import Tensor, nn

from ..cache import memory
from ..figures import heatmap_grid, svg_figure
from ..multihead import MultiHeadAttention
from .model import D_MODEL
from .task import OFFSETS, event_names, make_batch
from .train import CODE_VERSION, EVAL_SEED, EVAL_SIZE, evaluate, load_model, train_run

__all__ = [
    "HEADS", "SEEDS", "SAMPLE_SEED", "VASWANI_TABLE3A", "sweep", "sweep_rows", "sweep_stats", "sweep_figure",
    "width_rows", "vaswani_rows", "offset_shares", "head_roles", "specialisation", "share_rows", "role_rows",
    "heads_off", "ablation", "ablation_rows", "ablation_stats", "pruning", "pruning_rows", "pruning_stats",
    "sample_heatmaps", "fmt_offset",
]

HEADS = (1, 2, 4, 8, 16, D_MODEL)  # d_k = 32, 16, 8, 4, 2, 1
SEEDS = (0, 1, 2, 3, 4)
SAMPLE_SEED = 7  # the stream drawn in the heatmaps
SHARE_OFFSETS = (-2, -1, 0, 1, 2)
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


# --8<-- [start:sweep]
def sweep(heads: Sequence[int] = HEADS, seeds: Sequence[int] = SEEDS, steps: int = 1000) -> list[dict]:
    """One train_run per (heads, seed); each comes from the disk cache after the first build."""
    if not heads or not seeds:
        raise ValueError(f"heads and seeds must be non-empty, got heads={heads!r}, seeds={seeds!r}")
    return [train_run(h, s, steps=steps) for h in heads for s in seeds]
# --8<-- [end:sweep]


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
    plateau (fewest heads within 1 point of the best mean), n_models, n_seeds, minutes (training time)."""
    groups = _by_heads(runs)
    stats: dict = {"n_models": len(runs), "n_seeds": len(next(iter(groups.values()))),
                   "minutes": sum(r["seconds"] for r in runs) / 60, "steps": runs[0]["steps"]}
    for h, rs in groups.items():
        acc = [r["accuracy"] for r in rs]
        stats.update({f"acc_{h}": float(np.mean(acc)), f"lo_{h}": min(acc), f"hi_{h}": max(acc),
                      f"loss_{h}": float(np.mean([r["loss"] for r in rs])),
                      f"train_loss_{h}": float(np.mean([_train_loss(r) for r in rs]))})
    best = max(stats[f"acc_{h}"] for h in groups)
    stats["plateau"] = min(h for h in groups if stats[f"acc_{h}"] >= best - 0.01)
    stats["widest"] = max(groups)
    return stats


def sweep_figure(runs: list[dict], xlabel: str, acc_label: str, loss_label: str,
                 legend: Sequence[str], alt: str, caption: str | None = None) -> str:
    """Accuracy and held-out loss against the number of heads: seeds as dots, mean as a line, min–max as a band."""
    if len(legend) != 3:
        raise ValueError(f"legend must name (mean, seed, range), got {legend!r}")
    groups = _by_heads(runs)
    hs = list(groups)
    d = runs[0]["d_model"]
    import matplotlib.pyplot as plt

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.2), layout="constrained")
        for ax, key, label in ((axes[0], "accuracy", acc_label), (axes[1], "loss", loss_label)):
            vals = [np.array([r[key] * (100 if key == "accuracy" else 1) for r in groups[h]]) for h in hs]
            ax.fill_between(hs, [v.min() for v in vals], [v.max() for v in vals], color="C0", alpha=0.2,
                            linewidth=0, label=legend[2])
            for i, (h, v) in enumerate(zip(hs, vals)):
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
    rows = []
    for h in heads:
        layer = MultiHeadAttention(d_model, h)
        rows.append([h, d_model // h, h * (d_model // h), sum(p.numel() for p in layer.parameters()), h])
    return rows


def vaswani_rows(runs: list[dict]) -> list[list[str]]:
    """Vaswani et al. 2017 Table 3 (A) beside this sweep, by number of heads."""
    groups = _by_heads(runs)
    d = runs[0]["d_model"]
    rows = []
    for h in sorted(set(groups) | set(VASWANI_TABLE3A)):
        bleu, ppl = VASWANI_TABLE3A.get(h, ("—", "—"))
        ours = _pct(np.mean([r["accuracy"] for r in groups[h]])) if h in groups else "—"
        rows.append([h, 512 // h, bleu, ppl, d // h if h in groups else "—", ours])
    return rows


# --8<-- [start:offset_shares]
def offset_shares(weights, offsets: Sequence[int] = SHARE_OFFSETS) -> Tensor:
    """Each head's mean attention on the key at query + offset: (h, O).

    weights is (N, h, L, S) or (h, L, S) with L == S (self-attention). Only queries whose
    every offset lands inside the sequence count, so all columns average the same queries.
    """
    w = torch.as_tensor(weights, dtype=torch.float64)
    if w.dim() == 3:
        w = w.unsqueeze(0)  # (1, h, L, S)
    if w.dim() != 4 or w.shape[-1] != w.shape[-2]:
        raise ValueError(f"weights must be (N, h, L, L) or (h, L, L), got shape {tuple(w.shape)}")
    if not offsets:
        raise ValueError("offsets must be a non-empty sequence of integers, got an empty one")
    L = w.shape[-1]
    lo, hi = max(0, -min(offsets)), L - max(0, max(offsets))
    if hi <= lo:
        raise ValueError(f"no query has all offsets {tuple(offsets)} inside a sequence of length {L}")
    queries = torch.arange(lo, hi)  # (Q,)
    cols = [w[:, :, queries, queries + o].mean(dim=(0, 2)) for o in offsets]  # O x (h,)
    return torch.stack(cols, dim=1)  # (h, O)
# --8<-- [end:offset_shares]


def head_roles(shares, offsets: Sequence[int] = SHARE_OFFSETS, threshold: float = 0.5) -> list[int | None]:
    """A head's role is the offset holding at least `threshold` of its attention, else None."""
    s = torch.as_tensor(shares)
    if s.dim() != 2 or s.shape[1] != len(offsets):
        raise ValueError(f"shares must be (h, {len(offsets)}) for offsets {tuple(offsets)}, got {tuple(s.shape)}")
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold!r}")
    best = s.argmax(dim=1).tolist()
    return [offsets[j] if float(s[i, j]) >= threshold else None for i, j in enumerate(best)]


@torch.no_grad()
def _weights(run: dict, x: Tensor) -> Tensor:
    _, w = load_model(run)(x, need_weights=True)
    return w  # (N, h, L, L)


def _specialisation(run: dict) -> tuple[np.ndarray, list[int | None]]:
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    shares = offset_shares(_weights(run, x))
    return shares.numpy(), head_roles(shares)


def specialisation(run: dict) -> tuple[np.ndarray, list[int | None]]:
    """Offset shares (h, O) on the held-out streams, and each head's role (cached)."""
    return _measured("specialisation", run)


def share_rows(run: dict, head_label: str = "{}", none: str = "—") -> list[list[str]]:
    """Head × offset table: share at each offset, the rest elsewhere, and the head's role."""
    shares, roles = specialisation(run)
    return [[head_label.format(i), *[_pct(float(v)) for v in s], _pct(1 - float(s.sum())), fmt_offset(r, none)]
            for i, (s, r) in enumerate(zip(shares, roles))]


def role_rows(runs: list[dict], none: str = "—") -> list[list[object]]:
    """For each run: seed, each head's role, and whether the roles cover every target offset."""
    _check_runs(runs)
    rows = []
    for r in runs:
        roles = specialisation(r)[1]
        rows.append([r["seed"], *[fmt_offset(o, none) for o in roles], "✅" if set(OFFSETS) <= set(roles) else "❌"])
    return rows


def sample_heatmaps(run: dict, title: str, alt: str, caption: str | None = None) -> str:
    """Per-head heatmaps on one sample stream; title is a template such as 'head {head}: {role}'."""
    x, _ = make_batch(1, seed=SAMPLE_SEED)
    roles = specialisation(run)[1]
    labels = [f"{i} {e}" for i, e in enumerate(event_names(x[0]))]
    titles = [title.format(head=i, role=fmt_offset(r)) for i, r in enumerate(roles)]
    return heatmap_grid(_weights(run, x)[0], labels, titles=titles, alt=alt, caption=caption, ncols=2, cell=0.26)


# --8<-- [start:heads_off]
@contextlib.contextmanager
def heads_off(model: nn.Module, keep: Sequence[bool]):
    """Zero the context of every head with keep[i] False, just before W_o (test-time head masking)."""
    attn = model.attn
    if len(keep) != attn.num_heads:
        raise ValueError(f"keep must have one flag per head ({attn.num_heads}), got {len(keep)}")
    gate = torch.tensor([float(k) for k in keep]).repeat_interleave(attn.d_k)  # (E,)

    def hook(module, args):
        return (args[0] * gate,)  # (N, L, E): merged heads, head i in features i*d_k ... (i+1)*d_k - 1

    handle = attn.W_o.register_forward_pre_hook(hook)
    try:
        yield model
    finally:
        handle.remove()
# --8<-- [end:heads_off]


def ablation(run: dict) -> list[tuple[str, int | None, dict]]:
    """Evaluate with all heads, with each head removed, and with each head alone: (kind, head, result) (cached)."""
    return _measured("ablation", run)


def _ablation(run: dict) -> list[tuple[str, int | None, dict]]:
    model = load_model(run)
    x, y = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    h = model.attn.num_heads
    out = [("all", None, evaluate(model, x, y))]
    for kind in ("without", "only"):
        for i in range(h):
            keep = [(j != i) if kind == "without" else (j == i) for j in range(h)]
            with heads_off(model, keep):
                out.append((kind, i, evaluate(model, x, y)))
    return out


def ablation_rows(run: dict, labels: dict[str, str]) -> list[list[str]]:
    """Ablation table; labels maps 'all', 'without', 'only' to row labels ('{}' is the head)."""
    if set(labels) != {"all", "without", "only"}:
        raise ValueError(f"labels must have keys 'all', 'without', 'only', got {sorted(labels)}")
    return [[labels[k].format(i), *[_pct(a) for a in res["acc_by_offset"]], _pct(res["accuracy"])]
            for k, i, res in ablation(run)]


def ablation_stats(run: dict) -> dict:
    """own_drop: mean accuracy lost on a head's own offset when it is removed; other_drop: the largest
    loss on any other offset; own_alone / other_alone: mean accuracy with the head alone, on its offset / the others."""
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
    return {"own_drop": float(np.mean(own_drop)), "other_drop": float(np.max(other_drop)),
            "own_alone": float(np.mean(own_alone)), "other_alone": float(np.mean(other_alone)),
            "n_roles": len(own_drop), "n_heads": len(roles)}


def pruning(run: dict) -> list[float]:
    """Remove heads one by one, least harmful first (by the accuracy lost when each is removed alone).
    Returns accuracy with h, h-1, …, 1 heads kept (cached)."""
    return _measured("pruning", run)


def _pruning(run: dict) -> list[float]:
    model = load_model(run)
    x, y = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    h = model.attn.num_heads
    alone = []
    for i in range(h):
        with heads_off(model, [j != i for j in range(h)]):
            alone.append(evaluate(model, x, y)["accuracy"])
    order = sorted(range(h), key=lambda i: -alone[i])  # highest accuracy without it = least needed
    keep = [True] * h
    accs = [evaluate(model, x, y)["accuracy"]]
    for i in order[:-1]:
        keep[i] = False
        with heads_off(model, keep):
            accs.append(evaluate(model, x, y)["accuracy"])
    return accs


def pruning_rows(runs: list[dict]) -> list[list[str]]:
    """Heads kept, then mean (min) accuracy over seeds for each head count in runs."""
    groups = _by_heads(runs)
    curves = {h: np.array([pruning(r) for r in rs]) for h, rs in groups.items()}  # (seeds, h)
    rows = []
    for kept in range(max(groups), 0, -1):
        row = [kept]
        for h, c in curves.items():
            row.append(f"{_pct(c[:, h - kept].mean())} ({_pct(c[:, h - kept].min())})" if kept <= h else "—")
        rows.append(row)
    return rows


def pruning_stats(runs: list[dict], tolerance: float = 0.01) -> dict:
    """removable_<h>: fewest heads removable in any seed while accuracy stays within tolerance of all heads;
    removable_max_<h>: the most, over seeds."""
    stats: dict = {"tolerance": tolerance}
    for h, rs in _by_heads(runs).items():
        counts = []
        for r in rs:
            accs = pruning(r)
            ok = [k for k, a in enumerate(accs) if a >= accs[0] - tolerance]
            counts.append(max(k for k in range(len(accs)) if all(j in ok for j in range(k + 1))))
        stats[f"removable_{h}"], stats[f"removable_max_{h}"] = min(counts), max(counts)
    return stats


def _analysis_version() -> str:
    """This module's source plus the trained code's version: editing either recomputes the measurements."""
    return hashlib.sha1(Path(__file__).read_bytes() + CODE_VERSION.encode()).hexdigest()[:12]


ANALYSIS_VERSION = _analysis_version()
_MEASURES = {"specialisation": _specialisation, "ablation": _ablation, "pruning": _pruning}


@memory.cache
def _measure_cached(kind: str, num_heads: int, seed: int, steps: int, batch_size: int, lr: float, d_model: int,
                    code: str):
    run = train_run(num_heads, seed, steps=steps, batch_size=batch_size, lr=lr, d_model=d_model)
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _MEASURES[kind](run)
    finally:
        torch.set_num_threads(old)


def _measured(kind: str, run: dict):
    keys = ("num_heads", "seed", "steps", "batch_size", "lr", "d_model")
    if not isinstance(run, dict) or not set(keys) <= set(run):
        raise ValueError(f"run must be a dict returned by train_run, got {type(run).__name__}")
    return _measure_cached(kind, *(run[k] for k in keys), code=ANALYSIS_VERSION)
