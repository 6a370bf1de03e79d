"""No Markdown reaches a reader unrendered: the visible text of every built page (both languages,
rendered notebooks included), outside code, holds no table rows, **bold**, snippet markers,
{ #id } heading markers, code fences or list markers at the start of a line inside a paragraph
(a list that Markdown did not see: "- **…**" after a line without a blank line before it). Printed
output (<pre> in a markdown-exec result or a notebook's output area) is read too: it must not be a
raw Markdown table (`| a | b |` over `|---|`), which a page prints with result="text" where it meant
to render the table. The count per page goes to test-artifacts/."""

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
# Elements that flow inside a line: no line break before or after them.
INLINE = {"a", "abbr", "b", "bdi", "cite", "code", "del", "dfn", "em", "i", "ins", "kbd", "mark", "q", "s", "samp",
          "small", "span", "strong", "sub", "sup", "time", "u", "var", "math", "label"}
# Containers of printed output: a <pre> inside one is what code printed, and is read.
OUTPUT = re.compile(r"(?:^|\s)(?:result|jp-OutputArea-output)(?:\s|$)")
PATTERNS = {
    "table row": re.compile(r"(?:^|\n)\s*\|[^\n]*\|[^\n]*\|\s*(?:\n|$)|\|\s*:?-{3,}:?\s*\|"),
    "bold": re.compile(r"\*\*[^*\s](?:[^*\n]*[^*\s])?\*\*"),
    "snippet marker": re.compile(r"--8<--"),
    "heading id": re.compile(r"\{\s*:?\s*#[\w.:-]+[^{}\n]*\}"),
    "code fence": re.compile(r"(?:```|~~~)"),
    "link": re.compile(r"\[[^\[\]\n]+\]\((?:https?://|\.{0,2}/|#)[^)\s]*\)"),
}
# Inside one paragraph (lines joined by soft line breaks), a line that starts like a list item.
LIST_MARKER = re.compile(r"\n[ \t]*(?:[-*+]|\d{1,2}\.)[ \t]+\S")
# Printed output that is a Markdown table: a separator row under a row of cells.
OUTPUT_TABLE = re.compile(r"^[ \t]*\|[^\n]*\|[ \t]*\n[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$",
                          re.M)


