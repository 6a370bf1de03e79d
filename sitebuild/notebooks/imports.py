"""Which imports an included section needs, so that each notebook cell runs on its own."""

from __future__ import annotations

import ast
import functools
import builtins
import importlib.util
from pathlib import Path

from resultcache import ROOT

from .parse import Part

__all__ = ["module_name", "strip_magics", "bound_names", "free_names", "context_imports", "with_context"]


def module_name(path: str) -> str:
    """'snippets/bert/headstats.py' -> 'snippets.bert.headstats'."""
    p = Path(path).with_suffix("")
    parts = p.parts[:-1] if p.name == "__init__" else p.parts
    return ".".join(parts)


def strip_magics(code: str) -> str:
    """Code with IPython magic lines (%%capture ..., an indented %pip ...) as `pass`, so that ast can parse it.

    >>> strip_magics("if x:\\n    %pip install y\\nz = 1")
    'if x:\\n    pass\\nz = 1'
    """
    return "\n".join(ln[: len(ln) - len(ln.lstrip())] + "pass" if ln.lstrip().startswith("%") else ln
                      for ln in code.splitlines())


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
    tree = ast.parse(strip_magics(code))
    bound = bound_names(tree)
    seen: dict[str, None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id not in bound and not hasattr(builtins, node.id):
                seen.setdefault(node.id)
    return list(seen)


WIDTH = 79  # a generated import line longer than this scrolls sideways in a notebook cell at 1280 px


def _from_import(module: str, names: list[str]) -> str:
    """`from module import a, b`, or, when that line is wider than WIDTH, the names in parentheses, one line
    each (a notebook cell shows code as it is; a long line would scroll sideways)."""
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= WIDTH:
        return line
    return f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")"


def context_imports(path: str, names: list[str], root: Path = ROOT) -> str:
    """Import lines that give names the meaning they have inside the module at path."""
    module = module_name(path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    tree, defined = _module_tree(root / path)
    wanted, lines = set(names), []
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
                lines.append(_from_import(source, [a.name + (f" as {a.asname}" if a.asname else "") for a in keep]))
                wanted -= {a.asname or a.name for a in keep}
    own = [n for n in names if n in wanted and n in defined]
    if own:
        lines.append(_from_import(module, own))
    return "\n".join(lines)


def _module_tree(path: Path) -> tuple[ast.Module, frozenset[str]]:
    """A module's syntax tree and the names its body binds outside imports, read once per version of the file
    (a build asks for the same few modules hundreds of times, once per included section)."""
    stat = path.stat()
    return _module_tree_of_version(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=256)
def _module_tree_of_version(path: str, mtime_ns: int, size: int) -> tuple[ast.Module, frozenset[str]]:
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    body = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    return tree, frozenset(bound_names(ast.Module(body=body, type_ignores=[])))


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
