"""Every page, both languages, both palettes, in a real browser: results a reader can read.

- figures: at 1280 px every text in a figure is drawn at 10 px or more; at 390 px at 8 px or more, and
  a figure that scrolls sideways in its own box says so in its caption. The size is the font size
  times the text's screen scale (the square root of the determinant of its screen transform), so a
  rotated label counts at its real size, not at its bounding box;
- code, tables, math: at 1280 px nothing on the page scrolls sideways, whatever box it scrolls in
  (hidden tabs and closed <details> are opened first);
- no Markdown left unrendered in the visible text (table rows, **bold**, snippet markers, { #id },
  code fences), read with every block drawn (content-visibility off, as a print would): no paragraph
  with lines that start like list items ("- **…**"), and no printed output (<pre> in a result or a
  notebook output) that is a raw Markdown table;
- at 390 px, at least 60% of the text is drawn at 12 px or more (Lighthouse's legible-font-size rule).

What was measured goes to test-artifacts/readability.json and readability.md.
"""

from __future__ import annotations

import json

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE, misbehaved
from .pages import built_pages

pytestmark = pytest.mark.browser
PALETTES = ("light", "dark")
DESKTOP_MIN_PX = 10
PHONE_MIN_PX = 8
LEGIBLE_SHARE = 0.6  # Lighthouse's font-size audit: at least 60% of the text at 12 px or more on a phone
RESULTS: dict[str, dict] = {}

# Shows every tab of every tab set and opens every <details>, so that hidden code, tables and figures
# are laid out and measured too.
SHOW_ALL_CSS = """
.tabbed-set > .tabbed-content > .tabbed-block { display: block !important; }
* { content-visibility: visible !important; }
"""

MEASURE_JS = """
() => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const root = document.querySelector("article") || document.querySelector(".jp-Notebook") || document.body;
  const describe = (el) => {
    const fig = el.closest("figure");
    const cap = fig && fig.querySelector("figcaption");
    const label = el.getAttribute && el.getAttribute("aria-label");
    return (cap && cap.textContent.trim()) || label || el.textContent.trim();
  };
  const figures = [];
  for (const fig of root.querySelectorAll("figure.mha-fig")) {
    const svg = fig.querySelector("svg");
    let smallest = Infinity, texts = 0;
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      if (!m) continue;
      const px = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) * parseFloat(getComputedStyle(t).fontSize);
      texts += 1;
      smallest = Math.min(smallest, px);
    }
    const scrolls = fig.scrollWidth > fig.clientWidth + 1;
    const note = fig.querySelector(".mha-fig__note");
    figures.push({
      figure: describe(svg).slice(0, 70), texts, smallest: Math.round(smallest * 10) / 10,
      width: Math.round(svg.getBoundingClientRect().width), scrolls,
      says_it_scrolls: !!(note && note.checkVisibility()),
    });
  }
  const overflowing = [];
  // Every box that can scroll sideways is measured, not a list of the usual suspects: a table scrolls
  // in Material's wrapper or by itself (Material makes it an inline-block that scrolls), a notebook
  // cell in its highlight <div>, display math in its own block.
  for (const box of root.querySelectorAll("*")) {
    if (!box.checkVisibility() || !(box.clientWidth > 0)) continue;
    if (!["auto", "scroll"].includes(getComputedStyle(box).overflowX)) continue;  // not a scrolling box
    if (box.scrollWidth > box.clientWidth + 1) {
      overflowing.push({
        kind: box.matches("table, .md-typeset__table, .md-typeset__scrollwrap") ? "table"
          : box.matches(".math, .arithmatex, math") ? "math" : box.matches("figure, svg") ? "figure" : "code",
        by_px: box.scrollWidth - box.clientWidth, width: box.clientWidth,
        text: box.textContent.trim().split("\\n")[0].slice(0, 70),
      });
    }
  }
  return {figures, overflowing};
}
"""

