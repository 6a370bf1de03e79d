"""The what-if experiments: task generator, training, specialisation metric, ablation, caching."""


import numpy as np
import pytest
import torch

from snippets.multihead import MultiHeadAttention
from snippets.whatif import analysis, report, train
from snippets.whatif.analysis import head_roles, heads_off, offset_shares
from snippets.whatif.model import TimelineModel
from snippets.whatif.report import fmt_offset, width_rows
from snippets.whatif.task import EVENTS, IGNORE, OFFSETS, SEQ_LEN, make_batch


pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py


# --- task -------------------------------------------------------------------------------------

def test_batch_shapes_and_range():
    x, y = make_batch(8, seed=3)
    assert x.shape == (8, SEQ_LEN) and y.shape == (8, SEQ_LEN, len(OFFSETS))
    assert x.dtype == y.dtype == torch.long
    assert 0 <= int(x.min()) and int(x.max()) < len(EVENTS)


def test_targets_are_the_neighbours():
    x, y = make_batch(4, seed=1)
    for t, off in enumerate(OFFSETS):
        for i in range(SEQ_LEN):
            j = i + off
            expected = x[:, j] if 0 <= j < SEQ_LEN else torch.full((4,), IGNORE)
            assert torch.equal(y[:, i, t], expected), (off, i)
    # -2, -1 missing at the start; +1, +2 at the end: 2 + 1 + 1 + 2 ignored targets per sequence
    assert int((y == IGNORE).sum()) == 4 * 6


def test_batch_is_deterministic():
    a, b = make_batch(5, seed=11), make_batch(5, seed=11)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert not torch.equal(a[0], make_batch(5, seed=12)[0])


@pytest.mark.parametrize("kwargs, match", [
    ({"batch_size": 0, "seed": 0}, "batch_size must be a positive integer, got 0"),
    ({"batch_size": 2, "seed": 0, "seq_len": 2}, "seq_len must be an integer > 2, got 2"),
])
def test_batch_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_batch(**kwargs)


# --- model and training -------------------------------------------------------------------------

def test_model_uses_the_sites_attention():
    m = TimelineModel(num_heads=4)
    assert isinstance(m.attn, MultiHeadAttention) and m.attn.d_k == 8
    logits, w = m(make_batch(3, seed=0)[0], need_weights=True)
    assert logits.shape == (3, SEQ_LEN, len(OFFSETS), len(EVENTS))
    assert w.shape == (3, 4, SEQ_LEN, SEQ_LEN)
    torch.testing.assert_close(w.sum(-1), torch.ones(3, 4, SEQ_LEN))


def test_training_smoke_learns_and_is_deterministic():
    a = train._train(num_heads=4, seed=0, steps=40, batch_size=32, lr=3e-3, d_model=32)
    b = train._train(num_heads=4, seed=0, steps=40, batch_size=32, lr=3e-3, d_model=32)
    assert a["loss_curve"] == b["loss_curve"]
    assert a["accuracy"] == b["accuracy"]
    assert a["loss_curve"][-1] < a["loss_curve"][0] - 0.1  # it learns something in 40 steps
    assert a["accuracy"] > 1 / len(EVENTS)  # better than chance
    assert len(a["acc_by_offset"]) == len(OFFSETS)
    assert isinstance(a["state_dict"]["attn.W_q.weight"], np.ndarray)
    m = train.load_model(a)
    res = train.evaluate(m, *make_batch(train.EVAL_SIZE, seed=train.EVAL_SEED))
    assert res["accuracy"] == pytest.approx(a["accuracy"])


def test_train_run_second_call_is_a_cache_hit():
    args = dict(num_heads=2, seed=123, steps=5, batch_size=8)
    first = train.train_run(**args)
    call = (2, 123, 5, 8, 3e-3, 32)
    assert train._train_cached.check_call_in_cache(*call, code=train.CODE_VERSION)
    second = train.train_run(**args)  # a retrained run would have measured its own seconds
    assert second["loss_curve"] == first["loss_curve"] and second["seconds"] == first["seconds"]


