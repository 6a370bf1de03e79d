"""Jupyter notebooks for the chapters, generated from the pages and the snippets they include.

One source of truth: a chapter's notebook is derived from its page, never kept by hand.
In page order, an include (``--8<-- "snippets/x.py:section"``) becomes a code cell holding
that section, read by pymdownx.snippets itself with the site's settings, and an
``exec="1"`` block becomes a code cell, verbatim. The page's headings become short markdown
cells in the page's language; the first cell says what the notebook is and links back.
Pages without code get no notebook.

An include cell starts with the imports its section needs from its module (the module's own
import lines, made absolute), so it runs on its own. An ``html="1"`` block prints HTML, so
its cell captures what it prints and the next cell displays it as HTML.

The code cells import from ``snippets``; the first code cell finds the repository (this
folder's parent) from the working directory, so a notebook runs anywhere inside a clone.

The site builds them in ``docs/.overrides/hooks/notebooks.py``; to write them yourself::

    python -m snippets.notebooks --out notebooks --execute

>>> cells = page_parts("# T { #t }\\n\\n## A { #a }\\n\\n```python exec=\\"1\\"\\nprint(1)\\n```\\n")
>>> [(p.kind, p.text) for p in cells]
[('heading', 'T'), ('heading', 'A'), ('exec', 'print(1)')]
"""

from __future__ import annotations

import argparse
import ast
import builtins
import hashlib
import importlib.util
import json
import logging
import os
import re
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("mkdocs.hooks.notebooks")
CACHE_DIR = Path(os.environ.get("MHA_NOTEBOOK_CACHE", ROOT / ".cache" / "notebooks"))
LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

TEXT = {
    "zh": {
        "intro": (
            "这是《{title}》一节的 Notebook：代码和[网页]({url})上的完全一样，都来自仓库里的 `snippets/` 包，"
            "由网页自动生成。\n\n"
            "**怎么运行**：克隆本站的代码仓库，按 README 建好虚拟环境，然后在仓库里的任意位置用这个环境的内核打开本文件，"
            "从上到下运行（放在仓库外时，把环境变量 `MHA_REPO` 设成仓库路径）。第一个代码单元会找到仓库并把它加入 "
            "`sys.path`。\n\n"
            "展示函数定义的单元和网页上的代码框一致；后面调用它们的单元从 `snippets` 包导入同名函数。"
            "想改代码做实验，就改 `snippets/` 里的文件，或者在定义单元里改完后删掉调用单元里对应的 import。"
        ),
        "setup": "## 准备：找到仓库",
        "download": "下载 Notebook",
        "view": "查看 Notebook",
        "back": "返回本节网页",
        "try": "# 先在这里自己试一试，再看下面折叠起来的答案",
        "hidden": "**{title}**（代码单元已折叠，自己试过之后再展开）",
    },
    "en": {
        "intro": (
            "This is the notebook for “{title}”: the same code as on the [web page]({url}), all of it from the "
            "repository's `snippets/` package, generated from the page.\n\n"
            "**How to run it**: clone the site's repository, create the virtual environment as its README says, "
            "open this file anywhere inside the clone with that environment's kernel and run it top to bottom "
            "(outside the clone, set the environment variable `MHA_REPO` to the clone's path). The first code "
            "cell finds the repository and puts it on `sys.path`.\n\n"
            "Cells that define functions match the page's code boxes; the cells that call them import the same "
            "functions from the `snippets` package. To experiment, edit the files in `snippets/`, or edit a "
            "definition cell and drop the matching import from the calling cell."
        ),
        "setup": "## Setup: find the repository",
        "download": "Download notebook",
        "view": "View notebook",
        "back": "Back to the page",
        "try": "# Try it here first, then open the collapsed answer below",
        "hidden": "**{title}** (the code cells are collapsed: try it yourself before you open them)",
    },
}


# --8<-- [start:setup]
def use_repo(start: str | os.PathLike | None = None) -> Path:
    """Find the clone holding the snippets package at or above start, put it on sys.path, work from it."""
    here = Path(start or os.environ.get("MHA_REPO") or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "snippets" / "__init__.py").is_file():
            if str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
            os.chdir(folder)  # paths resolve as in the site build
            return folder
    raise ValueError(
        f"expected a clone of the repository (a folder with snippets/__init__.py) at or above {here}, "
        "found none: open the notebook inside the clone or set MHA_REPO to its path"
    )
