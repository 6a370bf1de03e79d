"""A small attention-only causal Transformer, with the switches the induction experiments need.

No MLP, no LayerNorm and no biases: the residual stream is exactly the token and position embeddings
plus the sum of every head's output, so a head's contribution can be removed from one place and left
in another (Elhage et al. 2021, "A Mathematical Framework for Transformer Circuits").

- ``ablate``: heads (layer, head) whose output is set to zero everywhere (zero ablation).
- ``cut``: paths (src_layer, src_head, dst_layer, part), part one of "q", "k", "v": the source head's
  output is subtracted from the stream that layer dst_layer reads for its queries, keys or values only;
  the other two parts, later layers and the unembedding still see it. Cutting a previous-token head's
  path into the next layer's keys is the K-composition cut.

Shape letters: N batch, T positions, E d_model, H heads, D d_head, V vocabulary.

>>> torch.manual_seed(0); m = AttentionOnly(2, 2)
<torch._C.Generator object at ...>
>>> x = torch.randint(VOCAB, (3, 10))
>>> logits, attn = m(x, return_attention=True)
>>> logits.shape, len(attn), attn[0].shape
(torch.Size([3, 10, 64]), 2, torch.Size([3, 2, 10, 10]))
>>> bool(torch.allclose(attn[1].sum(-1), torch.ones(3, 2, 10)))
True
>>> m(x, cut={(1, 0, 1, "k")})
Traceback (most recent call last):
...
ValueError: a cut must run from an earlier layer to a later one, got (src_layer=1, dst_layer=1)
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from .._checks import check_positive_int
from .task import SEQ_LEN, VOCAB

__all__ = ["D_MODEL", "D_HEAD", "AttentionOnly", "count_parameters"]

D_MODEL, D_HEAD = 64, 16
PARTS = ("q", "k", "v")


# --8<-- [start:model]
class AttentionOnly(nn.Module):
    """Embeddings, then layers of causal attention heads added to the
    residual stream, then the unembedding: no MLP, no LayerNorm."""

    def __init__(self, num_layers: int, num_heads: int,
                 d_head: int = D_HEAD, d_model: int = D_MODEL,
                 vocab: int = VOCAB, max_len: int = SEQ_LEN):
        super().__init__()
        _check_sizes(num_layers, num_heads, d_head, d_model)
        L, H, D, E = num_layers, num_heads, d_head, d_model
        self.num_layers, self.num_heads = L, H
        self.embed = nn.Embedding(vocab, E)
        self.pos = nn.Embedding(max_len, E)
        self.W_Q = nn.Parameter(torch.randn(L, H, E, D) / math.sqrt(E))
        self.W_K = nn.Parameter(torch.randn(L, H, E, D) / math.sqrt(E))
        self.W_V = nn.Parameter(torch.randn(L, H, E, D) / math.sqrt(E))
        self.W_O = nn.Parameter(torch.randn(L, H, D, E) / math.sqrt(H * D))
        self.unembed = nn.Linear(E, vocab, bias=False)

    def forward(self, x, ablate=frozenset(), cut=frozenset(),
                return_attention=False):
        """x (N, T) token ids -> logits (N, T, V)."""
        cut = _check_switches(self, x, ablate, cut)
        T = x.shape[1]
        stream = self.embed(x) + self.pos(torch.arange(T))  # (N, T, E)
        outputs, patterns = [], []  # each head's output, per layer
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        for layer in range(self.num_layers):
            q_in, k_in, v_in = (stream - _removed(outputs, cut, layer, p)
                                for p in PARTS)
            q = torch.einsum("nte,hed->nhtd", q_in, self.W_Q[layer])
            k = torch.einsum("nte,hed->nhtd", k_in, self.W_K[layer])
            v = torch.einsum("nte,hed->nhtd", v_in, self.W_V[layer])
            scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
            attn = scores.masked_fill(~causal, float("-inf")).softmax(-1)
            out = torch.einsum("nhtd,hde->nhte", attn @ v, self.W_O[layer])
            keep = torch.tensor([(layer, h) not in ablate
                                 for h in range(self.num_heads)])
            out = out * keep[:, None, None]  # (N, H, T, E)
            outputs.append(out)
            patterns.append(attn)
            stream = stream + out.sum(1)
        logits = self.unembed(stream)
        return (logits, patterns) if return_attention else logits
# --8<-- [end:model]


def _removed(outputs: list[Tensor], cut: dict, layer: int, part: str) -> Tensor | float:
    """The sum of the head outputs cut from `layer`'s `part` input (0.0 when nothing is cut)."""
    heads = cut.get((layer, part), ())
    return sum((outputs[src_layer][:, src_head] for src_layer, src_head in heads), 0.0)


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def _check_sizes(num_layers: int, num_heads: int, d_head: int, d_model: int) -> None:
    for name, v in (("num_layers", num_layers), ("num_heads", num_heads), ("d_head", d_head),
                    ("d_model", d_model)):
        check_positive_int(v, name)


def _check_switches(model: AttentionOnly, x, ablate, cut) -> dict:
    """Check the input and the switches; return the cuts as {(dst_layer, part): [(src_layer, src_head), ...]}."""
    if not isinstance(x, Tensor) or x.dim() != 2 or x.dtype != torch.long:
        shape = tuple(x.shape) if isinstance(x, Tensor) else type(x).__name__
        raise ValueError(f"x must be a 2-D tensor of token ids (torch.long), got {shape}")
    if x.shape[1] > model.pos.num_embeddings:
        raise ValueError(f"x has {x.shape[1]} positions; the model has {model.pos.num_embeddings}")
    if x.numel() and (x.min() < 0 or x.max() >= model.embed.num_embeddings):
        raise ValueError(f"token ids must lie in [0, {model.embed.num_embeddings}), got {int(x.min())}..{int(x.max())}")
    for layer, head in ablate:
        _check_head(model, layer, head)
    by_target: dict = {}
    for src_layer, src_head, dst_layer, part in cut:
        _check_head(model, src_layer, src_head)
        if not src_layer < dst_layer < model.num_layers:
            raise ValueError(f"a cut must run from an earlier layer to a later one, "
                             f"got (src_layer={src_layer}, dst_layer={dst_layer})")
        if part not in PARTS:
            raise ValueError(f"a cut's part must be one of {PARTS}, got {part!r}")
        by_target.setdefault((dst_layer, part), []).append((src_layer, src_head))
    return by_target


def _check_head(model: AttentionOnly, layer: int, head: int) -> None:
    if not (0 <= layer < model.num_layers and 0 <= head < model.num_heads):
        raise ValueError(f"expected a head (layer, head) with layer < {model.num_layers} and head < "
                         f"{model.num_heads}, got ({layer}, {head})")
