"""Bulky data leaves the HTML (sitebuild/hooks/page_data.py), and highlighted code loses only
spans that carry no style (sitebuild/hooks/lean_code.py)."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from sitebuild.hooks import lean_code, page_data
from snippets.bert.viewer import VIEW_TEXTS, viewer_data


def _script(payload: dict) -> str:
    text = json.dumps(payload).replace("</", "<\\/")  # as snippets.bert.viewer writes it
    return f'<div data-headview><script type="application/json" class="headview-data">{text}</script></div>'


def test_headview_texts_move_to_a_shared_file(tmp_path):
    texts = [{"label": "</script> a", "tokens": ["a"], "weights": "A" * 20_000}]
    page = _script({"layers": 6, "ui": {"error": "x"}, "texts": texts})
    out_zh = page_data.externalise(page, str(tmp_path), "lab/real-model/")
    out_en = page_data.externalise(page.replace('"x"', '"y"'), str(tmp_path), "en/lab/real-model/")
    src = re.search(r'data-src="([^"]+)"', out_zh).group(1)
    assert src.startswith("../../assets/page-data/") and src.endswith(".json")
    assert re.search(r'data-src="([^"]+)"', out_en).group(1) == "../" + src  # same file, one level deeper
    stored = tmp_path / urljoin("/lab/real-model/", src).lstrip("/")
    assert json.loads(stored.read_text(encoding="utf-8")) == texts
    inline = json.loads(re.search(r">(\{.*\})</script>", out_zh).group(1))
    assert inline == {"layers": 6, "ui": {"error": "x"}}  # sizes and words stay in the page
    assert len(list((tmp_path / page_data.FOLDER).iterdir())) == 1


def test_induction_live_models_move_to_a_file(tmp_path):
    """The induction page's live view: its models (the weights) leave the page, its words stay."""
    models = [{"layers": 2, "weights": {"W_Q": {"shape": [1], "f32": "A" * 20_000}}}]
    text = json.dumps({"ui": {"error": "x"}, "vocab": 64, "models": models})
    page = f'<div data-induction-live><script type="application/json" class="induction-live-data">{text}</script></div>'
    out = page_data.externalise(page, str(tmp_path), "lab/induction-heads/")
    m = re.search(r'<script type="application/json" class="induction-live-data" data-src="([^"]+)">(.*)</script>', out)
    assert m and json.loads(m.group(2)) == {"ui": {"error": "x"}, "vocab": 64}
    assert json.loads((tmp_path / urljoin("/lab/induction-heads/", m.group(1)).lstrip("/")).read_text()) == models


def test_small_payloads_and_images_stay_inline(tmp_path):
    small = _script({"texts": [{"weights": "AAAA"}]})
    assert page_data.externalise(small, str(tmp_path), "x/") == small
    tiny_png = f'<image xlink:href="data:image/png;base64,{base64.b64encode(b"p" * 100).decode()}"/>'
    assert page_data.externalise(tiny_png, str(tmp_path), "x/") == tiny_png
    big = b"\x89PNG" + bytes(range(256)) * 64
    out = page_data.externalise(f'<image xlink:href="data:image/png;base64,{base64.b64encode(big).decode()}"/>',
                                str(tmp_path), "x/")
    href = re.search(r'xlink:href="([^"]+)"', out).group(1)
    assert href.startswith("../assets/page-data/") and (tmp_path / href[3:]).read_bytes() == big


