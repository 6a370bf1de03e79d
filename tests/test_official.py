from __future__ import annotations

import pytest
import torch
from torch.testing import assert_close

from snippets.logline import LOG_LINE, embed_tokens, log_tokens
from snippets.official import (dropout_row_sums, equivalence_report, forward_order_sentence, forward_parameters,
                               run_official, shape_trace, source_comparison, source_comparison_sentence)
from snippets.tables import md_table


def test_official_weight_shapes_default_is_averaged():
    x = embed_tokens(log_tokens(), d_model=512)
    out, w_avg, w_heads = run_official(x, num_heads=8)
    assert out.shape == (1, 11, 512)
    assert w_avg.shape == (1, 11, 11)  # averaged over heads by default
    assert w_heads.shape == (1, 8, 11, 11)
    assert_close(w_heads.mean(dim=1), w_avg)


def test_equivalence_report_all_within_tolerance():
    rows = equivalence_report()
    assert len(rows) == 5
    assert all(ok for _, _, ok in rows), rows
    assert all(d < 1e-6 for _, d, _ in rows)


def test_equivalence_report_labels_in_both_languages():
    assert [r[0] for r in equivalence_report(lang="zh")][:2] == ["自注意力，输出", "自注意力，逐头权重 (N, h, L, S)"]
    assert [r[0] for r in equivalence_report(lang="en")][0] == "self-attention, output"
    with pytest.raises(ValueError, match="lang must be one of"):
        equivalence_report(lang="de")


def test_forward_parameters_by_position():
    rows = forward_parameters()
    assert rows[3] == (4, "`attn_mask`", "`key_padding_mask`")
    assert rows[5] == (6, "`need_weights`", "`attn_mask`")
    assert rows[-1] == (8, "—", "`is_causal`")
    assert "argument 4 is `attn_mask` to this site's layer and `key_padding_mask`" in forward_order_sentence("en")
    assert "从第 4 个参数起" in forward_order_sentence("zh")
    assert [r[2] for r in rows] == [f"`{n}`" for n in ("query", "key", "value", "key_padding_mask", "need_weights",
                                                        "attn_mask", "average_attn_weights", "is_causal")]


def test_the_sources_comparison_compares_shapes_that_differ_and_outputs_that_do_not_match():
    w1, w2, diff = source_comparison()
    assert (w1, w2) == ((2, 10, 10), (2, 8, 10, 10))
    assert diff > 0.1
    assert "(2, 10, 10)" in source_comparison_sentence("zh") and f"{diff:.2f}" in source_comparison_sentence("en")


def test_shape_trace():
    trace = dict(shape_trace(torch.randn(1, 11, 512), 8))
    assert trace["split_heads(W_q(x))"] == (1, 8, 11, 64)
    assert trace["q @ kᵀ"] == (1, 8, 11, 11)
    assert trace["merge_heads(·)"] == (1, 11, 512)


def test_dropout_breaks_row_sums_only_in_train_mode():
    train_sums, eval_sums = dropout_row_sums(embed_tokens(log_tokens(), 512), p=0.1)
    assert_close(eval_sums, torch.ones_like(eval_sums))
    assert (train_sums - 1).abs().max() > 0.05
    with pytest.raises(ValueError, match=r"p must be in \[0, 1\), got 1.5"):
        dropout_row_sums(torch.randn(1, 4, 8), num_heads=2, p=1.5)
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads: got d_model=8, num_heads=3"):
        dropout_row_sums(torch.randn(1, 4, 8), num_heads=3)


def test_logline_tokens_and_embedding():
    tokens = log_tokens()
    # fields at whitespace, key=value fields split in two: 8 fields, 3 of them key=value
    assert len(LOG_LINE.split()) == 8 and len(tokens) == 11 and tokens[2] == "ERROR"
    assert tokens[5:] == ["retry", "3", "duration", "5000ms", "service", "database"]
    assert " ".join(tokens) == LOG_LINE.replace("=", " ")
    assert log_tokens("a=b =c d= e") == ["a", "b", "=c", "d=", "e"]  # no empty key or value
    # the running example's sizes differ: tokens, heads, head width, model width
    assert len({len(tokens), 8, 512 // 8, 512}) == 4
    e = embed_tokens(tokens + ["ERROR"], d_model=16)
    assert e.shape == (1, 12, 16)
    assert torch.equal(e[0, 2], e[0, 11])  # the same token gets the same vector
    assert torch.equal(embed_tokens(tokens, 16), embed_tokens(tokens, 16))
    with pytest.raises(ValueError, match="d_model must be a positive integer, got 0"):
        embed_tokens(tokens, 0)
    with pytest.raises(ValueError, match="line must be a non-empty string"):
        log_tokens("   ")


def test_md_table_checks_rows():
    with pytest.raises(ValueError, match=r"row 0 has 1 cells, expected 2 \(one per header\)"):
        md_table(["a", "b"], [[1]])


def test_is_causal_is_only_a_hint_in_nn_multihead_attention():
    """§3's list of differences: without attn_mask, is_causal=True raises off the fast path and is ignored on it."""
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    x = torch.randn(1, 4, 8)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        mha(x, x, x, is_causal=True)  # training mode: F.multi_head_attention_forward
    causal = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)  # nn convention: True = may not attend
    mha.eval()
    with torch.no_grad():  # the fast path
        hinted, _ = mha(x, x, x, is_causal=True)
        unmasked, _ = mha(x, x, x)
        masked, _ = mha(x, x, x, attn_mask=causal)
    assert torch.equal(hinted, unmasked)  # the hint alone masks nothing
    assert (hinted - masked).abs().max() > 0.01
