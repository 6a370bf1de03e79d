"""§4's first comparison rule (compare.py, the percentile bootstrap, kept for the key/value page's history table),
and the pruning counts, now built on snippets.stats."""

from __future__ import annotations

import pytest

from snippets.whatif.analysis import sweep
from snippets.whatif.compare import diff_interval, interval_verdict
from snippets.whatif.report import (
    ablation_sentence, pruning_interval_stats, role_drop_stats, roleless_stats,
    specialisation_rows, sweep_stats,
)
from snippets.whatif.train import train_run

WORDS = ("lower", "higher", "no measurable difference")


def test_paired_interval_on_known_values():
    diff, lo, hi = diff_interval([0.8, 0.8, 0.8], [0.9, 0.9, 0.9])
    assert diff == pytest.approx(0.1) and lo == pytest.approx(0.1) and hi == pytest.approx(0.1)
    # one seed goes the other way: the interval spans the per-seed differences and covers 0
    diff, lo, hi = diff_interval([0.85, 0.85, 0.99], [0.90, 0.91, 0.57])
    assert diff == pytest.approx(-0.1033, abs=1e-4)
    assert lo == pytest.approx(-0.42) and hi == pytest.approx(0.06)
    assert interval_verdict(lo, hi, WORDS) == "no measurable difference"


def test_interval_is_deterministic_and_unpaired_works():
    a, b = [0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7]
    assert diff_interval(a, b, paired=False) == diff_interval(a, b, paired=False)
    diff, lo, hi = diff_interval(a, b, paired=False)
    assert diff == pytest.approx(0.35) and 0 < lo <= diff <= hi


def test_verdict_needs_the_whole_interval_on_one_side():
    assert interval_verdict(-0.3, -0.01, WORDS) == "lower"
    assert interval_verdict(0.01, 0.3, WORDS) == "higher"
    assert interval_verdict(-0.01, 0.3, WORDS) == "no measurable difference"


def test_interval_rejects_bad_input():
    with pytest.raises(ValueError, match="at least 2 values each"):
        diff_interval([0.1], [0.2])
    with pytest.raises(ValueError, match="same length"):
        diff_interval([0.1, 0.2], [0.2, 0.3, 0.4])


def test_pruning_counts_follow_the_interval_rule():
    s = pruning_interval_stats(sweep(heads=[8, 16]))
    for h in (8, 16):
        k = s[f"removable_{h}"]
        assert s[f"drop_hi_{h}"] <= s["tolerance_points"] < s[f"next_hi_{h}"]
        assert s[f"removable_pct_{h}"] == pytest.approx(100 * k / h)


def test_role_and_roleless_counts_add_up():
    r = role_drop_stats(sweep(heads=[4, 8]))
    assert r["n_role_4"] == 20 and r["n_role_free_4"] == 0 and r["role_drop_lo_4"] > 50
    assert 0 <= r["n_role_free_8"] <= r["n_role_8"]
    s = roleless_stats(sweep(heads=[16]))
    assert s["n_free_16"] + s["n_costly_16"] == s["n_roleless_16"]


def test_specialisation_rows_and_sweep_extras():
    rows = specialisation_rows(sweep(heads=[4, 32]))
    assert [r[:2] for r in rows] == [[4, 8], [32, 1]]
    s = sweep_stats(sweep(heads=[1, 2, 4]))
    assert s["chance"] == pytest.approx(1 / 16) and s["n_targets"] == 4
    assert s["naive_2"] == pytest.approx(0.5 + 0.5 / 16) and "naive_4" not in s


def test_ablation_sentence_says_unaffected_when_nothing_drops():
    run = train_run(num_heads=4, seed=0)
    out = ablation_sentence(run, "{own_drop_pts:.0f}; {others}", ("unaffected", "at most {other_drop_pts:.1f}"))
    assert out.endswith("; unaffected") or "at most" in out
    with pytest.raises(ValueError, match="others must be"):
        ablation_sentence(run, "{others}", ("one",))


def test_one_head_models_bet_on_their_heaviest_place():
    """§1 (#demo) and §4 (#one-head) say, without numbers, that every trained one-head model weights the four
    places unequally and answers best the direction it weights most; if a retrain changed that, this fails."""
    from snippets.whatif.report import first_round_one_head_stats

    s = first_round_one_head_stats(sweep(heads=[1]))
    assert s["match"] == s["n_seeds"] >= 5
    assert s["w1"] > s["w4"] + 0.02 and s["w1"] + s["w2"] + s["w3"] + s["w4"] + s["w_rest"] == pytest.approx(1)
