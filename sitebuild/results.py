"""Committed measurements: timings kept as data under ``results/``, each with its provenance.

Timings are not taken while the site builds: they would make two builds differ and every cold
build slower. A measurement is run by one command and committed as a JSON file; the pages read
it and show where it came from (date, commit, machine, torch, how busy the machine was, and the
fingerprint of the code that produced it). When that code changes, the fingerprint no longer
matches, ``tests/test_results.py`` fails, and the same command measures again::

    python -m sitebuild.results              # which results are current, which are stale
    python -m sitebuild.results bench        # re-measure results/bench-full.json (~10 min)
    python -m sitebuild.results build        # re-measure results/buildbench.json (~10 min)
    python -m sitebuild.results recall       # retrain results/kvheads-recall.json (~30 CPU minutes)
    python -m sitebuild.results decode       # re-measure results/kvheads-decode.json (~3 min)
    python -m sitebuild.results whatif       # retrain results/whatif-sweeps.json (~2 CPU hours)
    python -m sitebuild.results whatif-replication  # §4 on ten more seeds (~20 CPU min)
    python -m sitebuild.results mqar         # retrain results/kvheads-mqar.json (~75 CPU minutes)
    python -m sitebuild.results mqar-followup  # retrain results/kvheads-mqar-followup.json (~30 CPU minutes)
    python -m sitebuild.results induction    # retrain results/induction.json (~40 CPU minutes)
    python -m sitebuild.results induction-live  # retrain results/induction-live.json (~7 CPU minutes)
    python -m sitebuild.results induction-reader  # retrain results/induction-reader.json (the live view's model)
    python -m sitebuild.results induction-circuits  # retrain results/induction-circuits.json (~33 CPU minutes)
    python -m sitebuild.results induction-positional  # retrain results/induction-positional.json (~26 CPU minutes)
    python -m sitebuild.results integrity-drift  # how far those runs move across CPU paths (~25 CPU minutes)
    python -m sitebuild.results decoder-heads  # score SmolLM2-135M's heads, results/decoder-heads.json (~5 min)
    python -m sitebuild.results decoder-timing  # time its next token with and without head copies (~2 min)
    python -m sitebuild.results decoder-ablation  # cut its top induction heads, results/decoder-ablation.json (~5 min)
    python -m sitebuild.results stale        # re-measure every stale result

How busy the machine was is measured, not declared: the load average before and after the whole
measurement and before and after each run in it (each length of the sweep, each build), and the
share of the machine's CPU time that other processes used meanwhile (from /proc/stat, less the CPU
time of this process and its child processes, running or finished). A result without these records is stale.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from resultcache import ROOT, data_hash, fingerprint, machine_facts, module_files

__all__ = ["RESULTS_DIR", "SPECS", "Spec", "MEASURED_LOAD", "covered_files", "current_fingerprint", "provenance",
           "snapshot", "run_record", "save", "load", "stale", "main"]

RESULTS_DIR = ROOT / "results"
# The words code prints into pages (snippets.i18n, the modules it merges, and numfmt, which typesets their numbers):
# no result depends on them.
WORDS = ("snippets/i18n.py", "snippets/words/*.py", "snippets/numfmt.py")
# Provenance fields that record how busy the machine was; a result without them must be measured again.
MEASURED_LOAD = ("load_before", "load_after", "others_cpu", "runs")


@dataclass(frozen=True)
class Spec:
    """What produces a committed result: the project modules (followed transitively), other files, the command.

    exclude: files those modules import that cannot change the measurement (words printed into tables).
    """

    modules: tuple[str, ...]
    files: tuple[str, ...]
    command: str
    exclude: tuple[str, ...] = ()


def _hook_modules(root: Path) -> tuple[str, ...]:
    return tuple(sorted(f"sitebuild.hooks.{p.stem}" for p in (root / "sitebuild" / "hooks").glob("*.py")
                        if p.stem != "__init__"))


SPECS: dict[str, Spec] = {
    # The sweep's code: what is timed and how (snippets.bench and all it imports).
    "bench-full": Spec(("snippets.bench",), (), "python -m sitebuild.results bench", exclude=WORDS),
    # The build benchmark: the harness, the build hooks, the site configuration and the pins; not the
    # translations the hooks and the harness print (every branch edits those; they change no timing).
    "buildbench": Spec(("sitebuild.buildbench",) + _hook_modules(ROOT), ("mkdocs.yml", "requirements.txt"),
                       "python -m sitebuild.results build", exclude=WORDS),
    # The key/value-heads page's recall sweep: the task, the model, the training (snippets.kvheads.train).
    "kvheads-recall": Spec(("snippets.kvheads.train",), (), "python -m sitebuild.results recall",
                           exclude=WORDS),
    # The key/value-heads page's decoding timings: what is timed (snippets.kvheads.decode_bench) and how
    # (snippets.bench.time_rounds, and what that module imports).
    "kvheads-decode": Spec(("snippets.kvheads.decode_bench",), (), "python -m sitebuild.results decode",
                           exclude=WORDS),
    # §4's second round: the protocol (grid, seeds, steps, stopping rule) and the training it runs.
    "whatif-sweeps": Spec(("snippets.whatif.protocol",), (), "python -m sitebuild.results whatif",
                          exclude=WORDS),
    # §4 on ten more seeds: the settings whose readings are counts of seeds, trained again
    # (snippets.whatif.replication).
    "whatif-replication": Spec(("snippets.whatif.replication",), (), "python -m sitebuild.results whatif-replication",
                               exclude=WORDS),
    # The key/value-heads page's second recall test: its protocol (snippets.kvheads.protocol) and what it runs.
    "kvheads-mqar": Spec(("snippets.kvheads.protocol",), (), "python -m sitebuild.results mqar",
                         exclude=WORDS),
    # Its follow-up, decided after its results: MLA with a normalised latent (snippets.kvheads.followup).
    "kvheads-mqar-followup": Spec(("snippets.kvheads.followup",), (), "python -m sitebuild.results mqar-followup",
                                  exclude=WORDS),
    # The induction heads page: its protocol (snippets.induction.protocol) and the training it runs.
    "induction": Spec(("snippets.induction.protocol",), (), "python -m sitebuild.results induction",
                      exclude=WORDS),
    # The induction page's live view: seed 0 of that protocol trained again, weights kept (snippets.induction.weights).
    "induction-live": Spec(("snippets.induction.weights",), (), "python -m sitebuild.results induction-live",
                           exclude=WORDS),
    # The live view's model, trained for the reader's text (snippets.induction.reader).
    "induction-reader": Spec(("snippets.induction.reader",), (), "python -m sitebuild.results induction-reader",
                             exclude=WORDS),
    # Its follow-up, fixed before its runs: which path a four-head model's induction takes (snippets.induction.circuits).
    "induction-circuits": Spec(("snippets.induction.circuits",), (), "python -m sitebuild.results induction-circuits",
                               exclude=WORDS),
    # Its second follow-up, fixed before its runs: what layer 1's queries read from the query-path head
    # (snippets.induction.positional, and the forward that keeps one part of a head's output, snippets.induction.parts).
    "induction-positional": Spec(("snippets.induction.positional",), (),
                                 "python -m sitebuild.results induction-positional", exclude=WORDS),
    # How far those training runs move across CPU paths (sitebuild.integrity): the protocols it retrains.
    "integrity-drift": Spec(("snippets.whatif.protocol", "snippets.kvheads.train", "snippets.kvheads.protocol",
                             "snippets.kvheads.followup", "snippets.induction.protocol",
                             "snippets.induction.circuits"), (), "python -m sitebuild.results integrity-drift",
                            exclude=WORDS),
    # The real decoder page: SmolLM2-135M's cache sizes and head scores (snippets.decoder.heads and the model,
    # loader and layers it imports), and the texts it runs on. The model file is not code: its SHA-256 is in the data.
    # §4's first-round models and measures that a cold build would otherwise train (sitebuild.buildmodels): the
    # lesson code that computes them.
    "build-models": Spec(("snippets.whatif.analysis", "snippets.whatif.factors"), (),
                         "python -m sitebuild.results build-models", exclude=WORDS),
    # SmolLM2-135M's decoding, timed with and without key/value head copies (snippets.decoder.timing and the model it
    # runs, and snippets.bench's time_rounds).
    "decoder-timing": Spec(("snippets.decoder.timing",), (), "python -m sitebuild.results decoder-timing",
                           exclude=WORDS),
    "decoder-heads": Spec(("snippets.decoder.heads",), ("snippets/decoder/texts.json",),
                          "python -m sitebuild.results decoder-heads",
                          exclude=WORDS),
    # Cutting the top induction heads (snippets.decoder.ablation and the model it runs), on the texts it reads. The
    # heads it cuts come from results/decoder-heads.json; tests/test_decoder_ablation.py checks they are still the top.
    "decoder-ablation": Spec(("snippets.decoder.ablation",),
                             ("snippets/decoder/texts.json", "snippets/decoder/passages.json"),
                             "python -m sitebuild.results decoder-ablation", exclude=WORDS),
}


def _spec(name: str) -> Spec:
    if name not in SPECS:
        raise ValueError(f"expected one of the committed results {sorted(SPECS)}, got {name!r}")
    return SPECS[name]


def covered_files(name: str, root: Path | None = None) -> list[str]:
    """The files a result's fingerprint reads: its modules and what they import (transitively), and its other files."""
    spec, root = _spec(name), ROOT if root is None else Path(root)
    modules = spec.modules if name != "buildbench" else ("sitebuild.buildbench",) + _hook_modules(root)
    files = {f for f in module_files(modules, root) if not f.startswith("resultcache/")}  # keying, not computing
    from fnmatch import fnmatch

    kept = {f for f in files if not any(fnmatch(f, pattern) for pattern in spec.exclude)}
    return sorted(kept | set(spec.files))


