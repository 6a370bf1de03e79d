"""§2 exercises: each head's projection, the parameter count, and what splitting really splits.

>>> head_shapes(512, 8, head=3)["W_q.weight[rows of head 3]"]
(64, 512)
>>> mha_param_rows([(16, 4, True)])
[(16, 4, True, 1088, 1088)]
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from .._checks import check_divisible
from ..heads import param_count
from ..i18n import check_lang, text
from ..multihead import MultiHeadAttention, split_heads

__all__ = ["head_shapes", "mha_param_rows", "split_input_vs_projection", "shape_rows", "split_rows"]


def _check_head(d_model: int, num_heads: int, head: int) -> None:
    check_divisible(d_model, num_heads)
    if not isinstance(head, int) or not 0 <= head < num_heads:
        raise ValueError(f"head must be an integer in [0, {num_heads}), got {head!r}")


# --8<-- [start:head_shapes]
@torch.no_grad()
def head_shapes(d_model=512, num_heads=8, head=3):
    """Shapes of one head's own query projection and of its queries."""
    _check_head(d_model, num_heads, head)
    m = MultiHeadAttention(d_model, num_heads)
    d_k = d_model // num_heads
    W_i = m.W_q.weight[head * d_k:(head + 1) * d_k]  # (d_k, E)
    x = torch.randn(2, 10, d_model)  # (N, L, E)
    q = split_heads(m.W_q(x), num_heads)  # (N, h, L, d_k)
    return {
        "x": tuple(x.shape),
        "W_q.weight": tuple(m.W_q.weight.shape),
        f"W_q.weight[rows of head {head}]": tuple(W_i.shape),
        "split_heads(W_q(x))": tuple(q.shape),
        f"queries of head {head}": tuple(q[:, head].shape),
    }
# --8<-- [end:head_shapes]


def _check_configs(configs: Sequence) -> None:
    if not configs or not all(isinstance(c, (tuple, list)) and len(c) == 3 for c in configs):
        raise ValueError(f"configs must be a non-empty list of (d_model, num_heads, bias), got {configs!r}")
    for d_model, num_heads, _ in configs:
        check_divisible(d_model, num_heads)


# --8<-- [start:mha_param_rows]
def mha_param_rows(configs):
    """(d_model, h, bias, parameters counted, 4·E² + 4·E or 4·E²)."""
    _check_configs(configs)
    rows = []
    for E, h, bias in configs:
        counted = param_count(MultiHeadAttention(E, h, bias=bias))
        formula = 4 * E * E + (4 * E if bias else 0)
        rows.append((E, h, bias, counted, formula))
    return rows
# --8<-- [end:mha_param_rows]


# --8<-- [start:split_input]
@torch.no_grad()
def split_input_vs_projection(d_model=512, num_heads=8, seed=0):
    """Change only the input features outside head 0's slice: how much
    do head 0's queries move, in the real layer and in a layer that
    hands each head only its own slice of the input?"""
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    d_k = d_model // num_heads
    real = MultiHeadAttention(d_model, num_heads).W_q  # E -> E
    own = [torch.nn.Linear(d_k, d_k) for _ in range(num_heads)]

    def sliced(x):  # head i projects x[..., slice i] only
        parts = x.split(d_k, dim=-1)  # h x (N, L, d_k)
        return torch.cat([p(s) for p, s in zip(own, parts)], dim=-1)

    x = torch.randn(1, 4, d_model)  # (N, L, E)
    y = x.clone()
    y[..., d_k:] += torch.randn(1, 4, d_model - d_k)  # not head 0's
    moved = {}
    for name, proj in (("real", real), ("sliced", sliced)):
        q_x = split_heads(proj(x), num_heads)[:, 0]  # (N, L, d_k)
        q_y = split_heads(proj(y), num_heads)[:, 0]
        moved[name] = (q_y - q_x).abs().max().item()
    params = {"real": param_count(real),
              "sliced": sum(param_count(p) for p in own)}
    return moved, params
# --8<-- [end:split_input]


def shape_rows(d_model: int = 512, heads: Sequence[int] = (8, 16), lang: str = "en", head: int = 3) -> list[tuple]:
    """head_shapes for each head count side by side: (label, shape for heads[0], shape for heads[1], ...);
    code names stay code, the two descriptive rows are labelled in the page's language."""
    check_lang(lang)
    tables = [head_shapes(d_model, h, head=head) for h in heads]
    labels = {f"W_q.weight[rows of head {head}]": text(lang, "s2.rows_of_head", i=head),
              f"queries of head {head}": text(lang, "s2.queries_of_head", i=head)}
    return [(labels.get(name, f"`{name}`"), *(t[name] for t in tables)) for name in tables[0]]


def split_rows(labels: tuple[str, str], d_model: int = 512, num_heads: int = 8) -> list[tuple]:
    """split_input_vs_projection as printable rows: (label, largest change in head 0's queries, parameters)."""
    if len(labels) != 2:
        raise ValueError(f"labels must name the real and the sliced layer, got {labels!r}")
    moved, params = split_input_vs_projection(d_model, num_heads)
    return [(label, f"{moved[k]:.3g}", params[k]) for label, k in zip(labels, ("real", "sliced"), strict=True)]
