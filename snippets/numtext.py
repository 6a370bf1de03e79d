"""Numbers with their words: a paired difference or a mean with its range, as a table cell in the page's
language (the templates are snippets.i18n's "num.paired" and "num.spread"; snippets.numfmt typesets the
numbers of Chinese pages)."""

from __future__ import annotations

from .i18n import text

__all__ = ["paired", "spread"]


def paired(lang: str, mean: float, lo: float, hi: float) -> str:
    """A paired difference and its interval for a table cell, two decimals (snippets.i18n "num.paired";
    typeset on Chinese pages).

    >>> paired("zh", -2.7249, -2.771, -2.668), paired("en", -2.7249, -2.771, -2.668)
    ('−2.72 [−2.77, −2.67]', '-2.72 [-2.77, -2.67]')
    """
    return text(lang, "num.paired", mean=float(mean), lo=float(lo), hi=float(hi))


def spread(lang: str, mean: float, lo: float, hi: float) -> str:
    """A mean with its lowest and highest value, in the language's brackets (snippets.i18n "num.spread").

    >>> spread("zh", 3.47, 3.43, 3.531), spread("en", 3.47, 3.43, 3.531)
    ('3.47（3.43–3.53）', '3.47 (3.43–3.53)')
    """
    return text(lang, "num.spread", mean=float(mean), lo=float(lo), hi=float(hi))
