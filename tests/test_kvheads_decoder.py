"""snippets/kvheads/decoder.py and cost.py: cached generation equals uncached for MHA, GQA, MQA and absorbed MLA;
positions under a cache; the preallocated cache against torch.cat; FLOPs counted against the formula; the page's
tables from them."""

from __future__ import annotations

import pytest
import torch
from torch.testing import assert_close

from snippets.kvheads import cost, report
from snippets.kvheads.attention import KVCache, cache_bytes_per_token
from snippets.kvheads.decoder import PreallocatedKVCache, PreallocatedLatentCache, TinyDecoder, generate_tokens
from snippets.kvheads.mla import LatentCache

KINDS = {"MHA": {"num_kv_heads": 4}, "GQA": {"num_kv_heads": 2}, "MQA": {"num_kv_heads": 1},
         "MLA": {"d_latent": 12}}


def _model(kw, seed=0, dtype=torch.float64, max_len=40, layers=2):
    torch.manual_seed(seed)
    return TinyDecoder(vocab=48, d_model=32, num_heads=4, num_layers=layers, max_len=max_len, **kw).to(dtype).eval()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cached_generation_equals_uncached_token_for_token(kind, seed):
    model = _model(KINDS[kind], seed)
    prompt = torch.randint(48, (3, 5), generator=torch.Generator().manual_seed(seed))
    plain = generate_tokens(model, prompt, 25, cache=None)
    assert plain.shape == (3, 30) and torch.equal(plain[:, :5], prompt)
    assert torch.equal(generate_tokens(model, prompt, 25, cache="preallocated"), plain)
    assert torch.equal(generate_tokens(model, prompt, 25, cache="cat"), plain)
    assert len(set(plain[:, 5:].flatten().tolist())) > 5  # not one token repeated: a real test of equality


@pytest.mark.parametrize("kind", KINDS)
def test_cached_generation_equals_uncached_in_float32(kind):
    model = _model(KINDS[kind], 3, dtype=torch.float32)
    prompt = torch.randint(48, (2, 4), generator=torch.Generator().manual_seed(3))
    assert torch.equal(generate_tokens(model, prompt, 20), generate_tokens(model, prompt, 20, cache=None))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("t", [1, 7, 20, 39])
def test_position_t_after_prefill_of_t_tokens_equals_row_t_of_the_full_forward(kind, t):
    model = _model(KINDS[kind])
    tokens = torch.randint(48, (2, 40), generator=torch.Generator().manual_seed(t))
    assert report.row_difference(model, tokens, t) <= 1e-6
    with torch.no_grad():  # and a whole chunk after the prefill, not just one position
        caches = model.new_caches(2, preallocate=False)
        model(tokens[:, :t], caches)
        if t < 39:
            assert_close(model(tokens[:, t:], caches), model(tokens)[:, t:], atol=1e-6, rtol=0)


