"""The interface in the page's language where the theme and its plugins leave English.

- The heading anchors' tooltip: Python-Markdown's toc extension writes title="Permanent link" on every
  page, and markdown_extensions cannot differ per language (mkdocs-static-i18n forbids overriding
  them), so Chinese pages get 永久链接 here.
- The 404 page: Material's template says "404 - Not found" in every language, and every language's
  build writes it to the site's root, so the root 404.html was the last language built (English).
  Each language's 404 now gets a heading and a way home in its language; the root 404.html is the
  default language's (Chinese), which also offers the English home page, and the English one is
  written to /en/404.html.

- The search dialog: Material marks its search box role="dialog" with no accessible name, which
  axe reports as serious (aria-dialog-name) whenever the dialog is in the accessibility tree; it gets
  an aria-label in the page's language.

The palette toggle's names need no code: mkdocs.yml gives them in Chinese and
mkdocs-static-i18n's per-language theme option (languages[en].theme.palette) in English.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from snippets.i18n import LANGS, text

DEFAULT = "zh"  # the default language: its pages sit at the root, and so does its 404 page
PERMALINK = {lang: text(lang, "ui.permalink") for lang in LANGS}
SEARCH_DIALOG = {lang: text(lang, "ui.search_dialog") for lang in LANGS}
NOT_FOUND = {lang: tuple(text(lang, "ui.not_found")) for lang in LANGS}  # heading, sentence, link home

_HEADERLINK = re.compile(r'(<a class="headerlink" href="[^"]*" title=")Permanent link(")')
_NOT_FOUND_H1 = "<h1>404 - Not found</h1>"


def language(config) -> str:
    """The language being built: mkdocs-static-i18n sets theme.language for each one."""
    return "en" if str(config.theme.get("language", "zh")).startswith("en") else "zh"


def localise_permalinks(html_text: str, lang: str) -> str:
    """The page with its heading anchors' tooltip in `lang`.

    >>> localise_permalinks('<h2 id="a">A<a class="headerlink" href="#a" title="Permanent link">&para;</a></h2>', "zh")
    '<h2 id="a">A<a class="headerlink" href="#a" title="永久链接">&para;</a></h2>'
    """
    return _HEADERLINK.sub(lambda m: m.group(1) + PERMALINK[lang] + m.group(2), html_text)


_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


def name_search_dialog(html_text: str, lang: str) -> str:
    """The page with Material's search dialog named in `lang` (pages without search unchanged).

    >>> name_search_dialog('<div class="md-search" data-md-component="search" role="dialog">', "zh")
    '<div class="md-search" data-md-component="search" role="dialog" aria-label="搜索">'
    """
    return html_text.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + f' aria-label="{SEARCH_DIALOG[lang]}">', 1)


def not_found_body(lang: str, home: str, english_home: str | None = None) -> str:
    """The 404 page's content in `lang`; on the default (Chinese) one also a link to the English home."""
    title, sentence, back = NOT_FOUND[lang]
    space = text(lang, "ui.space_after_sentence")  # none after Chinese punctuation
    body = f'<h1>{title}</h1>\n<p>{html.escape(sentence)}{space}<a href="{home}">{back}</a></p>'
    if english_home:
        en_title, _, en_back = NOT_FOUND["en"]
        body += f'\n<p lang="en">{en_title.split(" - ", 1)[1]}. <a href="{english_home}" hreflang="en">{en_back} (English)</a></p>'
    return body


def on_page_content(html_text: str, page, config, files) -> str:
    lang = language(config)
    return localise_permalinks(html_text, lang)  # English pages already say "Permanent link"


def on_post_page(output: str, page, config) -> str:
    return name_search_dialog(output, language(config))


_root_404: dict[str, str] = {}  # the default language's 404 page, kept for the root while English is built


def on_post_template(output: str, template_name: str, config) -> str:
    if template_name != "404.html":
        return output
    if _NOT_FOUND_H1 not in output:
        raise ValueError("Material's 404 heading was not found: the theme changed, update sitebuild/hooks/interface_lang.py")
    lang = language(config)
    output = name_search_dialog(output, lang)
    # A 404 page is served at any depth, so its links are absolute, from site_url's path (as the theme's are).
    root = re.sub(r"^[a-z]+://[^/]+", "", config.site_url or "/")
    default = lang == DEFAULT
    root = root if default else root.removesuffix("en/")
    body = not_found_body(lang, root + ("" if default else "en/"), root + "en/" if default else None)
    output = output.replace(_NOT_FOUND_H1, body, 1)
    if default:
        _root_404["html"] = output
        return output
    # English: its own file under en/, and the root keeps the default language's page
    target = Path(config.site_dir) / "en" / "404.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(output.encode("utf-8"))
    return _root_404.get("html", output)
