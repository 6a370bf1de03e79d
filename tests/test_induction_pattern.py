"""The induction page's two-heads figure (snippets.induction.pattern): the rule that picks its sequence,
the numbers its sentence prints, and the arrows it draws; and the four-head sentence beside it."""

from __future__ import annotations

import re

import pytest
import torch

from snippets.induction import pattern
from snippets.induction.live import load_live
from snippets.induction.report import heads_sentence, load_induction
from snippets.induction.task import SEQ_LEN, make_repeat_batch
from snippets.induction.train import EVAL_SEED, head_scores
from snippets.induction.weights import load_kept


@pytest.fixture(scope="module")
def model():
    record = next(m for m in load_live()["data"]["models"] if (m["layers"], m["heads"], m["seed"]) == pattern.MODEL)
    return load_kept(record)


def test_the_rule_picks_the_first_sequence_that_satisfies_it():
    row = pattern.example_row()
    x, second = make_repeat_batch(1024, SEQ_LEN, seed=EVAL_SEED - 1)
    assert row.tokens == x[row.index].tolist()
    L = row.length
    assert L == int(second[row.index].sum()) and pattern.SHORTEST <= L <= pattern.LONGEST
    assert len(set(row.tokens[-L:])) == L and row.tokens[-L:] == row.tokens[-2 * L:-L]
    for i in range(row.index):  # every earlier sequence breaks the rule
        Li = int(second[i].sum())
        assert not (pattern.SHORTEST <= Li <= pattern.LONGEST and len(set(x[i, -Li:].tolist())) == Li)
    with pytest.raises(ValueError, match="expected a sequence with a segment of 8 to 10 distinct tokens among 3"):
        pattern.example_row(size=3)


def test_the_summary_is_the_models_attention_and_guesses(model):
    row = pattern.example_row()
    x = torch.tensor([row.tokens])
    L, T = row.length, SEQ_LEN
    with torch.no_grad():
        logits, (a0, a1) = model(x, return_attention=True)
    s = pattern.pattern_summary(row)
    prev = torch.stack([a0[0, 0, s_, s_ - 1] for s_ in range(T - 2 * L, T - L)]).mean()
    prefix = torch.stack([a1[0, 0, t, t - L + 1] for t in range(T - L, T - 1)]).mean()
    assert s["prev"] == pytest.approx(float(prev), abs=1e-6)
    assert s["prefix"] == pytest.approx(float(prefix), abs=1e-6)
    guesses = logits[0, T - L:T - 1].argmax(-1)
    assert s["right"] == int((guesses == x[0, T - L + 1:]).sum()) and s["predictable"] == L - 1
    # On one sequence the same measures as head_scores over a batch of that one sequence
    second = torch.zeros(1, T, dtype=torch.bool)
    second[0, T - L:] = True
    assert head_scores(model, x, second)["prefix"][1][0] == pytest.approx(
        float(torch.stack([a1[0, 0, t, t - L + 1] for t in range(T - L, T)]).mean()), abs=1e-6)


def test_the_sentence_prints_the_summary_and_the_batch_scores():
    s = pattern.pattern_summary()
    final = next(m for m in load_live()["data"]["models"]
                 if (m["layers"], m["heads"], m["seed"]) == pattern.MODEL)["final"]
    en, zh = pattern.pattern_sentence("en"), pattern.pattern_sentence("zh")
    for number in (f"{s['prev']:.2f}", f"{s['prefix']:.2f}", f"{final['prev'][0][0]:.2f}",
                   f"{final['prefix'][1][0]:.2f}", f"{1 - final['prev'][0][0]:.0%}"):
        assert number in en and number in zh
    assert f"guesses {s['right']} of the {s['predictable']} predictable tokens" in en
    assert f"{s['predictable']} 个可预测的词元，模型猜对了 {s['right']} 个" in zh
    assert f"sequence {s['index'] + 1} of the final held-out batch" in en


def test_the_figure_draws_one_arrow_per_weight_it_says_it_draws(model):
    row = pattern.example_row()
    L, T = row.length, SEQ_LEN
    with torch.no_grad():
        _, (a0, a1) = model(torch.tensor([row.tokens]), return_attention=True)
    start = T - 2 * L - 1
    top = range(start, T - L)
    layer0 = sum(float(a0[0, 0, s, k]) >= pattern.DRAWN for s in top for k in top if k != s)
    layer1 = sum(float(a1[0, 0, t, k]) >= pattern.DRAWN for t in range(T - L, T) for k in top)
    svg = pattern.two_heads_figure("en")
    # matplotlib draws each annotate arrow as one patch with a fill (its head): count by colour
    c0 = len(re.findall(r'<path d="[^"]*"[^>]*style="[^"]*fill: ?#1f77b4', svg))
    c1 = len(re.findall(r'<path d="[^"]*"[^>]*style="[^"]*fill: ?#ff7f0e', svg))
    assert (c0, c1) == (layer0, layer1) and layer0 >= L - 1 and layer1 >= L - 2
    s = pattern.pattern_summary(row)
    drawing = svg[svg.index("<svg"):svg.index("</svg>")]
    assert (drawing.count("✓"), drawing.count("✗")) == (s["right"], s["predictable"] - s["right"])
    assert 'aria-label="Diagram: a segment of 9 tokens' in svg


def test_the_four_head_sentence_sets_the_minimal_models_score_beside_it():
    result = load_induction()
    one = [m["final"]["prev"][0][0] for m in result["data"]["models"] if (m["layers"], m["heads"]) == (2, 1)]
    four = [max(m["final"]["prev"][0]) for m in result["data"]["models"] if (m["layers"], m["heads"]) == (2, 4)]
    en = heads_sentence("en", (2, 4))
    assert f"scores {min(four):.2f} to {max(four):.2f}" in en
    assert f"the layer-0 head of 2 layers × 1 head scores {min(one):.2f} to {max(one):.2f}" in en
    assert f"2 层 × 1 个头的模型里第 0 层那个头是 {min(one):.2f} 到 {max(one):.2f}" in heads_sentence("zh", (2, 4))


def test_uniform_attention_is_the_previous_token_baseline():
    """A head spreading its attention evenly over positions 0..t scores the mean of 1 / (t + 1) for t = 1..T-1;
    measured with the site's own scorer on such a head, and set beside the four-head model's best, which is
    no higher: the sentence saying so is only printed while that holds."""
    import torch

    from snippets.induction.report import uniform_prev_score
    from snippets.induction.task import SEQ_LEN

    T = SEQ_LEN
    attn = torch.tril(torch.ones(T, T)) / torch.arange(1, T + 1)[:, None]  # (T, T) rows sum to 1
    t = torch.arange(1, T)
    assert uniform_prev_score() == pytest.approx(float(attn[t, t - 1].mean()), abs=1e-7)
    assert round(uniform_prev_score(), 3) == 0.074
    four = [max(m["final"]["prev"][0]) for m in load_induction()["data"]["models"] if (m["layers"], m["heads"]) == (2, 4)]
    assert max(four) <= uniform_prev_score()
    assert "would score 0.074: the four-head model's best is no higher" in heads_sentence("en", (2, 4))
    assert "前一词元分是 0.074" in heads_sentence("zh", (2, 4))
    with pytest.raises(ValueError, match="seq_len must be an integer >= 2"):
        uniform_prev_score(1)
