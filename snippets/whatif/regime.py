"""What-if 2 in the source's regime: heads of d_k = 8, trained on a small fixed set that can be memorised.

The sweep trains on fresh streams every step, where there is nothing to memorise. Fitting noise
needs a finite training set, so here every step samples from one fixed pool of streams; the
model is the same TimelineModel, wider (d_model = 64), with 4 heads (d_k = 16) or 8 (d_k = 8).

>>> r = train_fixed(num_heads=8, seed=0, steps=2, pool=8)
>>> r["d_model"] // r["num_heads"], sorted(r["train"]), sorted(r["held_out"])
(8, ['acc_by_offset', 'accuracy', 'loss'], ['acc_by_offset', 'accuracy', 'loss'])
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from resultcache import fingerprint, memory

from .._checks import check_divisible, check_positive_int
from .model import TimelineModel
from .task import IGNORE, make_batch
from .train import EVAL_SEED, EVAL_SIZE, evaluate

__all__ = ["REGIME_D_MODEL", "REGIME_HEADS", "REGIME_SEEDS", "POOL", "train_fixed", "train_fixed_uncached", "regime_sweep", "regime_rows",
           "regime_stats"]

REGIME_D_MODEL = 64
REGIME_HEADS = (4, 8)  # d_k = 16 and 8
REGIME_SEEDS = (0, 1, 2)
POOL = 64  # training streams, reused at every step
STEPS = 400
POOL_SEED = 99_999  # + seed * 100_000: never one of the sweep's step seeds nor EVAL_SEED


# --8<-- [start:fixed_pool]
def _train_fixed(num_heads: int, seed: int, steps: int, pool: int,
                 d_model: int, batch_size: int = 64, lr: float = 3e-3):
    torch.manual_seed(seed)
    model = TimelineModel(num_heads, d_model=d_model)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    X, Y = make_batch(pool, seed=seed * 100_000 + POOL_SEED)  # all the data
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        idx = torch.randint(pool, (batch_size,), generator=g)  # reused
        logits = model(X[idx])  # (N, L, T, V)
        loss = nn.functional.cross_entropy(
            logits.flatten(0, 2), Y[idx].flatten(), ignore_index=IGNORE)
        opt.zero_grad()
        loss.backward()
        opt.step()
    held_out = make_batch(EVAL_SIZE, seed=EVAL_SEED)  # never trained on
    return evaluate(model, X, Y), evaluate(model, *held_out)
# --8<-- [end:fixed_pool]


def _version() -> str:
    """Cache key: this module and everything it imports (the model, the task, training)."""
    return fingerprint([__name__])


@memory.cache
def _train_fixed_cached(num_heads: int, seed: int, steps: int, pool: int, d_model: int, code: str) -> dict:
    return train_fixed_uncached(num_heads, seed, steps, pool, d_model)


def train_fixed_uncached(num_heads: int, seed: int, steps: int = STEPS, pool: int = POOL,
                         d_model: int = REGIME_D_MODEL) -> dict:
    """train_fixed without the cache, on one thread."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.perf_counter()
        train, held_out = _train_fixed(num_heads, seed, steps, pool, d_model)
        return {"num_heads": num_heads, "seed": seed, "steps": steps, "pool": pool, "d_model": d_model,
                "seconds": time.perf_counter() - start, "train": train, "held_out": held_out}
    finally:
        torch.set_num_threads(old)


def train_fixed(num_heads: int, seed: int, steps: int = STEPS, pool: int = POOL,
                d_model: int = REGIME_D_MODEL) -> dict:
    """Train on a fixed pool of streams (cached); loss and accuracy on that pool and on held-out streams."""
    for name, v in (("steps", steps), ("pool", pool)):
        check_positive_int(v, name)
    check_divisible(d_model, num_heads)
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return _train_fixed_cached(num_heads, seed, steps, pool, d_model, code=_version())


def regime_sweep(heads: Sequence[int] = REGIME_HEADS, seeds: Sequence[int] = REGIME_SEEDS) -> list[dict]:
    """One train_fixed per (heads, seed)."""
    if not heads or not seeds:
        raise ValueError(f"heads and seeds must be non-empty, got heads={heads!r}, seeds={seeds!r}")
    return [train_fixed(h, s) for h in heads for s in seeds]


def _groups(runs: list[dict]) -> dict[int, list[dict]]:
    if not isinstance(runs, list) or not runs or not all(isinstance(r, dict) and "held_out" in r for r in runs):
        raise ValueError("runs must be a non-empty list of train_fixed results")
    groups: dict[int, list[dict]] = {}
    for r in runs:
        groups.setdefault(r["num_heads"], []).append(r)
    return dict(sorted(groups.items()))


def regime_rows(runs: list[dict]) -> list[list[object]]:
    """Per head count: h, d_k, training-set loss and accuracy, held-out loss and accuracy (mean, lowest–highest)."""
    rows = []
    for h, rs in _groups(runs).items():
        def col(part, key, rs=rs):
            return np.array([r[part][key] for r in rs])
        tr_loss, tr_acc, ho_loss, ho_acc = col("train", "loss"), col("train", "accuracy"), \
            col("held_out", "loss"), col("held_out", "accuracy")
        rows.append([h, rs[0]["d_model"] // h, f"{tr_loss.mean():.3f}", f"{100 * tr_acc.mean():.1f}%",
                     f"{ho_loss.mean():.2f} ({ho_loss.min():.2f} – {ho_loss.max():.2f})",
                     f"{100 * ho_acc.mean():.1f}% ({100 * ho_acc.min():.1f}% – {100 * ho_acc.max():.1f}%)"])
    return rows


def regime_stats(runs: list[dict], verdicts: tuple[str, str, str]) -> dict:
    """Numbers for the page: pool, steps, d_model, n_seeds, seconds, per h lo_<h> / hi_<h> (held-out accuracy)
    and train_<h> (mean training-set accuracy); verdict compares the fewest and the most heads' held-out ranges:
    verdicts[0] if the most heads are lower in every seed, [1] if higher in every seed, else [2] (ranges overlap)."""
    if len(verdicts) != 3:
        raise ValueError(f"verdicts must be (worse, better, overlap), got {verdicts!r}")
    groups = _groups(runs)
    stats: dict = {"pool": runs[0]["pool"], "steps": runs[0]["steps"], "d_model": runs[0]["d_model"],
                   "n_seeds": len(next(iter(groups.values()))), "seconds": sum(r["seconds"] for r in runs)}
    for h, rs in groups.items():
        acc = [r["held_out"]["accuracy"] for r in rs]
        stats.update({f"lo_{h}": min(acc), f"hi_{h}": max(acc), f"d_k_{h}": rs[0]["d_model"] // h,
                      f"train_{h}": float(np.mean([r["train"]["accuracy"] for r in rs]))})
    few, many = min(groups), max(groups)
    if stats[f"hi_{many}"] < stats[f"lo_{few}"]:
        stats["verdict"] = verdicts[0]
    elif stats[f"lo_{many}"] > stats[f"hi_{few}"]:
        stats["verdict"] = verdicts[1]
    else:
        stats["verdict"] = verdicts[2]
    stats.update({"few": few, "many": many})
    return stats