def current_fingerprint(name: str, root: Path | None = None) -> str:
    """The fingerprint the result would carry if it were measured now, from the code in root.

    resultcache.fingerprint over the covered files (given as its extra inputs, so that a file can be
    excluded), with the torch, numpy and Python versions.
    """
    root = ROOT if root is None else Path(root)
    extra = [f"{f}\0{(root / f).read_text(encoding='utf-8')}" for f in covered_files(name, root)]
    return fingerprint((), extra=extra, root=root)


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def provenance(name: str, num_threads: int = 1) -> dict:
    """Facts about a measurement that is about to run: when, which code, which machine, how busy."""
    import torch

    spec = _spec(name)
    files = covered_files(name)
    return {
        "result": name,
        "command": spec.command,
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _git("rev-parse", "HEAD")[:12],
        "uncommitted_changes": bool(_git("status", "--porcelain", "--", *files)),
        "fingerprint": current_fingerprint(name),
        "fingerprint_covers": {"modules": list(spec.modules), "files": files, "packages": ["torch", "numpy"]},
        "machine": dict(machine_facts(num_threads)),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "load_before": [round(x, 2) for x in os.getloadavg()],
    }


def _cpu_busy_seconds() -> float | None:
    """CPU seconds all processes have used since boot, summed over cores (/proc/stat); None without it."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(x) for x in fields[1:9]]  # user nice system idle iowait irq softirq steal (guest is in user)
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _live_descendants_cpu_seconds() -> float:
    """CPU seconds of this process's descendants that are still running (a pool's workers), each with the
    children it has waited for; 0 where /proc cannot be read."""
    parent, ticks = {}, {}
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else ():
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()  # after "pid (name)": state ppid ...
        except (OSError, IndexError):
            continue
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        ticks[pid] = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    me, total = os.getpid(), 0
    for pid in parent:
        p, seen = parent[pid], 0
        while p > 1 and p != me and seen < 64:  # walk up to this process (or the root)
            p, seen = parent.get(p, 0), seen + 1
        if p == me:
            total += ticks[pid]
    return total / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds() -> float:
    """CPU seconds of this process, of the child processes it has waited for (the builds it ran) and of those
    still running (a training pool's workers, whose time is not yet in os.times())."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + _live_descendants_cpu_seconds()


def snapshot() -> dict:
    """The machine's state at one moment: wall clock, load average, CPU seconds used by all and by us."""
    return {"t": time.perf_counter(), "load": [round(x, 2) for x in os.getloadavg()],
            "busy": _cpu_busy_seconds(), "own": _own_cpu_seconds()}


def _others_share(before: dict, after: dict) -> float | None:
    """Share of all cores' time that processes other than this one (and its children) used between two snapshots."""
    seconds = after["t"] - before["t"]
    if before["busy"] is None or after["busy"] is None or seconds <= 0:
        return None
    others = (after["busy"] - before["busy"]) - (after["own"] - before["own"])
    return round(max(0.0, others) / (seconds * (os.cpu_count() or 1)), 3)


def run_record(run: str, before: dict, after: dict) -> dict:
    """One run of a measurement: its label, duration, load average before and after, others' CPU share."""
    if not isinstance(run, str) or not run:
        raise ValueError(f"expected a run label such as 'L=128' or 'cold', got {run!r}")
    return {"run": run, "seconds": round(after["t"] - before["t"], 1), "load_before": before["load"],
            "load_after": after["load"], "others_cpu": _others_share(before, after)}


@contextlib.contextmanager
def recording(runs: list[dict], run: str) -> Iterator[None]:
    """Append the run_record of the block to runs."""
    before = snapshot()
    yield
    runs.append(run_record(run, before, snapshot()))


def save(name: str, prov: dict, data: dict, start: dict, runs: list[dict]) -> Path:
    """Write results/<name>.json: the provenance, completed with the load after, the duration, the CPU share of
    other processes over the whole measurement and each run's record, and the data."""
    end = snapshot()
    prov = prov | {"load_after": end["load"], "wall_seconds": round(end["t"] - start["t"], 1),
                   "others_cpu": _others_share(start, end), "runs": runs, "data_sha256": data_hash(data)}
    path = RESULTS_DIR / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"provenance": prov, "data": data}, indent=1, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    tmp.replace(path)
    return path


