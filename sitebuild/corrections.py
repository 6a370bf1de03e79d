"""The site's corrections of its source: the boxes on the pages, and the errata table made from them.

A correction box is a collapsed note whose title states what is true and whose body starts with the
source's claim (the house form):

    zh: ??? note "更正：<what is true>"          body: 原文说：…
    en: ??? note "Correction: <what is true>"    body: The source says …

`boxes` finds every box in a page's Markdown, with the id its HTML gets (``correction-<section id>``,
then ``-2``, ``-3`` for a second and third box in the same section): sitebuild/hooks/errata.py sets
that id on the rendered <details> and fills the errata page with `errata_table`, one row per box.

>>> md = '# T { #t }\\n## S { #s }\\n??? note "更正：一样大"\\n    原文说：从 8×64 降到了 1×512。两者一样大。\\n'
>>> [(b.id, b.truth, b.claim) for b in boxes(md, "zh")]
[('correction-s', '一样大', '从 8×64 降到了 1×512。')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from snippets.i18n import LANGS, check_lang, text

PREFIX = {lang: text(lang, "errata.prefix") for lang in LANGS}
SOURCE_SAYS = {lang: text(lang, "errata.source_says") for lang in LANGS}
ADMONITION = re.compile(r'^(?P<indent>\s*)(?P<mark>!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?:\s+[\w-]+)*'
                        r'(?:\s+"(?P<title>.*)")?\s*$')
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*?)\s*\{[^{}]*#(?P<id>[\w.:-]+)[^{}]*\}\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)")
FOOTNOTE_REF = re.compile(r"\[\^[^\]]+\]")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SENTENCE_END = {"zh": re.compile(r"[。！？]"), "en": re.compile(r"[.!?](?=\s+[A-Z“\"(]|\s*$)")}


@dataclass(frozen=True)
class Box:
    line: int  # 1-based line of the box's first line in the page source
    mark: str  # "???", "???+" or "!!!"
    kind: str  # note, warning, ...
    title: str
    section: str  # id of the heading the box is under
    section_title: str
    id: str  # the id its HTML gets (correction boxes only; "" otherwise)
    body: str  # the body's first paragraph, one line
    lang: str

    @property
    def is_correction(self) -> bool:
        return self.title.startswith(PREFIX[self.lang])

    @property
    def is_old_form(self) -> bool:
        """A box titled with the source's claim (原文说… / The source says…) instead of the truth."""
        return self.title.startswith(SOURCE_SAYS[self.lang])

    @property
    def truth(self) -> str:
        return self.title[len(PREFIX[self.lang]):].strip()

    @property
    def claim(self) -> str:
        """The source's claim: the body's first sentence, after 原文说： / The source says."""
        body = self.body
        says = SOURCE_SAYS[self.lang]
        if body.startswith(says):
            body = re.sub(r"^that\s+", "", body[len(says):].lstrip("：:，, "))
        end = SENTENCE_END[self.lang].search(body)
        return body[: end.end()] if end else body


def slug_for(section: str, n: int) -> str:
    return f"correction-{section}" + (f"-{n}" if n > 1 else "")


def boxes(markdown: str, lang: str) -> list[Box]:
    """Every admonition of a page (outside code), with the id its HTML gets if it is a correction box."""
    check_lang(lang)
    lines = markdown.splitlines()
    found: list[Box] = []
    section, section_title, per_section = "", "", {}
    fence = None
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = HEADING.match(line)
        if h:
            section, section_title = h.group("id"), h.group("text").strip()
            continue
        a = ADMONITION.match(line)
        if not a:
            continue
        indent = len(a.group("indent").expandtabs(4))
        body: list[str] = []
        for nxt in lines[i + 1:]:
            if not nxt.strip():
                if body:
                    break
                continue
            if len(nxt.expandtabs(4)) - len(nxt.expandtabs(4).lstrip()) <= indent:
                break
            body.append(nxt.strip())
        title = a.group("title") or ""
        box = Box(i + 1, a.group("mark"), a.group("kind"), title, section, section_title, "",
                  " ".join(body), lang)
        if box.is_correction:
            per_section[section] = per_section.get(section, 0) + 1
            box = Box(**{**box.__dict__, "id": slug_for(section, per_section[section])})
        found.append(box)
    return found


def corrections(markdown: str, lang: str) -> list[Box]:
    return [b for b in boxes(markdown, lang) if b.is_correction]


def cell(markdown: str) -> str:
    """Inline Markdown fit for a table cell on another page: links as their text, pipes escaped."""
    plain = FOOTNOTE_REF.sub("", LINK.sub(r"\1", markdown))
    parts, last = [], 0
    for m in CODE_SPAN.finditer(plain):
        parts.append(plain[last:m.start()].replace("|", r"\|"))
        parts.append(m.group(0).replace("|", r"\|"))
        last = m.end()
    parts.append(plain[last:].replace("|", r"\|"))
    return "".join(parts).strip()


def errata_table(pages: list[tuple[str, str, str]], lang: str) -> str:
    """A Markdown table with one row per correction box.

    pages: (page title, link to the page's source relative to the errata page, page Markdown), in
    the order the rows should appear.
    """
    check_lang(lang)
    rows = []
    for title, link, markdown in pages:
        for box in corrections(markdown, lang):
            where = f"{cell(title)} › {cell(box.section_title)}" if box.section_title else cell(title)
            rows.append(f"| {where} | {cell(box.claim)} | [{cell(box.truth)}]({link}#{box.id}) |")
    if not rows:
        return text(lang, "errata.none") + "\n"
    head = "| " + " | ".join(text(lang, "errata.header")) + " |\n|---|---|---|\n"
    return head + "\n".join(rows) + "\n"
