"""snippets.twominute: the two-minute versions' numbers are the ones the pages print further down."""

from __future__ import annotations

import pytest
from conftest import LANGS

from snippets import twominute as T
from snippets.i18n import and_list
from snippets.numfmt import typeset


def _as_printed(lang: str, number: str) -> str:
    """A formatted number as the page prints it: Chinese pages typeset the minus sign."""
    return typeset(number) if lang == "zh" else number


@pytest.mark.parametrize("lang", LANGS)
def test_kv_heads_numbers_match_the_detail(lang):
    from snippets.kvheads import cost as C
    from snippets.kvheads import report as R

    s = T.kv_heads_stats(lang)
    rows = R.cache_rows(lang)
    assert f"{s['gib_mha']:.1f}" == rows[0][4] and f"{s['gib_mqa']:.1f}" == rows[3][4]
    assert s["gib_mha"] > s["gib_mqa"] > 0
    assert f"{s['speedup']:,.0f}" in R.decode_sentences(lang)
    assert f"{s['mqa_time']:.2f}" in R.decode_sentences(lang)
    flops = dict(zip(C.KINDS, C.flops_rows(lang), strict=True))  # the FLOPs table, a row per kind
    mha, mla = flops["mha"], flops["mla_absorbed"]
    assert f"d_c = {s['d_c']}" in mla[0] and (s["read_mha"], s["read_mla"], s["flops_mla"]) == (mha[2], mla[2], mla[4])
    assert float(s["read_mla"]) < float(s["read_mha"]) and float(s["flops_mla"]) > 1
    assert f"{s['gib_gqa']:.1f}" == rows[1][4] and rows[1][0].endswith(f"g={s['g_gqa_real']}")
    decode = R.decode_sentences(lang)
    for key in ("gqa_time", "gqa_copies", "mqa_copies"):  # GQA's and MQA's time over MHA's, as the list prints
        assert f"{s[key]:.2f}" in decode, key
    assert f"{s['gqa_share']:.1%}" in decode and s["gqa_time_verdict"] in decode and s["mqa_time_verdict"] in decode
    assert f"g={s['g_mid']}" in decode and f"g={s['h']}" in decode