def test_parallel_training_gives_the_single_process_results(caplog):
    """train_runs trains uncached runs in worker processes; each equals training it here, on one thread."""
    jobs = [(1, 7001), (2, 7002), (4, 7003)]
    with caplog.at_level("INFO", logger="snippets"):
        runs = train.train_runs(jobs, steps=3, workers=2)
    assert [(r["num_heads"], r["seed"]) for r in runs] == jobs
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        for (h, s), run in zip(jobs, runs, strict=True):
            here = train._train(h, s, 3, 64, 3e-3, 32)
            assert run["loss_curve"] == here["loss_curve"] and run["accuracy"] == here["accuracy"]
            for k, v in here["state_dict"].items():
                np.testing.assert_array_equal(run["state_dict"][k], v)
    finally:
        torch.set_num_threads(old)
    fresh = [r.getMessage() for r in caplog.records if r.getMessage().startswith("training ")]
    if fresh:  # a first run of this test (otherwise the runs came from the cache)
        assert fresh[-1].startswith(f"training {len(fresh)}/{len(fresh)} (h=") and "min left" in fresh[-1]


def test_train_runs_checks_before_starting():
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads: got d_model=32, num_heads=3"):
        train.train_runs([(3, 0)], steps=2)
    with pytest.raises(ValueError, match="workers must be a positive integer, got True"):
        train.train_runs([(2, 0)], steps=2, workers=True)
    with pytest.raises(ValueError, match=r"jobs must be a non-empty sequence of \(num_heads, seed\) pairs"):
        train.train_runs([], steps=2)


@pytest.mark.parametrize("kwargs, match", [
    ({"num_heads": 3, "seed": 0}, "d_model must be divisible by num_heads: got d_model=32, num_heads=3"),
    ({"num_heads": 2, "seed": -1}, "seed must be a non-negative integer, got -1"),
    ({"num_heads": 2, "seed": 0, "steps": 0}, "steps must be a positive integer, got 0"),
    ({"num_heads": 2, "seed": 0, "lr": 0.0}, "lr must be positive, got 0.0"),
])
def test_train_run_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        train.train_run(**kwargs)


def test_load_model_rejects_non_runs():
    with pytest.raises(ValueError, match="run must be a dict returned by train_run, got list"):
        train.load_model([])


# --- specialisation metric ----------------------------------------------------------------------

def _shift_maps(offsets, L=8):
    """One head per offset, attending exactly to query + offset (clamped at the edges)."""
    w = torch.zeros(len(offsets), L, L)
    for h, o in enumerate(offsets):
        for i in range(L):
            w[h, i, min(max(i + o, 0), L - 1)] = 1.0
    return w


def test_offset_shares_on_known_maps():
    offs = (-2, -1, 0, 1, 2)
    shares = offset_shares(_shift_maps((1, -2, 0)), offsets=offs)
    expected = torch.tensor([[0, 0, 0, 1, 0], [1, 0, 0, 0, 0], [0, 0, 1, 0, 0]], dtype=torch.float64)
    torch.testing.assert_close(shares, expected)
    assert head_roles(shares, offs) == [1, -2, 0]


def test_offset_shares_uniform_map_and_batches():
    w = torch.full((3, 2, 10, 10), 0.1)  # (N, h, L, S): uniform attention
    shares = offset_shares(w, offsets=(-1, 0, 1))
    torch.testing.assert_close(shares, torch.full((2, 3), 0.1, dtype=torch.float64))
    assert head_roles(shares, (-1, 0, 1)) == [None, None]


def test_offset_shares_mixed_head():
    w = 0.6 * _shift_maps((-1,)) + 0.4 * _shift_maps((2,))
    shares = offset_shares(w, offsets=(-1, 2))
    torch.testing.assert_close(shares, torch.tensor([[0.6, 0.4]], dtype=torch.float64))
    assert head_roles(shares, (-1, 2), threshold=0.5) == [-1]
    assert head_roles(shares, (-1, 2), threshold=0.7) == [None]


