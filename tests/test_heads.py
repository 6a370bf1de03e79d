from __future__ import annotations

import pytest
import torch

from snippets.heads import (
    SWAP_CASES,
    concat_sentence,
    concat_vs_sum,
    fetched_sentence,
    fetched_table,
    one_head_vs_two,
    param_count,
    parameter_sentence,
    parameter_table,
    per_head_projection_error,
    projection_sentence,
    swap_rows,
    swap_sentence,
    swap_test,
)
from snippets.logline import embed_tokens, log_tokens
from snippets.tables import check_rows, rounded


def test_one_head_cannot_tell_which_token_stood_where_two_heads_can():
    tokens = log_tokens()
    r = one_head_vs_two(tokens, ("[order-api]", "duration=5000ms"))
    v = embed_tokens(tokens, 4)[0]  # (T, 4): the value of each token
    wa, wb, out, swapped = r[1]
    assert wa == pytest.approx(0.5, abs=1e-6) and wb == pytest.approx(0.5, abs=1e-6)
    assert torch.allclose(out, (v[3] + v[6]) / 2, atol=1e-6)  # both tokens, at half strength ...
    assert torch.equal(out, swapped)  # ... and swapping them changes nothing
    wa, wb, out, swapped = r[2]
    assert wa == pytest.approx(1.0, abs=1e-6) and wb == pytest.approx(1.0, abs=1e-6)
    # same width as one head: two heads of width 2, each with its half of the fetched token's value
    assert out.shape == swapped.shape == (4,)
    assert torch.allclose(out, torch.cat([v[3, :2], v[6, 2:]]), atol=1e-6)
    assert torch.allclose(swapped, torch.cat([v[6, :2], v[3, 2:]]), atol=1e-6)
    rows = fetched_table(r, "en")
    assert rows[0][0] == "1 head" and rows[0][1:3] == ("0.500", "0.500") and rows[0][-1] == "0.00"
    assert float(rows[1][-1]) > 0.5
    assert [row[0] for row in fetched_table(r, "zh")] == ["1 个头", "2 个头"]
    with pytest.raises(ValueError, match="'nope' is not one of the tokens"):
        one_head_vs_two(tokens, ("nope", "ERROR"))
    with pytest.raises(ValueError, match="wanted must be two different tokens"):
        one_head_vs_two(tokens, ("ERROR", "ERROR"))
    with pytest.raises(ValueError, match="lang must be one of"):
        fetched_table(r, "fr")
    assert fetched_sentence(r, "en").startswith("One head splits its weight between the two places (0.500 and 0.500)")
    assert "最多只变 0.00" in fetched_sentence(r, "zh") and "输出同样是 4 维" in fetched_sentence(r, "zh")
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads"):
        one_head_vs_two(tokens, ("ERROR", "retry=3"), width=5)


def test_position_in_the_values_keeps_one_heads_average_symmetric():
    r = swap_test(log_tokens(), ("[order-api]", "duration=5000ms"))
    assert tuple(r) == SWAP_CASES
    assert r["content"][0] == 0.0
    assert r["position"][0] < 1e-5  # W(e+p): rounding only
    assert r["position"][1:] == (pytest.approx(0.5), pytest.approx(0.5))
    assert r["layer_norm"][0] > 0.1  # nonlinear mixing of content and position breaks it
    change, wa, wb = r["content_keys"]
    assert change > 0.1 and abs(wa - wb) > 0.5  # so do weights that depend on content
    rows = swap_rows(r, "zh")
    assert [row[0] for row in rows] == ["W·e（只有内容）", "W·(e+p)（内容加位置）", "W·层归一化(e+p)", "W·(e+p)（同上）"]
    assert rows[1][2] == "0.500 / 0.500"
    assert "只是浮点舍入" in swap_sentence(r, "zh")
    assert swap_sentence(r, "en").startswith("With position in the values, W·(e+p), swapping the two tokens")
    with pytest.raises(ValueError, match="expected swap_test's cases"):
        swap_sentence({"content": (0.0, 0.5, 0.5)}, "en")
    with pytest.raises(ValueError, match="'nope' is not one of the tokens"):
        swap_test(log_tokens(), ("nope", "ERROR"))


def test_concatenating_heads_then_w_o_is_the_sum_of_each_heads_contribution():
    assert concat_vs_sum(512, 8) < 1e-5
    assert concat_vs_sum(64, 4, seed=1) < 1e-5
    assert concat_sentence(2e-7, 8, "en").endswith("differ by at most 2.0e-07, only floating-point rounding.")
    assert "超出了浮点舍入" in concat_sentence(0.5, 8, "zh")
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads: got d_model=64, num_heads=5"):
        concat_vs_sum(64, 5)


def test_per_head_projection_is_a_row_block():
    assert per_head_projection_error(64, 8) < 1e-6
    assert projection_sentence(2.4e-7, "zh").startswith("先整体投影再切分，和每个头单独投影相比，最大差 2.4e-07，只是浮点舍入")
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads: got d_model=64, num_heads=5"):
        per_head_projection_error(64, 5)


def test_parameter_count_does_not_depend_on_heads():
    rows = parameter_table(512, (1, 2, 4, 8, 16))
    assert {params for _, _, params, _ in rows} == {4 * 512 * 512 + 4 * 512}
    assert [(h, d_k) for h, d_k, _, _ in rows] == [(1, 512), (2, 256), (4, 128), (8, 64), (16, 32)]
    assert parameter_sentence(rows, "zh") == (
        "从 1 个头到 16 个头，参数量都是 1,050,624；每个查询的注意力分布从 1 个变成 16 个，每个头的宽度 d_k 从 512 降到 32。")
    with pytest.raises(ValueError, match="one parameter count"):
        parameter_sentence([(1, 512, 10, 1), (2, 256, 11, 2)], "en")


def test_print_helpers():
    assert rounded(torch.tensor([0.12345, 2.0])) == [0.123, 2.0]
    assert check_rows([("x", 3e-7, True)]) == [("x", "3.0e-07", "✅")]


def test_param_count_counts_every_parameter():
    assert param_count(torch.nn.Linear(4, 3)) == 4 * 3 + 3
    with pytest.raises(ValueError, match="module must be a torch.nn.Module, got list"):
        param_count([])
