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

from .pages import search_and_scroll

pytestmark = pytest.mark.browser


def search(page, url: str, query: str) -> list[str]:
    """Type `query` into the search box of `url`, scroll the results to the end as a reader would, and
    return the result links (site-relative paths)."""
    search_and_scroll(page, url, query)
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
    text,
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


# What a reader types, as typed (sitebuild/hooks/search_terms.py and the [search] words of
# sitebuild/terms.toml): a term jieba alone cut (快速路径, 查询头), a word the pages write only as
# KV 缓存 (键值缓存), and words that occur inside compound terms kept whole (掩码 in 因果掩码, 嵌入 in
# 位置嵌入). Each must find every Chinese page whose indexed text uses it.
READER_QUERIES = {
    "快速路径": r"快速路径",
    "查询头": r"查询头",
    "键值缓存": r"键值缓存|KV\s*缓存",
    "掩码": r"掩码",
    "嵌入": r"嵌入",
}


def zh_pages_using(built_site, pattern: str) -> set[str]:
    """The Chinese pages (site-relative paths) whose search-index title or text matches `pattern`."""
    import json

    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    found = set()
    for doc in docs:
        path = re.sub(r"#.*$", "", doc["location"])
        if path.startswith("en/"):
            continue
        if re.search(pattern, (doc["title"] + " " + doc["text"]).replace("\u200b", "")):
            found.add(path)
    return found


@pytest.mark.parametrize("query", list(READER_QUERIES))
def test_search_finds_what_a_reader_types(page, server_url, built_site, query):
    expected = zh_pages_using(built_site, READER_QUERIES[query])
    assert expected, f"no Chinese page uses {query!r}: the test needs a new word"
    hits = search(page, server_url, query)
    missing = expected - set(hits)
    assert not missing, f"searching {query!r} missed {sorted(missing)} (found {sorted(set(hits))})"
    assert not hits[0].startswith("en/"), f"best hit for {query!r} is English: {hits[:3]}"


def test_compound_parts_found_where_only_the_compound_is_written(page, server_url, built_site):
    """The part search must reach pages that write 因果掩码 / 位置嵌入 but never 掩码 / 嵌入 alone: the case
    the `parts` field exists for (a page with the word alone would be found without it)."""
    import json

    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    checked = 0
    for part, compound in (("掩码", "因果掩码"), ("嵌入", "位置嵌入")):
        only_compound = [d for d in docs if not d["location"].startswith("en/")
                         and compound in d["text"] and part not in d["text"].replace(compound, "")]
        for doc in only_compound:
            assert part in doc.get("parts", "").split("\u200b"), doc["location"]
            checked += 1
    assert checked, "no section writes a compound without its part: nothing left to check"
    # and the browser finds one such section's page
    sample = next(d for d in docs if not d["location"].startswith("en/") and "因果掩码" in d["text"]
                  and "掩码" not in d["text"].replace("因果掩码", ""))
    assert re.sub(r"#.*$", "", sample["location"]) in search(page, server_url, "掩码")


# The whole query, as a reader types it (sitebuild/hooks/search_query.py): Material 9.8.2's worker cut a
# Chinese query into index words without ever trying the one ending at its last character, so 预训练 was
# searched as 预*, 前馈 as 前*, 快速路径 as 快速*. For each word: the pages that are about it (the page
# that introduces or explains the concept; where several do, any of them), one of which must come first,
# with every occurrence of the word in that result highlighted whole (a highlight may be longer, such as
# 前馈网络 for 前馈, never shorter).
WHOLE_QUERIES = {
    "快速路径": {"article/3-pytorch/", "lab/performance/", "faq/"},  # §3 introduces it; the FAQ and lab test it
    "查询头": {"lab/kv-heads/"},
    "键值缓存": {"lab/kv-heads/"},
    "掩码": {"article/3-pytorch/"},  # masks are §3's subject
    "归纳头": {"lab/induction-heads/"},
    "多头注意力": {"", "article/2-divide-and-conquer/"},  # the home page's question, §2's formula
    "缩放点积": {"article/2-divide-and-conquer/", "article/3-pytorch/"},  # §2 writes the formula, §3 the code
    "注意力分布": {"article/1-single-head/", "article/2-divide-and-conquer/"},  # one distribution per head
    "前馈": {"article/4b-second-round/"},  # the only page that trains with and without a feed-forward layer
    "预训练": {"", "lab/real-model/"},  # the home figure and the lab read a pre-trained model
    "相对位置": {"article/4-what-if/", "faq/"},  # §4's offset task; FAQ Q17 on positions
}


def standalone_occurrences(text: str, query: str) -> int:
    """How often `query` occurs in `text` as itself: not inside a compound the index keeps whole that does
    not start with it (掩码 in 因果掩码 is found through the compound's parts, and the highlight marks the
    compound's own word, which the worker cannot split)."""
    from sitebuild.terms import jieba_words

    text = text.replace("\u200b", "")
    inside = [w for w in jieba_words() if query in w and not w.startswith(query)]
    return text.count(query) - sum(text.count(w) * w.count(query) for w in inside)


# Known open: 注意力分布 is searched whole and highlighted whole, but the errata page (which repeats box
# titles with the word in them) still comes first, even at search boost 0.5. Strict: passes -> fix this list.
OPEN = {"注意力分布": "the errata page still ranks first for 注意力分布"}


@pytest.mark.parametrize("query", [pytest.param(q, marks=pytest.mark.xfail(strict=True, reason=OPEN[q])) if q in OPEN
                                   else q for q in WHOLE_QUERIES])
def test_search_keeps_the_whole_query(page, server_url, query):
    hit = top_result(page, server_url, query)
    expected = WHOLE_QUERIES[query]
    assert hit["path"] in expected, f"best hit for {query!r} is {hit['path']!r}, expected one of {sorted(expected)}"
    occurrences = standalone_occurrences(hit["text"], query)
    assert occurrences > 0 and hit["whole"] >= occurrences, (
        f"{query!r} occurs {occurrences} times in the best hit but is highlighted whole "
        f"{hit['whole']} times: {hit['marks']}")
    short = [m for m in hit["marks"] if m in query and m != query]
    assert not short, f"part of {query!r} highlighted on its own in the best hit: {short}"
