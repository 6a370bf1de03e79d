"""Executing a notebook with nbclient, the result cached by content.

A notebook's cache key is the notebook itself plus ``resultcache.fingerprint`` of the code it
runs: every project module its cells and included snippets import, transitively, and the pinned
versions. Editing the site machinery (this package included) leaves executed notebooks valid.

Two strings in a notebook change without changing what it prints: the site's address (SITE_URL) and
the lesson wheel's name (which follows every lesson file). The key leaves them out
(``metadata.mha.site_url`` / ``wheel``), and ``current_path`` gives the executed notebook with the
current cells, a copy made in milliseconds, so a new address or an edit elsewhere runs nothing again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import os
import re
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from resultcache import ROOT, cache_root, code_imports, fingerprint, results_fingerprint

from .imports import module_name, strip_magics

__all__ = ["NotebookError", "Background", "dependencies", "cache_key", "cache_path", "execute", "execute_all",
           "is_executed", "executed_path", "current_path", "merge_streams", "this_python_kernel"]

log = logging.getLogger("mkdocs.hooks.notebooks")


def _code(nb) -> str:
    return "\n".join(strip_magics(c.source) for c in nb.cells if c.cell_type == "code")


def dependencies(nb, root: Path = ROOT) -> list[str]:
    """Project files the notebook's code reads: included files and every module imported, transitively."""
    files = nb.metadata.get("mha", {}).get("files", [])
    imports = "\n".join(f"import {module_name(f)}" for f in files if f.endswith(".py"))
    return sorted(set(code_imports(_code(nb) + "\n" + imports, root)) | {f for f in files if f.endswith(".py")})


def cache_key(nb, root: Path = ROOT) -> str:
    """Hash of the notebook, the fingerprint of the code it runs, and which optional results exist."""
    files = nb.metadata.get("mha", {}).get("files", [])
    imports = "\n".join(f"import {module_name(f)}" for f in files if f.endswith(".py"))
    h = hashlib.sha256(_keyed(nb).encode())
    h.update(fingerprint(code=_code(nb) + "\n" + imports, root=root).encode())
    h.update(results_fingerprint().encode())
    return h.hexdigest()[:32]


def _volatile(nb) -> list[str]:
    mha = nb.metadata.get("mha", {})
    wheel = mha.get("wheel") or ""
    # the setup cell writes the wheel's URL as several string literals, split after '/' and '+'
    return [v for v in (wheel, wheel.partition("+")[2], mha.get("site_url")) if v]


def _keyed(nb) -> str:
    """The notebook as JSON with the site's address and the wheel's name left out (see the module's docstring)."""
    text = json.dumps(nb, sort_keys=True)
    for value in _volatile(nb):
        text = text.replace(json.dumps(value)[1:-1], "<volatile>")
    return text


class NotebookError(RuntimeError):
    """A notebook cell failed, or its kernel died."""


def execute(nb, *, cache: bool = True, timeout: int = 1800, root: Path = ROOT):
    """Run every cell top to bottom in a fresh kernel (nbclient); return the executed notebook.

    With cache=True a notebook whose cells and dependencies are unchanged since it last ran
    clean is read from the cache instead of running again.
    """
    import nbformat

    if cache:
        return nbformat.read(current_path(nb, timeout=timeout, root=root), as_version=4)
    return _run(nb, timeout, root)


def cache_path(nb, root: Path = ROOT) -> Path:
    """Where the executed notebook is kept: <cache root>/notebooks/<cache_key>.ipynb (it may not exist yet)."""
    return cache_root() / "notebooks" / f"{cache_key(nb, root)}.ipynb"


def is_executed(nb, root: Path = ROOT) -> bool:
    """Whether the cache already holds this notebook, run clean with the current code."""
    return cache_path(nb, root).is_file()


