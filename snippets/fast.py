"""Efficient multi-head attention: one fused QKV projection, then F.scaled_dot_product_attention.

Same inputs, mask conventions and return values as ``snippets.multihead.MultiHeadAttention``,
and so the same subset of ``nn.MultiheadAttention`` (batch_first defaults to True; no dropout,
kdim/vdim, add_bias_kv, add_zero_attn or unbatched input). One more difference: ``need_weights``
defaults to False, because returning the (N, h, L, S) weights is exactly what makes
attention slow and memory-hungry.

>>> import torch
>>> fast = FastMultiHeadAttention(768, 12).eval()
>>> x = torch.randn(2, 10, 768)
>>> out, weights = fast(x, x, x)
>>> tuple(out.shape), weights
((2, 10, 768), None)
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ._checks import check_divisible, check_loadable, check_tensor
from .attention import causal_mask, scaled_dot_product_attention
from .i18n import texts
from .multihead import MultiHeadAttention, _additive, fold_masks, load_from_torch, merge_heads
from .tables import check_rows

__all__ = ["FastMultiHeadAttention", "load_fast_from_torch", "equivalence_rows"]


# --8<-- [start:class]
class FastMultiHeadAttention(nn.Module):
    """nn.MultiheadAttention's interface; W_q, W_k, W_v in one matrix."""

    def __init__(self, d_model: int, num_heads: int, bias: bool = True,
                 batch_first: bool = True):
        super().__init__()
        check_divisible(d_model, num_heads)
        self.d_model, self.num_heads = d_model, num_heads
        self.d_k = d_model // num_heads
        self.batch_first = batch_first
        self.in_proj = nn.Linear(d_model, 3 * d_model, bias=bias)  # (1)!
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, query, key, value, attn_mask=None,
                key_padding_mask=None, need_weights=False,
                average_attn_weights=True, is_causal=False):
        if not self.batch_first:  # (L, N, E) -> (N, L, E)
            # self-attention's one tensor stays one tensor
            inputs = (query, key, value)
            seq_first = {id(t): t.transpose(0, 1) for t in inputs}
            query, key, value = (seq_first[id(t)] for t in inputs)
        mask = self._mask(query, key, value, attn_mask, key_padding_mask,
                          is_causal)  # (N, h, L, S) or None
        q, k, v = self._project(query, key, value)  # each (N, h, ·, d_k)
        # SDPA can skip the future blocks itself
        flag_only = is_causal and mask is None and not need_weights
        if is_causal and not flag_only:
            L, S = q.size(2), k.size(2)
            future = torch.ones(L, S, dtype=torch.bool, device=q.device)
            future = future.triu(1)  # (L, S), True above the diagonal
            causal = _additive(future, q.dtype)  # (L, S)
            mask = causal if mask is None else mask + causal
        if need_weights:  # the weights must exist: take the explicit path
            # (N, h, L, d_k), (N, h, L, S)
            context, weights = scaled_dot_product_attention(q, k, v, mask)
        else:  # (2)!
            context = F.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, is_causal=flag_only
            )  # (N, h, L, d_k)
            weights = None
        out = self.W_o(merge_heads(context))  # (N, L, E)
        if not self.batch_first:
            out = out.transpose(0, 1)  # (L, N, E)
        if weights is not None and average_attn_weights:
            weights = weights.mean(dim=1)  # (N, L, S)
        return out, weights

    def _project(self, query: Tensor, key: Tensor, value: Tensor):
        N, L, E = query.shape
        h, d_k = self.num_heads, self.d_k
        if query is key and key is value:  # self-attention: one matmul
            qkv = self.in_proj(query)  # (N, L, 3E)
            qkv = qkv.view(N, L, 3, h, d_k)  # (N, L, 3, h, d_k)
            qkv = qkv.permute(2, 0, 3, 1, 4)  # (3, N, h, L, d_k)
            return qkv.unbind(0)
        W = self.in_proj.weight.chunk(3)  # 3 x (E, E)
        bias = self.in_proj.bias
        b = bias.chunk(3) if bias is not None else (None,) * 3
        S = key.size(1)
        q = F.linear(query, W[0], b[0]).view(N, L, h, d_k)  # (N, L, h, d_k)
        k = F.linear(key, W[1], b[1]).view(N, S, h, d_k)  # (N, S, h, d_k)
        v = F.linear(value, W[2], b[2]).view(N, S, h, d_k)  # (N, S, h, d_k)
        # (N, h, L, d_k), (N, h, S, d_k), (N, h, S, d_k)
        return q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
