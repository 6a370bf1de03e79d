"""torch.nn.MultiheadAttention as PyTorch ships it, and checks that ours computes the same thing.

>>> import torch
>>> x = torch.randn(2, 10, 512)
>>> out, w_avg, w_heads = run_official(x, num_heads=8)
>>> tuple(out.shape), tuple(w_avg.shape), tuple(w_heads.shape)
((2, 10, 512), (2, 10, 10), (2, 8, 10, 10))
"""

from __future__ import annotations

import contextlib
import inspect
import itertools

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ._checks import check_divisible, check_tensor
from .attention import causal_mask, scaled_dot_product_attention
from .i18n import check_lang, text
from .kernels import FLASH, MATH, NATIVE
from .multihead import MultiHeadAttention, load_from_torch, merge_heads, split_heads
from .profiling import recorded_ops

__all__ = ["run_official", "equivalence_report", "shape_trace", "dropout_row_sums", "fully_masked_row",
           "batch_first_shapes", "fully_masked_rows", "kernel_seen", "fully_masked_paths", "fully_masked_path_rows", "fully_masked_summary",
           "FAST_PATH_CASES", "fast_path_cases", "fast_path_rows",
           "forward_parameters", "forward_order_sentence", "source_comparison", "source_comparison_sentence"]


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
                       seed: int = 0, tol: float = 1e-6, lang: str = "en") -> list[tuple[str, float, bool]]:
    """Run ours and PyTorch's on the same weights and inputs; return (case, max |difference|, within tol).

    The case names are printed in lang."""
    check_lang(lang)
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
        "self_out": lambda m: m(x, x, x)[0],
        "self_weights": lambda m: m(x, x, x, average_attn_weights=False)[1],
        "causal": lambda m: m(x, x, x, attn_mask=causal)[0],
        "cross": lambda m: m(x, mem, mem, key_padding_mask=pad)[0],
    }
    rows = []
    with torch.no_grad():
        for name, run in cases.items():
            diff = _max_diff(run(mine), run(official))
            rows.append((text(lang, f"s3.case.{name}"), diff, diff <= tol))
        # The per-head computation is also what F.scaled_dot_product_attention does.
        q, k, v = (split_heads(t, num_heads) for t in (x, mem, mem))  # (N, h, ·, d_k)
        ours, _ = scaled_dot_product_attention(q, k, v)
        diff = _max_diff(ours, F.scaled_dot_product_attention(q, k, v))
        rows.append((text(lang, "s3.case.sdpa"), diff, diff <= tol))
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
    """Query 0 may attend to no key: what each function returns."""
    torch.manual_seed(seed)
    q = torch.randn(1, L, d_model)  # (N, L, E)
    k, v = torch.randn(1, S, d_model), torch.randn(1, S, d_model)  # (N, S, E)
    may = torch.ones(L, S, dtype=torch.bool)
    may[0] = False  # row 0: every key masked
    _, ours = scaled_dot_product_attention(q, k, v, may)  # -inf fill
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=may)
    scores = q @ k.transpose(-2, -1) / d_model**0.5  # (N, L, S)
    src = scores.masked_fill(~may, -1e9).softmax(-1)  # the source's fill
    return {
        "scaled_dot_product_attention (−inf), weights": ours[0, 0],
        "F.scaled_dot_product_attention, output": out[0, 0],
        "masked_fill(mask == 0, -1e9), weights": src[0, 0],
    }
# --8<-- [end:fully_masked]


def fully_masked_rows(lang: str = "en", **kwargs) -> list[tuple[str, str]]:
    """fully_masked_row's result as printable rows: (implementation, row 0 rounded to 2 places). The labels are
    the page's language's words for fully_masked_row's keys (the function, then what it returns), in its order."""
    check_lang(lang)
    labels = text(lang, "official.fully_masked_labels")
    got = fully_masked_row(**kwargs)
    if len(labels) != len(got):  # pragma: no cover - words and code edited apart
        raise ValueError(f"expected {len(got)} labels for fully_masked_row's rows, got {len(labels)}")
    return [(label, " ".join(f"{x:.2f}" for x in row.tolist())) for label, row in zip(labels, got.values())]


