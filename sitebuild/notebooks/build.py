"""Building a chapter's notebook from its page and the snippets it includes.

One source of truth: a chapter's notebook is derived from its page, never kept by hand.
In page order, an include (``--8<-- "snippets/x.py:section"``) becomes a code cell holding
that section, read by pymdownx.snippets itself with the site's settings, and an
``exec="1"`` block becomes a code cell, verbatim. The page's headings become short markdown
cells in the page's language (their page ids kept in the cell's metadata, so the rendered
notebook uses the same anchors as the page); the first cell says what the notebook is and
links back. Pages without code get no notebook.

An include cell starts with the imports its section needs from its module (the module's own
import lines, made absolute), so it runs on its own. An ``html="1"`` block prints HTML, so
its cell captures what it prints and the next cell displays it as HTML. The cells import from
the ``snippets`` package.

The first code cell sets the notebook up outside the repository (``setup_cell``): unless ``snippets``
is importable already, it installs the lesson wheel that the site serves (``sitebuild.notebooks.wheel``)
from the site's own address (``site_url``), and downloads the committed measurements the page shows.
Results the build computed (trained models, the real model's maps) are computed again by the lesson
code, which then prints its progress with the time left. The intro cell above it says which.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import replace

from resultcache import CACHE_ONLY_RESULTS, ROOT, code_imports
from snippets.i18n import check_lang, text

from .imports import _from_import, _module_tree, bound_names, context_imports, free_names, module_name, strip_magics, with_context
from .parse import DEFAULT_LANG, page_parts, snippet_expander

__all__ = ["KERNEL", "page_url", "site_file_url", "needs", "setup_cell", "build_notebook", "heading_ids",
           "shown_definitions", "unshown_members", "use_lines", "first_edit", "drop_shadowing_imports", "run_instructions", "readme_with_instructions",
           "RUN_MARKER"]

KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def page_url(stem: str, lang: str, site_url: str = "") -> str:
    """The page's address: 'article/3-pytorch', 'en' -> '<site_url>en/article/3-pytorch/'."""
    path = "" if stem == "index" else stem.removesuffix("/index") + "/"
    prefix = "" if lang == DEFAULT_LANG else f"{lang}/"
    return f"{site_url.rstrip('/')}/{prefix}{path}" if site_url else f"{prefix}{path}"


def site_file_url(path: str, site_url: str = "") -> str:
    """A file the site serves at its root, e.g. 'notebooks/x.whl' -> '<site_url>notebooks/x.whl'."""
    return f"{site_url.rstrip('/')}/{path}" if site_url else path


# What in the code a notebook runs makes it need more than the wheel (read from the project files it imports).
_COMPUTES = re.compile(r"@memory\.cache")  # results the build computed and cached: computed again
_READS_RESULTS = re.compile(r"\bresults_dir\(|\bRESULTS_DIR\b")  # committed measurements: downloaded


def needs(code: str, files=(), root=ROOT) -> dict:
    """What a notebook's code needs besides the wheel: {'real_model', 'computes', 'results'} (booleans),
    from the project files it imports (transitively) and the files it includes."""
    py = [f for f in files if f.endswith(".py")]
    deps = sorted(set(code_imports(code + "\n" + "\n".join(f"import {module_name(f)}" for f in py), root)) | set(py))
    texts = {f: (root / f).read_text(encoding="utf-8") for f in deps if (root / f).is_file()}
    from .wheel import REAL_MODEL_MODULES

    return {
        "real_model": any(f.startswith(REAL_MODEL_MODULES) for f in deps),
        "computes": any(_COMPUTES.search(t) for t in texts.values()),
        "results": any(_READS_RESULTS.search(t) for f, t in texts.items() if not f.startswith("resultcache/")),
    }


RUN_MARKER = "<!-- notebook-run -->"  # where the home page and the README carry run_instructions()


def run_instructions(lang: str) -> str:
    """How to run a notebook (Jupyter, VS Code, Colab), as Markdown: the one text that each notebook's first
    cell, the home page (at RUN_MARKER) and the README (between RUN_MARKER and its closing tag) show."""
    return text(lang, "notebooks.run")


