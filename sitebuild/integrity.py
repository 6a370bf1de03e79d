"""Committed training results stay honest, on any CPU.

Every long experiment the pages show (§4's sweeps, the key/value heads page's two recall tests and the
follow-up, the induction page's protocol and its follow-up) is trained once by one command and committed
under ``results/``. Two checks keep those files tied to the code that produced them:

1. **A content hash.** ``provenance["data_sha256"]`` is the SHA-256 of the file's ``data`` written as
   canonical JSON. ``sitebuild.results.save`` writes it; ``tests/test_integrity.py`` recomputes it for every
   committed file, so an edit of the numbers that forgets to retrain fails at once.
2. **Retraining a sample, within a tolerance measured across CPUs.** Each test session retrains one run of
   every *family* (every §4 sweep, every recall-test size, every MQAR arm, every induction setting), drawn
   with the commit's hash as the seed, and compares every number with the committed run. Which runs exist
   comes from the protocols (``FAMILIES``), never from the file under test.

Training is deterministic on one machine (one thread, seeded weights and data) but not across CPUs: AVX2
and AVX-512 kernels sum in other orders, and the last digits move. How far they move was measured, not
guessed: ``python -m sitebuild.integrity measure`` retrains a sample of every family under each CPU path
this machine offers (``ATEN_CPU_CAPABILITY``) and writes ``results/integrity-drift.json``. The tolerance
for a field is ``MARGIN`` times the largest drift measured for it, and never below ``FLOOR``. Integers,
booleans and strings (steps, counts, parameter numbers, whether a run converged) must match exactly.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from resultcache import ROOT, data_hash

__all__ = ["FAMILIES", "MARGIN", "FLOOR", "PREFIX_STEPS", "Family", "draw", "committed_run", "retrain",
           "compare", "tolerances", "worst_points", "measure", "main"]

RESULTS = ROOT / "results"
DRIFT = "integrity-drift"
MARGIN = 3.0  # tolerance = MARGIN x the largest drift measured across CPU paths
FLOOR = 1e-5  # and never tighter than this (a field that did not move in the measurement may on another CPU)
# Results whose runs train exactly as another result's (same model, protocol constants and training code, other
# seeds): the second follow-up of the induction page trains as the first, whose drift across CPU paths is measured.
SAME_TRAINING = {"induction-positional": "induction-circuits"}
INDUCTION_TRAINING = ("induction", "induction-circuits", "induction-positional")
# A held-out accuracy moves by whole examples. A drift measurement whose sampled runs did not flip one says
# nothing of a run that flips one across CPU paths (kvheads-mqar-followup mla_norm seed 6, trained on AVX2:
# 1,517 of 8,000 right there, 1,516 on this machine's AVX-512 path, exactly 1,517 again with
# ATEN_CPU_CAPABILITY=avx2). So an accuracy's tolerance is never below two examples of the largest evaluation
# set the protocols use (8,000); a hand edit of a point (0.01) is still 40 times larger.
ACCURACY_FLOOR = 2 / 8000
PREFIX_STEPS = 500  # induction runs (6,000 steps, constant learning rate) are retrained for their first steps


@dataclass(frozen=True)
class Family:
    """One family of committed runs: the result file, a name, its jobs (from the protocol) and the fields of a
    committed run that identify a job."""

    result: str
    name: str
    jobs: tuple[tuple, ...]
    key: tuple[str, ...]


def _whatif() -> list[Family]:
    from snippets.whatif import protocol

    return [Family("whatif-sweeps", sweep, tuple(j for j in protocol.jobs() if j[0] == sweep),
                   ("sweep", "index", "seed")) for sweep in protocol.SWEEPS]


def _recall() -> list[Family]:
    from snippets.kvheads.train import SWEEP, sweep_jobs

    return [Family("kvheads-recall", f"{n} pairs", tuple(j for j in sweep_jobs() if j[2] == n),
                   ("num_heads", "num_kv_heads", "num_pairs", "seed")) for n in SWEEP["pairs"]]


def _mqar() -> list[Family]:
    from snippets.kvheads import followup
    from snippets.kvheads import protocol as P

    arms = [Family("kvheads-mqar", kind, tuple(j for j in P.jobs() if j[0] == kind), ("kind", "size", "seed"))
            for kind in dict.fromkeys(k for k, _ in P.SETTINGS)]
    return arms + [Family("kvheads-mqar-followup", "mla_norm", tuple(followup.jobs()), ("kind", "size", "seed"))]


def _induction() -> list[Family]:
    from snippets.induction import circuits, positional
    from snippets.induction import protocol as P

    main = [Family("induction", P.setting_label(*s), tuple(j for j in P.jobs() if j[:2] == s),
                   ("layers", "heads", "seed")) for s in P.SETTINGS]
    return main + [Family("induction-circuits", "2x4 follow-up", tuple(circuits.jobs()), ("layers", "heads", "seed")),
                   Family("induction-positional", "2x4 second follow-up", tuple(positional.jobs()),
                          ("layers", "heads", "seed"))]


def families() -> list[Family]:
    """Every family of every committed training result, from the protocols."""
    return _whatif() + _recall() + _mqar() + _induction()


FAMILIES: Callable[[], list[Family]] = families


def draw(seed: int, per_family: int = 1) -> list[tuple[Family, tuple]]:
    """per_family jobs of every family (without replacement), drawn with seed: one test session's sample.

    >>> picked = draw(0)
    >>> sorted({f.result for f, _ in picked}) == sorted({f.result for f in families()})
    True
    >>> len(picked) == len(families())
    True
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    for fam in families():
        for i in rng.choice(len(fam.jobs), size=min(per_family, len(fam.jobs)), replace=False):
            out.append((fam, fam.jobs[int(i)]))
    return out


