"""Search finds what a reader types: the parts of a compound term, and 键值缓存 where pages say KV 缓存.

Material's search plugin cuts Chinese with jieba, and jieba's user dictionary (docs/.snippets/
jieba-user.txt, from sitebuild/terms.py) keeps the site's compound terms whole, so that 因果掩码 is
found and highlighted as one word. The reader's query is matched by prefix (`掩码*`), so a word kept
whole hides the words inside it: 掩码 did not find a page that only says 因果掩码, nor 嵌入 one that
only says 位置嵌入.

After each language's pages are indexed (before mkdocs-static-i18n collects the entries, at -100),
every index entry whose text holds a dictionary compound gets a `parts` field: the words jieba's
search mode finds inside it that the compound ends with or that the dictionary has (因果掩码 → 掩码,
多头注意力 → 注意力; a part the compound starts with, 因果, already matches by prefix and is left
out), and the synonyms in SYNONYMS (键值缓存 for KV 缓存). mkdocs.yml declares
the field to the search plugin (`fields: {parts: ...}`), so the browser indexes it like the text but
never shows it: the result's title and text stay as the page wrote them.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache

from mkdocs.plugins import event_priority

from sitebuild.terms import TABLE, jieba_words

# Both lists live in sitebuild/terms.toml's [search] table, with the site's other Chinese words.
_SEARCH = tomllib.loads(TABLE.read_text(encoding="utf-8")).get("search", {})
SYNONYMS = {word: re.compile(pattern) for word, pattern in _SEARCH.get("synonyms", {}).items()}
NOT_PARTS = frozenset(_SEARCH.get("not_parts", ()))
LEADING_PARTS = tuple(_SEARCH.get("leading_parts", ()))

_HAN = re.compile(r"[\u4e00-\u9fff]+")


@lru_cache(maxsize=None)
def compound_parts(word: str) -> tuple[str, ...]:
    """The words inside `word` that a prefix search for them would not find, in jieba's order: the
    words it ends with (因果掩码 → 掩码) and the site's dictionary words inside it, less NOT_PARTS.

    >>> compound_parts("因果掩码")
    ('掩码',)
    >>> compound_parts("多头注意力")
    ('注意力',)
    >>> compound_parts("热力图")
    ()
    >>> compound_parts("掩码")
    ()
    >>> compound_parts("缩放点积注意力")[-1]  # a leading part readers type (terms.toml [search] leading_parts)
    '缩放点积'
    """
    import jieba

    jieba.add_word(word, 100000)  # as the user dictionary has it (a no-op when already loaded)
    parts = []
    for part in jieba.cut_for_search(word):
        if len(part) < 2 or not _HAN.fullmatch(part) or word.startswith(part) or part in NOT_PARTS:
            continue
        if (word.endswith(part) or part in _dictionary()) and part not in parts:
            parts.append(part)
    parts += [lead for lead in LEADING_PARTS if word.startswith(lead) and word != lead and lead not in parts]
    return tuple(parts)


@lru_cache(maxsize=1)
def _dictionary() -> frozenset[str]:
    return frozenset(jieba_words())


@lru_cache(maxsize=1)
def _compounds() -> re.Pattern:
    words = [w for w in jieba_words() if compound_parts(w)]
    return re.compile("|".join(map(re.escape, words)))  # longest first, as jieba_words sorts them


def search_parts(text: str) -> list[str]:
    """The extra words to index for `text`: parts of the compounds in it, then synonyms; each once.

    >>> search_parts("用\u200b因果掩码\u200b遮住未来；KV 缓存")
    ['掩码', '键值缓存']
    >>> search_parts("no Chinese here")
    []
    """
    found: list[str] = []
    for match in _compounds().finditer(text):
        for part in compound_parts(match.group(0)):
            if part not in found:
                found.append(part)
    for word, pattern in SYNONYMS.items():
        if pattern.search(text) and word not in found:
            found.append(word)
    return found


def add_parts(entries: list[dict]) -> None:
    """Give every entry that needs one a `parts` field (words separated by U+200B, like jieba's cuts)."""
    for entry in entries:
        parts = search_parts(entry.get("title", "") + "\u200b" + entry.get("text", ""))
        if parts:
            entry["parts"] = "\u200b".join(parts)


@event_priority(-50)  # after the search plugin's on_post_build, before mkdocs-static-i18n (-100) collects the entries
def on_post_build(config):
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    index = getattr(plugin, "search_index", None)
    if index is not None:
        add_parts(index.entries)
