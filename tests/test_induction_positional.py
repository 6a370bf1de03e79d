"""The induction page's second follow-up: the keep switch (snippets.induction.parts), its protocol
(snippets.induction.positional) and the page's words on it (snippets.induction.positional_report)."""

from __future__ import annotations

import copy

import pytest
import torch

from snippets.induction import circuits as C
from snippets.induction import positional as Q
from snippets.induction import positional_report as R
from snippets.induction import protocol as P
from snippets.induction.model import AttentionOnly
from snippets.induction.parts import KEEP, forward_parts, head_parts
from snippets.induction.task import make_repeat_batch


@pytest.fixture
def model():
    torch.manual_seed(0)
    return AttentionOnly(2, 4)


@pytest.fixture
def x():
    return make_repeat_batch(6, seed=3)[0]


def _head_output(m, x, h):
    """Layer-0 head h's output as the model computes it, from the model's own attention pattern."""
    _, patterns = m(x, return_attention=True)
    stream = m.embed(x) + m.pos(torch.arange(x.shape[1]))
    return patterns[0][:, h] @ stream @ m.W_V[0, h] @ m.W_O[0, h]


@torch.no_grad()
def test_token_part_plus_position_part_is_the_heads_output(model, x):
    for h in range(4):
        tok, pos = head_parts(model, x, h)
        torch.testing.assert_close(tok + pos, _head_output(model, x, h), atol=1e-6, rtol=1e-5)
        assert tok.abs().max() > 0.01 and pos.abs().max() > 0.01  # neither part is trivially zero here


@torch.no_grad()
def test_without_keep_the_forward_is_the_models(model, x):
    torch.testing.assert_close(forward_parts(model, x), model(x), atol=0, rtol=0)
    cut = {(0, 1, 1, "q"), (0, 3, 1, "k")}
    torch.testing.assert_close(forward_parts(model, x, cut=cut), model(x, cut=cut), atol=0, rtol=0)


@torch.no_grad()
def test_keeping_a_part_differs_from_intact_and_from_the_cut(model, x):
    intact, cut = model(x), model(x, cut={(0, 2, 1, "q")})
    for what in KEEP:
        kept = forward_parts(model, x, keep={(0, 2, 1, "q"): what})
        assert not torch.allclose(kept, intact, atol=1e-4) and not torch.allclose(kept, cut, atol=1e-4), what


@torch.no_grad()
@pytest.mark.parametrize("part", ["q", "k", "v"])
def test_a_part_that_is_zero_keeps_nothing_and_its_partner_keeps_all(x, part):
    """Hand-made: with token embeddings at zero, the token part is zero, so keeping only it is the cut and
    keeping only the position part is the intact model; with position embeddings at zero, the other way."""
    for table in ("embed", "pos"):
        torch.manual_seed(1)
        m = AttentionOnly(2, 2)
        getattr(m, table).weight.zero_()
        zero, whole = ("tok", "pos") if table == "embed" else ("pos", "tok")
        torch.testing.assert_close(forward_parts(m, x, keep={(0, 1, 1, part): whole}), m(x), atol=1e-5, rtol=0)
        torch.testing.assert_close(forward_parts(m, x, keep={(0, 1, 1, part): zero}), m(x, cut={(0, 1, 1, part)}),
                                   atol=1e-5, rtol=0)


@torch.no_grad()
def test_the_mean_of_a_constant_output_is_that_output(x):
    """Hand-made: no token embeddings and one position vector everywhere, so every layer-0 head writes the
    same vector at every position, and its mean is exactly what it wrote."""
    torch.manual_seed(2)
    m = AttentionOnly(2, 2)
    m.embed.weight.zero_()
    m.pos.weight.copy_(m.pos.weight[0].expand_as(m.pos.weight))
    torch.testing.assert_close(forward_parts(m, x, keep={(0, 0, 1, "q"): "mean"}), m(x), atol=1e-5, rtol=0)
    # the mean is over every position of every sequence: a varying output is not its mean
    torch.manual_seed(2)
    m2 = AttentionOnly(2, 2)
    assert not torch.allclose(forward_parts(m2, x, keep={(0, 0, 1, "q"): "mean"}), m2(x), atol=1e-4)


