"""The part of JupyterLab's stylesheet that the site's notebook pages use.

mkdocs-jupyter ships about 0.6 MB of JupyterLab CSS with every rendered notebook: the styles of the
whole JupyterLab application (toolbars, dialogs, file browser, widgets...), almost all scoped under
`.jupyter-wrapper`, plus several hundred `--jp-*` custom properties. A rendered notebook uses a few
dozen of its classes. On a phone the browser parses all of it before the first paint and matches
every element against its 3,000 rules, so notebook pages painted late.

prune() keeps what can apply:
  - a selector scoped under `.jupyter-wrapper` stays unless it requires (outside :not(), :is(),
    :where(), :has()) a class of JupyterLab's own (jp-, lm-, p-, bp-, cm-, CodeMirror...) that no
    rendered notebook has. Other classes count as present: the theme's scripts add some at run time
    (Material wraps tables in .md-typeset__scrollwrap, and the stylesheet styles that);
  - selectors that are not scoped stay as they are (they can reach the page around the notebook);
  - a custom property declaration stays if a kept declaration uses it, directly or through other
    custom properties;
  - @keyframes stay if a kept declaration names them; @media and @supports keep their kept rules.
It removes only rules that cannot match and variables nothing reads, so no element's computed
style changes (tests/browser/test_notebook_pages.py compares every element's computed style with the
full stylesheet's).
"""

from __future__ import annotations

import functools
import re

import tinycss2

SCOPE = "jupyter-wrapper"
_VAR = re.compile(r"var\(\s*(--[A-Za-z0-9_-]+)")
_IDENT = re.compile(r"[A-Za-z_-][A-Za-z0-9_-]*")
# Classes that only JupyterLab's own code (absent from the site) or nbconvert's HTML (which
# classes_in sees) put on elements.
_JUPYTER_CLASS = re.compile(r"(?:jp|lm|p|bp\d*|cm|ansi)-|CodeMirror|jupyter-")


def classes_in(html_text: str) -> set[str]:
    """Every class name on an element of the HTML text."""
    found: set[str] = set()
    for value in re.findall(r'\bclass="([^"]*)"', html_text):
        found.update(value.split())
    return found


def _split_selectors(prelude) -> list[list]:
    """A rule's selector list split at its top-level commas (commas inside :is(...) stay)."""
    parts: list[list] = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return [p for p in parts if tinycss2.serialize(p).strip()]


def _required_classes(selector) -> set[str]:
    """Classes an element must carry for the selector to match (those outside functional pseudo-classes)."""
    required = set()
    for prev, token in zip([None, *selector], selector, strict=False):
        if token.type == "ident" and prev is not None and prev.type == "literal" and prev.value == ".":
            required.add(token.value)
    return required


def _can_match(selector, classes: set[str]) -> bool:
    required = _required_classes(selector)
    if SCOPE not in required:
        return True  # not JupyterLab's scoped CSS: it can reach the page around the notebook
    return all(name in classes or not _JUPYTER_CLASS.match(name) for name in required)


def _declarations(content) -> list:
    return [d for d in tinycss2.parse_declaration_list(content, skip_comments=True, skip_whitespace=True)
            if d.type == "declaration"]


def _serialize_declaration(decl) -> str:
    value = tinycss2.serialize(decl.value).strip()
    return f"{decl.name}:{value}{' !important' if decl.important else ''}"


def _keep_rules(rules, classes: set[str]) -> list:
    """Rules (and at-rules with their kept contents) whose selectors can match, as (kind, data) items."""
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = [s for s in _split_selectors(rule.prelude) if _can_match(s, classes)]
            if selectors:
                prelude = ",".join(tinycss2.serialize(s).strip() for s in selectors)
                kept.append(("rule", prelude, _declarations(rule.content)))
        elif rule.type == "at-rule":
            keyword = rule.lower_at_keyword
            if keyword in ("media", "supports") and rule.content is not None:
                inner = _keep_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                             skip_whitespace=True), classes)
                if inner:
                    kept.append(("block", f"@{rule.at_keyword} {tinycss2.serialize(rule.prelude).strip()}", inner))
            elif keyword.endswith("keyframes"):
                name = tinycss2.serialize(rule.prelude).strip()
                kept.append(("keyframes", name, tinycss2.serialize([rule])))
            elif keyword != "charset":
                kept.append(("raw", None, tinycss2.serialize([rule])))
    return kept


def _walk(kept):
    for kind, head, data in kept:
        if kind == "block":
            yield from _walk(data)
        else:
            yield kind, head, data


def _used(kept, extra: str) -> tuple[set[str], set[str]]:
    """Custom properties and keyframes names that the kept declarations (and `extra` CSS) read."""
    plain, custom = [extra], {}
    for kind, _, data in _walk(kept):
        if kind == "rule":
            for decl in data:
                text = tinycss2.serialize(decl.value)
                if decl.name.startswith("--"):
                    custom.setdefault(decl.name, []).append(text)
                else:
                    plain.append(f"{decl.name}:{text}")
        elif kind == "raw":
            plain.append(data)
    used, todo = set(), [n for text in plain for n in _VAR.findall(text)]
    while todo:
        name = todo.pop()
        if name not in used:
            used.add(name)
            todo.extend(n for text in custom.get(name, ()) for n in _VAR.findall(text))
    animations = {ident for text in plain if text.split(":", 1)[0].strip().startswith(("animation", "-webkit-animation"))
                  for ident in _IDENT.findall(text.split(":", 1)[1])}
    return used, animations


def _emit(kept, used: set[str], animations: set[str]) -> list[str]:
    out = []
    for kind, head, data in kept:
        if kind == "block":
            inner = _emit(data, used, animations)
            if inner:
                out.append(f"{head}{{\n" + "\n".join(inner) + "\n}")
        elif kind == "rule":
            body = [_serialize_declaration(d) for d in data if not d.name.startswith("--") or d.name in used]
            if body:
                out.append(f"{head}{{" + ";".join(body) + "}")
        elif kind == "keyframes":
            if head in animations:
                out.append(data)
        else:
            out.append(data)
    return out


@functools.lru_cache(maxsize=8)
def prune(css: str, classes: frozenset[str], extra: str = "") -> str:
    """The rules of `css` that can apply to notebooks whose elements carry `classes`.

    `extra` is CSS that is served with it (its var() uses keep those custom properties)."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    kept = _keep_rules(rules, set(classes))
    used, animations = _used(kept, extra)
    return "\n".join(_emit(kept, used, animations)) + "\n"