def load(name: str, results_dir: Path | None = None) -> dict:
    """{"provenance": ..., "data": ...} of a committed result; ValueError naming the command if it is missing."""
    spec = _spec(name)
    path = (RESULTS_DIR if results_dir is None else Path(results_dir)) / f"{name}.json"
    if not path.is_file():
        raise ValueError(f"expected a committed result at {path}; run `{spec.command}` and commit it")
    return json.loads(path.read_text(encoding="utf-8"))


def stale(name: str, root: Path | None = None, results_dir: Path | None = None) -> str | None:
    """None if the committed result matches the code, else why not (and the command that measures again)."""
    spec = _spec(name)
    prov = load(name, results_dir)["provenance"]
    recorded, now = prov["fingerprint"], current_fingerprint(name, root)
    why = []
    if recorded != now:
        why.append(f"it was measured with code fingerprint {recorded}, the code now gives {now} "
                   f"(changed: one of {', '.join(covered_files(name, root))}, or the torch/numpy/Python version)")
    missing = [k for k in MEASURED_LOAD if k not in prov]
    if missing:
        why.append(f"it has no record of how busy the machine was (missing: {', '.join(missing)}), "
                   f"so the page cannot say whether other jobs ran during it")
    if not why:
        return None
    return f"results/{name}.json must be measured again: {'; '.join(why)}. Run `{spec.command}` and commit the file"


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def measure_bench() -> Path:
    """Run the full sweep (snippets.bench.FULL), one length per run, and write results/bench-full.json.

    measure() over one length at a time gives the same samples as over all of them at once (it seeds
    each length the same way); it lets each length's run be recorded with the load around it.
    """
    import logging

    from snippets import bench

    prov = provenance("bench-full", bench.FULL["num_threads"])
    start, runs = snapshot(), []
    rows, matmul, params = [], [], None
    for k, L in enumerate(bench.FULL["lengths"]):
        logging.getLogger(__name__).info("bench-full: L=%d (%d/%d)", L, k + 1, len(bench.FULL["lengths"]))
        with recording(runs, f"L={L}"):
            part = bench.measure(**(bench.FULL | {"lengths": (L,)}))
        rows += part["rows"]
        matmul += part["matmul"]["samples"]
        params = params or part["params"] | {"lengths": list(bench.FULL["lengths"])}
        mm = part["matmul"]
    for row in rows:
        row["samples"] = [_round(s) for s in row["samples"]]
    data = {"params": params, "rows": rows, "matmul": {"n": mm["n"], "flops": mm["flops"],
                                                       "samples": [_round(s) for s in matmul]}}
    return save("bench-full", prov, data, start, runs)


