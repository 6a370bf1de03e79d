"""snippets/kvheads: grouped-query attention against PyTorch, the KV cache against the full forward, cache bytes
against the formula, and MLA's two forms against each other."""

from __future__ import annotations

import contextlib

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from torch.utils._python_dispatch import TorchDispatchMode
from hypothesis import strategies as st
from torch import nn
from torch.testing import assert_close

from snippets.kvheads import cost, decode_bench
from snippets.kvheads.attention import (GroupedQueryAttention, KVCache, cache_bytes_per_token, decode,
                                        formula_bytes_per_token)
from snippets.kvheads.mla import LatentAttention, LatentCache
from snippets.kvheads.sharedq import SharedQueryAttention


@st.composite
def layer_shapes(draw):
    h = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    g = draw(st.sampled_from([d for d in range(1, h + 1) if h % d == 0]))
    d_k = draw(st.integers(1, 6))
    return h, g, d_k, draw(st.integers(1, 3)), draw(st.integers(1, 9)), draw(st.integers(0, 2**16))


def _layer(h, g, d_k, seed, dtype=torch.float64, bias=False):
    torch.manual_seed(seed)
    return GroupedQueryAttention(h * d_k, h, g, bias=bias, dtype=dtype)


@settings(max_examples=60, deadline=None)
@given(layer_shapes())
def test_layer_equals_sdpa_with_enable_gqa(shape):
    h, g, d_k, N, L, seed = shape
    layer = _layer(h, g, d_k, seed)
    x = torch.randn(N, L, h * d_k, dtype=torch.float64)
    q = layer.W_q(x).view(N, L, h, d_k).transpose(1, 2)
    k = layer.W_k(x).view(N, L, g, d_k).transpose(1, 2)
    v = layer.W_v(x).view(N, L, g, d_k).transpose(1, 2)
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)  # (N, h, L, d_k)
    ref = layer.W_o(ref.transpose(1, 2).reshape(N, L, h * d_k))
    assert_close(layer(x), ref, atol=1e-10, rtol=1e-10)


@settings(max_examples=60, deadline=None)
@given(layer_shapes(), st.booleans())
def test_layer_equals_mha_whose_key_value_weights_are_repeated(shape, bias):
    """GQA is MHA with each key/value head's weights copied to the h // g query heads of its group
    (repeat_interleave on the rows of W_k and W_v), run by nn.MultiheadAttention with a causal mask."""
    h, g, d_k, N, L, seed = shape
    layer = _layer(h, g, d_k, seed, bias=bias)
    E = h * d_k
    mha = nn.MultiheadAttention(E, h, bias=bias, batch_first=True, dtype=torch.float64)
    rep = lambda w: w.view(g, d_k, *w.shape[1:]).repeat_interleave(h // g, dim=0).reshape(E, *w.shape[1:])
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([layer.W_q.weight, rep(layer.W_k.weight), rep(layer.W_v.weight)]))
        mha.out_proj.weight.copy_(layer.W_o.weight)
        if bias:
            mha.in_proj_bias.copy_(torch.cat([layer.W_q.bias, rep(layer.W_k.bias), rep(layer.W_v.bias)]))
            mha.out_proj.bias.copy_(layer.W_o.bias)
    x = torch.randn(N, L, E, dtype=torch.float64)
    causal = torch.ones(L, L, dtype=torch.bool).triu(1)
    ref, _ = mha(x, x, x, attn_mask=causal, need_weights=False)
    assert_close(layer(x), ref, atol=1e-10, rtol=1e-10)


@settings(max_examples=40, deadline=None)
@given(layer_shapes())
def test_decoding_token_by_token_equals_the_full_causal_forward(shape):
    h, g, d_k, N, L, seed = shape
    layer = _layer(h, g, d_k, seed)
    x = torch.randn(N, L, h * d_k, dtype=torch.float64)
    out, cache = decode(layer, x)
    assert (out - layer(x)).abs().max() <= 1e-6
    assert len(cache) == L and cache.k.shape == (N, g, L, d_k)


def test_chunked_prefill_then_decoding_equals_the_full_forward():
    layer = _layer(8, 2, 4, 0)
    x = torch.randn(2, 11, 32, dtype=torch.float64)
    cache = KVCache()
    with torch.no_grad():
        out = torch.cat([layer(x[:, :6], cache), layer(x[:, 6:9], cache), layer(x[:, 9:], cache)], dim=1)
    assert (out - layer(x)).abs().max() <= 1e-6


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.bfloat16])
@pytest.mark.parametrize(("h", "g", "d_k"), [(8, 8, 4), (8, 4, 4), (8, 2, 16), (8, 1, 4), (32, 8, 128)])
def test_cache_bytes_per_token_equal_2_g_dk_bytes(dtype, h, g, d_k):
    layer = GroupedQueryAttention(h * d_k, h, g, device="meta", dtype=dtype)
    cache = KVCache()
    layer(torch.empty(3, 5, h * d_k, device="meta", dtype=dtype), cache)
    size = {torch.float64: 8, torch.float32: 4, torch.bfloat16: 2}[dtype]
    assert cache_bytes_per_token(cache) == formula_bytes_per_token(g, d_k, dtype) == 2 * g * d_k * size


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: GroupedQueryAttention(64, 8, 3), r"num_kv_heads must divide num_heads: got num_heads=8, num_kv_heads=3"),
        (lambda: GroupedQueryAttention(64, 8, 0), r"num_kv_heads must be a positive integer, got 0"),
        (lambda: GroupedQueryAttention(64, 7, 7), r"d_model must be divisible by num_heads"),
        (lambda: GroupedQueryAttention(64, 8, 16), r"num_kv_heads must divide num_heads: got num_heads=8, num_kv_heads=16"),
        (lambda: GroupedQueryAttention(64, 8, 2)(torch.randn(2, 3, 32)), r"x must have last dimension d_model=64"),
        (lambda: GroupedQueryAttention(64, 8, 2)(torch.randn(2, 0, 64)), r"at least one position"),
        (lambda: GroupedQueryAttention(64, 8, 2)(torch.randn(3, 64)), r"x must be 3-D, got shape \(3, 64\)"),
        (lambda: GroupedQueryAttention(64, 8, 2)(torch.randn(2, 3, 64), cache={}), r"cache must be a KVCache"),
        (lambda: cache_bytes_per_token(KVCache()), r"the cache is empty"),
        (lambda: LatentAttention(64, 8, 0), r"d_latent must be a positive integer, got 0"),
        (lambda: LatentAttention(64, 8, 16)(torch.randn(2, 3, 48)), r"x must be \(N, L >= 1, d_model=64\)"),
    ],
)
def test_argument_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cache_of_another_layer_is_refused():
    cache = KVCache()
    GroupedQueryAttention(64, 8, 2)(torch.randn(2, 3, 64), cache)
    with pytest.raises(ValueError, match=r"cache holds \(N, g\) = \(2, 2\), but x has N=2 and this layer g=4"):
        GroupedQueryAttention(64, 8, 4)(torch.randn(2, 1, 64), cache)


# --- MLA ---------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([1, 2, 4, 8]), st.integers(1, 6), st.integers(1, 24), st.integers(1, 3), st.integers(1, 9),
       st.integers(0, 2**16))
def test_mla_naive_and_absorbed_agree_with_and_without_the_cache(h, d_k, d_c, N, L, seed):
    torch.manual_seed(seed)
    mla = LatentAttention(h * d_k, h, d_c, dtype=torch.float64)
    x = torch.randn(N, L, h * d_k, dtype=torch.float64)
    naive = mla(x)
    assert_close(mla(x, absorbed=True), naive, atol=1e-10, rtol=1e-10)
    cache = LatentCache()
    with torch.no_grad():
        stepped = torch.cat([mla(x[:, t:t + 1], cache, absorbed=True) for t in range(L)], dim=1)
    assert (stepped - naive).abs().max() <= 1e-6
    assert cache.c.shape == (N, L, d_c)
    assert cache_bytes_per_token(cache) == d_c * 8


