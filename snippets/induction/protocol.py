"""The induction heads experiment: the protocol, fixed in code before any of its runs.

Results: results/induction.json (``python -m sitebuild.results induction``).

- Task (snippets.induction.task): T = 48 tokens drawn uniformly from 64 ids; the last 2L are a segment
  written twice, L uniform in 6..24 per sequence. The next token is predictable at L - 1 positions of
  the second copy; everywhere else it is random (about log 64 = 4.16 nats at best).
- Models (snippets.induction.model): attention-only, d_model = 64, 16 dimensions per head, learned
  absolute positions, no MLP, no LayerNorm, no biases. SETTINGS: 1 layer x 4 heads (the contrast: one
  layer cannot look up "the token after the last occurrence of this one"), 2 layers x 1 head (the
  smallest model that can), 2 layers x 4 heads.
- Training: seeds 0-9 for every setting (seed s sets the initial weights and the batches, the same
  batches for every setting); STEPS AdamW steps at a constant lr 1e-3 (weight decay 0.01), batch 64,
  fresh sequences every step, loss on every next token. No early stopping. Every EVAL_EVERY steps,
  on a fixed held-out batch of 256 sequences: the loss on the predictable and on the random targets,
  every head's previous-token and prefix-matching scores, and the context mass.
- How STEPS and the thresholds were chosen: from one pilot run of each setting on seed 100, which the
  experiment does not use (``PILOT`` lists all three, in the order they ran). In the pilots the
  predictable loss of both 2-layer models fell from about 4 nats to below 2 between steps 2,250 and
  2,750, and 1 layer x 4 heads stayed above 3.5 nats for 5,000 steps; STEPS = 6,000 gives a seed whose
  drop comes later than the pilots' about twice their time. No run on seeds 0-9 was made before this
  file was committed.
- Outcomes, on a held-out batch of EVAL_SIZE sequences at the end of training:
  1. Depth: the predictable loss of each 2-layer setting against 1 layer x 4 heads, paired by seed;
     Student's t intervals, Holm-corrected over the 2 comparisons; a difference under MINIMUM nats is
     negligible. A seed has formed an induction circuit when its final predictable loss is below FORMED
     nats; its phase change is the first evaluated step at which the predictable loss is below PHASE.
  2. Causes, in each 2-layer setting: the predictable loss with a head ablated (zeroed), and with the
     previous-token head's output cut from the second layer's keys (K-composition), queries or values
     only, against the intact model, paired by seed, Holm over the family of each setting. In the
     4-head model the previous-token head is, per seed, the layer-0 head with the highest
     previous-token score, the induction head the layer-1 head with the highest prefix-matching score;
     the family adds "all four layer-0 heads cut from the keys".
  3. What one layer learns instead: the 1-layer model's context mass at the end against at step 0,
     paired by seed.
- Statistics: snippets.stats only.

>>> len(jobs()), jobs()[0]
(30, (2, 4, 0))
>>> [setting_label(*s) for s in SETTINGS]
['1 layer x 4 heads', '2 layers x 1 head', '2 layers x 4 heads']
"""

from __future__ import annotations

import time

import torch

from .model import count_parameters
from .task import SEQ_LEN, make_repeat_batch
from .train import EVAL_SEED, head_scores, losses, train_induction

__all__ = ["SETTINGS", "SEEDS", "STEPS", "BATCH", "LR", "EVAL_EVERY", "EVAL_SIZE", "FORMED", "PHASE", "MINIMUM", "PILOT",
           "setting_label", "jobs", "run_one", "switch_family"]

# --8<-- [start:protocol]
SETTINGS = ((1, 4), (2, 1), (2, 4))  # (layers, heads per layer)
SEEDS = tuple(range(10))
STEPS, BATCH, LR = 6000, 64, 1e-3
EVAL_EVERY, EVAL_SIZE = 250, 1024  # curve on 256 sequences; final on 1024
FORMED = 1.0  # nats: below it at the end, the predictable tokens are copied
PHASE = 2.0  # nats: the first step below it dates the phase change
MINIMUM = 0.1  # nats: a smaller difference in loss is negligible
# --8<-- [end:protocol]

