"""The induction heads lab: the task, the attention-only model and its switches, the scores, the committed
runs (one retrained per session, from the start of its curve) and the page's words on them."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from snippets.induction import protocol as P
from snippets.induction import report as R
from snippets.induction.model import AttentionOnly
from snippets.induction.task import MIN_SEGMENT, SEQ_LEN, VOCAB, make_repeat_batch, predictable
from snippets.induction.train import head_scores, losses, train_induction

# ---- the task -----------------------------------------------------------------------------------------


def test_the_last_2L_tokens_are_one_segment_written_twice():
    x, second = make_repeat_batch(256, seed=5)
    assert x.shape == second.shape == (256, SEQ_LEN)
    lengths = second.sum(1)
    assert int(lengths.min()) == MIN_SEGMENT and int(lengths.max()) == SEQ_LEN // 2  # the whole range is drawn
    for row, L in zip(x, lengths.tolist(), strict=True):
        assert second[0].dtype == torch.bool
        assert torch.equal(row[SEQ_LEN - L:], row[SEQ_LEN - 2 * L:SEQ_LEN - L])
    assert int((x >= VOCAB).sum()) == 0 and int((x < 0).sum()) == 0
    assert predictable(second).sum(1).tolist() == (lengths - 1).tolist()  # all of the copy but its first token


def test_same_seed_same_batch_other_seed_other_batch():
    assert torch.equal(make_repeat_batch(8, seed=1)[0], make_repeat_batch(8, seed=1)[0])
    assert not torch.equal(make_repeat_batch(8, seed=1)[0], make_repeat_batch(8, seed=2)[0])


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"batch_size": 0}, "batch_size must be a positive integer, got 0"),
    ({"batch_size": 2, "seq_len": 11}, "seq_len must be at least 2 * MIN_SEGMENT = 12, got 11"),
])
def test_bad_task_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("*", r"\*")):
        make_repeat_batch(**kwargs)


# ---- the model ----------------------------------------------------------------------------------------


def test_one_layer_is_multihead_attention_and_sdpa():
    """A layer of AttentionOnly computes what nn.MultiheadAttention (no bias, causal mask) and
    F.scaled_dot_product_attention compute with the same weights."""
    torch.manual_seed(0)
    m = AttentionOnly(1, 4).double()
    x = torch.randint(VOCAB, (3, 12))
    stream = (m.embed(x) + m.pos(torch.arange(12))).double()
    E, H, D = 64, 4, 16
    ref = torch.nn.MultiheadAttention(E, H, bias=False, batch_first=True, kdim=E, vdim=E).double()
    # our heads project E -> D each; MHA's in_proj packs the heads' projections as rows, d_k = E / H = D here
    with torch.no_grad():
        ref.in_proj_weight.copy_(torch.cat([w.permute(0, 2, 1).reshape(H * D, E) for w in (m.W_Q[0], m.W_K[0], m.W_V[0])]))
        ref.out_proj.weight.copy_(m.W_O[0].reshape(H * D, E).T)
    causal = torch.ones(12, 12, dtype=torch.bool).triu(1)  # True = not allowed
    want, _ = ref(stream, stream, stream, attn_mask=causal, need_weights=False)
    got = m(x) - m.unembed(stream)  # what the layer added, read through the linear unembedding
    assert torch.allclose(got, m.unembed(want), atol=1e-10)
    q = torch.einsum("nte,hed->nhtd", stream, m.W_Q[0])
    k = torch.einsum("nte,hed->nhtd", stream, m.W_K[0])
    v = torch.einsum("nte,hed->nhtd", stream, m.W_V[0])
    z = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    sdpa = torch.einsum("nhtd,hde->nte", z, m.W_O[0])
    assert torch.allclose(sdpa, want, atol=1e-10)


def test_cutting_a_head_from_every_input_of_the_next_layer_leaves_only_its_direct_path():
    """Cut from layer 1's queries, keys and values, a layer-0 head still reaches the unembedding directly;
    zeroed, it does not. The difference between the two is exactly that direct path."""
    torch.manual_seed(1)
    m = AttentionOnly(2, 2).double()
    x = torch.randint(VOCAB, (2, 10))
    cut_all = m(x, cut={(0, 1, 1, p) for p in "qkv"})
    ablated = m(x, ablate={(0, 1)})
    _, patterns = m(x, return_attention=True)
    stream0 = (m.embed(x) + m.pos(torch.arange(10))).double()
    v = torch.einsum("nte,ed->ntd", stream0, m.W_V[0, 1])
    direct = torch.einsum("ntd,de->nte", patterns[0][:, 1] @ v, m.W_O[0, 1])
    assert torch.allclose(cut_all - ablated, m.unembed(direct), atol=1e-10)
    assert not torch.allclose(m(x, cut={(0, 1, 1, "k")}), m(x), atol=1e-6)  # a cut changes something
    assert torch.allclose(m(x, ablate={(0, 1)}, cut={(0, 1, 1, "k")}), ablated, atol=1e-12)  # nothing left to cut


@pytest.mark.parametrize(("call", "message"), [
    (lambda m: m(torch.zeros(2, 60, dtype=torch.long)), "x has 60 positions; the model has 48"),
    (lambda m: m(torch.full((1, 4), 64)), r"token ids must lie in \[0, 64\), got 64..64"),
    (lambda m: m(torch.zeros(2, 4)), r"x must be a 2-D tensor of token ids \(torch.long\), got \(2, 4\)"),
    (lambda m: m(torch.zeros(1, 4, dtype=torch.long), ablate={(2, 0)}), r"with layer < 2 and head < 2, got \(2, 0\)"),
    (lambda m: m(torch.zeros(1, 4, dtype=torch.long), cut={(0, 0, 1, "x")}), "a cut's part must be one of"),
    (lambda m: AttentionOnly(0, 2), "num_layers must be a positive integer, got 0"),
])
def test_bad_model_input_is_refused(call, message):
    torch.manual_seed(0)
    with pytest.raises(ValueError, match=message):
        call(AttentionOnly(2, 2))


# ---- the scores ---------------------------------------------------------------------------------------


class _Looks(torch.nn.Module):
    """A stand-in model whose one head attends, at every position, to position t - back (or to itself)."""

    def __init__(self, back):
        super().__init__()
        self.back = back

    def forward(self, x, return_attention=False):
        N, T = x.shape
        attn = torch.zeros(N, 1, T, T)
        for t in range(T):
            attn[:, 0, t, max(t - self.back(t, x), 0)] = 1.0
        logits = torch.zeros(N, T, VOCAB)
        return (logits, [attn]) if return_attention else logits


def test_scores_are_one_for_the_head_they_describe_and_low_otherwise():
    x, second = make_repeat_batch(4, seed=0)
    prev = head_scores(_Looks(lambda t, x: 1), x, second)
    assert prev["prev"] == [[1.0]] and prev["prefix"][0][0] < 0.2
    L = int(second[0].sum())
    x, second = x[:1], second[:1]
    induction = head_scores(_Looks(lambda t, x: L - 1 if t >= SEQ_LEN - L else 0), x, second)
    assert induction["prefix"] == [[1.0]]


def test_losses_split_the_targets():
    x, second = make_repeat_batch(16, seed=2)
    uniform = _Looks(lambda t, x: 0)  # zero logits: every target costs ln 64
    r = losses(uniform, x, second)
    assert r["predictable"] == pytest.approx(math.log(VOCAB)) and r["random"] == pytest.approx(math.log(VOCAB))


def test_training_is_reproducible_and_the_curve_starts_at_step_0():
    a = train_induction(2, 1, seed=7, steps=20, eval_every=10, eval_size=16)[1]
    b = train_induction(2, 1, seed=7, steps=20, eval_every=10, eval_size=16)[1]
    strip = lambda c: [{k: v for k, v in p.items() if k != "cpu_seconds"} for p in c]  # noqa: E731
    assert [p["step"] for p in a] == [0, 10, 20] and strip(a) == strip(b)


def test_switch_family_picks_heads_by_score_and_refuses_one_layer():
    scores = {"prev": [[0.1, 0.2, 0.9, 0.0], [0, 0, 0, 0]], "prefix": [[0, 0, 0, 0], [0.8, 0.1, 0.1, 0.0]]}
    fam = dict(P.switch_family(2, 4, scores))
    assert fam["ablate_prev"] == {"ablate": {(0, 2)}} and fam["ablate_induction"] == {"ablate": {(1, 0)}}
    assert fam["cut_k_all"] == {"cut": {(0, h, 1, "k") for h in range(4)}}
    with pytest.raises(ValueError, match="the causal comparisons need 2 layers, got 1"):
        P.switch_family(1, 4, scores)


# ---- the committed runs -------------------------------------------------------------------------------


def test_the_committed_runs_follow_the_protocol():
    result = R.load_induction()
    proto = result["data"]["protocol"]
    assert proto["STEPS"] == P.STEPS and proto["SEEDS"] == list(P.SEEDS) and proto["FORMED"] == P.FORMED
    models = result["data"]["models"]
    assert sorted((m["layers"], m["heads"], m["seed"]) for m in models) == sorted(P.jobs())
    for m in models:
        assert [c["step"] for c in m["curve"]] == list(range(0, P.STEPS + 1, P.EVAL_EVERY))
        assert len(m["final"]["prev"]) == m["layers"] and len(m["final"]["prev"][0]) == m["heads"]


def test_the_pages_words_hold_on_the_committed_result():
    """What docs/lab/induction-heads.*.md says in prose, checked on the committed runs."""
    result = R.load_induction()
    models, loss = R._models(result), R._loss(result)
    chance = math.log(VOCAB)
    assert all(v > 3 for v in loss[1, 4]) and all(v < chance for v in loss[1, 4])  # "not far from guessing"
    assert all(v.verdict == "lower" for v in R.depth_family(result).values())
    minimal = R.cause_family(result, (2, 1))
    assert minimal["cut_k"].verdict == "higher" and minimal["cut_k"].lo > 2  # cutting that one path removes induction
    assert minimal["cut_q"].verdict != "higher" and minimal["cut_v"].verdict != "higher"  # "hardly matter"
    assert all(max(m["final"]["prev"][0]) > 0.3 for m in models[2, 1])  # its layer-0 head looks at the previous token
    four = models[2, 4]
    assert all(max(m["final"]["prev"][0]) < 0.1 for m in four)  # "no head specialises in the previous token"
    assert all(min(m["final"]["prefix"][1]) > 0.5 for m in four)  # "all four layer-1 heads do induction"
    assert all(max(m["ablated"][0]) > 3 for m in four)  # "one layer-0 head is indispensable"
    intact = np.mean([m["final"]["predictable"] for m in four])
    cut_all = np.mean([m["switched"]["cut_k_all"] for m in four])
    assert cut_all - intact < 0.5 * (np.mean(loss[1, 4]) - intact)  # "mostly through something other than the keys"
    curve_prev = [m["curve"][-1]["prev"][0][0] - m["curve"][0]["prev"][0][0] for m in models[2, 1]]
    assert all(d > 0.2 for d in curve_prev)  # the figure's alt text: the previous-token score rises (one head)