class VisibleText(HTMLParser):
    """Text a reader sees, block by block (newlines between block elements), outside SKIP elements;
    the text of each paragraph and of each piece of printed output, separately."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.stack: list[tuple[str, bool, bool, bool]] = []  # (tag, hides its text, printed output, output-like)
        self.parts: list[str] = []
        self.paragraphs: list[list[str]] = []
        self.outputs: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if tag == "br" and self.paragraphs and self._in("p"):
                self.paragraphs[-1].append("\n")
            return
        attrs = dict(attrs)
        in_output = bool(self.stack) and self.stack[-1][2]
        output_box = bool(OUTPUT.search(attrs.get("class") or "")) or (bool(self.stack) and self.stack[-1][3])
        output = in_output or (tag == "pre" and output_box)
        if output and not in_output:
            self.outputs.append([])
        hides = (tag in SKIP or "hidden" in attrs) and not output
        self.stack.append((tag, hides, output, output_box))
        self.skip += hides
        if tag == "p":
            self.paragraphs.append([])
        if tag not in INLINE:
            self.parts.append("\n")

    def _in(self, tag: str) -> bool:
        return any(t == tag for t, *_ in self.stack)

    def handle_endtag(self, tag):
        if tag in VOID or all(t != tag for t, *_ in self.stack):
            return
        while self.stack:
            open_tag, hides, *_ = self.stack.pop()
            self.skip -= hides
            if open_tag == tag:
                break
        if tag not in INLINE:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.stack and self.stack[-1][2]:
            self.outputs[-1].append(data)
        elif not self.skip:
            self.parts.append(data)
            if self.paragraphs and self._in("p"):
                self.paragraphs[-1].append(data)

    def text(self) -> str:
        return "".join(self.parts)


def excerpt(text: str, start: int, end: int) -> str:
    return " ".join(text[max(0, start - 30):end + 30].split())


def unrendered(html: str) -> list[tuple[str, str]]:
    """(kind, excerpt) for each piece of visible text that is still Markdown."""
    parser = VisibleText()
    parser.feed(html)
    text = parser.text()
    found = []
    for kind, pattern in PATTERNS.items():
        for m in pattern.finditer(text):
            found.append((kind, excerpt(text, m.start(), m.end())))
    for parts in parser.paragraphs:
        para = "".join(parts)
        for m in LIST_MARKER.finditer(para):
            found.append(("list marker in a paragraph", excerpt(para, m.start(), m.end())))
    for parts in parser.outputs:
        out = "".join(parts)
        for m in OUTPUT_TABLE.finditer(out):
            found.append(("Markdown table printed as text", excerpt(out, m.start(), m.end())))
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
        ("<p>as Clark says.\n- <strong>Heads that look at the next token.</strong> Several.</p>",
         "list marker in a paragraph"),
        ("<p>1 - 2 is <strong>-1</strong>, and x\n-y</p><ul>\n<li><strong>a</strong></li>\n</ul>", None),
        ('<div class="result"><div class="highlight"><pre><span></span><code>| q | keys |\n|---|---|\n'
         "| 0 | [1, 2] |\n</code></pre></div></div>", "Markdown table printed as text"),
        ('<div class="jp-OutputArea-output" data-mime-type="text/plain"><pre>| h | d_k |\n|---|---|\n| 4 | 8 |'
         "</pre></div>", "Markdown table printed as text"),
        ('<div class="result"><table><tr><td>0</td></tr></table><pre><code>x | y\n--- | ---</code></pre></div>',
         None),
        ('<div class="result"><div class="highlight"><pre><code>shape: (2, 8)\n**x** ``` </code></pre></div></div>',
         None),
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


# A code annotation marker (`# (1)!` in a shown snippet) that no note follows. Material turns a marker into a
# numbered note in the browser, from the ordered list right after the code block (content.code.annotate), so
# the built HTML keeps the marker: a marker whose block is not followed by such a list, or any marker in a
# notebook (the notebook builder removes them), reaches the reader raw.
RAW_ANNOTATION = re.compile(r"#\s*\((\d+)\)!")


def raw_annotations(root: Path) -> list[str]:
    """Pages and notebooks under root that show a raw annotation marker."""
    found = []
    for f in sorted([*root.rglob("*.html"), *root.rglob("*.ipynb")]):
        html = f.read_text(encoding="utf-8")
        if f.suffix == ".ipynb" or "/notebooks/" in f"/{f.relative_to(root).as_posix()}":
            text = re.sub(r"<[^>]+>", "", html)
            if RAW_ANNOTATION.search(text):
                found.append(f"{f.relative_to(root)}: {RAW_ANNOTATION.search(text).group(0)!r}")
            continue
        for block in re.finditer(r'<div class="highlight">.*?</code></pre></div>', html, re.S):
            markers = [int(n) for n in RAW_ANNOTATION.findall(re.sub(r"<[^>]+>", "", block.group(0)))]
            if not markers:
                continue
            after = html[block.end():block.end() + 20000].lstrip()
            items = len(re.findall(r"<li\b", after[:after.find("</ol>")])) if after.startswith("<ol>") else 0
            if items < max(markers):
                found.append(f"{f.relative_to(root)}: '# ({max(markers)})!' with {items} notes after its block")
    return found


def test_the_annotation_check_sees_a_raw_marker(tmp_path):
    code = '<div class="highlight"><pre><code>mha.eval()  <span># (1)!</span></code></pre></div>'
    (tmp_path / "a.html").write_text(code + "<p>no notes</p>")
    (tmp_path / "b.html").write_text(code + "\n<ol>\n<li>A new module starts in training mode.</li>\n</ol>")
    (tmp_path / "c.ipynb").write_text('{"source": "mha.eval()  # (1)!"}')
    assert raw_annotations(tmp_path) == ["a.html: '# (1)!' with 0 notes after its block", "c.ipynb: '# (1)!'"]


def test_annotations_are_on():
    assert "content.code.annotate" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_no_raw_annotation_marker(built_site: Path):
    found = raw_annotations(built_site)
    assert not found, f"{len(found)} pages or notebooks show a raw `# (n)!`: {found[:10]}"


def _search_docs(root: Path, lang: str) -> list[dict]:
    """The entries of one language in the site's one search index (English pages live under en/)."""
    docs = json.loads((root / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    return [d for d in docs if d["location"].startswith("en/") == (lang == "en")]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_search_reads_formulas_as_typed(built_site: Path, lang: str):
    """The search index holds each formula's plain text (sitebuild.mathtext): the section on scaling says the
    scores are divided by √d_k, not by "dk" (MathML's text), and the pages keep their MathML."""
    docs = [d for d in _search_docs(built_site, lang) if d["location"].endswith("3-pytorch/#why-scale")]
    assert len(docs) == 1, [d["location"] for d in _search_docs(built_site, lang) if "why-scale" in d["location"]]
    text = docs[0]["text"]
    assert "√d_k" in text, text[:300]
    assert not re.search(r"(?<![√_\w])dk(?!\w)", text), text[:300]
    page = (built_site / ("" if lang == "zh" else "en") / "article/3-pytorch/index.html").read_text(encoding="utf-8")
    assert "<msqrt>" in page and 'class="math">√' not in page