# The pilot runs, in the order they ran: (layers, heads, seed, steps, predictable loss at the end,
# first evaluated step (every 250) with predictable loss below 2.0 nats, or None). Lr 1e-3, batch 64.
PILOT = ((2, 1, 100, 3000, 1.301, 2750), (2, 4, 100, 5000, 0.381, 2500), (1, 4, 100, 5000, 3.512, None))


def setting_label(layers: int, heads: int) -> str:
    """'2 layers x 1 head' and the like (the pages print their own words)."""
    if (layers, heads) not in SETTINGS:
        raise ValueError(f"expected one of the protocol's settings {SETTINGS}, got {(layers, heads)!r}")
    return f"{layers} layer{'s' * (layers > 1)} x {heads} head{'s' * (heads > 1)}"


def jobs() -> list[tuple[int, int, int]]:
    """Every (layers, heads, seed) of the protocol, the slowest setting first."""
    order = sorted(SETTINGS, key=lambda s: -s[0] * s[1])
    return [(layers, heads, s) for layers, heads in order for s in SEEDS]


def switch_family(layers: int, heads: int, scores: dict) -> list[tuple[str, dict]]:
    """The causal comparisons of one trained model, each a name and the forward switches it runs with.

    `scores` is the model's head_scores at the end: it picks, in the 4-head model, the previous-token
    head (layer 0) and the induction head (layer 1).

    >>> [n for n, _ in switch_family(2, 1, {})]
    ['ablate_prev', 'ablate_induction', 'cut_k', 'cut_q', 'cut_v']
    >>> dict(switch_family(2, 4, {"prev": [[.1, .6, .2, .1], [0] * 4], "prefix": [[0] * 4, [.1, .1, .7, .2]]}))["cut_k"]
    {'cut': {(0, 1, 1, 'k')}}
    """
    if layers != 2:
        raise ValueError(f"the causal comparisons need 2 layers, got {layers}")
    if heads == 1:
        prev, induction = 0, 0
    else:
        prev = max(range(heads), key=lambda h: scores["prev"][0][h])
        induction = max(range(heads), key=lambda h: scores["prefix"][1][h])
    family = [("ablate_prev", {"ablate": {(0, prev)}}),
              ("ablate_induction", {"ablate": {(1, induction)}})]
    family += [(f"cut_{part}", {"cut": {(0, prev, 1, part)}}) for part in ("k", "q", "v")]
    if heads > 1:
        family.append(("cut_k_all", {"cut": {(0, h, 1, "k") for h in range(heads)}}))
    return family


def run_one(layers: int, heads: int, seed: int) -> dict:
    """Train one model of the protocol on one thread; return what the results keep of it."""
    if seed not in SEEDS:
        raise ValueError(f"seed must be one of the protocol's seeds {SEEDS}, got {seed!r}")
    setting_label(layers, heads)
    start = time.process_time()
    model, curve = train_induction(layers, heads, seed, STEPS, batch_size=BATCH, lr=LR, eval_every=EVAL_EVERY)
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        x, second = make_repeat_batch(EVAL_SIZE, SEQ_LEN, seed=EVAL_SEED - 1)
        final = losses(model, x, second) | head_scores(model, x, second)
        switched = {}
        if layers == 2:
            for name, switches in switch_family(layers, heads, final):
                switched[name] = losses(model, x, second, **switches)["predictable"]
        ablated = [[losses(model, x, second, ablate={(lay, h)})["predictable"] for h in range(heads)]
                   for lay in range(layers)]
    finally:
        torch.set_num_threads(old)
    return {"layers": layers, "heads": heads, "seed": seed, "params": count_parameters(model),
            "final": final, "switched": switched, "ablated": ablated, "curve": curve,
            "cpu_seconds": round(time.process_time() - start, 1)}
