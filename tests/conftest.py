"""Shared fixtures: one strict build of the whole site per test session."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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


def build_site(dest: Path, config: Path | None = None, extra_env: dict[str, str] | None = None):
    """Run `mkdocs build --strict` into dest; return the CompletedProcess (never raises)."""
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(dest)]
    if config is not None:
        cmd += ["-f", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=3000)


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


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("site")
    proc = build_site(dest)
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}")
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
