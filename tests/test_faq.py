"""Tests for the code behind the FAQ answers (snippets/faq.py) and the glossary tooltips."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import markdown
import pytest
import torch
from torch.testing import assert_close

from snippets import faq
from snippets.multihead import MultiHeadAttention
from snippets.numfmt import typeset

ROOT = Path(__file__).resolve().parents[1]


def _layer(d_model=32, num_heads=4, seed=0):
    torch.manual_seed(seed)
    return MultiHeadAttention(d_model, num_heads).eval().double()


# Q1, Q2 ---------------------------------------------------------------------------------

def test_projection_rows_show_per_head_blocks_of_d_model_by_d_k():
    rows = dict(faq.projection_rows(d_model=96, num_heads=6))
    assert rows["in_proj_weight"] == (288, 96)
    assert rows["W_q.weight"] == (96, 96)
    assert rows["W_q.weight.view(h, d_k, E)[i]"] == (16, 96)  # E -> d_k, not d_k -> d_k
    assert rows["out_proj.weight.view(E, h, d_k)[:, i]"] == (96, 16)


def test_score_rank_is_bounded_by_d_k_and_params_are_equal():
    (h1, dk1, r1, n1, p1), (h8, dk8, r8, n8, p8) = faq.score_rank_rows(d_model=64, heads=(1, 8))
    assert (h1, dk1, r1, n1) == (1, 64, 64, 1)
    assert (h8, dk8, r8, n8) == (8, 8, 8, 8)
    assert p1 == p8 == f"{4 * (64 * 64 + 64):,}"


# Q3 -------------------------------------------------------------------------------------

def test_divisibility_messages():
    rows = faq.divisibility_messages(d_model=10, num_heads=3)
    assert rows[0][:2] == ("nn.MultiheadAttention", "AssertionError")
    assert "divisible" in rows[0][2]
    assert rows[1][1] == "ValueError" and "10 % 3 = 1" in rows[1][2]
    with pytest.raises(ValueError, match="expected d_model not divisible"):
        faq.divisibility_messages(d_model=12, num_heads=3)
    with pytest.raises(ValueError, match="num_heads must be a positive integer, got 0"):
        faq.divisibility_messages(d_model=12, num_heads=0)


# Q5 -------------------------------------------------------------------------------------

def test_loop_over_heads_equals_batched():
    m = _layer()
    x = torch.randn(3, 7, 32, dtype=torch.float64)
    with torch.no_grad():
        assert_close(faq.loop_over_heads(m, x), m(x, x, x)[0])
    assert float(faq.loop_vs_batched()) < 1e-5


def test_rounding_sentence_calls_an_exact_zero_exact():
    """Q2 and Q5 print how two computations differ: an exact 0 is not called rounding, rounding is not called 0."""
    assert faq.rounding_sentence(0.0, "en").startswith("The largest difference is exactly 0: at this size the two")
    assert "rounding" not in faq.rounding_sentence(0.0, "en").split(":")[0]
    assert faq.rounding_sentence(0.0, "zh").startswith("最大差值恰好是 0")
    assert faq.rounding_sentence(2.4e-7, "en") == ("The largest difference is 2.4e-07, the size of float32 rounding "
                                                   "(machine epsilon 1.2e-07).")
    assert faq.rounding_sentence(2.4e-7, "zh") == "最大差值是 2.4×10⁻⁷，在 float32 舍入的量级（机器精度 1.2×10⁻⁷）。"
    assert "more than float32 rounding" in faq.rounding_sentence(1e-3, "en")
    assert "超出了 float32 的舍入" in faq.rounding_sentence(1e-3, "zh")
    for bad in (-1.0, float("nan"), "0", True):
        with pytest.raises(ValueError, match="diff must be a non-negative number, got"):
            faq.rounding_sentence(bad, "en")


# Q7, Q14 --------------------------------------------------------------------------------

def test_self_and_cross_shapes():
    rows = faq.self_and_cross_rows("en", d_model=64, num_heads=4, L=5, S=9)
    assert [r[0] for r in rows] == ["self-attention: m(x, x, x)", "cross-attention: m(x, mem, mem)"]
    assert [r[0] for r in faq.self_and_cross_rows("zh")] == ["自注意力：m(x, x, x)", "交叉注意力：m(x, mem, mem)"]
    assert rows[0][1:] == ((1, 5, 64), (1, 5, 64), (1, 5, 64), (1, 4, 5, 5))
    assert rows[1][1:] == ((1, 5, 64), (1, 9, 64), (1, 5, 64), (1, 4, 5, 9))


def test_self_attention_projections_differ():
    assert float(faq.self_attention_q_ne_k()) > 0.1


# Q9 -------------------------------------------------------------------------------------

def test_flops_do_not_depend_on_heads_but_weights_do():
    E, L = 64, 16
    rows = faq.flop_rows(d_model=E, L=L, heads=(1, 4, 8))
    num = lambda s: int(s.replace(",", ""))  # noqa: E731
    for h, proj, core, default, weights, _ in rows:
        assert num(proj) == 4 * 2 * L * E * E  # four (L, E) @ (E, E) matmuls
        assert num(core) == 2 * 2 * L * L * E  # QKᵀ and AV, independent of h
        assert num(default) == 0  # the CPU flash kernel is not counted
        assert num(weights) == h * L * L


# Q11 ------------------------------------------------------------------------------------

def test_head_similarity_values():
    eye = torch.eye(4)
    w = torch.stack([eye, eye, eye.roll(1, dims=1)])  # heads 0 and 1 equal, head 2 disjoint
    s = faq.head_similarity(w)
    assert s.shape == (3, 3)
    assert_close(s.diagonal(), torch.ones(3, dtype=torch.float64))
    assert_close(s, s.T)
    assert s[0, 1].item() == pytest.approx(1.0)
    assert s[0, 2].item() == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="weights must be 3-D"):
        faq.head_similarity(eye)


def test_similarity_rows_copies_are_identical():
    rows = faq.similarity_rows("en")
    assert rows[1] == ("every head a copy of head 0", "1.000")
    assert 0.5 < float(rows[0][1]) < 1.0
    assert faq.similarity_rows("zh")[0][0] == "随机初始化的层"
    with pytest.raises(ValueError, match=r"lang must be one of \('zh', 'en'\), got 'fr'"):
        faq.similarity_rows("fr")


# Q12 ------------------------------------------------------------------------------------

def test_head_mask_of_ones_is_the_layer():
    m = _layer()
    x = torch.randn(2, 6, 32, dtype=torch.float64)
    with torch.no_grad():
        assert_close(faq.head_mask_forward(m, x, torch.ones(4, dtype=torch.float64)), m(x, x, x)[0])
    with pytest.raises(ValueError, match=r"head_mask must have shape \(4,\), got \(3,\)"):
        faq.head_mask_forward(m, x, torch.ones(3))
    with pytest.raises(ValueError, match="head_mask must be a torch.Tensor, got list"):
        faq.head_mask_forward(m, x, [1.0] * 4)


def test_pruned_heads_equal_masked_heads():
    m = _layer()
    x = torch.randn(2, 6, 32, dtype=torch.float64)
    small = faq.PrunedHeads(m, [3, 1]).double()
    mask = torch.tensor([0.0, 1.0, 0.0, 1.0], dtype=torch.float64)
    with torch.no_grad():
        assert_close(small(x), faq.head_mask_forward(m, x, mask))
    assert small.W_q.weight.shape == (16, 32) and small.W_o.weight.shape == (32, 16)
    with pytest.raises(ValueError, match=r"keep must list heads in \[0, 4\)"):
        faq.PrunedHeads(m, [4])


def test_prune_rows():
    full, pruned = faq.prune_rows("en")
    assert full[1:3] == (8, f"{4 * (64 * 64 + 64):,}")
    assert pruned[1:3] == (3, f"{3 * (64 * 24 + 24) + 24 * 64 + 64:,}")
    assert float(pruned[3]) < 1e-5


# Q15 ------------------------------------------------------------------------------------

def test_normalised_entropy():
    assert normalised_entropy_of(torch.eye(5)) == pytest.approx(0.0, abs=1e-9)
    assert normalised_entropy_of(torch.full((2, 5), 0.2)) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="need at least 2 keys"):
        faq.normalised_entropy(torch.ones(3, 1))


def normalised_entropy_of(w):
    return faq.normalised_entropy(w).mean().item()


def test_entropy_rows_untrained_layer_is_near_uniform():
    rows = dict(faq.entropy_rows("en"))
    assert rows["one-hot row (all on one key)"] == "0.000"
    assert rows["uniform row"] == "1.000"
    assert float(rows["untrained 8-head layer, mean over rows"]) > 0.8


# Q16 ------------------------------------------------------------------------------------

def test_mask_convention_maps():
    right, wrong = faq.mask_convention_maps(L=6)
    assert faq.nan_rows(right) == 0
    assert torch.equal(right.triu(1), torch.zeros(6, 6))  # nothing above the diagonal
    assert_close(right.sum(-1), torch.ones(6))
    assert faq.nan_rows(wrong) == 1 and wrong[-1].isnan().all()
    assert torch.equal(wrong[:-1].tril(), torch.zeros(5, 6))  # only the future


def test_mask_convention_figure_is_svg_with_alt():
    fig = faq.mask_convention_figure(["a", "b"], alt="two maps", caption="cap")
    assert fig.startswith('<figure class="mha-fig') and "<svg" in fig and 'aria-label="two maps"' in fig


def test_default_weight_shapes():
    assert faq.default_weight_shapes(d_model=64, num_heads=8, L=5, S=7) == [
        ("mha(q, k, v)", (2, 5, 7)), ("mha(q, k, v, average_attn_weights=False)", (2, 8, 5, 7))]


# Q17 ------------------------------------------------------------------------------------

def test_patch_sequence_rows():
    rows = dict(faq.patch_sequence_rows("en", image_size=32, patch=8, channels=3, d_model=64, num_heads=4))
    assert rows["image"] == (1, 3, 32, 32)
    assert rows["flatten(2).transpose(1, 2)"] == (1, 16, 64)
    assert rows["attention weights, per head"] == (1, 4, 16, 16)
    zh = faq.patch_sequence_rows("zh")
    assert [r[0] for r in zh] == ["图像", "Conv2d(k=p, stride=p)", "flatten(2).transpose(1, 2)", "注意力输出",
                                  "逐头的注意力权重"]
    with pytest.raises(ValueError, match="image_size must be a multiple of patch, got 30 and 8"):
        faq.patch_sequence_rows(image_size=30, patch=8)


def test_token_counts_and_permutation():
    assert faq.token_counts("en") == [("one token per pixel", "50,176", f"{50176 ** 2:,}"),
                                      ("one token per 16×16 patch", "196", "38,416")]
    assert float(faq.permutation_check()) < 1e-5
    # with a causal mask, order matters: the same permutation changes the result by far more than rounding
    assert float(faq.permutation_check(causal=True)) > 0.1


def test_permutation_sentence_carries_the_printed_numbers():
    free, causal = faq.permutation_check(), faq.permutation_check(causal=True)
    en = faq.permutation_sentence("en")
    assert en == (f"Without a mask the largest difference is {free}, the size of float32 rounding (machine "
                  f"epsilon 1.2e-07); with a causal mask it is {causal}: shuffling the tokens changes the "
                  "outputs themselves, not just their order.")
    zh = faq.permutation_sentence("zh")
    assert f"最大差值是 {typeset(free)}，" in zh and "（1.2×10⁻⁷）" in zh and f"差值是 {causal}：" in zh
    assert float(causal) > 0.1 and "e" not in causal  # 0.93, not 9.3e-01 (zh review FQ-7)
    assert faq.permutation_sentence("en", d_model=32, num_heads=2, L=5, seed=1).count(
        faq.permutation_check(d_model=32, num_heads=2, L=5, seed=1)) == 1
    with pytest.raises(ValueError, match="lang"):
        faq.permutation_sentence("fr")
    with pytest.raises(ValueError, match="L must be a positive integer, got 0"):
        faq.permutation_sentence("en", L=0)


# Q18 ------------------------------------------------------------------------------------

def test_config_rows_compute_head_dims():
    rows = {r[0]: r for r in faq.config_rows("en")}
    assert rows["BERT-base"][5] == 64 and rows["BERT-large"][5] == 64
    assert rows["GPT-3 175B"][3:6] == (96, 12288, 128)
    assert rows["GPT-3 2.7B"][5] == 80
    assert "GPT-3 XL" not in rows and "GPT-3 13B" not in rows  # inconsistent rows in Table 2.1
    assert rows["T5-11B"][6] == "no (16384)" and rows["BERT-base"][6] == "yes"
    assert all(r[7].startswith("[arXiv ") for r in rows.values())
    assert "表 2.1" in dict((r[0], r[7]) for r in faq.config_rows("zh"))["GPT-3 175B"]


# Q20 ------------------------------------------------------------------------------------

def test_gqa_matches_repeated_kv():
    rows = faq.gqa_rows(num_heads=8, kv_heads=(8, 4, 1), d_k=16)
    assert [r[0] for r in rows] == ["MHA", "GQA", "MQA"]
    assert all(float(r[3]) < 1e-6 for r in rows)
    assert [r[4] for r in rows] == [256, 128, 32]
    with pytest.raises(ValueError, match="num_heads must be a multiple of each kv_heads value, got 8 and 3"):
        faq.gqa_rows(num_heads=8, kv_heads=(3,))
    with pytest.raises(ValueError, match="kv_heads must be a positive integer, got 0"):
        faq.gqa_rows(num_heads=8, kv_heads=(0,))


def test_sizes_must_be_positive():
    with pytest.raises(ValueError, match="kv_heads must be a positive integer, got 0"):
        faq.kv_cache_rows(kv_heads=(0,))
    with pytest.raises(ValueError, match="layers must be a positive integer, got -1"):
        faq.kv_cache_rows(layers=-1)
    with pytest.raises(ValueError, match="patch must be a positive integer, got 0"):
        faq.token_counts("en", patch=0)
    with pytest.raises(ValueError, match="patch must be a positive integer, got 0"):
        faq.patch_sequence_rows(patch=0)


def test_kv_cache_rows():
    assert faq.kv_cache_rows() == [(96, "9.00"), (8, "0.75"), (1, "0.09")]
    expected = 2 * 96 * 8 * 128 * 2048 * 2 / 2**30
    assert float(faq.kv_cache_rows(kv_heads=(8,))[0][1]) == pytest.approx(expected, abs=0.005)


# Glossary ----------------------------------------------------------------------------------

def _glossary_extension():
    spec = importlib.util.spec_from_file_location("glossary_hook", ROOT / "sitebuild/hooks/glossary.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CJKAbbrExtension()


def test_glossary_matches_chinese_inside_sentences_but_not_code():
    src = ("用多头注意力计算。Multi-head attention and multi-headed things.\n\n"
           "    多头注意力 in code\n\n*[多头注意力]: multi-head attention\n*[multi-head attention]: 多头注意力\n")
    out = markdown.markdown(src, extensions=["abbr", _glossary_extension()])
    assert '用<abbr title="multi-head attention">多头注意力</abbr>计算' in out
    assert '<abbr title="多头注意力">Multi-head attention</abbr>' in out
    assert "multi-headed" in out and out.count("<abbr") == 2  # not inside code, not inside longer words


def test_glossary_leaves_link_text_alone():
    """A paper's English title in a reference list is a link, not a use of the term (zh review S1-15)."""
    src = ("[Low-Rank Bottleneck in Multi-head Attention Models](https://arxiv.org/abs/2002.07028) 说多头注意力"
           "有瓶颈。\n\n*[多头注意力]: multi-head attention\n*[multi-head attention]: 多头注意力\n")
    out = markdown.markdown(src, extensions=["abbr", _glossary_extension()])
    assert ">Low-Rank Bottleneck in Multi-head Attention Models</a>" in out
    assert out.count("<abbr") == 1 and '说<abbr title="multi-head attention">多头注意力</abbr>' in out


