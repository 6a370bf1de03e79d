"""The letters the site uses for sizes, defined in one place and printed where a page first uses them.

>>> print(legend("en"))
**Symbols**: N batch size · L query length (tokens) · S key length · T = L = S, when a sequence attends to itself · E = `d_model`, the model's width · h number of heads · d_k = E / h, one head's width
>>> legend("fr")
Traceback (most recent call last):
...
ValueError: lang must be one of ('zh', 'en'), got 'fr'
"""

from __future__ import annotations

from .i18n import check_lang, text

__all__ = ["SYMBOLS", "legend"]

SYMBOLS = ("N", "L", "S", "T", "E", "h", "d_k")  # the order of the legend, as in the shape comments


def legend(lang: str) -> str:
    """One line of Markdown: every symbol and what it stands for, in lang."""
    check_lang(lang)
    parts = [f"{s} {text(lang, f'symbols.{s}')}" for s in SYMBOLS]
    return f"**{text(lang, 'symbols.title')}**{text(lang, 'symbols.colon')}" + " · ".join(parts)
