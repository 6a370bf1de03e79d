"""Head ablation on the pretrained model: switch one head off, measure how much the sentence embedding moves.

all-MiniLM-L6-v2 turns a text into one vector by mean pooling its last hidden states (its
``1_Pooling/config.json``: ``pooling_mode_mean_tokens``), then normalising. A head is switched
off with a head mask: its slice of the merged context is zeroed just before ``W_o``, in our own
``MultiHeadAttention``. The change is 1 − cosine between the embedding with and without the head.

Shape letters: N batch, T tokens, E hidden size, h heads, n layers.

>>> import torch
>>> round(embedding_shift(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])), 3)
1.0
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import torch
from torch import Tensor, nn

from resultcache import fingerprint, memory

from .analysis import TEXTS, all_stats
from .loader import BERT_PACKAGES, encode, load_model

__all__ = ["head_mask", "sentence_embedding", "embedding_shift", "head_importance", "text_pair_shift",
           "importance_by_category", "ranked_heads", "broad_heads_vs_clark"]


def _code() -> str:
    """Cache key: this module and everything it imports, and the model's and libraries' versions."""
    return fingerprint([__name__], packages=BERT_PACKAGES)


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


@torch.no_grad()
def sentence_embedding(model: nn.Module, ids: Tensor) -> Tensor:
    """Mean of the last hidden states over the tokens: (N, E)."""
    hidden, _ = model(ids)  # hidden[-1]: (N, T, E)
    return hidden[-1].mean(dim=1)  # (N, E), the model's mean pooling


def embedding_shift(a: Tensor, b: Tensor) -> float:
    """1 − cosine similarity: 0 when the direction is unchanged."""
    cos = nn.functional.cosine_similarity(a.flatten(), b.flatten(), dim=0)
    return 1.0 - cos.item()
# --8<-- [end:head_mask]


@memory.cache
def _importance(texts: tuple[str, ...], code: str) -> Tensor:
    model = load_model()
    n, h = model.cfg.num_layers, model.cfg.num_heads
    shift = torch.zeros(len(texts), n, h, dtype=torch.float64)  # (texts, n, h)
    for t, text in enumerate(texts):
        ids = encode(text).ids  # (1, T)
        full = sentence_embedding(model, ids)
        for layer in range(n):
            for head in range(h):
                with head_mask(model.layers[layer].attn, head):
                    shift[t, layer, head] = embedding_shift(sentence_embedding(model, ids), full)
    return shift


@memory.cache
def _pair_shift(texts: tuple[str, ...], code: str) -> float:
    model = load_model()
    emb = [sentence_embedding(model, encode(t).ids) for t in texts]
    pairs = [(i, j) for i in range(len(emb)) for j in range(i + 1, len(emb))]
    return sum(embedding_shift(emb[i], emb[j]) for i, j in pairs) / len(pairs)


def text_pair_shift(texts: Sequence[str] = TEXTS) -> float:
    """For scale: mean 1 − cos between the embeddings of two different texts."""
    if isinstance(texts, str) or len(texts) < 2:
        raise ValueError(f"texts must hold at least two strings, got {texts!r}")
    return _pair_shift(tuple(texts), _code())


def head_importance(texts: Sequence[str] = TEXTS) -> Tensor:
    """For every text, layer and head: 1 − cos(embedding without the head, full embedding). (texts, n, h)."""
    if isinstance(texts, str) or not texts or not all(isinstance(t, str) and t.strip() for t in texts):
        raise ValueError(f"texts must be a non-empty list of non-empty strings, got {texts!r}")
    return _importance(tuple(texts), _code())


def importance_by_category(texts: Sequence[str] = TEXTS) -> dict[str, list[tuple[int, int, float]]]:
    """Per head category: (layer, head, mean 1 − cos over the texts) of each of its heads."""
    shift = head_importance(texts).mean(dim=0)  # (n, h): mean over texts
    _, cats = all_stats(texts)
    groups: dict[str, list[tuple[int, int, float]]] = {}
    for layer, row in enumerate(cats):
        for head, cat in enumerate(row):
            groups.setdefault(cat, []).append((layer, head, shift[layer, head].item()))
    return groups


def ranked_heads(texts: Sequence[str] = TEXTS) -> list[tuple[int, int, float, str]]:
    """Every head as (layer, head, mean 1 − cos, category), largest effect first."""
    groups = importance_by_category(texts)
    flat = [(layer, head, s, cat) for cat, vals in groups.items() for layer, head, s in vals]
    return sorted(flat, key=lambda v: -v[2])


def broad_heads_vs_clark(texts: Sequence[str] = TEXTS) -> dict[str, float | int]:
    """This page's broad heads next to Clark et al.'s description (rarely more than 10% on one word).

    Returns the number of broad heads, the smallest and largest mean share they put on [CLS], and
    the mean fraction of their query rows whose most-attended token gets more than 10%.
    """
    from .analysis import attention_maps

    stats, cats = all_stats(texts)
    broad = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == "broad"]
    if not broad:
        raise ValueError("no head is in the broad category; nothing to compare")
    rows_max = []  # over broad heads: share of query rows whose largest weight exceeds 10%
    for text in texts:
        maps, _ = attention_maps(text)  # (n, h, T, T)
        for layer, head in broad:
            rows_max.append((maps[layer, head].max(dim=-1).values > 0.1).double().mean().item())
    cls = [stats["cls"][lh].item() for lh in broad]
    return {"heads": len(broad), "cls_min": min(cls), "cls_max": max(cls), "over_10": sum(rows_max) / len(rows_max)}
