"""What the induction page prints of its second follow-up (snippets.induction.positional).

Everything is read from results/induction-positional.json, committed by
``python -m sitebuild.results induction-positional``; every verdict comes from snippets.stats.

>>> r = _made_up()
>>> query_heads(r)[40], query_heads(r)[41]
(2, None)
>>> {k: c.verdict for k, c in keep_family(r).items()}
{'cut': 'higher', 'pos': 'higher', 'tok': 'higher', 'mean': 'higher', 'pos_cut': 'higher'}
"""

from __future__ import annotations

import numpy as np
import torch

from .. import stats
from ..benchreport import load
from ..i18n import text
from ..numtext import paired
from .model import AttentionOnly
from .parts import head_parts
from .positional import COMPARISONS, query_head
from .task import make_repeat_batch

__all__ = ["RESULT_NAME", "load_positional", "query_heads", "keep_family", "keep_header", "keep_rows",
           "positional_sentence", "parts_sentence"]

RESULT_NAME = "induction-positional.json"


def load_positional() -> dict:
    """{"provenance": ..., "data": {"protocol": ..., "models": [...]}}, committed by
    python -m sitebuild.results induction-positional."""
    return load(RESULT_NAME.removesuffix(".json"))


def _result(result: dict | None) -> dict:
    return load_positional() if result is None else result


def _models(result: dict) -> list[dict]:
    return sorted(result["data"]["models"], key=lambda m: m["seed"])


def query_heads(result: dict | None = None) -> dict[int, int | None]:
    """Per seed, its query-path head (snippets.induction.positional.query_head), or None."""
    return {m["seed"]: query_head(m) for m in _models(_result(result))}


def _value(m: dict, head: int, what: str) -> float:
    """The loss on the predictable tokens of one measure: the intact model, or `what` done to `head`."""
    return m["final"]["predictable"] if what == "intact" else m["query"][f"head{head}_{what}"]


def _name(a: str, b: str) -> str:
    return b if a == "intact" else f"{a}_{b}"


# --8<-- [start:family]
def keep_family(result=None):
    """On the seeds with a query-path head: each comparison (a, b) of
    the protocol, b - a paired by seed, Holm over the family; {} when
    fewer than stats.MIN_SEEDS seeds have such a head."""
    result = _result(result)
    heads = query_heads(result)
    ms = [m for m in _models(result) if heads[m["seed"]] is not None]
    if len(ms) < stats.MIN_SEEDS:
        return {}
    pairs = [([_value(m, heads[m["seed"]], a) for m in ms],
              [_value(m, heads[m["seed"]], b) for m in ms])
             for a, b in COMPARISONS]
    minimum = result["data"]["protocol"]["MINIMUM"]
    found = stats.compare_family(pairs, minimum=minimum)
    return {_name(a, b): c for (a, b), c in zip(COMPARISONS, found)}
# --8<-- [end:family]


def keep_header(lang: str) -> list[str]:
    return text(lang, "pq.head")


def keep_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """Per measure against the intact model: the mean loss, the Holm interval, the verdict (empty when the
    comparisons are not made)."""
    result = _result(result)
    fam = keep_family(result)
    if not fam:
        return []
    minimum = result["data"]["protocol"]["MINIMUM"]
    intact = next(iter(fam.values())).mean_a
    rows = [[text(lang, "ind.intact"), f"{intact:.2f}", text(lang, "ind.baseline"), "—"]]
    for what in ("cut", "pos", "tok", "mean"):
        c = fam[what]
        rows.append([text(lang, f"pq.row_{what}"), f"{c.mean_b:.2f}", paired(lang, c.mean, c.lo, c.hi),
                     text(lang, f"ind.v_{c.verdict}", seeds=c.n, minimum=minimum)])
    return rows


def _held(lang: str, ok: bool) -> str:
    return text(lang, "circ.held" if ok else "circ.failed")


