"""Build hook: the text between two headings becomes one block that a phone renders only near the screen.

On the longest pages (the FAQ, §3, §4) a phone spent most of its start-up laying out and styling
text far below the screen, again each time the theme's script touched the page. site.css already
gives code, results, figures and boxes ``content-visibility: auto``; the paragraphs, lists and
formulas between them were still laid out from the start. This extension wraps everything between
two headings in ``<div class="mha-chunk">``, which site.css also renders only near the screen. The
headings stay outside the blocks, so the table of contents, which measures where each heading is,
never forces a block to be laid out. Find in page, links to anchors and screen readers still reach
the text: content-visibility only skips drawing it.

Each block carries a rough height (``--mha-chunk-h``) estimated from its text, code lines and
figures, so the scroll bar is about right before the block is first drawn; after that the browser
remembers the real height (``contain-intrinsic-size: auto``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
MIN_CHILDREN = 2  # a single paragraph under a heading is not worth a block of its own
_PLACEHOLDER = re.compile("\x02wzxhzdk:(\\d+)\x03")


class ChunkTreeprocessor(Treeprocessor):
    def run(self, root):
        children = list(root)
        if not any(c.tag in HEADINGS for c in children):
            return
        for c in children:
            root.remove(c)
        run: list = []

        def flush():
            if len(run) >= MIN_CHILDREN:
                div = etree.SubElement(root, "div", {"class": "mha-chunk"})
                div.set("style", f"--mha-chunk-h: {self.estimate(run)}px")
                div.extend(run)
            else:
                root.extend(run)
            run.clear()

        for c in children:
            if c.tag in HEADINGS:
                flush()
                root.append(c)
            else:
                run.append(c)
        flush()

    def estimate(self, elements) -> int:
        """Rough rendered height in px at a desktop width (a placeholder only; the real one replaces it)."""
        text, lines, figures = 0, 0, 0
        stash = self.md.htmlStash
        for el in elements:
            for node in el.iter():
                for part in (node.text or "", node.tail or ""):
                    for m in _PLACEHOLDER.finditer(part):  # raw HTML: executed output, figures
                        raw = str(stash.rawHtmlBlocks[int(m.group(1))]) if int(m.group(1)) < len(
                            stash.rawHtmlBlocks) else ""
                        figures += raw.count("<svg")
                        lines += raw.count("\n")
                    text += len(_PLACEHOLDER.sub("", part))
            lines += sum((n.text or "").count("\n") for n in el.iter("code"))
        return int(40 + text / 80 * 28 + lines * 21 + figures * 360) // 10 * 10


class ChunkExtension(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(ChunkTreeprocessor(md), "mha_chunks", 0)  # last: after toc and abbr


def on_config(config):
    config.markdown_extensions.append(ChunkExtension())
    return config
