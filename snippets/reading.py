"""Reading times of the site's pages, counted from their Markdown sources when the site is built.

What a reader sees by default is counted; what starts collapsed (a ``??? note`` box, an exercise's
solution) and HTML comments are not. Prose is counted by language: Chinese characters at
``ZH_CHARS_PER_MIN`` a minute, English words (and Latin words in Chinese text) at
``EN_WORDS_PER_MIN``. Code and its output are counted by a fixed rule, not by words: every code block
whose source is shown takes ``CODE_SECONDS``, and every block that prints something (a figure, a table,
a sentence) takes ``OUTPUT_SECONDS`` more. The numbered
list right after a shown code block is that block's annotations (``content.code.annotate``): the page shows each
note only when its marker in the code is clicked, so the list is not counted.

>>> c = count_text("# T { #t }\\n\\nOne two three.\\n\\n```python\\nx = 1\\n```\\n", "en")
>>> (c.words, c.chars, c.code, c.outputs)
(4, 0, 1, 0)
>>> count_text("多头注意力。", "zh").chars
5
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from .i18n import check_lang, text

__all__ = ["ZH_CHARS_PER_MIN", "EN_WORDS_PER_MIN", "CODE_SECONDS", "OUTPUT_SECONDS", "Count",
           "count_text", "section_text", "page_count", "CORE_PATH", "DEEP_DIVES", "core_path_table",
           "deep_dive_table", "reading_rule", "docs_dir"]

ZH_CHARS_PER_MIN = 400
EN_WORDS_PER_MIN = 200
CODE_SECONDS = 30
OUTPUT_SECONDS = 20

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^#{1,6}\s+.*?\{[^}]*#([\w.:-]+)[^}]*\}\s*$")
_COLLAPSED = re.compile(r"^(\s*)\?\?\?(?!\+)\s")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z0-9]+(?:['’.-][A-Za-z0-9]+)*")
_STRIP = re.compile(r"\]\([^)]*\)|<[^>]+>|\{[^}]*#[^}]*\}|\{:[^}]*\}|https?://\S+|--8<--.*")


@dataclass(frozen=True)
class Count:
    """What a reader sees of a page: English words, Chinese characters, shown code blocks, printed outputs."""

    words: int
    chars: int
    code: int
    outputs: int

    def __add__(self, other: Count) -> Count:
        return Count(self.words + other.words, self.chars + other.chars, self.code + other.code,
                     self.outputs + other.outputs)

    def minutes(self) -> float:
        """Reading time in minutes by the module's rule."""
        return (self.chars / ZH_CHARS_PER_MIN + self.words / EN_WORDS_PER_MIN
                + (self.code * CODE_SECONDS + self.outputs * OUTPUT_SECONDS) / 60)


def count_text(markdown: str, lang: str) -> Count:
    """Count the prose, code blocks and outputs a reader sees by default in a page's Markdown."""
    check_lang(lang)
    markdown = re.sub(r"<!--.*?-->", " ", markdown, flags=re.S)
    lines = markdown.splitlines()
    words = chars = code = outputs = 0
    hidden: int | None = None  # indent of an open collapsed box
    i = 0
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip())
        if hidden is not None and line.strip() and indent <= hidden:
            hidden = None
        m = _FENCE.match(line)
        if m:
            fence, info = m.group(2), m.group(3)
            j = i + 1
            while j < len(lines) and not (lines[j].strip().startswith(fence) and not lines[j].strip().strip(fence[0])):
                j += 1
            runs = re.search(r"""\bexec=["']?(1|true)""", info, re.I)
            if hidden is None:
                shows_source = not runs or "source=" in info
                code += shows_source
                outputs += bool(runs)
            i = j + 1
            if not runs:
                i = _after_annotations(lines, i, len(m.group(1)))
            continue
        c = _COLLAPSED.match(line)
        if c and hidden is None:
            hidden = len(c.group(1))
        if hidden is None:
            prose = _STRIP.sub(" ", line)
            if c is None and re.match(r"^\s*(!!!|\?\?\?\+)\s", line):
                prose = re.sub(r"^\s*(!!!|\?\?\?\+)\s+[\w-]+", " ", prose)
            chars += len(_CJK.findall(prose))
            words += len(_WORD.findall(_CJK.sub(" ", prose)))
        i += 1
    return Count(words, chars, code, outputs)


def _after_annotations(lines: list[str], i: int, indent: int) -> int:
    """The index of the first line after the annotation list (a numbered list right after a code block, at the
    block's indent) that starts at or after line i, or i when there is none."""
    k = i
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k == len(lines) or not re.match(r"^ {%d}\d+\.\s" % indent, lines[k]):
        return i
    while k < len(lines) and (not lines[k].strip() or re.match(r"^ {%d}\d+\.\s" % indent, lines[k])
                              or len(lines[k]) - len(lines[k].lstrip()) > indent):
        k += 1
    return k


