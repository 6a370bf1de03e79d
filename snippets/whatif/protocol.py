"""§4's second round of experiments: the protocol, fixed in code before any of its runs.

Every sweep below was written down, with its grid, seeds, steps and rules, and committed before a single
model of it was trained; the results are in results/whatif-sweeps.json (``python -m sitebuild.results
whatif``, about an hour on 2 cores), and a page that prints them prints this protocol too.

- Seeds 0-9 for every setting (10 seeds; the first round used 3 to 5).
- Every model trains on fresh streams, as in the first round, until it reaches a plateau or MAX_STEPS
  = 2000 Adam steps. Held-out accuracy on 512 streams is recorded every 100 steps; from step
  MIN_STEPS = 1000 on, training stops at the first record where that accuracy rose by less than half a
  point over the last 300 steps (the plateau). Runs that reach MAX_STEPS without a plateau are listed on
  the page: they were still learning when the budget ran out. (A plateau is not a proof that a model
  would never learn later.)
- A seed has learned the task when its held-out accuracy reaches LEARNED = 95%.
- Comparisons are paired by seed with snippets.stats (Student's t interval, Holm-corrected over each
  family), and a difference under MINIMUM = 1 point of accuracy is called negligible, never "real".

The sweeps (one-layer models are §4's TimelineModel; "stacks" are pre-LN residual blocks):

- fixed_dk: one layer, heads of d_k = 8, h = 1 ... 8 (d_model = 8h), the 4 offsets of §4.
- fixed_dmodel: one layer, d_model = 120 (divisible by 1 ... 6 and 8), h in 1, 2, 3, 4, 5, 6, 8.
- offsets_2 / offsets_6: fixed_dk's models on the task with 2 offsets (-1, +1), h = 1 ... 4, and with
  6 offsets (-3 ... +3), h = 1 ... 8: does the number of heads needed follow the number of lookups?
- width: one layer, d_model = 32 and h = 4 fixed, d_k in 1, 2, 4, 8, 16 (the head width set apart from
  d_model; the first round tied them, d_model = 4 d_k).
- phase: stacks of 1-4 layers x 1-4 heads of d_k = 8, d_model = 32, with no feed-forward layer and with
  one of hidden width 128 = 4 d_model (as in a Transformer) after every attention layer (FFN).
- regime: the source's regime, limited data (snippets.whatif.regime: a fixed pool of 64 streams,
  400 steps, d_model = 64), 4 heads of d_k = 16 against 8 of d_k = 8.

>>> sum(len(c) for c in SWEEPS.values()) * len(SEEDS)
660
>>> len(jobs()), jobs()[0][:2]
(660, ('phase', 28))
"""

from __future__ import annotations

import base64
import time

import numpy as np
import torch

from .regime import train_fixed_uncached
from .task import OFFSETS
from .train import CURVE_SIZE, EVAL_SEED, _train

__all__ = ["SEEDS", "MIN_STEPS", "MAX_STEPS", "EVAL_EVERY", "PLATEAU_WINDOW", "PLATEAU_GAIN", "LEARNED", "MINIMUM", "FFN",
           "OFFSETS_2", "OFFSETS_6", "SWEEPS", "LAB_MODELS", "jobs", "run_one", "converged", "plateau", "params_of",
           "encode_state", "decode_state"]

# --8<-- [start:protocol]
SEEDS = tuple(range(10))
MIN_STEPS, MAX_STEPS = 1000, 2000
EVAL_EVERY = 100  # held-out accuracy on 512 streams, for the learning curve
PLATEAU_WINDOW, PLATEAU_GAIN = 300, 0.005  # plateau: < 0.5 point gain in 300 steps
LEARNED = 0.95  # a seed has learned the task at 95% held-out accuracy
MINIMUM = 0.01  # a difference under 1 point of accuracy is negligible
FFN = 128  # hidden width of the feed-forward layer: 4 d_model, as in a Transformer
OFFSETS_2, OFFSETS_6 = (-1, 1), (-3, -2, -1, 1, 2, 3)

SWEEPS = {
    "fixed_dk": [dict(num_heads=h, d_model=8 * h) for h in range(1, 9)],
    "fixed_dmodel": [dict(num_heads=h, d_model=120)
                     for h in (1, 2, 3, 4, 5, 6, 8)],
    "offsets_2": [dict(num_heads=h, d_model=8 * h, offsets=OFFSETS_2)
                  for h in range(1, 5)],
    "offsets_6": [dict(num_heads=h, d_model=8 * h, offsets=OFFSETS_6)
                  for h in range(1, 9)],
    "width": [dict(num_heads=4, d_model=32, d_k=d_k)
              for d_k in (1, 2, 4, 8, 16)],
    "phase": [dict(layers=n, num_heads=h, d_k=8, d_model=32, ffn=f)
              for f in (0, FFN) for n in range(1, 5) for h in range(1, 5)],
    "regime": [dict(num_heads=h, regime=True) for h in (4, 8)],
}
# --8<-- [end:protocol]

# (sweep, config index, seed) whose trained weights the results keep, for the browser lab
LAB_MODELS = (("fixed_dk", 2, 0), ("phase", 16, 0), ("phase", 17, 0))  # h=3; 1x1 and 1x2 with FFN


