"""Build hook: every correction box gets a stable id, and the errata page lists them all.

- A small Markdown extension gives each correction box (a <details> with the class ``correction``,
  written ``??? note correction "<what is true>"``) the id ``correction-<id of its section>`` (``-2``, ``-3`` for further boxes in
  the same section), computed the same way from the page source by sitebuild.corrections, so a link
  to a box is checked by the strict build like any other anchor.
- The errata page (docs/errata.{zh,en}.md) holds the marker ``<!-- errata-table -->``; this hook
  replaces it with one table row per correction box on the site's pages in the page's language,
  in navigation order. A new box is a new row at the next build.
- The FAQ's two-minute version holds the marker ``<!-- faq-verdict -->``; this hook replaces it with a
  sentence counting the answers that hold a correction box (sitebuild.corrections.faq_verdict).
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

from sitebuild.corrections import CLASS, errata_table, faq_verdict, slug_for

MARKER = "<!-- errata-table -->"
FAQ_MARKER = "<!-- faq-verdict -->"  # the FAQ's two-minute version: its count of corrected answers
H1 = re.compile(r"^#\s+(.*?)(?:\s*\{[^{}]*\})?\s*$", re.M)
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_nav_pages: list = []


_page_lang = ["zh"]  # the language of the page being rendered (on_page_markdown sets it)


def label_quote(box, lang: str) -> None:
    """Put a line saying whose words they are (原文： / The source:) above the box's quotation of the source: a
    reader who opens the box reads the source's claim first, and without it the claim looked like the site's."""
    from xml.etree.ElementTree import Element

    from snippets.i18n import text

    children = list(box)
    quote = next((c for c in children if c.tag == "blockquote"), None)
    if quote is None or any(c.get("class") == "correction-quote" for c in children):
        return
    label = Element("p", {"class": "correction-quote"})
    label.text, label.tail = text(lang, "correction.quote"), "\n"
    box.insert(children.index(quote), label)


class CorrectionIds(Treeprocessor):
    """Sets the id of every correction box (after attr_list has set the headings' ids), and labels its quotation
    of the source."""

    def run(self, root):
        section, per_section = "", {}
        for el in root.iter():
            if el.tag in HEADINGS and el.get("id"):
                section = el.get("id")
                continue
            classes = (el.get("class") or "").split()
            if el.tag not in ("details", "div") or CLASS not in classes:
                continue
            per_section[section] = per_section.get(section, 0) + 1
            el.set("id", slug_for(section, per_section[section]))
            label_quote(el, _page_lang[0])


class CorrectionIdsExtension(Extension):
    def extendMarkdown(self, md):
        # attr_list (8) sets the headings' ids before; toc and MkDocs' anchor check (5) run after.
        md.treeprocessors.register(CorrectionIds(md), "correction_ids", 6)


def on_config(config):
    config.markdown_extensions.append(CorrectionIdsExtension())
    return config


def on_nav(nav, config, files):
    _nav_pages[:] = list(nav.pages)
    return nav


def language(src_uri: str) -> str:
    return "en" if src_uri.endswith(".en.md") else "zh"


def on_page_markdown(markdown, page, config, files):
    _page_lang[0] = language(page.file.src_uri)
    if FAQ_MARKER in markdown:
        markdown = markdown.replace(FAQ_MARKER, faq_verdict(markdown, language(page.file.src_uri)))
    if MARKER not in markdown:
        return markdown
    lang = language(page.file.src_uri)
    pages = []
    for other in _nav_pages:
        src = other.file.src_uri
        if other is page or not src.endswith(".md") or language(src) != lang:
            continue
        stem = src[: -len(f".{lang}.md")] if src.endswith(f".{lang}.md") else src[:-3]
        text = Path(other.file.abs_src_path).read_text(encoding="utf-8")
        h1 = H1.search(text)
        pages.append((other.title or (h1 and h1.group(1)) or stem, f"{stem}.md", text))
    if not pages:
        raise ValueError(f"{page.file.src_uri}: expected the site's pages in the navigation, found none")
    return markdown.replace(MARKER, errata_table(pages, lang))