@pytest.mark.parametrize("keep, cut, message", [
    ({(0, 1, 1, "q"): "all"}, (), r"expected what to keep of a head's output, one of \('pos', 'tok', 'mean'\), got 'all'"),
    ({(0, 1, 1, "x"): "pos"}, (), r"expected a part, one of \('q', 'k', 'v'\), got 'x'"),
    ({(1, 1, 1, "q"): "pos"}, (), r"expected src_layer 0, got 1"),
    ({(0, 1, 0, "q"): "pos"}, (), r"expected a dst_layer in 1..1, got 0"),
    ({(0, 4, 1, "q"): "pos"}, (), r"expected a head \(layer, head\) with layer < 2 and head < 4, got \(0, 4\)"),
    ({(0, 1, 1): "pos"}, (), r"expected a path \(0, head, dst_layer, part\), got \(0, 1, 1\)"),
    ([(0, 1, 1, "q")], (), r"expected keep as a dict .*, got list"),
    ({(0, 1, 1, "q"): "pos"}, {(0, 1, 1, "q")}, r"either cut from a part or has a part of it kept"),
])
def test_a_bad_switch_says_what_was_expected(model, x, keep, cut, message):
    with pytest.raises(ValueError, match=message):
        forward_parts(model, x, keep=keep, cut=cut)


class _Stub:
    """A model whose layer-0 attention is given: what same_token reads."""

    def __init__(self, attn):
        self.attn = attn

    def __call__(self, x, return_attention=False):
        return None, [self.attn]


def test_same_token_score_on_made_up_attention():
    x, second = make_repeat_batch(4, seed=5)
    N, T = x.shape
    L = second.sum(1)
    exact = torch.zeros(N, 2, T, T)
    for n in range(N):
        for t in range(T):
            # head 0: on the token L back inside the second copy (an earlier occurrence), else on itself
            exact[n, 0, t, t - int(L[n]) if second[n, t] else t] = 1.0
    exact[:, 1] = torch.ones(T, T).tril() / torch.arange(1, T + 1)[:, None]  # head 1: even attention
    got = Q.same_token(_Stub(exact), x, second)
    assert got["score"][0] == pytest.approx(1.0)
    assert got["score"][1] == pytest.approx(got["even"]) and 0 < got["even"] < 0.2


def test_the_protocol_uses_seeds_no_other_run_used():
    assert Q.SETTING == C.SETTING and Q.SEEDS == tuple(range(40, 48))
    assert not set(Q.SEEDS) & (set(P.SEEDS) | set(C.SEEDS) | set(range(10, 15)) | {100})
    assert Q.jobs() == [(2, 4, s) for s in Q.SEEDS]
    assert dict(Q.query_family(4))["head3_pos"] == {"keep": {(0, 3, 1, "q"): "pos"}}
    assert len(Q.query_family(4)) == 4 * 4
    with pytest.raises(ValueError, match=r"expected layers, heads \(2, 4\) and a seed in"):
        Q.run_one(2, 4, 20)


def test_query_head_is_the_costliest_single_query_cut_only_where_the_queries_dominate():
    r = R._made_up()
    by_seed = {m["seed"]: m for m in r["data"]["models"]}
    assert Q.query_head(by_seed[40]) == 2 and Q.query_head(by_seed[41]) is None
    m = copy.deepcopy(by_seed[40])
    m["query"]["head0_cut"] = 99.0
    assert Q.query_head(m) == 0
    m["cut"]["all_v"] = 100.0  # the values now cost most
    assert Q.query_head(m) is None


