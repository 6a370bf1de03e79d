from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.testing import assert_close

from snippets.attention import causal_mask, scaled_dot_product_attention


def test_shapes_and_rows_sum_to_one():
    q, k, v = torch.randn(2, 3, 5, 4), torch.randn(2, 3, 7, 4), torch.randn(2, 3, 7, 6)
    out, w = scaled_dot_product_attention(q, k, v)
    assert out.shape == (2, 3, 5, 6) and w.shape == (2, 3, 5, 7)
    assert_close(w.sum(-1), torch.ones(2, 3, 5))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 3), h=st.integers(1, 4), L=st.integers(1, 9), S=st.integers(1, 9),
       d=st.integers(1, 16), masked=st.sampled_from(["none", "bool", "float"]), seed=st.integers(0, 2**16))
def test_matches_torch_sdpa(n, h, L, S, d, masked, seed):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(n, h, T, d, generator=g, dtype=torch.float64) for T in (L, S, S))
    mask = None
    if masked == "bool":
        mask = torch.rand(L, S, generator=g) > 0.5
        mask[:, 0] = True  # every query may see at least one key
    elif masked == "float":
        mask = torch.randn(L, S, generator=g, dtype=torch.float64)
    ours, _ = scaled_dot_product_attention(q, k, v, mask)
    assert_close(ours, F.scaled_dot_product_attention(q, k, v, attn_mask=mask), atol=1e-6, rtol=0)


def test_bool_mask_gives_exact_zeros():
    q = k = v = torch.randn(1, 4, 8)
    _, w = scaled_dot_product_attention(q, k, v, causal_mask(4))
    assert torch.equal(w.triu(1), torch.zeros(1, 4, 4))


def test_causal_mask():
    assert causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    with pytest.raises(ValueError, match="length must be a positive integer, got 0"):
        causal_mask(0)


@pytest.mark.parametrize(
    ("q", "k", "v", "mask", "message"),
    [
        (torch.randn(2, 5, 4), torch.randn(2, 5, 3), torch.randn(2, 5, 3), None,
         r"q and k must have the same last dimension d_k: got q \(2, 5, 4\) and k \(2, 5, 3\)"),
        (torch.randn(2, 5, 4), torch.randn(2, 6, 4), torch.randn(2, 5, 4), None,
         r"k and v must have the same length S \(dim -2\): got k \(2, 6, 4\) and v \(2, 5, 4\)"),
        (torch.randn(5), torch.randn(5, 4), torch.randn(5, 4), None, r"q must be 2-D or .* got shape \(5,\)"),
        (torch.randn(2, 5, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 4), torch.ones(5, 5, dtype=torch.long),
         r"mask must be torch.bool or a floating-point tensor, got dtype torch.int64"),
        (torch.randn(2, 5, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 4), torch.ones(4, 5, dtype=torch.bool),
         r"mask must broadcast to the scores' shape \(\.\.\., L, S\) = \(2, 5, 5\), got shape \(4, 5\)"),
        (torch.ones(2, 5, 4, dtype=torch.long), torch.randn(2, 5, 4), torch.randn(2, 5, 4), None,
         r"q must be a floating-point tensor, got dtype torch.int64"),
    ],
)
def test_errors(q, k, v, mask, message):
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(q, k, v, mask)
