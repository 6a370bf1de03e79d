"""Where expensive results are kept, and the fingerprint that says when one is stale.

Both wings of the project stand on this small package: the lesson code in ``snippets/`` caches
its training runs, benchmarks and real-model measurements with it, and the site machinery in
``sitebuild/`` keys executed code blocks and notebooks with it. It imports neither wing.

One cache root, one environment variable: ``MHA_CACHE_DIR`` (default ``.cache/`` in the
repository; installed from the site's wheel, outside a checkout, ``~/.cache/multi-head-attention``),
git-ignored and safe to delete. Inside it:

    joblib/          results of functions decorated with ``memory.cache``
    markdown-exec/   the output of each executed code block
    notebooks/       executed chapter notebooks
    mkdocs-jupyter/  rendered notebook pages

A cached result is keyed by its arguments and by ``fingerprint(...)`` of the code that
produced it: the source of every project module that code imports, followed transitively, plus
the versions of the packages it depends on (torch at least) and, for timings, the machine.
Editing any of those files, upgrading torch, or moving to another CPU computes it again;
editing a module it does not import leaves it valid. (This package's own source is not part of a
fingerprint: it says how results are keyed, not how they are computed.)

>>> sorted(module_files(["resultcache"]))
['resultcache/__init__.py']
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import importlib.util
import os
import platform
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from joblib import Memory

__all__ = [
    "CACHE_ONLY_RESULTS", "ROOT", "PROJECT_PACKAGES", "ENV", "cache_root", "memory", "module_files", "code_imports",
    "fingerprint", "machine_facts", "mark_optional", "results_fingerprint", "in_checkout", "results_dir",
    "download_results", "data_hash",
]

ROOT = Path(__file__).resolve().parents[1]
PROJECT_PACKAGES = ("snippets", "sitebuild", "resultcache")
ENV = "MHA_CACHE_DIR"
DEFAULT_PACKAGES = ("torch", "numpy")


def in_checkout(root: Path | None = None) -> bool:
    """Whether this code runs from the site's repository (not from the lesson wheel installed elsewhere)."""
    return ((ROOT if root is None else Path(root)) / "pyproject.toml").is_file()