def readme_with_instructions(readme: str) -> str:
    """The README with the English run_instructions() between RUN_MARKER and <!-- /notebook-run -->."""
    end = RUN_MARKER.replace("<!-- ", "<!-- /")
    head, found, rest = readme.partition(RUN_MARKER + "\n")
    _, closed, tail = rest.partition(end)
    if not (found and closed):
        raise ValueError(f"expected the README to hold {RUN_MARKER} ... {end} on lines of their own")
    return f"{head}{RUN_MARKER}\n{run_instructions('en')}\n{end}{tail}"


def results_files(root=ROOT) -> list[str]:
    """The committed measurements the site serves for notebooks (results/*.json)."""
    return sorted(p.name for p in (root / "results").glob("*.json") if p.name not in CACHE_ONLY_RESULTS)


def setup_cell(site_url: str, need: dict, wheel: str | None = None, lang: str = "en") -> str:
    """The first code cell: install the lesson wheel from the site unless snippets is importable; download
    the committed measurements when the page shows some; show the lesson code's progress when it computes."""
    from .wheel import DIST, wheel_name

    url = site_file_url(f"notebooks/{wheel or wheel_name()}", site_url)
    target = f'"{DIST}[real-model] @ {{wheel}}"' if need.get("real_model", False) else '"{wheel}"'
    lines = ["import importlib.util", "",
             'if importlib.util.find_spec("snippets") is None:  # outside the repository',
             *_string_lines("    wheel = ", url),
             f"    %pip install -q {target}",
             "    importlib.invalidate_caches()"]
    if need.get("results"):
        lines += ["", "from snippets.notebook import fetch_results", "",
                  "# the committed measurements (inside the repository: its results/, no download)",
                  *_string_lines("results = ", site_file_url("notebooks/results/", site_url)),
                  *_list_lines("names = ", results_files()),
                  f'fetch_results(results, names, lang="{lang}")']
    if need.get("computes"):
        lines += ["", "import logging", "", "# the lesson code's progress lines (what it computes, and the time left)",
                  'progress = logging.getLogger("snippets")',
                  "progress.setLevel(logging.INFO)",
                  "progress.addHandler(logging.StreamHandler())"]
    return "\n".join(lines)


def _string_lines(start: str, value: str, width: int = 60) -> list[str]:
    """`start + repr(value)` as Python lines no wider than the code column: a long URL is split after
    '/' or '+' into adjacent string literals (a notebook cell that scrolls sideways hides its end)."""
    parts = re.findall(r"[^/+]*[/+]?", value)
    chunks = [""]
    for part in filter(None, parts):
        if chunks[-1] and len(chunks[-1]) + len(part) > width:
            chunks.append("")
        chunks[-1] += part
    if len(chunks) == 1:
        return [f'{start}"{value}"']
    pad = " " * (len(start) + 1)
    return ([f'{start}("{chunks[0]}"'] + [f'{pad}"{c}"' for c in chunks[1:-1]] + [f'{pad}"{chunks[-1]}")'])


def _list_lines(start: str, items: list[str], width: int = 80) -> list[str]:
    """`start + repr(list of strings)` as Python lines no wider than width: the items wrap onto lines
    aligned under the first one when the list does not fit on one line."""
    quoted = [f'"{item}"' for item in items]
    one = f"{start}[{', '.join(quoted)}]"
    if len(one) <= width:
        return [one]
    pad, lines = " " * (len(start) + 1), [f"{start}["]
    for k, q in enumerate(quoted):
        piece = q + ("]" if k == len(quoted) - 1 else ",")
        fresh = lines[-1].endswith("[") or lines[-1] == pad  # nothing on this line yet
        if not fresh and len(lines[-1]) + 1 + len(piece) > width:
            lines.append(pad)
            fresh = True
        lines[-1] += piece if fresh else " " + piece
    return lines


