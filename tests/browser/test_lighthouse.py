"""Lighthouse, mobile preset, on the heaviest pages of the built site served with gzip: performance at
least 90, accessibility, best practices and SEO at 100. Scores go to test-artifacts/lighthouse-test.md.

Opt-in: set MHA_LIGHTHOUSE=1 and run `npm ci` (lighthouse 12.2.3, pinned in package.json) at the
repository root. The heavy pages do not meet the performance bar yet (see README), so the default
suite and CI leave the scoring out; the gzip server it measures through is always tested. Scores on a
machine busy with other work come out lower than on an idle one: the artifact records the load
average beside each score.
"""

from __future__ import annotations

import os

import pytest

from . import lighthouse as lh

pytestmark = pytest.mark.browser
# The largest pages (most code, figures and data), in both languages.
HEAVIEST = ["lab/real-model/", "en/lab/real-model/", "faq/", "en/faq/", "article/4-what-if/", "en/article/3-pytorch/"]
RUNS = 3
BARS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}


@pytest.fixture(scope="module")
def gzip_url(built_site):
    with lh.Server(built_site) as server:
        yield server.url


@pytest.mark.skipif(os.environ.get("MHA_LIGHTHOUSE") != "1", reason="opt-in: MHA_LIGHTHOUSE=1 (and `npm ci`)")
def test_heaviest_pages_score(gzip_url):
    if not lh.LIGHTHOUSE.exists():
        pytest.fail(f"MHA_LIGHTHOUSE=1 but {lh.LIGHTHOUSE} is missing: run `npm ci` at the repository root")
    results, problems = {}, []
    for page in HEAVIEST:
        load = lh.load()
        runs = sorted((lh.score(gzip_url + page) for _ in range(RUNS)), key=lambda x: x["performance"])
        r = runs[RUNS // 2]  # the median run: one run on a shared machine can be 10 points off
        r["load"], r["performance_runs"] = load, [x["performance"] for x in runs]
        results[page] = r
        lh.write(results, "lighthouse-test")
        for category, bar in BARS.items():
            if r[category] < bar:
                problems.append(f"/{page}: {category} {r[category]} < {bar} (load {load}; failed audits "
                                f"{r['failed-audits']})")
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
