"""Build hook: the code a page includes, with comments and docstrings in the page's language.

Before pymdownx.snippets reads a page, each include (`--8<-- "snippets/x.py:section"`) of a section
that the language's catalogue lists (snippets/comments_zh.toml) is expanded here, by the same
expander the notebooks use (sitebuild.notebooks.parse.snippet_expander, which calls
sitebuild.code_comments.localize), with the include line's indentation and the code's annotation
markers kept. pymdownx.snippets then has nothing left to do for those lines; every other include
stays for it, so English pages and uncatalogued sections are read exactly as before.
"""

from __future__ import annotations

from sitebuild.code_comments import catalogue
from sitebuild.hooks import build_language
from sitebuild.notebooks.parse import INCLUDE, snippet_expander

_expanders: dict[int, object] = {}


def _expander(config):
    key = id(config)
    if key not in _expanders:
        _expanders.clear()
        _expanders[key] = snippet_expander(annotations=True, **config.mdx_configs.get("pymdownx.snippets", {}))
    return _expanders[key]


def on_page_markdown(markdown, page, config, files):
    lang = build_language(config)[0]
    sections = catalogue(lang)
    if not sections or "--8<--" not in markdown:
        return markdown
    out = []
    for line in markdown.split("\n"):
        m = INCLUDE.match(line)
        if m is None or m.group("target").strip() not in sections:
            out.append(line)
            continue
        space = line[: len(line) - len(line.lstrip())].expandtabs(4)
        code, _ = _expander(config)(line, lang=lang)
        out += [space + ln for ln in code.split("\n")]
    return "\n".join(out)
