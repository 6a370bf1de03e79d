"""Translation parity: the Chinese and English versions of a page have the same skeleton.

For each page pair (docs/x.zh.md, docs/x.en.md) the checker compares, in order:
- heading levels and ids (explicit `{ #id }`, so links and the language switcher land in both);
- code fences: snippet includes (`--8<-- "snippets/x.py:section"`) and exec blocks, whose code must
  be the same apart from string literals and comments (printed labels are in the page's language),
  and whose options must be the same apart from `tabs="代码|输出"` labels;
- images, and admonitions: kind and whether they start open or closed (`!!! warning`, `??? success`,
  `???+ tip`), so an exercise's hint and collapsed solution exist and start closed in both languages;
  code fences inside admonitions (a solution's code) count as code blocks like any other;
and, in any order, the links. It also flags a page whose prose is in the wrong language (an
English page left in Chinese, or the other way round).

The checker is tested on fixture pairs in tests/fixtures/parity/, one per kind of drift.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import ROOT, page_stems

DOCS = ROOT / "docs"
FIXTURES = Path(__file__).parent / "fixtures" / "parity"

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(.*)$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HEADING_ID = re.compile(r"\{[^}]*#([\w.:-]+)[^}]*\}\s*$")
ADMONITION = re.compile(r"^\s*(!!!|\?\?\?\+?)\s+([\w-]+)")
INCLUDE = re.compile(r"""--8<--\s+["']([^"']+)["']""")
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]^]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_HREF = re.compile(r"<a\b[^>]*\bhref=[\"']([^\"']+)[\"']")
HTML_IMG = re.compile(r"<img\b[^>]*\bsrc=[\"']([^\"']+)[\"']")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")
LANGUAGE_SPECIFIC_OPTIONS = re.compile(r"\b(?:tabs|title)=\"[^\"]*\"")


@dataclass
class Outline:
    headings: list[str] = field(default_factory=list)
    fences: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    admonitions: list[str] = field(default_factory=list)
    links: Counter = field(default_factory=Counter)
    cjk: int = 0
    latin: int = 0


def code_skeleton(code: str) -> str:
    """Python code without its comments, with every string literal replaced by "…"."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return " ".join(code.split())
    out = []
    layout = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    strings = {tokenize.STRING} | {getattr(tokenize, n, -1) for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")}
    for tok in tokens:
        if tok.type in layout:
            if tok.type == tokenize.NEWLINE:
                out.append(";")
            continue
        if tok.type in strings:
            if not out or out[-1] != '"…"':
                out.append('"…"')
            continue
        out.append(tok.string)
    return " ".join(out).strip(" ;")


def fence_signature(info: str, body: list[str]) -> str:
    includes = [m.group(1) for line in body for m in [INCLUDE.search(line)] if m]
    if includes and all(INCLUDE.search(line) or not line.strip() for line in body):
        return "include " + ", ".join(includes)
    options = " ".join(LANGUAGE_SPECIFIC_OPTIONS.sub("", info).split())
    if 'exec="1"' in info or "exec='1'" in info or "exec=1" in info:
        return f"exec [{options}] {code_skeleton(chr(10).join(line for line in body))}"
    return f"fence [{options}]"


def outline(text: str) -> Outline:
    out = Outline()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            indent, fence, info = m.groups()
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence):
                j += 1
            body = [b[len(indent):] if b.startswith(indent) else b.lstrip() for b in lines[i + 1 : j]]
            out.fences.append(fence_signature(info.strip(), body))
            i = j + 1
            continue
        h = HEADING.match(line)
        if h:
            level, title = len(h.group(1)), h.group(2)
            hid = HEADING_ID.search(title)
            out.headings.append(f"h{level} #{hid.group(1)}" if hid else f"h{level} (no explicit id: {title!r})")
        a = ADMONITION.match(line)
        if a:
            out.admonitions.append(f"{a.group(1)} {a.group(2)}")
        prose = CODE_SPAN.sub("", line)
        out.images += IMAGE.findall(prose) + HTML_IMG.findall(prose)
        out.links.update(LINK.findall(prose) + HTML_HREF.findall(prose))
        r = REF_DEF.match(prose)
        if r:
            out.links[r.group(1)] += 1
        words = re.sub(r"\]\([^)]*\)|<[^>]+>|\{[^}]*\}|https?://\S+", " ", prose)
        if INCLUDE.search(words):  # a Markdown include outside a fence
            out.fences.append("include " + ", ".join(INCLUDE.findall(words)))
        else:
            out.cjk += len(CJK.findall(words))
            out.latin += len(LATIN.findall(words))
        i += 1
    return out


def diff_sequence(what: str, zh: list[str], en: list[str]) -> list[str]:
    if zh == en:
        return []
    for k, (a, b) in enumerate(zip(zh, en, strict=False)):
        if a != b:
            return [f"{what} #{k + 1} differ: zh {a!r} vs en {b!r}"]
    longer, lang = (zh, "zh") if len(zh) > len(en) else (en, "en")
    return [f"{what}: only {lang} has {longer[min(len(zh), len(en))]!r} ({len(zh)} in zh, {len(en)} in en)"]


