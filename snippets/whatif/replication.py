"""§4 on ten more seeds: the settings whose page readings rest on counts of seeds, trained again on seeds
that no run of the site had used, with the protocol's training unchanged. Fixed here before any of its runs.

Why: the second round's readings such as "every seed past 95%" or "3 x 1 scores higher on 8 of 10 seeds" are
counts over ten seeds, and a count over ten seeds can move when the seeds change. A re-run of §4 on seeds the
site had not used (90-99) moved some of them: two layers of one head with a feed-forward layer passed 95% on
9 of 10 seeds, not all; three layers of one head beat one layer of three on every seed, where the committed
seeds had the mean the other way; the first round's 16-head models had no head to spare. This module repeats
such a check with the site's own code and commits it, so the page can print both sets of seeds side by side.

- SEEDS = 10-19 for the second round's settings (its seeds were 0-9); FIRST_SEEDS = 10-14 for the first
  round (its seeds were 0-4).
- SETTINGS: per sweep of snippets.whatif.protocol, the configurations trained again: the head counts around
  each threshold the page reads (4 lookups: 2-4 heads; 6 lookups: 4-6; d_model 120: 3-5), the stacks of the
  feed-forward comparison and of exercise 3, and the source's regime (4 and 8 heads).
- FIRST_HEADS: the first round's 8- and 16-head models, for pruning.
- Everything else is the protocol's: steps, stopping rule, bar (LEARNED), minimum, statistics.

>>> len(jobs()), len(SETTINGS), len(SEEDS)
(180, 17, 10)
>>> [SWEEPS[s][i]["num_heads"] for s, i in SETTINGS if s == "fixed_dk"]
[2, 3, 4]
"""

from __future__ import annotations

import time

import numpy as np
import torch

from .protocol import EVAL_EVERY, FFN, MAX_STEPS, OFFSETS_6, SWEEPS, converged, plateau
from .regime import train_fixed_uncached
from .task import OFFSETS
from .train import _train

__all__ = ["SEEDS", "FIRST_SEEDS", "FIRST_HEADS", "SETTINGS", "jobs", "run_one"]

SEEDS = tuple(range(10, 20))
FIRST_SEEDS = tuple(range(10, 15))
FIRST_HEADS = (8, 16)


def _index(sweep: str, **config) -> int:
    """The position of a configuration in the protocol's sweep (so a setting here is one of the protocol's)."""
    for i, c in enumerate(SWEEPS[sweep]):
        if all(c.get(k, v if k != "offsets" else OFFSETS) == v for k, v in config.items()):
            return i
    raise ValueError(f"expected a configuration of sweep {sweep!r}, got {config!r}")


SETTINGS = tuple(
    [("fixed_dk", _index("fixed_dk", num_heads=h)) for h in (2, 3, 4)]
    + [("offsets_6", _index("offsets_6", num_heads=h, offsets=OFFSETS_6)) for h in (4, 5, 6)]
    + [("fixed_dmodel", _index("fixed_dmodel", num_heads=h)) for h in (3, 4, 5)]
    + [("phase", _index("phase", layers=n, num_heads=h, ffn=f))
       for n, h, f in ((1, 1, FFN), (2, 1, 0), (2, 1, FFN), (1, 3, 0), (3, 1, 0), (1, 3, FFN))]
    + [("regime", i) for i in range(2)])


def jobs() -> list[tuple[str, int, int]]:
    """Every (sweep, config index, seed): the second round's settings on SEEDS, then the first round's
    head counts (sweep "first", index = heads) on FIRST_SEEDS."""
    return ([(s, i, seed) for s, i in SETTINGS for seed in SEEDS]
            + [("first", h, seed) for h in FIRST_HEADS for seed in FIRST_SEEDS])


def run_one(sweep: str, index: int, seed: int) -> dict:
    """Train one model as snippets.whatif.protocol.run_one does (or, for sweep "first", as the first round's
    train_run does, with its pruning curve), on one thread; return what the result keeps."""
    if (sweep, index, seed) not in set(jobs()):
        raise ValueError(f"expected a job of the replication (see jobs()), got {(sweep, index, seed)!r}")
    return _run(sweep, index, seed)


def _run(sweep: str, index: int, seed: int) -> dict:
    """run_one without the check of the seed (a test trains a committed seed with it and compares)."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.process_time()
        if sweep == "first":
            from .analysis import pruning
            from .train import train_run

            r = train_run(index, seed)
            out = {"accuracy": r["accuracy"], "pruning": [float(a) for a in pruning(r)]}
        elif sweep == "regime":
            r = train_fixed_uncached(SWEEPS[sweep][index]["num_heads"], seed)
            out = {"train_accuracy": r["train"]["accuracy"], "accuracy": r["held_out"]["accuracy"]}
        else:
            config = {"layers": None, "d_k": None, **SWEEPS[sweep][index]}
            config["offsets"] = tuple(config.get("offsets", OFFSETS))
            r = _train(seed=seed, steps=MAX_STEPS, batch_size=64, lr=3e-3, eval_every=EVAL_EVERY,
                       stop_when=plateau, **config)
            out = {"accuracy": r["accuracy"], "steps": r["steps"], "converged": converged(r["acc_curve"]),
                   "acc_by_offset": [float(a) for a in np.asarray(r["acc_by_offset"])]}
        out["cpu_seconds"] = round(time.process_time() - start, 1)
        return {"sweep": sweep, "index": index, "seed": seed, **out}
    finally:
        torch.set_num_threads(old)
