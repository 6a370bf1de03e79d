"""Build hook: a code block that only prints a report is folded; what it prints stays in view.

Many blocks on the long pages show code such as ``print(md_table(header, decoder_rows("zh")))``: the table
below it is the lesson, the line that printed it is not. Such a block (``exec="1"`` with its source shown,
at the top level of the page) becomes a collapsed box titled "Code: printed by `function`" holding
the code, followed by the same block with its source hidden, so markdown-exec prints the same output. A
provenance table (machine, command and fingerprint of a committed measurement) is folded whole, in a box
"How these numbers were measured".
Lesson code stays in view: a block that defines anything, loops, or imports from a module the lessons teach
(the layer, the official module, the running example, the kernels, the benchmarks) is left as it is, as is
every block inside another box. The notebooks are built from the page files, not from this output, so they
keep every block as a code cell.

A page can also fold a block on purpose with the fence option ``fold="1"`` (the FAQ folds each answer's code and
keeps its output; §3 folds the calls that only print a table or a figure and keeps the lesson's code in view):
an exec block folds as above whatever it imports, titled by the function it prints; a shown snippet include
(``--8<--``) folds into a box titled by the snippet's section, or, once the build has expanded it, by the
functions and classes it defines. ``snippets.reading`` counts such a block as folded.
"""

from __future__ import annotations

import ast
import re

from sitebuild.hooks import build_language
from snippets.i18n import LANGS, text

__all__ = ["report_function", "fold_report_blocks"]

# Modules whose functions print tables, figures and sentences for a page.
PRESENTATION = re.compile(r"^snippets\.(tables|i18n|schematics|lessonfigs|figures|benchreport|faq)$|report$|"
                          r"\.headfigures$|\.viewer$|^snippets\.whatif\.round2$")
# Modules whose functions the lessons teach by calling them in view.
LESSON = {"snippets.official", "snippets.logline", "snippets.heads", "snippets.recap", "snippets.scaling",
          "snippets.kernels", "snippets.bench", "snippets.fast", "snippets.multihead", "snippets.attention",
          "snippets.kvheads.attention", "snippets.kvheads.decoder", "snippets.kvheads.cost", "snippets.bert.loader"}
GENERIC = {"snippets.tables", "snippets.i18n"}  # md_table, text: never the name a title gives
FORMATTER = re.compile(r"header|^sentence$|^text$|^fill$")  # names that format, not the report itself
FENCE = re.compile(r"^```python(?P<opts>[^\n]*)\n(?P<code>.*?)^```[ \t]*$", re.S | re.M)
# A provenance table (where a committed measurement comes from) is folded whole, table and code.
PROVENANCE = "snippets.benchreport.provenance_table"


def report_function(code: str, forced: bool = False) -> str | None:
    """'module.function' of the report a block only prints, or None when the block is lesson code.

    >>> report_function('from snippets.kvheads.report import decoder_header, decoder_rows\\n'
    ...                 'from snippets.tables import md_table\\n\\n'
    ...                 'print(md_table(decoder_header("en"), decoder_rows("en")))')
    'snippets.kvheads.report.decoder_rows'
    >>> print(report_function('from snippets.official import run_official\\nprint(run_official(1))'))
    None

    forced (a block marked ``fold="1"``): lesson modules and other statements are allowed; the name is that of
    the last function the block calls that a snippets module defines (not a formatter), or None when it calls none.
    """
    if forced:
        return _forced_name(code)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    imported: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module in LESSON:
                return None
            imported.update({a.asname or a.name: node.module for a in node.names})
        elif isinstance(node, ast.Import):
            return None
        elif not isinstance(node, (ast.Expr, ast.Assign)):
            return None  # a definition, a loop, a with block: lesson code
    if not any(PRESENTATION.search(m) for m in imported.values()):
        return None
    calls = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    if "print" not in calls:
        return None
    named = [c for c in calls if c in imported and imported[c] not in GENERIC]
    if not named:
        return None
    name = next((c for c in named if not FORMATTER.search(c)), named[0])
    return f"{imported[name]}.{name}"