# --8<-- [end:setup]


# ---------------------------------------------------------------------------------------------
# Reading a page

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+-]*)(?P<info>[^`]*)$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)(?:[ \t]*\{[^}]*\})?[ \t]*#*[ \t]*$")
OPTION = re.compile(r"""([\w-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))""")
INCLUDE = re.compile(r"""^[ \t]*-{1,}8<-{1,}[ \t]+(["'])(?P<target>.+?)\1[ \t]*$""")
ANNOTATION = re.compile(r"[ \t]*#[ \t]*\(\d+\)!?[ \t]*$")
TRUE = {"1", "true", "yes", "on"}
# An admonition. A collapsed success block (`??? success "参考答案"`, not `???+`) is an exercise's solution.
ADMONITION = re.compile(r'^(?P<indent>[ \t]*)(?P<marker>\?\?\?\+?|!!!)[ \t]+(?P<kind>[\w-]+)(?:[ \t]+"(?P<title>[^"]*)")?')


@dataclass
class Part:
    """One thing on a page that the notebook keeps: a heading, an include, or an exec block."""

    kind: str  # "heading", "include" or "exec"
    text: str  # heading text, the include's expanded code, or the exec block's code
    level: int = 0  # heading level
    html: bool = False  # exec block whose printed output is HTML
    markdown: bool = False  # exec block whose printed output markdown-exec renders as Markdown (no result=)
    files: list[str] = field(default_factory=list)  # snippet files an include reads
    collapsed: str = ""  # title of the collapsed solution (`??? success`) that holds this code, if any


def fence_options(info: str) -> dict[str, str]:
    """Options of a fence's info string: 'exec="1" html="1"' -> {'exec': '1', 'html': '1'}."""
    return {m.group(1): next(g for g in m.groups()[1:] if g is not None) for m in OPTION.finditer(info)}


def page_parts(markdown: str, expand=None) -> list[Part]:
    """Headings, snippet includes and Python exec blocks of a page, in page order.

    expand(line) -> (code, files) expands an include line; by default includes are kept as written.
    """
    lines = markdown.splitlines()
    parts: list[Part] = []
    blocks: list[tuple[int, str]] = []  # open admonitions: (indent, title if a collapsed solution else "")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        indent = m.group("indent") if m else lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        if lines[i].strip():
            blocks = [b for b in blocks if b[0] < len(indent)]
        if not m:
            h = HEADING.match(lines[i])
            a = ADMONITION.match(lines[i])
            if h:
                parts.append(Part("heading", h.group("text").strip(), level=len(h.group("hashes"))))
            elif a:
                solution = a.group("marker") == "???" and a.group("kind") == "success"
                blocks.append((len(a.group("indent")), (a.group("title") or "Solution") if solution else ""))
            i += 1
            continue
        fence = m.group("fence")
        collapsed = next((t for _, t in reversed(blocks) if t), "")
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(fence[0] * len(fence)) and lines[j].strip().strip(fence[0]) == ""
        ):
            j += 1
        body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : j]]
        lang, options = m.group("lang").lower(), fence_options(m.group("info"))
        i = j + 1
        if options.get("exec", "").lower() in TRUE:
            if lang in ("python", "py"):
                html = options.get("html", "").lower() in TRUE
                parts.append(Part("exec", textwrap.dedent("\n".join(body)).strip("\n"), html=html,
                                  markdown=not html and "result" not in options, collapsed=collapsed))
            elif lang == "pycon":
                code = [ln[4:] for ln in body if ln.startswith((">>> ", "... "))]
                parts.append(Part("exec", "\n".join(code), html=options.get("html", "").lower() in TRUE,
                                  collapsed=collapsed))
            continue
        includes = [ln for ln in body if INCLUDE.match(ln)]
        if includes and all(INCLUDE.match(ln) or not ln.strip() for ln in body):
            codes, files = [], []
            for ln in includes:
                code, used = expand(ln) if expand else (ln.strip(), [])
                codes.append(code)
                files += used
            if any(f.endswith(".py") for f in files) or not expand:
                parts.append(Part("include", "\n\n\n".join(codes), files=files, collapsed=collapsed))
    return parts


def snippet_expander(base_path=(".",), root: Path = ROOT, **options):
    """expand(line) -> (code, files): a pymdownx.snippets include, read exactly as the site reads it."""
    import markdown
    from pymdownx.snippets import SnippetExtension

    bases = [str((root / b).resolve()) for b in ([base_path] if isinstance(base_path, str) else base_path)]
    cfg = {k: v for k, v in options.items() if k in SnippetExtension().config and k != "auto_append"}
    md = markdown.Markdown(extensions=[SnippetExtension(base_path=bases, **{"check_paths": True, **cfg})])
    pre = md.preprocessors["snippet"]

    def expand(line: str) -> tuple[str, list[str]]:
        target = pre.parse_snippet_target(INCLUDE.match(line).group("target"))
        path = pre.get_snippet_path(target["path"]) if target else None
        if path is None:
            raise ValueError(f"expected an include of an existing snippet file, got {line.strip()!r}")
        code = "\n".join(ANNOTATION.sub("", ln) for ln in pre.run([line.strip()]))
        return code.strip("\n"), [str(Path(path).resolve().relative_to(root))]

    return expand


# ---------------------------------------------------------------------------------------------
# Which imports an included section needs


def module_name(path: str) -> str:
    """'snippets/bert/heads.py' -> 'snippets.bert.heads'."""
    p = Path(path).with_suffix("")
    parts = p.parts[:-1] if p.name == "__init__" else p.parts
    return ".".join(parts)


def _strip_magics(code: str) -> str:
    return "\n".join("" if ln.lstrip().startswith("%") else ln for ln in code.splitlines())


def bound_names(tree: ast.AST) -> set[str]:
    """Every name a piece of code binds anywhere (assignments, defs, imports, arguments...)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def free_names(code: str) -> list[str]:
    """Names a piece of code reads but does not bind, builtins excluded, in order of first use."""
    tree = ast.parse(_strip_magics(code))
    bound = bound_names(tree)
    seen: dict[str, None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id not in bound and not hasattr(builtins, node.id):
                seen.setdefault(node.id)
    return list(seen)


def context_imports(path: str, names: list[str], root: Path = ROOT) -> str:
    """Import lines that give names the meaning they have inside the module at path."""
    module = module_name(path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    tree = ast.parse((root / path).read_text(encoding="utf-8"))
    wanted, lines, own = set(names), [], []
    for node in tree.body:
        if isinstance(node, ast.Import):
            keep = [a for a in node.names if (a.asname or a.name.split(".")[0]) in wanted]
            if keep:
                lines.append("import " + ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in keep))
                wanted -= {a.asname or a.name.split(".")[0] for a in keep}
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            keep = [a for a in node.names if (a.asname or a.name) in wanted]
            if keep:
                source = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                lines.append(f"from {source} import "
                             + ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in keep))
                wanted -= {a.asname or a.name for a in keep}
    defined = bound_names(ast.Module(body=[n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))],
                                     type_ignores=[]))
    own = [n for n in names if n in wanted and n in defined]
    if own:
        lines.append(f"from {module} import {', '.join(own)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Building a notebook


def page_url(stem: str, lang: str, site_url: str = "") -> str:
    """The page's address: 'article/3-pytorch', 'en' -> '<site_url>en/article/3-pytorch/'."""
    path = "" if stem == "index" else stem.removesuffix("/index") + "/"
    prefix = "" if lang == DEFAULT_LANG else f"{lang}/"
    return f"{site_url.rstrip('/')}/{prefix}{path}" if site_url else f"{prefix}{path}"


def _heading(level: int, text: str) -> str:
    return f"{'#' * level} {text}"


def build_notebook(markdown: str, stem: str, lang: str, *, site_url: str = "", expand=None, source: str = ""):
    """The notebook for one page (unexecuted), or None when the page has no code."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    if lang not in TEXT:
        raise ValueError(f"lang must be one of {sorted(TEXT)}, got {lang!r}")
    parts = page_parts(markdown, expand=expand or snippet_expander())
    files = sorted({f for p in parts for f in p.files})
    if not any(p.kind != "heading" for p in parts):
        return None
    title = next((p.text for p in parts if p.kind == "heading" and p.level == 1), stem)
    text = TEXT[lang]
    expand = expand or snippet_expander()
    setup_text, setup_files = expand(f'--8<-- "{Path(__file__).relative_to(ROOT).as_posix()}:setup"')
    setup = Part("include", setup_text, files=setup_files)
    cells = [
        new_markdown_cell(_heading(1, f"{title} · Notebook") + "\n\n"
                          + text["intro"].format(title=title, url=page_url(stem, lang, site_url))),
        new_markdown_cell(text["setup"]),
    ]
    defined: set[str] = set()
    setup_code = with_context(setup, defined) + "\n\n\nROOT = use_repo()"
    cells.append(new_code_cell(setup_code))
    defined |= bound_names(ast.parse(setup_code))
    pending: dict[int, str] = {}
    hiding = ""  # the collapsed block whose code cells are being added
    for part in parts:
        if part.kind == "heading":
            hiding = ""
            if part.level > 1:
                pending = {lvl: t for lvl, t in pending.items() if lvl < part.level}
                pending[part.level] = part.text
            continue
        if pending:
            cells.append(new_markdown_cell("\n\n".join(_heading(lvl, t) for lvl, t in sorted(pending.items()))))
            pending = {}
        if part.collapsed and part.collapsed != hiding:
            # A solution: a cell to try it in first, then its code, collapsed as on the page.
            cells.append(new_code_cell(text["try"]))
            cells.append(new_markdown_cell(text["hidden"].format(title=part.collapsed)))
        hiding = part.collapsed
        first = len(cells)
        code = part.text
        if part.kind == "include":
            code = with_context(part, defined)
        if part.kind == "exec" and part.html:
            cells.append(new_code_cell("%%capture printed\n" + code))
            cells.append(new_code_cell("from IPython.display import HTML\n\nHTML(printed.stdout)"))
            defined |= {"printed", "HTML"}
        elif part.kind == "exec" and part.markdown:
            cells.append(new_code_cell("%%capture printed\n" + code))
            cells.append(new_code_cell("from IPython.display import Markdown\n\nMarkdown(printed.stdout)"))
            defined |= {"printed", "Markdown"}
        else:
            cells.append(new_code_cell(code))
        if part.collapsed:
            for cell in cells[first:]:
                cell.metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
        defined |= bound_names(ast.parse(_strip_magics(code)))
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": dict(KERNEL),
        "language_info": {"name": "python"},
        "mha": {"page": source or f"docs/{stem}.{lang}.md", "lang": lang, "files": files},
    })
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"  # stable ids: the same page gives the same file
    nbformat.validate(nb)
    return nb


def with_context(part: Part, defined: set[str], root: Path = ROOT) -> str:
    """An include's code, preceded by the imports it needs from its module that earlier cells did not bind."""
    py = [f for f in part.files if f.endswith(".py")]
    if not py:
        return part.text
    header = context_imports(py[0], [n for n in free_names(part.text) if n not in defined], root)
    future = "from __future__ import annotations" in (root / py[0]).read_text("utf-8")
    if future and "__future__.annotations" not in defined:
        header = "from __future__ import annotations\n" + header  # annotations stay unevaluated, as in the module
        defined.add("__future__.annotations")
    return f"{header.strip()}\n\n\n{part.text}" if header.strip() else part.text


def language_pages(docs: Path = ROOT / "docs") -> list[tuple[str, str, Path]]:
    """(stem, lang, path) of every page, e.g. ('article/3-pytorch', 'zh', docs/article/3-pytorch.zh.md)."""
    pages = []
    for p in sorted(docs.rglob("*.md")):
        rel = p.relative_to(docs)
        if any(s.startswith(".") for s in rel.parts):
            continue
        stem, _, lang = p.name[:-3].rpartition(".")
        if lang in LANGS:
            pages.append(((rel.parent / stem).as_posix().removeprefix("./"), lang, p))
    return pages


# ---------------------------------------------------------------------------------------------
# Executing, with results cached by content


def dependencies(nb, root: Path = ROOT) -> list[str]:
    """Snippet files the notebook's code reads: included files and every snippets module imported, transitively."""
    todo, found = [], set()
    files = nb.metadata.get("mha", {}).get("files", [])
    for cell in nb.cells:
        if cell.cell_type == "code":
            todo.append(("__main__", ast.parse(_strip_magics(cell.source))))
    todo += [(module_name(f), ast.parse((root / f).read_text(encoding="utf-8"))) for f in files]
    while todo:
        module, tree = todo.pop()
        package = module.rpartition(".")[0] if module != "__main__" else ""
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level \
                    else node.module or ""
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                if not name.startswith("snippets"):
                    continue
                parts = name.split(".")
                for k in range(1, len(parts) + 1):
                    for cand in (Path(*parts[:k]).with_suffix(".py"), Path(*parts[:k]) / "__init__.py"):
                        if (root / cand).is_file() and cand.as_posix() not in found:
                            found.add(cand.as_posix())
                            todo.append((module_name(cand.as_posix()), ast.parse((root / cand).read_text("utf-8"))))
    return sorted(found)


def cache_key(nb, root: Path = ROOT) -> str:
    """Hash of the notebook, every snippet file it depends on, the pinned requirements and which results exist."""
    from .cache import results_fingerprint

    h = hashlib.sha256(json.dumps(nb, sort_keys=True).encode())
    h.update(results_fingerprint().encode())
    for f in dependencies(nb, root) + ["requirements.txt"]:
        if (root / f).is_file():
            h.update(f.encode() + b"\0" + (root / f).read_bytes() + b"\0")
    h.update(sys.version.encode())
    return h.hexdigest()[:32]


class NotebookError(RuntimeError):
    """A notebook cell failed, or its kernel died."""


def execute(nb, *, cache: bool = True, timeout: int = 1800, root: Path = ROOT):
    """Run every cell top to bottom in a fresh kernel (nbclient); return the executed notebook.

    With cache=True a notebook whose cells and snippet dependencies are unchanged since it last
    ran clean is read from .cache/notebooks/ instead of running again.
    """
    import nbformat

    if cache:
        return nbformat.read(executed_path(nb, timeout=timeout, root=root), as_version=4)
    return _run(nb, timeout, root)


def executed_path(nb, *, timeout: int = 1800, root: Path = ROOT) -> Path:
    """The executed notebook's file in .cache/notebooks/, named by cache_key; runs it first if missing."""
    import nbformat

    path = CACHE_DIR / f"{cache_key(nb, root)}.ipynb"
    if not path.is_file():
        done = _run(nb, timeout, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        nbformat.write(done, tmp)
        os.replace(tmp, path)  # atomic: concurrent builds never read half a file
    return path


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
    for i, cell in enumerate(done.cells):
        # Warnings (a slow cache write, a library's notice) are not part of the lesson: keep stdout and
        # rich output, report stderr in the build log.
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                log.info("%s: cell %d wrote to stderr: %s", nb.metadata["mha"]["page"], i, out["text"][:500])
        if cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if o.get("name") != "stderr"]
    return done


# ---------------------------------------------------------------------------------------------
# Command line


def site_settings(config_file: Path = ROOT / "mkdocs.yml") -> tuple[str, dict]:
    """site_url and the pymdownx.snippets options from mkdocs.yml."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # ignore !!python/... tags
    cfg = yaml.load(config_file.read_text(encoding="utf-8"), Loader=Loader)
    options = {}
    for ext in cfg.get("markdown_extensions", []):
        if isinstance(ext, dict) and "pymdownx.snippets" in ext:
            options = ext["pymdownx.snippets"] or {}
    return cfg.get("site_url") or "", options


def all_notebooks(docs: Path = ROOT / "docs"):
    """Yield (stem, lang, notebook) for every page that has code, built from the pages on disk."""
    site_url, options = site_settings()
    expand = snippet_expander(**options)
    for stem, lang, path in language_pages(docs):
        nb = build_notebook(path.read_text(encoding="utf-8"), stem, lang, site_url=site_url, expand=expand,
                            source=path.relative_to(ROOT).as_posix())
        if nb is not None:
            yield stem, lang, nb


def code_sources(nb) -> list[tuple[str, str]]:
    """(cell type, source) of every cell: what must match between a written notebook and its page."""
    return [(c.cell_type, c.source) for c in nb.cells]


def main(argv: list[str] | None = None) -> int:
    import nbformat

    parser = argparse.ArgumentParser(prog="python -m snippets.notebooks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "notebooks", help="folder to write to (default: notebooks/)")
    parser.add_argument("--execute", action="store_true", help="run every notebook and keep its outputs")
    parser.add_argument("--check", action="store_true", help="only report notebooks in --out that are missing or stale")
    args = parser.parse_args(argv)
    stale = []
    for stem, lang, nb in all_notebooks():
        target = args.out / f"{stem}.{lang}.ipynb"
        if args.check:
            if not target.is_file() or code_sources(nbformat.read(target, as_version=4)) != code_sources(nb):
                stale.append(str(target))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(execute(nb) if args.execute else nb, target)
        print(target)
    if stale:
        print("missing or out of date (run python -m snippets.notebooks):", *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
