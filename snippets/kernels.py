"""Which attention kernel nn.MultiheadAttention runs, as the profiler sees it, and why.

``nn.MultiheadAttention.forward`` (``torch/nn/modules/activation.py``) hands the call to one C++
operator, ``torch._native_multi_head_attention`` (the "fast path"), only when every condition in
``FASTPATH_CONDITIONS`` holds. Otherwise it runs ``F.multi_head_attention_forward``, which calls
``F.scaled_dot_product_attention`` (SDPA, the flash kernel on CPU without dropout) when
``need_weights=False``, and computes the weights itself with ``bmm`` and ``softmax`` when
``need_weights=True``.

>>> import torch
>>> layer = torch.nn.MultiheadAttention(16, 4).eval()  # batch_first=False, the default
>>> x = torch.randn(5, 2, 16)  # (L, N, E)
>>> attention_kernel(lambda: layer(x, x, x, need_weights=False))
'flash'
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import torch
from torch import nn

from .i18n import text, texts
from .profiling import recorded_ops
from .tables import md_table

__all__ = ["FASTPATH_CONDITIONS", "ops_seen", "attention_kernel", "kernel_cases", "kernel_rows", "condition_rows"]

# The conditions in MultiheadAttention.forward (PyTorch 2.13), in the order the code checks them: the key
# names the condition in snippets.i18n ("kernels.cond_<key>"); the value is a piece of the reason torch
# records when the condition fails (tests/test_fast.py reads the installed source and checks that each
# reason torch can record is one of these, and each of these is in the source).
FASTPATH_CONDITIONS = {
    "no_float_mask": "floating-point masks are not supported",
    "enabled": "get_fastpath_enabled() was not True",
    "batched": "input not batched",
    "self_attention": "non-self attention was used",
    "dtype": "don't match",
    "in_proj": "in_proj_weight was None",
    "eval": "training is enabled",
    "even_heads": "self.num_heads is not even",
    "batch_first": "batch_first was not True",
    "no_bias_kv": "was not None",
    "no_zero_attn": "add_zero_attn was enabled",
    "same_embed_dim": "_qkv_same_embed_dim was not True",
    "nested_masks": "NestedTensor input",
    "no_autocast": "autocast is enabled",
    "no_torch_function": "has_torch_function",
    "device": "device is neither one of",
    "no_grad": "grad is enabled and at least one of",
    "no_tracing": "make_fx tracing",
    "bias": "in_proj_bias is not None",  # not a recorded reason: without it the code falls through
}

# Operators that tell the kernels apart (names as the profiler records them).
NATIVE = "aten::_native_multi_head_attention"
FLASH = "aten::_scaled_dot_product_flash_attention_for_cpu"
MATH = "aten::_scaled_dot_product_attention_math"


def ops_seen(fn: Callable[[], object]) -> set[str]:
    """Names of the operators the profiler records during one call of fn, under no_grad."""
    with torch.no_grad(), recorded_ops() as ops:
        fn()
    return ops


def attention_kernel(fn: Callable[[], object]) -> str:
    """'fast_path', 'flash', 'math' or 'bmm_softmax': what computed the attention in one call of fn."""
    ops = ops_seen(fn)
    if NATIVE in ops:
        return "fast_path"
    if FLASH in ops:
        return "flash"
    if MATH in ops:
        return "math"
    if {"aten::bmm", "aten::softmax"} <= ops:
        return "bmm_softmax"
    raise ValueError(f"expected a call that runs attention, the profiler saw {sorted(ops)!r}")


def kernel_cases(E: int = 64, h: int = 8, N: int = 2, L: int = 16, seed: int = 0) -> list[tuple[str, str]]:
    """(case, kernel) for the default layer and the usual variations, each called under no_grad."""
    torch.manual_seed(seed)
    default = nn.MultiheadAttention(E, h).eval()  # batch_first=False
    first = nn.MultiheadAttention(E, h, batch_first=True).eval()
    first.load_state_dict(default.state_dict())
    training = copy.deepcopy(first).train()  # dropout=0
    x = torch.randn(L, N, E)  # (L, N, E): the default layout
    xb = x.transpose(0, 1).contiguous()  # (N, L, E)
    mem = torch.randn(N, L + 3, E)  # (N, S, E)
    cases = [
        ("default_no_weights", lambda: default(x, x, x, need_weights=False)),
        ("default_weights", lambda: default(x, x, x)),
        ("first_no_weights", lambda: first(xb, xb, xb, need_weights=False)),
        ("first_weights", lambda: first(xb, xb, xb)),
        ("first_cross", lambda: first(xb, mem, mem, need_weights=False)),
        ("first_train", lambda: training(xb, xb, xb, need_weights=False)),
    ]
    return [(case, attention_kernel(fn)) for case, fn in cases]


def kernel_rows(lang: str, **kwargs) -> str:
    """kernel_cases as a Markdown table in lang: the call, and the kernel the profiler saw."""
    t = texts(lang, "kernels")
    return md_table(t["head"], [[t[f"case_{c}"], t[f"kernel_{k}"]] for c, k in kernel_cases(**kwargs)])


def condition_rows(lang: str) -> str:
    """FASTPATH_CONDITIONS as a numbered Markdown list in lang."""
    return "\n".join(f"{i}. {text(lang, f'kernels.cond_{key}')}" for i, key in enumerate(FASTPATH_CONDITIONS, 1))
