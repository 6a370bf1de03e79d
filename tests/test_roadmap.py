"""The roadmap's key/value heads sentence is printed from the committed results (snippets.roadmap), not typed."""

from __future__ import annotations

import re

import pytest
from conftest import LANGS, ROOT

from snippets import roadmap
from snippets.kvheads import protocol as P
from snippets.kvheads.report import summary_sentence


@pytest.mark.parametrize("lang", LANGS)
def test_the_roadmap_prints_the_key_value_sentence(lang):
    page = (ROOT / "docs" / f"roadmap.{lang}.md").read_text(encoding="utf-8")
    assert f'print(kv_heads_status("{lang}"))' in page
    # the old hand-typed state of the experiments is gone
    for stale in ("not yet been seen", "Next: a sweep", "还没有看到", "下一步：在训练之前"):
        assert stale not in page


def test_the_sentence_is_the_faqs_result_and_the_protocol():
    en = roadmap.kv_heads_status("en", done=False)
    assert en.startswith(summary_sentence("en") + " A second test, MQAR with distractor tokens (8 pairs in 48 positions;")
    assert "GQA with g = 8, 4, 2, 1 and MLA with d_c = 16, 32, 64; 10 seeds each, 1,000 steps" in en
    assert (P.PAIRS, P.SEQ_LEN, len(P.SEEDS), P.STEPS) == (8, 48, 10, 1000)
    assert en.endswith("its results are not on the site yet.")
    assert roadmap.kv_heads_status("en", done=True).endswith("its results are on the key/value heads page.")
    zh = roadmap.kv_heads_status("zh", done=True)
    assert zh.startswith(summary_sentence("zh")) and "GQA 取 g = 8、4、2、1，MLA 取 d_c = 16、32、64" in zh
    assert zh.endswith("结果已经在键/值头页上。")


def test_the_state_follows_the_committed_file():
    """Committing results/kvheads-mqar.json turns the roadmap's sentence over by itself."""
    done = (ROOT / "results" / roadmap.MQAR_RESULT).is_file()
    assert roadmap.mqar_done() is done
    said = roadmap.kv_heads_status("en")
    assert said.endswith("on the key/value heads page." if done else "not on the site yet.")
    assert not re.search(r"\{\w+\}", said + roadmap.kv_heads_status("zh"))
