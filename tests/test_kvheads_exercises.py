"""The key/value-heads page's exercises: each solution has the property its exercise asks about."""

from __future__ import annotations

import re

import pytest
import torch
from conftest import ROOT, check_exercises

from snippets.exercises import kvheads as ex
from snippets.kvheads.attention import GroupedQueryAttention, formula_bytes_per_token

PAGES = [ROOT / "docs" / "lab" / f"kv-heads.{lang}.md" for lang in ("zh", "en")]


@pytest.mark.parametrize(("h", "g"), [(8, 8), (8, 4), (8, 2), (8, 1), (6, 3)])
def test_gqa_is_mha_with_copied_weights(h, g):
    assert ex.mha_difference(h, g) < 1e-10


@pytest.mark.parametrize("g", [32, 8, 4, 1])
def test_max_context_is_the_longest_that_fits(g):
    budget = 16
    n = ex.max_context(budget, g)
    per_token = formula_bytes_per_token(g, 128, torch.bfloat16) * 32
    assert n * per_token <= budget * 2**30 < (n + 1) * per_token
    assert ex.context_rows(budget, (g,)) == [[g, f"{n:,}"]]


def test_max_context_grows_as_g_shrinks():
    assert ex.max_context(16, 1) == 32 * ex.max_context(16, 32)
    assert ex.max_context(16, 8) == 4 * ex.max_context(16, 32)


@pytest.mark.parametrize("g", [1, 2, 8])
def test_query_heads_keep_their_own_distributions_when_keys_are_shared(g):
    r = ex.closest_heads(8, g)
    assert r["pairs"] == 28 and r["q_heads"] == 8 and r["closest"] > 0.05  # no two query heads attend alike


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_shared_query_against_h_key_heads_still_gives_h_distributions(seed):
    """The control: if the queries alone set the distributions, one W_q would give h identical ones. It does not."""
    r = ex.closest_heads(8, shared_query=True, seed=seed)
    assert (r["q_heads"], r["g"], r["pairs"]) == (1, 8, 28) and r["closest"] > 0.05
    assert r["closest"] > 0.5 * ex.closest_heads(8, 1, seed=seed)["closest"]  # about as far apart as in MQA


def test_shared_query_weights_are_softmaxes_of_one_query_against_each_key_head():
    torch.manual_seed(0)
    x = torch.randn(2, 6, 32)
    w = ex.shared_query_weights(4, x, d_k=8)
    assert w.shape == (2, 4, 6, 6) and torch.allclose(w.sum(-1), torch.ones(2, 4, 6))
    assert bool((w.triu(1) == 0).all())
    torch.manual_seed(0)
    one = ex.shared_query_weights(1, x, d_k=8)  # one query and one key head: nothing to differ
    assert one.shape == (2, 1, 6, 6)
    same = one.expand(2, 3, 6, 6)[0]
    assert ex.closest_pair(same) == (0.0, 0, 1)


def test_head_weights_are_the_layers_weights():
    torch.manual_seed(0)
    layer = GroupedQueryAttention(32, 4, 2, dtype=torch.float64)
    x = torch.randn(2, 6, 32, dtype=torch.float64)
    w = ex.head_weights(layer, x)
    assert torch.allclose(w.sum(-1), torch.ones(2, 4, 6, dtype=torch.float64))
    assert bool((w.triu(1) == 0).all())
    v = layer.W_v(x).view(2, 6, 2, 8).transpose(1, 2).repeat_interleave(2, dim=1)
    out = layer.W_o((w @ v).transpose(1, 2).reshape(2, 6, 32))
    assert torch.allclose(out, layer(x), atol=1e-12)


def test_argument_errors():
    with pytest.raises(ValueError, match="budget_gib must be positive, got 0"):
        ex.context_rows(0)
    with pytest.raises(ValueError, match="num_kv_heads must divide num_heads"):
        ex.max_context(16, 3)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_has_three_exercises_with_hints_and_closed_solutions(page):
    after = check_exercises(page, "kvheads")
    assert after == ""  # the last section of the page


def test_page_helpers_print_what_the_functions_compute():
    from snippets.exercises.kvheads import closest_heads, closest_heads_lines, mha_difference, mha_difference_lines
    from snippets.kvheads.report import decode_demo, show_sequence

    lines = decode_demo().splitlines()
    assert [line.split(":")[0] for line in lines] == ["g=8", "g=4", "g=2", "g=1"]
    for line, g in zip(lines, (8, 4, 2, 1)):  # bytes per token from the tensors = the formula, 2·g·d_k·4
        assert f"cache.k (1, {g}, 10, 8), {2 * g * 8 * 4} B/token, 2*g*d_k*4 = {2 * g * 8 * 4}" in line
    tokens, targets = show_sequence(num_pairs=4, seed=0).splitlines()
    assert len(tokens.split()) == len(targets.split()) == 12 and targets.split()[:8] == ["·"] * 8
    assert mha_difference_lines(8, (2,)) == f"h=8, g=2: max |GQA - MHA| = {mha_difference(8, 2):.1e}"
    r = closest_heads(num_heads=8, num_kv_heads=1)
    c = closest_heads(num_heads=8, shared_query=True)
    zh = closest_heads_lines("zh", 8, (1,)).splitlines()
    assert zh == [f"8 个查询头、1 个键头：最接近的一对是头 {r['a']} 和头 {r['b']}，权重最大相差 {r['closest']:.3f}",
                  f"1 个查询头、8 个键头：最接近的一对是头 {c['a']} 和头 {c['b']}，权重最大相差 {c['closest']:.3f}"]
    en = closest_heads_lines("en", 8, (1,), control=False)
    assert en == f"query heads 8, key heads 1: closest pair = heads {r['a']} and {r['b']}, max weight difference " \
                 f"{r['closest']:.3f}"
