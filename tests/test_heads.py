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
    r = one_head_vs_two(tokens, ("[order-api]", "5000ms"))
    v = embed_tokens(tokens, 4)[0]  # (T, 4): the value of each token
    wa, wb, out, swapped = r[1]
    assert wa == pytest.approx(0.5, abs=1e-6) and wb == pytest.approx(0.5, abs=1e-6)
    assert torch.allclose(out, (v[3] + v[8]) / 2, atol=1e-6)  # both tokens, at half strength ...
    assert torch.equal(out, swapped)  # ... and swapping them changes nothing
    wa, wb, out, swapped = r[2]
    assert wa == pytest.approx(1.0, abs=1e-6) and wb == pytest.approx(1.0, abs=1e-6)
    # same width as one head: two heads of width 2, each with its half of the fetched token's value
    assert out.shape == swapped.shape == (4,)
    assert torch.allclose(out, torch.cat([v[3, :2], v[8, 2:]]), atol=1e-6)
    assert torch.allclose(swapped, torch.cat([v[8, :2], v[3, 2:]]), atol=1e-6)
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
    # the one head's change is exactly 0: said in words, not as "at most 0.00"
    assert "its 4 output features do not change at all" in fetched_sentence(r, "en")
    assert "这 4 维输出一点都没有变" in fetched_sentence(r, "zh") and "输出同样是 4 维" in fetched_sentence(r, "zh")
    assert "0.00" not in fetched_sentence(r, "en") and "at most" not in fetched_sentence(r, "en")
    nearly = dict(r)
    nearly[1] = (0.5, 0.5, r[1][2], r[1][2] + 1e-6)
    assert "change by at most 1.0e-06" in fetched_sentence(nearly, "en")
    assert "最多只变 1.0e-06" in fetched_sentence(nearly, "zh")
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads"):
        one_head_vs_two(tokens, ("ERROR", "3"), width=5)


def test_position_in_the_values_keeps_one_heads_average_symmetric():
    r = swap_test(log_tokens(), ("[order-api]", "5000ms"))
    assert tuple(r) == SWAP_CASES
    assert r["content"] == (0.0, pytest.approx(0.5), pytest.approx(0.5))
    assert r["position"][0] < 1e-5  # W(e+p): rounding only
    assert r["position"][1:] == (pytest.approx(0.5), pytest.approx(0.5))
    # unequal weights that ignore content break it: 0.6 / 0.4 on content-only values
    change, wa, wb = r["uneven"]
    assert (wa, wb) == (pytest.approx(0.6, abs=1e-6), pytest.approx(0.4, abs=1e-6))
    assert change == pytest.approx(1.373, abs=1e-3)
    # the change is (0.6 - 0.4) times the largest gap between the two tokens' values, whatever the values are
    e = embed_tokens(log_tokens(), 4)[0]
    g = torch.Generator().manual_seed(0)
    torch.randn(11, 4, generator=g)  # the position embeddings (T, width), drawn first
    W = torch.randn(4, 4, generator=g)
    assert change == pytest.approx(0.2 * ((e[3] - e[8]) @ W).abs().max().item(), rel=1e-5)
    assert r["layer_norm"][0] == pytest.approx(0.355, abs=1e-3)  # nonlinear mixing of content and position
    assert r["layer_norm"][1:] == (pytest.approx(0.5), pytest.approx(0.5))
    change, wa, wb = r["content_keys"]
    assert change == pytest.approx(1.686, abs=1e-3)  # so do weights that depend on content ...
    assert (round(wa, 3), round(wb, 3)) == (0.974, 0.026)  # ... at the cost of the other target's weight
    rows = swap_rows(r, "zh")
    assert [row[0] for row in rows] == ["W·e（只有内容）", "W·e（同上）", "W·(e+p)（内容加位置）", "W·LN(e+p)",
                                        "W·(e+p)（同上）"]
    assert [row[2:] for row in swap_rows(r, "en")] == [
        ("0.500 / 0.500", "0.00"), ("0.600 / 0.400", "1.37"), ("0.500 / 0.500", "4.8e-07"),
        ("0.500 / 0.500", "0.35"), ("0.974 / 0.026", "1.69")]
    assert rows[1][1] == "位置；查询偏向一处"
    zh, en = swap_sentence(r, "zh"), swap_sentence(r, "en")
    assert "只是浮点舍入" in zh and "另外三种做法都打破了这种对称" in zh
    assert "两处分到 0.600 和 0.400，互换后输出差 1.37" in zh
    assert zh.endswith("两处的权重变成 0.974 和 0.026。两个词元都还取回了一些，只是多少不等。")
    assert en.startswith("With position in the values, W·(e+p), swapping the two tokens")
    assert "Each of the other three setups breaks it" in en and "which then get 0.600 and 0.400, the swap changes the output by 1.37" in en
    assert en.endswith("get 0.974 and 0.026. The head still fetches both tokens, in unequal shares.")
    # the closing words follow the weights: content in the keys that leaves both tokens some weight
    one = {**r, "content_keys": (1.7, 0.997, 0.003)}
    assert swap_sentence(one, "zh").endswith("这个头实际上只取回了一个词元：对称是打破了，代价是另一个目标几乎分不到权重。")
    assert swap_sentence(one, "en").endswith("The head now fetches essentially one token: breaking the symmetry has cost "
                                             "the other target nearly all of its weight.")
    both = {**r, "content_keys": (0.3, 0.7, 0.3)}
    assert swap_sentence(both, "en").endswith("The head still fetches both tokens, in unequal shares.")
    assert swap_sentence(both, "zh").endswith("两个词元都还取回了一些，只是多少不等。")
    assert swap_test(log_tokens(), ("[order-api]", "5000ms"), lean=0.9)["uneven"][1] == pytest.approx(0.9)
    with pytest.raises(ValueError, match="expected swap_test's cases"):
        swap_sentence({"content": (0.0, 0.5, 0.5)}, "en")
    with pytest.raises(ValueError, match="'nope' is not one of the tokens"):
        swap_test(log_tokens(), ("nope", "ERROR"))
    with pytest.raises(ValueError, match=r"lean must be a float in \(0, 1\), got 1.0"):
        swap_test(log_tokens(), ("[order-api]", "5000ms"), lean=1.0)


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
        "从 1 个头到 16 个头，参数量都是 1,050,624；每个查询的注意力分布从 1 个变成 16 个，每个头的维数 d_k 从 512 降到 32。")
    with pytest.raises(ValueError, match="one parameter count"):
        parameter_sentence([(1, 512, 10, 1), (2, 256, 11, 2)], "en")


def test_print_helpers():
    assert rounded(torch.tensor([0.12345, 2.0])) == [0.123, 2.0]
    assert check_rows([("x", 3e-7, True)]) == [("x", "3.0e-07", "✅")]


def test_param_count_counts_every_parameter():
    assert param_count(torch.nn.Linear(4, 3)) == 4 * 3 + 3
    with pytest.raises(ValueError, match="module must be a torch.nn.Module, got list"):
        param_count([])