def shown_definitions(part) -> dict[str, str]:
    """{name: module} of the functions and classes an include defines at its top level (the code the page
    shows), e.g. {'split_heads': 'snippets.multihead'}; {} for an include of no Python file."""
    py = [f for f in part.files if f.endswith(".py")]
    if not py:
        return {}
    tree = ast.parse(strip_magics(part.text))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name: module_name(py[0]) for node in tree.body if isinstance(node, kinds)}


def _members(cls: ast.ClassDef) -> list[str]:
    """Names a class body defines: methods, nested classes, class attributes."""
    names = []
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names.append(node.target.id)
    return names


def unshown_members(part, defined: set[str] = frozenset(), root=ROOT) -> str:
    """Code that completes each class the include shows in part: the methods its module's class has and the
    page does not show (a helper such as `_check`) are the package's (snippets.notebook.borrow_methods),
    reading the notebook's names, so that the notebook's class works like the package's; "" when the page
    shows every class whole. What those methods read that no cell defines is imported first.
    """
    py = [f for f in part.files if f.endswith(".py")]
    if not py:
        return ""
    source = (root / py[0]).read_text(encoding="utf-8")
    module_tree, _ = _module_tree(root / py[0])
    full = {n.name: n for n in module_tree.body if isinstance(n, ast.ClassDef)}
    tree = ast.parse(strip_magics(part.text))
    bound = set(defined) | bound_names(tree)
    blocks = []
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or cls.name not in full:
            continue
        shown = set(_members(cls))
        missing = [n for n in full[cls.name].body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.name not in shown]
        others = sorted(set(_members(full[cls.name])) - shown - {n.name for n in missing})
        if others:
            raise ValueError(f"expected the part of {cls.name} that {py[0]} does not show on the page to be "
                             f"methods, it also holds {others}")
        if not missing:
            continue
        code = "\n".join(textwrap.dedent(ast.get_source_segment(source, n, padded=True)) for n in missing)
        names = [n for n in free_names(code) if n not in bound and n != cls.name]
        package = f"_{cls.name}"
        lines = [f"# the methods of {cls.name} the page does not show: the package's,",
                 "# reading this notebook's names"]
        imports = context_imports(py[0], names, root)
        lines += [imports] if imports else []
        lines += [_from_import(module_name(py[0]), [f"{cls.name} as {package}"]),
                  "from snippets.notebook import borrow_methods", "",
                  *_call_lines(f"borrow_methods({cls.name}, {package}, ", [n.name for n in missing], "globals()")]
        bound |= bound_names(ast.parse("\n".join(lines)))
        blocks.append("\n".join(lines))
    return "\n\n\n".join(blocks)


def use_lines(shown: dict[str, str], lang: str) -> str:
    """The lines that end a cell of definitions: the cells below and the lesson code they call use them
    (snippets.notebook.use_definitions), so that a reader's edit reaches every result below.

    >>> print(use_lines({"f": "snippets.heads"}, "en"))
    # the cells below (and the lesson code they call) use these definitions
    from snippets.notebook import use_definitions
    use_definitions(globals(), "snippets.heads", ["f"])
    """
    modules = sorted(set(shown.values()))
    if len(modules) != 1:
        raise ValueError(f"expected the definitions of one include to come from one module, got {modules}")
    start = f'use_definitions(globals(), "{modules[0]}", '
    one = _list_lines(start, list(shown), 78)
    call = one if len(one) == 1 else [start.rstrip(), *_list_lines(" " * len("use_definitions("), list(shown), 78)]
    call[-1] += ")"
    return "\n".join([text(lang, "notebooks.use"), "from snippets.notebook import use_definitions", *call])


def _call_lines(start: str, names: list[str], last: str, width: int = 79) -> list[str]:
    """`start + [names], last)` wrapped under the opening parenthesis when wider than width."""
    one = f"{start}{names!r}, {last})".replace("'", '"')
    if len(one) <= width:
        return [one]
    pad = " " * (start.index("(") + 1)
    return [start.rstrip(), *_list_lines(pad, names, width - 1)[:-1], _list_lines(pad, names, width - 1)[-1] + ",",
            f"{pad}{last})"]


