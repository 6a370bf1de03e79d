"""Committed training results cannot be satisfied by editing a file (sitebuild.integrity).

Two checks: every results file carries the SHA-256 of its data, recomputed here; and one run of every family
of every training result (every §4 sweep, every recall-test size, every MQAR arm and the follow-up, every
induction setting and the follow-up) is trained again and must match the committed run within a tolerance
measured across CPU paths (results/integrity-drift.json). The draw uses the commit's hash as its seed, so
every commit retrains other runs; which runs exist comes from the protocols, never from the file checked.
"""

from __future__ import annotations

import copy
import json

import pytest
from conftest import ROOT, commit_seed

from sitebuild import integrity as I

RESULTS = sorted(p.stem for p in (ROOT / "results").glob("*.json"))
TRAINED = sorted({f.result for f in I.families()})
SAMPLE = I.draw(commit_seed())


@pytest.mark.parametrize("name", RESULTS)
def test_every_result_file_carries_the_hash_of_its_data(name):
    result = I.load_result(name)
    assert result["provenance"].get("data_sha256") == I.data_hash(result["data"]), (
        f"results/{name}.json: its data does not hash to provenance['data_sha256']: the numbers were edited "
        f"without measuring again (run `{result['provenance'].get('command', 'python -m sitebuild.results')}`)")


def test_the_hash_catches_an_edit_of_one_number():
    result = I.load_result("whatif-sweeps")
    edited = copy.deepcopy(result)
    edited["data"]["models"][7]["accuracy"] -= 0.001
    assert I.data_hash(result["data"]) == result["provenance"]["data_sha256"]
    assert I.data_hash(edited["data"]) != result["provenance"]["data_sha256"]


@pytest.mark.parametrize("name", TRAINED)
def test_the_protocols_name_every_committed_run(name):
    """The families are the protocols' jobs, and the file holds exactly those runs: nothing is drawn from it."""
    models = I.load_result(name)["data"]["models"]
    fams = [f for f in I.families() if f.result == name]
    jobs = sorted(j for f in fams for j in f.jobs)
    key = fams[0].key
    assert sorted(tuple(m[k] for k in key) for m in models) == jobs


def test_the_sample_holds_one_run_of_every_family():
    assert [f.name for f, _ in SAMPLE] == [f.name for f in I.families()]
    assert {f.result for f, _ in SAMPLE} == set(TRAINED)
    assert all(job in fam.jobs for fam, job in SAMPLE)


def test_tolerances_are_measured_and_no_looser_than_a_point_of_accuracy():
    """Every training result has tolerances from the drift measurement, taken on every CPU path (its own, or
    those of the result it trains exactly as: SAME_TRAINING); a hand edit of
    any run's accuracy by more than its tolerance (under one point, the protocols' smallest difference that
    counts) is caught."""
    drift = I.load_result(I.DRIFT)
    table = I.tolerances(drift)
    assert set(table) | set(I.SAME_TRAINING) == set(TRAINED)
    assert all(table[I.SAME_TRAINING[name]] for name in I.SAME_TRAINING), "borrowed tolerances must be measured"
    assert {row["capability"] for row in drift["data"]["runs"]} == set(I.PATHS)
    assert all(not row["exact_mismatch"] for row in drift["data"]["runs"]), "an integer or flag moved across CPUs"
    for name, fields in table.items():
        assert all(I.FLOOR <= t for t in fields.values()), name
        assert fields.get("accuracy", 0) < 0.01, f"{name}: accuracy tolerance {fields['accuracy']}"


@pytest.mark.parametrize("field, change, caught", [("accuracy", 0.01, True), ("accuracy", 1e-6, False),
                                                   ("steps", 100, True), ("converged", None, True)])
def test_a_tampered_run_fails_the_check(field, change, caught):
    fam = next(f for f in I.families() if f.name == "fixed_dk")
    committed = I.comparable(I.committed_run(fam, fam.jobs[3]))
    tampered = copy.deepcopy(committed)
    tampered[field] = (not tampered[field]) if change is None else tampered[field] + change
    found = I.compare(committed, json.loads(json.dumps(tampered)), I.tolerance_for(fam.result))
    assert bool(found) is caught, found


@pytest.mark.slow
@pytest.mark.parametrize("k", range(len(SAMPLE)), ids=[f"{f.result}:{f.name}" for f, _ in SAMPLE])
def test_a_committed_run_of_each_family_retrains_within_tolerance(k):
    fam, job = SAMPLE[k]
    fresh = I.retrain(fam, job)
    committed = I.comparable(I.committed_run(fam, job), like=fresh)
    found = I.compare(committed, fresh, I.tolerance_for(fam.result))
    where = ", ".join(f"{k}={v}" for k, v in zip(fam.key, job, strict=True))
    assert not found, (f"{fam.result} ({where}) retrained differs from the committed run beyond the tolerance "
                       f"measured across CPUs: {found[:5]}")