def test_mla_is_attention_with_keys_and_values_from_the_latent():
    """Naive MLA equals SDPA on keys W_uk c and values W_uv c: nothing else is hidden in it."""
    torch.manual_seed(1)
    h, d_k, d_c, N, L = 4, 8, 12, 2, 7
    mla = LatentAttention(h * d_k, h, d_c, dtype=torch.float64)
    x = torch.randn(N, L, h * d_k, dtype=torch.float64)
    c = mla.W_dkv(x)
    split = lambda t: t.view(N, L, h, d_k).transpose(1, 2)
    ref = F.scaled_dot_product_attention(split(mla.W_q(x)), split(mla.W_uk(c)), split(mla.W_uv(c)), is_causal=True)
    assert_close(mla(x), mla.W_o(ref.transpose(1, 2).reshape(N, L, h * d_k)), atol=1e-10, rtol=1e-10)


# --- MQAR, the sweep's report ------------------------------------------------------------------

from snippets.kvheads import recall as mqar  # noqa: E402
from snippets.kvheads import report  # noqa: E402


@pytest.mark.parametrize("n", [1, 4, 8, 64])
def test_every_query_asks_a_listed_key_and_expects_its_value(n):
    x, y = mqar.make_recall_batch(16, n, seed=3)
    assert x.shape == y.shape == (16, 3 * n)
    for xs, ys in zip(x.tolist(), y.tolist(), strict=True):
        keys, values, asked = xs[0:2 * n:2], xs[1:2 * n:2], xs[2 * n:]
        assert len(set(keys)) == n and all(k < mqar.KEYS <= v for k, v in zip(keys, values, strict=True))
        assert sorted(asked) == sorted(keys)  # every key asked once
        assert ys[:2 * n] == [mqar.IGNORE] * (2 * n)
        assert ys[2 * n:] == [values[keys.index(k)] for k in asked]


def test_recall_model_is_causal():
    torch.manual_seed(0)
    model = mqar.RecallModel(8, 2).eval()
    x, _ = mqar.make_recall_batch(2, 6, seed=0)
    x2 = x.clone()
    x2[:, 10:] = (x2[:, 10:] + 1) % mqar.KEYS
    with torch.no_grad():
        assert_close(model(x)[:, :10], model(x2)[:, :10])


@pytest.mark.parametrize(("call", "message"), [
    (lambda: mqar.make_recall_batch(2, 65, 0), r"num_pairs must be at most 64 \(keys are distinct\), got 65"),
    (lambda: mqar.make_recall_batch(0, 4, 0), r"batch_size must be a positive integer, got 0"),
    (lambda: mqar.RecallModel(8, 3), r"num_kv_heads must divide num_heads"),
    (lambda: report.learned_sentence("en", threshold=50), r"threshold must be a share between 0 and 1, got 50"),
])
def test_recall_argument_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cache_table_is_read_from_the_tensors_and_matches_the_formula():
    rows = report.cache_rows("en", kv_heads=(32, 8, 1), d_latent=512)
    assert [r[2] for r in rows] == ["16,384", "4,096", "512", "1,024"]  # 2·g·128·2 bytes; MLA 512·2
    assert [r[3] for r in rows] == ["512", "128", "16", "32"]  # KiB over 32 layers
    assert rows[0][1] == "2 × 32 × 128 = 8192" and rows[-1][1] == "d_c = 512"
    assert [r[4] for r in report.cache_rows("en", kv_heads=(32,), d_latent=4)][0] == "16.0"  # GiB at 32,768 tokens
    assert all(r[-1].startswith("✅") for r in report.cache_check_rows("en"))


def _result(acc: dict) -> dict:
    models = [{"num_heads": 8, "num_kv_heads": g, "num_pairs": n, "seed": s, "accuracy": a, "cpu_seconds": 10.0 + s}
              for (n, g), values in acc.items() for s, a in enumerate(values)]
    sweep = {"num_heads": 8, "kv_heads": (8, 4, 2, 1), "pairs": (4, 8), "seeds": (0, 1, 2, 3, 4)}
    return {"provenance": {}, "data": {"sweep": sweep, "models": models}}


def test_verdicts_are_holm_corrected_t_intervals_over_the_grid():
    base = [0.90, 0.92, 0.95, 0.91, 0.93]
    acc = {(n, g): base for n in (4, 8) for g in (8, 4, 2)}
    acc[4, 1] = [a - 0.001 * (-1) ** i for i, a in enumerate(base)]  # noise around MHA: covers 0
    acc[8, 1] = [a - 0.2 + 0.001 * (-1) ** i for i, a in enumerate(base)]  # every seed about 20 points lower
    result = _result(acc)
    family = report.recall_family(result)
    assert list(family) == [(4, 4), (4, 2), (4, 1), (8, 4), (8, 2), (8, 1)]
    assert all(c.family == 6 for c in family.values())
    # the one difference is tested first, at 0.05 / 6; the next step fails, so the rest are printed at 0.05 / 5
    assert family[8, 1].level == pytest.approx(1 - 0.05 / 6) and family[8, 1].verdict == "lower"
    assert all(family[k].level == pytest.approx(1 - 0.05 / 5) for k in family if k != (8, 1))
    assert family[4, 1].verdict == "none" and family[8, 4].verdict == "none"  # identical seeds: no difference
    en = report.verdict_sentences("en", result).split("\n\n")
    assert en[0].startswith("With 4 pairs, MHA answers 92.2% of the queries (5 seeds).")
    lo, hi = (round(v * 100, 2) for v in (family[4, 1].lo, family[4, 1].hi))
    # no difference at 4 pairs: the verdict is said once for the three comparisons
    assert "none of the 3 comparisons with MHA is a measurable difference" in en[0]
    assert f"MQA g=1 -0.02 points [{lo:+.2f}, {hi:+.2f}] (99.0% interval)." in en[0]
    assert en[1].endswith("MQA g=1 differs by -19.98 points [-20.22, -19.74] (99.2% interval), lower than MHA.")
    zh = report.verdict_sentences("zh", result)
    assert "MQA g=1 相差 −19.98 个百分点 [−20.22, −19.74]（置信水平 99.2%），低于 MHA。" in zh
    assert "5 个种子下没有可测的差别" in zh
    assert report.family_sentence("en", result) == (
        "The grid holds 6 comparisons, corrected together with Holm's method; 1 of them come out as a difference "
        "(an interval wholly on one side of 0 and reaching past 1 point).")
    rows = report.recall_rows("en", result)
    assert rows[0][:3] == ["MHA g=8", "61,824", 512] and rows[-1][:3] == ["MQA g=1", "47,488", 64]
    assert rows[-1][4] == "72.2% (70.1%–75.1%)"  # MQA at 8 pairs: mean (lowest–highest seed)
    assert report.recall_header("en", result)[3:] == ["4 pairs", "8 pairs"]
    assert report.cost_sentence("en", result) == ("Each of these 40 models takes 10 to 14 CPU seconds to train on "
                                                  "one thread, 8 CPU minutes in all.")
    assert "<svg" in report.recall_figure("en", result)
    assert report.learned_sentence("en", result) == ("Every seed learned the task at every level (held-out accuracy "
                                                     "of 50% or more).")


def test_negligible_is_a_difference_inside_one_point():
    base = [0.90, 0.92, 0.95, 0.91, 0.93]
    acc = {(n, g): base for n in (4, 8) for g in (8, 4, 2, 1)}
    acc[4, 1] = [a - 0.002 + 0.0001 * (-1) ** i for i, a in enumerate(base)]  # 0.2 points lower, every seed
    family = report.recall_family(_result(acc))
    assert family[4, 1].verdict == "negligible" and family[4, 1].hi < 0
    assert "a difference, but smaller than 1 point, negligible" in report.verdict_sentences("en", _result(acc))


