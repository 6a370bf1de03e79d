"""Every page, in both languages, in a real browser: it loads cleanly and offline, its figures and
formulas are drawn, the language switcher keeps the page and the anchor, and a phone screen does
not scroll sideways. A screenshot of each page goes to test-artifacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE, watch
from .pages import MEASURE_JS, OTHER, OVERFLOW_JS, REVEAL_JS, built_pages, page_path, source_pages

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "screenshots"
TABS = 4  # pages loaded at once in test_pages_outside_docs


def shot(page, stem: str, lang: str, size: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = "home" if stem == "index" else stem.replace("/", "-")
    page.screenshot(path=str(SHOTS / f"{lang}-{name}-{size}.png"))


def check_drawn(page) -> dict:
    """Figures and formulas exist with a non-zero size once their tab or <details> is opened."""
    page.evaluate(REVEAL_JS, "figure.mha-fig, article math")
    result = page.evaluate(MEASURE_JS)
    assert not result["problems"], result["problems"]
    return result


def check_phone(page) -> None:
    page.set_viewport_size(PHONE)
    # Every block drawn, as it is once a reader scrolls to it: an undrawn block (content-visibility)
    # can keep the layout of the wider screen it was last drawn at, which no reader ever sees.
    page.add_style_tag(content=".mha-chunk, .mha-chunk * { content-visibility: visible !important; }")
    problems = page.evaluate(OVERFLOW_JS)
    assert not problems, f"at {PHONE['width']}x{PHONE['height']}: {problems}"


def first_anchor(html_file: Path) -> str | None:
    m = re.search(r'<h[23] id="([^"]+)"', html_file.read_text(encoding="utf-8"))
    return m.group(1) if m else None


def switch_language(page, server_url: str, stem: str, lang: str, anchor: str | None) -> None:
    """Use the header's language menu; land on the same page, at the same anchor, in the other language."""
    other = OTHER[lang]
    page.set_viewport_size(DESKTOP)
    page.locator(".md-header .md-select").hover()
    link = page.locator(f".md-header .md-select a[hreflang='{other}']")
    with page.expect_navigation(wait_until="domcontentloaded"):
        link.click()
    expected = server_url + page_path(stem, other) + (f"#{anchor}" if anchor else "")
    assert page.url == expected, f"the {other} link led to {page.url}, expected {expected}"
    assert page.evaluate("() => document.documentElement.lang") == other
    if anchor:
        assert page.locator(f"[id='{anchor}']").count() == 1, f"#{anchor} missing on the {other} page"


@pytest.mark.parametrize(("stem", "lang"), source_pages(), ids=lambda v: v)
def test_page(page, server_url, built_site, stem, lang):
    path = page_path(stem, lang)
    anchor = first_anchor(built_site / path / "index.html")
    # arrive at a section, the way a reader following a link would
    page.goto(server_url + path + (f"#{anchor}" if anchor else ""), wait_until="networkidle")
    assert page.evaluate("() => document.documentElement.lang") == lang
    shot(page, stem, lang, "desktop")
    check_drawn(page)
    check_phone(page)
    shot(page, stem, lang, "phone")
    switch_language(page, server_url, stem, lang, anchor)


def test_pages_outside_docs(page, page_log, server_url, built_site):
    """Pages the build makes without a Markdown source in docs/ (e.g. rendered notebooks) load cleanly
    too. They are opened a few tabs at a time, so their waits for a quiet network overlap."""
    known = {page_path(stem, lang) for stem, lang in source_pages()}
    extra = [p for p in built_pages(built_site) if p not in known]
    assert extra, "expected generated pages (the rendered notebooks) besides the docs/ pages"
    for start in range(0, len(extra), TABS):
        tabs = []
        for path in extra[start : start + TABS]:
            tab = watch(page.context.new_page(), page_log)
            tab.goto(server_url + path, wait_until="commit")
            tabs.append(tab)
        for tab in tabs:
            tab.wait_for_load_state("networkidle")
            check_drawn(tab)
            check_phone(tab)
            tab.close()
    print(f"{len(extra)} generated pages checked: {extra}")


def test_header_hint_shows_on_hover(page, server_url):
    """A header control's hint (data-title in the HTML) becomes its title when the pointer reaches it."""
    page.goto(server_url, wait_until="networkidle")
    toggle = page.locator(".md-header label.md-header__button[data-title]:visible").first
    assert toggle.get_attribute("title") is None
    toggle.hover()
    assert toggle.get_attribute("title") == toggle.get_attribute("data-title") != ""
    assert page.locator(".md-tooltip").count() == 0  # no themed tooltip was built for it


def test_phone_drawer_draws_its_links_when_opened(page, server_url):
    """On a phone the navigation drawer's links are skipped (content-visibility) while it is closed,
    and every one of them is there once it is opened."""
    page.set_viewport_size(PHONE)
    page.goto(server_url + "en/faq/", wait_until="networkidle")
    visible = "() => [...document.querySelectorAll('.md-sidebar--primary a')].filter(a => a.checkVisibility()).length"
    total = page.locator(".md-sidebar--primary a").count()
    assert total > 10 and page.evaluate(visible) == 0
    page.click("label.md-header__button[for='__drawer']")
    page.wait_for_timeout(400)  # the slide-in takes 250 ms
    assert page.evaluate(visible) > 10
    page.locator(".md-sidebar--primary a[href='../roadmap/']").first.click()
    page.wait_for_load_state("domcontentloaded")
    assert page.url == server_url + "en/roadmap/"


@pytest.mark.parametrize("width", [DESKTOP["width"], PHONE["width"]])
def test_block_placeholders_err_high_but_not_far(page, server_url, width):
    """Text between headings is drawn only near the screen (sitebuild/hooks/chunks.py); until then it
    holds a height guessed at build time, one for wide screens and one for phones. On every page, at
    1280 px and on a phone, each guess is between 1x and 2.5x the drawn height: the scroll bar and
    jumps to an anchor are about right before anything is drawn, and an undrawn block never overlaps
    the next one when a tool lays it out (axe then reported a collapsed answer's summary as covered)."""
    page.set_viewport_size({"width": width, "height": 900})
    off, count = [], 0
    for stem, lang in source_pages():
        page.goto(server_url + page_path(stem, lang), wait_until="load")
        page.add_style_tag(content=".mha-chunk, .mha-chunk * { content-visibility: visible !important; }")
        sizes = page.evaluate("""() => [...document.querySelectorAll('.mha-chunk')].map(c => [
            parseFloat(getComputedStyle(c).containIntrinsicHeight.replace('auto ', '')),
            c.getBoundingClientRect().height, c.innerText.slice(0, 50)])""")
        count += len(sizes)
        off += [f"{page_path(stem, lang)} guessed {e:.0f} px, drawn {h:.0f} px: {text!r}"
                for e, h, text in sizes if h > 50 and not 1 <= e / h <= 2.5]
    assert count > 150
    assert not off, "\n".join(off)
