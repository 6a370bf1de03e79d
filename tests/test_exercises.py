"""The exercises' solutions (snippets/exercises/): each test checks the property its exercise asks about.

Also: every article section ends with 3-5 exercises, each with a hint and a closed solution whose
code comes from snippets/exercises/, and the chapter notebooks keep solutions collapsed.
"""

from __future__ import annotations

import math
import re

import pytest
import torch
from conftest import ROOT, random_masks
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn
from torch.testing import assert_close

from sitebuild import notebooks as nbs
from snippets.i18n import text
from snippets.exercises import s1, s2, s3, s4, s4b
from snippets.logline import log_tokens
from snippets.multihead import MultiHeadAttention, load_from_torch, merge_heads

ARTICLE = sorted((ROOT / "docs" / "article").glob("*.md"))

# --- §1 ---------------------------------------------------------------------------------------


def test_s1_sharpness_one_head_never_beats_its_budget():
    rows = s1.budget_by_sharpness([1, 10, 100])
    T = len(log_tokens())
    for s, a1, b1, a2, b2 in rows:
        assert a1 == pytest.approx(b1) and a1 + b1 <= 1 + 1e-6  # one budget, split evenly
        assert a2 > a1  # each of two heads fetches more than the shared head
        z = s / math.sqrt(T)
        assert a1 == pytest.approx(math.exp(z) / (2 * math.exp(z) + T - 2), rel=1e-5)
    # sharpness 1: near uniform (1/8) in both setups
    assert abs(rows[0][1] - 1 / T) < 0.05 and abs(rows[0][3] - 1 / T) < 0.05
    assert rows[-1][3] > 0.999 and rows[-1][1] == pytest.approx(0.5, abs=1e-6)


def test_s1_m_targets_share_one_budget_and_m_heads_fetch_each():
    tokens = log_tokens()
    for wanted in (["[order-api]", "3", "5000ms"], ["ERROR", "3", "2024-01-15", "10:30:45"]):
        one, many = s1.one_head_many_targets(tokens, wanted)
        assert_close(one, torch.full((len(wanted),), 1 / len(wanted)), atol=1e-4, rtol=0)
        assert bool((many > 0.999).all())


