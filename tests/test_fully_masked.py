"""A query whose every key is masked: NaN, zeros or a uniform row, depending on the implementation."""

from __future__ import annotations

import torch

from snippets.official import fully_masked_row, fully_masked_rows


def test_fully_masked_row_per_implementation():
    rows = fully_masked_row()
    ours, mha, sdpa, source = rows.values()
    assert bool(ours.isnan().all()) and bool(mha.isnan().all())
    assert torch.equal(sdpa, torch.zeros_like(sdpa))
    assert torch.allclose(source, torch.full_like(source, 1 / source.numel()))


def test_printable_rows_keep_the_order_and_show_nan():
    rows = fully_masked_rows(S=5)
    assert [name.rsplit(", ", 1)[0] for name, _ in rows] == [
        "scaled_dot_product_attention (−inf)", "nn.MultiheadAttention", "F.scaled_dot_product_attention",
        "masked_fill(mask == 0, -1e9)"]
    assert rows[0][1] == "nan nan nan nan nan" and rows[3][1] == "0.20 0.20 0.20 0.20 0.20"


def test_batch_first_default_and_layouts():
    from snippets.official import batch_first_shapes

    rows = batch_first_shapes(N=2, L=5, E=8)
    assert rows[0][1] is False
    assert rows[1] == ("batch_first=True: x, out", "(2, 5, 8), (2, 5, 8)")
    assert rows[2] == ("batch_first=False: x, out", "(5, 2, 8), (5, 2, 8)")
