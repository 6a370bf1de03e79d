"""The induction page's live view and the weights behind the page: results/induction-live.json keeps the
protocol's seed-0 training (for the figures); results/induction-reader.json the model the view runs,
trained for the reader's text (relative positions, repeats anywhere, 256 ids), measured on the reader
benchmark; the text-to-id mapping, the head roles, and the data the page carries."""

from __future__ import annotations

import json
import math
import re

import pytest
import torch

from snippets.induction import live, reader, readerbench, weights
from snippets.induction.model import AttentionOnly
from snippets.induction.report import load_induction
from snippets.induction.task import SEQ_LEN, make_repeat_batch
from snippets.induction.train import EVAL_SEED, losses


@pytest.fixture(scope="module")
def kept():
    return live.load_live()


def test_text_ids_are_code_points_modulo_the_vocabulary():
    assert live.text_ids("Aa 头") == [65, 97, 32, 0x5934 % 256] == [65, 97, 32, 52]
    assert live.MAX_CHARS == reader.MAX_LEN == 100 and reader.VOCAB == 256
    assert live.text_ids("x" * live.MAX_CHARS) == [120] * live.MAX_CHARS
    assert live.same_id() == ("这", "给")  # two of the benchmark's characters, 0x8FD9 and 0x7ED9
    for bad in ("", "x" * (live.MAX_CHARS + 1), None, 42):
        with pytest.raises(ValueError, match="expected a text of 1 to 100 characters"):
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


def test_relative_scores_depend_on_the_distance_only():
    """With no query or key, a head's attention is the softmax of its learned number per distance,
    the same at every position: rel[1] large makes a previous-token head anywhere in the text."""
    torch.manual_seed(0)
    m = reader.ReaderModel(2, 1)
    with torch.no_grad():
        m.W_Q.zero_()
        m.rel.zero_()
        m.rel[0, 0, 1] = 5.0
    x = torch.randint(256, (2, 60))
    with torch.no_grad():
        _, attn = m(x, return_attention=True)
    a = attn[0][:, 0]  # (N, T, T)
    e5 = math.exp(5.0)
    for t in (1, 7, 59):  # one back gets e^5 / (e^5 + t), whatever the tokens and the position
        assert float(a[0, t, t - 1]) == pytest.approx(e5 / (e5 + t), rel=1e-5)
        assert float(a[1, t, t - 1]) == pytest.approx(e5 / (e5 + t), rel=1e-5)
    assert float(attn[1][0, 0, 10, :11].std()) < 1e-6  # layer 1: no query, no distance number: uniform
    with pytest.raises(ValueError, match="distances up to 99"):
        m(torch.zeros(1, 101, dtype=torch.long))


def test_reader_batches_repeat_a_segment_anywhere_before_the_end():
    x, second, valid, dist = reader.make_reader_batch(200, seed=3)
    assert x.shape == (200, 100) and int(x.max()) < 256
    starts, ends = [], []
    for i in range(200):
        pos = second[i].nonzero().flatten()
        n = int(valid[i].sum())
        assert reader.MIN_LEN <= n <= 100 and bool(valid[i, :n].all())
        assert bool((pos == torch.arange(pos[0], pos[-1] + 1)).all()) and int(pos[-1]) < n  # one stretch, before n
        assert bool((x[i, pos] == x[i, pos - dist[i]]).all())  # written dist ids earlier
        assert 0 <= int(dist[i]) - len(pos) <= reader.MAX_GAP
        starts.append(int(pos[0] - dist[i]))
        ends.append(n)
    assert min(starts) == 0 and max(starts) >= 30 and min(ends) < 20  # repeats at the start, far in; short texts
    with pytest.raises(ValueError, match="max_len"):
        reader.make_reader_batch(2, max_len=5)


def test_float16_weights_round_trip_and_bad_records():
    torch.manual_seed(2)
    m = reader.round_f16(reader.ReaderModel(2, 1))
    back = reader.load_reader({"layers": 2, "heads": 1, "state_dict": reader.encode_f16(m.state_dict())})
    for name, t in m.state_dict().items():
        assert torch.equal(back.state_dict()[name], t), name
    assert "pos.weight" not in back.state_dict()  # no position embedding: a number per distance only
    with pytest.raises(ValueError, match="layers, heads and state_dict"):
        reader.load_reader({"layers": 2})
    with pytest.raises(ValueError, match="f16"):
        reader.decode_f16({"W_Q": "abc"})
    with pytest.raises(ValueError, match="expected one of the reader's models"):
        reader.train_kept(2, 4, 1)
    with pytest.raises(ValueError, match="expected one of the reader's models"):
        reader.train_kept(2, 2, 0, 64)
    with pytest.raises(ValueError, match=r"expected \(layers, heads, seed\)"):
        reader.job_key((2, 1))


