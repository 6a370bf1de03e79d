"""Command line: write every chapter's notebook to a folder, optionally executed.

    python -m sitebuild.notebooks --out notebooks --execute
    python -m sitebuild.notebooks --readme   # the README's instructions for running a notebook
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from resultcache import ROOT

from .build import build_notebook, readme_with_instructions
from .parse import language_pages, snippet_expander
from .run import execute

__all__ = ["site_settings", "all_notebooks", "code_sources", "main"]


def site_settings(config_file: Path = ROOT / "mkdocs.yml") -> tuple[str, dict]:
    """site_url and the pymdownx.snippets options from mkdocs.yml."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # ignore !!python/... tags
    # !ENV [NAME, default] as mkdocs reads it: the variable's value, else the default.
    Loader.add_constructor("!ENV", lambda loader, node: next(
        (os.environ[n] for n in loader.construct_sequence(node)[:-1] if n in os.environ),
        loader.construct_sequence(node)[-1]))
    cfg = yaml.load(config_file.read_text(encoding="utf-8"), Loader=Loader)
    options = {}
    for ext in cfg.get("markdown_extensions", []):
        if isinstance(ext, dict) and "pymdownx.snippets" in ext:
            options = ext["pymdownx.snippets"] or {}
    return cfg.get("site_url") or "", options


def all_notebooks(docs: Path = ROOT / "docs", site_url: str | None = None, options: dict | None = None):
    """Yield (stem, lang, notebook) for every page that has code, built from the pages on disk.

    site_url and the pymdownx.snippets options default to mkdocs.yml's."""
    if site_url is None or options is None:
        site_url, options = site_settings()
    expand = snippet_expander(**options)
    for stem, lang, path in language_pages(docs):
        nb = build_notebook(path.read_text(encoding="utf-8"), stem, lang, site_url=site_url, expand=expand,
                            source=f"docs/{path.relative_to(docs).as_posix()}")
        if nb is not None:
            yield stem, lang, nb


def code_sources(nb) -> list[tuple[str, str]]:
    """(cell type, source) of every cell: what must match between a written notebook and its page."""
    return [(c.cell_type, c.source) for c in nb.cells]


def main(argv: list[str] | None = None) -> int:
    import nbformat

    parser = argparse.ArgumentParser(prog="python -m sitebuild.notebooks",
                                     description="Write the chapter notebooks, generated from the pages.")
    parser.add_argument("--out", type=Path, default=ROOT / "notebooks", help="folder to write to (default: notebooks/)")
    parser.add_argument("--execute", action="store_true", help="run every notebook and keep its outputs")
    parser.add_argument("--check", action="store_true", help="only report notebooks in --out that are missing or stale")
    parser.add_argument("--readme", action="store_true",
                        help="write the instructions for running a notebook into README.md, and nothing else")
    args = parser.parse_args(argv)
    if args.readme:
        readme = ROOT / "README.md"
        readme.write_text(readme_with_instructions(readme.read_text(encoding="utf-8")), encoding="utf-8")
        print(readme)
        return 0
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
        print("missing or out of date (run python -m sitebuild.notebooks):", *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0
