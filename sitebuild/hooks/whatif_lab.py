"""Build hook: the §4 model lab's data files, and its script and stylesheet on the page that holds it.

The site gets ``assets/whatif-lab/`` with the files that sitebuild.whatif_lab writes from the
cached §4 models: an index with the held-out logs, and one file per model, which the page fetches
only when the reader picks that model. Nothing goes into docs/ and nothing is inlined: the lab's
page carries only its empty container.

A page that contains ``data-whatif-lab`` gets docs/assets/whatif-lab.css and whatif-lab.js linked
at the end of its content, so no other page loads them. Both are relative links, so the site
works under any prefix. The container also gets the lab's words in the page's language
(``data-ui``, from snippets.i18n), so the script holds no text of its own.
"""

from __future__ import annotations

import html
import logging
import re
import time
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.utils import get_relative_url

from sitebuild.hooks import build_language

from sitebuild import whatif_lab

MARKER = "data-whatif-lab"
ASSETS = ("assets/whatif-lab.css", "assets/whatif-lab.js")
log = logging.getLogger("mkdocs.hooks.whatif_lab")
_built: dict[str, dict[str, str]] = {}  # one export per process, shared by both languages (same content)


@event_priority(-200)  # after mkdocs-static-i18n's on_files (-100), which rebuilds every File
def on_files(files, config):
    from snippets.whatif.analysis import ANALYSIS_VERSION

    if ANALYSIS_VERSION not in _built:
        start = time.perf_counter()
        _built.clear()
        _built[ANALYSIS_VERSION] = whatif_lab.lab_files()
        log.info("whatif lab: %d files in %.1f s", len(_built[ANALYSIS_VERSION]), time.perf_counter() - start)
    # Like the site's other assets, the data lives once at the site root (both language builds
    # write the same bytes there); English pages reach it through the root's whatif-lab.js.
    for name, text in _built[ANALYSIS_VERSION].items():
        files.append(File.generated(config, f"{whatif_lab.FOLDER}/{name}", content=text,
                                    inclusion=InclusionLevel.NOT_IN_NAV))
    return files


def on_page_content(html_text, page, config, files):
    if MARKER not in html_text:
        return html_text
    # Site assets exist once, at the root: mkdocs-static-i18n leaves them out of the English build
    # (fallback_to_default is off), and English pages load them from there as they load site.js.
    missing = [p for p in ASSETS if not (Path(config.docs_dir) / p).is_file()]
    if missing:
        raise ValueError(f"page {page.file.src_uri} holds the what-if lab but {missing} are not in docs/")
    lang, _ = build_language(config)
    ui = html.escape(whatif_lab.ui_text(lang), quote=True)
    html_text = re.sub(rf"\b{MARKER}(?=[\s>])", f'{MARKER} data-ui="{ui}"', html_text)
    css, js = (html.escape(get_relative_url(p, page.url)) for p in ASSETS)
    return html_text + f'\n<link rel="stylesheet" href="{css}">\n<script src="{js}" defer></script>\n'