def test_s1_ceiling_is_one_half_and_bisection_matches_the_formula():
    found, by_hand, w = s1.sharpness_for(0.49)
    assert found == pytest.approx(by_hand, abs=1e-3)
    assert s1.one_head_vs_two(log_tokens(), s1.WANTED, sharpness=found)[1][0] >= 0.49
    assert s1.one_head_vs_two(log_tokens(), s1.WANTED, sharpness=found - 0.01)[1][0] < 0.49
    assert w == pytest.approx(0.5, abs=1e-6) and w <= 0.5


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: s1.budget_by_sharpness([]), r"sharpness values must be a non-empty list of numbers >= 0, got \[\]"),
        (lambda: s1.one_head_many_targets(log_tokens(), ["nope"]), r"wanted must be distinct tokens from"),
        (lambda: s1.sharpness_for(0.5), r"target must be a float in \(0, 0.5\), got 0.5"),
    ],
)
def test_s1_argument_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- §2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("E", "h"), [(512, 8), (512, 16), (64, 4)])
def test_s2_head_shapes(E, h):
    shapes = s2.head_shapes(E, h, head=3)
    assert shapes["W_q.weight"] == (E, E)
    assert shapes["W_q.weight[rows of head 3]"] == (E // h, E)
    assert shapes["split_heads(W_q(x))"] == (2, h, 10, E // h)
    assert shapes["queries of head 3"] == (2, 10, E // h)


def test_s2_parameter_count_is_four_e_squared_whatever_the_heads():
    rows = s2.mha_param_rows([(768, 12, True), (768, 1, True), (768, 12, False), (512, 8, True)])
    assert all(counted == formula for *_, counted, formula in rows)
    assert rows[0][3] == rows[1][3] == 4 * 768**2 + 4 * 768 and rows[2][3] == 4 * 768**2


def test_s2_sliced_input_head_is_blind_to_other_features():
    moved, params = s2.split_input_vs_projection(512, 8)
    assert moved["sliced"] == 0.0 and moved["real"] > 0.1
    E, h = 512, 8
    assert params["real"] - E == h * (params["sliced"] - E)  # weights: E·E against h·d_k·d_k


def test_s2_argument_errors():
    with pytest.raises(ValueError, match=r"head must be an integer in \[0, 8\), got 8"):
        s2.head_shapes(512, 8, head=8)
    with pytest.raises(ValueError, match=r"configs must be a non-empty list of \(d_model, num_heads, bias\)"):
        s2.mha_param_rows([(512, 8)])


# --- §3 ---------------------------------------------------------------------------------------


def test_s3_official_shapes():
    assert s3.official_shapes(N=2, L=10, d_model=64, num_heads=4) == {
        "x": (2, 10, 64), "out": (2, 10, 64), "w_avg": (2, 10, 10), "w_heads": (2, 4, 10, 10), "w_avg[0, 0]": (10,),
    }


def test_s3_view_without_contiguous_raises_pytorchs_error_except_for_length_one():
    message = s3.try_merge(T=10)
    assert message.startswith("RuntimeError: view size is not compatible with input tensor's size and stride")
    assert "Use .reshape(...) instead." in message
    assert s3.try_merge(T=1) == "ok"
    x = torch.randn(2, 8, 10, 64)
    assert torch.equal(x.transpose(1, 2).reshape(2, 10, 512), merge_heads(x))  # what the message suggests


def unbatched_pair(E: int, h: int, batch_first: bool, bias: bool, seed: int):
    torch.manual_seed(seed)
    official = nn.MultiheadAttention(E, h, bias=bias, batch_first=batch_first).double().eval()
    mine = s3.UnbatchedMultiHeadAttention(E, h, bias=bias, batch_first=batch_first).double().eval()
    return load_from_torch(mine, official), official


@settings(max_examples=60, deadline=None)
@given(
    L=st.integers(1, 7), S=st.integers(1, 7), h=st.sampled_from([1, 2, 4]), d_k=st.integers(1, 6),
    batch_first=st.booleans(), bias=st.booleans(), cross=st.booleans(),
    attn=st.sampled_from(["none", "bool2d", "float2d", "bool3d", "float3d"]),
    pad=st.sampled_from(["none", "bool", "float"]), average=st.booleans(), need_weights=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_s3_unbatched_matches_nn_multihead_attention(L, S, h, d_k, batch_first, bias, cross, attn, pad, average,
                                                     need_weights, seed):
    E = h * d_k
    S = S if cross else L
    mine, official = unbatched_pair(E, h, batch_first, bias, seed)
    g = torch.Generator().manual_seed(seed)
    query = torch.randn(L, E, generator=g, dtype=torch.float64)
    key = torch.randn(S, E, generator=g, dtype=torch.float64) if cross else query
    value = torch.randn(S, E, generator=g, dtype=torch.float64) if cross else query
    shape = (L, S) if attn.endswith("2d") else (h, L, S)
    if pad == "float" and attn.startswith("bool"):
        pad = "bool"  # PyTorch rejects mixed mask types
    kwargs = {"average_attn_weights": average, "need_weights": need_weights}
    kwargs |= random_masks(g, attn, pad, shape, (S,))
    if attn.startswith("float") and pad == "bool":
        kwargs["attn_mask"] = kwargs["attn_mask"] > 0.5
        kwargs["attn_mask"][..., 0] = False
    out_m, w_m = mine(query, key, value, **kwargs)
    out_o, w_o = official(query, key, value, **kwargs)
    assert out_m.shape == (L, E)
    assert_close(out_m, out_o, atol=1e-6, rtol=0)
    if not need_weights:
        assert w_m is None and w_o is None
    else:
        assert w_m.shape == ((L, S) if average else (h, L, S))
        assert_close(w_m, w_o, atol=1e-6, rtol=0)


def test_s3_batched_input_is_the_parent_class_unchanged():
    torch.manual_seed(0)
    parent = MultiHeadAttention(16, 4).eval()
    child = s3.UnbatchedMultiHeadAttention(16, 4).eval()
    child.load_state_dict(parent.state_dict())
    x = torch.randn(2, 5, 16)
    for a, b in zip(child(x, x, x, average_attn_weights=False), parent(x, x, x, average_attn_weights=False),
                    strict=True):
        assert torch.equal(a, b)


def test_s3_unbatched_report_and_errors():
    rows = s3.unbatched_report()
    assert [r[1] for r in rows] == [(5, 16), (4, 5, 7)] and all(r[1] == r[2] and r[3] <= 1e-6 for r in rows)
    m = s3.UnbatchedMultiHeadAttention(16, 4)
    with pytest.raises(ValueError, match=r"all be batched \(3-D\) or all unbatched \(2-D\), got shapes \(5, 16\), "
                                         r"\(1, 5, 16\)"):
        m(torch.randn(5, 16), torch.randn(1, 5, 16), torch.randn(1, 5, 16))
    with pytest.raises(ValueError, match=r"query must be 2-D or 3-D, got shape \(16,\)"):
        m(torch.randn(16), torch.randn(16), torch.randn(16))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: s3.merge_heads_no_contiguous(torch.randn(2, 3, 4)), r"x must be 4-D, got shape \(2, 3, 4\)"),
        (lambda: s3.try_merge(T=0), r"T must be a positive integer, got 0"),
        (lambda: s3.unbatched_report(d_model=10, num_heads=4), r"d_model must be divisible by num_heads"),
        (lambda: s3.wrong_convention_weights(L=0), r"L must be a positive integer, got 0"),
    ],
)
def test_s3_argument_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_s3_wrong_mask_in_training_is_nan_with_weights_and_silent_without():
    found = s3.wrong_convention_training(L=5)
    loss_t, nan_t, bias_t = found[True]
    loss_f, nan_f, bias_f = found[False]
    assert math.isnan(loss_t) and nan_t > 0 and not bias_t
    assert math.isfinite(loss_f) and nan_f == 0 and bias_f
    en = s3.wrong_convention_sentence("en", L=5)
    assert "the last row (query 4)" in en and f"the loss is NaN and {nan_t} gradient entries are NaN" in en
    assert f"the loss is {loss_f:.3f} and no gradient entry is NaN" in en
    assert "最后一行（查询 4）" in s3.wrong_convention_sentence("zh", L=5)


def test_s3_wrong_mask_convention_sees_the_future_and_the_last_row_is_nan():
    L = 5
    w = s3.wrong_convention_weights(L=L)
    assert bool(w[-1].isnan().all()) and not bool(w[:-1].isnan().any())
    for i in range(L - 1):
        assert [j for j in range(L) if w[i, j] > 0] == list(range(i + 1, L))


# --- §4 (cached runs and maps only) -------------------------------------------------------------


def test_s4_two_heads_miss_a_direction_that_four_heads_recover():
    rows = s4.per_offset(heads=(2, 4))
    two = {seed: acc for h, seed, acc, _ in rows if h == 2}
    four = {seed: acc for h, seed, acc, _ in rows if h == 4}
    assert sorted(two) == sorted(four) == list(s4.SEEDS)
    for seed in s4.SEEDS:
        assert min(two[seed]) < 0.9, f"seed {seed}: two heads answer every direction"
        assert min(four[seed]) >= 0.9, f"seed {seed}: four heads still miss a direction"
        assert sum(a >= 0.9 for a in two[seed]) >= 2  # the hint: two heads do cover two directions
    assert all(n == sum(a >= 0.9 for a in acc) for _, _, acc, n in rows)
    missed, back = s4.recovered(rows)
    assert missed and back == missed
    assert s4.recovered_sentence(missed, back, "zh").endswith("这些全都答到了 90% 以上。")  # no "10 个里 10 个"
    assert s4.recovered_sentence(missed, back[:3], "en").endswith("get 3 of them above 90%.")
    assert s4.recovered_sentence(missed, [], "en").endswith("get none of them above 90%.")
    # the solution's prose: which directions two heads get right depends on the seed
    assert len({tuple(a >= 0.9 for a in acc) for acc in two.values()}) > 1


def test_s4_raising_the_threshold_only_removes_roles():
    ts = [0.3, 0.5, 0.7, 0.9]
    for h in (4, 8):
        rows = s4.roles_by_threshold(ts, h)
        counts = [n for _, n, _ in rows]
        assert counts == sorted(counts, reverse=True) and all(total == h * len(s4.SEEDS) for *_, total in rows)
        shares = [s4.specialisation(s4.train_run(h, seed))[0] for seed in s4.SEEDS]
        at_half = sum(r is not None for sh in shares for r in s4.head_roles(sh))
        assert counts[1] == at_half  # the page's own threshold
    four, eight = s4.roles_by_threshold([0.9], 4)[0], s4.roles_by_threshold([0.9], 8)[0]
    assert four[1] / four[2] > eight[1] / eight[2]  # the prose: 8-head models concentrate less
    for seed in s4.SEEDS:  # ... and in each of them some offset is the role of two or more heads
        roles = [r for r in s4.head_roles(s4.specialisation(s4.train_run(8, seed))[0]) if r is not None]
        assert len(roles) > len(set(roles)), f"seed {seed}: no two 8-head heads share an offset"


def test_s4_heads_with_d_k_one_favour_at_most_two_keys():
    for seed in s4.SEEDS:
        assert max(len(k) for k in s4.favourite_keys(32, seed)) <= 2
    assert max(len(k) for k in s4.favourite_keys(4, 0)) > 2  # wider heads are not limited


def test_s4_previous_token_head_on_a_new_sentence():
    r = s4.prev_token_head(s4.NEW_SENTENCE)
    maps, tokens = s4.bert_attention_maps(s4.NEW_SENTENCE)
    prev = s4.head_stats([(maps, tokens)])["prev"]
    assert r["prev"] == pytest.approx(prev.max().item()) and r["prev"] > 0.5
    assert s4.NEW_SENTENCE not in s4.TEXTS
    # the prose: nearly every token's favourite is the one on its left, ## pieces included
    looks = r["looks_at"]
    left = [k == tokens[i - 1] for i, (_, k) in enumerate(looks) if i > 0]
    assert sum(left) >= 0.8 * len(left)
    assert any(t.startswith("##") and k == tokens[i - 1] for i, (t, k) in enumerate(looks))


def test_4b_exercises_do_not_load_the_real_model():
    """4b's exercises read committed results only: their module imports nothing of the pretrained model, so the
    notebook does not install or prepare it."""
    from resultcache import module_files

    assert not [f for f in module_files(["snippets.exercises.s4b"]) if f.startswith("snippets/bert/")]


def test_4b_the_bar_moves_the_head_count():
    """At 95% the solution finds the heads the page reports; a stricter bar never needs fewer heads."""
    from snippets.whatif.round2 import load_sweeps, threshold_stats

    t = threshold_stats(load_sweeps())
    at = {b: s4b.fewest_heads(b) for b in (0.9, 0.95, 0.99)}
    assert (at[0.95]["offsets_2"], at[0.95]["fixed_dk"], at[0.95]["offsets_6"]) == (t["all_2"], t["all_4"], t["all_6"])
    for name in ("offsets_2", "fixed_dk", "offsets_6"):
        counts = [at[b][name] for b in (0.9, 0.95, 0.99)]
        assert all(c is not None for c in counts) and counts == sorted(counts), (name, counts)
    assert s4b.bar_rows([0.95])[0] == ("95%", t["all_2"], t["all_4"], t["all_6"])
    with pytest.raises(ValueError, match=r"bar must be a float in \(0, 1\], got 95"):
        s4b.fewest_heads(95)


def test_4b_parameters_counted_three_ways_agree():
    for shape in ((1, 4, 0), (4, 1, 0), (2, 2, 0), (1, 1, 128)):
        counted, formula, recorded = s4b.count_params(*shape)
        assert counted == formula and recorded == {formula}, shape
    # the same heads in all: depth costs a layer norm and a W_o per layer; one feed-forward layer, more than 3 heads
    assert s4b.count_params(4, 1)[0] > s4b.count_params(1, 4)[0]
    assert s4b.count_params(1, 1, 128)[0] > s4b.count_params(1, 4)[0]


def test_4b_deep_against_wide_is_paired_by_seed():
    from snippets.whatif.protocol import SEEDS

    pairs = s4b.deep_vs_wide()
    assert [p[0] for p in pairs] == list(SEEDS) and all(0 <= a <= 1 and 0 <= b <= 1 for _, a, b in pairs)
    st = s4b.deep_vs_wide_stats()
    assert st["deeper"] + st["wider"] + st["tied"] == st["n"] == len(SEEDS)
    assert st["mean_diff"] == pytest.approx(100 * sum(a - b for _, a, b in pairs) / len(pairs))
    # the same shape against itself: every seed ties
    assert s4b.deep_vs_wide_stats((2, 2), (2, 2))["tied"] == len(SEEDS)
    assert [r[0] for r in s4b.deep_vs_wide_rows()] == list(SEEDS)


def test_s4_argument_errors():
    with pytest.raises(ValueError, match=r"good must be a float in \(0, 1\], got 90"):
        s4.per_offset(good=90)
    with pytest.raises(ValueError, match=r"thresholds must be a non-empty list of numbers in \(0, 1\], got \[1.5\]"):
        s4.roles_by_threshold([1.5])


def test_printed_rows_say_what_the_solutions_found():
    assert s1.sharpness_rows([100]) == [(100, "0.500", "0.500", "1.000", "1.000")]
    assert [r[1:] for r in s1.many_rows(log_tokens(), ["ERROR", "3"])] == [("0.500", "1.000")] * 2
    assert ("rows of `W_q.weight` for head 3", (64, 512), (32, 512)) in s2.shape_rows(512, (8, 16), "en")
    assert ("头 3 的查询", (2, 10, 64), (2, 10, 32)) in s2.shape_rows(512, (8, 16), "zh")
    real, sliced = s2.split_rows(("a", "b"))
    assert real[0] == "a" and float(real[1]) > 0 and sliced[1] == "0"
    assert s3.official_shape_rows(N=1, L=3, d_model=8, num_heads=2)[3] == ("`w_heads`", (1, 2, 3, 3))
    assert s3.transposed_strides(2, 8, 10, 64) == ((5120, 64, 640, 1), False)
    assert all(float(r[3]) <= 1e-6 for r in s3.unbatched_rows())
    assert [r[0] for r in s3.unbatched_rows("zh")] == ["输出", "权重"]
    assert s3.wrong_convention_rows(L=3) == [(0, "[1, 2]", ""), (1, "[2]", ""), (2, "[]", "NaN")]
    rows = s4.per_offset_rows((2, 4))
    assert len(rows) == 2 * len(s4.SEEDS) and all(r[-1] == 4 for r in rows if r[0] == 4)
    assert s4.threshold_rows([0.5], heads=(4,)) == [(0.5, "20 / 20")]
    (h32, dk32, lo32, hi32), (h4, dk4, _, hi4) = s4.favourite_key_rows((32, 4))
    assert (h32, dk32, h4, dk4) == (32, 1, 4, 8) and lo32 <= hi32 <= 2 < hi4


# --- the pages --------------------------------------------------------------------------------


def exercises_part(text: str) -> str:
    start = re.search(r"^## .*\{ #exercises \}$", text, flags=re.M)
    assert start, "no '## ... { #exercises }' heading"
    assert not re.search(r"^## ", text[start.end():], flags=re.M), "the exercises must be the page's last section"
    return text[start.end():]


@pytest.mark.parametrize("page", ARTICLE, ids=lambda p: p.name)
def test_every_section_ends_with_exercises_with_hints_and_closed_solutions(page):
    lang = page.name.split(".")[-2]
    hint, solution = {"zh": ('??? tip "提示"', '??? success "参考答案"'),
                      "en": ('??? tip "Hint"', '??? success "Solution"')}[lang]
    part = exercises_part(page.read_text(encoding="utf-8"))
    exercises = re.split(r"^### .*\{ #ex-[\w-]+ \}$", part, flags=re.M)[1:]
    assert 3 <= len(exercises) <= 5, f"{page.name}: {len(exercises)} exercises"
    module = f"snippets/exercises/s{page.name[0]}.py"
    for k, ex in enumerate(exercises, 1):
        assert ex.count(hint) == 1 and ex.count(solution) == 1, f"{page.name} exercise {k}: one hint, one solution"
        assert ex.index(hint) < ex.index(solution)
        answer = ex[ex.index(solution):]
        assert f'--8<-- "{module}:' in answer or "from snippets.exercises" in answer, (
            f"{page.name} exercise {k}: the solution's code must come from {module}")
        assert re.search(r'^    ```python exec="1"', answer, flags=re.M), f"{page.name} exercise {k}: nothing runs"
    assert "???+" not in part, "solutions and hints start closed"


def test_chapter_notebook_keeps_solutions_collapsed():
    page = ROOT / "docs" / "article" / "3-pytorch.en.md"
    source = page.read_text(encoding="utf-8")
    nb = nbs.build_notebook(source, "article/3-pytorch", "en")
    cells = nb.cells
    start = next(i for i, c in enumerate(cells) if c.source.startswith("## Exercises"))
    hidden = [c for c in cells[start:] if c.metadata.get("jupyter", {}).get("source_hidden")]
    shown_code = [c for c in cells[start:] if c.cell_type == "code" and c not in hidden]
    # one cell to try in per exercise, and every solution cell collapsed
    count = len(re.findall(r"^### .*\{ #ex-[\w-]+ \}$", source, flags=re.M))
    assert count == 5
    assert [c.source for c in shown_code] == [text("en", "notebooks.try")] * count
    assert all(c.cell_type == "code" and c.metadata["jupyter"]["outputs_hidden"] for c in hidden)
    assert any("class UnbatchedMultiHeadAttention" in c.source for c in hidden)
    # cells before the exercises are unchanged: nothing there is hidden
    assert not [c for c in cells[:start] if "jupyter" in c.metadata]


def test_only_collapsed_solutions_are_hidden_in_notebooks():
    page = (
        "# T { #t }\n\n## A { #a }\n\n"
        '??? note "Details"\n\n    ```python exec="1" result="text"\n    print(1)\n    ```\n\n'
        '???+ success "Open solution"\n\n    ```python exec="1" result="text"\n    print(2)\n    ```\n\n'
        '??? success "Solution"\n\n    ```python exec="1" result="text"\n    print(3)\n    ```\n\n'
        "    Explained.\n\n"
        '```python exec="1" result="text"\nprint(4)\n```\n'
    )
    parts = [p for p in nbs.page_parts(page) if p.kind == "exec"]
    assert [(p.text, p.collapsed) for p in parts] == [
        ("print(1)", ""), ("print(2)", ""), ("print(3)", "Solution"), ("print(4)", "")]
    nb = nbs.build_notebook(page, "t", "en")
    code = [(c.source, c.metadata.get("jupyter", {}).get("source_hidden", False))
            for c in nb.cells if c.cell_type == "code"][1:]  # after the setup cell
    assert code == [("print(1)", False), ("print(2)", False), (text("en", "notebooks.try"), False),
                    ("print(3)", True), ("print(4)", False)]


def test_threshold_stats_and_looks_at_line():
    s = s4.exercise_threshold_stats([0.3, 0.9], heads=(4,))
    assert (s["lowest"], s["highest"], s["all_4"]) == (0.3, 0.9, 20)
    assert s["last_4"] <= s["first_4"] and 0 < s["weakest_4"] <= 1
    assert s4.looks_at_line({"looks_at": [("a", "b"), ("c", "a")]}) == "a→b · c→a"
    with pytest.raises(ValueError, match="prev_token_head"):
        s4.looks_at_line([])
