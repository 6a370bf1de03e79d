"""Build hook: the §4 model lab's data files, and its words on the page that holds it.

The site gets ``assets/whatif-lab/`` with the files that sitebuild.whatif_lab writes from the
cached §4 models and the second round's committed ones (results/whatif-sweeps.json): an index
with the held-out logs, and one file per model, which the page fetches only when the reader picks
that model. Nothing goes into docs/ and nothing is inlined: the lab's
page carries only its empty container.

The lab's container (``data-whatif-lab``) gets the lab's words in the page's language
(``data-ui``, from snippets.i18n), so the script holds no text of its own; its script and
stylesheet are linked by sitebuild/hooks/page_assets.py.
"""

from __future__ import annotations

import html
import logging
import re
import time

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel

from sitebuild import whatif_lab
from sitebuild.hooks import build_language

MARKER = "data-whatif-lab"
log = logging.getLogger("mkdocs.hooks.whatif_lab")
_built: dict[str, dict[str, str]] = {}  # one export per process, shared by both languages (same content)


@event_priority(-200)  # after mkdocs-static-i18n's on_files (-100), which rebuilds every File
def on_files(files, config):
    from snippets.whatif.analysis import ANALYSIS_VERSION

    key = ANALYSIS_VERSION + ":" + whatif_lab.second_digest()  # a new results/whatif-sweeps.json: export again
    if key not in _built:
        start = time.perf_counter()
        _built.clear()
        _built[key] = whatif_lab.lab_files()
        log.info("whatif lab: %d files in %.1f s", len(_built[key]), time.perf_counter() - start)
    # Like the site's other assets, the data lives once at the site root (both language builds
    # write the same bytes there); English pages reach it through the root's whatif-lab.js.
    for name, text in _built[key].items():
        files.append(File.generated(config, f"{whatif_lab.FOLDER}/{name}", content=text,
                                    inclusion=InclusionLevel.NOT_IN_NAV))
    return files


def on_page_content(html_text, page, config, files):
    if MARKER not in html_text:
        return html_text
    lang, _ = build_language(config)
    ui = html.escape(whatif_lab.ui_text(lang), quote=True)
    return re.sub(rf"\b{MARKER}(?=[\s>])", f'{MARKER} data-ui="{ui}"', html_text)
