"""§1's recap of one head of self-attention (snippets/recap.py): the three steps, checked against torch."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

from snippets import recap
from snippets.attention import scaled_dot_product_attention
from snippets.logline import embed_tokens, log_tokens


def test_one_query_is_a_row_of_full_self_attention():
    tokens = log_tokens()
    step = recap.attend_once(tokens, "ERROR")
    x = embed_tokens(tokens, 16)[0]
    g = torch.Generator().manual_seed(0)
    W_q, W_k, W_v = torch.randn(3, 16, 16, generator=g) / 4
    out, w = scaled_dot_product_attention(x @ W_q, x @ W_k, x @ W_v)
    i = tokens.index("ERROR")
    assert_close(step.weights, w[i])
    assert_close(step.out, out[i])
    assert_close(step.out, F.scaled_dot_product_attention(x @ W_q, x @ W_k, x @ W_v)[i])
    assert_close(step.scores, (x @ W_k) @ (x[i] @ W_q) / math.sqrt(16))


def test_weights_sum_to_one_and_follow_the_scores():
    step = recap.attend_once(log_tokens(), "3", d_model=32, seed=3)
    assert step.weights.sum().item() == pytest.approx(1.0, abs=1e-6)
    assert bool((step.weights > 0).all())
    assert step.scores.argsort().tolist() == step.weights.argsort().tolist()


def test_rows_sentence_and_figure_say_the_same():
    rows = recap.recap_rows()
    assert [r[0] for r in rows] == [f"`{t}`" for t in log_tokens()]
    weights = [float(r[2]) for r in rows]
    top = log_tokens()[weights.index(max(weights))]
    for lang in ("en", "zh"):
        sentence = recap.recap_sentence(lang)
        assert top in sentence and f"{max(weights):.3f}" in sentence and "1.000" in sentence
        fig = recap.recap_figure(lang)
        assert "<svg" in fig and top in fig and "ERROR" in fig


def test_unknown_query_token_is_an_error():
    with pytest.raises(ValueError, match=r"query must be one of the tokens \[.*\], got 'WARN'"):
        recap.attend_once(log_tokens(), "WARN")
    with pytest.raises(ValueError, match=r"d_model must be a positive integer, got 0"):
        recap.attend_once(log_tokens(), "ERROR", d_model=0)
