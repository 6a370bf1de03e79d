"""Which path does a four-head model's induction take? A follow-up protocol, fixed in code before its runs.

Results: results/induction-circuits.json (``python -m sitebuild.results induction-circuits``).

Why a follow-up. In the main protocol (snippets.induction.protocol, seeds 0-9) no layer-0 head of
the 2 layers x 4 heads model looked at the previous token, and cutting all four layer-0 heads from
layer 1's keys left most of the induction in place. A check outside that protocol (seeds 10-14,
not committed) then found one seed with a previous-token head used through the keys, and in two
others pointed to layer 1's queries. This protocol asks both questions on seeds no run has used.

- Model and training: exactly the main protocol's 2 layers x 4 heads (its STEPS, BATCH, LR,
  EVAL_EVERY, on one thread), on SEEDS 20-29.
- Measured at the end, on the main protocol's final held-out batch (EVAL_SIZE sequences): the losses,
  every head's scores, and the loss on the predictable tokens with
  * all four layer-0 heads cut from layer 1's queries, from its keys, from its values (three cuts);
  * each layer-0 head cut from each of the three (twelve cuts), and each layer-0 head zeroed.
- Outcomes:
  1. Paths: each all-heads cut minus the intact model, paired by seed; Student's t intervals,
     Holm over the 3 parts; a difference under the main protocol's MINIMUM nats is negligible.
  2. The textbook circuit: the number of seeds with a layer-0 head whose previous-token score is at
     least PREV_HEAD. PREV_HEAD = 0.3 lies between the highest such score of the main protocol's
     four-head seeds (0.07) and the lowest of its one-head seeds (0.38).
  3. Each seed's main path: the part whose all-heads cut costs most.
  - Seeds that did not form the circuit (final predictable loss not under FORMED) are counted
    and kept in every outcome.
- Expected, written before the runs: the query cut costs more than the key cut (outcome 1), and the
  textbook circuit forms in a minority of seeds (outcome 2). Either may fail.
- Statistics: snippets.stats only.

>>> len(jobs()), jobs()[0]
(10, (2, 4, 20))
>>> [name for name, _ in cut_family(4)][:4]
['all_q', 'all_k', 'all_v', 'head0_q']
"""

from __future__ import annotations

import time

import torch

from . import protocol as P
from .model import count_parameters
from .task import SEQ_LEN, make_repeat_batch
from .train import EVAL_SEED, head_scores, losses, train_induction

__all__ = ["SETTING", "SEEDS", "PARTS", "PREV_HEAD", "jobs", "cut_family", "run_one"]

# --8<-- [start:protocol]
SETTING = (2, 4)  # (layers, heads per layer), as in the main protocol
SEEDS = tuple(range(20, 30))  # used by no other run
PARTS = ("q", "k", "v")  # layer 1's queries, keys, values
PREV_HEAD = 0.3  # a previous-token score at least this: a previous-token head
# --8<-- [end:protocol]


def jobs() -> list[tuple[int, int, int]]:
    """Every (layers, heads, seed) of this protocol."""
    return [(*SETTING, s) for s in SEEDS]


def cut_family(heads: int) -> list[tuple[str, dict]]:
    """The cuts of one trained model, each a name and its forward switches: all layer-0 heads from each
    part of layer 1's input, then each head from each part."""
    family = [(f"all_{p}", {"cut": {(0, h, 1, p) for h in range(heads)}}) for p in PARTS]
    family += [(f"head{h}_{p}", {"cut": {(0, h, 1, p)}}) for h in range(heads) for p in PARTS]
    return family


def run_one(layers: int, heads: int, seed: int) -> dict:
    """Train one model as the main protocol trains it, on one thread; return what the result keeps."""
    if (layers, heads) != SETTING or seed not in SEEDS:
        raise ValueError(f"expected layers, heads {SETTING} and a seed in {SEEDS}, got {(layers, heads, seed)!r}")
    start = time.process_time()
    model, curve = train_induction(layers, heads, seed, P.STEPS, batch_size=P.BATCH, lr=P.LR,
                                   eval_every=P.EVAL_EVERY)
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        x, second = make_repeat_batch(P.EVAL_SIZE, SEQ_LEN, seed=EVAL_SEED - 1)  # the main protocol's final batch
        final = losses(model, x, second) | head_scores(model, x, second)
        cut = {name: losses(model, x, second, **switches)["predictable"] for name, switches in cut_family(heads)}
        ablated = [losses(model, x, second, ablate={(0, h)})["predictable"] for h in range(heads)]
    finally:
        torch.set_num_threads(old)
    return {"layers": layers, "heads": heads, "seed": seed, "params": count_parameters(model), "final": final,
            "cut": cut, "ablated": ablated, "curve": curve, "cpu_seconds": round(time.process_time() - start, 1)}
