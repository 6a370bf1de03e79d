"""Head ablation on the pretrained model (snippets/bert/ablation.py, retrieval.py), the verdicts on it
(effects.py, from snippets.stats: t intervals on the per-pair changes, Holm over the heads) and the page's sentences."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.testing import assert_close

from snippets.attention import scaled_dot_product_attention
from snippets import stats
from snippets.bert import report
from snippets.bert import ablation, retrieval
from snippets.bert.ablation import head_mask, length_baseline
from snippets.bert.logdata import LONG_LOG, PAIRS
from snippets.bert.loader import encode_text, load_model
from snippets.bert.effects import head_effects, retrieval_effects
from snippets.bert.retrieval import (CORPUS, ablation_results, angle_deg, full_embeddings, bert_layer_ablation, pair_scores,
                                     pooled_embedding)
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


@torch.no_grad()
def one_text(model, ids):
    """One text alone, no padding: the plain mean of its last hidden states, (1, E)."""
    hidden, _ = model(ids)
    return hidden[-1].mean(dim=1)


def test_pooled_embedding_ignores_padding_and_angle_deg_is_the_angle():
    hidden = torch.tensor([[[1.0, 0.0], [3.0, 2.0], [99.0, 99.0]]])  # (1, 3, 2), the last token is padding
    assert pooled_embedding(hidden, torch.tensor([[1, 1, 0]])).tolist() == [[2.0, 1.0]]
    a = torch.tensor([1.0, 2.0, 3.0])
    assert angle_deg(a, 2 * a).item() == pytest.approx(0.0, abs=0.05)  # acos near 1 in float32: ~0.03°
    assert angle_deg(a, -a).item() == pytest.approx(180.0, abs=0.05)
    assert angle_deg(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])).item() == pytest.approx(90.0)


def shown_functions(page: str, anchor: str) -> dict[str, set[str]]:
    """The functions that the includes of one section of a page define, per language: {lang: names}."""
    import ast
    import re
    from pathlib import Path

    from sitebuild.notebooks.cli import site_settings
    from sitebuild.notebooks.parse import snippet_expander

    expand = snippet_expander(**site_settings()[1])
    out = {}
    for lang in ("zh", "en"):
        text = (Path(__file__).parents[1] / "docs" / f"{page}.{lang}.md").read_text(encoding="utf-8")
        section = text.split(f"{{ #{anchor} }}", 1)[1].split("\n## ", 1)[0]
        names = set()
        for inc in re.findall(r'^\s*(--8<-- "[^"]+")$', section, flags=re.M):  # in view or in a box
            tree = ast.parse(expand(inc)[0])
            names |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        out[lang] = names
    return out


def test_the_ablation_section_shows_the_code_behind_its_angles(monkeypatch):
    """The functions the page's #ablation section shows are the ones that compute its angles: each shown
    function is called when the ablated embeddings and the angles are computed, and every function of
    snippets.bert that those computations call is shown."""
    shown = shown_functions("lab/real-model", "ablation")
    assert shown["zh"] == shown["en"] == {"head_mask", "pooled_embedding", "angle_deg"}
    assert retrieval.head_mask is ablation.head_mask  # the one the page shows from ablation.py
    called = []

    def spy(name, f):
        def wrapped(*args, **kwargs):
            called.append(name)
            return f(*args, **kwargs)
        return wrapped

    for name in shown["en"]:
        monkeypatch.setattr(retrieval, name, spy(name, getattr(retrieval, name)))
    texts = CORPUS[:2] + CORPUS[len(PAIRS):len(PAIRS) + 2]  # two pairs
    ablated = retrieval._layer.func(texts, 5, "uncached")  # the body the cache runs, with the spies in place
    full = retrieval._full.func(texts, "uncached")
    assert set(called) == {"head_mask", "pooled_embedding"}
    monkeypatch.setattr(retrieval, "ablation_embeddings", lambda t: (full, ablated.unsqueeze(0)))
    res = retrieval.ablation_results(texts)
    assert "angle_deg" in called
    assert_close(res["angles"][0], angle_deg(ablated, full))


def test_batched_embeddings_match_one_text_at_a_time():
    model = load_model()
    full = full_embeddings()
    assert tuple(full.shape) == (2 * len(PAIRS), 384)
    for i in (0, len(CORPUS) - 1):  # padding changes nothing
        assert_close(full[i], one_text(model, encode_text(CORPUS[i]).ids)[0], atol=1e-5, rtol=1e-5)


def test_layer_ablation_matches_a_direct_ablation():
    model = load_model()
    ablated = bert_layer_ablation(5)
    assert tuple(ablated.shape) == (12, len(CORPUS), 384)
    ids = encode_text(CORPUS[3]).ids
    with head_mask(model.layers[5].attn, 7):
        direct = one_text(model, ids)[0]
    assert_close(ablated[7, 3], direct, atol=1e-5, rtol=1e-5)
    assert_close(one_text(model, ids)[0], full_embeddings()[3], atol=1e-5, rtol=1e-5)  # hook removed
    with pytest.raises(ValueError, match=r"layer must be in 0 … 5, got 6"):
        bert_layer_ablation(6)


def test_pair_scores():
    e = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1], [0.1, 1.0]])  # 0 ~ 2, 1 ~ 3
    assert pair_scores(e).tolist() == [1.0, 1.0]
    swapped = e[[0, 1, 3, 2]]  # partners crossed: every lookup misses
    assert pair_scores(swapped).tolist() == [0.0, 0.0]
    assert angle_deg(torch.tensor([1.0, 0.0]), torch.tensor([-1.0, 0.0])).item() == pytest.approx(180.0)
    with pytest.raises(ValueError, match=r"expected \(2P, E\) embeddings"):
        pair_scores(torch.zeros(3, 2))


def fake_ablation(changes: list[list[float]]) -> dict:
    """ablation_results' scores for one layer of len(changes) heads: every pair scores 0.5 with the full model,
    and 0.5 + changes[head][pair] with that head removed."""
    P = len(changes[0])
    return {"scores": torch.full((P,), 0.5, dtype=torch.float64),
            "ablated_scores": 0.5 + torch.tensor([changes], dtype=torch.float64), "pairs": P}


def test_head_effects_are_t_intervals_holm_corrected_over_the_heads():
    """A known input: three heads that each clearly lower retrieval. Holm tests the smallest p at 0.05/3, the
    next at 0.05/2, the last at 0.05, and prints each interval at that level."""
    changes = [[-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, 0.0],   # mean -0.4375, p = 0.0002 < 0.05/3
               [-0.5, -0.5, -0.5, -0.5, -0.5, 0.0, 0.0, 0.0],     # mean -0.3125, p = 0.011 < 0.05/2
               [-0.5, -0.5, -0.5, -0.5, 0.0, 0.0, 0.0, 0.0]]      # mean -0.25, p = 0.033 < 0.05
    eff = head_effects(fake_ablation(changes))
    assert eff["verdict"] == [["lower", "lower", "lower"]] and eff["family"] == 3
    assert [round(x, 4) for x in eff["level"][0].tolist()] == [0.9833, 0.975, 0.95]
    assert eff["p"][0, 0] < eff["p"][0, 1] < eff["p"][0, 2] < 0.05
    # the last head's interval, at 95%: mean -0.25, sd of four -0.5 and four 0 = 0.2673, t(0.975, 7) = 2.3646
    half = stats.t_quantile(0.975, 7) * float(np.std([-0.5] * 4 + [0.0] * 4, ddof=1)) / np.sqrt(8)
    assert (eff["delta"][0, 2].item(), eff["lo"][0, 2].item(), eff["hi"][0, 2].item()) == pytest.approx(
        (-0.25, -0.25 - half, -0.25 + half))
    assert (eff["lo"][0, 2].item(), eff["hi"][0, 2].item()) == pytest.approx((-0.4735, -0.0265), abs=1e-4)
    # judged on its own at 95%, the first head's interval is narrower than its Holm interval at 98.33%
    assert eff["lo"][0, 0] < eff["lo_95"][0, 0] and eff["hi_95"][0, 0] < eff["hi"][0, 0]
    # no change at all: an interval of [0, 0] that covers 0, and no verdict of a change
    quiet = head_effects(fake_ablation([[0.0] * 8, changes[0]]))
    assert quiet["verdict"] == [["none", "lower"]] and quiet["lo"][0, 0] == quiet["hi"][0, 0] == 0.0
    assert [round(x, 4) for x in quiet["level"][0].tolist()] == [0.95, 0.975]
    # p = 0.033 passes at 0.05 alone but not at Holm's first step of two, 0.05/2: then neither is a change
    both = head_effects(fake_ablation([[0.0] * 8, changes[2]]))
    assert both["verdict"] == [["none", "none"]] and both["verdict_95"] == [["none", "lower"]]
    assert [round(x, 4) for x in both["level"][0].tolist()] == [0.975, 0.975]


def test_ablation_results_on_the_page_pairs():
    res = ablation_results()
    assert len(PAIRS) >= 30 and res["pairs"] == len(PAIRS)
    assert tuple(res["angles"].shape) == (6, 12, 2 * len(PAIRS))
    assert tuple(res["ablated_scores"].shape) == (6, 12, len(PAIRS)) and res["scores"].mean() == res["accuracy"]
    eff = retrieval_effects()
    assert bool((eff["lo"] <= eff["delta"]).all()) and bool((eff["delta"] <= eff["hi"]).all())
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


def test_retrieval_verdicts_are_holm_corrected_over_every_head():
    eff = retrieval_effects()
    assert eff["family"] == 72 and eff["pairs"] == 34
    # what the page says today: no step of Holm's procedure rejects, so every interval is at 1 - 0.05/72
    assert {v for row in eff["verdict"] for v in row} == {"none"}
    assert bool((eff["level"] == 1 - 0.05 / 72).all())
    # the head with the smallest p: 5-7, -10.3 points; on its own at 95% its interval would exclude 0
    assert int(eff["p"].argmin()) == 5 * 12 + 7 and eff["p"][5, 7].item() == pytest.approx(0.0172, abs=1e-4)
    alone = [f"{i}-{j}" for i in range(6) for j in range(12) if eff["verdict_95"][i][j] != "none"]
    assert alone == ["5-7"]  # the old bootstrap at 95% had 5-4 and 5-7
    en = report.retrieval_verdicts("en")
    assert en == (
        "All 72 heads are tested together, so their intervals are Holm-corrected over the 72 (the level of each is "
        "in the table of all heads below). Every interval covers 0: on these 34 pairs, removing any one head makes "
        "no measurable difference to retrieval. Not even the head with the smallest p-value, 5-7 (other, -10.3 "
        "[-25.7, +5.1] points, p = 0.017), passes Holm's first step, which needs p below 0.05/72, so every interval "
        "is printed at that step's level, 99.93%. How large an effect could 34 pairs show? A head whose removal "
        "cost 11 of them their whole score and changed no other pair, a drop of 32 points, is the smallest such "
        "loss that would pass Holm's first step; a smaller loss, or one where losses on some pairs are partly "
        "offset by gains on others, can hide in these intervals, "
        "so “no measurable difference” here does not mean no effect. Judged one head at a time at 95%, without "
        "the correction, 1 of "
        "the 72 intervals would exclude 0: 5-7 (other, -10.3 [-18.6, -1.9]); even if no head mattered, chance alone "
        "would give about 3.6 of 72 (5%).")
    zh = report.retrieval_verdicts("zh")
    assert "所有区间都包含 0" in zh and "99.93%" in zh and "72 个区间里会有 1 个不含 0：5-7（其他，−10.3 [−18.6, −1.9]）；而即使" in zh
    assert report.retrieval_takeaway("en") == (
        "On log retrieval, with all 72 heads tested together (Holm), removing any single head makes no measurable "
        "difference to accuracy on these 34 pairs. Judged one head at a time at 95%, 1 would seem to matter, where "
        "chance alone would give about 3.6.")
    assert report.retrieval_takeaway("zh") == (
        "在日志检索上，72 个头一起检验、做 Holm 校正之后，在这 34 对文本上，单独去掉哪个头都测不出对准确率的影响。"
        "如果每个头各按 95% 单独判断，会有 1 个看似有影响，而单凭偶然预计就有约 3.6 个。")
    assert "| 5-7 | other | 12.9° | 9.1°–17.9° | -10.3 [-25.7, +5.1] | no measurable change (99.93%) |" in \
        report.head_table("en")
    # medians of an even count are the mean of the two middle values (torch.median took the lower one, so this
    # row said 15.5° for 5-10 while the head table's percentiles said 15.6°)
    assert "| 5 | 7.4° | 11.9° | 15.6°（5-10） | 5-7：−10.3 [−25.7, +5.1] | 0 |" in report.layer_table("zh")
    assert "| 5-10 | other | 15.6° | 12.0°–19.8° |" in report.head_table("en")
    assert "5-10: a median of 15.6° over the 68 texts" in report.ablation_scale("en")


def test_smallest_detectable_loss_is_what_holm_first_step_can_call():
    """#35 item 27: how large an effect the 34 pairs could show, from the same t interval and Holm level."""
    from snippets import stats

    k = report.smallest_detectable(34, 72)
    level = 1 - 0.05 / 72
    drop = lambda j: stats.compare_paired([0.0] * 34, [-1.0] * j + [0.0] * (34 - j), level).verdict  # noqa: E731
    assert k == 11 and drop(k) == "lower" and drop(k - 1) == "none"
    assert report.smallest_detectable(34, 1) < k  # one test alone asks less
    assert "11 对完全失分" in report.retrieval_verdicts("zh") and "下降 32 个百分点" in report.retrieval_verdicts("zh")


