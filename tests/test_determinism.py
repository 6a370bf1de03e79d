"""Determinism: two clean builds of the site are byte-identical (HTML, search index, everything).

The session's `built_site` is the first build (usually from a warm cache); this test makes one more
into a fresh folder with EMPTY caches (a new MHA_CACHE_DIR), from a copy of the checkout in another
folder: every model is trained, every block and notebook runs again. So this also shows that a cached
result renders exactly like a computed one, and that no page depends on where the checkout or its cache
lives (a path printed into a notebook's output would differ).
Figures must carry no dates and no random ids.

This second build cannot share the session's cache: a warm build reads every block's output and every
figure back from it, so random ids, dates or training that differs between runs would go unseen. From
a fresh clone (CI) both builds are cold; these two are the only full builds of a test session. The
second runs in the background at the lowest CPU priority while the other tests run (tests/conftest.py),
and this test, ordered last, waits for it.

Timings on pages are committed measurements (results/, shown with their provenance), never
measured during the build, so nothing is exempt: TIMED lists files allowed to differ, and it is
empty. Keep it so.
"""

from __future__ import annotations

import difflib
import filecmp
import re
from pathlib import Path

import pytest
from conftest import BUILDS, build_site, copy_checkout, finish_build


def tree(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def first_difference(a: Path, b: Path) -> str:
    try:
        la, lb = a.read_text(encoding="utf-8"), b.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return "(binary)"
    # Long lines (inline SVG) are cut into pieces so the report shows where they part.
    pieces = lambda s: re.findall(r".{1,160}", s, re.S)  # noqa: E731
    diff = difflib.unified_diff(pieces(la), pieces(lb), lineterm="", n=0)
    return "\n".join(list(diff)[2:8])


# Files allowed to differ between two clean builds: none.
TIMED: set[str] = set()


@pytest.mark.slow
def test_two_clean_builds_are_identical(built_site, tmp_path):
    if "again" in BUILDS:  # started in the background by conftest when the first build was done
        code, output, again = finish_build("again")
    else:
        again = tmp_path / "site"
        proc = build_site(again, extra_env={"MHA_CACHE_DIR": str(tmp_path / "another-cache")},
                          checkout=copy_checkout(tmp_path / "elsewhere" / "another-checkout"))
        code, output = proc.returncode, proc.stderr[-4000:]
    assert code == 0, output
    first, second = tree(built_site), tree(again)
    assert first == second, f"files only in one build: {sorted(first ^ second)[:20]}"
    assert any(p.endswith("search/search_index.json") for p in first)
    differ = [p for p in sorted(first - TIMED) if not filecmp.cmp(built_site / p, again / p, shallow=False)]
    report = "\n\n".join(f"{p}:\n{first_difference(built_site / p, again / p)}" for p in differ[:5])
    assert not differ, f"{len(differ)} files differ between two builds, e.g.\n{report}"


SVG = re.compile(r"<svg\b.*?</svg>", re.S)
DATE = re.compile(r"<dc:date>|\b(?:19|20)\d\d-\d\d-\d\dT\d\d:\d\d")


def test_figures_carry_no_dates(built_site):
    dated = []
    for html in built_site.rglob("*.html"):
        for svg in SVG.findall(html.read_text(encoding="utf-8")):
            if DATE.search(svg):
                dated.append(f"{html.relative_to(built_site)}: {DATE.search(svg).group(0)}")
    assert not dated, dated
