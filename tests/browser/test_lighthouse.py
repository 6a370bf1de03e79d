"""Lighthouse, mobile preset, on the heaviest pages of the built site served with gzip: accessibility,
best practices and SEO must be 100; the performance score is recorded, never a failure. Every run goes
to test-artifacts/lighthouse-test.md and .json (README: `tests/browser/lighthouse.py --readme-from`).

Runs when Lighthouse is installed (`npm ci` at the repository root: lighthouse 12.2.3, pinned in
package-lock.json); `.ci/run` installs it, and under CI=true a missing Lighthouse fails the test.

Accessibility, best practices and SEO do not depend on the machine. Performance does: the heaviest
pages had calibrated medians of 93-98 in one hour and 89-90 on the same kind of 2-core machine under a
load of 2-3, so a gate on it made CI red at random. What a score is made of (bytes, scripts, DOM
elements, elements drawn at first paint) is gated instead, deterministically, by the budget tests
(tests/test_budget.py, tests/browser/test_budget_dom.py). The score recorded is the calibrated one that Lighthouse's
docs/throttling.md prescribes for a slower host (lighthouse.slowdown_for: 4x at benchmarkIndex 1500
and above, proportionally less below), the median of three runs, with the default 4x score of the same
page loads, the benchmarkIndex, the date and the machine's load beside it. The suite runs each page once:
the gated categories come out the same on every run, and a single performance score is a record, not a
measurement to judge by (a median of three tripled the test's time, 9 of CI's minutes, for a number that
gates nothing). The full scored check, three runs per page, with
performance at 90, is a command for a quiet machine:
`python tests/browser/lighthouse.py SITE --heaviest --runs 3 --check --readme`.
"""

from __future__ import annotations

import pytest

from . import lighthouse as lh
from .conftest import in_ci

pytestmark = pytest.mark.browser
RUNS = 1  # the gated categories do not vary between runs; the median of 3 is the quiet-machine command's
GATED = ("accessibility", "best-practices", "seo")  # performance: recorded only


@pytest.fixture(scope="module")
def gzip_url(built_site):
    with lh.Server(built_site) as server:
        yield server.url


def test_heaviest_pages_score(gzip_url):
    if not lh.LIGHTHOUSE.exists():
        message = f"{lh.LIGHTHOUSE} is missing: run `npm ci` at the repository root (Node 20)"
        if in_ci():
            pytest.fail(f"CI=true but {message}")
        pytest.skip(message)
    results, problems = {}, []
    for page in lh.HEAVIEST:
        load = lh.load()
        r = results[page] = lh.median_run([lh.score(gzip_url + page) for _ in range(RUNS)])
        r["load"], r["date"] = load, lh.today()
        lh.write(results, "lighthouse-test")
        problems += [f"{line} (failed audits {r['failed-audits']})" for line in lh.below({page: r}, GATED)]
    slow = lh.below(results, ("performance",))
    if slow:  # recorded, not failing
        with (lh.ARTIFACTS / "lighthouse-test.md").open("a", encoding="utf-8") as f:
            f.write(f"\nPerformance below {lh.BARS['performance']} (recorded, not a failure; on a quiet "
                    "machine, look at the budgets):\n\n" + "".join(f"- {m}\n" for m in slow))
    assert not problems, "\n".join(problems)


def test_server_compresses(gzip_url):
    """The measuring server sends text gzip-compressed, as a real host would."""
    import urllib.request

    req = urllib.request.Request(gzip_url + "faq/", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req) as resp:
        assert resp.headers["Content-Encoding"] == "gzip"
        body = resp.read()
    import gzip

    assert b"<html" in gzip.decompress(body)


def test_calibration_audits_the_same_load_at_a_lower_slowdown(gzip_url, monkeypatch):
    """On a host below the bracket, the calibrated audit runs at less than 4x on the same page load, and
    a lighter slowdown never scores worse. (This host is usually above the bracket, so raise the bracket.)"""
    if not lh.LIGHTHOUSE.exists():
        pytest.skip(f"{lh.LIGHTHOUSE} is missing: run `npm ci` at the repository root")
    monkeypatch.setattr(lh, "BRACKET_LOW", 100_000.0)
    r = lh.score(gzip_url + "faq/")
    assert r["cpu-slowdown"] == lh.slowdown_for(r["benchmark-index"]) < lh.DEFAULT_SLOWDOWN
    assert r["performance"] >= r["performance-4x"]
    assert (r["accessibility"], r["best-practices"], r["seo"]) == (100, 100, 100)
