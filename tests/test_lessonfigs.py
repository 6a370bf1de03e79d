from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest
import torch

from snippets import homefig as H
from snippets import lessonfigs as L
from snippets.heads import concat_vs_sum, one_head_vs_two, parameter_table
from snippets.i18n import text
from snippets.logline import embed_tokens, log_tokens
from snippets.multihead import MultiHeadAttention, merge_heads, split_heads

FIGURES = ["budget_figure", "swap_figure", "ceiling_figure", "datapath_figure", "concat_figure", "params_figure"]
CJK = re.compile(r"[\u3400-\u9fff]")


def alt_of(fig: str) -> str:
    return html.unescape(re.search(r'aria-label="([^"]*)"', fig).group(1))


@pytest.mark.parametrize("name", FIGURES)
def test_figure_is_deterministic_with_alt_text_in_both_languages(name):
    draw = getattr(L, name)
    zh, en = draw("zh"), draw("en")
    assert zh == draw("zh")  # byte-identical
    assert zh.startswith('<figure class="mha-fig') and "<svg role=\"img\"" in zh
    assert "currentColor" in zh and "#010203" not in zh
    assert CJK.search(alt_of(zh)) and not CJK.search(alt_of(en))
    assert "<figcaption>" in zh and "<figcaption>" in en
    sizes = [float(s) for s in re.findall(r"font-size: ?([\d.]+)px", zh + en)]
    assert min(sizes) >= 10  # labels of at least MIN_FONT_PT


def test_home_figure_draws_three_real_heads():
    heads, tokens = H.home_heads()
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
    assert [cat for _, _, cat, _ in heads] == ["prev", "next", "far"]
    assert len({(layer, head) for layer, head, _, _ in heads}) == 3
    prev_arcs = heads[0][3]
    assert sum(j == i - 1 for i, j, _ in prev_arcs) > 0.8 * len(prev_arcs)  # the previous-token head looks back
    assert all(w >= 0.2 for _, _, _, arcs in heads for _, _, w in arcs)
    fig = H.home_figure("en")
    assert fig == H.home_figure("en")
    assert CJK.search(alt_of(H.home_figure("zh"))) and not CJK.search(alt_of(fig))


def test_budget_weights_are_the_demos():
    tokens = log_tokens()
    for s in (0.5, 3.0, 100.0):
        w1, w2 = L.attention_budget(tokens, L.DEMO_WANTED, s)
        a1, b1, *_ = one_head_vs_two(tokens, L.DEMO_WANTED, sharpness=s)[1]
        a2, b2, *_ = one_head_vs_two(tokens, L.DEMO_WANTED, sharpness=s)[2]
        a, b = (tokens.index(t) for t in L.DEMO_WANTED)
        assert w1.sum() == pytest.approx(1) and w2.sum(-1) == pytest.approx([1, 1])
        assert (w1[a], w1[b], w2[0, a], w2[1, b]) == pytest.approx((a1, b1, a2, b2), abs=1e-6)
    w1, _ = L.attention_budget(tokens, L.DEMO_WANTED, 1e4)
    assert w1[a] <= 0.5 and w1[b] <= 0.5  # the ceiling (reached in float64 rounding)


def test_recorded_shapes_are_the_layers_real_shapes():
    torch.manual_seed(0)
    layer = MultiHeadAttention(64, 4)
    x = torch.randn(2, 5, 64)
    with L.record_shapes(layer) as log:
        out, w = layer(x, x, x, average_attn_weights=False)
    steps = [s for s, _ in log]
    assert steps == ["x", "W_q", "split", "W_k", "split", "W_v", "split", "scores", "weights", "context", "merge",
                     "W_o"]
    shapes = dict(log)
    assert shapes["W_q"] == shapes["W_k"] == shapes["W_v"] == (2, 5, 64)
    q = split_heads(layer.W_q(x), 4)
    context = w @ split_heads(layer.W_v(x), 4)
    assert shapes["x"] == tuple(x.shape)
    assert shapes["split"] == tuple(q.shape) == (2, 4, 5, 16)
    assert shapes["scores"] == shapes["weights"] == tuple(w.shape) == (2, 4, 5, 5)
    assert shapes["context"] == tuple(context.shape)
    assert shapes["merge"] == tuple(merge_heads(context).shape)
    assert shapes["W_o"] == tuple(out.shape)
    # the layer is left as it was: no hooks, the module's own functions
    import snippets.multihead as mh
    assert mh.split_heads is split_heads and mh.merge_heads is merge_heads
    assert not layer.W_q._forward_hooks
    out2, _ = layer(x, x, x)
    assert out2.shape == out.shape


