"""The search box, typed into as a reader would, finds the right pages in each language.

mkdocs-static-i18n writes one search index for both languages, so the other language's pages may
follow further down; the language's own pages must be there, and the best hit must be one of them.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def search(page, url: str, query: str) -> list[str]:
    """Type `query` into the search box of `url`, scroll the results to the end as a reader would, and
    return the result links (site-relative paths)."""
    page.goto(url, wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material searches on keyup; an IME commits with a key press too
    page.locator(".md-search-result__item").first.wait_for(timeout=15_000)
    # Material renders the first 10 results and more as the reader scrolls to the end of the list.
    count = -1
    for _ in range(20):
        items = page.locator(".md-search-result__item").count()
        if items == count:
            break
        count = items
        page.eval_on_selector(".md-search__scrollwrap", "e => e.scrollTo(0, e.scrollHeight)")
        page.wait_for_timeout(250)
    hrefs = page.eval_on_selector_all(".md-search-result__item > a", "els => els.map(a => a.href)")
    return [re.sub(r"^https?://[^/]+/", "", re.sub(r"[?#].*$", "", h)) for h in hrefs]


@pytest.mark.parametrize(
    ("lang", "query", "expected"),
    [
        ("zh", "注意力", {"article/1-single-head/", "article/3-pytorch/"}),
        ("en", "attention", {"en/article/2-divide-and-conquer/", "en/article/3-pytorch/"}),
        ("en", "heads", {"en/article/1-single-head/", "en/article/3-pytorch/"}),  # plural: prefix match, no stemming
    ],
)
def test_search_finds_pages_in_the_readers_language(page, server_url, lang, query, expected):
    url = server_url if lang == "zh" else server_url + "en/"
    hits = search(page, url, query)
    assert expected <= set(hits), f"searching {query!r} on the {lang} site found {hits}"
    first = hits[0]
    assert first.startswith("en/") == (lang == "en"), f"best hit for {query!r} is in the wrong language: {hits}"
