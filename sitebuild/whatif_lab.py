"""Data for the §4 model lab (docs/assets/whatif-lab.js): the trained models as plain arrays.

The build writes, under ``assets/whatif-lab/`` of each language:

- ``index.json``: event names, offsets, the models on offer, the page's held-out logs and its sample log;
- ``h<h>-s<seed>.json``: one model, fetched when the reader picks it: every tensor of its
  state_dict as little-endian float32 in base64 (the exact trained values), each head's role and
  offset shares as the page's head × offset table measures them;
- ``h<h>-s<seed>.check.json``: PyTorch's logits on a few held-out logs, with all heads and with a
  set of heads switched off, for the browser test to compare the JavaScript forward pass with: as
  the model runs (float32), and with the same weights in float64, which shows how much of any
  difference is float32's own rounding.

The models are ``snippets.whatif.analysis.sweep()``'s runs, read from the same training cache as the
page's tables; nothing is trained again here.

>>> decode_array(encode_array(np.arange(3, dtype=np.float32)))
array([0., 1., 2.], dtype=float32)
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence

import numpy as np
import torch

from resultcache import fingerprint, memory
from snippets.i18n import texts
from snippets.whatif.analysis import HEADS, SEEDS, SHARE_OFFSETS, heads_off, specialisation, sweep
from snippets.whatif.report import SAMPLE_SEED, fmt_offset
from snippets.whatif.task import EVENTS, OFFSETS, SEQ_LEN, make_batch
from snippets.whatif.train import EVAL_SEED, EVAL_SIZE, load_model

__all__ = [
    "FOLDER", "CHECK_LOGS", "encode_array", "decode_array", "encode_logs", "model_file", "check_mask",
    "index_data", "model_data", "check_data", "lab_files", "ui_text",
]

FOLDER = "assets/whatif-lab"
CHECK_LOGS = 3  # held-out logs per model whose PyTorch logits are exported for the browser test


def ui_text(lang: str) -> str:
    """The lab's words in one language (snippets.i18n's ``lab.*`` entries) as JSON for the page.

    The hook puts it on the lab's container (``data-ui``); whatif-lab.js reads it from there, so
    the lab's controls are translated where every other printed string is.

    >>> json.loads(ui_text("en"))["allOn"]
    'All heads on'
    """
    return json.dumps(texts(lang, "lab"), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def encode_array(a) -> str:
    """float32, little-endian, base64: exact for float32 weights and about 1.4 bytes per byte."""
    arr = np.ascontiguousarray(np.asarray(a, dtype="<f4"))
    return base64.b64encode(arr.tobytes()).decode("ascii")


def decode_array(text: str, shape: Sequence[int] | None = None) -> np.ndarray:
    """The inverse of encode_array, optionally reshaped."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a base64 string, got {type(text).__name__}")
    arr = np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float32)
    return arr.reshape(tuple(shape)) if shape is not None else arr


def encode_logs(x: torch.Tensor) -> str:
    """Event ids (N, L), each below 16, as one hex digit per event, row-major.

    >>> encode_logs(torch.tensor([[0, 15], [10, 1]]))
    '0fa1'
    """
    if not isinstance(x, torch.Tensor) or x.dim() != 2:
        raise ValueError(f"x must be a 2-D tensor of event ids, got {getattr(x, 'shape', type(x).__name__)}")
    if len(EVENTS) > 16 or int(x.min()) < 0 or int(x.max()) >= 16:
        raise ValueError(f"expected event ids in 0 … 15 (one hex digit), got {int(x.min())} … {int(x.max())}")
    return "".join(f"{v:x}" for v in x.flatten().tolist())


def model_file(num_heads: int, seed: int) -> str:
    """'h4-s0.json': the file of one model under FOLDER."""
    return f"h{num_heads}-s{seed}.json"


def check_mask(num_heads: int) -> list[bool]:
    """The ablation the check file also covers: every even-numbered head switched off.

    >>> check_mask(1), check_mask(4)
    ([False], [False, True, False, True])
    """
    return [i % 2 == 1 for i in range(num_heads)]


