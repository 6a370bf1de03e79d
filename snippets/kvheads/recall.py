"""Multi-query associative recall (MQAR; Arora et al. 2023, "Zoology", arXiv 2312.04927), and a small
causal model to learn it with h query heads and g key/value heads.

A sequence lists n key-value pairs, then asks for every key again in a random order; at each
query the model must name that key's value. Keys and values are separate tokens (KEYS keys, VALUES
values), keys distinct within a sequence. Only the query positions are scored.

Shape letters: N batch, L = 3n positions, E = d_model, V vocabulary.

>>> x, y = make_recall_batch(2, num_pairs=4, seed=0)
>>> x.shape, y.shape
(torch.Size([2, 12]), torch.Size([2, 12]))
>>> k = int(x[0, 8]); i = x[0, :8:2].tolist().index(k)  # the first query, and its pair
>>> bool(y[0, 8] == x[0, 2 * i + 1]), int(y[0, 0])
(True, -100)
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_positive_int
from .attention import GroupedQueryAttention, check_kv_heads

__all__ = ["KEYS", "VALUES", "D_MODEL", "IGNORE", "make_recall_batch", "RecallModel"]

KEYS, VALUES = 64, 64  # token ids: keys 0 … 63, values 64 … 127
D_MODEL = 64
IGNORE = -100


# --8<-- [start:task]
def make_recall_batch(batch_size: int, num_pairs: int, seed: int):
    """x (N, 3n): k1 v1 … kn vn, then the n keys shuffled; y: the values
    at the query positions, IGNORE elsewhere."""
    _check_task(batch_size, num_pairs)
    N, n = batch_size, num_pairs
    gen = torch.Generator().manual_seed(seed)
    keys = torch.rand(N, KEYS, generator=gen).argsort(1)[:, :n]  # distinct
    values = KEYS + torch.randint(VALUES, (N, n), generator=gen)
    order = torch.rand(N, n, generator=gen).argsort(1)  # query order
    x = torch.empty(N, 3 * n, dtype=torch.long)
    x[:, 0:2 * n:2], x[:, 1:2 * n:2] = keys, values
    x[:, 2 * n:] = keys.gather(1, order)  # ask for each key again
    y = torch.full_like(x, IGNORE)
    y[:, 2 * n:] = values.gather(1, order)  # (N, n)
    return x, y
# --8<-- [end:task]


def _check_task(batch_size: int, num_pairs: int) -> None:
    check_positive_int(batch_size, "batch_size")
    check_positive_int(num_pairs, "num_pairs")
    if num_pairs > KEYS:
        raise ValueError(f"num_pairs must be at most {KEYS} (keys are distinct), got {num_pairs}")


# --8<-- [start:model]
class RecallModel(nn.Module):
    """Token + position embeddings, then attention-only blocks
    (layer norm, causal GQA, residual), then a linear readout."""

    def __init__(self, num_heads: int, num_kv_heads: int,
                 d_model: int = D_MODEL, num_layers: int = 2,
                 max_len: int = 3 * KEYS):
        super().__init__()
        _check_model(num_heads, num_kv_heads, d_model, num_layers, max_len)
        self.token = nn.Embedding(KEYS + VALUES, d_model)
        self.position = nn.Embedding(max_len, d_model)
        self.norms = nn.ModuleList(
            nn.LayerNorm(d_model) for _ in range(num_layers))
        self.attns = nn.ModuleList(
            GroupedQueryAttention(d_model, num_heads, num_kv_heads)
            for _ in range(num_layers))
        self.readout = nn.Linear(d_model, KEYS + VALUES)

    def forward(self, x: Tensor) -> Tensor:
        L = x.shape[1]
        h = self.token(x) + self.position.weight[:L]  # (N, L, E)
        for norm, attn in zip(self.norms, self.attns):
            h = h + attn(norm(h))  # (N, L, E)
        return self.readout(h)  # (N, L, V)
# --8<-- [end:model]


def _check_model(num_heads: int, num_kv_heads: int, d_model: int, num_layers: int, max_len: int) -> None:
    check_divisible(d_model, num_heads)
    check_kv_heads(num_heads, num_kv_heads)
    check_positive_int(num_layers, "num_layers")
    check_positive_int(max_len, "max_len")
