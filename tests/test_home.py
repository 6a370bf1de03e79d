"""The home page's page map (the table under 'How to read it') links every page in the navigation, in both
languages, in the navigation's order."""

from __future__ import annotations

import re

import pytest
from conftest import LANGS, ROOT

NAV_PAGE = re.compile(r"^\s*-\s*[^:]+:\s*(?P<path>[\w./-]+\.md)\s*$")
SECTION = re.compile(r"^## .*\{ #how-to-read \}\s*$(?P<body>.*?)(?=^## )", re.M | re.S)
TABLE_LINK = re.compile(r"^\|\s*\[[^\]]+\]\((?P<path>[\w./-]+\.md)\)", re.M)


def nav_pages() -> list[str]:
    """The .md paths in mkdocs.yml's nav, in order (read as text: the file has tags yaml.safe_load refuses)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:\n"):]
    pages = []
    for line in nav.splitlines()[2:]:
        if line and not line.startswith(" "):
            break
        m = NAV_PAGE.match(line)
        if m:
            pages.append(m.group("path"))
    return pages


def test_nav_is_read():
    pages = nav_pages()
    assert pages[0] == "index.md" and "lab/kv-heads.md" in pages and len(pages) >= 10


@pytest.mark.parametrize("lang", LANGS)
def test_home_page_map_lists_every_page_in_the_nav(lang):
    home = (ROOT / "docs" / f"index.{lang}.md").read_text(encoding="utf-8")
    section = SECTION.search(home)
    assert section, f"docs/index.{lang}.md has no '## … {{ #how-to-read }}' section followed by another"
    listed = TABLE_LINK.findall(section.group("body"))
    wanted = [p for p in nav_pages() if p != "index.md"]
    missing = [p for p in wanted if p not in listed]
    assert not missing, f"docs/index.{lang}.md's page map does not list {missing}"
    assert listed == wanted, f"docs/index.{lang}.md's page map is not in the nav's order: {listed}"


def test_the_maps_words_on_section_4_follow_its_protocol():
    """The page map describes §4's second round in words; they must say what snippets.whatif.protocol runs."""
    from snippets.whatif import protocol as W
    from snippets.whatif.task import OFFSETS

    heads = [c["num_heads"] for c in W.SWEEPS["fixed_dk"]]
    lookups = sorted({len(W.OFFSETS_2), len(OFFSETS), len(W.OFFSETS_6)})
    assert heads == list(range(1, 9)) and lookups == [2, 4, 6] and len(W.SEEDS) == 10
    en = (ROOT / "docs" / "index.en.md").read_text(encoding="utf-8")
    zh = (ROOT / "docs" / "index.zh.md").read_text(encoding="utf-8")
    assert "every head count from 1 to 8, 2, 4 or 6 lookups" in en and "ten seeds each" in en
    assert "头数从 1 到 8 逐一试，查找 2、4 或 6 处" in zh and "每种 10 个种子" in zh
