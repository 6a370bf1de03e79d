"""Build hooks: render math to MathML at build time, fix the build date, show the lessons' progress,
apply the reader's palette before the page is drawn.

Long work in the lesson code (training, benchmarks, the real model) logs its progress on the
`snippets` logger; this hook sends that logger's INFO records to MkDocs' own output.

Math is written as $...$ / $$...$$; pymdownx.arithmatex (generic mode) marks it up and this
hook replaces the marked-up TeX with MathML from latex2mathml, so pages need no script and
no third-party host to show formulas.

Palette: on a first visit (nothing stored yet) Material picks the palette whose media query matches
(light or dark) only when its script runs, at the end of the page. Until then a dark-mode reader saw
the light palette, and the whole page was styled twice; blocks that content-visibility had not drawn
yet even kept the light colours for tools that read them before they came on screen. A few lines
right after Material's own palette script make the same choice before the content is parsed.

Header hints: with content.tooltips, Material gives every header element that has a title (logo,
palette toggles, search reset) a styled tooltip when the page starts. Mounting each one adds an
element to <body> and measures it, and Material's sibling selectors on <body> make the browser
restyle the whole page each time: about 80 ms of a phone's main thread per button, in four separate
tasks on every page load. Their titles become data-title here; site.js puts them back on first
hover or focus, so the browser's own tooltip shows them. Every one of these controls also has an
aria-label (or labels an input that has one), so their accessible names do not change.
"""

from __future__ import annotations

import html
import logging
import os
import re

# Reproducible builds: the sitemap's dates and anything else that reads the build date.
os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
# ... and the same digits from every build on one machine: MKL (torch's matrix products on x86) picks its
# kernels by CPU and, on Intel's AVX-512 path, by how each buffer happens to be aligned in memory, so the last
# digits of a product can change from one run to the next (the real-model page's 1e-6 differences did, under
# load). Conditional Numerical Reproducibility, "AUTO,STRICT", keeps the machine's fastest path and makes it
# independent of alignment. Set before any MKL call of this process; the precompute workers and notebook
# kernels inherit it.
os.environ.setdefault("MKL_CBWR", "AUTO,STRICT")
# One thread per process for everything the build computes. The build runs several processes at once (the
# pages in this one, notebooks two at a time, the precompute workers), and a lesson's computations are small
# operations: with two threads each on two cores, every operation waits for a thread the other processes hold
# (measured: the key/value heads page's decoder table took 16 s with two threads beside one busy process, 0.16 s
# with one). One thread also makes what a build prints independent of the machine's core count. Set before
# torch starts its thread pool here; the workers and notebook kernels inherit it.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

from latex2mathml.converter import convert  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from sitebuild.mathtext import remember  # noqa: E402

_BLOCK = re.compile(r'<div class="arithmatex">\\\[(.*?)\\\]</div>', re.S)
_INLINE = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.S)


def on_config(config):
    import torch

    torch.set_num_threads(1)  # in case torch was imported before this hook set the variables above
    lessons = logging.getLogger("snippets")
    lessons.setLevel(logging.INFO)
    for handler in logging.getLogger("mkdocs").handlers:
        if handler not in lessons.handlers:
            lessons.addHandler(handler)
    return config


def tex_to_mathml(tex: str, display: str) -> str:
    tex = html.unescape(tex).strip()
    mathml = convert(tex, display=display)
    remember(mathml, tex)  # the plain text search reads instead (search_math.py; put back below)
    return mathml


@event_priority(-50)  # after the search plugin (0) has indexed the copy search_math.py made (at 60)
def on_page_context(context, page, config, nav):
    shown = getattr(page, "math_shown", None)
    if shown is not None:
        if page.content != page.math_searched:
            raise ValueError(f"{page.file.src_uri}: the page changed between search_math.py and site.py; "
                             "its formulas cannot be put back")
        page.content, page.math_shown, page.math_searched = shown, None, None
    return context


_PALETTE_SCRIPT = 'var palette=__md_get("__palette");'
EARLY_PALETTE = (
    '<script>if(!__md_get("__palette"))for(var input of document.querySelectorAll("[data-md-color-media]"))'
    'if(matchMedia(input.getAttribute("data-md-color-media")).matches){'
    'for(var key of ["scheme","primary","accent"])'
    'document.body.setAttribute("data-md-color-"+key,input.getAttribute("data-md-color-"+key));break}</script>'
)


def early_palette(html_text: str) -> str:
    """The page with EARLY_PALETTE after Material's palette script (pages without a palette toggle unchanged)."""
    if "data-md-color-media" not in html_text:
        return html_text
    start = html_text.find(_PALETTE_SCRIPT)
    if start < 0:
        raise ValueError("Material's palette script was not found: the theme changed, update sitebuild/hooks/site.py")
    end = html_text.index("</script>", start) + len("</script>")
    return html_text[:end] + EARLY_PALETTE + html_text[end:]


_HEADER = re.compile(r'<header class="md-header\b.*?</header>', re.S)


def plain_header_titles(html_text: str) -> str:
    """The page with the header's title attributes renamed data-title (see the module docstring)."""
    return _HEADER.sub(lambda m: m.group(0).replace(' title="', ' data-title="'), html_text, count=1)


def on_post_page(output: str, page, config) -> str:
    return plain_header_titles(early_palette(output))


def on_page_content(html_text: str, page, config, files) -> str:
    html_text = _BLOCK.sub(lambda m: f'<div class="math">{tex_to_mathml(m.group(1), "block")}</div>', html_text)
    return _INLINE.sub(lambda m: f'<span class="math">{tex_to_mathml(m.group(1), "inline")}</span>', html_text)