@pytest.mark.parametrize("g", [1, 2, 4, 8])
def test_parameter_count_is_counted_from_the_model(g):
    torch.manual_seed(0)
    E, layers, V = 64, 2, 128
    attention = 2 * E * E + 2 * E * (g * 8)  # W_q, W_o; W_k, W_v of g heads of d_k = 8
    expected = V * E + 3 * 64 * E + layers * (2 * E + attention) + E * V + V  # embeddings, norms, readout
    assert report.parameter_count(8, g) == expected
    assert {8: 61_824, 1: 47_488}.get(g, expected) == expected


def test_learned_share_and_accuracy_among_learned_are_counted_apart():
    base = [0.99, 0.98, 0.97, 0.99, 0.98]
    acc = {(n, g): base for n in (4, 8) for g in (8, 4, 2, 1)}
    acc[8, 8] = [0.99, 0.98, 0.13, 0.99, 0.98]  # MHA: 4 of 5 learned
    acc[8, 1] = [0.99, 0.12, 0.13, 0.94, 0.11]  # MQA: 2 of 5
    en = report.learned_sentence("en", _result(acc))
    assert en.startswith("At 8 pairs, seeds that learned the task (held-out accuracy of 50% or more): MHA g=8 4 of 5; "
                         "GQA g=4 5 of 5 (p = 1.00 against MHA); GQA g=2 5 of 5 (p = 1.00 against MHA); MQA g=1 2 of 5 "
                         "(p = 0.52 against MHA).")
    assert "With the 3 Fisher exact tests corrected together (Holm), no measurable difference at 5 seeds." in en
    assert en.endswith("MHA g=8 98.5% (98.0%–99.0%); GQA g=4 98.2% (97.0%–99.0%); GQA g=2 98.2% (97.0%–99.0%); "
                       "MQA g=1 96.5% (94.0%–99.0%).")
    zh = report.learned_sentence("zh", _result(acc))
    assert zh.startswith("8 个键值对时，学会了这个任务（留出集上的准确率不低于 50%）的种子数：MHA g=8 4/5；")
    assert "MQA g=1 2/5（与 MHA 比，p = 0.52）" in zh


def test_history_table_puts_the_old_bootstrap_beside_the_holm_t_interval():
    rows = report.history_rows("en")
    assert [r[:2] for r in rows[:3]] == [["4 pairs", "GQA g=4"], ["4 pairs", "GQA g=2"], ["4 pairs", "MQA g=1"]]
    before = [r[3] for r in rows]
    assert before.count("lower than MHA") == 3  # what the page used to say
    assert [r[5] for r in rows] == [report.text("en", "kvheads.v_none", seeds=10)] * 9  # what it says now
    assert rows[2][1:] == ["MQA g=1", "[-0.32, +0.01]", "no measurable difference at 10 seeds",
                           "[-0.48, +0.27] (99.4%)", "no measurable difference at 10 seeds"]


def test_committed_verdicts_and_learned_split():
    """The numbers the page's prose relies on: no difference in the Holm-corrected grid; at 12 pairs 8 of 10 MHA
    seeds learned against 6 of 10 for MQA (Fisher p = 0.63); those that learned are all above 88%."""
    family = report.recall_family()
    assert len(family) == 9 and {c.verdict for c in family.values()} == {"none"}
    assert all(c.level == pytest.approx(1 - 0.05 / 9) for c in family.values())
    sweep, acc = report._grid(report.load_recall())
    from snippets import stats

    split = stats.learned_split(acc[12, 8], acc[12, 1], report.LEARNED)
    assert (split.learned_a, split.learned_b, round(split.p_share, 2)) == (8, 6, 0.63)
    assert all(stats.learned_split(acc[12, 8], acc[12, g], report.LEARNED).among_b[1] > 0.88 for g in (4, 2, 1))
    assert "no measurable difference at 10 seeds" in report.learned_sentence("en")
    assert all(min(acc[n, g]) >= 0.95 for n in (4, 8) for g in (8, 4, 2, 1))  # the easier levels: all learned


def test_false_positive_sentence_measures_both_methods():
    en = report.false_positive_sentence("en", seeds=10, trials=400)
    assert en.startswith("In 400 simulated comparisons at 10 seeds with no true difference, a 95% percentile-bootstrap "
                         "interval excluded 0 in ")
    assert en.count("(normal)") == 2 and "; the t interval in " in en


def test_committed_sweep_is_complete():
    result = report.load_recall()
    sweep, models = result["data"]["sweep"], result["data"]["models"]
    from snippets.kvheads.train import SWEEP, sweep_jobs

    assert {k: (tuple(v) if isinstance(v, list) else v) for k, v in sweep.items()} == SWEEP
    assert sorted((m["num_heads"], m["num_kv_heads"], m["num_pairs"], m["seed"]) for m in models) == sorted(sweep_jobs())
    assert all(0 <= m["accuracy"] <= 1 and m["cpu_seconds"] > 0 for m in models)
    # the page's prose: at every level but the hardest, every model learns the task and each g's mean is within a
    # point of MHA's; at the hardest, the models split into those that learned it and those that did not
    _, acc = report._grid(result)
    h, hardest = sweep["num_heads"], max(sweep["pairs"])
    mean = lambda v: sum(v) / len(v)  # noqa: E731
    for n in sweep["pairs"]:
        if n != hardest:
            assert all(a >= 0.95 for g in sweep["kv_heads"] for a in acc[n, g]), n
            assert all(abs(mean(acc[n, g]) - mean(acc[n, h])) < 0.01 for g in sweep["kv_heads"]), n
    last = [a for g in sweep["kv_heads"] for a in acc[hardest, g]]
    assert all(a >= 0.85 or a < 0.25 for a in last) and min(last) < 0.25 <= 0.85 <= max(last)


# Decoding, measured: snippets.kvheads.decode_bench and the page's table and sentences from its result.

@pytest.mark.parametrize("h, g", [(4, 4), (4, 2), (4, 1)])
@pytest.mark.parametrize("L", [2, 5, 9])
def test_next_token_with_and_without_the_cache_agree(h, g, L, one_thread):
    torch.manual_seed(L)
    layer = GroupedQueryAttention(h * 4, h, g)
    x = torch.randn(2, L, h * 4)
    fns = decode_bench.next_token_fns(layer, x)
    cached, grouped, recomputed = fns["cache"](), fns["cache_grouped"](), fns["no_cache"]()
    assert cached.shape == grouped.shape == recomputed.shape == (2, 1, h * 4)
    assert_close(cached, recomputed, atol=1e-6, rtol=0)
    assert_close(grouped, recomputed, atol=1e-6, rtol=0)
    stepped, _ = decode(layer, x)  # one position at a time from an empty cache
    assert_close(cached, stepped[:, -1:], atol=1e-6, rtol=0)
    assert torch.equal(fns["cache"](), cached)  # the cache is put back to L - 1 positions before each call
    assert torch.equal(fns["cache_grouped"](), grouped)


@settings(max_examples=40, deadline=None)
@given(layer_shapes(), st.integers(0, 8))
def test_grouped_attend_equals_the_layer_under_a_cache(shape, P):
    """Several new positions after P cached ones, causal inside the new block too."""
    h, g, d_k, N, L, seed = shape
    layer = _layer(h, g, d_k, seed)
    x = torch.randn(N, P + L, h * d_k, dtype=torch.float64)
    ref, got = KVCache(), KVCache()
    with torch.no_grad():
        if P:
            layer(x[:, :P], ref)
            layer(x[:, :P], got)
        assert_close(decode_bench.grouped_attend(layer, x[:, P:], got), layer(x[:, P:], ref), atol=1e-10, rtol=1e-10)


