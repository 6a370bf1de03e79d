"""Solutions to the real decoder page's exercises (docs/lab/real-decoder.*.md); tests/test_decoder_exercises.py.

Nothing here loads the model: the exercises work on a small made-up attention matrix, on the model's config
and on the committed results, so the page builds as fast as before."""

from __future__ import annotations

import torch
from torch import Tensor

from .._checks import check_positive_int
from ..decoder.heads import previous_token
from ..i18n import text

__all__ = ["prev_by_hand", "toy_weights", "prev_lines", "cache_mib", "mib_rows", "mib_header", "holm_by_hand",
           "holm_rows", "holm_header"]


# --8<-- [start:prev_by_hand]
def prev_by_hand(w: Tensor) -> float:
    """One head's previous-token score from its weights w (T, T):
    the mean, over t = 1 ... T - 1, of the weight from t on t - 1."""
    T = w.shape[0]
    total = 0.0
    for t in range(1, T):
        total += float(w[t, t - 1])  # row t: where position t looks
    return total / (T - 1)
# --8<-- [end:prev_by_hand]


def toy_weights(T: int = 6, lean: float = 2.0, seed: int = 0) -> Tensor:
    """Causal attention weights (T, T) of a made-up head that leans towards the previous position: random
    scores plus `lean` on the diagonal below the main one, masked, softmax."""
    check_positive_int(T, "T")
    g = torch.Generator().manual_seed(seed)
    scores = torch.randn(T, T, generator=g, dtype=torch.float64)
    scores = scores + lean * torch.diag(torch.ones(T - 1, dtype=torch.float64), -1)
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    return scores.masked_fill(future, float("-inf")).softmax(-1)


def prev_lines(lang: str, T: int = 6, seed: int = 0) -> str:
    """The toy head's weights, one row per query position, then its score by hand and by heads.previous_token."""
    w = toy_weights(T, seed=seed)
    rows = [f"t={t}: " + " ".join(f"{float(x):.2f}" for x in w[t]) for t in range(T)]
    by_hand, by_code = prev_by_hand(w), float(previous_token(w[None, None])[0])
    return "\n".join(rows + [text(lang, "decoder.ex_prev", hand=by_hand, code=by_code)])


# --8<-- [start:cache_mib]
def cache_mib(cfg: dict, kv_heads: int, context: int, batch: int,
              bytes_per_number: int = 2) -> float:
    """KV cache of a batch, in MiB: keys and values (2), every layer,
    kv_heads heads of d_k numbers, each position of each sequence."""
    d_k = cfg["d_model"] // cfg["num_heads"]
    numbers = 2 * cfg["num_layers"] * kv_heads * d_k * context * batch
    return numbers * bytes_per_number / 2**20
# --8<-- [end:cache_mib]


def mib_header(lang: str) -> list[str]:
    return text(lang, "decoder.ex_cache_head")


def mib_rows(lang: str, context: int = 4096, batch: int = 8, cfg: dict | None = None) -> list[list[str]]:
    """MHA (g = h), this model's GQA and MQA (g = 1) at one context and batch, bfloat16, from the committed config."""
    check_positive_int(context, "context")
    check_positive_int(batch, "batch")
    if cfg is None:
        from ..decoder.report import result

        cfg = result()["data"]["config"]
    gqa = cache_mib(cfg, cfg["num_kv_heads"], context, batch)
    rows = []
    for kind, g in (("MHA", cfg["num_heads"]), ("GQA", cfg["num_kv_heads"]), ("MQA", 1)):
        mib = cache_mib(cfg, g, context, batch)
        rows.append([text(lang, f"decoder.kind.{kind}"), str(g), f"{mib:,.0f}", f"{mib / gqa:.2f}×"])
    return rows


# --8<-- [start:holm_by_hand]
def holm_by_hand(p: list[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down: the i-th smallest p (i = 0, 1, ...) must be
    below alpha / (m - i); the first that is not stops the procedure."""
    m = len(p)
    order = sorted(range(m), key=lambda j: p[j])  # smallest p first
    found = [False] * m
    for i, j in enumerate(order):
        if p[j] >= alpha / (m - i):
            break  # this one and every larger p: no difference
        found[j] = True
    return found
# --8<-- [end:holm_by_hand]


def holm_header(lang: str) -> list[str]:
    return text(lang, "decoder.ex_holm_head")


def holm_rows(lang: str, r: dict | None = None) -> list[list[str]]:
    """The cut's family in order of p: comparison, p, the bar of its step, by hand, the page's verdict."""
    from ..decoder.report import knockout_family, knockout_result

    r = r or knockout_result()
    fam, minimum = knockout_family(r), r["data"]["protocol"]["MINIMUM"]
    keys, ps = list(fam), [c.p for c in fam.values()]
    hand = holm_by_hand(ps)
    m, rows = len(ps), []
    for i, j in enumerate(sorted(range(m), key=lambda j: ps[j])):
        k, cut, comp = keys[j]
        c = fam[keys[j]]
        rows.append([text(lang, f"decoder.abl_cut_{cut}", k=k) + text(lang, "decoder.ex_sep")
                     + text(lang, f"decoder.abl_comp.{comp}"), f"{c.p:.2g}", f"{0.05 / (m - i):.4f}",
                     text(lang, "decoder.ex_yes" if hand[j] else "decoder.ex_no"),
                     text(lang, f"decoder.v_{c.verdict}", n=c.n, minimum=minimum)])
    return rows
