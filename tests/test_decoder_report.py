"""The real decoder page's printing: it reads results/decoder-heads.json and never the model, and what it
prints agrees with the model's config and file. Fast: no forward pass."""

from __future__ import annotations

import re

import numpy as np
import pytest

from resultcache import module_files
from snippets.decoder import report
from snippets.decoder.weights import file_hash, read_config
from snippets.figures import MIN_FONT_PT, PHONE_COLUMN_PX


@pytest.fixture(scope="module")
def result() -> dict:
    return report.result()


def test_the_page_code_does_not_load_the_model():
    files = module_files(["snippets.decoder.report"])
    loaded = [f for f in files if f.startswith("snippets/decoder/")]
    assert loaded == ["snippets/decoder/__init__.py", "snippets/decoder/report.py"], loaded  # no model, no loader


def test_result_is_of_this_file_and_config(result):
    d = result["data"]
    assert d["file_sha256"] == file_hash()
    assert d["config"] == read_config().as_dict()


def test_scores_cover_every_head_and_are_shares(result):
    s = result["data"]["scores"]
    c = result["data"]["config"]
    for name, keys in (("zh", ("prev", "sink")), ("en", ("prev", "sink")), ("repeated", ("prev", "sink", "prefix"))):
        for k in keys:
            m = np.array(s[name][k])
            assert m.shape == (c["num_layers"], c["num_heads"]) and (m >= 0).all() and (m <= 1).all(), (name, k)
    assert s["repeated"]["tokens"] == 2 * result["data"]["repeat"]["length"]


def test_cache_sizes_follow_the_config(result):
    c, cache = result["data"]["config"], result["data"]["cache"]
    per = {row["kind"]: row for row in cache["rows"]}
    d_k = c["d_model"] // c["num_heads"]
    assert per["GQA"]["bytes_per_token"]["float32"] == 2 * c["num_layers"] * c["num_kv_heads"] * d_k * 4
    assert per["MHA"]["bytes_per_token"]["bfloat16"] == 3 * per["GQA"]["bytes_per_token"]["bfloat16"]
    assert per["GQA"]["bytes_per_token"]["bfloat16"] == 3 * per["MQA"]["bytes_per_token"]["bfloat16"]
    assert per["GQA"]["bytes_at_context"]["bfloat16"] == per["GQA"]["bytes_per_token"]["bfloat16"] * 8192
    assert cache["read_off_cache_float32"] == per["GQA"]["bytes_per_token"]["float32"]  # a real cache, read off


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_two_minute_version_has_five_bullets_with_the_results_numbers(lang, result):
    bullets = report.summary_bullets(lang, result).splitlines()
    assert len(bullets) == 5 and all(b.startswith("- ") for b in bullets)  # "at most five bullets"
    top = report._top(report._maps(result)["prefix"], 1)[0]
    assert f"{top[2]:.2f}" in bullets[2]
    cut = report.knockout_family()[report.knockout_result()["data"]["protocol"]["K"][0], "zero", "cut-intact:repeated"]
    assert f"{cut.mean_a:.2f}" in bullets[4] and f"{cut.mean_b:.2f}" in bullets[4] and f"{cut.mean:+.2f}" in bullets[4]


def test_top_heads_are_sorted(result):
    rows = report.top_head_rows("en", 5, result)
    for col in range(1, 4):
        values = [float(r[col].rsplit(": ", 1)[1]) for r in rows]
        assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("figure", [report.score_figure, report.grouping_figure])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_figures_fit_a_phone_and_keep_their_text_readable(figure, lang, result):
    svg = figure(lang, result)
    min_px = int(re.search(r"min-width: (\d+)px", svg).group(1))
    assert min_px <= PHONE_COLUMN_PX  # no sideways scrolling at 390 px
    sizes = [float(x) for x in re.findall(r"font-size: ?([\d.]+)px", svg)]
    assert sizes and min(sizes) >= MIN_FONT_PT
    assert "mha-fig--wide" not in svg


def test_grouping_is_drawn_from_the_config(result):
    svg = report.grouping_figure("en", result)
    c = result["data"]["config"]
    assert f"Q{c['num_heads'] - 1}" in svg and f"Q{c['num_heads']}" not in svg
    assert f"K{c['num_kv_heads'] - 1} V{c['num_kv_heads'] - 1}" in svg and f"K{c['num_kv_heads']} " not in svg


def test_the_pages_small_run_on_a_tiny_random_decoder():
    """What the page's small run prints: a model loaded through the GGUF names generates the same tokens with
    and without the cache, and rope_angles gives (P, d_k/2)."""
    import torch

    from snippets.decoder.model import LlamaDecoder, generate, gguf_tensors, load_state, rope_angles
    from snippets.decoder.report import quick_decode
    from snippets.decoder.weights import LlamaConfig

    cfg = LlamaConfig(vocab=50, d_model=32, num_layers=2, num_heads=4, num_kv_heads=2, d_ff=48, context=16,
                      rope_base=10000.0, eps=1e-5)
    torch.manual_seed(0)
    source = LlamaDecoder(cfg).eval()
    model = load_state(LlamaDecoder(cfg), gguf_tensors(source))
    prompt = torch.tensor([[1, 2, 3, 4, 1, 2]])
    assert torch.equal(model(prompt), source(prompt))  # every weight arrived under its GGUF name
    from snippets.decoder.model import tiny_decoder

    page = tiny_decoder(cfg, seed=0)
    assert torch.equal(page(prompt), tiny_decoder(cfg, seed=0)(prompt))  # the seed fixes the page's model
    assert not torch.equal(page(prompt), tiny_decoder(cfg, seed=1)(prompt))
    cached, again = generate(model, prompt, 4), generate(model, prompt, 4, cache=False)
    cos, _ = rope_angles(cfg.d_k, 0, 6, cfg.rope_base)
    en = quick_decode(prompt, cached, again, cos.shape, "en")
    assert en.startswith(f"After the prompt [1, 2, 3, 4, 1, 2], the 4 tokens generated with the cache are "
                         f"{cached[0, 6:].tolist()}, and without it {again[0, 6:].tolist()}: the same.")
    assert en.endswith("cos and sin are (6, 4) each (6 positions × d_k/2 = 4 pairs).")
    other = again.clone()
    other[0, -1] = (other[0, -1] + 1) % 50
    assert "：两者不同。" in quick_decode(prompt, cached, other, cos.shape, "zh")
    with pytest.raises(ValueError, match="start with the 6-token prompt"):
        quick_decode(prompt, prompt, prompt, cos.shape, "en")


def test_made_up_heads_score_one_on_their_own_measure():
    from snippets.decoder.heads import ideal_weights, prefix_matching, previous_token, sink_share
    from snippets.decoder.report import quick_scores

    w = ideal_weights(5)
    assert w.sum(-1).eq(1).all() and w.triu(1).eq(0).all()  # rows are distributions, nothing from the future
    table = quick_scores(previous_token(w), prefix_matching(w, 5), sink_share(w), "en")
    assert "| only the previous token | 1.00 | 0.00 | 0.11 |" in table
    assert "| only the first token | 0.11 | 0.00 | 1.00 |" in table
    assert "| induction: the position after the last occurrence | 0.00 | 1.00 | 0.00 |" in table
    with pytest.raises(ValueError, match="at least 2"):
        ideal_weights(1)
