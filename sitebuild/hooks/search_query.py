"""Build hook: the search box searches the whole Chinese query, not all but its last character.

Material (9.8.2) cuts a Chinese query into the words of the search index before it searches
(``segment`` in src/templates/assets/javascripts/integrations/search/query/segment/index.ts, shipped
minified in assets/javascripts/workers/search.*.min.js). Its inner loop tries the slices
``query.slice(i, j)`` for ``j < query.length``, so the slice that ends at the query's last character is
never tried: 预训练 is looked up as 预 (or 预训), 快速路径 as 快速, 前馈 as 前, and the prefix search
``预*`` puts whatever page says 预 most often first and highlights only that character. The loop
that continues after a word (``q < query.length - 1``) has the same off-by-one, which hides the
last character once the first loop reaches it (查询 + 头).

After the build, every copy of the worker in the built site gets both bounds moved by one
(``j <= query.length``, ``q < query.length``). The patch is on the minified text, so it is tied to
this version's minifier output: each pattern must occur exactly once in each worker, and the build
fails otherwise (an upgrade that changed the code must be looked at, not silently left unpatched).
tests/test_search_query.py runs the patched function on queries; tests/browser/test_search.py
searches the built site in Chromium. The upstream report is in notes/search-segment-upstream.md.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.plugins import event_priority

# The minified `segment(query, index)`: its name and parameter names are the minifier's, so the
# patterns take them from the function header rather than hard-coding them.
_HEADER = re.compile(
    r"function (?P<fn>[\w$]+)\((?P<q>[\w$]+),(?P<idx>[\w$]+)\)\{let (?P<set>[\w$]+)=new Set,"
    r"(?P<cuts>[\w$]+)=new Uint16Array\((?P=q)\.length\);"
)


def _patches(header: re.Match) -> list[tuple[re.Pattern, str]]:
    """(pattern, replacement) for the two loop bounds of the segmenter whose header is `header`."""
    q, cuts = re.escape(header["q"]), re.escape(header["cuts"])
    return [
        # for(let s=0;s<t.length;s++)for(let o=s+1;o<t.length;o++)  ->  o<=t.length
        (re.compile(r"(for\(let ([\w$]+)=([\w$]+)\+1;\2)<(%s\.length;\2\+\+\))" % q), r"\1<=\4"),
        # n[a]&&a<t.length-1&&(i[s++]=a)  ->  a<t.length
        (re.compile(r"(%s\[([\w$]+)\]&&\2<%s\.length)-1(&&)" % (cuts, q)), r"\1\3"),
    ]


def _patched(header: re.Match) -> list[re.Pattern]:
    """The two loop bounds as patch_worker leaves them."""
    q, cuts = re.escape(header["q"]), re.escape(header["cuts"])
    return [re.compile(r"for\(let ([\w$]+)=([\w$]+)\+1;\1<=%s\.length;\1\+\+\)" % q),
            re.compile(r"%s\[([\w$]+)\]&&\1<%s\.length&&" % (cuts, q))]


def patch_worker(js: str) -> str:
    """`js` (the minified search worker) with the segmenter's two loop bounds fixed (a worker patched
    already comes back unchanged); ValueError if the segmenter or either bound is not found exactly once.

    >>> src = ("function fe(t,e){let r=new Set,n=new Uint16Array(t.length);for(let s=0;s<t.length;s++)"
    ...        "for(let o=s+1;o<t.length;o++)t.slice(s,o)in e&&(n[s]=o-s);n[a]&&a<t.length-1&&(i[s++]=a)}")
    >>> print(patch_worker(src).split("s++)", 1)[1])
    for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e&&(n[s]=o-s);n[a]&&a<t.length&&(i[s++]=a)}
    >>> patch_worker(patch_worker(src)) == patch_worker(src)
    True
    """
    headers = list(_HEADER.finditer(js))
    if len(headers) != 1:
        raise ValueError(f"expected Material's search segmenter once in the worker, found it {len(headers)} "
                         "times: the theme changed, update sitebuild/hooks/search_query.py")
    start = headers[0].end()
    end = js.find("}function ", start)
    end = len(js) if end < 0 else end
    body = js[start:end]
    for (pattern, replacement), done in zip(_patches(headers[0]), _patched(headers[0]), strict=True):
        body, count = pattern.subn(replacement, body)
        if count == 0 and len(done.findall(body)) == 1:
            continue  # patched already: mkdocs-static-i18n runs the hooks once per language over one site
        if count != 1:
            raise ValueError(f"expected the segmenter's loop bound {pattern.pattern!r} once, found it {count} "
                             "times: the theme changed, update sitebuild/hooks/search_query.py")
    return js[:start] + body + js[end:]


def workers(site_dir: Path) -> list[Path]:
    """Every copy of Material's search worker in the built site."""
    return sorted(site_dir.rglob("assets/javascripts/workers/search.*.min.js"))


@event_priority(-200)  # last: after mkdocs-static-i18n (-100) has written the other language's copy
def on_post_build(config):
    found = workers(Path(config["site_dir"]))
    if not found:
        raise ValueError("Material's search worker (assets/javascripts/workers/search.*.min.js) is not in the "
                         "built site: the theme changed, update sitebuild/hooks/search_query.py")
    for path in found:
        path.write_text(patch_worker(path.read_text(encoding="utf-8")), encoding="utf-8")
