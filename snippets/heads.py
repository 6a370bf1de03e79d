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
from .logline import embed_tokens
from .multihead import MultiHeadAttention, split_heads

__all__ = ["one_head_vs_two", "fetched_table", "per_head_projection_error", "parameter_table", "param_count"]


def _check_wanted(tokens: list[str], wanted: tuple[str, str]) -> None:
    if len(wanted) != 2 or wanted[0] == wanted[1]:
        raise ValueError(f"wanted must be two different tokens, got {wanted!r}")
    for t in wanted:
        if t not in tokens:
            raise ValueError(f"{t!r} is not one of the tokens {tokens}")


# --8<-- [start:one_head_vs_two]
def one_head_vs_two(tokens: list[str], wanted: tuple[str, str],
                    d_v: int = 4, sharpness: float = 100.0):
    """Hand-set attention: one query fetches the tokens at two positions.

    Keys carry only *where* a token is (one-hot position), values only
    *what* it is (a fixed random vector per token). Each setup runs on the
    line as given and on the line with the two wanted tokens swapped.
    Returns {heads: (weight on a, weight on b, output, output if swapped)}.
    """
    _check_wanted(tokens, wanted)
    a, b = (tokens.index(t) for t in wanted)
    swapped = list(tokens)
    swapped[a], swapped[b] = tokens[b], tokens[a]
    T = len(tokens)
    k = torch.eye(T).unsqueeze(0)  # (1, T, T): key j is e_j
    queries = {
        1: sharpness * (k[:, a] + k[:, b]).unsqueeze(1),  # (1, 1, T)
        2: sharpness * k[0, [a, b]].unsqueeze(1),  # (h=2, 1, T)
    }
    result = {}
    for h, q in queries.items():
        outs = []
        for line in (tokens, swapped):
            v = embed_tokens(line, d_v).expand(h, T, d_v)  # (h, T, d_v)
            out, w = scaled_dot_product_attention(q, k.expand(h, T, T), v)
            outs.append(out.flatten())  # (h * d_v,): heads concatenated
        result[h] = (w[0, 0, a].item(), w[-1, 0, b].item(), *outs)
    return result
# --8<-- [end:one_head_vs_two]


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


def fetched_table(result: dict, lang: str) -> list[tuple[str, ...]]:
    """Rows for printing one_head_vs_two's result, labelled in the page's
    language ('1 head' / '1 个头').

    Columns: label, weight on a, weight on b, output, output with a and b
    swapped, max |difference|.
    """
    check_lang(lang)

    def label(h: int) -> str:
        return text(lang, "heads.one") if h == 1 else text(lang, "heads.many", h=h)

    def vec(t):
        return " ".join(f"{x:.2f}" for x in t.tolist())

    return [(label(h), f"{wa:.3f}", f"{wb:.3f}", vec(out), vec(swapped),
             f"{(out - swapped).abs().max().item():.2f}")
            for h, (wa, wb, out, swapped) in result.items()]
