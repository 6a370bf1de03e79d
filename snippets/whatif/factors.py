"""The residual stacks of §4's per-layer ablation, trained at build, and the ablation itself.

Every run is train_run (the same task, data and optimiser as §4's sweep): pre-LN residual stacks of
layers x heads = 1x4, 2x2, 4x1 and 2x1, every head 8 wide, d_model = 32, 600 steps, five seeds. The
second round's sweeps (heads, width, heads x layers with and without a feed-forward layer) are committed
results (snippets.whatif.protocol, snippets.whatif.round2), not trained here.

Shape letters: N batch, layers n, h heads, L queries, S keys, O offsets, T targets.

>>> [(c["layers"], c["num_heads"]) for c in DEPTH]
[(1, 4), (2, 2), (4, 1), (2, 1)]
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from resultcache import fingerprint, memory
from .analysis import offset_shares
from .task import make_batch
from .train import EVAL_SEED, EVAL_SIZE, evaluate, load_model, train_run

__all__ = [
    "FACTOR_SEEDS", "DEPTH", "DEPTH_STEPS", "EVAL_EVERY", "TARGET", "config_label",
    "factor_runs", "layer_off", "layer_ablation", "layer_shares", "FACTORS_VERSION",
]

FACTOR_SEEDS = (0, 1, 2, 3, 4)
EVAL_EVERY = 25  # held-out accuracy every 25 steps: the learning curves of the depth sweep
TARGET = 0.95  # "learned": held-out accuracy at or above 95%
DEPTH_STEPS = 600  # every 4-head stack is past 95% by step 350 in 1000-step runs, and flat after

# train_run's arguments for each configuration
DEPTH = tuple({"layers": n, "num_heads": h, "d_k": 8, "eval_every": EVAL_EVERY, "steps": DEPTH_STEPS}
              for n, h in ((1, 4), (2, 2), (4, 1), (2, 1)))


def config_label(config: dict) -> str:
    """'2x1' for a stack (layers x heads), 'h=4, d_k=8' for the one-layer model."""
    _check_config(config)
    if config.get("layers"):
        return f"{config['layers']}x{config['num_heads']}"
    return f"h={config['num_heads']}, d_k={config['d_model'] // config['num_heads']}"


def _check_config(config: dict) -> None:
    if not isinstance(config, dict) or "num_heads" not in config:
        raise ValueError(f"config must be a dict of train_run arguments with num_heads, got {config!r}")


# --8<-- [start:factor_runs]
def factor_runs(configs: Sequence[dict],
                seeds: Sequence[int] = FACTOR_SEEDS) -> list[list[dict]]:
    """train_run(**config, seed=s) for every config and seed: one list
    of runs per config, seeds in order (cached; the build trains them
    up front, in parallel)."""
    _check_factor_runs(configs, seeds)
    return [[train_run(seed=s, **c) for s in seeds] for c in configs]
# --8<-- [end:factor_runs]


_ARGS = {"num_heads", "steps", "batch_size", "lr", "d_model", "layers", "d_k", "eval_every"}


def _check_factor_runs(configs: Sequence[dict], seeds: Sequence[int]) -> None:
    if not configs or not seeds:
        raise ValueError(f"configs and seeds must be non-empty, got configs={configs!r}, seeds={seeds!r}")
    for c in configs:
        if not isinstance(c, dict) or "num_heads" not in c or not set(c) <= _ARGS:
            raise ValueError(f"each config must be a dict of train_run arguments ({', '.join(sorted(_ARGS))}) "
                             f"with num_heads, got {c!r}")


# --8<-- [start:layer_off]
@contextlib.contextmanager
def layer_off(model: nn.Module, layer: int):
    """Zero every head of one block just before its W_o: that block then
    adds only W_o's bias to the residual stream."""
    block = model.blocks[layer]

    def hook(module, args):
        return (torch.zeros_like(args[0]),)  # (N, L, h * d_k)

    handle = block.W_o.register_forward_pre_hook(hook)
    try:
        yield model
    finally:
        handle.remove()
# --8<-- [end:layer_off]


def _stack(run: dict) -> nn.Module:
    if not isinstance(run, dict) or not run.get("layers"):
        raise ValueError(f"run must be a stack model's train_run result (layers >= 1), got "
                         f"{run.get('layers') if isinstance(run, dict) else type(run).__name__!r}")
    return load_model(run)


def _layer_ablation(run: dict) -> list[dict]:
    model = _stack(run)
    x, y = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    out = [evaluate(model, x, y)]
    for layer in range(len(model.blocks)):
        with layer_off(model, layer):
            out.append(evaluate(model, x, y))
    return out


@torch.no_grad()
def _layer_shares(run: dict) -> np.ndarray:
    model = _stack(run)
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    _, w = model(x, need_weights=True)  # (N, n, h, L, L)
    return np.stack([offset_shares(w[:, i]).numpy() for i in range(w.shape[1])])  # (n, h, O)


def layer_ablation(run: dict) -> list[dict]:
    """evaluate() with every block, then with each block's heads zeroed in turn: n + 1 results (cached)."""
    return _measured("layer_ablation", run)


def layer_shares(run: dict) -> np.ndarray:
    """Each block's heads' mean attention on the key at query + offset, offsets SHARE_OFFSETS: (n, h, O)
    (cached)."""
    return _measured("layer_shares", run)


FACTORS_VERSION = fingerprint([__name__])
_MEASURES = {"layer_ablation": _layer_ablation, "layer_shares": _layer_shares}
_KEYS = ("num_heads", "seed", "steps", "batch_size", "lr", "d_model", "layers", "d_k", "eval_every")


@memory.cache
def _measure_cached(kind: str, args: tuple, code: str):
    run = train_run(**dict(zip(_KEYS, args)))
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _MEASURES[kind](run)
    finally:
        torch.set_num_threads(old)


def _measured(kind: str, run: dict):
    _stack(run)
    return _measure_cached(kind, tuple(run[k] for k in _KEYS), code=FACTORS_VERSION)


