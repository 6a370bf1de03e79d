"""Every word that code prints into a page, in both languages: one table, one way to look it up. The table is
merged from snippets/words/, one module per page or topic, each with a ZH and an EN dict.

Prose lives in the pages; but table headers, row labels, verdicts and sentences with measured
numbers are printed by code, so they live in the words modules, keyed by ``area.name``. Both wings read them:
lesson code (``snippets``) and the site machinery (``sitebuild``). tests/test_parity.py checks
that every key exists in both languages with the same placeholders, and that Chinese entries
are written in Chinese (except the few listed in ``SAME_IN_BOTH``, such as code names).

A value is a string, a template for ``str.format``, or a list of strings (a table header).

>>> text("en", "faq.uniform")
'uniform row'
>>> text("fr", "faq.uniform")
Traceback (most recent call last):
...
ValueError: lang must be one of ('zh', 'en'), got 'fr'
"""

from __future__ import annotations

import numbers
import re
import importlib
import string

from . import words as _words

from snippets.numfmt import typeset

__all__ = ["LANGS", "TEXT", "SAME_IN_BOTH", "check_lang", "fill", "text", "texts", "and_list"]

LANGS = ("zh", "en")

TEXT: dict[str, dict[str, str | list[str]]] = {"zh": {}, "en": {}}
for _name in _words.MODULES:
    _module = importlib.import_module(f"snippets.words.{_name}")
    for _lang, _table in (("zh", _module.ZH), ("en", _module.EN)):
        _clash = set(_table) & set(TEXT[_lang])
        if _clash:
            raise ValueError(f"keys defined in two word modules: {sorted(_clash)}")
        TEXT[_lang].update(_table)

# Entries written the same way in both languages on purpose (code names, symbols).
SAME_IN_BOTH = frozenset({
    "figs.home.join",
    "live.example_en", "live.example_zh",  # the live view's example texts: the reader may pick either
    "fast.ref_official", "bert.sep", "bert.cls", "bert.short.prev", "bert.short.next", "bert.short.sep",
    "bert.short.cls", "bert.short.broad", "bert.short.other",
    "kvheads.mha", "kvheads.gqa", "kvheads.mqa", "kvheads.mla", "kvheads.decode_speedup_part",
    "kvheads.flops_kind.mha", "kvheads.flops_kind.gqa", "kvheads.flops_kind.mqa",
    "kvheads.dec_kind.MHA", "kvheads.dec_kind.GQA", "kvheads.dec_kind.MQA", "kvheads.dec_kind.MLA",
    "figs.path.split", "figs.path.merge", "figs.params.dk", "figs.params.h", "figs.widget.sharpness",
})


def check_lang(lang: object) -> str:
    """lang itself if it is one of LANGS, else ValueError."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    return lang


def text(lang: str, key: str, **values) -> str | list[str]:
    """The entry for key in lang, filled in with values when given."""
    entry = TEXT[check_lang(lang)].get(key)
    if entry is None:
        raise ValueError(f"expected a key of snippets.i18n.TEXT, got {key!r}")
    if not values:
        return entry
    # every number a Chinese page prints is typeset (snippets.numfmt), whether or not the template has Chinese in it
    return _Counts(page_numbers=lang == "zh" or bool(_CJK.search(entry))).format(entry, **values)


class _Counts(string.Formatter):
    """str.format with one more format spec, for counts that may be zero: {k:SOME|NONE} writes SOME with
    each # replaced by k, or NONE when k is 0, so a template can say "没有一个" / "none" instead of "0 个"."""

    def __init__(self, page_numbers: bool = False):
        super().__init__()
        self.page_numbers = page_numbers
        self.values: dict = {}

    def vformat(self, format_string, args, kwargs):
        self.values = kwargs
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value, format_spec):
        if "|" not in format_spec:
            out = super().format_field(value, format_spec)
            if self.page_numbers and isinstance(value, numbers.Real) and not isinstance(value, bool):
                out = typeset(out)
            return out
        some, none, *every = format_spec.split("|", 2)
        if isinstance(value, bool) or not hasattr(value, "__index__") or value < 0:
            raise ValueError(f"a {{k:SOME|NONE}} field expects a count (an integer >= 0), got {value!r}")
        if every:  # {k:SOME|NONE|ALL=n}: ALL when k is all n
            words, _, total = every[0].rpartition("=")
            if total not in self.values:
                raise ValueError(f"a {{k:SOME|NONE|ALL=n}} field names its total n, got {format_spec!r}")
            if value == self.values[total] and value > 0:
                return words.replace("#", str(value.__index__()))
        return none if value == 0 else some.replace("#", str(value.__index__()))



_CJK = re.compile(r"[\u4e00-\u9fff]")


def fill(template: str, **values) -> str:
    """template.format(**values), where a field {k:SOME|NONE} gives its own wording to k == 0, and
    {k:SOME|NONE|ALL=n} also to k == n (all of them), so no sentence says "10 个里，10 个".

    In a Chinese template every number field is written as pages write numbers
    (snippets.numfmt.typeset: the minus sign −, no sign on a rounded zero, 1×10⁻⁵ for 1e-05).

    >>> fill("{n} 个种子里{k:有 # 个|没有一个}学会", n=10, k=0)
    '10 个种子里没有一个学会'
    >>> fill("{k:# of|none of} the {n} seeds, {acc:.0%}", n=10, k=3, acc=0.5)
    '3 of the 10 seeds, 50%'
    >>> fill("{n} 个种子{k:里有 # 个学会|里没有一个学会|全部学会=n}", n=10, k=10)
    '10 个种子全部学会'
    >>> fill("相差 {d:+.1f} 个百分点，p = {p:.1g}", d=-16.24, p=1.2e-5)
    '相差 −16.2 个百分点，p = 1×10⁻⁵'
    """
    return _Counts(page_numbers=bool(_CJK.search(template))).format(template, **values)

def and_list(lang: str, values) -> str:
    """Values as a sentence lists them: '4, 8 and 16' / '4、8 和 16'.

    >>> and_list("en", [4, 8, 16]), and_list("zh", [4, 8, 16]), and_list("en", [2])
    ('4, 8 and 16', '4、8 和 16', '2')
    """
    values = [str(v) for v in values]
    if len(values) < 2:
        return "".join(values)
    return text(lang, "list.sep").join(values[:-1]) + text(lang, "list.and") + values[-1]


def texts(lang: str, area: str) -> dict[str, str | list[str]]:
    """Every entry of one area, without the prefix: texts('en', 'bench')['fast'] == 'fused QKV + SDPA'."""
    prefix = f"{area}."
    found = {k[len(prefix):]: v for k, v in TEXT[check_lang(lang)].items() if k.startswith(prefix)}
    if not found:
        raise ValueError(f"expected an area of snippets.i18n.TEXT, got {area!r}")
    return found
