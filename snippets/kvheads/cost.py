"""What one decode step costs: FLOPs counted on the real modules, and a formula checked against the count.

A decode step runs one new position through one attention layer whose cache already holds S - 1
positions. ``counted_flops`` builds the layer, fills its cache (not counted), and counts the step with
``torch.utils.flop_counter.FlopCounterMode``, which counts the matrix products (2 FLOPs per
multiply-add); softmax, scaling and masking are not counted (order h·S, far below the products).
``formula_flops`` is the same count written out; the tests hold the two equal at small shapes, so
the formula can be evaluated at a 7B-like shape, where building the layers would cost real memory.

Per step, with E = d_model, h heads of d_k, g key/value heads, d_c the MLA latent, S keys:

- MHA / GQA / MQA: projections 2·E·E (query) + 2·2·E·g·d_k (key, value) + 2·E·E (output);
  scores 2·h·d_k·S and the mix 2·h·d_k·S, whatever g is (every query head scores every key).
- MLA, naive: query and output as above, 2·E·d_c (the latent), then every cached latent is expanded
  to h keys and h values again, 2·2·S·d_c·E, then scores and mix as MHA.
- MLA, absorbed: query, latent and output as above, the query moved into latent space 2·h·d_k·d_c,
  scores 2·h·d_c·S and mix 2·h·d_c·S in the d_c-wide latent, back out 2·h·d_c·d_k. Like MQA with
  one shared key/value head d_c wide.

>>> formula_flops("mha", d_model=4096, num_heads=32, S=4096) / 1e6
201.326592
>>> counted_flops("gqa", d_model=32, num_heads=4, num_kv_heads=2, S=9) == formula_flops(
...     "gqa", d_model=32, num_heads=4, num_kv_heads=2, S=9)
True
"""

from __future__ import annotations

import torch
from torch.utils.flop_counter import FlopCounterMode

from .._checks import check_divisible, check_positive_int
from ..i18n import text
from .attention import GroupedQueryAttention, KVCache, check_kv_heads
from .mla import LatentAttention, LatentCache

__all__ = ["KINDS", "counted_flops", "formula_flops", "cache_read_bytes", "weight_bytes", "flops_rows"]

KINDS = ("mha", "gqa", "mqa", "mla_naive", "mla_absorbed")


def _kv(kind: str, num_heads: int, num_kv_heads: int | None) -> int:
    return {"mha": num_heads, "mqa": 1}.get(kind, num_kv_heads)


# --8<-- [start:counted]
@torch.no_grad()
def counted_flops(kind: str, d_model: int, num_heads: int, S: int,
                  num_kv_heads: int | None = None, d_latent: int | None = None,
                  seed: int = 0) -> int:
    """FLOPs of one decode step (the S-th position), counted by PyTorch."""
    _check(kind, d_model, num_heads, S, num_kv_heads, d_latent)
    torch.manual_seed(seed)
    x = torch.randn(1, S, d_model)
    if kind.startswith("mla"):
        layer = LatentAttention(d_model, num_heads, d_latent)
        cache = LatentCache()
        kw = {"absorbed": kind == "mla_absorbed"}
    else:
        g = _kv(kind, num_heads, num_kv_heads)
        layer = GroupedQueryAttention(d_model, num_heads, g)
        cache, kw = KVCache(), {}
    if S > 1:
        # the S - 1 earlier positions: not counted
        layer(x[:, :-1], cache, **kw)
    with FlopCounterMode(display=False) as counter:
        layer(x[:, -1:], cache, **kw)  # one new position, S keys
    return counter.get_total_flops()
# --8<-- [end:counted]


# --8<-- [start:formula]
def formula_flops(kind: str, d_model: int, num_heads: int, S: int,
                  num_kv_heads: int | None = None,
                  d_latent: int | None = None) -> int:
    """The same count, written out (2 FLOPs per multiply-add)."""
    _check(kind, d_model, num_heads, S, num_kv_heads, d_latent)
    E, h = d_model, num_heads
    d_k = E // h
    q_and_out = 2 * E * E + 2 * E * E
    if not kind.startswith("mla"):
        g = _kv(kind, num_heads, num_kv_heads)
        kv = 2 * 2 * E * g * d_k
        return q_and_out + kv + 2 * 2 * h * d_k * S  # scores + mix
    C = d_latent
    latent = 2 * E * C  # c of the new position
    if kind == "mla_naive":
        expand = 2 * 2 * S * C * E  # every cached c -> h keys, h values
        return q_and_out + latent + expand + 2 * 2 * h * d_k * S
    into_latent = 2 * h * d_k * C + 2 * h * C * d_k  # U_k, U_v
    return q_and_out + latent + into_latent + 2 * 2 * h * C * S
# --8<-- [end:formula]


def cache_read_bytes(kind: str, d_model: int, num_heads: int, S: int, num_kv_heads: int | None = None,
                     d_latent: int | None = None, bytes_per: int = 2) -> int:
    """Bytes of cache one decode step reads: every cached position's keys and values (or latent), once."""
    _check(kind, d_model, num_heads, S, num_kv_heads, d_latent)
    if kind.startswith("mla"):
        return S * d_latent * bytes_per
    return S * 2 * _kv(kind, num_heads, num_kv_heads) * (d_model // num_heads) * bytes_per


def weight_bytes(kind: str, d_model: int, num_heads: int, num_kv_heads: int | None = None,
                 d_latent: int | None = None, bytes_per: int = 2) -> int:
    """Bytes of the layer's weights, read once per step whatever the batch (counted from the module, on meta)."""
    _check(kind, d_model, num_heads, 1, num_kv_heads, d_latent)
    if kind.startswith("mla"):
        layer = LatentAttention(d_model, num_heads, d_latent, device="meta")
    else:
        layer = GroupedQueryAttention(d_model, num_heads, _kv(kind, num_heads, num_kv_heads), device="meta")
    return sum(p.numel() for p in layer.parameters()) * bytes_per


def flops_rows(lang: str, d_model: int = 4096, num_heads: int = 32, S: int = 4096, gqa_kv_heads: int = 8,
               d_latent: int = 512, bytes_per: int = 2) -> list[list[str]]:
    """Per kind, one decode step of one layer at S cached keys: MFLOP, MiB of cache read, FLOPs per cache
    byte, and MFLOP relative to MHA."""
    mha = formula_flops("mha", d_model, num_heads, S)
    rows = []
    for kind in KINDS:
        kw = {"num_kv_heads": gqa_kv_heads if kind == "gqa" else None,
              "d_latent": d_latent if kind.startswith("mla") else None}
        f = formula_flops(kind, d_model, num_heads, S, **kw)
        read = cache_read_bytes(kind, d_model, num_heads, S, bytes_per=bytes_per, **kw)
        rows.append([text(lang, f"kvheads.flops_kind.{kind}", g=gqa_kv_heads, c=d_latent), f"{f / 1e6:,.0f}",
                     f"{read / 2**20:,.0f}", f"{f / read:,.1f}", f"{f / mha:,.2f}"])
    return rows


def _check(kind, d_model, num_heads, S, num_kv_heads, d_latent) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    check_divisible(d_model, num_heads)
    check_positive_int(S, "S")
    if kind == "gqa":
        check_kv_heads(num_heads, num_kv_heads)
    if kind.startswith("mla"):
        check_positive_int(d_latent, "d_latent")