@pytest.fixture(scope="module")
def kept_reader():
    return live.load_reader_result()


def test_the_reader_models_are_the_ones_trained_and_their_measures_recompute(kept_reader):
    data = kept_reader["data"]
    assert data["live"] == [list(j) for j in reader.LIVE] == [[2, 2, 0, 32], [2, 1, 0]]
    assert data["setup"]["STEPS"] == reader.STEPS and data["setup"]["VOCAB"] == 256
    for m in data["models"]:
        model = reader.load_reader(m)
        again = reader.evaluate_reader(model, reader.EVAL_SIZE)
        for key in ("accuracy", "accuracy_once", "accuracy_several"):
            assert again[key] == pytest.approx(m["final"][key], abs=1e-6), key
        assert again["predictable"] == pytest.approx(m["final"]["predictable"], abs=1e-5)
        assert m["cpu_seconds"] < 600  # at most ten CPU minutes on one thread
    wide, first = data["models"]
    assert (wide["heads"], wide["d_head"], first["heads"], first["d_head"]) == (2, 32, 1, 16)
    # The minimal circuit: layer 0 looks one back, layer 1 at the token after the earlier occurrence.
    assert first["final"]["prev"][0][0] > 0.5 and first["final"]["prefix"][1][0] > 0.5
    assert live.roles(first["final"]) == {"prev": [0, 0], "induction": [1, 0]}
    # The kept model: the protocol's rule on the four candidates' held-out accuracy chose it.
    cands = data["candidates"]
    assert [reader.job_key((c["layers"], c["heads"], c["seed"], c["d_head"])) for c in cands] == \
        [reader.job_key(j) for j in reader.CANDIDATES + reader.CANDIDATES_WIDE]
    assert all("state_dict" not in c for c in cands)
    kept = reader.choose(cands)
    assert (kept["layers"], kept["heads"], kept["seed"], kept["d_head"]) == tuple(data["live"][0])
    assert kept["final"] == wide["final"]  # the same run: the kept candidate's weights are LIVE[0]'s
    assert wide["final"]["accuracy_several"] > first["final"]["accuracy_several"] + 0.2


def test_the_reader_model_copies_short_texts_typed_twice(kept_reader):
    model = reader.load_reader(kept_reader["data"]["models"][0])
    for text, second in (("ABCDEFGHIJ ABCDEFGHIJ", 11), ("今天下午开会，别忘了带电脑。今天下午开会，别忘了带电脑。", 14),
                         ("the cat sat. the cat sat.", 13)):
        ids = live.text_ids(text)
        with torch.no_grad():
            guess = model(torch.tensor([ids]))[0].argmax(-1).tolist()
        right = [guess[t] == ids[t + 1] for t in range(second, len(ids) - 1)]
        assert sum(right) >= 0.8 * len(right), (text, right)


