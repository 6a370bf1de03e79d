"""Nothing was lost when §3 (article/3-pytorch), the FAQ and lab/kv-heads-accuracy were folded to fit a phone.

tests/fixtures/articles-before-fold.json lists what each page held before the fold, per language: its figures
(the SVGs' aria-labels), its tables (header rows), its heading ids, and the first characters of each block
markdown-exec printed as a result. It was generated once, with `inventory` and `results` of
tests/test_split_pages.py, from a build of main at ae132c6 (before the fold), and is not regenerated: it is what
the pages held. Folding moves things into collapsed boxes, which are still in the built page; each page must
still hold every one of them (digits masked in figures and printed results, as in the split test: a result
measured again keeps its place, a table or figure that went missing does not). A printed result is looked for
in the page's text, not in markdown-exec's result wrapper: a block folded on the page prints without its source,
and markdown-exec then writes the output without that wrapper.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import LANGS, ROOT
from test_split_pages import _article, _clean, _page, inventory

BEFORE = ROOT / "tests" / "fixtures" / "articles-before-fold.json"
PAGES = ("article/3-pytorch", "faq", "lab/kv-heads-accuracy")
MASK = {"figures": lambda s: re.sub(r"\d", "#", s)}


def _mask(s: str) -> str:
    return re.sub(r"\d", "#", s)


def lost(before: dict[str, list[str]], html: str) -> dict[str, list[str]]:
    """What of `before` the built page no longer holds (figures, tables and ids by the inventory, printed results
    in the article's text)."""
    now = {k: {MASK.get(k, str)(x) for x in v} for k, v in inventory(html).items()}
    text = _mask(_clean(_article(html)))
    missing = {k: sorted({MASK.get(k, str)(x) for x in v} - now[k]) for k, v in before.items() if k != "results"}
    missing["results"] = sorted({_mask(r) for r in before["results"]} - {_mask(r) for r in before["results"]
                                                                         if _mask(r) in text})
    return {k: v for k, v in missing.items() if v}


def test_the_fixture_is_what_the_inventory_reads():
    """Its shape, so that a mistyped key cannot make the test below pass by checking nothing."""
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    assert sorted(before) == sorted(PAGES)
    for stem in PAGES:
        for lang in LANGS:
            got = before[stem][lang]
            assert set(got) == {"figures", "tables", "ids", "results"}
            assert got["figures"] and len(got["tables"]) >= 5 and len(got["ids"]) >= 5 and got["results"]
    assert {"official", "equivalence", "per-head-heatmaps"} <= set(before["article/3-pytorch"]["en"]["ids"])
    assert {"q1", "q20", "fast-path"} <= set(before["faq"]["zh"]["ids"])


def test_a_box_emptied_of_its_table_is_caught():
    """The comparison fails when a folded box loses what it held (checked on a page of the fixture's shape)."""
    html = ('<article><h2 id="a">A</h2><details><summary>t</summary><table><thead><tr><th>x</th><th>y</th>'
            '</tr></thead></table><div class="result"><p>printed 12</p></div></details></article>')
    before = {"figures": [], "tables": ["x | y"], "ids": ["a"], "results": ["printed 34"]}
    assert lost(before, html) == {}
    emptied = re.sub(r"<details>.*</details>", "<details><summary>t</summary></details>", html)
    assert lost(before, emptied) == {"tables": ["x | y"], "results": ["printed ##"]}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", PAGES)
def test_the_folded_page_holds_everything_it_held(built_site: Path, stem: str, lang: str):
    before = json.loads(BEFORE.read_text(encoding="utf-8"))[stem][lang]
    missing = lost(before, _page(built_site, stem, lang))
    assert not missing, f"missing from {stem} ({lang}) after folding: {missing}"
