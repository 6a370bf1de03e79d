"""The roadmap's key/value heads sentence is printed from the committed results (snippets.roadmap), not typed."""

from __future__ import annotations

import re

import pytest
from conftest import LANGS, ROOT

from snippets import roadmap
from snippets.kvheads.report import summary_sentence


@pytest.mark.parametrize("lang", LANGS)
def test_the_roadmap_prints_the_key_value_sentence(lang):
    page = (ROOT / "docs" / f"roadmap.{lang}.md").read_text(encoding="utf-8")
    assert f'print(kv_heads_status("{lang}"))' in page
    # the old hand-typed state of the experiments is gone
    for stale in ("not yet been seen", "Next: a sweep", "还没有看到", "下一步：在训练之前"):
        assert stale not in page


def test_the_sentence_is_one_clause_and_a_link_without_results():
    """A roadmap reader needs where the experiments stand, not their statistics: those are on the lab page."""
    for lang in LANGS:
        for done in (True, False):
            said = roadmap.kv_heads_status(lang, done=done)
            assert not re.search(r"\d", said), said  # no p-value, no counts: the lab page prints those
            assert summary_sentence(lang) not in said
    assert roadmap.kv_heads_status("en", done=True) == (
        "Both recall tests, associative recall and MQAR with distractor tokens, have been run; their results are "
        "on the key/value heads page.")
    assert roadmap.kv_heads_status("zh", done=False).endswith("的结果还没有放上网站。")
    with pytest.raises(ValueError, match="lang must be"):
        roadmap.kv_heads_status("fr")


def test_the_state_follows_the_committed_file():
    """Committing results/kvheads-mqar.json turns the roadmap's sentence over by itself."""
    done = (ROOT / "results" / roadmap.MQAR_RESULT).is_file()
    assert roadmap.mqar_done() is done
    said = roadmap.kv_heads_status("en")
    assert said.endswith("on the key/value heads page." if done else "not on the site yet.")
    assert not re.search(r"\{\w+\}", said + roadmap.kv_heads_status("zh"))
