"""The site's Chinese terminology: one table, from which the glossary, the search dictionary and the
terminology test are made.

For each concept, the table (sitebuild/terms.toml, read into `TERMS`) gives the chosen Chinese term, its English counterpart and the variants not
to use (regular expressions over prose, with code, maths and URLs already masked; see
sitebuild.zhstyle). From the table come:

- docs/.snippets/glossary.md, the abbreviation list appended to every Chinese page (tooltips: the
  English term over a Chinese one), for terms marked ``tooltip``, and docs/.snippets/glossary-en.md,
  the one appended to every English page: an English definition over the term's English forms, so an
  English reader never meets a Chinese tooltip;
- docs/.snippets/jieba-user.txt, the user dictionary of Material's search plugin, so that jieba keeps
  each term whole in the search index (it splits 参数量 into 参|数量, 热力图 into 热|力图), with the
  table's [search] words, which readers type but the glossary does not define (快速路径, 查询头);
- tests/test_terms.py, which fails on a listed variant in a Chinese page or in a Chinese string that
  code prints into a page (snippets/i18n.py), and checks that the two generated files are current.

Write both files again after editing the table: ``python -m sitebuild.terms``.

>>> any(t.zh == "消融" for t in TERMS)
True
>>> "参数量" in jieba_words()
True
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / ".snippets" / "glossary.md"
GLOSSARY_EN = ROOT / "docs" / ".snippets" / "glossary-en.md"
JIEBA_USER = ROOT / "docs" / ".snippets" / "jieba-user.txt"


@dataclass(frozen=True)
class Variant:
    """A way of writing a concept that the site does not use, and what to write instead."""

    regex: str
    use: str

    @property
    def pattern(self) -> re.Pattern:
        return re.compile(self.regex)


@dataclass(frozen=True)
class Term:
    """A concept: the chosen Chinese term, the English one, and the variants not to use.

    tooltip: the glossary shows `en` over `zh` on Chinese pages; reverse: the English forms that
    show `zh` over them on English pages. search: jieba keeps `zh` whole in the search index.
    """

    zh: str
    en: str
    concept: str = ""
    avoid: tuple[Variant, ...] = ()
    tooltip: bool = True
    reverse: tuple[str, ...] | None = None  # None: (en,)
    search: bool = True
    note: str = ""
    definition: str = ""  # English; shown over the English forms on English pages

    def __post_init__(self):
        if not self.zh or not self.en:
            raise ValueError(f"a term needs its Chinese and English forms, got zh={self.zh!r}, en={self.en!r}")
        if not self.concept:
            object.__setattr__(self, "concept", self.en)

    @property
    def english_forms(self) -> tuple[str, ...]:
        return (self.en,) if self.reverse is None else self.reverse


TABLE = Path(__file__).with_name("terms.toml")


def load(path: Path = TABLE) -> tuple[tuple[Term, ...], tuple[Variant, ...], tuple[Variant, ...]]:
    """The terms, the notation checked in maths and the notation checked in prose, from the TOML table."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if not data.get("term") or "notation" not in data:
        raise ValueError(f"{path}: expected [[term]] tables and a [notation] table, got keys {sorted(data)}")
    found = []
    for entry in data["term"]:
        entry = dict(entry)
        entry["avoid"] = tuple(Variant(*pair) for pair in entry.get("avoid", ()))
        if "reverse" in entry:
            entry["reverse"] = tuple(entry["reverse"])
        found.append(Term(**entry))
    notation = data["notation"]
    return (tuple(found), tuple(Variant(*p) for p in notation["maths"]),
            tuple(Variant(*p) for p in notation["prose"]))


TERMS, NOTATION, PROSE_NOTATION = load()
# Words kept whole in the search index that are not glossary entries (the table's [search] words).
SEARCH_WORDS: tuple[str, ...] = tuple(tomllib.loads(TABLE.read_text(encoding="utf-8")).get("search", {}).get("words", ()))

HEADER = (
    "<!-- Generated from sitebuild/terms.py (python -m sitebuild.terms): edit the table there, not this file.\n"
    "     Appended to every page of its language by sitebuild/hooks/glossary.py, which shows each\n"
    "     term's tooltip. -->\n"
)


def glossary_markdown() -> str:
    """docs/.snippets/glossary.md, for Chinese pages: the English term over each Chinese term with a tooltip."""
    zh = [f"*[{t.zh}]: {t.en}" for t in TERMS if t.tooltip]
    return HEADER + "\n" + "\n".join(zh) + "\n"


def glossary_en_markdown() -> str:
    """docs/.snippets/glossary-en.md, for English pages: an English definition over each English form.

    Forms are the term's English forms when it has a tooltip, or its ``reverse`` list; a term without
    a definition gets no tooltip on English pages."""
    forms = [(form, t) for t in TERMS for form in (t.english_forms if t.tooltip else (t.reverse or ()))]
    en = [f"*[{form}]: {t.definition}" for form, t in forms if t.definition]
    return HEADER + "\n" + "\n".join(en) + "\n"


def jieba_words() -> list[str]:
    """Chinese terms the search index must keep whole, longest first."""
    words = set(SEARCH_WORDS)
    for t in TERMS:
        if t.search:
            for word in re.split(r"[\s/（）()]+", t.zh):
                if re.fullmatch(r"[\u4e00-\u9fff]{2,}", word):
                    words.add(word)
    return sorted(words, key=lambda w: (-len(w), w))


def jieba_user_dict() -> str:
    """docs/.snippets/jieba-user.txt: one word per line with a frequency that keeps it whole."""
    return "".join(f"{w} 100000 n\n" for w in jieba_words())


def write() -> list[Path]:
    """Write the generated files; return those that changed."""
    changed = []
    for path, text in ((GLOSSARY, glossary_markdown()), (GLOSSARY_EN, glossary_en_markdown()),
                       (JIEBA_USER, jieba_user_dict())):
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for p in write():
        print(f"wrote {p.relative_to(ROOT)}", file=sys.stderr)
