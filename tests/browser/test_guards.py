"""The browser checks themselves: each one fails when it should."""

from __future__ import annotations

import pytest

from .conftest import PHONE
from .pages import MEASURE_JS, OVERFLOW_JS, REVEAL_JS

pytestmark = pytest.mark.browser


def test_page_records_errors_failed_and_offsite_requests(page, page_log, server_url):
    page.goto(server_url, wait_until="networkidle")
    assert page_log.problems() == []
    page.evaluate("() => console.error('drill: console error')")
    # .invalid never resolves, and the route guard aborts the request before it is sent anyway
    page.evaluate("() => fetch('http://offsite.invalid/drill.js').catch(() => null)")
    page.evaluate("(url) => fetch(url).catch(() => null)", server_url + "no-such-file.js")
    page.wait_for_load_state("networkidle")
    problems = "\n".join(page_log.problems())
    assert "console error: drill: console error" in problems
    assert "request left 127.0.0.1: GET http://offsite.invalid/drill.js" in problems
    assert f"failed request: GET {server_url}no-such-file.js: HTTP 404" in problems
    page_log.clear()  # provoked on purpose; the fixture would otherwise fail the test


WIDE = '<div style="width: 900px; height: 10px">wide</div>'


def test_overflow_check_tells_a_scrolling_box_from_a_page_that_scrolls(page):
    page.set_viewport_size(PHONE)
    page.set_content(f"<article>{WIDE}</article>")
    problems = page.evaluate(OVERFLOW_JS)
    assert any("document scrolls sideways" in p for p in problems)
    assert any("<div" in p and "sticks out" in p for p in problems)
    page.set_content(f'<article><div style="overflow-x: auto">{WIDE}</div></article>')
    assert page.evaluate(OVERFLOW_JS) == []


def test_figure_check_finds_empty_and_hidden_figures(page):
    page.set_content(
        '<article><figure class="mha-fig"><svg width="0" height="0"></svg><figcaption>empty</figcaption></figure>'
        '<figure class="mha-fig" style="visibility: hidden"><svg width="10" height="10"></svg>'
        "<figcaption>hidden</figcaption></figure><math></math></article>"
    )
    page.evaluate(REVEAL_JS, "figure.mha-fig, article math")
    problems = "\n".join(page.evaluate(MEASURE_JS)["problems"])
    assert "figure of size 0x0: empty" in problems
    assert "figure not visible: hidden" in problems
    assert "math of size" in problems
