"""How a number is written on a Chinese page: one formatter for every number a template prints.

Python writes numbers for code: a hyphen for minus, ``-0.00`` for a small negative, ``1e-05`` and
``0.0e+00`` in scientific notation. A page is read, not parsed, so ``typeset`` rewrites what
``format`` produced: the minus sign U+2212, no sign on a value that rounds to zero, and powers of ten
written out (``1.2×10⁻⁷``; a zero is ``0``). ``snippets.i18n.fill`` applies it to every number field
of a Chinese template, so text(...) and the pages' sentence(...) get it without each call site
remembering; tables built with f-strings call ``typeset`` (or ``signed`` / ``zh_interval``) themselves.

>>> typeset("-16.2"), typeset("+0.056"), typeset("-0.00"), typeset("+0.0")
('−16.2', '+0.056', '0.00', '0.0')
>>> typeset("1e-05"), typeset("9.3e-01"), typeset("0.0e+00"), typeset("-2.5e+03")
('1×10⁻⁵', '9.3×10⁻¹', '0', '−2.5×10³')
>>> typeset("1,050,624"), typeset("12%"), typeset("-0%")
('1,050,624', '12%', '0%')
"""

from __future__ import annotations

import re

__all__ = ["MINUS", "typeset", "signed", "zh_interval", "grouped"]

MINUS = "\u2212"
_SUPER = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_SCI = re.compile(r"(?P<sign>[+-]?)(?P<mant>\d+(?:\.\d+)?)[eE](?P<exp>[+-]\d+)")
_ZERO = re.compile(r"[+-](?=[0.,]*%?$)")  # a sign on a value that rounds to zero


def typeset(formatted: str) -> str:
    """A number as `format` wrote it, as a page writes it (see the module's examples)."""
    m = _SCI.fullmatch(formatted)
    if m:
        if float(m["mant"]) == 0:
            return "0"
        exp = str(int(m["exp"])).translate(_SUPER)
        formatted = f"{m['sign']}{m['mant']}×10{exp}"
    if _ZERO.match(formatted) and not re.search(r"[1-9]", formatted):
        formatted = formatted[1:]
    return MINUS + formatted[1:] if formatted.startswith("-") else formatted


def signed(value: float, digits: int = 2) -> str:
    """A difference with its sign: +0.06, −2.72, and 0.00 for one that rounds to zero.

    >>> signed(0.0561), signed(-2.7249), signed(-0.001), signed(-4.8, 1)
    ('+0.06', '−2.72', '0.00', '−4.8')
    """
    return typeset(f"{value:+.{digits}f}")


def zh_interval(lo: float, hi: float, digits: int = 2, sign: bool = True) -> str:
    """An interval as the pages write it: [lo, hi], signed when `sign`.

    >>> zh_interval(-27.63, -4.81, 1), zh_interval(-0.004, 0.18), zh_interval(0.48, 0.62, sign=False)
    ('[−27.6, −4.8]', '[0.00, +0.18]', '[0.48, 0.62]')
    """
    fmt = (lambda v: signed(v, digits)) if sign else (lambda v: typeset(f"{v:.{digits}f}"))
    return f"[{fmt(lo)}, {fmt(hi)}]"


def grouped(rows):
    """rows with every integer of five digits or more written with thousands separators, for a table.

    >>> grouped([(768, 12, True, 2362368)])
    [(768, 12, True, '2,362,368')]
    """
    def cell(v):
        return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10_000 else v

    return [tuple(cell(v) for v in row) for row in rows]
