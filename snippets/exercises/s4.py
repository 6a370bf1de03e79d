"""§4 exercises: read the cached sweep, move a threshold, test the d_k = 1 argument, and look at a real model.

Everything here reads the §4 runs from the on-disk cache (snippets.whatif) or the pretrained
model's cached attention maps (snippets.bert); nothing is trained.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from .._checks import check_positive_int
from ..bert.analysis import TEXTS, all_stats, attention_maps
from ..bert.heads import head_stats
from ..whatif.analysis import SEEDS, head_roles, sweep, specialisation
from ..whatif.report import SAMPLE_SEED
from ..whatif.task import OFFSETS, make_batch
from ..whatif.train import load_model, train_run

__all__ = ["per_offset", "roles_by_threshold", "favourite_keys", "NEW_SENTENCE", "prev_token_head"]


# --8<-- [start:per_offset]
def per_offset(heads=(2, 4), seeds=SEEDS, good=0.9):
    """Per head count and seed: held-out accuracy on each offset
    (−2, −1, +1, +2), and how many offsets reach `good`."""
    rows = []
    for run in sweep(heads=list(heads), seeds=list(seeds)):
        acc = run["acc_by_offset"]  # one accuracy per offset
        n_good = sum(a >= good for a in acc)
        rows.append((run["num_heads"], run["seed"], acc, n_good))
    return rows
# --8<-- [end:per_offset]


def _check_thresholds(thresholds: Sequence[float]) -> None:
    if not thresholds or not all(isinstance(t, (int, float)) and 0 < t <= 1 for t in thresholds):
        raise ValueError(f"thresholds must be a non-empty list of numbers in (0, 1], got {thresholds!r}")


# --8<-- [start:roles_by_threshold]
def roles_by_threshold(thresholds, num_heads=8, seeds=SEEDS):
    """Heads with a role (one offset holding >= threshold of its
    attention), per threshold, summed over the seeds' models."""
    _check_thresholds(thresholds)
    shares = [specialisation(train_run(num_heads, s))[0] for s in seeds]
    rows = []
    for t in thresholds:
        roles = [head_roles(sh, threshold=t) for sh in shares]
        n = sum(r is not None for rs in roles for r in rs)
        rows.append((t, n, num_heads * len(seeds)))
    return rows
# --8<-- [end:roles_by_threshold]


# --8<-- [start:favourite_keys]
@torch.no_grad()
def favourite_keys(num_heads=32, seed=0, stream=SAMPLE_SEED):
    """For each head: the distinct keys that some query of one
    stream weights most (its argmax), as a sorted list."""
    model = load_model(train_run(num_heads, seed))
    x, _ = make_batch(1, seed=stream)  # (1, L): one stream
    _, w = model(x, need_weights=True)  # (1, h, L, L)
    top = w[0].argmax(dim=-1)  # (h, L): each query's top key
    return [sorted(set(t.tolist())) for t in top]
# --8<-- [end:favourite_keys]


NEW_SENTENCE = "After the deploy, the checkout page slowed down and users left."


# --8<-- [start:prev_token_head]
def prev_token_head(text=NEW_SENTENCE):
    """The (layer, head) whose mean weight on the previous token is
    highest on this text, that weight, and the best on the page's texts."""
    maps, tokens = attention_maps(text)  # (n, h, T, T), T tokens
    prev = head_stats([(maps, tokens)])["prev"]  # (n, h)
    layer, head = divmod(int(prev.argmax()), prev.size(1))
    pooled = all_stats(TEXTS)[0]["prev"]  # (n, h), the lab page's texts
    p_layer, p_head = divmod(int(pooled.argmax()), pooled.size(1))
    return {"tokens": tokens, "head": (layer, head),
            "prev": prev[layer, head].item(),
            "page_head": (p_layer, p_head),
            "page_prev": pooled[p_layer, p_head].item()}
# --8<-- [end:prev_token_head]


def favourite_key_counts(heads: Sequence[int] = (4, 32), seed: int = 0) -> list[tuple[int, int, int]]:
    """(h, d_k, most distinct favourite keys of any head) for each head count."""
    check_positive_int(seed + 1, "seed + 1")
    out = []
    for h in heads:
        keys = favourite_keys(h, seed)
        out.append((h, 32 // h, max(len(k) for k in keys)))
    return out


def offsets() -> tuple[int, ...]:
    return tuple(OFFSETS)


_ = np  # numpy arrays come back from the cache
