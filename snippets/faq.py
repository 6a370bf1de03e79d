"""The code behind the FAQ: each function returns values or table rows that a page prints.

Shape letters: N batch, L target length, S source length, E = d_model, h = num_heads,
d_k = E // h, g = number of K/V heads (grouped-query attention).

>>> projection_rows(512, 8)[2]
('W_q.weight.view(h, d_k, E)[i]', (64, 512))
>>> [r[0] for r in gqa_rows(num_heads=8, kv_heads=(8, 2, 1))]
['MHA', 'GQA', 'MQA']
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils.flop_counter import FlopCounterMode

from ._checks import check_divisible, check_positive_int, check_tensor
from .attention import causal_mask, scaled_dot_product_attention
from .heads import param_count
from .i18n import check_lang, text
from .kernels import FLASH as FLASH_OP
from .kernels import NATIVE as FAST_OP
from .multihead import MultiHeadAttention, merge_heads, split_heads
from .profiling import recorded_ops

__all__ = [
    "projection_rows", "score_rank_rows", "divisibility_messages",
    "loop_over_heads", "loop_vs_batched", "rounding_sentence", "self_and_cross_rows", "self_attention_q_ne_k",
    "flop_rows", "head_similarity", "similarity_rows", "head_mask_forward", "PrunedHeads",
    "prune_rows", "normalised_entropy", "entropy_rows", "mask_convention_maps", "mask_convention_figure",
    "nan_rows", "default_weight_shapes", "patch_sequence_rows", "token_counts", "permutation_check",
    "permutation_sentence",
    "MODEL_CONFIGS", "config_rows", "gqa_rows", "kv_cache_rows", "flop_sentence", "similarity_sentence",
    "entropy_sentence", "real_model_width", "attention_ops", "faq_fast_path_rows", "fast_path_sentence",
    "FAST_PATH_CASES",
]


def _fmt(x: float) -> str:
    """Two significant digits: 0.93, 2.4e-07, and 0 for an exact zero (not 9.3e-01 or 0.0e+00)."""
    return f"{x:.2g}"


def _label(key: str, lang: str) -> str:
    return text(lang, f"faq.{key}")  # row labels in the page's language (snippets.i18n)


def _layer(d_model: int, num_heads: int, seed: int) -> MultiHeadAttention:
    check_divisible(d_model, num_heads)
    torch.manual_seed(seed)
    return MultiHeadAttention(d_model, num_heads).eval()


# --8<-- [start:projections]
def projection_rows(d_model: int = 512, num_heads: int = 8):
    """Where head i's own projections live inside nn.MultiheadAttention's
    packed weights."""
    check_divisible(d_model, num_heads)
    E, h, d_k = d_model, num_heads, d_model // num_heads
    mha = nn.MultiheadAttention(E, h, batch_first=True)
    # W_q, W_k, W_v are stacked in in_proj_weight: (3E, E)
    W_q = mha.in_proj_weight[:E]  # (E, E)
    W_q_i = W_q.view(h, d_k, E)[0]  # (d_k, E): head i's E -> d_k
    W_o_i = mha.out_proj.weight.view(E, h, d_k)[:, 0]  # (E, d_k)
    return [
        ("in_proj_weight", tuple(mha.in_proj_weight.shape)),
        ("W_q.weight", tuple(W_q.shape)),
        ("W_q.weight.view(h, d_k, E)[i]", tuple(W_q_i.shape)),
        ("out_proj.weight.view(E, h, d_k)[:, i]", tuple(W_o_i.shape)),
    ]
# --8<-- [end:projections]


# --8<-- [start:score_rank]
def score_rank_rows(d_model: int = 64, heads: Sequence[int] = (1, 8),
                    seed: int = 0) -> list[tuple]:
    """Per head, the scores are x M_i xᵀ with M_i = W_q^(i)ᵀ W_k^(i) (E, E):
    its rank is at most d_k."""
    rows = []
    for h in heads:
        m = _layer(d_model, h, seed)
        shape = (h, m.d_k, d_model)
        W_q = m.W_q.weight.detach().double().view(shape)  # (h, d_k, E)
        W_k = m.W_k.weight.detach().double().view(shape)  # (h, d_k, E)
        M = W_q.transpose(1, 2) @ W_k  # (h, E, E), one bilinear form per head
        ranks = torch.linalg.matrix_rank(M).tolist()
        rows.append((h, m.d_k, max(ranks), h, f"{param_count(m):,}"))
    return rows
# --8<-- [end:score_rank]


def divisibility_messages(d_model: int = 10, num_heads: int = 3) -> list[tuple[str, str, str]]:
    """The error each implementation raises when d_model is not a multiple of num_heads."""
    check_positive_int(d_model, "d_model")
    check_positive_int(num_heads, "num_heads")
    if d_model % num_heads == 0:
        raise ValueError(f"expected d_model not divisible by num_heads, got {d_model} and {num_heads}")
    rows = []
    for name, make in (("nn.MultiheadAttention", lambda: nn.MultiheadAttention(d_model, num_heads)),
                       ("snippets MultiHeadAttention", lambda: MultiHeadAttention(d_model, num_heads))):
        try:
            make()
        except (AssertionError, ValueError) as e:
            rows.append((name, type(e).__name__, str(e)))
    return rows


# --8<-- [start:loop]
def loop_over_heads(m: MultiHeadAttention, x: Tensor) -> Tensor:
    """Self-attention one head at a time, with each head's own weight
    slices; (N, L, E)."""
    check_tensor(x, "x", 3)
    d_k, outs = m.d_k, []
    for i in range(m.num_heads):
        rows = slice(i * d_k, (i + 1) * d_k)
        q = F.linear(x, m.W_q.weight[rows], m.W_q.bias[rows])  # (N, L, d_k)
        k = F.linear(x, m.W_k.weight[rows], m.W_k.bias[rows])  # (N, L, d_k)
        v = F.linear(x, m.W_v.weight[rows], m.W_v.bias[rows])  # (N, L, d_k)
        out_i, _ = scaled_dot_product_attention(q, k, v)  # (N, L, d_k)
        outs.append(out_i)
    return m.W_o(torch.cat(outs, dim=-1))  # (N, L, E)
# --8<-- [end:loop]


def loop_vs_batched(d_model: int = 64, num_heads: int = 8, L: int = 8, seed: int = 0) -> str:
    """max |loop over heads - one batched forward pass|."""
    m = _layer(d_model, num_heads, seed)
    x = torch.randn(2, L, d_model)  # (N, L, E)
    with torch.no_grad():
        diff = (loop_over_heads(m, x) - m(x, x, x)[0]).abs().max().item()
    return _fmt(diff)


def rounding_sentence(diff: float, lang: str = "zh") -> str:
    """The largest difference between two ways of computing the same thing, said for what it is: exactly 0,
    float32 rounding (within 16 machine epsilons), or more than rounding."""
    check_lang(lang)
    if not isinstance(diff, (int, float)) or isinstance(diff, bool) or not diff >= 0:
        raise ValueError(f"diff must be a non-negative number, got {diff!r}")
    eps = torch.finfo(torch.float32).eps
    key = "exact" if diff == 0 else "rounding" if diff <= 16 * eps else "more"
    return text(lang, f"faq.difference.{key}", diff=float(diff), eps=eps)  # numbers: zh typesets them


# --8<-- [start:self_cross]
def self_and_cross_rows(lang: str = "zh", d_model: int = 64,
                        num_heads: int = 4, L: int = 5, S: int = 9,
                        seed: int = 0) -> list[tuple]:
    """The same layer used as self-attention (x, x, x) and as
    cross-attention (x, mem, mem)."""
    m = _layer(d_model, num_heads, seed)
    x = torch.randn(1, L, d_model)  # (N, L, E), e.g. the decoder's sequence
    mem = torch.randn(1, S, d_model)  # (N, S, E), e.g. the encoder's output
    uses = {_label("self", lang): (x, x),  # self (x, x, x)
            _label("cross", lang): (x, mem)}  # cross (x, mem, mem)
    rows = []
    with torch.no_grad():
        for name, (q, kv) in uses.items():
            # (N, L, E), (N, h, L, S)
            out, w = m(q, kv, kv, average_attn_weights=False)
            shapes = (q.shape, kv.shape, out.shape, w.shape)
            rows.append((name, *map(tuple, shapes)))
    return rows
# --8<-- [end:self_cross]


def self_attention_q_ne_k(d_model: int = 64, num_heads: int = 4, seed: int = 0) -> str:
    """In self-attention the inputs are the same tensor, but Q = W_q(x) and K = W_k(x) differ."""
    m = _layer(d_model, num_heads, seed)
    x = torch.randn(1, 5, d_model)
    with torch.no_grad():
        diff = (m.W_q(x) - m.W_k(x)).abs().max().item()
    return f"{diff:.2f}"


# --8<-- [start:flops]
def _count(fn, *args) -> int:
    with FlopCounterMode(display=False) as counter:
        fn(*args)
    return counter.get_total_flops()


def flop_rows(d_model: int = 512, L: int = 128,
              heads: Sequence[int] = (1, 8, 16)) -> list[tuple]:
    """Counted FLOPs of one self-attention layer (N = 1), and the size of
    its weights tensor."""
    rows = []
    for h in heads:
        m = _layer(d_model, h, seed=0)
        x = torch.randn(1, L, d_model)  # (N, L, E)
        linears = (m.W_q, m.W_k, m.W_v, m.W_o)
        with torch.no_grad():
            # (N, h, L, d_k) each
            q, k, v = (split_heads(W(x), h) for W in linears[:3])
            proj = sum(_count(W, x) for W in linears)
            sdpa = F.scaled_dot_product_attention
            # explicit QKᵀ and AV matmuls
            with sdpa_kernel([SDPBackend.MATH]):
                core = _count(sdpa, q, k, v)
            default = _count(sdpa, q, k, v)  # CPU flash kernel
        weights = h * L * L  # elements of the (N, h, L, S) weights, N = 1
        mib = weights * 4 / 2**20  # float32
        rows.append((h, f"{proj:,}", f"{core:,}", f"{default:,}",
                     f"{weights:,}", f"{mib:.2f}"))
    return rows
# --8<-- [end:flops]


# --8<-- [start:similarity]
def head_similarity(weights: Tensor) -> Tensor:
    """(h, L, S) maps -> (h, h): 1 - mean over queries of
    JSD(p_i, p_j) / ln 2, in [0, 1]."""
    check_tensor(weights, "weights", 3)
    p = weights.double().clamp_min(1e-12)[:, None]  # (h, 1, L, S)
    q = weights.double().clamp_min(1e-12)[None]  # (1, h, L, S)
    mid = (p + q) / 2
    kl = lambda a, b: (a * (a / b).log()).sum(-1)  # noqa: E731, (h, h, L)
    jsd = (kl(p, mid) + kl(q, mid)) / 2  # (h, h, L)
    return 1 - jsd.mean(-1) / math.log(2)  # (h, h)
# --8<-- [end:similarity]


def _copy_head0(m: MultiHeadAttention) -> MultiHeadAttention:
    """Every head gets head 0's W_q, W_k, W_v rows: h identical heads."""
    d_k = m.d_k
    with torch.no_grad():
        for W in (m.W_q, m.W_k, m.W_v):
            W.weight.copy_(W.weight[:d_k].repeat(m.num_heads, 1))  # (E, E)
            W.bias.copy_(W.bias[:d_k].repeat(m.num_heads))  # (E,)
    return m