@pytest.mark.parametrize("w, offsets, match", [
    (torch.ones(4, 5), (0,), r"weights must be \(N, h, L, L\) or \(h, L, L\), got shape \(4, 5\)"),
    (torch.ones(1, 4, 5), (0,), r"got shape \(1, 1, 4, 5\)"),
    (torch.ones(1, 3, 3), (-2, 2), "no query has all offsets"),
    (torch.ones(1, 3, 3), (), "offsets must be a non-empty sequence"),
])
def test_offset_shares_rejects_bad_input(w, offsets, match):
    with pytest.raises(ValueError, match=match):
        offset_shares(w, offsets=offsets)


def test_head_roles_rejects_bad_input():
    with pytest.raises(ValueError, match=r"shares must be \(h, 2\) for offsets \(-1, 1\), got \(3, 3\)"):
        head_roles(torch.zeros(3, 3), (-1, 1))
    with pytest.raises(ValueError, match="threshold must be in"):
        head_roles(torch.zeros(3, 2), (-1, 1), threshold=0)


def test_fmt_offset():
    assert [fmt_offset(o) for o in (-1, 2, 0)] == ["−1", "+2", "0"]
    assert fmt_offset(None, none="mixed") == "mixed"


# --- ablation helper ----------------------------------------------------------------------------

def _model():
    torch.manual_seed(0)
    return TimelineModel(num_heads=4).eval()


def test_heads_off_all_kept_changes_nothing():
    m, x = _model(), make_batch(2, seed=0)[0]
    with torch.no_grad():
        ref = m(x)
        with heads_off(m, [True] * 4):
            torch.testing.assert_close(m(x), ref)
        torch.testing.assert_close(m(x), ref)  # the hook is removed afterwards


def test_heads_off_matches_zeroing_the_head_by_hand():
    m, x = _model(), make_batch(2, seed=0)[0]
    with torch.no_grad():
        e = m.event(x) + m.position.weight[:SEQ_LEN]
        a = m.attn
        from snippets.attention import scaled_dot_product_attention
        from snippets.multihead import merge_heads, split_heads
        q, k, v = (split_heads(W(e), 4) for W in (a.W_q, a.W_k, a.W_v))
        ctx, _ = scaled_dot_product_attention(q, k, v)
        ctx[:, 2] = 0  # head 2 silenced
        expected = m.readout(a.W_o(merge_heads(ctx))).view(2, SEQ_LEN, len(OFFSETS), len(EVENTS))
        with heads_off(m, [True, True, False, True]):
            torch.testing.assert_close(m(x), expected)


def test_heads_off_all_removed_leaves_only_biases():
    m, x = _model(), make_batch(2, seed=0)[0]
    with torch.no_grad(), heads_off(m, [False] * 4):
        out = m(x)
        const = m.readout(m.attn.W_o.bias).view(len(OFFSETS), len(EVENTS))
        torch.testing.assert_close(out, const.expand_as(out))


def test_heads_off_rejects_wrong_length():
    with pytest.raises(ValueError, match=r"keep must have one flag per head \(4\), got 3"):
        with heads_off(_model(), [True] * 3):
            pass


def test_ablation_and_pruning_on_a_small_run():
    run = train.train_run(num_heads=4, seed=5, steps=40, batch_size=16)
    res = analysis.ablation(run)
    assert [(k, i) for k, i, _ in res] == [("all", None)] + [("without", i) for i in range(4)] + [
        ("only", i) for i in range(4)]
    assert res[0][2]["accuracy"] == pytest.approx(run["accuracy"])
    curve = analysis.pruning(run)
    assert len(curve) == 4 and curve[0] == pytest.approx(run["accuracy"])
    # pruning first removes the head whose removal alone costs least: the ablation's best "without" row
    assert curve[1] == max(r["accuracy"] for k, _, r in res if k == "without")
    shares, roles = analysis.specialisation(run)
    assert shares.shape == (4, 5) and len(roles) == 4
    for kind in ("ablation", "pruning", "specialisation", "without"):  # measured once, then read from disk
        assert analysis._measure_cached.check_call_in_cache(kind, 4, 5, 40, 16, 3e-3, 32, code=analysis.ANALYSIS_VERSION)
    with pytest.raises(ValueError, match="labels must have keys 'all', 'without', 'only'"):
        report.ablation_rows(run, {"all": "all"})


