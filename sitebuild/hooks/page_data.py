"""Build hook: bulky data leaves a page's HTML for a file of its own, loaded after the text.

A phone downloads and parses the whole HTML before it draws the page, and on the real-model page
two payloads were more than half of it: the head view's weights (about 150 kB of base64 in a JSON
script) and the all-heads figure's picture (a base64 PNG inside the SVG, which is how matplotlib
embeds an imshow). Both move to files under ``assets/page-data/``, named by a hash of their
content (two builds give the same names; the same data is stored once):

- the head view's texts and weights (the ``texts`` of its ``<script type="application/json"
  class="headview-data">``): the script keeps the sizes and the words, and gains ``data-src``;
  docs/assets/headview.js fetches the file when the viewer comes near the screen (the file holds no
  words, so both languages share it);
- the same for the induction page's live view (``class="induction-live-data"``): its ``models``
  (the trained weights) go to a file that docs/assets/induction-live.js fetches when the view comes
  near the screen;
- ``<image xlink:href="data:image/png;base64,…">`` in an inline SVG points at the PNG file instead;
  the browser fetches it like any image, without holding up the text.

Small payloads (under ``MIN_BYTES``) stay inline: a request costs more than they do. Notebooks
keep everything inline, so a downloaded notebook needs nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

FOLDER = "assets/page-data"
MIN_BYTES = 8192

# the class of a widget's JSON script -> the key whose value leaves the page
LAZY = {"headview-data": "texts", "induction-live-data": "models"}
_JSON = re.compile(r'<script type="application/json" class="(%s)">(.*?)</script>' % "|".join(LAZY), re.S)
_PNG = re.compile(r'xlink:href="data:image/png;base64,([A-Za-z0-9+/=\s]+)"')


def _store(data: bytes, suffix: str, site_dir: str, page_url: str) -> str:
    """Write data to FOLDER under its content hash; the URL relative to the page."""
    name = f"{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    path = Path(site_dir) / FOLDER / name
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return get_relative_url(f"{FOLDER}/{name}", page_url)


def externalise(html_text: str, site_dir: str, page_url: str) -> str:
    """The page with large JSON data and embedded PNGs moved to files (see the module docstring)."""

    def json_file(m: re.Match) -> str:
        cls, payload = m.group(1), json.loads(m.group(2))
        data = json.dumps(payload.pop(LAZY[cls]), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(data) < MIN_BYTES:
            return m.group(0)
        url = html.escape(_store(data, ".json", site_dir, page_url), quote=True)
        rest = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
        return f'<script type="application/json" class="{cls}" data-src="{url}">{rest}</script>'

    def png_file(m: re.Match) -> str:
        data = base64.b64decode(re.sub(r"\s", "", m.group(1)))
        if len(data) < MIN_BYTES:
            return m.group(0)
        return f'xlink:href="{html.escape(_store(data, ".png", site_dir, page_url), quote=True)}"'

    return _PNG.sub(png_file, _JSON.sub(json_file, html_text))


def on_page_content(html_text, page, config, files):
    return externalise(html_text, config.site_dir, page.url)
