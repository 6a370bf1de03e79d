"""§4's heads / width / depth sweeps: the residual stack, its parameter formula, determinism, cache keys,
the per-layer ablation, and the reports built on them."""

import numpy as np
import pytest
import torch

from resultcache import module_files
from snippets.whatif import factors, train
from snippets.whatif.model import PreLNBlock, StackModel, TimelineModel, stack_parameters
from snippets.whatif.task import EVENTS, OFFSETS, SEQ_LEN, make_batch


pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py


def n_params(model):
    return sum(p.numel() for p in model.parameters())


@pytest.mark.parametrize("layers, heads, d_k", [(1, 4, 8), (2, 2, 8), (4, 1, 8), (2, 1, 8), (3, 2, 5)])
def test_stack_shapes(layers, heads, d_k):
    torch.manual_seed(0)
    model = StackModel(layers, heads, d_k=d_k)
    x, _ = make_batch(3, seed=0)
    logits, w = model(x, need_weights=True)
    assert logits.shape == (3, SEQ_LEN, len(OFFSETS), len(EVENTS))
    assert w.shape == (3, layers, heads, SEQ_LEN, SEQ_LEN)
    torch.testing.assert_close(w.sum(-1), torch.ones(3, layers, heads, SEQ_LEN))  # rows are distributions
    assert model(x).shape == logits.shape


@pytest.mark.parametrize("layers, heads, d_k, d_model", [(1, 4, 8, 32), (2, 2, 8, 32), (4, 1, 8, 32),
                                                          (2, 1, 8, 32), (3, 5, 2, 12)])
def test_parameter_count_is_the_printed_formula(layers, heads, d_k, d_model):
    model = StackModel(layers, heads, d_k=d_k, d_model=d_model)
    assert n_params(model) == stack_parameters(layers, heads, d_k=d_k, d_model=d_model)


def test_matched_budget_numbers():
    # the three 4-head stacks have the same attention weights (4 * 32 * 32); they differ by layer norms and biases
    counts = [stack_parameters(n, h) for n, h in ((1, 4), (2, 2), (4, 1), (2, 1))]
    assert counts == [7488, 7584, 7776, 5488]
    assert max(counts[:3]) / min(counts[:3]) < 1.04


def test_block_is_residual_and_pre_ln():
    torch.manual_seed(0)
    block = PreLNBlock(8, 2, 3)
    with torch.no_grad():
        block.W_o.weight.zero_()
        block.W_o.bias.zero_()
    x = torch.randn(2, 5, 8)
    out, w = block(x)
    torch.testing.assert_close(out, x)  # a block adds to the stream; W_o = 0 adds nothing
    assert w.shape == (2, 2, 5, 5)
    # the layer norm comes first: scaling the input scales the residual only
    with torch.no_grad():
        block.W_o.weight.normal_()
    a, _ = block(x)
    b, _ = block(3 * x)
    torch.testing.assert_close(b - 3 * x, a - x, rtol=1e-4, atol=1e-4)


def test_stack_training_is_deterministic_and_learns():
    a = train._train(1, 0, 40, 32, 3e-3, 32, layers=2, d_k=8, eval_every=10)
    b = train._train(1, 0, 40, 32, 3e-3, 32, layers=2, d_k=8, eval_every=10)
    assert a["loss_curve"] == b["loss_curve"]
    assert all(np.array_equal(a["state_dict"][k], b["state_dict"][k]) for k in a["state_dict"])
    assert [s for s, _ in a["acc_curve"]] == [10, 20, 30, 40]
    assert a["loss_curve"][-1] < a["loss_curve"][0]
    assert a["layers"] == 2 and a["d_k"] == 8


def test_defaults_build_todays_model():
    torch.manual_seed(0)
    a = train.build_model(4)
    torch.manual_seed(0)
    b = TimelineModel(4)
    assert type(a) is TimelineModel
    assert all(torch.equal(p, q) for p, q in zip(a.state_dict().values(), b.state_dict().values()))
    assert isinstance(train.build_model(1, layers=2), StackModel)


def test_defaults_train_todays_run():
    old = train._train(2, 0, 5, 16, 3e-3, 16)
    same = train._train(2, 0, 5, 16, 3e-3, 16, layers=None, d_k=None, eval_every=0)
    assert old["loss_curve"] == same["loss_curve"] and old["acc_curve"] == []


