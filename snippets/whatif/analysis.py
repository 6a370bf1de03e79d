"""Measurements on trained timeline models: the head sweep, offset shares, head ablation and pruning.

Measurements are cached on disk like the training runs; report.py turns them into tables,
sentences and figures, so editing the presentation never recomputes them.

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
from collections.abc import Sequence

import numpy as np
import torch
from torch import Tensor, nn

from resultcache import fingerprint, memory
from .model import D_MODEL
from .task import make_batch
from .train import EVAL_SEED, EVAL_SIZE, evaluate, load_model, train_run, train_runs

__all__ = [
    "HEADS", "SEEDS", "SHARE_OFFSETS", "sweep", "offset_shares", "head_roles", "attention_maps",
    "specialisation", "heads_off", "ablation", "pruning", "ANALYSIS_VERSION",
]

HEADS = (1, 2, 4, 8, 16, D_MODEL)  # d_k = 32, 16, 8, 4, 2, 1
SEEDS = (0, 1, 2, 3, 4)
SHARE_OFFSETS = (-2, -1, 0, 1, 2)


# --8<-- [start:sweep]
def sweep(heads: Sequence[int] = HEADS, seeds: Sequence[int] = SEEDS,
          steps: int = 1000) -> list[dict]:
    """One train_run per (heads, seed), trained in parallel; from the
    disk cache after the first build."""
    _check_sweep(heads, seeds)
    runs = [(h, s) for h in heads for s in seeds]
    return train_runs(runs, steps=steps)
# --8<-- [end:sweep]


def _check_sweep(heads: Sequence[int], seeds: Sequence[int]) -> None:
    if not heads or not seeds:
        raise ValueError(f"heads and seeds must be non-empty, got heads={heads!r}, seeds={seeds!r}")


# --8<-- [start:offset_shares]
def offset_shares(weights, offsets: Sequence[int] = SHARE_OFFSETS) -> Tensor:
    """Each head's mean attention on the key at query + offset: (h, O).

    weights is (N, h, L, S) or (h, L, S) with L == S (self-attention).
    Only queries whose every offset lands inside the sequence count,
    so all columns average the same queries.
    """
    w = torch.as_tensor(weights, dtype=torch.float64)
    if w.dim() == 3:
        w = w.unsqueeze(0)  # (1, h, L, S)
    _check_shares_input(w, offsets)
    L = w.shape[-1]
    lo, hi = max(0, -min(offsets)), L - max(0, max(offsets))
    queries = torch.arange(lo, hi)  # (Q,)
    # O x (h,)
    cols = [w[:, :, queries, queries + o].mean(dim=(0, 2)) for o in offsets]
    return torch.stack(cols, dim=1)  # (h, O)
# --8<-- [end:offset_shares]


def _check_shares_input(w: Tensor, offsets: Sequence[int]) -> None:
    if w.dim() != 4 or w.shape[-1] != w.shape[-2]:
        raise ValueError(f"weights must be (N, h, L, L) or (h, L, L), got shape {tuple(w.shape)}")
    if not offsets:
        raise ValueError("offsets must be a non-empty sequence of integers, got an empty one")
    L = w.shape[-1]
    if L - max(0, max(offsets)) <= max(0, -min(offsets)):
        raise ValueError(f"no query has all offsets {tuple(offsets)} inside a sequence of length {L}")


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
def attention_maps(run: dict, x: Tensor) -> Tensor:
    """Per-head attention of a trained run on streams x (N, L): (N, h, L, L)."""
    _, w = load_model(run)(x, need_weights=True)
    return w  # (N, h, L, L)


def _specialisation(run: dict) -> tuple[np.ndarray, list[int | None]]:
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    shares = offset_shares(attention_maps(run, x))
    return shares.numpy(), head_roles(shares)


def specialisation(run: dict) -> tuple[np.ndarray, list[int | None]]:
    """Offset shares (h, O) on the held-out streams, and each head's role (cached)."""
    return _measured("specialisation", run)


# --8<-- [start:heads_off]
@contextlib.contextmanager
def heads_off(model: nn.Module, keep: Sequence[bool]):
    """Zero the context of every head with keep[i] False, just before W_o
    (test-time head masking)."""
    attn = model.attn
    _check_keep(attn, keep)
    gate = torch.tensor([float(k) for k in keep])  # (h,)
    gate = gate.repeat_interleave(attn.d_k)  # (E,): d_k copies per head

    def hook(module, args):
        # (N, L, E): merged heads, head i in features i*d_k ... (i+1)*d_k-1
        return (args[0] * gate,)

    handle = attn.W_o.register_forward_pre_hook(hook)
    try:
        yield model
    finally:
        handle.remove()
# --8<-- [end:heads_off]


def _check_keep(attn: nn.Module, keep: Sequence[bool]) -> None:
    if len(keep) != attn.num_heads:
        raise ValueError(f"keep must have one flag per head ({attn.num_heads}), got {len(keep)}")


def ablation(run: dict) -> list[tuple[str, int | None, dict]]:
    """Evaluate with all heads, with each head removed, and with each head alone: (kind, head, result) (cached)."""
    return _measured("ablation", run)


def _ablation(run: dict) -> list[tuple[str, int | None, dict]]:
    model = load_model(run)
    x, y = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    h = model.attn.num_heads
    out = [("all", None, evaluate(model, x, y))]
    out += [("without", i, r) for i, r in enumerate(_measured("without", run))]
    for i in range(h):
        with heads_off(model, [j == i for j in range(h)]):
            out.append(("only", i, evaluate(model, x, y)))
    return out


def _without(run: dict) -> list[dict]:
    """Evaluation with each head removed in turn (ablation and pruning both start from it)."""
    model = load_model(run)
    x, y = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    h = model.attn.num_heads
    out = []
    for i in range(h):
        with heads_off(model, [j != i for j in range(h)]):
            out.append(evaluate(model, x, y))
    return out


def pruning(run: dict) -> list[float]:
    """Remove heads one by one, least harmful first (by the accuracy lost when each is removed alone).
    Returns accuracy with h, h-1, …, 1 heads kept (cached)."""
    return _measured("pruning", run)


def _pruning(run: dict) -> list[float]:
    model = load_model(run)
    x, y = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    h = model.attn.num_heads
    alone = [r["accuracy"] for r in _measured("without", run)]
    order = sorted(range(h), key=lambda i: -alone[i])  # highest accuracy without it = least needed
    keep = [True] * h
    accs = [evaluate(model, x, y)["accuracy"]]
    for i in order[:-1]:
        keep[i] = False
        with heads_off(model, keep):
            accs.append(evaluate(model, x, y)["accuracy"])
    return accs


ANALYSIS_VERSION = fingerprint([__name__])  # this module and all it imports, training included
_MEASURES = {"specialisation": _specialisation, "ablation": _ablation, "pruning": _pruning, "without": _without}


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
