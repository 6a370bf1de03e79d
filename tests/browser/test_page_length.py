"""Long pages, as a phone shows them: at 390x844, with every box closed as a reader finds it, a page is at most so
many screens tall (``document.body.scrollHeight / 844`` with every block drawn).

The limit depends on the kind of page (LIMITS: an article 20 screens, a lab 25). PAGES maps each page held to a
limit (its kind's) to that limit, in both languages; a page joins it once it meets its limit. Blocks far below the
screen are not drawn until the reader nears them (content-visibility); until then each counts at its estimated
height (sitebuild/hooks/chunks.py), which errs high on purpose, by a factor of about chunks.SAFETY. So the page's
length is measured with every block drawn, the length a reader scrolls through; the height once loaded (what
the scroll bar first shows) is recorded beside it and held to the limit times chunks.SAFETY.

The same visit counts the words of prose a reader sees on arrival: the text the browser renders in the article
(closed boxes count their title only; a code annotation counts only once opened), without code blocks (`pre`),
figures (`svg`), tables (printed output) and the hidden copies of formulas. Inline code and printed sentences
are prose and count. English words and Chinese characters are counted as snippets/reading.py counts them
(its `_WORD` and `_CJK` patterns); a page's words are its English words plus its Chinese characters at the
module's reading rates (`EN_WORDS_PER_MIN / ZH_CHARS_PER_MIN`, two characters a word), so the limit for an
article (and the FAQ, read as one), WORD_LIMIT = 4,500 words, is the same 22.5 minutes of prose in both
languages: 9,000 Chinese characters on a zh page, less two for each Latin word on it.
The numbers go to test-artifacts/page-length.md.
"""

from __future__ import annotations

import pytest
from conftest import LANGS

from sitebuild.hooks.chunks import SAFETY

from .conftest import ARTIFACTS, PHONE
from .pages import kind, page_path

pytestmark = pytest.mark.browser
LIMITS = {"article": 20, "faq": 20, "lab": 25}  # screens of 844 px at 390 px wide, per kind of page
PAGES = {  # page -> screens; only pages that meet their limit
    "lab/kv-heads": LIMITS["lab"],
    "lab/real-model": LIMITS["lab"],
    "lab/real-decoder": LIMITS["lab"],
    "lab/performance": LIMITS["lab"],
    "article/4b-second-round": LIMITS["article"],
    "article/3-pytorch": LIMITS["article"],
    "lab/kv-heads-accuracy": LIMITS["lab"],
    "lab/induction-heads": LIMITS["lab"],
    "faq": LIMITS["faq"],
    "article/1-single-head": LIMITS["article"],
    "article/2-divide-and-conquer": LIMITS["article"],
    "article/4-what-if": LIMITS["article"],
}
WORD_LIMIT = 4500  # words of prose in view on an article or the FAQ (a zh page: characters / 2 + Latin words)
WORDY = {"article", "faq"}  # the kinds of page WORD_LIMIT holds
MEASURED: dict[tuple[str, str], dict] = {}

SCREENS_JS = """() => ({
  screens: document.body.scrollHeight / 844,
  open: [...document.querySelectorAll("article details[open]")].map(d => d.querySelector("summary").textContent.trim()),
  closed: document.querySelectorAll("article details:not([open])").length,
})"""
DRAW_ALL_CSS = "* { content-visibility: visible !important; }"
# The prose in view: text nodes of the article that the browser renders (a closed box's body is not rendered),
# outside code blocks, figures, tables and formulas' hidden copies.
PROSE_JS = """() => {
  const skip = "pre, svg, table, script, style, .katex-mathml, mjx-assistive-mml, .md-annotation__index";
  const walker = document.createTreeWalker(document.querySelector("article"), NodeFilter.SHOW_TEXT);
  const parts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skip) || !el.checkVisibility({visibilityProperty: true})) continue;
    const closed = el.closest("details:not([open])");
    if (closed && !el.closest("summary")) continue;
    parts.push(node.textContent);
  }
  return parts.join(" ");
}"""


@pytest.fixture(scope="module")
def report():
    yield MEASURED
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lines = ["Height of a page on a phone (390x844), every box closed: `document.body.scrollHeight / 844` with every "
             "block drawn (the length held to the limit) and once loaded (blocks far below the screen at their "
             "estimated height, held to the limit x chunks.SAFETY).", "",
             "| page | language | screens once loaded | screens, every block drawn | closed boxes | limit | "
             "English words | Chinese characters | words at the reading rates |",
             "|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    for (stem, lang), m in MEASURED.items():
        lines.append(f"| {stem} | {lang} | {m['screens']:.1f} | {m['drawn']:.1f} | {m['closed']} | {m['limit']} | "
                     f"{m['words']} | {m['chars']} | {word_equivalent(m['words'], m['chars']):.0f} |")
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
    words, chars = prose_count(page.evaluate(PROSE_JS))
    page.add_style_tag(content=DRAW_ALL_CSS)
    drawn = page.evaluate("() => document.body.scrollHeight / 844")
    limit = PAGES[stem]
    report[stem, lang] = {**m, "drawn": drawn, "limit": limit, "words": words, "chars": chars}
    assert not m["open"], f"boxes open on arrival: {m['open']}"
    assert m["closed"] > 0 and drawn > 2, m  # the page itself, with its folded boxes, not an empty one
    assert drawn <= limit, (f"/{page_path(stem, lang)} is {drawn:.1f} screens tall on a phone with every block drawn "
                            f"({m['screens']:.1f} once loaded); the limit for a {kind(stem)} page is {limit}")
    assert m["screens"] <= limit * SAFETY, (f"/{page_path(stem, lang)} is {m['screens']:.1f} screens tall once loaded, "
                                            f"past {limit} x chunks.SAFETY: the blocks' guessed heights err too high")
    if kind(stem) in WORDY:
        assert word_equivalent(words, chars) <= WORD_LIMIT, (
            f"/{page_path(stem, lang)} shows {words} English words and {chars} Chinese characters of prose on arrival, "
            f"{word_equivalent(words, chars):.0f} words at the reading rates; the limit is {WORD_LIMIT}")


def prose_count(text: str) -> tuple[int, int]:
    """(English words, Chinese characters) of a text, as snippets.reading counts them."""
    from snippets.reading import _CJK, _WORD

    return len(_WORD.findall(_CJK.sub(" ", text))), len(_CJK.findall(text))


def word_equivalent(words: int, chars: int) -> float:
    """English words plus Chinese characters at the reading module's rates (a character is half a word)."""
    from snippets.reading import EN_WORDS_PER_MIN, ZH_CHARS_PER_MIN

    return words + chars * EN_WORDS_PER_MIN / ZH_CHARS_PER_MIN


def test_prose_is_counted_as_the_reading_module_counts_it():
    assert prose_count("Multi-head attention, 多头注意力 x2") == (3, 5)
    assert word_equivalent(100, 9000) == 4600
