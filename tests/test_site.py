"""The site as a whole: strict build, both languages, code only from snippets, offline."""

from __future__ import annotations

import ast
import json
import re
import textwrap
from pathlib import Path

import pytest

from conftest import LANGS, ROOT, page_stems

DOCS = ROOT / "docs"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(\S*)(.*)$")


def html_path(site: Path, stem: str, lang: str) -> Path:
    base = site if lang == "zh" else site / lang
    if stem == "index":
        return base / "index.html"
    return base / stem / "index.html"


def test_every_page_has_both_languages():
    docs = [p for p in DOCS.rglob("*.md") if not any(s.startswith(".") for s in p.relative_to(DOCS).parts)]
    for p in docs:
        assert re.search(r"\.(zh|en)\.md$", p.name), f"{p} has no language suffix (.zh.md / .en.md)"
    for stem in page_stems():
        for lang in LANGS:
            assert (DOCS / f"{stem}.{lang}.md").exists(), f"{stem} is missing its {lang} page"


def code_blocks(text: str):
    """Yield (info string, body lines) for each fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            fence, info = m.group(2), (m.group(3) + m.group(4)).strip()
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence):
                j += 1
            yield info, lines[i + 1 : j]
            i = j
        i += 1


CALL = re.compile(r"^(?:[A-Za-z_][\w, ]*=\s*)?([A-Za-z_]\w*)[\w.]*\(.*$")
CONT = re.compile(r"^[\s\w\"'.,=:()\[\]{}<>|+*/%-]*\)?$")


def handwritten_lines(text: str) -> list[str]:
    """Lines of code in a page that are neither a snippets include nor an import-and-call exec block."""
    bad = []
    blocks = list(code_blocks(text))
    for k, (info, body) in enumerate(blocks):
        if not body:
            continue
        if all(line.strip().startswith("--8<--") or not line.strip() for line in body):
            continue  # an include
        following = blocks[k + 1] if k + 1 < len(blocks) else ("", [])
        if ('exec="1"' not in info and 'exec="1"' in following[0]
                and textwrap.dedent("\n".join(body)).strip() == textwrap.dedent("\n".join(following[1])).strip()):
            continue  # a folded report's shown source: the exec block right after it, checked as one, runs it
        if 'exec="1"' not in info:
            bad.append(f"fenced block ```{info} that is neither an include nor an exec block: {body[0].strip()}")
            continue
        names = {"print"}
        import_lines = set()  # an import may span lines: from m import (a,\n b)
        for node in ast.parse(textwrap.dedent("\n".join(body))).body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                import_lines |= set(range(node.lineno - 1, node.end_lineno))
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("snippets", "sitebuild"):
                    names |= {a.asname or a.name for a in node.names}
                else:  # only lesson code (and the site's own) is imported on a page
                    bad.append(body[node.lineno - 1].strip())
        depth = 0
        for i, line in enumerate(body):
            s = line.strip()
            if not s or s.startswith("#") or i in import_lines:
                continue
            if depth > 0:  # continuation of a call spread over several lines
                depth += s.count("(") - s.count(")")
                continue
            m = CALL.match(s)
            if not m or m.group(1) not in names:
                bad.append(s)
                continue
            depth = s.count("(") - s.count(")")
    return bad


def test_pages_have_no_handwritten_code():
    problems = {}
    for p in sorted(DOCS.rglob("*.md")):
        if any(s.startswith(".") for s in p.relative_to(DOCS).parts):
            continue
        bad = handwritten_lines(p.read_text(encoding="utf-8"))
        if bad:
            problems[str(p.relative_to(ROOT))] = bad
    assert not problems, f"code in pages must come from snippets: {problems}"


def test_handwritten_check_catches_handwritten_code():
    page = "```python\nimport torch\nx = torch.randn(2, 3)\n```\n"
    assert handwritten_lines(page) == ["fenced block ```python that is neither an include nor an exec block: import torch"]
    exec_page = '```python exec="1"\nfrom snippets.tables import md_table\nrows = [1, 2]\nprint(md_table(["a"], [rows]))\n```\n'
    assert handwritten_lines(exec_page) == ["rows = [1, 2]"]
    wrapped = '```python exec="1"\nfrom snippets.tables import (md_table,\n                             fmt)\nprint(md_table(["a"], [[fmt(1)]]))\nx = 1\n```\n'
    assert handwritten_lines(wrapped) == ["x = 1"]
    assert handwritten_lines('```python exec="1"\nimport torch\nprint(1)\n```\n') == ["import torch"]
    ok = '```python exec="1"\nfrom snippets.tables import md_table\nprint(md_table(\n    ["a"],\n    [[1]],\n))\n```\n```python\n--8<-- "snippets/attention.py:sdpa"\n```\n'
    assert handwritten_lines(ok) == []
    # a folded report shows its code in a box, then runs the same code with its source hidden: one block
    call = 'from snippets.tables import md_table\nprint(md_table(["a"], [[1]]))\n'
    copy = "```python\n" + call + "```\n" + '```python exec="1"\n' + call + "```\n"
    assert handwritten_lines(copy) == []
    other = "```python\n" + call + "x = 2\n```\n" + '```python exec="1"\n' + call + "```\n"
    assert handwritten_lines(other) == ["fenced block ```python that is neither an include nor an exec block: from snippets.tables import md_table"]


def test_strict_build_has_every_page_in_both_languages(built_site):
    for stem in page_stems():
        for lang in LANGS:
            assert html_path(built_site, stem, lang).exists(), f"{stem} was not built for {lang}"


def test_language_attribute(built_site):
    assert '<html lang="zh"' in (built_site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in (built_site / "en" / "index.html").read_text(encoding="utf-8")


def test_search_finds_chinese(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert "\\u200b" in index["config"]["separator"] or "\u200b" in index["config"]["separator"]
    hits = {d["location"].split("#")[0] for d in index["docs"] if "注意力" in d["text"] or "注意力" in d["title"]}
    assert any(h.startswith("article/") for h in hits), hits
    # mkdocs-static-i18n writes one index for both languages; the Chinese pages must be in it.
    assert {"article/1-single-head/", "article/3-pytorch/"} <= hits, hits
    # jieba splits Chinese text into words separated by U+200B, so the word is a search term.
    assert any("\u200b注意力\u200b" in d["text"] or "\u200b注意力" in d["text"] for d in index["docs"])


EXTERNAL = re.compile(r"""(?:src|href)=["'](?:https?:)?//(?!127\.0\.0\.1|localhost)[^"']+["']""")


def test_no_requests_to_other_hosts(built_site):
    """Scripts, styles, fonts and images load only from the site itself (plain links to papers are fine)."""
    offenders = []
    for html in built_site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        for tag in re.findall(r"<(?:script|link|img|iframe|source|video|audio)\b[^>]*>", text):
            if re.search(r"rel=[\"'](?:alternate|canonical)[\"']", tag):
                continue
            if EXTERNAL.search(tag):
                offenders.append(f"{html.relative_to(built_site)}: {tag[:120]}")
        if "fonts.googleapis" in text or "fonts.gstatic" in text:
            offenders.append(f"{html.relative_to(built_site)}: Google Fonts")
    for css in built_site.rglob("*.css"):
        for url in re.findall(r"url\(([^)]+)\)", css.read_text(encoding="utf-8")):
            if re.match(r"[\"']?(?:https?:)?//", url):
                offenders.append(f"{css.relative_to(built_site)}: {url}")
    assert not offenders, offenders


def test_math_is_mathml(built_site):
    html = html_path(built_site, "article/3-pytorch", "en").read_text(encoding="utf-8")
    assert "<math" in html and "arithmatex" not in html


def test_site_url_comes_from_the_environment(monkeypatch):
    """SITE_URL sets the address that canonical links, hreflang alternates and the sitemap use."""
    from mkdocs.config import load_config

    from sitebuild.notebooks.cli import site_settings

    monkeypatch.delenv("SITE_URL", raising=False)
    assert load_config(str(ROOT / "mkdocs.yml")).site_url == "http://127.0.0.1:8000/"
    assert site_settings()[0] == "http://127.0.0.1:8000/"
    monkeypatch.setenv("SITE_URL", "https://docs.example.org/mha/")
    assert load_config(str(ROOT / "mkdocs.yml")).site_url == "https://docs.example.org/mha/"
    assert site_settings()[0] == "https://docs.example.org/mha/"


def test_repo_url_comes_from_the_environment(monkeypatch):
    """REPO_URL names the repository (header link) and EDIT_URI its docs folder (edit / view-source buttons);
    unset, the site names none, and the theme shows neither."""
    from mkdocs.config import load_config

    monkeypatch.delenv("REPO_URL", raising=False)
    monkeypatch.delenv("EDIT_URI", raising=False)
    config = load_config(str(ROOT / "mkdocs.yml"))
    assert (config.repo_url, config.edit_uri) == (None, None)
    assert {"content.action.edit", "content.action.view"} <= set(config.theme["features"])
    monkeypatch.setenv("REPO_URL", "https://github.com/example/mha")
    monkeypatch.setenv("EDIT_URI", "edit/main/docs/")
    config = load_config(str(ROOT / "mkdocs.yml"))
    assert (config.repo_url, config.edit_uri) == ("https://github.com/example/mha", "edit/main/docs/")


def test_no_repository_links_without_repo_url(built_site):
    import os

    if os.environ.get("REPO_URL"):
        pytest.skip("REPO_URL is set for this build")
    for stem in page_stems():
        for lang in LANGS:
            text = html_path(built_site, stem, lang).read_text(encoding="utf-8")
            assert 'class="md-source"' not in text and "md-content__button" not in text, f"{stem}.{lang}"


def test_canonical_links_and_sitemap_follow_site_url(built_site):
    """Every page's canonical link and every sitemap entry start with the configured site_url."""
    import os

    base = os.environ.get("SITE_URL", "http://127.0.0.1:8000/")
    pages = [p for p in built_site.rglob("index.html")]
    assert len(pages) > 10
    for html in pages:
        rel = html.parent.relative_to(built_site).as_posix()
        expected = base if rel == "." else f"{base}{rel}/"
        canon = re.search(r'<link rel="canonical" href="([^"]+)"', html.read_text(encoding="utf-8"))
        assert canon and canon.group(1) == expected, (rel, canon and canon.group(1))
    locs = re.findall(r"<loc>([^<]+)</loc>", (built_site / "sitemap.xml").read_text(encoding="utf-8"))
    assert locs and all(loc.startswith(base) for loc in locs), locs[:3]


