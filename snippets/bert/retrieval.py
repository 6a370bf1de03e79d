"""Head ablation measured two ways on the page's log messages and their rewordings (``logdata.PAIRS``).

1. **Angle**: how far, in degrees, removing one head turns each text's sentence embedding; with
   its spread over the texts, next to the angle between a message and its rewording and between
   two different messages.
2. **Retrieval**: every text looks for its partner (message -> rewording, rewording -> message)
   among all the other texts by cosine similarity. A pair scores the mean of its two lookups
   (0, 0.5 or 1); accuracy is the mean over pairs. A head's effect is the change in accuracy when
   it is removed, pair by pair (the same pairs with and without the head); whether it is a
   measurable change is decided in ``snippets.bert.effects``, with ``snippets.stats``.

Removing a head of layer l changes nothing before layer l, so each ablation reruns layers l … n-1
only, on all texts at once (padded, mean-pooled over the real tokens).

Shape letters: N texts, T tokens, E hidden size, h heads, n layers, P pairs (N = 2P).

>>> import torch
>>> round(angle_deg(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 1.0])).item(), 1)
45.0
>>> pair_scores(torch.eye(2).repeat(2, 1)).tolist()  # text i and its partner i + P point the same way
[1.0, 1.0]
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from resultcache import fingerprint, memory

from .ablation import head_mask
from .loader import BERT_PACKAGES, encode_text, load_model, one_thread
from .logdata import PAIRS

__all__ = ["CORPUS", "encode_batch", "pooled_embedding", "angle_deg", "pair_scores", "bert_layer_ablation",
           "full_embeddings", "ablation_embeddings", "ablation_results"]

CORPUS = tuple(m for m, _ in PAIRS) + tuple(r for _, r in PAIRS)  # P messages, then their P rewordings


def _code() -> str:
    return fingerprint([__name__], packages=BERT_PACKAGES)


def encode_batch(texts) -> tuple[Tensor, Tensor]:
    """Token ids (N, T), padded with 0 ([PAD]), and the mask (N, T): 1 for real tokens."""
    ids = [encode_text(t).ids[0] for t in texts]
    T = max(len(i) for i in ids)
    out = torch.zeros(len(ids), T, dtype=torch.long)
    mask = torch.zeros(len(ids), T, dtype=torch.long)
    for row, i in enumerate(ids):
        out[row, :len(i)], mask[row, :len(i)] = i, 1
    return out, mask


# --8<-- [start:angle]
def pooled_embedding(hidden: Tensor, mask: Tensor) -> Tensor:
    """Mean of (N, T, E) hidden states over the real tokens: (N, E)."""
    m = mask.unsqueeze(-1).to(hidden)  # (N, T, 1)
    return (hidden * m).sum(1) / m.sum(1)


def angle_deg(a: Tensor, b: Tensor) -> Tensor:
    """Angle between vectors along the last dimension, in degrees."""
    cos = nn.functional.cosine_similarity(a, b, dim=-1).clamp(-1.0, 1.0)
    return torch.rad2deg(torch.acos(cos))
# --8<-- [end:angle]


def pair_scores(emb: Tensor) -> Tensor:
    """(N, E) embeddings, N = 2P, text i paired with i + P -> (P,) score per pair: the mean over its two
    texts of 1 if the nearest other text (by cosine) is the partner, else 0."""
    if emb.dim() != 2 or emb.size(0) % 2 or emb.size(0) < 4:
        raise ValueError(f"expected (2P, E) embeddings with P >= 2, got {tuple(emb.shape)}")
    P = emb.size(0) // 2
    e = nn.functional.normalize(emb.double(), dim=-1)
    sim = e @ e.T  # (N, N)
    sim.fill_diagonal_(-2.0)  # a text never retrieves itself
    partner = torch.arange(2 * P).add(P).remainder(2 * P)  # (N,)
    hit = (sim.argmax(-1) == partner).double()  # (N,)
    return (hit[:P] + hit[P:]) / 2


@memory.cache
@one_thread
def _layer(texts: tuple[str, ...], layer: int, code: str) -> Tensor:
    model = load_model()
    ids, mask = encode_batch(texts)
    pad = mask == 0  # (N, T), True = padding
    with torch.no_grad():
        hidden, _ = model(ids, mask)
        out = []
        for head in range(model.cfg.num_heads):
            with head_mask(model.layers[layer].attn, head):
                x = hidden[layer]  # the input of this layer, unchanged by the ablation
                for block in model.layers[layer:]:
                    x, _ = block(x, pad)
            out.append(pooled_embedding(x, mask))
    return torch.stack(out)  # (h, N, E)


@memory.cache
@one_thread
def _full(texts: tuple[str, ...], code: str) -> Tensor:
    ids, mask = encode_batch(texts)
    with torch.no_grad():
        hidden, _ = load_model()(ids, mask)
    return pooled_embedding(hidden[-1], mask)  # (N, E)


def _check_texts(texts) -> tuple[str, ...]:
    if isinstance(texts, str) or len(texts) < 4 or len(texts) % 2:
        raise ValueError(f"texts must be an even number (at least 4) of strings, got {texts!r:.80}")
    return tuple(texts)


def bert_layer_ablation(layer: int, texts=CORPUS) -> Tensor:
    """Embeddings with each head of one layer removed: (h, N, E) (cached on disk)."""
    n = load_model().cfg.num_layers
    if not isinstance(layer, int) or not 0 <= layer < n:
        raise ValueError(f"layer must be in 0 … {n - 1}, got {layer!r}")
    return _layer(_check_texts(texts), layer, _code())


def full_embeddings(texts=CORPUS) -> Tensor:
    """The full model's embeddings of the texts, batched and padded: (N, E) (cached on disk)."""
    return _full(_check_texts(texts), _code())


def ablation_embeddings(texts=CORPUS) -> tuple[Tensor, Tensor]:
    """The full model's embeddings (N, E) and, for every layer and head removed, (n, h, N, E)."""
    n = load_model().cfg.num_layers
    return full_embeddings(texts), torch.stack([bert_layer_ablation(layer, texts) for layer in range(n)])


def ablation_results(texts=CORPUS) -> dict[str, Tensor | float]:
    """Everything the page reports: angles (degrees) and retrieval accuracy, with and without each head.

    angles (n, h, N): how far removing the head turns each text's embedding;
    pair_angle (P,): message vs its rewording; other_angle: every two texts that are not a pair;
    scores (P,): each pair's retrieval score with the full model, accuracy their mean;
    ablated_scores (n, h, P): each pair's score with that head removed (the verdicts: ``effects``).
    """
    full, ablated = ablation_embeddings(texts)
    P = full.size(0) // 2
    base = pair_scores(full)  # (P,)
    n, h = ablated.shape[:2]
    scores = torch.stack([torch.stack([pair_scores(ablated[i, j]) for j in range(h)]) for i in range(n)])
    sims = angle_deg(full.unsqueeze(1), full.unsqueeze(0))  # (N, N)
    partner = torch.arange(2 * P).add(P).remainder(2 * P)
    other = ~torch.eye(2 * P, dtype=torch.bool)
    other[torch.arange(2 * P), partner] = False
    other = other.triu()
    return {"angles": angle_deg(ablated, full), "pair_angle": sims[torch.arange(P), torch.arange(P) + P],
            "other_angle": sims[other], "accuracy": base.mean().item(), "scores": base, "ablated_scores": scores,
            "pairs": P}
