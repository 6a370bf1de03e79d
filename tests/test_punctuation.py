"""Chinese punctuation (issue 30): in Chinese prose and in the Chinese strings code prints into pages,
outside code, maths and URLs: “” around Chinese (never ASCII "…"), full-width commas inside full-width
brackets, no "——，", no space between two Chinese characters."""

from __future__ import annotations

from pathlib import Path

import pytest
from zhpages import page_problems, printed_problems, report, zh_pages

from sitebuild import zhstyle
from snippets.i18n import SAME_IN_BOTH

FIXTURES = Path(__file__).parent / "fixtures" / "zhstyle"


@pytest.mark.parametrize("path", zh_pages(), ids=lambda p: p.name)
def test_zh_page_punctuation(path):
    problems = page_problems(path, zhstyle.punctuation_problems)
    assert not problems, report(problems)


def test_printed_strings_punctuation():
    problems = list(printed_problems(zhstyle.punctuation_problems, SAME_IN_BOTH))
    assert not problems, report(problems)


def test_checker_finds_each_rule():
    found = page_problems(FIXTURES / "punct-bad.zh.md", zhstyle.punctuation_problems)
    assert [p.split(": ")[0:2] for p in found] == [
        ["tests/fixtures/zhstyle/punct-bad.zh.md:3", "ASCII quotes around Chinese"],
        ["tests/fixtures/zhstyle/punct-bad.zh.md:4", "half-width comma inside full-width brackets"],
        ["tests/fixtures/zhstyle/punct-bad.zh.md:5", "——，"],
        ["tests/fixtures/zhstyle/punct-bad.zh.md:6", "space between Chinese characters"],
    ], found


def test_checker_passes_correct_punctuation_and_ignores_code_and_maths():
    assert page_problems(FIXTURES / "punct-good.zh.md", zhstyle.punctuation_problems) == []


@pytest.mark.parametrize(("value", "expected"), [
    ("默认实现是 从零手写", ["space between Chinese characters: 是 从"]),
    ("{n} 个头，{name} 是 `x` 的", []),
    ("层 ＼ 头", []),
    ("第一段。\n\n第二段", []),
    ('"自注意力，输出"', ['ASCII quotes around Chinese: "自注意力，输出"']),
])
def test_printed_string_check(value, expected):
    assert zhstyle.punctuation_problems(zhstyle.printed_prose(value)) == expected
