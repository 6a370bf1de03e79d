"""The small runs pages print below the definitions they exercise (snippets.quickruns)."""

from __future__ import annotations

import pytest

from snippets import quickruns


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_made_up_heads_each_score_one_on_their_own_measure(lang):
    out = quickruns.made_up_scores(T=5, lang=lang)
    assert out.count("1.00") >= 3, out


def test_tiny_decoder_generates_the_same_with_and_without_the_cache():
    out = quickruns.tiny_generate(lang="en")
    assert "[2, 2, 2, 2]" in out or "same" in out.lower(), out


def test_changing_an_argument_changes_the_run():
    assert quickruns.step_table(L=64, lang="en") != quickruns.step_table(L=32, lang="en")


def test_a_run_refuses_an_unknown_language():
    with pytest.raises(ValueError, match="lang"):
        quickruns.made_up_scores(lang="fr")


def test_copies_or_not_compares_both_forms_of_a_step():
    assert quickruns.copies_or_not(lang="en") == ("After 12 cached positions both forms give logits of shape "
                                                  "(1, 1, 50); the largest difference is 0: the same.")
    assert "缓存了 5 个位置之后" in quickruns.copies_or_not(L=5, lang="zh")


def test_cut_run_moves_the_logits_and_leaves_the_model_as_it_was():
    out = quickruns.cut_run(lang="en")
    assert out.startswith("With head 0 of layer 1 replaced by zeros, the logits moved by up to ")
    assert out.endswith("they differ from the original by 0: the hooks are gone and the model is as it was.")
    assert "换成它在这些词元上的平均输出" in quickruns.cut_run(fill="mean", lang="zh")
    with pytest.raises(ValueError, match="fill must be 'zero' or 'mean', got 'half'"):
        quickruns.cut_run(fill="half")
    with pytest.raises(ValueError, match="layer must be 0 … 1 and head 0 … 3, got layer=2, head=0"):
        quickruns.cut_run(layer=2)


def test_control_run_checks_the_control_and_sets_it_beside_mha():
    out = quickruns.control_run(L=16, d_model=16, num_heads=4, lang="en")
    # 2 (keys, values) × 4 heads × d_k 4 × 16 positions × 4 bytes, for both
    assert out.startswith("At L = 16, the control's cached step against the last row of its full forward: the same.")
    assert "It caches 2,048 bytes, MHA 2,048;" in out
    assert "它缓存 2,048 字节，MHA 是 2,048 字节" in quickruns.control_run(L=16, d_model=16, num_heads=4, lang="zh")


def test_shares_run_finds_the_made_up_heads_offset():
    assert quickruns.shares_run(lang="en") == ("A made-up head whose every query looks at the key +1 away. Its share "
                                               "at each offset: \u22122: 0.00, \u22121: 0.00, 0: 0.00, +1: 1.00, "
                                               "+2: 0.00; its role: +1.")
    assert quickruns.shares_run(offset=3, L=8, lang="zh").endswith("它的角色：没有（哪个偏移都不到一半）。")
