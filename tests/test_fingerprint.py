"""Every cached result is recomputed when anything it was computed from changes, and only then.

Each test works on a copy of the project's packages in a temporary folder with its own cache
(MHA_CACHE_DIR), edits one file that the result depends on only transitively, and checks that
the result's key changes (or that the cached function really runs again); editing a file the
result does not depend on leaves the key alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

import resultcache
from resultcache import fingerprint, module_files

PACKAGES = ("snippets", "sitebuild", "resultcache")


@pytest.fixture
def copy(tmp_path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def edit(root: Path, rel: str) -> None:
    with open(root / rel, "a", encoding="utf-8") as f:
        f.write("\n# edited\n")


def run_in(root: Path, code: str) -> dict:
    """Run code with the copy first on the import path and its own cache; return the JSON it prints."""
    env = os.environ | {"PYTHONPATH": str(root), "MHA_CACHE_DIR": str(root / "cache")}
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_module_files_follow_imports_transitively():
    files = module_files(["snippets.whatif.train"])
    assert {"snippets/whatif/train.py", "snippets/whatif/model.py", "snippets/multihead.py",
            "snippets/attention.py", "snippets/_checks.py", "resultcache/__init__.py"} <= set(files)
    assert not [f for f in files if f.startswith("sitebuild/")] and "snippets/bench.py" not in files
    with pytest.raises(ValueError, match="expected dotted names of project modules"):
        module_files(["torch"])
    with pytest.raises(ValueError, match="found no file for"):
        module_files(["snippets.nope"])


def test_fingerprint_covers_versions_and_machine(monkeypatch):
    base = fingerprint(["snippets.attention"])
    assert fingerprint(["snippets.attention"], machine=True) != base
    assert fingerprint(["snippets.attention"], machine=True, num_threads=2) != fingerprint(
        ["snippets.attention"], machine=True)
    monkeypatch.setattr(resultcache, "_version", lambda dist: "9.9.9" if dist == "torch" else "1")
    assert fingerprint(["snippets.attention"]) != base  # another torch


@pytest.mark.parametrize("key, deep_dependency, unrelated", [
    ("CODE_VERSION of training (snippets.whatif.train)", "snippets/attention.py", "snippets/bench.py"),
    ("ANALYSIS_VERSION of §4's measurements (snippets.whatif.analysis)", "snippets/whatif/task.py", "snippets/faq.py"),
    ("source_hash of the real model's results (snippets.bert)", "snippets/multihead.py", "snippets/bert/viewer.py"),
    ("current_fingerprint of the committed benchmark sweep (snippets.bench)", "snippets/fast.py",
     "snippets/whatif/train.py"),
])
def test_each_cache_key_follows_a_deep_dependency(copy, key, deep_dependency, unrelated):
    read = {
        "CODE_VERSION": "from snippets.whatif import train; v = train.CODE_VERSION",
        "ANALYSIS_VERSION": "from snippets.whatif import analysis; v = analysis.ANALYSIS_VERSION",
        "source_hash": "from snippets.bert import loader; v = loader.source_hash()",
        "current_fingerprint": "from sitebuild import results; v = results.current_fingerprint('bench-full')",
    }[key.split()[0]]
    code = f"import json; {read}; print(json.dumps({{'v': v}}))"
    before = run_in(copy, code)["v"]
    edit(copy, unrelated)
    edit(copy, "sitebuild/hooks/exec_cache.py")  # machinery never counts
    assert run_in(copy, code)["v"] == before, f"{key} changed with {unrelated}"
    edit(copy, deep_dependency)
    assert run_in(copy, code)["v"] != before, f"{key} ignored an edit of {deep_dependency}"


def test_editing_fast_mha_makes_the_committed_sweep_stale(copy):
    """The sweep is committed data (results/bench-full.json), not a cache: editing FastMultiHeadAttention's
    module makes it stale, and the stale check names the command that measures it again."""
    from sitebuild import results

    assert results.stale("bench-full", root=copy) is None  # the committed sweep matches this code
    edit(copy, "snippets/fast.py")
    assert "python -m sitebuild.results bench" in results.stale("bench-full", root=copy)


def test_editing_the_attention_retrains(copy):
    """Training depends on snippets/attention.py through model -> multihead: editing it trains again."""
    code = """
import json
from snippets.whatif import train
call = (2, 0, 2, 8, 3e-3, 32)
cached = train._train_cached.check_call_in_cache(*call, code=train.CODE_VERSION)
train.train_run(2, 0, steps=2, batch_size=8)
print(json.dumps({"was_cached": cached}))
"""
    assert run_in(copy, code) == {"was_cached": False}
    assert run_in(copy, code) == {"was_cached": True}
    edit(copy, "snippets/attention.py")
    assert run_in(copy, code) == {"was_cached": False}


def test_a_module_added_or_removed_in_one_process_changes_what_imports_resolve_to(tmp_path):
    """The listing of the project's modules is kept between calls (a build keys hundreds of blocks with it), and
    listed again when a folder changes: a module created after the first call is found, a removed one is gone,
    and the fingerprint follows."""
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "__init__.py").write_text("", encoding="utf-8")
    code = "from snippets.late import x"
    before = resultcache.code_imports(code, tmp_path)
    key_before = fingerprint(code=code, root=tmp_path)
    assert before == ["snippets/__init__.py"]
    (tmp_path / "snippets" / "late").mkdir()
    (tmp_path / "snippets" / "late" / "__init__.py").write_text("x = 1\n", encoding="utf-8")
    assert resultcache.code_imports(code, tmp_path) == ["snippets/__init__.py", "snippets/late/__init__.py"]
    assert fingerprint(code=code, root=tmp_path) != key_before
    shutil.rmtree(tmp_path / "snippets" / "late")
    assert resultcache.code_imports(code, tmp_path) == before
    assert fingerprint(code=code, root=tmp_path) == key_before


def test_the_build_computes_on_one_thread():
    """The build's hook puts every process it starts, and its own torch, on one thread (see its comment)."""
    import importlib

    import torch

    old = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        site = importlib.import_module("sitebuild.hooks.site")
        site.on_config(type("Config", (), {})())
        assert torch.get_num_threads() == 1
        assert os.environ["OMP_NUM_THREADS"] == os.environ["MKL_NUM_THREADS"] == "1"
    finally:
        torch.set_num_threads(old)