def test_report_on_made_up_results_where_the_expectations_hold():
    r = R._made_up()
    fam = R.keep_family(r)
    assert list(fam) == ["cut", "pos", "tok", "mean", "pos_cut"] and all(c.family == 5 for c in fam.values())
    assert all(c.n == 7 for c in fam.values())  # seed 41 left out: its keys cost most
    ms = [m for m in r["data"]["models"] if m["seed"] != 41]
    want = sum(m["query"]["head2_pos"] - m["final"]["predictable"] for m in ms) / len(ms)
    assert fam["pos"].mean == pytest.approx(want)
    rows = R.keep_rows("en", r)
    assert [row[0] for row in rows][1:] == [R.text("en", f"pq.row_{w}") for w in ("cut", "pos", "tok", "mean")]
    s = R.positional_sentence("en", r)
    assert f"{fam['pos'].mean:+.2f}" in s and f"{fam['cut'].mean:+.2f}" in s and f"{fam['pos_cut'].mean:+.2f}" in s
    assert "in seed 41 another cut costs more" in s and s.count("borne out") == 3 and "not borne out" not in s
    assert "(7 of 7)" in s
    zh = R.positional_sentence("zh", r)
    assert "种子 41" in zh and zh.count("得到证实") == 3 and "没有得到证实" not in zh


def test_report_says_when_an_expectation_fails():
    r = R._made_up()
    for m in r["data"]["models"]:
        q = m["query"]
        q["head2_pos"] = q["head2_cut"] + 0.01  # the position part alone costs as much as removal
        q["head2_mean"] = m["final"]["predictable"] + 0.001 * (m["seed"] % 3 - 1)  # the mean costs nothing
    m = r["data"]["models"][0]
    m["same_token"]["score"][2] = 0.01  # below even attention in one seed
    fam = R.keep_family(r)
    assert fam["pos_cut"].verdict != "higher" and fam["mean"].verdict != "higher"
    s = R.positional_sentence("en", r)
    assert s.count("not borne out") == 3 and "(6 of 7)" in s
    assert R.text("en", f"pq.pc_{fam['pos_cut'].verdict}", seeds=7) in s


def test_report_with_too_few_query_path_seeds_compares_nothing():
    r = R._made_up()
    for m in r["data"]["models"][:4]:
        m["cut"]["all_k"] = 9.0  # keys dominate in seeds 40-43: 4 seeds left, fewer than stats.MIN_SEEDS
    assert R.keep_family(r) == {} and R.keep_rows("en", r) == []
    s = R.positional_sentence("en", r)
    assert "in seeds 40, 41, 42, 43 another cut costs more" in s and "fewer than the 5 seeds" in s
    assert s.count("seed 4") == 4 and "seed 44 (head 2)" in s and "borne out" not in s


def test_parts_sentence_prints_the_measured_gap():
    s = R.parts_sentence("en")
    gap = float(s.split("by at most ")[1].split(",")[0])
    assert 0 <= gap < 1e-5


def test_the_committed_runs_follow_the_protocol():
    result = R.load_positional()
    proto, models = result["data"]["protocol"], result["data"]["models"]
    assert proto["SEEDS"] == list(Q.SEEDS) and proto["STEPS"] == P.STEPS and proto["MINIMUM"] == P.MINIMUM
    assert proto["COMPARISONS"] == [list(c) for c in Q.COMPARISONS] and proto["MEASURES"] == list(Q.MEASURES)
    assert sorted((m["layers"], m["heads"], m["seed"]) for m in models) == sorted(Q.jobs())
    for m in models:
        assert sorted(m["query"]) == sorted(n for n, _ in Q.query_family(4))
        assert sorted(m["cut"]) == ["all_k", "all_q", "all_v"] and len(m["same_token"]["score"]) == 4
        assert [c["step"] for c in m["curve"]] == list(range(0, P.STEPS + 1, P.EVAL_EVERY))


def test_the_pages_words_hold_on_the_committed_result():
    """What docs/lab/induction-heads.*.md says in prose under #query-path, checked on the committed runs."""
    result = R.load_positional()
    fam = R.keep_family(result)
    assert fam and fam["pos_cut"].verdict == "higher"
    assert fam["pos"].mean < 0.1 * fam["cut"].mean  # "lies almost entirely in its position part"
    assert fam["tok"].mean > 0.5 * fam["cut"].mean and fam["mean"].mean > 0.5 * fam["cut"].mean  # "most of removal's cost"
    heads = R.query_heads(result)
    for m in result["data"]["models"]:
        h = heads[m["seed"]]
        if h is not None:  # "attends to earlier occurrences of the current token"
            assert m["same_token"]["score"][h] > 0.5 > 10 * m["same_token"]["even"]