# The attention operators that tell the code paths apart, most specific first.
_KERNELS = (NATIVE, FLASH, MATH, "aten::_softmax")


@contextlib.contextmanager
def kernel_seen():
    """Record which attention operator runs inside the block: kernel_seen() as seen; seen["kernel"] after it."""
    seen = {"kernel": None}
    with recorded_ops() as names:
        yield seen
    seen["kernel"] = next((k.removeprefix("aten::") for k in _KERNELS if k in names), None)


# --8<-- [start:fully_masked_paths]
def fully_masked_paths(d_model: int = 8, num_heads: int = 2, L: int = 3,
                       seed: int = 0):
    """Query 0 may attend to no key. For each layer and code path:
    (operator that ran, row 0 of the output, row 0 of the weights)."""
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(d_model, num_heads, batch_first=True)
    with torch.no_grad():  # a visible output bias (it starts at 0)
        mha.out_proj.bias.uniform_(-1, 1)
    ours = load_from_torch(MultiHeadAttention(d_model, num_heads), mha)
    x = torch.randn(1, L, d_model)  # (N, L, E)
    y = torch.randn(1, L, d_model)  # another sequence, for cross-attention
    masked = torch.zeros(L, L, dtype=torch.bool)
    masked[0] = True  # nn convention: True = may NOT attend
    runs = {  # path: (layer, train(), gradients, key/value, need_weights)
        "ours": (ours, True, True, x, True),
        "train_weights": (mha, True, True, x, True),
        "train_sdpa": (mha, True, True, x, False),
        "fast_weights": (mha, False, False, x, True),
        "fast": (mha, False, False, x, False),
        "cross": (mha, False, False, y, False),
    }
    found = {}
    for path, (layer, train, grad, kv, need_weights) in runs.items():
        layer.train(train)
        with torch.set_grad_enabled(grad), kernel_seen() as seen:
            out, w = layer(x, kv, kv, attn_mask=masked,
                           need_weights=need_weights)
        found[path] = (seen["kernel"], out[0, 0].detach(),
                       None if w is None else w[0, 0].detach())
    return found, mha.out_proj.bias.detach()
# --8<-- [end:fully_masked_paths]


FAST_PATH_CASES = ("no_grad", "inference", "grad", "frozen", "frozen_query_grad", "no_bias", "disabled")


def fast_path_cases(d_model: int = 8, num_heads: int = 2, L: int = 5, seed: int = 0) -> dict[str, str]:
    """Self-attention in eval mode, batch_first, boolean-free: the attention operator that ran in each case
    of FAST_PATH_CASES (gradients on or off, frozen parameters, no biases, the fast path switched off)."""
    torch.manual_seed(seed)
    x = torch.randn(1, L, d_model)  # (N, L, E)

    def layer(bias=True, frozen=False):
        m = nn.MultiheadAttention(d_model, num_heads, batch_first=True, bias=bias).eval()
        for p in m.parameters():
            p.requires_grad_(not frozen)
        return m

    cases = {
        "no_grad": (layer(), torch.no_grad, x),
        "inference": (layer(), torch.inference_mode, x),
        "grad": (layer(), contextlib.nullcontext, x),
        "frozen": (layer(frozen=True), contextlib.nullcontext, x),
        "frozen_query_grad": (layer(frozen=True), contextlib.nullcontext, x.clone().requires_grad_()),
        "no_bias": (layer(bias=False), torch.no_grad, x),
        "disabled": (layer(), torch.no_grad, x),
    }
    found = {}
    enabled = torch.backends.mha.get_fastpath_enabled()
    try:
        for name, (m, ctx, q) in cases.items():
            torch.backends.mha.set_fastpath_enabled(name != "disabled")
            with ctx(), kernel_seen() as seen:
                m(q, q, q, need_weights=False)
            found[name] = seen["kernel"]
    finally:
        torch.backends.mha.set_fastpath_enabled(enabled)
    return found


