"""Build hook: a Jupyter notebook for every page that has code, in the page's language.

For each page of the language being built (after mkdocs-static-i18n has picked that language's
files), sitebuild.notebooks builds the notebook from the page and its snippet includes, and runs
it top to bottom with nbclient; a notebook whose cells and code dependencies have not changed
since it last ran clean is read from the cache (<cache root>/notebooks/) instead. A failing cell
fails the build. The rendered page's headings get the chapter page's ids, so anchors are the
same in both languages.

Each notebook is served twice, under the page's language prefix (none for Chinese, en/ for English):
  notebooks/<page>/<name>.<lang>.ipynb  the file to download and open in Jupyter
  notebooks/<page>/                     the same notebook rendered by mkdocs-jupyter (execute: false)
and the page gets "下载 Notebook / Download notebook" and "查看 Notebook / View notebook" links
under its title. Next to them, once for both languages, the site serves what a downloaded notebook's
first cell fetches from the site's own address (SITE_URL):
  notebooks/<lesson wheel>.whl          the lesson code (sitebuild.notebooks.wheel), cached by fingerprint
  notebooks/results/<name>.json         the committed measurements (results/), for the pages that show them
Nothing is written into docs/: the files exist only in the build.

mkdocs-static-i18n 1.3 rebuilds every File in its own on_files (ultrabug/mkdocs-static-i18n#198),
which turns .ipynb pages back into downloads; adding them here, after it (priority -200), avoids that.
"""

from __future__ import annotations

import html
import logging
import re
import time
from pathlib import Path
from types import SimpleNamespace

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel

from resultcache import ROOT, cache_root
from sitebuild import notebooks as nb
from sitebuild.notebooks.build import results_files
from sitebuild.notebooks.wheel import build_wheel
from sitebuild.hooks import build_language
from sitebuild.notebooks import css as notebook_css
from snippets.i18n import texts

log = logging.getLogger("mkdocs.hooks.notebooks")


class NotebookPage(File):
    """A generated page whose source is an executed .ipynb; mkdocs-jupyter renders it."""

    def is_documentation_page(self) -> bool:
        return True


def on_config(config):
    # mkdocs-jupyter caches rendered pages by notebook content, but after each build it deletes the
    # entries that build did not use, and mkdocs-static-i18n builds once per language: one folder
    # per language keeps the other language's pages cached.
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None and jupyter.config.get("cache"):
        i18n = config.plugins.get("i18n")
        lang = (i18n.current_language or i18n.default_language) if i18n else "default"
        jupyter.config["cache_dir"] = str(cache_root() / "mkdocs-jupyter" / lang)
    return config


_RUNNER: list[nb.Background] = []  # once per process: every language's notebooks, started in the first on_files


