"""Lighthouse, mobile preset, on the heaviest pages of the built site served with gzip: accessibility,
best practices and SEO at 100, and the performance score measured against a bar of 90. Every run goes
to test-artifacts/lighthouse-test.md.

Runs when Lighthouse is installed (`npm ci` at the repository root: lighthouse 12.2.3, pinned in
package-lock.json); `.ci/run` installs it, and under CI=true a missing Lighthouse fails the test.

Accessibility, best practices and SEO do not depend on the machine, and fail the test below 100.
Performance does: Lighthouse's CPU throttling is relative to the host. Its default 4x slowdown is
meant for a host in the "high-end desktop" bracket (benchmarkIndex 1500-2000), and this project's
2-core machine measured anywhere from 950 to 3,550 within hours. The score used is the calibrated one
that Lighthouse's docs/throttling.md prescribes for a slower host (lighthouse.slowdown_for: 4x at 1500
and above, proportionally less below); the artifact lists the default 4x score of the same page load
beside it, with the benchmarkIndex.

Before the notebook pages were lightened (heading cells always drawn, hidden collapse handles and
operator spans left out: -24% blocking time on the §4 notebook), the heaviest notebook page measured
medians of 97 in one hour and 90 a little over an hour later, and a miss only went to the artifact.
Since then every page has scored 93 or more (all 34 pages, one run each, benchmarkIndex 1,176-2,044),
and a performance miss fails the test like any other category. MHA_LIGHTHOUSE_STRICT=0 records
performance misses without failing, for a machine busy with other work.

One run on a shared machine can still be several points off, so a page's score is the median of three
runs, and of five (Lighthouse's own advice for variable machines) when the median of three misses the bar.
"""

from __future__ import annotations

import os

import pytest

from . import lighthouse as lh
from .conftest import in_ci

pytestmark = pytest.mark.browser
# The largest pages (most code, figures and data), in both languages, and the largest notebook page.
HEAVIEST = ["article/4-what-if/", "en/article/4-what-if/", "faq/", "en/faq/", "lab/real-model/",
            "en/notebooks/article/4-what-if/"]
RUNS, MORE_RUNS = 3, 2
BARS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}
STRICT = os.environ.get("MHA_LIGHTHOUSE_STRICT") != "0"  # "0": a performance miss is only recorded


@pytest.fixture(scope="module")
def gzip_url(built_site):
    with lh.Server(built_site) as server:
        yield server.url


def page_score(url: str) -> dict:
    """The median run by performance score: of three, or of five when the median of three is below the bar."""
    runs = [lh.score(url) for _ in range(RUNS)]
    if sorted(r["performance"] for r in runs)[RUNS // 2] < BARS["performance"]:
        runs += [lh.score(url) for _ in range(MORE_RUNS)]
    return lh.median_run(runs)


def test_heaviest_pages_score(gzip_url):
    if not lh.LIGHTHOUSE.exists():
        message = f"{lh.LIGHTHOUSE} is missing: run `npm ci` at the repository root (Node 20)"
        if in_ci():
            pytest.fail(f"CI=true but {message}")
        pytest.skip(message)
    results, problems, misses = {}, [], []
    for page in HEAVIEST:
        load = lh.load()
        r = results[page] = page_score(gzip_url + page)
        r["load"] = load
        lh.write(results, "lighthouse-test")
        for category, bar in BARS.items():
            if r[category] < bar:
                (problems if category != "performance" or STRICT else misses).append(
                    f"/{page}: {category} {r[category]} < {bar} (runs {r['performance_runs']}, at 4x "
                    f"{r['performance_4x_runs']}, benchmarkIndex {r['benchmark_indexes']}, load "
                    f"{load}; failed audits {r['failed-audits']})")
    if misses:  # recorded, not failing (MHA_LIGHTHOUSE_STRICT=0)
        with (lh.ARTIFACTS / "lighthouse-test.md").open("a", encoding="utf-8") as f:
            f.write("\nBelow the performance bar (recorded only: MHA_LIGHTHOUSE_STRICT=0):\n\n"
                    + "".join(f"- {m}\n" for m in misses))
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