def positional_sentence(lang: str, result: dict | None = None) -> str:
    """The second follow-up's answer, with its numbers, and whether each expectation written before the
    runs held."""
    result = _result(result)
    ms, proto = _models(result), result["data"]["protocol"]
    heads = query_heads(result)
    with_head = [m for m in ms if heads[m["seed"]] is not None]
    others = [str(m["seed"]) for m in ms if heads[m["seed"]] is None]
    formed = sum(m["final"]["predictable"] < proto["FORMED"] for m in ms)
    scores = [m["same_token"]["score"][heads[m["seed"]]] for m in with_head]
    evens = [m["same_token"]["even"] for m in with_head]
    above = sum(s > e for s, e in zip(scores, evens))
    intro = text(lang, "pq.intro", seeds=len(ms), formed=formed, with_head=len(with_head),
                 others=text(lang, "pq.others" if len(others) == 1 else "pq.others_many",
                             seeds=text(lang, "pq.seed_sep").join(others)) if others else "")
    fam = keep_family(result)
    if not fam:
        cells = [text(lang, "pq.seed_cell", seed=m["seed"], head=heads[m["seed"]],
                      **{w: _value(m, heads[m["seed"]], w) - m["final"]["predictable"]
                         for w in ("cut", "pos", "tok", "mean")}) for m in with_head]
        return intro + text(lang, "pq.too_few", need=stats.MIN_SEEDS,
                            cells=text(lang, "pq.cell_sep").join(cells) or "—")
    pc = fam["pos_cut"]
    return intro + text(
        lang, "pq.sentence", cut=fam["cut"].mean, cut_lo=fam["cut"].lo, cut_hi=fam["cut"].hi,
        pos=fam["pos"].mean, pos_lo=fam["pos"].lo, pos_hi=fam["pos"].hi, tok=fam["tok"].mean,
        mean=fam["mean"].mean, pc=pc.mean, pc_lo=pc.lo, pc_hi=pc.hi,
        pc_verdict=text(lang, f"pq.pc_{pc.verdict}", seeds=pc.n),
        score=float(np.mean(scores)), score_lo=min(scores), score_hi=max(scores), even=float(np.mean(evens)),
        held_pos=_held(lang, pc.verdict == "higher"), held_mean=_held(lang, fam["mean"].verdict == "higher"),
        held_same=_held(lang, above == len(with_head)), above=above, with_head=len(with_head))


def parts_sentence(lang: str, seed: int = 0) -> str:
    """head_parts on a small untrained model: how far the token part plus the position part lies from the
    head's output as the model computes it."""
    torch.manual_seed(seed)
    model = AttentionOnly(2, 4)
    x, _ = make_repeat_batch(8, seed=seed)
    with torch.no_grad():
        _, patterns = model(x, return_attention=True)
        stream = model.embed(x) + model.pos(torch.arange(x.shape[1]))
        worst = size = 0.0
        for h in range(model.num_heads):
            out = patterns[0][:, h] @ stream @ model.W_V[0, h] @ model.W_O[0, h]
            tok, pos = head_parts(model, x, h)
            worst = max(worst, float((tok + pos - out).abs().max()))
            size = max(size, float(out.abs().max()))
    return text(lang, "pq.parts", heads=model.num_heads, worst=worst, size=size)


def _made_up() -> dict:
    """A small stand-in for results/induction-positional.json (doctests and tests only): seeds 40-47, seed 41's
    key cut costliest; elsewhere head 2 is the query-path head."""
    rng = np.random.default_rng(0)
    models = []
    for seed in range(40, 48):
        intact = 0.4 + 0.05 * rng.standard_normal()
        keys = seed == 41
        cut = {"all_q": intact + (0.5 if keys else 3.0), "all_k": intact + (3.0 if keys else 0.5),
               "all_v": intact + 0.01}
        query = {}
        for h in range(4):
            big = h == 2 and not keys
            query |= {f"head{h}_cut": intact + (2.5 if big else 0.3) + 0.2 * rng.standard_normal(),
                      f"head{h}_pos": intact + (0.2 if big else 0.05) + 0.02 * rng.standard_normal(),
                      f"head{h}_tok": intact + (2.4 if big else 0.2) + 0.2 * rng.standard_normal(),
                      f"head{h}_mean": intact + (2.0 if big else 0.2) + 0.2 * rng.standard_normal()}
        same = {"score": [0.1, 0.05, 0.6, 0.02], "even": 0.04}
        models.append({"seed": seed, "heads": 4, "final": {"predictable": intact}, "cut": cut, "query": query,
                       "same_token": same})
    proto = {"MINIMUM": 0.1, "FORMED": 1.0}
    return {"data": {"protocol": proto, "models": models}}
