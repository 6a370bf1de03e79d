"""§4's first-round models and their measures, committed, so that a cold build reads them instead of training.

The §4 page, its lab and its notebook read 30 one-layer models (h = 1 … 32, five seeds), the residual stacks
of its per-layer ablation and the measures taken on them (head roles, pruning, ablation). They are cached
results of three lesson functions (``resultcache.memory``): ``snippets.whatif.train._train_cached`` and the
two ``_measure_cached`` of ``snippets.whatif.analysis`` and ``snippets.whatif.factors``. Trained at the
first build, they took about 200 CPU seconds, most of a cold build.

``python -m sitebuild.results build-models`` runs those jobs in an empty cache folder and commits every entry
they leave (its arguments' hash, the arguments as text, the value) to ``results/build-models.json``, with the fingerprint of the lesson code that computed them. When that
fingerprint is the code's (the file is current, ``tests/test_results.py``), a build puts the entries into
its cache before it computes anything (``seed``), and the jobs they cover are done. When it is not, the
build ignores the file and trains, as before.

Values are stored exactly: arrays as their raw bytes (base64, with dtype and shape), tuples tagged, floats
as JSON writes them (which reads back to the same double). ``tests/test_buildmodels.py`` checks the round
trip on every committed entry, that a seeded cache answers the pages' calls without training, and retrains
one job (drawn with the commit's hash) to compare it with the file within a tolerance.
"""

from __future__ import annotations

import base64
import importlib
import json
from pathlib import Path

import numpy as np

__all__ = ["NAME", "FUNCS", "MODULES", "encode", "decode", "harvest", "seed", "covered_jobs", "load_current",
           "differences"]

NAME = "build-models"
# The cached lesson functions whose entries are committed: module path and function name.
FUNCS = ("snippets.whatif.train._train_cached", "snippets.whatif.analysis._measure_cached",
         "snippets.whatif.factors._measure_cached")
# What computes them (their imports are followed): the fingerprint of the committed file.
MODULES = ("snippets.whatif.analysis", "snippets.whatif.factors")
JOB_FNS = ("whatif_run", "factor_run")  # the sitebuild.precompute jobs that produce them
TIMINGS = ("seconds",)  # fields of a value that time its run: they differ on every run, and no page prints them


