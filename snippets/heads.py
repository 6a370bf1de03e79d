"""Small, exact demonstrations for §1 and §2: what one head cannot do, and what splitting into heads changes.

>>> rows = parameter_table(512, (1, 8))
>>> [(h, d_k, params) for h, d_k, params, _ in rows]
[(1, 512, 1050624), (8, 64, 1050624)]
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ._checks import check_divisible
from .attention import scaled_dot_product_attention
from .i18n import check_lang, text
from .logline import embed_tokens
from .multihead import MultiHeadAttention, split_heads

__all__ = ["one_head_vs_two", "fetched_table", "fetched_sentence", "swap_test", "swap_rows", "swap_sentence",
           "SWAP_CASES", "per_head_projection_error", "projection_sentence", "concat_vs_sum", "concat_sentence",
           "parameter_table", "parameter_sentence", "param_count"]


def _check_wanted(tokens: list[str], wanted: tuple[str, str]) -> None:
    if len(wanted) != 2 or wanted[0] == wanted[1]:
        raise ValueError(f"wanted must be two different tokens, got {wanted!r}")
    for t in wanted:
        if t not in tokens:
            raise ValueError(f"{t!r} is not one of the tokens {tokens}")


# --8<-- [start:one_head_vs_two]
def one_head_vs_two(tokens: list[str], wanted: tuple[str, str],
                    width: int = 4, sharpness: float = 100.0):
    """Hand-set attention: one query fetches the tokens at two positions.

    Keys carry only *where* a token is (one-hot position), values only
    *what* it is (a fixed random vector per token, `width` wide). Both
    setups output `width` features: one head of width `width`, or two
    heads of width `width // 2`, each getting its half of every value
    (split_heads). Each runs on the line as given and with the two
    wanted tokens swapped.
    Returns {heads: (weight on a, weight on b, output, output if swapped)}.
    """
    _check_wanted(tokens, wanted)
    check_divisible(width, 2)
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
            # (h, T, width / h): head i gets the i-th slice of each value
            v = split_heads(embed_tokens(line, width), h)[0]
            out, w = scaled_dot_product_attention(q, k.expand(h, T, T), v)
            outs.append(out.flatten())  # (width,): heads concatenated
        result[h] = (w[0, 0, a].item(), w[-1, 0, b].item(), *outs)
    return result
# --8<-- [end:one_head_vs_two]


SWAP_CASES = ("content", "uneven", "position", "layer_norm", "content_keys")


def _check_lean(lean: float) -> None:
    if not isinstance(lean, float) or not 0 < lean < 1:
        raise ValueError(f"lean must be a float in (0, 1), got {lean!r}")


# --8<-- [start:swap_test]
def swap_test(tokens, wanted, width=4, sharpness=100.0, seed=0, lean=0.6):
    """One head aims at two tokens; how much does its output change when
    the two tokens swap places? For each case in SWAP_CASES:
    (largest change, weight on a, weight on b)."""
    _check_wanted(tokens, wanted)
    _check_lean(lean)
    a, b = (tokens.index(t) for t in wanted)
    swapped = list(tokens)
    swapped[a], swapped[b] = tokens[b], tokens[a]
    T = len(tokens)
    g = torch.Generator().manual_seed(seed)
    p = torch.randn(T, width, generator=g)  # (T, width): position embeddings
    W = torch.randn(width, width, generator=g)  # value projection
    W_k = torch.randn(width, T, generator=g)  # content into key space
    q = sharpness * (torch.eye(T)[a] + torch.eye(T)[b]).view(1, 1, T)
    # "uneven": the same query tilted towards place a, whatever token
    # sits there: a's score rises by log(lean / (1 - lean)), so a gets
    # lean / (1 - lean) times b's weight (sqrt(T) undoes the 1/sqrt(d_k))
    tilt = T ** 0.5 * math.log(lean / (1 - lean)) * torch.eye(T)[a]

    def attend(line, case):
        e = embed_tokens(line, width)[0]  # (T, width): what each token is
        k = torch.eye(T)  # (T, T): key j is position j, one-hot
        if case == "content_keys":
            k = k + 0.01 * e @ W_k  # keys see a little content too
        v = {"content": e @ W,  # (T, width) in every case
             "uneven": e @ W,
             "position": (e + p) @ W,
             "layer_norm": F.layer_norm(e + p, (width,)) @ W,
             "content_keys": (e + p) @ W}[case]
        q_case = q + tilt if case == "uneven" else q
        out, w = scaled_dot_product_attention(q_case, k[None], v[None])
        return out[0, 0], w[0, 0]

    result = {}
    for case in SWAP_CASES:
        out, w = attend(tokens, case)
        out_swapped, _ = attend(swapped, case)
        change = (out - out_swapped).abs().max().item()
        result[case] = (change, w[a].item(), w[b].item())
    return result
# --8<-- [end:swap_test]


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


# --8<-- [start:concat_is_sum]
@torch.no_grad()
def concat_vs_sum(d_model: int = 512, num_heads: int = 8,
                  seed: int = 0) -> float:
    """Max |difference| between the layer's output, Concat(heads) W^O,
    and the sum over heads of head_i times its own block of W^O."""
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    m = MultiHeadAttention(d_model, num_heads)
    x = torch.randn(2, 10, d_model)  # (N, L, E)
    h, d_k = num_heads, d_model // num_heads
    q, k, v = (split_heads(W(x), h) for W in (m.W_q, m.W_k, m.W_v))
    heads, _ = scaled_dot_product_attention(q, k, v)  # (N, h, L, d_k)
    total = m.W_o.bias.expand(2, 10, d_model)  # (N, L, E)
    for i in range(h):
        # (E, d_k): the columns that read head i; rows of W^O in the paper
        W_o_i = m.W_o.weight[:, i * d_k:(i + 1) * d_k]
        total = total + heads[:, i] @ W_o_i.T  # head i's contribution
    out, _ = m(x, x, x)  # (N, L, E): Concat(heads) W^O
    return (out - total).abs().max().item()
# --8<-- [end:concat_is_sum]


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


def _rounding(lang: str, err: float) -> str:
    """'only floating-point rounding' when err is below 1e-5, else 'more than rounding'."""
    return text(lang, "heads.rounding" if err < 1e-5 else "heads.not_rounding")


def _num(x: float) -> str:
    """Small numbers in scientific notation, the rest to 2 decimals."""
    return f"{x:.1e}" if 0 < abs(x) < 1e-3 else f"{x:.2f}"


def _change(lang: str, change: float) -> str:
    """'do not change at all' for an exact 0, else 'change by at most <change>'."""
    if change == 0:
        return text(lang, "heads.fetched.unchanged")
    return text(lang, "heads.fetched.changed", d=_num(change))


def fetched_sentence(result: dict, lang: str) -> str:
    """The demo's finding in one printed sentence, with its numbers.

    >>> r = {1: (0.5, 0.5, torch.ones(4), torch.ones(4)), 2: (1.0, 1.0, torch.ones(4), torch.zeros(4))}
    >>> "do not change at all" in fetched_sentence(r, "en")
    True
    >>> r[1] = (0.5, 0.5, torch.ones(4), torch.ones(4) + 1e-7)
    >>> "change by at most 1.2e-07" in fetched_sentence(r, "en")
    True
    """
    check_lang(lang)
    (a1, b1, out1, sw1), (a2, b2, out2, sw2) = result[1], result[2]
    return text(lang, "heads.fetched", a1=f"{a1:.3f}", b1=f"{b1:.3f}",
                change1=_change(lang, (out1 - sw1).abs().max().item()), a2=f"{a2:.3f}", b2=f"{b2:.3f}",
                d2=_num((out2 - sw2).abs().max().item()), width=out1.numel())


def swap_rows(result: dict, lang: str) -> list[tuple[str, str, str, str]]:
    """swap_test as printable rows: values, keys, weights on the two tokens, largest change."""
    check_lang(lang)
    return [(text(lang, f"heads.swap.{case}"), text(lang, f"heads.swap.{case}.keys"),
             f"{wa:.3f} / {wb:.3f}", _num(change))
            for case, (change, wa, wb) in result.items()]


def swap_sentence(result: dict, lang: str) -> str:
    """What the swap test shows, with its numbers."""
    check_lang(lang)
    if set(result) != set(SWAP_CASES):
        raise ValueError(f"expected swap_test's cases {SWAP_CASES}, got {tuple(result)}")
    pos = result["position"][0]
    un, ua, ub = result["uneven"]
    keys, wa, wb = result["content_keys"]
    # content in the keys: does the head still fetch both tokens, or essentially one?
    fetch = text(lang, "heads.swap.one_token" if min(wa, wb) < 0.01 else "heads.swap.both_tokens")
    return text(lang, "heads.swap.sentence", pos=_num(pos), verdict=_rounding(lang, pos),
                un=_num(un), ua=f"{ua:.3f}", ub=f"{ub:.3f}", ln=_num(result["layer_norm"][0]),
                keys=_num(keys), wa=f"{wa:.3f}", wb=f"{wb:.3f}", fetch=fetch)


def projection_sentence(err: float, lang: str) -> str:
    """per_head_projection_error's result as a sentence."""
    check_lang(lang)
    return text(lang, "heads.projection", err=f"{err:.1e}", verdict=_rounding(lang, err))


def concat_sentence(err: float, num_heads: int, lang: str) -> str:
    """concat_vs_sum's result as a sentence."""
    check_lang(lang)
    return text(lang, "heads.concat", err=f"{err:.1e}", h=num_heads, verdict=_rounding(lang, err))


def parameter_sentence(rows: list[tuple[int, int, int, int]], lang: str) -> str:
    """parameter_table's rows as one sentence: the count stays, distributions and width change."""
    check_lang(lang)
    if len(rows) < 2 or len({params for _, _, params, _ in rows}) != 1:
        raise ValueError(f"expected parameter_table rows for at least two head counts with one parameter count, "
                         f"got {rows!r}")
    (h0, d0, params, _), (h1, d1, _, _) = rows[0], rows[-1]
    return text(lang, "heads.params", h0=h0, h1=h1, d0=d0, d1=d1, params=f"{params:,}")
