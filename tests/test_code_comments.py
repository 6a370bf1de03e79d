"""Chinese comments in the code the zh pages show (issue 36 item 7).

The lesson files keep English comments and docstrings; snippets/comments_zh.toml gives the Chinese
for the sections the pages walk through, and sitebuild.code_comments.localize swaps them in for the
zh pages (sitebuild/hooks/code_comments.py) and the zh notebooks (the notebook builder's expander).
Here: both languages are the same program; every comment with words gets Chinese that follows the
terminology and punctuation rules and fits 79 columns; a catalogue that no longer matches its code
fails, naming what to fix; and the built zh page and zh notebook show the Chinese, the English ones
the English.
"""

from __future__ import annotations

import ast
import html
import json
import re

import pytest
from sitebuild import zhstyle
from sitebuild.code_comments import (catalogue, comments, display_width, docstrings, localize, needs_words,
                                     without_docstrings)
from sitebuild.notebooks.cli import site_settings
from sitebuild.notebooks.parse import INCLUDE, language_pages, snippet_expander

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
SECTIONS = sorted(catalogue("zh"))
EXPAND = snippet_expander(annotations=True, **site_settings()[1])
# the functions the text walks through line by line
WALKED_THROUGH = {
    "snippets/heads.py:one_head_vs_two",  # §1
    "snippets/multihead.py:split_heads", "snippets/multihead.py:merge_heads", "snippets/multihead.py:class",  # §3
    "snippets/kvheads/attention.py:layer", "snippets/kvheads/attention.py:cache",  # GroupedQueryAttention, KVCache
    "snippets/whatif/model.py:model",  # §4's TimelineModel
}


def include(section: str) -> str:
    return f'--8<-- "{section}"'


def both(section: str) -> tuple[str, str]:
    return EXPAND(include(section))[0], EXPAND(include(section), lang="zh")[0]


def doc_texts(code: str) -> list[str]:
    return [ast.get_docstring(ast.Module(body=[d], type_ignores=[]), clean=True) for d in docstrings(ast.parse(code))]


def test_the_walked_through_functions_are_catalogued():
    assert WALKED_THROUGH <= set(SECTIONS), sorted(WALKED_THROUGH - set(SECTIONS))


def test_english_has_no_catalogue():
    code = EXPAND(include("snippets/multihead.py:merge_heads"))[0]
    assert EXPAND(include("snippets/multihead.py:merge_heads"), lang="en")[0] == code
    assert "the inverse of split_heads" in code


@pytest.mark.parametrize("section", SECTIONS)
def test_same_program_with_chinese_comments(section):
    en, zh = both(section)
    # identical once docstrings are set aside: only comments and docstrings differ
    assert without_docstrings(zh) == without_docstrings(en)
    en_comments, zh_comments = [c[2] for c in comments(en)], [c[2] for c in comments(zh)]
    assert len(en_comments) == len(zh_comments)
    for e, z in zip(en_comments, zh_comments, strict=True):
        if needs_words(e):
            assert CJK.search(z), f"{section}: the comment {e!r} has no Chinese on zh pages: {z!r}"
        else:
            assert z == e  # shapes only: the same in both languages
    en_docs, zh_docs = doc_texts(en), doc_texts(zh)
    assert len(en_docs) == len(zh_docs)
    for e, z in zip(en_docs, zh_docs, strict=True):
        assert CJK.search(z), f"{section}: the docstring {e!r} has no Chinese on zh pages"
    # fits the column on a phone and a desktop: a Chinese character takes two columns
    wide = [(display_width(line), line) for line in zh.split("\n") if display_width(line) > 79]
    assert not wide, f"{section}: lines wider than 79 columns: {wide}"
    # the site's terminology and punctuation, as in the pages' prose
    problems = []
    for text in zh_comments + zh_docs:
        if CJK.search(text):
            prose = zhstyle.printed_prose(text)
            problems += [f"{text!r}: {p}" for p in zhstyle.term_problems(prose) + zhstyle.punctuation_problems(prose)]
    assert not problems, f"{section}:\n" + "\n".join(problems)


def test_a_stale_entry_fails_and_names_it():
    """A comment edited in the .py file leaves its catalogue entry behind: the swap (and so the build) fails,
    naming the entry to update and the comment that has none."""
    code = EXPAND(include("snippets/kvheads/attention.py:layer"))[0]
    edited = code.replace("# only g heads' worth of keys", "# g heads' worth of keys, not h")
    assert edited != code
    with pytest.raises(ValueError) as err:
        localize(edited, "snippets/kvheads/attention.py:layer", "zh")
    message = str(err.value)
    assert "snippets/kvheads/attention.py:layer (comments_zh.toml)" in message
    assert "no translation for the comment \"g heads' worth of keys, not h\"" in message
    assert "an entry whose English the section no longer has (update or remove it): " \
           "\"only g heads' worth of keys\"" in message


