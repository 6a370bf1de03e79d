"""Performance budgets: what each page of the built site weighs, against one table of budgets per page kind.

    python -m sitebuild.budget SITE              # every page's measures against its budget (exit 1 if over)
    python -m sitebuild.budget SITE --static     # the same without a browser (bytes, counts, SVG only)
    python -m sitebuild.budget SITE --reset faq  # set the faq budget from this build (+MARGIN), README too

The measures do not depend on the machine, only on the build (and, for the DOM, on Chromium and the
fonts), so a budget test is never red at random, unlike a Lighthouse performance score. Per page:

- static (read from the files, as a host serving gzip sends them): bytes of the HTML, of the stylesheets
  and scripts it links, and of the other same-site files it references (images, data files, the icon),
  each raw and gzip-compressed (level 6, as tests/browser/lighthouse.py serves them; images and other
  binary files are sent as they are); the number of external scripts and stylesheets; the largest
  inline SVG in bytes;
- DOM (Chromium, measured by tests/browser/test_budget_dom.py): elements in the body once the page has
  loaded, and how many of them are drawn at first paint, i.e. not skipped by `content-visibility`
  (`checkVisibility({contentVisibilityAuto: true})`), on a phone (390x844, the width Lighthouse's mobile
  preset scores) and on a desktop (1280x900).

Files a script fetches on its own (the §4 lab's model files) are not counted: they are fetched when the
lab comes near the screen, not at first paint.

The budgets live in tests/budgets.json, one row per page kind: the largest value measured on a page of
that kind when the budget was set, plus MARGIN, rounded up. The README's budget table is generated from
that file (tests/test_budget.py checks that the two agree).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = ROOT / "tests" / "budgets.json"
README = ROOT / "README.md"
MARKERS = ("<!-- budgets -->", "<!-- /budgets -->")
# Deterministic measures need no allowance for noise. The margin is room for ordinary edits (a
# paragraph, a corrected sentence, one more small figure) without resetting the budget each time,
# while a change of the size that moves a Lighthouse score (thousands of DOM elements or drawn
# elements, tens of kB of script) still trips it.
MARGIN = 0.15
COMPRESS = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".ipynb", ".map"}

# (key, column heading, unit) in the order of the README table.
MEASURES = (
    ("html", "HTML", "kB"), ("html_gz", "HTML gz", "kB"),
    ("css", "CSS", "kB"), ("css_gz", "CSS gz", "kB"),
    ("js", "JS", "kB"), ("js_gz", "JS gz", "kB"),
    ("data", "data/images", "kB"), ("data_gz", "data/images gz", "kB"),
    ("scripts", "scripts", ""), ("stylesheets", "stylesheets", ""),
    ("svg_max", "largest inline SVG", "kB"),
    ("elements", "DOM elements", ""),
    ("drawn_phone", "drawn at first paint, 390x844", ""),
    ("drawn_desktop", "drawn at first paint, 1280x900", ""),
)
STATIC = tuple(k for k, _, _ in MEASURES if k not in ("elements", "drawn_phone", "drawn_desktop"))
DOM = ("elements", "drawn_phone", "drawn_desktop")

_TAG = re.compile(r"<(link|script|img|image)\b([^>]*)>", re.I)
_ATTR = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_SVG_OPEN, _SVG_CLOSE = re.compile(r"<svg\b", re.I), re.compile(r"</svg\s*>", re.I)


def kind(page: str) -> str:
    """The budget row of a page, given as its URL path ('' for the home page, 'en/faq/', ...).

    >>> [kind(p) for p in ("", "en/", "article/3-pytorch/", "en/faq/", "lab/real-model/", "en/notebooks/faq/")]
    ['home', 'home', 'article', 'faq', 'lab', 'notebook']
    """
    parts = [p for p in page.split("/") if p]
    if parts[:1] == ["en"]:
        parts = parts[1:]
    if not parts:
        return "home"
    return "notebook" if parts[0] == "notebooks" else parts[0]


def pages(site: Path) -> list[str]:
    """URL paths of every page of the built site (both languages, rendered notebooks included)."""
    site = Path(site)
    return sorted(("" if p.parent == site else p.parent.relative_to(site).as_posix() + "/")
                  for p in site.rglob("index.html") if "search" not in p.relative_to(site).parts)


def _gz_size(path: Path, cache: dict) -> tuple[int, int]:
    if path not in cache:
        raw = path.read_bytes()
        sent = gzip.compress(raw, compresslevel=6, mtime=0) if path.suffix in COMPRESS else raw
        cache[path] = (len(raw), len(sent))
    return cache[path]


def largest_svg(html: str) -> int:
    """Bytes (UTF-8) of the largest outermost <svg> element in html, nested ones counted inside theirs.

    >>> largest_svg('<p><svg a><svg b></svg></svg><svg c>x</svg></p>')
    26
    """
    tokens = sorted([(m.start(), 1) for m in _SVG_OPEN.finditer(html)]
                    + [(m.end(), -1) for m in _SVG_CLOSE.finditer(html)])
    depth, start, best = 0, 0, 0
    for pos, step in tokens:
        if step == 1 and depth == 0:
            start = pos
        depth = max(0, depth + step)
        if step == -1 and depth == 0:
            best = max(best, len(html[start:pos].encode("utf-8")))
    return best


def static_measures(site: Path, page: str, html: str | None = None, _cache: dict | None = None) -> dict[str, int]:
    """The static measures of one page (see the module's docstring); html replaces the page's file if given."""
    site = Path(site)
    cache = {} if _cache is None else _cache
    file = site / page / "index.html"
    if html is None:
        html = file.read_text(encoding="utf-8")
    raw = html.encode("utf-8")
    out = dict.fromkeys(STATIC, 0)
    out["html"], out["html_gz"] = len(raw), len(gzip.compress(raw, compresslevel=6, mtime=0))
    url = "/" + page
    seen: set[Path] = set()
    for m in _TAG.finditer(html):
        tag = m.group(1).lower()
        attrs = {a.lower(): b if b is not None else c for a, b, c in _ATTR.findall(m.group(2))}
        if tag == "link":
            rel = attrs.get("rel", "").lower().split()
            what = "css" if "stylesheet" in rel else "data" if "icon" in rel else None
            src = attrs.get("href")
        elif tag == "script":
            what, src = ("js", attrs.get("src")) if attrs.get("src") else ("data", attrs.get("data-src"))
        else:  # <img src>, <image xlink:href> inside an SVG figure
            what, src = "data", attrs.get("src") or attrs.get("xlink:href") or attrs.get("href")
        if what is None or not src:
            continue
        parts = urlsplit(src)
        if parts.scheme or parts.netloc or src.startswith("data:"):
            continue
        target = site / urljoin(url, parts.path).lstrip("/")
        if not target.is_file():
            raise ValueError(f"/{page} references {src}, which is not a file of the site {site}")
        if what == "js":
            out["scripts"] += 1
        elif what == "css":
            out["stylesheets"] += 1
        if target in seen:
            continue
        seen.add(target)
        size, sent = _gz_size(target, cache)
        out[what] += size
        out[f"{what}_gz"] += sent
    out["svg_max"] = largest_svg(html)
    return out


# Elements in the body, and those drawn: not skipped by content-visibility (auto or hidden, which is
# how a closed <details> hides its content), not display:none. Measured once the page has loaded, its
# fonts are in and two animation frames have passed (the browser has decided which content-visibility:auto
# boxes to draw), and again every 100 ms until two measurements agree: on a busy machine a script may
# still be mounting something when the first one is taken.
DOM_JS = """
async () => {
  await document.fonts.ready;
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const count = () => {
    const all = document.body.getElementsByTagName("*");
    let drawn = 0;
    for (const el of all) if (el.checkVisibility({contentVisibilityAuto: true})) drawn += 1;
    return {elements: all.length, drawn};
  };
  await frames();
  let last = count();
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 100));
    await frames();
    const now = count();
    if (now.elements === last.elements && now.drawn === last.drawn) return now;
    last = now;
  }
  return last;
}
"""
VIEWPORTS = {"drawn_phone": {"width": 390, "height": 844}, "drawn_desktop": {"width": 1280, "height": 900}}


def dom_measures(context_for, url: str, html: str | None = None) -> dict[str, int]:
    """DOM elements (at the phone size) and elements drawn at first paint at each viewport of VIEWPORTS.

    context_for(viewport) returns a Playwright browser context of that viewport; html, if given, is served
    at url in place of the page's own file (a doctored copy), every other request goes to the server."""
    out: dict[str, int] = {}
    for key, viewport in VIEWPORTS.items():
        context = context_for(viewport)
        try:
            pg = context.new_page()
            if html is not None:
                pg.route(url, lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8",
                                                          body=html))
            pg.goto(url, wait_until="networkidle")
            r = pg.evaluate(DOM_JS)
        finally:
            context.close()
        out[key] = r["drawn"]
        if key == "drawn_phone":
            out["elements"] = r["elements"]
    return out