def _forced_name(code: str) -> str | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    imported = {a.asname or a.name: n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                and n.module.startswith("snippets") for a in n.names}
    calls = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    named = [c for c in calls if c in imported and imported[c] not in GENERIC]
    if not named:
        return None
    name = next((c for c in reversed(named) if not FORMATTER.search(c)), named[-1])
    return f"{imported[name]}.{name}"


def _defined(code: str) -> list[str]:
    """Names of the functions and classes a block defines at its top level ([] when it is not Python)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


FOLD = re.compile(r'\s*\bfold="1"')
INCLUDE = re.compile(r"""^-{1,}8<-{1,}\s+["'](?P<target>[^"']+)["']\s*$""")


def fold_report_blocks(markdown: str, lang: str) -> str:
    """markdown with each top-level block that only prints a report folded (see the module's docstring)."""
    if lang not in LANGS:
        raise ValueError(f"expected a language of {sorted(LANGS)}, got {lang!r}")

    def fold(m: re.Match) -> str:
        opts, code = m.group("opts"), m.group("code")
        if FOLD.search(opts):
            return forced(FOLD.sub("", opts), code)
        if 'exec="1"' not in opts or not re.search(r'\bsource="(block|above|tabbed-left|tabbed-right)"', opts):
            return m.group(0)
        name = report_function(code)
        if name is None:
            return m.group(0)
        body = "\n".join(("    " + line) if line.strip() else "" for line in f"```python\n{code}```".split("\n"))
        hidden = re.sub(r'\s*\bsource="[^"]*"', "", opts)
        # the function's name only: a phone breaks a dotted module path mid-word (the code names the module)
        title = text(lang, "fold.code").replace("{name}", name.rpartition(".")[2]).replace('"', "&quot;")
        folded = f'??? mha-code "{title}"\n\n{body}\n\n```python{hidden}\n{code}```'
        if name != PROVENANCE:
            return folded
        inner = "\n".join(("    " + line) if line.strip() else "" for line in folded.split("\n"))
        return f'??? mha-provenance "{text(lang, "fold.provenance")}"\n\n{inner}'

    def forced(opts: str, code: str) -> str:
        body = "\n".join(("    " + line) if line.strip() else "" for line in f"```python{opts}\n{code}```".split("\n"))
        if 'exec="1"' in opts:
            name = report_function(code, forced=True)
            if name is None:
                raise ValueError(f"expected a block marked fold=\"1\" to call a snippets function, got {code!r}")
            hidden = re.sub(r'\s*\bsource="[^"]*"', "", opts)
            body = "\n".join(("    " + line) if line.strip() else "" for line in f"```python\n{code}```".split("\n"))
            title = text(lang, "fold.code").replace("{name}", name.rpartition(".")[2]).replace('"', "&quot;")
            return f'??? mha-code "{title}"\n\n{body}\n\n```python{hidden}\n{code}```'
        targets = [t.group("target").rpartition(":")[2] for t in map(INCLUDE.match, code.strip().splitlines()) if t]
        if not targets:  # an include the build has already expanded: the functions and classes it defines
            targets = _defined(code)
        if not targets:
            raise ValueError(f"expected a block marked fold=\"1\" to run or to include a snippet, got {code!r}")
        names = text(lang, "fold.sep").join(f"`{t}`" for t in targets)
        title = text(lang, "fold.snippet").replace("{names}", names).replace('"', "&quot;")
        return f'??? mha-code "{title}"\n\n{body}'

    return FENCE.sub(fold, markdown)


def on_page_markdown(markdown, page, config, files):
    if 'exec="1"' not in markdown:
        return markdown
    return fold_report_blocks(markdown, build_language(config)[0])
