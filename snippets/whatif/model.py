"""One attention layer built on the site's own MultiHeadAttention, and nothing else.

Shape letters: N batch, L sequence length, E = d_model, h heads, V vocabulary, T targets.
No residual and no MLP: whatever a position knows about its neighbours must come
through attention. StackModel is the deeper alternative: pre-LN residual attention blocks
(x + attention(layer_norm(x))), heads of a fixed width d_k, still no MLP.

>>> import torch
>>> m = TimelineModel(num_heads=4)
>>> m(torch.zeros(2, 16, dtype=torch.long)).shape
torch.Size([2, 16, 4, 16])
>>> logits, w = StackModel(num_layers=2, num_heads=1)(torch.zeros(2, 16, dtype=torch.long), need_weights=True)
>>> logits.shape, w.shape
(torch.Size([2, 16, 4, 16]), torch.Size([2, 2, 1, 16, 16]))
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .._checks import check_positive_int
from ..attention import scaled_dot_product_attention
from ..multihead import MultiHeadAttention, merge_heads, split_heads
from .task import EVENTS, OFFSETS, SEQ_LEN

__all__ = ["TimelineModel", "HeadsAttention", "PreLNBlock", "StackModel", "stack_parameters", "D_MODEL"]

D_MODEL = 32


# --8<-- [start:model]
class TimelineModel(nn.Module):
    """Event + position embeddings -> one MultiHeadAttention
    -> one classifier per offset."""

    def __init__(self, num_heads: int, d_model: int = D_MODEL,
                 vocab: int = len(EVENTS), seq_len: int = SEQ_LEN,
                 n_targets: int = len(OFFSETS), d_k: int | None = None):
        super().__init__()
        self.event = nn.Embedding(vocab, d_model)
        self.position = nn.Embedding(seq_len, d_model)  # learned positions
        if d_k is None or d_k * num_heads == d_model:
            # the site's own layer, d_k = d_model / h
            self.attn = MultiHeadAttention(d_model, num_heads)
        else:  # heads of width d_k, whatever d_model is
            self.attn = HeadsAttention(d_model, num_heads, d_k)
        self.readout = nn.Linear(d_model, n_targets * vocab)
        self.n_targets, self.vocab = n_targets, vocab

    def forward(self, x: Tensor, need_weights: bool = False):
        N, L = x.shape
        h = self.event(x) + self.position.weight[:L]  # (N, L, E)
        # (N, L, E), (N, h, L, L)
        out, w = self.attn(h, h, h, need_weights=need_weights,
                           average_attn_weights=False)
        logits = self.readout(out)  # (N, L, T * V)
        logits = logits.view(N, L, self.n_targets, self.vocab)  # (N, L, T, V)
        return (logits, w) if need_weights else logits
# --8<-- [end:model]


class HeadsAttention(nn.Module):
    """Self-attention with h heads of width d_k whatever d_model is (W_q, W_k, W_v: E -> h*d_k,
    W_o: h*d_k -> E), called like MultiHeadAttention; the one-layer model uses it to set the head
    width apart from d_model."""

    def __init__(self, d_model: int, num_heads: int, d_k: int):
        super().__init__()
        for name, v in (("d_model", d_model), ("num_heads", num_heads), ("d_k", d_k)):
            check_positive_int(v, name)
        self.num_heads, self.d_k = num_heads, d_k
        self.W_q = nn.Linear(d_model, num_heads * d_k)
        self.W_k = nn.Linear(d_model, num_heads * d_k)
        self.W_v = nn.Linear(d_model, num_heads * d_k)
        self.W_o = nn.Linear(num_heads * d_k, d_model)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, need_weights: bool = False,
                average_attn_weights: bool = False):
        q, k, v = (split_heads(W(x), self.num_heads)  # (N, h, L, d_k)
                   for W, x in ((self.W_q, query), (self.W_k, key), (self.W_v, value)))
        ctx, w = scaled_dot_product_attention(q, k, v)  # (N, h, L, d_k), (N, h, L, S)
        out = self.W_o(merge_heads(ctx))  # (N, L, E)
        if not need_weights:
            return out, None
        return out, (w.mean(1) if average_attn_weights else w)


# --8<-- [start:stack]
class PreLNBlock(nn.Module):
    """x + attention(layer_norm(x)): h heads of width d_k, whatever
    d_model is (the projections map E -> h * d_k -> E). ffn > 0 adds a
    feed-forward layer after it: x + W_2 relu(W_1 layer_norm(x))."""

    def __init__(self, d_model: int, num_heads: int, d_k: int,
                 ffn: int = 0):
        super().__init__()
        self.num_heads, self.d_k = num_heads, d_k
        self.norm = nn.LayerNorm(d_model)
        self.W_q = nn.Linear(d_model, num_heads * d_k)
        self.W_k = nn.Linear(d_model, num_heads * d_k)
        self.W_v = nn.Linear(d_model, num_heads * d_k)
        self.W_o = nn.Linear(num_heads * d_k, d_model)
        self.ffn = None
        if ffn:  # hidden width ffn
            self.ffn_norm = nn.LayerNorm(d_model)
            self.ffn = nn.Sequential(nn.Linear(d_model, ffn), nn.ReLU(),
                                     nn.Linear(ffn, d_model))

    def forward(self, x: Tensor):
        z = self.norm(x)  # (N, L, E)
        q, k, v = (split_heads(W(z), self.num_heads)  # (N, h, L, d_k)
                   for W in (self.W_q, self.W_k, self.W_v))
        ctx, w = scaled_dot_product_attention(q, k, v)  # w: (N, h, L, L)
        x = x + self.W_o(merge_heads(ctx))  # residual: (N, L, E)
        if self.ffn is not None:
            x = x + self.ffn(self.ffn_norm(x))  # position by position
        return x, w


class StackModel(nn.Module):
    """Embeddings -> num_layers pre-LN residual attention blocks
    -> layer norm -> the same per-offset classifier."""

    def __init__(self, num_layers: int, num_heads: int, d_k: int = 8,
                 d_model: int = D_MODEL, vocab: int = len(EVENTS),
                 seq_len: int = SEQ_LEN, n_targets: int = len(OFFSETS),
                 ffn: int = 0):
        super().__init__()
        self.event = nn.Embedding(vocab, d_model)
        self.position = nn.Embedding(seq_len, d_model)
        self.blocks = nn.ModuleList(PreLNBlock(d_model, num_heads, d_k, ffn)
                                    for _ in range(num_layers))
        self.norm = nn.LayerNorm(d_model)
        self.readout = nn.Linear(d_model, n_targets * vocab)
        self.n_targets, self.vocab = n_targets, vocab

    def forward(self, x: Tensor, need_weights: bool = False):
        N, L = x.shape
        h = self.event(x) + self.position.weight[:L]  # (N, L, E)
        weights = []
        for block in self.blocks:
            h, w = block(h)  # (N, L, E), (N, heads, L, L)
            weights.append(w)
        logits = self.readout(self.norm(h))  # (N, L, T * V)
        logits = logits.view(N, L, self.n_targets, self.vocab)
        # weights: (N, layers, heads, L, L)
        return (logits, torch.stack(weights, 1)) if need_weights else logits
# --8<-- [end:stack]


def stack_parameters(num_layers: int, num_heads: int, d_k: int = 8, d_model: int = D_MODEL,
                     vocab: int = len(EVENTS), seq_len: int = SEQ_LEN, n_targets: int = len(OFFSETS),
                     ffn: int = 0) -> int:
    """StackModel's parameter count, by formula:
    (V + L)·E + layers·(2E + 4·E·h·d_k + 3·h·d_k + E + [2E + 2·E·F + F + E]) + 2E + (E + 1)·T·V,
    the bracket only with a feed-forward layer of hidden width F = ffn.

    >>> stack_parameters(1, 4), stack_parameters(2, 2), stack_parameters(4, 1), stack_parameters(2, 1)
    (7488, 7584, 7776, 5488)
    >>> stack_parameters(1, 1, ffn=32)
    6520
    """
    for name, v in (("num_layers", num_layers), ("num_heads", num_heads), ("d_k", d_k), ("d_model", d_model)):
        check_positive_int(v, name)
    if not isinstance(ffn, int) or isinstance(ffn, bool) or ffn < 0:
        raise ValueError(f"ffn must be a non-negative integer (0: no feed-forward layer), got {ffn!r}")
    E, V, L, T, hd = d_model, vocab, seq_len, n_targets, num_heads * d_k
    per_layer = 2 * E + 4 * E * hd + 3 * hd + E  # layer norm, W_q W_k W_v (weights and biases), W_o
    if ffn:
        per_layer += 2 * E + 2 * E * ffn + ffn + E  # its layer norm, W_1 and W_2 with biases
    return (V + L) * E + num_layers * per_layer + 2 * E + (E + 1) * T * V