@event_priority(-200)  # after mkdocs-static-i18n's on_files (-100) and sitebuild.precompute's (-150)
def on_files(files, config):
    """Add each page's notebook (download and rendered view), and start running them all (see on_pre_page).

    They start after sitebuild.precompute has computed the expensive results they read."""
    lang, default = build_language(config)
    prefix = "" if lang == default else f"{lang}/"
    snippet_options = config.mdx_configs.get("pymdownx.snippets", {})
    expand = nb.snippet_expander(**snippet_options)
    count = 0
    # mkdocs-jupyter puts ~0.6 MB of JupyterLab CSS into every notebook page; it is the same for
    # all of them, so the pages share one stylesheet instead, pruned to what they use (on_env).
    stylesheet = File.generated(config, STYLESHEET, content="", inclusion=InclusionLevel.NOT_IN_NAV)
    for page in list(files.documentation_pages()):
        suffix = f".{lang}.md"
        if not page.src_uri.endswith(suffix) or page.abs_src_path is None:
            continue
        stem = page.src_uri[: -len(suffix)]
        notebook = nb.build_notebook(page.content_string, stem, lang, site_url=config.site_url or "",
                                     expand=expand, source=f"docs/{page.src_uri}")
        if notebook is None:
            continue
        # The executed file's name depends on results the chapter pages may still compute: on_pre_page sets it.
        cached = cache_root() / "notebooks" / "not-run-yet.ipynb"
        count += 1
        folder = f"notebooks/{stem}"
        name = f"{Path(stem).name}.{lang}.ipynb"
        download = File.generated(config, f"{folder}/{name}", abs_src_path=str(cached),
                                  inclusion=InclusionLevel.NOT_IN_NAV)
        download.dest_uri = f"{prefix}{folder}/{name}"
        view = NotebookPage.generated(config, f"{folder}.{lang}.ipynb", abs_src_path=str(cached),
                                      inclusion=InclusionLevel.NOT_IN_NAV)
        view.dest_uri = f"{prefix}{folder}/index.html"
        # What mkdocs-static-i18n's language switcher reads: this notebook in each language.
        view.locale, view.locale_alternate_of = lang, lang
        view.alternates = {
            code: SimpleNamespace(url=f"{'' if code == default else code + '/'}{folder}/")
            for code in nb.LANGS
        }
        view.notebook_of, view.download, view.stylesheet = page, download, stylesheet
        view.heading_ids = nb.heading_ids(notebook)
        view.notebook = notebook
        page.notebook = SimpleNamespace(download=download, view=view)
        files.append(download)
        files.append(view)
    if count:
        files.append(stylesheet)
    if count and lang == default:  # one copy for both languages, at the address the notebooks name
        served = [(f"notebooks/{path.name}", path) for path in [build_wheel()]]
        served += [(f"notebooks/results/{name}", ROOT / "results" / name) for name in results_files()]
        for uri, path in served:
            data = File.generated(config, uri, abs_src_path=str(path), inclusion=InclusionLevel.NOT_IN_NAV)
            data.dest_uri = uri
            files.append(data)
    if not _RUNNER:  # once per process: every language's notebooks, in the background
        options = config.mdx_configs.get("pymdownx.snippets", {})
        everything = nb.all_notebooks(Path(config.docs_dir), site_url=config.site_url or "", options=options)
        # The language being built first, so its notebook pages wait least.
        ordered = sorted(everything, key=lambda item: item[1] != lang)
        _RUNNER.append(nb.Background([notebook for _, _, notebook in ordered]))
    return files



@event_priority(50)  # before mkdocs-jupyter's on_pre_page, which reads the file
def on_pre_page(page, config, files):
    """Wait for the page's notebook (started in the background in on_files), or run it now.

    The background run covers every notebook built from the pages on disk; one built differently
    (a drill, a page edited under `mkdocs serve`) runs here.
    """
    if getattr(page.file, "notebook_of", None) is None:
        return page
    if _RUNNER:
        _RUNNER[0].wait(page.file.notebook)
    if not nb.is_executed(page.file.notebook):
        start = time.perf_counter()
        log.info("notebook %s: running", page.file.notebook.metadata["mha"]["page"])
        nb.executed_path(page.file.notebook)
        log.info("notebook %s: ran in %.1f s", page.file.notebook.metadata["mha"]["page"], time.perf_counter() - start)
    path = str(nb.current_path(page.file.notebook))
    page.file.abs_src_path = page.file.download.abs_src_path = path
    return page


def on_page_markdown(markdown, page, config, files):
    if nb.RUN_MARKER in markdown:  # the home page: how to run a notebook, the text each notebook's first cell has
        markdown = markdown.replace(nb.RUN_MARKER, nb.run_instructions(build_language(config)[0]))
    notebook = getattr(page.file, "notebook", None)
    if getattr(page.file, "notebook_of", None) is not None:
        # The chapter page is what search should find; the notebook repeats it.
        page.meta["search"] = {"exclude": True}
        return markdown
    if notebook is None:
        return markdown
    text = texts(build_language(config)[0], "notebooks")
    up = "../" * page.file.src_uri.count("/")
    links = (
        f'[{text["download"]}]({up}{notebook.download.src_uri}){{ .md-button .notebook-link '
        f'download="{Path(notebook.download.dest_uri).name}" }} '
        f'[{text["view"]}]({up}{notebook.view.src_uri}){{ .md-button .notebook-link }}'
    )
    lines = markdown.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
    return "\n".join(lines[:at] + ["", links, ""] + lines[at:])