def test_built_real_model_pages_fetch_their_data(built_site):
    expected = viewer_data(VIEW_TEXTS)["texts"]
    for url in ("lab/real-model/", "en/lab/real-model/"):
        html = (built_site / url / "index.html").read_text(encoding="utf-8")
        assert "data:image/png;base64," not in html or all(
            len(m) * 3 // 4 < page_data.MIN_BYTES for m in re.findall(r"data:image/png;base64,([^\"]+)", html))
        src = re.search(r'class="headview-data" data-src="([^"]+)"', html).group(1)
        data = built_site / urljoin(f"/{url}", src).lstrip("/")
        assert json.loads(data.read_text(encoding="utf-8")) == expected
        for image in re.findall(r'<image\b[^>]*xlink:href="([^"]+\.png)"', html):
            assert (built_site / urljoin(f"/{url}", image).lstrip("/")).is_file()


# --- lean code ---------------------------------------------------------------------------------------

def test_lean_keeps_the_text_and_drops_only_unstyled_spans():
    code = ('<span class="kn">from</span><span class="w"> </span><span class="nn">a</span><span class="w"> </span>'
            '<span class="kn">import</span> <span class="n">b</span><span class="p">(</span><span class="p">)</span>'
            '<span class="c1"># x</span>')
    out = lean_code.lean(code)
    assert re.sub(r"<[^>]+>", "", out) == re.sub(r"<[^>]+>", "", code)
    assert out == ('<span class="kn">from</span> <span class="nn">a</span> <span class="kn">import</span> b()'
                   '<span class="c1"># x</span>')


def test_lean_touches_only_code():
    html = '<p><span class="n">note</span></p><pre><code><span class="n">x</span></code></pre>'
    assert lean_code.on_page_content(html, None, None, None) == '<p><span class="n">note</span></p><pre><code>x</code></pre>'


def test_lean_reaches_notebook_code_cells_but_not_their_outputs():
    cell = ('<div tabindex="0" class="highlight-ipynb hl-python"><pre><span></span><span class="n">x</span>'
            '<span class="w"> </span><span class="o">=</span> <span class="mi">1</span>\n</pre></div>')
    output = '<div class="jp-RenderedText"><pre><span class="n">x</span></pre></div>'
    assert lean_code.on_page_content(cell + output, None, None, None) == (
        '<div tabindex="0" class="highlight-ipynb hl-python"><pre>x = <span class="mi">1</span>\n</pre></div>' + output)


def _theme_css(site: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in (site / "assets" / "stylesheets").glob("*.css"))


def _rules(css: str) -> list[tuple[str, str]]:
    """(selector, declarations) of every rule, comments left out."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return [(sel.strip(), body.strip()) for sel, body in re.findall(r"([^{}]*)\{([^{}]*)\}", css)]


def _rules_styling(css: str, block: str, cls: str) -> list[tuple[str, str]]:
    """(selector, declarations) of the CSS rules that style token class `cls` inside code blocks `.block`."""
    return [(sel, body) for sel, body in _rules(css) if re.search(rf"\.{block} \.{cls}(?![\w-])", sel)]


def _declarations(body: str) -> dict[str, str]:
    return {k.strip(): v.strip() for k, v in (d.split(":", 1) for d in body.split(";") if d.strip())}


@pytest.mark.parametrize("cls", lean_code.PLAIN)
def test_unwrapped_classes_look_like_plain_code_in_the_theme(built_site, cls):
    """If a theme update gives .n, .o, .p or .w a look of its own, unwrapping them would lose it: fail then.
    (tests/browser/test_readable.py compares the computed styles; this fails sooner, without a browser.)"""
    theme = _theme_css(built_site)
    site = (built_site / "assets" / "site.css").read_text(encoding="utf-8")
    styled = _rules_styling(theme + site, "highlight", cls)
    if cls not in lean_code.COLOUR:
        assert styled == []
        return
    var = f"--md-code-hl-{lean_code.COLOUR[cls]}-color"
    assert styled and all(_declarations(body) == {"color": f"var({var})"} for _, body in styled), styled
    # the variable is the code's colour: as the site sets it for every palette, or else as the theme does
    ours = [(sel, body) for sel, body in _rules(site) if var in body]
    if ours:
        assert [sel for sel, _ in ours] == ["[data-md-color-scheme]"], ours  # every palette, after the theme's
        values = {_declarations(body)[var] for _, body in ours}
    else:
        values = {v.strip() for v in re.findall(rf"{var}:([^;}}]+)", theme)}
    assert values == {"var(--md-code-fg-color)"}, values


@pytest.mark.parametrize("cls", lean_code.PLAIN)
def test_unwrapped_classes_look_like_plain_code_in_notebooks(built_site, cls):
    """Notebook code cells: the site's rules (.md-typeset first, so they win over JupyterLab's) override
    every declaration JupyterLab makes for the class, with the colour variable checked above (whitespace:
    the surrounding colour) and the normal weight."""
    css = (built_site / "assets" / "notebook.css").read_text(encoding="utf-8")
    rules = _rules_styling(css, "highlight-ipynb", cls)
    ours, jupyterlab = {}, {}
    for sel, body in rules:
        (ours if sel.startswith(".md-typeset ") else jupyterlab).update(_declarations(body))
    assert set(jupyterlab) <= set(ours), f"the site leaves JupyterLab's {jupyterlab} for .{cls}"
    colour = f"var(--md-code-hl-{lean_code.COLOUR[cls]}-color)" if cls in lean_code.COLOUR else "inherit"
    assert ours.pop("color") == colour
    assert set(ours.values()) <= {"normal"}, ours
    base = re.findall(r"\.md-typeset \.highlight-ipynb \{([^}]*)\}", css)
    assert any("color: var(--md-code-fg-color)" in b for b in base), "notebook code text must be the code colour"
