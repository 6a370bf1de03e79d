"""Corrections of the source: every correction box is collapsed and states what is true, and the
errata page (built from the boxes by sitebuild/hooks/errata.py) has exactly one row per box, in
both languages, each linking to its box."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from conftest import LANGS, ROOT, build_site, page_stems

from sitebuild.corrections import boxes, errata_table
from sitebuild.hooks.errata import CorrectionIdsExtension

DOCS = ROOT / "docs"
FIXTURE_SITE = Path(__file__).parent / "fixtures" / "errata"
PREFIX = {"zh": "更正：", "en": "Correction:"}
SOURCE_SAYS = {"zh": "原文说", "en": "The source says"}
# Counted here without sitebuild.corrections: any admonition line whose title starts with the prefix.
TITLE = re.compile(r'^[ \t]*(?P<mark>!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?:\s+[\w-]+)*\s+"(?P<title>.*)"\s*$', re.M)
FENCED = re.compile(r"^(\s*)(`{3,}|~{3,}).*?^\1\2\s*$", re.M | re.S)


def source(stem: str, lang: str) -> str:
    return (DOCS / f"{stem}.{lang}.md").read_text(encoding="utf-8")


def titled(text: str, prefix: str) -> list[tuple[int, re.Match]]:
    """(line, match) for each admonition whose title starts with prefix, outside fenced code."""
    text = FENCED.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return [(text.count("\n", 0, m.start()) + 1, m) for m in TITLE.finditer(text)
            if m.group("title").startswith(prefix)]


def content_pages() -> list[str]:
    return [s for s in page_stems() if s != "errata"]


def box_problems(stem: str, lang: str) -> list[str]:
    text, name = source(stem, lang), f"docs/{stem}.{lang}.md"
    problems = [f"{name}:{n}: the source's claim as the title (old form; title the truth: "
                f"'??? note \"{PREFIX[lang]}…\"'): {m.group(0).strip()[:90]}"
                for n, m in titled(text, SOURCE_SAYS[lang])]
    for n, m in titled(text, PREFIX[lang]):
        if m.group("mark") != "???" or m.group("kind") != "note":
            problems.append(f"{name}:{n}: a correction box is '??? note', not {m.group('mark')} {m.group('kind')}")
    for b in boxes(text, lang):
        if b.is_correction and not b.body.startswith(SOURCE_SAYS[lang]):
            problems.append(f"{name}:{b.line}: the body of a correction box starts with "
                            f"'{SOURCE_SAYS[lang]}', not {b.body[:30]!r}")
    return sorted(problems, key=lambda p: int(p.split(":")[1]))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", content_pages())
def test_correction_boxes_are_collapsed_and_state_the_truth(stem, lang):
    problems = box_problems(stem, lang)
    assert not problems, f"{len(problems)} problems:\n  " + "\n  ".join(problems)


class Rows(HTMLParser):
    """The rows of the first table's body: the links in each."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.in_body = self.done = False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        if tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.rows.append([])
        elif tag == "a" and self.in_body and self.rows:
            self.rows[-1].append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body, self.done = False, True


def errata_rows(html: str) -> list[list[str]]:
    parser = Rows()
    parser.feed(html[html.find("<h1"):])  # the page's content, after the theme's header
    return parser.rows