def measure_build() -> Path:
    """Run the build benchmark (cold, warm, no-exec, serve), each a recorded run; write results/buildbench.json."""
    from sitebuild import buildbench

    prov = provenance("buildbench", 1)
    path = RESULTS_DIR / "buildbench.json"
    if not path.is_file():  # the builds it times show this file: a first run needs a stand-in to build
        stand_in = {k: {"seconds": None, "ok": False, "problems": []} for k in ("cold", "warm", "no_exec")}
        save("buildbench", prov, stand_in | {"warm_over_no_exec": float("nan"), "target_met": False},
             snapshot(), [])
    start, runs = snapshot(), []
    data = buildbench.run_all(record=lambda run: recording(runs, run))
    return save("buildbench", prov, data, start, runs)


def measure_recall(workers: int = 2) -> Path:
    """Train every model of snippets.kvheads.train.SWEEP; write results/kvheads-recall.json with each model's
    accuracy and CPU seconds."""
    from snippets.kvheads.train import SWEEP, sweep_jobs, train_recall

    prov = provenance("kvheads-recall", 1) | {"workers": workers}
    start, runs, models = _train_pool(
        "kvheads-recall", sweep_jobs(), train_recall,
        lambda r: f"h={r['num_heads']} g={r['num_kv_heads']} n={r['num_pairs']} seed {r['seed']}", workers)
    return save("kvheads-recall", prov, {"sweep": SWEEP, "models": models}, start, runs)