def test_datapath_figure_prints_the_recorded_shapes():
    shapes, _ = L.datapath_shapes(512, 8)
    fig = L.datapath_figure("en")
    T = len(log_tokens())
    assert shapes["split"] == [(1, 8, T, 64)] * 3
    for shape in [(1, T, 512), (1, 8, T, 64), (1, 8, T, T)]:
        assert "= (" + ", ".join(map(str, shape)) + ")" in fig


def test_concat_identity_is_checked():
    parts, bias, out, err = L.head_contributions(512, 8)
    assert parts.shape == (8, 512)
    np.testing.assert_allclose(parts.sum(0) + bias, out, atol=1e-5)
    assert err < 1e-5
    assert err == concat_vs_sum(512, 8)  # the figure and the sentence beside it print one number
    fig = L.concat_figure("en")
    assert f"= {err:.1e}" in fig and f"the same to within {err:.1e}" in fig
    assert "identical" not in fig


def test_params_figure_draws_parameter_table():
    fig = L.params_figure("en")
    for h, d_k, params, _ in parameter_table(512, (1, 2, 4, 8, 16)):
        assert f">{params:,}<" in fig or f"{params:,}" in alt_of(fig)
        assert f">{d_k}<" in fig


def test_swap_figure_numbers_are_the_demos():
    result = one_head_vs_two(log_tokens(), L.DEMO_WANTED)
    fig = L.swap_figure("en")
    for _, _, out, swapped in result.values():
        for x in torch.cat([out, swapped]).tolist():
            assert f">{x:.2f}<" in fig


def test_widget_carries_the_demos_values_and_words():
    div = L.budget_widget("zh")
    cfg = json.loads(html.unescape(re.search(r'data-config="([^"]*)"', div).group(1)))
    assert cfg["tokens"] == log_tokens() and cfg["wanted"] == list(L.DEMO_WANTED) and cfg["sharpness"] == 100.0
    assert torch.tensor(cfg["values"]).equal(embed_tokens(log_tokens(), 4)[0])
    assert cfg["ui"]["one"] == text("zh", "figs.widget.one")
    assert text("zh", "figs.widget.nojs") in html.unescape(div)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: L.budget_figure("fr"), r"lang must be one of"),
        (lambda: L.budget_figure("en", wanted=("ERROR", "ERROR")), r"wanted must be two different tokens"),
        (lambda: L.budget_figure("en", wanted=("ERROR", "nope")), r"'nope' is not one of the tokens"),
        (lambda: L.attention_budget(log_tokens(), L.DEMO_WANTED, -1.0), r"sharpness must be a finite number >= 0"),
        (lambda: L.ceiling_figure("en", lo=10, hi=1), r"expected 0 < lo < hi, got lo=10, hi=1"),
        (lambda: L.datapath_figure("en", d_model=10, num_heads=3), r"divisible"),
        (lambda: L.concat_figure("en", features=0), r"features must be a positive integer"),
        (lambda: L.record_shapes(torch.nn.Linear(2, 2)).__enter__(), r"layer must be a snippets.multihead"),
        (lambda: H.home_heads(threshold=1.5), r"threshold must be between 0 and 1, got 1.5"),
        (lambda: L.budget_widget("en", width=3), r"divisible"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_pair_across_heads_comes_from_the_data_path_figures_weights():
    _, w = L.datapath_shapes(512, 8)
    q, k, hi, w_hi, lo, w_lo, T = L.pair_across_heads()
    i, j = L.log_tokens().index(q), L.log_tokens().index(k)
    assert w_hi == float(w[:, i, j].max()) == float(w[hi, i, j]) and w_lo == float(w[:, i, j].min())
    spread = w.max(0).values - w.min(0).values
    assert w_hi - w_lo == pytest.approx(float(spread.max()))
    assert w_hi > 1 / T > w_lo  # close for one head, far for another, against an even spread
    en = L.pair_across_heads_sentence("en")
    assert f"a weight of {w_hi:.2f} in head {hi} and only {w_lo:.2f} in head {lo}" in en
    assert f"在头 {hi} 里是 {w_hi:.2f}，在头 {lo} 里只有 {w_lo:.2f}" in L.pair_across_heads_sentence("zh")
    # it is the most extreme pair of the layer, and the sentence says so: a reader must not take it as typical
    assert "the pair that differs most between heads" in en
    assert "各头之间权重相差最大的一对" in L.pair_across_heads_sentence("zh")