def test_performance_page_shows_committed_numbers_not_placeholders(built_site):
    """Every section of the performance page has its numbers on a clean build: provenance, sweep, figures, build."""
    for prefix, words in (("", ("代码指纹", "重新测量的命令", "比较（前者对后者）", "冷构建")),
                          ("en/", ("Code fingerprint", "Command to measure again", "Comparison (first against second)",
                                   "cold build"))):
        page = (built_site / prefix / "lab" / "performance" / "index.html").read_text(encoding="utf-8")
        for word in words:
            assert word in page, f"{prefix}lab/performance: {word!r} missing"
        assert page.count("<svg") >= 2 and "| 4096 |" not in page  # figures drawn, tables rendered
        for placeholder in ("no full sweep", "No build measurements", "尚未运行", "还没有"):
            assert placeholder not in page


def test_palette_is_chosen_before_the_content(built_site):
    """A first-time reader in dark mode gets the dark palette before the content is parsed (not when
    Material's script runs at the end of the page); the choice follows the toggle's own media queries."""
    from sitebuild.hooks.site import EARLY_PALETTE, early_palette

    for page in ("index.html", "en/faq/index.html", "lab/real-model/index.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert html.count(EARLY_PALETTE) == 1
        assert html.index('var palette=__md_get("__palette")') < html.index(EARLY_PALETTE) < html.index("<article")
        assert html.index('data-md-color-media="(prefers-color-scheme: dark)"') < html.index(EARLY_PALETTE)
    assert early_palette("<p>no palette toggle</p>") == "<p>no palette toggle</p>"
    with pytest.raises(ValueError, match="palette script was not found"):
        early_palette('<input data-md-color-media="x"><article>')


def test_header_titles_wait_for_the_reader(built_site):
    """The header's hints are data-title in the HTML (Material would build a tooltip for each at start-up),
    and every such control keeps an accessible name of its own."""
    from sitebuild.hooks.site import plain_header_titles

    for page in ("index.html", "en/faq/index.html", "notebooks/faq/index.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        header = html[html.index('<header class="md-header'):html.index("</header>")]
        assert " title=" not in header and header.count(" data-title=") >= 3
        for tag in re.findall(r"<[^>]* data-title=[^>]*>", header):
            if "aria-label=" in tag:
                continue
            target = re.search(r'<label [^>]*for="([^"]+)"', tag)  # a palette toggle labels its input
            inputs = re.findall(r"<input [^>]*>", header)
            assert target and any(f'id="{target.group(1)}"' in i and "aria-label=" in i for i in inputs), tag[:120]
    text = '<header class="md-header x"><a title="t" aria-label="t"></a></header><p title="kept">'
    assert plain_header_titles(text) == '<header class="md-header x"><a data-title="t" aria-label="t"></a></header><p title="kept">'