def executed_path(nb, *, timeout: int = 1800, root: Path = ROOT, path: Path | None = None) -> Path:
    """The executed notebook's file (cache_path), run first if missing."""
    import nbformat

    path = cache_path(nb, root) if path is None else path
    if not path.is_file():
        done = _run(nb, timeout, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        nbformat.write(done, tmp)
        os.replace(tmp, path)  # atomic: concurrent builds never read half a file
    return path


def current_path(nb, *, timeout: int = 1800, root: Path = ROOT) -> Path:
    """The executed notebook with nb's own cells (its site address and wheel name): executed_path's file
    itself when they match, else a copy beside it with the cells' sources swapped in."""
    import nbformat

    done_path = executed_path(nb, timeout=timeout, root=root)
    done = nbformat.read(done_path, as_version=4)
    same = [c.source for c in done.cells] == [c.source for c in nb.cells]
    if same and done.metadata.get("mha") == nb.metadata.get("mha"):
        return done_path
    tag = hashlib.sha256(json.dumps([c.source for c in nb.cells]).encode()).hexdigest()[:12]
    path = done_path.with_name(f"{done_path.stem}.{tag}.ipynb")
    if not path.is_file():
        if len(done.cells) != len(nb.cells):
            raise ValueError(f"expected the executed notebook to have nb's {len(nb.cells)} cells, "
                             f"it has {len(done.cells)}")
        for cell, new in zip(done.cells, nb.cells, strict=True):
            cell.source = new.source
        done.metadata["mha"] = json.loads(json.dumps(nb.metadata.get("mha", {})))
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        nbformat.write(done, tmp)
        os.replace(tmp, path)
    return path


def execute_all(notebooks, workers: int | None = None) -> int:
    """Run every notebook not in the cache yet, several at a time (default: one per core); return how many ran.

    Each runs in its own worker process and kernel, so they are independent. Progress goes to the
    log: "notebook 3/16 (docs/article/3-pytorch.en.md), ~1.2 min left".
    """
    runner = Background(notebooks, workers)
    try:
        for future in list(runner.futures.values()):
            future.result()  # a failing cell fails here, with its traceback
    finally:
        runner.close()
    return len(runner.futures)


class Background:
    """Run notebooks in worker processes while the caller goes on; wait(nb) blocks for one of them.

    The build starts every notebook not in the cache yet as soon as the expensive results exist
    (sitebuild.precompute), then renders its pages while they run: the pages keep one core busy,
    the notebooks both. A notebook page waits only for its own notebook. Progress goes to the log
    as each finishes. A failing cell re-raises in wait(), so it fails the build at that page.
    """

    def __init__(self, notebooks, workers: int | None = None):
        todo = list({cache_path(n): n for n in notebooks if not is_executed(n)}.items())
        self.futures = {}
        self.pool = None
        if not todo:
            return
        self.start, self.total, self.finished = time.perf_counter(), len(todo), 0
        context = multiprocessing.get_context("spawn")  # never fork a process that has torch threads running
        self.pool = ProcessPoolExecutor(min(workers or os.cpu_count() or 1, len(todo)), mp_context=context)
        for path, n in todo:
            future = self.pool.submit(executed_path, n, path=path)
            future.add_done_callback(lambda f, page=n.metadata["mha"]["page"]: self._done(f, page))
            self.futures[path] = future

    def _done(self, future, page: str) -> None:
        if future.cancelled() or future.exception() is not None:
            return
        self.finished += 1
        left = (time.perf_counter() - self.start) / self.finished * (self.total - self.finished)
        log.info("notebook %d/%d (%s), ~%.1f min left", self.finished, self.total, page, left / 60)

    def wait(self, nb) -> None:
        """Block until nb has run (if it was started here); re-raise its failure."""
        future = self.futures.get(cache_path(nb))
        if future is not None:
            future.result()
        if self.pool is not None and all(f.done() for f in self.futures.values()):
            self.close()

    def close(self) -> None:
        """Stop the workers (cancelling notebooks that have not started)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def this_python_kernel():
    """A KernelManager class for ipykernel on this very interpreter (the venv), whatever kernel specs are installed."""
    from ipykernel.kernelspec import RESOURCES, get_kernel_dict
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import KernelManager

    class ThisPython(KernelManager):
        @property
        def kernel_spec(self):
            return KernelSpec(resource_dir=RESOURCES, **get_kernel_dict())

    return ThisPython


def _run(nb, timeout: int, root: Path):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    done = nbformat.from_dict(json.loads(json.dumps(nb)))
    client = NotebookClient(done, kernel_manager_class=this_python_kernel(), timeout=timeout, allow_errors=False,
                            record_timing=False, resources={"metadata": {"path": str(root)}})
    with tempfile.TemporaryFile("w+") as kernel_log:
        try:
            client.execute(stderr=kernel_log)
        except CellExecutionError as e:
            plain = re.sub(r"\x1b\[[0-9;]*m", "", str(e))  # the traceback without terminal colours
            raise NotebookError(f"{nb.metadata['mha']['page']}: a cell failed\n{plain}") from None
        except Exception as e:  # the kernel died or timed out
            kernel_log.seek(0)
            tail = kernel_log.read()[-3000:]
            raise NotebookError(f"{nb.metadata['mha']['page']}: {type(e).__name__}: {e}\n{tail}") from e
    # A %%capture cell (a block whose printed output the page renders) shows its exception as an error
    # output while the cell itself succeeds, so nbclient goes on: fail here instead.
    for i, cell in enumerate(done.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                raise NotebookError(f"{nb.metadata['mha']['page']}: cell {i} failed: {out.get('ename')}: "
                                    f"{out.get('evalue')}")
    for i, cell in enumerate(done.cells):
        # Warnings (a slow cache write, a library's notice) are not part of the lesson: keep stdout and
        # rich output, report stderr in the build log.
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                log.info("%s: cell %d wrote to stderr: %s", nb.metadata["mha"]["page"], i, out["text"][:500])
        if cell.cell_type == "code":
            cell.outputs = merge_streams([o for o in cell.outputs if o.get("name") != "stderr"])
    return done


def merge_streams(outputs: list) -> list:
    """Consecutive stream outputs of the same stream as one: how a kernel splits printed text into
    messages depends on timing (a busy machine flushes more often), and the notebook must not.

    >>> merge_streams([{"output_type": "stream", "name": "stdout", "text": "a\\n"},
    ...                {"output_type": "stream", "name": "stdout", "text": "b\\n"}])
    [{'output_type': 'stream', 'name': 'stdout', 'text': 'a\\nb\\n'}]
    """
    merged: list = []
    for out in outputs:
        last = merged[-1] if merged else None
        if (last is not None and out.get("output_type") == "stream" == last.get("output_type")
                and out.get("name") == last.get("name")):
            last["text"] += out["text"]
        else:
            merged.append(out)
    return merged
