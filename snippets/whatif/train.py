"""Train the timeline model, seeded and cached on disk (keyed by the code and the arguments).

>>> r = train_run(num_heads=2, seed=0, steps=3)
>>> sorted(r)
['acc_by_offset', 'acc_curve', 'accuracy', 'batch_size', 'd_k', 'd_model', 'eval_every', 'ffn', 'layers', 'loss',
 'loss_curve', 'lr', 'num_heads', 'offsets', 'seconds', 'seed', 'state_dict', 'steps']
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

import numpy as np
import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_positive_int
from resultcache import fingerprint, memory
from .model import D_MODEL, StackModel, TimelineModel
from .task import IGNORE, OFFSETS, make_batch

__all__ = ["train_run", "train_runs", "evaluate", "load_model", "build_model", "EVAL_SEED", "EVAL_SIZE",
           "CURVE_SIZE", "STACK_D_K", "CODE_VERSION"]

log = logging.getLogger(__name__)

EVAL_SEED = 10_000  # held-out streams; training seeds are seed * 100_000 + step
EVAL_SIZE = 2048
CURVE_SIZE = 512  # held-out streams behind the learning curve (the first 512 of the held-out set)
STACK_D_K = 8


# Every project file this module imports, transitively, and the torch and numpy versions:
# editing any of them trains again.
CODE_VERSION = fingerprint([__name__])


@torch.no_grad()
def evaluate(model: nn.Module, x: Tensor, y: Tensor) -> dict:
    """Loss and accuracy over the targets that exist; accuracy per offset too."""
    model.eval()
    logits = model(x)  # (N, L, T, V)
    loss = nn.functional.cross_entropy(logits.flatten(0, 2), y.flatten(), ignore_index=IGNORE)
    valid = y != IGNORE  # (N, L, T)
    hit = (logits.argmax(-1) == y) & valid  # (N, L, T)
    by_offset = (hit.sum((0, 1)) / valid.sum((0, 1))).tolist()  # (T,)
    return {"loss": float(loss), "accuracy": float(hit.sum() / valid.sum()), "acc_by_offset": by_offset}


# --8<-- [start:train]
def _train(num_heads: int, seed: int, steps: int, batch_size: int,
           lr: float, d_model: int, layers: int | None = None,
           d_k: int | None = None, eval_every: int = 0,
           offsets: tuple[int, ...] = OFFSETS, ffn: int = 0,
           stop_when=None) -> dict:
    torch.manual_seed(seed)  # initial weights
    model = build_model(num_heads, d_model, layers, d_k, offsets, ffn)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    curve, acc_curve = [], []  # training loss; (step, held-out accuracy)
    x_eval, y_eval = make_batch(CURVE_SIZE, seed=EVAL_SEED, offsets=offsets)
    start = time.perf_counter()
    for step in range(steps):
        # fresh streams every step
        x, y = make_batch(batch_size, seed=seed * 100_000 + step,
                          offsets=offsets)
        logits = model(x)  # (N, L, T, V)
        loss = nn.functional.cross_entropy(
            logits.flatten(0, 2), y.flatten(), ignore_index=IGNORE)
        opt.zero_grad()
        loss.backward()
        opt.step()
        curve.append(loss.item())
        if eval_every and (step + 1) % eval_every == 0:
            acc = evaluate(model, x_eval, y_eval)["accuracy"]
            acc_curve.append((step + 1, acc))
            model.train()
            if stop_when is not None and stop_when(acc_curve):
                break  # e.g. a plateau: steps is then the most allowed
    seconds = time.perf_counter() - start
    held_out = make_batch(EVAL_SIZE, seed=EVAL_SEED, offsets=offsets)
    result = evaluate(model, *held_out)
    state = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    return {"num_heads": num_heads, "seed": seed, "steps": step + 1,
            "batch_size": batch_size, "lr": lr, "d_model": d_model,
            "layers": layers, "d_k": d_k or d_model // num_heads,
            "offsets": list(offsets), "ffn": ffn,
            "eval_every": eval_every, "acc_curve": acc_curve,
            "seconds": seconds, "loss_curve": curve, "state_dict": state,
            **result}
# --8<-- [end:train]


def build_model(num_heads: int, d_model: int = D_MODEL, layers: int | None = None,
                d_k: int | None = None, offsets: tuple[int, ...] = OFFSETS, ffn: int = 0) -> nn.Module:
    """layers None: the one-layer TimelineModel (d_k = d_model / h unless d_k is given); else a StackModel of
    that many pre-LN residual blocks with heads of width d_k (default 8), each followed by a feed-forward
    layer of hidden width ffn when ffn > 0. One classifier per offset."""
    if layers is None:
        if ffn:
            raise ValueError(f"the one-layer model has no feed-forward layer: expected ffn=0, got {ffn!r}")
        return TimelineModel(num_heads, d_model=d_model, n_targets=len(offsets), d_k=d_k)
    return StackModel(layers, num_heads, d_k=d_k or STACK_D_K, d_model=d_model, n_targets=len(offsets), ffn=ffn)


@memory.cache
def _train_cached(num_heads: int, seed: int, steps: int, batch_size: int, lr: float, d_model: int,
                  code: str, layers: int | None = None, d_k: int | None = None, eval_every: int = 0,
                  offsets: tuple[int, ...] = OFFSETS, ffn: int = 0) -> dict:
    old = torch.get_num_threads()
    torch.set_num_threads(1)  # a tiny model: one thread is fastest and leaves the other core free
    try:
        return _train(num_heads, seed, steps, batch_size, lr, d_model, layers, d_k, eval_every, offsets, ffn)
    finally:
        torch.set_num_threads(old)


def train_run(num_heads: int, seed: int, steps: int = 1000, batch_size: int = 64, lr: float = 3e-3,
              d_model: int = D_MODEL, layers: int | None = None, d_k: int | None = None,
              eval_every: int = 0, offsets: tuple[int, ...] = OFFSETS, ffn: int = 0) -> dict:
    """Train one model (or read it from the cache): plain floats, lists and numpy arrays.

    layers None is §4's one-layer model; layers = n a StackModel of n blocks with heads of width d_k.
    eval_every > 0 records held-out accuracy every that many steps (acc_curve)."""
    for name, v in (("steps", steps), ("batch_size", batch_size), ("d_model", d_model)):
        check_positive_int(v, name)
    if layers is None and d_k is None:
        check_divisible(d_model, num_heads)
    elif layers is None:
        check_positive_int(num_heads, "num_heads")
    else:
        check_positive_int(layers, "layers")
        check_positive_int(num_heads, "num_heads")
    if d_k is not None:
        check_positive_int(d_k, "d_k")
    if not isinstance(eval_every, int) or isinstance(eval_every, bool) or eval_every < 0:
        raise ValueError(f"eval_every must be a non-negative integer, got {eval_every!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not lr > 0:
        raise ValueError(f"lr must be positive, got {lr!r}")
    if layers is not None and d_k is None:
        d_k = STACK_D_K
    offsets = tuple(offsets) if isinstance(offsets, list) else offsets
    make_batch(1, 0, offsets=offsets)  # checks offsets
    if not isinstance(ffn, int) or isinstance(ffn, bool) or ffn < 0 or (ffn and layers is None):
        raise ValueError(f"ffn must be a non-negative integer, and 0 for the one-layer model, got {ffn!r}")
    extra = {k: v for k, v in (("layers", layers), ("d_k", d_k), ("eval_every", eval_every), ("ffn", ffn)) if v}
    if offsets != OFFSETS:
        extra["offsets"] = offsets
    if layers is None and d_k is not None and d_k * num_heads == d_model:
        extra.pop("d_k")  # the same model as without it: the same cache entry
    return _train_cached(num_heads, seed, steps, batch_size, float(lr), d_model, code=CODE_VERSION, **extra)


def train_runs(jobs: Sequence[tuple[int, int]], steps: int = 1000, workers: int | None = None) -> list[dict]:
    """train_run(num_heads, seed, steps) for each (num_heads, seed) in jobs, in that order.

    Runs not in the cache yet are independent, so they train in parallel, one process per core
    (workers, default os.cpu_count()), each on one thread: the results are the same as in one
    process. Progress goes to the log: "training 7/30 (h=4, seed 2), ~1.5 min left".
    """
    jobs = [tuple(j) for j in jobs]
    if not jobs or any(len(j) != 2 for j in jobs):
        raise ValueError(f"jobs must be a non-empty sequence of (num_heads, seed) pairs, got {jobs!r}")
    if workers is not None:
        check_positive_int(workers, "workers")
    for h, s in jobs:  # check every argument before starting any process
        check_divisible(D_MODEL, h)
        if not isinstance(s, int) or isinstance(s, bool) or s < 0:
            raise ValueError(f"seed must be a non-negative integer, got {s!r}")
    todo = [(h, s) for h, s in dict.fromkeys(jobs)
            if not _train_cached.check_call_in_cache(h, s, steps, 64, 3e-3, D_MODEL, code=CODE_VERSION)]
    if todo:
        start = time.perf_counter()
        for n, (h, s) in enumerate(_train_all(todo, steps, min(workers or os.cpu_count() or 1, len(todo))), 1):
            left = (time.perf_counter() - start) / n * (len(todo) - n)
            log.info("training %d/%d (h=%d, seed %d), ~%.1f min left", n, len(todo), h, s, left / 60)
    return [train_run(h, s, steps=steps) for h, s in jobs]  # all from the cache now


def _train_all(todo: list[tuple[int, int]], steps: int, workers: int):
    """Train each (num_heads, seed) into the cache; yield it when its run is there."""
    if workers == 1:
        for h, s in todo:
            train_run(h, s, steps=steps)
            yield h, s
        return
    # spawn: a fresh interpreter per worker, never a fork of a process whose torch threads are running
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(train_run, h, s, steps): (h, s) for h, s in todo}
        for future in as_completed(futures):
            future.result()
            yield futures[future]


def load_model(run: dict) -> nn.Module:
    """Rebuild a trained model from train_run's result, in eval mode."""
    if not isinstance(run, dict) or "state_dict" not in run:
        raise ValueError(f"run must be a dict returned by train_run, got {type(run).__name__}")
    state = run["state_dict"]
    model = build_model(run["num_heads"], state["event.weight"].shape[1], run.get("layers"), run.get("d_k"),
                        tuple(run.get("offsets", OFFSETS)), run.get("ffn", 0))
    model.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in state.items()})
    return model.eval()
