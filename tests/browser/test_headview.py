"""The interactive head view on the real-model page, in a real browser (light and dark palettes)."""

from __future__ import annotations

import numpy as np
import pytest

from snippets.bert.viewer import VIEW_TEXTS, decode_weights, viewer_data

pytestmark = pytest.mark.browser

LAYER, HEAD, QUERY = 1, 3, 12  # any cell works: the expected answer is read from the data


@pytest.fixture(scope="module")
def data():
    return viewer_data(VIEW_TEXTS)


def open_view(page, url: str, scheme: str = "light"):
    page.emulate_media(color_scheme=scheme)
    page.goto(url)
    view = page.locator(".headview")
    view.scroll_into_view_if_needed()
    # the viewer fetches its data when it comes near the screen, then draws itself
    page.wait_for_selector(".headview[data-state='ready']")
    return view


def test_hover_shows_where_a_token_attends(page, server_url, data):
    view = open_view(page, server_url + "lab/real-model/")
    tokens = data["texts"][0]["tokens"]
    buttons = view.locator(".headview-queries button")
    assert buttons.count() == len(tokens)
    assert view.locator(".headview-nojs").count() == 0
    # Selects are labelled (label[for] -> select) so assistive technology can name them.
    for name in ("文本", "层", "头"):
        assert view.get_by_label(name, exact=True).count() == 1
    view.get_by_label("层", exact=True).select_option(str(LAYER))
    view.get_by_label("头", exact=True).select_option(str(HEAD))
    buttons.nth(QUERY).hover()

    row = decode_weights(data["texts"][0])[LAYER, HEAD, QUERY]
    top = int(np.argmax(row))
    status = view.locator(".headview-status").inner_text()
    assert status.startswith(f"“{tokens[QUERY]}” 的注意力")
    assert f"“{tokens[top]}” ({round(row[top] * 100)}%)" in status
    assert buttons.nth(QUERY).get_attribute("aria-pressed") == "true"
    # One line per key with at least 1% of the weight; the key's cell carries the weight.
    assert view.locator(".headview-lines line").count() == int((row >= 0.01).sum())
    w = view.locator(".headview-keys .headview-token").nth(top).evaluate("e => e.style.getPropertyValue('--w')")
    assert float(w) == pytest.approx(row[top], abs=1e-3)


def test_keyboard_focus_and_arrows(page, server_url, data):
    view = open_view(page, server_url + "en/lab/real-model/")
    tokens = data["texts"][0]["tokens"]
    buttons = view.locator(".headview-queries button")
    buttons.nth(3).focus()
    assert view.locator(".headview-status").inner_text().startswith(f"“{tokens[3]}” attends most to:")
    page.keyboard.press("ArrowDown")
    assert buttons.nth(4).evaluate("e => e === document.activeElement")
    assert view.locator(".headview-status").inner_text().startswith(f"“{tokens[4]}” attends most to:")
    page.keyboard.press("Escape")
    assert view.locator(".headview-status").inner_text().startswith("Attention of all tokens")
    # Another text rebuilds the token columns.
    view.get_by_label("Text", exact=True).select_option("1")
    assert buttons.count() == len(data["texts"][1]["tokens"])
    assert view.locator(".headview-keys .headview-token").count() == len(data["texts"][1]["tokens"])


@pytest.mark.parametrize(("scheme", "palette"), [("light", "default"), ("dark", "slate")])
def test_colours_follow_the_palette(page, server_url, scheme, palette):
    view = open_view(page, server_url + "en/lab/real-model/", scheme)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == palette
    view.locator(".headview-queries button").nth(5).hover()
    colours = view.evaluate("""v => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--md-accent-fg-color)';
        v.appendChild(probe);
        const accent = getComputedStyle(probe).color;
        probe.remove();
        const line = v.querySelector('.headview-lines line');
        const token = v.querySelector('.headview-keys .headview-token');
        return {accent, stroke: getComputedStyle(line).stroke, text: getComputedStyle(token).color,
                background: getComputedStyle(document.body).backgroundColor};
    }""")
    assert colours["stroke"] == colours["accent"]
    assert colours["text"] != colours["background"]


@pytest.mark.parametrize(("path", "scheme"), [("lab/real-model/", "light"), ("en/lab/real-model/", "dark")])
def test_axe_on_the_head_view_while_a_token_is_selected(page, server_url, path, scheme):
    from axe_playwright_python.sync_playwright import Axe

    view = open_view(page, server_url + path, scheme)
    view.locator(".headview-queries button").nth(QUERY).focus()
    results = Axe().run(page, context=".headview").response
    bad = [f"{v['id']}: {v['help']} e.g. {v['nodes'][0]['target']}" for v in results["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)


def test_says_so_when_its_data_cannot_be_loaded(page, page_log, server_url):
    page.route("**/assets/page-data/*.json", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(server_url + "en/lab/real-model/")
    view = page.locator(".headview")
    view.scroll_into_view_if_needed()
    page.wait_for_selector(".headview[data-state='error']")
    message = view.locator(".headview-nojs")
    assert message.is_visible()
    assert message.inner_text() == ("The head view's data could not be loaded (HTTP 404); "
                                    "reload the page to try again.")
    assert view.locator(".headview-queries button").count() == 0
    # the 404 was made here: the page's own report of it is expected, nothing else is
    page_log.console_errors[:] = [m for m in page_log.console_errors if "/page-data/" not in m]
    page_log.failed_requests[:] = [m for m in page_log.failed_requests if "/page-data/" not in m]
