"""FastMultiHeadAttention computes what nn.MultiheadAttention and the from-scratch version compute; bench helpers measure what they claim."""

from __future__ import annotations

import pytest
import torch
from torch import nn
from torch.testing import assert_close

from snippets import bench
from snippets.attention import causal_mask
from snippets.fast import FastMultiHeadAttention, equivalence_rows, load_fast_from_torch
from snippets.multihead import MultiHeadAttention, load_from_torch

E, H = 32, 4


def trio(batch_first: bool = True, bias: bool = True, dtype=torch.float64):
    torch.manual_seed(0)
    official = nn.MultiheadAttention(E, H, bias=bias, batch_first=batch_first).eval().to(dtype)
    fast = load_fast_from_torch(FastMultiHeadAttention(E, H, bias=bias, batch_first=batch_first), official)
    scratch = load_from_torch(MultiHeadAttention(E, H, bias=bias, batch_first=batch_first), official)
    return official, fast.eval().to(dtype), scratch.eval().to(dtype)


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("bias", [True, False])
def test_self_attention_matches_official_and_scratch(batch_first, bias):
    official, fast, scratch = trio(batch_first, bias)
    x = torch.randn(2, 7, E, dtype=torch.float64)
    x = x if batch_first else x.transpose(0, 1)  # (L, N, E)
    with torch.no_grad():
        ours, w = fast(x, x, x)
        assert w is None
        assert_close(ours, official(x, x, x, need_weights=False)[0])
        assert_close(ours, scratch(x, x, x)[0])


@pytest.mark.parametrize("average", [True, False])
def test_weights_when_asked(average):
    official, fast, scratch = trio()
    x = torch.randn(2, 6, E, dtype=torch.float64)
    with torch.no_grad():
        out, w = fast(x, x, x, need_weights=True, average_attn_weights=average)
        ref_out, ref_w = official(x, x, x, need_weights=True, average_attn_weights=average)
    assert w.shape == ((2, 6, 6) if average else (2, H, 6, 6))
    assert_close(out, ref_out)
    assert_close(w, ref_w)


def test_cross_attention_with_padding_and_float_mask():
    official, fast, scratch = trio()
    x, mem = torch.randn(3, 5, E, dtype=torch.float64), torch.randn(3, 9, E, dtype=torch.float64)
    pad = torch.zeros(3, 9, dtype=torch.bool)
    pad[:, -4:] = True
    pad_float = torch.zeros(3, 9, dtype=torch.float64).masked_fill(pad, float("-inf"))
    additive = torch.randn(3 * H, 5, 9, dtype=torch.float64)
    cases = ({"key_padding_mask": pad}, {"attn_mask": additive}, {"attn_mask": additive, "key_padding_mask": pad_float})
    with torch.no_grad():
        for kw in cases:
            assert_close(fast(x, mem, mem, **kw)[0], official(x, mem, mem, **kw)[0])
            assert_close(fast(x, mem, mem, **kw)[0], scratch(x, mem, mem, **kw)[0])


def test_distinct_key_and_value():
    official, fast, _ = trio()
    x, k, v = (torch.randn(2, n, E, dtype=torch.float64) for n in (4, 6, 6))
    with torch.no_grad():
        assert_close(fast(x, k, v)[0], official(x, k, v)[0])


@pytest.mark.parametrize("need_weights", [False, True])
def test_is_causal_equals_explicit_causal_mask(need_weights):
    official, fast, _ = trio()
    x = torch.randn(2, 8, E, dtype=torch.float64)
    pad = torch.zeros(2, 8, dtype=torch.bool)
    pad[1, -2:] = True
    future = ~causal_mask(8)  # nn.MultiheadAttention: True = may NOT attend
    with torch.no_grad():
        ref = official(x, x, x, attn_mask=future, need_weights=need_weights)
        got = fast(x, x, x, is_causal=True, need_weights=need_weights)
        assert_close(got[0], ref[0])
        if need_weights:
            assert_close(got[1], ref[1])
        assert_close(fast(x, x, x, is_causal=True, key_padding_mask=pad)[0],
                     official(x, x, x, attn_mask=future, key_padding_mask=pad)[0])


