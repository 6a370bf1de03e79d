"""The induction page's exercises (snippets/exercises/induction.py): each test checks what its exercise asks."""

from __future__ import annotations

import math

import pytest
import torch

from snippets.exercises import induction as ex
from snippets.induction.task import make_repeat_batch

SIZE = 256  # a quarter of the page's held-out batch keeps the tests fast


def test_hand_built_layer0_looks_one_back_and_layer1_finds_the_earlier_occurrence():
    m = ex.induction_by_hand()
    x, second = make_repeat_batch(4, seed=1)
    with torch.no_grad():
        _, attn = m(x, return_attention=True)
    T = x.shape[1]
    # layer 0: every position after the first puts almost all its weight on t - 1
    prev = attn[0][:, 0].diagonal(offset=-1, dim1=-2, dim2=-1)  # (N, T - 1)
    assert float(prev.min()) > 0.99
    # layer 1, on the second copy: most weight on positions whose previous token is the current token
    for n in range(4):
        for t in second[n].nonzero().flatten().tolist():
            # what layer 0 wrote at s: x[s - 1], and at s = 0 (nothing before it) x[0] itself
            written = torch.cat([x[n, :1], x[n, :-1]])
            match = torch.zeros(T, dtype=torch.bool)
            match[:t + 1] = written[:t + 1] == x[n, t]
            if match.any():
                assert float(attn[1][n, 0, t][match].sum()) > 0.99


def test_hand_built_circuit_copies_and_is_overconfident_on_random_tokens():
    got = ex.hand_built_losses(size=SIZE)
    assert got["predictable"] < 1.0  # it copies: far below guessing
    assert got["random"] > math.log(64)  # and pays for certainty where nothing can be known


def test_only_the_key_cut_breaks_the_hand_built_circuit():
    rows = dict(ex.cut_rows(size=SIZE))
    intact = float(rows["-"])
    assert rows["q"] == rows["-"] and rows["v"] == rows["-"]  # exactly: q and v never read the PREV block
    assert float(rows["k"]) > intact + 2.5


def test_a_fixed_offset_gets_few_predictable_tokens():
    hits = ex.offset_hits(size=SIZE)
    assert sorted(hits) == list(range(1, 25))
    assert 0 < max(hits.values()) < 0.2
    # the offsets the segment lengths can take (6..24) are the only ones that beat chance (1/64) by much
    assert max(hits[d] for d in range(1, 6)) < 0.05


def test_the_printed_sentences_carry_the_numbers():
    assert "nats" in ex.hand_built_lines("en", size=SIZE) and "ln 64 = 4.16" in ex.hand_built_lines("en", size=SIZE)
    zh = ex.best_offset_lines("zh", size=SIZE)
    d = max(ex.offset_hits(SIZE), key=ex.offset_hits(SIZE).get)
    assert f"往回 {d} 个位置" in zh


@pytest.mark.parametrize("bad", [0, -1.0, float("nan")])
def test_sharpness_must_be_positive(bad):
    with pytest.raises(ValueError, match="sharpness must be a positive number"):
        ex.induction_by_hand(bad)
