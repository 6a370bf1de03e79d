"""The key/value heads page's second recall test: the protocol, fixed in code before any of its runs.

The first test (snippets.kvheads.train, results/kvheads-recall.json) asked for every key right after the
pairs, with no distractors, and its design changed while it ran: 4 and 8 pairs were run with every g
first; 12 pairs were added because those showed no cost; the seeds went from 5 to 10 after one seed
moved the 12-pair intervals across 0. The page keeps that history. This test was written down, with its
level, grid, seeds, steps and rules, and committed before a single model of it was trained; the results
are in results/kvheads-mqar.json (``python -m sitebuild.results mqar``, about 40 minutes on 2 cores).

- The task is MQAR with distractors (snippets.kvheads.mqar): T = SEQ_LEN = 48 positions, n = PAIRS = 8
  key-value pairs, each key asked once at a random later position, distractors everywhere else.
- The level was chosen from MHA alone, with pilot seeds 100-102 that the test does not use (batch 64):
  at 8 pairs all three pilot models learned the task within 1,000 steps (99.3%, 99.96% at 1,000 steps;
  100% at 1,500); at 10 pairs one of two did (100% and 15%); at 12 pairs neither did in 1,500 steps
  (13% and 13%); the pilot models had a 256-row position table, of which the first 48 rows are used. 8 pairs is the hardest level tried at which MHA learned in every pilot seed. No model
  with fewer key/value heads, and no MLA model, was trained before the protocol was committed.
- The grid: h = 8 query heads, d_model = 64, 2 attention-only layers; GQA with g = 8 (MHA), 4, 2, 1 (MQA)
  key/value heads, and MLA with latent width d_c = 16, 32, 64, which keep exactly as many numbers per
  position as g = 1, 2, 4 (a cache of 2 g d_k = 16 g numbers against d_c). MLA here has no decoupled
  RoPE key (the model has learned absolute positions).
- Seeds 0-9 for every setting; seed s sets the initial weights and the training sequences, the same
  sequences for every setting.
- STEPS = 1000 AdamW steps (lr 3e-3, one-cycle schedule, weight decay 0.1), batch 64, fresh sequences
  every step. No early stopping. Held-out accuracy on 256 sequences every 250 steps is kept as the
  learning curve; the final accuracy is on 1,000 held-out sequences.
- A seed has learned the task at LEARNED = 95% held-out accuracy.
- Every setting is compared with MHA, paired by seed, with snippets.stats: Student's t interval,
  Holm-corrected over the six comparisons as one family; a difference under MINIMUM = 1 point of
  accuracy is negligible. The share of seeds that learned is compared with Fisher's exact test, and
  the accuracy among the seeds that learned is reported apart from it.

>>> len(jobs()), jobs()[0]
(70, ('mla', 64, 0))
>>> [setting_label(k, v) for k, v in SETTINGS]
['MHA g=8', 'GQA g=4', 'GQA g=2', 'MQA g=1', 'MLA d_c=16', 'MLA d_c=32', 'MLA d_c=64']
"""

from __future__ import annotations

import time

import torch

from .mqar import D_MODEL, MQARModel, cache_numbers, mqar_accuracy, train_mqar

__all__ = ["PAIRS", "SEQ_LEN", "NUM_HEADS", "SEEDS", "STEPS", "BATCH", "LR", "EVAL_EVERY", "EVAL_SIZE", "LEARNED",
           "MINIMUM", "SETTINGS", "setting_label", "jobs", "run_one"]

# --8<-- [start:protocol]
PAIRS, SEQ_LEN = 8, 48
NUM_HEADS = 8  # query heads; d_model = 64, d_k = 8, 2 layers
SEEDS = tuple(range(10))
STEPS, BATCH, LR = 1000, 64, 3e-3
EVAL_EVERY, EVAL_SIZE = 250, 1000  # curve on 256 sequences; final on 1000
LEARNED = 0.95  # a seed has learned the task at 95% held-out accuracy
MINIMUM = 0.01  # a difference under 1 point of accuracy is negligible

SETTINGS = (("gqa", 8), ("gqa", 4), ("gqa", 2), ("gqa", 1),
            ("mla", 16), ("mla", 32), ("mla", 64))
# --8<-- [end:protocol]


def setting_label(kind: str, size: int) -> str:
    """'MHA g=8', 'GQA g=4', 'MQA g=1' or 'MLA d_c=16'."""
    if kind == "mla":
        return f"MLA d_c={size}"
    if kind != "gqa":
        raise ValueError(f"kind must be 'gqa' or 'mla', got {kind!r}")
    name = "MHA" if size == NUM_HEADS else "MQA" if size == 1 else "GQA"
    return f"{name} g={size}"


def _model(kind: str, size: int) -> MQARModel:
    if (kind, size) not in SETTINGS:
        raise ValueError(f"expected one of the protocol's settings {SETTINGS}, got {(kind, size)!r}")
    if kind == "mla":
        return MQARModel(NUM_HEADS, d_latent=size, max_len=SEQ_LEN)
    return MQARModel(NUM_HEADS, num_kv_heads=size, max_len=SEQ_LEN)


def jobs() -> list[tuple[str, int, int]]:
    """Every (kind, size, seed) of the protocol, MLA first (its naive form is the slowest step)."""
    order = sorted(SETTINGS, key=lambda s: (s[0] != "mla", -s[1]))
    return [(kind, size, s) for kind, size in order for s in SEEDS]


def run_one(kind: str, size: int, seed: int) -> dict:
    """Train one model of the protocol, on one thread, and return what the results keep of it."""
    if seed not in SEEDS:
        raise ValueError(f"seed must be one of the protocol's seeds {SEEDS}, got {seed!r}")
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.process_time()
        torch.manual_seed(seed)  # initial weights
        model = _model(kind, size)
        model, curve = train_mqar(model, PAIRS, SEQ_LEN, seed, STEPS, batch_size=BATCH, lr=LR,
                                  eval_every=EVAL_EVERY)
        accuracy = mqar_accuracy(model, PAIRS, SEQ_LEN, EVAL_SIZE)
        seconds = time.process_time() - start
    finally:
        torch.set_num_threads(old)
    g, d_c = (None, size) if kind == "mla" else (size, None)
    return {"kind": kind, "size": size, "seed": seed, "accuracy": accuracy,
            "curve": [[EVAL_EVERY * (i + 1), a] for i, a in enumerate(curve)],
            "params": sum(p.numel() for p in model.parameters()),
            "cache_numbers": cache_numbers(NUM_HEADS, g, d_c, D_MODEL), "cpu_seconds": round(seconds, 1)}
