"""§4 became two pages: article/4-what-if (the source's three what-ifs) and article/4b-second-round (the second
round). Nothing the old page showed may be lost, and old links to an anchor that moved must reach it.

The old page's figures, table header rows, printed outputs (first lines) and heading ids were recorded once,
from a build of the last commit before the split, into tests/fixtures/split_s4/before.json by
tests/fixtures/split_s4/make_before.py (kept for the record; it cannot run again, the old page is gone).
Figures are compared by their accessible label (the figure ids recorded beside them hash the plotted data,
so a legitimate re-measurement would change them); printed lines with every run of digits masked, for the
same reason.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import LANGS

from sitebuild.hooks.moved_anchors import MOVED

BEFORE = json.loads((Path(__file__).parent / "fixtures/split_s4/before.json").read_text(encoding="utf-8"))
A, B = "article/4-what-if", "article/4b-second-round"

# Printed lines whose words changed on purpose in the split: the old first line -> the new one (digits masked
# alike). The sign-flip count covers the second round's comparisons on both pages, no longer on "this page".
REWORDED = {
    "本页第二轮的各组比较和单次比较（共 7 处）里，只用 t 检验判出 16 处差别；加上符号翻转检验，其中 16 处仍然成":
        "第二轮在这一页和下一页的各组比较和单次比较（共 7 处）里，只用 t 检验判出 16 处差别",
    "Across this page's second-round families and single comparis":
        "Across the second round's families and single comparisons, on this page and the next",
    # exercise 1's sentence, now with an all / some / none branch (no "10 个里 10 个")
    "两个头的模型答不到 90% 的（种子，偏移）共 10 个；换成同一种子的四头模型，答到 90% 以上的有 10 个。":
        "两个头的模型答不到 90% 的（种子，偏移）共 10 个；换成同一种子的四头模型，这些全都答到了 90% 以上。",
}


def _page(site: Path, lang: str, stem: str) -> str:
    page = (site / ("" if lang == "zh" else "en") / stem / "index.html").read_text(encoding="utf-8")
    return page[page.index("<article"):page.index("</article>")]


def _text(article: str) -> str:
    import html

    article = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", article, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", article)))


def _masked(text: str) -> str:
    return re.sub(r"\d+", "#", text)


def _table_heads(article: str) -> list[str]:
    import html

    heads = []
    for thead in re.findall(r"<thead>(.*?)</thead>", article, re.S):
        cells = [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", c))).strip()
                 for c in re.findall(r"<th[^>]*>(.*?)</th>", thead, re.S)]
        heads.append(" | ".join(cells))
    return heads


def _heading_ids(article: str) -> list[str]:
    return re.findall(r'<h[1-6] id="([^"]+)"', article)


@pytest.fixture(scope="module")
def pages(built_site: Path) -> dict:
    return {(lang, stem): _page(built_site, lang, stem) for lang in LANGS for stem in (A, B)}


def test_the_fixture_is_what_the_old_page_showed():
    """The record holds every kind of piece, the same count in both languages (the pages had the same code)."""
    for kind in ("figures", "tables", "outputs", "headings"):
        assert len(BEFORE["zh"][kind]) == len(BEFORE["en"][kind]) > 5, kind
    assert BEFORE["zh"]["headings"] == BEFORE["en"]["headings"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_two_pages_show_everything_the_old_one_did(pages, lang):
    both = pages[lang, A] + pages[lang, B]
    labels = {m for m in re.findall(r'<svg role="img" aria-label="([^"]*)"', both)}
    import html

    labels = {html.unescape(x) for x in labels}
    lost = [f["alt"][:60] for f in BEFORE[lang]["figures"] if f["alt"] not in labels]
    assert not lost, f"figures of the old §4 on neither page: {lost}"

    heads = Counter(_table_heads(both))
    lost = [h for h, n in Counter(BEFORE[lang]["tables"]).items() if heads[h] < n]
    assert not lost, f"tables of the old §4 on neither page (or fewer of them): {lost}"

    text = _masked(_text(both))
    lost = [line for line in BEFORE[lang]["outputs"] if _masked(REWORDED.get(line, line)) not in text]
    assert not lost, f"printed outputs of the old §4 on neither page: {lost}"

    ids = set(_heading_ids(both))
    lost = [i for i in BEFORE[lang]["headings"] if i not in ids]
    assert not lost, f"headings of the old §4 on neither page: {lost}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_moved_anchors_are_the_ones_page_b_holds(pages, built_site, lang):
    """The redirect on §4 names exactly the old headings that are no longer on §4, each one a heading of 4b,
    and sends them to 4b's built page."""
    to, moved = MOVED[A + "/"]
    on_a, on_b = set(_heading_ids(pages[lang, A])), set(_heading_ids(pages[lang, B]))
    assert set(moved) == set(BEFORE[lang]["headings"]) - on_a
    assert set(moved) <= on_b
    every_id_on_a = set(re.findall(r'\bid="([^"]+)"', pages[lang, A]))
    assert not set(moved) & every_id_on_a, "a moved anchor still names something on §4"
    base = built_site / ("" if lang == "zh" else "en") / A
    assert (base / to / "index.html").resolve() == (built_site / ("" if lang == "zh" else "en") / B /
                                                    "index.html").resolve()
    # the page carries the script, with the list and the target
    full = (base / "index.html").read_text(encoding="utf-8")
    head = full[:full.index("</head>")]
    script = re.search(r"<script>\(function\(\)\{var m=(\[[^\]]*\]);.*?new URL\((\"[^\"]+\")", head)
    assert script, "no moved-anchor redirect in §4's <head>"
    assert json.loads(script.group(1)) == list(moved) and json.loads(script.group(2)) == to


def test_page_b_says_what_it_assumes_from_a():
    """A reader who lands on 4b from a search is told, before anything else, where the task and model are."""
    from conftest import ROOT

    for lang in LANGS:
        md = (ROOT / "docs" / f"{B}.{lang}.md").read_text(encoding="utf-8")
        intro = md.split("\n\n")[1]
        assert "(4-what-if.md#task)" in intro and "(4-what-if.md#model)" in intro, lang
