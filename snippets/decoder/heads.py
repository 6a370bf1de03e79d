"""Every one of SmolLM2-135M's 270 heads (30 layers x 9), scored with the induction page's measures.

- previous-token score: mean attention from position t to t - 1 (t >= 1);
- prefix-matching (induction) score, on a random token sequence shown twice: mean attention from a
  token's second occurrence to the token that followed its first occurrence (where an induction head
  looks to predict the next token);
- sink share: mean attention from position t to position 0 (t >= 1), the "attention sink".

The texts: the site's own Chinese (the opening of §1), the same passage in English, and repeated
random tokens. Also here: the key/value cache's size, from the config and read off a real cache.

Shape letters: N sequences, T positions, h heads, n layers.
"""

from __future__ import annotations

import torch
from torch import Tensor

from ..kvheads.attention import cache_bytes_per_token, formula_bytes_per_token
from .model import LlamaDecoder, shared_model
from .reference import TEXTS_FILE, encode
from .weights import file_hash, read_config

__all__ = ["ideal_weights", "ZH_TEXT", "EN_TEXT", "REPEAT", "repeated_tokens", "previous_token", "prefix_matching", "sink_share",
           "text_scores", "cache_sizes", "measure"]

ZH_TEXT, EN_TEXT = TEXTS_FILE["passages"]["zh"], TEXTS_FILE["passages"]["en"]
# Random tokens shown twice: N sequences of T tokens, drawn from ordinary vocabulary ids (past the
# special and byte tokens), seeded.
REPEAT = {"sequences": 4, "length": 50, "low": 1000, "high": 40000, "seed": 0}


def repeated_tokens(sequences: int, length: int, low: int, high: int, seed: int) -> Tensor:
    """(N, 2T) token ids: T random ids, then the same T again."""
    g = torch.Generator().manual_seed(seed)
    half = torch.randint(low, high, (sequences, length), generator=g)  # (N, T)
    return torch.cat([half, half], dim=1)  # (N, 2T)


# --8<-- [start:scores]
def previous_token(w: Tensor) -> Tensor:
    """w (N, h, T, T) -> (h,): mean weight on the position just before."""
    return w.diagonal(offset=-1, dim1=-2, dim2=-1).mean((0, -1))


def sink_share(w: Tensor) -> Tensor:
    """w (N, h, T, T) -> (h,): mean weight on position 0, from t >= 1."""
    return w[:, :, 1:, 0].mean((0, -1))


def prefix_matching(w: Tensor, T: int) -> Tensor:
    """w (N, h, 2T, 2T) on a sequence repeated once -> (h,): from the
    second copy's position T + i to position i + 1, the token after
    the first occurrence of the same token."""
    i = torch.arange(T)  # (T,): queries T + i, targets i + 1
    return w[:, :, T + i, i + 1].mean((0, -1))
# --8<-- [end:scores]


def ideal_weights(T: int) -> Tensor:
    """(1, 3, 2T, 2T) causal attention weights of three made-up heads on a sequence of T tokens shown twice:
    head 0 puts all its weight on the previous position (position 0 on itself), head 1 on position 0, head 2
    is an induction head (from T + i to i + 1; the first copy on itself). Each scores 1 on its own measure.

    >>> w = ideal_weights(5)
    >>> previous_token(w).tolist(), prefix_matching(w, 5).tolist(), sink_share(w)[1].item()
    ([1.0, 0.1111111119389534, 0.0], [0.0, 0.0, 1.0], 1.0)
    """
    if not isinstance(T, int) or isinstance(T, bool) or T < 2:
        raise ValueError(f"T must be an integer of at least 2, got {T!r}")
    S = 2 * T
    w = torch.zeros(1, 3, S, S)
    t = torch.arange(S)
    w[0, 0, t, (t - 1).clamp(min=0)] = 1.0  # previous token
    w[0, 1, :, 0] = 1.0  # first token
    w[0, 2, t[:T], t[:T]] = 1.0  # first copy: itself
    w[0, 2, T + t[:T], t[:T] + 1] = 1.0  # second copy: after the first occurrence
    return w


@torch.no_grad()
def text_scores(model: LlamaDecoder, ids: Tensor, T: int | None = None) -> dict:
    """Per layer and head ([n][h] lists): previous-token and sink scores, and prefix-matching when
    ids (N, 2T) is a sequence shown twice (T given)."""
    model(ids, keep=True)
    out = {"prev": [], "sink": []} | ({} if T is None else {"prefix": []})
    for w in model.attention_weights():  # (N, h, T, T) per layer
        out["prev"].append([round(float(x), 5) for x in previous_token(w)])
        out["sink"].append([round(float(x), 5) for x in sink_share(w)])
        if T is not None:
            out["prefix"].append([round(float(x), 5) for x in prefix_matching(w, T)])
    for block in model.blocks:
        block.attn.weights = None  # free 30 x (N, h, T, T)
    return out


def cache_sizes(model: LlamaDecoder) -> dict:
    """KV cache bytes per token (all layers) at float32 and at 16 bits, for this model's g = 3 and for
    the same shapes with g = h (MHA) and g = 1 (MQA), from the config; and read off a real cache."""
    cfg = model.cfg
    rows = []
    for kind, g in (("MHA", cfg.num_heads), ("GQA", cfg.num_kv_heads), ("MQA", 1)):
        per = {dt: cfg.num_layers * formula_bytes_per_token(g, cfg.d_k, getattr(torch, dt))
               for dt in ("float32", "bfloat16")}
        rows.append({"kind": kind, "kv_heads": g, "bytes_per_token": per,
                     "bytes_at_context": {dt: b * cfg.context for dt, b in per.items()}})
    caches = model.new_caches()
    with torch.no_grad():
        model(torch.tensor([[1, 2, 3, 4]]), caches)
    read = sum(cache_bytes_per_token(c) for c in caches)
    return {"context": cfg.context, "rows": rows, "read_off_cache_float32": read}


def measure(record=None) -> dict:
    """Everything the page shows about the real model's heads and cache (one command:
    ``python -m sitebuild.results decoder-heads``)."""
    import contextlib

    record = record or (lambda run: contextlib.nullcontext())
    model = shared_model()
    data = {"file_sha256": file_hash(), "config": read_config().as_dict(), "repeat": REPEAT}
    with record("cache"):
        data["cache"] = cache_sizes(model)
    data["scores"] = {}
    for name, text in (("zh", ZH_TEXT), ("en", EN_TEXT)):
        with record(name):
            ids = encode(text, model)  # (1, T)
            data["scores"][name] = text_scores(model, ids) | {"tokens": ids.shape[1]}
    with record("repeated"):
        ids = repeated_tokens(**REPEAT)  # (N, 2T)
        data["scores"]["repeated"] = text_scores(model, ids, REPEAT["length"]) | {"tokens": ids.shape[1]}
    return data
