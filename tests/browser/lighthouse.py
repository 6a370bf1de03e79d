"""Lighthouse (mobile preset) on pages of the built site, served with gzip as any real host serves it.

    python tests/browser/lighthouse.py SITE_DIR [PAGE ...] [--runs 3]   # PAGE like "faq/" or "en/lab/real-model/"
    python tests/browser/lighthouse.py SITE_DIR --heaviest --runs 3 --check --readme  # the full scored check
    python tests/browser/lighthouse.py --readme-from test-artifacts/lighthouse-test.json

Without pages it scores every page of the site (both languages); --heaviest scores the six pages the
test scores. Scores (0-100 per category) are printed and written to test-artifacts/lighthouse.json and
.md. --check exits with 1 when a median performance score is below 90 or another category below 100:
run it on a quiet machine (the test itself only records performance). --readme writes the scores, with
the date, benchmarkIndex and load, into the README's table; --readme-from does so from a test run's
artifact. Needs Node and `npm i -E lighthouse@12.2.3` at the repository root (package.json), and
Chromium at $CHROME_PATH (default /usr/bin/chromium). Lighthouse is CPU-heavy: on a shared machine
run it under `flock /tmp/heavy.lock`.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
README = ROOT / "README.md"
README_MARKERS = ("<!-- lighthouse-scores -->", "<!-- /lighthouse-scores -->")
# The largest pages (most code, figures and data), in both languages, and the largest notebook page.
HEAVIEST = ["article/4-what-if/", "en/article/4-what-if/", "faq/", "en/faq/", "lab/real-model/",
            "en/notebooks/article/4-what-if/"]
# The bars of the full scored check (--check). The test gates only the categories that do not depend
# on the machine; performance is recorded.
BARS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}
COMPRESS = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".ipynb", ".map"}


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files; text is sent gzip-compressed to clients that accept it."""

    cache: dict[Path, bytes] = {}

    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the base class redirects to the slash
            path = path / "index.html"
        gz = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (gz and path.suffix in COMPRESS and path.is_file()):
            return super().send_head()
        body = self.cache.get(path)
        if body is None:
            body = self.cache[path] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        import io

        return io.BytesIO(body)


