"""Browser fixtures: the built site served on 127.0.0.1 and Debian's Chromium driven by Playwright.

Fixtures for every test under tests/browser/:

- ``server_url`` (session): "http://127.0.0.1:PORT/" serving ``built_site`` from a threaded http.server.
- ``browser`` (session): headless Chromium from /usr/bin/chromium (``playwright install`` cannot
  download browsers here).
- ``page`` (function): a fresh context and page; any console error, uncaught page error, failed
  request, HTTP error response, or request to a host other than 127.0.0.1 fails the test at teardown.
  Requests to other hosts are also aborted, so nothing ever leaves the machine.
- ``page_log`` (function): the record behind ``page`` (``page_log.problems()``, ``page_log.clear()``)
  for a test that provokes an error on purpose.

``guarded_page(browser, page_log)`` opens the same page outside a fixture (the sweeps of tests/browser/sweep.py,
run beside the session, read every page in it).

Without /usr/bin/chromium the browser tests are skipped with a reason saying how to install it,
except when CI=true, where they fail instead.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-gpu"]
HOST = "127.0.0.1"
INSTALL_HINT = "Debian's Chromium is not installed: apt-get install chromium fonts-noto-cjk"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def pytest_collection_modifyitems(config, items):
    if CHROMIUM.exists() or in_ci():
        return  # in CI a missing browser makes the `browser` fixture fail instead
    skip = pytest.mark.skip(reason=INSTALL_HINT)
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(skip)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass


@pytest.fixture(scope="session")
def server_url(built_site: Path):
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer((HOST, 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"CI=true but {CHROMIUM} is missing. {INSTALL_HINT}")
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        pw.stop()


class PageLog:
    """What went wrong while a page was open: console errors, page errors, failed or off-site requests."""

    def __init__(self):
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.failed_requests: list[str] = []
        self.offsite_requests: list[str] = []

    def clear(self) -> None:
        for entries in (self.console_errors, self.page_errors, self.failed_requests, self.offsite_requests):
            entries.clear()

    def problems(self) -> list[str]:
        return (
            [f"console error: {m}" for m in self.console_errors]
            + [f"page error: {m}" for m in self.page_errors]
            + [f"failed request: {m}" for m in self.failed_requests]
            + [f"request left {HOST}: {m}" for m in self.offsite_requests]
        )

    # event handlers
    def on_console(self, msg) -> None:
        if msg.type == "error":
            loc = msg.location or {}
            self.console_errors.append(f"{msg.text} ({loc.get('url', '?')}:{loc.get('lineNumber', '?')})")

    def on_page_error(self, error) -> None:
        self.page_errors.append(str(error))

    def on_request_failed(self, request) -> None:
        # Off-site requests are aborted on purpose and reported as such; ERR_ABORTED is a request
        # cancelled because the test navigated away, not a failure of the site.
        if not is_offsite(request.url) and request.failure != "net::ERR_ABORTED":
            self.failed_requests.append(f"{request.method} {request.url}: {request.failure}")

    def on_response(self, response) -> None:
        if response.status >= 400:
            self.failed_requests.append(f"{response.request.method} {response.url}: HTTP {response.status}")


def is_offsite(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in ("data", "blob", "about") and parts.hostname != HOST


def watch(pg, log: PageLog):
    """Record pg's console errors, page errors and failed requests in log (for extra tabs: page.context.new_page())."""
    pg.on("console", log.on_console)
    pg.on("pageerror", log.on_page_error)
    pg.on("requestfailed", log.on_request_failed)
    pg.on("response", log.on_response)
    return pg


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@contextlib.contextmanager
def guarded_page(browser, page_log: PageLog, timeout_ms: float | None = None):
    """A fresh context and page at the desktop size whose misbehaviour goes to page_log; requests to other
    hosts are aborted. timeout_ms, if given, replaces Playwright's 30 s for every wait (tests/browser/sweep.py)."""
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    if timeout_ms is not None:
        context.set_default_timeout(timeout_ms)

    def guard(route):
        if is_offsite(route.request.url):
            page_log.offsite_requests.append(f"{route.request.method} {route.request.url}")
            route.abort("blockedbyclient")
        else:
            route.continue_()

    context.route("**/*", guard)
    pg = watch(context.new_page(), page_log)
    try:
        yield pg
    finally:
        # What happens while the context closes (requests cut short) is not the page's doing.
        pg.remove_listener("console", page_log.on_console)
        pg.remove_listener("requestfailed", page_log.on_request_failed)
        context.close()


def misbehaved(problems: list[str]) -> str:
    return "the page misbehaved:\n  " + "\n  ".join(problems)


@pytest.fixture
def page(browser, page_log: PageLog):
    with guarded_page(browser, page_log) as pg:
        yield pg
    problems = page_log.problems()
    assert not problems, misbehaved(problems)