def test_gradients_match_scratch():
    _, fast, scratch = trio()
    x = torch.randn(2, 5, E, dtype=torch.float64)
    fast(x, x, x)[0].square().sum().backward()
    scratch(x, x, x)[0].square().sum().backward()
    W = torch.cat([scratch.W_q.weight.grad, scratch.W_k.weight.grad, scratch.W_v.weight.grad])  # (3E, E)
    assert_close(fast.in_proj.weight.grad, W)
    assert_close(fast.W_o.weight.grad, scratch.W_o.weight.grad)


def test_argument_errors():
    fast = FastMultiHeadAttention(E, H)
    x = torch.randn(2, 5, E)
    with pytest.raises(ValueError, match="d_model must be divisible by num_heads"):
        FastMultiHeadAttention(30, 4)
    with pytest.raises(ValueError, match="query must be 3-D"):
        fast(x[0], x, x)
    with pytest.raises(ValueError, match="last dimension d_model=32"):
        fast(x, x[..., :16], x)
    with pytest.raises(ValueError, match="key_padding_mask must have shape"):
        fast(x, x, x, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match="attn_mask must have shape"):
        fast(x, x, x, attn_mask=torch.zeros(5, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match="either is_causal=True or an attn_mask"):
        fast(x, x, x, is_causal=True, attn_mask=torch.zeros(5, 5, dtype=torch.bool))
    with pytest.raises(ValueError, match="is_causal=True needs L == S"):
        fast(x, torch.randn(2, 6, E), torch.randn(2, 6, E), is_causal=True)


def test_loader_errors():
    with pytest.raises(ValueError, match="shapes differ"):
        load_fast_from_torch(FastMultiHeadAttention(E, H), nn.MultiheadAttention(E, 2))
    with pytest.raises(ValueError, match="expected a packed in_proj_weight"):
        load_fast_from_torch(FastMultiHeadAttention(E, H), nn.MultiheadAttention(E, H, kdim=16))
    with pytest.raises(ValueError, match="bias settings differ"):
        load_fast_from_torch(FastMultiHeadAttention(E, H, bias=False), nn.MultiheadAttention(E, H))
    with pytest.raises(ValueError, match="expected \\(FastMultiHeadAttention, nn.MultiheadAttention\\)"):
        load_fast_from_torch(MultiHeadAttention(E, H), nn.MultiheadAttention(E, H))


def test_flops_formula():
    # FLOPs: 4 projections of (N·L, E) @ (E, E) plus two (L, L) products over all heads; a multiply-add is 2 FLOPs
    assert bench.attention_flops(N=2, L=10, d_model=8, num_heads=2) == 2 * (4 * 2 * 10 * 8 * 8 + 2 * 2 * 10 * 10 * 8)
    with pytest.raises(ValueError, match="divisible"):
        bench.attention_flops(1, 10, 10, 3)


def test_impls_agree_and_fast_path_is_taken():
    impls = bench.make_impls(N=1, L=16, d_model=E, num_heads=H)
    outs = {name: fn()[0] for name, fn in impls.items()}
    for name, out in outs.items():
        assert_close(out, outs["mha_default"], msg=name)
    from torch.profiler import ProfilerActivity, profile

    def ops(fn):
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            fn()
        return {e.name for e in prof.events()}

    flash = "aten::_scaled_dot_product_flash_attention_for_cpu"
    assert "aten::_native_multi_head_attention" in ops(impls["mha_fastpath"])
    assert "aten::_native_multi_head_attention" in ops(impls["mha_default"])  # need_weights is no fast-path condition
    assert "aten::_native_multi_head_attention" not in ops(impls["mha_no_weights"])
    assert flash in ops(impls["mha_no_weights"]) and flash in ops(impls["fast"])
    # on CPU the fast path builds the weights with bmm + softmax instead of calling SDPA
    assert flash not in ops(impls["mha_fastpath"]) and "aten::bmm" in ops(impls["mha_fastpath"])
    torch.backends.mha.set_fastpath_enabled(False)
    try:  # with the fast path off, the eval-mode layer goes through SDPA
        assert flash in ops(impls["mha_fastpath"])
    finally:
        torch.backends.mha.set_fastpath_enabled(True)


def test_peak_bytes_sees_the_weights_matrix():
    L = 256
    q = torch.randn(1, 4, L, 16)
    weights_bytes = 4 * 4 * L * L  # float32 (N, h, L, L)
    naive = bench.peak_bytes(lambda: torch.softmax(q @ q.transpose(-2, -1), dim=-1) @ q)
    flash = bench.peak_bytes(lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q))
    assert naive >= 2 * weights_bytes  # scores and softmax output are alive together
    assert flash < weights_bytes / 4