def _same_object(module: str, name: str, home: str) -> bool:
    """Whether `from module import name` gives the object defined in home (the same module, or a re-export)."""
    if module == home:
        return True
    import importlib

    try:
        return getattr(importlib.import_module(module), name) is getattr(importlib.import_module(home), name)
    except (ImportError, AttributeError):
        return False


def drop_shadowing_imports(code: str, shown: dict[str, str]) -> str:
    """The code without the names it imports that an earlier cell defines as the page shows them, so that
    it calls that cell's definition (edit the definition, and what this cell prints follows).

    >>> drop_shadowing_imports("from snippets.heads import f, g\\nprint(f(), g())", {"f": "snippets.heads"})
    'from snippets.heads import g\\nprint(f(), g())'
    >>> drop_shadowing_imports("from snippets.heads import f\\n\\nprint(f())", {"f": "snippets.heads"})
    'print(f())'
    """
    if not shown:
        return code
    lines = code.split("\n")
    tree = ast.parse(strip_magics(code))
    edits = []
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        keep = [a for a in node.names
                if not ((a.asname or a.name) == a.name and a.name in shown
                        and _same_object(node.module, a.name, shown[a.name]))]
        if len(keep) == len(node.names):
            continue
        names = [a.name + (f" as {a.asname}" if a.asname else "") for a in keep]
        edits.append((node.lineno - 1, node.end_lineno, _from_import(node.module, names) if keep else None))
    for start, end, replacement in reversed(edits):
        if replacement is None:
            # the line goes, and with it a blank line it would leave at the top or doubled
            if end < len(lines) and not lines[end].strip() and (start == 0 or not lines[start - 1].strip()):
                end += 1
            lines[start:end] = []
        else:
            lines[start:end] = replacement.split("\n")
    return "\n".join(lines)


def record_origins(code: str, origins: dict, part) -> None:
    """Note in origins what each top-level name the cell binds refers to: the object an import gives, the
    module's own object for what an include binds (a definition, a constant), None for anything else."""
    import importlib

    py = [f for f in part.files if f.endswith(".py")] if part.kind == "include" else []
    for node in ast.parse(strip_magics(code)).body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level and node.module != "__future__":
            try:
                module = importlib.import_module(node.module)
            except ImportError:
                module = None
            for a in node.names:
                origins[a.asname or a.name] = getattr(module, a.name, None)
        elif not isinstance(node, ast.Import):
            # an include's code is its module's: what it binds is what the module binds
            module = importlib.import_module(module_name(py[0])) if py else None
            for name in bound_names(ast.Module(body=[node], type_ignores=[])):
                origins[name] = getattr(module, name, None)


def shadowed_names(defined: set[str], origins: dict, part) -> set[str]:
    """The names of `defined` that a cell above bound to something other than what they are in the module
    the include `part` comes from (constants that are equal count as the same)."""
    import importlib

    py = [f for f in part.files if f.endswith(".py")]
    if not py:
        return set()
    module = importlib.import_module(module_name(py[0]))
    shadowed = set()
    for name in defined:
        before, here = origins.get(name), getattr(module, name, None)
        if before is None or here is None or before is here:
            continue
        if isinstance(here, (int, float, str, tuple, frozenset, bool)) and type(before) is type(here) \
                and before == here:
            continue
        shadowed.add(name)
    return shadowed


def first_edit(stem: str, lang: str) -> str:
    """The edit the notebook of page `stem` suggests a reader tries first ("" if none is written yet)."""
    try:
        return text(lang, f"notebooks.edit.{stem}")
    except ValueError:
        return ""


def _heading(level: int, title: str) -> str:
    return f"{'#' * level} {title}"


