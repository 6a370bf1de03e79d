"""§3's why 1/√d_k (snippets/scaling.py): the variance argument and the saturation it prevents, in numbers."""

from __future__ import annotations

import math
import re

import pytest
import torch

from snippets import scaling
from snippets.exercises import s3


@pytest.mark.parametrize("d_k", [1, 8, 64, 512])
def test_dot_product_variance_is_d_k(d_k):
    assert scaling.dot_variance(d_k) == pytest.approx(d_k, rel=0.05)


def test_dot_variance_is_seeded():
    assert scaling.dot_variance(16, seed=3) == scaling.dot_variance(16, seed=3)
    assert scaling.dot_variance(16, seed=3) != scaling.dot_variance(16, seed=4)


def test_unscaled_softmax_saturates_as_d_k_grows():
    rows = [scaling.softmax_row_stats(d, scaled=False) for d in scaling.DK_SHOWN]
    entropies = [r.entropy for r in rows]
    grads = [r.grad_norm for r in rows]
    assert entropies == sorted(entropies, reverse=True) and entropies[-1] < 0.2
    assert grads == sorted(grads, reverse=True) and grads[-1] < grads[0] / 4
    assert rows[-1].top_weight > 0.9


def test_scaled_softmax_does_not_depend_on_d_k():
    rows = [scaling.softmax_row_stats(d, scaled=True) for d in scaling.DK_SHOWN]
    assert max(r.entropy for r in rows) - min(r.entropy for r in rows) < 0.05
    assert max(r.grad_norm for r in rows) - min(r.grad_norm for r in rows) < 0.02
    assert all(1.0 < r.entropy < math.log(scaling.KEYS) for r in rows)


def test_gradient_is_the_softmax_jacobian_applied_to_the_upstream_gradient():
    # recompute one row by hand: J = diag(w) - w wᵀ; grad = J @ upstream
    d_k, keys = 4, 3
    g = torch.Generator().manual_seed(0)
    q = torch.randn(1, 1, d_k, generator=g, dtype=torch.float64)
    k = torch.randn(1, keys, d_k, generator=g, dtype=torch.float64)
    w = torch.softmax((q @ k.transpose(-2, -1) / math.sqrt(d_k))[0, 0], -1)
    upstream = torch.randn(1, 1, keys, generator=g, dtype=torch.float64)[0, 0]
    grad = (torch.diag(w) - torch.outer(w, w)) @ upstream
    stats = scaling.softmax_row_stats(d_k, scaled=True, keys=keys, rows=1)
    assert stats.grad_norm == pytest.approx(grad.norm().item(), rel=1e-12)
    assert stats.entropy == pytest.approx(-(w * w.log()).sum().item(), rel=1e-12)
    assert stats.top_weight == pytest.approx(w.max().item(), rel=1e-12)


def test_rows_and_sentence_carry_the_same_numbers():
    rows = scaling.scaling_rows()
    assert [r[0] for r in rows] == list(scaling.DK_SHOWN)
    for lang in ("en", "zh"):
        sentence = scaling.scaling_sentence(lang)
        for field in (rows[0][2], rows[-1][2], rows[0][4], rows[-1][4], rows[-1][3], rows[-1][5]):
            assert field in sentence
        assert "2.08" in sentence  # ln 8, the uniform row
    assert "q·k 的方差分别是 " in scaling.scaling_sentence("zh")


def test_figure_is_svg_text_with_both_series_in_each_language():
    for lang, word in (("en", "unscaled"), ("zh", "不缩放")):
        svg = scaling.scaling_figure(lang, d_ks=(8, 64, 512))
        assert svg.startswith('<figure class="mha-fig') and "<svg" in svg and word in svg
        assert "<text" in svg  # fonttype none: labels stay text
        sizes = [float(s) for s in re.findall(r"font-size: ?([\d.]+)px", svg)]
        assert min(sizes) >= 10


@pytest.mark.parametrize("call, message", [
    (lambda: scaling.softmax_row_stats(8, True, keys=1), r"keys must be an integer >= 2 .*got 1"),
    (lambda: scaling.softmax_row_stats(0, True), r"d_k must be a positive integer, got 0"),
    (lambda: scaling.softmax_row_stats(8, True, rows=0), r"rows must be a positive integer, got 0"),
    (lambda: scaling.scaling_sentence("fr"), r"lang must be one of"),
    (lambda: s3.scale_power_rows(keys=1), r"keys must be an integer >= 2, got 1"),
])
def test_argument_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- §3's exercise: divide by d_k instead --------------------------------------------------------


def test_exercise_only_the_square_root_keeps_the_row_entropy_flat():
    rows = s3.scale_power_rows()
    raw, sqrt, full = ([float(r[i]) for r in rows] for i in (1, 2, 3))
    assert raw == sorted(raw, reverse=True) and raw[-1] < 0.2  # saturates
    assert max(sqrt) - min(sqrt) <= 0.02  # flat
    assert full == sorted(full) and full[-1] > math.log(8) - 0.01  # drifts to uniform: nothing is chosen
    assert s3.scaled_row_entropy(64, 0.5) == pytest.approx(scaling.softmax_row_stats(64, True).entropy, rel=1e-12)
