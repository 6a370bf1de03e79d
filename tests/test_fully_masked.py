"""A query whose every key is masked: NaN, zeros, the output bias or a uniform row, depending on the code path."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from snippets.official import (fully_masked_path_rows, fully_masked_paths, fully_masked_row, fully_masked_rows,
                               fully_masked_summary, kernel_seen)


def test_fully_masked_row_per_function():
    rows = fully_masked_row()
    ours, sdpa, source = rows.values()
    assert bool(ours.isnan().all())
    assert torch.equal(sdpa, torch.zeros_like(sdpa))
    assert torch.allclose(source, torch.full_like(source, 1 / source.numel()))


def test_printable_rows_keep_the_order_and_show_nan():
    rows = fully_masked_rows(S=5)
    assert [name.rsplit(", ", 1)[0] for name, _ in rows] == [
        "scaled_dot_product_attention (−inf)", "F.scaled_dot_product_attention", "masked_fill(mask == 0, -1e9)"]
    assert [name for name, _ in rows] == list(fully_masked_row())  # the English labels are the code's keys
    assert [name for name, _ in fully_masked_rows("zh", S=5)] == [
        "scaled_dot_product_attention（填 −inf），权重", "F.scaled_dot_product_attention，输出",
        "masked_fill(mask == 0, -1e9)，权重"]
    assert rows[0][1] == "nan nan nan nan nan" and rows[2][1] == "0.20 0.20 0.20 0.20 0.20"


def test_each_code_path_of_nn_multihead_attention_on_a_fully_masked_row():
    found, bias = fully_masked_paths()
    assert list(found) == ["ours", "train_weights", "train_sdpa", "fast_weights", "fast", "cross"]
    assert bool((bias != 0).all())  # the row can only equal the bias if the bias is visible
    kernels = {path: kernel for path, (kernel, _, _) in found.items()}
    assert kernels == {
        "ours": "_softmax", "train_weights": "_softmax",
        "train_sdpa": "_scaled_dot_product_flash_attention_for_cpu",
        "fast_weights": "_native_multi_head_attention", "fast": "_native_multi_head_attention",
        "cross": "_scaled_dot_product_flash_attention_for_cpu",
    }
    for path in ("ours", "train_weights", "fast_weights", "fast"):  # NaN in the whole output row
        assert bool(found[path][1].isnan().all()), path
    for path in ("train_sdpa", "cross"):  # attention part 0: the row is exactly the output bias
        assert torch.equal(found[path][1], bias), path
    for path in ("ours", "train_weights", "fast_weights"):
        assert bool(found[path][2].isnan().all()), path
    assert all(found[p][2] is None for p in ("train_sdpa", "fast", "cross"))


def test_the_same_row_with_the_default_zero_bias_and_batch_first_false_is_zero():
    """A new layer's out_proj.bias is 0, so the SDPA path returns 0; batch_first=False also leaves the fast path."""
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2).eval()  # batch_first=False, the default
    x = torch.randn(3, 1, 8)  # (L, N, E)
    masked = torch.zeros(3, 3, dtype=torch.bool)
    masked[0] = True
    with torch.no_grad():
        out, _ = mha(x, x, x, attn_mask=masked, need_weights=False)
        out_w, w = mha(x, x, x, attn_mask=masked)
    assert torch.equal(out[0, 0], torch.zeros(8)) and not bool(out[1:].isnan().any())
    assert bool(out_w[0, 0].isnan().all()) and bool(w[0, 0].isnan().all())


def test_printed_path_rows_and_summary():
    zh, en = fully_masked_path_rows("zh"), fully_masked_path_rows("en")
    assert [r[3] for r in en] == ["NaN", "NaN", "exactly out_proj.bias", "NaN", "NaN", "exactly out_proj.bias"]
    assert [r[4] for r in en] == ["NaN", "NaN", "— (not returned)", "NaN", "— (not returned)", "— (not returned)"]
    assert [r[3] for r in zh] == ["NaN", "NaN", "恰好等于 out_proj.bias", "NaN", "NaN", "恰好等于 out_proj.bias"]
    assert [r[2] for r in zh] == [r[2] for r in en]
    assert fully_masked_summary("en").startswith(
        "Of these 6 paths, 4 return NaN for the fully masked row 0 and 2 return exactly out_proj.bias. The 2 that give"
        " the bias run _scaled_dot_product_flash_attention_for_cpu,")
    assert fully_masked_summary("zh").startswith("这 6 条路径里，被整行屏蔽的第 0 行在 4 条上输出 NaN，在 2 条上输出恰好等于")
    assert "输出偏置的这 2 条，运行的都是 _scaled_dot_product_flash_attention_for_cpu" in fully_masked_summary("zh")
    with pytest.raises(ValueError, match="lang must be one of"):
        fully_masked_path_rows("fr")


def test_kernel_seen_names_the_attention_operator():
    q = torch.randn(1, 2, 3, 4)
    with kernel_seen() as seen:
        F.scaled_dot_product_attention(q, q, q)
    assert seen["kernel"] == "_scaled_dot_product_flash_attention_for_cpu"
    with kernel_seen() as seen:
        q + 1
    assert seen["kernel"] is None


def test_batch_first_default_and_layouts():
    from snippets.official import batch_first_shapes

    rows = batch_first_shapes(N=2, L=5, E=8)
    assert rows[0][1] is False
    assert rows[1] == ("batch_first=True: x, out", "(2, 5, 8), (2, 5, 8)")
    assert rows[2] == ("batch_first=False: x, out", "(5, 2, 8), (5, 2, 8)")


def test_fast_path_rule_is_grad_enabled_and_requires_grad_with_biases_and_the_switch():
    """§3's fast-path table: torch tests `is_grad_enabled() and any(requires_grad)`, so inference_mode and
    frozen parameters take the fast path too; bias=False and the global switch keep it off even under no_grad."""
    from snippets.official import FAST_PATH_CASES, fast_path_cases, fast_path_rows

    found = fast_path_cases()
    assert tuple(found) == FAST_PATH_CASES
    fast = {name for name, kernel in found.items() if kernel == "_native_multi_head_attention"}
    assert fast == {"no_grad", "inference", "frozen"}
    assert torch.backends.mha.get_fastpath_enabled()  # the switch is put back
    for lang, yes in (("en", "yes"), ("zh", "是")):
        rows = fast_path_rows(lang)
        assert [r[2] == yes for r in rows] == [name in fast for name in FAST_PATH_CASES]