class _Sizes(TorchDispatchMode):
    """The number of elements of every new tensor an operation allocates (views of its inputs left out)."""

    def __init__(self):
        super().__init__()
        self.sizes = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        inputs = {a.untyped_storage().data_ptr() for a in torch.utils._pytree.tree_leaves((args, kwargs))
                  if isinstance(a, torch.Tensor)}
        if isinstance(out, torch.Tensor) and out.untyped_storage().data_ptr() not in inputs:
            self.sizes.append((str(func), out.numel()))
        return out


@pytest.mark.parametrize("g", [1, 2])
def test_grouped_attend_copies_no_key_value_head(g):
    """No tensor of h heads' keys (h·S·d_k numbers) is made: the page's layer makes two, the grouped path none."""
    h, d_k, S = 8, 8, 300
    layer = GroupedQueryAttention(h * d_k, h, g)
    x = torch.randn(1, S, h * d_k)
    for step, copies in ((lambda c: layer(x[:, -1:], c), 2), (lambda c: decode_bench.grouped_attend(layer, x[:, -1:], c), 0)):
        cache = KVCache()
        with torch.no_grad():
            layer(x[:, :-1], cache)
            with _Sizes() as seen:
                step(cache)
        assert sum(n == h * S * d_k for _, n in seen.sizes) == copies, seen.sizes


@pytest.mark.parametrize("g, L", [(8, 3), (2, 16), (1, 64)])
def test_cache_bytes_are_2_g_dk_L_bytes(g, L):
    layer = GroupedQueryAttention(64, 8, g)
    assert decode_bench.cache_bytes(layer, torch.randn(1, L, 64)) == 2 * g * 8 * L * 4
    assert decode_bench.cache_bytes(layer, torch.randn(3, L, 64)) == 3 * 2 * g * 8 * L * 4


@pytest.mark.parametrize("d_c", [4, 16, 40])
@pytest.mark.parametrize("L", [2, 7, 33])
def test_mla_next_token_naive_and_absorbed_agree(d_c, L, one_thread):
    """Both timed MLA forms give the same next-token output, equal to the last row of the full forward, and
    every call starts from the same L - 1 cached latents."""
    torch.manual_seed(d_c + L)
    layer = LatentAttention(32, 4, d_c).eval()
    x = torch.randn(2, L, 32)
    fns = decode_bench.latent_fns(layer, x)
    naive, absorbed = fns["mla_naive"](), fns["mla_absorbed"]()
    assert naive.shape == absorbed.shape == (2, 1, 32)
    assert_close(absorbed, naive, atol=1e-5, rtol=0)
    with torch.no_grad():
        assert_close(naive, layer(x)[:, -1:], atol=1e-5, rtol=0)
    assert torch.equal(fns["mla_naive"](), naive) and torch.equal(fns["mla_absorbed"](), absorbed)


def test_step_flops_match_a_hand_count():
    """d_model = 16, 4 heads of d_k = 4, d_c = 8, the 5th position after 4 cached: every matrix product by hand."""
    torch.manual_seed(0)
    fns = decode_bench.latent_fns(LatentAttention(16, 4, 8), torch.randn(1, 5, 16))
    q = out = 2 * 16 * 16
    latent = 2 * 16 * 8
    expand = 2 * (2 * 5 * 8 * 16)  # W_uk and W_uv on 5 latents
    naive_attention = 2 * (2 * 4 * 4 * 5)  # scores and mix: 4 heads, d_k = 4, 5 keys
    into_latent = 2 * (2 * 4 * 4 * 8)  # the query into latent space, the mix back out
    absorbed_attention = 2 * (2 * 4 * 8 * 5)  # scores and mix over the 8-wide latents
    assert decode_bench.step_flops(fns["mla_naive"]) == q + latent + expand + naive_attention + out == 4160
    assert decode_bench.step_flops(fns["mla_absorbed"]) == q + latent + into_latent + absorbed_attention + out == 2432
    gqa = decode_bench.next_token_fns(GroupedQueryAttention(16, 4, 2), torch.randn(1, 5, 16))
    kv = 2 * (2 * 16 * 2 * 4)  # W_k and W_v: g = 2 heads of 4
    for method in ("cache", "cache_grouped"):  # the copies are no arithmetic
        assert decode_bench.step_flops(gqa[method]) == q + kv + naive_attention + out == 1856
    assert decode_bench.step_flops(gqa["no_cache"]) == 5 * 1856  # every position again, causal or not


def test_every_contender_records_its_flops_and_cache():
    """The FLOPs stored beside the times are cost.py's formula, which the #mla-cost table checks against the
    count; the uncached step is L cached ones; MLA's cache is d_c numbers per token."""
    fns, records = decode_bench.contenders((3, 9), d_model=16, num_heads=4, kv_heads=(4, 2, 1), latents=(8, 12))
    assert len(fns) == len(records) == 2 * (3 * 3 + 2 * 2)
    for r in records:
        L = r["L"]
        if "d_c" in r:
            assert r["cache_bytes"] == r["d_c"] * L * 4
            assert r["flops"] == cost.formula_flops(r["method"], 16, 4, L, d_latent=r["d_c"])
        else:
            kind = "mha" if r["g"] == 4 else "mqa" if r["g"] == 1 else "gqa"
            step = cost.formula_flops(kind, 16, 4, L, num_kv_heads=r["g"])
            assert r["cache_bytes"] == 2 * r["g"] * 4 * L * 4
            assert r["flops"] == (L * step if r["method"] == "no_cache" else step)
    assert [r["key"] for r in records][-2:] == ["d_c=12 L=9 mla_naive", "d_c=12 L=9 mla_absorbed"]


def test_measure_gives_one_row_per_g_length_and_method(one_thread):
    labels = []

    @contextlib.contextmanager
    def record(label):
        labels.append(label)
        yield

    got = decode_bench.measure(lengths=(3, 6), d_model=16, num_heads=4, kv_heads=(4, 1), latents=(8,), rounds=4,
                               blocks=2, min_sample_time=1e-4, record=record)
    assert labels == ["rounds 1-2", "rounds 3-4"]
    assert got["params"] | {"min_sample_time": 0} == dict(
        lengths=[3, 6], d_model=16, num_heads=4, d_k=4, kv_heads=[4, 1], latents=[8], shared_query=False, N=1,
        dtype="float32", rounds=4, blocks=2, min_sample_time=0, num_threads=1, seed=0, processes=False)
    assert [(r["g"], r["L"], r["method"], r["cache_bytes"]) for r in got["rows"][:12]] == [
        (g, L, method, 2 * g * 4 * L * 4) for g in (4, 1) for L in (3, 6) for method in decode_bench.METHODS]
    assert [(r["d_c"], r["L"], r["method"], r["cache_bytes"]) for r in got["rows"][12:]] == [
        (8, L, method, 8 * L * 4) for L in (3, 6) for method in decode_bench.MLA_METHODS]
    assert all(len(r["samples"]) == 4 and all(s > 0 for s in r["samples"]) for r in got["rows"])
    assert all(isinstance(r["flops"], int) and r["flops"] > 0 for r in got["rows"])


