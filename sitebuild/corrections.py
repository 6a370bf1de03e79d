"""The site's checks of its source: the boxes on the pages, and the errata table made from them.

A correction box is a collapsed note with the class ``correction``. Its title states what is true, in
the page's own voice (no "Correction:" label), and its body opens with the source's claim as a block
quote, quoted or restated; the explanation follows:

    ??? note correction "<what is true>"
        > <the source's claim>

        <why, with the evidence>

`boxes` finds every box in a page's Markdown, with the id its HTML gets (``correction-<section id>``,
then ``-2``, ``-3`` for a second and third box in the same section): sitebuild/hooks/errata.py sets
that id on the rendered <details> and fills the errata page with `errata_table`, one row per box.

>>> md = '# T { #t }\\n## S { #s }\\n??? note correction "一样大"\\n    > 从 8×64 降到了 1×512。\\n\\n    两者一样大。\\n'
>>> [(b.id, b.truth, b.claim) for b in boxes(md, "zh")]
[('correction-s', '一样大', '从 8×64 降到了 1×512。')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from snippets.i18n import LANGS, check_lang, fill, text

CLASS = "correction"  # the class that makes an admonition a correction box
# A title or heading that opens with one of these reads as fault-finding: state what is true instead.
CORRECTION_VERB = re.compile(r"^\s*(?:" + "|".join(
    re.escape(verb) + (r"\b" if verb.isascii() else "") for lang in LANGS for verb in text(lang, "errata.verbs").split("|")) + ")",
    re.I)
ADMONITION = re.compile(r'^(?P<indent>\s*)(?P<mark>!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?P<classes>(?:\s+[\w-]+)*)'
                        r'(?:\s+"(?P<title>.*)")?\s*$')
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*?)\s*\{[^{}]*#(?P<id>[\w.:-]+)[^{}]*\}\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)")
FOOTNOTE_REF = re.compile(r"\[\^[^\]]+\]")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


@dataclass(frozen=True)
class Box:
    line: int  # 1-based line of the box's first line in the page source
    mark: str  # "???", "???+" or "!!!"
    kind: str  # note, warning, ...
    title: str
    classes: tuple[str, ...]  # the admonition's classes after its kind
    section: str  # id of the heading the box is under
    section_title: str
    id: str  # the id its HTML gets (correction boxes only; "" otherwise)
    body: str  # the body's first paragraph, one line
    lang: str
    quote: str = ""  # the body's first paragraph without its "> " marks, if it is a block quote

    @property
    def is_correction(self) -> bool:
        return CLASS in self.classes

    @property
    def truth(self) -> str:
        return self.title.strip()

    @property
    def claim(self) -> str:
        """The source's claim: the block quote the body opens with ("" if it opens otherwise)."""
        return self.quote


def quote_of(lines: list[str]) -> str:
    """The text of a paragraph that is a block quote ("" if it is not one)."""
    if not lines or not all(line.startswith(">") for line in lines):
        return ""
    return " ".join(line[1:].strip() for line in lines).strip()


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
        box = Box(i + 1, a.group("mark"), a.group("kind"), title, tuple(a.group("classes").split()), section, section_title, "",
                  " ".join(body), lang, quote_of(body))
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


QUESTION = re.compile(r"^q\d+$")  # the FAQ's question anchors: q1 ... q20


def faq_verdict(markdown: str, lang: str) -> str:
    """The FAQ's verdict on the source's answers, counted from the page: how many of its questions (sections
    with an id q1, q2, ...) hold a correction box, and which stand as written (linked by their titles)."""
    check_lang(lang)
    titles = {m.group("id"): m.group("text") for m in map(HEADING.match, _outside_code(markdown.splitlines()))
              if m and QUESTION.match(m.group("id"))}
    questions = list(titles)
    if not questions:
        raise ValueError("expected the FAQ's questions as headings with ids q1, q2, ...; found none")
    corrected = {b.section for b in corrections(markdown, lang)}
    standing = [q for q in questions if q not in corrected]
    links = text(lang, "faq.verdict_join").join(f"[{titles[q]}](#{q})" for q in standing)
    links = text(lang, "faq.verdict_lead") + links if links else ""  # after fill's forms, whose "#" is the count
    return fill(text(lang, "faq.verdict"), questions=len(questions), corrected=len(questions) - len(standing),
                standing=len(standing), standing_list=links)


def _outside_code(lines: list[str]) -> list[str]:
    """The lines of a page outside fenced code blocks."""
    out, fence = [], None
    for line in lines:
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
        elif m:
            fence = m.group(1)
        else:
            out.append(line)
    return out
