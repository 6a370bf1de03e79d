"""Long pages, as a phone shows them: at 390x844, with every box closed as a reader finds it, a page once
loaded is at most so many screens tall (``document.body.scrollHeight / 844``).

The limit depends on the kind of page (LIMITS: an article 20 screens, a lab 25). PAGES maps each page held to a
limit (its kind's) to that limit, in both languages; a page joins it once it meets its limit. Blocks far below the
screen are not drawn yet (content-visibility), so the height once loaded counts their estimated heights
(sitebuild/hooks/chunks.py, which errs high); the height with every block drawn is recorded beside it.
The numbers go to test-artifacts/page-length.md.
"""

from __future__ import annotations

import pytest
from conftest import LANGS

from .conftest import ARTIFACTS, PHONE
from .pages import kind, page_path

pytestmark = pytest.mark.browser
LIMITS = {"article": 20, "lab": 25}  # screens of 844 px at 390 px wide, per kind of page
PAGES = {"lab/kv-heads": LIMITS["lab"],
         "article/4b-second-round": LIMITS["article"]}  # page -> screens; only pages that meet their limit
MEASURED: dict[tuple[str, str], dict] = {}

SCREENS_JS = """() => ({
  screens: document.body.scrollHeight / 844,
  open: [...document.querySelectorAll("article details[open]")].map(d => d.querySelector("summary").textContent.trim()),
  closed: document.querySelectorAll("article details:not([open])").length,
})"""
DRAW_ALL_CSS = "* { content-visibility: visible !important; }"


@pytest.fixture(scope="module")
def report():
    yield MEASURED
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lines = ["Height of a page on a phone (390x844), every box closed: `document.body.scrollHeight / 844` once "
             "loaded (blocks far below the screen at their estimated height) and with every block drawn.", "",
             "| page | language | screens once loaded | screens, every block drawn | closed boxes | limit |",
             "|---|---|--:|--:|--:|--:|"]
    for (stem, lang), m in MEASURED.items():
        lines.append(f"| {stem} | {lang} | {m['screens']:.1f} | {m['drawn']:.1f} | {m['closed']} | {m['limit']} |")
    (ARTIFACTS / "page-length.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_every_listed_page_has_its_kinds_limit():
    assert PAGES and all(limit == LIMITS[kind(stem)] for stem, limit in PAGES.items()), PAGES


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", PAGES)
def test_page_fits_its_screens_on_a_phone(page, server_url, report, stem, lang):
    page.set_viewport_size(PHONE)
    page.goto(server_url + page_path(stem, lang), wait_until="load")
    # site.js's first pass (it marks what scrolls sideways) runs when the browser is idle: the page as loaded
    page.wait_for_function("() => document.documentElement.dataset.scrollChecked")
    m = page.evaluate(SCREENS_JS)
    page.add_style_tag(content=DRAW_ALL_CSS)
    drawn = page.evaluate("() => document.body.scrollHeight / 844")
    limit = PAGES[stem]
    report[stem, lang] = {**m, "drawn": drawn, "limit": limit}
    assert not m["open"], f"boxes open on arrival: {m['open']}"
    assert m["closed"] > 0 and drawn > 2, m  # the page itself, with its folded boxes, not an empty one
    assert m["screens"] <= limit, (f"/{page_path(stem, lang)} is {m['screens']:.1f} screens tall on a phone once loaded "
                                   f"({drawn:.1f} with every block drawn); the limit for a {kind(stem)} page is {limit}")
