"""Markdown tables for markdown-exec blocks to print.

>>> print(md_table(["a", "b"], [[1, 2.5]]))
| a | b |
|---|---|
| 1 | 2.5 |

A ``|`` in a cell is escaped, so it stays text instead of ending the cell:

>>> print(md_table(["max |d|"], [["`a|b`"]]))
| max \\|d\\| |
|---|
| <code>a&#124;b</code> |
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

__all__ = ["md_table", "md_cell", "rounded", "check_rows"]

_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def md_cell(value: object) -> str:
    """A value as the text of one Markdown table cell that no renderer splits or breaks.

    ``|`` ends a cell in Python-Markdown and in Jupyter's renderer alike, so it is escaped as
    ``\\|``. Inside a code span the two renderers disagree about ``\\|``, so a code span that holds a
    ``|`` becomes an HTML ``<code>`` element with the bar as ``&#124;``. A line break would end
    the row, so it becomes a space.

    >>> md_cell("max |a - b|")
    'max \\\\|a - b\\\\|'
    >>> md_cell("`x | y` or `z`")
    '<code>x &#124; y</code> or `z`'
    """
    text = " ".join(str(value).splitlines())
    out, last = [], 0
    for m in _CODE_SPAN.finditer(text):
        out.append(text[last:m.start()].replace("|", "\\|"))
        code = m.group(2)
        if "|" in code:
            code = html.escape(code.strip(), quote=False).replace("|", "&#124;")
            out.append(f"<code>{code}</code>")
        else:
            out.append(m.group(0))
        last = m.end()
    out.append(text[last:].replace("|", "\\|"))
    return "".join(out)


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
    lines = ["| " + " | ".join(map(md_cell, headers)) + " |", "|" + "|".join(sep) + "|"]
    lines += ["| " + " | ".join(map(md_cell, row)) + " |" for row in rows]
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
