"""Train RecallModel on MQAR for each number of key/value heads, seeded; the accuracy on held-out sequences.

Training takes too long for a site build (see the page): ``python -m sitebuild.results recall`` runs the
sweep below and commits its results, with provenance, to results/kvheads-recall.json.

>>> r = train_recall(num_heads=8, num_kv_heads=2, num_pairs=4, seed=0, steps=2, eval_size=8)
>>> sorted(r)
['accuracy', 'batch_size', 'cpu_seconds', 'd_model', 'loss', 'lr', 'num_heads', 'num_kv_heads', 'num_pairs',
 'seed', 'steps']
"""

from __future__ import annotations

import time

import torch
from torch import nn

from .._checks import check_positive_int
from .recall import D_MODEL, IGNORE, RecallModel, make_recall_batch

__all__ = ["SWEEP", "EVAL_SEED", "train_recall", "sweep_jobs"]

EVAL_SEED = 987_654_321  # held-out sequences; training batches use seed * 1_000_003 + step

# What the committed results come from: h = 8 query heads, g = h, h/2, h/4, 1. The pairs run from easy to the
# hardest level at which MHA itself still learns the task in this budget (single MHA runs, seed 0: 98% held-out
# at 12 pairs; at 16 pairs one seed reached 89% and another stayed at 11%; 24 and 32 pairs stayed under 10%).
# Ten seeds: at 12 pairs a model either learns the task or stays near chance, and with five one seed moved
# an interval across 0.
SWEEP = {"num_heads": 8, "kv_heads": (8, 4, 2, 1), "pairs": (4, 8, 12), "seeds": tuple(range(10)),
         "steps": 1500, "batch_size": 32, "lr": 3e-3, "eval_size": 1000}


# --8<-- [start:train]
def _train(num_heads, num_kv_heads, num_pairs, seed, steps, batch_size, lr):
    torch.manual_seed(seed)  # initial weights
    model = RecallModel(num_heads, num_kv_heads)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.1)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    for step in range(steps):
        # fresh sequences every step, the same for every g at one seed
        x, y = make_recall_batch(batch_size, num_pairs,
                                 seed=seed * 1_000_003 + step)
        logits = model(x)  # (N, L, V)
        loss = nn.functional.cross_entropy(
            logits.flatten(0, 1), y.flatten(), ignore_index=IGNORE)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    return model
# --8<-- [end:train]


@torch.no_grad()
def accuracy(model: nn.Module, num_pairs: int, size: int) -> float:
    """Share of held-out queries whose value the model names."""
    model.eval()
    x, y = make_recall_batch(size, num_pairs, seed=EVAL_SEED)
    asked = y != IGNORE
    hit = (model(x).argmax(-1) == y) & asked
    return float(hit.sum() / asked.sum())


def train_recall(num_heads: int, num_kv_heads: int, num_pairs: int, seed: int, steps: int = SWEEP["steps"],
                 batch_size: int = SWEEP["batch_size"], lr: float = SWEEP["lr"],
                 eval_size: int = SWEEP["eval_size"]) -> dict:
    """Train one model on one thread; plain numbers: its held-out accuracy and the CPU seconds it took."""
    for name, v in (("steps", steps), ("batch_size", batch_size), ("eval_size", eval_size)):
        check_positive_int(v, name)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not lr > 0:
        raise ValueError(f"lr must be positive, got {lr!r}")
    RecallModel(num_heads, num_kv_heads)  # checks h and g before any training
    make_recall_batch(1, num_pairs, seed=0)  # checks num_pairs
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.process_time()
        model = _train(num_heads, num_kv_heads, num_pairs, seed, steps, batch_size, lr)
        x, y = make_recall_batch(batch_size, num_pairs, seed=seed * 1_000_003 + steps)
        with torch.no_grad():
            loss = float(nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten(), ignore_index=IGNORE))
        acc = accuracy(model, num_pairs, eval_size)
        seconds = time.process_time() - start
    finally:
        torch.set_num_threads(old)
    return {"num_heads": num_heads, "num_kv_heads": num_kv_heads, "num_pairs": num_pairs, "seed": seed,
            "steps": steps, "batch_size": batch_size, "lr": lr, "d_model": D_MODEL, "loss": loss,
            "accuracy": acc, "cpu_seconds": round(seconds, 2)}


def sweep_jobs(sweep: dict = SWEEP) -> list[tuple[int, int, int, int]]:
    """(h, g, num_pairs, seed) for every model of the sweep, the longest sequences first."""
    return [(sweep["num_heads"], g, n, s) for n in sorted(sweep["pairs"], reverse=True)
            for g in sweep["kv_heads"] for s in sweep["seeds"]]
