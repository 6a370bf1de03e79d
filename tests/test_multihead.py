from __future__ import annotations

import pytest
import torch
from conftest import random_masks
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn
from torch.testing import assert_close

from snippets.multihead import MultiHeadAttention, load_from_torch, merge_heads, split_heads


def pair(d_model: int, num_heads: int, batch_first: bool = True, bias: bool = True, seed: int = 0):
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(d_model, num_heads, bias=bias, batch_first=batch_first).double().eval()
    mine = MultiHeadAttention(d_model, num_heads, bias=bias, batch_first=batch_first).double().eval()
    return load_from_torch(mine, official), official


def test_split_and_merge_shapes():
    x = torch.randn(2, 10, 512)
    assert split_heads(x, 8).shape == (2, 8, 10, 64)
    assert torch.equal(merge_heads(split_heads(x, 8)), x)
    # head i sees exactly features i*d_k ... (i+1)*d_k - 1
    assert torch.equal(split_heads(x, 8)[:, 3], x[..., 192:256])


@settings(max_examples=60, deadline=None)
@given(
    N=st.integers(1, 3), L=st.integers(1, 7), S=st.integers(1, 7), h=st.sampled_from([1, 2, 4]),
    d_k=st.integers(1, 6), batch_first=st.booleans(), bias=st.booleans(), cross=st.booleans(),
    attn=st.sampled_from(["none", "bool2d", "float2d", "bool3d", "float3d"]),
    pad=st.sampled_from(["none", "bool", "float"]), average=st.booleans(), seed=st.integers(0, 2**16),
)
def test_matches_nn_multihead_attention(N, L, S, h, d_k, batch_first, bias, cross, attn, pad, average, seed):
    E = h * d_k
    S = S if cross else L
    mine, official = pair(E, h, batch_first, bias, seed)
    g = torch.Generator().manual_seed(seed)

    def seq(T):
        t = torch.randn(N, T, E, generator=g, dtype=torch.float64)
        return t if batch_first else t.transpose(0, 1)

    query, key = seq(L), seq(S)
    value = seq(S) if cross else key
    shape = (L, S) if attn.endswith("2d") else (N * h, L, S)
    kwargs = {"average_attn_weights": average} | random_masks(g, attn, pad, shape, (N, S))
    if attn.startswith("bool") and pad == "float":
        kwargs["key_padding_mask"] = kwargs["key_padding_mask"] > 0.5  # PyTorch rejects mixed mask types
        kwargs["key_padding_mask"][:, 0] = False
    if attn.startswith("float") and pad == "bool":
        kwargs["attn_mask"] = kwargs["attn_mask"] > 0.5
        kwargs["attn_mask"][..., 0] = False
    out_m, w_m = mine(query, key, value, **kwargs)
    out_o, w_o = official(query, key, value, **kwargs)
    assert_close(out_m, out_o, atol=1e-6, rtol=0)
    assert_close(w_m, w_o, atol=1e-6, rtol=0)
    assert w_m.shape == ((N, L, S) if average else (N, h, L, S))


def test_need_weights_false_returns_none():
    mine, official = pair(8, 2)
    x = torch.randn(1, 3, 8, dtype=torch.float64)
    out, w = mine(x, x, x, need_weights=False)
    assert w is None
    assert_close(out, official(x, x, x, need_weights=False)[0], atol=1e-6, rtol=0)


def test_float32_matches_to_1e6():
    torch.manual_seed(0)
    official = nn.MultiheadAttention(64, 8, batch_first=True).eval()
    mine = load_from_torch(MultiHeadAttention(64, 8), official)
    x = torch.randn(2, 10, 64)
    assert_close(mine(x, x, x)[0], official(x, x, x)[0], atol=1e-6, rtol=0)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: MultiHeadAttention(512, 7), r"d_model must be divisible by num_heads: got d_model=512, num_heads=7 \(512 % 7 = 1\)"),
        (lambda: MultiHeadAttention(512, 0), r"num_heads must be a positive integer, got 0"),
        (lambda: split_heads(torch.randn(2, 10, 30), 4), r"d_model must be divisible by num_heads: got d_model=30, num_heads=4"),
        (lambda: split_heads(torch.randn(10, 30), 3), r"x must be 3-D, got shape \(10, 30\)"),
        (lambda: merge_heads(torch.randn(2, 10, 30)), r"x must be 4-D, got shape \(2, 10, 30\)"),
    ],
)
def test_constructor_and_reshape_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attn_mask": torch.zeros(3, 4, dtype=torch.bool)}, r"attn_mask must have shape \(5, 5\) or \(8, 5, 5\), got \(3, 4\)"),
        ({"attn_mask": torch.zeros(5, 5, dtype=torch.int32)}, r"attn_mask must be torch.bool or a floating-point tensor, got dtype torch.int32"),
        ({"key_padding_mask": torch.zeros(2, 4, dtype=torch.bool)}, r"key_padding_mask must have shape \(N, S\) = \(2, 5\), got \(2, 4\)"),
        ({"key_padding_mask": torch.zeros(2, 5, dtype=torch.uint8)}, r"key_padding_mask must be torch.bool or a floating-point tensor, got dtype torch.uint8"),
    ],
)
def test_mask_errors(kwargs, message):
    m = MultiHeadAttention(16, 4)
    x = torch.randn(2, 5, 16)
    with pytest.raises(ValueError, match=message):
        m(x, x, x, **kwargs)


def test_input_errors():
    m = MultiHeadAttention(16, 4)
    with pytest.raises(ValueError, match=r"query and key must have last dimension d_model=16, got query \(2, 5, 12\)"):
        m(torch.randn(2, 5, 12), torch.randn(2, 5, 16), torch.randn(2, 5, 16))
    with pytest.raises(ValueError, match="query and key must have the same batch size, got 2 and 3"):
        m(torch.randn(2, 5, 16), torch.randn(3, 5, 16), torch.randn(3, 5, 16))


def test_load_from_torch_checks_shapes():
    with pytest.raises(ValueError, match="official has embed_dim=16, num_heads=2; ours has d_model=16, num_heads=4"):
        load_from_torch(MultiHeadAttention(16, 4), nn.MultiheadAttention(16, 2))
    with pytest.raises(ValueError, match="separate kdim/vdim"):
        load_from_torch(MultiHeadAttention(16, 4), nn.MultiheadAttention(16, 4, kdim=8, vdim=8))
    with pytest.raises(ValueError, match="bias settings differ: official has bias=False, ours has bias=True"):
        load_from_torch(MultiHeadAttention(16, 4), nn.MultiheadAttention(16, 4, bias=False))
    with pytest.raises(ValueError, match=r"expected \(MultiHeadAttention, nn.MultiheadAttention\), got \(Linear"):
        load_from_torch(nn.Linear(16, 16), nn.MultiheadAttention(16, 4))
