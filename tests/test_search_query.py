"""The search worker's query segmenter, as shipped by Material and as sitebuild/hooks/search_query.py
patches it: the patch must still apply to the installed Material (the build fails otherwise), and the
patched segmenter must keep a query's last character where the shipped one drops it.

The segmenter is run in Node (the minified function, cut out of the worker as it is); the same patch is
checked end to end in Chromium by tests/browser/test_search.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import material
import pytest

from sitebuild.hooks.search_query import _HEADER, patch_worker

WORKERS = sorted((Path(material.__file__).parent / "templates/assets/javascripts/workers").glob("search.*.min.js"))

# (query, the index's words, what the segmenter must return); the index words are the ones jieba
# puts into this site's index around these queries (single characters included: jieba keeps them).
CASES = [
    ("前馈", ["前", "前馈", "前向"], ["前馈"]),
    ("预训练", ["预", "预测", "预训练"], ["预训练"]),
    ("快速路径", ["快", "快速", "快速路径", "路径"], ["快速路径"]),
    ("多头注意力", ["多头", "注意", "注意力", "多头注意力"], ["多头注意力"]),
    ("查询头", ["查询", "头"], ["查询", "头"]),  # two words: the last one, a single character, kept
    ("相对位置", ["相对", "位置", "位"], ["相对", "位置"]),
    ("分而治之", [], ["分而治之"]),  # nothing in the index: the query as typed
]


def segmenter_js(worker_js: str) -> str:
    """The minified segment(query, index) function cut out of the worker, as `segment`."""
    header = _HEADER.search(worker_js)
    assert header, "Material's search segmenter is not in the worker"
    end = worker_js.index("}function ", header.end()) + 1
    return "const segment = " + worker_js[header.start():end] + ";"


def run_segmenter(worker_js: str, cases) -> list[list[str]]:
    script = segmenter_js(worker_js) + """
const cases = %s;
console.log(JSON.stringify(cases.map(([q, words]) =>
  [...segment(q, Object.fromEntries(words.map((w) => [w, {}])))])));
""" % json.dumps([[q, words] for q, words, _ in cases], ensure_ascii=False)
    out = subprocess.run([shutil.which("node"), "-e", script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_installed_worker_is_patched_once():
    assert WORKERS, "Material's search worker is missing from the installed theme"
    for worker in WORKERS:
        js = worker.read_text(encoding="utf-8")
        patched = patch_worker(js)
        assert patched != js
        assert len(patched) == len(js) - 1  # one character added (<=), two removed (-1)


def test_the_patch_fails_loudly_on_code_it_does_not_know():
    js = WORKERS[0].read_text(encoding="utf-8")
    changed = re.sub(r"for\(let ([\w$]+)=([\w$]+)\+1;\1<", r"for(let \1=\2+1;\1!=", js, count=1)
    with pytest.raises(ValueError, match="theme changed"):
        patch_worker(changed)
    with pytest.raises(ValueError, match="theme changed"):
        patch_worker("function f(){}")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed: apt-get install nodejs")
def test_the_patched_segmenter_keeps_the_whole_query():
    js = WORKERS[0].read_text(encoding="utf-8")
    shipped, patched = run_segmenter(js, CASES), run_segmenter(patch_worker(js), CASES)
    for (query, _, expected), got in zip(CASES, patched):
        assert got == expected, f"patched segmenter cut {query!r} into {got}, expected {expected}"
    # the bug the patch is for, so this test notices when an upgrade fixes it upstream
    assert shipped[0] == ["前"] and shipped[1] == ["预"], f"the shipped segmenter: {shipped}"


def test_patching_twice_changes_nothing():
    """mkdocs-static-i18n runs the post-build hooks once per language over one site: the second run must
    accept the patched worker (and still fail on a worker it does not know)."""
    js = WORKERS[0].read_text(encoding="utf-8")
    once = patch_worker(js)
    assert patch_worker(once) == once
