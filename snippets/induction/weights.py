"""The weights of the models the page runs live: seed 0 of the protocol, trained again and kept.

results/induction.json keeps what the protocol measures, not the weights (thirty models, most never
shown). The live view runs LIVE in the reader's browser; ``train_kept`` trains each exactly as
snippets.induction.protocol.run_one does (train_induction with the protocol's STEPS, BATCH, LR and
EVAL_EVERY, on one thread) and keeps its state_dict as float32 bytes in base64, with the final
losses and head scores on the protocol's final held-out batch. The same training gives the same
numbers: tests/test_induction_live.py holds the final predictable loss to results/induction.json's.

Results: results/induction-live.json (``python -m sitebuild.results induction-live``).

>>> torch.manual_seed(0); m = AttentionOnly(2, 1)
<torch._C.Generator object at ...>
>>> back = load_kept({"layers": 2, "heads": 1, "state_dict": encode_state(m.state_dict())})
>>> all(torch.equal(a, b) for a, b in zip(m.state_dict().values(), back.state_dict().values()))
True
"""

from __future__ import annotations

import base64
import time

import numpy as np
import torch

from . import protocol as P
from .model import AttentionOnly
from .task import SEQ_LEN, make_repeat_batch
from .train import EVAL_SEED, head_scores, losses, train_induction

__all__ = ["LIVE", "encode_state", "decode_state", "load_kept", "train_kept"]

LIVE = ((2, 1, 0), (2, 4, 0))  # (layers, heads, seed): the models the live view offers


def encode_state(state: dict) -> dict:
    """A state dict as JSON: per tensor its shape and its float32 bytes (little-endian) in base64."""
    def f32(v: torch.Tensor) -> str:
        return base64.b64encode(np.ascontiguousarray(v.detach().numpy(), dtype="<f4").tobytes()).decode("ascii")

    return {k: {"shape": list(v.shape), "f32": f32(v)} for k, v in state.items()}


def decode_state(enc: dict) -> dict:
    """The inverse of encode_state: name -> float32 tensor."""
    if not isinstance(enc, dict) or not all(isinstance(v, dict) and {"shape", "f32"} <= set(v) for v in enc.values()):
        raise ValueError(f"expected {{name: {{'shape': [...], 'f32': base64}}}}, got {type(enc).__name__}")
    return {k: torch.from_numpy(np.frombuffer(base64.b64decode(v["f32"]), dtype="<f4").reshape(v["shape"]).copy())
            for k, v in enc.items()}


def load_kept(record: dict) -> AttentionOnly:
    """The model of one kept record (layers, heads, state_dict), in eval mode."""
    if not isinstance(record, dict) or not {"layers", "heads", "state_dict"} <= set(record):
        raise ValueError(f"expected a record with layers, heads and state_dict, got {record!r:.80}")
    model = AttentionOnly(record["layers"], record["heads"])
    model.load_state_dict(decode_state(record["state_dict"]))
    return model.eval()


def train_kept(layers: int, heads: int, seed: int) -> dict:
    """Train one model as protocol.run_one does; return its final measures and its weights."""
    if (layers, heads, seed) not in LIVE:
        raise ValueError(f"expected one of the live models (layers, heads, seed) {LIVE}, got {(layers, heads, seed)!r}")
    start = time.process_time()
    model, _ = train_induction(layers, heads, seed, P.STEPS, batch_size=P.BATCH, lr=P.LR, eval_every=P.EVAL_EVERY)
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        x, second = make_repeat_batch(P.EVAL_SIZE, SEQ_LEN, seed=EVAL_SEED - 1)  # run_one's final batch
        final = losses(model, x, second) | head_scores(model, x, second)
    finally:
        torch.set_num_threads(old)
    return {"layers": layers, "heads": heads, "seed": seed, "final": final,
            "state_dict": encode_state(model.state_dict()), "cpu_seconds": round(time.process_time() - start, 1)}
