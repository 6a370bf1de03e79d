"""Nothing was lost when four lab pages were folded to fit a phone (lab/induction-heads, lab/real-model,
lab/real-decoder, lab/performance): what went into collapsed boxes is still on the page.

tests/fixtures/labs-before-fold.json lists what each page held, per language, before the fold: its figures (the
SVGs' aria-labels), its tables (header rows), its heading ids, and the first characters of each block
markdown-exec printed as a result. It was generated once, by `inventory` and `results` of test_split_pages.py,
from a build of main at ae132c6, and is not regenerated: it is what the pages held. Each built page must still
hold every one of them (a closed box is still in the html).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import LANGS, ROOT
from test_split_pages import _digits, _page, inventory, results

BEFORE = ROOT / "tests" / "fixtures" / "labs-before-fold.json"
PAGES = ["lab/induction-heads", "lab/real-model", "lab/real-decoder", "lab/performance"]
KINDS = ("figures", "tables", "ids", "results")


def lost(before: dict[str, list[str]], html: str) -> dict[str, list[str]]:
    """What of `before` the built page `html` no longer holds, per kind (digits masked in figures and results:
    a figure drawn at other sizes or a result measured again keeps its place; one that went missing does not)."""
    now = {**inventory(html), "results": results(html)}
    mask = {"figures": _digits, "results": _digits}
    out = {}
    for k in KINDS:
        have = {mask.get(k, str)(x) for x in now[k]}
        gone = sorted({mask.get(k, str)(x) for x in before[k]} - have)
        if gone:
            out[k] = gone
    return out


def test_the_fixture_lists_each_page_in_both_languages():
    """The fixture's shape (so that a mistyped key cannot make the test below pass by checking nothing)."""
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    assert sorted(before) == sorted(PAGES)
    for stem in PAGES:
        for lang in LANGS:
            held = before[stem][lang]
            assert set(held) == set(KINDS)
            assert len(held["figures"]) >= 2 and len(held["tables"]) >= 5 and len(held["ids"]) >= 10
            assert len(held["results"]) >= 5


def test_a_missing_table_or_result_is_reported():
    page = ('<article><h2 id="x">X</h2><svg role="img" aria-label="f 1"></svg>'
            '<table><thead><tr><th>p</th></tr></thead></table>'
            '<div class="result"><p>two heads reach 68.2%</p></div></article>')
    before = {"figures": ["f 2"], "tables": ["p"], "ids": ["x"], "results": ["two heads reach 70.0%"]}
    assert lost(before, page) == {}
    assert lost(before, page.replace("<thead><tr><th>p</th></tr></thead>", "")) == {"tables": ["p"]}
    assert lost(before, page.replace("two heads", "one head")) == {"results": ["two heads reach ##.#%"]}
    assert lost(before, page.replace(' id="x"', "")) == {"ids": ["x"]}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", PAGES)
def test_the_folded_page_holds_everything_it_held(built_site: Path, stem: str, lang: str):
    before = json.loads(BEFORE.read_text(encoding="utf-8"))[stem][lang]
    gone = lost(before, _page(built_site, stem, lang))
    assert not gone, f"missing from {stem} ({lang}): {gone}"
