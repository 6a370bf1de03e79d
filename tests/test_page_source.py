"""Page sources hold no control characters. A page edited by a script that wrote "\text" in a normal Python
string got a tab where the backslash and t should be, and $d_\text{model}$ rendered as "d ext model" on the
home page in both languages."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")  # everything below space except newline
PAGES = sorted((ROOT / "docs").rglob("*.md"))


def control_characters(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line holding a control character other than a newline."""
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if CONTROL.search(line)]


def test_pages_are_found():
    assert len(PAGES) >= 20 and ROOT / "docs" / "index.en.md" in PAGES


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_page_source_has_no_control_characters(path):
    found = control_characters(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: control characters (a '\\t' that lost its backslash?) on " \
                      f"lines {[n for n, _ in found]}"


def test_finds_a_lost_backslash():
    assert control_characters("a\n$d_\text{model}$\n") == [(2, "$d_\text{model}$")]
    assert control_characters("$d_\\text{model}$\r\n") == []
