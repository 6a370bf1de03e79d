"""snippets.reading: what the home page's reading times count, and that they follow the pages."""

from __future__ import annotations

import re

import pytest
from conftest import LANGS, ROOT

from snippets import reading as R

PAGE = """# Title { #top }

Intro has four words.

!!! abstract "Short"

    - one two

??? success "Solution"

    hidden words here do not count

    ```python
    print(1)
    ```

## Next { #next }

```python
--8<-- "snippets/x.py:y"
```

```python exec="1" html="1"
print(fig())
```

```python exec="1" source="tabbed-left"
print(2)
```

<!-- a comment with words -->
多头注意力
"""


def test_count_text_counts_what_opens_visible():
    c = R.count_text(PAGE, "en")
    # Title 1 + Intro has four words 4 + Short 1 + one two 2 + Next 1; the solution box is collapsed;
    # the comment is not counted, the five characters are
    assert (c.words, c.chars) == (9, 5)
    # shown sources: the include and the tabbed exec block; outputs: the figure and the tabbed block
    assert (c.code, c.outputs) == (2, 2)


def test_minutes_follow_the_stated_rates():
    c = R.Count(words=R.EN_WORDS_PER_MIN, chars=R.ZH_CHARS_PER_MIN, code=2, outputs=3)
    assert c.minutes() == pytest.approx(2 + (2 * R.CODE_SECONDS + 3 * R.OUTPUT_SECONDS) / 60)


def test_section_text_takes_ranges_between_heading_ids():
    assert R.count_text(R.section_text(PAGE, None, "next"), "en").words == 8
    assert R.count_text(R.section_text(PAGE, "next", None), "en").words == 1
    with pytest.raises(ValueError, match=r"expected a heading id of the page, .* got 'nope'"):
        R.section_text(PAGE, "nope", None)
    with pytest.raises(ValueError, match="expected heading 'top' after 'next'"):
        R.section_text(PAGE, "next", "top")


def test_page_count_names_a_missing_page(tmp_path):
    with pytest.raises(ValueError, match="expected a page at"):
        R.page_count("nowhere", "en", docs=tmp_path)
    with pytest.raises(ValueError, match="lang must be one of"):
        R.count_text("x", "fr")


def test_every_page_of_the_tables_exists_and_its_ranges_are_real():
    for lang in LANGS:
        for stem, sections, _ in R.CORE_PATH:
            assert R.page_count(stem, lang, sections).minutes() > 1
        for k, (stem, needs, _) in enumerate(R.DEEP_DIVES):
            assert (ROOT / "docs" / f"{stem}.{lang}.md").is_file()
            earlier = {s for s, _, _ in R.CORE_PATH} | {s for s, _, _ in R.DEEP_DIVES[:k]}
            assert all(n in earlier for n in needs)


def test_tables_print_the_computed_minutes(tmp_path):
    """Growing a page by 400 words makes its row (and the total) two minutes longer."""
    import shutil

    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("assets", ".overrides"))
    before = R.core_path_table("en", docs)
    page = docs / "article/1-single-head.en.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("\n## ", "\n" + "word " * 400 + "\n\n## ", 1), encoding="utf-8")
    after = R.core_path_table("en", docs)
    row = lambda t: next(line for line in t.splitlines() if line.startswith("| 1 |")).split("|")[3]
    assert int(row(after)) == int(row(before)) + 2


def test_the_home_page_prints_the_tables():
    for lang in LANGS:
        home = (ROOT / "docs" / f"index.{lang}.md").read_text(encoding="utf-8")
        assert "core_path_table(" in home and "deep_dive_table(" in home and "reading_rule(" in home
        # the build's exec cache keys a block by the code it imports, not by the pages snippets.reading reads;
        # a block with a session always runs, so the times follow every edit of a page
        blocks = [line for line in home.splitlines() if line.startswith("```python exec=")]
        reading = [b for b, nxt in zip(home.splitlines(), home.splitlines()[1:], strict=False)
                   if b.startswith("```python exec=") and "snippets.reading" in nxt]
        assert len(reading) == 2 and all('session="reading-times"' in b for b in reading), blocks


def test_the_tables_link_built_pages_not_markdown_sources():
    """The build does not rewrite links in printed output: a link to page.md would be a 404 on the site."""
    from snippets.reading import core_path_table, deep_dive_table

    for lang in ("zh", "en"):
        for table in (core_path_table(lang), deep_dive_table(lang)):
            links = re.findall(r"\]\(([^)]+)\)", table)
            assert links and not [u for u in links if ".md" in u], links


@pytest.mark.parametrize("lang", LANGS)
def test_the_core_path_takes_at_most_90_minutes(lang):
    """The home page promises a core path a learner can read in one sitting: at most 90 minutes by the module's
    rule (each step rounded up, as the table prints it)."""
    table = R.core_path_table(lang)
    minutes = [int(line.split("|")[3]) for line in table.splitlines() if re.match(r"^\| \d+ \|", line)]
    assert len(minutes) == len(R.CORE_PATH)
    assert sum(minutes) <= 90, table


def test_a_code_blocks_annotation_list_is_not_counted():
    """Material shows a code annotation only when its marker is clicked; a list after prose is counted."""
    page = '```python\n--8<-- "snippets/x.py:y"\n```\n\n1. Hidden note words\n    more hidden\n\nShown.\n'
    assert R.count_text(page, "en").words == 1
    assert R.count_text("Intro.\n\n1. Shown list item\n", "en").words == 5  # the "1" counts too
