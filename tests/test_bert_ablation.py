"""Head ablation on the pretrained model (snippets/bert/ablation.py, retrieval.py) and the page's sentences."""

from __future__ import annotations

import pytest
import torch
from torch.testing import assert_close

from snippets.attention import scaled_dot_product_attention
from snippets.bert import report
from snippets.bert.ablation import embedding_shift, head_mask, length_baseline, sentence_embedding
from snippets.bert.logdata import LONG_LOG, PAIRS
from snippets.bert.loader import encode, load_model
from snippets.bert.retrieval import (CORPUS, ablation_results, angle_deg, bootstrap_mean, full_embeddings,
                                     layer_ablation, pair_scores)
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


def test_batched_embeddings_match_one_text_at_a_time():
    model = load_model()
    full = full_embeddings()
    assert tuple(full.shape) == (2 * len(PAIRS), 384)
    for i in (0, len(CORPUS) - 1):  # padding changes nothing
        assert_close(full[i], sentence_embedding(model, encode(CORPUS[i]).ids)[0], atol=1e-5, rtol=1e-5)


def test_layer_ablation_matches_a_direct_ablation():
    model = load_model()
    ablated = layer_ablation(5)
    assert tuple(ablated.shape) == (12, len(CORPUS), 384)
    ids = encode(CORPUS[3]).ids
    with head_mask(model.layers[5].attn, 7):
        direct = sentence_embedding(model, ids)[0]
    assert_close(ablated[7, 3], direct, atol=1e-5, rtol=1e-5)
    assert_close(sentence_embedding(model, ids)[0], full_embeddings()[3], atol=1e-5, rtol=1e-5)  # hook removed
    with pytest.raises(ValueError, match=r"layer must be in 0 … 5, got 6"):
        layer_ablation(6)


def test_pair_scores_and_bootstrap():
    e = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1], [0.1, 1.0]])  # 0 ~ 2, 1 ~ 3
    assert pair_scores(e).tolist() == [1.0, 1.0]
    swapped = e[[0, 1, 3, 2]]  # partners crossed: every lookup misses
    assert pair_scores(swapped).tolist() == [0.0, 0.0]
    mean, lo, hi = bootstrap_mean(torch.tensor([0.0, -1.0, 0.0, -1.0]))
    assert mean.item() == -0.5 and -1.0 <= lo.item() < -0.5 < hi.item() <= 0.0
    assert bootstrap_mean(torch.zeros(2, 5))[1].tolist() == [0.0, 0.0]
    assert angle_deg(torch.tensor([1.0, 0.0]), torch.tensor([-1.0, 0.0])).item() == pytest.approx(180.0)
    with pytest.raises(ValueError, match=r"expected \(2P, E\) embeddings"):
        pair_scores(torch.zeros(3, 2))


def test_ablation_results_on_the_page_pairs():
    res = ablation_results()
    assert len(PAIRS) >= 30 and res["pairs"] == len(PAIRS)
    assert tuple(res["angles"].shape) == (6, 12, 2 * len(PAIRS))
    assert bool((res["lo"] <= res["delta"]).all()) and bool((res["delta"] <= res["hi"]).all())
    assert 0.5 < res["accuracy"] <= 1.0
    # paraphrases are closer than unrelated texts, and one head turns an embedding far less than either
    assert res["pair_angle"].median() < res["other_angle"].median()
    assert res["angles"].median(-1).values.max() < res["pair_angle"].median()


def test_pair_examples_lists_the_first_pairs():
    lines = report.pair_examples(3).splitlines()
    assert lines == [f"- `{m}` → {r}" for m, r in PAIRS[:3]]
    for bad in (0, len(PAIRS) + 1, True, "3"):
        with pytest.raises(ValueError, match=r"k must be an integer in 1 … \d+, got"):
            report.pair_examples(bad)


def test_retrieval_verdicts_account_for_testing_every_head():
    res = ablation_results()
    n_heads = res["delta"].numel()
    assert n_heads == 72 and res["level_corrected"] == pytest.approx(1 - 0.05 / 72)
    # the corrected intervals are the wider ones, and contain the 95% ones
    assert bool((res["lo_corrected"] <= res["lo"]).all()) and bool((res["hi_corrected"] >= res["hi"]).all())
    drop = [f"{i}-{j}" for i in range(6) for j in range(12) if res["hi"][i, j] < 0]
    drop_corrected = int((res["hi_corrected"] < 0).sum() + (res["lo_corrected"] > 0).sum())
    # what the page says today: two 95% intervals below 0 (about the 1.8 chance gives), none after correction
    assert drop == ["5-4", "5-7"] and drop_corrected == 0
    en = report.retrieval_verdicts("en")
    assert en.startswith("With a 95% interval for each head on its own, removing 2 of the 72 heads lowers retrieval "
                         "accuracy with an interval wholly below 0: 5-4 (other, ")
    assert ("about 1.8 such intervals are expected wholly below 0 by chance alone (2.5% of 72)" in en
            and "level 1 − 0.05/72 ≈ 99.93%, 20,000 bootstrap resamples), none lies wholly below or wholly above 0"
            in en)
    zh = report.retrieval_verdicts("zh")
    assert "72 个头里有 2 个" in zh and "约 1.8 个 95% 区间" in zh and "没有一个区间整个在 0 以下或 0 以上" in zh
    assert report.retrieval_takeaway("en") == (
        "On log retrieval, 2 of the 72 heads have a 95% interval wholly below 0, where chance alone would give "
        "about 1.8; corrected for testing all 72 heads, none does: on these 34 pairs, no single head's removal "
        "measurably changes retrieval.")
    assert "72 个头里有 2 个" in report.retrieval_takeaway("zh") and "一个也不剩" in report.retrieval_takeaway("zh")


def test_length_baseline_has_the_long_text():
    rows = length_baseline()
    assert rows[-1]["text"] == LONG_LOG and rows[-1]["tokens"] >= 100
    assert all(r["uniform"] == pytest.approx(1 / r["tokens"]) for r in rows)
    assert rows[-1]["over_10"] < min(r["over_10"] for r in rows[:-1])


def test_page_sentences_and_tables():
    for lang in ("zh", "en"):
        assert "°" in report.ablation_scale(lang)
        assert report.layer_table(lang).count("\n") == 7  # header, rule, 6 layers
        assert report.head_table(lang).count("\n") == 73
        assert "%" in report.broad_vs_clark(lang) and "%" in report.length_summary(lang)
        verdicts = report.retrieval_verdicts(lang)
        assert "34" in verdicts and "[" in verdicts
    with pytest.raises(ValueError, match="lang must be"):
        report.ablation_scale("fr")
    with pytest.raises(ValueError, match="texts must be an even number"):
        full_embeddings(("one", "two", "three"))
