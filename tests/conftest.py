"""Shared fixtures: one strict build of the whole site per test session."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# One thread per process, as the build computes (sitebuild/hooks/site.py): a session runs two builds beside
# its tests, and a small torch operation on two threads waits for a thread that another process holds (the
# key/value heads decoder table: 16 s on two threads beside one busy process, 0.16 s on one). Set before any
# test imports torch; the builds, the notebook kernels and the reader's venv of the download test inherit it.
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"


def commit_seed() -> int:
    """A seed from HEAD's hash (0 outside a git checkout): the integrity tests retrain a sample drawn with
    it, so every commit checks other committed runs."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head = "0"
    return int(head[:8] or "0", 16)
LANGS = ("zh", "en")


def _free_port(preferred: int = 8000) -> int:
    """preferred if nothing listens there on 127.0.0.1, else a port the system picks."""
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("expected a free port on 127.0.0.1, found none")


# One build serves every test, the downloaded-notebook test included: it is built for a local server on
# a free port (8000, mkdocs serve's, when free), which test_notebook_download.py starts on the built
# site, so the notebooks' install cells reach it. A SITE_URL set outside wins (that test then skips).
if not os.environ.get("SITE_URL"):
    os.environ["SITE_URL"] = f"http://127.0.0.1:{_free_port()}/"
SITE_URL = os.environ["SITE_URL"]


def build_site(dest: Path, config: Path | None = None, extra_env: dict[str, str] | None = None,
               checkout: Path | None = None):
    """Run `mkdocs build --strict` into dest (from checkout, default ROOT); return the CompletedProcess
    (never raises)."""
    checkout = ROOT if checkout is None else checkout
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(dest)]
    if config is not None:
        cmd += ["-f", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
    if checkout != ROOT:
        env["PYTHONPATH"] = os.pathsep.join([str(checkout), *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.run(cmd, cwd=checkout, capture_output=True, text=True, env=env, timeout=3000)


def random_masks(g, attn: str, pad: str, attn_shape: tuple, pad_shape: tuple) -> dict:
    """attn_mask / key_padding_mask for a property test. attn is 'none' or starts with 'bool' / 'float';
    pad is 'none', 'bool' or 'float'. Bool masks keep key 0 visible: a row with every key masked is
    NaN in both implementations."""
    import torch

    kwargs = {}
    if attn.startswith("bool"):
        m = torch.rand(attn_shape, generator=g) > 0.6
        m[..., 0] = False
        kwargs["attn_mask"] = m
    elif attn.startswith("float"):
        kwargs["attn_mask"] = torch.randn(attn_shape, generator=g, dtype=torch.float64)
    if pad == "bool":
        p = torch.rand(pad_shape, generator=g) > 0.6
        p[..., 0] = False
        kwargs["key_padding_mask"] = p
    elif pad == "float":
        kwargs["key_padding_mask"] = torch.randn(pad_shape, generator=g, dtype=torch.float64)
    return kwargs


@pytest.fixture
def one_thread():
    """Tiny models train fastest on one thread, and leave the other core to the rest of the suite."""
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


# The session's two full builds run in the background while other tests run (CI's two cores are otherwise
# half idle: most tests use one). At the end of collection, when any collected test needs the site, its
# build starts (BUILDS["site"]) and the tests that do not need it run first. When that build is done (looked
# at after every test), two things start at the lowest CPU priority (nice 19 within pytest's own process
# group), so that they take only the time the tests leave idle and never slow a timed test: when the
# determinism test is collected, the second, cold build (BUILDS["again"]); and when a test marked
# `sweep(name)` is collected, one process running those long browser sweeps over every page
# (tests/browser/sweep.py; SWEEPS). The sweep tests run after the other tests that need the site and read
# the results (fixture `swept`); the determinism test runs last and waits for its build.
BUILDS: dict[str, tuple[subprocess.Popen, Path, Path]] = {}
AGAIN = "test_determinism.py::test_two_clean_builds_are_identical"
# started when the site is built: "again" -> (its folder, the builds' folder); "sweeps" -> (names, folder)
AFTER_SITE: dict[str, tuple] = {}
# sweep name -> (its process, the folder of its result, its log)
SWEEPS: dict[str, tuple[subprocess.Popen, Path, Path]] = {}


def start_build(name: str, dest: Path, logs: Path, extra_env: dict[str, str] | None = None, nice: int = 0,
                checkout: Path = ROOT):
    """Start `mkdocs build --strict -d dest` from checkout in the background, its output in logs/<name>.log.
    A checkout other than ROOT is imported from itself (PYTHONPATH), not from the editable install."""
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(dest)]
    if nice:
        cmd = ["nice", "-n", str(nice), *cmd]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
    if checkout != ROOT:
        env["PYTHONPATH"] = os.pathsep.join([str(checkout), *filter(None, [os.environ.get("PYTHONPATH")])])
    log = logs / f"{name}.log"
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=checkout, stdout=out, stderr=subprocess.STDOUT, env=env)
    BUILDS[name] = (proc, dest, log)


# What a checkout copy leaves out: installed or generated folders, never a file the build reads.
NOT_SOURCE = (".git", ".venv", ".cache", "site", "node_modules", "test-artifacts", "notebooks", "__pycache__",
              ".pytest_cache", ".hypothesis", "*.egg-info", "build")


def copy_checkout(dest: Path) -> Path:
    """A copy of the checkout's source in another folder, for a build that must not depend on where the
    checkout lives (the determinism test's second build)."""
    import shutil

    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*NOT_SOURCE), symlinks=True)
    return dest


