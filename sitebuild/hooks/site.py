"""Build hooks: render math to MathML at build time, fix the build date, show the lessons' progress.

Long work in the lesson code (training, benchmarks, the real model) logs its progress on the
`snippets` logger; this hook sends that logger's INFO records to MkDocs' own output.

Math is written as $...$ / $$...$$; pymdownx.arithmatex (generic mode) marks it up and this
hook replaces the marked-up TeX with MathML from latex2mathml, so pages need no script and
no third-party host to show formulas.
"""

from __future__ import annotations

import html
import logging
import os
import re

# Reproducible builds: the sitemap's dates and anything else that reads the build date.
os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")

from latex2mathml.converter import convert  # noqa: E402

_BLOCK = re.compile(r'<div class="arithmatex">\\\[(.*?)\\\]</div>', re.S)
_INLINE = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.S)


def on_config(config):
    lessons = logging.getLogger("snippets")
    lessons.setLevel(logging.INFO)
    for handler in logging.getLogger("mkdocs").handlers:
        if handler not in lessons.handlers:
            lessons.addHandler(handler)
    return config


def tex_to_mathml(tex: str, display: str) -> str:
    return convert(html.unescape(tex).strip(), display=display)


def on_page_content(html_text: str, page, config, files) -> str:
    html_text = _BLOCK.sub(lambda m: f'<div class="math">{tex_to_mathml(m.group(1), "block")}</div>', html_text)
    return _INLINE.sub(lambda m: f'<span class="math">{tex_to_mathml(m.group(1), "inline")}</span>', html_text)