def errata_problems(site: Path, docs: Path, stems: list[str], lang: str) -> list[str]:
    """How the built errata page of `lang` differs from the correction boxes in the sources."""
    expected = sum(len(titled((docs / f"{stem}.{lang}.md").read_text(encoding="utf-8"), PREFIX[lang]))
                   for stem in stems)
    page = site / ("en/" if lang == "en" else "") / "errata" / "index.html"
    rows = errata_rows(page.read_text(encoding="utf-8"))
    problems = [] if len(rows) == expected else [
        f"{lang}: {len(rows)} rows on the errata page, {expected} correction boxes in the sources"]
    for links in rows:
        path, _, anchor = links[-1].partition("#")
        target = (page.parent / path / "index.html").resolve()
        html = target.read_text(encoding="utf-8") if target.is_file() else ""
        box = re.search(rf'<details[^>]*\bid="{re.escape(anchor)}"[^>]*>\s*<summary>(.*?)</summary>', html, re.S)
        if not box or not re.sub(r"<[^>]+>", "", box.group(1)).startswith(PREFIX[lang]):
            problems.append(f"{lang}: {links[-1]} is not a correction box")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_errata_page_has_one_row_per_correction_box(built_site: Path, lang):
    problems = errata_problems(built_site, DOCS, content_pages(), lang)
    assert not problems, problems


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("errata-site")
    proc = build_site(dest, FIXTURE_SITE / "mkdocs.yml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return dest


@pytest.mark.parametrize("lang", LANGS)
def test_errata_hook_on_a_fixture_site(fixture_site, lang):
    assert errata_problems(fixture_site, FIXTURE_SITE / "docs", ["index", "article/one"], lang) == []
    rows = errata_rows((fixture_site / ("en/" if lang == "en" else "") / "errata" / "index.html").read_text("utf-8"))
    assert [links[-1] for links in rows] == ["../#correction-space", "../article/one/#correction-roles",
                                             "../article/one/#correction-roles-2"]


# A page with two boxes in one section and one in another, and boxes that are not corrections.
FIXTURE = """# Page { #page }

## One { #one }

??? note "更正：两者一样大"
    原文说：表示空间从 8×64 降到了 1×512。两者都是 512 维。

!!! tip "提示"
    不是更正。

??? note "更正：分工是训练出来的，`h` 个头"
    原文说：有些分工是天生的|先天的。

## Two { #two }

```markdown
??? note "更正：代码里的不算"
```

??? note "更正：只是常见取法"
    原文说：8 个头是经验上的好选择，见[第四节](4-what-if.md#x)。其余略。
"""


def test_boxes_and_their_ids():
    found = [(b.id, b.truth, b.claim) for b in boxes(FIXTURE, "zh") if b.is_correction]
    assert found == [
        ("correction-one", "两者一样大", "表示空间从 8×64 降到了 1×512。"),
        ("correction-one-2", "分工是训练出来的，`h` 个头", "有些分工是天生的|先天的。"),
        ("correction-two", "只是常见取法", "8 个头是经验上的好选择，见[第四节](4-what-if.md#x)。"),
    ]


def test_rendered_boxes_get_the_same_ids():
    html = markdown.markdown(FIXTURE, extensions=["admonition", "attr_list", "pymdownx.details", "toc",
                                                  "pymdownx.superfences", CorrectionIdsExtension()])
    ids = re.findall(r'<details class="note" id="([^"]+)"', html)
    assert ids == [b.id for b in boxes(FIXTURE, "zh") if b.is_correction]


def test_errata_table_rows():
    table = errata_table([("四、What-if", "article/4-what-if.md", FIXTURE)], "zh").splitlines()
    assert table[0] == "| 页面 › 小节 | 原文的说法 | 核对的结果（点击跳到页内的框） |"
    assert table[2:] == [
        "| 四、What-if › One | 表示空间从 8×64 降到了 1×512。 | [两者一样大](article/4-what-if.md#correction-one) |",
        r"| 四、What-if › One | 有些分工是天生的\|先天的。 | "
        "[分工是训练出来的，`h` 个头](article/4-what-if.md#correction-one-2) |",
        "| 四、What-if › Two | 8 个头是经验上的好选择，见第四节。 | [只是常见取法](article/4-what-if.md#correction-two) |",
    ]
    assert errata_table([("x", "x.md", "# x { #x }\n")], "en") == "The site corrects nothing in the source at the moment.\n"
    with pytest.raises(ValueError, match="lang must be one of"):
        errata_table([], "fr")


def test_english_claim_drops_the_lead():
    md = ('## S { #s }\n??? note "Correction: both are 512 wide"\n'
          '    The source says that one head has 64 dimensions. It has 512.\n')
    (b,) = boxes(md, "en")
    assert (b.id, b.claim, b.truth) == ("correction-s", "one head has 64 dimensions.", "both are 512 wide")


def test_box_checker_fails_on_the_old_form_and_open_boxes(tmp_path, monkeypatch):
    page = tmp_path / "p.zh.md"
    page.write_text('## S { #s }\n!!! warning "原文说头很多：不对"\n    正文。\n\n!!! note "更正：对的"\n    原文说：错的。\n\n'
                    '???+ note "更正：也对"\n    正文不以原文说开头。\n\n??? note "更正：好"\n    原文说：错。\n', encoding="utf-8")
    monkeypatch.setattr(__import__(__name__), "DOCS", tmp_path)
    problems = box_problems("p", "zh")
    assert [p.split(": ", 1)[0] for p in problems] == ["docs/p.zh.md:2", "docs/p.zh.md:5", "docs/p.zh.md:8",
                                                        "docs/p.zh.md:8"], problems
