"""One on-disk cache for expensive results (training runs, benchmarks), keyed by code and arguments.

joblib.Memory hashes the decorated function's source and its arguments, so editing the
code or calling with other arguments recomputes; a warm build reads from disk. The folder
is git-ignored: results are never committed. Set MHA_CACHE_DIR to move it.
"""

from __future__ import annotations

import os
from pathlib import Path

from joblib import Memory

ROOT = Path(__file__).resolve().parents[1]
CACHE_DIR = Path(os.environ.get("MHA_CACHE_DIR", ROOT / ".cache" / "joblib"))

memory = Memory(CACHE_DIR, verbose=0)

__all__ = ["memory", "CACHE_DIR"]
