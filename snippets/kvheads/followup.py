"""A follow-up to the second recall test, decided after its results: MLA with its latent normalised.

The test fixed in snippets.kvheads.protocol found that MLA, as written on this page, rarely learned the task in
its 1,000 steps. DeepSeek-V2 (arXiv 2405.04434, §3.1.2) adds "RMS Norm layers after the compressed latent
vectors" for stable training, and its released code applies one (``kv_a_layernorm``) to the latent before the
up-projections. This page's MLA has none. The follow-up asks whether that is the difference: the same models,
seeds, data and steps, with an RMSNorm after W_dkv, so the cache keeps the normalised latent.

Adding the norm draws no random numbers (its weight starts at 1), so at each seed the normed model starts from
exactly the plain MLA model's weights, and the comparison between the two is paired by seed as tightly as it
can be. The follow-up was chosen after the results had been seen, and the page says so.

The results are in results/kvheads-mqar-followup.json (``python -m sitebuild.results mqar-followup``).

>>> m = normed_mla_model(16)
>>> type(m.attns[0].W_dkv).__name__, m.attns[0].W_dkv[1].normalized_shape
('Sequential', (16,))
>>> len(jobs()), jobs()[0]
(30, ('mla_norm', 64, 0))
"""

from __future__ import annotations

import time

import torch
from torch import nn

from .mqar import D_MODEL, MQARModel, cache_numbers, mqar_accuracy, train_mqar
from .protocol import BATCH, EVAL_EVERY, EVAL_SIZE, LR, NUM_HEADS, PAIRS, SEEDS, SEQ_LEN, STEPS

__all__ = ["FOLLOWUP", "normed_mla_model", "jobs", "run_one"]

FOLLOWUP = (("mla_norm", 16), ("mla_norm", 32), ("mla_norm", 64))


# --8<-- [start:normed]
def normed_mla_model(d_latent: int) -> MQARModel:
    """The test's MLA model with an RMSNorm on each layer's latent,
    as DeepSeek-V2 has: c = RMSNorm(W_dkv x) is what the cache keeps."""
    model = MQARModel(NUM_HEADS, d_latent=d_latent, max_len=SEQ_LEN)
    for attn in model.attns:
        attn.W_dkv = nn.Sequential(attn.W_dkv, nn.RMSNorm(d_latent))
    return model
# --8<-- [end:normed]


def jobs() -> list[tuple[str, int, int]]:
    """Every (kind, d_c, seed) of the follow-up, the widest latent first."""
    return [(kind, size, s) for kind, size in sorted(FOLLOWUP, key=lambda k: -k[1]) for s in SEEDS]


def run_one(kind: str, size: int, seed: int) -> dict:
    """Train one follow-up model exactly as snippets.kvheads.protocol.run_one trains the test's models."""
    if (kind, size) not in FOLLOWUP:
        raise ValueError(f"expected one of the follow-up's settings {FOLLOWUP}, got {(kind, size)!r}")
    if seed not in SEEDS:
        raise ValueError(f"seed must be one of the protocol's seeds {SEEDS}, got {seed!r}")
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.process_time()
        torch.manual_seed(seed)  # initial weights: the plain MLA model's, and a norm of ones
        model = normed_mla_model(size)
        model, curve = train_mqar(model, PAIRS, SEQ_LEN, seed, STEPS, batch_size=BATCH, lr=LR,
                                  eval_every=EVAL_EVERY)
        accuracy = mqar_accuracy(model, PAIRS, SEQ_LEN, EVAL_SIZE)
        seconds = time.process_time() - start
    finally:
        torch.set_num_threads(old)
    return {"kind": kind, "size": size, "seed": seed, "accuracy": accuracy,
            "curve": [[EVAL_EVERY * (i + 1), a] for i, a in enumerate(curve)],
            "params": sum(p.numel() for p in model.parameters()),
            "cache_numbers": cache_numbers(NUM_HEADS, None, size, D_MODEL), "cpu_seconds": round(seconds, 1)}
