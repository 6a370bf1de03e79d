"""Old links keep working when a section moves to another page.

§4 was one page until its second round moved to article/4b-second-round.md, and the key/value heads page
one until its accuracy tests moved to lab/kv-heads-accuracy.md. A bookmark or a link from elsewhere such as
``article/4-what-if/#protocol`` would now land at the top of §4 with nothing at that anchor. MOVED lists, per page, the heading ids that went to another page; each such page gets a few
lines at the top of its <head> that, when the address names one of them, replace the address with the
same anchor on the new page (``location.replace``: the back button does not return to the dead anchor).
Nothing is fetched: the list is in the page itself. tests/test_split_pages_s4.py and tests/test_split_pages.py
check that each list is exactly the ids the old page had and the new one holds.
"""

from __future__ import annotations

import json

# page (its address in the default language) -> (the page the ids moved to, relative to it; the ids)
MOVED = {
    "article/4-what-if/": ("../4b-second-round/", ("heads-width-depth", "protocol", "fixed-head-width", "width",
                                                   "depth", "per-layer", "evidence")),
    "lab/kv-heads/": ("../kv-heads-accuracy/", ("recall", "mqar", "mqar-results", "mqar-followup")),
}

SCRIPT = ('<script>(function(){{var m={ids};function go(){{var h=location.hash.slice(1);'
          'try{{h=decodeURIComponent(h)}}catch(e){{}}'
          'if(m.indexOf(h)>=0)location.replace(new URL({to}+location.hash,location.href).href)}}'
          'go();addEventListener("hashchange",go)}})()</script>')


def redirect_script(url: str) -> str:
    """The <script> for the page at url ('' when nothing moved from it). English pages live under en/."""
    found = MOVED.get(url.removeprefix("en/"))
    if found is None:
        return ""
    to, ids = found
    return SCRIPT.format(ids=json.dumps(list(ids)), to=json.dumps(to))


def on_post_page(output: str, page, config) -> str:
    script = redirect_script(page.url)
    if not script:
        return output
    head = output.find("<head>")
    if head < 0:
        raise ValueError(f"{page.url}: no <head> to put the moved-anchor redirect in")
    return output[:head + len("<head>")] + script + output[head + len("<head>"):]
