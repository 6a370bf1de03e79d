"""Where each page of the built site lives, and what a page looks like from the inside of a browser."""

from __future__ import annotations

from pathlib import Path

from conftest import LANGS, page_stems

OTHER = {"zh": "en", "en": "zh"}


def page_path(stem: str, lang: str) -> str:
    """URL path (relative to the site root) of a page: 'article/x' in 'en' -> 'en/article/x/'."""
    prefix = "" if lang == "zh" else f"{lang}/"
    return prefix if stem == "index" else f"{prefix}{stem}/"


def source_pages() -> list[tuple[str, str]]:
    """(stem, lang) for every Markdown page in docs/, both languages."""
    return [(stem, lang) for stem in page_stems() for lang in LANGS]


def kind(stem: str) -> str:
    """The kind of a page: home, article, faq, roadmap, lab, notebooks, ..."""
    return "home" if stem == "index" else stem.split("/")[0]


def built_pages(site: Path) -> list[str]:
    """URL paths of every HTML page in the built site (except 404.html)."""
    paths = []
    for html in sorted(site.rglob("index.html")):
        rel = html.parent.relative_to(site).as_posix()
        paths.append("" if rel == "." else f"{rel}/")
    return paths


# Opens every <details> and selects every tab that holds one of `selector`'s elements, so that
# hidden figures and formulas can be measured.
REVEAL_JS = """
(selector) => {
  for (const el of document.querySelectorAll(selector)) {
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
      if (node.classList.contains("tabbed-block")) {
        const blocks = [...node.parentElement.children];
        const set = node.closest(".tabbed-set");
        const input = set.querySelectorAll(":scope > input")[blocks.indexOf(node)];
        if (input && !input.checked) input.click();
      }
    }
  }
}
"""

# Problems with figures and formulas: missing, invisible or of zero size.
MEASURE_JS = """
() => {
  const problems = [];
  const describe = (el) => {
    const fig = el.closest("figure");
    const cap = fig && fig.querySelector("figcaption");
    return (cap ? cap.textContent.trim().slice(0, 60) : el.outerHTML.slice(0, 80));
  };
  const figures = [...document.querySelectorAll("figure.mha-fig")];
  for (const fig of figures) {
    const svg = fig.querySelector("svg, img");
    if (!svg) { problems.push(`figure without svg/img: ${describe(fig)}`); continue; }
    const r = svg.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) problems.push(`figure of size ${r.width}x${r.height}: ${describe(svg)}`);
    else if (!svg.checkVisibility({visibilityProperty: true, opacityProperty: true}))
      problems.push(`figure not visible: ${describe(svg)}`);
  }
  const maths = [...document.querySelectorAll("article math")];
  for (const m of maths) {
    const r = m.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) problems.push(`math of size ${r.width}x${r.height}: ${m.outerHTML.slice(0, 80)}`);
    else if (!m.checkVisibility({visibilityProperty: true})) problems.push(`math not visible: ${m.outerHTML.slice(0, 80)}`);
  }
  const raw = document.querySelectorAll("article .arithmatex");
  if (raw.length) problems.push(`${raw.length} formulas left as TeX (.arithmatex)`);
  return {problems, figures: figures.length, maths: maths.length};
}
"""

# At a narrow viewport: does the document scroll sideways, and does anything stick out of the
# screen without sitting in a box of its own that scrolls?
OVERFLOW_JS = """
() => {
  const doc = document.documentElement;
  const vw = doc.clientWidth;
  const problems = [];
  if (doc.scrollWidth > vw) problems.push(`document scrolls sideways: scrollWidth ${doc.scrollWidth} > ${vw}`);
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const root = document.querySelector("article") || document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let el = walker.currentNode; el; ) {
    const r = el.getBoundingClientRect();
    let skip = false;
    if (r.width > 0 && (r.right > vw + 1 || r.left < -1)) {
      let box = el.parentElement;
      while (box && box !== root && !scrolls(box)) box = box.parentElement;
      const br = box && box !== root ? box.getBoundingClientRect() : null;
      if (!br || br.right > vw + 1 || br.left < -1) {
        const cls = typeof el.className === "string" ? el.className : "";
        problems.push(`<${el.tagName.toLowerCase()} class="${cls}"> sticks out (${Math.round(r.left)}..${Math.round(r.right)} of ${vw}) with no scrolling box around it`);
      }
      skip = true;  // its descendants stick out too; one report is enough
    }
    if (el instanceof SVGElement || el.tagName === "math" || el.tagName === "MATH") skip = true;
    el = skip ? skipSubtree(walker) : walker.nextNode();
    if (problems.length > 10) break;
  }
  function skipSubtree(w) {
    do { const s = w.nextSibling(); if (s) return s; } while (w.parentNode());
    return null;
  }
  return problems;
}
"""


def search_and_scroll(page, url: str, query: str, item: str = "li.md-search-result__item") -> None:
    """Open `url`, type `query` into the search box as a reader does, and scroll the results to the end
    until no more come. Material renders the first 10 results, then 4 more each time the list's scroll
    box arrives at its end (a change from "not at the end" to "at the end"), so each round scrolls from
    a little above the end down to it, as a reader's wheel does, rather than jumping there."""
    page.goto(url, wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material searches on keyup; an IME commits with a key press too
    page.locator(item).first.wait_for(state="attached", timeout=15_000)
    count = -1
    for _ in range(30):
        items = page.locator(item).count()
        if items == count:
            return
        count = items
        page.eval_on_selector(".md-search__scrollwrap", "e => e.scrollTo(0, e.scrollHeight - e.clientHeight - 100)")
        page.wait_for_timeout(100)
        page.eval_on_selector(".md-search__scrollwrap", "e => e.scrollTo(0, e.scrollHeight)")
        page.wait_for_timeout(300)
