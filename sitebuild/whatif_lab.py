"""Data for the §4 model lab (docs/assets/whatif-lab.js): the trained models as plain arrays.

The build writes, under ``assets/whatif-lab/`` of each language:

- ``index.json``: event names, offsets, the models on offer, the page's held-out logs and its sample log;
- ``h<h>-s<seed>.json``: one model, fetched when the reader picks it: every tensor of its
  state_dict as little-endian float32 in base64 (the exact trained values), each head's role and
  offset shares as the page's head × offset table measures them; ``h<h>-d<E>-s<seed>.json`` for a
  one-layer model whose d_model E is not D_MODEL;
- ``l<n>h<h>-s<seed>.json``: the same for a residual stack of n layers of h heads (experiment 4),
  with each layer's heads' roles and shares as the page's per-layer table measures them;
  ``l<n>h<h>-ffn<F>-s<seed>.json`` for a stack whose blocks each end in a feed-forward layer of
  hidden width F;
- ``….check.json`` beside each model: PyTorch's logits on a few held-out logs, with all heads and
  with a set of heads switched off, for the browser test to compare the JavaScript forward pass
  with: as the model runs (float32), and with the same weights in float64, which shows how much of
  any difference is float32's own rounding. A stack's check file holds its float32 attention
  weights too (layers and heads), since a later layer's attention depends on the heads switched
  off before it.

The one-layer models are ``snippets.whatif.analysis.sweep()``'s runs, every seed; the stacks are
``snippets.whatif.factors.DEPTH``'s runs, seed STACK_SEED only (the seed of the page's per-layer
table and figure). All are read from the same training cache as the page's tables; nothing is
trained again here.

Three models of §4's second round come from its committed result, results/whatif-sweeps.json
(``snippets.whatif.protocol.LAB_MODELS``, whose weights that result keeps): the one-layer model
with 3 heads of d_k = 8 (d_model = 24) among the one-layer models, and the stacks 1 × 1 and 1 × 2
with a feed-forward layer among the stacks, one seed each. Their roles and shares are measured
the same way, on the weights read from the result (second_runs); nothing is trained for them either.

>>> decode_array(encode_array(np.arange(3, dtype=np.float32)))
array([0., 1., 2.], dtype=float32)
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

import resultcache
from resultcache import fingerprint, memory
from snippets.i18n import texts
from snippets.whatif import protocol
from snippets.whatif.analysis import (
    HEADS, SEEDS, SHARE_OFFSETS, head_roles, heads_off, offset_shares, specialisation, sweep,
)
from snippets.whatif.factors import DEPTH, layer_shares
from snippets.whatif.factors_report import LAB_SEED
from snippets.whatif.model import D_MODEL
from snippets.whatif.report import SAMPLE_SEED, fmt_offset
from snippets.whatif.task import EVENTS, OFFSETS, SEQ_LEN, make_batch
from snippets.whatif.train import EVAL_SEED, EVAL_SIZE, STACK_D_K, load_model, train_run

__all__ = [
    "FOLDER", "CHECK_LOGS", "STACK_SEED", "RESULT", "SECOND", "encode_array", "decode_array", "encode_logs",
    "model_key", "model_file", "check_mask", "stack_heads_off", "stack_runs", "second_config", "second_records",
    "second_runs", "second_digest", "result_run", "measured_shares", "index_data", "model_data", "check_data",
    "lab_files", "ui_text",
]

FOLDER = "assets/whatif-lab"
CHECK_LOGS = 3  # held-out logs per model whose PyTorch logits are exported for the browser test
STACK_SEED = LAB_SEED  # the one seed of each stack the lab offers: the page's per-layer table and figure use it
RESULT = "whatif-sweeps"  # results/whatif-sweeps.json: §4's second round, with the weights of SECOND's runs
SECOND = protocol.LAB_MODELS  # (sweep, config index, seed) of the second round's models the lab offers


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


def model_key(num_heads: int, layers: int | None = None, d_model: int = D_MODEL, ffn: int = 0) -> str:
    """The lab's name for a model, whatever its seed (the model menu's value): 'h4' for the one-layer
    model, 'l2h2' for a stack; '-d24' when d_model is not D_MODEL, '-ffn128' for a stack whose blocks
    end in a feed-forward layer of that hidden width.

    >>> model_key(4), model_key(2, layers=2), model_key(3, d_model=24), model_key(1, layers=1, ffn=128)
    ('h4', 'l2h2', 'h3-d24', 'l1h1-ffn128')
    """
    for name, v in (("num_heads", num_heads), ("layers", layers), ("d_model", d_model)):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if not isinstance(ffn, int) or isinstance(ffn, bool) or ffn < 0 or (ffn and layers is None):
        raise ValueError(f"ffn must be a non-negative integer, and 0 for the one-layer model, got {ffn!r}")
    key = f"h{num_heads}" if layers is None else f"l{layers}h{num_heads}"
    return key + (f"-d{d_model}" if d_model != D_MODEL else "") + (f"-ffn{ffn}" if ffn else "")


def model_file(num_heads: int, seed: int, layers: int | None = None, d_model: int = D_MODEL, ffn: int = 0) -> str:
    """The file of one model under FOLDER: its model_key and its seed.

    >>> model_file(4, 0), model_file(2, 0, layers=2), model_file(3, 0, d_model=24), model_file(2, 0, 1, ffn=128)
    ('h4-s0.json', 'l2h2-s0.json', 'h3-d24-s0.json', 'l1h2-ffn128-s0.json')
    """
    key = model_key(num_heads, layers, d_model, ffn)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return f"{key}-s{seed}.json"


def _run_file(run: dict) -> str:
    return model_file(run["num_heads"], run["seed"], run.get("layers"), run["d_model"], run.get("ffn", 0))


def check_mask(num_heads: int) -> list[bool]:
    """The ablation the check file also covers: every even-numbered head switched off.

    >>> check_mask(1), check_mask(4)
    ([False], [False, True, False, True])
    """
    return [i % 2 == 1 for i in range(num_heads)]


@contextlib.contextmanager
def stack_heads_off(model: nn.Module, keep: Sequence[bool]):
    """heads_off for a StackModel: keep has one flag per head of every block, layer by layer
    (block b's head i is keep[b * h + i]); a head switched off has its context zeroed just before its
    block's W_o, so the block adds only what the other heads and W_o's bias give."""
    blocks = getattr(model, "blocks", None)
    if blocks is None:
        raise ValueError(f"model must be a StackModel (with blocks), got {type(model).__name__}")
    h, d_k = blocks[0].num_heads, blocks[0].d_k
    if len(keep) != len(blocks) * h:
        raise ValueError(f"keep must have one flag per head of every layer ({len(blocks)} x {h} = "
                         f"{len(blocks) * h}), got {len(keep)}")
    handles = []
    for b, block in enumerate(blocks):
        gate = torch.tensor([float(k) for k in keep[b * h:(b + 1) * h]]).repeat_interleave(d_k)  # (h * d_k,)
        handles.append(block.W_o.register_forward_pre_hook(lambda module, args, g=gate: (args[0] * g.to(args[0]),)))
    try:
        yield model
    finally:
        for handle in handles:
            handle.remove()


def stack_runs(configs: Sequence[dict] = DEPTH, seed: int = STACK_SEED) -> list[dict]:
    """The stacks the lab offers: train_run(**config, seed=seed) for each of experiment 4's configs (cached)."""
    if not configs or not all(isinstance(c, dict) and c.get("layers") for c in configs):
        raise ValueError(f"configs must be stack configurations (train_run arguments with layers), got {configs!r}")
    return [train_run(seed=seed, **c) for c in configs]


def second_config(job: Sequence) -> dict:
    """The train_run-style configuration of one second-round model (sweep, config index, seed): num_heads,
    d_model, layers (None for the one-layer model), d_k, ffn, offsets, seed, as snippets.whatif.protocol
    trains it.

    >>> c = second_config(("fixed_dk", 2, 0))
    >>> c["num_heads"], c["d_model"], c["d_k"], c["layers"], c["ffn"]
    (3, 24, 8, None, 0)
    """
    if not isinstance(job, (tuple, list)) or len(job) != 3:
        raise ValueError(f"expected a (sweep, config index, seed) triple, got {job!r}")
    sweep_name, index, seed = job
    configs = protocol.SWEEPS.get(sweep_name, [])
    if not configs or not isinstance(index, int) or not 0 <= index < len(configs):
        raise ValueError(f"expected a sweep of {sorted(protocol.SWEEPS)} and an index into it, "
                         f"got {sweep_name!r}, {index!r}")
    c = dict(protocol.SWEEPS[sweep_name][index])
    if c.get("regime"):
        raise ValueError(f"{sweep_name}[{index}] is trained on the limited-data regime, not the lab's task")
    offsets = list(c.get("offsets", OFFSETS))
    if offsets != list(OFFSETS):
        raise ValueError(f"{sweep_name}[{index}] predicts offsets {offsets}; the lab's task has {list(OFFSETS)}")
    h, d_model, layers = c["num_heads"], c.get("d_model", D_MODEL), c.get("layers")
    d_k = c.get("d_k") or (STACK_D_K if layers else d_model // h)
    return {"num_heads": h, "d_model": d_model, "layers": layers, "d_k": d_k, "ffn": c.get("ffn", 0),
            "offsets": offsets, "seed": seed}


def _entry(run: dict) -> dict:
    """One model of the index, from a run or a configuration."""
    layers = run.get("layers")
    return {"key": model_key(run["num_heads"], layers, run["d_model"], run.get("ffn", 0)),
            "layers": layers or 1, "heads": run["num_heads"], "d_k": run["d_k"], "d_model": run["d_model"],
            "ffn": run.get("ffn", 0), "seed": run["seed"], "stack": bool(layers), "file": _run_file(run)}


def index_data(heads: Sequence[int] = HEADS, seeds: Sequence[int] = SEEDS,
               stacks: Sequence[dict] = DEPTH, stack_seed: int = STACK_SEED, second: Sequence = SECOND) -> dict:
    """What every lab page needs first: names, offsets, the models on offer, the held-out and sample logs.

    Each model: its key (the model menu's value), layers (1 for the one-layer model), heads, d_k, d_model,
    ffn (the feed-forward layer's hidden width, 0 for none), seed, whether it is a residual stack, its
    file. The one-layer models come first, by head count (a second-round model after the sweep's model
    of as many heads, if any), then experiment 4's stacks, then the second round's."""
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)  # the page's held-out logs (N, L)
    sample, _ = make_batch(1, seed=SAMPLE_SEED)  # the log of the page's heatmaps (1, L)
    flat = [_entry({"num_heads": h, "d_model": D_MODEL, "d_k": D_MODEL // h, "seed": s}) for h in heads for s in seeds]
    deep = [_entry({"layers": c["layers"], "num_heads": c["num_heads"], "d_k": c.get("d_k", STACK_D_K),
                    "d_model": c.get("d_model", D_MODEL), "seed": stack_seed}) for c in stacks]
    extra = [_entry(second_config(job)) for job in second]
    flat = sorted(flat + [e for e in extra if not e["stack"]], key=lambda e: e["heads"])  # stable: sweep first
    return {
        "events": list(EVENTS), "offsets": list(OFFSETS), "seq_len": SEQ_LEN,
        "d_model": D_MODEL,  # the sweep's; the model menu names any other model's d_model
        "models": flat + deep + [e for e in extra if e["stack"]],
        "heldout": {"seed": EVAL_SEED, "count": EVAL_SIZE, "logs": encode_logs(x)},
        "sample": encode_logs(sample),
    }


def _result_path(folder: Path | str | None) -> Path:
    return (resultcache.results_dir() if folder is None else Path(folder)) / f"{RESULT}.json"


def second_records(second: Sequence = SECOND, folder: Path | str | None = None) -> list[dict]:
    """The records of the second round's models in results/whatif-sweeps.json (folder: resultcache.results_dir()),
    in the order of second, each with its state_dict; ValueError naming the command when any is missing."""
    path = _result_path(folder)
    command = "python -m sitebuild.results whatif"
    if not path.is_file():
        raise ValueError(f"the §4 lab reads the second round's models from {path}, which does not exist: "
                         f"run `{command}` and commit it")
    by_job = {(r["sweep"], r["index"], r["seed"]): r
              for r in json.loads(path.read_text(encoding="utf-8"))["data"]["models"]}
    out = []
    for job in second:
        record = by_job.get(tuple(job))
        if record is None or "state_dict" not in record:
            raise ValueError(f"{path} has no weights for {tuple(job)} (protocol.LAB_MODELS keeps them): "
                             f"run `{command}` again and commit it")
        out.append(record)
    return out


def second_digest(second: Sequence = SECOND, folder: Path | str | None = None) -> str:
    """sha256 of the second round's records the lab reads (weights, accuracies): a new result, new files."""
    text = json.dumps(second_records(second, folder), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def result_run(record: dict) -> dict:
    """A run dict like train_run's (what load_model, model_data and check_data read) from one record of
    results/whatif-sweeps.json: its configuration from the protocol, its decoded float32 weights, its
    held-out accuracies as the result recorded them."""
    if not isinstance(record, dict) or "state_dict" not in record:
        raise ValueError(f"record must be a whatif-sweeps model with a state_dict, got {type(record).__name__}")
    config = second_config((record["sweep"], record["index"], record["seed"]))
    state = {k: v.numpy() for k, v in protocol.decode_state(record["state_dict"]).items()}
    if state["event.weight"].shape[1] != config["d_model"] or record["d_k"] != config["d_k"]:
        raise ValueError(f"{record['sweep']}[{record['index']}]: the weights do not match the protocol's configuration")
    return {**config, "steps": record["steps"], "accuracy": record["accuracy"],
            "acc_by_offset": record["acc_by_offset"], "state_dict": state,
            "result": f"{RESULT}: {record['sweep']}[{record['index']}]"}


def second_runs(second: Sequence = SECOND, folder: Path | str | None = None) -> list[dict]:
    """result_run of each of the second round's models the lab offers (none is trained here)."""
    return [result_run(r) for r in second_records(second, folder)]


@torch.no_grad()
def measured_shares(run: dict) -> np.ndarray:
    """Offset shares on the page's held-out logs, measured on the run's weights: (h, O) for the one-layer
    model, as snippets.whatif.analysis.specialisation measures them; (n, h, O) for a stack, as
    snippets.whatif.factors.layer_shares does. For runs those cached measures cannot retrain (the
    second round's, read from its result)."""
    model = load_model(run)
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    _, w = model(x, need_weights=True)  # (N, h, L, L), or (N, n, h, L, L) for a stack
    if run.get("layers"):
        return np.stack([offset_shares(w[:, i]).numpy() for i in range(w.shape[1])])
    return offset_shares(w).numpy()


def model_data(run: dict) -> dict:
    """One trained run as the browser reads it: sizes, state_dict tensors, head roles and shares.

    The one-layer model: roles (h,) and shares (h, O) as specialisation() measures them. A stack
    (layers n, heads of width d_k, pre-LN blocks and a final layer norm with eps norm_eps; ffn > 0: each
    block ends in x + W_2 relu(W_1 LayerNorm(x)), hidden width ffn, the same eps): roles (n, h) and shares
    (n, h, O) per layer, as layer_shares() measures them. A run read from a result (result_run) is
    measured on its weights the same way (measured_shares)."""
    if not isinstance(run, dict) or "state_dict" not in run:
        raise ValueError(f"run must be a dict returned by train_run, got {type(run).__name__}")
    stack = bool(run.get("layers"))
    from_result = "result" in run  # not in the training cache: measure its weights directly
    if stack:
        shares = measured_shares(run) if from_result else np.asarray(layer_shares(run))  # (n, h, O)
        roles = [head_roles(torch.as_tensor(s)) for s in shares]
        fmt_roles = [[None if r is None else fmt_offset(r) for r in layer] for layer in roles]
        fmt_shares = [[[round(float(v), 4) for v in row] for row in layer] for layer in shares]
    else:
        if from_result:
            shares = measured_shares(run)  # (h, O)
            roles = head_roles(torch.as_tensor(shares))
        else:
            shares, roles = specialisation(run)
        fmt_roles = [None if r is None else fmt_offset(r) for r in roles]
        fmt_shares = [[round(float(v), 4) for v in row] for row in shares]
    state = run["state_dict"]
    out = {
        "heads": run["num_heads"], "seed": run["seed"], "d_model": run["d_model"],
        "layers": run["layers"] if stack else 1, "stack": stack, "d_k": run["d_k"], "ffn": run.get("ffn", 0),
        "vocab": len(EVENTS), "seq_len": SEQ_LEN, "offsets": list(OFFSETS),
        "share_offsets": list(SHARE_OFFSETS),
        "roles": fmt_roles,
        "shares": fmt_shares,
        "python": {"acc_by_offset": run["acc_by_offset"], "accuracy": run["accuracy"]},
        "weights": {k: {"shape": list(np.shape(v)), "data": encode_array(v)} for k, v in state.items()},
    }
    if "result" in run:
        out["source"] = run["result"]
    if stack:
        model = load_model(run)
        out["norm_eps"] = model.norm.eps
        norms = [b.norm for b in model.blocks] + [b.ffn_norm for b in model.blocks if b.ffn is not None]
        if any(n.eps != model.norm.eps for n in norms):
            raise ValueError("expected one layer-norm eps in the whole stack, got several")
    return out


def _encode64(a: torch.Tensor) -> str:
    return base64.b64encode(np.ascontiguousarray(a.numpy(), dtype="<f8").tobytes()).decode("ascii")


@torch.no_grad()
def check_data(run: dict, n_logs: int = CHECK_LOGS) -> dict:
    """PyTorch's logits (masks, N, L, T, V) on the first n_logs held-out logs, all heads and check_mask.

    For a stack, the masks have one flag per head of every layer (stack_heads_off), and the float32
    attention weights (masks, N, layers, h, L, L) are exported too (the float64 logits already show
    how close the whole forward pass is; float64 weights would double the file for no new check)."""
    if not isinstance(n_logs, int) or not 1 <= n_logs <= EVAL_SIZE:
        raise ValueError(f"n_logs must be an integer in 1 … {EVAL_SIZE}, got {n_logs!r}")
    model = load_model(run)
    stack = bool(run.get("layers"))
    off = stack_heads_off if stack else heads_off
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    x = x[:n_logs]  # (N, L)
    n_heads = run["num_heads"] * (run["layers"] if stack else 1)
    masks = [[True] * n_heads, check_mask(n_heads)]
    outs: dict[str, list] = {"logits": [], "logits64": [], "attn": []}
    for suffix in ("", "64"):
        if suffix:
            model.double()  # the same weights in float64: float32's own rounding, measured
        for keep in masks:
            with off(model, keep):
                if stack:
                    logits, w = model(x, need_weights=True)  # (N, L, T, V), (N, n, h, L, L)
                    if not suffix:
                        outs["attn"].append(w)
                else:
                    logits = model(x)  # (N, L, T, V), float32 as trained and evaluated
                outs["logits" + suffix].append(logits)
    logits, logits64 = torch.stack(outs["logits"]), torch.stack(outs["logits64"])  # (masks, N, L, T, V)
    data = {"masks": masks, "logs": encode_logs(x), "shape": list(logits.shape), "logits": encode_array(logits),
            "logits64": _encode64(logits64)}
    if stack:
        attn = torch.stack(outs["attn"])  # (masks, N, n, h, L, L)
        data.update({"attn_shape": list(attn.shape), "attn": encode_array(attn)})
    return data


def lab_files(heads: Sequence[int] = HEADS, seeds: Sequence[int] = SEEDS,
              stacks: Sequence[dict] = DEPTH, second: Sequence = SECOND) -> dict[str, str]:
    """Every file the lab serves: path under FOLDER -> JSON text (compact, keys in a fixed order).

    Cached on disk, keyed by this module's code and everything it imports (the models included) and by
    the second round's records in results/whatif-sweeps.json (resultcache.results_dir())."""
    second = tuple(tuple(j) for j in second)
    digest = second_digest(second) if second else ""
    return _lab_files(tuple(heads), tuple(seeds), tuple(json.dumps(c, sort_keys=True) for c in stacks), second,
                      digest, fingerprint([__name__]))


@memory.cache
def _lab_files(heads: tuple[int, ...], seeds: tuple[int, ...], stacks: tuple[str, ...], second: tuple,
               results: str, code: str) -> dict[str, str]:
    def dump(obj) -> str:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))

    configs = [json.loads(c) for c in stacks]
    old = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny forward passes: threads cost more than they save (10x here)
    try:
        runs = sweep(heads=heads, seeds=seeds) + (stack_runs(configs) if configs else [])
        runs += second_runs(second) if second else []
        files = {"index.json": dump(index_data(heads, seeds, configs, second=second))}
        for run in runs:
            name = _run_file(run)
            files[name] = dump(model_data(run))
            files[name.replace(".json", ".check.json")] = dump(check_data(run))
    finally:
        torch.set_num_threads(old)
    return files

