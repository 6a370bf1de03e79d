"""The induction page's follow-up (snippets.induction.circuits): its protocol, its committed runs retrained
in part, and the page's words on them (snippets.induction.circuits_report)."""

from __future__ import annotations

import numpy as np
import pytest

from snippets.induction import circuits as C
from snippets.induction import circuits_report as R
from snippets.induction import protocol as P
from snippets.induction.report import load_induction
from snippets.numfmt import signed


def test_the_protocol_uses_seeds_no_other_run_used():
    assert C.SETTING in P.SETTINGS and not set(C.SEEDS) & set(P.SEEDS)
    assert not set(C.SEEDS) & set(range(10, 15))  # the check outside the main protocol
    assert len(C.SEEDS) >= 10 and C.jobs() == [(2, 4, s) for s in C.SEEDS]
    names = [n for n, _ in C.cut_family(4)]
    assert names[:3] == ["all_q", "all_k", "all_v"] and len(names) == 3 + 4 * 3
    assert dict(C.cut_family(4))["all_k"] == {"cut": {(0, h, 1, "k") for h in range(4)}}
    with pytest.raises(ValueError, match=r"expected layers, heads \(2, 4\) and a seed in"):
        C.run_one(2, 4, 0)


def test_prev_head_lies_between_the_main_protocols_settings():
    """PREV_HEAD's docstring: above every four-head seed's best previous-token score, below every one-head seed's."""
    models = load_induction()["data"]["models"]
    four = [max(m["final"]["prev"][0]) for m in models if (m["layers"], m["heads"]) == (2, 4)]
    one = [m["final"]["prev"][0][0] for m in models if (m["layers"], m["heads"]) == (2, 1)]
    assert max(four) < C.PREV_HEAD < min(one)
    assert f"{max(four):.2f}" in C.__doc__ and f"{min(one):.2f}" in C.__doc__


def test_the_committed_runs_follow_the_protocol():
    result = R.load_circuits()
    proto, models = result["data"]["protocol"], result["data"]["models"]
    assert proto["SEEDS"] == list(C.SEEDS) and proto["STEPS"] == P.STEPS and proto["PREV_HEAD"] == C.PREV_HEAD
    assert sorted((m["layers"], m["heads"], m["seed"]) for m in models) == sorted(C.jobs())
    for m in models:
        assert sorted(m["cut"]) == sorted(n for n, _ in C.cut_family(4)) and len(m["ablated"]) == 4
        assert [c["step"] for c in m["curve"]] == list(range(0, P.STEPS + 1, P.EVAL_EVERY))


def test_tables_and_sentence_print_the_committed_numbers():
    result = R.load_circuits()
    ms = sorted(result["data"]["models"], key=lambda m: m["seed"])
    fam = R.path_family(result)
    for p in C.PARTS:
        added = [m["cut"][f"all_{p}"] - m["final"]["predictable"] for m in ms]
        assert fam[p].mean == pytest.approx(np.mean(added)) and fam[p].family == 3
    rows = R.seed_rows("en", result)
    assert [r[0] for r in rows] == [str(s) for s in C.SEEDS]
    assert sum(r[-1] in ("queries", "keys", "values") for r in rows) == len(ms)
    counts = R.main_paths(result)
    assert sum(counts.values()) == len(ms)
    for lang, written in (("en", lambda x: f"{x:+.2f}"), ("zh", lambda x: signed(x))):  # zh: the minus sign −
        s = R.circuits_sentence(lang, result)
        assert all(written(fam[p].mean) in s for p in "qkv"), s
    en = R.circuits_sentence("en", result)
    assert f"In {len(R.textbook_seeds(result))} of the {len(ms)} seeds" in en
    assert f"the queries in {counts['q']}, the keys in {counts['k']}" in en


def test_the_pages_words_hold_on_the_committed_result():
    """What docs/lab/induction-heads.*.md says in prose about the follow-up, checked on the committed runs."""
    result = R.load_circuits()
    assert len(C.SEEDS) == 10  # "ten fresh seeds"
    textbook = set(R.textbook_seeds(result))
    for m in result["data"]["models"]:
        costs = R._costs(m)
        costliest = max(C.PARTS, key=costs.__getitem__)
        # a seed with a previous-token head reads it through the keys, every other seed through the queries
        assert costliest == ("k" if m["seed"] in textbook else "q"), (m["seed"], costs)
    paths = R.main_paths(result)
    assert paths["q"] > len(C.SEEDS) / 2 > paths["k"] > 0 and paths["v"] == 0  # "most" / "a minority"
    v = R.path_family(result)["v"]
    assert v.verdict == "negligible" and v.hi < 0  # "a negligible difference, and if anything lowers the loss"
    for lang in ("en", "zh"):
        assert str(len(textbook)) in R.split_sentence(lang)
    # the ratio between the costliest cut and the next is what these seeds showed, not a bound; a mix is possible
    assert "that ratio is what these seeds showed, not a bound" in R.split_sentence("en")
    assert "form a mix" in R.split_sentence("en") and "混在一起" in R.split_sentence("zh")
    assert "no seed is hard to place" not in R.split_sentence("en")
    with pytest.raises(ValueError, match="expected seeds with and without a previous-token head"):
        only = {"data": {**result["data"], "models": [m for m in result["data"]["models"] if m["seed"] in textbook]}}
        R.split_sentence("en", only)


def test_the_minority_expectation_is_a_count_unless_a_sign_test_settles_it():
    assert "p = 0.11" in R._minority("en", 2, 10) and "too few seeds" in R._minority("en", 2, 10)
    assert "borne out, 1 against 11" in R._minority("en", 1, 12)  # p = 0.0063
    assert R._minority("en", 0, 10) == R._minority("en", 6, 10) == "not borne out"