def similarity_rows(lang: str = "zh", d_model: int = 64, num_heads: int = 8, L: int = 8,
                    seed: int = 0) -> list[tuple[str, str]]:
    """Mean similarity between different heads: a random layer vs one whose heads are copies."""
    x = torch.randn(1, L, d_model, generator=torch.Generator().manual_seed(seed))  # (1, L, E)
    off = ~torch.eye(num_heads, dtype=torch.bool)  # (h, h), pairs of different heads
    rows = []
    for name, m in (("random", _layer(d_model, num_heads, seed)),
                    ("copies", _copy_head0(_layer(d_model, num_heads, seed)))):
        with torch.no_grad():
            w = m(x, x, x, average_attn_weights=False)[1][0]  # (h, L, L)
        rows.append((_label(name, lang), f"{head_similarity(w)[off].mean().item():.3f}"))
    return rows


# --8<-- [start:prune]
def head_mask_forward(m: MultiHeadAttention, x: Tensor,
                      head_mask: Tensor) -> Tensor:
    """Self-attention with head i's output multiplied by head_mask[i]
    before W_o; (N, L, E)."""
    _check_head_mask(m, x, head_mask)
    h = m.num_heads
    # (N, h, L, d_k) each
    q, k, v = (split_heads(W(x), h) for W in (m.W_q, m.W_k, m.W_v))
    ctx, _ = scaled_dot_product_attention(q, k, v)  # (N, h, L, d_k)
    # (N, h, L, d_k), masked heads are zero
    ctx = ctx * head_mask.view(1, -1, 1, 1)
    return m.W_o(merge_heads(ctx))  # (N, L, E)


