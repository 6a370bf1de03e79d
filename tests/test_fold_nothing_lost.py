"""Nothing was lost when the long pages were folded to fit a phone: whatever went into a collapsed box is still on
the page (a closed box is still in the html).

Each fixture lists what its pages held before their fold, per language: figures (the SVGs' aria-labels), tables
(header rows), heading ids, and the first characters of each block markdown-exec printed as a result. Each was
generated once, by `inventory` and `results` of tests/test_split_pages.py, from a build of main before that fold
(FOLDS: the commit), and is not regenerated: it is what the pages held. Digits are masked in figures and results,
so a figure drawn at other sizes or a result measured again keeps its place; one that went missing does not.

A printed result is found where its fold left it. On the lab pages and §4's two pages it is still inside
markdown-exec's result wrapper. On §3, the FAQ and lab/kv-heads-accuracy, blocks were folded in the page's
source, and a block that prints without its source shown is written without that wrapper, so there a result is
looked for in the article's text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import LANGS, ROOT
from test_split_pages import _article, _clean, _digits, _page, inventory, results

FIXTURES = ROOT / "tests" / "fixtures"
KINDS = ("figures", "tables", "ids", "results")


@dataclass(frozen=True)
class Fold:
    pages: tuple[str, ...]
    commit: str  # the build the fixture was recorded from
    results_in: str  # "wrapper": markdown-exec's result blocks; "text": anywhere in the article's text
    least: dict[str, int]  # the fewest of each kind a page of the fixture lists (its shape, checked)
    ids: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # (page, language) -> ids it must list


FOLDS = {
    "labs-before-fold.json": Fold(("lab/induction-heads", "lab/real-model", "lab/real-decoder", "lab/performance"),
                                  "ae132c6", "wrapper", {"figures": 2, "tables": 5, "ids": 10, "results": 5}),
    "articles-before-fold.json": Fold(
        ("article/3-pytorch", "faq", "lab/kv-heads-accuracy"), "ae132c6", "text",
        {"figures": 1, "tables": 5, "ids": 5, "results": 1},
        {("article/3-pytorch", "en"): {"official", "equivalence", "per-head-heatmaps"},
         ("faq", "zh"): {"q1", "q20", "fast-path"}}),
    "s4-before-fold.json": Fold(
        ("article/4-what-if", "article/4b-second-round"), "5a9a4cb", "wrapper",
        {"figures": 3, "tables": 7, "ids": 1, "results": 5},
        {("article/4-what-if", "en"): {"one-head", "source-regime", "ablation", "pruning", "lab"},
         ("article/4b-second-round", "en"): {"protocol", "fixed-head-width", "depth", "per-layer", "evidence"}}),
}


def lost(before: dict[str, list[str]], html: str, results_in: str) -> dict[str, list[str]]:
    """What of `before` the built page `html` no longer holds, per kind, digits masked in figures and results."""
    if results_in not in ("wrapper", "text"):
        raise ValueError(f"results_in must be 'wrapper' or 'text', got {results_in!r}")
    now = {k: set(v) for k, v in inventory(html).items()}
    now["figures"] = {_digits(x) for x in now["figures"]}
    out = {k: sorted({_digits(x) if k == "figures" else x for x in before[k]} - now[k]) for k in KINDS[:3]}
    wanted = {_digits(r) for r in before["results"]}
    if results_in == "wrapper":
        out["results"] = sorted(wanted - {_digits(r) for r in results(html)})
    else:
        text = _digits(_clean(_article(html)))
        out["results"] = sorted(r for r in wanted if r not in text)
    return {k: v for k, v in out.items() if v}


def _fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FOLDS)
def test_each_fixture_lists_its_pages_in_both_languages(name):
    """The fixtures' shape, so that a mistyped key cannot make the test below pass by checking nothing."""
    fold, before = FOLDS[name], _fixture(name)
    assert sorted(before) == sorted(fold.pages)
    for stem in fold.pages:
        for lang in LANGS:
            held = before[stem][lang]
            assert set(held) == set(KINDS)
            assert all(len(held[k]) >= n for k, n in fold.least.items()), (stem, lang)
    for (stem, lang), ids in fold.ids.items():
        assert ids <= set(before[stem][lang]["ids"]), (stem, lang)


PAGE = ('<article><h2 id="x">X</h2><details><summary>t</summary><svg role="img" aria-label="f 1"></svg>'
        '<table><thead><tr><th>p</th><th>q</th></tr></thead></table>'
        '<div class="result"><p>two heads reach 68.2%</p></div></details></article>')
BEFORE = {"figures": ["f 2"], "tables": ["p | q"], "ids": ["x"], "results": ["two heads reach 70.0%"]}


@pytest.mark.parametrize("results_in", ["wrapper", "text"])
def test_whatever_a_page_loses_is_reported(results_in):
    assert lost(BEFORE, PAGE, results_in) == {}
    assert lost(BEFORE, PAGE.replace("<thead><tr><th>p</th><th>q</th></tr></thead>", ""), results_in) == {
        "tables": ["p | q"]}
    assert lost(BEFORE, PAGE.replace("two heads", "one head"), results_in) == {"results": ["two heads reach ##.#%"]}
    assert lost(BEFORE, PAGE.replace(' id="x"', ""), results_in) == {"ids": ["x"]}
    emptied = PAGE.replace(PAGE[PAGE.index("<svg"):PAGE.index("</details>")], "")
    assert lost(BEFORE, emptied, results_in) == {"figures": ["f #"], "tables": ["p | q"],
                                                "results": ["two heads reach ##.#%"]}


def test_a_result_outside_its_wrapper_counts_only_where_folds_write_it_so():
    unwrapped = PAGE.replace('<div class="result">', "<div>")
    assert lost(BEFORE, unwrapped, "text") == {}
    assert lost(BEFORE, unwrapped, "wrapper") == {"results": ["two heads reach ##.#%"]}
    with pytest.raises(ValueError, match="results_in must be"):
        lost(BEFORE, PAGE, "html")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name, stem", [(name, stem) for name, fold in FOLDS.items() for stem in fold.pages])
def test_the_folded_page_holds_everything_it_held(built_site: Path, name: str, stem: str, lang: str):
    before = _fixture(name)[stem][lang]
    gone = lost(before, _page(built_site, stem, lang), FOLDS[name].results_in)
    assert not gone, (f"missing from {stem} ({lang}) since its fold (fixture {name}, recorded at "
                      f"{FOLDS[name].commit}): {gone}")
