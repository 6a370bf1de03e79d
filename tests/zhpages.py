"""The Chinese text the style tests read: every zh page and every zh string printed into a page."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path

from conftest import ROOT

from sitebuild import zhstyle

DOCS = ROOT / "docs"
WORDS = sorted(p for p in (ROOT / "snippets" / "words").glob("*.py") if p.name != "__init__.py")


def zh_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.zh.md") if not any(s.startswith(".") for s in p.relative_to(DOCS).parts))


def page_problems(path: Path, check: Callable[[str], list[str]], maths: Callable[[str], list[str]] | None = None,
                  root: Path = ROOT) -> list[str]:
    """'file:line: problem' for each problem `check` finds in the prose of a page (and `maths` in its maths)."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
    found = [f"{name}:{n}: {p}" for n, line in zhstyle.prose_lines(text) for p in check(line)]
    if maths:
        found += [f"{name}:{n}: {p}" for n, tex in zhstyle.math_lines(text) for p in maths(tex)]
    return sorted(found, key=lambda s: int(s.split(":")[1]))


def printed_problems(check: Callable[[str], list[str]], skip: frozenset = frozenset()) -> Iterator[str]:
    """'snippets/words/<module>.py:line [key]: problem' for each problem in a Chinese string that code prints."""
    assert WORDS, "expected the words modules in snippets/words/"
    for path in WORDS:
        for n, key, value in zhstyle.printed_strings(path, "zh"):
            if key in skip:
                continue
            for p in check(zhstyle.printed_prose(value)):
                yield f"snippets/words/{path.name}:{n} [{key}]: {p}"


def report(problems: list[str]) -> str:
    return f"{len(problems)} problems:\n  " + "\n  ".join(problems)


# The text a reader reads on a built page --------------------------------------------------------

ZH_SKIP = {"script", "style", "template", "noscript", "head", "textarea"}
ZH_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
ZH_INLINE = {"a", "abbr", "b", "bdi", "cite", "code", "del", "dfn", "em", "i", "ins", "kbd", "mark", "q", "s",
             "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "label", "tspan"}


class ReaderText(HTMLParser):
    """The text of a page's <article> as a reader reads it, one line per block: prose and the
    sentences, tables and admonitions code printed as Markdown, figure labels (SVG <text>) and alt
    text. Code, raw printed output (<pre>) and maths become the placeholder X, as in
    zhstyle.prose_lines, so a check sees "是 X 的" where the page has "是 `x` 的"."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []  # (tag, mode): "read", "hide" or "mask"
        self.depth = 0  # inside <article>
        self.parts: list[str] = []

    def _mode(self, tag: str, cls: str) -> str:
        outer = self.stack[-1][1] if self.stack else "read"
        classes = cls.split()
        if outer == "hide" or tag in ZH_SKIP or "md-source-file" in classes or "headerlink" in classes:
            return "hide"
        if outer == "mask" or tag in ("code", "pre", "kbd", "math") or "arithmatex" in classes:
            return "mask"
        return "read"

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.depth += 1
        if not self.depth:
            return
        if tag in ZH_VOID:
            if tag == "img" and attrs.get("alt") and not (self.stack and self.stack[-1][1] == "hide"):
                self.parts.append("\n" + attrs["alt"] + "\n")
            elif tag == "br":
                self.parts.append("\n")
            return
        mode = self._mode(tag, attrs.get("class") or "")
        if mode == "mask" and not (self.stack and self.stack[-1][1] == "mask"):
            self.parts.append("X")
        self.stack.append((tag, mode))
        if tag not in ZH_INLINE or "md-button" in (attrs.get("class") or ""):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if not self.depth or tag in ZH_VOID or all(t != tag for t, _ in self.stack):
            if tag == "article" and self.depth:
                self.depth -= 1
            return
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
        self.parts.append("" if tag in ZH_INLINE else "\n")
        if tag == "article":
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            return
        mode = self.stack[-1][1] if self.stack else "read"
        if mode == "read":
            self.parts.append(data)

    def lines(self) -> list[str]:
        return [line.strip() for line in "".join(self.parts).splitlines() if line.strip()]


def reader_lines(html: str) -> list[str]:
    """The lines of text a reader reads on one built page (see ReaderText)."""
    parser = ReaderText()
    parser.feed(html)
    return parser.lines()


def built_zh_pages(site: Path) -> list[Path]:
    """Every Chinese page of a built site (the default language, at the root), rendered notebooks included."""
    return sorted(p for p in site.rglob("index.html") if p.relative_to(site).parts[0] not in ("en", "assets", "search"))


def rendered_problems(site: Path, check: Callable[[str], list[str]]) -> list[str]:
    """'page: problem' for each problem `check` finds in a line a reader reads on a built zh page."""
    found = []
    for page in built_zh_pages(site):
        name = page.relative_to(site).parent.as_posix() or "/"
        for line in reader_lines(page.read_text(encoding="utf-8")):
            found += [f"{name}: {p}" for p in check(line)]
    return found


NUMBERS = re.compile(r"\[[-+−\d.,\s%]+\]|(?<=\d),(?=\d{3}\b)")
CITATION = re.compile(r"^[A-Z][\w.\-]*(?: [A-Z][\w.\-]*)* et al\. [A-Z]")  # a reference list entry


def rendered_prose(line: str) -> str:
    """A rendered line as the prose checks read it: an interval [-1.9, +5.1] is one token (X) and a
    thousands separator is not a comma; a reference list entry ("Ashish Vaswani et al. Title")
    is a citation in the paper's own form, not prose."""
    return "" if CITATION.match(line) else NUMBERS.sub(lambda m: "X" if m.group(0).startswith("[") else "", line)
