"""What does layer 1's query read from the query-path head? A second follow-up protocol, fixed in code before its runs.

Results: results/induction-positional.json (``python -m sitebuild.results induction-positional``).

Why. In most seeds of the first follow-up (snippets.induction.circuits, seeds 20-29) layer 1 reads
the layer-0 head that matters through its queries. A check outside any protocol (no numbers kept)
then said that this head attends to earlier occurrences of the current token, and that replacing its
output in the queries with its mean costs as much as removing it. A later re-run outside any protocol,
on four models, found that keeping only the position part of its output in the queries costs far
less than removing it. This protocol measures all three on seeds no run has used.

- Model and training: exactly the first follow-up's (its SETTING, 2 layers x 4 heads; the main
  protocol's STEPS, BATCH, LR, EVAL_EVERY, on one thread), on SEEDS 40-47 (the committed runs used
  0-9, 20-29 and the pilot seed 100).
- Measured at the end, on the main protocol's final held-out batch (EVAL_SIZE sequences): the losses;
  the loss on the predictable tokens with all four layer-0 heads cut from layer 1's queries, keys, values
  (three cuts); and for each layer-0 head h, in layer 1's queries only: h cut; h's output replaced by
  only its position part, by only its token part, by its mean over every position of every sequence
  (snippets.induction.parts: the same attention, values from the position or the token embeddings
  alone; the two parts sum to the output exactly). Also each head's same-token score: over the
  positions of the second copy, the attention on earlier positions holding the current token, and
  what attention spread evenly over positions 0..t would put there.
- A seed's query-path head (``query_head``): if the all-heads query cut costs more than the key cut
  and the value cut, the layer-0 head whose own query cut costs most; otherwise the seed has none. Seeds
  without one are counted and shown, not dropped; the comparisons are made on the seeds with one.
- Outcomes, on the seeds with a query-path head, each against the intact model, paired by seed,
  Student's t intervals, Holm over the family of COMPARISONS, MINIMUM from the main protocol:
  that head cut from the queries; only its position part; only its token part; its mean; and the cut
  against only the position part. With fewer than stats.MIN_SEEDS such seeds no comparison is made and
  the seeds are reported one by one.
- Expected, written before the runs: keeping only the position part costs less than the cut (the last
  comparison 'higher'); replacing the head's output by its mean costs more than MINIMUM (the mean
  against the intact model 'higher'); and the head's same-token score is above even attention's in
  every seed with a query-path head. Each may fail.
- Statistics: snippets.stats only.

>>> len(jobs()), jobs()[0]
(8, (2, 4, 40))
>>> [name for name, _ in query_family(4)][:5]
['head0_cut', 'head0_pos', 'head0_tok', 'head0_mean', 'head1_cut']
"""

from __future__ import annotations

import time

import torch

from . import protocol as P
from .circuits import PARTS, SETTING
from .model import count_parameters
from .parts import KEEP, forward_parts
from .task import SEQ_LEN, make_repeat_batch
from .train import EVAL_SEED, losses, train_induction

__all__ = ["SEEDS", "MEASURES", "COMPARISONS", "jobs", "query_family", "same_token", "query_head", "run_one"]

# --8<-- [start:protocol]
SEEDS = tuple(range(40, 48))  # used by no other run
MEASURES = ("cut", *KEEP)  # in layer 1's queries: cut, or keep one part
COMPARISONS = (("intact", "cut"), ("intact", "pos"), ("intact", "tok"),
               ("intact", "mean"), ("pos", "cut"))  # (a, b): b - a
# --8<-- [end:protocol]


def jobs() -> list[tuple[int, int, int]]:
    """Every (layers, heads, seed) of this protocol."""
    return [(*SETTING, s) for s in SEEDS]


def query_family(heads: int) -> list[tuple[str, dict]]:
    """Per layer-0 head, in layer 1's queries: the head cut, then only its position part, its token part,
    its mean kept; each a name and the switches of forward_parts."""
    family = []
    for h in range(heads):
        family.append((f"head{h}_cut", {"cut": {(0, h, 1, "q")}}))
        family += [(f"head{h}_{w}", {"keep": {(0, h, 1, "q"): w}}) for w in KEEP]
    return family


@torch.no_grad()
def same_token(model, x, second) -> dict:
    """Per layer-0 head, the mean attention from the positions t of the second copy to earlier positions
    s < t holding the token at t; and what attention spread evenly over 0..t would put there."""
    _, patterns = model(x, return_attention=True)
    attn = patterns[0]  # (N, H, T, T)
    T = x.shape[1]
    earlier = torch.ones(T, T, dtype=torch.bool).tril(-1)
    same = (x[:, :, None] == x[:, None, :]) & earlier  # (N, T, T): s < t and x[s] == x[t]
    rows, cols = second.nonzero(as_tuple=True)
    mass = (attn * same[:, None]).sum(-1)  # (N, H, T)
    even = same.sum(-1) / torch.arange(1, T + 1)  # (N, T)
    return {"score": mass[rows, :, cols].mean(0).tolist(), "even": float(even[rows, cols].mean())}


def query_head(m: dict) -> int | None:
    """A seed's query-path head: if cutting all layer-0 heads from layer 1's queries costs more than from
    its keys and from its values, the head whose own query cut costs most; otherwise None."""
    all_cuts = {p: m["cut"][f"all_{p}"] for p in PARTS}
    if max(PARTS, key=all_cuts.__getitem__) != "q":
        return None
    costs = [m["query"][f"head{h}_cut"] for h in range(m["heads"])]
    return max(range(len(costs)), key=costs.__getitem__)


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
        final = losses(model, x, second)
        cut = {f"all_{p}": losses(model, x, second, cut={(0, h, 1, p) for h in range(heads)})["predictable"]
               for p in PARTS}
        query = {name: losses(lambda t, s=switches: forward_parts(model, t, **s), x, second)["predictable"]
                 for name, switches in query_family(heads)}
        same = same_token(model, x, second)
    finally:
        torch.set_num_threads(old)
    return {"layers": layers, "heads": heads, "seed": seed, "params": count_parameters(model), "final": final,
            "cut": cut, "query": query, "same_token": same, "curve": curve,
            "cpu_seconds": round(time.process_time() - start, 1)}