# The share of the page's text (scripts and styles aside, hidden text included) drawn at 12 px or more.
LEGIBLE_JS = """
() => {
  let legible = 0, all = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest("script, style, template, noscript")) continue;
    const chars = n.textContent.trim().length;
    all += chars;
    if (parseFloat(getComputedStyle(n.parentElement).fontSize) >= 12) legible += chars;
  }
  return all ? legible / all : 1;
}
"""

UNRENDERED_JS = """
() => {
  for (const d of document.querySelectorAll("details")) d.open = true;  // boxes are read open, as drawn
  const root = document.querySelector("article") || document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => n.parentElement.closest("code, pre, script, style, math, svg, kbd, samp")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  const blocks = new Map();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const block = n.parentElement.closest("p, li, td, th, h1, h2, h3, h4, h5, h6, div, figcaption, summary, dd, dt");
    blocks.set(block, (blocks.get(block) || "") + n.textContent);
  }
  const patterns = {
    "table row": /\\|\\s*:?-{3,}:?\\s*\\||(?:^|\\n)\\s*\\|[^\\n]*\\|[^\\n]*\\|\\s*(?:\\n|$)/,
    "bold": /\\*\\*[^*\\s](?:[^*\\n]*[^*\\s])?\\*\\*/,
    "snippet marker": /--8<--/,
    "heading id": /\\{\\s*:?\\s*#[\\w.:-]+[^{}\\n]*\\}/,
    "code fence": /```|~~~/,
  };
  const found = [];
  const say = (kind, text, index) =>
    found.push(`${kind}: …${text.slice(Math.max(0, index - 30), index + 40).replace(/\\s+/g, " ")}…`);
  for (const text of blocks.values()) {
    for (const [kind, re] of Object.entries(patterns)) {
      const m = text.match(re);
      if (m) say(kind, text, m.index);
    }
  }
  // Every block is read as drawn: nothing may still be skipped by content-visibility (SHOW_ALL_CSS
  // draws everything, as a print would), or its text would be read but never checked as drawn.
  const skipped = [...root.querySelectorAll("*")].filter(
    (el) => !["visible", ""].includes(getComputedStyle(el).contentVisibility));
  if (skipped.length) found.push(`${skipped.length} blocks not drawn (content-visibility still applies)`);
  // A paragraph whose lines start like list items: a list Markdown did not see ("- **…**").
  for (const p of root.querySelectorAll("p")) {
    if (p.closest("pre, code, script, style, template")) continue;
    const m = p.textContent.match(/\\n[ \\t]*(?:[-*+]|\\d{1,2}\\.)[ \\t]+\\S/);
    if (m) say("list marker in a paragraph", p.textContent, m.index);
  }
  // Printed output (markdown-exec results, notebook outputs) as drawn: no raw Markdown table.
  for (const pre of root.querySelectorAll(".result pre, .jp-OutputArea-output pre")) {
    const text = pre.innerText;
    const m = text.match(/^[ \\t]*\\|[^\\n]*\\|[ \\t]*\\n[ \\t]*\\|?[ \\t]*:?-{3,}:?[ \\t]*(?:\\|[ \\t]*:?-{3,}:?[ \\t]*)+\\|?[ \\t]*$/m);
    if (m) say("Markdown table printed as text", text, m.index);
  }
  return found;
}
"""


def pages(site) -> list[str]:
    """Every page: those written in docs/ and the rendered notebooks."""
    return [p for p in built_pages(site) if not p.startswith(("search/", "en/search/"))]


