"""Two wings and their boundary: lesson code (snippets) never imports the site machinery (sitebuild).

Both stand on resultcache (cache root and fingerprints), which imports neither. The import graph
between project modules has no cycle, and no module changes sys.path or the working directory.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGES = ("snippets", "sitebuild", "resultcache")
ALLOWED = {"snippets": {"snippets", "resultcache"}, "resultcache": {"resultcache"},
           "sitebuild": {"sitebuild", "snippets", "resultcache"}}


def module_of(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def imports_of(path: Path, root: Path) -> set[str]:
    """Project modules a file imports (a `from x import y` counts as x.y when y is a module, else x)."""
    module = module_of(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level \
                else node.module or ""
            names = [f"{base}.{a.name}" if existing(f"{base}.{a.name}", root) else base for a in node.names]
        else:
            continue
        found |= {n for n in names if n.split(".")[0] in PACKAGES and n != module}  # __main__ re-import
    return found


def existing(name: str, root: Path) -> bool:
    p = root.joinpath(*name.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (root / pkg).rglob("*.py") if "__pycache__" not in p.parts]
    return {module_of(p, root): imports_of(p, root) for p in files}


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(g.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(g):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_snippets_never_import_the_machinery():
    bad = {m: sorted(i for i in deps if i.split(".")[0] not in ALLOWED[m.split(".")[0]])
           for m, deps in graph().items()}
    assert not {m: d for m, d in bad.items() if d}, "a wing imports across the boundary"


def test_the_import_graph_has_no_cycle():
    assert find_cycle(graph()) is None, f"import cycle: {' -> '.join(find_cycle(graph()))}"


def test_the_checks_can_fail(tmp_path):
    """The same checks on a small made-up project that breaks both rules."""
    (tmp_path / "snippets").mkdir()
    (tmp_path / "sitebuild").mkdir()
    (tmp_path / "snippets" / "__init__.py").write_text("")
    (tmp_path / "sitebuild" / "__init__.py").write_text("")
    (tmp_path / "snippets" / "a.py").write_text("from sitebuild import b\n")
    (tmp_path / "sitebuild" / "b.py").write_text("from snippets.a import x\n")
    (tmp_path / "resultcache").mkdir()
    (tmp_path / "resultcache" / "__init__.py").write_text("")
    g = graph(tmp_path)
    assert g["snippets.a"] == {"sitebuild.b"}
    assert find_cycle(g) == ["sitebuild.b", "snippets.a", "sitebuild.b"]


PATH_HACKS = ("sys.path", "chdir(", "MHA_REPO")


@pytest.mark.parametrize("needle", PATH_HACKS)
def test_no_path_hacks(needle):
    """The project is installed (pip install -e .); nothing finds it by changing paths."""
    files = [p for pkg in (*PACKAGES, "tests", "docs") for p in (ROOT / pkg).rglob("*")
             if p.suffix in (".py", ".md") and "__pycache__" not in p.parts]
    files += [ROOT / "README.md", ROOT / "mkdocs.yml", ROOT / "pyproject.toml"]
    hits = [str(p.relative_to(ROOT)) for p in files if needle in p.read_text(encoding="utf-8")
            and p.name != "test_architecture.py"]
    assert not hits


# Names each committed protocol defines as its interface (sitebuild.results and sitebuild.integrity call
# protocol.jobs() and protocol.run_one(*job) of each), and helpers inside the files the committed results'
# fingerprints cover: renaming one there makes a committed result stale, to be retrained (hours of CPU).
# Anything else is defined once.
PROTOCOL_INTERFACE = {"jobs", "run_one", "setting_label", "encode_state", "decode_state", "evaluate", "measure",
                      "train_kept", "load_model"}


def public_definitions(root: Path) -> dict[str, list[str]]:
    """{name: [files]} of every public top-level function and class under root/snippets."""
    found: dict[str, list[str]] = {}
    for f in sorted((root / "snippets").rglob("*.py")):
        for node in ast.parse(f.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(f.relative_to(root).as_posix())
    return found


def test_one_definition_per_public_name():
    twice = {n: fs for n, fs in public_definitions(ROOT).items() if len(fs) > 1 and n not in PROTOCOL_INTERFACE}
    assert not twice, f"public names defined in more than one module of snippets/: {twice}"


def test_no_strings_module_is_long():
    long = {p.relative_to(ROOT).as_posix(): n for p in [ROOT / "snippets" / "i18n.py",
                                                        *(ROOT / "snippets" / "words").glob("*.py")]
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, f"strings modules over 600 lines: {long}"