def test_the_reader_benchmark(kept_reader):
    """The target was 80 % in each language. The one-head model reaches it in Chinese only, and the gap is
    where the current character occurs several times; the two-head model the view opens on reaches it in both."""
    kept, first = (live.bench_scores(kept_reader, job) for job in live.SHOWN)
    assert len(kept["zh"]["texts"]) == len(kept["en"]["texts"]) == 20
    assert kept["zh"]["mean"] >= 0.8 and kept["en"]["mean"] >= 0.8, (kept["zh"]["mean"], kept["en"]["mean"])
    assert first["zh"]["mean"] >= 0.8 and 0.6 <= first["en"]["mean"] < 0.8, (first["zh"]["mean"], first["en"]["mean"])
    s = first
    for lang in ("zh", "en"):  # one place to copy from: nearly always right; several: about half
        once, several = s[lang]["once"], s[lang]["several"]
        assert once[0] >= 0.95 * once[1] and several[0] <= 0.7 * several[1], (lang, once, several)
        n = sum(len(readerbench.predictable_positions(t)) for t in readerbench.bench_texts(lang))
        assert once[1] + several[1] == n == kept[lang]["once"][1] + kept[lang]["several"][1]
        assert kept[lang]["several"][0] >= 0.8 * kept[lang]["several"][1], (lang, kept[lang]["several"])
    assert s["en"]["several"][1] > 2 * s["en"]["once"][1] and s["zh"]["several"][1] < s["zh"]["once"][1] / 3
    # The protocol's own seed-0 model, run the same way on what it can read (48 characters, code point
    # modulo 64, learned positions): the benchmark's short texts are what it fails on.
    old = weights.load_kept(next(m for m in live.load_live()["data"]["models"] if m["heads"] == 1))
    shares = []
    for t in readerbench.bench_texts("en"):
        if len(t.text) <= 48:
            ids = [ord(c) % 64 for c in t.text]
            with torch.no_grad():
                shares.append(readerbench.score(old(torch.tensor([ids]))[0].argmax(-1).tolist(), ids, t))
    assert sum(shares) / len(shares) < 0.5
    assert "20 句中文和 20 句英文" in live.bench_sentence("zh", kept_reader)
    en = live.bench_sentence("en", kept_reader)
    assert en.startswith("They are checked on texts the models never saw")
    assert f"gets {kept['zh']['mean']:.0%} right in Chinese and {kept['en']['mean']:.0%} in English" in en


def test_the_choice_is_printed_from_the_candidates(kept_reader):
    for lang in ("zh", "en"):
        rows = live.choice_rows(lang, kept_reader)
        assert len(rows) == 5 and [r[-1] for r in rows] == ["—", "", "", "✅", ""]
        assert rows[3][0] == live.model_label(lang, (2, 2, 0, 32))
    cands = kept_reader["data"]["candidates"]
    en = live.choice_sentence("en", kept_reader)
    assert f"held-out accuracy {cands[0]['final']['accuracy']:.1%} and {cands[1]['final']['accuracy']:.1%}" in en
    assert f"{cands[2]['final']['accuracy']:.1%} and {cands[3]['final']['accuracy']:.1%}" in en
    assert live.model_label("zh", (2, 2, 0, 32)) == "2 层 × 2 个头，每个头 32 维"
    assert live.model_label("en", (2, 1, 0)) == "2 layers × 1 head"


def test_the_page_carries_words_sizes_roles_and_weights(kept_reader):
    data = live.live_data(kept_reader)
    assert [(d["layers"], d["heads"]) for d in data] == [(2, 2), (2, 1)]  # the kept one, the minimal circuit
    for d, m in zip(data, kept_reader["data"]["models"], strict=True):
        assert d["roles"] == live.roles(m["final"]) and d["weights"] == m["state_dict"]
        assert all("f16" in w for w in d["weights"].values())
    pages = {}
    for lang in ("zh", "en"):
        page = live.live_html(lang, kept_reader)
        assert page.startswith('<div class="induction-live" data-induction-live>')
        payload = json.loads(re.search(r'class="induction-live-data">(.*)</script>', page).group(1))
        assert payload["vocab"] == 256 and payload["max_chars"] == 100
        assert payload["start"] == f"example_{lang}"  # the view opens on the page's language
        assert payload["ui"]["example_en"] == "ERROR order-api timeout; ERROR order-api timeout"
        assert len(payload["ui"]["example_en"]) <= 100 and len(payload["ui"]["example_zh"]) <= 100
        assert "{id}" in payload["ui"]["hash_note"] and "{hits}" not in payload["ui"]["summary_none"]
        pages[lang] = payload
    assert pages["zh"]["labels"] == ["2 层 × 2 个头，每个头 32 维", "2 层 × 1 个头"]
    assert pages["en"]["labels"] == ["2 layers × 2 heads, 32 dimensions per head", "2 layers × 1 head"]
    assert pages["zh"]["models"] == pages["en"]["models"]  # one data file for both languages
    assert live.live_sentence("en").startswith("Each character first becomes an id: its Unicode code point "
                                               "modulo 256")
    with pytest.raises(ValueError, match="live model"):
        live.live_data({"data": {"models": []}})
    with pytest.raises(ValueError, match="induction-live"):
        live.load_live("/nonexistent/induction-live.json")
    with pytest.raises(ValueError, match="induction-reader"):
        live.load_reader_result("/nonexistent/induction-reader.json")
