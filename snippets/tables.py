"""Markdown tables for markdown-exec blocks to print.

>>> print(md_table(["a", "b"], [[1, 2.5]]))
| a | b |
|---|---|
| 1 | 2.5 |
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["md_table", "rounded", "check_rows"]


def md_table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None) -> str:
    """A Markdown table; align is one of 'l', 'c', 'r' per column (default: left)."""
    if not headers:
        raise ValueError("headers must be a non-empty sequence")
    for i, row in enumerate(rows):
        if len(row) != len(headers):
            raise ValueError(f"row {i} has {len(row)} cells, expected {len(headers)} (one per header)")
    if align is not None and len(align) != len(headers):
        raise ValueError(f"align must have one letter per column ({len(headers)}), got {align!r}")
    rule = {"l": "---", "c": ":-:", "r": "--:"}
    sep = [rule[a] for a in align] if align else ["---"] * len(headers)
    lines = ["| " + " | ".join(map(str, headers)) + " |", "|" + "|".join(sep) + "|"]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)


def rounded(values, digits: int = 3) -> list[float]:
    """A tensor or sequence as a plain list of rounded floats, for printing.

    >>> rounded([0.12345, 1.0])
    [0.123, 1.0]
    """
    values = values.tolist() if hasattr(values, "tolist") else list(values)
    return [round(float(v), digits) for v in values]


def check_rows(rows) -> list[tuple[str, ...]]:
    """(label cells ..., max difference, passed) rows as printable cells: labels, '1.2e-07', '✅' / '❌'.

    >>> check_rows([("a", 1.2e-07, True), ("b", 0.5, False)])
    [('a', '1.2e-07', '✅'), ('b', '5.0e-01', '❌')]
    >>> check_rows([("case", "reference", 0.0, True)])
    [('case', 'reference', '0.0e+00', '✅')]
    """
    for i, row in enumerate(rows):
        if len(row) < 2:
            raise ValueError(f"row {i} must end with (max difference, passed), got {row!r}")
    return [(*labels, f"{diff:.1e}", "✅" if ok else "❌") for *labels, diff, ok in rows]
