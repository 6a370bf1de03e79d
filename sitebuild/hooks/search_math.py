"""Build hook: the search index reads each formula as plain text (√d_k), the page keeps its MathML.

Material's search plugin indexes a page's HTML in its on_page_context (priority 0). MathML's text drops
what the layout draws, so √d_k was indexed as "dk" and the result preview of the section on scaling read
"the scores are divided by dk". Here, at priority 60 (after mkdocs-static-i18n's 50), the page's content
becomes a copy with every formula's plain text (sitebuild/hooks/site.py records it for each formula it
converts; sitebuild.mathtext writes it); site.py's on_page_context puts the MathML back at -50, before the
page is drawn.
"""

from __future__ import annotations

from mkdocs.plugins import event_priority

from sitebuild.mathtext import for_search


@event_priority(60)
def on_page_context(context, page, config, nav):
    if page.content and 'class="math"' in page.content:
        page.math_shown = page.content
        page.content = page.math_searched = for_search(page.content)
    return context