def encode(x):
    """A JSON-safe copy of x that decode() turns back into an equal value of the same types.

    >>> v = {"a": (1, 2.5), "b": np.arange(3, dtype=np.float32), "c": [None, "x", np.float64(0.1)]}
    >>> w = decode(json.loads(json.dumps(encode(v))))
    >>> type(w["a"]), w["b"].dtype, type(w["c"][2]), bool(w["c"][2] == v["c"][2])
    (<class 'tuple'>, dtype('float32'), <class 'numpy.float64'>, True)
    """
    if isinstance(x, np.generic):  # before float: np.float64 is one, and prints otherwise
        return {"$np": x.dtype.str, "b64": base64.b64encode(x.tobytes()).decode()}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, np.ndarray):
        data = np.ascontiguousarray(x)
        return {"$nd": data.dtype.str, "shape": list(data.shape), "b64": base64.b64encode(data.tobytes()).decode()}
    if isinstance(x, tuple):
        return {"$tuple": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        if not all(isinstance(k, str) and not k.startswith("$") for k in x):
            raise ValueError(f"expected a dict with string keys not starting with '$', got keys {list(x)[:5]}")
        return {k: encode(v) for k, v in x.items()}
    raise ValueError(f"expected None, bool, int, float, str, numpy, tuple, list or dict, got {type(x).__name__}")


def decode(x):
    """The value encode() wrote."""
    if isinstance(x, list):
        return [decode(v) for v in x]
    if not isinstance(x, dict):
        return x
    if "$nd" in x:
        raw = base64.b64decode(x["b64"])
        return np.frombuffer(raw, dtype=np.dtype(x["$nd"])).reshape(x["shape"]).copy()
    if "$np" in x:
        return np.frombuffer(base64.b64decode(x["b64"]), dtype=np.dtype(x["$np"]))[0]
    if "$tuple" in x:
        return tuple(decode(v) for v in x["$tuple"])
    return {k: decode(v) for k, v in x.items()}


def differences(committed, fresh, tol: float, path: str = "") -> list[tuple[str, object, object]]:
    """Where fresh differs from committed: floats (and float arrays) by more than tol, anything else at all."""
    if isinstance(committed, np.ndarray) or isinstance(fresh, np.ndarray):
        a, b = np.asarray(committed), np.asarray(fresh)
        if a.dtype != b.dtype or a.shape != b.shape:
            return [(path, f"{a.dtype}{a.shape}", f"{b.dtype}{b.shape}")]
        if a.dtype.kind != "f":
            return [] if np.array_equal(a, b) else [(path, "array", "array")]
        gap = float(np.nanmax(np.abs(a - b))) if a.size else 0.0
        same_nan = np.array_equal(np.isnan(a), np.isnan(b))
        return [] if gap <= tol and same_nan else [(path, "max gap", gap)]
    if type(committed) is not type(fresh):
        return [(path, committed, fresh)]
    if isinstance(committed, dict):
        if committed.keys() != fresh.keys():
            return [(path, sorted(committed), sorted(fresh))]
        return [d for k in committed if k not in TIMINGS
                for d in differences(committed[k], fresh[k], tol, f"{path}.{k}")]
    if isinstance(committed, (list, tuple)):
        if len(committed) != len(fresh):
            return [(path, len(committed), len(fresh))]
        return [d for i, (a, b) in enumerate(zip(committed, fresh)) for d in differences(a, b, tol, f"{path}[{i}]")]
    if isinstance(committed, (float, np.floating)):
        if np.isnan(committed) and np.isnan(fresh):
            return []
        return [] if abs(committed - fresh) <= tol else [(path, committed, fresh)]
    return [] if committed == fresh else [(path, committed, fresh)]


def _memorized(dotted: str):
    module, name = dotted.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def harvest(cache: Path) -> list[dict]:
    """Every entry of FUNCS in the cache folder cache (an MHA_CACHE_DIR), sorted: function, arguments' hash,
    arguments as text, encoded value."""
    import joblib

    entries = []
    for dotted in FUNCS:
        folder = Path(cache, "joblib", *dotted.split("."))
        if not folder.is_dir():
            continue
        for item in sorted(p for p in folder.iterdir() if (p / "output.pkl").is_file()):
            meta = json.loads((item / "metadata.json").read_text(encoding="utf-8"))
            entries.append({"func": dotted, "args_id": item.name, "input": meta["input_args"],
                            "value": encode(joblib.load(item / "output.pkl"))})
    return entries


def seed(entries: list[dict]) -> int:
    """Put the entries into this process's cache (resultcache.memory) unless already there; return how many."""
    added = 0
    for entry in entries:
        func = _memorized(entry["func"])
        func._check_previous_func_code(stacklevel=2)  # writes the function's code beside its entries, as a call does
        call_id = (func.func_id, entry["args_id"])
        if func.store_backend.contains_item(call_id):
            continue
        func.store_backend.dump_item(call_id, decode(entry["value"]))
        func.store_backend.store_metadata(call_id, {"duration": 0.0, "input_args": entry["input"], "time": 0.0})
        added += 1
    return added


def covered_jobs(data: dict) -> set[tuple[str, str]]:
    """(fn, repr(args)) of the precompute jobs whose entries the file holds."""
    return {(fn, args) for fn, args in data["jobs"]}


def load_current(root: Path | None = None) -> dict | None:
    """The committed file's data if it matches the code, else None (missing, or the code changed since).

    The fingerprint is computed as sitebuild.results computes it, over the files its provenance lists: a change
    that adds an import edits one of them. (Not through sitebuild.results, which imports every lesson module:
    the build's own fingerprint would then follow all of them.) tests/test_results.py checks the file in full.
    """
    from resultcache import ROOT, fingerprint

    root = ROOT if root is None else Path(root)
    path = root / "results" / f"{NAME}.json"
    if not path.is_file():
        return None
    result = json.loads(path.read_text(encoding="utf-8"))
    prov = result["provenance"]
    files = prov["fingerprint_covers"]["files"]
    if not all((root / f).is_file() for f in files):
        return None
    extra = [f"{f}\0{(root / f).read_text(encoding='utf-8')}" for f in files]
    return result["data"] if fingerprint((), extra=extra, root=root) == prov["fingerprint"] else None
