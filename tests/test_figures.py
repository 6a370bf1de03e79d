from __future__ import annotations

import re

import pytest
import torch

from snippets.figures import head_titles, heatmap_grid


def test_heatmap_is_deterministic_inline_svg_with_alt_text():
    w = torch.softmax(torch.randn(4, 5, 5, generator=torch.Generator().manual_seed(0)), -1)
    labels = list("abcde")
    a = heatmap_grid(w, labels, titles=head_titles(4, "头 {}"), alt="四个头的热力图", caption="说明")
    b = heatmap_grid(w, labels, titles=head_titles(4, "头 {}"), alt="四个头的热力图", caption="说明")
    assert a == b
    assert re.match(r'<figure class="mha-fig[\w -]*"><svg role="img" aria-label="四个头的热力图" style="min-width: \d+px; ', a)
    assert "<figcaption>说明<span class=\"mha-fig__note\">（窄屏上可左右滑动查看全图）</span></figcaption>" in a
    assert "<?xml" not in a and "<dc:date>" not in a and "#010203" not in a
    assert "currentColor" in a
    assert ">头 3<" in a  # text stays text
    ids = re.findall(r'id="([^"]+)"', a)
    assert len(ids) == len(set(ids))
    prefix = ids[0].split("-")[0]
    assert all(i.startswith(prefix + "-") for i in ids)


def test_two_figures_do_not_share_ids():
    w = torch.softmax(torch.randn(2, 3, 3), -1)
    a = heatmap_grid(w, list("abc"), alt="first")
    b = heatmap_grid(w, list("abc"), alt="second")
    assert not set(re.findall(r'id="([^"]+)"', a)) & set(re.findall(r'id="([^"]+)"', b))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"row_labels": list("ab")}, r"expected 3 row and 3 column labels, got 2 and 2"),
        ({"row_labels": list("abc"), "titles": ["x"]}, r"expected 2 titles \(one per map\), got 1"),
        ({"row_labels": list("abc"), "alt": ""}, r"alt must be a non-empty description"),
    ],
)
def test_heatmap_errors(kwargs, message):
    kwargs.setdefault("alt", "x")
    with pytest.raises(ValueError, match=message):
        heatmap_grid(torch.rand(2, 3, 3), **kwargs)


def test_head_titles_errors():
    with pytest.raises(ValueError, match="template must contain"):
        head_titles(2, "head")
    with pytest.raises(ValueError, match="num_heads must be a positive integer, got 0"):
        head_titles(0, "head {}")
    with pytest.raises(ValueError, match="num_heads must be a positive integer, got True"):
        head_titles(True, "head {}")


def test_drawing_figures_leaves_pyplot_and_the_backend_alone():
    """A reader's notebook keeps its backend: the figure code never imports pyplot or picks a backend."""
    import subprocess
    import sys

    code = ("import matplotlib, sys; matplotlib.use('svg'); before = matplotlib.get_backend()\n"
            "from snippets.figures import heatmap_grid\n"
            "heatmap_grid([[1.0, 0.0], [0.0, 1.0]], ['a', 'b'], alt='x')\n"
            "print(before == matplotlib.get_backend(), 'matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "False"]
