"""The search box, typed into as a reader would, finds the right pages in each language.

mkdocs-static-i18n writes one search index for both languages, so the other language's pages may
follow further down; the language's own pages must be there, and the best hit must be one of them.

The glossary's terms are whole words in the index (jieba's user dictionary comes from
sitebuild/terms.py): searching 参数量 finds the page about parameter counts and highlights 参数量,
where jieba alone cut it into 参|数量 and the best hit highlighted only 参数 on another page.
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


# For each query, the best hit must be on one of these pages, with every occurrence of the term in it
# highlighted as one word.
TERM_QUERIES = [
    ("zh", "参数量", {"article/2-divide-and-conquer/"}),
    ("zh", "热力图", {"article/3-pytorch/"}),
    ("zh", "过拟合", {"faq/"}),
    ("zh", "多头注意力", {"", "article/1-single-head/", "article/2-divide-and-conquer/"}),
    ("en", "heatmap", {"en/article/3-pytorch/"}),
    ("en", "overfitting", {"en/faq/"}),
]

TOP_RESULT_JS = """query => {
  const li = document.querySelector("li.md-search-result__item:not([hidden])");
  const text = li.textContent;
  const marks = [...li.querySelectorAll("mark")].map((m) => m.textContent);
  const lower = (s) => s.toLowerCase();
  return {
    href: li.querySelector("a").href,
    occurrences: lower(text).split(lower(query)).length - 1,
    whole: marks.filter((m) => lower(m).includes(lower(query))).length,
    marks,
  };
}"""


def top_result(page, url: str, query: str) -> dict:
    """Type `query` into the search box of `url`; the best hit in the reader's language: its path,
    how often the term occurs in it, how many highlights hold the whole term, and every highlight."""
    page.goto(url, wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")
    page.locator("li.md-search-result__item:not([hidden])").first.wait_for(timeout=15_000)
    page.wait_for_timeout(300)  # the language filter hides the other language's hits as they come
    hit = page.evaluate(TOP_RESULT_JS, query)
    hit["path"] = re.sub(r"^https?://[^/]+/", "", re.sub(r"[?#].*$", "", hit["href"]))
    return hit


@pytest.mark.parametrize(("lang", "query", "expected"), TERM_QUERIES)
def test_search_keeps_terms_whole(page, server_url, lang, query, expected):
    hit = top_result(page, server_url if lang == "zh" else server_url + "en/", query)
    assert hit["path"] in expected, f"best hit for {query!r} is {hit['path']!r}, expected one of {sorted(expected)}"
    assert hit["occurrences"] > 0 and hit["whole"] >= hit["occurrences"], (
        f"{query!r} occurs {hit['occurrences']} times in the best hit but is highlighted whole "
        f"{hit['whole']} times: {hit['marks']}")