def finish_build(name: str) -> tuple[int, str, Path]:
    """Wait for a background build: (return code, the end of its output, its folder)."""
    proc, dest, log = BUILDS[name]
    code = proc.wait(timeout=3000)
    return code, log.read_text(encoding="utf-8")[-8000:], dest


def _needs_site(item) -> bool:
    return "built_site" in getattr(item, "fixturenames", ())


def _sweep(item) -> str | None:
    """The name of the browser sweep whose result the test reads (its mark `sweep(name)`), if any."""
    mark = item.get_closest_marker("sweep")
    return mark.args[0] if mark is not None else None


@pytest.hookimpl(trylast=True)  # after -k / -m deselection: no build for a run that does not need one
def pytest_collection_modifyitems(session, config, items):
    """Tests that do not need the site first, then those that do, those that read a sweep, the second
    build's test last; start the build."""
    if not any(_needs_site(i) for i in items):
        return
    last = [i for i in items if i.nodeid.endswith(AGAIN)]
    rest = [i for i in items if i not in last]
    site = [i for i in rest if _needs_site(i)]
    items[:] = ([i for i in rest if not _needs_site(i)] + [i for i in site if not _sweep(i)]
                + [i for i in site if _sweep(i)] + last)
    if config.option.collectonly:
        return
    factory = getattr(config, "_tmp_path_factory", None)  # pytest's tmp_path_factory, made at configure time
    base = factory.mktemp("builds") if factory is not None else Path(tempfile.mkdtemp(prefix="builds-"))
    start_build("site", base / "site", base)
    if last:
        AFTER_SITE["again"] = (base / "again", base)
    sweeps = list(dict.fromkeys(filter(None, map(_sweep, items))))
    if sweeps:
        AFTER_SITE["sweeps"] = (sweeps, base)


def after_site_build() -> None:
    """If the site's build is done and succeeded, start what waits for it (once): the second build, from a
    copy of the checkout in another folder with another (empty) cache folder, so that a build that printed a
    path of its checkout or cache into a page would differ from the first; and the browser sweeps."""
    if not AFTER_SITE or "site" not in BUILDS:
        return
    proc, site, _ = BUILDS["site"]
    if proc.poll() != 0:  # still building, or failed (then `built_site` fails every test that needs it)
        return
    if "again" in AFTER_SITE:
        dest_again, base = AFTER_SITE.pop("again")
        checkout = copy_checkout(base / "elsewhere" / "another-checkout")
        start_build("again", dest_again, base, {"MHA_CACHE_DIR": str(base / "another-cache")}, nice=19,
                    checkout=checkout)
    if "sweeps" in AFTER_SITE:
        names, base = AFTER_SITE.pop("sweeps")
        start_sweeps(names, site, base)


def pytest_runtest_logfinish(nodeid, location):
    after_site_build()


