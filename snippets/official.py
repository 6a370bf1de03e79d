"""torch.nn.MultiheadAttention as PyTorch ships it, and checks that ours computes the same thing.

>>> import torch
>>> x = torch.randn(2, 10, 512)
>>> out, w_avg, w_heads = run_official(x, num_heads=8)
>>> tuple(out.shape), tuple(w_avg.shape), tuple(w_heads.shape)
((2, 10, 512), (2, 10, 10), (2, 8, 10, 10))
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ._checks import check_divisible, check_tensor
from .attention import causal_mask, scaled_dot_product_attention
from .multihead import MultiHeadAttention, load_from_torch, merge_heads, split_heads

__all__ = ["run_official", "equivalence_report", "shape_trace", "dropout_row_sums", "fully_masked_row", "batch_first_shapes",
           "fully_masked_rows"]


# --8<-- [start:official]
def run_official(x: Tensor, num_heads: int = 8, seed: int = 0):
    """Self-attention with PyTorch's layer.

    Returns (out, head-averaged weights, per-head weights)."""
    check_tensor(x, "x", 3)
    check_divisible(x.size(-1), num_heads)
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(embed_dim=x.size(-1), num_heads=num_heads,
                                batch_first=True)
    mha.eval()  # (1)!
    # out: (N, L, E); w_avg: (N, L, S), the mean over heads
    out, w_avg = mha(x, x, x)
    # w_heads: (N, h, L, S), one map per head
    _, w_heads = mha(x, x, x, average_attn_weights=False)
    return out, w_avg, w_heads
# --8<-- [end:official]


def _max_diff(a: Tensor, b: Tensor) -> float:
    return (a - b).abs().max().item()


def equivalence_report(d_model: int = 64, num_heads: int = 8, N: int = 2, L: int = 8, S: int = 11,
                       seed: int = 0, tol: float = 1e-6) -> list[tuple[str, float, bool]]:
    """Run ours and PyTorch's on the same weights and inputs; return (case, max |difference|, within tol)."""
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(d_model, num_heads, batch_first=True).eval()
    mine = load_from_torch(MultiHeadAttention(d_model, num_heads), official).eval()
    x = torch.randn(N, L, d_model)  # (N, L, E)
    mem = torch.randn(N, S, d_model)  # (N, S, E), a different sequence for cross-attention
    pad = torch.zeros(N, S, dtype=torch.bool)
    pad[:, -3:] = True  # the last 3 source positions are padding
    causal = ~causal_mask(L)  # nn.MultiheadAttention: True = may NOT attend

    cases = {
        "self-attention, output": lambda m: m(x, x, x)[0],
        "self-attention, weights (N, h, L, S)": lambda m: m(x, x, x, average_attn_weights=False)[1],
        "causal bool attn_mask": lambda m: m(x, x, x, attn_mask=causal)[0],
        "cross-attention L≠S + key_padding_mask": lambda m: m(x, mem, mem, key_padding_mask=pad)[0],
    }
    rows = []
    with torch.no_grad():
        for name, run in cases.items():
            diff = _max_diff(run(mine), run(official))
            rows.append((name, diff, diff <= tol))
        # The per-head computation is also what F.scaled_dot_product_attention does.
        q, k, v = (split_heads(t, num_heads) for t in (x, mem, mem))  # (N, h, ·, d_k)
        ours, _ = scaled_dot_product_attention(q, k, v)
        diff = _max_diff(ours, F.scaled_dot_product_attention(q, k, v))
        rows.append(("scaled_dot_product_attention vs F.scaled_dot_product_attention", diff, diff <= tol))
    return rows