def test_shared_query_control_is_one_query_read_against_h_cached_heads():
    """The control: h key/value heads, one query. Its cached step equals its full forward's last row; it equals
    F.scaled_dot_product_attention with the one query given to every head; it caches as much as MHA."""
    torch.manual_seed(0)
    layer = SharedQueryAttention(16, 4).double().eval()
    x = torch.randn(2, 7, 16, dtype=torch.float64)
    with torch.no_grad():
        full = layer(x)
        q = layer.W_q(x).view(2, 7, 1, 4).transpose(1, 2).expand(2, 4, 7, 4)
        k = layer.W_k(x).view(2, 7, 4, 4).transpose(1, 2)
        v = layer.W_v(x).view(2, 7, 4, 4).transpose(1, 2)
        ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        assert_close(full, layer.W_o(ref.transpose(1, 2).reshape(2, 7, 16)), atol=1e-12, rtol=1e-12)
    step = decode_bench.shared_query_fns(layer, x)[decode_bench.SHARED_QUERY]
    assert_close(step(), full[:, -1:], atol=1e-12, rtol=1e-12)
    assert_close(step(), full[:, -1:], atol=1e-12, rtol=1e-12)  # the cache is put back between calls
    mha = GroupedQueryAttention(16, 4, 4)
    assert decode_bench.cache_bytes(layer.float(), x.float()) == decode_bench.cache_bytes(mha, x.float()) == 2 * 2 * 4 * 4 * 7 * 4
    fns, records = decode_bench.contenders((3, 9), d_model=16, num_heads=4, kv_heads=(4, 1), shared_query=True)
    control = [r for r in records if "q" in r]
    assert [(r["q"], r["L"], r["method"], r["cache_bytes"]) for r in control] == [
        (1, L, "shared_query", 2 * 4 * 4 * L * 4) for L in (3, 9)]
    mha_flops = {r["L"]: r["flops"] for r in records if r.get("g") == 4 and r["method"] == "cache_grouped"}
    # one query projection of d_k instead of d_model: 2·16·(16 - 4) FLOPs fewer, the attention the same
    assert all(r["flops"] == mha_flops[r["L"]] - 2 * 16 * 12 for r in control)
    with pytest.raises(ValueError, match="layer must be a SharedQueryAttention, got GroupedQueryAttention"):
        decode_bench.shared_query_fns(mha, x.float())
    with pytest.raises(ValueError, match="shared_query must be True or False, got 1"):
        decode_bench.contenders((3,), 16, 4, (4,), shared_query=1)


def test_measure_in_separate_processes_gives_the_same_rows():
    """processes=True: each block in a freshly spawned process, rows and records as in one process."""
    got = decode_bench.measure(lengths=(3, 5), d_model=16, num_heads=4, kv_heads=(4,), shared_query=True, rounds=4,
                               blocks=2, min_sample_time=1e-4, processes=True)
    assert got["params"]["processes"] is True and got["params"]["shared_query"] is True
    assert [(r.get("g", r.get("q")), r["L"], r["method"]) for r in got["rows"]] == [
        (4, L, m) for L in (3, 5) for m in decode_bench.METHODS] + [(1, L, "shared_query") for L in (3, 5)]
    assert all(len(r["samples"]) == 4 and all(s > 0 for s in r["samples"]) for r in got["rows"])
    assert decode_bench.block_slices(got["params"]) == [slice(0, 2), slice(2, 4)]
    with pytest.raises(ValueError, match="processes must be True or False, got 'yes'"):
        decode_bench.measure((3,), 16, 4, (4,), processes="yes")


@pytest.mark.parametrize("call, message", [
    (lambda: decode_bench.next_token_fns(GroupedQueryAttention(8, 2, 1), torch.randn(1, 1, 8)),
     r"x must hold at least 2 positions .*, got shape \(1, 1, 8\)"),
    (lambda: decode_bench.next_token_fns(nn.Linear(8, 8), torch.randn(1, 4, 8)),
     "layer must be a GroupedQueryAttention, got Linear"),
    (lambda: decode_bench.cache_bytes(GroupedQueryAttention(8, 2, 1), torch.randn(4, 8)),
     r"x must be 3-D, got shape \(4, 8\)"),
    (lambda: decode_bench.contenders((1, 4), 8, 2, (2,)), "lengths must be a non-empty sequence of integers of at "
                                                          r"least 2, got \(1, 4\)"),
    (lambda: decode_bench.contenders((4, 4), 8, 2, (2,)), r"lengths must not repeat, got \(4, 4\)"),
    (lambda: decode_bench.contenders((4,), 8, 4, (3,)), "num_kv_heads must divide num_heads: got num_heads=4, "
                                                        "num_kv_heads=3"),
    (lambda: decode_bench.contenders((4,), 8, 4, ()), r"kv_heads must be a non-empty sequence .*, got \(\)"),
    (lambda: decode_bench.measure((4,), 8, 2, (2,), rounds=5, blocks=2),
     "rounds must be a multiple of blocks, got rounds=5, blocks=2"),
    (lambda: decode_bench.contenders((4,), 8, 2, (2,), latents=(4, 4)),
     r"latents must be a sequence of distinct positive latent widths d_c, got \(4, 4\)"),
    (lambda: decode_bench.contenders((4,), 8, 2, (2,), latents=(0,)), r"latents must .*, got \(0,\)"),
    (lambda: decode_bench.latent_fns(GroupedQueryAttention(8, 2, 1), torch.randn(1, 4, 8)),
     "layer must be a LatentAttention, got GroupedQueryAttention"),
    (lambda: decode_bench.latent_fns(LatentAttention(8, 2, 4), torch.randn(1, 1, 8)),
     r"x must hold at least 2 positions .*, got shape \(1, 1, 8\)"),
])
def test_decode_bench_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def _decode_result(rounds: int = 6) -> dict:
    """A made-up decoding result with known answers: the cached step grows as L, the recomputed one as L²
    (every round alike); MQA's copied step takes MHA's time ±1% from round to round, its grouped step half of it;
    GQA's steps are MHA's exactly."""
    lengths, rows = [64, 128, 256], []
    for g in (8, 2, 1):
        for L in lengths:
            wobble = [1 + 0.01 * (-1) ** i if g == 1 else 1.0 for i in range(rounds)]
            rows.append({"g": g, "L": L, "method": "cache", "cache_bytes": 2 * g * 8 * L * 4,
                         "samples": [1e-4 * L / 64 * w for w in wobble]})
            rows.append({"g": g, "L": L, "method": "cache_grouped", "cache_bytes": 2 * g * 8 * L * 4,
                         "samples": [1e-4 * L / 64 * (0.5 if g == 1 else 1.0) * (1 + 0.001 * i) for i in range(rounds)]})
            rows.append({"g": g, "L": L, "method": "no_cache", "cache_bytes": 2 * g * 8 * L * 4,
                         "samples": [1e-3 * (L / 64) ** 2 * (1 + 0.001 * i) for i in range(rounds)]})
    params = dict(lengths=lengths, d_model=64, num_heads=8, d_k=8, kv_heads=[8, 2, 1], rounds=rounds)
    return {"provenance": {}, "data": {"params": params, "rows": rows}}


