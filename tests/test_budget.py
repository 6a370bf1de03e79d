"""Performance budgets, the measures read from the files (sitebuild/budget.py; the DOM measures are in
tests/browser/test_budget_dom.py): every page of the built site, both languages, notebook pages
included, stays within the budget of its kind in tests/budgets.json, and the README's table is that file.

A budget that is exceeded is a deliberate decision to make, not a flaky test: see the README
("Performance budgets") for the command that measures every page and resets a kind's budget.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from conftest import ROOT

from sitebuild import budget

BUDGETS = budget.load_budgets()


@pytest.fixture(scope="module")
def measured(built_site) -> dict[str, dict[str, int]]:
    cache: dict = {}
    return {page: budget.static_measures(built_site, page, _cache=cache) for page in budget.pages(built_site)}


def test_every_page_is_within_its_budget(measured):
    assert len(measured) >= 30, sorted(measured)
    over = [line for page, m in measured.items() for line in budget.over_budget(page, m, BUDGETS)]
    assert not over, ("over budget (measure every page: python -m sitebuild.budget SITE; reset a kind "
                      "deliberately with --reset KIND):\n" + "\n".join(over))


def test_every_kind_has_every_measure_and_every_budget_is_used(measured):
    keys = {k for k, _, _ in budget.MEASURES}
    for kind, row in BUDGETS["budgets"].items():
        assert set(row) == keys, (kind, sorted(keys ^ set(row)))
        assert set(BUDGETS["measured"][kind]) == keys, kind
        for key in keys:  # each budget is what was measured plus the margin, not a hand-set number
            assert row[key] == budget.new_budget(BUDGETS["measured"][kind][key], BUDGETS["margin"]), (kind, key)
    assert {budget.kind(p) for p in measured} == set(BUDGETS["budgets"])


def test_readme_states_the_budgets():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert budget.readme_section(readme) == budget.readme_table(BUDGETS), (
        "README.md's budget table differs from tests/budgets.json: rewrite it with "
        "python -c 'from sitebuild import budget; budget.write(budget.load_budgets())'")
    assert f"plus {round(BUDGETS['margin'] * 100)}%" in readme


def doctored_faq(html: str) -> str:
    """The FAQ page made heavier on purpose: its largest figure three more times, 38 kB of text that gzip
    cannot shrink much, two more scripts and three more stylesheets (files the site has)."""
    big = max(re.findall(r"<svg\b.*?</svg>", html, re.S), key=len)
    noise = "".join(hashlib.sha256(str(i).encode()).hexdigest() for i in range(600))
    a = "../../assets/"
    extra = "".join(f'<link rel="stylesheet" href="{a}{css}">' for css in ("notebook.css", "whatif-lab.css",
                                                                           "headview.css"))
    extra += f'<script src="{a}whatif-lab.js"></script><script src="{a}headview.js"></script>'
    return html.replace("</article>", f"<svg>{big * 3}</svg><pre>{noise}</pre></article>", 1).replace(
        "</body>", f"{extra}</body>", 1)


def test_a_page_made_heavier_fails(built_site):
    """The FAQ page passes; its doctored copy exceeds the FAQ budget on every static measure it inflates."""
    page = "en/faq/"
    html = (built_site / page / "index.html").read_text(encoding="utf-8")
    assert not budget.over_budget(page, budget.static_measures(built_site, page), BUDGETS)
    doctored = doctored_faq(html)
    assert doctored.count("</article>") == html.count("</article>") >= 1
    over = budget.over_budget(page, budget.static_measures(built_site, page, html=doctored), BUDGETS)
    failed = {line.split(": ")[1].split()[0] for line in over}
    assert failed == {"html", "html_gz", "svg_max", "css", "css_gz", "js", "js_gz", "scripts", "stylesheets"}, over
    assert all(line.startswith(f"/{page}: ") and line.endswith("(faq)") for line in over), over


def test_measures_are_what_the_files_say(tmp_path):
    """A tiny site: a page, a stylesheet, a script, an image inside an SVG, a data file; gzip only for text."""
    (tmp_path / "a").mkdir()
    (tmp_path / "s.css").write_text("p{color:red}" * 100, encoding="utf-8")
    (tmp_path / "x.js").write_text("var a=1;" * 100, encoding="utf-8")
    (tmp_path / "i.png").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "d.json").write_text(json.dumps(list(range(300))), encoding="utf-8")
    svg = '<svg><image xlink:href="../i.png"/></svg>'
    html = (f'<html><head><link rel="stylesheet" href="../s.css"><link rel="canonical" href="https://x/a/">'
            f'<script src="../x.js"></script><script src="../x.js"></script></head><body>{svg}'
            f'<script type="application/json" data-src="../d.json"></script></body></html>')
    (tmp_path / "a" / "index.html").write_text(html, encoding="utf-8")
    m = budget.static_measures(tmp_path, "a/")
    assert (m["html"], m["css"], m["js"], m["data"]) == (len(html), 1200, 800, 1024 + len(json.dumps(list(range(300)))))
    assert m["data_gz"] > 1024 and m["css_gz"] < 100 and m["js_gz"] < 100  # the image is sent as it is
    assert (m["scripts"], m["stylesheets"], m["svg_max"]) == (2, 1, len(svg))  # one script loaded twice: 2, bytes once
    (tmp_path / "a" / "index.html").write_text(html.replace("../d.json", "../missing.json"), encoding="utf-8")
    with pytest.raises(ValueError, match="missing.json"):
        budget.static_measures(tmp_path, "a/")
