"""Head ablation on the pretrained model (snippets/bert/ablation.py)."""

from __future__ import annotations

import pytest
import torch
from torch.testing import assert_close

from snippets.attention import scaled_dot_product_attention
from sitebuild.bertreport import broad_vs_clark, importance_rows, importance_summary
from snippets.bert.ablation import embedding_shift, head_importance, head_mask, sentence_embedding, text_pair_shift
from snippets.bert.analysis import TEXTS
from snippets.bert.loader import encode, load_model
from snippets.multihead import MultiHeadAttention, merge_heads, split_heads


def test_head_mask_removes_exactly_one_heads_contribution():
    torch.manual_seed(0)
    m = MultiHeadAttention(16, 4).eval()
    x = torch.randn(2, 5, 16)
    q, k, v = (split_heads(f(x), 4) for f in (m.W_q, m.W_k, m.W_v))
    context, _ = scaled_dot_product_attention(q, k, v)  # (N, h, T, d_k)
    context[:, 2] = 0.0
    expected = m.W_o(merge_heads(context))
    with torch.no_grad(), head_mask(m, 2):
        masked = m(x, x, x)[0]
    assert_close(masked, expected)
    with torch.no_grad():  # the hook is gone afterwards
        assert not torch.allclose(m(x, x, x)[0], expected)


def test_head_mask_rejects_a_head_that_does_not_exist():
    m = MultiHeadAttention(16, 4)
    with pytest.raises(ValueError, match=r"head must be in 0 … 3, got 4"), head_mask(m, 4):
        pass


def test_embedding_shift_is_one_minus_cosine():
    a = torch.tensor([1.0, 2.0, 3.0])
    assert embedding_shift(a, 2 * a) == pytest.approx(0.0, abs=1e-6)
    assert embedding_shift(a, -a) == pytest.approx(2.0)


def test_importance_matches_a_direct_ablation():
    shift = head_importance(TEXTS)
    assert tuple(shift.shape) == (len(TEXTS), 6, 12)
    assert bool((shift > 0).all()), "every head changes the embedding a little"
    model = load_model()
    ids = encode(TEXTS[1]).ids
    full = sentence_embedding(model, ids)
    with head_mask(model.layers[5].attn, 11):
        ablated = sentence_embedding(model, ids)
    assert shift[1, 5, 11].item() == pytest.approx(embedding_shift(ablated, full), abs=1e-9)
    assert_close(sentence_embedding(model, ids), full)  # the model is left as it was


def test_page_sentences_and_rows():
    rows = importance_rows("en")
    assert sum(r[1] for r in rows) == 72
    assert 0.1 < text_pair_shift() < 2.0
    for lang in ("zh", "en"):
        assert "0." in importance_summary(lang)
        assert "%" in broad_vs_clark(lang)
    with pytest.raises(ValueError, match="lang must be"):
        importance_summary("fr")
    with pytest.raises(ValueError, match="texts must be"):
        head_importance("one text")