def load_budgets(path: Path = BUDGETS) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def over_budget(page: str, measures: dict[str, int], budgets: dict | None = None) -> list[str]:
    """What in measures exceeds the budget of the page's kind, one line each (empty: within budget)."""
    budgets = load_budgets() if budgets is None else budgets
    row = budgets["budgets"].get(kind(page))
    if row is None:
        return [f"/{page}: no budget for page kind {kind(page)!r} in {BUDGETS.relative_to(ROOT)}"]
    return [f"/{page}: {key} {value:,} > budget {row[key]:,} ({kind(page)})"
            for key, value in measures.items() if key in row and value > row[key]]


def new_budget(measured: int, margin: float = MARGIN) -> int:
    """The budget for a largest measured value: plus the margin, rounded up (bytes to 100, counts to 10).

    >>> new_budget(146_272), new_budget(3_251), new_budget(7), new_budget(0)
    (168300, 3740, 9, 0)
    """
    if measured < 0:
        raise ValueError(f"expected a measured value >= 0, got {measured!r}")
    step = 100 if measured >= 10_000 else 10 if measured >= 100 else 1
    return math.ceil(measured * (1 + margin) / step) * step


def _fmt(key: str, value: int) -> str:
    unit = next(u for k, _, u in MEASURES if k == key)
    return f"{value / 1000:,.1f}" if unit == "kB" else f"{value:,}"


