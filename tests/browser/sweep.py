"""The long browser sweeps, run in a process beside the test session (tests/conftest.py starts it when the
site is built): every page of the built site measured by the function `sweep(browser, server_url, site)` of
a test module (SWEEPS), in its own Chromium and its own server on the built site, one sweep after the other.
Each sweep's result goes to OUT/<name>.json as soon as it is done, as {"result": ...}, or {"error": the
traceback} if it raised; the test that owns the sweep reads it (tests/conftest.py's `swept`), writes the
artifacts and makes the assertions it always made. The measuring code is the test's own, so a sweep
measures the same pages the same way as when the test ran it itself.

    python -m browser.sweep [--idle] SITE OUT budget_dom readable   # with tests/ on PYTHONPATH

The session runs it at the lowest CPU priority (nice 19 and, with --idle, the SCHED_IDLE policy for it and
the Chromium it starts): on a busy machine a step can then wait long for the CPU, so every Playwright wait
may take up to TIMEOUT_MS instead of 30 s. The measures
do not depend on how fast the machine is (each sweep waits for what it measures), only on the build.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import json
import os
import sys
import threading
import traceback
import warnings
from pathlib import Path

# name -> module holding `sweep(browser, server_url, site)`; the test that reads the result is in
# tests/conftest.py's SWEEP_TESTS
SWEEPS = {"budget_dom": "browser.test_budget_dom", "stylesheets": "browser.test_notebook_pages",
          "readable": "browser.test_readable"}
TIMEOUT_MS = 600_000


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # not a request the browser gave up on
            super().handle_error(request, client_address)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """The built site on a free port of 127.0.0.1, served as the `server_url` fixture serves it (without
    printing a traceback for each request the browser cancels when it moves on to the next page)."""
    from browser.conftest import HOST, _QuietHandler

    server = _Server((HOST, 0), functools.partial(_QuietHandler, directory=str(site)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    return server, f"http://{HOST}:{server.server_address[1]}/"


def write(out: Path, name: str, record: dict) -> None:
    """OUT/<name>.json, complete or absent (written beside it, then renamed)."""
    part = out / f"{name}.json.part"
    part.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    part.replace(out / f"{name}.json")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--idle"]:
        # Chromium sets the nice value of its own processes (a renderer 0, its display threads -8 where it
        # may), so nice 19 alone would not keep it out of the way of the tests; SCHED_IDLE, inherited by
        # every process and thread started from here, does whatever their nice value.
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        argv = argv[1:]
    site, out, names = Path(argv[0]), Path(argv[1]), argv[2:]
    unknown = [n for n in names if n not in SWEEPS]
    if unknown:
        raise SystemExit(f"expected sweeps among {sorted(SWEEPS)}, got {unknown}")
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    from browser.conftest import CHROMIUM, CHROMIUM_ARGS

    server, url = serve(site)
    try:
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            try:
                for name in names:
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("error")  # as the tests run (pyproject.toml's filterwarnings)
                            result = importlib.import_module(SWEEPS[name]).sweep(chromium, url, site)
                        record = {"result": result}
                    except Exception:  # the test reports it as its failure
                        record = {"error": traceback.format_exc()}
                    write(out, name, record)
                    print(f"sweep {name}: {'done' if 'result' in record else 'failed'}", flush=True)
            finally:
                chromium.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