def test_decode_table_and_sentences_carry_the_measured_numbers():
    result = _decode_result()
    assert report.decode_header("en") == ["key/value heads", "L", "cache (KiB)", "with cache, heads copied: ms per token",
                                          "with cache, no copies: ms per token", "without: ms per token",
                                          "without ÷ with (no copies)"]
    rows = report.decode_rows("en", result)
    assert len(rows) == 9
    assert rows[0] == ["MHA g=8", 64, "32", "0.100 [0.100–0.100]", "0.100 [0.100–0.100]", "1.00 [1.00–1.00]",
                       "10.0 [10.0–10.0]"]  # times to three significant digits, the ends to as many decimals
    assert rows[2][:3] == ["MHA g=8", 256, "128"] and rows[2][-1].startswith("40.")  # 16 ms over 0.4 ms
    assert rows[8][:3] == ["MQA g=1", 256, "16"] and rows[8][-1].startswith("80.")  # an eighth of the cache, half the time
    data = result["data"]
    assert report.growth(data, 8, "cache") == pytest.approx((1.0, 1.0, 1.0))
    assert report.growth(data, 8, "no_cache")[0] == pytest.approx(2.0)
    en = report.decode_sentences("en", result).split("\n")
    assert en[0] == ("- With the cache and key/value heads copied to every query head (MHA g=8), the next token takes "
                     "0.1 ms at L = 64 and 0.4 ms at L = 256, 4.0 times as long. From L = 128 to 256 the time grows as "
                     "Lᵖ with p = 1.00 [1.00, 1.00]; one query against L keys is linear work, p = 1, and the interval "
                     "covers it.")
    assert en[1].startswith("- With the cache and no head copies (MHA g=8), it takes 0.1 ms at L = 64")
    assert en[2].startswith("- Without a cache (MHA g=8), the next token takes 1 ms at L = 64 and 16 ms at L = 256, "
                            "16 times as long. From L = 128 to 256, p = 2.00 [2.00, 2.00];")
    assert en[3].startswith("- At L = 256, the cache (no copies) makes the next token this many times faster")
    assert en[4].startswith("- At L = 256, time per token without head copies over with them (Holm-corrected together "
                            "with the section's other ratios, 9 in all): MHA g=8 1.00 [1.00–1.01] (99.29% interval), no "
                            "measurable difference;")
    assert en[4].endswith("MQA g=1 0.50 [0.49–0.51] (99.38% interval), measurably faster.")
    assert en[5].startswith("- At L = 256, GQA g=2 caches 32 KiB, 25.0% of the 128 KiB of MHA g=8.")
    assert en[6].startswith("- At L = 256, MQA g=1 caches 16 KiB, 12.5% of the 128 KiB of MHA g=8.")
    assert "with the cache and head copies 1.00 [0.98–1.02] (99.29% interval), no measurable difference;" in en[6]
    assert "with the cache and no copies 0.50 [0.50–0.50] (99.44% interval), measurably faster;" in en[6]
    # a page shows some parts and folds the rest: together, in order, they are the whole list
    shown = report.decode_sentences("en", result, parts=("speedup", "smaller")).split("\n")
    folded = report.decode_sentences("en", result, parts=("growth", "copies")).split("\n")
    assert shown == [en[3], en[5], en[6]] and folded == en[:3] + [en[4]]
    with pytest.raises(ValueError, match=r"expected parts among \['growth', 'speedup', 'copies', 'smaller'\], "
                                         r"got \('speed',\)"):
        report.decode_sentences("en", result, parts=("speed",))
    with pytest.raises(ValueError, match="expected parts among"):
        report.decode_sentences("en", result, parts="growth")  # a string, not a tuple of parts
    zh = report.decode_sentences("zh", result)
    assert "MQA g=1 的缓存是 16 KiB，是 MHA g=8（128 KiB）的 12.5%。" in zh and "没有可测的差别" in zh
    assert "MHA g=8 快 40.0 倍 [40.0, 40.0]" in zh  # the speed-up: how many times faster, then its interval
    assert "<svg" in report.decode_figure("zh", result)
    flops = report.decode_flops_rows("en", result)
    assert [r[0] for r in flops] == ["MHA g=8", "GQA g=2", "MQA g=1"]
    assert [r[1] for r in flops] == ["128", "32", "16"]  # KiB of cache a step reads at L = 256, float32
    step = cost.formula_flops("mha", 64, 8, 256)
    assert flops[0][2] == f"{step / 1e6:.2f}" and flops[0][5] == f"{256 * step / 1e6:,.0f}"
    assert flops[0][4] == f"{step / 4e-4 / 1e9:.2f}"  # FLOPs over the grouped step's median time
    with pytest.raises(ValueError, match=r"no decoding measurement for g=4, L=64, method='cache'; measured g in "
                                         r"\[8, 2, 1\], L in \[64, 128, 256\]"):
        report.decode_row(data, 4, 64, "cache")
    with pytest.raises(ValueError, match="expected a decoding result with 'params' and 'rows'"):
        report.decode_rows("en", {"data": {"sweep": {}}})


def _with_control(result: dict, factor: float) -> dict:
    """_decode_result plus the shared-query control at `factor` times MHA's grouped step (±0.1% by round), measured
    in 2 blocks of separate processes."""
    data = result["data"]
    rows = [{"q": 1, "L": r["L"], "method": "shared_query", "cache_bytes": r["cache_bytes"],
             "samples": [t * factor * (1 + 0.001 * (-1) ** i) for i, t in enumerate(r["samples"])]}
            for r in data["rows"] if r.get("g") == 8 and r["method"] == "cache_grouped"]
    params = data["params"] | {"shared_query": True, "blocks": 2, "processes": True}
    return {"provenance": {}, "data": {"params": params, "rows": data["rows"] + rows}}


def test_control_sentence_says_where_the_saving_comes_from():
    """The control as slow as MHA while MQA takes half: the saving is the cache read, in both languages; the
    control as fast as MQA: not the only reason; its ratio is in the Holm family with the others."""
    same = _with_control(_decode_result(), 1.0)
    family = report.decode_family(same["data"])
    assert len(family) == 10 and family["shared_query", 1, ""].ratio.median == pytest.approx(1.0, abs=1e-3)
    en = report.control_sentence("en", same)
    assert en.startswith("The control: a layer whose 8 key/value heads share one query (MQA turned around; at "
                         "L = 256 it caches 128 KiB, as much as MHA). Time per token over that of MHA g=8: the "
                         "control 1.00 [")
    assert "MQA g=1, which shares the keys and values, 0.50 [" in en
    assert en.endswith("Sharing as such does not make a step faster; reading a smaller cache does.")
    assert report.control_sentence("zh", same).endswith("而是这一步要读的缓存变小了。")
    fast = report.control_sentence("en", _with_control(_decode_result(), 0.5))
    assert fast.endswith("Both kinds of sharing are faster, so a smaller cache is not the only reason here.")
    with pytest.raises(ValueError, match="no shared-query control measured at L=256"):
        report.control_sentence("en", _decode_result())


def test_spread_sentence_counts_the_verdicts_that_held_in_every_process():
    result = _with_control(_decode_result(), 1.0)
    spread = report.process_spread(result["data"])
    assert len(spread["g", 1, "cache_grouped"]) == 2
    assert spread["g", 1, "cache_grouped"][0] == pytest.approx(0.5 * 1.0005, rel=1e-3)
    en = report.decode_spread_sentence("en", result)
    assert en.startswith("How much do these ratios move from one run to the next? The 2 blocks of 3 rounds each ran "
                         "in a separate process. All 2 ratios judged faster or slower stayed on the same side of 1 "
                         "in every process.")
    assert en.endswith("Trust the directions; the sizes belong to this run on this machine.")
    zh = report.decode_spread_sentence("zh", result)
    assert "2 组轮次各在一个单独的进程里跑（每组 3 轮）" in zh and "在每一个进程里都落在 1 的同一侧" in zh


@pytest.mark.parametrize("g", [8, 2, 1])
def test_a_full_forward_costs_L_cached_steps(g):
    """decode_flops_rows puts the uncached step at L times the cached one: counted, not assumed."""
    from torch.utils.flop_counter import FlopCounterMode

    layer = GroupedQueryAttention(64, 8, g)
    x = torch.randn(1, 40, 64)
    with torch.no_grad(), FlopCounterMode(display=False) as full:
        layer(x)
    kind = "mha" if g == 8 else "mqa" if g == 1 else "gqa"
    assert full.get_total_flops() == 40 * cost.formula_flops(kind, 64, 8, 40, num_kv_heads=g)