def load_result(name: str, results_dir: Path | None = None) -> dict:
    path = (RESULTS if results_dir is None else Path(results_dir)) / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def committed_run(fam: Family, job: tuple, result: dict | None = None) -> dict:
    """The committed run of job in fam's result file (ValueError if it holds none, or more than one)."""
    result = load_result(fam.result) if result is None else result
    found = [m for m in result["data"]["models"] if tuple(m[k] for k in fam.key) == tuple(job)]
    if len(found) != 1:
        raise ValueError(f"expected one committed run of {fam.result} {dict(zip(fam.key, job))}, found {len(found)}")
    return found[0]


def _plain(x):
    return json.loads(json.dumps(x))


def _decoded(run: dict) -> dict:
    """A run with its kept weights (base64 float32) as numbers, so that they compare within a tolerance."""
    if "state_dict" not in run:
        return run
    from snippets.whatif import protocol

    return run | {"state_dict": {k: v.tolist() for k, v in protocol.decode_state(run["state_dict"]).items()}}


def retrain(fam: Family, job: tuple) -> dict:
    """Train job again on this machine, exactly as its protocol does; the fields that compare with the
    committed run (an induction run: its first PREFIX_STEPS steps' curve)."""
    if fam.result == "whatif-sweeps":
        from snippets.whatif import protocol

        fresh = protocol.run_one(*job)
    elif fam.result == "kvheads-recall":
        from snippets.kvheads.train import train_recall

        fresh = train_recall(*job)
    elif fam.result == "kvheads-mqar":
        from snippets.kvheads import protocol

        fresh = protocol.run_one(*job)
    elif fam.result == "kvheads-mqar-followup":
        from snippets.kvheads import followup

        fresh = followup.run_one(*job)
    elif fam.result in INDUCTION_TRAINING:
        import torch

        from snippets.induction import protocol as P
        from snippets.induction.train import train_induction

        old = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            _, curve = train_induction(*job, PREFIX_STEPS, batch_size=P.BATCH, lr=P.LR, eval_every=P.EVAL_EVERY)
        finally:
            torch.set_num_threads(old)
        fresh = {"curve": curve}
    else:
        raise ValueError(f"expected a family of {sorted({f.result for f in families()})}, got {fam.result!r}")
    return comparable(_plain(fresh))


