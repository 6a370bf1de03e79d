"""Build hook: a code block that fails says on which page it is.

markdown-exec logs a failing block's code and traceback but not the page it came from, and
`mkdocs build --strict` then stops on that warning. This hook remembers the page being converted
and appends "(page: docs/<file>)" to the first line of markdown-exec's warnings.
"""

from __future__ import annotations

import logging

_page: str | None = None


class _NamePage(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if _page and record.levelno >= logging.WARNING:
            first, sep, rest = str(record.msg).partition("\n")
            record.msg = f"{first} (page: docs/{_page}){sep}{rest}"
        return True


_FILTER = _NamePage()


def _attach() -> None:
    # markdown-exec logs through "mkdocs.plugins.markdown_exec.<module>" loggers; a logger's own
    # filters see only what is logged on it, so each one gets the filter.
    for name, logger in list(logging.root.manager.loggerDict.items()):
        if name.startswith("mkdocs.plugins.markdown_exec") and isinstance(logger, logging.Logger):
            if _FILTER not in logger.filters:
                logger.addFilter(_FILTER)


def on_page_markdown(markdown, page, config, files):
    global _page
    _attach()
    _page = page.file.src_uri
    return markdown


def on_page_content(html, page, config, files):
    global _page
    _page = None
    return html