_LOADERS = re.compile(
    r'(?:<!-- Load mathjax -->\s*)?<script src="[^"]*"> </script>\s*<!-- MathJax configuration -->.*?'
    r"<!-- End of mathjax configuration -->"
    r'|<script type="module">(?:(?!</script>).)*?mermaid(?:(?!</script>).)*</script>'
    r"|<!-- End of mermaid configuration -->",
    re.S,
)
_WRAPPER = '<div class="jupyter-wrapper">'
_STYLE = re.compile(r"<style[^>]*>.*?</style>", re.S)
_TRAILING_STYLE = re.compile(r"\s*<style>\s*\['.*?</style>\s*$", re.S)  # a str(list) of CSS already above
STYLESHEET = "assets/notebook.css"
_CLASSES: set[str] = set()  # classes in the rendered notebooks of every language built by this process
# Code colours from the site's palette (Material's variables, light and dark), not nbconvert's
# Pygments theme, whose purple operators and grey prompts fail WCAG contrast.
_TOKENS = {
    "operator": "o ow", "punctuation": "p", "string": "cpf l s s1 s2 sb sc si ss sa dl",
    "special": "cp se sh sr sx", "number": "il m mb mf mh mi mo", "keyword": "k kd kn kp kr kt nd ni nl nt",
    "name": "kc n", "constant": "bp nb no", "function": "nc ne nf nn fm", "comment": "c c1 ch cm cs sd",
    "variable": "na nv vc vg vi vm", "generic": "ge gh go gp gr gs gt gu",
}
SITE_CSS = "\n".join(
    ", ".join(f".md-typeset .highlight-ipynb .{t}" for t in tokens.split()) + f" {{ color: var(--md-code-hl-{k}-color); }}"
    for k, tokens in _TOKENS.items()
) + """
.md-typeset .highlight-ipynb { color: var(--md-code-fg-color); }
/* JupyterLab sets operators in bold; the site's code does not, and their spans are left out of the page
   (sitebuild/hooks/lean_code.py), so notebooks draw them like the rest of the site. */
.md-typeset .highlight-ipynb .o, .md-typeset .highlight-ipynb .ow { font-weight: normal; }
.md-typeset .highlight-ipynb .w { color: inherit; }  /* whitespace, left out of the page too */
.md-typeset .jupyter-wrapper {
  --jp-cell-inprompt-font-color: var(--md-default-fg-color--light);
  --jp-cell-outprompt-font-color: var(--md-default-fg-color--light);
  --jp-cell-prompt-not-active-font-color: var(--md-default-fg-color--light);
  --jp-cell-prompt-not-active-opacity: 1;
}
/* JupyterLab's stylesheet zeroes the negative margin that makes room for the padding Material puts
   around a table, so every full-width table scrolled by that padding, even at 1280 px. */
.md-typeset .jupyter-wrapper .md-typeset__table { padding: 0; }
.md-typeset .jupyter-wrapper .md-typeset__table > table { box-sizing: border-box; }  /* border inside the column */
/* A phone styles and lays out only the cells near the screen (JupyterLab's stylesheet makes styling
   every cell of a long notebook cost over a second there). The last cells too: drawing them from the
   start cost the §4 notebook a fifth of its blocking time on a phone (4x-throttled CPU, median of 6
   loads: 625 -> 495 ms), and Lighthouse's accessibility audit scored 100 without it on 5 notebook pages.
   Cells with a heading are always drawn: the table of contents measures where each heading is on
   every page load, and a heading inside an undrawn cell made the browser lay that cell out then, one
   cell at a time (17 on the §4 notebook). */
.md-typeset .jp-Notebook > .jp-Cell:not(.mha-heading-cell) {
  content-visibility: auto;
  contain-intrinsic-size: auto 320px;
}
"""
# mkdocs-jupyter's copy button per cell: a custom element whose start-up restyled the whole page once
# per cell on a phone. The notebook itself is one click away (download link above), so it goes.
_CLIPBOARD = re.compile(
    r'<script>\s*\(function \(global, factory\)(?:(?!</script>).)*?ClipboardCopyElement.*?</script>'
    r"|<script>\s*document\.addEventListener\('clipboard-copy'.*?</script>"
    r'|<div class="zeroclipboard-container">\s*<clipboard-copy\b.*?</clipboard-copy>\s*</div>'
    r'|<div class="clipboard-copy-txt"[^>]*>[^<]*</div>',  # the hidden copy of each cell's code it copied
    re.S,
)
_CODE_DIV = re.compile(r'<div class="highlight-ipynb ')
# JupyterLab's collapse handle, an empty div before each cell's input and output, which its stylesheet
# hides outright (.jp-Collapser { display: none }, checked in tests/test_internals.py): a phone still
# styled all of them, a hundred on the §4 notebook.
COLLAPSER = re.compile(r'<div class="jp-Collapser[^"]*">\s*</div>\s*')
# A markdown cell's opening tag, when a heading follows before the next cell starts.
_HEADING_CELL = re.compile(
    r'<div class="jp-Cell jp-MarkdownCell(?=[^"]*")(?=(?:(?!<div class="jp-Cell ).)*?<h[1-6][\s>])', re.S)


