"""§4's first-round models, committed so that a cold build reads them (sitebuild.buildmodels).

The file must hold exactly what the code computes: its entries read back to values of the same types, a cache
seeded from it answers the pages' calls without training, and one job drawn with the commit's hash, computed
again in an empty cache, gives the same entries within a tolerance (the largest measured for §4's training
across CPU paths: results/integrity-drift.json).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT, commit_seed

from sitebuild import buildmodels as B
from sitebuild import integrity
from sitebuild import precompute
from sitebuild import results

DATA = results.load(B.NAME)["data"]
PY = sys.executable


def tolerance() -> float:
    """How far a float may move when a job runs again on another CPU: the largest tolerance measured for §4's
    training (results/integrity-drift.json), the same model and training code."""
    return max(integrity.tolerances()["whatif-sweeps"].values())


def _run(code: str, cache) -> str:
    env = {**os.environ, "MHA_CACHE_DIR": str(cache), "MKL_CBWR": "AUTO,STRICT", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([PY, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_the_file_covers_every_first_round_job_of_the_build():
    jobs = {(j.fn, repr(j.args)) for j in precompute.jobs() if j.fn in B.JOB_FNS}
    assert B.covered_jobs(DATA) == jobs
    assert {e["func"] for e in DATA["entries"]} == set(B.FUNCS)


def test_entries_read_back_with_their_types():
    trained = [B.decode(e["value"]) for e in DATA["entries"] if e["func"].endswith("train._train_cached")]
    assert len(trained) >= 30  # the 30 one-layer models, and the stacks
    for run in trained:
        assert isinstance(run["state_dict"], dict)
        assert all(isinstance(v, np.ndarray) and v.dtype == np.float32 for v in run["state_dict"].values())
    shares = [B.decode(e["value"]) for e in DATA["entries"] if "'specialisation'" in e["input"].get("kind", "")]
    assert shares and all(isinstance(s, tuple) and s[0].dtype == np.float64 for s in shares)


@pytest.mark.parametrize("bad, why", [({1: 2}, "string keys"), (object(), "got object"),
                                      ({"$nd": 1}, "not starting with '\\$'")])
def test_encode_refuses_what_it_cannot_give_back(bad, why):
    with pytest.raises(ValueError, match=why):
        B.encode(bad)


def test_a_seeded_cache_answers_the_pages_without_training(tmp_path):
    """Seeded from the file, an empty cache has every §4 model and measure: no job is left, and train_run and
    the measures come from the cache (a call that trained would take seconds, and is refused here)."""
    out = _run(
        "from sitebuild import precompute as p\n"
        "left = p._from_committed(p.pending())\n"
        "print(sorted({j.fn for j in left}))\n"
        "from snippets.whatif import analysis, train\n"
        "from snippets.whatif.model import D_MODEL\n"
        "ok = all(train._train_cached.check_call_in_cache(h, s, 1000, 64, 3e-3, D_MODEL, code=train.CODE_VERSION)\n"
        "         for h in analysis.HEADS for s in analysis.SEEDS)\n"
        "def refuse(*args, **kwargs):\n"
        "    raise AssertionError('computed, not read from the cache')\n"
        "train._train = refuse  # what a cache miss would run\n"
        "analysis._MEASURES = {kind: refuse for kind in analysis._MEASURES}\n"
        "run = train.train_run(8, 0)\n"
        "print(ok, run['num_heads'], len(analysis.specialisation(run)[1]))\n", tmp_path)
    assert out.splitlines() == ["['real_model', 'real_model_ablation']", "True 8 8"]


@pytest.mark.slow
def test_a_drawn_job_computed_again_matches_the_file():
    """One first-round job (drawn with the commit's hash), run in an empty cache as a cold build runs it, leaves
    entries equal to the committed ones: integers, strings and shapes exactly, floats within the largest
    tolerance measured for §4's training across CPU paths."""
    jobs = [j for j in precompute.jobs() if j.fn in B.JOB_FNS]
    job = random.Random(commit_seed()).choice(jobs)
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        _run(f"from sitebuild import precompute as p\np._work({job.fn!r}, {job.args!r})\n", cache)
        fresh = B.harvest(__import__("pathlib").Path(cache))
    committed = {(e["func"], e["args_id"]): e for e in DATA["entries"]}
    tol = tolerance()
    assert fresh, job.label
    for entry in fresh:
        key = (entry["func"], entry["args_id"])
        assert key in committed, f"{job.label}: {key} computed now is not in the file"
        found = B.differences(B.decode(committed[key]["value"]), B.decode(entry["value"]), tol)
        assert not found, f"{job.label}, {entry['func']} {entry['input']}: {found[:5]}"


def test_the_check_catches_a_changed_number():
    entry = next(e for e in DATA["entries"] if e["func"].endswith("train._train_cached"))
    run = B.decode(entry["value"])
    edited = json.loads(json.dumps(entry["value"]))
    edited = B.decode(edited)
    edited["accuracy"] = run["accuracy"] - 0.05
    assert B.differences(run, edited, tolerance())
    assert not B.differences(run, B.decode(json.loads(json.dumps(entry["value"]))), tolerance())
    assert tolerance() == max(integrity.tolerances()["whatif-sweeps"].values())
    assert tolerance() < 0.05


def test_the_build_reads_the_file_only_while_it_matches_the_code(tmp_path):
    """load_current (the build's check, which must not import sitebuild.results) agrees with results.stale: the
    committed file is read; after an edit of one file it was computed from, it is not."""
    import shutil

    prov = results.load(B.NAME)["provenance"]
    for rel in [*prov["fingerprint_covers"]["files"], f"results/{B.NAME}.json"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    assert B.load_current(tmp_path) is not None and results.stale(B.NAME) is None
    edited = tmp_path / "snippets/whatif/train.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert B.load_current(tmp_path) is None