def test_glossary_tooltip_once_per_section():
    src = ("多头注意力 and **多头注意力** again; 多头注意力.\n\n- 多头注意力 in a list\n\n"
           "## Next { #next }\n\nNow 多头注意力 and 多头注意力.\n\n*[多头注意力]: multi-head attention\n")
    out = markdown.markdown(src, extensions=["abbr", "attr_list", _glossary_extension()])
    first, second = out.split("<h2")
    assert first.count("<abbr") == 1 and second.count("<abbr") == 1, out
    assert first.count("多头注意力") == 4 and second.count("多头注意力") == 2  # the text stays
    assert "<strong>多头注意力</strong> again; 多头注意力." in first and "<li>多头注意力 in a list</li>" in first


def _definitions(name: str) -> dict[str, str]:
    text = (ROOT / "docs/.snippets" / name).read_text(encoding="utf-8")
    return dict(re.findall(r"^\*\[(.+?)\]: (.+)$", text, flags=re.M))


def test_each_language_has_its_own_glossary():
    zh, en = _definitions("glossary.md"), _definitions("glossary-en.md")
    assert zh["多头注意力"] == "multi-head attention" and len(zh) >= 25
    # English pages: English terms, explained in English; nothing Chinese on either side
    assert en["self-attention"].startswith("attention in which the queries, keys and values")
    assert len(en) >= 25
    assert not [k + v for k, v in en.items() if re.search(r"[\u3400-\u9fff]", k + v)]