def start_sweeps(names: list[str], site: Path, base: Path, nice: int = 19) -> None:
    """Run the browser sweeps `names` over the site in one process in the background (tests/browser/sweep.py),
    their results in base/sweeps/, its output in base/sweeps.log. At nice 19 its Chromium is kept at the
    lowest priority too (SCHED_IDLE: Chromium sets its processes' nice values itself)."""
    out, log = base / "sweeps", base / "sweeps.log"
    cmd = [sys.executable, "-m", "browser.sweep", *(["--idle"] if nice == 19 else []), str(site), str(out), *names]
    if nice:
        cmd = ["nice", "-n", str(nice), *cmd]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"),
                                                        *filter(None, [os.environ.get("PYTHONPATH")])])}
    with log.open("a", encoding="utf-8") as output:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT, env=env)
    for name in names:
        SWEEPS[name] = (proc, out, log)


def finish_sweep(name: str):
    """Wait for a browser sweep's result; fail the test with the sweep's error if it raised or stopped."""
    import json
    import time

    proc, out, log = SWEEPS[name]
    file = out / f"{name}.json"
    while not file.exists():
        if proc.poll() is not None and not file.exists():
            pytest.fail(f"the browser sweep {name} stopped (exit {proc.returncode}) without a result:\n"
                        + log.read_text(encoding="utf-8")[-8000:])
        time.sleep(0.2)
    record = json.loads(file.read_text(encoding="utf-8"))
    if "error" in record:
        pytest.fail(f"the browser sweep {name} raised:\n{record['error']}")
    return record["result"]


@pytest.fixture(scope="session")
def swept(built_site, tmp_path_factory):
    """swept(name): the result of a browser sweep over the built site (tests/browser/sweep.py), started when
    the site was built, or now if it was not (a test asking for the site only at run time)."""
    def result(name: str):
        if name not in SWEEPS:
            start_sweeps([name], built_site, tmp_path_factory.mktemp("sweep"), nice=0)
        return finish_sweep(name)

    return result


def pytest_unconfigure(config):
    for proc, _, _ in [*BUILDS.values(), *SWEEPS.values()]:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    if "site" in BUILDS:
        code, output, dest = finish_build("site")
    else:  # the build did not start at collection (e.g. a test asked for the fixture only at run time)
        dest = tmp_path_factory.mktemp("site")
        proc = build_site(dest)
        code, output = proc.returncode, proc.stdout[-4000:] + proc.stderr[-8000:]
    if code != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{output}")
    after_site_build()
    return dest


def page_stems() -> list[str]:
    """Every page as its path without the language suffix, e.g. 'article/3-pytorch'."""
    docs = ROOT / "docs"
    stems = set()
    for p in docs.rglob("*.md"):
        if any(part.startswith(".") for part in p.relative_to(docs).parts):
            continue
        stem, _, lang = p.name[:-3].rpartition(".")
        if lang in LANGS:
            stems.add(str(p.relative_to(docs).parent / stem).removeprefix("./"))
    return sorted(stems)


def check_exercises(page: Path, module: str, count: int = 3) -> str:
    """A lab page's exercises section: `count` exercises, each with one hint before one closed solution that
    includes its code from snippets/exercises/<module>.py and runs it; returns what follows the section."""
    import re

    lang = page.name.split(".")[-2]
    hint, solution = {"zh": ('??? tip "提示"', '??? success "参考答案"'),
                      "en": ('??? tip "Hint"', '??? success "Solution"')}[lang]
    text = page.read_text(encoding="utf-8")
    start = re.search(r"^## .*\{ #exercises \}$", text, flags=re.M)
    assert start, f"{page.name}: no exercises section"
    end = re.search(r"^## ", text[start.end():], flags=re.M)
    stop = start.end() + end.start() if end else len(text)
    exercises = re.split(r"^### .*\{ #ex-[\w-]+ \}$", text[start.end():stop], flags=re.M)[1:]
    assert len(exercises) == count
    for e in exercises:
        assert e.count(hint) == 1 and e.count(solution) == 1 and e.index(hint) < e.index(solution)
        answer = e[e.index(solution):]
        assert f'--8<-- "snippets/exercises/{module}.py:' in answer
        assert re.search(r'^    ```python exec="1"', answer, flags=re.M)
    return text[stop:]