def test_broad_heads_removal_turns_the_embedding_like_the_others():
    """#35 item 26: near-uniform (broad) heads are not shown to be empty: removing one turns the embedding by an
    angle of the same order as removing another head."""
    en = report.broad_removal("en")
    assert en == ("Removing one of the 10 broad heads turns the sentence embedding by a median 2.6° (each head's "
                  "median angle over the texts, then the median over those heads); removing one of the other 62 "
                  "heads, by 3.1°.")
    assert "去掉 10 个宽泛头中的一个" in report.broad_removal("zh")


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


def test_quick_ablation_reports_the_angles_of_two_texts_with_and_without_a_head():
    full = torch.tensor([[1.0, 0.0], [1.0, 1.0]])  # 45° apart
    off = torch.tensor([[1.0, 0.0], [0.0, 1.0]])  # the second turned by 45°, now 90° from the first
    en = report.quick_ablation(full, off, 5, 0, "en")
    assert en == ("The angle between the two texts' sentence vectors: 45.0° with every head on, 90.0° with head 0 "
                  "of layer 5 off. Removing that head turned the first text's vector by 0.00° and the second's by "
                  "45.00°.")
    assert "所有头都开着时 45.0°，去掉第 5 层第 0 个头后 90.0°" in report.quick_ablation(full, off, 5, 0, "zh")
    with pytest.raises(ValueError, match=r"\(2, E\)"):
        report.quick_ablation(full[:1], off[:1], 5, 0, "en")


