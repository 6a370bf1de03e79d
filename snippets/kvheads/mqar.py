"""Multi-query associative recall with distractors (MQAR; Arora et al. 2023, "Zoology", arXiv 2312.04927),
and a small causal model to learn it with MHA, GQA, MQA or MLA attention.

A sequence of T tokens starts with n key-value pairs. Each key is then asked for once, at a random
position among the remaining T - 2n; every other position holds a distractor, a token that is never a
key or a value. So queries come at varying distances from their pairs, with unrelated tokens between,
as in Zoology's MQAR (Zoology draws the query positions from a power law over the distance; here every
free position is equally likely). Keys, values and distractors are separate tokens: KEYS keys,
VALUES values, NOISE distractors; keys are distinct within a sequence. Only the query positions are
scored.

Shape letters: N batch, T positions, E = d_model, V vocabulary.

>>> x, y = make_mqar_batch(2, num_pairs=4, seq_len=16, seed=0)
>>> x.shape, y.shape
(torch.Size([2, 16]), torch.Size([2, 16]))
>>> asked = (y[0] != IGNORE).nonzero().flatten()
>>> len(asked), bool((x[0, 8:] >= KEYS + VALUES).sum() == 16 - 8 - 4)  # 4 queries, the rest distractors
(4, True)
>>> t = int(asked[0]); i = x[0, :8:2].tolist().index(int(x[0, t]))  # a query, and its pair
>>> bool(y[0, t] == x[0, 2 * i + 1])
True
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_positive_int
from .attention import GroupedQueryAttention, check_kv_heads
from .mla import LatentAttention

__all__ = ["KEYS", "VALUES", "NOISE", "D_MODEL", "IGNORE", "EVAL_SEED", "make_mqar_batch", "MQARModel", "cache_numbers",
           "mqar_accuracy", "train_mqar"]

KEYS, VALUES, NOISE = 64, 64, 64  # token ids: keys 0-63, values 64-127, distractors 128-191
D_MODEL = 64
IGNORE = -100


# --8<-- [start:task]
def make_mqar_batch(batch_size: int, num_pairs: int, seq_len: int,
                    seed: int):
    """x (N, T): k1 v1 ... kn vn, then distractors with each key asked
    once at a random position; y: the value at each query, else IGNORE."""
    _check_task(batch_size, num_pairs, seq_len)
    N, n, T = batch_size, num_pairs, seq_len
    gen = torch.Generator().manual_seed(seed)
    keys = torch.rand(N, KEYS, generator=gen).argsort(1)[:, :n]  # distinct
    values = KEYS + torch.randint(VALUES, (N, n), generator=gen)
    x = KEYS + VALUES + torch.randint(NOISE, (N, T), generator=gen)
    x[:, 0:2 * n:2], x[:, 1:2 * n:2] = keys, values
    # where key j is asked: n distinct positions after the pairs
    where = 2 * n + torch.rand(N, T - 2 * n, generator=gen).argsort(1)[:, :n]
    x.scatter_(1, where, keys)
    y = torch.full_like(x, IGNORE)
    y.scatter_(1, where, values)
    return x, y
# --8<-- [end:task]


def _check_task(batch_size: int, num_pairs: int, seq_len: int) -> None:
    check_positive_int(batch_size, "batch_size")
    check_positive_int(num_pairs, "num_pairs")
    check_positive_int(seq_len, "seq_len")
    if num_pairs > KEYS:
        raise ValueError(f"num_pairs must be at most {KEYS} (keys are distinct), got {num_pairs}")
    if seq_len < 3 * num_pairs:
        raise ValueError(f"seq_len must leave room for {num_pairs} pairs and {num_pairs} queries "
                         f"(at least {3 * num_pairs}), got {seq_len}")


# --8<-- [start:model]
class MQARModel(nn.Module):
    """Token + position embeddings, attention-only blocks (layer norm,
    causal attention, residual), a linear readout. The attention is GQA
    with g key/value heads, or MLA with a d_c-wide latent if d_latent."""

    def __init__(self, num_heads: int, num_kv_heads: int | None = None,
                 d_latent: int | None = None, d_model: int = D_MODEL,
                 num_layers: int = 2, max_len: int = 256):
        super().__init__()
        _check_model(num_heads, num_kv_heads, d_latent, d_model,
                     num_layers, max_len)
        V = KEYS + VALUES + NOISE
        self.token = nn.Embedding(V, d_model)
        self.position = nn.Embedding(max_len, d_model)
        self.norms = nn.ModuleList(
            nn.LayerNorm(d_model) for _ in range(num_layers))
        self.attns = nn.ModuleList(
            LatentAttention(d_model, num_heads, d_latent) if d_latent
            else GroupedQueryAttention(d_model, num_heads, num_kv_heads)
            for _ in range(num_layers))
        self.readout = nn.Linear(d_model, V)

    def forward(self, x: Tensor) -> Tensor:
        T = x.shape[1]
        h = self.token(x) + self.position.weight[:T]  # (N, T, E)
        for norm, attn in zip(self.norms, self.attns):
            h = h + attn(norm(h))  # (N, T, E)
        return self.readout(h)  # (N, T, V)
# --8<-- [end:model]


def _check_model(num_heads, num_kv_heads, d_latent, d_model, num_layers, max_len) -> None:
    check_divisible(d_model, num_heads)
    if (num_kv_heads is None) == (d_latent is None):
        raise ValueError(f"give exactly one of num_kv_heads (GQA) and d_latent (MLA), got "
                         f"num_kv_heads={num_kv_heads!r}, d_latent={d_latent!r}")
    if num_kv_heads is not None:
        check_kv_heads(num_heads, num_kv_heads)
    else:
        check_positive_int(d_latent, "d_latent")
    check_positive_int(num_layers, "num_layers")
    check_positive_int(max_len, "max_len")


def cache_numbers(num_heads: int, num_kv_heads: int | None = None, d_latent: int | None = None,
                  d_model: int = D_MODEL) -> int:
    """Numbers one layer's cache keeps per position: 2 g d_k for GQA (a key and a value per key/value
    head), d_c for MLA (the latent alone).

    >>> cache_numbers(8, num_kv_heads=8), cache_numbers(8, num_kv_heads=1), cache_numbers(8, d_latent=16)
    (128, 16, 16)
    """
    _check_model(num_heads, num_kv_heads, d_latent, d_model, 1, 1)
    return d_latent if d_latent else 2 * num_kv_heads * (d_model // num_heads)


EVAL_SEED = 987_654_321  # held-out sequences; training batches use seed * 1_000_003 + step


@torch.no_grad()
def mqar_accuracy(model: nn.Module, num_pairs: int, seq_len: int, size: int, seed: int = EVAL_SEED) -> float:
    """Share of held-out queries whose value the model names."""
    was = model.training
    model.eval()
    x, y = make_mqar_batch(size, num_pairs, seq_len, seed=seed)
    asked = y != IGNORE
    hit = (model(x).argmax(-1) == y) & asked
    model.train(was)
    return float(hit.sum() / asked.sum())


# --8<-- [start:train]
def train_mqar(model: nn.Module, num_pairs: int, seq_len: int, seed: int,
               steps: int, batch_size: int = 64, lr: float = 3e-3,
               eval_every: int = 0, eval_size: int = 256):
    """AdamW with a one-cycle schedule on fresh sequences every step
    (the same sequences for every model at one seed). Returns the model
    and its held-out accuracy every eval_every steps (if eval_every)."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.1)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    curve = []
    for step in range(1, steps + 1):
        x, y = make_mqar_batch(batch_size, num_pairs, seq_len,
                               seed=seed * 1_000_003 + step)
        loss = nn.functional.cross_entropy(
            model(x).flatten(0, 1), y.flatten(), ignore_index=IGNORE)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if eval_every and step % eval_every == 0:
            curve.append(mqar_accuracy(model, num_pairs, seq_len,
                                       eval_size))
    return model, curve
# --8<-- [end:train]
