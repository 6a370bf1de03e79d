"""The published site never shows where it was built.

No page, notebook, search index or asset of the built site may contain the absolute path of the checkout,
the cache folder, the home folder or the folder the build wrote to: a reader would see the builder's
machine, and two builds from two folders would differ (the determinism test builds from two folders).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import ROOT

from resultcache import cache_root

TEXT = {".html", ".ipynb", ".json", ".js", ".css", ".xml", ".txt", ".md", ".svg", ".py"}


def local_paths(site: Path) -> dict[str, str]:
    """{path: what it is} for every local folder a build could leak."""
    paths = {
        str(ROOT): "the checkout",
        str(cache_root().resolve()): "the cache folder",
        str(Path.home()) + "/": "the home folder",
        str(site.resolve()): "the build's output folder",
        str(site.resolve().parent): "the folder the build wrote into",
    }
    if os.environ.get("MHA_CACHE_DIR"):
        paths[os.environ["MHA_CACHE_DIR"]] = "MHA_CACHE_DIR"
    # a top-level folder such as /tmp or /root is too short to be a leak: library code names such folders
    return {p: what for p, what in paths.items() if len(Path(p).parts) > 2 or what == "the home folder"}


def leaks(site: Path) -> list[str]:
    paths = local_paths(site)
    found = []
    for f in sorted(site.rglob("*")):
        if not f.is_file() or f.suffix not in TEXT:
            continue
        content = f.read_text(encoding="utf-8", errors="replace")
        found += [f"{f.relative_to(site)}: {what} ({p})" for p, what in paths.items() if p in content]
    return found


@pytest.mark.slow
def test_no_local_path_in_the_built_site(built_site):
    found = leaks(built_site)
    assert not found, f"{len(found)} files show a local path, e.g. {found[:10]}"


def test_the_scan_finds_a_path_planted_in_a_page(tmp_path):
    site = tmp_path / "site"
    (site / "notebooks").mkdir(parents=True)
    (site / "index.html").write_text("<p>fine</p>", encoding="utf-8")
    (site / "notebooks" / "x.ipynb").write_text(f'{{"text": "PosixPath(\'{ROOT}/results/a.json\')"}}',
                                               encoding="utf-8")
    assert leaks(site) == [f"notebooks/x.ipynb: the checkout ({ROOT})"]