def test_load_model_round_trip_for_a_stack():
    run = train._train(2, 1, 3, 8, 3e-3, 16, layers=2, d_k=4)
    model = train.load_model(run)
    assert isinstance(model, StackModel) and len(model.blocks) == 2 and model.blocks[0].d_k == 4
    x, y = make_batch(64, seed=5)
    assert train.evaluate(model, x, y)["accuracy"] == pytest.approx(train.evaluate(train.load_model(run), x, y)[
        "accuracy"])


def test_cache_keys_cover_the_model_code():
    files = module_files(["snippets.whatif.train"])
    assert {"snippets/whatif/model.py", "snippets/whatif/task.py", "snippets/multihead.py",
            "snippets/attention.py", "snippets/whatif/train.py"} <= set(files)
    assert {"snippets/whatif/model.py", "snippets/whatif/train.py", "snippets/whatif/factors.py"} <= set(
        module_files(["snippets.whatif.factors"]))


def test_edit_to_the_model_changes_the_cache_key(tmp_path):
    # the fingerprint follows the source: a copy of the tree with one edit to model.py gets another key
    import shutil

    from resultcache import ROOT, fingerprint

    root = tmp_path / "repo"
    shutil.copytree(ROOT / "snippets", root / "snippets")
    shutil.copytree(ROOT / "resultcache", root / "resultcache")
    before = fingerprint(["snippets.whatif.train"], root=root)
    path = root / "snippets" / "whatif" / "model.py"
    path.write_text(path.read_text().replace("self.norm = nn.LayerNorm(d_model)\n        self.readout",
                                             "self.norm = nn.LayerNorm(d_model, eps=1e-6)\n        self.readout"))
    assert fingerprint(["snippets.whatif.train"], root=root) != before


@pytest.mark.parametrize("kwargs, match", [
    ({"layers": 0}, "layers must be a positive integer"),
    ({"layers": 2, "d_k": 0}, "d_k must be a positive integer"),
    ({"ffn": 8}, "0 for the one-layer model"),
    ({"offsets": (0, 1)}, "distinct non-zero integers"),
    ({"offsets": (-1, 1, 1)}, "distinct non-zero integers"),
    ({"eval_every": -1}, "eval_every must be a non-negative integer"),
])
def test_train_run_rejects_bad_shapes(kwargs, match):
    with pytest.raises(ValueError, match=match):
        train.train_run(num_heads=2, seed=0, steps=2, **kwargs)


def test_stack_parameters_rejects_bad_shapes():
    with pytest.raises(ValueError, match="num_layers must be a positive integer, got 0"):
        stack_parameters(0, 1)


def test_layer_off_zeroes_one_block():
    torch.manual_seed(0)
    model = StackModel(2, 1).eval()
    x, _ = make_batch(4, seed=2)
    ref = model(x)
    with factors.layer_off(model, 1):
        off = model(x)
    torch.testing.assert_close(model(x), ref)  # the hook is gone afterwards
    with torch.no_grad():
        model.blocks[1].W_o.weight.zero_()
    torch.testing.assert_close(off, model(x))


def test_layer_measures_on_a_small_run(monkeypatch):
    run = train._train(1, 0, 30, 32, 3e-3, 32, layers=2, d_k=8, eval_every=0)
    # uncached: the measures themselves
    abl = factors._layer_ablation(run)
    assert len(abl) == 3 and all(len(r["acc_by_offset"]) == len(OFFSETS) for r in abl)
    shares = factors._layer_shares(run)
    assert shares.shape == (2, 1, 5)
    assert np.all(shares >= 0) and np.all(shares.sum(-1) <= 1 + 1e-9)


def test_layer_measures_reject_one_layer_runs():
    run = train._train(2, 0, 2, 8, 3e-3, 16)
    with pytest.raises(ValueError, match="stack model"):
        factors.layer_ablation(run)


def test_configs_vary_one_thing():
    assert factors.config_label({"num_heads": 4, "d_model": 8}) == "h=4, d_k=2"
    assert [factors.config_label(c) for c in factors.DEPTH] == ["1x4", "2x2", "4x1", "2x1"]
    with pytest.raises(ValueError, match="config must be a dict"):
        factors.config_label({"layers": 2})


# --- reports ------------------------------------------------------------------------------------

from snippets.whatif import factors_report as fr  # noqa: E402

V = ("lower", "higher", "no measurable difference")


