"""The built site's interface in each page's language, and a search index that finds what readers type
(issue 36, items 5 and 6). The browser checks the same in Chromium: tests/browser/test_interface_lang.py
and tests/browser/test_search.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sitebuild.hooks.interface_lang import NOT_FOUND, PERMALINK, SEARCH_DIALOG
from sitebuild.terms import SEARCH_WORDS, jieba_words

TOGGLES = {"zh": ("切换到深色模式", "切换到浅色模式"), "en": ("Switch to dark mode", "Switch to light mode")}


def pages(site: Path, lang: str) -> list[Path]:
    found = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site).parts
        if rel[0] == "search" or (rel[0] == "en") != (lang == "en"):
            continue
        found.append(html)
    return found


def test_heading_anchors_and_palette_toggle_speak_the_pages_language(built_site):
    for lang, other in (("zh", "en"), ("en", "zh")):
        checked = 0
        for html in pages(built_site, lang):
            text = html.read_text(encoding="utf-8")
            where = html.relative_to(built_site)
            assert f'title="{PERMALINK[other]}"' not in text, f"{where}: an anchor's tooltip is {PERMALINK[other]!r}"
            if 'class="headerlink"' in text:
                assert f'title="{PERMALINK[lang]}"' in text, where
                checked += 1
            if "data-md-component=\"palette\"" in text:
                for name in TOGGLES[lang]:
                    assert f'aria-label="{name}"' in text, f"{where}: no palette toggle named {name!r}"
                for name in TOGGLES[other]:
                    assert name not in text, f"{where}: the other language's toggle name {name!r}"
        assert checked > 10, f"only {checked} {lang} pages have heading anchors"


def test_the_search_dialog_has_a_name_in_the_pages_language(built_site):
    """axe's aria-dialog-name: Material's search box is role="dialog" and had no accessible name."""
    for lang in ("zh", "en"):
        found = pages(built_site, lang)
        assert len(found) > 10
        for html in found:
            text = html.read_text(encoding="utf-8")
            dialogs = re.findall(r'<div class="md-search"[^>]*>', text)
            assert dialogs == [f'<div class="md-search" data-md-component="search" role="dialog" '
                               f'aria-label="{SEARCH_DIALOG[lang]}">'], (html.relative_to(built_site), dialogs)


def test_404_pages_in_their_language(built_site):
    zh = (built_site / "404.html").read_text(encoding="utf-8")
    en = (built_site / "en" / "404.html").read_text(encoding="utf-8")
    assert '<html lang="zh"' in zh and '<html lang="en"' in en
    assert "404 - Not found" not in zh + en
    assert NOT_FOUND["zh"][0] in zh and 'href="/en/" hreflang="en"' in zh  # the default language's 404 offers English
    assert NOT_FOUND["en"][0] in en and NOT_FOUND["zh"][0] not in en


def index(site: Path) -> dict:
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))


def test_search_keeps_readers_words_whole(built_site):
    """The [search] words are in jieba's user dictionary, so the index has each one as a whole word."""
    assert set(SEARCH_WORDS) <= set(jieba_words())
    data = index(built_site)
    tokens = set()
    for doc in data["docs"]:
        tokens.update(re.split(data["config"]["separator"], doc["title"] + " " + doc["text"]))
    for word in ("快速路径", "查询头", "注意力分布", "预训练", "因果掩码", "位置嵌入"):
        assert word in tokens, f"{word} is not a whole word in the search index"


def test_search_index_has_parts_of_compounds_and_synonyms(built_site):
    data = index(built_site)
    assert "parts" in data["config"]["fields"]
    docs = [d for d in data["docs"] if not d["location"].startswith("en/")]

    def parts(d):
        return d.get("parts", "").split("\u200b")

    for compound, part in (("因果掩码", "掩码"), ("位置嵌入", "嵌入"), ("输出投影", "投影")):
        with_it = [d for d in docs if compound in d["text"]]
        assert with_it, compound
        assert all(part in parts(d) for d in with_it), f"{compound}: {part} missing from some entries' parts"
    kv = [d for d in docs if re.search(r"KV[\s\u200b]*缓存", d["text"])]
    assert kv and all("键值缓存" in parts(d) for d in kv)
    # the field holds only what a reader might type: no English, nothing shown on the page
    assert all(re.fullmatch(r"[\u4e00-\u9fff\u200b]+", d["parts"]) for d in data["docs"] if "parts" in d)
