"""The §4 model lab's data export (sitebuild/whatif_lab.py): exact weights, held-out logs, PyTorch's logits."""

import base64
import doctest
import json
import shutil

import numpy as np
import pytest
import torch

import resultcache
from sitebuild import whatif_lab
from sitebuild.whatif_lab import (
    FOLDER,
    RESULT,
    SECOND,
    STACK_SEED,
    check_data,
    check_mask,
    decode_array,
    encode_array,
    encode_logs,
    index_data,
    measured_shares,
    model_data,
    model_file,
    model_key,
    result_run,
    second_config,
    second_digest,
    second_records,
    second_runs,
    stack_heads_off,
)
from snippets.whatif import protocol
from snippets.whatif.analysis import HEADS, SEEDS, head_roles, heads_off, specialisation
from snippets.whatif.factors import DEPTH, layer_shares
from snippets.whatif.factors_report import lab_stats
from snippets.whatif.report import fmt_offset
from snippets.whatif.task import EVENTS, OFFSETS, make_batch
from snippets.whatif.train import EVAL_SEED, EVAL_SIZE, evaluate, load_model, train_run

# The second round's models the lab offers: (sweep, index, seed) -> (model key, layers, heads, d_k, d_model, ffn)
SECOND_SHAPES = {("fixed_dk", 2, 0): ("h3-d24", 1, 3, 8, 24, 0),
                 ("phase", 16, 0): ("l1h1-ffn128", 1, 1, 8, 32, 128),
                 ("phase", 17, 0): ("l1h2-ffn128", 1, 2, 8, 32, 128)}


@pytest.fixture(scope="module")
def run():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield train_run(num_heads=2, seed=0, steps=3)  # a few steps: the export does not care how well it learnt
    finally:
        torch.set_num_threads(old)


@pytest.fixture(scope="module")
def stack_run():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield train_run(num_heads=2, seed=0, steps=3, layers=2)  # 2 layers x 2 heads, d_k = 8
    finally:
        torch.set_num_threads(old)


