"""The MkDocs hooks named in mkdocs.yml, and what more than one of them needs."""

from __future__ import annotations

__all__ = ["build_language"]


def build_language(config) -> tuple[str, str]:
    """(language being built, default language): mkdocs-static-i18n builds the site once per language."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return config.theme.get("language", "zh"), config.theme.get("language", "zh")
    return i18n.current_language, i18n.default_language