def fake(seed, acc, curve=None, **kw):
    r = {"seed": seed, "accuracy": acc, "acc_by_offset": [acc] * 4, "steps": 100, "num_heads": 1, "d_model": 8}
    if curve is not None:
        r["acc_curve"] = curve
    return {**r, **kw}


def test_steps_to_target():
    assert fr.steps_to_target(fake(0, 1, [(25, 0.5), (50, 0.95), (75, 0.99)])) == 50
    assert fr.steps_to_target(fake(0, 1, [(25, 0.5), (50, 0.94)])) is None
    with pytest.raises(ValueError, match="learning curve"):
        fr.steps_to_target(fake(0, 1))


def test_compare_stats_verdicts_from_the_interval():
    a = [fake(s, 0.5 + 0.01 * s) for s in range(5)]
    b = [fake(s, 0.9 + 0.01 * s) for s in range(5)]
    st = fr.compare_stats(a, b, V)
    assert st["diff_pts"] == pytest.approx(40.0) and st["lo_pts"] == pytest.approx(40.0)
    assert st["verdict"] == "higher" and st["n"] == 5
    assert fr.compare_stats(b, a, V)["verdict"] == "lower"
    c = [fake(s, 0.5 + 0.01 * s + (0.02 if s % 2 else -0.02)) for s in range(5)]
    assert fr.compare_stats(a, c, V)["verdict"] == "no measurable difference"


def test_compare_steps_uses_seeds_where_both_learn():
    a = [fake(s, 1, [(25, 0.5), (50, 1.0)]) for s in range(4)]
    b = [fake(s, 1, [(25, 0.5), (50, 0.5), (75, 1.0)] if s else [(25, 0.1)]) for s in range(4)]
    st = fr.compare_stats(a, b, V, key="steps")
    assert st["n"] == 3 and st["diff"] == 25 and st["verdict"] == "higher"
    with pytest.raises(ValueError, match="'accuracy' or 'steps'"):
        fr.compare_stats(a, b, V, key="loss")
    with pytest.raises(ValueError, match="verdicts must be"):
        fr.compare_stats(a, b, V[:2])


def test_comparison_sentences_one_paragraph_each():
    a = [fake(s, 0.5) for s in range(5)]
    b = [fake(s, 0.6) for s in range(5)]
    out = fr.comparison_sentences([("A", a, "B", b), ("B", b, "A", a)], "{b} − {a}: {diff_pts:+.0f}, {verdict}", V)
    assert out == "B − A: +10, higher\n\nA − B: -10, lower"


def test_rows_from_small_runs():
    stack = [fake(s, 1.0, [(25, 0.5), (50 + 25 * s, 0.97)], layers=2) for s in range(3)]
    rows = fr.factor_depth_rows([{"layers": 2, "num_heads": 1, "d_k": 8}], [stack])
    assert rows[0][:3] == ["2 × 1", "5,488", "100.0%"] and rows[0][-2:] == ["75 (50–100)", "0/3"]
    with pytest.raises(ValueError, match="one non-empty list"):
        fr.factor_depth_rows([{"layers": 2, "num_heads": 1, "d_k": 8}], [[]])


def test_layer_rows_and_stats(monkeypatch):
    # a 2-block stack: block 1 looks at -1 and carries -1 and -2 (composition), block 2 looks at +1, carries +1, +2
    shares = np.zeros((2, 1, 5))
    shares[0, 0, 1], shares[1, 0, 3] = 0.9, 0.8
    full = {"acc_by_offset": [1.0, 1.0, 1.0, 1.0], "accuracy": 1.0}
    ablation = [full, {"acc_by_offset": [0.1, 0.1, 1.0, 1.0]}, {"acc_by_offset": [1.0, 1.0, 0.2, 0.3]}]
    monkeypatch.setattr(fr, "layer_shares", lambda run: shares)
    monkeypatch.setattr(fr, "layer_ablation", lambda run: ablation)
    run = fake(0, 1.0, layers=2)
    rows = fr.layer_rows(run, {"layer": "layer {}", "looks": "{offset} ({share})"})
    assert rows == [["layer 1", "−1 (90%)", "90.0", "90.0", "0.0", "0.0"],
                    ["layer 2", "+1 (80%)", "0.0", "0.0", "80.0", "70.0"]]
    st = fr.layer_stats([[run]])
    assert st == {"threshold_pts": 50.0, "own_2x1": 1, "composed_2x1": 2, "pairs_2x1": 4, "n_seeds": 1}


