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
# build starts (BUILDS["site"]) and the tests that do not need it run first. When that build is done and the
# determinism test is collected, the second, cold build starts (BUILDS["again"]) at the lowest CPU priority
# (nice 19 within pytest's own process group), so it takes only the time the tests leave idle and never
# slows a timed test; the determinism test runs last and waits for it.
BUILDS: dict[str, tuple[subprocess.Popen, Path, Path]] = {}
AGAIN = "test_determinism.py::test_two_clean_builds_are_identical"


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


@pytest.hookimpl(trylast=True)  # after -k / -m deselection: no build for a run that does not need one
def pytest_collection_modifyitems(session, config, items):
    """Tests that do not need the site first, then those that do, the second build's test last; start the build."""
    if not any(_needs_site(i) for i in items):
        return
    last = [i for i in items if i.nodeid.endswith(AGAIN)]
    rest = [i for i in items if i not in last]
    items[:] = [i for i in rest if not _needs_site(i)] + [i for i in rest if _needs_site(i)] + last
    if config.option.collectonly:
        return
    factory = getattr(config, "_tmp_path_factory", None)  # pytest's tmp_path_factory, made at configure time
    base = factory.mktemp("builds") if factory is not None else Path(tempfile.mkdtemp(prefix="builds-"))
    start_build("site", base / "site", base)
    if last:
        BUILDS["again-pending"] = (None, base / "again", base)  # started when the first build is done


def pytest_unconfigure(config):
    for name, (proc, _, _) in BUILDS.items():
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
    pending = BUILDS.pop("again-pending", None)
    if pending is not None:
        _, dest_again, base = pending
        # from a copy of the checkout in another folder, with another (empty) cache folder: a build that
        # printed a path of its checkout or cache into a page would differ from the first
        checkout = copy_checkout(base / "elsewhere" / "another-checkout")
        start_build("again", dest_again, base, {"MHA_CACHE_DIR": str(base / "another-cache")}, nice=19,
                    checkout=checkout)
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