class Server:
    """The site in `directory` on http://127.0.0.1:PORT/, gzip-capable, in a background thread."""

    def __init__(self, directory: Path):
        handler = functools.partial(GzipHandler, directory=str(directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def all_pages(site: Path) -> list[str]:
    return sorted(("" if p.parent == site else p.parent.relative_to(site).as_posix() + "/")
                  for p in site.rglob("index.html") if "search" not in p.parts)


# Lighthouse's 4x CPU slowdown turns a host in the "high-end desktop" bracket (benchmarkIndex
# 1500-2000, Lighthouse's docs/throttling.md) into a mid-tier phone. On a slower host the same 4x
# simulates a slower phone than that, and the docs say to lower the multiplier there. Below the
# bracket, the calibrated score scales the slowdown with the host's benchmarkIndex; within or above
# it, the calibrated score is the default 4x score.
DEFAULT_SLOWDOWN = 4.0
BRACKET_LOW = 1500.0


def slowdown_for(benchmark_index: float) -> float:
    """The CPU slowdown that makes this host the phone Lighthouse's default targets (never above 4x).

    >>> slowdown_for(3000), slowdown_for(1500), slowdown_for(1200)
    (4.0, 4.0, 3.2)
    """
    if not benchmark_index > 0:
        raise ValueError(f"expected a positive benchmarkIndex, got {benchmark_index!r}")
    return round(DEFAULT_SLOWDOWN * min(1.0, benchmark_index / BRACKET_LOW), 2)


def _audit(tmp: Path, slowdown: float, timeout: float) -> dict:
    """Lighthouse's report for the page load gathered in tmp/artifacts, audited with this CPU slowdown.

    Simulated throttling loads the page once, unthrottled, and computes the throttled metrics from its
    trace, so the same load can be audited at any slowdown (the gathered settings must name it too)."""
    artifacts = tmp / "artifacts" / "artifacts.json"
    gathered = json.loads(artifacts.read_text(encoding="utf-8"))
    gathered["settings"]["throttling"]["cpuSlowdownMultiplier"] = slowdown
    artifacts.write_text(json.dumps(gathered), encoding="utf-8")
    out = tmp / f"report-{slowdown}.json"
    _run([f"-A={tmp / 'artifacts'}", "--output=json", f"--output-path={out}",
          f"--throttling.cpuSlowdownMultiplier={slowdown}"], tmp, timeout, "audit")
    return json.loads(out.read_text(encoding="utf-8"))


def _run(args: list[str], cwd: Path, timeout: float, what: str) -> None:
    cmd = [str(LIGHTHOUSE), *args, "--quiet", f"--only-categories={','.join(CATEGORIES)}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env={**os.environ, "CHROME_PATH": CHROME})
    if proc.returncode != 0:
        raise RuntimeError(f"lighthouse {what} failed ({' '.join(args[:1])}):\n{proc.stderr[-3000:]}")


def score(url: str, timeout: float = 300) -> dict:
    """Lighthouse's four category scores (0-100) and a few metrics for one URL, mobile preset.

    "performance" is the calibrated score (see slowdown_for); "performance-4x" is Lighthouse's default,
    from the same page load; "benchmark-index" and "cpu-slowdown" say how the two differ."""
    if not LIGHTHOUSE.exists():
        raise FileNotFoundError(f"{LIGHTHOUSE} is missing: run `npm i -E lighthouse@12.2.3` at {ROOT}")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        _run([url, f"-G={tmp / 'artifacts'}", "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
             tmp, timeout, "gather")
        default = _audit(tmp, DEFAULT_SLOWDOWN, timeout)
        index = default["environment"]["benchmarkIndex"]
        slowdown = slowdown_for(index)
        report = default if slowdown == DEFAULT_SLOWDOWN else _audit(tmp, slowdown, timeout)
    audits = report["audits"]
    result = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    result["performance-4x"] = round(100 * (default["categories"]["performance"]["score"] or 0))
    result["benchmark-index"] = round(index)
    result["cpu-slowdown"] = slowdown
    for key in ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
                "cumulative-layout-shift", "speed-index"):
        result[key] = audits[key].get("displayValue", "")
    result["dom-size"] = audits.get("dom-size", {}).get("numericValue")
    result["mainthread-ms"] = round(audits.get("mainthread-work-breakdown", {}).get("numericValue") or 0)
    failed = [a["id"] for c in CATEGORIES[1:] for a in report["categories"][c]["auditRefs"]
              if a.get("weight") and audits[a["id"]].get("score") not in (None, 1)]
    result["failed-audits"] = failed
    return result


def median_run(runs: list[dict]) -> dict:
    """The run with the median performance score, carrying every run's scores and benchmarkIndex.

    >>> r = median_run([{"performance": p, "performance-4x": p - 1, "benchmark-index": 2000} for p in (90, 80, 99)])
    >>> r["performance"], r["performance_runs"], r["performance_4x_runs"]
    (90, [80, 90, 99], [79, 89, 98])
    """
    runs = sorted(runs, key=lambda r: r["performance"])
    median = dict(runs[len(runs) // 2])
    median["performance_runs"] = [r["performance"] for r in runs]
    median["performance_4x_runs"] = [r["performance-4x"] for r in runs]
    median["benchmark_indexes"] = [r["benchmark-index"] for r in runs]
    return median


def load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    except OSError:
        return "unknown"


def today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


def below(results: dict[str, dict], categories=tuple(BARS)) -> list[str]:
    """One line per page and category (of categories) scoring below its bar in BARS.

    >>> below({"faq/": {"performance": 89, "accessibility": 100, "best-practices": 96, "seo": 100}})
    ['/faq/: performance 89 < 90', '/faq/: best-practices 96 < 100']
    """
    return [f"/{page}: {c} {r[c]} < {BARS[c]}" for page, r in results.items() for c in categories if r[c] < BARS[c]]


def readme_table(results: dict[str, dict]) -> str:
    """The README's table of recorded scores, from an artifact's results (the median run of each page).

    >>> r = {"performance": 93, "performance-4x": 91, "performance_runs": [90, 93, 95], "accessibility": 100,
    ...      "best-practices": 100, "seo": 100, "benchmark_indexes": [1480, 1700, 1650],
    ...      "load": "1.0 / 0.8 / 0.5 on 2 cores", "date": "2026-12-01"}
    >>> print(readme_table({"faq/": r}).splitlines()[2])
    | /faq/ | 93 (90/93/95) | 91 | 1480-1700 | 1.0 / 0.8 / 0.5 on 2 cores | 100 / 100 / 100 | 2026-12-01 |
    """
    lines = ["| page | performance, calibrated: median (runs) | at 4x | benchmarkIndex | load (1/5/15 min) "
             "| a11y / best practices / SEO | date |", "|---|--:|--:|--:|---|--:|---|"]
    for page, r in results.items():
        runs = r.get("performance_runs") or [r["performance"]]
        idx = r.get("benchmark_indexes") or [r["benchmark-index"]]
        idx_text = str(min(idx)) if min(idx) == max(idx) else f"{min(idx)}-{max(idx)}"
        lines.append(f"| /{page} | {r['performance']} ({'/'.join(map(str, runs))}) | {r['performance-4x']} "
                     f"| {idx_text} | {r.get('load', 'unknown')} | {r['accessibility']} / {r['best-practices']} / "
                     f"{r['seo']} | {r.get('date', 'unknown')} |")
    return "\n".join(lines) + "\n"


def write_readme(results: dict[str, dict], source: str) -> None:
    """Put the scores of results into the README between README_MARKERS, saying where they come from."""
    text = README.read_text(encoding="utf-8")
    start, end = text.find(README_MARKERS[0]), text.find(README_MARKERS[1])
    if start < 0 or end < start:
        raise ValueError(f"expected {README_MARKERS[0]} ... {README_MARKERS[1]} in {README}, found {start}, {end}")
    body = f"Recorded from `{source}`:\n\n" + readme_table(results)
    README.write_text(text[: start + len(README_MARKERS[0])] + "\n" + body + text[end:], encoding="utf-8")


def write(results: dict[str, dict], name: str = "lighthouse") -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.json").write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    lines = ["| page | perf (calibrated) | perf at 4x | benchmarkIndex | CPU slowdown | a11y | best practices | SEO "
             "| LCP | TBT | DOM | main thread ms | load (1/5/15 min) |",
             "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for page, r in results.items():
        perf, default = str(r["performance"]), str(r["performance-4x"])
        if len(r.get("performance_runs", [])) > 1:
            perf += f" ({'/'.join(map(str, r['performance_runs']))})"
            default += f" ({'/'.join(map(str, r['performance_4x_runs']))})"
        lines.append(f"| /{page} | {perf} | {default} | {r['benchmark-index']} | {r['cpu-slowdown']}x "
                     f"| {r['accessibility']} | {r['best-practices']} | {r['seo']} "
                     f"| {r['largest-contentful-paint']} | {r['total-blocking-time']} | {r['dom-size']} "
                     f"| {r['mainthread-ms']} | {r['load']} |")
    (ARTIFACTS / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site", type=Path, nargs="?")
    ap.add_argument("pages", nargs="*")
    ap.add_argument("--heaviest", action="store_true", help=f"score the test's pages: {' '.join(HEAVIEST)}")
    ap.add_argument("--check", action="store_true",
                    help="exit with 1 when a page is below a bar: " + ", ".join(f"{c} {b}" for c, b in BARS.items()))
    ap.add_argument("--readme", action="store_true", help="write the scores into the README's table")
    ap.add_argument("--readme-from", type=Path, metavar="JSON",
                    help="only write the README's table from this artifact (e.g. test-artifacts/lighthouse-test.json)")
    ap.add_argument("--name", default="lighthouse", help="artifact file name (without extension)")
    ap.add_argument("--runs", type=int, default=1,
                    help="score each page this many times and keep the run with the median performance "
                         "(on a shared machine one run can be 10 points off)")
    args = ap.parse_args(argv)
    if args.readme_from:
        write_readme(json.loads(args.readme_from.read_text(encoding="utf-8")), args.readme_from.as_posix())
        print(f"{README.name}: scores from {args.readme_from}")
        return 0
    if args.site is None:
        ap.error("a built site is needed (or --readme-from)")
    pages = HEAVIEST if args.heaviest else args.pages or all_pages(args.site)
    results = {}
    with Server(args.site) as server:
        for page in pages:
            before = load()
            r = results[page] = median_run([score(server.url + page) for _ in range(max(1, args.runs))])
            r["load"], r["date"] = before, today()
            print(f"/{page}: " + ", ".join(f"{c} {r[c]}" for c in CATEGORIES)
                  + f" (at 4x {r['performance-4x']}, benchmarkIndex {r['benchmark-index']})"
                  + f"; LCP {r['largest-contentful-paint']}, TBT {r['total-blocking-time']}, DOM {r['dom-size']}"
                  + f", load {before}" + (f", failed {r['failed-audits']}" if r["failed-audits"] else ""), flush=True)
            write(results, args.name)
    if args.readme:
        write_readme(results, f"test-artifacts/{args.name}.json")
    problems = below(results)
    if problems:
        print("\nbelow the bar:\n" + "\n".join(problems))
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
