"""What the induction page prints of its follow-up (snippets.induction.circuits).

Everything is read from results/induction-circuits.json, committed by
``python -m sitebuild.results induction-circuits``; every verdict comes from snippets.stats.

>>> r = _made_up()
>>> [c.verdict for c in path_family(r).values()]
['higher', 'higher', 'none']
>>> textbook_seeds(r)
[21]
>>> main_paths(r)
{'q': 9, 'k': 1, 'v': 0}
"""

from __future__ import annotations

import numpy as np

from .. import stats
from ..benchreport import load
from ..figures import FG, Figure, svg_figure
from ..numtext import paired
from ..i18n import text
from .circuits import PARTS

__all__ = ["RESULT_NAME", "load_circuits", "path_family", "textbook_seeds", "main_paths", "path_header",
           "path_rows", "seed_header", "seed_rows", "circuits_sentence", "split_sentence", "paths_figure"]

RESULT_NAME = "induction-circuits.json"


def load_circuits() -> dict:
    """{"provenance": ..., "data": {"protocol": ..., "models": [...]}}, committed by
    python -m sitebuild.results induction-circuits."""
    return load(RESULT_NAME.removesuffix(".json"))


def _result(result: dict | None) -> dict:
    return load_circuits() if result is None else result


def _models(result: dict) -> list[dict]:
    return sorted(result["data"]["models"], key=lambda m: m["seed"])


def _costs(m: dict) -> dict[str, float]:
    """What each all-heads cut adds to the loss on the predictable tokens, in nats."""
    return {p: m["cut"][f"all_{p}"] - m["final"]["predictable"] for p in PARTS}


def _main(m: dict) -> str:
    """A seed's main path: the part whose all-heads cut costs most."""
    costs = _costs(m)
    return max(PARTS, key=costs.__getitem__)


# --8<-- [start:paths]
def path_family(result: dict | None = None) -> dict:
    """Loss on the predictable tokens with all four layer-0 heads cut
    from layer 1's queries, keys or values, minus the intact model's,
    paired by seed; Holm over the three parts."""
    result = _result(result)
    ms, proto = _models(result), result["data"]["protocol"]
    intact = [m["final"]["predictable"] for m in ms]
    pairs = [(intact, [m["cut"][f"all_{p}"] for m in ms]) for p in PARTS]
    found = stats.compare_family(pairs, minimum=proto["MINIMUM"])
    return dict(zip(PARTS, found, strict=True))
# --8<-- [end:paths]


def textbook_seeds(result: dict | None = None) -> list[int]:
    """The seeds with a layer-0 head whose previous-token score is at least PREV_HEAD."""
    result = _result(result)
    limit = result["data"]["protocol"]["PREV_HEAD"]
    return [m["seed"] for m in _models(result) if max(m["final"]["prev"][0]) >= limit]


def main_paths(result: dict | None = None) -> dict[str, int]:
    """How many seeds have each part as their main path: the part whose all-heads cut costs most."""
    counts = dict.fromkeys(PARTS, 0)
    for m in _models(_result(result)):
        counts[_main(m)] += 1
    return counts


def path_header(lang: str) -> list[str]:
    return text(lang, "circ.path_head")


def path_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """Per part: the mean loss with all layer-0 heads cut from it, the Holm interval, the verdict."""
    result = _result(result)
    ms, proto = _models(result), result["data"]["protocol"]
    rows = [[text(lang, "ind.intact"), f"{np.mean([m['final']['predictable'] for m in ms]):.2f}",
             text(lang, "ind.baseline"), "—"]]
    for p, c in path_family(result).items():
        rows.append([text(lang, f"circ.part_{p}"), f"{c.mean_b:.2f}", paired(lang, c.mean, c.lo, c.hi),
                     text(lang, f"ind.v_{c.verdict}", seeds=c.n, minimum=proto["MINIMUM"])])
    return rows


def seed_header(lang: str) -> list[str]:
    return text(lang, "circ.seed_head")


def seed_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """Per seed: the intact loss, the best layer-0 previous-token score (and its head), what each
    all-heads cut adds, and the main path."""
    result = _result(result)
    rows = []
    for m in _models(result):
        prev = m["final"]["prev"][0]
        best = max(range(len(prev)), key=prev.__getitem__)
        costs = _costs(m)
        rows.append([str(m["seed"]), f"{m['final']['predictable']:.2f}",
                     text(lang, "circ.prev_cell", score=prev[best], head=best),
                     *(f"{costs[p]:+.2f}" for p in PARTS), text(lang, f"circ.main_{_main(m)}")])
    return rows


def circuits_sentence(lang: str, result: dict | None = None) -> str:
    """The follow-up's answer, with its numbers, and whether each expectation written before the runs held."""
    result = _result(result)
    ms, proto = _models(result), result["data"]["protocol"]
    fam = path_family(result)
    formed = sum(m["final"]["predictable"] < proto["FORMED"] for m in ms)
    textbook = textbook_seeds(result)
    paths = main_paths(result)
    q_over_k = stats.compare_paired([m["cut"]["all_k"] for m in ms], [m["cut"]["all_q"] for m in ms],
                                    minimum=proto["MINIMUM"])
    return text(lang, "circ.sentence", seeds=len(ms), formed=formed, q=fam["q"].mean, k=fam["k"].mean,
                v=fam["v"].mean, qk=q_over_k.mean, qk_lo=q_over_k.lo, qk_hi=q_over_k.hi,
                qk_verdict=text(lang, f"circ.qk_{q_over_k.verdict}", seeds=q_over_k.n),
                main_q=paths["q"], main_k=paths["k"], main_v=paths["v"], textbook=len(textbook),
                limit=proto["PREV_HEAD"],
                held_paths=text(lang, "circ.held" if q_over_k.verdict == "higher" else "circ.failed"),
                held_textbook=_minority(lang, len(textbook), len(ms)))