def test_a_comment_without_an_entry_fails():
    code = '''def f(x):
    """Twice x."""
    y = 2 * x  # (N, E)
    return y  # doubled'''
    cat = {"m.py:f": [{"en": "Twice x.", "zh": "x 的两倍。"}]}
    with pytest.raises(ValueError, match=r"no translation for the comment 'doubled'"):
        localize(code, "m.py:f", catalogue=cat)
    cat["m.py:f"].append({"en": "doubled", "zh": "翻倍"})
    assert localize(code, "m.py:f", catalogue=cat).split("\n")[1:] == [
        '    """x 的两倍。"""', "    y = 2 * x  # (N, E)", "    return y  # 翻倍"]
    cat["m.py:f"][0] = {"en": "Twice x.", "zh": 'x 的"""两倍'}
    with pytest.raises(ValueError, match="must not hold triple quotes"):
        localize(code, "m.py:f", catalogue=cat)


def test_a_standalone_comment_may_take_two_lines_an_inline_one_not():
    code = "if x:\n    # the first\n    y = 1  # the second"
    cat = {"s": [{"en": "the first", "zh": "第一行\n第二行"}, {"en": "the second", "zh": "第二"}]}
    assert localize(code, "s", catalogue=cat) == "if x:\n    # 第一行\n    # 第二行\n    y = 1  # 第二"
    cat["s"][1]["zh"] = "两\n行"
    with pytest.raises(ValueError, match="must stay one line"):
        localize(code, "s", catalogue=cat)


# --- the built site ---------------------------------------------------------------------------------


def pages_including(section: str) -> list[str]:
    """Stems of the pages that include a section (the same in both languages, as test_parity checks)."""
    stems = []
    for stem, lang, path in language_pages():
        if lang == "zh" and any(m and m.group("target").strip() == section
                                for m in map(INCLUDE.match, path.read_text(encoding="utf-8").splitlines())):
            stems.append(stem)
    return stems


def lines_of(text: str) -> list[str]:
    return [ln.strip() for ln in text.split("\n") if ln.strip()]


def page_text(path) -> str:
    raw = path.read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", raw))


def notebook_code(path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_every_catalogued_section_is_on_a_page():
    assert all(pages_including(s) for s in SECTIONS), [s for s in SECTIONS if not pages_including(s)]


@pytest.mark.parametrize("section", SECTIONS)
def test_built_pages_and_notebooks_show_each_language(built_site, section):
    """The zh page and the downloaded zh notebook show the Chinese comments, the English ones the English."""
    entries = catalogue("zh")[section]
    for stem in pages_including(section):
        name = stem.rsplit("/", 1)[-1]
        shown = {
            "zh": [page_text(built_site / stem / "index.html"),
                   notebook_code(built_site / "notebooks" / stem / f"{name}.zh.ipynb")],
            "en": [page_text(built_site / "en" / stem / "index.html"),
                   notebook_code(built_site / "en" / "notebooks" / stem / f"{name}.en.ipynb")],
        }
        for where, text in zip(("page", "notebook"), shown["zh"], strict=True):
            for entry in entries:
                for line in lines_of(entry["zh"]):
                    assert line in text, f"zh {where} {stem}: {section}'s {line!r} missing"
        for where, text in zip(("page", "notebook"), shown["en"], strict=True):
            for entry in entries:
                for line in lines_of(entry["en"]):
                    assert line in text, f"en {where} {stem}: {section}'s {line!r} missing"
                zh_lines = [ln for ln in lines_of(entry["zh"]) if CJK.search(ln)]
                assert not any(ln in text for ln in zh_lines), f"en {where} {stem}: Chinese comment shown"


# --- coverage: shown code blocks on zh pages whose comments are English only -----------------------

FENCE = re.compile(r"^(?P<indent> *)(?P<ticks>`{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)(?P=ticks)\s*$",
                   re.S | re.M)
# Shown code blocks on zh pages with a comment or docstring in English words and no Chinese: none. A new
# section shown on a zh page gets its Chinese in snippets/comments_zh.toml.
ENGLISH_ONLY_CEILING = 0


def english_only(code: str) -> list[str]:
    """The comments and docstrings of `code` that say something in words with no Chinese in them."""
    try:
        docs = doc_texts(code)
    except SyntaxError:  # a fragment (an annotated excerpt): its comments only
        docs = []
    found = [c[2] for c in comments(code)] + docs
    return [t for t in found if needs_words(t) and not CJK.search(t)]


def english_only_blocks() -> dict[str, list[str]]:
    """{"page: first English comment": ...} for every shown code block of a zh page (a plain fence, or a
    markdown-exec block with source=...) with a comment or docstring left in English after the zh catalogue."""
    found = {}
    for stem, lang, path in language_pages():
        if lang != "zh":
            continue
        for m in FENCE.finditer(path.read_text(encoding="utf-8")):
            info = m["info"]
            if not info.startswith(("python", "py")) or ("exec=" in info and "source=" not in info):
                continue
            body = "\n".join(ln[len(m["indent"]):] for ln in m["body"].split("\n"))
            code = "\n".join(EXPAND(ln, lang="zh")[0] if INCLUDE.match(ln) else ln for ln in body.split("\n"))
            texts_ = english_only(code)
            if texts_:
                found[f"{stem} block {len(found) + 1}: {texts_[0][:60]!r}"] = texts_
    return found


def test_zh_code_blocks_have_no_english_only_comments():
    found = english_only_blocks()
    assert len(found) <= ENGLISH_ONLY_CEILING, (
        f"{len(found)} code blocks on zh pages have English-only comments (ceiling {ENGLISH_ONLY_CEILING}); "
        "translate them in snippets/comments_zh.toml:\n" + "\n".join(found))
