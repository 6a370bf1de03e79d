"""The real decoder page's exercises: each solution computes what its exercise asks, checked against the site's
own functions and the committed results."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch
from conftest import ROOT, check_exercises

from snippets import stats
from snippets.decoder import report
from snippets.decoder.heads import previous_token
from snippets.exercises import decoder as ex

PAGES = [ROOT / "docs" / "lab" / f"real-decoder.{lang}.md" for lang in ("zh", "en")]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_prev_by_hand_is_the_sites_previous_token_score(seed):
    w = ex.toy_weights(7, seed=seed)
    assert torch.allclose(w.sum(-1), torch.ones(7, dtype=torch.float64)) and bool((w.triu(1) == 0).all())
    assert ex.prev_by_hand(w) == pytest.approx(float(previous_token(w[None, None])[0]), abs=1e-12)
    lean = ex.toy_weights(7, lean=8.0, seed=seed)
    assert ex.prev_by_hand(lean) > 0.9  # a head that leans hard towards the previous token scores near 1


def test_prev_lines_print_the_rows_and_both_scores():
    lines = ex.prev_lines("en").splitlines()
    w = ex.toy_weights(6)
    assert len(lines) == 7 and lines[1].startswith("t=1: ") and lines[1].split()[1:3] == ["0.90", "0.10"]
    code = float(previous_token(w[None, None])[0])
    assert lines[-1] == f"by hand: {ex.prev_by_hand(w):.4f}; heads.previous_token: {code:.4f}"


def test_cache_mib_matches_the_committed_cache_sizes():
    r = report.result()
    cfg = r["data"]["config"]
    for row in r["data"]["cache"]["rows"]:  # one sequence at the full context, bfloat16
        assert ex.cache_mib(cfg, row["kv_heads"], cfg["context"], 1) * 2**20 == row["bytes_at_context"]["bfloat16"]
    rows = ex.mib_rows("en", 4096, 8, cfg)
    assert [r_[1] for r_ in rows] == ["9", "3", "1"] and [r_[3] for r_ in rows] == ["3.00×", "1.00×", "0.33×"]
    assert rows[1][2] == f"{2 * 30 * 3 * 64 * 4096 * 8 * 2 / 2**20:,.0f}"
    with pytest.raises(ValueError, match="batch"):
        ex.mib_rows("en", 4096, 0, cfg)


@pytest.mark.parametrize("seed", range(5))
def test_holm_by_hand_is_the_sites_holm(seed):
    rng = np.random.default_rng(seed)
    p = list(rng.uniform(0, 0.02, 6)) + list(rng.uniform(0, 1, 6))
    assert ex.holm_by_hand(p) == list(stats.holm(p)[0])


def test_holm_by_hand_agrees_with_the_pages_verdicts():
    fam = report.knockout_family()
    hand = ex.holm_by_hand([c.p for c in fam.values()])
    assert hand == [c.verdict != "none" for c in fam.values()]
    rows = ex.holm_rows("en")
    assert len(rows) == len(fam) and [float(r[1]) for r in rows] == sorted(float(r[1]) for r in rows)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_has_three_exercises_with_hints_and_closed_solutions(page):
    after = check_exercises(page, "decoder")
    assert after.splitlines()[0].endswith("{ #provenance }")