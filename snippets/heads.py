"""Small, exact demonstrations for §1 and §2: what one head cannot do, and what splitting into heads changes.

>>> rows = parameter_table(512, (1, 8))
>>> [(h, d_k, params) for h, d_k, params, _ in rows]
[(1, 512, 1050624), (8, 64, 1050624)]
"""

from __future__ import annotations

import torch

from ._checks import check_divisible
from .attention import scaled_dot_product_attention
from .i18n import check_lang, text
from .multihead import MultiHeadAttention, split_heads

__all__ = ["one_head_vs_two", "fetched_table", "per_head_projection_error", "parameter_table", "param_count"]


# --8<-- [start:one_head_vs_two]
def one_head_vs_two(tokens: list[str], wanted: tuple[str, str],
                    sharpness: float = 100.0):
    """Hand-set (untrained) attention: can one query fetch the values of
    two tokens at full strength?

    Keys and values are one-hot per position, so the output *is* the share
    of each value fetched.
    Returns {number of heads: (weight on wanted[0], weight on wanted[1], output rows)}.
    """
    _check_wanted(tokens, wanted)
    T = len(tokens)
    a, b = (tokens.index(t) for t in wanted)
    eye = torch.eye(T)  # (T, T): key j and value j are the unit vector e_j
    k = v = eye.unsqueeze(0)  # (1, T, T)
    # One head must point its single query at both tokens at once ...
    q_one = (sharpness * (eye[a] + eye[b])).view(1, 1, T)  # (1, 1, T)
    # (1, 1, T), (1, 1, T)
    out_one, w_one = scaled_dot_product_attention(q_one, k, v)
    # ... two heads each point at one token.
    q_two = sharpness * torch.stack([eye[a], eye[b]])  # (2, T)
    q_two = q_two.view(2, 1, T)  # (h=2, 1, T)
    k2, v2 = k.expand(2, T, T), v.expand(2, T, T)  # (h=2, T, T)
    out_two, w_two = scaled_dot_product_attention(q_two, k2, v2)  # (2, 1, T)
    return {
        1: (w_one[0, 0, a].item(), w_one[0, 0, b].item(),
            out_one[0, 0]),
        2: (w_two[0, 0, a].item(), w_two[1, 0, b].item(),
            out_two[:, 0].flatten()),
    }
# --8<-- [end:one_head_vs_two]


def _check_wanted(tokens: list[str], wanted: tuple[str, str]) -> None:
    for t in wanted:
        if t not in tokens:
            raise ValueError(f"{t!r} is not one of the tokens {tokens}")


# --8<-- [start:per_head_projection]
@torch.no_grad()
def per_head_projection_error(d_model: int = 512, num_heads: int = 8,
                              seed: int = 0) -> float:
    """Max |difference| between 'project then split' and
    'each head's own (d_k × E) block'."""
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    m = MultiHeadAttention(d_model, num_heads)
    x = torch.randn(2, 10, d_model)  # (N, L, E)
    together = split_heads(m.W_q(x), num_heads)  # (N, h, L, d_k)
    d_k, worst = d_model // num_heads, 0.0
    for i in range(num_heads):
        rows = slice(i * d_k, (i + 1) * d_k)
        # (d_k, E): head i's own projection, (W_i^Q)ᵀ in the paper's notation
        W_i = m.W_q.weight[rows]
        b_i = m.W_q.bias[rows]  # (d_k,)
        alone = x @ W_i.T + b_i  # (N, L, d_k)
        worst = max(worst, (alone - together[:, i]).abs().max().item())
    return worst
# --8<-- [end:per_head_projection]


def param_count(module: torch.nn.Module) -> int:
    """Number of parameters of a module."""
    if not isinstance(module, torch.nn.Module):
        raise ValueError(f"module must be a torch.nn.Module, got {type(module).__name__}")
    return sum(p.numel() for p in module.parameters())


def parameter_table(d_model: int = 512, heads: tuple[int, ...] = (1, 2, 4, 8, 16)) -> list[tuple[int, int, int, int]]:
    """(h, d_k, parameters of the layer, attention distributions per query) for each head count."""
    for h in heads:
        check_divisible(d_model, h)
    return [(h, d_model // h, param_count(MultiHeadAttention(d_model, h)), h) for h in heads]


def fetched_table(result: dict, lang: str) -> list[tuple[str, str, str, str]]:
    """Rows for printing one_head_vs_two's result, labelled in the page's language ('1 head' / '1 个头')."""
    check_lang(lang)

    def label(h: int) -> str:
        return text(lang, "heads.one") if h == 1 else text(lang, "heads.many", h=h)

    return [(label(h), f"{wa:.3f}", f"{wb:.3f}", " ".join(f"{x:.2f}" for x in out.tolist()))
            for h, (wa, wb, out) in result.items()]

