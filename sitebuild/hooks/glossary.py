"""Glossary tooltips that also work in Chinese text.

The glossary (docs/.snippets/glossary.md) is appended to every page by pymdownx.snippets'
auto_append and read by Python-Markdown's abbr extension. That extension only matches a term
between regex word boundaries (\\b), and Chinese text has none between characters, so a term
like 多头注意力 inside a sentence is never found. This hook adds a small extension that swaps in
a tree processor using ASCII-only boundaries (and case-insensitive matching for English terms).

A term gets its tooltip at its first occurrence in each section (between h2 headings) only:
one per occurrence put thousands of extra elements into the longest pages, which slowed them
down on a phone, and a reader who has just seen the tooltip does not need it again.
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.extensions.abbr import AbbrTreeprocessor

SKIP = {"h1", "h2", "h3", "h4", "h5", "h6"}  # headings stay plain: they also feed the table of contents
SECTION = {"h1", "h2"}  # a term's tooltip appears again after one of these


class CJKAbbrTreeprocessor(AbbrTreeprocessor):
    """Like AbbrTreeprocessor, but a boundary is only required next to an ASCII letter or digit."""

    def iter_element(self, el, parent=None):
        if el.tag not in SKIP:
            super().iter_element(el, parent)

    def __init__(self, md, abbrs):
        super().__init__(md, abbrs)
        self.source = abbrs  # shared with the abbr extension's definition parser

    def run(self, root):
        if not self.source:
            return
        parts = []
        for key in sorted(self.source, key=len, reverse=True):
            left = r"(?<![A-Za-z0-9_-])" if re.match(r"[A-Za-z0-9_]", key[0]) else ""
            right = r"(?![A-Za-z0-9_-])" if re.match(r"[A-Za-z0-9_]", key[-1]) else ""
            flags = "(?i:" if key.isascii() else "(?:"
            parts.append(f"{left}{flags}{re.escape(key)}){right}")
        self.RE = re.compile("|".join(parts))
        self.abbrs = _CaseFolded({k.casefold(): v for k, v in self.source.items()})
        self.iter_element(root)
        first_per_section(root)


def first_per_section(root) -> None:
    """Unwrap every <abbr> whose term already had one earlier in the same section."""
    parent_of = {child: parent for parent in root.iter() for child in parent}
    seen: set[str] = set()
    repeats = []
    for el in root.iter():
        if el.tag in SECTION:
            seen.clear()
        elif el.tag == "abbr" and el in parent_of:
            term = (el.text or "").casefold()
            if term in seen:
                repeats.append(el)
            seen.add(term)
    for el in repeats:
        parent = parent_of[el]
        index = list(parent).index(el)
        text = (el.text or "") + (el.tail or "")
        if index == 0:
            parent.text = (parent.text or "") + text
        else:
            prev = parent[index - 1]
            prev.tail = (prev.tail or "") + text
        parent.remove(el)


class _CaseFolded(dict):
    """Lookups by any capitalisation of an English term."""

    def __getitem__(self, key):
        return super().__getitem__(key.casefold())


class CJKAbbrExtension(Extension):
    def extendMarkdown(self, md):
        abbr = md.parser.blockprocessors["abbr"]  # the abbr extension's definition parser
        md.treeprocessors.register(CJKAbbrTreeprocessor(md, abbr.abbrs), "abbr", 7)


def on_config(config):
    if "abbr" not in config.markdown_extensions:
        raise ValueError("the glossary hook needs the 'abbr' markdown extension in mkdocs.yml")
    config.markdown_extensions.append(CJKAbbrExtension())
    return config
