"""Reading a page: its headings (with their ids), snippet includes and Python exec blocks, in page order.

>>> parts = page_parts("# T { #t }\\n\\n## A { #a }\\n\\n```python exec=\\"1\\"\\nprint(1)\\n```\\n")
>>> [(p.kind, p.text, p.id) for p in parts]
[('heading', 'T', 't'), ('heading', 'A', 'a'), ('exec', 'print(1)', '')]
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from resultcache import ROOT
from sitebuild.code_comments import localize

__all__ = ["Part", "fence_options", "page_parts", "snippet_expander", "language_pages", "LANGS", "DEFAULT_LANG"]

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+-]*)(?P<info>[^`]*)$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)(?:[ \t]*\{(?P<attrs>[^}]*)\})?[ \t]*#*[ \t]*$")
HEADING_ID = re.compile(r"(?:^|\s)#(?P<id>[\w-]+)")
OPTION = re.compile(r"""([\w-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))""")
# An admonition. A collapsed success block (`??? success "参考答案"`, not `???+`) is an exercise's solution.
ADMONITION = re.compile(r'^(?P<indent>[ \t]*)(?P<marker>\?\?\?\+?|!!!)[ \t]+(?P<kind>[\w-]+)(?:[ \t]+"(?P<title>[^"]*)")?')
INCLUDE = re.compile(r"""^[ \t]*-{1,}8<-{1,}[ \t]+(["'])(?P<target>.+?)\1[ \t]*$""")
ANNOTATION = re.compile(r"[ \t]*#[ \t]*\(\d+\)!?[ \t]*$")
TRUE = {"1", "true", "yes", "on"}


@dataclass
class Part:
    """One thing on a page that the notebook keeps: a heading, an include, or an exec block."""

    kind: str  # "heading", "include" or "exec"
    text: str  # heading text, the include's expanded code, or the exec block's code
    level: int = 0  # heading level
    html: bool = False  # exec block whose printed output is HTML
    markdown: bool = False  # exec block whose printed output markdown-exec renders as Markdown (no result=)
    files: list[str] = field(default_factory=list)  # snippet files an include reads
    collapsed: str = ""  # title of the collapsed solution (`??? success`) that holds this code, if any
    id: str = ""  # a heading's id on the page ({ #id }), the same in both languages


def fence_options(info: str) -> dict[str, str]:
    """Options of a fence's info string: 'exec="1" html="1"' -> {'exec': '1', 'html': '1'}."""
    return {m.group(1): next(g for g in m.groups()[1:] if g is not None) for m in OPTION.finditer(info)}


def page_parts(markdown: str, expand=None) -> list[Part]:
    """Headings, snippet includes and Python exec blocks of a page, in page order.

    expand(line) -> (code, files) expands an include line; by default includes are kept as written.
    """
    lines = markdown.splitlines()
    parts: list[Part] = []
    blocks: list[tuple[int, str]] = []  # open admonitions: (indent, title if a collapsed solution else "")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        indent = m.group("indent") if m else lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        if lines[i].strip():
            blocks = [b for b in blocks if b[0] < len(indent)]
        if not m:
            h = HEADING.match(lines[i])
            a = ADMONITION.match(lines[i])
            if h:
                ident = HEADING_ID.search(h.group("attrs") or "")
                parts.append(Part("heading", h.group("text").strip(), level=len(h.group("hashes")),
                                  id=ident.group("id") if ident else ""))
            elif a:
                solution = a.group("marker") == "???" and a.group("kind") == "success"
                blocks.append((len(a.group("indent")), (a.group("title") or "Solution") if solution else ""))
            i += 1
            continue
        fence = m.group("fence")
        collapsed = next((t for _, t in reversed(blocks) if t), "")
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(fence[0] * len(fence)) and lines[j].strip().strip(fence[0]) == ""
        ):
            j += 1
        body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : j]]
        lang, options = m.group("lang").lower(), fence_options(m.group("info"))
        i = j + 1
        if options.get("exec", "").lower() in TRUE:
            if lang in ("python", "py"):
                html = options.get("html", "").lower() in TRUE
                parts.append(Part("exec", textwrap.dedent("\n".join(body)).strip("\n"), html=html,
                                  markdown=not html and "result" not in options, collapsed=collapsed))
            elif lang == "pycon":
                code = [ln[4:] for ln in body if ln.startswith((">>> ", "... "))]
                parts.append(Part("exec", "\n".join(code), html=options.get("html", "").lower() in TRUE,
                                  collapsed=collapsed))
            continue
        includes = [ln for ln in body if INCLUDE.match(ln)]
        if includes and all(INCLUDE.match(ln) or not ln.strip() for ln in body):
            codes, files = [], []
            for ln in includes:
                code, used = expand(ln) if expand else (ln.strip(), [])
                codes.append(code)
                files += used
            if any(f.endswith(".py") for f in files) or not expand:
                parts.append(Part("include", "\n\n\n".join(codes), files=files, collapsed=collapsed))
    return parts


def snippet_expander(base_path=(".",), root: Path = ROOT, *, annotations: bool = False, **options):
    """expand(line, lang=None) -> (code, files): a pymdownx.snippets include, read exactly as the site reads it.

    With a language, the code's comments and docstrings are that language's
    (sitebuild.code_comments.localize, which the pages' hook calls too). Code annotation
    markers (`# (1)`) are removed unless `annotations`: a notebook has no annotations to show."""
    import markdown
    from pymdownx.snippets import SnippetExtension

    bases = [str((root / b).resolve()) for b in ([base_path] if isinstance(base_path, str) else base_path)]
    cfg = {k: v for k, v in options.items() if k in SnippetExtension().config and k != "auto_append"}
    md = markdown.Markdown(extensions=[SnippetExtension(base_path=bases, **{"check_paths": True, **cfg})])
    pre = md.preprocessors["snippet"]

    def expand(line: str, lang: str | None = None) -> tuple[str, list[str]]:
        section = INCLUDE.match(line).group("target")
        target = pre.parse_snippet_target(section)
        path = pre.get_snippet_path(target["path"]) if target else None
        if path is None:
            raise ValueError(f"expected an include of an existing snippet file, got {line.strip()!r}")
        code = localize("\n".join(pre.run([line.strip()])), section.strip(), lang)
        if not annotations:
            code = "\n".join(ANNOTATION.sub("", ln) for ln in code.split("\n"))
        return code.strip("\n"), [str(Path(path).resolve().relative_to(root))]

    return expand


def language_pages(docs: Path = ROOT / "docs") -> list[tuple[str, str, Path]]:
    """(stem, lang, path) of every page, e.g. ('article/3-pytorch', 'zh', docs/article/3-pytorch.zh.md)."""
    pages = []
    for p in sorted(docs.rglob("*.md")):
        rel = p.relative_to(docs)
        if any(s.startswith(".") for s in rel.parts):
            continue
        stem, _, lang = p.name[:-3].rpartition(".")
        if lang in LANGS:
            pages.append(((rel.parent / stem).as_posix().removeprefix("./"), lang, p))
    return pages
