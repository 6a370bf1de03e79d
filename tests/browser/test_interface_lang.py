"""The interface speaks the page's language (sitebuild/hooks/interface_lang.py, mkdocs.yml's palette
names and languages[en].theme): heading anchors' tooltip, the palette toggle's names, the 404 page.

Screenshots of each (desktop and phone) go to test-artifacts/screenshots/interface-*.png.
"""

from __future__ import annotations

import re

import pytest
from .conftest import ARTIFACTS, DESKTOP, PHONE

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "screenshots"

EXPECTED = {
    "zh": {"permalink": "永久链接", "toggles": {"切换到深色模式", "切换到浅色模式"}, "404": "找不到这个页面",
           "home_link": "回到首页"},
    "en": {"permalink": "Permanent link", "toggles": {"Switch to dark mode", "Switch to light mode"},
           "404": "Page not found", "home_link": "Go to the home page"},
}
HAN = re.compile(r"[\u4e00-\u9fff]")

# Material names each palette option twice: the radio input's aria-label (what a screen reader says)
# and its label's hint (data-title until hovered, sitebuild/hooks/site.py; then title).
TOGGLES_JS = """() => {
  const form = document.querySelector("form[data-md-component=palette]");
  return {
    labels: [...form.querySelectorAll("input")].map((i) => i.getAttribute("aria-label")),
    hints: [...form.querySelectorAll("label")].map((l) => l.getAttribute("data-title") || l.getAttribute("title")),
  };
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("path", ["", "faq/", "article/3-pytorch/"])
def test_anchor_tooltip_and_palette_names_in_the_pages_language(page, server_url, lang, path):
    want = EXPECTED[lang]
    page.goto(server_url + ("en/" if lang == "en" else "") + path, wait_until="networkidle")
    assert page.evaluate("document.documentElement.lang") == lang
    titles = set(page.eval_on_selector_all("a.headerlink", "els => els.map((a) => a.title)"))
    assert titles == {want["permalink"]}, f"heading anchors' tooltips on {lang} {path!r}: {titles}"
    toggles = page.evaluate(TOGGLES_JS)
    assert set(toggles["labels"]) == want["toggles"] == set(toggles["hints"]), toggles
    # the hint a reader sees on hovering the visible toggle
    visible = page.locator("form[data-md-component=palette] label:visible").first
    visible.hover()
    assert visible.get_attribute("title") in want["toggles"]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_404_page_in_its_language(page, server_url, lang, size):
    """The root 404.html is the default language's (Chinese) and offers the English home too;
    /en/404.html is English. Both links lead to a home page that exists."""
    want = EXPECTED[lang]
    page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
    page.goto(server_url + ("en/" if lang == "en" else "") + "404.html", wait_until="networkidle")
    assert page.evaluate("document.documentElement.lang") == lang
    heading = page.locator("article h1").inner_text()
    assert want["404"] in heading and "Not found" not in heading
    body = page.locator("article").inner_text()
    if lang == "en":
        assert not HAN.search(body), body
    home = page.get_by_role("link", name=want["home_link"], exact=True)
    assert home.get_attribute("href") == ("/en/" if lang == "en" else "/")
    english = page.locator('article a[hreflang="en"]')
    assert english.count() == (1 if lang == "zh" else 0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"interface-404-{lang}-{size}.png"))
    home.click()
    page.wait_for_load_state("networkidle")
    assert page.url == server_url + ("en/" if lang == "en" else "")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshot_anchor_and_toggle_hints(page, server_url, lang, size):
    """Screenshots of a heading's anchor and the palette toggle's hint, hovered, for a person to look at."""
    page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
    page.goto(server_url + ("en/" if lang == "en" else "") + "faq/", wait_until="networkidle")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("form[data-md-component=palette] label:visible").first.hover()
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / f"interface-toggle-{lang}-{size}.png"))
    heading = page.locator("article h2").first
    heading.scroll_into_view_if_needed()
    heading.hover()
    anchor = heading.locator("a.headerlink")
    anchor.hover()
    page.wait_for_timeout(200)
    assert anchor.is_visible()
    page.screenshot(path=str(SHOTS / f"interface-anchor-{lang}-{size}.png"))