def shape_trace(x: Tensor, num_heads: int) -> list[tuple[str, tuple[int, ...]]]:
    """Every intermediate tensor of one forward pass of ours, with its shape."""
    check_tensor(x, "x", 3)
    check_divisible(x.size(-1), num_heads)
    torch.manual_seed(0)
    m = MultiHeadAttention(x.size(-1), num_heads).eval()
    with torch.no_grad():
        Q = m.W_q(x)
        q, k, v = (split_heads(t, num_heads) for t in (Q, m.W_k(x), m.W_v(x)))
        scores = q @ k.transpose(-2, -1)
        context, weights = scaled_dot_product_attention(q, k, v)
        merged = merge_heads(context)
        out = m.W_o(merged)
    return [
        ("x", tuple(x.shape)),
        ("W_q(x)", tuple(Q.shape)),
        ("split_heads(W_q(x))", tuple(q.shape)),
        ("q @ kᵀ", tuple(scores.shape)),
        ("softmax(·/√d_k)", tuple(weights.shape)),
        ("weights @ v", tuple(context.shape)),
        ("merge_heads(·)", tuple(merged.shape)),
        ("W_o(·)", tuple(out.shape)),
    ]


def dropout_row_sums(x: Tensor, num_heads: int = 8, p: float = 0.1, seed: int = 0) -> tuple[Tensor, Tensor]:
    """Row sums of the returned weights with dropout=p, in train() and in eval() mode."""
    check_tensor(x, "x", 3)
    check_divisible(x.size(-1), num_heads)
    if not 0.0 <= p < 1.0:
        raise ValueError(f"p must be in [0, 1), got {p}")
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(x.size(-1), num_heads, dropout=p, batch_first=True)
    mha.train()  # a freshly built module is in training mode
    _, w_train = mha(x, x, x, average_attn_weights=False)  # (N, h, L, S), after dropout
    mha.eval()
    _, w_eval = mha(x, x, x, average_attn_weights=False)  # (N, h, L, S), plain softmax
    return w_train.sum(-1), w_eval.sum(-1)  # (N, h, L) each


# --8<-- [start:fully_masked]
@torch.no_grad()
def fully_masked_row(L: int = 3, S: int = 4, d_model: int = 8, seed: int = 0):
    """Query 0 may attend to no key: what each implementation returns."""
    torch.manual_seed(seed)
    q = torch.randn(1, L, d_model)  # (N, L, E)
    k, v = torch.randn(1, S, d_model), torch.randn(1, S, d_model)  # (N, S, E)
    may = torch.ones(L, S, dtype=torch.bool)
    may[0] = False  # row 0: every key masked
    _, ours = scaled_dot_product_attention(q, k, v, may)  # -inf fill
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=may)
    mha = nn.MultiheadAttention(d_model, 2, batch_first=True).eval()
    _, w_mha = mha(q, k, v, attn_mask=~may)  # nn: True = may NOT
    scores = q @ k.transpose(-2, -1) / d_model**0.5  # (N, L, S)
    src = scores.masked_fill(~may, -1e9).softmax(-1)  # the source's fill
    return {
        "scaled_dot_product_attention (−inf), weights": ours[0, 0],
        "nn.MultiheadAttention, weights": w_mha[0, 0],
        "F.scaled_dot_product_attention, output": out[0, 0],
        "masked_fill(mask == 0, -1e9), weights": src[0, 0],
    }
# --8<-- [end:fully_masked]


def fully_masked_rows(**kwargs) -> list[tuple[str, str]]:
    """fully_masked_row's result as printable rows: (implementation, row 0 rounded to 2 places)."""
    return [(name, " ".join(f"{x:.2f}" for x in row.tolist()))
            for name, row in fully_masked_row(**kwargs).items()]


# --8<-- [start:batch_first]
@torch.no_grad()
def batch_first_shapes(N: int = 2, L: int = 5, E: int = 8):
    """nn.MultiheadAttention's default layout, and both layouts run."""
    rows = [("nn.MultiheadAttention(E, 2).batch_first",
             nn.MultiheadAttention(E, 2).batch_first)]  # the default
    for batch_first in (True, False):
        mha = nn.MultiheadAttention(E, 2, batch_first=batch_first)
        x = torch.randn(N, L, E) if batch_first else torch.randn(L, N, E)
        out, _ = mha(x, x, x)
        rows.append((f"batch_first={batch_first}: x, out",
                     f"{tuple(x.shape)}, {tuple(out.shape)}"))
    return rows
# --8<-- [end:batch_first]
