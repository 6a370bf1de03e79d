"""Nothing was lost when the key/value heads page was split in two (lab/kv-heads: how it works and what it
costs; lab/kv-heads-accuracy: whether sharing costs accuracy), and old links to the sections that moved
still arrive.

tests/fixtures/kv-heads-before-split.json lists what the single page held, per language: its figures (the
SVGs' aria-labels), its tables (header rows), its heading ids, and the first characters of each block
markdown-exec printed as a result. It was generated once, by `inventory` and `results` below, from a
build of the site before the split (main at 6d51375), and is not regenerated: it is what the old page held.
The built pages A and B together must hold every one of them.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from conftest import LANGS, ROOT

BEFORE = ROOT / "tests" / "fixtures" / "kv-heads-before-split.json"
A, B = "lab/kv-heads", "lab/kv-heads-accuracy"


def _clean(s: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", s))).strip()


def _article(html: str) -> str:
    return html.split("<article", 1)[1].split("</article>", 1)[0]


def inventory(html: str) -> dict[str, list[str]]:
    """What a built page holds: figures (SVG aria-labels), table header rows and heading ids."""
    html = _article(html)
    figures = [unescape(m) for m in re.findall(r'<svg role="img" aria-label="([^"]*)"', html)]
    tables = [" | ".join(_clean(th) for th in re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S))
              for head in re.findall(r"<thead>(.*?)</thead>", html, re.S)]
    ids = re.findall(r'<h[1-6] id="([^"]+)"', html)
    return {"figures": sorted(set(figures)), "tables": sorted(set(tables)), "ids": sorted(set(ids))}


def results(html: str) -> list[str]:
    """The first 40 characters of text of each block markdown-exec printed as a result."""
    html = _article(html)
    return sorted({_clean(html[m.end():m.end() + 2000])[:40] for m in re.finditer(r'<div class="result">', html)})


def _page(site: Path, stem: str, lang: str) -> str:
    prefix = "" if lang == "zh" else "en/"
    return (site / prefix / stem / "index.html").read_text(encoding="utf-8")


def _digits(text: str) -> str:
    return re.sub(r"\d", "#", text)


def moved_anchors() -> dict[str, tuple[str, list[str]]]:
    """The redirect hook's table: {page that lost anchors: (relative address of the page that holds them, [anchors])}."""
    from sitebuild.hooks.moved_anchors import MOVED

    return {page: (to, list(ids)) for page, (to, ids) in MOVED.items()}


def test_the_fixture_is_what_the_inventory_reads():
    """The fixture's shape (so that a mistyped key cannot make the test below pass by checking nothing)."""
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    for lang in LANGS:
        assert set(before[lang]) == {"figures", "tables", "ids", "results"}
        assert len(before[lang]["figures"]) >= 5 and len(before[lang]["tables"]) >= 15
        assert {"recall", "mqar", "mqar-results", "mqar-followup", "idea", "mla"} <= set(before[lang]["ids"])


def test_inventory_reads_a_page():
    html = ('<article><h2 id="x">X</h2><svg role="img" aria-label="a &amp; b"></svg>'
            '<table><thead><tr><th>p</th><th><code>q</code></th></tr></thead></table>'
            '<div class="result"><p>printed\n  text</p></div></article>')
    assert inventory(html) == {"figures": ["a & b"], "tables": ["p | q"], "ids": ["x"]}
    assert results(html) == ["printed text"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_two_pages_hold_everything_the_old_page_held(built_site: Path, lang: str):
    before = json.loads(BEFORE.read_text(encoding="utf-8"))[lang]
    pages = [_page(built_site, stem, lang) for stem in (A, B)]
    now = {k: set().union(*(inventory(p)[k] for p in pages)) for k in ("figures", "tables", "ids")}
    now["results"] = set().union(*(results(p) for p in pages))
    # digits masked in figures and printed results: a figure drawn at other sizes or a result measured again
    # keeps its place; a figure or table that went missing does not
    mask = {"figures": _digits, "results": _digits}
    now = {k: {mask.get(k, str)(x) for x in v} for k, v in now.items()}
    before = {k: [mask.get(k, str)(x) for x in v] for k, v in before.items()}
    lost = {k: sorted(set(v) - now[k]) for k, v in before.items() if set(v) - now[k]}
    assert not lost, f"missing from {A} and {B} ({lang}): {lost}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_anchor_that_left_the_page_is_redirected_to_where_it_is(built_site: Path, lang: str):
    """An old link to lab/kv-heads/#mqar-results keeps working: the redirect hook lists every heading id the page lost,
    and each is a heading on the page it points to (and no longer one on the old page)."""
    before = json.loads(BEFORE.read_text(encoding="utf-8"))[lang]["ids"]
    moved = moved_anchors()
    assert f"{A}/" in moved
    to, anchors = moved[f"{A}/"]
    assert to == f"../{Path(B).name}/"
    ids_a, ids_b = (set(inventory(_page(built_site, s, lang))["ids"]) for s in (A, B))
    assert sorted(anchors) == sorted(set(before) - ids_a), "MOVED must list exactly the ids that left the page"
    assert set(anchors) <= ids_b
    assert "location.replace" in _page(built_site, A, lang)  # the hook's script is in the page


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_links_to_an_anchor_that_moved(built_site: Path, lang: str):
    """Links on the site go straight to the new page, not through the redirect."""
    _, anchors = moved_anchors()[f"{A}/"]
    pattern = re.compile(r'href="([^"]*kv-heads/#(?:' + "|".join(map(re.escape, anchors)) + r'))"')
    root = built_site if lang == "zh" else built_site / "en"
    found = {}
    for page in root.rglob("*.html"):
        if lang == "zh" and page.relative_to(built_site).parts[0] == "en":
            continue
        hits = pattern.findall(page.read_text(encoding="utf-8"))
        if hits:
            found[page.relative_to(built_site).as_posix()] = hits
    assert not found, found
