"""Build hook: a warm build reuses each executed code block's output instead of running it again.

markdown-exec runs every `exec="1"` block on every build, in both languages. Most of that work is
pure: the output depends only on the block's code, the project modules that code imports (followed
transitively), the pinned packages, and which optional results exist (a full benchmark sweep, a
build benchmark run). This hook wraps markdown-exec's Python runner with a disk cache keyed by
exactly those inputs (``resultcache.fingerprint``), so editing a snippet a block uses, a block
itself, or a pin re-runs that block; editing the site machinery or an unrelated snippet does not.

Only successful runs are stored: a block that raises still fails the strict build every time.
Blocks that share state through markdown-exec's `session` option always run. `pycon` blocks go
through the same runner. Set MHA_EXEC_CACHE=0 to turn the cache off. The outputs live in
<cache root>/markdown-exec/ (MHA_CACHE_DIR, default .cache/), git-ignored.

The runner is a private function of markdown-exec; if an upgrade stops calling it, the build fails
in on_post_build (no executed block went through the cache) instead of silently running uncached,
and tests/test_exec_cache.py, which renders blocks through markdown-exec's public `formatter`, fails.
"""

from __future__ import annotations

import hashlib
import json
import os

from resultcache import cache_root, fingerprint, results_fingerprint

STATS = {"hits": 0, "misses": 0, "sessions": 0}


def enabled() -> bool:
    return os.environ.get("MHA_EXEC_CACHE", "1") != "0"


def block_key(code: str, extra: dict, results: str) -> str:
    """The cache key of one block: its code and options, the fingerprint of what it imports, the results present."""
    deps = fingerprint(code=code, machine=True)  # blocks may print this machine (the performance page)
    return hashlib.sha256(json.dumps([deps, results, code, extra], sort_keys=True, default=str).encode()).hexdigest()


def install() -> None:
    """Put the caching runner in place of markdown-exec's, for python and pycon blocks."""
    from markdown_exec._internal.formatters import pycon
    from markdown_exec._internal.formatters import python as runner

    run = getattr(runner, "_uncached_run_python", runner._run_python)
    runner._uncached_run_python = run
    store = cache_root() / "markdown-exec"
    results = results_fingerprint()

    def cached_run(code: str, returncode=None, session=None, id=None, **extra):  # noqa: A002
        if session:
            STATS["sessions"] += 1
            return run(code, returncode, session, id, **extra)
        path = store / (key := block_key(code, extra, results))[:2] / f"{key}.txt"
        if path.exists():
            STATS["hits"] += 1
            return path.read_text(encoding="utf-8")
        STATS["misses"] += 1
        output = run(code, returncode, session, id, **extra)  # raises on failure: nothing stored
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(output, encoding="utf-8")
        tmp.replace(path)
        return output

    runner._run_python = cached_run
    pycon._run_python = cached_run  # pycon imported the runner by name


def on_config(config):
    if enabled():
        install()
    return config


def on_post_build(config):
    if enabled() and not any(STATS.values()):
        raise RuntimeError(
            "expected executed code blocks to go through the exec cache, none did: markdown-exec no longer calls "
            "markdown_exec._internal.formatters.python._run_python (an upgrade?); update sitebuild/hooks/exec_cache.py"
        )