def _cost(sweep: str, i: int) -> float:
    c = SWEEPS[sweep][i]
    if c.get("regime"):
        return 0.3
    return c.get("layers", 1) * (1.3 if c.get("ffn") else 1.0) + 0.5


def jobs() -> list[tuple[str, int, int]]:
    """Every (sweep, config index, seed), longest first (so two workers finish together)."""
    out = [(name, i, s) for name, configs in SWEEPS.items() for i in range(len(configs)) for s in SEEDS]
    return sorted(out, key=lambda j: -_cost(j[0], j[1]))


def plateau(acc_curve: list) -> bool:
    """The stopping rule: a plateau reached at or after MIN_STEPS."""
    return acc_curve[-1][0] >= MIN_STEPS and converged(acc_curve)


def converged(acc_curve: list) -> bool:
    """The plateau rule: held-out accuracy rose by less than PLATEAU_GAIN over the last PLATEAU_WINDOW steps.

    >>> converged([(700, 0.90), (800, 0.95), (900, 0.95), (1000, 0.951)]), converged([(700, 0.5), (1000, 0.6)])
    (False, False)
    >>> converged([(700, 0.949), (1000, 0.951)])
    True
    """
    if not acc_curve:
        raise ValueError("expected a learning curve of (step, accuracy) pairs, got an empty one")
    last_step, last = acc_curve[-1]
    before = [a for s, a in acc_curve if s <= last_step - PLATEAU_WINDOW]
    if not before:
        raise ValueError(f"the curve must reach back {PLATEAU_WINDOW} steps before its end, got {acc_curve!r}")
    return last - before[-1] < PLATEAU_GAIN


def params_of(state: dict) -> int:
    return int(sum(np.asarray(v).size for v in state.values()))


def encode_state(state: dict) -> dict:
    """A state dict as JSON: per tensor its shape and its float32 bytes in base64 (exact)."""
    return {k: {"shape": list(np.asarray(v).shape),
                "f32": base64.b64encode(np.ascontiguousarray(v, dtype="<f4").tobytes()).decode("ascii")}
            for k, v in state.items()}


def decode_state(enc: dict) -> dict:
    return {k: torch.from_numpy(np.frombuffer(base64.b64decode(v["f32"]), dtype="<f4").reshape(v["shape"]).copy())
            for k, v in enc.items()}


@torch.no_grad()
def _offset_profile(run: dict, offsets=range(-3, 4)) -> list[list[float]]:
    """Per head of a one-layer model: mean attention a query puts on the position at each offset."""
    from .train import load_model
    from .task import make_batch

    model = load_model(run)
    x, _ = make_batch(CURVE_SIZE, seed=EVAL_SEED, offsets=tuple(run["offsets"]))
    _, w = model(x, need_weights=True)  # (N, h, L, L)
    w = w.mean(0)  # (h, L, L)
    L = w.shape[-1]
    out = []
    for head in w:
        row = []
        for o in offsets:
            i = torch.arange(max(0, -o), min(L, L - o))
            row.append(float(head[i, i + o].mean()))
        out.append(row)
    return out


def run_one(sweep: str, index: int, seed: int) -> dict:
    """Train one model of the protocol, on one thread, and return what the results keep of it."""
    if sweep not in SWEEPS or not 0 <= index < len(SWEEPS[sweep]):
        raise ValueError(f"expected a sweep of {sorted(SWEEPS)} and an index into it, got {sweep!r}, {index!r}")
    if seed not in SEEDS:
        raise ValueError(f"seed must be one of the protocol's seeds {SEEDS}, got {seed!r}")
    config = dict(SWEEPS[sweep][index])
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.process_time()
        if config.pop("regime", False):
            r = train_fixed_uncached(config["num_heads"], seed)
            out = {"train_accuracy": r["train"]["accuracy"], "train_loss": r["train"]["loss"],
                   "accuracy": r["held_out"]["accuracy"], "loss": r["held_out"]["loss"],
                   "acc_by_offset": r["held_out"]["acc_by_offset"], "d_model": r["d_model"]}
        else:
            r = _train(seed=seed, steps=MAX_STEPS, batch_size=64, lr=3e-3, eval_every=EVAL_EVERY, stop_when=plateau,
                       **{"layers": None, "d_k": None, **config,
                          "offsets": tuple(config.get("offsets", OFFSETS))})
            out = {k: r[k] for k in ("accuracy", "loss", "acc_by_offset", "acc_curve", "d_k", "d_model", "steps")}
            out["train_loss_last50"] = float(np.mean(r["loss_curve"][-50:]))
            out["converged"] = converged(r["acc_curve"])
            out["params"] = params_of(r["state_dict"])
            if not config.get("layers"):
                out["offset_profile"] = _offset_profile(r)
            if (sweep, index, seed) in LAB_MODELS:
                out["state_dict"] = encode_state(r["state_dict"])
        out["cpu_seconds"] = round(time.process_time() - start, 1)
        return {"sweep": sweep, "index": index, "seed": seed, **out}
    finally:
        torch.set_num_threads(old)
