"""The §4 model lab's data export (sitebuild/whatif_lab.py): exact weights, held-out logs, PyTorch's logits."""

import base64
import doctest
import json

import numpy as np
import pytest
import torch

from sitebuild import whatif_lab
from sitebuild.whatif_lab import (
    check_data, check_mask, decode_array, encode_array, encode_logs, index_data, model_data,
)
from snippets.whatif.analysis import heads_off, specialisation
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
    data = index_data(heads=(1, 2), seeds=(0,))
    x, _ = make_batch(EVAL_SIZE, seed=EVAL_SEED)
    assert data["heldout"]["logs"] == encode_logs(x) and data["heldout"]["count"] == EVAL_SIZE
    assert data["events"] == list(EVENTS) and data["offsets"] == list(OFFSETS)
    assert [m["file"] for m in data["models"]] == ["h1-s0.json", "h2-s0.json"]
    json.dumps(data)  # plain JSON


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
