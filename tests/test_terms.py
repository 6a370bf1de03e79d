"""One terminology (sitebuild/terms.py): no Chinese page and no Chinese string that code prints into a
page uses a variant the table lists as not to use; the glossary and the search dictionary are the
ones the table makes."""

from __future__ import annotations

from pathlib import Path

import pytest
from zhpages import page_problems, printed_problems, report, zh_pages

from sitebuild import terms, zhstyle
from snippets.i18n import SAME_IN_BOTH

FIXTURES = Path(__file__).parent / "fixtures" / "zhstyle"


def prose_terms(line: str) -> list[str]:
    found = zhstyle.term_problems(line)
    for variant in terms.PROSE_NOTATION:
        found += [f"{m.group(0)!r} → {variant.use} (notation)" for m in variant.pattern.finditer(line)]
    return found


def check(path: Path) -> list[str]:
    return page_problems(path, prose_terms, zhstyle.notation_problems)


@pytest.mark.parametrize("path", zh_pages(), ids=lambda p: p.name)
def test_zh_page_uses_the_chosen_terms(path):
    problems = check(path)
    assert not problems, report(problems)


def test_printed_strings_use_the_chosen_terms():
    problems = list(printed_problems(prose_terms, SAME_IN_BOTH))
    assert not problems, report(problems)


def test_checker_finds_every_listed_variant():
    found = check(FIXTURES / "terms-bad.zh.md")
    text = "\n".join(found)
    for term in terms.TERMS:
        for variant in term.avoid:
            assert f"→ {variant.use} ({term.concept})" in text, f"no example of {variant.regex!r} was found"
    for variant in terms.NOTATION + terms.PROSE_NOTATION:
        assert f"→ {variant.use} (notation)" in text, f"no example of {variant.regex!r} was found"
    assert all(p.startswith("tests/fixtures/zhstyle/terms-bad.zh.md:") for p in found), found


def test_checker_passes_the_chosen_terms():
    assert check(FIXTURES / "terms-good.zh.md") == []


def test_checker_names_file_and_line():
    assert check(FIXTURES / "terms-bad.zh.md")[0].startswith("tests/fixtures/zhstyle/terms-bad.zh.md:3: ")


def test_glossary_and_search_dictionary_come_from_the_table():
    assert terms.GLOSSARY.read_text(encoding="utf-8") == terms.glossary_markdown(), \
        "docs/.snippets/glossary.md is not the table's: run python -m sitebuild.terms"
    assert terms.GLOSSARY_EN.read_text(encoding="utf-8") == terms.glossary_en_markdown(), \
        "docs/.snippets/glossary-en.md is not the table's: run python -m sitebuild.terms"
    assert terms.JIEBA_USER.read_text(encoding="utf-8") == terms.jieba_user_dict(), \
        "docs/.snippets/jieba-user.txt is not the table's: run python -m sitebuild.terms"


def test_search_dictionary_keeps_the_terms_whole():
    import jieba

    tokenizer = jieba.Tokenizer()
    with terms.JIEBA_USER.open("rb") as words:
        tokenizer.load_userdict(words)
    for sentence, word in [("参数量不变", "参数量"), ("画出热力图", "热力图"), ("模型过拟合了", "过拟合"),
                           ("四分位距很小", "四分位距"), ("句向量的变化", "句向量"), ("多头注意力机制", "多头注意力")]:
        assert word in tokenizer.lcut(sentence), (sentence, tokenizer.lcut(sentence))


def test_term_table_rejects_a_term_without_both_forms():
    with pytest.raises(ValueError, match="Chinese and English"):
        terms.Term("消融", "")
