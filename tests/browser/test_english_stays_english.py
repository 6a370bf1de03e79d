"""A reader of one language stays in it: glossary tooltips and search results (issue 49 item 4).

English pages carry English definitions over English terms (docs/.snippets/glossary-en.md, appended
by sitebuild/hooks/glossary.py), Chinese pages the English term over a Chinese one. Search: the site
has one index for both languages, and docs/assets/search-lang.js hides the other language's hits, so
what a reader sees (every rendered result that is not hidden, after scrolling to the end) is in the
reader's language, and the count says how many there are.
"""

from __future__ import annotations

import re

import pytest

from .pages import search_and_scroll

pytestmark = pytest.mark.browser

CJK = re.compile(r"[\u3400-\u9fff]")

TOOLTIPS_JS = """() => [...document.querySelectorAll("article abbr")].map((a) => ({
  term: a.textContent,
  title: a.getAttribute("title") || a.getAttribute("data-md-tooltip") || "",
}))"""


def tooltips(page, url: str) -> list[dict]:
    page.goto(url, wait_until="networkidle")
    return page.evaluate(TOOLTIPS_JS)


@pytest.mark.parametrize("path", ["en/article/1-single-head/", "en/article/3-pytorch/", "en/faq/", "en/"])
def test_english_pages_explain_terms_in_english(page, server_url, path):
    found = tooltips(page, server_url + path)
    assert found, f"no glossary tooltip on {path}"
    chinese = [t for t in found if CJK.search(t["title"] + t["term"])]
    assert not chinese, f"Chinese in the tooltips of {path}: {chinese[:3]}"
    assert all(len(t["title"].split()) >= 5 for t in found), f"a tooltip on {path} is not a definition: {found}"


def test_self_attention_is_defined_where_the_newcomer_meets_it(page, server_url):
    found = tooltips(page, server_url + "en/article/1-single-head/")
    first = next(t for t in found if t["term"].lower() == "self-attention")
    assert first["title"].startswith("attention in which the queries, keys and values all come from the same")


def test_chinese_pages_keep_the_english_term_over_the_chinese_one(page, server_url):
    found = tooltips(page, server_url + "article/1-single-head/")
    assert {"term": "自注意力", "title": "self-attention"} in found


def visible_results(page, url: str, query: str) -> tuple[list[str], list[str], str]:
    """Type `query` on `url`, scroll the results to the end; (visible result paths, hidden result paths,
    the count line)."""
    search_and_scroll(page, url, query)
    rows = page.eval_on_selector_all(
        "li.md-search-result__item",
        "els => els.map((li) => [li.querySelector('a').href, li.hidden || li.offsetParent === null])")
    meta = page.inner_text(".md-search-result__meta")
    path = lambda h: re.sub(r"^https?://[^/]+/", "", re.sub(r"[?#].*$", "", h))  # noqa: E731
    return [path(h) for h, hidden in rows if not hidden], [path(h) for h, hidden in rows if hidden], meta


@pytest.mark.parametrize(("lang", "query", "expected"), [
    ("en", "sqrt", "en/article/3-pytorch/"),
    ("en", "softmax", "en/article/1-single-head/"),
    ("zh", "sqrt", "article/3-pytorch/"),
    ("zh", "注意力", "article/1-single-head/"),
])
def test_search_shows_only_the_readers_language(page, server_url, lang, query, expected):
    shown, hidden, meta = visible_results(page, server_url + ("en/" if lang == "en" else ""), query)
    assert expected in shown, f"searching {query!r} on the {lang} site shows {shown}"
    wrong = [p for p in shown if p.startswith("en/") != (lang == "en")]
    assert not wrong, f"searching {query!r} on the {lang} site shows the other language's pages: {wrong}"
    assert hidden, f"the index holds both languages, so {query!r} should have hits to hide"
    assert re.search(rf"(?<!\d){len(shown)}(?!\d)", meta), f"the count says {meta!r} for {len(shown)} shown results"
