"""Lighthouse, mobile preset, on the heaviest pages of the built site served with gzip: performance at
least 90, accessibility, best practices and SEO at 100. Scores go to test-artifacts/lighthouse-test.md.

Runs when Lighthouse is installed (`npm ci` at the repository root: lighthouse 12.2.3, pinned in
package-lock.json); `.ci/run` installs it, and under CI=true a missing Lighthouse fails the test.

Lighthouse's CPU throttling is relative to the machine it runs on: its default 4x slowdown is meant
for a host in the "high-end desktop" bracket (benchmarkIndex 1500-2000). This project's 2-core machine
measured anywhere from 1,300 to 3,200 within hours, and at the low end the same pages lost 5-10 points
at 4x. So the bar applies to the calibrated score that Lighthouse's docs/throttling.md prescribes for a
slower host (lighthouse.slowdown_for: 4x at 1500 and above, proportionally less below), and the
artifact lists the default 4x score of the same page load beside it, with the benchmarkIndex.

One run on a shared machine can still be several points off, so a page's score is the median of three
runs, and of five (Lighthouse's own advice for variable machines) when the median of three misses the bar.
"""

from __future__ import annotations

import pytest

from . import lighthouse as lh
from .conftest import in_ci

pytestmark = pytest.mark.browser
# The largest pages (most code, figures and data), in both languages, and the largest notebook page.
HEAVIEST = ["article/4-what-if/", "en/article/4-what-if/", "faq/", "en/faq/", "lab/real-model/",
            "en/notebooks/article/4-what-if/"]
RUNS, MORE_RUNS = 3, 2
BARS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}


@pytest.fixture(scope="module")
def gzip_url(built_site):
    with lh.Server(built_site) as server:
        yield server.url


def median_run(url: str) -> dict:
    """The median run by performance score: of three, or of five when the median of three is below the bar."""
    runs = [lh.score(url) for _ in range(RUNS)]
    if sorted(r["performance"] for r in runs)[RUNS // 2] < BARS["performance"]:
        runs += [lh.score(url) for _ in range(MORE_RUNS)]
    runs.sort(key=lambda r: r["performance"])
    median = runs[len(runs) // 2]
    median["performance_runs"] = [r["performance"] for r in runs]
    median["performance_4x_runs"] = [r["performance-4x"] for r in runs]
    median["benchmark_indexes"] = [r["benchmark-index"] for r in runs]
    return median


def test_heaviest_pages_score(gzip_url):
    if not lh.LIGHTHOUSE.exists():
        message = f"{lh.LIGHTHOUSE} is missing: run `npm ci` at the repository root (Node 20)"
        if in_ci():
            pytest.fail(f"CI=true but {message}")
        pytest.skip(message)
    results, problems = {}, []
    for page in HEAVIEST:
        load = lh.load()
        r = results[page] = median_run(gzip_url + page)
        r["load"] = load
        lh.write(results, "lighthouse-test")
        for category, bar in BARS.items():
            if r[category] < bar:
                problems.append(f"/{page}: {category} {r[category]} < {bar} (runs {r['performance_runs']}, at 4x "
                                f"{r['performance_4x_runs']}, benchmarkIndex {r['benchmark_indexes']}, load "
                                f"{load}; failed audits {r['failed-audits']})")
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