def cache_root() -> Path:
    """The one folder holding every cached result: $MHA_CACHE_DIR, else .cache/ in the repository
    (outside a checkout: ~/.cache/multi-head-attention, never the installed package's folder)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    return ROOT / ".cache" if in_checkout() else Path.home() / ".cache" / "multi-head-attention"


def results_dir() -> Path:
    """The committed measurements (results/*.json): the repository's results/ folder, or outside a
    checkout the copy that download_results() fetched from the site into the cache root."""
    return ROOT / "results" if in_checkout() else cache_root() / "results"


def download_results(base_url: str, names: Iterable[str], dest: Path | None = None) -> list[Path]:
    """Fetch committed measurements (results/<name>) from the site's folder base_url into results_dir().

    What a downloaded notebook calls first when its page shows measurements it cannot recompute
    (they were timed on the build machine). Inside the repository (and dest not given) it downloads
    nothing: the committed files are already in results/. Files already there unchanged are kept.
    """
    import urllib.request

    names = list(names)
    if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://", "file:")):
        raise ValueError(f"expected the site's results folder as an http(s) or file: URL, got {base_url!r}")
    bad = [n for n in names if not isinstance(n, str) or "/" in n or not n.endswith(".json")]
    if bad:
        raise ValueError(f"expected file names like 'bench-full.json', got {bad!r}")
    if dest is None and in_checkout():
        return [results_dir() / name for name in names]
    dest = results_dir() if dest is None else Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    got = []
    for name in names:
        with urllib.request.urlopen(base_url.rstrip("/") + "/" + name, timeout=60) as response:
            data = response.read()
        target = dest / name
        if not (target.is_file() and target.read_bytes() == data):
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, target)
        got.append(target)
    return got


memory = Memory(cache_root() / "joblib", verbose=0)

# Committed results that only fill the cache (sitebuild.buildmodels): what they hold is what the code computes,
# so they key no page and no notebook downloads them.
CACHE_ONLY_RESULTS = ("build-models.json",)


def _resolve(name: str, root: Path, present: frozenset[str] | None = None) -> list[str]:
    """Files (relative to root) of a dotted project module and of the packages above it (present: the
    listing of _package_files(root), when the caller holds it)."""
    parts = name.split(".")
    if parts[0] not in PROJECT_PACKAGES:
        return []
    present = _package_files(root) if present is None else present
    found = []
    for k in range(1, len(parts) + 1):
        stem = "/".join(parts[:k])
        for cand in (f"{stem}.py", f"{stem}/__init__.py"):
            if cand in present:
                found.append(cand)
    return found


_LISTINGS: dict[str, tuple[tuple, frozenset[str]]] = {}


def _package_files(root: Path) -> frozenset[str]:
    """Every .py file (relative path) under the project packages, listed once and listed again only when a
    folder of them changed (a file added, removed or renamed changes its folder's mtime). A build keys
    hundreds of blocks and notebooks, each by the transitive imports of its code; asking the file system
    whether each candidate module exists cost it tens of seconds."""
    key = str(root)
    known = _LISTINGS.get(key)
    if known is not None:
        try:
            if tuple(os.stat(d).st_mtime_ns for d, _ in known[0]) == tuple(m for _, m in known[0]):
                return known[1]
        except OSError:
            pass
    folders, files = [], set()
    for package in PROJECT_PACKAGES:
        top = root / package
        if not top.is_dir():
            continue
        for folder, subdirs, names in os.walk(top):
            subdirs[:] = [d for d in subdirs if d != "__pycache__" and not d.startswith(".")]
            folders.append((folder, os.stat(folder).st_mtime_ns))
            rel = Path(folder).relative_to(root).as_posix()
            files.update(f"{rel}/{n}" for n in names if n.endswith(".py") and os.path.isfile(os.path.join(folder, n)))
    folders.append((str(root), os.stat(root).st_mtime_ns))  # a package folder created or removed
    listing = frozenset(files)
    _LISTINGS[key] = (tuple(folders), listing)
    return listing


def _module_of(rel: str) -> str:
    p = Path(rel).with_suffix("")
    return ".".join(p.parts[:-1] if p.name == "__init__" else p.parts)


def _imported(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    """Dotted names a module's code imports (each `from x import y` also as x.y: y may be a submodule)."""
    package = module if is_package else module.rpartition(".")[0]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                    if node.level else node.module or "")
            names += [base] + [f"{base}.{a.name}" for a in node.names]
    return [n for n in names if n.split(".")[0] in PROJECT_PACKAGES]


def _closure(start: list[tuple[str, ast.AST, bool]], root: Path) -> list[str]:
    todo, found = [_imported(tree, module, is_package) for module, tree, is_package in start], set()
    present = _package_files(root)
    while todo:
        for name in todo.pop():
            for rel in _resolve(name, root, present):
                if rel not in found:
                    found.add(rel)
                    todo.append(_file_imports(root / rel, _module_of(rel), rel.endswith("__init__.py")))
    return sorted(found)


def _file_imports(path: Path, module: str, is_package: bool) -> list[str]:
    stat = path.stat()
    return _imports_of_version(str(path), stat.st_mtime_ns, stat.st_size, module, is_package)


@functools.lru_cache(maxsize=512)
def _imports_of_version(path: str, mtime_ns: int, size: int, module: str, is_package: bool) -> list[str]:
    """What one version of a file imports, read once: a build asks for the same files hundreds of times
    (every executed block and notebook is keyed by its imports), and walking their syntax trees again
    each time cost the build tens of seconds."""
    return _imported(ast.parse(Path(path).read_text(encoding="utf-8")), module, is_package)


def module_files(modules: Iterable[str], root: Path | None = None) -> list[str]:
    """Project files (relative paths) that importing these dotted modules reads, transitively."""
    root = ROOT if root is None else Path(root)
    modules = list(modules)
    bad = [m for m in modules if not isinstance(m, str) or m.split(".")[0] not in PROJECT_PACKAGES]
    if bad:
        raise ValueError(f"expected dotted names of project modules ({', '.join(PROJECT_PACKAGES)}), got {bad!r}")
    missing = [m for m in modules if not _resolve(m, root)
               or not {f"{m.replace('.', '/')}.py", f"{m.replace('.', '/')}/__init__.py"} & set(_resolve(m, root))]
    if missing:
        raise ValueError(f"expected modules that exist under {root}, found no file for {missing!r}")
    code = "\n".join(f"import {m}" for m in modules)
    return _closure([("__main__", ast.parse(code), False)], root)


def code_imports(code: str, root: Path | None = None) -> list[str]:
    """Project files that a piece of code (a page's code block, a notebook's cells) imports, transitively.

    IPython magics (lines starting with %) are ignored.
    """
    root = ROOT if root is None else Path(root)
    # a magic inside a block (`if ...:` then `    %pip install ...`) becomes `pass`, keeping the block whole
    source = "\n".join(ln[: len(ln) - len(ln.lstrip())] + "pass" if ln.lstrip().startswith("%") else ln
                       for ln in code.splitlines())
    return _closure([("__main__", ast.parse(source), False)], root)


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@functools.lru_cache(maxsize=None)
def machine_facts(num_threads: int = 1) -> dict[str, object]:
    """What a timing depends on besides the code: CPU model, core count, threads used, SIMD level."""
    import torch

    return {"cpu": _cpu_model(), "cores": os.cpu_count(), "threads": num_threads,
            "simd": torch.backends.cpu.get_cpu_capability()}


@functools.lru_cache(maxsize=None)
def _version(dist: str) -> str:
    """An installed distribution's version, looked up once per process (importlib.metadata scans the
    environment each time, which made it a noticeable part of keying every block)."""
    try:
        return version(dist)
    except PackageNotFoundError:
        return "not installed"


def fingerprint(modules: Iterable[str] = (), *, code: str | None = None, packages: Iterable[str] = DEFAULT_PACKAGES,
                machine: bool = False, num_threads: int = 1, extra: Iterable[str] = (),
                root: Path | None = None) -> str:
    """The fingerprint of a result: 32 hex digits that change when anything it was computed from changes.

    modules: dotted names of the project modules that produce it (their imports are followed);
    code: or instead, a piece of code that imports them; packages: installed distributions whose
    version matters (torch and numpy by default); machine: add machine_facts(num_threads), for
    timings; extra: any other strings that the result depends on.
    """
    root = ROOT if root is None else Path(root)
    files = set(module_files(modules, root))
    if code is not None:
        files |= set(code_imports(code, root))
    h = hashlib.sha256()
    for rel in sorted(f for f in files if not f.startswith("resultcache/")):  # the keying, not the computing
        h.update(rel.encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    for dist in sorted(set(packages)):
        h.update(f"{dist}=={_version(dist)}\0".encode())
    h.update(f"python {platform.python_version()}\0".encode())
    if machine:
        h.update(repr(sorted(machine_facts(num_threads).items())).encode())
    for item in extra:
        h.update(str(item).encode() + b"\0")
    return h.hexdigest()[:32]


def mark_optional(name: str, key: str) -> None:
    """Record that an optional result (one a command produces and a page shows if present) now exists."""
    path = cache_root() / "optional" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(key, encoding="utf-8")


def results_fingerprint(results_dir: Path | None = None, cache: Path | None = None) -> str:
    """The committed measurements (results/*.json: the benchmark sweep, the build benchmark), and the
    optional results recorded by mark_optional.

    Code that prints them (page blocks, notebooks) reads data files, not code, so the fingerprint of
    the code it imports does not see a new measurement: this one does, and keys its output too.
    Results that code computes when missing (training runs) are left out: their presence changes no
    output, and a cold build adds them as it goes.
    """
    root = ROOT / "results" if results_dir is None else Path(results_dir)
    cache = cache_root() if cache is None else Path(cache)
    h = hashlib.sha256()
    for path in sorted(root.glob("*.json")):
        if path.name in CACHE_ONLY_RESULTS:
            continue
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for out in sorted((cache / "optional").glob("*")):
        h.update(b"optional/" + out.name.encode() + b"\0" + out.read_bytes() + b"\0")
    return h.hexdigest()


def data_hash(data) -> str:
    """SHA-256 of data as canonical JSON (sorted keys, no spaces): what provenance['data_sha256'] holds.

    >>> data_hash({"b": [1, 2.5], "a": "x"}) == data_hash({"a": "x", "b": [1, 2.5]})
    True
    >>> data_hash({"a": 1})[:12]
    '015abd7f5cc5'
    """
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
