"""Build hook: the text between two headings becomes one block that a phone renders only near the screen.

On the longest pages (the FAQ, §3, §4) a phone spent most of its start-up laying out and styling
text far below the screen, again each time the theme's script touched the page. site.css already
gives code, results, figures and boxes ``content-visibility: auto``; the paragraphs, lists and
formulas between them were still laid out from the start. This extension wraps everything between
two headings in ``<div class="mha-chunk">``, which site.css also renders only near the screen. The
headings stay outside the blocks, so the table of contents, which measures where each heading is,
never forces a block to be laid out. Find in page, links to anchors and screen readers still reach
the text: content-visibility only skips drawing it.

Each block carries a rough height (``--mha-chunk-h``) estimated from its text, its lines of code and
table rows, and its figures' drawn size (what a closed <details> hides and data for scripts count for
nothing), so the scroll bar and jumps to an anchor are about right before the block is first drawn;
after that the browser remembers the real height (``contain-intrinsic-size: auto``). A browser test
keeps every estimate within a factor of two of the drawn height at 1280 px.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
MIN_CHILDREN = 2  # a single paragraph under a heading is not worth a block of its own
_PLACEHOLDER = re.compile("\x02wzxhzdk:(\\d+)\x03")
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)
_VIEWBOX = re.compile(r'<svg\b[^>]*?viewBox="[\d.]+ [\d.]+ ([\d.]+) ([\d.]+)"')
_MAX_WIDTH = re.compile(r"<svg\b[^>]*?max-width: min\(100%, ([\d.]+)px\)")
_PRE = re.compile(r"<pre\b.*?</pre>", re.S)
_TAG = re.compile(r"<[^>]+>")
_UNSEEN = re.compile(r"<(script|style|template)\b.*?</\1>|<details\b(?![^>]*\bopen)[^>]*>.*?</details>", re.S)
COLUMN = 750  # px: the content column at 1280 px (site.css widens Material's grid)


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
        text, lines, height = 0, 0, 0.0
        stash = self.md.htmlStash
        for node in _shown(elements):
            for part in (node.text or "", node.tail or ""):
                for m in _PLACEHOLDER.finditer(part):  # raw HTML: executed output, figures, highlighted code
                    index = int(m.group(1))
                    raw = str(stash.rawHtmlBlocks[index]) if index < len(stash.rawHtmlBlocks) else ""
                    t, n, h = _raw_size(raw)
                    text, lines, height = text + t, lines + n, height + h
                text += len(_PLACEHOLDER.sub("", part))
            if node.tag == "code":
                lines += (node.text or "").count("\n")
        margins = 20 * len(elements)  # about 1em between blocks
        return int(40 + margins + text / 80 * 28 + lines * 21 + height) // 10 * 10


def _shown(elements):
    """The elements and their descendants, leaving out what a closed <details> hides (its summary stays)."""
    for el in elements:
        yield el
        if el.tag == "details" and "open" not in el.attrib:
            yield from _shown([c for c in el if c.tag == "summary"])
        else:
            yield from _shown(list(el))


def _raw_size(raw: str) -> tuple[int, int, float]:
    """Characters of running text, lines of code and table rows, and px of figures in a piece of raw HTML.

    Only <pre> blocks count by their lines: a figure's SVG source has many lines that draw nothing."""
    height = 0.0
    raw = _UNSEEN.sub("", raw)  # data for scripts and closed <details> take no room
    for svg in _SVG.findall(raw):
        box, cap = _VIEWBOX.search(svg), _MAX_WIDTH.search(svg)
        if box:
            width = min(COLUMN, float(cap.group(1)) if cap else COLUMN)
            height += width * float(box.group(2)) / float(box.group(1))
        else:
            height += 360
    rest = _SVG.sub("", raw)
    lines = sum(block.count("\n") + 1 for block in _PRE.findall(rest)) + rest.count("<tr")
    text = len(" ".join(_TAG.sub(" ", _PRE.sub("", rest)).split()))
    return text, lines, height


class ChunkExtension(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(ChunkTreeprocessor(md), "mha_chunks", 0)  # last: after toc and abbr


def on_config(config):
    config.markdown_extensions.append(ChunkExtension())
    return config
