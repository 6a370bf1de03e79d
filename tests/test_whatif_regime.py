"""What-if 2 in the source's regime: d_k = 8 on a fixed, memorisable training set."""

from __future__ import annotations

import pytest

from snippets.whatif.regime import regime_rows, regime_stats, train_fixed


def test_a_tiny_pool_is_memorised_and_does_not_generalise():
    r = train_fixed(num_heads=8, seed=0, steps=150, pool=4)
    assert r["d_model"] // r["num_heads"] == 8
    assert r["train"]["accuracy"] > 0.95
    assert r["held_out"]["accuracy"] < r["train"]["accuracy"] - 0.3


def _fake(h, acc):
    return {"num_heads": h, "seed": 0, "steps": 1, "pool": 2, "d_model": 16, "seconds": 1.0,
            "train": {"loss": 0.0, "accuracy": 1.0}, "held_out": {"loss": 1.0, "accuracy": acc}}


def test_verdict_comes_from_the_ranges():
    v = ("worse", "better", "overlap")
    assert regime_stats([_fake(2, 0.9), _fake(2, 0.8), _fake(4, 0.7)], v)["verdict"] == "worse"
    assert regime_stats([_fake(2, 0.5), _fake(4, 0.7), _fake(4, 0.6)], v)["verdict"] == "better"
    assert regime_stats([_fake(2, 0.5), _fake(2, 0.8), _fake(4, 0.7)], v)["verdict"] == "overlap"
    rows = regime_rows([_fake(2, 0.5), _fake(4, 0.7)])
    assert rows[1][:2] == [4, 4] and rows[1][-1] == "70.0% (70.0% – 70.0%)"


def test_argument_errors():
    with pytest.raises(ValueError, match="pool must be a positive integer, got 0"):
        train_fixed(4, 0, pool=0)
    with pytest.raises(ValueError, match="verdicts must be"):
        regime_stats([_fake(2, 0.5)], ("a", "b"))
    with pytest.raises(ValueError, match="runs must be"):
        regime_rows([])


def test_vaswani_rows_leave_paper_columns_empty_where_the_paper_has_no_row():
    from snippets.whatif.report import vaswani_rows
    from snippets.whatif.train import train_run

    rows = vaswani_rows([train_run(num_heads=2, seed=0, steps=3)])
    two = next(r for r in rows if r[0] == 2)
    assert two[1:4] == ["—", "—", "—"] and two[4] == 16
    assert next(r for r in rows if r[0] == 8)[1] == 64


def test_sweep_stats_split_accuracy_into_the_h_best_targets_and_the_rest():
    from snippets.whatif.report import sweep_stats
    from snippets.whatif.train import train_run

    stats = sweep_stats([train_run(num_heads=2, seed=0, steps=3), train_run(num_heads=4, seed=0, steps=3)])
    assert stats["best_h_offsets_2"] >= stats["other_h_offsets_2"]
    assert stats["best_h_offsets_4"] is None


def test_roleless_stats_count_heads_without_a_role():
    from snippets.whatif.analysis import specialisation
    from snippets.whatif.report import roleless_stats
    from snippets.whatif.train import train_run

    run = train_run(num_heads=4, seed=0, steps=3)
    stats = roleless_stats([run])
    assert stats["roleless_4"] == sum(o is None for o in specialisation(run)[1]) == stats["n_roleless_4"]
    if stats["n_roleless_4"]:
        assert 0.0 <= stats["target_lo_4"] <= stats["target_hi_4"] <= 1.0


def test_a_short_run_on_a_tiny_pool_memorises_it():
    """The page's small run of _train_fixed: 16 training logs are learned by heart, the held-out logs are not."""
    from snippets.bench import threads
    from snippets.whatif.regime import _train_fixed
    from snippets.whatif.report import fixed_pool_sentence

    with threads(1):
        train, held_out = _train_fixed(8, seed=0, steps=80, pool=16, d_model=64, batch_size=16)
    assert train["accuracy"] > 0.95 and held_out["accuracy"] < 0.5 and held_out["loss"] > 10 * train["loss"]
    en = fixed_pool_sentence({"loss": 0.02, "accuracy": 1.0}, {"loss": 8.9, "accuracy": 0.096}, 8, 64, 80, 16, "en")
    assert en == ("8 heads, `d_model` = 64, a training set of only 16 logs, 80 steps: 100.0% accuracy on the training "
                  "set (loss 0.02), 9.6% on 2048 held-out logs (loss 8.90).")
    zh = fixed_pool_sentence({"loss": 0.02, "accuracy": 1.0}, {"loss": 8.9, "accuracy": 0.096}, 8, 64, 80, 16, "zh")
    assert "训练集上的准确率 100.0%（损失 0.02），2048 段留出日志上 9.6%（损失 8.90）" in zh
    with pytest.raises(ValueError, match="evaluate's dict"):
        fixed_pool_sentence({}, held_out, 8, 64, 80, 16, "en")
