"""Third-party internals the build relies on, each checked through the library itself.

On the day an upgrade changes one of them, one of these tests fails, instead of the site
quietly losing its notebook anchors, language switcher links or glossary tooltips:
- mkdocs-static-i18n reads `File.alternates` and `File.locale_alternate_of` for the language switcher
  (sitebuild/hooks/notebooks.py sets them on generated notebook pages);
- mkdocs-jupyter's HTML: one `jupyter-wrapper` div, a MathJax loader, headings with ids
  (sitebuild/hooks/notebooks.py removes the loader and puts the page's heading ids in);
- Python-Markdown's abbr extension (sitebuild/hooks/glossary.py): tests/test_faq.py renders the
  glossary through it, and the definition parser's `abbrs` is checked here.
The markdown-exec runner the exec cache replaces is covered in tests/test_exec_cache.py.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import markdown
import nbformat
import pytest

from sitebuild.hooks import notebooks as hook


def test_static_i18n_switcher_reads_the_alternates_we_set():
    from mkdocs_static_i18n.reconfigure import ExtendedPlugin

    plugin = ExtendedPlugin.__new__(ExtendedPlugin)
    plugin.extra_alternate = [{"lang": "zh", "link": "/"}, {"lang": "en", "link": "/en/"}]
    config = SimpleNamespace(extra=SimpleNamespace(alternate=None))
    file = SimpleNamespace(locale="en", locale_alternate_of="en",
                           alternates={"zh": SimpleNamespace(url="notebooks/x/"),
                                       "en": SimpleNamespace(url="en/notebooks/x/")})
    page = SimpleNamespace(url="en/notebooks/x/", file=file)
    plugin.reconfigure_page_context({}, page, config, nav=None)
    assert [a["link"] for a in config.extra.alternate] == ["notebooks/x/", "en/notebooks/x/"]


@pytest.fixture
def rendered(tmp_path):
    """A small executed-looking notebook, converted to HTML by mkdocs-jupyter as the site does it."""
    from mkdocs_jupyter.convert import nb2html

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title · Notebook\n\nIntro."),
        nbformat.v4.new_markdown_cell("## First $x$"),
        nbformat.v4.new_code_cell("print(1)"),
    ])
    path = tmp_path / "x.ipynb"
    nbformat.write(nb, path)
    return nb2html(str(path), custom_mathjax_url="assets/no-mathjax.js")


def test_mkdocs_jupyter_html_has_what_the_hook_rewrites(rendered):
    head, wrapper, body = rendered.partition(hook._WRAPPER)
    assert wrapper, "no jupyter-wrapper div"
    assert hook._LOADERS.search(rendered), "the MathJax loader the hook removes is not where it was"
    assert not hook._LOADERS.search(hook._LOADERS.sub("", rendered))
    assert len(hook._HEADING.findall(body)) == 2
    page = SimpleNamespace(file=SimpleNamespace(heading_ids=["top", "first"], src_uri="x.ipynb"), toc=None)
    out = hook._page_ids(rendered, page)
    assert 'id="top"' in out and 'id="first"' in out and 'href="#first"' in out
    page.file.heading_ids = ["only-one"]
    with pytest.raises(ValueError, match="expected 1 headings with page ids, the rendered notebook has 2"):
        hook._page_ids(rendered, page)


def test_collapsers_the_hook_drops_are_hidden_by_jupyterlab(rendered):
    """The hook leaves JupyterLab's collapse handles out of the page: they must be ones its stylesheet hides."""
    head, _, body = rendered.partition(hook._WRAPPER)
    assert len(hook.COLLAPSER.findall(body)) == 3  # one per cell input, one for the code cell's output
    assert "jp-Collapser" not in hook.COLLAPSER.sub("", body)
    rules = re.findall(r"([^{}]*)\{([^{}]*)\}", hook.jupyter_css(head))
    hidden = {s.strip() for sel, body in rules if "display:none" in body.replace(" ", "") for s in sel.split(",")}
    assert ".jupyter-wrapper .jp-Collapser" in hidden, "JupyterLab no longer hides .jp-Collapser"


def test_cells_with_a_heading_are_marked_and_only_those(rendered, tmp_path):
    """Cells holding a heading stay drawn (the table of contents measures headings): the hook marks them."""
    from mkdocs_jupyter.convert import nb2html

    _, _, body = rendered.partition(hook._WRAPPER)
    marked = hook.mark_heading_cells(body)
    assert marked.count("mha-heading-cell") == 2 == len(hook._HEADING.findall(body))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("Text, no heading."),
                                         nbformat.v4.new_code_cell("x = 1"),
                                         nbformat.v4.new_markdown_cell("## After")])
    nbformat.write(nb, tmp_path / "y.ipynb")
    _, _, body = nb2html(str(tmp_path / "y.ipynb"), custom_mathjax_url="x").partition(hook._WRAPPER)
    cells = hook.mark_heading_cells(body).split('<div class="')
    assert [c.split('"')[0] for c in cells if "MarkdownCell" in c.split('"')[0]] == [
        "jp-Cell jp-MarkdownCell jp-Notebook-cell", "mha-heading-cell jp-Cell jp-MarkdownCell jp-Notebook-cell"]


def test_abbr_definition_parser_is_where_the_glossary_hook_reads_it():
    md = markdown.Markdown(extensions=["abbr"])
    md.convert("*[MHA]: multi-head attention\n\nMHA")
    assert md.parser.blockprocessors["abbr"].abbrs == {"MHA": "multi-head attention"}