def test_time_rounds_interleaves_and_fixes_threads():
    order, seen_threads = [], set()

    def fn(name):
        def run():
            order.append(name)
            seen_threads.add(torch.get_num_threads())
        return run

    before = torch.get_num_threads()
    res = bench.time_rounds({"a": fn("a"), "b": fn("b"), "c": fn("c")}, rounds=3, min_sample_time=1e-9,
                            num_threads=1)
    assert {k: len(v) for k, v in res.items()} == {"a": 3, "b": 3, "c": 3} and all(t > 0 for v in res.values()
                                                                                    for t in v)
    # two calls each to calibrate, then one call per sample; each round starts one place later
    assert order[6:] == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert seen_threads == {1} and torch.get_num_threads() == before
    with pytest.raises(ValueError, match="rounds must be a positive integer"):
        bench.time_rounds({"a": fn("a")}, rounds=0)
    with pytest.raises(ValueError, match="min_sample_time must be a positive number"):
        bench.time_rounds({"a": fn("a")}, min_sample_time=0)
    with pytest.raises(ValueError, match="num_threads must be a positive integer"):
        bench.time_rounds({"a": fn("a")}, num_threads=0)


def test_measure_records_samples_memory_and_matmul():
    r = bench.measure(lengths=(8, 16), N=1, d_model=16, num_heads=2, rounds=2, min_sample_time=1e-4)
    assert [(row["impl"], row["L"]) for row in r["rows"]] == [(i, L) for L in (8, 16) for i in bench.IMPLS]
    assert all(len(row["samples"]) == 2 and row["peak_bytes"] > 0 for row in r["rows"])
    assert len(r["matmul"]["samples"]) == 4 and r["matmul"]["flops"] == 2 * 1024**3
    assert r["params"]["num_threads"] == 1
    with pytest.raises(ValueError, match="lengths must be a non-empty sequence of positive integers"):
        bench.measure(lengths=(), N=1, d_model=16, num_heads=2)


def test_buildbench_no_exec_build_turns_the_exec_cache_off(monkeypatch):
    """Without markdown-exec no block goes through the exec cache, whose tripwire would fail that build."""
    import subprocess

    from sitebuild import buildbench

    seen = {}

    def fake_run(cmd, **kw):
        seen.update(kw["env"])
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(buildbench.subprocess, "run", fake_run)
    assert buildbench.timed_build({"A": "1"}, no_exec=True)["ok"]
    assert seen == {"A": "1", "MHA_EXEC_CACHE": "0"}
    seen.clear()
    buildbench.timed_build({"A": "1"})
    assert seen == {"A": "1"}


def test_buildbench_config_and_table():
    from sitebuild import buildbench
    from snippets.benchreport import build_results_table

    config = buildbench._no_exec_config()
    assert "markdown-exec" not in config and "i18n" in config
    assert "languages: [python]" not in config  # its options go with it
    results = {"cold": {"seconds": 80.0, "ok": True}, "warm": {"seconds": 12.0, "ok": True},
               "no_exec": {"seconds": 8.0, "ok": True}, "serve": {"seconds": None, "ok": False},
               "warm_over_no_exec": 1.5, "target_met": True}
    table = build_results_table(results, "en")
    assert "| warm build (--strict) | 12.0 | ✅ no errors |" in table  # it exited without error, not "passed" a target
    assert "| mkdocs serve: edit to rebuilt page | — | ❌ failed |" in table
    assert "| warm ÷ execution off (target ≤ 2) | 1.50 | ✅ met in this run |" in table  # one run, no spread
    assert "| 热构建 ÷ 关闭执行的构建（目标 ≤ 2） | 1.50 | ✅ 这一次达成 |" in build_results_table(results, "zh")
    with pytest.raises(ValueError, match="lang must be one of"):
        build_results_table(results, "de")
    assert buildbench.summary(results).splitlines() == [
        "cold: 80.0 s", "warm: 12.0 s", "no_exec: 8.0 s", "serve: failed (failed)",
        "warm / no_exec: 1.50 (target <= 2.0: met)"]


