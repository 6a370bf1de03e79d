"""One attention layer built on the site's own MultiHeadAttention, and nothing else.

Shape letters: N batch, L sequence length, E = d_model, h heads, V vocabulary, T targets.
No residual and no MLP: whatever a position knows about its neighbours must come
through attention.

>>> import torch
>>> m = TimelineModel(num_heads=4)
>>> m(torch.zeros(2, 16, dtype=torch.long)).shape
torch.Size([2, 16, 4, 16])
"""

from __future__ import annotations

from torch import Tensor, nn

from ..multihead import MultiHeadAttention
from .task import EVENTS, OFFSETS, SEQ_LEN

__all__ = ["TimelineModel", "D_MODEL"]

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
