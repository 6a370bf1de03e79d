"""The build hook that caches executed code blocks: hits, misses and failures."""

from __future__ import annotations

import importlib.util

import pytest
from conftest import ROOT
from markdown_exec._internal.formatters import python as runner
from markdown_exec._internal.formatters.base import ExecutionError


def append_x(path) -> str:
    """Code for a block that leaves a trace each time it really runs."""
    return f"from pathlib import Path\np = Path({str(path)!r})\np.write_text((p.read_text() if p.exists() else '') + 'x')"


@pytest.fixture
def hook(tmp_path, monkeypatch):
    import snippets.cache

    monkeypatch.setattr(snippets.cache, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(runner, "_run_python", getattr(runner, "_uncached_run_python", runner._run_python))
    spec = importlib.util.spec_from_file_location("exec_cache", ROOT / "docs/.overrides/hooks/exec_cache.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.on_config({})
    return module


def test_second_run_is_read_from_disk(hook, tmp_path):
    ran = tmp_path / "ran.txt"
    code = append_x(ran) + "\nprint('hello')"
    assert runner._run_python(code) == "hello\n"
    assert runner._run_python(code) == "hello\n"
    assert ran.read_text() == "x"  # executed once
    assert len(list((tmp_path / "cache" / "markdown-exec").rglob("*.txt"))) == 1


def test_failures_are_not_cached(hook, tmp_path):
    for _ in range(2):
        with pytest.raises(ExecutionError):
            runner._run_python("raise RuntimeError('boom')")
    assert not list((tmp_path / "cache").rglob("*.txt"))


def test_sessions_always_run(hook, tmp_path):
    ran = tmp_path / "ran.txt"
    code = append_x(ran)
    runner._run_python(code, session="s")
    runner._run_python(code, session="s")
    assert ran.read_text() == "xx"


def test_a_new_cached_result_changes_the_key(hook, tmp_path):
    before = hook._fingerprint(tmp_path / "cache")
    (tmp_path / "cache" / "joblib" / "f" / "abc").mkdir(parents=True)
    (tmp_path / "cache" / "joblib" / "f" / "abc" / "output.pkl").write_bytes(b"")
    assert hook._fingerprint(tmp_path / "cache") != before


def test_a_new_build_benchmark_changes_the_key(hook, tmp_path, monkeypatch):
    """The performance page prints .cache/buildbench.json: a new run must not show the old table."""
    import snippets.buildbench

    results = tmp_path / "buildbench.json"
    monkeypatch.setattr(snippets.buildbench, "RESULTS", results)
    missing = hook._fingerprint(tmp_path / "cache")
    results.write_text('{"date": "2026-01-01"}')
    first = hook._fingerprint(tmp_path / "cache")
    results.write_text('{"date": "2026-01-02"}')
    assert len({missing, first, hook._fingerprint(tmp_path / "cache")}) == 3