class PrunedHeads(nn.Module):
    """Keep only some heads: drop their rows of W_q, W_k, W_v and their
    columns of W_o."""

    def __init__(self, m: MultiHeadAttention, keep: Sequence[int]):
        super().__init__()
        keep = sorted(set(keep))
        _check_keep(m, keep)
        d_k, E = m.d_k, m.d_model
        # (k * d_k,): the features of the kept heads
        idx = torch.cat([torch.arange(i * d_k, (i + 1) * d_k) for i in keep])
        self.num_heads, self.d_k = len(keep), d_k
        self.W_q, self.W_k, self.W_v = (nn.Linear(E, len(idx))
                                        for _ in range(3))
        self.W_o = nn.Linear(len(idx), E)
        pairs = ((self.W_q, m.W_q), (self.W_k, m.W_k), (self.W_v, m.W_v))
        with torch.no_grad():
            for new, old in pairs:
                new.weight.copy_(old.weight[idx])  # (k * d_k, E)
                new.bias.copy_(old.bias[idx])
            self.W_o.weight.copy_(m.W_o.weight[:, idx])  # (E, k * d_k)
            self.W_o.bias.copy_(m.W_o.bias)

    def forward(self, x: Tensor) -> Tensor:
        h = self.num_heads
        # (N, k, L, d_k) each
        q, k, v = (split_heads(W(x), h)
                   for W in (self.W_q, self.W_k, self.W_v))
        ctx, _ = scaled_dot_product_attention(q, k, v)  # (N, k, L, d_k)
        return self.W_o(merge_heads(ctx))  # (N, L, E)