def wrong_language(lang: str, o: Outline) -> list[str]:
    letters = o.cjk + o.latin
    if letters < 40:
        return []
    share = o.cjk / letters
    if lang == "en" and share > 0.15:
        return [f"en: prose is {share:.0%} Chinese characters: not translated?"]
    if lang == "zh" and o.cjk < 0.3 * o.latin / 4:  # a Chinese character carries about as much as 4 letters
        return [f"zh: prose is mostly Latin letters ({o.cjk} Chinese characters, {o.latin} letters): not translated?"]
    return []


def compare(zh_text: str, en_text: str) -> list[str]:
    """Problems that make two versions of a page differ in skeleton (empty list: in parity)."""
    zh, en = outline(zh_text), outline(en_text)
    problems = [
        f"{lang}: heading without an explicit {{ #id }}: {h}"
        for lang, o in (("zh", zh), ("en", en))
        for h in o.headings
        if "no explicit id" in h
    ]
    problems += diff_sequence("headings", zh.headings, en.headings)
    problems += diff_sequence("code blocks", zh.fences, en.fences)
    problems += diff_sequence("images", zh.images, en.images)
    problems += diff_sequence("admonitions", zh.admonitions, en.admonitions)
    if zh.links != en.links:
        only_zh, only_en = zh.links - en.links, en.links - zh.links
        if only_zh:
            problems.append(f"links only in zh: {sorted(only_zh)}")
        if only_en:
            problems.append(f"links only in en: {sorted(only_en)}")
    return problems + wrong_language("zh", zh) + wrong_language("en", en)


def check_page(docs: Path, stem: str) -> list[str]:
    zh, en = docs / f"{stem}.zh.md", docs / f"{stem}.en.md"
    missing = [f"{p.name} is missing" for p in (zh, en) if not p.exists()]
    if missing:
        return missing
    return compare(zh.read_text(encoding="utf-8"), en.read_text(encoding="utf-8"))


@pytest.mark.parametrize("stem", page_stems())
def test_page_pair_in_parity(stem):
    problems = check_page(DOCS, stem)
    assert not problems, f"docs/{stem}.{{zh,en}}.md are out of step:\n  " + "\n  ".join(problems)


# Each fixture pair shows one kind of drift, and the message that must name it.
DRIFTS = {
    "heading-id": r"headings #2 differ: zh 'h2 #split-heads' vs en 'h2 #splitting'",
    "heading-order": r"headings #2 differ: zh 'h2 #split-heads' vs en 'h3 #shapes'",
    "heading-without-id": r"h2 \(no explicit id: '分头'\)",
    "include-missing": r"code blocks #2 differ: zh 'include snippets/multihead.py:merge_heads'",
    "include-section": r"code blocks #1 differ: zh 'include snippets/multihead.py:split_heads' "
    r"vs en 'include snippets/multihead.py:merge_heads'",
    "exec-call": r"code blocks #3 differ: .*run_official.*num_heads = 8.*num_heads = 4",
    "exec-order": r"code blocks #3 differ",
    "exec-options": r"code blocks #3 differ: zh 'exec \[python exec=\"1\" source=\"tabbed-left\"\]",
    "link-missing": r"links only in zh: \['https://arxiv.org/abs/1706.03762'\]",
    "link-target": r"links only in en: \['3-pytorch.md#dropouts'\]",
    "image": r"images #1 differ",
    "admonition": r"admonitions: only zh has '!!! warning'",
    "solution-code": r"code blocks #2 differ: zh 'exec .*zeros \( 1 , 1 , 8 \).*' vs en 'exec .*zeros \( 1 , 10 , 8 \)",
    "solution-open": r"admonitions #2 differ: zh '\?\?\? success' vs en '\?\?\?\+ success'",
    "untranslated": r"en: prose is \d+% Chinese characters: not translated\?",
    "missing-language": r"page\.en\.md is missing",
}


def test_fixture_pair_in_parity_passes():
    assert check_page(FIXTURES / "ok", "page") == []


@pytest.mark.parametrize("case", sorted(DRIFTS))
def test_checker_fails_on_drift(case):
    problems = check_page(FIXTURES / case, "page")
    assert problems, f"the checker found nothing wrong in fixtures/parity/{case}"
    assert any(re.search(DRIFTS[case], p) for p in problems), problems


def test_every_drift_has_a_fixture():
    cases = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert cases == set(DRIFTS) | {"ok"}


def test_code_skeleton_ignores_strings_and_comments_only():
    zh = 'print("头数:", n_heads(8))  # 说明\n'
    en = 'print("heads:", n_heads(8))  # note\n'
    assert code_skeleton(zh) == code_skeleton(en) == 'print ( "…" , n_heads ( 8 ) )'
    assert code_skeleton("n_heads(4)") != code_skeleton("n_heads(8)")