def build_notebook(markdown: str, stem: str, lang: str, *, site_url: str = "", expand=None, source: str = ""):
    """The notebook for one page (unexecuted), or None when the page has no code.

    expand: a snippet_expander, called with the page's language (the code's comments follow it)."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    from .wheel import wheel_name

    check_lang(lang)
    expand = expand or snippet_expander()
    # the include's comments and docstrings in the page's language (sitebuild.code_comments)
    parts = page_parts(markdown, expand=lambda line: expand(line, lang=lang))
    files = sorted({f for p in parts for f in p.files})
    if not any(p.kind != "heading" for p in parts):
        return None
    top = next((p for p in parts if p.kind == "heading" and p.level == 1), None)
    title = top.text if top else stem
    code = "\n".join(strip_magics(p.text) for p in parts if p.kind in ("include", "exec"))
    need = needs(code, files)
    setup = [run_instructions(lang)]
    setup += [text(lang, f"notebooks.setup_{k}") for k in ("results", "computes") if need[k]]
    setup += [first_edit(stem, lang)] if first_edit(stem, lang) else []
    intro = new_markdown_cell(_heading(1, f"{title} · Notebook") + "\n\n"
                              + text(lang, "notebooks.intro", title=title, url=page_url(stem, lang, site_url))
                              + "\n\n" + "\n\n".join(setup))
    intro.metadata["mha"] = {"ids": [top.id] if top and top.id else []}
    cells = [intro, new_code_cell(setup_cell(site_url, need, lang=lang))]
    defined: set[str] = set()
    showing: dict[str, str] = {}  # functions and classes a cell defines as the page shows them -> their module
    origins: dict[str, object] = {}  # name -> the object a cell above bound it to (None: not known)
    pending: dict[int, tuple[str, str]] = {}
    hiding = ""  # the collapsed block whose code cells are being added
    for part in parts:
        if part.kind == "heading":
            hiding = ""
            if part.level > 1:
                pending = {lvl: t for lvl, t in pending.items() if lvl < part.level}
                pending[part.level] = (part.text, part.id)
            continue
        if pending:
            shown = sorted(pending.items())
            cell = new_markdown_cell("\n\n".join(_heading(lvl, t) for lvl, (t, _) in shown))
            cell.metadata["mha"] = {"ids": [i for _, (_, i) in shown]}
            cells.append(cell)
            pending = {}
        if part.collapsed and part.collapsed != hiding:
            # A solution: a cell to try it in first, then its code, collapsed as on the page.
            cells.append(new_code_cell(text(lang, "notebooks.try")))
            cells.append(new_markdown_cell(text(lang, "notebooks.hidden", title=part.collapsed)))
        hiding = part.collapsed
        first = len(cells)
        code = part.text
        if part.kind == "include":
            # a name an earlier cell bound to another object (two modules' SEEDS or _check_task) is imported
            # again, so that the code the page shows means what it means in its module
            context = defined - shadowed_names(defined, origins, part)
            rest = unshown_members(part, context)
            code = with_context(replace(part, text=f"{part.text}\n\n\n{rest}") if rest else part, context)
            defined |= context
            here = shown_definitions(part)
            showing.update(here)
            if here:
                code += "\n\n\n" + use_lines(here, lang)
        else:
            code = drop_shadowing_imports(code, showing)
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
        defined |= bound_names(ast.parse(strip_magics(code)))
        record_origins(code, origins, part)
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": dict(KERNEL),
        "language_info": {"name": "python"},
        "mha": {"page": source or f"docs/{stem}.{lang}.md", "lang": lang, "files": files, "needs": need,
                # what changes with where the site is served and with any lesson file, not with this
                # notebook's code: its executed copy is kept (and its cache key made) without them
                "site_url": site_url.rstrip("/"), "wheel": wheel_name()},
    })
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"  # stable ids: the same page gives the same file
    nbformat.validate(nb)
    return nb


def heading_ids(nb) -> list[str]:
    """The page's heading ids, in the order the notebook's markdown cells show those headings."""
    return [i for cell in nb.cells if cell.cell_type == "markdown" for i in cell.metadata.get("mha", {}).get("ids", [])]
