"""The legend of the size letters (snippets/symbols.py): one definition, on every article page."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from snippets.homefig import split_word
from snippets.symbols import SYMBOLS, legend

LEGEND_BLOCK = re.compile(r'```python exec="1"\nfrom snippets\.symbols import legend\n\nprint\(legend\("(\w+)"\)\)\n```')


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_legend_names_every_symbol_once_in_order(lang):
    line = legend(lang)
    assert "\n" not in line
    found = [m.group(1) for m in re.finditer(r"(?:^|· |[:：] ?)(N|L|S|T|E|h|d_k) ", line.split("**", 2)[-1])]
    assert found == list(SYMBOLS)


@pytest.mark.parametrize("page", sorted((ROOT / "docs" / "article").glob("*.md")), ids=lambda p: p.name)
def test_every_article_page_prints_the_legend_in_its_language_before_the_letters(page):
    text = page.read_text(encoding="utf-8")
    lang = page.name.split(".")[-2]
    blocks = LEGEND_BLOCK.findall(text)
    assert blocks == [lang], f"{page.name}: one legend, in {lang}"
    # before the first shape written with the letters or the first d_k in prose
    first = min(m.start() for m in re.finditer(r"\(N, L|d_k|\$h\$|\$S\$", text))
    assert LEGEND_BLOCK.search(text).start() < first + 400, f"{page.name}: the legend comes where d_k first appears"


def test_split_word_finds_the_home_figures_wordpieces():
    assert split_word(["[CLS]", "202", "##4", "-", "01", "[SEP]"]) == (["202", "##4"], "2024")
    with pytest.raises(ValueError, match=r"a '##' piece after a token"):
        split_word(["[CLS]", "error", "[SEP]"])
