"""Committed measurements are never stale: their code fingerprint matches the code that would produce them now.

If one of these fails, the code a measurement came from has changed since it was measured: run the
command the failure names (``python -m sitebuild.results bench`` or ``... build``) and commit the file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from sitebuild import results


@pytest.mark.parametrize("name", sorted(results.SPECS))
def test_committed_result_matches_the_code(name):
    why = results.stale(name)
    assert why is None, why


@pytest.fixture
def copy(tmp_path) -> Path:
    for package in ("snippets", "sitebuild", "resultcache"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("mkdocs.yml", "requirements.txt"):
        shutil.copy(ROOT / f, tmp_path / f)
    (tmp_path / "results").mkdir()
    for name in results.SPECS:  # a result measured from exactly this copy's code
        prov = {"fingerprint": results.current_fingerprint(name, tmp_path)}
        (tmp_path / "results" / f"{name}.json").write_text(json.dumps({"provenance": prov, "data": {}}))
    return tmp_path


def edit(root: Path, rel: str) -> None:
    with open(root / rel, "a", encoding="utf-8") as f:
        f.write("\n# edited\n")


@pytest.mark.parametrize("name, deep_dependency, unrelated", [
    ("bench-full", "snippets/fast.py", "snippets/whatif/train.py"),  # FastMultiHeadAttention, imported by bench
    ("bench-full", "snippets/_checks.py", "sitebuild/benchreport.py"),  # two imports down; formatting is no input
    ("buildbench", "sitebuild/hooks/exec_cache.py", "snippets/bench.py"),
    ("buildbench", "mkdocs.yml", "sitebuild/benchreport.py"),
    ("buildbench", "sitebuild/notebooks/run.py", "snippets/i18n.py"),  # words in tables time nothing
])
def test_editing_what_a_result_came_from_makes_it_stale(copy, name, deep_dependency, unrelated):
    check = lambda: results.stale(name, root=copy, results_dir=copy / "results")  # noqa: E731
    assert check() is None
    edit(copy, unrelated)
    assert check() is None, f"{name} went stale when {unrelated} changed"
    edit(copy, deep_dependency)
    why = check()
    assert why is not None and results.SPECS[name].command in why


def test_a_missing_result_names_its_command(tmp_path):
    with pytest.raises(ValueError, match="run `python -m sitebuild.results bench` and commit it"):
        results.load("bench-full", tmp_path)
    with pytest.raises(ValueError, match="expected one of the committed results"):
        results.load("other")


def test_check_command_reports_stale_results(copy, monkeypatch, capsys):
    monkeypatch.setattr(results, "RESULTS_DIR", copy / "results")
    monkeypatch.setattr(results, "current_fingerprint", lambda name, root=None: "0" * 32)
    assert results.main(["check"]) == 1
    out = capsys.readouterr().out
    assert "bench-full: STALE" in out and "python -m sitebuild.results bench" in out


def test_committed_files_record_their_provenance():
    for name in results.SPECS:
        p = results.load(name)["provenance"]
        assert {"date", "commit", "machine", "torch", "fingerprint", "load_before", "load_after",
                "shared_machine", "command"} <= p.keys()
        assert {"cpu", "cores", "threads"} <= p["machine"].keys()
        assert not p["uncommitted_changes"], f"{name} was measured from code that was not committed"