def _train_pool(name: str, jobs: list[tuple], run_one: Callable[..., dict], label: Callable[[dict], str],
                workers: int) -> tuple[dict, list[dict], list[dict]]:
    """Run run_one(*job) for every job (one process per worker, one thread each), each a recorded run. A
    partial file in the cache folder is rewritten every 20 runs, so an interrupted measurement can be
    looked at (never committed). Returns the snapshot at the start, the run records and the results."""
    import logging
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from resultcache import cache_root

    start, runs, models = snapshot(), [], []
    partial = cache_root() / f"{name}.partial.json"
    partial.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        before = snapshot()
        for k, r in enumerate(pool.map(run_one, *zip(*jobs)), 1):  # in order: a run is one job's wait
            runs.append(run_record(label(r), before, after := snapshot()))
            before = after
            models.append(r)
            logging.getLogger(__name__).info("%s: %s, %.0f CPU s (%d/%d)", name, label(r), r["cpu_seconds"], k,
                                             len(jobs))
            if k % 20 == 0:
                partial.write_text(json.dumps({"models": models}), encoding="utf-8")
    return start, runs, models


def measure_whatif(workers: int = 2) -> Path:
    """Train every run of snippets.whatif.protocol, longest first; write results/whatif-sweeps.json."""
    from snippets.whatif import protocol

    prov = provenance("whatif-sweeps", 1) | {"workers": workers}
    start, runs, models = _train_pool("whatif-sweeps", protocol.jobs(), protocol.run_one,
                                      lambda r: f"{r['sweep']}[{r['index']}] seed {r['seed']}", workers)
    models.sort(key=lambda r: (list(protocol.SWEEPS).index(r["sweep"]), r["index"], r["seed"]))
    return save("whatif-sweeps", prov, {"protocol": _protocol_record(), "models": models}, start, runs)


def measure_whatif_replication(workers: int = 2) -> Path:
    """Train every run of snippets.whatif.replication; write results/whatif-replication.json."""
    from snippets.whatif import replication

    prov = provenance("whatif-replication", 1) | {"workers": workers}
    start, runs, models = _train_pool("whatif-replication", replication.jobs(), replication.run_one,
                                      lambda r: f"{r['sweep']}[{r['index']}] seed {r['seed']}", workers)
    record = {"seeds": list(replication.SEEDS), "first_seeds": list(replication.FIRST_SEEDS),
              "first_heads": list(replication.FIRST_HEADS), "settings": [list(s) for s in replication.SETTINGS]}
    return save("whatif-replication", prov, {"protocol": record, "models": models}, start, runs)


def measure_mqar(workers: int = 2) -> Path:
    """Train every run of snippets.kvheads.protocol; write results/kvheads-mqar.json."""
    from snippets.kvheads import protocol

    prov = provenance("kvheads-mqar", 1) | {"workers": workers}
    start, runs, models = _train_pool("kvheads-mqar", protocol.jobs(), protocol.run_one,
                                      lambda r: f"{protocol.setting_label(r['kind'], r['size'])} seed {r['seed']}",
                                      workers)
    models.sort(key=lambda r: (protocol.SETTINGS.index((r["kind"], r["size"])), r["seed"]))
    record = {k: getattr(protocol, k) for k in ("PAIRS", "SEQ_LEN", "NUM_HEADS", "STEPS", "BATCH", "LR",
                                                 "EVAL_EVERY", "EVAL_SIZE", "LEARNED", "MINIMUM")}
    record |= {"SEEDS": list(protocol.SEEDS), "SETTINGS": [list(s) for s in protocol.SETTINGS]}
    return save("kvheads-mqar", prov, {"protocol": record, "models": models}, start, runs)


