"""md_table's output renders as a table, with every cell intact, in both renderers that show it:
Python-Markdown (the site's pages) and nbconvert's mistune (the rendered notebooks)."""

from __future__ import annotations

import re

import markdown
import pytest
from nbconvert.filters.markdown_mistune import markdown2html_mistune

from snippets.tables import md_cell, md_table

HEADERS = ["case", "max |pruned − head mask|", "code"]
ROWS = [["a | b", "1.0e-07", "`x | y`"], ["multi\nline", "|", "`plain`"]]
EXPECTED = [HEADERS, ["a | b", "1.0e-07", "x | y"], ["multi line", "|", "plain"]]


def cells(html: str) -> list[list[str]]:
    rows = re.findall(r"<tr>(.*?)</tr>", html, flags=re.S)
    out = []
    for row in rows:
        texts = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)
        out.append([re.sub(r"<[^>]+>", "", t).replace("&#124;", "|").strip() for t in texts])
    return out


@pytest.mark.parametrize(
    "render",
    [lambda t: markdown.markdown(t, extensions=["tables"]), markdown2html_mistune],
    ids=["python-markdown", "mistune"],
)
def test_pipes_stay_inside_their_cells(render):
    html = render(md_table(HEADERS, ROWS))
    assert "<table>" in html, html
    assert cells(html) == EXPECTED


def test_cell_without_special_characters_is_unchanged():
    assert md_cell(2.5) == "2.5"
    assert md_cell("`a` and **b**") == "`a` and **b**"
