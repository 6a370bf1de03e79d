"""Build hook: a widget's script and stylesheet only on the pages that hold the widget.

A page whose HTML contains a marker attribute gets the assets listed for it, linked at the end
of its content, so no other page downloads or runs them (the site's heavy pages are measured
with Lighthouse; every extra render-blocking stylesheet costs a round trip on a phone). The
links are relative, so the site works under any prefix. Site-wide assets stay in mkdocs.yml.
"""

from __future__ import annotations

import html
from pathlib import Path

from mkdocs.utils import get_relative_url

# marker attribute -> (stylesheet, script), paths under docs/
PAGE_ASSETS = {
    "data-whatif-lab": ("assets/whatif-lab.css", "assets/whatif-lab.js"),  # §4's model lab
    "data-headview": ("assets/headview.css", "assets/headview.js"),  # the real model's head viewer
    "data-budget-widget": ("assets/budget-widget.css", "assets/budget-widget.js"),  # §1's attention budget
    "data-induction-live": ("assets/induction-live.css", "assets/induction-live.js"),  # the induction page's live view
}


def links(html_text: str, page_url: str, docs_dir: str, src: str = "") -> str:
    """The <link> and <script> tags the page needs (empty if it holds no widget)."""
    tags = []
    for marker, assets in PAGE_ASSETS.items():
        if marker not in html_text:
            continue
        # Site assets exist once, at the root: mkdocs-static-i18n leaves them out of the English build
        # (fallback_to_default is off), and English pages load them from there as they load site.js.
        missing = [p for p in assets if not (Path(docs_dir) / p).is_file()]
        if missing:
            raise ValueError(f"page {src} holds {marker} but {missing} are not in docs/")
        css, js = (html.escape(get_relative_url(p, page_url)) for p in assets)
        tags.append(f'<link rel="stylesheet" href="{css}">\n<script src="{js}" defer></script>')
    return "\n" + "\n".join(tags) + "\n" if tags else ""


def on_page_content(html_text, page, config, files):
    return html_text + links(html_text, page.url, config.docs_dir, page.file.src_uri)