def comparable(run: dict, like: dict | None = None) -> dict:
    """What of a run is compared: everything but its CPU time; with like (a retrained prefix), only the
    curve points like has."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "cpu_seconds"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    run = strip(_decoded(run))
    if like is not None and set(like) == {"curve"}:
        run = {"curve": run["curve"][:len(like["curve"])]}
    return run


def compare(committed, fresh, tolerance: Callable[[str], float], path: str = "") -> list[tuple[str, object, object]]:
    """Where fresh differs from committed: floats by more than tolerance(top-level field), anything else at all.
    Returns (path, committed value, fresh value) for each difference.

    >>> tol = lambda field: 0.01
    >>> compare({"acc": 0.5, "steps": 900}, {"acc": 0.505, "steps": 900}, tol)
    []
    >>> compare({"acc": [0.5, 0.6], "steps": 900}, {"acc": [0.5, 0.62], "steps": 1000}, tol)
    [('acc[1]', 0.6, 0.62), ('steps', 900, 1000)]
    """
    field = path.split("[")[0].split(".")[0]
    if isinstance(committed, dict) and isinstance(fresh, dict):
        out = []
        for k in sorted(set(committed) | set(fresh)):
            sub = f"{path}.{k}" if path else k
            if k not in committed or k not in fresh:
                out.append((sub, committed.get(k), fresh.get(k)))
            else:
                out += compare(committed[k], fresh[k], tolerance, sub)
        return out
    if isinstance(committed, list) and isinstance(fresh, list):
        if len(committed) != len(fresh):
            return [(f"{path} (length)", len(committed), len(fresh))]
        out = []
        for i, (a, b) in enumerate(zip(committed, fresh, strict=True)):
            out += compare(a, b, tolerance, f"{path}[{i}]")
        return out
    both_float = isinstance(committed, float) or isinstance(fresh, float)
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (committed, fresh))
    if numbers and both_float:
        if math.isfinite(committed) and math.isfinite(fresh) and abs(committed - fresh) <= tolerance(field):
            return []
        return [] if committed == fresh else [(path, committed, fresh)]
    return [] if committed == fresh else [(path, committed, fresh)]


def worst_points(committed, fresh, path: str = "") -> dict[str, float]:
    """{top-level field: largest |committed - fresh| over its floats} (inf where a non-float differs)."""
    out: dict[str, float] = {}
    for where, a, b in compare(committed, fresh, lambda field: -1.0):
        field = where.split("[")[0].split(".")[0].split(" ")[0]
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b))
        gap = abs(a - b) if numbers and (isinstance(a, float) or isinstance(b, float)) else math.inf
        out[field] = max(out.get(field, 0.0), gap)
    return out


def tolerances(drift: dict | None = None) -> dict[str, dict[str, float]]:
    """{result: {field: tolerance}} from the committed drift measurement: MARGIN x the largest drift of the
    field over every measured run and CPU path, never below FLOOR."""
    drift = load_result(DRIFT) if drift is None else drift
    out: dict[str, dict[str, float]] = {}
    for row in drift["data"]["runs"]:
        fields = out.setdefault(row["result"], {})
        for field, gap in row["drift"].items():
            fields[field] = max(fields.get(field, FLOOR), MARGIN * gap)
    return out


def tolerance_for(result: str, table: dict | None = None) -> Callable[[str], float]:
    """The tolerance function compare() takes, for one result file (a result trained exactly as another, whose
    drift was measured, takes that one's: SAME_TRAINING)."""
    table = tolerances() if table is None else table
    fields = table.get(result) or table.get(SAME_TRAINING.get(result, ""), {})
    return lambda field: max(fields.get(field, FLOOR), ACCURACY_FLOOR) if field == "accuracy" else fields.get(
        field, FLOOR)


# ---- measuring the drift ----------------------------------------------------------------------------------


def _measure_here(seed: int, only: tuple[str, ...] = ()) -> list[dict]:
    """In this process (its CPU path already set): retrain one run of every family (of the results named in
    only, if any) and record each field's drift."""
    rows = []
    for fam, job in draw(seed):
        if only and fam.result not in only:
            continue
        fresh = retrain(fam, job)
        committed = comparable(committed_run(fam, job), like=fresh)
        gaps = worst_points(committed, fresh)
        rows.append({"result": fam.result, "family": fam.name, "job": list(job),
                     "drift": {k: v for k, v in gaps.items() if math.isfinite(v)},
                     "exact_mismatch": sorted(k for k, v in gaps.items() if not math.isfinite(v))})
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return rows


# CPU path -> (environment, the results sampled there). MKL's compatible path moves runs the most, as an Intel
# machine's MKL did; ATen's generic kernels a little; AVX2 (the path that trained the committed runs) and
# AVX-512 (this machine's own, the integrity test's) are checked on the cheapest families.
PATHS = {
    "mkl-compatible": ({"MKL_CBWR": "COMPATIBLE"}, None),
    "default": ({"ATEN_CPU_CAPABILITY": "default"}, None),
    "avx2": ({"ATEN_CPU_CAPABILITY": "avx2"}, ("whatif-sweeps",)),
    "avx512": ({"ATEN_CPU_CAPABILITY": "avx512"}, ("whatif-sweeps",)),
}


def measure(seed: int = 20261205) -> Path:
    """Retrain one run of every family under each CPU path of PATHS (one process each, all at once), compare
    with the committed runs, and write results/integrity-drift.json (with provenance)."""
    from concurrent.futures import ThreadPoolExecutor

    from sitebuild.results import provenance, recording, save, snapshot

    prov = provenance(DRIFT, 1) | {"paths": {k: {"env": env, "results": list(only) if only else "all"}
                                             for k, (env, only) in PATHS.items()}, "seed": seed}
    start, runs, rows = snapshot(), [], []

    def one(name):
        env, only = PATHS[name]
        out = subprocess.run([sys.executable, "-m", "sitebuild.integrity", "_here", str(seed), *(only or ())],
                             env={**os.environ, **env}, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True)
        return [r | {"capability": name} for r in json.loads(out.stdout)]

    with recording(runs, "all CPU paths at once"), ThreadPoolExecutor(len(PATHS)) as pool:
        for got in pool.map(one, PATHS):
            rows += got
    return save(DRIFT, prov, {"margin": MARGIN, "floor": FLOOR, "prefix_steps": PREFIX_STEPS, "runs": rows},
                start, runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="How far committed training runs move across CPU paths.")
    parser.add_argument("what", choices=["measure", "_here", "tolerances"])
    parser.add_argument("args", nargs="*")
    a = parser.parse_args(argv)
    if a.what == "_here":
        print(json.dumps(_measure_here(int(a.args[0]), tuple(a.args[1:]))))
    elif a.what == "measure":
        print(f"wrote {measure()}")
    else:
        print(json.dumps(tolerances(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