def test_positions_restarting_at_0_under_a_cache_would_be_caught():
    """The check is not vacuous: decoding position t with the embedding of position 0 gives other logits."""
    model = _model(KINDS["GQA"])
    tokens = torch.randint(48, (1, 12), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        caches = model.new_caches(1)
        model(tokens[:, :8], caches)
        wrong = model.token(tokens[:, 8:9]) + model.position.weight[:1]  # position 0, not 8
        for i, (norm, attn) in enumerate(zip(model.norms, model.attns, strict=True)):
            wrong = wrong + attn(norm(wrong), caches[i])
        wrong = model.readout(model.norm_f(wrong))
        assert (wrong[:, 0] - model(tokens)[:, 8]).abs().max() > 1e-2


def test_preallocated_cache_writes_in_place_and_reads_like_the_cat_cache():
    torch.manual_seed(0)
    pre, cat = PreallocatedKVCache(2, 3, max_len=10, d_k=4), KVCache()
    buffer = pre.k_buf.data_ptr()
    for L in (4, 1, 1, 3):
        k, v = torch.randn(2, 3, L, 4), torch.randn(2, 3, L, 4)
        got, want = pre.append(k, v), cat.append(k, v)
        assert all(torch.equal(a, b) for a, b in zip(got, want, strict=True))
    assert len(pre) == len(cat) == 9 and pre.size == 9
    assert pre.k.data_ptr() == buffer  # a view of the one buffer, never a new tensor
    assert cache_bytes_per_token(pre) == cache_bytes_per_token(cat) == 2 * 3 * 4 * 4
    with pytest.raises(ValueError, match=r"the cache holds at most max_len=10 positions, this step would fill 11"):
        pre.append(torch.randn(2, 3, 2, 4), torch.randn(2, 3, 2, 4))
    lat, ref = PreallocatedLatentCache(1, max_len=5, d_latent=6), LatentCache()
    for L in (3, 1):
        c = torch.randn(1, L, 6)
        assert torch.equal(lat.append(c), ref.append(c))
    assert len(lat) == 4


def test_new_caches_fit_the_attention():
    gqa, mla = _model(KINDS["GQA"]), _model(KINDS["MLA"])
    caches = gqa.new_caches(3)
    assert len(caches) == 2 and all(isinstance(c, PreallocatedKVCache) for c in caches)
    assert caches[0].k_buf.shape == (3, 2, 40, 8) and caches[0].k_buf.dtype == torch.float64
    assert all(type(c) is KVCache for c in gqa.new_caches(3, preallocate=False))
    assert mla.new_caches(2)[0].c_buf.shape == (2, 40, 12)
    assert all(type(c) is LatentCache for c in mla.new_caches(2, preallocate=False))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: TinyDecoder(48, 32, 4), r"give exactly one of num_kv_heads .* got num_kv_heads=None, d_latent=None"),
    (lambda: TinyDecoder(48, 32, 4, num_kv_heads=2, d_latent=8), r"give exactly one of num_kv_heads"),
    (lambda: TinyDecoder(48, 32, 4, num_kv_heads=3), r"num_kv_heads must divide num_heads"),
    (lambda: TinyDecoder(0, 32, 4, num_kv_heads=2), r"vocab must be a positive integer, got 0"),
    (lambda: generate_tokens(_model(KINDS["MHA"]), torch.zeros(1, 30, dtype=torch.long), 12),
     r"positions 0 to 40 do not fit the 40 learned positions \(max_len=40\)"),
    (lambda: generate_tokens(_model(KINDS["MHA"]), torch.zeros(1, 3), 2), r"prompt must be a \(N, P >= 1\) tensor of token ids"),
    (lambda: generate_tokens(_model(KINDS["MHA"]), torch.zeros(1, 3, dtype=torch.long), 2, cache="paged"),
     r"cache must be one of \('preallocated', 'cat', None\), got 'paged'"),
    (lambda: generate_tokens(torch.nn.Linear(2, 2), torch.zeros(1, 3, dtype=torch.long), 2), "model must be a TinyDecoder"),
    (lambda: generate_tokens(_model(KINDS["MHA"]), torch.zeros(1, 3, dtype=torch.long), 0),
     "steps must be a positive integer, got 0"),
])
def test_argument_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- FLOPs per decode step ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", cost.KINDS)
@pytest.mark.parametrize(("E", "h", "S"), [(32, 4, 1), (32, 4, 9), (48, 6, 17), (64, 8, 5)])
def test_formula_equals_the_flops_counted_on_the_modules(kind, E, h, S):
    kw = {"num_kv_heads": 2 if kind == "gqa" else None, "d_latent": 10 if kind.startswith("mla") else None}
    assert cost.counted_flops(kind, E, h, S, **kw) == cost.formula_flops(kind, E, h, S, **kw)


def test_flops_at_the_7b_shape():
    """MHA 201 MFLOP per step and layer at S = 4096; absorbed MLA 348 (its scores and mix d_c = 4 d_k wide);
    naive MLA about 34,500; GQA and MQA differ from MHA only by their key and value projections."""
    f = {k: cost.formula_flops(k, 4096, 32, 4096, num_kv_heads=8 if k == "gqa" else None,
                               d_latent=512 if k.startswith("mla") else None) for k in cost.KINDS}
    assert f["mha"] == 201_326_592 and f["mla_absorbed"] == 348_127_232 and round(f["mla_naive"] / 1e6) == 34_498
    assert f["mha"] - f["mqa"] == 2 * 2 * 4096 * (32 - 1) * 128 and f["mha"] - f["gqa"] == 2 * 2 * 4096 * 24 * 128
    rows = cost.flops_rows("en")
    assert [r[0] for r in rows] == ["MHA", "GQA g=8", "MQA", "MLA naive (d_c = 512)", "MLA absorbed (d_c = 512)"]
    assert [r[1] for r in rows] == ["201", "151", "136", "34,498", "348"]
    assert [r[2] for r in rows] == ["64", "16", "2", "4", "4"]  # MiB of cache read per step and layer
    assert rows[0][3] == "3.0" and rows[-1][4] == "1.73"
    assert cost.weight_bytes("mha", 4096, 32) == 4 * 4096 * 4096 * 2
    assert all(r[-1].startswith("✅") for r in report.flops_check_rows("zh"))