def section_text(markdown: str, start: str | None, stop: str | None) -> str:
    """The lines from the heading with id start (None: the top) up to the heading with id stop (None: the
    end)."""
    lines = markdown.splitlines()
    ids = [(k, m.group(1)) for k, line in enumerate(lines) for m in [_HEADING.match(line)] if m]
    found = {i for _, i in ids}
    for wanted in (start, stop):
        if wanted is not None and wanted not in found:
            raise ValueError(f"expected a heading id of the page, one of {sorted(found)}, got {wanted!r}")
    first = 0 if start is None else next(k for k, i in ids if i == start)
    last = len(lines) if stop is None else next(k for k, i in ids if i == stop)
    if last < first:
        raise ValueError(f"expected heading {stop!r} after {start!r}")
    return "\n".join(lines[first:last])


def docs_dir() -> Path | None:
    """The site's docs folder beside the lesson package, or None (a notebook outside the repository)."""
    docs = Path(__file__).resolve().parent.parent / "docs"
    return docs if docs.is_dir() else None


def page_count(stem: str, lang: str, sections=((None, None),), docs: Path | None = None) -> Count:
    """The Count of page docs/<stem>.<lang>.md, over the given (start id, stop id) ranges."""
    docs = docs_dir() if docs is None else Path(docs)
    if docs is None:
        raise ValueError("expected the site's docs folder beside the snippets package, found none")
    path = docs / f"{stem}.{check_lang(lang)}.md"
    if not path.is_file():
        raise ValueError(f"expected a page at {path}, found none")
    markdown = path.read_text(encoding="utf-8")
    total = Count(0, 0, 0, 0)
    for start, stop in sections:
        total = total + count_text(section_text(markdown, start, stop), lang)
    return total


# The core path: (page stem, sections counted, key of what the reader can do after it).
CORE_PATH = (
    ("article/1-single-head", ((None, "exercises"),), "one"),
    ("article/2-divide-and-conquer", ((None, "exercises"),), "two"),
    ("article/3-pytorch", ((None, "exercises"),), "three"),
    ("article/4-what-if", ((None, "too-many-heads"), ("what-heads-learn", "pruning"), ("summary", "references")),
     "four"),
    ("lab/induction-heads", ((None, "protocol"), ("phase-change", "causes-four"), ("limits", "exercises")),
     "induction"),
)

# Deep dives: (page stem, prerequisites as core-path stems or deep dives listed above it, key of what it is for).
DEEP_DIVES = (
    ("lab/kv-heads", ("article/3-pytorch",), "kv"),
    ("lab/kv-heads-accuracy", ("article/3-pytorch", "lab/kv-heads"), "kvacc"),
    ("lab/real-model", ("article/3-pytorch",), "real"),
    ("lab/real-decoder", ("article/3-pytorch", "lab/induction-heads"), "decoder"),
    ("article/4b-second-round", ("article/4-what-if",), "secondround"),
    ("lab/performance", ("article/3-pytorch",), "perf"),
    ("faq", ("article/2-divide-and-conquer",), "faq"),
    ("roadmap", (), "roadmap"),
    ("errata", (), "errata"),
)


def _minutes(m: float) -> int:
    return max(1, math.ceil(m))


def _link(stem: str, lang: str, anchor: str = "") -> str:
    """A link from the home page to a page's built address (directory URLs): the build does not rewrite links in
    what a code block prints, so a link to the Markdown source would be a 404."""
    url = "./" if stem == "index" else f"{stem}/"
    return f"[{text(lang, 'reading.title.' + stem)}]({url}{anchor})"


def core_path_table(lang: str, docs: Path | None = None) -> str:
    """The core path as a Markdown table: step, page (with the part read), minutes, what you can do after;
    and a sentence with the total."""
    from .tables import md_table

    if docs is None and docs_dir() is None:
        return text(lang, "reading.no_docs")
    rows, total = [], 0
    for k, (stem, sections, key) in enumerate(CORE_PATH, 1):
        minutes = _minutes(page_count(stem, lang, sections, docs).minutes())
        total += minutes
        part = text(lang, f"reading.part.{key}") if sections[0][1] != "exercises" else ""
        rows.append([k, _link(stem, lang) + part, minutes, text(lang, f"reading.after.{key}")])
    table = md_table(text(lang, "reading.core_header"), rows)
    return table + "\n\n" + text(lang, "reading.core_total", total=total, steps=len(CORE_PATH))


def deep_dive_table(lang: str, docs: Path | None = None) -> str:
    """The other pages as a Markdown table: page, minutes (whole page as it opens), prerequisites, what for."""
    from .tables import md_table

    if docs is None and docs_dir() is None:
        return text(lang, "reading.no_docs")
    steps = {stem: k for k, (stem, _, _) in enumerate(CORE_PATH, 1)}
    rows = []
    for stem, needs, key in DEEP_DIVES:
        minutes = _minutes(page_count(stem, lang, docs=docs).minutes())
        pre = text(lang, "reading.sep").join(
            text(lang, "reading.step", k=steps[n]) if n in steps else _link(n, lang) for n in needs
        ) or text(lang, "reading.none")
        rows.append([_link(stem, lang), minutes, pre, text(lang, f"reading.for.{key}")])
    return md_table(text(lang, "reading.deep_header"), rows)


def reading_rule(lang: str) -> str:
    """The counting rule as a sentence, with the module's rates filled in."""
    return text(lang, "reading.rule", zh=ZH_CHARS_PER_MIN, en=EN_WORDS_PER_MIN, code=CODE_SECONDS,
                output=OUTPUT_SECONDS)