@pytest.fixture(scope="module")
def report():
    yield RESULTS
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "readability.json").write_text(json.dumps(RESULTS, indent=1, ensure_ascii=False), encoding="utf-8")
    lines = ["| page | palette | width | figure | texts | smallest text px | scrolls in its box |",
             "|---|---|--:|---|--:|--:|---|"]
    for key, r in RESULTS.items():
        page, palette = key.rsplit(" ", 1)
        for width in ("1280", "390"):
            for f in r.get(width, {}).get("figures", []):
                lines.append(f"| /{page} | {palette} | {width} | {f['figure'][:50].replace('|', '/')} | {f['texts']} "
                             f"| {f['smallest']} | {'yes' if f['scrolls'] else 'no'} |")
    lines += ["", "| page | palette | overflowing at 1280 px | unrendered Markdown | text at 12 px or more at 390 px |",
              "|---|---|---|---|--:|"]
    for key, r in RESULTS.items():
        page, palette = key.rsplit(" ", 1)
        over = "; ".join(f"{o['kind']} +{o['by_px']}px: {o['text'][:40]}" for o in r["1280"]["overflowing"]) or "none"
        lines.append(f"| /{page} | {palette} | {over.replace('|', '/')} | {len(r['unrendered'])} "
                     f"| {r['legible_share_390']:.0%} |")
    (ARTIFACTS / "readability.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def measure_every_page(page, server_url: str, built_site, report: dict) -> list[str]:
    """Every page, both palettes, read in one page: what was measured goes to report, what is wrong is
    returned."""
    problems = []
    for palette in PALETTES:
        page.emulate_media(color_scheme=palette)
        for path in pages(built_site):
            key = f"{path} {palette}"
            page.set_viewport_size(DESKTOP)
            page.goto(server_url + path, wait_until="load")
            if page.evaluate("() => localStorage.length") > 0:
                # Material remembers the palette it first used; forget it so the media query decides.
                page.evaluate("() => localStorage.clear()")
                page.goto(server_url + path, wait_until="load")
            scheme = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
            assert scheme in (None, "default" if palette == "light" else "slate"), (path, palette, scheme)
            page.add_style_tag(content=SHOW_ALL_CSS)
            desktop = page.evaluate(MEASURE_JS)
            unrendered = page.evaluate(UNRENDERED_JS)
            # site.js's first pass runs when the browser is idle; under load that can come after the
            # resize below, and its count would then be taken for the phone pass. Wait for it here.
            page.wait_for_function("() => document.documentElement.dataset.scrollChecked")
            checked = page.evaluate("() => document.documentElement.dataset.scrollChecked")
            page.set_viewport_size(PHONE)
            # site.js marks the boxes that scroll 100 ms after a resize, and counts its passes
            page.wait_for_function("n => (document.documentElement.dataset.scrollChecked || '') !== n", arg=checked)
            phone = page.evaluate(MEASURE_JS)
            legible = round(page.evaluate(LEGIBLE_JS), 3)
            report[key] = {"1280": desktop, "390": phone, "unrendered": unrendered, "legible_share_390": legible}
            if legible < LEGIBLE_SHARE:
                problems.append(f"/{path} ({palette}, 390 px): only {legible:.0%} of the text at 12 px or more")
            for f in desktop["figures"]:
                if f["smallest"] < DESKTOP_MIN_PX:
                    problems.append(f"/{path} ({palette}, 1280 px): figure text at {f['smallest']} px: {f['figure']}")
            for f in phone["figures"]:
                if f["smallest"] < PHONE_MIN_PX:
                    problems.append(f"/{path} ({palette}, 390 px): figure text at {f['smallest']} px: {f['figure']}")
                if f["scrolls"] and not f["says_it_scrolls"]:
                    problems.append(f"/{path} ({palette}, 390 px): figure scrolls without saying so: {f['figure']}")
            for o in desktop["overflowing"]:
                problems.append(f"/{path} ({palette}, 1280 px): {o['kind']} scrolls sideways by {o['by_px']} px: "
                                f"{o['text']}")
            problems += [f"/{path} ({palette}): unrendered Markdown: {u}" for u in unrendered]
    return problems


def sweep(browser, server_url: str, site) -> dict:
    """measure_every_page in tests/browser/sweep.py's process, beside the session, in a page like the `page`
    fixture's (its misbehaviour recorded the same way; each wait may take the long TIMEOUT_MS of a process
    at the lowest priority)."""
    from .conftest import PageLog, guarded_page
    from .sweep import TIMEOUT_MS

    log, measured = PageLog(), {}
    with guarded_page(browser, log, TIMEOUT_MS) as page:
        problems = measure_every_page(page, server_url, site, measured)
    return {"report": measured, "problems": problems, "misbehaved": log.problems()}


@pytest.mark.sweep("readable")
def test_every_page_is_readable(built_site, swept, report):
    """Reads what sweep() measured (started when the site was built, see tests/conftest.py)."""
    result = swept("readable")
    report.update(result["report"])
    problems = result["problems"]
    assert report, "no pages measured"
    assert not problems, f"{len(problems)} problems:\n  " + "\n  ".join(problems[:60])
    assert not result["misbehaved"], misbehaved(result["misbehaved"])


# A span of each token class that the build unwraps (sitebuild/hooks/lean_code.py), added to a code
# block beside a bare span: every computed property (custom properties aside) must be the same.
TOKEN_STYLE_JS = """([selector, classes]) => {
  const code = document.querySelector(selector);
  const style = el => {
    const s = getComputedStyle(el), out = {};
    for (let i = 0; i < s.length; i++) if (!s[i].startsWith('--')) out[s[i]] = s.getPropertyValue(s[i]);
    return out;
  };
  const span = cls => {
    const el = document.createElement('span');
    if (cls) el.className = cls;
    el.textContent = '(';
    code.appendChild(el);
    return el;
  };
  const plain = style(span(''));
  const differ = {};
  for (const cls of classes) {
    const s = style(span(cls));
    const props = Object.keys(s).filter(k => s[k] !== plain[k]).map(k => `${k}: ${s[k]} (plain ${plain[k]})`);
    if (props.length) differ[cls] = props;
  }
  return {found: !!code, differ};
}"""


@pytest.mark.parametrize("palette", PALETTES)
@pytest.mark.parametrize(("path", "selector"), [
    ("article/3-pytorch/", ".md-typeset .highlight pre > code"),
    ("en/notebooks/article/3-pytorch/", ".md-typeset .highlight-ipynb > pre"),
])
def test_unwrapped_code_tokens_look_like_plain_code(page, server_url, path, selector, palette):
    from sitebuild.hooks.lean_code import PLAIN

    page.emulate_media(color_scheme=palette)
    page.goto(server_url + path, wait_until="load")
    result = page.evaluate(TOKEN_STYLE_JS, [selector, list(PLAIN)])
    assert result["found"], f"no {selector} on /{path}"
    assert not result["differ"], result["differ"]


# A page that draws its blocks only near the screen, with a paragraph holding a list Markdown did not
# see and a result that printed a Markdown table; and the same page fixed.
DRAWN_LATER = """<!doctype html><html><head><style>.mha-chunk{{content-visibility:auto}}</style></head>
<body><article><div style="height:5000px"></div><div class="mha-chunk">{}</div></article></body></html>"""
BROKEN = DRAWN_LATER.format(
    '<p>as Clark says.\n- <strong>Heads</strong> that look back.</p><details><summary>Answer</summary>'
    '<div class="result"><div class="highlight"><pre><code>| q | keys |\n|---|---|\n| 0 | [1] |</code></pre></div>'
    '</div></details>')
FIXED = DRAWN_LATER.format(
    '<p>as Clark says.</p><ul><li><strong>Heads</strong> that look back.</li></ul><details><summary>Answer</summary>'
    '<div class="result"><table><tr><th>q</th></tr><tr><td>0</td></tr></table></div></details>')


@pytest.mark.parametrize(("html", "expected"), [
    (BROKEN, ["list marker in a paragraph", "Markdown table printed as text"]),
    (FIXED, []),
])
def test_unrendered_check_reads_every_block_as_drawn(page, html, expected):
    page.set_content(html)
    page.add_style_tag(content=SHOW_ALL_CSS)
    assert [f.split(":")[0] for f in page.evaluate(UNRENDERED_JS)] == expected


def test_unrendered_check_sees_blocks_left_undrawn(page):
    page.set_content(BROKEN)  # without SHOW_ALL_CSS the chunk far below the screen is not drawn
    assert page.evaluate(UNRENDERED_JS)[0] == "1 blocks not drawn (content-visibility still applies)"