def mark_heading_cells(body: str) -> str:
    """Give each markdown cell that holds a heading the class mha-heading-cell (always drawn, see SITE_CSS)."""
    return _HEADING_CELL.sub('<div class="mha-heading-cell jp-Cell jp-MarkdownCell', body)
_HEADING = re.compile(r"(<h[1-6][^>]*>)(.*?)(</h[1-6]>)", re.S)
_MATH = re.compile(r"\$([^$<]+)\$")


_ID = re.compile(r'\bid="[^"]*"')
_HREF = re.compile(r'href="#[^"]*"')


def _toc_items(items):
    for item in items:
        yield item
        yield from _toc_items(item.children)


def _page_ids(html_text: str, page) -> str:
    """Give the notebook's headings (and its table of contents) the chapter page's ids, in order.

    nbconvert derives ids from the heading text, which differs between languages; the page's
    { #id } are the same in both, so the language switcher keeps the reader's place.
    """
    ids = page.file.heading_ids
    head, wrapper, body = html_text.partition(_WRAPPER)
    found = _HEADING.findall(body)
    toc = list(_toc_items(page.toc.items)) if page.toc else []
    if len(found) != len(ids) or (toc and len(toc) != len(ids)):
        raise ValueError(f"{page.file.src_uri}: expected {len(ids)} headings with page ids, the rendered notebook "
                         f"has {len(found)} headings and {len(toc)} table-of-contents entries")
    new = iter(ids)

    def swap(m):
        ident = next(new)
        return _ID.sub(f'id="{ident}"', m.group(1), count=1) + _HREF.sub(f'href="#{ident}"', m.group(2)) + m.group(3)

    for item, ident in zip(toc, ids, strict=False):
        item.id = ident
    return head + wrapper + _HEADING.sub(swap, body)


def jupyter_css(head: str) -> str:
    """The CSS of the <style> elements mkdocs-jupyter puts before a rendered notebook."""
    return "\n".join(m.group(0).split(">", 1)[1].rsplit("</style>", 1)[0] for m in _STYLE.finditer(head))


