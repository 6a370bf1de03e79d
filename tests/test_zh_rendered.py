"""The Chinese a reader reads, as built (issue 36): the terminology and punctuation checks run on the
rendered text of every zh page (prose, the sentences and tables code prints, admonition titles, figure
labels, alt text), not only on the Markdown and on snippets/i18n.py, so strings written inside exec
blocks and labels read from result files are checked too. A count of zero has its own words
("没有一个", "一个也没有"), never "有 0 个" or "62 个中的 0 个"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from zhpages import built_zh_pages, reader_lines, rendered_problems, rendered_prose, report

from sitebuild import zhstyle
from snippets.i18n import fill

# A count of zero (or a change of zero) written as a number where Chinese has words for it.
ZERO = re.compile(r"(?:有|的|里|中|是)\s*0\s*个(?!百分点)|只变\s*0(?:\.0+)?(?![\d.])|最多(?:只)?变\s*0\.0+(?!\d)")


def zero_problems(line: str) -> list[str]:
    return [f"a zero count in digits: {m.group(0)!r} in …{line[max(0, m.start() - 20):m.end() + 10]}…"
            for m in ZERO.finditer(line)]


def style_problems(line: str) -> list[str]:
    prose = rendered_prose(line)
    return zhstyle.term_problems(prose) + zhstyle.punctuation_problems(prose)


@pytest.mark.parametrize(("line", "found"), [
    ("与 MHA 的 9 个比较经 Holm 校正后，判为有差别的有 0 个；", True),
    ("16 个头的模型里是 62 个中的 0 个（1.5 到 50.9）", True),
    ("互换后最多只变 0.00", True),
    ("10 个种子里有 0 个达到", True),
    ("判为有差别的一个也没有；10 个种子里有 10 个", False),
    ("取的是第 0 个样本；依次是 0、7、6、5、6、0 个；差 0.0 个百分点；有 10 个", False),
])
def test_zero_detector(line, found):
    assert bool(zero_problems(line)) is found, zero_problems(line)


def test_zero_counts_get_their_own_words():
    assert fill("{n} 个种子里{k:有 # 个|没有一个}学会", n=10, k=0) == "10 个种子里没有一个学会"
    assert fill("{n} 个种子里{k:有 # 个|没有一个}学会", n=10, k=3) == "10 个种子里有 3 个学会"
    with pytest.raises(ValueError, match="expects a count"):
        fill("{k:有 # 个|没有一个}", k=0.5)


def test_reader_text_reads_labels_and_masks_code():
    html = ('<nav>导航 0 个</nav><article><p>词元<strong>在哪</strong>，用 <code>x</code> 算</p>'
            '<div class="result"><table><tr><th>两个 token 互换后</th></tr></table>'
            '<pre><code>tokens: [1, 2]</code></pre></div><img alt="热图：头 0"><svg><text>头 1</text>'
            '<style>*{a: b}</style></svg><span class="arithmatex">\\(d_k\\)</span></article>')
    assert reader_lines(html) == ["词元在哪，用 X 算", "两个 token 互换后", "X", "热图：头 0", "头 1", "X"]
    assert style_problems("两个 token 互换后") == ["'token' → 词元 (token)"]
    assert style_problems("（其他，-10.3 [-25.7, +5.1] 个百分点，共 1,000 步）") == []
    assert style_problems("Ashish Vaswani et al. Attention Is All You Need. NeurIPS 2017.") == []


def test_rendered_zh_has_no_zero_counts_in_digits(built_site: Path):
    assert len(built_zh_pages(built_site)) > 10
    problems = rendered_problems(built_site, zero_problems)
    assert not problems, report(problems)


def test_rendered_zh_uses_the_chosen_terms_and_punctuation(built_site: Path):
    problems = rendered_problems(built_site, style_problems)
    assert not problems, report(problems)


# Templates that read as code, not Chinese (issue 47, item 3 of Why): run labels from result files printed
# in English, a share that is 0% printed twice, "N 个……里，N 个" where all of them is meant, and the
# notebooks' set-up cell speaking of timings on pages that have none.
TEMPLATE = re.compile(
    r"\brounds \d|\bseed \d|\d+ layers? x \d+ heads?"
    r"|(?<![\d.])0%（各次运行中最多 0%）|最多 0%"
    r"|(?<![\d.])(?P<n>\d+) 个[^，。；、\d]{0,10}里，?有? ?(?P=n) 个(?!百分点)"
    r"|本节展示的计时")


def template_problems(line: str) -> list[str]:
    return [f"a code-written template: {m.group(0)!r} in …{line[max(0, m.start() - 20):m.end() + 10]}…"
            for m in TEMPLATE.finditer(line)]


@pytest.mark.parametrize(("line", "found"), [
    ("rounds 1-5：0.62 → 0.77，0%", True),
    ("最多 2%（h=8 g=4 n=12 seed 1）", True),
    ("2 layers x 4 heads seed 20: 0.346 nats：0.58 → 2.06，3%", True),
    ("别的进程占用了整台机器 CPU 时间的 0%（各次运行中最多 0%），机器基本空闲。", True),
    ("10 个新种子里，10 个形成了归纳回路。", True),
    ("5 个种子里，有 5 个答得最好的方向正是权重最大的方向。", True),
    ("本节展示的计时是在构建本站的机器上测的", True),
    ("第 1–5 轮：0.62 → 0.77；h=8，g=4，n=12，种子 1；2 层 × 4 个头，种子 20（最终损失 0.346 奈特）", False),
    ("10 个新种子全部形成了归纳回路；10 个种子里有 2 个；别的进程占用了 1%（各次运行中最多 3%）", False),
])
def test_template_detector(line, found):
    assert bool(template_problems(line)) is found, template_problems(line)


def test_training_results_do_not_warn_about_timing_noise():
    """A provenance table of a training run speaks of training, not of timings (only TIMED results are timings)."""
    from snippets import benchreport

    for path in sorted((Path(__file__).resolve().parents[1] / "results").glob("*.json")):
        table = benchreport.provenance_table("zh", path.stem)
        if path.stem not in benchreport.TIMED:
            assert "计时" not in table, f"{path.stem}: a training result's provenance speaks of timings"
        assert not template_problems(table), (path.stem, template_problems(table))


def test_rendered_zh_has_no_code_written_templates(built_site: Path):
    problems = rendered_problems(built_site, template_problems)
    assert not problems, report(problems)
