"""Comments and docstrings of the code a page shows, in the page's language.

The lesson files keep English comments and docstrings. For another language, a catalogue next to
them (snippets/comments_<lang>.toml; today snippets/comments_zh.toml) gives, per included section
(`snippets/multihead.py:split_heads`, exactly as the page's `--8<--` line names it), each English
comment or docstring and its translation:

    [["snippets/multihead.py:merge_heads"]]
    en = "(N, h, T, d_k) -> (N, T, h * d_k): the inverse of split_heads."
    zh = "(N, h, T, d_k) -> (N, T, h * d_k)：split_heads 的逆操作。"

`localize` swaps them in. It is the one function both readers of an include call: the page hook
(sitebuild/hooks/code_comments.py, before pymdownx.snippets) and the notebook builder's expander
(sitebuild.notebooks.parse.snippet_expander), so a zh page and its downloaded notebook show the same
code. A section without a catalogue entry is shown as written. In a catalogued section the swap is
strict, so the two languages cannot drift apart unnoticed: a comment with English words and no
entry, or an entry whose English the section no longer has, is a ValueError naming both, and the
code must stay the same program (identical AST once docstrings are set aside).

Comments without words (shapes such as `# (N, h, L, d_k)`) and code annotation markers (`# (1)`)
need no entry and are kept as they are.

>>> code = 'def f(x):\\n    \"\"\"Twice x.\"\"\"\\n    return 2 * x  # (N, E): doubled'
>>> cat = {"m.py:f": [{"en": "Twice x.", "zh": "x 的两倍。"}, {"en": "(N, E): doubled", "zh": "(N, E)：翻倍"}]}
>>> print(localize(code, "m.py:f", catalogue=cat))
def f(x):
    \"\"\"x 的两倍。\"\"\"
    return 2 * x  # (N, E)：翻倍
>>> localize(code, "m.py:other", catalogue=cat) == code  # not catalogued: as written
True
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import tomllib
import unicodedata
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["catalogue", "catalogue_path", "localize", "comments", "docstrings", "without_docstrings",
           "display_width", "needs_words"]

ANNOTATION = re.compile(r"^#\s*\(\d+\)!?\s*$")  # a Material code annotation marker: not a comment to translate
WORD = re.compile(r"(?<![\w.])[A-Za-z]{3,}(?![\w(])")  # an English word, not part of an identifier or a call


def catalogue_path(lang: str | None, root: Path = ROOT) -> Path:
    return root / "snippets" / f"comments_{lang}.toml"


def catalogue(lang: str | None, root: Path = ROOT) -> dict[str, list[dict[str, str]]]:
    """{section: [{"en": ..., "<lang>": ...}, ...]} for a language; {} when it has no catalogue (English)."""
    path = catalogue_path(lang, root)
    if lang is None or not path.is_file():
        return {}
    return _read(path, lang, path.stat().st_mtime_ns)  # read again after an edit (mkdocs serve)


@cache
def _read(path: Path, lang: str, mtime: int) -> dict[str, list[dict[str, str]]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for section, entries in data.items():
        if not isinstance(entries, list) or not all(
                isinstance(e, dict) and set(e) == {"en", lang} for e in entries):
            raise ValueError(f"{path.name}: expected [[\"{section}\"]] tables with keys en and {lang}, "
                             f"got {entries!r}")
    return data


def needs_words(comment: str) -> bool:
    """True when a comment says something in words (needs a translation), not only shapes.

    >>> needs_words("(N, h, L, d_k)"), needs_words("(N, g, S, d_k): the past, kept"), needs_words("d_k = E / h")
    (False, True, False)
    """
    return bool(WORD.search(comment))


def display_width(line: str) -> int:
    """Columns a line takes in a monospace font: wide (CJK) characters take two.

    >>> display_width("x = 1  # 查询")
    13
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _tree(code: str, where: str) -> ast.Module:
    try:
        return ast.parse(code)
    except SyntaxError as e:
        raise ValueError(f"{where}: expected Python that parses, got a syntax error at line {e.lineno}: "
                         f"{e.msg}") from None


def docstrings(tree: ast.AST) -> list[ast.Expr]:
    """The docstring statements of a module, its classes and functions."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.append(first)
    return found


def without_docstrings(code: str) -> str:
    """ast.dump of the code with every docstring removed: equal for two languages of one section."""
    tree = _tree(code, "code")
    docs = {id(d) for d in docstrings(tree)}
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and id(body[0]) in docs:
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def comments(code: str) -> list[tuple[int, int, str]]:
    """(line, column, text after '#') of each comment, annotation markers left out."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT and not ANNOTATION.match(tok.string):
            out.append((tok.start[0], tok.start[1], tok.string[1:].strip()))
    return out


def localize(code: str, section: str, lang: str | None = None, *, catalogue: dict | None = None) -> str:
    """The section's code with its comments and docstrings in `lang`, from the catalogue.

    Uncatalogued sections (and languages without a catalogue) come back unchanged."""
    table = (catalogue if catalogue is not None else _catalogue(lang)).get(section)
    if not table:
        return code
    lang_key = next(k for k in table[0] if k != "en")
    where = f"{section} ({catalogue_path(lang_key).name})"
    by_en = {e["en"].strip(): e[lang_key].strip() for e in table}
    used: set[str] = set()
    missing: list[str] = []
    lines = code.split("\n")
    edits: dict[int, list[str]] = {}  # first line index -> replacement lines; spans recorded below
    spans: dict[int, int] = {}
    tree = _tree(code, where)
    for doc in docstrings(tree):
        en = ast.get_docstring(ast.Module(body=[doc], type_ignores=[]), clean=True) or ""
        if en not in by_en:
            missing.append(f"docstring {en!r}")
            continue
        used.add(en)
        new = by_en[en]
        if '"""' in new or "\\" in new:
            raise ValueError(f"{where}: a docstring translation must not hold triple quotes or backslashes, "
                             f"got {new!r}")
        first, last = doc.lineno - 1, doc.end_lineno - 1
        prefix = lines[first][: doc.col_offset]
        body = new.split("\n")
        out = [prefix + '"""' + body[0]] + [(prefix + b) if b.strip() else "" for b in body[1:]]
        if lines[last].strip() == '"""' and last > first:
            out.append(prefix + '"""')
        else:
            out[-1] += '"""'
        edits[first], spans[first] = out, last
    for row, col, text in comments(code):
        i = row - 1
        if text not in by_en:
            if needs_words(text):
                missing.append(f"comment {text!r}")
            continue
        used.add(text)
        new = by_en[text].split("\n")
        before = lines[i][:col]
        if before.strip() and len(new) > 1:
            raise ValueError(f"{where}: the comment after code {text!r} must stay one line, got {by_en[text]!r}")
        edits[i], spans[i] = [before + "# " + n for n in new], i
    stale = [en for en in by_en if en not in used]
    if missing or stale:
        problems = [f"no translation for the {m}: add it to the section's entries" for m in missing]
        problems += [f"an entry whose English the section no longer has (update or remove it): {s!r}"
                     for s in stale]
        raise ValueError(f"{where}: the catalogue and the code disagree:\n  " + "\n  ".join(problems))
    result: list[str] = []
    i = 0
    while i < len(lines):
        if i in edits:
            result += edits[i]
            i = spans[i] + 1
        else:
            result.append(lines[i])
            i += 1
    localized = "\n".join(result)
    if without_docstrings(localized) != without_docstrings(code):
        raise ValueError(f"{where}: the translated section is no longer the same program")
    return localized


def _catalogue(lang: str | None) -> dict:
    return catalogue(lang)
