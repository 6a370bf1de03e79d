"""Committed measurements are never stale: their code fingerprint matches the code that would produce them now.

If one of these fails, the code a measurement came from has changed since it was measured, or the result
has no record of how busy the machine was: run the command the failure names
(``python -m sitebuild.results bench`` or ``... build``) and commit the file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from sitebuild import results


LOAD_RECORD = {"load_before": [1.0, 1.0, 1.0], "load_after": [1.0, 1.0, 1.0], "others_cpu": 0.01,
               "runs": [{"run": "L=128", "seconds": 1.0, "load_before": [1.0, 1.0, 1.0],
                         "load_after": [1.0, 1.0, 1.0], "others_cpu": 0.01}]}


@pytest.mark.parametrize("name", sorted(results.SPECS))
def test_committed_result_matches_the_code(name):
    """Fails, naming the command, for each result that must be measured again."""
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
        prov = {"fingerprint": results.current_fingerprint(name, tmp_path)} | LOAD_RECORD
        (tmp_path / "results" / f"{name}.json").write_text(json.dumps({"provenance": prov, "data": {}}))
    return tmp_path


def edit(root: Path, rel: str) -> None:
    with open(root / rel, "a", encoding="utf-8") as f:
        f.write("\n# edited\n")


@pytest.mark.parametrize("name, deep_dependency, unrelated", [
    ("bench-full", "snippets/fast.py", "snippets/whatif/train.py"),  # FastMultiHeadAttention, imported by bench
    ("bench-full", "snippets/_checks.py", "snippets/benchreport.py"),  # two imports down; formatting is no input
    ("bench-full", "snippets/fast.py", "snippets/i18n.py"),  # the words fast.py's table prints time nothing
    ("buildbench", "sitebuild/hooks/exec_cache.py", "snippets/bench.py"),
    ("buildbench", "mkdocs.yml", "snippets/benchreport.py"),
    ("buildbench", "sitebuild/notebooks/run.py", "snippets/i18n.py"),  # words in tables time nothing
    ("kvheads-recall", "snippets/kvheads/attention.py", "snippets/kvheads/report.py"),  # the layer, not the table
    ("kvheads-decode", "snippets/bench.py", "snippets/kvheads/report.py"),  # time_rounds times it; the page's table
    ("kvheads-decode", "snippets/kvheads/attention.py", "snippets/kvheads/train.py"),  # the layer timed, not training
    ("kvheads-decode", "snippets/kvheads/mla.py", "snippets/kvheads/cost.py"),  # MLA is timed; cost.py's formula is not
    ("whatif-sweeps", "snippets/multihead.py", "snippets/whatif/round2.py"),  # the layer trained, not the report
    ("whatif-sweeps", "snippets/whatif/regime.py", "snippets/stats.py"),  # the regime's training, not the verdicts
    ("kvheads-mqar", "snippets/kvheads/mla.py", "snippets/kvheads/mqar_report.py"),  # MLA is trained; not the report
    ("kvheads-mqar-followup", "snippets/kvheads/mqar.py", "snippets/kvheads/mqar_report.py"),  # the model, not the report
    ("induction", "snippets/induction/model.py", "snippets/induction/report.py"),  # the model trained, not the report
    ("induction-live", "snippets/induction/train.py", "snippets/induction/live.py"),  # the training, not the view
    ("induction-reader", "snippets/induction/model.py", "snippets/induction/readerbench.py"),  # sizes, not the benchmark
    ("induction-circuits", "snippets/induction/model.py", "snippets/induction/circuits_report.py"),  # not the report
    ("induction-positional", "snippets/induction/parts.py", "snippets/induction/positional_report.py"),  # the switch
    ("decoder-heads", "snippets/kvheads/attention.py", "snippets/decoder/report.py"),  # the layer run, not the page
    ("decoder-heads", "snippets/decoder/weights.py", "snippets/kvheads/decoder.py"),  # the loader, not the toy decoder
    ("decoder-heads", "snippets/decoder/texts.json", "snippets/i18n.py"),  # the texts scored, not the page's words
    ("decoder-ablation", "snippets/decoder/passages.json", "snippets/decoder/report.py"),  # its texts, not the page
    ("decoder-ablation", "snippets/decoder/model.py", "snippets/exercises/decoder.py"),  # the model cut, not exercises
])
def test_editing_what_a_result_came_from_makes_it_stale(copy, name, deep_dependency, unrelated):
    check = lambda: results.stale(name, root=copy, results_dir=copy / "results")  # noqa: E731
    assert check() is None
    edit(copy, unrelated)
    assert check() is None, f"{name} went stale when {unrelated} changed"
    edit(copy, deep_dependency)
    why = check()
    assert why is not None and results.SPECS[name].command in why


def test_a_result_without_a_load_record_is_stale(copy):
    """The load is measured, not declared: a result from before that record must be measured again."""
    path = copy / "results" / "buildbench.json"
    prov = json.loads(path.read_text())["provenance"]
    path.write_text(json.dumps({"provenance": {k: v for k, v in prov.items() if k not in ("others_cpu", "runs")}
                                | {"shared_machine": False}, "data": {}}))
    why = results.stale("buildbench", root=copy, results_dir=copy / "results")
    assert why.startswith("results/buildbench.json must be measured again: it has no record of how busy the "
                          "machine was (missing: others_cpu, runs)")
    assert why.endswith("Run `python -m sitebuild.results build` and commit the file")
    assert "fingerprint" not in why  # the code did not change: only the record is missing


def test_runs_are_recorded_with_the_load_and_others_cpu(monkeypatch):
    before = {"t": 10.0, "load": [1.0, 0.9, 0.8], "busy": 100.0, "own": 5.0}
    after = {"t": 20.0, "load": [1.5, 1.0, 0.8], "busy": 116.0, "own": 14.0}  # 16 s busy, 9 of them ours
    monkeypatch.setattr(results.os, "cpu_count", lambda: 2)
    assert results.run_record("L=128", before, after) == {
        "run": "L=128", "seconds": 10.0, "load_before": [1.0, 0.9, 0.8], "load_after": [1.5, 1.0, 0.8],
        "others_cpu": 0.35}  # 7 s of 2 cores × 10 s
    assert results.run_record("cold", before, after | {"busy": None})["others_cpu"] is None  # no /proc/stat
    with pytest.raises(ValueError, match="expected a run label"):
        results.run_record("", before, after)
    snap = results.snapshot()
    assert {"t", "load", "busy", "own"} <= snap.keys() and len(snap["load"]) == 3


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
                "command"} <= p.keys()
        assert {"cpu", "cores", "threads"} <= p["machine"].keys()
        assert not p["uncommitted_changes"], f"{name} was measured from code that was not committed"


def test_own_cpu_counts_children_still_running():
    """A training pool's workers are alive for the whole sweep, so os.times() does not see their CPU yet; the
    snapshot counts them as the measurement's own, not as other processes'."""
    burn = ("import sys, time\nt = time.process_time()\nwhile time.process_time() - t < 1.0: pass\n"
            "sys.stdout.write('x'); sys.stdout.flush(); time.sleep(30)")
    before = results.snapshot()
    child = subprocess.Popen([sys.executable, "-c", burn], stdout=subprocess.PIPE)
    try:
        assert child.stdout.read(1) == b"x"  # it has used a second of CPU and is still running
        after = results.snapshot()
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
    assert after["own"] - before["own"] >= 0.9