def readme_table(budgets: dict | None = None) -> str:
    """The README's budget table: one row per page kind, each cell "budget (measured)"."""
    budgets = load_budgets() if budgets is None else budgets
    heads = [f"{h}{' (kB)' if u else ''}" for _, h, u in MEASURES]
    lines = [f"| page kind | {' | '.join(heads)} |", "|---|" + "--:|" * len(MEASURES)]
    for k in sorted(budgets["budgets"]):
        row, measured = budgets["budgets"][k], budgets["measured"][k]
        lines.append(f"| {k} | " + " | ".join(f"{_fmt(key, row[key])} ({_fmt(key, measured[key])})"
                                            for key, _, _ in MEASURES) + " |")
    note = (f"Each cell: budget (largest measured on a page of that kind, {budgets['date']}, commit "
            f"{budgets['commit']}). Budget = measured + {round(budgets['margin'] * 100)}%, rounded up.")
    return "\n".join(lines) + "\n\n" + note + "\n"


def replace_between(text: str, markers: tuple[str, str], body: str) -> str:
    """text with what lies between the two marker lines replaced by body.

    >>> replace_between("a\\n<!-- x -->\\nold\\n<!-- /x -->\\nb", ("<!-- x -->", "<!-- /x -->"), "new\\n")
    'a\\n<!-- x -->\\nnew\\n<!-- /x -->\\nb'
    """
    start, end = text.find(markers[0]), text.find(markers[1])
    if start < 0 or end < start:
        raise ValueError(f"expected the markers {markers[0]} ... {markers[1]} in order, found them at {start}, {end}")
    return text[: start + len(markers[0])] + "\n" + body + text[end:]


