"""No Markdown reaches a reader unrendered: the visible text of every built page (both languages,
rendered notebooks included), outside code, holds no table rows, **bold**, snippet markers,
{ #id } heading markers or code fences. The count per page goes to test-artifacts/."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT

ARTIFACTS = ROOT / "test-artifacts"

# Elements whose text is code, maths, or not shown as text at all.
SKIP = {"code", "pre", "kbd", "samp", "script", "style", "template", "textarea", "math", "svg", "noscript", "head"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
PATTERNS = {
    "table row": re.compile(r"(?:^|\n)\s*\|[^\n]*\|[^\n]*\|\s*(?:\n|$)|\|\s*:?-{3,}:?\s*\|"),
    "bold": re.compile(r"\*\*[^*\s](?:[^*\n]*[^*\s])?\*\*"),
    "snippet marker": re.compile(r"--8<--"),
    "heading id": re.compile(r"\{\s*:?\s*#[\w.:-]+[^{}\n]*\}"),
    "code fence": re.compile(r"(?:```|~~~)"),
    "link": re.compile(r"\[[^\[\]\n]+\]\((?:https?://|\.{0,2}/|#)[^)\s]*\)"),
}


class VisibleText(HTMLParser):
    """Text a reader sees, block by block (newlines between block elements), outside SKIP elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.stack: list[tuple[str, bool]] = []  # (tag, hides its text)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        hides = tag in SKIP or any(name == "hidden" for name, _ in attrs)
        self.stack.append((tag, hides))
        self.skip += hides
        self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in VOID or all(t != tag for t, _ in self.stack):
            return
        while self.stack:
            open_tag, hides = self.stack.pop()
            self.skip -= hides
            if open_tag == tag:
                break
        self.parts.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)

    def text(self) -> str:
        return "".join(self.parts)


def unrendered(html: str) -> list[tuple[str, str]]:
    """(kind, excerpt) for each piece of visible text that is still Markdown."""
    parser = VisibleText()
    parser.feed(html)
    text = parser.text()
    found = []
    for kind, pattern in PATTERNS.items():
        for m in pattern.finditer(text):
            start = max(0, m.start() - 30)
            found.append((kind, " ".join(text[start:m.end() + 30].split())))
    return found


@pytest.mark.parametrize(
    ("html", "kind"),
    [
        ("<p>| a | b |\n|---|---|\n| 1 | 2 |</p>", "table row"),
        ("<p>max |d| | x | y</p>", None),
        ("<p>a **bold** word</p>", "bold"),
        ("<p>--8&lt;-- \"snippets/x.py:y\"</p>", "snippet marker"),
        ("<h2>Title { #title }</h2>", "heading id"),
        ("<p>```python\nx = 1</p>", "code fence"),
        ("<p>see [the docs](https://example.org/x)</p>", "link"),
        ("<pre><code>| a | b |\n|---|---|\n**x** ``` { #id }</code></pre>", None),
        ("<p>a <code>**kwargs</code> and <strong>bold</strong></p>", None),
        ("<p>Python 2 ** 3 and a*b*c</p>", None),
    ],
)
def test_detector(html, kind):
    found = unrendered(html)
    assert [k for k, _ in found][:1] == ([kind] if kind else []), found


def test_no_unrendered_markdown(built_site: Path):
    report, pages = {}, sorted(built_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        found = unrendered(page.read_text(encoding="utf-8"))
        report[page.relative_to(built_site).as_posix()] = found
    ARTIFACTS.mkdir(exist_ok=True)
    total = sum(len(v) for v in report.values())
    (ARTIFACTS / "unrendered-markdown.json").write_text(
        json.dumps({"total": total, "pages": report}, ensure_ascii=False, indent=1), encoding="utf-8")
    bad = {k: v for k, v in report.items() if v}
    assert not bad, f"{total} pieces of unrendered Markdown:\n" + "\n".join(
        f"  {page}: {kind}: …{excerpt}…" for page, items in bad.items() for kind, excerpt in items[:5])