def test_buildbench_records_each_run(monkeypatch):
    """run_all wraps each timed build in record(name): sitebuild.results records the load around it."""
    from contextlib import contextmanager

    from sitebuild import buildbench

    monkeypatch.setattr(buildbench, "timed_build", lambda env, no_exec=False: {"seconds": 2.0 if no_exec else 3.0,
                                                                             "ok": True, "problems": []})
    seen = []

    @contextmanager
    def record(name):
        seen.append(name)
        yield

    results = buildbench.run_all(serve=False, record=record)
    assert seen == ["cold", "warm", "no_exec"] and results["warm_over_no_exec"] == 1.5


def test_equivalence_rows_all_pass():
    rows = equivalence_rows(d_model=32, num_heads=4, tol=1e-6)
    assert [r[:2] for r in rows] == [
        ("self-attention", "nn.MultiheadAttention"), ("self-attention", "from-scratch version"),
        ("is_causal=True vs a causal attn_mask", "nn.MultiheadAttention"),
        ("cross-attention, L≠S, with key_padding_mask", "nn.MultiheadAttention"),
        ("need_weights=True, per-head weights", "nn.MultiheadAttention"),
    ]
    zh = equivalence_rows(d_model=32, num_heads=4, tol=1e-6, lang="zh")
    assert [r[:2] for r in zh][:2] == [("自注意力", "nn.MultiheadAttention"), ("自注意力", "从零手写版")]
    assert [r[2] for r in zh] == [r[2] for r in rows]
    assert all(float(diff) <= 1e-6 and ok == "✅" for _, _, diff, ok in rows)
    assert equivalence_rows(d_model=32, num_heads=4, tol=-1.0)[0][3] == "❌"  # the check can fail


@pytest.mark.parametrize("batch_first", [True, False])
def test_self_attention_takes_the_fused_projection(batch_first):
    """x, x, x is projected by one (3E, E) matmul also when batch_first=False."""
    fast = FastMultiHeadAttention(16, 4, batch_first=batch_first).eval()
    calls = []
    fast.in_proj.register_forward_hook(lambda *args: calls.append(1))
    x = torch.randn(3, 2, 16)
    fast(x, x, x)
    assert len(calls) == 1
    fast(x, x.clone(), x)  # separate tensors: three projections with slices of the same weight
    assert len(calls) == 1


def test_sequence_first_matches_official():
    torch.manual_seed(0)
    official = nn.MultiheadAttention(16, 4, batch_first=False).eval()
    fast = load_fast_from_torch(FastMultiHeadAttention(16, 4, batch_first=False), official).eval()
    x, mem = torch.randn(5, 2, 16), torch.randn(7, 2, 16)  # (L, N, E), (S, N, E)
    with torch.no_grad():
        assert_close(fast(x, x, x)[0], official(x, x, x, need_weights=False)[0])
        assert_close(fast(x, mem, mem)[0], official(x, mem, mem, need_weights=False)[0])
        assert fast(x, mem, mem)[0].shape == (5, 2, 16)


def _ops(fn) -> set[str]:
    from torch.profiler import ProfilerActivity, profile

    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU]) as prof:
        fn()
    return {e.name for e in prof.events()}


NATIVE, FLASH = "aten::_native_multi_head_attention", "aten::_scaled_dot_product_flash_attention_for_cpu"
MATH = "aten::_scaled_dot_product_attention_math"


def test_fast_path_conditions_found_only_in_the_code():
    """Even heads, no float mask, a bias: conditions in activation.py that the documentation does not list."""
    torch.manual_seed(0)
    x = torch.randn(1, 6, 12)
    even = nn.MultiheadAttention(12, 4, batch_first=True).eval()
    assert NATIVE in _ops(lambda: even(x, x, x, need_weights=False))
    odd = nn.MultiheadAttention(12, 3, batch_first=True).eval()
    assert NATIVE not in _ops(lambda: odd(x, x, x, need_weights=False))
    float_mask = torch.zeros(6, 6)
    bool_mask = torch.zeros(6, 6, dtype=torch.bool)
    assert NATIVE not in _ops(lambda: even(x, x, x, attn_mask=float_mask, need_weights=False))
    assert NATIVE in _ops(lambda: even(x, x, x, attn_mask=bool_mask, need_weights=False))
    no_bias = nn.MultiheadAttention(12, 4, bias=False, batch_first=True).eval()
    assert NATIVE not in _ops(lambda: no_bias(x, x, x, need_weights=False))


