"""Accessibility: axe-core (shipped by the PyPI package axe-playwright-python) on every kind of page,
in the light and the dark palette, and alt text and captions on every figure, in the page's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .pages import kind, page_path, source_pages

CJK = re.compile(r"[\u3400-\u9fff]")
FIGURE = re.compile(r'<figure class="[^"]*\bmha-fig\b[^"]*">(.*?)</figure>', re.S)


def representatives() -> list[tuple[str, str, str]]:
    """(stem, lang, palette): the first page of each kind, Chinese in the light palette and English
    in the dark one, so each kind is seen in both languages and both palettes."""
    firsts: dict[str, str] = {}
    for stem, _ in source_pages():
        firsts.setdefault(kind(stem), stem)
    return [(stem, lang, scheme) for stem in firsts.values() for lang, scheme in (("zh", "light"), ("en", "dark"))]


@pytest.mark.browser
@pytest.mark.parametrize(("stem", "lang", "scheme"), representatives(), ids=lambda v: v)
def test_axe_finds_no_serious_violations(page, server_url, stem, lang, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page.emulate_media(color_scheme=scheme)
    page.goto(server_url + page_path(stem, lang), wait_until="networkidle")
    expected = "slate" if scheme == "dark" else "default"
    assert page.evaluate("() => document.body.dataset.mdColorScheme") == expected
    # Off-screen blocks (content-visibility: auto) keep the styles of their first layout until they
    # come near the screen, which may predate the palette Material applies once its script runs:
    # render them all, as a reader scrolling by would see them, before axe reads their colours.
    page.evaluate("""() => document.querySelectorAll('.md-typeset *').forEach(e => {
        if (getComputedStyle(e).contentVisibility === 'auto') e.style.contentVisibility = 'visible'; })""")
    page.wait_for_timeout(100)
    results = Axe().run(page).response
    bad = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    report = [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])}x): {v['help']} e.g. {v['nodes'][0]['target']}: "
        + "; ".join(c["message"] for c in v["nodes"][0]["any"][:1])
        for v in bad
    ]
    assert not bad, "\n".join(report)


def figure_texts(html: str) -> list[tuple[str, str]]:
    """(alt text, caption) of every figure of the site's own kind."""
    out = []
    for body in FIGURE.findall(html):
        alt = re.search(r'<svg\b[^>]*\baria-label="([^"]*)"', body) or re.search(r'<img\b[^>]*\balt="([^"]*)"', body)
        caption = re.search(r"<figcaption>(.*?)</figcaption>", body, re.S)
        alt_text = alt.group(1).strip() if alt else ""
        caption_text = re.sub(r"<[^>]+>", "", caption.group(1)).strip() if caption else ""
        out.append((alt_text, caption_text))
    return out


def test_every_figure_has_alt_text_and_caption_in_the_page_language(built_site: Path):
    problems = []
    figures = 0
    for stem, lang in source_pages():
        html = (built_site / page_path(stem, lang) / "index.html").read_text(encoding="utf-8")
        for alt, caption in figure_texts(html):
            figures += 1
            where = f"{lang}:{stem} figure {caption[:40]!r}"
            if not alt or not caption:
                problems.append(f"{where}: alt text {alt[:30]!r}, caption {caption[:30]!r}")
            elif lang == "zh" and not CJK.search(alt + caption):
                problems.append(f"{where}: Chinese page, no Chinese in alt text or caption")
            elif lang == "en" and CJK.search(alt + caption):
                problems.append(f"{where}: English page, Chinese in alt text or caption: {alt[:60]!r}")
        for img in re.findall(r"<article\b.*?</article>", html, re.S):
            for tag in re.findall(r"<img\b[^>]*>", img):
                if not re.search(r'\balt="[^"]+"', tag) and 'role="presentation"' not in tag:
                    problems.append(f"{lang}:{stem}: image without alt text: {tag[:100]}")
    assert figures > 0
    assert not problems, "\n".join(problems)


def test_figure_check_catches_missing_alt_text():
    good = '<figure class="mha-fig"><svg role="img" aria-label="头 0 的热力图"></svg><figcaption>图 1</figcaption></figure>'
    bad = '<figure class="mha-fig"><svg></svg></figure>'
    assert figure_texts(good) == [("头 0 的热力图", "图 1")]
    assert figure_texts(bad) == [("", "")]


@pytest.mark.parametrize(("stem", "lang", "scheme"), representatives(), ids=lambda v: v)
def test_axe_at_phone_width_as_served(page, server_url, stem, lang, scheme):
    """At 412 px code and tables scroll, and off-screen blocks are still placeholders (content-visibility)
    and unmounted code (Material's content.lazy): nothing is forced here, the page is audited as a phone
    opens it, the way Lighthouse does."""
    from axe_playwright_python.sync_playwright import Axe

    page.set_viewport_size({"width": 412, "height": 823})
    page.emulate_media(color_scheme=scheme)
    page.goto(server_url + page_path(stem, lang), wait_until="networkidle")
    # site.js names the search dialog and marks scrolling boxes focusable when the browser is idle
    page.wait_for_function("() => document.documentElement.dataset.scrollChecked")
    results = Axe().run(page).response
    bad = [f"{v['id']} ({len(v['nodes'])}x) e.g. {v['nodes'][0]['target']}" for v in results["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)
