"""Cutting SmolLM2-135M's top induction heads (snippets.decoder.ablation, results/decoder-ablation.json).

The cut itself is checked on a small random Llama (fast): cutting a head is the same as zeroing its columns of
W_o, a mean fill is what the head outputs on average, nothing cut changes nothing. The committed result is
checked against the protocol and the committed head scores it was chosen from, and a few of its numbers are
computed again on the real model (two units, one cut each)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from snippets.decoder import ablation as A
from snippets.decoder.heads import EN_TEXT, ZH_TEXT
from snippets.decoder.model import LlamaDecoder
from snippets.decoder.weights import LlamaConfig, file_hash
from sitebuild import results


@pytest.fixture(scope="module")
def tiny() -> LlamaDecoder:
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab=50, d_model=32, num_layers=3, num_heads=4, num_kv_heads=2, d_ff=48, context=32,
                      rope_base=10000.0, eps=1e-5)
    return LlamaDecoder(cfg).double().eval().requires_grad_(False)


def _fill(model, dtype=torch.float64):
    cfg = model.cfg
    return {i: torch.zeros(cfg.num_heads, cfg.d_k, dtype=dtype) for i in range(cfg.num_layers)}


def test_cutting_a_head_is_zeroing_its_columns_of_W_o(tiny):
    ids = torch.randint(50, (3, 12), generator=torch.Generator().manual_seed(1))
    layer, head, d_k = 1, 2, tiny.cfg.d_k
    cut = {layer: torch.tensor([[False] * 4, [False, False, True, False], [False] * 4])}  # unit 1 only
    with A.heads_cut(tiny, cut, _fill(tiny)):
        got = tiny(ids)
    assert not tiny.blocks[layer].attn.W_o._forward_pre_hooks  # removed on leaving
    plain = tiny(ids)
    w = tiny.blocks[layer].attn.W_o.weight
    saved = w.clone()
    w[:, head * d_k:(head + 1) * d_k] = 0
    try:
        zeroed = tiny(ids)
    finally:
        w.copy_(saved)
    torch.testing.assert_close(got[1], zeroed[1], rtol=0, atol=1e-12)
    torch.testing.assert_close(got[[0, 2]], plain[[0, 2]], rtol=0, atol=0)  # units without a cut: untouched
    assert (got[1] - plain[1]).abs().max() > 1e-3  # the cut did something


def test_nothing_cut_changes_nothing_and_a_mean_fill_is_the_heads_mean(tiny):
    ids = torch.randint(50, (2, 10), generator=torch.Generator().manual_seed(2))
    none = {0: torch.zeros(2, 4, dtype=torch.bool)}
    with A.heads_cut(tiny, none, _fill(tiny)):
        torch.testing.assert_close(tiny(ids), tiny(ids), rtol=0, atol=0)
    means = A.head_means(tiny, [ids[:1], ids[1:]])
    seen = []
    h = tiny.blocks[2].attn.W_o.register_forward_pre_hook(lambda m, a: seen.append(a[0]))
    tiny(ids)
    h.remove()
    expect = seen[0].reshape(-1, 4, tiny.cfg.d_k).mean(0)  # every position of both units
    torch.testing.assert_close(means[2].double(), expect, rtol=0, atol=1e-6)


def test_unit_losses_cut_per_unit(tiny):
    ids = torch.randint(50, (2, 10), generator=torch.Generator().manual_seed(3))
    intact = A.unit_losses(tiny, [ids], 0)
    alone = A.unit_losses(tiny, [ids[:1], ids[1:]], 0)
    assert intact == pytest.approx(alone, abs=1e-5)
    cut = A.unit_losses(tiny, [ids], 5, [[(0, 1)], []], _fill(tiny))
    assert cut[1] == pytest.approx(A.unit_losses(tiny, [ids[1:]], 5)[0], abs=1e-5)  # unit 1: nothing cut
    assert cut[0] != pytest.approx(A.unit_losses(tiny, [ids[:1]], 5)[0], abs=1e-4)


def test_split_passage_keeps_every_character_and_cuts_at_sentence_ends():
    zh = A.split_passage(ZH_TEXT, 4, "zh")
    en = A.split_passage(EN_TEXT, 4, "en")
    assert "".join(zh) == ZH_TEXT and " ".join(en) == EN_TEXT.strip()
    assert len(zh) == len(en) == 4 and all(p[-1] in "。？！" for p in zh) and all(p[-1] in ".?!" for p in en)
    with pytest.raises(ValueError, match="parts must be an integer from 1 to the 2 sentences, got 3"):
        A.split_passage("One. Two.", 3, "en")
    with pytest.raises(ValueError, match="lang must be 'zh' or 'en'"):
        A.split_passage("One.", 1, "fr")


def test_units_are_sixteen_per_kind_half_each_language():
    names = [n for n, _ in A.ordinary_passages()]
    assert len(names) == 16 and sum(n.startswith("zh-") for n in names) == 8
    assert A.PROTOCOL["REPEAT"]["sequences"] == 16
    assert A.PROTOCOL["REPEAT"]["seed"] != 0  # not the sequences the heads were chosen on (heads.REPEAT)


def test_random_heads_come_from_the_same_layers_and_are_never_top():
    top = A.top_heads(10)
    for seed in range(20):
        r = A.random_heads(top, 9, seed)
        assert [L for L, _ in r] == [L for L, _ in top]
        assert not set(r) & set(top) and len(set(r)) == len(r)
    assert A.random_heads(top, 9, 3) == A.random_heads(top, 9, 3)
    with pytest.raises(ValueError, match="layer 0 has no head left to draw"):
        A.random_heads([(0, 0), (0, 1)], 2, 0)
    with pytest.raises(ValueError, match="k must be an integer from 1 to 270"):
        A.top_heads(0)


# ---------------------------------------------------------------- the committed result


@pytest.fixture(scope="module")
def committed() -> dict:
    return results.load("decoder-ablation")


def test_result_follows_the_protocol_and_this_file(committed):
    d = committed["data"]
    assert d["protocol"] == A.PROTOCOL and d["file_sha256"] == file_hash()
    n_rep, n_ord = A.PROTOCOL["REPEAT"]["sequences"], len(A.ordinary_passages())
    assert [name for name, _ in d["units"]["ordinary"]] == [name for name, _ in A.ordinary_passages()]
    keys = {"intact"} | {f"{w}{k}-{c}" for w in ("top", "random") for k in A.PROTOCOL["K"] for c in A.PROTOCOL["CUTS"]}
    assert set(d["loss"]["ordinary"]) == keys and set(d["loss"]["repeated"]) == keys | {"first_copy"}
    assert all(len(v) == n_rep for v in d["loss"]["repeated"].values())
    assert all(len(v) == n_ord for v in d["loss"]["ordinary"].values())


def test_the_cut_heads_are_still_the_top_of_the_committed_scores(committed):
    """The heads were chosen from results/decoder-heads.json: if that is measured again and its ranking moves,
    this result must be measured again too (python -m sitebuild.results decoder-ablation)."""
    d = committed["data"]
    for k in A.PROTOCOL["K"]:
        top = A.top_heads(k)
        assert [tuple(x) for x in d["heads"][str(k)]] == top, f"run `{committed['provenance']['command']}`"
        for i, drawn in enumerate(d["random"][str(k)]):
            assert [tuple(x) for x in drawn] == A.random_heads(top, 9, A.PROTOCOL["RANDOM_SEED"] * 1000 + i)


def test_ordinary_units_are_the_passages_token_counts(committed):
    from snippets.decoder.weights import load_tokenizer

    tok = load_tokenizer()
    assert [[n, len(tok.encode(t).ids)] for n, t in A.ordinary_passages()] == committed["data"]["units"]["ordinary"]


def test_a_few_committed_losses_compute_again(committed):
    """Two repeated sequences and one passage, intact and with the top 5 zeroed and mean-filled, on the real model:
    the same numbers within float32 noise (the committed run batched all 16 sequences together)."""
    from snippets.decoder.model import shared_model
    from snippets.decoder.reference import encode

    model = shared_model()
    d, rep = committed["data"], A.PROTOCOL["REPEAT"]
    T, k = rep["length"], A.PROTOCOL["K"][0]
    ids = A.repeated_tokens(**rep)[[0, 5]]  # (2, 2T)
    top = [tuple(x) for x in d["heads"][str(k)]]
    cfg = model.cfg
    zeros = {i: torch.zeros(cfg.num_heads, cfg.d_k) for i in range(cfg.num_layers)}
    loss = d["loss"]["repeated"]
    assert A.unit_losses(model, [ids], T) == pytest.approx([loss["intact"][0], loss["intact"][5]], abs=2e-3)
    assert A.unit_losses(model, [ids], T, [top, top], zeros) == pytest.approx(
        [loss[f"top{k}-zero"][0], loss[f"top{k}-zero"][5]], abs=2e-3)
    name, text = A.ordinary_passages()[9]
    one = encode(text, model)
    assert A.unit_losses(model, [one], 0) == pytest.approx([d["loss"]["ordinary"]["intact"][9]], abs=2e-3)


def test_the_family_is_twelve_comparisons_with_the_sign_flip_test(committed):
    from snippets.decoder import report

    fam = report.knockout_family(committed)
    assert len(fam) == len(A.PROTOCOL["K"]) * len(A.PROTOCOL["CUTS"]) * len(A.PROTOCOL["COMPARISONS"]) == 12
    for (k, cut, comp), c in fam.items():
        a, b = report._pair(committed, k, cut, comp)
        assert c.n == 16 and c.family == 12 and c.extra["sign_flip"]
        assert c.mean == pytest.approx(np.mean(np.array(b) - np.array(a)))
        if c.verdict != "none":  # a difference: its interval (at its Holm step's level) excludes 0
            assert not c.lo <= 0 <= c.hi and c.p < 1 - c.level
