"""Build hook: highlighted code drawn with fewer elements, looking exactly the same.

Pygments wraps every token in a <span>: each name, each run of spaces, each bracket. On the
code-heavy pages (the FAQ, §3, §4) those spans were more than half of all elements, and a phone
pays style and layout time for every element. Four token classes are drawn like unmarked code text:
``.n`` (a name) in ``--md-code-hl-name-color``, which Material sets to the code's own colour
``--md-code-fg-color`` in both palettes; ``.o`` (an operator) and ``.p`` (punctuation) in their own
variables, which docs/assets/site.css sets to that colour too; and ``.w`` (whitespace) has no rule at
all. Those become plain text. Then neighbouring spans of one class become one span, and the empty span
Pygments opens every block with goes. The text inside ``<code>`` is unchanged, so copying code copies
the same.

Operators and brackets in the code colour rather than Material's lighter grey cost the code a shade
of contrast between tokens, and take a quarter of the §4 notebook's elements out (2,245 spans -> 1,005).
On their own they changed a phone's blocking time by less than the noise (4x-throttled CPU, paired over
12 loads: median ratio 0.95); with the notebook changes beside them (sitebuild/hooks/notebooks.py) the
§4 notebook's blocking time fell by a quarter.

Notebook pages get the same treatment inside their code cells (``<div class="highlight-ipynb"><pre>``):
there the site's notebook stylesheet colours these classes with the same variables, and JupyterLab
gives ``.w`` only a text colour, which whitespace never shows. tests/test_page_data.py checks both
stylesheets still style the classes this way, and tests/browser/test_readable.py that a span of each
class computes to the same style as plain code text, in both palettes.
"""

from __future__ import annotations

import re

PLAIN = ("n", "o", "p", "w")  # token classes drawn exactly like unmarked code text
# the colour variable each coloured one is drawn in (set to --md-code-fg-color)
COLOUR = {"n": "name", "o": "operator", "p": "punctuation"}

_CODE = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.S)
_NOTEBOOK_CODE = re.compile(r'(<div\b[^>]*\bclass="highlight-ipynb\b[^"]*">\s*<pre>)(.*?)(</pre>)', re.S)
_PLAIN = re.compile(r'<span class="(?:%s)">([^<]*)</span>' % "|".join(PLAIN))
_PAIR = re.compile(r'<span class="([\w -]+)">([^<]*)</span><span class="\1">([^<]*)</span>')


def lean(code_html: str) -> str:
    """The inside of one <code> element with unstyled spans unwrapped and same-class neighbours merged.

    >>> lean('<span class="n">x</span><span class="w"> </span><span class="o">=</span><span class="w"> </span>'
    ...      '<span class="s2">"a"</span><span class="s2">"b"</span><span class="p">)</span>')
    'x = <span class="s2">"a""b"</span>)'
    """
    code_html = _PLAIN.sub(r"\1", code_html).replace("<span></span>", "")
    while True:
        merged = _PAIR.sub(r'<span class="\1">\2\3</span>', code_html)
        if merged == code_html:
            return merged
        code_html = merged


def _lean_match(m: re.Match) -> str:
    return m.group(1) + lean(m.group(2)) + m.group(3)


def on_page_content(html_text, page, config, files):
    return _NOTEBOOK_CODE.sub(_lean_match, _CODE.sub(_lean_match, html_text))