def _mla_result(rounds: int = 6) -> dict:
    """_decode_result with MLA at d_c = 16 (MQA's numbers per token) and 32 (GQA g=2's) and every step's FLOPs
    (cost.py's formula). The naive step takes twice the absorbed one's time; the absorbed step at d_c = 16 takes MHA's
    grouped time, 0.1% more each round (under 1.05 apart: negligible), and twice MQA's; at d_c = 32, 1.5 times GQA's
    and MHA's. The provenance: a quiet machine."""
    result = _decode_result(rounds)
    data = result["data"]
    data["params"]["latents"] = [16, 32]
    for row in data["rows"]:
        kind = "mha" if row["g"] == 8 else "mqa" if row["g"] == 1 else "gqa"
        step = cost.formula_flops(kind, 64, 8, row["L"], num_kv_heads=row["g"])
        row["flops"] = row["L"] * step if row["method"] == "no_cache" else step
    for d_c, slow in ((16, 1.0), (32, 1.5)):
        for L in data["params"]["lengths"]:
            base = 1e-4 * L / 64
            for method, samples in (("mla_naive", [2 * slow * base * (1 + 0.001 * i) for i in range(rounds)]),
                                    ("mla_absorbed", [slow * base * (1 + 0.002 * i) for i in range(rounds)])):
                data["rows"].append({"d_c": d_c, "L": L, "method": method, "cache_bytes": d_c * L * 4,
                                     "flops": cost.formula_flops(method, 64, 8, L, d_latent=d_c), "samples": samples})
    result["provenance"] = {"load_before": [1.0, 0.5, 0.25], "load_after": [1.5, 0.75, 0.5], "others_cpu": 0.02,
                            "runs": [{"others_cpu": 0.01}, {"others_cpu": 0.03}]}
    return result


def test_mla_table_flops_and_sentences_carry_the_measured_numbers():
    result = _mla_result()
    assert report.mla_header("en") == ["MLA", "L", "latent cache (KiB)", "naive: ms per token",
                                       "absorbed: ms per token", "absorbed ÷ naive"]
    rows = report.mla_rows("en", result)
    assert [r[:3] for r in rows] == [["MLA d_c=16", 64, "4"], ["MLA d_c=16", 128, "8"], ["MLA d_c=16", 256, "16"],
                                     ["MLA d_c=32", 64, "8"], ["MLA d_c=32", 128, "16"], ["MLA d_c=32", 256, "32"]]
    assert rows[2][3:] == ["0.802 [0.801–0.803]", "0.402 [0.401–0.403]", "0.50 [0.50–0.50]"]
    assert report.mla_flops_header("zh", result)[0] == "L = 256 时的一步"
    flops = report.mla_flops_rows("en", result)
    assert [r[0] for r in flops] == ["MHA g=8, no copies", "MQA g=1, no copies", "MLA absorbed (d_c = 16)",
                                     "MLA naive (d_c = 16)", "GQA g=2, no copies", "MLA absorbed (d_c = 32)",
                                     "MLA naive (d_c = 32)"]
    assert [r[1] for r in flops] == ["128", "16", "16", "16", "32", "32", "32"]  # KiB of cache at L = 256
    naive = cost.formula_flops("mla_naive", 64, 8, 256, d_latent=16)
    assert flops[3][2:] == [f"{naive / 1e6:.2f}", "0.802", f"{naive / 0.802e-3 / 1e9:.2f}"] == ["1.13", "0.802", "1.41"]
    en = report.mla_sentences("en", result).split("\n")
    assert len(en) == 5
    assert en[0].startswith("- MLA was timed in the same interleaved rounds as MHA, GQA and MQA (6 rounds, one thread)")
    assert "the 6 time ratios below are Holm-corrected together" in en[0]
    assert en[0].endswith("other processes used 2% of the machine's CPU time (at most 3% in any one run): the machine "
                          "was close to idle.")
    assert en[1] == ("- MLA d_c=16 caches 16 numbers per token (64 B in float32). At L = 256 the naive step does 1.13 "
                     "MFLOP, 93% of it expanding the 256 latents into keys and values: 7.4 times the absorbed step's "
                     "0.15 MFLOP. The absorbed step's time over the naive one's: 0.50 [0.50–0.50] (99% interval), "
                     "measurably faster.")
    assert en[2] == ("- At L = 256, absorbed MLA d_c=16 against key/value heads without copies (its time over theirs): "
                     "MQA g=1, which caches the same 16 numbers per token: 1.83 times the FLOPs, 2.00 [2.00–2.01] "
                     "(99.17% interval), measurably slower; MHA g=8, whose cache is 8 times MLA d_c=16's (128 numbers "
                     "per token): 1.56 times the FLOPs, 1.00 [1.00–1.00] (95% interval), under 5% apart: too small to "
                     "matter.")
    assert "GQA g=2, which caches the same 32 numbers per token: 3.38 times the FLOPs, 1.50 [1.50–1.51]" in en[4]
    assert report.mla_sentences("en", result, parts=("naive",)).split("\n") == [en[1], en[3]]
    assert report.mla_sentences("en", result, parts=("load", "against")).split("\n") == [en[0], en[2], en[4]]
    with pytest.raises(ValueError, match=r"expected parts among \['load', 'naive', 'against'\], got \(\)"):
        report.mla_sentences("en", result, parts=())
    zh = report.mla_sentences("zh", result)
    assert "朴素式一步要 1.13 MFLOP，其中 93% 花在把 256 个潜向量展开成键和值上，是吸收式 0.15 MFLOP 的 7.4 倍" in zh
    assert "MHA g=8 的缓存是 MLA d_c=16 的 8 倍（每个词元 128 个数）" in zh and "机器基本空闲。" in zh
    family = report.mla_family(result["data"])
    assert {k: f.verdict for k, f in family.items()} == {
        ("naive", 16): "lower", ("same", 16): "higher", ("mha", 16): "negligible",
        ("naive", 32): "lower", ("same", 32): "higher", ("mha", 32): "higher"}
    assert all(f.family == 6 for f in family.values())
    old = _decode_result()  # measured before MLA was timed
    with pytest.raises(ValueError, match="expected a decoding result with MLA rows"):
        report.mla_sentences("en", old)
    with pytest.raises(ValueError, match=r"no MLA decoding measurement for d_c=8, L=64, method='mla_naive'; "
                                         r"measured d_c in \[16, 32\]"):
        report.mla_row(result["data"], 8, 64, "mla_naive")


def test_committed_decoding_result_is_complete():
    result = report.load_decode()
    data, p = result["data"], result["data"]["params"]
    assert {k: p[k] for k in decode_bench.DECODE} == {k: list(v) if isinstance(v, tuple) else v
                                                       for k, v in decode_bench.DECODE.items()}
    assert len(data["rows"]) == len(p["lengths"]) * (len(p["kv_heads"]) * len(decode_bench.METHODS)
                                                     + len(p["latents"]) * len(decode_bench.MLA_METHODS)
                                                     + p["shared_query"])
    assert p["shared_query"] and p["processes"]  # the control is measured, each block in its own process
    assert p["latents"][0] == 2 * 1 * p["d_k"]  # the page: d_c = 16 caches exactly MQA's numbers per token
    for r in data["rows"]:
        assert len(r["samples"]) == p["rounds"] and all(s > 0 for s in r["samples"])
        L = r["L"]
        if "q" in r:  # the shared-query control caches h heads, as MHA
            assert r["cache_bytes"] == 2 * p["num_heads"] * p["d_k"] * L * 4 and r["method"] == "shared_query"
        elif "d_c" in r:  # float32, one sequence
            assert r["cache_bytes"] == r["d_c"] * L * 4
            assert r["flops"] == cost.formula_flops(r["method"], p["d_model"], p["num_heads"], L, d_latent=r["d_c"])
        else:
            assert r["cache_bytes"] == 2 * r["g"] * p["d_k"] * L * 4
            kind = "mha" if r["g"] == p["num_heads"] else "mqa" if r["g"] == 1 else "gqa"
            step = cost.formula_flops(kind, p["d_model"], p["num_heads"], L, num_kv_heads=r["g"])
            assert r["flops"] == (L * step if r["method"] == "no_cache" else step)
    assert [x["run"] for x in result["provenance"]["runs"]] == [f"rounds {5 * i + 1}-{5 * i + 5}" for i in range(6)]


