"""Rendered notebooks in a real browser: accessible in both palettes, and the download is a notebook."""

from __future__ import annotations

import json

import pytest

from .conftest import misbehaved

pytestmark = pytest.mark.browser

CHAPTER = "article/3-pytorch"


@pytest.mark.parametrize(("lang", "scheme"), [("zh", "light"), ("en", "dark")])
def test_notebook_page_has_no_serious_axe_violations(page, server_url, lang, scheme):
    from axe_playwright_python.sync_playwright import Axe

    prefix = "" if lang == "zh" else f"{lang}/"
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{server_url}{prefix}notebooks/{CHAPTER}/", wait_until="networkidle")
    assert page.locator(".jupyter-wrapper .jp-OutputArea-output").count() > 0
    results = Axe().run(page).response
    bad = [f"{v['id']} ({v['impact']}): {v['help']} e.g. {v['nodes'][0]['target']}"
           for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_download_link_serves_the_notebook(page, server_url, lang):
    prefix = "" if lang == "zh" else f"{lang}/"
    page.goto(f"{server_url}{prefix}{CHAPTER}/", wait_until="networkidle")
    link = page.locator("a.notebook-link[download]")
    assert link.count() == 1
    href = link.get_attribute("href")
    response = page.request.get(page.url + href)
    assert response.ok
    nb = json.loads(response.body())
    assert nb["nbformat"] == 4 and nb["metadata"]["mha"]["lang"] == lang
    # the rendered page links back to the chapter
    page.locator("a.notebook-link:not([download])").click()
    page.wait_for_load_state("networkidle")
    assert page.url == f"{server_url}{prefix}notebooks/{CHAPTER}/"
    page.locator(".notebook-bar a").first.click()
    page.wait_for_load_state("networkidle")
    assert page.url == f"{server_url}{prefix}{CHAPTER}/"


NOTEBOOK_PAGES = ["index", "faq", "article/1-single-head", "article/2-divide-and-conquer", "article/3-pytorch",
                  "article/4-what-if", "article/4b-second-round", "lab/performance", "lab/real-model",
                  "lab/kv-heads", "lab/kv-heads-accuracy", "roadmap"]

# Every element's computed style (and that of its ::before/::after when they have content), one
# string per element, leaving out custom properties: a variable nothing reads styles nothing.
_SNAPSHOT = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    for (const pseudo of [null, '::before', '::after']) {
      const style = getComputedStyle(el, pseudo);
      if (pseudo && style.content === 'none') { out.push(''); continue; }
      let text = '';
      for (let i = 0; i < style.length; i++)
        if (!style[i].startsWith('--')) text += style[i] + ':' + style.getPropertyValue(style[i]) + ';';
      out.push(text);
    }
  }
  return out;
}"""

_COMPARE = """() => {
  const before = window.__styles, after = (""" + _SNAPSHOT + """)();
  const els = [...document.querySelectorAll('body *')];
  const differ = [];
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) differ.push(i);
  // the innermost elements first: an ancestor's height differs when a descendant's does
  const inner = differ.filter(i => !differ.some(j => j !== i && els[Math.floor(i / 3)].contains(els[Math.floor(j / 3)]) && els[Math.floor(j / 3)] !== els[Math.floor(i / 3)]));
  const diffs = inner.slice(0, 5).map(i => {
    const was = new Set(before[i].split(';'));
    const changed = after[i].split(';').filter(kv => !was.has(kv)).slice(0, 4);
    const el = els[Math.floor(i / 3)];
    return `<${el.tagName.toLowerCase()} class="${el.className.baseVal ?? el.className}">${['', '::before', '::after'][i % 3]}: ${changed.join(' ')} (was ${before[i].split(';').filter(kv => !new Set(after[i].split(';')).has(kv)).slice(0, 4).join(' ')})`;
  });
  return {before: before.length, after: after.length, diffs};
}"""


SCHEMES = ["light", "dark"]


def compare_stylesheets(page, server_url: str, built_site, name: str, scheme: str) -> None:
    """The served notebook stylesheet is JupyterLab's, cut to the rules the notebooks use: swapping the
    whole stylesheet in gives every element (and pseudo-element) the same computed style."""
    from mkdocs_jupyter.nbconvert2 import nb2html

    from sitebuild.hooks import notebooks as hook
    from sitebuild.notebooks import css as notebook_css

    lang = "en" if scheme == "dark" else "zh"  # both languages, both palettes, without doubling the run
    prefix = "" if lang == "zh" else f"{lang}/"
    folder = built_site / f"{prefix}notebooks/{name}"
    rendered = nb2html(str(next(folder.glob("*.ipynb"))), no_prompt=True, custom_mathjax_url="assets/no-mathjax.js")
    full = hook.jupyter_css(rendered.partition(hook._WRAPPER)[0])
    served = (built_site / hook.STYLESHEET).read_text(encoding="utf-8")
    assert served.endswith(hook.SITE_CSS) and len(served) < len(full) / 10, "the served stylesheet is not the pruned one"
    classes = notebook_css.classes_in((folder / "index.html").read_text(encoding="utf-8"))
    assert classes >= {"jupyter-wrapper", "jp-Cell", "jp-OutputArea-output"}, sorted(classes)[:20]

    page.emulate_media(color_scheme=scheme)
    page.goto(f"{server_url}{prefix}notebooks/{name}/", wait_until="networkidle")
    # site.js's first pass marks the boxes that scroll sideways (showing a wide figure's note) when the
    # browser is idle; under load that came between the two snapshots once. Snapshot after it.
    page.wait_for_function("() => document.documentElement.dataset.scrollChecked")
    # Every cell drawn, so that sizes (computed height, transform-origin...) do not depend on which
    # cells happened to be near the screen.
    page.add_style_tag(content="* { content-visibility: visible !important; }")
    page.evaluate("() => { window.__styles = (" + _SNAPSHOT + ")(); }")
    rules = page.evaluate("""() => document.querySelector('link[href$="assets/notebook.css"]').sheet.cssRules.length""")
    swapped = page.evaluate("""async (css) => {
      const link = document.querySelector('link[href$="assets/notebook.css"]');
      const loaded = new Promise(resolve => link.addEventListener('load', resolve, {once: true}));
      link.href = URL.createObjectURL(new Blob([css], {type: 'text/css'}));
      await loaded;
      return link.sheet.cssRules.length;
    }""", full + "\n" + hook.SITE_CSS)
    result = page.evaluate(_COMPARE)
    assert rules < 400 < 3000 < swapped, (rules, swapped)
    assert result["before"] == result["after"] > 300, (result["before"], result["after"])
    diffs = result["diffs"]
    assert not diffs, "the full JupyterLab stylesheet styles these differently:\n  " + "\n  ".join(diffs)


def sweep(browser, server_url: str, site) -> dict[str, dict]:
    """compare_stylesheets for every notebook page and palette, in tests/browser/sweep.py's process beside
    the session, each in a fresh page like the `page` fixture's (its misbehaviour recorded the same way; each
    wait may take the long TIMEOUT_MS of a process at the lowest priority): "name-scheme" -> what failed."""
    import traceback

    from .conftest import PageLog, guarded_page
    from .sweep import TIMEOUT_MS

    out = {}
    for name in NOTEBOOK_PAGES:
        for scheme in SCHEMES:
            log, error = PageLog(), None
            try:
                with guarded_page(browser, log, TIMEOUT_MS) as page:
                    compare_stylesheets(page, server_url, site, name, scheme)
            except Exception:
                error = traceback.format_exc()
            out[f"{name}-{scheme}"] = {"error": error, "misbehaved": log.problems()}
    return out


@pytest.mark.sweep("stylesheets")
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", NOTEBOOK_PAGES)
def test_pruned_notebook_stylesheet_changes_no_computed_style(built_site, swept, name, scheme):
    """compare_stylesheets(name, scheme), as the sweep ran it (started when the site was built, see
    tests/conftest.py)."""
    record = swept("stylesheets")[f"{name}-{scheme}"]
    if record["error"]:
        pytest.fail(record["error"], pytrace=False)
    assert not record["misbehaved"], misbehaved(record["misbehaved"])