# Strings that code prints into pages ------------------------------------------------------------

CJK = re.compile(r"[\u3400-\u9fff]")  # ideographs (fullwidth punctuation alone is not Chinese)
WORD = re.compile(r"[A-Za-z]{3,}")  # an entry with words is prose; "{ratio:.2f}（L=2048）" is not
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def printed_string_problems(table: dict, same_in_both: frozenset) -> list[str]:
    """What is wrong with a per-language table of printed strings (snippets.i18n.TEXT's shape)."""
    import string

    zh, en = table.get("zh", {}), table.get("en", {})
    problems = [f"{k}: missing in en" for k in zh.keys() - en.keys()]
    problems += [f"{k}: missing in zh" for k in en.keys() - zh.keys()]

    def fields(value) -> Counter:
        items = value if isinstance(value, list) else [value]
        return Counter(f for v in items for _, f, _, _ in string.Formatter().parse(v) if f is not None)

    for key in sorted(zh.keys() & en.keys()):
        a, b = zh[key], en[key]
        if type(a) is not type(b) or (isinstance(a, list) and len(a) != len(b)):
            problems.append(f"{key}: zh and en differ in shape")
            continue
        if fields(a) != fields(b):
            problems.append(f"{key}: placeholders differ: zh {sorted(fields(a))}, en {sorted(fields(b))}")
        texts = a if isinstance(a, list) else [a]
        prose = [t for t in texts if WORD.search(PLACEHOLDER.sub("", CODE_SPAN.sub("", t)))]
        if key in same_in_both:
            if a != b:
                problems.append(f"{key}: listed as the same in both languages, but differs")
        elif prose and not any(CJK.search(t) for t in prose):
            problems.append(f"{key}: the zh entry has no Chinese: {a!r}")
        elif any(CJK.search(t) for t in (b if isinstance(b, list) else [b])):
            problems.append(f"{key}: the en entry has Chinese: {b!r}")
    return problems


def test_printed_strings_exist_in_both_languages():
    """Every string code prints into a page comes from snippets.i18n, in zh (in Chinese) and en."""
    from snippets.i18n import SAME_IN_BOTH, TEXT

    assert not printed_string_problems(TEXT, SAME_IN_BOTH)


def test_printed_string_checker_fails_on_drift():
    good = {"zh": {"a.x": "{n} 个头", "a.h": ["层", "L"]}, "en": {"a.x": "{n} heads", "a.h": ["layer", "L"]}}
    assert printed_string_problems(good, frozenset()) == []
    assert printed_string_problems({"zh": {"a.x": "1 head"}, "en": {"a.x": "1 head"}}, frozenset()) == [
        "a.x: the zh entry has no Chinese: '1 head'"]
    assert printed_string_problems({"zh": {"a.x": "{n} 个头"}, "en": {"a.x": "{h} heads"}}, frozenset()) == [
        "a.x: placeholders differ: zh ['n'], en ['h']"]
    assert printed_string_problems({"zh": {"a.x": "头"}, "en": {}}, frozenset()) == ["a.x: missing in en"]
    assert printed_string_problems({"zh": {"a.h": ["层"]}, "en": {"a.h": ["layer", "head"]}}, frozenset()) == [
        "a.h: zh and en differ in shape"]


def test_no_other_translation_mechanism_in_code():
    """No Chinese outside snippets.i18n and its words modules in the code (comments and docstrings aside), no `if lang == ...`."""
    import ast

    problems = []
    for path in sorted(p for pkg in ("snippets", "sitebuild", "resultcache") for p in (ROOT / pkg).rglob("*.py")):
        if path.name == "i18n.py" or "words" in path.relative_to(ROOT).parts or "__pycache__" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings \
                    and CJK.search(node.value):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: Chinese string {node.value[:30]!r}")
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "lang" \
                    and any(isinstance(c, ast.Constant) and c.value in ("zh", "en") for c in node.comparators):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: compares lang with a language")
    assert not problems


JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)


def js_text_problems(source: str) -> list[str]:
    """Chinese in a script outside its comments: words the page shows that no parity check reads."""
    code = JS_COMMENT.sub("", source)
    return [line.strip()[:60] for line in code.splitlines() if CJK.search(line)]


def test_no_translated_words_in_site_scripts():
    """The site's scripts take their words from the page (snippets.i18n via the build), not a table of their own."""
    problems = {p.name: js_text_problems(p.read_text(encoding="utf-8"))
                for p in sorted((ROOT / "docs" / "assets").glob("*.js"))}
    assert not {k: v for k, v in problems.items() if v}


def test_js_text_checker_fails_on_a_word_table():
    assert js_text_problems('// 注释 "x"\n/* 头 */ var a = 1;') == []
    assert js_text_problems('var UI = { zh: { heads: "头数 h" } };') == ['var UI = { zh: { heads: "头数 h" } };']