def test_glossary_hook_appends_the_pages_language():
    spec = importlib.util.spec_from_file_location("glossary_hook", ROOT / "sitebuild/hooks/glossary.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.page_language("article/1-single-head.en.md") == "en"
    assert mod.page_language("article/1-single-head.zh.md") == "zh"
    page = "Self-attention lets a token read the line.\n"
    out = markdown.markdown(mod.with_glossary(page, "en"), extensions=["abbr", _glossary_extension()])
    assert '<abbr title="attention in which the queries' in out and "自注意力" not in out
    out = markdown.markdown(mod.with_glossary("自注意力让词元读整行。\n", "zh"),
                            extensions=["abbr", _glossary_extension()])
    assert '<abbr title="self-attention">自注意力</abbr>' in out
    with pytest.raises(ValueError, match="lang must be one of"):
        mod.with_glossary(page, "fr")


# The built site ----------------------------------------------------------------------------

def test_faq_pages_have_twenty_anchored_questions_and_tooltips(built_site):
    for lang in ("", "en/"):
        html = (built_site / lang / "faq" / "index.html").read_text(encoding="utf-8")
        assert re.findall(r'<h2 id="(q\d+)"', html) == [f"q{i}" for i in range(1, 21)]
        assert "Traceback" not in html
        # every correction of the source is collapsed, titled with what is true (no "更正：" label) and
        # opens with the source's claim as a quote; the errata hook (sitebuild/hooks/errata.py) gives
        # each correction box an id="correction-…"
        boxes = re.findall(r'<details class="note correction" id="correction-[^"]+">\s*<summary>(.*?)</summary>'
                           r'\s*(?:<p class="correction-quote">[^<]+</p>\s*)?(<blockquote>)?', html, flags=re.S)
        assert len(boxes) >= 20
        assert all(quote and not re.match(r"更正|Correction", title) for title, quote in boxes), boxes
        # every box is folded, except the two-minute version at the top (an open abstract box, once)
        assert re.findall(r'class="admonition(?:\s[^"]*)?"', html) == ['class="admonition abstract"']
        assert "<details open" not in html
        # each answer opens with the site's own one-sentence conclusion
        openers = re.findall(r'<h2 id="q\d+".*?</h2>\s*(?:<div[^>]*>)?\s*<p><strong>(.*?)</strong>', html, flags=re.S)
        assert openers == ["一句话结论" if lang == "" else "In one sentence"] * 20
        assert "<abbr title=" in html
    for page in built_site.rglob("*.html"):
        if page.name == "404.html" or "notebooks" in page.parts or "search" in page.parts:
            continue
        html = page.read_text(encoding="utf-8")
        assert "<abbr title=" in html, f"no glossary tooltip on {page}"
        if page.relative_to(built_site).parts[0] == "en":  # English pages: English tooltips only
            chinese = [t for t in re.findall(r'<abbr title="([^"]*)"', html) if re.search(r"[\u3400-\u9fff]", t)]
            assert not chinese, f"Chinese tooltips on {page}: {chinese[:3]}"


# Sentences that carry the numbers of the tables -----------------------------------------

def test_flop_sentence_carries_the_table_numbers():
    rows = faq.flop_rows(d_model=64, L=16, heads=(1, 4))
    en = faq.flop_sentence("en", rows)
    assert f"At h = 1, 4, the projections cost {rows[0][1]} FLOPs" in en
    assert f"from {rows[0][4]} entries" in en and f"to {rows[1][4]}" in en and "4 times as many" in en
    assert "counted at 0 FLOPs. That zero does not mean nothing was computed" in en
    assert "h = 1、4 时" in faq.flop_sentence("zh", rows)
    with pytest.raises(ValueError, match="expected rows of flop_rows for at least 2 head counts, got 1"):
        faq.flop_sentence("en", rows[:1])


def test_similarity_and_entropy_sentences():
    rows = faq.similarity_rows("en")
    assert f"mean similarity of {rows[0][1]}" in faq.similarity_sentence("en", rows)
    assert "the similarity is 1.000" in faq.similarity_sentence("en", rows)
    ent = faq.entropy_rows("en")
    assert float(ent[3][1]) > 0.8  # even the most peaked row of the untrained layer is near uniform
    assert f"averages {ent[2][1]} over its rows" in faq.entropy_sentence("en", ent)
    assert f"所有行平均是 {ent[2][1]}" in faq.entropy_sentence("zh", faq.entropy_rows("zh"))
    with pytest.raises(ValueError, match="expected the 4 rows of entropy_rows, got 2"):
        faq.entropy_sentence("en", ent[:2])


def test_real_model_head_width_is_32():
    assert faq.real_model_width("en").endswith("head width d_k = 32.")
    assert "每个头的维数 d_k = 32" in faq.real_model_width("zh")


def test_config_rows_cite_sections_in_the_page_language():
    zh = dict((r[0], r[7]) for r in faq.config_rows("zh"))
    en = dict((r[0], r[7]) for r in faq.config_rows("en"))
    assert zh["BERT-base"].endswith("第 3 节") and en["BERT-base"].endswith("§3")
    assert zh["T5-11B"].endswith("第 3.7 节")


# Key takeaways: nn.MultiheadAttention's fast path -------------------------------------

def test_faq_links_to_the_one_list_of_fast_path_conditions():
    """The performance page prints the list (snippets.kernels.FASTPATH_CONDITIONS, which tests/test_fast.py holds
    to the installed torch's MultiheadAttention.forward); the FAQ links to it instead of printing it again."""
    for lang in ("zh", "en"):
        page = (ROOT / "docs" / f"faq.{lang}.md").read_text(encoding="utf-8")
        section = page[page.index("{ #fast-path }"):page.index("{ #references }")]
        assert "condition_rows" not in section and "(lab/performance.md#fastpath)" in section
        assert "\n- " not in section  # no hand-written list either
        perf = (ROOT / "docs" / "lab" / f"performance.{lang}.md").read_text(encoding="utf-8")
        assert f'print(condition_rows("{lang}"))' in perf[perf.index("{ #fastpath }"):]


def test_fast_path_rows_as_the_profiler_sees_them():
    rows = dict((r[0], r[1:]) for r in faq.faq_fast_path_rows("en"))
    flash = "`_scaled_dot_product_flash_attention_for_cpu`"
    explicit = "`bmm` + `softmax`"
    # the DEFAULT layer (batch_first=False) never takes the fast path: eval + no_grad + need_weights=False is flash
    assert rows["default layer (batch_first=False), eval(), need_weights=False"] == ("no", flash, "no")
    assert rows["default layer, eval(), need_weights=True (the default)"] == ("no", explicit, "yes")
    # batch_first=True self-attention in eval takes the fast path, which builds the weights on the CPU
    assert rows["batch_first=True, eval(), self-attention, need_weights=False"] == ("yes", explicit, "yes")
    assert rows["batch_first=True, eval(), cross-attention, need_weights=False"] == ("no", flash, "no")
    assert rows["batch_first=True, training mode, self-attention, need_weights=False"] == ("no", flash, "no")
    en = faq.fast_path_sentence("en")
    assert "the default layer (`batch_first=False`) does not take the fast path" in en
    assert "the same self-attention call takes the fast path" in en
    assert "默认层（`batch_first=False`）不走快速路径" in faq.fast_path_sentence("zh")
    assert faq.faq_fast_path_rows("zh")[0][1:] == ("否", flash, "否")