# --- facts the page states ---------------------------------------------------------------------

def test_width_and_parameters_do_not_depend_on_heads():
    rows = width_rows(512, (1, 8, 64))
    assert [r[2] for r in rows] == [512, 512, 512]  # h * d_k
    assert len({r[3] for r in rows}) == 1  # same parameter count
    assert [r[4] for r in rows] == [1, 8, 64]  # distributions per query


# --- report helpers ------------------------------------------------------------------------------

def test_timeline_rows_name_the_neighbours():
    from snippets.whatif.report import timeline_rows
    x, _ = make_batch(1, seed=7)
    names = [EVENTS[i] for i in x[0].tolist()]
    rows = timeline_rows(seed=7, positions=(0, 5, 15))
    assert rows[0] == [0, names[0], "—", "—", names[1], names[2]]
    assert rows[1] == [5, names[5], names[3], names[4], names[6], names[7]]
    assert rows[2] == [15, names[15], names[13], names[14], "—", "—"]
    with pytest.raises(ValueError, match=r"positions must be non-empty indices in 0 … 15, got \(16,\)"):
        timeline_rows(positions=(16,))


def test_sentence_fills_and_reports_missing_values():
    from snippets.whatif.report import sentence
    assert sentence("{acc_4:.1%} with {n} heads", {"acc_4": 0.5, "n": 4}) == "50.0% with 4 heads"
    with pytest.raises(ValueError, match="template uses 'acc_3', which is not among the measured values"):
        sentence("{acc_3}", {"acc_4": 0.5})


def test_vaswani_rows_keep_the_papers_numbers():
    from snippets.whatif.report import VASWANI_TABLE3A, vaswani_rows
    runs = [{"num_heads": h, "accuracy": 0.5, "d_model": 32, "seed": 0} for h in (1, 2, 4)]
    rows = vaswani_rows(runs)
    assert [r[0] for r in rows] == [1, 2, 4, 8, 16, 32]
    assert rows[0][2:] == ["24.9", "5.29", 32, "50.0%"]
    assert rows[1][2:4] == ["—", "—"] and rows[2][3] == "5.00"  # h = 2 is not in the paper's row (A)
    assert rows[5][4:] == ["—", "—"] and VASWANI_TABLE3A[16] == (25.8, 4.91)


def _fake_run(h: int, acc: float) -> dict:
    return {"num_heads": h, "seed": 0, "steps": 10, "d_model": 32, "accuracy": acc, "loss": 1 - acc,
            "loss_curve": [1.0] * 60, "acc_by_offset": [acc] * len(OFFSETS), "seconds": 6.0}


def test_sweep_stats_plateau_ends_where_accuracy_falls_off():
    runs = [_fake_run(h, a) for h, a in ((1, 0.3), (2, 0.7), (4, 1.0), (8, 0.995), (16, 0.95), (32, 0.999))]
    stats = report.sweep_stats(runs)
    assert (stats["best"], stats["best_h"], stats["plateau"], stats["plateau_end"], stats["widest"]) == (1.0, 4, 4, 8, 32)
    assert stats["minutes"] == pytest.approx(0.6)


def test_role_stats_and_point_values_on_a_small_run():
    run = train.train_run(num_heads=4, seed=5, steps=40, batch_size=16)
    shares, roles = analysis.specialisation(run)
    stats = report.role_stats(run)
    assert stats["weakest"] == pytest.approx(float(shares.max(axis=1).min()))
    assert stats["covered"] == len(set(OFFSETS) & set(roles)) and (stats["n_heads"], stats["n_targets"]) == (4, 4)
    assert report.pruning_stats([run])["tolerance_points"] == pytest.approx(1.0)
    en, zh = report.pruning_rows([run]), report.pruning_rows([run], "zh")
    assert [r[0] for r in en] == [4, 3, 2, 1] and en[0][1].endswith(")") and " (" in en[0][1]
    assert [r[1] for r in zh] == [c.replace(" (", "（").replace(")", "）") for c in (r[1] for r in en)]
