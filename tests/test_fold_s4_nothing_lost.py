"""Nothing was lost when §4's two pages (article/4-what-if and article/4b-second-round) were folded for a phone:
each still holds every figure, table, heading id and printed result it held before, in a box or in view.

tests/fixtures/s4-before-fold.json lists, per page and language, what the page held: its figures (the SVGs'
aria-labels), its tables (header rows), its heading ids, and the first characters of each block markdown-exec
printed as a result. It was generated once, by `inventory` and `results` of tests/test_split_pages.py, from a
build of main at 5a9a4cb (before the fold), and is not regenerated. Text inside a closed <details> is still in the
page, so the built pages must hold all of it; pages may hold more (sections added later).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import LANGS, ROOT
from test_split_pages import inventory, results

BEFORE = ROOT / "tests" / "fixtures" / "s4-before-fold.json"
PAGES = ("article/4-what-if", "article/4b-second-round")


def _digits(text: str) -> str:
    return re.sub(r"\d", "#", text)


def held(html: str) -> dict[str, set[str]]:
    """What a built page holds, digits masked in figures and results (a figure drawn from results measured
    again keeps its place; a figure that went missing does not)."""
    now = {k: set(v) for k, v in inventory(html).items()}
    now["results"] = set(results(html))
    return {k: {_digits(x) for x in v} if k in ("figures", "results") else v for k, v in now.items()}


def lost(before: dict[str, list[str]], html: str) -> dict[str, list[str]]:
    now = held(html)
    masked = {k: {_digits(x) for x in v} if k in ("figures", "results") else set(v) for k, v in before.items()}
    return {k: sorted(v - now[k]) for k, v in masked.items() if v - now[k]}


def _page(site: Path, stem: str, lang: str) -> str:
    return (site / ("" if lang == "zh" else "en") / stem / "index.html").read_text(encoding="utf-8")


def test_the_fixture_is_what_the_inventory_reads():
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    assert set(before) == set(PAGES)
    for stem in PAGES:
        for lang in LANGS:
            page = before[stem][lang]
            assert set(page) == {"figures", "tables", "ids", "results"}
            assert len(page["figures"]) >= 3 and len(page["tables"]) >= 7 and len(page["results"]) >= 5
    assert {"one-head", "source-regime", "ablation", "pruning", "lab"} <= set(before[PAGES[0]]["en"]["ids"])
    assert {"protocol", "fixed-head-width", "depth", "per-layer", "evidence"} <= set(before[PAGES[1]]["en"]["ids"])


def test_a_box_emptied_is_caught():
    """The check fails when a box loses what it held (a table, a figure, a printed result)."""
    html = ('<article><h2 id="x">X</h2><details><summary>t</summary><svg role="img" aria-label="fig 1"></svg>'
            '<table><thead><tr><th>a</th><th>b</th></tr></thead></table>'
            '<div class="result"><p>printed 4</p></div></details></article>')
    before = {"figures": ["fig 7"], "tables": ["a | b"], "ids": ["x"], "results": ["printed 3"]}
    assert lost(before, html) == {}
    emptied = re.sub(r"<summary>t</summary>.*</details>", "<summary>t</summary></details>", html)
    assert lost(before, emptied) == {"figures": ["fig #"], "results": ["printed #"], "tables": ["a | b"]}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", PAGES)
def test_the_folded_page_holds_everything_it_held(built_site: Path, stem: str, lang: str):
    before = json.loads(BEFORE.read_text(encoding="utf-8"))[stem][lang]
    missing = lost(before, _page(built_site, stem, lang))
    assert not missing, f"missing from {stem} ({lang}): {missing}"
