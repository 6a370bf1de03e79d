"""Building a chapter's notebook from its page and the snippets it includes.

One source of truth: a chapter's notebook is derived from its page, never kept by hand.
In page order, an include (``--8<-- "snippets/x.py:section"``) becomes a code cell holding
that section, read by pymdownx.snippets itself with the site's settings, and an
``exec="1"`` block becomes a code cell, verbatim. The page's headings become short markdown
cells in the page's language (their page ids kept in the cell's metadata, so the rendered
notebook uses the same anchors as the page); the first cell says what the notebook is and
links back. Pages without code get no notebook.

An include cell starts with the imports its section needs from its module (the module's own
import lines, made absolute), so it runs on its own. An ``html="1"`` block prints HTML, so
its cell captures what it prints and the next cell displays it as HTML. The cells import from
the installed ``snippets`` package, so a downloaded notebook runs anywhere the project is installed.
"""

from __future__ import annotations

import ast

from snippets.i18n import check_lang, text

from .imports import bound_names, strip_magics, with_context
from .parse import DEFAULT_LANG, page_parts, snippet_expander

__all__ = ["KERNEL", "page_url", "build_notebook", "heading_ids"]

KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def page_url(stem: str, lang: str, site_url: str = "") -> str:
    """The page's address: 'article/3-pytorch', 'en' -> '<site_url>en/article/3-pytorch/'."""
    path = "" if stem == "index" else stem.removesuffix("/index") + "/"
    prefix = "" if lang == DEFAULT_LANG else f"{lang}/"
    return f"{site_url.rstrip('/')}/{prefix}{path}" if site_url else f"{prefix}{path}"


def _heading(level: int, title: str) -> str:
    return f"{'#' * level} {title}"


def build_notebook(markdown: str, stem: str, lang: str, *, site_url: str = "", expand=None, source: str = ""):
    """The notebook for one page (unexecuted), or None when the page has no code."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    check_lang(lang)
    expand = expand or snippet_expander()
    parts = page_parts(markdown, expand=expand)
    files = sorted({f for p in parts for f in p.files})
    if not any(p.kind != "heading" for p in parts):
        return None
    top = next((p for p in parts if p.kind == "heading" and p.level == 1), None)
    title = top.text if top else stem
    intro = new_markdown_cell(_heading(1, f"{title} · Notebook") + "\n\n"
                              + text(lang, "notebooks.intro", title=title, url=page_url(stem, lang, site_url)))
    intro.metadata["mha"] = {"ids": [top.id] if top and top.id else []}
    cells = [intro]
    defined: set[str] = set()
    pending: dict[int, tuple[str, str]] = {}
    hiding = ""  # the collapsed block whose code cells are being added
    for part in parts:
        if part.kind == "heading":
            hiding = ""
            if part.level > 1:
                pending = {lvl: t for lvl, t in pending.items() if lvl < part.level}
                pending[part.level] = (part.text, part.id)
            continue
        if pending:
            shown = sorted(pending.items())
            cell = new_markdown_cell("\n\n".join(_heading(lvl, t) for lvl, (t, _) in shown))
            cell.metadata["mha"] = {"ids": [i for _, (_, i) in shown]}
            cells.append(cell)
            pending = {}
        if part.collapsed and part.collapsed != hiding:
            # A solution: a cell to try it in first, then its code, collapsed as on the page.
            cells.append(new_code_cell(text(lang, "notebooks.try")))
            cells.append(new_markdown_cell(text(lang, "notebooks.hidden", title=part.collapsed)))
        hiding = part.collapsed
        first = len(cells)
        code = part.text
        if part.kind == "include":
            code = with_context(part, defined)
        if part.kind == "exec" and part.html:
            cells.append(new_code_cell("%%capture printed\n" + code))
            cells.append(new_code_cell("from IPython.display import HTML\n\nHTML(printed.stdout)"))
            defined |= {"printed", "HTML"}
        elif part.kind == "exec" and part.markdown:
            cells.append(new_code_cell("%%capture printed\n" + code))
            cells.append(new_code_cell("from IPython.display import Markdown\n\nMarkdown(printed.stdout)"))
            defined |= {"printed", "Markdown"}
        else:
            cells.append(new_code_cell(code))
        if part.collapsed:
            for cell in cells[first:]:
                cell.metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
        defined |= bound_names(ast.parse(strip_magics(code)))
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": dict(KERNEL),
        "language_info": {"name": "python"},
        "mha": {"page": source or f"docs/{stem}.{lang}.md", "lang": lang, "files": files},
    })
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"  # stable ids: the same page gives the same file
    nbformat.validate(nb)
    return nb


def heading_ids(nb) -> list[str]:
    """The page's heading ids, in the order the notebook's markdown cells show those headings."""
    return [i for cell in nb.cells if cell.cell_type == "markdown" for i in cell.metadata.get("mha", {}).get("ids", [])]
