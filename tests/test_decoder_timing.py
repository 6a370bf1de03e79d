"""The real decoder's timing with and without key/value head copies (snippets.decoder.timing) and what the page
prints from it (snippets.decoder.report.timing_*)."""

from __future__ import annotations

import pytest
import torch
from torch.testing import assert_close

from snippets.decoder import report, timing
from snippets.decoder.model import tiny_decoder
from snippets.decoder.weights import LlamaConfig

CFG = LlamaConfig(vocab=60, d_model=48, num_layers=2, num_heads=6, num_kv_heads=2, d_ff=64, context=40,
                  rope_base=10000.0, eps=1e-5)


def _model():
    return tiny_decoder(CFG).double()


@pytest.mark.parametrize("cached, new", [(0, 5), (7, 1), (7, 3), (20, 1)])
def test_grouped_rotary_equals_the_layer_with_copies(cached, new):
    """Same outputs and the same cache as RotaryGQA's own forward, for a prompt, one new token and several."""
    torch.manual_seed(1)
    attn = _model().blocks[0].attn
    x = torch.randn(2, cached + new, 48, dtype=torch.float64)
    a, b = timing.KVCache(), timing.KVCache()
    with torch.no_grad():
        if cached:
            attn(x[:, :cached], a, 10000.0)
            attn(x[:, :cached], b, 10000.0)
        ref = attn(x[:, cached:], a, 10000.0)
        got = timing.grouped_rotary(attn, x[:, cached:], b, 10000.0)
    assert_close(got, ref, atol=1e-12, rtol=1e-12)
    assert_close(b.k, a.k) and len(b) == cached + new


def test_grouped_rotary_copies_no_key_value_head():
    """The grouped form never makes a tensor of h heads' keys: repeat_interleave is not called."""
    attn = _model().blocks[0].attn
    cache = timing.KVCache()
    x = torch.randn(1, 4, 48, dtype=torch.float64)
    calls = []
    original = torch.Tensor.repeat_interleave
    torch.Tensor.repeat_interleave = lambda *a, **k: calls.append(1) or original(*a, **k)
    try:
        with torch.no_grad():
            timing.grouped_rotary(attn, x, cache, 10000.0)
            n_grouped = len(calls)
            attn(x, timing.KVCache(), 10000.0)
    finally:
        torch.Tensor.repeat_interleave = original
    assert n_grouped == 0 and len(calls) == 2


def test_decode_step_is_the_model_forward_in_both_forms():
    model = _model()
    fns = timing.timing_step_fns(model, 12)
    ids = torch.randint(0, 60, (1, 13), generator=torch.Generator().manual_seed(12))
    with torch.no_grad():
        full = model(ids)[:, -1:]
    assert_close(fns["copies"](), full, atol=1e-10, rtol=1e-10)
    assert_close(fns["grouped"](), full, atol=1e-10, rtol=1e-10)
    assert_close(fns["copies"](), full, atol=1e-10, rtol=1e-10)  # the cache is put back between calls


def test_measure_on_a_small_model_gives_every_length_and_method():
    got = timing.measure(tiny_decoder(CFG), lengths=(4, 9), rounds=3, min_sample_time=1e-4)
    assert got["file_sha256"] is None
    assert got["params"] | {"min_sample_time": 0} == dict(lengths=[4, 9], rounds=3, min_sample_time=0, num_threads=1,
                                                          seed=0, N=1, dtype="float32", num_heads=6, num_kv_heads=2,
                                                          num_layers=2)
    assert [(r["L"], r["method"], r["cache_bytes"]) for r in got["rows"]] == [
        (L, m, 2 * 2 * 2 * 8 * L * 4) for L in (4, 9) for m in timing.METHODS]
    assert all(len(r["samples"]) == 3 and r["max_logit_difference"] < 1e-4 for r in got["rows"])


@pytest.mark.parametrize("call, message", [
    (lambda: timing.timing_step_fns(torch.nn.Linear(2, 2), 4), "model must be a LlamaDecoder, got Linear"),
    (lambda: timing.timing_step_fns(tiny_decoder(CFG), 0), "L must be a positive integer"),
    (lambda: timing.timing_step_fns(tiny_decoder(CFG), 40), "L \\+ 1 = 41 positions do not fit the model's context of 40"),
])
def test_step_fns_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def _result(grouped_factor: dict[int, float], rounds: int = 6) -> dict:
    """A made-up timing result: copies take 10 ms + L/100 ms (±1% by round), grouped `factor` times that."""
    rows = []
    for L, f in grouped_factor.items():
        base = [(10 + L / 100) * 1e-3 * (1 + 0.01 * (-1) ** i) for i in range(rounds)]
        rows.append({"L": L, "method": "copies", "cache_bytes": 2 * 30 * 3 * 64 * L * 4, "max_logit_difference": 2e-5,
                     "samples": base})
        rows.append({"L": L, "method": "grouped", "cache_bytes": 2 * 30 * 3 * 64 * L * 4,
                     "max_logit_difference": 2e-5, "samples": [t * f * (1 + 0.002 * (-1) ** (i // 2)) for i, t in enumerate(base)]})
    params = dict(lengths=list(grouped_factor), rounds=rounds, num_heads=9, num_kv_heads=3, num_layers=30)
    return {"provenance": {}, "data": {"params": params, "rows": rows}}


def test_timing_table_and_sentence_carry_the_numbers():
    r = _result({128: 1.0, 2048: 0.7})
    rows = report.timing_rows("en", r)
    assert rows[0][:3] == ["128", "5.6", "11.3 [11.2–11.4]"]  # 2·30·3·64·128 float32 = 5.6 MiB
    assert rows[1][0] == "2,048" and rows[1][1] == "90.0"
    assert rows[0][-1].endswith("no measurable difference") and rows[1][-1].endswith("measurably faster")
    en = report.timing_sentence("en", r)
    assert en.startswith("Both ways compute the same logits: the largest difference is 2×10⁻⁵, float32 rounding. "
                         "Reading the 3 key/value heads where they are, instead of copying them to the 9 query heads, "
                         "in each of the 30 layers: a step was measurably faster only at L = 2,048 of the 2 lengths")
    zh = report.timing_sentence("zh", r)
    assert "最大差别 2×10⁻⁵" in zh and "只有 L = 2,048 时一步确实更快" in zh
    every = report.timing_sentence("en", _result({128: 0.9, 2048: 0.7}))
    assert every.endswith("a step was measurably faster at all 2 lengths (Holm-corrected over the 2); with 2,048 "
                          "tokens cached it took 30% less time.")
    none = report.timing_sentence("en", _result({128: 1.0, 2048: 1.0}))
    assert none.endswith("no measurable difference at any of the 2 lengths (Holm-corrected over the 2).")
    with pytest.raises(ValueError, match="expected a decoding-timing result with 'params' and 'rows'"):
        report.timing_rows("en", {"data": {"rows": []}})
