"""Build hook: the text between two headings becomes one block that a phone renders only near the screen.

On the longest pages (the FAQ, §3, §4) a phone spent most of its start-up laying out and styling
text far below the screen, again each time the theme's script touched the page. site.css already
gives code, results, figures and boxes ``content-visibility: auto``; the paragraphs, lists and
formulas between them were still laid out from the start. This extension wraps everything between
two headings in ``<div class="mha-chunk">``, which site.css also renders only near the screen. The
headings stay outside the blocks, so the table of contents, which measures where each heading is,
never forces a block to be laid out. Find in page, links to anchors and screen readers still reach
the text: content-visibility only skips drawing it.

Each block carries two guesses of its height, for a wide screen (``--mha-chunk-h``) and for a phone
(``--mha-chunk-h-phone``), from its text (a CJK character is about twice as wide as a Latin one), list
items, lines of code, table rows and figures at their drawn size (what a closed <details> hides and
data for scripts count for nothing). The scroll bar and jumps to an anchor are then about right before
the block is first drawn; after that the browser remembers the real height
(``contain-intrinsic-size: auto``). The guesses err high on purpose: a block laid out by a tool while
still undrawn (axe does this) would otherwise spill over the next one, and axe reported a collapsed
answer's summary as covered by the next. A browser test keeps every guess, on every page at both
widths, between 1x and 2.5x the drawn height.
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
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_UNSEEN = re.compile(r"<(script|style|template)\b.*?</\1>|<details\b(?![^>]*\bopen)[^>]*>.*?</details>", re.S)
_MIN_WIDTH = re.compile(r"<svg\b[^>]*?min-width: ([\d.]+)px")
_WIDE = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
# Column widths in px: at 1280 px (site.css widens Material's grid) and on a phone (390-412 px wide).
WIDTHS = {"wide": 750, "phone": 360}
FONT_PX, LINE_PX, CODE_LINE_PX, ROW_PX, MARGIN_PX, CAPTION_PX = 16, 25.6, 20, 42, 16, 30
INLINE_CODE_EXTRA_EM = 0.3  # on top of the 0.5 em per character counted for any Latin text
PHONE_ROW_EXTRA_PX = 18  # a table row wraps its cells on a phone
SAFETY = 1.25  # measured guesses were 0.85-1.9x the drawn height; this puts them at 1-2.5x (see above)


class ChunkTreeprocessor(Treeprocessor):
    def run(self, root):
        children = list(root)
        if not any(c.tag in HEADINGS for c in children):
            return
        for c in children:
            root.remove(c)
        run: list = []

        def flush():
            # a comment (the glossary include leaves one at the end of every page) draws nothing
            if sum(not self.blank(c) for c in run) >= MIN_CHILDREN:
                div = etree.SubElement(root, "div", {"class": "mha-chunk"})
                guess = self.estimate(run)
                div.set("style", f"--mha-chunk-h: {guess['wide']}px; --mha-chunk-h-phone: {guess['phone']}px")
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

    def blank(self, el) -> bool:
        """Whether el draws nothing: a comment, or a paragraph holding only raw HTML that is only comments."""
        if el.tag is etree.Comment:
            return True
        if el.tag != "p" or len(el) or not _PLACEHOLDER.fullmatch((el.text or "").strip()):
            return False
        index = int(_PLACEHOLDER.fullmatch((el.text or "").strip()).group(1))
        stash = self.md.htmlStash.rawHtmlBlocks
        return index < len(stash) and not _COMMENT.sub("", str(stash[index])).strip()

    def estimate(self, elements) -> dict[str, int]:
        """Rough rendered height in px at each width in WIDTHS (a placeholder only; the real one replaces it)."""
        size = Size(blocks=sum(not self.blank(e) for e in elements))
        stash = self.md.htmlStash
        for node in _shown(elements):
            for part in (node.text or "", node.tail or ""):
                for m in _PLACEHOLDER.finditer(part):  # raw HTML: executed output, figures, highlighted code
                    index = int(m.group(1))
                    raw = str(stash.rawHtmlBlocks[index]) if index < len(stash.rawHtmlBlocks) else ""
                    size.add_raw(raw)
                size.add_text(_PLACEHOLDER.sub("", part))
            if node.tag == "code":
                size.code += (node.text or "").count("\n")
                if "\n" not in (node.text or ""):  # inline code: padded, and an identifier never breaks, so
                    size.text_em += INLINE_CODE_EXTRA_EM * len(node.text or "")  # its lines end early
            elif node.tag == "tr":
                size.rows += 1
            elif node.tag == "li":
                size.blocks += 1  # its own part-filled last line and spacing
        return {name: size.height(width) for name, width in WIDTHS.items()}


def _shown(elements):
    """The elements and their descendants, leaving out what a closed <details> hides (its summary stays)."""
    for el in elements:
        yield el
        if el.tag == "details" and "open" not in el.attrib:
            yield from _shown([c for c in el if c.tag == "summary"])
        else:
            yield from _shown(list(el))


class Size:
    """What a block holds, enough to guess its height at a given column width."""

    def __init__(self, blocks: int):
        self.blocks, self.text_em, self.code, self.rows = blocks, 0.0, 0, 0
        self.figures: list[tuple[float, float, float]] = []  # min width, max width, aspect (h / w)

    def add_text(self, text: str) -> None:
        text = " ".join(text.split())
        wide = len(_WIDE.findall(text))  # a CJK character is about 1 em wide, other text about half that
        self.text_em += wide + 0.5 * (len(text) - wide)

    def add_raw(self, raw: str) -> None:
        """Executed output and figures: only <pre> blocks count by their lines (an SVG's source has
        many lines that draw nothing); data for scripts and closed <details> take no room."""
        raw = _COMMENT.sub("", _UNSEEN.sub("", raw))
        for svg in _SVG.findall(raw):
            box, low, cap = _VIEWBOX.search(svg), _MIN_WIDTH.search(svg), _MAX_WIDTH.search(svg)
            aspect = float(box.group(2)) / float(box.group(1)) if box else 0.5
            self.figures.append((float(low.group(1)) if low else 0.0, float(cap.group(1)) if cap else 1e9, aspect))
        rest = _SVG.sub("", raw)
        self.code += sum(block.count("\n") + 1 for block in _PRE.findall(rest))
        self.rows += rest.count("<tr")
        self.blocks += rest.count("<li")  # printed lists: each item ends in a part-filled line
        self.add_text(_TAG.sub(" ", _PRE.sub("", rest)))

    def height(self, column: int) -> int:
        text = self.text_em * FONT_PX / column * LINE_PX + self.blocks * LINE_PX / 2  # a part-filled last line each
        figures = sum(max(low, min(column, cap)) * aspect + CAPTION_PX for low, cap, aspect in self.figures)
        px = 40 + self.blocks * MARGIN_PX + text + self.code * CODE_LINE_PX + self.rows * (ROW_PX + (PHONE_ROW_EXTRA_PX if column < 500 else 0)) + figures
        return int(px * SAFETY) // 10 * 10


class ChunkExtension(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(ChunkTreeprocessor(md), "mha_chunks", 0)  # last: after toc and abbr


def on_config(config):
    config.markdown_extensions.append(ChunkExtension())
    return config
