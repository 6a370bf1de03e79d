"""§3 exercises: shapes of the official layer, contiguity, unbatched input, mask conventions.

>>> {k: v for k, v in official_shapes(N=1, L=3, d_model=8, num_heads=2).items() if k != "w_avg[0, 0]"}
{'x': (1, 3, 8), 'out': (1, 3, 8), 'w_avg': (1, 3, 3), 'w_heads': (1, 2, 3, 3)}
>>> try_merge(T=1)
'ok'
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_positive_int, check_tensor
from ..attention import causal_mask
from ..multihead import MultiHeadAttention, load_from_torch, merge_heads
from ..i18n import check_lang, text
from ..official import run_official

__all__ = ["official_shapes", "merge_heads_no_contiguous", "try_merge", "UnbatchedMultiHeadAttention",
           "unbatched_report", "wrong_convention_weights", "official_shape_rows", "transposed_strides", "unbatched_rows",
           "wrong_convention_rows", "wrong_convention_training", "wrong_convention_sentence", "scaled_row_entropy",
           "SCALE_POWERS", "scale_power_rows"]


# --8<-- [start:official_shapes]
def official_shapes(N=2, L=10, d_model=64, num_heads=4):
    """Shapes of what nn.MultiheadAttention returns, and of w_avg[0, 0]."""
    check_divisible(d_model, num_heads)
    x = torch.randn(N, L, d_model)  # (N, L, E)
    out, w_avg, w_heads = run_official(x, num_heads=num_heads)
    return {"x": tuple(x.shape), "out": tuple(out.shape),
            "w_avg": tuple(w_avg.shape), "w_heads": tuple(w_heads.shape),
            "w_avg[0, 0]": tuple(w_avg[0, 0].shape)}
# --8<-- [end:official_shapes]


def _check_sizes(**sizes: int) -> None:
    for name, n in sizes.items():
        check_positive_int(n, name)


# --8<-- [start:no_contiguous]
def merge_heads_no_contiguous(x):
    """merge_heads without .contiguous(): (N, h, T, d_k) -> (N, T, E)."""
    check_tensor(x, "x", 4)
    N, h, T, d_k = x.shape
    x = x.transpose(1, 2)  # (N, T, h, d_k), same memory, new strides
    return x.view(N, T, h * d_k)  # view never copies


def try_merge(N=2, h=8, T=10, d_k=64):
    """'ok', or the error that view raises, as text."""
    _check_sizes(N=N, h=h, T=T, d_k=d_k)
    x = torch.randn(N, h, T, d_k)  # (N, h, T, d_k), contiguous
    try:
        merged = merge_heads_no_contiguous(x)
    except RuntimeError as err:
        return f"RuntimeError: {err}"
    assert merged.equal(merge_heads(x))
    return "ok"
# --8<-- [end:no_contiguous]


def _check_unbatched(query: Tensor, key: Tensor, value: Tensor) -> None:
    for name, t in (("query", query), ("key", key), ("value", value)):
        check_tensor(t, name, (2, 3))
    if not query.dim() == key.dim() == value.dim():
        raise ValueError(f"query, key and value must all be batched (3-D) or all unbatched (2-D), got shapes "
                         f"{tuple(query.shape)}, {tuple(key.shape)}, {tuple(value.shape)}")


# --8<-- [start:unbatched]
class UnbatchedMultiHeadAttention(MultiHeadAttention):
    """Also takes unbatched (L, E) inputs, as nn.MultiheadAttention does."""

    def forward(self, query, key, value, attn_mask=None,
                key_padding_mask=None, **kwargs):
        _check_unbatched(query, key, value)
        if query.dim() == 3:  # batched: nothing changes
            return super().forward(query, key, value, attn_mask,
                                   key_padding_mask, **kwargs)
        dim = 0 if self.batch_first else 1  # where N goes
        q, k, v = (t.unsqueeze(dim) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)  # (1, S)
        out, w = super().forward(q, k, v, attn_mask,
                                 key_padding_mask, **kwargs)
        # (L, E), and (L, S) or (h, L, S)
        return out.squeeze(dim), None if w is None else w.squeeze(0)
# --8<-- [end:unbatched]


# --8<-- [start:unbatched_report]
@torch.no_grad()
def unbatched_report(d_model=16, num_heads=4, L=5, S=7, seed=0):
    """Ours and PyTorch's on one unbatched cross-attention input:
    (what, our shape, PyTorch's shape, max |difference|)."""
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(d_model, num_heads).eval()
    mine = UnbatchedMultiHeadAttention(d_model, num_heads, batch_first=False)
    load_from_torch(mine, official)
    q, kv = torch.randn(L, d_model), torch.randn(S, d_model)  # no N
    pad = torch.zeros(S, dtype=torch.bool)
    pad[-2:] = True  # the last two keys are padding
    kw = {"key_padding_mask": pad, "average_attn_weights": False}
    rows = []
    for what, a, b in zip(("output", "weights"), mine(q, kv, kv, **kw),
                          official(q, kv, kv, **kw)):
        rows.append((what, tuple(a.shape), tuple(b.shape),
                     (a - b).abs().max().item()))
    return rows
# --8<-- [end:unbatched_report]


# --8<-- [start:wrong_convention]
@torch.no_grad()
def wrong_convention_weights(L=5, d_model=8, num_heads=2, seed=0):
    """nn.MultiheadAttention given F.sdpa's mask (True = may attend)
    where it expects its own (True = masked out): weights (L, L)."""
    check_positive_int(L, "L")
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(d_model, num_heads, batch_first=True)
    x = torch.randn(1, L, d_model)  # (N, L, E)
    _, w = mha.eval()(x, x, x, attn_mask=causal_mask(L))  # the wrong one
    return w[0]  # (L, L)
# --8<-- [end:wrong_convention]


# --8<-- [start:wrong_convention_training]
def wrong_convention_training(L=5, d_model=8, num_heads=2, seed=0):
    """The same wrong mask in training mode. For need_weights=True and
    False: (loss, NaN gradient entries, last row == out_proj.bias)."""
    check_positive_int(L, "L")
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(d_model, num_heads, batch_first=True)
    x = torch.randn(1, L, d_model)  # (N, L, E)
    found = {}
    for need_weights in (True, False):
        mha.zero_grad()
        out, _ = mha(x, x, x, attn_mask=causal_mask(L),
                     need_weights=need_weights)
        loss = out.pow(2).mean()
        loss.backward()
        nan_grads = sum(int(p.grad.isnan().sum())
                        for p in mha.parameters())
        last_is_bias = torch.equal(out[0, -1], mha.out_proj.bias)
        found[need_weights] = (loss.item(), nan_grads, last_is_bias)
    return found
# --8<-- [end:wrong_convention_training]



def official_shape_rows(**kwargs) -> list[tuple[str, tuple[int, ...]]]:
    """official_shapes as printable rows: (`name`, shape)."""
    return [(f"`{k}`", v) for k, v in official_shapes(**kwargs).items()]


def transposed_strides(N: int = 2, h: int = 8, T: int = 10, d_k: int = 64) -> tuple[tuple[int, ...], bool]:
    """Strides of a contiguous (N, h, T, d_k) tensor after transpose(1, 2), and whether it is still contiguous."""
    _check_sizes(N=N, h=h, T=T, d_k=d_k)
    x = torch.zeros(N, h, T, d_k).transpose(1, 2)  # (N, T, h, d_k)
    return x.stride(), x.is_contiguous()


def unbatched_rows(lang: str = "en", **kwargs) -> list[tuple]:
    """unbatched_report as printable rows in lang, the difference to two significant digits (0 for an exact
    zero, 1.2×10⁻⁷ on a Chinese page)."""
    check_lang(lang)
    return [(text(lang, f"s3.{what}"), a, b, text(lang, "s3.max_diff", d=d))
            for what, a, b, d in unbatched_report(**kwargs)]


def wrong_convention_rows(L: int = 5) -> list[tuple[int, str, str]]:
    """Per query: the keys it gives weight to, and whether its row is NaN."""
    w = wrong_convention_weights(L=L)
    return [(i, str([j for j, x in enumerate(row.tolist()) if x > 0]), "NaN" if bool(row.isnan().any()) else "")
            for i, row in enumerate(w)]


def _number(x: float) -> str:
    return f"{x:.3f}" if math.isfinite(x) else "NaN"


def wrong_convention_sentence(lang: str, L: int = 5) -> str:
    """What the wrong mask does to the last row, under eval() and in training mode, as one sentence."""
    check_lang(lang)
    found = wrong_convention_training(L=L)
    (loss_t, nan_t, _), (loss_f, nan_f, bias_f) = found[True], found[False]
    def grads(n: int) -> str:
        return text(lang, "s3.grads_nan", n=n) if n else text(lang, "s3.grads_clean")

    return text(lang, "s3.wrong_training", last=L - 1, loss_true=_number(loss_t), grads_true=grads(nan_t),
                loss_false=_number(loss_f), grads_false=grads(nan_f),
                bias_false=text(lang, "s3.is_bias_row" if bias_f else "s3.not_bias_row"))


# --8<-- [start:scale_power]
def scaled_row_entropy(d_k, power, keys=8, rows=2000, seed=0):
    """Mean entropy of softmax(q·k / d_k**power) over random rows."""
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(rows, 1, d_k, generator=g, dtype=torch.float64)
    k = torch.randn(rows, keys, d_k, generator=g, dtype=torch.float64)
    scores = q @ k.transpose(-2, -1) / d_k ** power  # (n, 1, S)
    w = torch.softmax(scores, dim=-1)
    return -(w * w.clamp_min(1e-300).log()).sum(-1).mean().item()
# --8<-- [end:scale_power]


SCALE_POWERS = (0.0, 0.5, 1.0)  # q·k, q·k / √d_k, q·k / d_k


def scale_power_rows(d_ks: tuple[int, ...] = (8, 64, 512), keys: int = 8) -> list[tuple]:
    """Per d_k: the row entropy for each power of d_k the scores are divided by."""
    for d_k in d_ks:
        check_positive_int(d_k, "d_k")
    if isinstance(keys, bool) or not isinstance(keys, int) or keys < 2:
        raise ValueError(f"keys must be an integer >= 2, got {keys!r}")
    return [(d_k, *(f"{scaled_row_entropy(d_k, p, keys):.2f}" for p in SCALE_POWERS)) for d_k in d_ks]