# --8<-- [end:prune]


def _check_head_mask(m: MultiHeadAttention, x: Tensor, head_mask: Tensor) -> None:
    check_tensor(x, "x", 3)
    check_tensor(head_mask, "head_mask", 1)
    if tuple(head_mask.shape) != (m.num_heads,):
        raise ValueError(f"head_mask must have shape ({m.num_heads},), got {tuple(head_mask.shape)}")


def _check_keep(m: MultiHeadAttention, keep: list[int]) -> None:
    if not keep or keep[0] < 0 or keep[-1] >= m.num_heads:
        raise ValueError(f"keep must list heads in [0, {m.num_heads}), got {keep}")


def prune_rows(lang: str = "zh", d_model: int = 64, num_heads: int = 8, seed: int = 0) -> list[tuple]:
    """Masking heads vs removing them: the same output, fewer parameters."""
    keep = (0, 2, 5)
    m = _layer(d_model, num_heads, seed)
    x = torch.randn(2, 7, d_model)  # (N, L, E)
    mask = torch.zeros(num_heads)
    mask[list(keep)] = 1.0
    small = PrunedHeads(m, keep)
    with torch.no_grad():
        diff = (head_mask_forward(m, x, mask) - small(x)).abs().max().item()
    return [(_label("full", lang), num_heads, f"{param_count(m):,}", "—"),
            (_label("pruned", lang), small.num_heads, f"{param_count(small):,}", _fmt(diff))]


# --8<-- [start:entropy]
def normalised_entropy(weights: Tensor) -> Tensor:
    """Entropy of each attention row divided by ln S:
    0 = all on one key, 1 = uniform."""
    _check_rows(weights)
    S = weights.size(-1)
    p = weights.double()
    ent = -(p * p.clamp_min(1e-12).log()).sum(-1)  # (..., L)
    return ent / math.log(S)
# --8<-- [end:entropy]


def _check_rows(weights: Tensor) -> None:
    check_tensor(weights, "weights", tuple(range(2, 6)))
    S = weights.size(-1)
    if S < 2:
        raise ValueError(f"need at least 2 keys to normalise the entropy, got S={S}")


def entropy_rows(lang: str = "zh", seed: int = 0) -> list[tuple[str, str]]:
    """Normalised entropy of a one-hot row, a uniform row and a freshly initialised layer's rows."""
    from .logline import embed_tokens, log_tokens

    x = embed_tokens(log_tokens(), d_model=512)  # (1, T, 512), T = 11
    T = x.size(1)
    one_hot = torch.eye(T)[:1]  # (1, T)
    uniform = torch.full((1, T), 1 / T)  # (1, T)
    m = _layer(512, 8, seed)
    with torch.no_grad():
        w = m(x, x, x, average_attn_weights=False)[1]  # (1, 8, T, T)
    ent = normalised_entropy(w)  # (1, h, L)
    return [
        (_label("one-hot", lang), f"{normalised_entropy(one_hot).mean().item():.3f}"),
        (_label("uniform", lang), f"{normalised_entropy(uniform).mean().item():.3f}"),
        (_label("init-mean", lang), f"{ent.mean().item():.3f}"),
        (_label("init-min", lang), f"{ent.min().item():.3f}"),
    ]


