"""§4 on ten more seeds: the replication trains exactly as the protocol does, its committed result is its
protocol, and what the pages print of it (snippets.whatif.fresh) holds on the committed numbers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from snippets.whatif import fresh, protocol, replication, round2
from snippets.whatif.analysis import sweep
from snippets.whatif.report import pruning_interval_stats, removable


def test_a_replicated_setting_trains_as_the_protocol_does():
    """The same setting and seed through the replication's training and the protocol's gives the same model."""
    a = replication._run("fixed_dk", 1, 0)
    b = protocol.run_one("fixed_dk", 1, 0)
    assert (a["accuracy"], a["steps"], a["converged"]) == (b["accuracy"], b["steps"], b["converged"])
    assert a["acc_by_offset"] == pytest.approx(b["acc_by_offset"], abs=0)


def test_the_replication_is_made_of_the_protocols_settings_on_new_seeds():
    assert not set(replication.SEEDS) & set(protocol.SEEDS)
    from snippets.whatif.analysis import SEEDS as FIRST

    assert not set(replication.FIRST_SEEDS) & set(FIRST)
    names = [fresh.setting_name(s, i) for s, i in replication.SETTINGS]
    assert names == ["dk2", "dk3", "dk4", "o6_4", "o6_5", "o6_6", "dm3", "dm4", "dm5", "p1x1f", "p2x1", "p2x1f",
                     "p1x3", "p3x1", "p1x3f", "reg4", "reg8"]
    with pytest.raises(ValueError, match=r"expected a job of the replication .* got \('fixed_dk', 1, 0\)"):
        replication.run_one("fixed_dk", 1, 0)
    with pytest.raises(ValueError, match="expected a configuration of sweep 'phase'"):
        replication._index("phase", layers=9, num_heads=1, ffn=0)


def test_committed_result_is_the_replication():
    rep = fresh.load_replication()
    assert rep["protocol"]["settings"] == json.loads(json.dumps([list(s) for s in replication.SETTINGS]))
    assert rep["protocol"]["seeds"] == list(replication.SEEDS)
    assert sorted((m["sweep"], m["index"], m["seed"]) for m in rep["models"]) == sorted(replication.jobs())
    assert all(np.isfinite(m["accuracy"]) for m in rep["models"])
    with pytest.raises(ValueError, match="python -m sitebuild.results whatif-replication"):
        fresh.load_replication(Path("/nonexistent/whatif-replication.json"))


def test_pruning_rule():
    """The pruning rule (report.removable), which the pruning section and the replication's counts both use: a
    head can go while the upper end of the paired interval on the drop stays within the tolerance."""
    flat = [[0.9] * 4, [0.8] * 4, [0.95] * 4]  # nothing lost however many heads go: all but the last can
    assert removable(flat)["removable"] == 3 and removable(flat)["next_hi"] == pytest.approx(0)
    steep = [[1.0, 0.999, 0.5], [0.98, 0.975, 0.6], [0.99, 0.99, 0.4]]  # the first head costs <= 0.5 point
    r = removable(steep)
    assert r["removable"] == 1 and r["drop_hi"] <= 1.0 < r["next_hi"] and r["next"] == pytest.approx(100 * 0.49)
    assert removable(steep, tolerance=0.001)["removable"] == 0
    with pytest.raises(ValueError, match=r"expected pruning curves of at least 2 seeds x 2 head counts"):
        removable([[1.0, 0.9]])


def test_the_pruning_section_applies_the_rule_per_head_count():
    from snippets.whatif.analysis import pruning

    runs = sweep(heads=[8, 16])
    s = pruning_interval_stats(runs)
    for h in (8, 16):
        r = removable([pruning(x) for x in runs if x["num_heads"] == h])
        assert s[f"removable_pct_{h}"] == 100 * r["removable"] / h
        assert all(s[f"{k}_{h}"] == v for k, v in r.items())


def test_rows_and_stats_on_the_committed_result():
    d, rep = round2.load_sweeps(), fresh.load_replication()
    labels = {"fixed_dk": "4 lookups, {h} heads", "offsets_6": "6 lookups, {h} heads",
              "fixed_dmodel": "d_model 120, {h} heads", "phase": "{n} × {h}{ffn}", "regime": "regime, {h} heads",
              "ffn": " + FFN"}
    rows = fresh.fresh_rows(d, rep, labels)
    assert len(rows) == len(replication.SETTINGS) and rows[11][0] == "2 × 1 + FFN"
    assert rows[11][1] == "10/10"  # the committed count the page used to state in prose
    s = fresh.fresh_stats(d, rep)
    assert (s["n_old"], s["n_new"], s["n_all"], s["seeds_lo"], s["seeds_hi"]) == (10, 10, 20, 10, 19)
    assert s["old_p2x1f"] == 10 and s["old_p2x1"] == 0 and s["old_dk3"] == 10
    assert s["deep_higher_new"] + s["deep_lower_new"] <= 10
    assert sorted([s["deep_level"], s["regime_level"]]) == pytest.approx([95, 97.5])  # Holm over the family of two
    for h in (8, 16):
        assert 0 <= s[f"removable_{h}"] < h and s[f"drop_hi_{h}"] <= 1.0 < s[f"next_hi_{h}"]


def test_the_pages_words_hold_on_the_replication():
    """What 4b's "ten more seeds", its exercise 3 and section 4's pruning say in prose, without numbers."""
    from snippets.exercises.s4b import deep_vs_wide_stats

    d, rep = round2.load_sweeps(), fresh.load_replication()
    s = fresh.fresh_stats(d, rep)
    names = [fresh.setting_name(*x) for x in replication.SETTINGS]
    n_old, n_new = s["n_old"], s["n_new"]
    # every setting past the bar on all committed seeds is past it on all new ones
    assert all(s[f"new_{k}"] == n_new for k in names if s[f"old_{k}"] == n_old)
    # one head below a threshold, one committed miss, none on the new seeds
    for k in ("o6_4", "dm3", "p3x1"):
        assert (s[f"old_{k}"], s[f"new_{k}"]) == (n_old - 1, n_new), k
    # two layers of one head: no seed without the feed-forward layer, nearly every seed with it
    assert s["old_p2x1"] == s["new_p2x1"] == 0 and min(s["old_p2x1f"], s["new_p2x1f"]) >= 9
    assert s["regime_verdict"] == "lower"  # eight narrow heads again generalise worse than four
    # 3 x 1 against 1 x 3 changed sides: behind on the committed mean, ahead on every new seed, none pooled
    assert deep_vs_wide_stats()["mean_diff"] < 0 < s["deep_lo"]
    assert (s["deep_higher_new"], s["deep_verdict"], s["pooled_verdict"]) == (n_new, "higher", "none")
    # pruning: hardly a head can go for free, and the count moves with the seeds
    first = pruning_interval_stats(sweep(heads=[8, 16]))
    assert max(s["removable_8"], s["removable_16"], first["removable_8"], first["removable_16"]) <= 1
    assert (s["removable_8"], s["removable_16"]) != (first["removable_8"], first["removable_16"])
