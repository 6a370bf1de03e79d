"""A block that only prints a report is folded above its output; lesson code stays in view."""

from __future__ import annotations

import re

import pytest

from sitebuild.hooks.fold_reports import fold_report_blocks, report_function

REPORT = ('```python exec="1" source="block"\nfrom snippets.kvheads.report import decoder_header, decoder_rows\n'
          'from snippets.tables import md_table\n\nprint(md_table(decoder_header("zh"), decoder_rows("zh")))\n```\n')


def test_a_report_block_is_folded_and_still_prints():
    out = fold_report_blocks("text\n\n" + REPORT + "\nmore", "zh")
    assert '??? mha-code "代码：由 `decoder_rows` 打印"' in out
    # the collapsed box holds the code as a plain block; the block that runs has its source hidden
    assert "\n    ```python\n    from snippets.kvheads.report import" in out
    runs = re.findall(r'^```python exec="1"[^\n]*$', out, re.M)
    assert runs == ['```python exec="1"'], runs
    assert out.count('print(md_table(decoder_header("zh"), decoder_rows("zh")))') == 2
    assert fold_report_blocks(REPORT, "en").startswith('??? mha-code "Code: printed by `decoder_rows`"')


@pytest.mark.parametrize("code", [
    "from snippets.official import run_official\nprint(run_official(1))",  # a lesson module
    "from snippets.kvheads.report import f\nfor i in range(2):\n    print(f(i))",  # a loop
    "def g():\n    pass\nprint(g())",  # a definition
    "from snippets.kvheads.report import rows\nrows()",  # prints nothing
    "import torch\nprint(torch.ones(1))",  # no report module
])
def test_lesson_code_stays_in_view(code):
    assert report_function(code) is None
    block = f'```python exec="1" source="block"\n{code}\n```\n'
    assert fold_report_blocks(block, "zh") == block


def test_blocks_inside_boxes_and_hidden_sources_are_left_alone():
    inside = "??? example \"x\"\n\n    " + REPORT.replace("\n", "\n    ")
    assert fold_report_blocks(inside, "zh") == inside
    hidden = REPORT.replace(' source="block"', "")
    assert fold_report_blocks(hidden, "zh") == hidden


def test_a_provenance_table_is_folded_whole():
    block = ('```python exec="1" source="block"\nfrom snippets.benchreport import provenance_table\n\n'
             'print(provenance_table("en", "kvheads-decode"))\n```\n')
    out = fold_report_blocks(block, "en")
    assert out.startswith('??? mha-provenance "How these numbers were measured')
    # the code box and the block that prints the table are both inside the box
    assert all(line.startswith("    ") for line in out.split("\n")[1:] if line.strip())
    assert '\n    ```python exec="1"\n    from snippets.benchreport import provenance_table' in out


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="expected a language of"):
        fold_report_blocks(REPORT, "fr")


def test_the_pages_fold_most_report_blocks_and_keep_lesson_code():
    """On every page, the blocks the hook folds only print reports (no lesson module), and §3 keeps the
    official module's calls in view."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    folded = {}
    for page in sorted((root / "docs").rglob("*.md")):
        out = fold_report_blocks(page.read_text(encoding="utf-8"), "en" if page.name.endswith(".en.md") else "zh")
        folded[page.relative_to(root / "docs").as_posix()] = out.count("??? mha-code")
    # the key/value heads page and the page its accuracy tests moved to; §4 and its second round. The key/value
    # heads page and §4's two pages put most of their reports in detail boxes of their own (left as they are);
    # those in view are folded
    assert folded["lab/kv-heads.zh.md"] == folded["lab/kv-heads.en.md"] >= 5
    assert folded["lab/kv-heads-accuracy.zh.md"] == folded["lab/kv-heads-accuracy.en.md"] > 15
    assert folded["article/4-what-if.zh.md"] == folded["article/4-what-if.en.md"] >= 3
    assert folded["article/4b-second-round.zh.md"] == folded["article/4b-second-round.en.md"] >= 3
    # §3 folds the calls that only print a table or a figure (written folded in its source, so that its reading time
    # counts them folded) and keeps run_official's in view; the FAQ folds each answer's code the same way
    assert folded["article/3-pytorch.zh.md"] == folded["article/3-pytorch.en.md"] >= 11
    assert folded["faq.zh.md"] == folded["faq.en.md"] >= 30
    text = fold_report_blocks((root / "docs/article/3-pytorch.en.md").read_text(encoding="utf-8"), "en")
    assert re.search(r'^```python exec="1" source="block"[^\n]*\n(?:from [^\n]*\n)*from snippets\.official import '
                     r'run_official', text, re.M)