def _minority(lang: str, textbook: int, seeds: int) -> str:
    """Whether the textbook circuit formed in a minority of the seeds: the count, and whether it is a minority
    that a two-sided sign test (snippets.stats.sign_flip_p on +-1 per seed) can tell from an even split."""
    if not 0 < textbook < seeds / 2:
        return text(lang, "circ.failed")
    p = stats.sign_flip_p([1.0] * textbook + [-1.0] * (seeds - textbook))
    key = "circ.minority" if p < 1 - stats.LEVEL else "circ.minority_count"
    return text(lang, key, textbook=textbook, seeds=seeds, other=seeds - textbook, p=p)


def split_sentence(lang: str, result: dict | None = None) -> str:
    """Read after the results (not part of the protocol): the seeds with a previous-token head and the
    others, each group's query and key cuts, and how far apart each seed's costliest cut is from its next."""
    result = _result(result)
    ms = _models(result)
    textbook = set(textbook_seeds(result))
    groups = {True: [_costs(m) for m in ms if m["seed"] in textbook],
              False: [_costs(m) for m in ms if m["seed"] not in textbook]}
    if not groups[True] or not groups[False]:
        raise ValueError(f"expected seeds with and without a previous-token head, got {len(groups[True])} "
                         f"with and {len(groups[False])} without")

    def span(group: bool, part: str) -> tuple[float, float]:
        values = [c[part] for c in groups[group]]
        return min(values), max(values)

    ratio = min(sorted(c.values())[-1] / max(sorted(c.values())[-2], 1e-9) for c in groups[True] + groups[False])
    (tk_lo, tk_hi), (tq_lo, tq_hi) = span(True, "k"), span(True, "q")
    (ok_lo, ok_hi), (oq_lo, oq_hi) = span(False, "k"), span(False, "q")
    return text(lang, "circ.split", seeds=len(ms), textbook=len(groups[True]), other=len(groups[False]), tk_lo=tk_lo, tk_hi=tk_hi,
                tq_lo=tq_lo, tq_hi=tq_hi, ok_lo=ok_lo, ok_hi=ok_hi, oq_lo=oq_lo, oq_hi=oq_hi, ratio=ratio)


def paths_figure(lang: str, result: dict | None = None) -> str:
    """Per seed, what each all-heads cut adds to the loss (a line joins one seed's three cuts; seeds with a
    previous-token head drawn apart), with the mean and its Holm interval beside each part."""
    result = _result(result)
    ms, proto = _models(result), result["data"]["protocol"]
    fam, textbook = path_family(result), set(textbook_seeds(result))

    def draw():
        fig = Figure(figsize=(4.4, 3.4), layout="constrained")
        ax = fig.subplots()
        xs = np.arange(len(PARTS))
        for m in ms:
            costs = _costs(m)
            has = m["seed"] in textbook
            ax.plot(xs - 0.08, [costs[p] for p in PARTS], color="C1" if has else "C0", alpha=0.9 if has else 0.45,
                    lw=1.4 if has else 0.9, marker="s" if has else "o", ms=4)
        for x, p in zip(xs, PARTS, strict=True):
            c = fam[p]
            ax.errorbar([x + 0.12], [c.mean], yerr=[[c.mean - c.lo], [c.hi - c.mean]], color=FG, marker="_",
                        ms=12, capsize=3, lw=1.2)
        ax.plot([], [], color="C0", marker="o", ms=4, label=text(lang, "circ.fig_other", seeds=len(ms) - len(textbook)))
        ax.plot([], [], color="C1", marker="s", ms=4,
                label=text(lang, "circ.fig_textbook", seeds=len(textbook), limit=proto["PREV_HEAD"]))
        ax.errorbar([], [], yerr=[], color=FG, marker="_", capsize=3, label=text(lang, "circ.fig_mean"))
        ax.axhline(0, color="0.5", lw=0.8)
        ax.set_xticks(xs, [text(lang, f"circ.fig_part_{p}") for p in PARTS])
        ax.set_ylabel(text(lang, "circ.fig_y"))
        ax.grid(axis="y", alpha=0.3)
        fig.legend(loc="outside lower center", ncols=1, frameon=False)
        return fig

    return svg_figure(draw, alt=text(lang, "circ.fig_alt", seeds=len(ms)),
                      caption=text(lang, "circ.fig_caption", seeds=len(ms)))


def _made_up() -> dict:
    """A small stand-in for results/induction-circuits.json (doctests only)."""
    rng = np.random.default_rng(0)
    models = []
    for seed in range(20, 30):
        intact = 0.4 + 0.05 * rng.standard_normal()
        prev = [0.05, 0.04, 0.6 if seed == 21 else 0.03, 0.02]
        cut = {"all_q": intact + 3 + 0.2 * rng.standard_normal(),
               "all_k": intact + (3.5 if seed == 21 else 0.8) + 0.2 * rng.standard_normal(),
               "all_v": intact + 0.02 * rng.standard_normal()}
        models.append({"seed": seed, "final": {"predictable": intact, "prev": [prev, [0.02] * 4]}, "cut": cut})
    proto = {"MINIMUM": 0.1, "FORMED": 1.0, "PREV_HEAD": 0.3}
    return {"data": {"protocol": proto, "models": models}}
