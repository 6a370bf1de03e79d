"""Head ablation on the pretrained model: switch one head off (``head_mask``); the measurements are in ``retrieval``.

all-MiniLM-L6-v2 turns a text into one vector by mean pooling its last hidden states (its
``1_Pooling/config.json``: ``pooling_mode_mean_tokens``), then normalising. A head is switched
off with a head mask: its slice of the merged context is zeroed just before ``W_o``, in our own
``MultiHeadAttention``. Also here: how the broad heads compare with Clark et al.'s description, per text length.

Shape letters: N batch, T tokens, E hidden size, h heads, n layers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import torch
from torch import Tensor, nn

from .analysis import TEXTS, all_stats
from .logdata import LONG_LOG

__all__ = ["head_mask", "broad_heads_vs_clark", "length_baseline"]


def _check_head(attn: nn.Module, head: int) -> None:
    if not isinstance(head, int) or not 0 <= head < attn.num_heads:
        raise ValueError(f"head must be in 0 … {attn.num_heads - 1}, got {head!r}")


# --8<-- [start:head_mask]
@contextlib.contextmanager
def head_mask(attn: nn.Module, head: int):
    """Switch one head of our MultiHeadAttention off (zero it before W_o)."""
    _check_head(attn, head)
    gate = torch.ones(attn.d_model)  # (E,)
    d_k = attn.d_k
    gate[head * d_k:(head + 1) * d_k] = 0.0  # head i's features

    def hook(module, args):
        return (args[0] * gate,)  # (N, T, E), the merged heads

    handle = attn.W_o.register_forward_pre_hook(hook)
    try:
        yield attn
    finally:
        handle.remove()
# --8<-- [end:head_mask]


def broad_heads_vs_clark(texts: Sequence[str] = TEXTS) -> dict[str, float | int]:
    """This page's broad heads next to Clark et al.'s description (rarely more than 10% on one word).

    Returns the number of broad heads, the smallest and largest mean share they put on [CLS], and
    the mean fraction of their query rows whose most-attended token gets more than 10%.
    """
    from .analysis import bert_attention_maps

    stats, cats = all_stats(texts)
    broad = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == "broad"]
    if not broad:
        raise ValueError("no head is in the broad category; nothing to compare")
    rows_max = []  # over broad heads: share of query rows whose largest weight exceeds 10%
    for text in texts:
        maps, _ = bert_attention_maps(text)  # (n, h, T, T)
        for layer, head in broad:
            rows_max.append((maps[layer, head].max(dim=-1).values > 0.1).double().mean().item())
    cls = [stats["cls"][lh].item() for lh in broad]
    return {"heads": len(broad), "cls_min": min(cls), "cls_max": max(cls), "over_10": sum(rows_max) / len(rows_max)}


def length_baseline(texts: Sequence[str] = (*TEXTS, LONG_LOG)) -> list[dict[str, float | int | str]]:
    """Per text: its length T, a uniform row's weight per token (1/T), and the fraction of the broad heads'
    query rows whose largest weight exceeds 10%. Broad heads are the categories measured on ``TEXTS``."""
    from .analysis import bert_attention_maps

    _, cats = all_stats(TEXTS)
    broad = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == "broad"]
    if not broad:
        raise ValueError("no head is in the broad category; nothing to compare")
    out = []
    for text in texts:
        maps, tokens = bert_attention_maps(text)  # (n, h, T, T)
        over = torch.stack([(maps[layer, head].max(dim=-1).values > 0.1).double().mean() for layer, head in broad])
        out.append({"text": text, "tokens": len(tokens), "uniform": 1 / len(tokens), "over_10": over.mean().item()})
    return out
