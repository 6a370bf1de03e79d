"""The build hook that caches executed code blocks, driven through markdown-exec's public entry point.

Blocks are rendered the way the site renders them: Python-Markdown with pymdownx.superfences and
markdown-exec's public `validator` / `formatter`. If an upgrade of markdown-exec stops calling the
runner the hook replaces, these tests fail (a block runs twice, or the cache stays empty).
"""

from __future__ import annotations

import shutil

import markdown
import pytest
from conftest import ROOT
from markdown_exec import formatter, validator

from sitebuild.hooks import exec_cache


def append_x(path) -> str:
    """Code for a block that leaves a trace each time it really runs."""
    return f"from pathlib import Path\np = Path({str(path)!r})\np.write_text((p.read_text() if p.exists() else '') + 'x')"


def render(code: str, lang: str = "python", options: str = 'exec="1"') -> str:
    """One fenced block through markdown-exec, as mkdocs renders a page."""
    fences = [{"name": name, "class": name, "validator": validator, "format": formatter} for name in ("python", "pycon")]
    md = markdown.Markdown(extensions=["pymdownx.superfences"],
                           extension_configs={"pymdownx.superfences": {"custom_fences": fences}})
    return md.convert(f"```{lang} {options}\n{code}\n```\n")


@pytest.fixture
def hook(tmp_path, monkeypatch):
    from markdown_exec._internal.formatters import pycon
    from markdown_exec._internal.formatters import python as runner

    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path / "cache"))
    for module in (runner, pycon):  # undone after the test
        monkeypatch.setattr(module, "_run_python", getattr(runner, "_uncached_run_python", runner._run_python))
    monkeypatch.setattr(exec_cache, "STATS", {"hits": 0, "misses": 0, "sessions": 0})
    exec_cache.on_config({})
    return exec_cache


def stored(tmp_path) -> list:
    return list((tmp_path / "cache" / "markdown-exec").rglob("*.txt"))


def test_second_render_is_read_from_disk(hook, tmp_path):
    ran = tmp_path / "ran.txt"
    code = append_x(ran) + "\nprint('hello')"
    assert "hello" in render(code)
    assert "hello" in render(code)
    assert ran.read_text() == "x"  # executed once
    assert len(stored(tmp_path)) == 1
    assert hook.STATS == {"hits": 1, "misses": 1, "sessions": 0}
    hook.on_post_build({})  # blocks went through the cache: the build may pass


def test_pycon_blocks_are_cached_too(hook, tmp_path):
    ran = tmp_path / "ran.txt"
    code = "\n".join(">>> " + line for line in append_x(ran).splitlines()) + "\n>>> print('hi')"
    assert "hi" in render(code, "pycon")
    assert "hi" in render(code, "pycon")
    assert ran.read_text() == "x"
    assert len(stored(tmp_path)) == 1


def test_failures_are_not_cached(hook, tmp_path):
    for _ in range(2):
        assert "boom" in render("raise RuntimeError('boom')")  # markdown-exec shows the traceback and logs a warning
    assert not stored(tmp_path)


def test_sessions_always_run(hook, tmp_path):
    ran = tmp_path / "ran.txt"
    render(append_x(ran), options='exec="1" session="s"')
    render(append_x(ran), options='exec="1" session="s"')
    assert ran.read_text() == "xx"


def test_a_build_with_no_block_through_the_cache_fails(hook):
    """What on_post_build sees if markdown-exec stops calling the runner the hook replaced."""
    with pytest.raises(RuntimeError, match="expected executed code blocks to go through the exec cache"):
        hook.on_post_build({})


def test_a_new_committed_measurement_changes_the_key(hook, tmp_path):
    """The performance page prints the committed measurements (results/*.json): a new one must show."""
    import shutil

    from resultcache import ROOT, results_fingerprint

    shutil.copytree(ROOT / "results", tmp_path / "results")
    before = results_fingerprint(tmp_path / "results")
    assert before == results_fingerprint()
    with open(tmp_path / "results" / "bench-full.json", "a", encoding="utf-8") as f:
        f.write(" ")
    remeasured = results_fingerprint(tmp_path / "results")
    (tmp_path / "results" / "other.json").write_text("{}")
    assert len({before, remeasured, results_fingerprint(tmp_path / "results")}) == 3


def test_an_optional_result_changes_the_key(hook, tmp_path):
    """A result recorded with mark_optional (shown by a page if present) re-runs the blocks that print it."""
    from resultcache import mark_optional, results_fingerprint

    before = results_fingerprint()
    mark_optional("some-result", "abc")
    assert results_fingerprint() != before


def test_key_follows_the_lesson_code_a_block_imports_not_the_machinery(tmp_path, monkeypatch):
    """Editing machinery code leaves every cached block valid; editing a snippet the block imports does not."""
    import resultcache

    for package in ("snippets", "sitebuild", "resultcache"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(resultcache, "ROOT", tmp_path)
    code = "from snippets.multihead import split_heads\nprint(1)"
    key = exec_cache.block_key(code, {}, "r")

    def edit(rel):
        assert (tmp_path / rel).is_file(), rel  # an edit of a missing file would test nothing
        with open(tmp_path / rel, "a", encoding="utf-8") as f:
            f.write("\n# edited\n")

    for machinery in ("sitebuild/notebooks/run.py", "sitebuild/hooks/exec_cache.py", "sitebuild/results.py",
                      "snippets/bench.py", "snippets/whatif/train.py"):
        edit(machinery)
        assert exec_cache.block_key(code, {}, "r") == key, machinery
    edit("snippets/_checks.py")  # imported by multihead, transitively
    assert exec_cache.block_key(code, {}, "r") != key


def test_a_blocks_key_follows_the_words_it_prints():
    """snippets.i18n reads the words modules by name; the key of a block that prints words must follow them,
    or a warm build shows the old text after a words edit. Every words module is imported by name in
    snippets/words/__init__.py, so resultcache's import tracer sees it."""
    from pathlib import Path

    from resultcache import code_imports
    from snippets import words

    root = Path(__file__).resolve().parents[1]
    on_disk = {p.stem for p in (root / "snippets" / "words").glob("*.py") if p.stem != "__init__"}
    assert set(words.MODULES) == on_disk
    traced = {Path(f).stem for f in code_imports("from snippets.i18n import text") if f.startswith("snippets/words/")}
    assert on_disk <= traced, sorted(on_disk - traced)
