"""Multi-head attention from scratch, computing what ``torch.nn.MultiheadAttention`` computes.

It takes the same inputs, masks and return values for the cases it covers; batch_first defaults
to True (PyTorch: False), and there is no dropout, kdim/vdim, add_bias_kv, add_zero_attn or
unbatched (2-D) input.

Shape letters: N batch, L target length, S source length, E = d_model,
h = num_heads, d_k = E // h.

>>> import torch
>>> x = torch.randn(2, 10, 512)
>>> split_heads(x, 8).shape
torch.Size([2, 8, 10, 64])
>>> merge_heads(split_heads(x, 8)).equal(x)
True
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ._checks import check_divisible, check_loadable, check_mask_dtype, check_tensor
from .attention import scaled_dot_product_attention

__all__ = ["split_heads", "merge_heads", "MultiHeadAttention", "load_from_torch"]


# --8<-- [start:split_heads]
def split_heads(x: Tensor, num_heads: int) -> Tensor:
    """(N, T, E) -> (N, h, T, d_k): head i gets the i-th d_k features."""
    check_tensor(x, "x", 3)
    N, T, E = x.shape
    check_divisible(E, num_heads)
    x = x.view(N, T, num_heads, E // num_heads)  # (N, T, h, d_k)
    return x.transpose(1, 2)  # (N, h, T, d_k)
# --8<-- [end:split_heads]


# --8<-- [start:merge_heads]
def merge_heads(x: Tensor) -> Tensor:
    """(N, h, T, d_k) -> (N, T, h * d_k): the inverse of split_heads."""
    check_tensor(x, "x", 4)
    N, h, T, d_k = x.shape
    x = x.transpose(1, 2).contiguous()  # (N, T, h, d_k)
    return x.view(N, T, h * d_k)  # (N, T, E)
# --8<-- [end:merge_heads]


def _additive(mask: Tensor, dtype: torch.dtype) -> Tensor:
    """PyTorch's nn.MultiheadAttention convention: bool True = masked out; float = added."""
    if mask.dtype == torch.bool:
        return torch.zeros(mask.shape, dtype=dtype, device=mask.device).masked_fill(mask, float("-inf"))
    return mask.to(dtype)


# --8<-- [start:class]
class MultiHeadAttention(nn.Module):
    """nn.MultiheadAttention's inputs, outputs and masks, batch_first=True
    by default; no dropout, kdim/vdim, bias_kv, zero_attn or 2-D input."""

    def __init__(self, d_model: int, num_heads: int, bias: bool = True,
                 batch_first: bool = True):
        super().__init__()
        check_divisible(d_model, num_heads)
        self.d_model, self.num_heads = d_model, num_heads
        self.d_k = d_model // num_heads
        self.batch_first = batch_first
        # Each (E, E) matrix stacks h per-head (d_k, E) projections.
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, query, key, value, attn_mask=None,
                key_padding_mask=None, need_weights=True,
                average_attn_weights=True):
        if not self.batch_first:  # (L, N, E) -> (N, L, E)
            query, key, value = (
                t.transpose(0, 1) for t in (query, key, value))
        # (N, h, L, S) or None
        mask = self._mask(query, key, attn_mask, key_padding_mask)
        h = self.num_heads
        q = split_heads(self.W_q(query), h)  # (N, h, L, d_k)
        k = split_heads(self.W_k(key), h)  # (N, h, S, d_k)
        v = split_heads(self.W_v(value), h)  # (N, h, S, d_k)
        # (N, h, L, d_k), (N, h, L, S)
        context, weights = scaled_dot_product_attention(q, k, v, mask)
        out = self.W_o(merge_heads(context))  # (N, L, E)
        if not self.batch_first:
            out = out.transpose(0, 1)  # (L, N, E)
        if not need_weights:
            return out, None
        if average_attn_weights:
            weights = weights.mean(dim=1)  # (N, L, S)
        return out, weights
# --8<-- [end:class]

    def _mask(self, query: Tensor, key: Tensor, attn_mask, key_padding_mask) -> Tensor | None:
        """Check inputs and fold both masks into one additive (N, h, L, S) mask."""
        check_tensor(query, "query", 3)
        check_tensor(key, "key", 3)
        (N, L, E), S = query.shape, key.size(1)
        if E != self.d_model or key.size(-1) != self.d_model:
            raise ValueError(
                f"query and key must have last dimension d_model={self.d_model}, "
                f"got query {tuple(query.shape)} and key {tuple(key.shape)}"
            )
        if key.size(0) != N:
            raise ValueError(f"query and key must have the same batch size, got {N} and {key.size(0)}")
        return fold_masks(attn_mask, key_padding_mask, N, self.num_heads, L, S, query.dtype)


def fold_masks(attn_mask: Tensor | None, key_padding_mask: Tensor | None, N: int, num_heads: int,
               L: int, S: int, dtype: torch.dtype) -> Tensor | None:
    """Check nn.MultiheadAttention-style masks and fold them into one additive mask, (N, h, L, S) or (L, S)."""
    mask = None
    if attn_mask is not None:
        check_mask_dtype(attn_mask, "attn_mask")
        shapes = [(L, S), (N * num_heads, L, S)]
        if tuple(attn_mask.shape) not in shapes:
            raise ValueError(f"attn_mask must have shape {shapes[0]} or {shapes[1]}, got {tuple(attn_mask.shape)}")
        mask = _additive(attn_mask, dtype)
        mask = mask.view(N, num_heads, L, S) if mask.dim() == 3 else mask  # (N, h, L, S) or (L, S)
    if key_padding_mask is not None:
        check_mask_dtype(key_padding_mask, "key_padding_mask")
        if tuple(key_padding_mask.shape) != (N, S):
            raise ValueError(f"key_padding_mask must have shape (N, S) = {(N, S)}, got {tuple(key_padding_mask.shape)}")
        pad = _additive(key_padding_mask, dtype).view(N, 1, 1, S)  # (N, 1, 1, S)
        mask = pad if mask is None else mask + pad
    return mask


# --8<-- [start:load_from_torch]
@torch.no_grad()
def load_from_torch(mine: MultiHeadAttention,
                    official: nn.MultiheadAttention) -> MultiHeadAttention:
    """Copy nn.MultiheadAttention's weights into ours.

    Its in_proj_weight is W_q, W_k, W_v stacked: (3E, E)."""
    check_loadable(mine, official, MultiHeadAttention)
    projections = (mine.W_q, mine.W_k, mine.W_v)
    weights = official.in_proj_weight.chunk(3)  # 3 x (E, E)
    for ours, w in zip(projections, weights, strict=True):
        ours.weight.copy_(w)  # (E, E)
    if official.in_proj_bias is not None:
        biases = official.in_proj_bias.chunk(3)  # 3 x (E,)
        for ours, b in zip(projections, biases, strict=True):
            ours.bias.copy_(b)  # (E,)
    mine.W_o.weight.copy_(official.out_proj.weight)
    if official.out_proj.bias is not None:
        mine.W_o.bias.copy_(official.out_proj.bias)
    return mine
# --8<-- [end:load_from_torch]