def _protocol_record() -> dict:
    from snippets.whatif import protocol

    return {"seeds": list(protocol.SEEDS), "min_steps": protocol.MIN_STEPS, "max_steps": protocol.MAX_STEPS,
            "eval_every": protocol.EVAL_EVERY, "plateau_window": protocol.PLATEAU_WINDOW,
            "plateau_gain": protocol.PLATEAU_GAIN, "learned": protocol.LEARNED, "minimum": protocol.MINIMUM,
            "ffn": protocol.FFN, "sweeps": {k: [{kk: list(vv) if isinstance(vv, tuple) else vv
                                                  for kk, vv in c.items()} for c in v]
                                             for k, v in protocol.SWEEPS.items()}}


def measure_mqar_followup(workers: int = 2) -> Path:
    """Train every run of snippets.kvheads.followup; write results/kvheads-mqar-followup.json."""
    from snippets.kvheads import followup

    prov = provenance("kvheads-mqar-followup", 1) | {"workers": workers}
    start, runs, models = _train_pool("kvheads-mqar-followup", followup.jobs(), followup.run_one,
                                      lambda r: f"MLA+norm d_c={r['size']} seed {r['seed']}", workers)
    models.sort(key=lambda r: (followup.FOLLOWUP.index((r["kind"], r["size"])), r["seed"]))
    return save("kvheads-mqar-followup", prov, {"settings": [list(s) for s in followup.FOLLOWUP], "models": models},
                start, runs)


def measure_induction(workers: int = 2) -> Path:
    """Train every run of snippets.induction.protocol; write results/induction.json."""
    from snippets.induction import protocol

    prov = provenance("induction", 1) | {"workers": workers}
    start, runs, models = _train_pool(
        "induction", protocol.jobs(), protocol.run_one,
        lambda r: f"{protocol.setting_label(r['layers'], r['heads'])} seed {r['seed']}: "
                  f"{r['final']['predictable']:.3f} nats", workers)
    models.sort(key=lambda r: (protocol.SETTINGS.index((r["layers"], r["heads"])), r["seed"]))
    record = {k: getattr(protocol, k) for k in ("STEPS", "BATCH", "LR", "EVAL_EVERY", "EVAL_SIZE", "FORMED",
                                                 "PHASE", "MINIMUM")}
    record |= {"SEEDS": list(protocol.SEEDS), "SETTINGS": [list(s) for s in protocol.SETTINGS],
               "PILOT": [list(p) for p in protocol.PILOT]}
    return save("induction", prov, {"protocol": record, "models": models}, start, runs)


def measure_induction_live(workers: int = 2) -> Path:
    """Train the live view's models (snippets.induction.weights.LIVE) and keep their weights; write
    results/induction-live.json."""
    from snippets.induction import weights

    prov = provenance("induction-live", 1) | {"workers": workers}
    start, runs, models = _train_pool(
        "induction-live", list(weights.LIVE), weights.train_kept,
        lambda r: f"{r['layers']} layers x {r['heads']} heads seed {r['seed']}: "
                  f"{r['final']['predictable']:.3f} nats", workers)
    return save("induction-live", prov, {"live": [list(j) for j in weights.LIVE], "models": models}, start, runs)


def measure_induction_reader(workers: int = 2) -> Path:
    """Train the live view's model (snippets.induction.reader.LIVE) and keep its float16 weights; write
    results/induction-reader.json."""
    from snippets.induction import reader

    prov = provenance("induction-reader", 1) | {"workers": workers}
    live = [reader.job_key(j) for j in reader.LIVE]
    jobs = list(dict.fromkeys(live + [reader.job_key(j) for j in reader.CANDIDATES + reader.CANDIDATES_WIDE]))
    start, runs, trained = _train_pool(
        "induction-reader", jobs, reader.train_kept,
        lambda r: f"{r['layers']} layers x {r['heads']} heads of {r['d_head']} seed {r['seed']}: "
                  f"{r['final']['accuracy']:.3f} of the predictable ids right", workers)
    by_job = dict(zip(jobs, trained, strict=True))
    models = [by_job[j] for j in live]  # with their weights
    # every candidate's measures (the weights of those the view does not offer are not kept)
    candidates = [{k: v for k, v in by_job[reader.job_key(j)].items() if k != "state_dict"}
                  for j in reader.CANDIDATES + reader.CANDIDATES_WIDE]
    record = {k: getattr(reader, k) for k in ("VOCAB", "MAX_LEN", "MIN_LEN", "MIN_SEGMENT", "MAX_GAP", "MIN_ALPHABET",
                                               "STEPS", "BATCH", "LR", "EVAL_SIZE")}
    return save("induction-reader", prov, {"live": [list(j) for j in reader.LIVE], "setup": record,
                                           "models": models, "candidates": candidates}, start, runs)


