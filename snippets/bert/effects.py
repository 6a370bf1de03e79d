"""Whether removing one head measurably changes retrieval: every verdict from ``snippets.stats``.

A head's effect is the change in retrieval accuracy when it is removed, measured on the same pairs
with and without it (``retrieval.ablation_results``), so it is a paired comparison: per pair the
score changes by 0, ±0.5 or ±1. Its interval is Student's t interval on those per-pair changes.
Every head of the model is tested at once, so the verdicts are one family, Holm-corrected over all
the heads (``snippets.stats.compare_family``), each interval at the level Holm's step used: it
excludes 0 exactly when the verdict is a change. The 95% intervals of each head on its own
(``compare_paired``) are kept only to count how many would exclude 0, against what chance alone
gives among so many heads.

Shape letters: n layers, h heads.

>>> import torch
>>> fake = {"scores": torch.ones(6), "ablated_scores": torch.ones(1, 2, 6), "pairs": 6}
>>> fake["ablated_scores"][0, 1, :5] = 0.0  # head 0-1: five of the six pairs lost
>>> eff = head_effects(fake)
>>> eff["verdict"], [round(x, 4) for x in eff["level"][0].tolist()]
([['none', 'lower']], [0.95, 0.975])
"""

from __future__ import annotations

import functools

import torch

from .. import stats
from .retrieval import CORPUS, ablation_results

__all__ = ["head_effects", "retrieval_effects"]


def head_effects(res: dict) -> dict:
    """Per head, from ablation_results' scores: the change in accuracy and its Holm-corrected interval.

    delta, lo, hi, level, p (n, h): mean change, interval at `level` (Holm's level for its step), p-value;
    verdict [n][h]: ``stats.verdict``'s key ("higher" = removing the head raises retrieval, "lower",
    "none"; no minimum, so never "negligible"); family: how many heads the correction covered;
    lo_95, hi_95, verdict_95: the same head judged on its own at 95%, without the correction.
    """
    base, ablated = res["scores"].double(), res["ablated_scores"].double()  # (P,), (n, h, P)
    n, h = ablated.shape[:2]
    pairs = [(base.numpy(), ablated[i, j].numpy()) for i in range(n) for j in range(h)]
    family = stats.compare_family(pairs)
    alone = [stats.compare_paired(a, b) for a, b in pairs]

    def grid(values) -> torch.Tensor:
        return torch.tensor(list(values), dtype=torch.float64).reshape(n, h)

    def words(comparisons) -> list[list[str]]:
        return [[comparisons[i * h + j].verdict for j in range(h)] for i in range(n)]

    return {"delta": grid(c.mean for c in family), "lo": grid(c.lo for c in family),
            "hi": grid(c.hi for c in family), "level": grid(c.level for c in family),
            "p": grid(c.p for c in family), "verdict": words(family), "family": len(family),
            "lo_95": grid(c.lo for c in alone), "hi_95": grid(c.hi for c in alone), "verdict_95": words(alone),
            "pairs": res["pairs"]}


@functools.lru_cache(maxsize=4)
def retrieval_effects(texts: tuple[str, ...] = CORPUS) -> dict:
    """head_effects of the page's ablation (computed once per process; the embeddings are cached on disk)."""
    return head_effects(ablation_results(texts))