def index_data(heads: Sequence[int] = HEADS, seeds: Sequence[int] = SEEDS) -> dict:
    """What every lab page needs first: names, offsets, the models on offer, the held-out and sample logs."""
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)  # the page's held-out logs (N, L)
    sample, _ = make_batch(1, seed=SAMPLE_SEED)  # the log of the page's heatmaps (1, L)
    return {
        "events": list(EVENTS), "offsets": list(OFFSETS), "seq_len": SEQ_LEN,
        "models": [{"heads": h, "seed": s, "file": model_file(h, s)} for h in heads for s in seeds],
        "heldout": {"seed": EVAL_SEED, "count": EVAL_SIZE, "logs": encode_logs(x)},
        "sample": encode_logs(sample),
    }


def model_data(run: dict) -> dict:
    """One trained run as the browser reads it: sizes, state_dict tensors, head roles and shares."""
    if not isinstance(run, dict) or "state_dict" not in run:
        raise ValueError(f"run must be a dict returned by train_run, got {type(run).__name__}")
    shares, roles = specialisation(run)
    state = run["state_dict"]
    return {
        "heads": run["num_heads"], "seed": run["seed"], "d_model": run["d_model"],
        "vocab": len(EVENTS), "seq_len": SEQ_LEN, "offsets": list(OFFSETS),
        "share_offsets": list(SHARE_OFFSETS),
        "roles": [None if r is None else fmt_offset(r) for r in roles],
        "shares": [[round(float(v), 4) for v in row] for row in shares],
        "python": {"acc_by_offset": run["acc_by_offset"], "accuracy": run["accuracy"]},
        "weights": {k: {"shape": list(np.shape(v)), "data": encode_array(v)} for k, v in state.items()},
    }


@torch.no_grad()
def check_data(run: dict, n_logs: int = CHECK_LOGS) -> dict:
    """PyTorch's logits (masks, N, L, T, V) on the first n_logs held-out logs, all heads and check_mask."""
    if not isinstance(n_logs, int) or not 1 <= n_logs <= EVAL_SIZE:
        raise ValueError(f"n_logs must be an integer in 1 … {EVAL_SIZE}, got {n_logs!r}")
    model = load_model(run)
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    x = x[:n_logs]  # (N, L)
    masks = [[True] * run["num_heads"], check_mask(run["num_heads"])]
    out32, out64 = [], []
    for keep in masks:
        with heads_off(model, keep):
            out32.append(model(x))  # (N, L, T, V), float32 as trained and evaluated
    model.double()
    for keep in masks:
        with heads_off(model, keep):
            out64.append(model(x))  # the same weights in float64: float32's own rounding, measured
    logits, logits64 = torch.stack(out32), torch.stack(out64)  # (masks, N, L, T, V)
    return {"masks": masks, "logs": encode_logs(x), "shape": list(logits.shape), "logits": encode_array(logits),
            "logits64": base64.b64encode(np.ascontiguousarray(logits64.numpy(), dtype="<f8").tobytes()).decode("ascii")}


def lab_files(heads: Sequence[int] = HEADS, seeds: Sequence[int] = SEEDS) -> dict[str, str]:
    """Every file the lab serves: path under FOLDER -> JSON text (compact, keys in a fixed order).

    Cached on disk, keyed by this module's code and everything it imports (the models included)."""
    return _lab_files(tuple(heads), tuple(seeds), fingerprint([__name__]))


@memory.cache
def _lab_files(heads: tuple[int, ...], seeds: tuple[int, ...], code: str) -> dict[str, str]:
    def dump(obj) -> str:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))

    old = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny forward passes: threads cost more than they save (10x here)
    try:
        runs = sweep(heads=heads, seeds=seeds)
        files = {"index.json": dump(index_data(heads, seeds))}
        for run in runs:
            name = model_file(run["num_heads"], run["seed"])
            files[name] = dump(model_data(run))
            files[name.replace(".json", ".check.json")] = dump(check_data(run))
    finally:
        torch.set_num_threads(old)
    return files

