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


def report_function(code: str) -> str | None:
    """'module.function' of the report a block only prints, or None when the block is lesson code.

    >>> report_function('from snippets.kvheads.report import decoder_header, decoder_rows\\n'
    ...                 'from snippets.tables import md_table\\n\\n'
    ...                 'print(md_table(decoder_header("en"), decoder_rows("en")))')
    'snippets.kvheads.report.decoder_rows'
    >>> print(report_function('from snippets.official import run_official\\nprint(run_official(1))'))
    None
    """
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


def fold_report_blocks(markdown: str, lang: str) -> str:
    """markdown with each top-level block that only prints a report folded (see the module's docstring)."""
    if lang not in LANGS:
        raise ValueError(f"expected a language of {sorted(LANGS)}, got {lang!r}")

    def fold(m: re.Match) -> str:
        opts, code = m.group("opts"), m.group("code")
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

    return FENCE.sub(fold, markdown)


def on_page_markdown(markdown, page, config, files):
    if 'exec="1"' not in markdown:
        return markdown
    return fold_report_blocks(markdown, build_language(config)[0])
