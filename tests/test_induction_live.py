"""The induction page's live view: the kept weights (results/induction-live.json) are the protocol's
seed-0 training, the text-to-id mapping, the head roles, and the data the page carries."""

from __future__ import annotations

import json
import re

import pytest
import torch

from snippets.induction import live, weights
from snippets.induction.model import AttentionOnly
from snippets.induction.report import load_induction
from snippets.induction.task import SEQ_LEN, make_repeat_batch
from snippets.induction.train import EVAL_SEED, losses


@pytest.fixture(scope="module")
def kept():
    return live.load_live()


def test_text_ids_are_code_points_modulo_the_vocabulary():
    assert live.text_ids("Aa 头") == [65 % 64, 97 % 64, 32, 0x5934 % 64] == [1, 33, 32, 52]
    assert live.text_ids("x" * SEQ_LEN) == [120 % 64] * SEQ_LEN
    assert live.same_id() == ("0", "p")  # 48 and 112
    for bad in ("", "x" * (SEQ_LEN + 1), None, 42):
        with pytest.raises(ValueError, match="expected a text of 1 to 48 characters"):
            live.text_ids(bad)
    with pytest.raises(ValueError, match="two share an id"):
        live.same_id("abc")


def test_roles_follow_the_protocols_rule():
    scores = {"prev": [[.1, .8, .3, .2], [.9, 0, 0, 0]], "prefix": [[.9, 0, 0, 0], [.1, .2, .7, .6]]}
    assert live.roles(scores) == {"prev": [0, 1], "induction": [1, 2]}
    with pytest.raises(ValueError, match="two-layer model"):
        live.roles({"prev": [[1.0]], "prefix": [[1.0]]})


def test_weights_round_trip_and_bad_records():
    torch.manual_seed(1)
    m = AttentionOnly(2, 4)
    back = weights.load_kept({"layers": 2, "heads": 4, "state_dict": weights.encode_state(m.state_dict())})
    for name, t in m.state_dict().items():
        assert torch.equal(back.state_dict()[name], t), name
    with pytest.raises(ValueError, match="layers, heads and state_dict"):
        weights.load_kept({"layers": 2})
    with pytest.raises(ValueError, match="shape"):
        weights.decode_state({"W_Q": "abc"})
    with pytest.raises(ValueError, match="expected one of the live models"):
        weights.train_kept(1, 4, 0)


def test_kept_models_are_the_protocols_seed_0_runs(kept):
    """Trained again as run_one trains them: the same final numbers as results/induction.json's seed 0."""
    runs = {(m["layers"], m["heads"], m["seed"]): m for m in load_induction()["data"]["models"]}
    models = kept["data"]["models"]
    assert [(m["layers"], m["heads"], m["seed"]) for m in models] == list(weights.LIVE) == [(2, 1, 0), (2, 4, 0)]
    for m in models:
        ref = runs[(m["layers"], m["heads"], m["seed"])]["final"]
        assert m["final"]["predictable"] == ref["predictable"]
        assert m["final"]["random"] == ref["random"]
        assert m["final"]["prev"] == ref["prev"] and m["final"]["prefix"] == ref["prefix"]
        assert m["final"]["predictable"] < 1.0  # FORMED: both copy the repeated half


def test_kept_weights_give_the_recorded_losses(kept):
    x, second = make_repeat_batch(1024, SEQ_LEN, seed=EVAL_SEED - 1)
    for m in kept["data"]["models"]:
        model = weights.load_kept(m)
        assert losses(model, x, second)["predictable"] == pytest.approx(m["final"]["predictable"], abs=1e-6)


def test_the_page_carries_words_sizes_roles_and_weights(kept):
    data = live.live_data(kept)
    assert [(d["layers"], d["heads"]) for d in data] == [(2, 1)]  # SHOWN: the minimal circuit
    assert [r["roles"] for r in live.live_data(kept, weights.LIVE)] == [
        {"prev": [0, 0], "induction": [1, 0]}, {"prev": [0, 1], "induction": [1, 2]}]
    for d, m in zip(data, kept["data"]["models"][:1], strict=True):
        assert d["roles"] == live.roles(m["final"]) and d["weights"] == m["state_dict"]
    assert data[0]["roles"] == {"prev": [0, 0], "induction": [1, 0]}
    pages = {}
    for lang in ("zh", "en"):
        page = live.live_html(lang, kept)
        assert page.startswith('<div class="induction-live" data-induction-live>')
        payload = json.loads(re.search(r'class="induction-live-data">(.*)</script>', page).group(1))
        assert payload["vocab"] == 64 and payload["max_chars"] == 48
        assert payload["ui"]["example_en"] == "ERROR order-api timeout; ERROR order-api timeout"
        assert len(payload["ui"]["example_en"]) <= 48 and len(payload["ui"]["example_zh"]) <= 48
        pages[lang] = payload
    assert pages["zh"]["labels"] == ["2 层 × 1 个头"]
    assert pages["en"]["labels"] == ["2 layers × 1 head"]
    assert pages["zh"]["models"] == pages["en"]["models"]  # one data file for both languages
    assert live.live_sentence("en").startswith("Each character first becomes an id: its Unicode code point "
                                               "modulo 64")
    with pytest.raises(ValueError, match="live models"):
        live.live_data({"data": {"models": []}})
    with pytest.raises(ValueError, match="induction-live"):
        live.load_live("/nonexistent/induction-live.json")
