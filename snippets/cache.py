"""One on-disk cache for expensive results (training runs, benchmarks), keyed by code and arguments.

joblib.Memory hashes the decorated function's source and its arguments, so editing the
code or calling with other arguments recomputes; a warm build reads from disk. The folder
is git-ignored: results are never committed. Set MHA_CACHE_DIR to move it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from joblib import Memory

ROOT = Path(__file__).resolve().parents[1]
CACHE_DIR = Path(os.environ.get("MHA_CACHE_DIR", ROOT / ".cache" / "joblib"))

memory = Memory(CACHE_DIR, verbose=0)

__all__ = ["memory", "CACHE_DIR", "results_fingerprint"]


def results_fingerprint(cache_dir: Path | None = None) -> str:
    """Which results exist: every cached result's name, and the build benchmark's latest run.

    Code that prints results (page blocks, notebooks) must run again when one is added or
    removed, e.g. a full benchmark sweep or a build benchmark run by hand.
    """
    from .buildbench import RESULTS

    cache_dir = CACHE_DIR if cache_dir is None else Path(cache_dir)
    h = hashlib.sha256()
    for out in sorted((cache_dir / "joblib").rglob("output.pkl")):
        h.update(out.relative_to(cache_dir).as_posix().encode())
    if RESULTS.is_file():
        h.update(RESULTS.read_bytes())
    return h.hexdigest()
