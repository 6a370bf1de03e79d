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

__all__ = ["TimelineModel", "PreLNBlock", "StackModel", "stack_parameters", "D_MODEL"]

D_MODEL = 32


# --8<-- [start:model]
class TimelineModel(nn.Module):
    """Event + position embeddings -> one MultiHeadAttention
    -> one classifier per offset."""

    def __init__(self, num_heads: int, d_model: int = D_MODEL,
                 vocab: int = len(EVENTS), seq_len: int = SEQ_LEN,
                 n_targets: int = len(OFFSETS)):
        super().__init__()
        self.event = nn.Embedding(vocab, d_model)
        self.position = nn.Embedding(seq_len, d_model)  # learned positions
        # the site's own layer
        self.attn = MultiHeadAttention(d_model, num_heads)
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


# --8<-- [start:stack]
class PreLNBlock(nn.Module):
    """x + attention(layer_norm(x)): h heads of width d_k, whatever
    d_model is (the projections map E -> h * d_k -> E)."""

    def __init__(self, d_model: int, num_heads: int, d_k: int):
        super().__init__()
        self.num_heads, self.d_k = num_heads, d_k
        self.norm = nn.LayerNorm(d_model)
        self.W_q = nn.Linear(d_model, num_heads * d_k)
        self.W_k = nn.Linear(d_model, num_heads * d_k)
        self.W_v = nn.Linear(d_model, num_heads * d_k)
        self.W_o = nn.Linear(num_heads * d_k, d_model)

    def forward(self, x: Tensor):
        z = self.norm(x)  # (N, L, E)
        q, k, v = (split_heads(W(z), self.num_heads)  # (N, h, L, d_k)
                   for W in (self.W_q, self.W_k, self.W_v))
        ctx, w = scaled_dot_product_attention(q, k, v)  # w: (N, h, L, L)
        return x + self.W_o(merge_heads(ctx)), w  # residual: (N, L, E)


class StackModel(nn.Module):
    """Embeddings -> num_layers pre-LN residual attention blocks
    -> layer norm -> the same per-offset classifier."""

    def __init__(self, num_layers: int, num_heads: int, d_k: int = 8,
                 d_model: int = D_MODEL, vocab: int = len(EVENTS),
                 seq_len: int = SEQ_LEN, n_targets: int = len(OFFSETS)):
        super().__init__()
        self.event = nn.Embedding(vocab, d_model)
        self.position = nn.Embedding(seq_len, d_model)
        self.blocks = nn.ModuleList(PreLNBlock(d_model, num_heads, d_k)
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
                     vocab: int = len(EVENTS), seq_len: int = SEQ_LEN, n_targets: int = len(OFFSETS)) -> int:
    """StackModel's parameter count, by formula:
    (V + L)·E + layers·(2E + 4·E·h·d_k + 3·h·d_k + E) + 2E + (E + 1)·T·V.

    >>> stack_parameters(1, 4), stack_parameters(2, 2), stack_parameters(4, 1), stack_parameters(2, 1)
    (7488, 7584, 7776, 5488)
    """
    for name, v in (("num_layers", num_layers), ("num_heads", num_heads), ("d_k", d_k), ("d_model", d_model)):
        check_positive_int(v, name)
    E, V, L, T, hd = d_model, vocab, seq_len, n_targets, num_heads * d_k
    per_layer = 2 * E + 4 * E * hd + 3 * hd + E  # layer norm, W_q W_k W_v (weights and biases), W_o
    return (V + L) * E + num_layers * per_layer + 2 * E + (E + 1) * T * V
