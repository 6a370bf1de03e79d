"""Rendered notebooks in a real browser: accessible in both palettes, and the download is a notebook."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser

CHAPTER = "article/3-pytorch"


@pytest.mark.parametrize(("lang", "scheme"), [("zh", "light"), ("en", "dark")])
def test_notebook_page_has_no_serious_axe_violations(page, server_url, lang, scheme):
    from axe_playwright_python.sync_playwright import Axe

    prefix = "" if lang == "zh" else f"{lang}/"
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{server_url}{prefix}notebooks/{CHAPTER}/", wait_until="networkidle")
    assert page.locator(".jupyter-wrapper .jp-OutputArea-output").count() > 0
    results = Axe().run(page).response
    bad = [f"{v['id']} ({v['impact']}): {v['help']} e.g. {v['nodes'][0]['target']}"
           for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_download_link_serves_the_notebook(page, server_url, lang):
    prefix = "" if lang == "zh" else f"{lang}/"
    page.goto(f"{server_url}{prefix}{CHAPTER}/", wait_until="networkidle")
    link = page.locator("a.notebook-link[download]")
    assert link.count() == 1
    href = link.get_attribute("href")
    response = page.request.get(page.url + href)
    assert response.ok
    nb = json.loads(response.body())
    assert nb["nbformat"] == 4 and nb["metadata"]["mha"]["lang"] == lang
    # the rendered page links back to the chapter
    page.locator("a.notebook-link:not([download])").click()
    page.wait_for_load_state("networkidle")
    assert page.url == f"{server_url}{prefix}notebooks/{CHAPTER}/"
    page.locator(".notebook-bar a").first.click()
    page.wait_for_load_state("networkidle")
    assert page.url == f"{server_url}{prefix}{CHAPTER}/"
