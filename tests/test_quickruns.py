"""The small runs pages print below the definitions they exercise (snippets.quickruns)."""

from __future__ import annotations

import pytest

from snippets import quickruns


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_made_up_heads_each_score_one_on_their_own_measure(lang):
    out = quickruns.made_up_scores(T=5, lang=lang)
    assert out.count("1.00") >= 3, out


def test_tiny_decoder_generates_the_same_with_and_without_the_cache():
    out = quickruns.tiny_generate(lang="en")
    assert "[2, 2, 2, 2]" in out or "same" in out.lower(), out


def test_changing_an_argument_changes_the_run():
    assert quickruns.step_table(L=64, lang="en") != quickruns.step_table(L=32, lang="en")


def test_a_run_refuses_an_unknown_language():
    with pytest.raises(ValueError, match="lang"):
        quickruns.made_up_scores(lang="fr")
