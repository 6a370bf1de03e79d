"""How long the site takes to build, and how long `mkdocs serve` takes to show an edit.

    python -m sitebuild.buildbench            # all four measurements (a few minutes)
    python -m sitebuild.buildbench --no-cold  # skip the cold build

1. cold: strict build with empty caches (a fresh MHA_CACHE_DIR: results, executed blocks,
   notebooks and mkdocs-jupyter's pages), so every experiment, benchmark and notebook runs again;
2. warm: the same build again, reading that cache;
3. no-exec: the same build with markdown-exec left out of the config (read from stdin),
   so code blocks are shown but not run: the floor for the warm build (not strict: anchors
   that code prints are missing then);
4. serve: `mkdocs serve`, append a comment to a page with executed code, and time until
   the server hands out the rebuilt page (it holds requests while a rebuild runs).

Each is one run (no repeats, so no spread). ``python -m sitebuild.results build`` runs the same
measurements and commits them, with their provenance and the load around each run, to
results/buildbench.json, which the performance page shows (``snippets.benchreport.build_table``).
Target: warm <= 2 x no-exec.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from contextlib import AbstractContextManager

from resultcache import ENV, ROOT

__all__ = ["run_all"]

EDIT_PAGE = ROOT / "docs" / "lab" / "performance.zh.md"  # a page whose exec blocks run at build
EDIT_URL = "lab/performance/"
TARGET = 2.0


def _mkdocs() -> list[str]:
    return [sys.executable, "-m", "mkdocs"]


def _no_exec_config() -> str:
    """mkdocs.yml without the markdown-exec plugin (exec fences then render as plain code)."""
    lines = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    kept, skipping = [], None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if skipping is not None and line.strip() and indent > skipping:
            continue  # the plugin's options
        skipping = None
        if line.strip() in ("- markdown-exec", "- markdown-exec:"):
            skipping = indent
            continue
        kept.append(line)
    if len(kept) == len(lines):
        raise ValueError("mkdocs.yml has no '- markdown-exec' plugin line to leave out")
    return "\n".join(kept) + "\n"


def timed_build(env: dict[str, str], no_exec: bool = False) -> dict:
    """Wall-clock seconds of one `mkdocs build` into a temporary folder, and whether it passed.

    Strict, except without execution: pages whose headings or anchors are printed by code
    cannot pass the link checks then, and the time is what matters for that build.
    """
    with tempfile.TemporaryDirectory(prefix="buildbench-site-") as site:
        cmd = _mkdocs() + ["build", "-d", site]
        stdin = None
        if no_exec:
            cmd += ["--no-strict", "-f", "-"]
            stdin = _no_exec_config()
            # no block runs, so the exec cache's tripwire (no block went through it) must stay quiet
            env = env | {"MHA_EXEC_CACHE": "0"}
        else:
            cmd += ["--strict"]
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    lines = [line for line in proc.stderr.splitlines() if line.strip() and not line.startswith(("INFO", "USDT"))]
    errors = [line for line in lines if line.startswith(("WARNING", "ERROR"))] or lines[-3:]
    return {"seconds": seconds, "ok": proc.returncode == 0, "problems": errors[:5] if proc.returncode else []}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 300.0) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.read().decode("utf-8")
    except OSError:
        return None


def serve_reload(env: dict[str, str], timeout: float = 600.0) -> dict:
    """Seconds from editing EDIT_PAGE to `mkdocs serve` serving the rebuilt page."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}/{EDIT_URL}"
    proc = subprocess.Popen(_mkdocs() + ["serve", "--no-strict", "-a", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    original = EDIT_PAGE.read_text(encoding="utf-8")
    marker = f"<!-- buildbench {time.time_ns()} -->"
    try:
        deadline = time.monotonic() + timeout
        while _get(url, timeout=5) is None:  # the first build
            if proc.poll() is not None or time.monotonic() > deadline:
                return {"seconds": None, "ok": False, "problems": ["mkdocs serve did not start"]}
            time.sleep(0.5)
        time.sleep(1.0)  # let the file watcher settle
        start = time.perf_counter()
        EDIT_PAGE.write_text(original + f"\n{marker}\n", encoding="utf-8")
        while marker not in (_get(url) or ""):  # the server holds the request while it rebuilds
            if time.monotonic() > deadline:
                return {"seconds": None, "ok": False, "problems": ["edit never showed up"]}
            time.sleep(0.05)
        seconds = time.perf_counter() - start
    finally:
        EDIT_PAGE.write_text(original, encoding="utf-8")
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return {"seconds": seconds, "ok": True, "problems": []}


def run_all(cold: bool = True, serve: bool = True,
            record: Callable[[str], AbstractContextManager] | None = None) -> dict:
    """Run the measurements, one run each; the cold and warm builds use a fresh cache directory of their own.

    record(name), if given, is a context manager around each timed run (sitebuild.results records the
    load around it).
    """
    record = record or (lambda name: contextlib.nullcontext())
    cache = tempfile.mkdtemp(prefix="buildbench-cache-")
    # One variable moves every on-disk cache the build reads (see resultcache).
    env = os.environ | {ENV: cache}
    results: dict = {}
    try:
        if cold:
            with record("cold"):
                results["cold"] = timed_build(env)
        else:  # still fill the cache, untimed, so "warm" means warm
            timed_build(env)
        with record("warm"):
            results["warm"] = timed_build(env)
        with record("no_exec"):
            results["no_exec"] = timed_build(env, no_exec=True)
        if serve:
            with record("serve"):
                results["serve"] = serve_reload(env)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    warm, floor = results["warm"]["seconds"], results["no_exec"]["seconds"]
    results["warm_over_no_exec"] = warm / floor
    results["target_met"] = warm / floor <= TARGET
    return results


def summary(results: dict) -> str:
    """The measurements as plain lines (the page's table is snippets.benchreport.build_results_table)."""
    lines = [f"{key}: {'failed' if results[key]['seconds'] is None else format(results[key]['seconds'], '.1f') + ' s'}"
             f"{'' if results[key]['ok'] else ' (failed)'}" for key in ("cold", "warm", "no_exec", "serve")
             if key in results]
    met = "met" if results["target_met"] else "not met"
    return "\n".join(lines + [f"warm / no_exec: {results['warm_over_no_exec']:.2f} (target <= {TARGET}: {met})"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Time cold, warm and no-exec builds and the serve reload.")
    parser.add_argument("--no-cold", action="store_true", help="skip timing the cold build")
    parser.add_argument("--no-serve", action="store_true", help="skip the mkdocs serve measurement")
    args = parser.parse_args(argv)
    results = run_all(cold=not args.no_cold, serve=not args.no_serve)
    print(summary(results))
    for key in ("cold", "warm", "no_exec", "serve"):
        for problem in results.get(key, {}).get("problems", []):
            print(f"{key}: {problem}", file=sys.stderr)


if __name__ == "__main__":
    main()
