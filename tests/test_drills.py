"""Failure drills: a deliberately broken page must make the strict build fail, naming the page.

Each drill builds a small site in a temporary folder: the real mkdocs.yml (theme, markdown
extensions, validation, i18n, markdown-exec, the build hooks), pointed at a docs folder holding a
home page and one drill page in both languages. The notebook plugin and hook are left out: they
turn pages into notebooks, which the drills do not need. A control build of the unbroken pages
must pass, so each failure is the breakage's doing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, build_site

LEAVE_OUT_PLUGINS = {"mkdocs-jupyter"}
LEAVE_OUT_HOOKS = {"notebooks.py"}

HOME = {
    "zh": "# 演练 { #home }\n\n见[演练页](drill.md#shapes)。\n",
    "en": "# Drills { #home }\n\nSee [the drill page](drill.md#shapes).\n",
}
DRILL = {
    "zh": """# 演练页 { #drill }

## 形状 { #shapes }

```python
--8<-- "snippets/multihead.py:split_heads"
```

```python exec="1" source="tabbed-left" tabs="代码|输出"
from snippets.multihead import MultiHeadAttention
print(MultiHeadAttention(8, 2).W_q)
```

回到[本页开头](#shapes)。
""",
    "en": """# Drill page { #drill }

## Shapes { #shapes }

```python
--8<-- "snippets/multihead.py:split_heads"
```

```python exec="1" source="tabbed-left" tabs="Code|Output"
from snippets.multihead import MultiHeadAttention
print(MultiHeadAttention(8, 2).W_q)
```

Back to [the top of the page](#shapes).
""",
}

# (what is broken, how the zh page is broken)
BREAKS = {
    "snippet-raises": ("MultiHeadAttention(8, 2)", "MultiHeadAttention(10, 3)"),
    "missing-section": ('"snippets/multihead.py:split_heads"', '"snippets/multihead.py:no_such_section"'),
    "broken-anchor": ("[本页开头](#shapes)", "[本页开头](#no-such-anchor)"),
}
# What the build log must say, besides naming the page.
SAYS = {
    "snippet-raises": "d_model",
    "missing-section": "no_such_section",
    "broken-anchor": "no-such-anchor",
}


def drill_config(tmp: Path) -> Path:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(tmp / "docs")
    if "custom_dir" in config["theme"]:
        config["theme"]["custom_dir"] = str(ROOT / config["theme"]["custom_dir"])
    config["hooks"] = [str(ROOT / h) for h in config.get("hooks", []) if Path(h).name not in LEAVE_OUT_HOOKS]
    if "watch" in config:  # relative paths would resolve against the temporary config's folder
        config["watch"] = [str(ROOT / w) for w in config["watch"]]
    plugins = []
    for plugin in config["plugins"]:
        name = plugin if isinstance(plugin, str) else next(iter(plugin))
        if name not in LEAVE_OUT_PLUGINS:
            plugins.append(plugin)
    config["plugins"] = plugins
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict) and "pymdownx.snippets" in ext:
            ext["pymdownx.snippets"]["base_path"] = [str(ROOT)]
            auto = ext["pymdownx.snippets"].get("auto_append")
            if auto:
                ext["pymdownx.snippets"]["auto_append"] = [str(ROOT / a) for a in auto]
    config["nav"] = [{"首页": "index.md"}, {"演练": "drill.md"}]
    path = tmp / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def drill_site(tmp: Path, broken: str | None) -> Path:
    docs = tmp / "docs"
    docs.mkdir(parents=True)
    shutil.copytree(ROOT / "docs" / "assets", docs / "assets")
    for lang in ("zh", "en"):
        (docs / f"index.{lang}.md").write_text(HOME[lang], encoding="utf-8")
        page = DRILL[lang]
        if broken and lang == "zh":
            old, new = BREAKS[broken]
            assert old in page
            page = page.replace(old, new)
        (docs / f"drill.{lang}.md").write_text(page, encoding="utf-8")
    return drill_config(tmp)


def test_unbroken_drill_site_builds(tmp_path):
    proc = build_site(tmp_path / "site", config=drill_site(tmp_path, None))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    html = (tmp_path / "site" / "drill" / "index.html").read_text(encoding="utf-8")
    assert "Linear(in_features=8, out_features=8" in html  # the exec block ran


@pytest.mark.parametrize("broken", sorted(BREAKS))
def test_broken_page_fails_the_strict_build(tmp_path, broken):
    proc = build_site(tmp_path / "site", config=drill_site(tmp_path, broken))
    log = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"the strict build passed with a {broken} page:\n{log[-3000:]}"
    assert "drill.zh.md" in log, f"the build failed without naming the page:\n{log[-3000:]}"
    assert SAYS[broken] in log, log[-3000:]