# --8<-- [start:mask_bug]
def mask_convention_maps(L: int = 6, d_model: int = 16, seed: int = 0):
    """Weights (L, L) of nn.MultiheadAttention given ~causal_mask (right)
    and causal_mask (inverted)."""
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(d_model, 1, batch_first=True).eval()
    x = torch.randn(1, L, d_model)  # (1, L, E)
    with torch.no_grad():
        # (L, L): nn.MultiheadAttention's True = may NOT attend
        right = mha(x, x, x, attn_mask=~causal_mask(L))[1][0]
        # (L, L): F.sdpa's convention, which means the opposite here
        wrong = mha(x, x, x, attn_mask=causal_mask(L))[1][0]
    return right, wrong
# --8<-- [end:mask_bug]


def mask_convention_figure(titles: Sequence[str], alt: str, caption: str, L: int = 6) -> str:
    """Both maps of mask_convention_maps side by side; the NaN row of the inverted one stays blank."""
    from .figures import heatmap_grid

    right, wrong = mask_convention_maps(L)
    labels = [str(i) for i in range(L)]
    return heatmap_grid(torch.stack([right, wrong]), labels, titles=titles, alt=alt, caption=caption, ncols=2)


def nan_rows(weights: Tensor) -> int:
    """How many rows of an (L, S) map contain NaN: a query whose every key was masked."""
    check_tensor(weights, "weights", 2)
    return int(weights.isnan().any(-1).sum().item())


def default_weight_shapes(d_model: int = 64, num_heads: int = 8, L: int = 5, S: int = 7) -> list[tuple]:
    """The weights nn.MultiheadAttention returns by default, and with average_attn_weights=False."""
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(d_model, num_heads, batch_first=True).eval()
    q, kv = torch.randn(2, L, d_model), torch.randn(2, S, d_model)
    with torch.no_grad():
        w_default = mha(q, kv, kv)[1]  # (N, L, S), averaged over heads
        w_heads = mha(q, kv, kv, average_attn_weights=False)[1]  # (N, h, L, S)
    return [("mha(q, k, v)", tuple(w_default.shape)),
            ("mha(q, k, v, average_attn_weights=False)", tuple(w_heads.shape))]


# --8<-- [start:patches]
def patch_sequence_rows(lang: str = "zh", image_size: int = 32,
                        patch: int = 8, channels: int = 3,
                        d_model: int = 64, num_heads: int = 4,
                        seed: int = 0):
    """ViT-style: cut an image into patches, embed each patch as one token,
    attend over patches."""
    check_lang(lang)
    _check_patches(image_size, patch, d_model, num_heads)
    torch.manual_seed(seed)
    H = W = image_size
    img = torch.randn(1, channels, H, W)  # (N, C, H, W)
    # one linear map per patch
    embed = nn.Conv2d(channels, d_model, kernel_size=patch, stride=patch)
    grid = embed(img)  # (N, E, H/p, W/p)
    tokens = grid.flatten(2).transpose(1, 2)  # (N, H*W/p², E)
    mha = nn.MultiheadAttention(d_model, num_heads, batch_first=True)
    # (N, T, E), (N, h, T, T)
    out, w = mha(tokens, tokens, tokens, average_attn_weights=False)
    return [(_label("image", lang), tuple(img.shape)),
            ("Conv2d(k=p, stride=p)", tuple(grid.shape)),
            ("flatten(2).transpose(1, 2)", tuple(tokens.shape)),
            (_label("attn_out", lang), tuple(out.shape)),
            (_label("attn_weights", lang), tuple(w.shape))]
# --8<-- [end:patches]


def _check_patches(image_size: int, patch: int, d_model: int, num_heads: int) -> None:
    check_positive_int(image_size, "image_size")
    check_positive_int(patch, "patch")
    check_divisible(d_model, num_heads)
    if image_size % patch:
        raise ValueError(f"image_size must be a multiple of patch, got {image_size} and {patch}")