@pytest.mark.parametrize("lang", LANGS)
def test_kv_accuracy_numbers_match_the_detail(lang):
    from snippets import stats
    from snippets.i18n import text
    from snippets.kvheads import mqar_report as M
    from snippets.kvheads import report as R

    s = T.kv_accuracy_stats(lang)
    assert _as_printed(lang, f"{s['diff_mqa']:.1f}") in M.mqar_sentences(lang) and f"{s['acc_mha']:.1%}" in M.mqar_sentences(lang)
    assert s["verdict_mqa"] in M.mqar_sentences(lang)
    assert 0 <= s["learned_mqa"] <= s["seeds"] and 0 <= s["mla_lower"] <= s["mla_n"]
    family = R.family_sentence(lang)
    assert str(s["recall_family"]) in family and 0 <= s["recall_found"] <= s["recall_family"]
    followup = M.followup_sentence(lang)
    assert f"d_c = {s['norm_size']}" in followup and str(s["norm_learned"]) in followup
    assert str(s["norm_plain"]) in followup and str(s["learned_mha"]) in followup
    rows = {row[0]: row for row in M.followup_rows(lang)}
    assert rows[str(s["norm_size"])][1] == f"{s['norm_plain']}/{s['seeds']}"
    assert rows[str(s["norm_size"])][3] == f"{s['norm_learned']}/{s['seeds']}"
    assert rows[str(s["norm_size"])][6] == s["norm_verdict"]
    assert s["norm_learned"] < s["learned_mha"]  # the box says the norm did not rescue this MLA
    verdicts = R.verdict_sentences(lang)  # the first test: each g against MHA at each number of pairs
    family = R.recall_family()
    gs, pairs = sorted({g for _, g in family}, reverse=True), sorted({n for n, _ in family})
    assert (s["recall_gs"], s["recall_pairs"]) == (and_list(lang, gs), and_list(lang, pairs))
    assert all(f"g={g}" in verdicts for g in gs) and f"g={s['recall_h']}" in R.learned_sentence(lang)
    assert all((f"With {n} pairs" if lang == "en" else f"{n} 个键值对：") in verdicts for n in pairs)
    assert len(gs) * len(pairs) == s["recall_family"] and s["alpha"] == pytest.approx(1 - stats.LEVEL)
    table = {row[0]: row for row in M.mqar_rows(lang)}  # the pre-registered test's table
    assert table["MHA g=8"][3] == f"{s['learned_mha']}/{s['seeds']}" and table["MQA g=1"][3] == f"{s['learned_mqa']}/{s['seeds']}"
    assert table[f"GQA g={s['g_hi']}"][3] == f"{s['learned_g_hi']}/{s['seeds']}"
    assert table[f"GQA g={s['g_lo']}"][3] == f"{s['learned_g_lo']}/{s['seeds']}"
    mla = [row for label, row in table.items() if label.startswith("MLA")]
    learned = [int(row[3].split("/")[0]) for row in mla]
    assert s["mla_learned"] == and_list(lang, learned) and s["mla_sizes"] == and_list(lang, [r[0].split("=")[1] for r in mla])
    assert sum(learned) * 10 <= len(mla) * s["seeds"]  # "almost never learned": at most one seed in ten
    shared = [row for label, row in table.items() if label.startswith(("GQA", "MQA"))]
    assert s["shared_n"] == len(shared) and s["shared_found"] == sum(
        row[6] in (text(lang, "kvheads.v_lower"), text(lang, "kvheads.v_higher")) for row in shared)
    assert f"{s['mqar_family']} " in M.mqar_sentences(lang) and f"{s['learned_bar']:.0%}" in M.mqar_protocol_sentence(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_induction_numbers_match_the_detail(lang):
    from snippets.induction import report as R

    s = T.induction_stats(lang)
    depth = R.depth_sentence(lang)
    assert f"{s['base_loss']:.2f}" in depth and f"{s['small_loss']:.2f}" in depth
    t = lambda x: _as_printed(lang, x)  # noqa: E731
    assert t(f"{s['diff']:+.2f}") in depth
    lo, hi = t(f"{s['lo']:+.2f}"), t(f"{s['hi']:+.2f}")
    assert f"[{lo}, {hi}]" in depth
    causes = R.cause_sentence(lang, R.MINIMAL)
    assert t(f"{s['cut_k']:+.2f}") in causes and t(f"{s['cut_q']:+.2f}") in causes and s["cut_k_verdict"] in causes
    assert 0 <= s["formed"] <= s["seeds"] and s["chance"] == pytest.approx(4.1589, abs=1e-4)
    if s["diff"] < 0:  # said as "lower by", so the box prints the drop and its interval unsigned
        assert all(f"{-x:.2f}" in s["gap"] and f"{-x:.2f}" in depth for x in (s["diff"], s["lo"], s["hi"]))


# where the follow-up's page sentence prints each seed's costliest path and the seeds with a previous-token head
_PATHS = {"en": ("the queries in {q}, the keys in {k}", "In {t} of the {n} seeds a layer-0 head"),
          "zh": ("有 {q} 个是查询，{k} 个是键", "{n} 个种子里，第 0 层有前一词元头")}


@pytest.mark.parametrize("lang", LANGS)
def test_induction_four_head_paths_match_the_follow_up(lang):
    from snippets.induction import circuits_report as C

    s = T.induction_stats(lang)
    paths, textbook = C.main_paths(), C.textbook_seeds()
    assert (s["circ_q"], s["circ_k"], s["circ_textbook"]) == (paths["q"], paths["k"], len(textbook))
    sentence = C.circuits_sentence(lang)
    paths_at, textbook_at = _PATHS[lang]
    assert paths_at.format(q=s["circ_q"], k=s["circ_k"]) in sentence
    assert textbook_at.format(t=s["circ_textbook"], n=s["circ_seeds"]) in sentence
    assert f"{s['circ_q']}" in T.bullets(lang, "induction") and s["four"] in T.bullets(lang, "induction")


@pytest.mark.parametrize("lang", LANGS)
def test_performance_numbers_match_the_goals_table(lang):
    from snippets import benchreport as B

    s = T.performance_stats(lang)
    table = B.goals_table(B.bench_sweep()["data"], lang)
    assert f"{s['speedup']:.2f}" in table and f"{s['time']:.3f}" in table
    assert f"{s['slope_fast']:.2f}" in table and f"{s['slope_scratch']:.2f}" in table
    assert s["speedup_verdict"] in table and s["mib_scratch"] > s["mib_fast"] > 0
    data = B.bench_sweep()["data"]
    # nn.MultiheadAttention's fast path: its memory exponent and its time over the same layer calling SDPA
    assert f"p = {s['fastpath_slope']:.2f}" in B.memory_sentence(data, lang)
    assert f"{s['fastpath_time']:.3f}" in B.comparison_table(data, lang) and s["fastpath_verdict"] == "higher"
    assert s["time_pct"] == pytest.approx(abs(s["time"] - 1)) and s["time_goal_pct"] == pytest.approx(B.TIME_GOAL - 1)


@pytest.mark.parametrize("f", [T.kv_heads_stats, T.kv_accuracy_stats, T.induction_stats,
                               T.performance_stats])
def test_a_wrong_language_is_refused(f):
    with pytest.raises(ValueError, match="lang must be one of"):
        f("fr")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", sorted(T.PAGES))
def test_every_two_minute_version_prints_its_bullets(lang, page):
    out = T.bullets(lang, page)
    lines = out.splitlines()
    assert 3 <= len(lines) <= 5 and all(line.startswith("- ") for line in lines)  # "at most five bullets"
    assert "{" not in out and "nats" not in (out if lang == "zh" else "")


def test_an_unknown_page_is_refused():
    with pytest.raises(ValueError, match="page"):
        T.bullets("en", "nowhere")


def _detail_outputs(stem: str, lang: str) -> str:
    """What the page's detail blocks print (every exec block that calls §4's lesson code, except figures and
    the two-minute box itself), run here as the build runs them."""
    import contextlib
    import io
    import re
    import textwrap

    from conftest import ROOT

    md = (ROOT / "docs" / f"{stem}.{lang}.md").read_text(encoding="utf-8")
    out = io.StringIO()
    for options, code in re.findall(r'^[ \t]*```python exec="1"([^\n]*)\n(.*?)^[ \t]*```', md, re.S | re.M):
        if 'html="1"' in options or "snippets.whatif" not in code or "twominute" in code:
            continue
        with contextlib.redirect_stdout(out):
            exec(textwrap.dedent(code), {"__name__": "__exec__"})  # noqa: S102 - the page's own blocks
        out.write("\n")
    return out.getvalue()


# a number as the bullets print it: a sign, digits, a decimal part or a percent sign (bare integers, such as
# head counts, are too common to pin a number to its source)
_NUMBER = r"[−+-]?\d[\d,]*\.\d+%?|[−+-]?\d[\d,]*%"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("page", "stem"), [("whatif", "article/4-what-if"),
                                            ("secondround", "article/4b-second-round")])
def test_whatif_numbers_match_the_detail(lang, page, stem):
    """Each page of §4 summarises only what it holds: every decimal and percentage its two-minute version
    prints is printed again by that page's own detail blocks."""
    import re

    out = T.bullets(lang, page)
    detail = _detail_outputs(stem, lang)
    numbers = re.findall(_NUMBER, out)
    assert len(numbers) >= 5, out
    missing = [n for n in numbers if n not in detail]
    assert not missing, f"{page}: numbers of the two-minute version not printed below it on {stem}: {missing}"
