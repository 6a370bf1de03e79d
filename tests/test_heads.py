from __future__ import annotations

import pytest
import torch

from snippets.heads import fetched_table, one_head_vs_two, param_count, parameter_table, per_head_projection_error
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
    assert torch.allclose(out, torch.cat([v[3], v[6]]), atol=1e-6)  # each head's slot holds one token
    assert torch.allclose(swapped, torch.cat([v[6], v[3]]), atol=1e-6)
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


def test_per_head_projection_is_a_row_block():
    assert per_head_projection_error(64, 8) < 1e-6
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads: got d_model=64, num_heads=5"):
        per_head_projection_error(64, 5)


def test_parameter_count_does_not_depend_on_heads():
    rows = parameter_table(512, (1, 2, 4, 8, 16))
    assert {params for _, _, params, _ in rows} == {4 * 512 * 512 + 4 * 512}
    assert [(h, d_k) for h, d_k, _, _ in rows] == [(1, 512), (2, 256), (4, 128), (8, 64), (16, 32)]


def test_print_helpers():
    assert rounded(torch.tensor([0.12345, 2.0])) == [0.123, 2.0]
    assert check_rows([("x", 3e-7, True)]) == [("x", "3.0e-07", "✅")]


def test_param_count_counts_every_parameter():
    assert param_count(torch.nn.Linear(4, 3)) == 4 * 3 + 3
    with pytest.raises(ValueError, match="module must be a torch.nn.Module, got list"):
        param_count([])
