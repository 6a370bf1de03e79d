"""The §4 model lab's data export (sitebuild/whatif_lab.py): exact weights, held-out logs, PyTorch's logits."""

import base64
import doctest
import json

import numpy as np
import pytest
import torch

from sitebuild import whatif_lab
from sitebuild.whatif_lab import (
    FOLDER,
    STACK_SEED,
    check_data,
    check_mask,
    decode_array,
    encode_array,
    encode_logs,
    index_data,
    model_data,
    model_file,
    stack_heads_off,
)
from snippets.whatif.analysis import HEADS, SEEDS, head_roles, heads_off, specialisation
from snippets.whatif.factors import DEPTH, layer_shares
from snippets.whatif.factors_report import lab_stats
from snippets.whatif.report import fmt_offset
from snippets.whatif.task import EVENTS, OFFSETS, make_batch
from snippets.whatif.train import EVAL_SEED, EVAL_SIZE, load_model, train_run


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
    data = index_data(heads=(1, 2), seeds=(0,), stacks=DEPTH[1:3])
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    assert data["heldout"]["logs"] == encode_logs(x) and data["heldout"]["count"] == EVAL_SIZE
    assert data["events"] == list(EVENTS) and data["offsets"] == list(OFFSETS)
    assert [m["file"] for m in data["models"]] == ["h1-s0.json", "h2-s0.json", "l2h2-s0.json", "l4h1-s0.json"]
    assert [(m["layers"], m["heads"], m["d_k"], m["stack"]) for m in data["models"]] == [
        (1, 1, 32, False), (1, 2, 16, False), (2, 2, 8, True), (4, 1, 8, True)]
    json.dumps(data)  # plain JSON


def test_the_lab_offers_every_one_layer_model_and_every_stack():
    data = index_data()
    flat = [(m["heads"], m["seed"]) for m in data["models"] if not m["stack"]]
    deep = [(m["layers"], m["heads"], m["seed"]) for m in data["models"] if m["stack"]]
    assert flat == [(h, s) for h in HEADS for s in SEEDS]
    assert deep == [(1, 4, 0), (2, 2, 0), (4, 1, 0), (2, 1, 0)] == [(c["layers"], c["num_heads"], STACK_SEED)
                                                                    for c in DEPTH]
    assert len({m["file"] for m in data["models"]}) == len(data["models"])  # one file each
    assert lab_stats("、") == {"n_models": 34, "n_flat": 30, "n_seeds": 5, "n_stacks": 4, "stack_seed": 0,
                               "stacks": "1 × 4、2 × 2、4 × 1、2 × 1"}
    with pytest.raises(ValueError, match="sep must be a string"):
        lab_stats(None)


def test_model_files_name_layers_heads_and_seed():
    assert [model_file(4, 0), model_file(1, 3, layers=4)] == ["h4-s0.json", "l4h1-s3.json"]
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
    for entry in index["models"]:
        data = json.loads((folder / entry["file"]).read_text(encoding="utf-8"))
        check = json.loads((folder / entry["file"].replace(".json", ".check.json")).read_text(encoding="utf-8"))
        n, h, d_k = entry["layers"], entry["heads"], entry["d_k"]
        assert (data["layers"], data["heads"], data["d_k"], data["seed"], data["stack"]) == (
            n, h, d_k, entry["seed"], entry["stack"])
        assert np.shape(data["roles"]) == ((n, h) if entry["stack"] else (h,))
        assert len(check["masks"][0]) == n * h and check["shape"] == [2, 3, 16, 4, 16]
        if entry["stack"]:
            assert check["attn_shape"] == [2, 3, n, h, 16, 16]
            assert data["weights"][f"blocks.{n - 1}.W_q.weight"]["shape"] == [h * d_k, 32]
            assert f"blocks.{n}.norm.weight" not in data["weights"]
        else:
            assert data["weights"]["attn.W_q.weight"]["shape"] == [32, 32]