def test_new_figures_are_deterministic_readable_svg(monkeypatch):
    import re

    from snippets.figures import MIN_FONT_PT, WIDTH_PT

    curve = [(25 * k, min(1.0, 0.1 * k)) for k in range(1, 25)]
    groups = [[fake(s, 1.0, curve, layers=n, num_heads=h) for s in range(3)] for n, h in ((1, 4), (2, 2), (4, 1),
                                                                                            (2, 1))]
    labels = {"step": "训练步数", "acc": "留出准确率（%）", "title": "{label}"}
    a = fr.curve_figure(groups, labels, alt="四张学习曲线", caption="说明")
    assert a == fr.curve_figure(groups, labels, alt="四张学习曲线", caption="说明")
    drops = {1: [{"acc_by_offset": [1.0] * 4}, *[{"acc_by_offset": [0.5, 1.0, 1.0, 0.2]}] * 4],
             2: [{"acc_by_offset": [1.0] * 4}, *[{"acc_by_offset": [1.0, 0.1, 1.0, 1.0]}] * 2]}
    monkeypatch.setattr(fr, "layer_ablation", lambda run: drops[2 if run["layers"] == 2 else 1])
    runs = [fake(0, 1.0, layers=4), fake(0, 1.0, layers=2)]
    flabels = {"title": "{label}, seed 0", "layer": "layer {}", "offset": "target offset", "drop": "points lost"}
    b = fr.factor_layer_figure(runs, flabels, alt="two heatmaps")
    assert b == fr.factor_layer_figure(runs, flabels, alt="two heatmaps")
    for svg, alt in ((a, "四张学习曲线"), (b, "two heatmaps")):
        assert f'aria-label="{alt}"' in svg
        width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) [\d.]+"', svg).group(1))
        fonts = [float(f) for f in re.findall(r"font-size: ?([\d.]+)px", svg)]
        assert width <= WIDTH_PT and min(fonts) >= MIN_FONT_PT
    assert ">50<" in b and ">90<" in b  # the points are written in the cells
    with pytest.raises(ValueError, match="labels must have keys"):
        fr.factor_layer_figure(runs, {"title": "x"}, alt="x")


def test_a_negligible_difference_is_named_as_such():
    a = [fake(s, 1.0) for s in range(5)]
    b = [fake(s, 1.0 - 0.00002 * (s + 1)) for s in range(5)]
    words = ("lower", "higher", "none", "negligible")
    assert fr.compare_stats(a, b, words[:3])["verdict"] == "lower"
    assert fr.compare_stats(a, b, words, tolerance=0.001)["verdict"] == "negligible"
    far = [fake(s, 0.5) for s in range(5)]
    assert fr.compare_stats(a, far, words, tolerance=0.001)["verdict"] == "lower"
    with pytest.raises(ValueError, match="fourth word"):
        fr.compare_stats(a, b, words[:3], tolerance=0.001)


@pytest.mark.parametrize("configs, seeds", [([], (0,)), ([{"num_heads": 2}], ()), ([{"heads": 2}], (0,)),
                                            ([{"num_heads": 2, "seed": 1}], (0,))])
def test_factor_runs_rejects_bad_arguments(configs, seeds):
    with pytest.raises(ValueError, match="must be"):
        factors.factor_runs(configs, seeds)


def test_sweep_by_heads_groups_the_main_sweep(monkeypatch):
    runs = {h: [{"num_heads": h, "seed": s} for s in range(2)] for h in (4, 8)}
    monkeypatch.setattr(fr, "sweep", lambda heads: runs[heads[0]])
    assert fr.sweep_by_heads((8, 4)) == {8: runs[8], 4: runs[4]}


def test_layer_tables_titles_each_stack(monkeypatch):
    monkeypatch.setattr(fr, "layer_rows", lambda run, labels: [[run["name"], "x"]])
    out = fr.layer_tables([("4 × 1", {"name": "a"}), ("2 × 1", {"name": "b"})], ["layer", "looks"],
                          {"layer": "{}", "looks": "{offset}"}, title="{name}, seed 0:")
    assert out.split("\n\n")[0] == "4 × 1, seed 0:" and "| a | x |" in out and out.count("seed 0:") == 2
    with pytest.raises(ValueError, match="at least one"):
        fr.layer_tables([], ["layer"], {}, title="{name}")