@pytest.mark.parametrize("need_weights", [True, False])
def test_fastpath_off_reaches_sdpa_only_without_weights(need_weights):
    """set_fastpath_enabled(False): F.multi_head_attention_forward calls SDPA only when need_weights=False."""
    torch.manual_seed(0)
    layer = nn.MultiheadAttention(16, 4, batch_first=True).eval()
    x = torch.randn(1, 8, 16)
    on = _ops(lambda: layer(x, x, x, need_weights=need_weights))
    assert NATIVE in on and FLASH not in on  # the fast path builds the weights with bmm + softmax
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        off = _ops(lambda: layer(x, x, x, need_weights=need_weights))
    finally:
        torch.backends.mha.set_fastpath_enabled(True)
    assert NATIVE not in off
    if need_weights:
        assert FLASH not in off and "aten::bmm" in off and "aten::softmax" in off
    else:
        assert FLASH in off and "aten::bmm" not in off


def test_dropout_sends_cpu_sdpa_to_the_math_kernel():
    q = torch.randn(1, 2, 8, 4)
    assert FLASH in _ops(lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q))
    with_dropout = _ops(lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=0.1))
    assert MATH in with_dropout and FLASH not in with_dropout
    layer = nn.MultiheadAttention(16, 4, dropout=0.1, batch_first=True).train()
    x = torch.randn(1, 8, 16)
    training = _ops(lambda: layer(x, x, x, need_weights=False))
    assert MATH in training and FLASH not in training


def test_cpu_sdpa_kernels():
    """On CPU: no memory-efficient kernel at all, and flash refuses dropout (sdp_utils_cpp.h)."""
    import warnings

    from torch.nn.attention import SDPBackend, sdpa_kernel

    q = torch.randn(1, 2, 8, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch explains why it refuses, as a UserWarning
        with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION), pytest.raises(RuntimeError, match="No viable backend"):
            torch.nn.functional.scaled_dot_product_attention(q, q, q)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION), pytest.raises(RuntimeError, match="No available kernel"):
                torch.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=0.1)
    assert any("do not support non-zero dropout" in str(w.message) for w in caught)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):  # without dropout, flash alone is enough
        torch.nn.functional.scaled_dot_product_attention(q, q, q)


def test_fast_path_condition_list_matches_the_installed_source():
    """Every reason MultiheadAttention.forward can record for skipping the fast path is in FASTPATH_CONDITIONS,
    and every entry there is in the source: the page's list is the code's list."""
    import inspect
    import re

    from snippets.kernels import FASTPATH_CONDITIONS

    source = inspect.getsource(nn.MultiheadAttention.forward)
    reasons = [" ".join(m.split()) for m in re.findall(r'why_not_fast_path = \(?\s*f?"([^"]*)"', source)
               if m]  # the first assignment is the empty "no reason yet"
    assert len(reasons) >= 18
    unlisted = [r for r in reasons if not any(piece in r for piece in FASTPATH_CONDITIONS.values())]
    assert not unlisted, f"fast-path conditions missing from snippets.kernels: {unlisted}"
    flat = " ".join(source.split())
    assert all(piece in flat for piece in FASTPATH_CONDITIONS.values())
    assert "if self.in_proj_bias is not None and self.in_proj_weight is not None:" in source  # the bias condition


def test_default_layer_runs_flash_in_inference():
    """batch_first=False (the default), eval, no_grad, need_weights=False: no fast path, SDPA's flash kernel."""
    from snippets.kernels import attention_kernel, kernel_cases, kernel_rows

    assert dict(kernel_cases()) == {
        "default_no_weights": "flash", "default_weights": "bmm_softmax", "first_no_weights": "fast_path",
        "first_weights": "fast_path", "first_cross": "flash", "first_train": "flash"}
    zh = kernel_rows("zh")
    assert "| 默认层（batch_first=False），eval()，need_weights=False | SDPA 的 flash 内核：" \
           "`_scaled_dot_product_flash_attention_for_cpu` |" in zh
    with pytest.raises(ValueError, match="expected a call that runs attention"):
        attention_kernel(lambda: torch.ones(2) + 1)


def test_condition_rows_are_numbered_in_both_languages():
    from snippets.kernels import FASTPATH_CONDITIONS, condition_rows

    for lang in ("zh", "en"):
        lines = condition_rows(lang).splitlines()
        assert len(lines) == len(FASTPATH_CONDITIONS) and lines[0].startswith("1. ")
    assert "9. `batch_first=True`（默认是 `False`）" in condition_rows("zh")
