"""The Chinese text of the site as a reader reads it, and the house rules it must follow.

`prose_lines` turns a page's Markdown into its prose, line by line, with everything that is not
prose (code, maths, URLs, HTML tags, heading ids, snippet markers) replaced by a Latin placeholder
``X``: a placeholder keeps the spacing of the sentence ("是 `x` 的" reads "是 X 的", which is
correct), so no rule sees a space or a quote that belongs to code. `printed_strings` gives the
Chinese strings code prints into pages (snippets/i18n.py) with their line numbers.

Two checks use them (tests/test_terms.py, tests/test_punctuation.py):

- `term_problems`: a variant that sitebuild.terms lists as not to use, in prose, or a notation
  variant in maths;
- `punctuation_problems`: ASCII "…" around Chinese, a half-width comma inside full-width brackets,
  "——，", and a space between two Chinese characters.

>>> [(n, t) for n, t in prose_lines('说明：\\n```python\\nx = "a"\\n```\\n用 `q` 和 $d_k$ 算')]
[(1, '说明：'), (5, '用 X 和 X 算')]
>>> punctuation_problems('他说"你好"，然后走了')
['ASCII quotes around Chinese: "你好"']
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from sitebuild import terms

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
ADMONITION = re.compile(r'^(\s*)(?:!!!|\?\?\?\+?|===)(?:\s+[\w-]+)*(?:\s+"(.*)")?\s*$')
HEADING_ATTR = re.compile(r"\s*\{[^{}\n]*#[\w.:-]+[^{}\n]*\}\s*$")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
MATH_INLINE = re.compile(r"(?<![\\$])\$(?!\s)(?:[^$\n\\]|\\.)+?(?<!\s)\$(?!\d)|\\\((?:.+?)\\\)")
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?[^)\s>]*>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"\]\[[^\]]*\]")
URL = re.compile(r"<?https?://[^\s)>\]]+>?")
HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
ATTR_LIST = re.compile(r"\{:?\s*[#.][^{}\n]*\}")
PLACEHOLDER = re.compile(r"\{[^{}\s]*\}")  # str.format fields in printed strings
SKIP_LINE = re.compile(r"^\s*(?:--8<--|\*\[[^\]]+\]:|\[[^\]^]+\]:\s*\S)")
X = "X"


def _mask(line: str) -> str:
    line = CODE_SPAN.sub(X, line)
    line = MATH_INLINE.sub(X, line)
    line = LINK.sub(lambda m: m.group(2), line)
    line = REF_LINK.sub("]", line)
    line = URL.sub(X, line)
    line = HTML_TAG.sub("", line)
    line = ATTR_LIST.sub("", line)
    return line.replace("**", "")  # bold is not text: "词元 **在哪**" reads "词元 在哪"


def prose_lines(markdown: str) -> Iterator[tuple[int, str]]:
    """(line number, prose) for every line of `markdown` that holds prose, non-prose masked."""
    fence = None
    in_comment = in_math = False
    for number, raw in enumerate(markdown.splitlines(), 1):
        if fence:
            m = FENCE.match(raw)
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence) and not raw[m.end():].strip():
                fence = None
            continue
        if in_comment:
            if "-->" in raw:
                in_comment = False
                raw = raw.split("-->", 1)[1]
            else:
                continue
        if in_math:
            if "$$" in raw or "\\]" in raw:
                in_math = False
            continue
        m = FENCE.match(raw)
        if m:
            fence = m.group(2)
            continue
        stripped = raw.strip()
        if stripped.startswith("$$") or stripped.startswith("\\["):
            rest = stripped[2:]
            if not ("$$" in rest or "\\]" in rest):
                in_math = True
            continue
        raw = re.sub(r"<!--.*?-->", " ", raw)
        if "<!--" in raw:
            raw, in_comment = raw.split("<!--", 1)[0], True
        if SKIP_LINE.match(raw):
            continue
        m = ADMONITION.match(raw)
        if m:
            raw = m.group(2) or ""
        raw = HEADING_ATTR.sub("", raw)
        text = _mask(raw)
        if text.strip():
            yield number, text


def math_lines(markdown: str) -> Iterator[tuple[int, str]]:
    """(line number, TeX) for every piece of maths outside code in `markdown`."""
    fence = None
    block: list[str] | None = None
    start = 0
    for number, raw in enumerate(markdown.splitlines(), 1):
        m = FENCE.match(raw)
        if fence:
            if m and m.group(2)[0] == fence[0] and not raw[m.end():].strip():
                fence = None
            continue
        if m and block is None:
            fence = m.group(2)
            continue
        if block is not None:
            if "$$" in raw:
                yield start, " ".join(block + [raw.split("$$")[0]])
                block = None
            else:
                block.append(raw)
            continue
        stripped = raw.strip()
        if stripped.startswith("$$"):
            rest = stripped[2:]
            if "$$" in rest:
                yield number, rest.split("$$")[0]
            else:
                block, start = [rest], number
            continue
        for m in MATH_INLINE.finditer(CODE_SPAN.sub(X, raw)):
            yield number, m.group(0)


def printed_strings(words_path: Path, lang: str = "zh") -> Iterator[tuple[int, str, str]]:
    """(line number, key, string) for every string of `lang` in a words module of snippets/words/ (its ZH or EN
    dict; snippets.i18n merges them into one table)."""
    tree = ast.parse(words_path.read_text(encoding="utf-8"))
    name = {"zh": "ZH", "en": "EN"}[lang]
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets) \
                and isinstance(node.value, ast.Dict):
            for k, v in zip(node.value.keys, node.value.values):
                for s in ast.walk(v):
                    if isinstance(s, ast.Constant) and isinstance(s.value, str):
                        yield s.lineno, k.value if isinstance(k, ast.Constant) else "?", s.value
            return
    raise ValueError(f"{words_path}: expected a {name} = {{...}} dict, found none")


def printed_prose(value: str) -> str:
    """A printed string as prose: placeholders and Markdown that is not prose masked."""
    return "\n".join(text for _, text in prose_lines(PLACEHOLDER.sub(X, value)))


def term_problems(prose: str) -> list[str]:
    """'variant → chosen (concept)' for each listed variant in a line of prose."""
    found = []
    for term in terms.TERMS:
        for variant in term.avoid:
            for m in variant.pattern.finditer(prose):
                found.append(f"{m.group(0)!r} → {variant.use} ({term.concept})")
    return found


def notation_problems(tex: str) -> list[str]:
    found = []
    for variant in terms.NOTATION:
        for m in variant.pattern.finditer(tex):
            found.append(f"{m.group(0)!r} → {variant.use} (notation)")
    return found


CJK = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
CJK_PUNCT = r"[\u3001-\u303f“”‘’…—（）［］｛｝，。、；：！？]"  # not ／ ＼: spaced separators ("层 ＼ 头")
PUNCTUATION = {
    "ASCII quotes around Chinese": re.compile(r'"[^"\n]*' + CJK + r'[^"\n]*"'),
    "half-width comma inside full-width brackets": re.compile(r"（[^（）\n]*,[^（）\n]*）"),
    "——，": re.compile(r"——\s*[，,]"),
    "space between Chinese characters": re.compile(f"(?:{CJK}|{CJK_PUNCT}) +{CJK}|{CJK} +{CJK_PUNCT}"),
}


def punctuation_problems(prose: str) -> list[str]:
    """'rule: excerpt' for each punctuation rule a line of Chinese prose breaks."""
    found = []
    for rule, pattern in PUNCTUATION.items():
        for m in pattern.finditer(prose):
            found.append(f"{rule}: {m.group(0)}")
    return found
