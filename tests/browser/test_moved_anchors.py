"""An old link to an anchor of §4 that moved to 4b (sitebuild/hooks/moved_anchors.py) lands on that anchor of
4b, in both languages, offline; an anchor that stayed keeps the reader on §4."""

from __future__ import annotations

import pytest

from sitebuild.hooks.moved_anchors import MOVED

pytestmark = pytest.mark.browser
A = "article/4-what-if/"


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_a_moved_anchor_lands_on_page_b(page, server_url, prefix):
    to, moved = MOVED[A]
    for anchor in (moved[0], moved[-1]):
        page.goto(f"{server_url}{prefix}{A}#{anchor}", wait_until="domcontentloaded")
        page.wait_for_url(f"{server_url}{prefix}article/4b-second-round/#{anchor}")
        assert page.locator(f"h2#{anchor}, h3#{anchor}").count() == 1
    # an anchor that stayed, then a moved one reached from inside the page (the hash changes, no load)
    page.goto(f"{server_url}{prefix}{A}#pruning", wait_until="domcontentloaded")
    page.wait_for_timeout(300)
    assert page.url == f"{server_url}{prefix}{A}#pruning"
    page.evaluate(f"location.hash = {moved[1]!r}")
    page.wait_for_url(f"{server_url}{prefix}article/4b-second-round/#{moved[1]}")