def fast_path_rows(lang: str, **kwargs) -> list[tuple[str, str, str]]:
    """fast_path_cases as printable rows: (case, operator, fast path or not)."""
    check_lang(lang)
    found = fast_path_cases(**kwargs)
    native = NATIVE.removeprefix("aten::")
    return [(text(lang, f"s3.fast.{name}"), f"`{kernel}`", text(lang, "s3.fast.yes" if kernel == native
                                                                 else "s3.fast.no"))
            for name, kernel in found.items()]


def _row_text(lang: str, row: Tensor | None, bias: Tensor) -> str:
    if row is None:
        return text(lang, "s3.none")
    if bool(row.isnan().all()):
        return "NaN"
    if torch.equal(row, bias):
        return text(lang, "s3.is_bias")
    return " ".join(f"{v:.2f}" for v in row.tolist())


def fully_masked_path_rows(lang: str, **kwargs) -> list[tuple[str, str, str, str, str]]:
    """fully_masked_paths as printable rows: (path, conditions, operator, output row 0, weights row 0)."""
    check_lang(lang)
    found, bias = fully_masked_paths(**kwargs)
    return [(text(lang, f"s3.path.{path}"), text(lang, f"s3.when.{path}"), f"`{kernel}`",
             _row_text(lang, out, bias), _row_text(lang, w, bias))
            for path, (kernel, out, w) in found.items()]


def fully_masked_summary(lang: str, **kwargs) -> str:
    """One sentence: how many paths give NaN for the fully masked row, how many give out_proj.bias, and what ran."""
    check_lang(lang)
    found, bias = fully_masked_paths(**kwargs)
    n_nan = sum(bool(out.isnan().all()) for _, out, _ in found.values())
    kernels = sorted({kernel for kernel, out, _ in found.values() if torch.equal(out, bias)})
    n_bias = sum(torch.equal(out, bias) for _, out, _ in found.values())
    return text(lang, "s3.masked_summary", total=len(found), n_nan=n_nan, n_bias=n_bias,
                kernels=text(lang, "s3.list_sep").join(kernels))


def forward_parameters() -> list[tuple[int, str, str]]:
    """forward()'s parameters by position, counting from 1 for query: (position, ours, nn.MultiheadAttention's)."""
    ours = list(inspect.signature(MultiHeadAttention.forward).parameters)[1:]
    theirs = list(inspect.signature(nn.MultiheadAttention.forward).parameters)[1:]
    return [(i, f"`{a}`" if a else "—", f"`{b}`" if b else "—")
            for i, (a, b) in enumerate(itertools.zip_longest(ours, theirs, fillvalue=""), start=1)]


def forward_order_sentence(lang: str) -> str:
    """The first position where the two forward() signatures disagree, as one sentence."""
    check_lang(lang)
    pos, ours, theirs = next(r for r in forward_parameters() if r[1] != r[2])
    return text(lang, "s3.forward_order", n=pos, ours=ours, theirs=theirs)


@torch.no_grad()
def source_comparison(N: int = 2, L: int = 10, d_model: int = 512, num_heads: int = 8, seed: int = 0):
    """The source's comparison, rerun: official and by-hand layers with independent random weights and inputs.

    Returns the two weight shapes and the largest |difference| between the two outputs."""
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(d_model, num_heads, batch_first=True)
    q, k, v = (torch.randn(N, L, d_model) for _ in range(3))  # three unrelated inputs
    out1, w1 = official(q, k, v)  # (N, L, E), (N, L, S): averaged over heads
    mine = MultiHeadAttention(d_model, num_heads)  # its own random weights
    x = torch.randn(N, L, d_model)  # and its own input
    out2, w2 = mine(x, x, x, average_attn_weights=False)  # (N, h, L, S), as the source returns
    return tuple(w1.shape), tuple(w2.shape), _max_diff(out1, out2)


def source_comparison_sentence(lang: str, **kwargs) -> str:
    """source_comparison as one sentence with its numbers."""
    check_lang(lang)
    w1, w2, diff = source_comparison(**kwargs)
    return text(lang, "s3.source_comparison", w1=w1, w2=w2, diff=diff)


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