def token_counts(lang: str = "zh", image_size: int = 224, patch: int = 16) -> list[tuple]:
    """Tokens, and attention-weight entries per head, if every pixel or every patch is a token."""
    check_lang(lang)
    check_positive_int(image_size, "image_size")
    check_positive_int(patch, "patch")
    if image_size % patch:
        raise ValueError(f"image_size must be a multiple of patch, got {image_size} and {patch}")
    rows = []
    names = (text(lang, "faq.per_pixel"), text(lang, "faq.per_patch", patch=patch))
    for name, T in zip(names, (image_size * image_size, (image_size // patch) ** 2), strict=True):
        rows.append((name, f"{T:,}", f"{T * T:,}"))
    return rows


def permutation_check(d_model: int = 64, num_heads: int = 4, L: int = 9, seed: int = 0,
                      causal: bool = False) -> str:
    """max |attn(x[perm]) - attn(x)[perm]|: without positional encodings, bidirectional attention
    ignores order (rounding only); with a causal mask the result depends on the order."""
    return _fmt(_permutation_difference(d_model, num_heads, L, seed, causal))


def _permutation_difference(d_model: int, num_heads: int, L: int, seed: int, causal: bool) -> float:
    check_positive_int(L, "L")
    m = _layer(d_model, num_heads, seed)
    x = torch.randn(1, L, d_model)  # (1, L, E)
    perm = torch.randperm(L)
    mask = ~causal_mask(L) if causal else None  # (L, L), True = may NOT attend
    with torch.no_grad():
        a = m(x[:, perm], x[:, perm], x[:, perm], attn_mask=mask)[0]  # (1, L, E)
        b = m(x, x, x, attn_mask=mask)[0][:, perm]  # (1, L, E)
    return (a - b).abs().max().item()


def permutation_sentence(lang: str = "zh", d_model: int = 64, num_heads: int = 4, L: int = 9,
                         seed: int = 0) -> str:
    """What permutation_check prints for the same layer and input, said with its numbers: the
    bidirectional difference against float32's machine epsilon, the causal one against it."""
    check_lang(lang)
    free = _permutation_difference(d_model, num_heads, L, seed, causal=False)
    causal = _permutation_difference(d_model, num_heads, L, seed, causal=True)
    eps = torch.finfo(torch.float32).eps
    # The sentence calls the first difference rounding and the second a real change: hold it to that.
    if free > 16 * eps or causal < 1e3 * eps:
        raise ValueError(f"expected the bidirectional difference at float32 rounding (at most 16 × {eps:.1e}) "
                         f"and the causal one far above it, got {free:.1e} and {causal:.1e}")
    return text(lang, "faq.permutation_sentence", free=free, eps=eps, causal=causal)


# --8<-- [start:configs]
BERT = "https://arxiv.org/abs/1810.04805"
GPT3 = "https://arxiv.org/abs/2005.14165"
VASWANI = "https://arxiv.org/abs/1706.03762"
T5 = "https://arxiv.org/abs/1910.10683"

# Cited facts, copied from each paper. d_kv is set only where the paper
# fixes it apart from d_model / h. Layers of encoder-decoder models
# (Transformer, T5) count each stack. GPT-3 XL and 13B are left out: their
# rows in Table 2.1 do not multiply out (24 heads × 128 vs d_model 2048;
# 40 × 128 vs 5140).
MODEL_CONFIGS = [
    # model, parameters, layers, heads, d_model, d_kv, source, where
    ("Transformer base", "65M", 6, 8, 512, None, VASWANI, "Table 3"),
    ("Transformer big", "213M", 6, 16, 1024, None, VASWANI, "Table 3"),
    ("BERT-base", "110M", 12, 12, 768, None, BERT, "§3"),
    ("BERT-large", "340M", 24, 16, 1024, None, BERT, "§3"),
    ("GPT-3 Small", "125M", 12, 12, 768, None, GPT3, "Table 2.1"),
    ("GPT-3 Medium", "350M", 24, 16, 1024, None, GPT3, "Table 2.1"),
    ("GPT-3 Large", "760M", 24, 16, 1536, None, GPT3, "Table 2.1"),
    ("GPT-3 2.7B", "2.7B", 32, 32, 2560, None, GPT3, "Table 2.1"),
    ("GPT-3 6.7B", "6.7B", 32, 32, 4096, None, GPT3, "Table 2.1"),
    ("GPT-3 175B", "175B", 96, 96, 12288, None, GPT3, "Table 2.1"),
    ("T5-11B", "11B", 24, 128, 1024, 128, T5, "§3.7"),
]
# --8<-- [end:configs]


def config_rows(lang: str = "zh") -> list[tuple]:
    """MODEL_CONFIGS with the head dimension computed, and whether h × d_head equals d_model."""
    check_lang(lang)
    rows = []
    for name, params, layers, h, d_model, d_kv, url, loc in MODEL_CONFIGS:
        d_head = d_kv if d_kv is not None else d_model // h
        if d_kv is None and d_model % h:
            raise ValueError(f"{name}: d_model={d_model} is not divisible by heads={h}")
        loc = loc.replace("Table", text(lang, "faq.table"))
        if loc.startswith("§"):
            loc = text(lang, "faq.section", n=loc[1:])
        same = text(lang, "faq.yes") if h * d_head == d_model else text(lang, "faq.no", n=h * d_head)
        rows.append((name, params, layers, h, d_model, d_head, same,
                     f"[arXiv {url.rsplit('/', 1)[1]}]({url}){text(lang, 'faq.ref_sep')}{loc}"))
    return rows


# --8<-- [start:gqa]
def gqa_rows(num_heads: int = 8, kv_heads: Sequence[int] = (8, 4, 2, 1),
             d_k: int = 16, L: int = 10, seed: int = 0) -> list[tuple]:
    """g K/V heads shared by groups of h/g query heads: SDPA's enable_gqa
    vs repeating K and V."""
    _check_gqa(num_heads, kv_heads, d_k, L)
    h = num_heads
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(1, h, L, d_k, generator=gen)  # (N, h, L, d_k)
    rows = []
    for g in kv_heads:
        k = torch.randn(1, g, L, d_k, generator=gen)  # (N, g, S, d_k)
        v = torch.randn(1, g, L, d_k, generator=gen)  # (N, g, S, d_k)
        # (N, h, L, d_k)
        fused = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        # (N, h, S, d_k): query head j uses K/V head j // (h/g)
        k_rep = k.repeat_interleave(h // g, dim=1)
        v_rep = v.repeat_interleave(h // g, dim=1)  # (N, h, S, d_k)
        ref = F.scaled_dot_product_attention(q, k_rep, v_rep)
        name = "MHA" if g == h else ("MQA" if g == 1 else "GQA")
        diff = (fused - ref).abs().max().item()
        rows.append((name, h, g, _fmt(diff), 2 * g * d_k, f"{g / h:.3f}"))
    return rows
# --8<-- [end:gqa]


def _check_gqa(num_heads: int, kv_heads: Sequence[int], d_k: int, L: int) -> None:
    for name, value in (("num_heads", num_heads), ("d_k", d_k), ("L", L), *(("kv_heads", g) for g in kv_heads)):
        check_positive_int(value, name)
    for g in kv_heads:
        if num_heads % g:
            raise ValueError(f"num_heads must be a multiple of each kv_heads value, got {num_heads} and {g}")


def kv_cache_rows(layers: int = 96, num_heads: int = 96, d_k: int = 128, L: int = 2048,
                  kv_heads: Sequence[int] = (96, 8, 1), bytes_per: int = 2) -> list[tuple]:
    """KV cache of one sequence: 2 (K and V) × layers × g × d_k × L values."""
    for name, value in (("layers", layers), ("num_heads", num_heads), ("d_k", d_k), ("L", L),
                        ("bytes_per", bytes_per), *(("kv_heads", g) for g in kv_heads)):
        check_positive_int(value, name)
    rows = []
    for g in kv_heads:
        if num_heads % g:
            raise ValueError(f"num_heads must be a multiple of each kv_heads value, got {num_heads} and {g}")
        size = 2 * layers * g * d_k * L * bytes_per
        rows.append((g, f"{size / 2**30:.2f}"))
    return rows


# Sentences that carry the numbers of the tables above them (templates in snippets.i18n).

def _num(cell: str) -> int:
    return int(cell.replace(",", ""))


def flop_sentence(lang: str, rows: Sequence[tuple]) -> str:
    """What flop_rows shows, said with its numbers: matmul FLOPs flat in h, weights growing with h."""
    check_lang(lang)
    if len(rows) < 2:
        raise ValueError(f"expected rows of flop_rows for at least 2 head counts, got {len(rows)}")
    heads = [r[0] for r in rows]
    proj, core, default = ({r[i] for r in rows} for i in (1, 2, 3))
    if len(proj) != 1 or len(core) != 1:
        raise ValueError(f"expected the same matmul FLOPs for every head count, got {sorted(proj | core)}")
    sentence = text(lang, "faq.flops_sentence", heads=text(lang, "faq.list_sep").join(map(str, heads)),
                    proj=proj.pop(), core=core.pop(), default=text(lang, "faq.list_sep").join(sorted(default)),
                    w_min=rows[0][4], w_max=rows[-1][4], ratio=_num(rows[-1][4]) // _num(rows[0][4]),
                    mib_min=rows[0][5], mib_max=rows[-1][5])
    if default == {"0"}:  # the CPU flash kernel has no FLOP formula
        sentence += text(lang, "faq.sep_sentence") + text(lang, "faq.flops_zero")
    return sentence


def similarity_sentence(lang: str, rows: Sequence[tuple[str, str]]) -> str:
    """What similarity_rows shows, with its two numbers."""
    check_lang(lang)
    if len(rows) != 2:
        raise ValueError(f"expected the 2 rows of similarity_rows, got {len(rows)}")
    return text(lang, "faq.similarity_sentence", random=rows[0][1], copies=rows[1][1])


def entropy_sentence(lang: str, rows: Sequence[tuple[str, str]]) -> str:
    """What entropy_rows shows about the untrained layer, with its numbers."""
    check_lang(lang)
    if len(rows) != 4:
        raise ValueError(f"expected the 4 rows of entropy_rows, got {len(rows)}")
    return text(lang, "faq.entropy_sentence", one_hot=rows[0][1], uniform=rows[1][1], mean=rows[2][1],
                min=rows[3][1])


def real_model_width(lang: str = "zh") -> str:
    """The head width d_k of the site's real model (all-MiniLM-L6-v2), read from its config.json."""
    from .bert.loader import load_config

    check_lang(lang)
    cfg = load_config()
    return text(lang, "faq.real_width", layers=cfg.num_layers, h=cfg.num_heads, E=cfg.hidden_size,
                d_k=cfg.hidden_size // cfg.num_heads)


# --8<-- [start:fast_path]
# (batch_first, training mode, self-attention, need_weights) of each call
FAST_PATH_CASES = {
    "default": (False, False, True, False),
    "default_weights": (False, False, True, True),
    "bf": (True, False, True, False),
    "bf_cross": (True, False, False, False),
    "bf_train": (True, True, True, False),
}


def attention_ops(batch_first: bool, training: bool, self_attn: bool,
                  need_weights: bool, d_model: int = 64, num_heads: int = 4,
                  L: int = 8, seed: int = 0) -> set[str]:
    """The aten ops torch.profiler records for one nn.MultiheadAttention
    call under torch.no_grad()."""
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(d_model, num_heads, batch_first=batch_first)
    mha.train(training)  # dropout is 0: the output is the same either way
    x = torch.randn(2, L, d_model)  # (N, L, E), or (L, N, E)
    mem = x if self_attn else x.clone()  # a different tensor: not "self"
    with torch.no_grad(), recorded_ops() as ops:
        mha(x, mem, mem, need_weights=need_weights)
    return ops
# --8<-- [end:fast_path]




def _fast_path_facts(d_model: int, num_heads: int, L: int) -> dict[str, tuple[bool, str, bool]]:
    """Per call in FAST_PATH_CASES: (fast path ran, attention kernel, (N, h, L, S) weights built)."""
    facts = {}
    for key, case in FAST_PATH_CASES.items():
        ops = attention_ops(*case, d_model=d_model, num_heads=num_heads, L=L)
        softmax = bool(ops & {"aten::softmax", "aten::_softmax"})
        if FLASH_OP in ops:
            kernel = f"`{FLASH_OP.removeprefix('aten::')}`"
        elif "aten::bmm" in ops and softmax:
            kernel = "`bmm` + `softmax`"
        else:
            raise ValueError(f"expected a flash or a bmm + softmax attention kernel, got {sorted(ops)}")
        facts[key] = (FAST_OP in ops, kernel, softmax and FLASH_OP not in ops)
    return facts


def faq_fast_path_rows(lang: str = "zh", d_model: int = 64, num_heads: int = 4, L: int = 8) -> list[tuple]:
    """Per call in FAST_PATH_CASES, as the profiler saw it: did the fast path run, which attention
    kernel ran, and was the (N, h, L, S) weights tensor built (a softmax op recorded)."""
    check_lang(lang)
    yes_no = lambda b: text(lang, "faq.yes" if b else "faq.no_plain")  # noqa: E731
    return [(_label(f"fp.{key}", lang), yes_no(fast), kernel, yes_no(weights))
            for key, (fast, kernel, weights) in _fast_path_facts(d_model, num_heads, L).items()]


def fast_path_sentence(lang: str = "zh", d_model: int = 64, num_heads: int = 4, L: int = 8) -> str:
    """The default layer and its batch_first=True twin, as the profiler saw them, in one sentence."""
    check_lang(lang)
    facts = _fast_path_facts(d_model, num_heads, L)
    words = {}
    for key in ("default", "bf"):
        fast, kernel, weights = facts[key]
        words[f"{key}_path"] = text(lang, "faq.fp_took" if fast else "faq.fp_skipped")
        words[f"{key}_kernel"] = kernel
        words[f"{key}_weights"] = text(lang, "faq.fp_builds" if weights else "faq.fp_no_build")
    return text(lang, "faq.fast_sentence", **words)
