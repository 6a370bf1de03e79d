"""Performance budgets, the DOM measures (sitebuild/budget.py; the file measures are in tests/test_budget.py):
on every page of the built site, both languages, notebook pages included, the elements in the body and
the elements drawn at first paint (not skipped by content-visibility) on a phone (390x844) and a desktop
(1280x900) stay within the budget of the page's kind in tests/budgets.json.

The figures depend on the build, Chromium and the fonts, not on the machine's speed or load.
"""

from __future__ import annotations

import json

import pytest
from test_budget import doctored_faq  # the same doctored page as the file measures' test

from sitebuild import budget

from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser
BUDGETS = budget.load_budgets()
MEASURED: dict[str, dict[str, int]] = {}


@pytest.fixture
def context_for(browser):
    """context_for(viewport): a new browser context of that size (closed by dom_measures)."""
    return lambda viewport: browser.new_context(viewport=viewport, service_workers="block")


def measure_every_page(context_for, server_url: str, site) -> dict[str, dict[str, int]]:
    """The DOM measures of every page of the built site, one page after the other."""
    return {page: budget.dom_measures(context_for, server_url + page) for page in budget.pages(site)}


def sweep(browser, server_url: str, site) -> dict[str, dict[str, int]]:
    """measure_every_page in tests/browser/sweep.py's process, beside the session (each context's waits
    may take the long TIMEOUT_MS of a process at the lowest priority)."""
    from .sweep import TIMEOUT_MS

    def context_for(viewport):
        context = browser.new_context(viewport=viewport, service_workers="block")
        context.set_default_timeout(TIMEOUT_MS)
        return context

    return measure_every_page(context_for, server_url, site)


@pytest.mark.sweep("budget_dom")
def test_dom_of_every_page_is_within_its_budget(built_site, swept):
    """Reads what sweep() measured (started when the site was built, see tests/conftest.py)."""
    MEASURED.update(swept("budget_dom"))
    pages = budget.pages(built_site)
    assert len(pages) >= 30, pages
    assert list(MEASURED) == pages, "the sweep measured other pages than the site's"
    over = [line for page, m in MEASURED.items() for line in budget.over_budget(page, m, BUDGETS)]
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "budget-dom.json").write_text(json.dumps(MEASURED, indent=1), encoding="utf-8")
    assert not over, ("over budget (measure every page: python -m sitebuild.budget SITE; reset a kind "
                      "deliberately with --reset KIND):\n" + "\n".join(over))


def test_a_page_made_heavier_fails_the_dom_budget(built_site, server_url, context_for):
    """The FAQ page with its largest figure three more times and 38 kB of unbroken text (the doctored copy
    of tests/test_budget.py, served in place of the page) exceeds the FAQ's element budget."""
    page = "en/faq/"
    html = (built_site / page / "index.html").read_text(encoding="utf-8")
    # many small elements near the top, where they are drawn at first paint on any screen
    top = "<div>" + "<span>x</span> " * 1500 + "</div>"
    doctored = doctored_faq(html).replace("</h1>", f"</h1>{top}", 1)
    m = budget.dom_measures(context_for, server_url + page, html=doctored)
    over = budget.over_budget(page, m, BUDGETS)
    failed = {line.split(": ")[1].split()[0] for line in over}
    assert failed == {"elements", "drawn_phone", "drawn_desktop"}, (m, over)