def test_removing_a_head_turns_the_page_examples_sentence_vectors():
    from snippets.bert.loader import load_model
    from snippets.bert.retrieval import encode_batch, pooled_embedding

    ids, mask = encode_batch(["disk /var is full", "no space left on the /var partition"])
    model = load_model()
    with torch.no_grad():
        full = pooled_embedding(model(ids, mask)[0][-1], mask)
        with head_mask(model.layers[5].attn, 0):
            off = pooled_embedding(model(ids, mask)[0][-1], mask)
        again = pooled_embedding(model(ids, mask)[0][-1], mask)
    turned = retrieval.angle_deg(full, off)
    assert turned.shape == (2,) and bool((turned > 1.0).all())  # the head matters to both
    assert_close(again, full)  # the mask is gone after the block


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_two_minute_bullets_print_the_numbers_the_page_prints_further_down(lang):
    """Every number of the two-minute version's bullets is one the page's detail sentences and tables print."""
    import re

    box = report.two_minute_bullets(lang)
    body = "".join([report.finding(lang), report.ablation_scale(lang), report.broad_removal(lang),
                    report.retrieval_takeaway(lang), report.category_table(lang)])
    numbers = re.findall(r"\d+(?:\.\d+)?[%°]?", box)
    assert len(box.splitlines()) == 3 and len(numbers) >= 15
    assert all(n in body for n in numbers), [n for n in numbers if n not in body]
    layer, head = re.search(r"(\d+)-(\d+): ", report.ablation_scale("en")).groups()
    assert (f"layer {layer}, head {head}" if lang == "en" else f"第 {layer} 层第 {head} 个头") in box


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_grid_legend_names_every_mark_in_the_grid(lang):
    grid = report.category_grid(lang, legend=True)
    table, legend = grid.rsplit("</div>", 1)
    assert table + "</div>" == report.category_grid(lang)
    marks = {cell.strip() for line in table.splitlines()[4:] if line.startswith("|") for cell in line.split("|")[2:-1]}
    assert marks and all(f"{m} " in legend for m in marks)