def readme_section(text: str, markers: tuple[str, str] = MARKERS) -> str:
    start, end = text.find(markers[0]), text.find(markers[1])
    if start < 0 or end < start:
        raise ValueError(f"expected the markers {markers[0]} ... {markers[1]} in order in the README")
    return text[start + len(markers[0]) + 1: end]


def measure(site: Path, browser: bool = True) -> dict[str, dict[str, int]]:
    """Every page's measures: static, and DOM too when browser is True (needs Chromium and Playwright)."""
    cache: dict = {}
    result = {page: static_measures(site, page, _cache=cache) for page in pages(site)}
    if browser:
        import functools
        import http.server
        import threading

        from playwright.sync_api import sync_playwright

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, format, *args):  # noqa: A002 - signature of the base class
                pass

        handler = functools.partial(Quiet, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            with sync_playwright() as pw:
                chromium = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                              args=["--no-sandbox", "--disable-gpu"])
                for page in result:
                    result[page] |= dom_measures(
                        lambda vp: chromium.new_context(viewport=vp, service_workers="block"), base + page)
                chromium.close()
        finally:
            server.shutdown()
            server.server_close()
    return result


def report(measured: dict[str, dict[str, int]], budgets: dict) -> str:
    keys = [k for k, _, _ in MEASURES if any(k in m for m in measured.values())]
    lines = ["page | kind | " + " | ".join(f"{k} (budget)" for k in keys)]
    for page, m in measured.items():
        row = budgets["budgets"].get(kind(page), {})
        cells = [f"{_fmt(k, m[k])} ({_fmt(k, row[k]) if k in row else '-'})"
                 + (" OVER" if k in row and m[k] > row[k] else "") for k in keys]
        lines.append(f"/{page} | {kind(page)} | " + " | ".join(cells))
    return "\n".join(lines)


def reset(measured: dict[str, dict[str, int]], budgets: dict, kinds: list[str], margin: float = MARGIN) -> dict:
    """budgets with the rows of kinds (every kind measured, if empty) set from measured plus margin."""
    kinds = kinds or sorted({kind(p) for p in measured})
    for k in kinds:
        rows = [m for p, m in measured.items() if kind(p) == k]
        if not rows:
            raise ValueError(f"expected a page kind of this site {sorted({kind(p) for p in measured})}, got {k!r}")
        keys = [key for key, _, _ in MEASURES if all(key in r for r in rows)]
        if set(keys) != {key for key, _, _ in MEASURES}:
            raise ValueError("resetting a budget needs every measure; run without --static")
        largest = {key: max(r[key] for r in rows) for key in keys}
        budgets["measured"][k] = largest
        budgets["budgets"][k] = {key: new_budget(v, margin) for key, v in largest.items()}
    budgets["margin"] = margin
    budgets["date"] = datetime.now(UTC).strftime("%Y-%m-%d")
    budgets["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                       text=True).stdout.strip() or "unknown"
    return budgets


def write(budgets: dict) -> None:
    BUDGETS.write_text(json.dumps(budgets, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    README.write_text(replace_between(README.read_text(encoding="utf-8"), MARKERS, readme_table(budgets)),
                      encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site", type=Path, help="a built site (mkdocs build -d SITE)")
    ap.add_argument("--static", action="store_true", help="only the measures read from the files (no browser)")
    ap.add_argument("--reset", nargs="*", metavar="KIND",
                    help="set these kinds' budgets (every kind if none named) from this build, plus the margin, "
                         "and rewrite the README's table")
    args = ap.parse_args(argv)
    budgets = load_budgets() if BUDGETS.exists() else {"budgets": {}, "measured": {}}
    measured = measure(args.site, browser=not args.static)
    print(report(measured, budgets))
    if args.reset is not None:
        write(reset(measured, budgets, args.reset))
        print(f"\nbudgets of {', '.join(args.reset) or 'every kind'} reset: {BUDGETS.relative_to(ROOT)} and README.md")
        return 0
    over = [line for page, m in measured.items() for line in over_budget(page, m, budgets)]
    print("\n" + ("\n".join(over) if over else f"every page within its budget ({len(measured)} pages)"))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
