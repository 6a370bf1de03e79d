"""The Chinese text the style tests read: every zh page and every zh string printed into a page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from conftest import ROOT

from sitebuild import zhstyle

DOCS = ROOT / "docs"
I18N = ROOT / "snippets" / "i18n.py"


def zh_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.zh.md") if not any(s.startswith(".") for s in p.relative_to(DOCS).parts))


def page_problems(path: Path, check: Callable[[str], list[str]], maths: Callable[[str], list[str]] | None = None,
                  root: Path = ROOT) -> list[str]:
    """'file:line: problem' for each problem `check` finds in the prose of a page (and `maths` in its maths)."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
    found = [f"{name}:{n}: {p}" for n, line in zhstyle.prose_lines(text) for p in check(line)]
    if maths:
        found += [f"{name}:{n}: {p}" for n, tex in zhstyle.math_lines(text) for p in maths(tex)]
    return sorted(found, key=lambda s: int(s.split(":")[1]))


def printed_problems(check: Callable[[str], list[str]], skip: frozenset = frozenset()) -> Iterator[str]:
    """'snippets/i18n.py:line [key]: problem' for each problem in a Chinese string that code prints."""
    for n, key, value in zhstyle.printed_strings(I18N, "zh"):
        if key in skip:
            continue
        for p in check(zhstyle.printed_prose(value)):
            yield f"snippets/i18n.py:{n} [{key}]: {p}"


def report(problems: list[str]) -> str:
    return f"{len(problems)} problems:\n  " + "\n  ".join(problems)