def measure_induction_circuits(workers: int = 2) -> Path:
    """Train every run of snippets.induction.circuits; write results/induction-circuits.json."""
    from snippets.induction import circuits
    from snippets.induction import protocol as main

    prov = provenance("induction-circuits", 1) | {"workers": workers}
    start, runs, models = _train_pool(
        "induction-circuits", circuits.jobs(), circuits.run_one,
        lambda r: f"{r['layers']} layers x {r['heads']} heads seed {r['seed']}: "
                  f"{r['final']['predictable']:.3f} nats", workers)
    models.sort(key=lambda r: r["seed"])
    record = {k: getattr(main, k) for k in ("STEPS", "BATCH", "LR", "EVAL_EVERY", "EVAL_SIZE", "FORMED", "MINIMUM")}
    record |= {"SETTING": list(circuits.SETTING), "SEEDS": list(circuits.SEEDS), "PARTS": list(circuits.PARTS),
               "PREV_HEAD": circuits.PREV_HEAD}
    return save("induction-circuits", prov, {"protocol": record, "models": models}, start, runs)


def measure_induction_positional(workers: int = 1) -> Path:
    """Train every run of snippets.induction.positional; write results/induction-positional.json."""
    from snippets.induction import positional
    from snippets.induction import protocol as main

    prov = provenance("induction-positional", 1) | {"workers": workers}
    start, runs, models = _train_pool(
        "induction-positional", positional.jobs(), positional.run_one,
        lambda r: f"{r['layers']} layers x {r['heads']} heads seed {r['seed']}: "
                  f"{r['final']['predictable']:.3f} nats", workers)
    models.sort(key=lambda r: r["seed"])
    record = {k: getattr(main, k) for k in ("STEPS", "BATCH", "LR", "EVAL_EVERY", "EVAL_SIZE", "FORMED", "MINIMUM")}
    record |= {"SETTING": list(positional.SETTING), "SEEDS": list(positional.SEEDS),
               "MEASURES": list(positional.MEASURES), "COMPARISONS": [list(c) for c in positional.COMPARISONS]}
    return save("induction-positional", prov, {"protocol": record, "models": models}, start, runs)


def measure_decode() -> Path:
    """Time the next token with and without the KV cache (snippets.kvheads.decode_bench.DECODE), each block
    of interleaved rounds a recorded run; write results/kvheads-decode.json."""
    from snippets.kvheads.decode_bench import DECODE, measure

    prov = provenance("kvheads-decode", DECODE["num_threads"])
    start, runs = snapshot(), []
    data = measure(**DECODE, record=lambda run: recording(runs, run))
    for row in data["rows"]:
        row["samples"] = [_round(s) for s in row["samples"]]
    return save("kvheads-decode", prov, data, start, runs)


def _measure_drift() -> Path:
    """sitebuild.integrity's measurement, in its own process (it imports this module for provenance and save)."""
    subprocess.run([sys.executable, "-m", "sitebuild.integrity", "measure"], cwd=ROOT, check=True)
    return RESULTS_DIR / "integrity-drift.json"

def measure_decoder_heads() -> Path:
    """Score every head of SmolLM2-135M and compute its cache sizes (snippets.decoder.heads.measure), each text
    a recorded run; write results/decoder-heads.json. No timing: nothing here depends on how busy the machine is."""
    from snippets.decoder.heads import measure

    prov = provenance("decoder-heads", 1)
    start, runs = snapshot(), []
    data = measure(record=lambda run: recording(runs, run))
    return save("decoder-heads", prov, data, start, runs)


def measure_decoder_timing() -> Path:
    """Time SmolLM2-135M's next token with and without key/value head copies (snippets.decoder.timing.measure),
    the interleaved rounds a recorded run; write results/decoder-timing.json."""
    from snippets.decoder.timing import TIMING, measure

    prov = provenance("decoder-timing", TIMING["num_threads"])
    start, runs = snapshot(), []
    data = measure(record=lambda run: recording(runs, run))
    for row in data["rows"]:
        row["samples"] = [_round(s) for s in row["samples"]]
    return save("decoder-timing", prov, data, start, runs)


def measure_decoder_ablation() -> Path:
    """Cut SmolLM2-135M's top induction heads and random heads of the same layers (snippets.decoder.ablation,
    its protocol), each kind of text and cut a recorded run; write results/decoder-ablation.json. No timing."""
    from snippets.decoder.ablation import measure

    prov = provenance("decoder-ablation", 1)
    start, runs = snapshot(), []
    data = measure(record=lambda run: recording(runs, run))
    return save("decoder-ablation", prov, data, start, runs)