def test_committed_timings_support_the_page_prose():
    """What #decode-timing and #mla-timing say in words about the committed timings (both languages)."""
    from snippets import benchreport

    result = report.load_decode()
    data, p = result["data"], result["data"]["params"]
    assert max(r["others_cpu"] for r in result["provenance"]["runs"]) < benchreport.BUSY_SHARE  # 'close to idle'
    family = report.mla_family(data)
    assert {k: f.verdict for k, f in family.items()} == {  # absorbed: faster than naive and than MHA, slower than
        ("naive", 16): "lower", ("same", 16): "higher", ("mha", 16): "lower",  # the layout with the same cache
        ("naive", 32): "lower", ("same", 32): "higher", ("mha", 32): "lower"}
    L0, L = p["lengths"][0], p["lengths"][-1]
    for d_c in p["latents"]:
        naive, absorbed = (report.mla_row(data, d_c, L, m) for m in ("mla_naive", "mla_absorbed"))
        assert 7.5 < naive["flops"] / absorbed["flops"] < 8.5  # 'about eight times the work'
        assert 1.25 < 1 / family["naive", d_c].ratio.median < 1.75  # 'about one and a half times as long'
        assert report._absorbed_over_naive(data, d_c, L0).median > 0.9  # 'within 10%' at L = 64
        assert naive["flops"] / naive["time"].median > 3 * absorbed["flops"] / absorbed["time"].median  # the rates
        assert 1.15 < family["same", d_c].ratio.median < 1.45  # 'about 1.3 times'
    for key in ("same", "mha"):  # 'about two and four times their arithmetic'
        g = {16: 1, 32: 2} if key == "same" else {16: 8, 32: 8}
        got = [report.mla_row(data, c, L, "mla_absorbed")["flops"] / report.decode_row(data, g[c], L, "cache_grouped")[
            "flops"] for c in (16, 32)]
        assert 1.8 < got[0] < 2.2 and 3.6 < got[1] < 4.2, (key, got)


def test_summary_sentence_for_the_faq_comes_from_the_committed_results():
    assert report.summary_sentence("en") == (
        "On simplified MQAR (4, 8 and 12 pairs, 10 seeds per setting), none of the 9 Holm-corrected comparisons with MHA "
        "come out as a difference; at 12 pairs, MHA g=8 learned the task on 8 of 10 seeds and MQA g=1 on 6 (Fisher's "
        "exact test, p = 0.63).")
    assert report.summary_sentence("zh").endswith("与 MHA 的 9 个比较经 Holm 校正后，判为有差别的一个也没有；12 个键值对时，"
                                                  "MHA g=8 的 10 个种子里有 8 个学会了任务，MQA g=1 有 6 个（Fisher 精确检验 p = 0.63）。")
    for lang in ("zh", "en"):  # the FAQ and the roadmap no longer give the old reason
        from conftest import ROOT

        for page in ("faq", "roadmap"):
            text = (ROOT / "docs" / f"{page}.{lang}.md").read_text(encoding="utf-8")
            assert "summary_sentence" in text or page == "roadmap"
            assert "cannot be shared" not in text and "不能共享" not in text


def test_recall_prose_states_the_sweep_the_committed_results_come_from():
    """The #recall paragraph types the first test's settings; they must be the code's (train.SWEEP, the task)."""
    from conftest import ROOT
    from snippets.kvheads import train

    s = train.SWEEP
    en = (ROOT / "docs" / "lab" / "kv-heads-accuracy.en.md").read_text(encoding="utf-8")
    zh = (ROOT / "docs" / "lab" / "kv-heads-accuracy.zh.md").read_text(encoding="utf-8")
    g = ", ".join(map(str, s["kv_heads"]))
    d_k = mqar.D_MODEL // s["num_heads"]
    assert f"$d_\\text{{model}} = {mqar.D_MODEL}$ and {s['num_heads']} query heads ($d_k = {d_k}$)" in en
    assert f"$g \\in \\{{{g}\\}}$" in en and f"$g \\in \\{{{g}\\}}$" in zh
    assert f"from the same seeds for {s['steps']:,} steps" in en and f"训练 {s['steps']} 步" in zh
    assert f"measured on {s['eval_size']:,} held-out sequences" in en and f"在 {s['eval_size']} 条留出序列上" in zh
    chance = f"{100 / mqar.VALUES:.1f}%"
    assert f"a random value out of {mqar.VALUES} would be right {chance}" in en
    assert f"从 {mqar.VALUES} 个值里随便猜，只有 {chance}" in zh


def test_quick_steps_counts_each_steps_flops_and_checks_it_against_its_reference():
    torch.manual_seed(0)
    x = torch.randn(1, 16, 32)  # 15 cached, 1 new
    fns = decode_bench.next_token_fns(GroupedQueryAttention(32, 4, num_kv_heads=2), x)
    fns |= decode_bench.latent_fns(LatentAttention(32, 4, d_latent=8), x)
    flops = {name: decode_bench.step_flops(fn) for name, fn in fns.items()}
    table = report.quick_steps(fns, flops, "en")
    # one new position against 16 keys: projections 2·32·(32 + 2·16 + 32), scores and mix 2·2·4·8·16
    assert flops["cache"] == flops["cache_grouped"] == 2 * 32 * 96 + 4 * 4 * 8 * 16
    assert flops["no_cache"] == 16 * flops["cache"]  # every position again
    assert f"| `cache` | `no_cache` | yes | {flops['cache']:,} |" in table
    assert f"| `no_cache` | — | — | {flops['no_cache']:,} |" in table
    assert f"| `mla_absorbed` | `mla_naive` | yes | {flops['mla_absorbed']:,} |" in table
    assert "| `cache_grouped` | `no_cache` | 是 |" in report.quick_steps(fns, flops, "zh")
    wrong = dict(fns, cache=lambda: fns["cache"]() + 1)  # a step that computes something else
    assert "| `cache` | `no_cache` | no |" in report.quick_steps(wrong, flops, "en")
    with pytest.raises(ValueError, match="reference step 'no_cache'"):
        report.quick_steps({"cache": fns["cache"]}, {"cache": 1}, "en")
    with pytest.raises(ValueError, match="with the FLOPs of each"):
        report.quick_steps(fns, {}, "en")


def test_next_token_fns_accept_a_notebooks_own_layer_class():
    """The check looks GroupedQueryAttention up when called: a notebook that edits the class installs its own
    in decode_bench (snippets.notebook.use_definitions), and a default argument would keep the old one."""
    class Edited(GroupedQueryAttention):
        pass

    old = decode_bench.GroupedQueryAttention
    decode_bench.GroupedQueryAttention = Edited
    try:
        fns = decode_bench.next_token_fns(Edited(16, 4, 2), torch.randn(1, 3, 16))
        with pytest.raises(ValueError, match="layer must be a Edited"):
            decode_bench.next_token_fns(old(16, 4, 2), torch.randn(1, 3, 16))
    finally:
        decode_bench.GroupedQueryAttention = old
    assert fns["cache"]().shape == (1, 1, 16)


def test_quick_recall_sentence():
    en = report.quick_recall(0.19625, 150, 4, 2, 32, "en")
    assert en == ("g = 2, 4 pairs, trained for only 150 steps (32 sequences a batch): 19.6% held-out accuracy, "
                  "where guessing a value gives 1.6%. Each model of the committed results trains for 1500 steps.")
    assert "留出集上的准确率是 19.6%，瞎猜一个值是 1.6%" in report.quick_recall(0.19625, 150, 4, 2, 32, "zh")
    with pytest.raises(ValueError, match="share in"):
        report.quick_recall(19.6, 150, 4, 2, 32, "en")


def test_step_fns_are_the_timed_steps_on_one_input():
    fns = report.step_fns(L=16, d_model=32, num_heads=4, kv_heads=2, d_latent=8)
    assert list(fns) == [*decode_bench.METHODS, *decode_bench.MLA_METHODS]
    assert all(fn().shape == (1, 1, 32) for fn in fns.values())
