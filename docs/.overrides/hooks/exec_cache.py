"""Build hook: a warm build reuses each executed code block's output instead of running it again.

markdown-exec runs every `exec="1"` block on every build, in both languages. Most of that work is
pure: the output depends only on the block's code, the `snippets` package, the pinned packages,
what the on-disk result cache (joblib, training runs) holds and the build benchmark's results file. This hook wraps markdown-exec's Python
runner with a disk cache keyed by exactly those inputs, so editing a snippet or a block, changing
a pin, or adding a cached result re-runs the blocks; nothing else does.

Only successful runs are stored: a block that raises still fails the strict build every time.
Blocks that share state through markdown-exec's `session` option always run. Set MHA_EXEC_CACHE=0
to turn the cache off. The cache lives beside the other results (MHA_CACHE_DIR, default
.cache/joblib) in markdown-exec/, git-ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _fingerprint(cache_dir: Path) -> str:
    """Hash of everything a block's output may depend on besides its own code."""
    h = hashlib.sha256()
    for path in sorted((ROOT / "snippets").rglob("*.py")):
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(path.read_bytes())
    h.update((ROOT / "requirements.txt").read_bytes())
    h.update(sys.version.encode())
    from snippets.cache import results_fingerprint

    h.update(results_fingerprint(cache_dir).encode())  # new or removed results, e.g. a full sweep run by hand
    return h.hexdigest()


def on_config(config):
    if os.environ.get("MHA_EXEC_CACHE", "1") == "0":
        return config
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from markdown_exec._internal.formatters import python as runner

    from snippets.cache import CACHE_DIR

    run = getattr(runner, "_uncached_run_python", runner._run_python)
    runner._uncached_run_python = run
    store = CACHE_DIR / "markdown-exec"
    fingerprint = _fingerprint(CACHE_DIR)

    def cached_run(code: str, returncode=None, session=None, id=None, **extra):  # noqa: A002
        if session:
            return run(code, returncode, session, id, **extra)
        key = hashlib.sha256(json.dumps([fingerprint, code, extra], sort_keys=True, default=str).encode()).hexdigest()
        path = store / key[:2] / f"{key}.txt"
        if path.exists():
            return path.read_text(encoding="utf-8")
        output = run(code, returncode, session, id, **extra)  # raises on failure: nothing stored
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(output, encoding="utf-8")
        tmp.replace(path)
        return output

    runner._run_python = cached_run
    return config