def measure_build_models(workers: int = 2) -> Path:
    """Run §4's first-round jobs of sitebuild.precompute in an empty cache folder (one thread per worker, as a build
    runs them; never seeded from the committed file), then commit every cache entry they left
    (sitebuild.buildmodels); write results/build-models.json."""
    import tempfile

    from sitebuild import buildmodels, precompute

    prov = provenance(buildmodels.NAME, 1) | {"workers": workers}
    todo = [j for j in precompute.jobs() if j.fn in buildmodels.JOB_FNS]
    start, runs = snapshot(), []
    code = ("import logging; logging.basicConfig(level=logging.INFO, format='%(asctime)s %(message)s')\n"
            "from sitebuild import buildmodels, precompute as p\n"
            "todo = [j for j in p.jobs() if j.fn in buildmodels.JOB_FNS]\n"
            f"for n, (job, seconds) in enumerate(p._results(p.pending(todo), {workers}), 1):\n"
            "    logging.info('%d/%d %s, %.0f s', n, len(todo), job.label, seconds)\n")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "MHA_CACHE_DIR": tmp, "MKL_CBWR": os.environ.get("MKL_CBWR", "AUTO,STRICT")}
        with recording(runs, f"{len(todo)} jobs: train the models, then their measures"):
            subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True)
        entries = buildmodels.harvest(Path(tmp))
    data = {"jobs": [[j.fn, repr(j.args)] for j in todo], "entries": entries}
    return save(buildmodels.NAME, prov, data, start, runs)


MEASURE: dict[str, Callable[[], Path]] = {"bench-full": measure_bench, "buildbench": measure_build,
                                         "kvheads-recall": measure_recall, "kvheads-decode": measure_decode,
                                         "whatif-sweeps": measure_whatif, "kvheads-mqar": measure_mqar,
                                         "whatif-replication": measure_whatif_replication,
                                         "kvheads-mqar-followup": measure_mqar_followup,
                                         "induction": measure_induction, "induction-live": measure_induction_live,
                                         "induction-reader": measure_induction_reader,
                                         "induction-circuits": measure_induction_circuits,
                                         "induction-positional": measure_induction_positional,
                                         "integrity-drift": _measure_drift,
                                         "decoder-heads": measure_decoder_heads,
                                         "decoder-timing": measure_decoder_timing,
                                         "decoder-ablation": measure_decoder_ablation,
                                         "build-models": measure_build_models}


def main(argv: list[str] | None = None) -> int:
    import logging

    parser = argparse.ArgumentParser(description="Committed measurements: check them, or measure again.")
    parser.add_argument("what", nargs="?", choices=["check", "bench", "build", "recall", "decode", "whatif", "mqar",
                                                     "mqar-followup", "induction", "induction-live", "induction-reader",
                                                     "induction-circuits", "induction-positional", "integrity-drift",
                                                     "decoder-heads", "whatif-replication",
                                                     "decoder-timing", "decoder-ablation", "build-models", "stale"],
                        default="check")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    names = {"bench": ["bench-full"], "build": ["buildbench"], "recall": ["kvheads-recall"],
             "decode": ["kvheads-decode"], "whatif": ["whatif-sweeps"], "mqar": ["kvheads-mqar"],
             "whatif-replication": ["whatif-replication"],
             "mqar-followup": ["kvheads-mqar-followup"], "induction": ["induction"],
             "induction-live": ["induction-live"], "induction-reader": ["induction-reader"],
             "induction-circuits": ["induction-circuits"], "induction-positional": ["induction-positional"],
             "integrity-drift": ["integrity-drift"],
             "decoder-heads": ["decoder-heads"], "decoder-timing": ["decoder-timing"], "decoder-ablation": ["decoder-ablation"],
             "build-models": ["build-models"], "check": [], "stale": []}[args.what]
    if args.what in ("check", "stale"):
        for name in SPECS:
            try:
                why = stale(name)
            except ValueError as e:
                why = str(e)
            print(f"{name}: {'current' if why is None else 'STALE: ' + why}")
            if why is not None:
                names.append(name)
        if args.what == "check":
            return 1 if names else 0
    for name in names:
        print(f"measuring {name} ...", flush=True)
        print(f"wrote {MEASURE[name]()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
