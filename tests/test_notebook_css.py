"""The notebook stylesheet is cut to what the rendered notebooks can use (sitebuild/notebooks/css.py).

That the cut changes no computed style on the real pages is checked in a browser
(tests/browser/test_notebook_pages.py); these tests pin down the rules one by one.
"""

from __future__ import annotations

from sitebuild.notebooks.css import classes_in, prune

CSS = """
@charset "utf-8";
.jupyter-wrapper { --jp-used: var(--jp-inner); --jp-inner: 4px; --jp-unused: red; }
.jupyter-wrapper .jp-Cell { padding: var(--jp-used); }
.jupyter-wrapper .jp-Toolbar, .jupyter-wrapper .jp-OutputArea { color: blue; }
.jupyter-wrapper .lm-Widget:not(.jp-Cell) { display: none; }
.jupyter-wrapper .jp-Cell:not(.jp-Dialog) { margin: 0; }
.jupyter-wrapper .md-typeset__scrollwrap { margin: 0; }
pre { line-height: 125%; }
@media (max-width: 760px) { .jupyter-wrapper .jp-Dialog { top: 0; } .jupyter-wrapper .jp-Cell { top: 1px; } }
@media print { .jupyter-wrapper .jp-Menu { display: none; } }
@keyframes jp-spin { to { transform: rotate(360deg); } }
@keyframes jp-unused-spin { to { opacity: 0; } }
.jupyter-wrapper .jp-OutputArea { animation: jp-spin 1s linear; }
"""
CLASSES = frozenset({"jupyter-wrapper", "jp-Cell", "jp-OutputArea"})


def test_classes_in_collects_every_class_of_every_element():
    assert classes_in('<div class="a  b"><p class="c">x</p><span>y</span></div>') == {"a", "b", "c"}


def test_keeps_rules_whose_jupyterlab_classes_occur_and_drops_the_rest():
    out = prune(CSS, CLASSES)
    assert ".jupyter-wrapper .jp-Cell{padding:var(--jp-used)}" in out
    # a selector list keeps its matching selectors only
    assert ".jupyter-wrapper .jp-OutputArea{color:blue}" in out and "jp-Toolbar" not in out
    # a class inside :not() is not required
    assert ".jupyter-wrapper .jp-Cell:not(.jp-Dialog){margin:0}" in out
    assert "lm-Widget" not in out


def test_keeps_rules_for_classes_that_scripts_add_and_rules_outside_the_scope():
    out = prune(CSS, CLASSES)
    assert ".jupyter-wrapper .md-typeset__scrollwrap{margin:0}" in out  # Material adds it at run time
    assert "pre{line-height:125%}" in out


def test_media_blocks_keep_their_kept_rules_and_vanish_when_empty():
    out = prune(CSS, CLASSES)
    assert "@media (max-width: 760px){\n.jupyter-wrapper .jp-Cell{top:1px}\n}" in out
    assert "jp-Dialog{top" not in out
    assert "@media print" not in out


def test_custom_properties_stay_when_read_directly_or_through_another():
    out = prune(CSS, CLASSES)
    assert "--jp-used:var(--jp-inner)" in out and "--jp-inner:4px" in out
    assert "--jp-unused" not in out
    # a variable read only by the CSS served next to it stays too
    assert "--jp-unused:red" in prune(CSS, CLASSES, extra=".x { color: var(--jp-unused); }")


def test_keyframes_stay_when_an_animation_names_them():
    out = prune(CSS, CLASSES)
    assert "@keyframes jp-spin" in out and "jp-unused-spin" not in out
    assert "@keyframes" not in prune(CSS, frozenset({"jupyter-wrapper"}))


def test_everything_goes_when_no_notebook_class_occurs_except_what_may_apply_anyway():
    out = prune(CSS, frozenset())
    assert "jp-Cell" not in out and "--jp-" not in out
    assert "md-typeset__scrollwrap" not in out  # needs .jupyter-wrapper, which no notebook has then
    assert "pre{line-height:125%}" in out