# --8<-- [end:class]

    def _mask(self, query, key, value, attn_mask, key_padding_mask, is_causal) -> Tensor | None:
        """Check inputs and fold the masks into one additive (N, h, L, S) mask (None if there is none)."""
        for name, t in (("query", query), ("key", key), ("value", value)):
            check_tensor(t, name, 3)
        (N, L, E), S = query.shape, key.size(1)
        if E != self.d_model or key.size(-1) != self.d_model or value.size(-1) != self.d_model:
            raise ValueError(
                f"query, key and value must have last dimension d_model={self.d_model}, got query "
                f"{tuple(query.shape)}, key {tuple(key.shape)} and value {tuple(value.shape)}"
            )
        if key.size(0) != N or value.shape[:2] != key.shape[:2]:
            raise ValueError(
                f"key and value must be (N, S, E) with the query's N={N}, "
                f"got key {tuple(key.shape)} and value {tuple(value.shape)}"
            )
        if is_causal and attn_mask is not None:
            raise ValueError("pass either is_causal=True or an attn_mask, not both")
        if is_causal and L != S:
            raise ValueError(f"is_causal=True needs L == S, got L={L}, S={S}")
        return fold_masks(attn_mask, key_padding_mask, N, self.num_heads, L, S, query.dtype)


# --8<-- [start:load]
@torch.no_grad()
def load_fast_from_torch(fast: FastMultiHeadAttention,
                         official: nn.MultiheadAttention):
    """Copy nn.MultiheadAttention's weights into FastMultiHeadAttention.

    Its in_proj_weight already is our fused (3E, E) matrix."""
    check_loadable(fast, official, FastMultiHeadAttention)
    fast.in_proj.weight.copy_(official.in_proj_weight)  # (3E, E)
    fast.W_o.weight.copy_(official.out_proj.weight)  # (E, E)
    if official.in_proj_bias is not None:
        fast.in_proj.bias.copy_(official.in_proj_bias)  # (3E,)
        fast.W_o.bias.copy_(official.out_proj.bias)  # (E,)
    return fast
# --8<-- [end:load]


def equivalence_rows(d_model: int = 64, num_heads: int = 8, N: int = 2, L: int = 8, S: int = 11,
                     seed: int = 0, tol: float = 1e-6, lang: str = "en") -> list[tuple[str, str, str, str]]:
    """Ours against nn.MultiheadAttention and the from-scratch version on shared weights:
    table rows (case, reference, max |difference|, ✅ if within tol else ❌), labelled in lang."""
    check_divisible(d_model, num_heads)
    t = texts(lang, "fast")
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(d_model, num_heads, batch_first=True).eval()
    fast = load_fast_from_torch(FastMultiHeadAttention(d_model, num_heads), official).eval()
    scratch = load_from_torch(MultiHeadAttention(d_model, num_heads), official).eval()
    x = torch.randn(N, L, d_model)  # (N, L, E)
    mem = torch.randn(N, S, d_model)  # (N, S, E)
    pad = torch.zeros(N, S, dtype=torch.bool)
    pad[:, -3:] = True  # the last 3 source positions are padding
    future = ~causal_mask(L)  # nn.MultiheadAttention: True = may NOT attend
    cases = [
        (t["case_self"], t["ref_official"],
         lambda: fast(x, x, x)[0], lambda: official(x, x, x, need_weights=False)[0]),
        (t["case_self"], t["ref_scratch"], lambda: fast(x, x, x)[0], lambda: scratch(x, x, x)[0]),
        (t["case_causal"], t["ref_official"],
         lambda: fast(x, x, x, is_causal=True)[0], lambda: official(x, x, x, attn_mask=future)[0]),
        (t["case_cross"], t["ref_official"],
         lambda: fast(x, mem, mem, key_padding_mask=pad)[0], lambda: official(x, mem, mem, key_padding_mask=pad)[0]),
        (t["case_weights"], t["ref_official"],
         lambda: fast(x, x, x, need_weights=True, average_attn_weights=False)[1],
         lambda: official(x, x, x, average_attn_weights=False)[1]),
    ]
    rows = []
    with torch.no_grad():
        for case, ref, ours, theirs in cases:
            diff = (ours() - theirs()).abs().max().item()
            rows.append((case, ref, diff, diff <= tol))
    return check_rows(rows)
