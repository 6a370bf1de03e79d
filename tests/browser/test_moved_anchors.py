"""An old link to an anchor that moved (sitebuild/hooks/moved_anchors.py: §4's second round to 4b, the key/value
heads page's accuracy tests to their own page) lands on that anchor of the new page, in both languages, offline;
an anchor that stayed keeps the reader where they were."""

from __future__ import annotations

import pytest

from sitebuild.hooks.moved_anchors import MOVED

pytestmark = pytest.mark.browser
STAYED = {"article/4-what-if/": "pruning", "lab/kv-heads/": "idea"}  # an anchor that did not move, per page


@pytest.mark.parametrize("A", sorted(MOVED))
@pytest.mark.parametrize("prefix", ["", "en/"])
def test_a_moved_anchor_lands_on_page_b(page, server_url, prefix, A):
    to, moved = MOVED[A]
    B = A.rsplit("/", 2)[0] + "/" + to.strip("./").strip("/") + "/"
    for anchor in (moved[0], moved[-1]):
        page.goto(f"{server_url}{prefix}{A}#{anchor}", wait_until="domcontentloaded")
        page.wait_for_url(f"{server_url}{prefix}{B}#{anchor}")
        assert page.locator(f"h2#{anchor}, h3#{anchor}").count() == 1
    # an anchor that stayed, then a moved one reached from inside the page (the hash changes, no load)
    page.goto(f"{server_url}{prefix}{A}#{STAYED[A]}", wait_until="domcontentloaded")
    page.wait_for_timeout(300)
    assert page.url == f"{server_url}{prefix}{A}#{STAYED[A]}"
    page.evaluate(f"location.hash = {moved[1]!r}")
    page.wait_for_url(f"{server_url}{prefix}{B}#{moved[1]}")