def test_doctests():
    assert doctest.testmod(whatif_lab, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0


def test_arrays_round_trip_exactly():
    a = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
    np.testing.assert_array_equal(decode_array(encode_array(a), a.shape), a)
    assert len(base64.b64decode(encode_array(a))) == 4 * a.size  # float32, nothing more
    with pytest.raises(ValueError, match="base64 string"):
        decode_array(b"AAAA")


def test_logs_are_one_hex_digit_per_event():
    x, _ = make_batch(4, seed=5)
    text = encode_logs(x)
    assert len(text) == x.numel()
    assert [int(c, 16) for c in text] == x.flatten().tolist()
    with pytest.raises(ValueError, match="2-D tensor"):
        encode_logs(x[0])
    with pytest.raises(ValueError, match="0 … 15"):
        encode_logs(torch.tensor([[16]]))


def test_index_holds_the_pages_held_out_logs():
    data = index_data(heads=(1, 2), seeds=(0,), stacks=DEPTH[1:3], second=())
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    assert data["heldout"]["logs"] == encode_logs(x) and data["heldout"]["count"] == EVAL_SIZE
    assert data["events"] == list(EVENTS) and data["offsets"] == list(OFFSETS)
    assert [m["file"] for m in data["models"]] == ["h1-s0.json", "h2-s0.json", "l2h2-s0.json", "l4h1-s0.json"]
    assert [(m["layers"], m["heads"], m["d_k"], m["stack"]) for m in data["models"]] == [
        (1, 1, 32, False), (1, 2, 16, False), (2, 2, 8, True), (4, 1, 8, True)]
    json.dumps(data)  # plain JSON
    # a second-round model goes among its kind: the one-layer model by head count, a stack after the others
    data = index_data(heads=(1, 4), seeds=(0,), stacks=DEPTH[1:2], second=SECOND[::-1])
    assert [m["file"] for m in data["models"]] == ["h1-s0.json", "h3-d24-s0.json", "h4-s0.json", "l2h2-s0.json",
                                                   "l1h2-ffn128-s0.json", "l1h1-ffn128-s0.json"]


def test_the_lab_offers_every_one_layer_model_and_every_stack():
    data = index_data()
    sweep_flat = [(m["heads"], m["seed"]) for m in data["models"] if not m["stack"] and m["d_model"] == 32]
    deep = [(m["layers"], m["heads"], m["seed"]) for m in data["models"] if m["stack"] and not m["ffn"]]
    assert sweep_flat == [(h, s) for h in HEADS for s in SEEDS]
    assert deep == [(1, 4, 0), (2, 2, 0), (4, 1, 0), (2, 1, 0)] == [(c["layers"], c["num_heads"], STACK_SEED)
                                                                    for c in DEPTH]
    assert len(data["models"]) == len(HEADS) * len(SEEDS) + len(DEPTH) + len(SECOND) == 37
    assert len({m["file"] for m in data["models"]}) == len(data["models"])  # one file each
    assert all(m["file"] == f"{m['key']}-s{m['seed']}.json" for m in data["models"])
    assert data["d_model"] == 32  # the menu names any other d_model
    assert lab_stats("、") == {"n_models": 37, "n_flat": 30, "n_seeds": 5, "n_stacks": 4, "stack_seed": 0,
                               "stacks": "1 × 4、2 × 2、4 × 1、2 × 1", "n_second": 3, "second_seed": 0,
                               "second_heads": "3", "second_d_k": 8, "second_d_model": 24,
                               "ffn_stacks": "1 × 1、1 × 2"}
    with pytest.raises(ValueError, match="sep must be a string"):
        lab_stats(None)


def test_the_lab_offers_the_second_rounds_models():
    """h = 3 of d_k = 8 (d_model = 24) among the one-layer models, between 1 × 2 and 1 × 4; the stacks 1 × 1 and
    1 × 2 with a feed-forward layer after experiment 4's; one seed each."""
    assert SECOND == protocol.LAB_MODELS == tuple(SECOND_SHAPES)
    models = index_data()["models"]
    keys = list(dict.fromkeys(m["key"] for m in models))
    assert keys == ["h1", "h2", "h3-d24", "h4", "h8", "h16", "h32", "l1h4", "l2h2", "l4h1", "l2h1",
                    "l1h1-ffn128", "l1h2-ffn128"]
    by_key = {m["key"]: m for m in models}
    for job, (key, n, h, d_k, d_model, ffn) in SECOND_SHAPES.items():
        assert [m["seed"] for m in models if m["key"] == key] == [0]
        assert by_key[key] == {"key": key, "layers": n, "heads": h, "d_k": d_k, "d_model": d_model, "ffn": ffn,
                               "seed": 0, "stack": bool(ffn), "file": f"{key}-s0.json"}
        c = second_config(job)
        assert (c["num_heads"], c["d_model"], c["d_k"], c["ffn"], c["seed"]) == (h, d_model, d_k, ffn, 0)
    assert [m["ffn"] for m in models].count(128) == 2 and {m["ffn"] for m in models} == {0, 128}
    with pytest.raises(ValueError, match="limited-data regime"):
        second_config(("regime", 0, 0))
    with pytest.raises(ValueError, match=r"offsets \[-1, 1\]"):
        second_config(("offsets_2", 0, 0))
    with pytest.raises(ValueError, match="expected a sweep"):
        second_config(("phase", 99, 0))


@pytest.fixture(scope="module")
def second():
    """The second round's models as the build reads them: from results/whatif-sweeps.json (never retrained)."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield {tuple(job): run for job, run in zip(SECOND, second_runs(), strict=True)}
    finally:
        torch.set_num_threads(old)


def test_second_runs_are_the_results_weights_and_accuracies(second):
    """Each run rebuilds the trained model exactly: the held-out accuracies the result recorded come back."""
    records = second_records()
    for (job, run), record in zip(second.items(), records, strict=True):
        assert (record["sweep"], record["index"], record["seed"]) == job
        key, n, h, d_k, d_model, ffn = SECOND_SHAPES[job]
        assert (run["num_heads"], run["layers"], run["d_k"], run["d_model"], run["ffn"]) == (
            h, n if ffn else None, d_k, d_model, ffn)
        for name, tensor in protocol.decode_state(record["state_dict"]).items():
            np.testing.assert_array_equal(run["state_dict"][name], tensor.numpy(), err_msg=name)
        with torch.no_grad():
            got = evaluate(load_model(run), *make_batch(EVAL_SIZE, seed=EVAL_SEED))
        assert got["accuracy"] == record["accuracy"] == run["accuracy"]
        assert got["acc_by_offset"] == record["acc_by_offset"]


def test_second_round_model_files_export_every_weight_the_ffn_included(second):
    h3 = model_data(second[("fixed_dk", 2, 0)])
    assert (h3["stack"], h3["layers"], h3["heads"], h3["d_k"], h3["d_model"], h3["ffn"]) == (False, 1, 3, 8, 24, 0)
    assert {k: v["shape"] for k, v in h3["weights"].items()} == {
        "event.weight": [16, 24], "position.weight": [16, 24], "readout.weight": [64, 24], "readout.bias": [64],
        **{f"attn.W_{p}.weight": [24, 24] for p in "qkvo"}, **{f"attn.W_{p}.bias": [24] for p in "qkvo"}}
    assert np.shape(h3["shares"]) == (3, 5) and len(h3["roles"]) == 3
    assert h3["source"] == "whatif-sweeps: fixed_dk[2]"
    for job, hd in ((("phase", 16, 0), 8), (("phase", 17, 0), 16)):
        run = second[job]
        data = model_data(run)
        assert (data["stack"], data["layers"], data["heads"], data["ffn"], data["norm_eps"]) == (
            True, 1, hd // 8, 128, 1e-5)
        shapes = {k: v["shape"] for k, v in data["weights"].items()}
        assert {k: v for k, v in shapes.items() if "ffn" in k} == {
            "blocks.0.ffn_norm.weight": [32], "blocks.0.ffn_norm.bias": [32],
            "blocks.0.ffn.0.weight": [128, 32], "blocks.0.ffn.0.bias": [128],
            "blocks.0.ffn.2.weight": [32, 128], "blocks.0.ffn.2.bias": [32]}
        assert shapes["blocks.0.W_q.weight"] == [hd, 32] and shapes["blocks.0.W_o.weight"] == [32, hd]
        assert sorted(data["weights"]) == sorted(run["state_dict"])
        for name, value in run["state_dict"].items():
            entry = data["weights"][name]
            np.testing.assert_array_equal(decode_array(entry["data"], entry["shape"]), value, err_msg=name)
        assert np.shape(data["shares"]) == (1, hd // 8, 5) and np.shape(data["roles"]) == (1, hd // 8)
        assert data["python"] == {"acc_by_offset": run["acc_by_offset"], "accuracy": run["accuracy"]}
    # roles and shares: measured on the weights as the page measures its own models'
    for run in second.values():
        data = model_data(run)
        shares = measured_shares(run)
        np.testing.assert_allclose(data["shares"], shares, atol=5e-5)
        roles = head_roles(torch.as_tensor(shares)) if not run["layers"] else [
            head_roles(torch.as_tensor(s)) for s in shares]
        fmt = [None if r is None else fmt_offset(r) for r in roles] if not run["layers"] else [
            [None if r is None else fmt_offset(r) for r in layer] for layer in roles]
        assert data["roles"] == fmt


def test_measured_shares_are_the_pages_measures(run, stack_run):
    """What the second round's models get is what specialisation and layer_shares give the others."""
    np.testing.assert_allclose(measured_shares(run), specialisation(run)[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(measured_shares(stack_run), layer_shares(stack_run), rtol=0, atol=1e-12)


def test_ffn_stack_check_data_is_pytorchs_and_the_ffn_counts(second):
    run = second[("phase", 17, 0)]
    data = check_data(run, n_logs=2)
    assert data["masks"] == [[True, True], [False, True]] and data["attn_shape"] == [2, 2, 1, 2, 16, 16]
    logits = decode_array(data["logits"], data["shape"])
    model = load_model(run)
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    with torch.no_grad():
        np.testing.assert_array_equal(logits[0], model(x[:2]).numpy())
        model.blocks[0].ffn = None  # the same stack without its feed-forward layer: other logits
        assert np.abs(model(x[:2]).numpy() - logits[0]).max() > 0.1
    logits64 = np.frombuffer(base64.b64decode(data["logits64"]), dtype="<f8").reshape(data["shape"])
    np.testing.assert_allclose(logits64, logits, atol=1e-4)


def test_second_records_say_what_is_missing(tmp_path, second):
    with pytest.raises(ValueError, match="does not exist: run `python -m sitebuild.results whatif`"):
        second_records(folder=tmp_path)
    source = json.loads((resultcache.results_dir() / f"{RESULT}.json").read_text(encoding="utf-8"))
    digest = second_digest()
    assert second_digest(folder=resultcache.results_dir()) == digest and len(digest) == 64
    for m in source["data"]["models"]:
        if (m["sweep"], m["index"], m["seed"]) == ("phase", 16, 0):
            m.pop("state_dict")
    (tmp_path / f"{RESULT}.json").write_text(json.dumps(source), encoding="utf-8")
    with pytest.raises(ValueError, match=r"no weights for \('phase', 16, 0\)"):
        second_records(folder=tmp_path)
    assert len(second_records(SECOND[:1], folder=tmp_path)) == 1
    record = dict(second_records(SECOND[:1])[0], index=3)  # the weights of h = 3 under h = 4's configuration
    with pytest.raises(ValueError, match="do not match"):
        result_run(record)
    with pytest.raises(ValueError, match="state_dict"):
        result_run({"sweep": "fixed_dk"})


def test_a_new_result_is_a_new_export(tmp_path, monkeypatch):
    """The lab's files are cached by the second round's records too: other weights, another digest."""
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copy(resultcache.results_dir() / f"{RESULT}.json", folder / f"{RESULT}.json")
    before = second_digest(folder=folder)
    source = json.loads((folder / f"{RESULT}.json").read_text(encoding="utf-8"))
    for m in source["data"]["models"]:
        if "state_dict" in m:
            m["accuracy"] = 0.5
    (folder / f"{RESULT}.json").write_text(json.dumps(source), encoding="utf-8")
    assert second_digest(folder=folder) != before
    monkeypatch.setattr(resultcache, "results_dir", lambda: folder)
    assert second_digest() == second_digest(folder=folder)


def test_model_files_name_layers_heads_and_seed():
    assert [model_file(4, 0), model_file(1, 3, layers=4)] == ["h4-s0.json", "l4h1-s3.json"]
    assert [model_file(3, 0, d_model=24), model_file(1, 0, layers=1, ffn=128)] == [
        "h3-d24-s0.json", "l1h1-ffn128-s0.json"]
    assert model_key(2, layers=1, d_model=32, ffn=128) == "l1h2-ffn128"
    with pytest.raises(ValueError, match="0 for the one-layer model"):
        model_key(2, ffn=128)
    with pytest.raises(ValueError, match="layers must be a positive integer, got 0"):
        model_file(1, 0, layers=0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer, got -1"):
        model_file(1, -1)


def test_model_data_is_the_state_dict_and_the_measured_roles(run):
    data = model_data(run)
    assert sorted(data["weights"]) == sorted(run["state_dict"])
    for name, value in run["state_dict"].items():
        entry = data["weights"][name]
        np.testing.assert_array_equal(decode_array(entry["data"], entry["shape"]), value)
    shares, roles = specialisation(run)
    assert data["roles"] == [None if r is None else fmt_offset(r) for r in roles]
    np.testing.assert_allclose(data["shares"], shares, atol=5e-5)
    assert data["heads"] == 2 and data["python"]["acc_by_offset"] == run["acc_by_offset"]
    with pytest.raises(ValueError, match="train_run"):
        model_data({"num_heads": 2})


def test_check_data_is_pytorchs_logits_with_and_without_heads(run):
    data = check_data(run, n_logs=2)
    assert data["masks"] == [[True, True], check_mask(2)] and data["shape"] == [2, 2, 16, 4, 16]
    logits = decode_array(data["logits"], data["shape"])
    logits64 = np.frombuffer(base64.b64decode(data["logits64"]), dtype="<f8").reshape(data["shape"])
    model = load_model(run)
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    with torch.no_grad():
        np.testing.assert_array_equal(logits[0], model(x[:2]).numpy())
        with heads_off(model, check_mask(2)):
            np.testing.assert_array_equal(logits[1], model(x[:2]).numpy())
    # float64 differs from float32 only by float32's rounding, and switching a head off changes the logits.
    np.testing.assert_allclose(logits64, logits, atol=1e-4)
    assert np.abs(logits[0] - logits[1]).max() > 1e-3
    with pytest.raises(ValueError, match="n_logs"):
        check_data(run, n_logs=0)


def test_stack_model_data_is_the_state_dict_and_each_layers_roles(stack_run):
    data = model_data(stack_run)
    assert (data["stack"], data["layers"], data["heads"], data["d_k"], data["d_model"]) == (True, 2, 2, 8, 32)
    assert data["norm_eps"] == 1e-5  # nn.LayerNorm's default, read from the model
    assert sorted(data["weights"]) == sorted(stack_run["state_dict"])
    assert data["weights"]["blocks.1.W_q.weight"]["shape"] == [16, 32]  # h * d_k = 16 rows of d_model
    assert data["weights"]["blocks.0.W_o.weight"]["shape"] == [32, 16]
    for name, value in stack_run["state_dict"].items():
        entry = data["weights"][name]
        np.testing.assert_array_equal(decode_array(entry["data"], entry["shape"]), value)
    shares = layer_shares(stack_run)  # (layers, heads, offsets)
    assert np.shape(data["shares"]) == shares.shape == (2, 2, 5)
    np.testing.assert_allclose(data["shares"], shares, atol=5e-5)
    assert data["roles"] == [[None if r is None else fmt_offset(r) for r in head_roles(torch.as_tensor(s))]
                             for s in shares]
    assert data["python"]["accuracy"] == stack_run["accuracy"]


def test_stack_check_data_holds_logits_and_every_layers_attention(stack_run):
    data = check_data(stack_run, n_logs=2)
    assert data["masks"] == [[True] * 4, [False, True, False, True]]  # layer-major: layer 0 head 0, layer 1 head 0 off
    assert data["shape"] == [2, 2, 16, 4, 16] and data["attn_shape"] == [2, 2, 2, 2, 16, 16]
    logits = decode_array(data["logits"], data["shape"])
    attn = decode_array(data["attn"], data["attn_shape"])
    model = load_model(stack_run)
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    with torch.no_grad():
        out, w = model(x[:2], need_weights=True)
        np.testing.assert_array_equal(logits[0], out.numpy())
        np.testing.assert_array_equal(attn[0], w.numpy())
        with stack_heads_off(model, data["masks"][1]):
            out_off, w_off = model(x[:2], need_weights=True)
        np.testing.assert_array_equal(logits[1], out_off.numpy())
        np.testing.assert_array_equal(attn[1], w_off.numpy())
    np.testing.assert_allclose(attn.sum(-1), 1, atol=1e-5)  # every row of attention is a distribution
    # A head off in layer 0 leaves layer 0's attention alone and moves layer 1's.
    np.testing.assert_array_equal(attn[0, :, 0], attn[1, :, 0])
    assert np.abs(attn[0, :, 1] - attn[1, :, 1]).max() > 1e-4
    assert np.abs(logits[0] - logits[1]).max() > 1e-3
    logits64 = np.frombuffer(base64.b64decode(data["logits64"]), dtype="<f8").reshape(data["shape"])
    np.testing.assert_allclose(logits64, logits, atol=1e-4)
    assert "attn" not in check_data(train_run(num_heads=2, seed=0, steps=3), n_logs=1)  # one-layer: logits only


def test_stack_heads_off_checks_its_arguments(stack_run, run):
    model = load_model(stack_run)
    with pytest.raises(ValueError, match=r"one flag per head of every layer \(2 x 2 = 4\), got 2"):
        with stack_heads_off(model, [True, False]):
            pass
    with pytest.raises(ValueError, match="must be a StackModel"):
        with stack_heads_off(load_model(run), [True, True]):
            pass
    x, _ = make_batch(1, seed=0)
    with torch.no_grad():
        before = model(x)
        with stack_heads_off(model, [True] * 4):
            np.testing.assert_array_equal(model(x).numpy(), before.numpy())  # all on: the same model
        np.testing.assert_array_equal(model(x).numpy(), before.numpy())  # the hooks are gone afterwards


def test_built_site_serves_every_offered_model(built_site):
    """Every model in the index is a file in the built site, with its check file, at the shapes the index says."""
    folder = built_site / FOLDER
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    assert index == json.loads(json.dumps(index_data()))
    assert len(index["models"]) == 37 and {m["key"] for m in index["models"]} >= {
        key for key, *_ in SECOND_SHAPES.values()}
    for entry in index["models"]:
        data = json.loads((folder / entry["file"]).read_text(encoding="utf-8"))
        check = json.loads((folder / entry["file"].replace(".json", ".check.json")).read_text(encoding="utf-8"))
        n, h, d_k, E, F = entry["layers"], entry["heads"], entry["d_k"], entry["d_model"], entry["ffn"]
        assert (data["layers"], data["heads"], data["d_k"], data["d_model"], data["ffn"], data["seed"],
                data["stack"]) == (n, h, d_k, E, F, entry["seed"], entry["stack"])
        assert np.shape(data["roles"]) == ((n, h) if entry["stack"] else (h,))
        assert len(check["masks"][0]) == n * h and check["shape"] == [2, 3, 16, 4, 16]
        assert data["weights"]["event.weight"]["shape"] == [16, E]
        if entry["stack"]:
            assert check["attn_shape"] == [2, 3, n, h, 16, 16]
            assert data["weights"][f"blocks.{n - 1}.W_q.weight"]["shape"] == [h * d_k, E]
            assert f"blocks.{n}.norm.weight" not in data["weights"]
            ffn = [k for k in data["weights"] if ".ffn" in k]
            assert len(ffn) == (6 * n if F else 0)
            if F:
                assert data["weights"][f"blocks.{n - 1}.ffn.0.weight"]["shape"] == [F, E]
                assert data["weights"][f"blocks.{n - 1}.ffn.2.weight"]["shape"] == [E, F]
        else:
            assert data["weights"]["attn.W_q.weight"]["shape"] == [E, E] and E == h * d_k