def test_cost_argument_errors():
    with pytest.raises(ValueError, match=r"kind must be one of .*got 'flash'"):
        cost.formula_flops("flash", 32, 4, 3)
    with pytest.raises(ValueError, match="num_kv_heads must divide num_heads"):
        cost.formula_flops("gqa", 32, 4, 3, num_kv_heads=3)
    with pytest.raises(ValueError, match="d_latent must be a positive integer, got None"):
        cost.counted_flops("mla_naive", 32, 4, 3)


# --- the page's tables ----------------------------------------------------------------------------------------

def test_stored_rows_read_query_and_cache_bytes_off_the_tensors():
    rows = report.stored_rows("en")
    assert rows == [["MHA g=32", "8,192", "16,384", "2,048"], ["GQA g=8", "8,192", "4,096", "512"],
                    ["MQA g=1", "8,192", "512", "64"], ["MLA", "8,192", "1,024", "128"]]
    assert report.stored_header("zh")[-1] == "上下文 4,096 个词元时，一步要读的缓存（MiB，32 层）"


def test_decoder_rows_and_step_flops():
    rows = report.decoder_rows("en")
    assert [r[0] for r in rows] == ["MHA g=4", "GQA g=2", "MQA g=1", "MLA d_c=16"]
    assert all(r[1] == r[2] == "60 of 60" and float(r[3]) <= 1e-6 and r[4].startswith("✅") for r in rows)
    assert report.decoder_rows("zh")[0][1] == "60/60"
    largest = max(float(r[3]) for r in rows)
    assert report.decoder_sentence("en") == (
        "With either cache, every decoder (MHA g=4; GQA g=2; MQA g=1; MLA d_c=16) generated the same 60 tokens as "
        f"without a cache, and a position decoded alone under the cache differed from the full forward by at most "
        f"{largest:.1e}, within the tolerance of 1e-6.")
    zh = report.decoder_sentence("zh")
    assert zh.endswith(f"与完整前向的最大差别是 {largest:.1e}，在 1e-6 的容差内。")
    model = report._tiny(report.DECODER_KINDS["MHA"])
    tokens = torch.randint(64, (1, 20), generator=torch.Generator().manual_seed(0))
    for t in (5, 20):  # without the cache: all t positions again, and t × t scores, exactly t times the work
        cached, full = report.decoder_step_flops(model, tokens[:, :t])
        assert full == t * cached
    lines = report.step_flops_lines("en", lengths=(8, 16)).splitlines()
    assert lines[0] == "8 tokens so far, the next one: 22,528 FLOPs with the cache, 180,224 without, 8.0 times as many"


def test_decoder_sentence_says_which_decoder_differs(monkeypatch):
    """A decoder whose cached tokens differ, or a difference beyond the tolerance, is named, not summed up as 'same'."""
    checks = [("MHA", {"num_kv_heads": 4}, [(60, 60), (60, 60)], 1e-16),
              ("GQA", {"num_kv_heads": 2}, [(58, 60), (60, 60)], 2e-5)]
    monkeypatch.setattr(report, "_decoder_checks", lambda *a: checks)
    en = report.decoder_sentence("en")
    assert "GQA g=2 the same in 58 of 60 with the preallocated cache and 60 of 60 with torch.cat" in en
    assert "MHA" not in en and en.endswith("by at most 2.0e-05, beyond the tolerance of 1e-6.")
    assert "GQA g=2 预分配缓存 58/60、torch.cat 缓存 60/60 相同" in report.decoder_sentence("zh")