def on_page_content(html_text, page, config, files):
    if getattr(page.file, "notebook_of", None) is None:
        return html_text
    # mkdocs-jupyter adds a MathJax loader (and a Mermaid one); the site loads nothing from other
    # hosts, and headings' $...$ become MathML here, as on the other pages.
    html_text = _CLIPBOARD.sub("", _LOADERS.sub("", html_text))
    head, wrapper, body = html_text.partition(_WRAPPER)
    css = jupyter_css(head)
    stylesheet = page.file.stylesheet
    if getattr(stylesheet, "jupyter_css", css) != css:
        raise ValueError(f"expected the same notebook CSS on every notebook page, {page.file.src_uri} differs")
    stylesheet.jupyter_css = css  # pruned to what the notebooks use in on_env, once every page is rendered
    body = mark_heading_cells(COLLAPSER.sub("", body))
    _CLASSES.update(notebook_css.classes_in(wrapper + body))
    link = f'<link rel="stylesheet" href="{html.escape(stylesheet.url_relative_to(page.file))}">'
    body = _CODE_DIV.sub('<div tabindex="0" class="highlight-ipynb ', body)  # keyboard users can scroll code
    html_text = link + _STYLE.sub("", head) + wrapper + _TRAILING_STYLE.sub("", body)

    def math(m):
        from latex2mathml.converter import convert

        return m.group(1) + _MATH.sub(lambda t: convert(html.unescape(t.group(1))), m.group(2)) + m.group(3)

    html_text = _HEADING.sub(math, html_text)
    html_text = _page_ids(html_text, page)
    text = texts(build_language(config)[0], "notebooks")
    chapter = page.file.notebook_of
    back = chapter.url_relative_to(page.file)
    bar = (
        f'<p class="notebook-bar"><a class="md-button notebook-link" href="{html.escape(back)}">{text["back"]}</a> '
        f'<a class="md-button notebook-link" href="{html.escape(Path(page.file.download.dest_uri).name)}" '
        f'download="{html.escape(Path(page.file.download.dest_uri).name)}">{text["download"]}</a>'
    )
    source = source_url(config.repo_url, config.edit_uri, chapter.src_uri)
    if source:
        bar += f' <a class="md-button notebook-link" href="{html.escape(source)}">{text["source"]}</a>'
    return bar + "</p>" + html_text


def source_url(repo_url: str | None, edit_uri: str | None, src_uri: str) -> str | None:
    """Where the repository shows the page a notebook is generated from, or None when the site names no
    repository (REPO_URL unset). EDIT_URI's edit/ becomes blob/ (GitHub, GitLab); without it, the default
    branch's copy (blob/HEAD/docs/).

    >>> source_url("https://github.com/o/r", "edit/main/docs/", "article/3-pytorch.en.md")
    'https://github.com/o/r/blob/main/docs/article/3-pytorch.en.md'
    >>> source_url("https://gitlab.com/o/r/", None, "faq.zh.md")
    'https://gitlab.com/o/r/blob/HEAD/docs/faq.zh.md'
    >>> source_url(None, None, "faq.zh.md") is None
    True
    """
    if not repo_url:
        return None
    path = re.sub(r"(^|/)edit/", r"\1blob/", edit_uri, count=1) if edit_uri else "blob/HEAD/docs/"
    return f"{repo_url.rstrip('/')}/{path.lstrip('/').rstrip('/')}/{src_uri}"


def on_env(env, config, files):
    """Write the notebook stylesheet: JupyterLab's rules that the rendered notebooks can use, then the site's.

    The classes are collected over every language built in this process: the languages share the
    one stylesheet, and the last one built writes it."""
    stylesheet = files.get_file_from_path(STYLESHEET)
    css = getattr(stylesheet, "jupyter_css", None)
    if css is not None:
        stylesheet.content_string = notebook_css.prune(css, frozenset(_CLASSES), SITE_CSS) + SITE_CSS
    return env


def on_build_error(error):
    """A failed build does not wait for notebooks nobody will read."""
    for runner in _RUNNER:
        runner.close()


def on_shutdown():
    for runner in _RUNNER:
        runner.close()
