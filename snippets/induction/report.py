"""What the induction heads page prints (snippets.induction.protocol).

Everything is read from results/induction.json, committed by ``python -m sitebuild.results induction``;
every verdict comes from snippets.stats.

>>> r = _made_up()
>>> fam = depth_family(r)
>>> fam[2, 1].verdict, fam[2, 1].family
('lower', 2)
>>> [row[2] for row in depth_rows("en", r)]
['0/10', '10/10', '10/10']
>>> causes = cause_family(r, (2, 1))
>>> causes["cut_k"].verdict, causes["cut_q"].verdict
('higher', 'none')
"""

from __future__ import annotations

import math
import re

import numpy as np

from .. import stats
from ..benchreport import load
from ..figures import Figure, svg_figure
from ..numtext import paired, spread
from ..i18n import text
from . import protocol as P
from .task import MIN_SEGMENT, SEQ_LEN, VOCAB, make_repeat_batch

__all__ = ["RESULT_NAME", "load_induction", "depth_family", "depth_header", "depth_rows", "depth_sentence",
           "cause_family", "cause_header", "cause_rows", "cause_sentence", "one_layer_sentence", "induction_phase_figure",
           "pilot_header", "pilot_rows", "show_repeat_sequence", "task_sentence", "protocol_sentence", "heads_sentence",
           "spread_sentence", "uniform_prev_score"]

RESULT_NAME = "induction.json"
BASELINE = (1, 4)  # every 2-layer setting is compared with 1 layer x 4 heads
MINIMAL = (2, 1)  # the one-head circuit, the 4-head model's point of comparison


def load_induction() -> dict:
    """{"provenance": ..., "data": {"protocol": ..., "models": [...]}}, committed by
    python -m sitebuild.results induction."""
    return load(RESULT_NAME.removesuffix(".json"))


def _result(result: dict | None) -> dict:
    return load_induction() if result is None else result


def _settings(result: dict) -> list[tuple[int, int]]:
    return [tuple(s) for s in result["data"]["protocol"]["SETTINGS"]]


def _models(result: dict) -> dict[tuple[int, int], list[dict]]:
    """Each setting's runs, in seed order."""
    out: dict[tuple[int, int], list[dict]] = {s: [] for s in _settings(result)}
    for m in sorted(result["data"]["models"], key=lambda m: m["seed"]):
        out[m["layers"], m["heads"]].append(m)
    return out


def _loss(result: dict) -> dict[tuple[int, int], list[float]]:
    return {s: [m["final"]["predictable"] for m in ms] for s, ms in _models(result).items()}


def _label(lang: str, layers: int, heads: int) -> str:
    return text(lang, f"ind.setting_{layers}_{heads}")


def _protocol(result: dict) -> dict:
    return result["data"]["protocol"]


def _phase_step(model: dict, phase: float) -> int | None:
    """The first evaluated step at which the predictable loss is below `phase` nats (None if never)."""
    return next((c["step"] for c in model["curve"] if c["predictable"] < phase), None)


# --8<-- [start:depth]
def depth_family(result: dict | None = None) -> dict:
    """Final loss on the predictable tokens, each 2-layer setting
    minus 1 layer x 4 heads, paired by seed; Holm over the family."""
    result = _result(result)
    loss, proto = _loss(result), _protocol(result)
    others = [s for s in _settings(result) if s != BASELINE]
    pairs = [(loss[BASELINE], loss[s]) for s in others]
    found = stats.compare_family(pairs, minimum=proto["MINIMUM"])
    return dict(zip(others, found, strict=True))
# --8<-- [end:depth]


def depth_header(lang: str) -> list[str]:
    return text(lang, "ind.depth_head")


def depth_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """Per setting: parameters, seeds that formed the circuit, mean loss (lowest-highest), phase change
    (median step over the seeds that formed it), difference from 1 layer x 4 heads and the verdict."""
    result = _result(result)
    models, loss, proto = _models(result), _loss(result), _protocol(result)
    fam = depth_family(result)
    rows = []
    for s, ms in models.items():
        formed = sum(v < proto["FORMED"] for v in loss[s])
        steps = [st for m in ms if (st := _phase_step(m, proto["PHASE"])) is not None]
        phase = text(lang, "ind.phase_cell", median=int(np.median(steps)), lo=min(steps), hi=max(steps)) \
            if steps else "—"
        if s == BASELINE:
            diff, verdict = text(lang, "ind.baseline"), "—"
        else:
            c = fam[s]
            diff = paired(lang, c.mean, c.lo, c.hi)
            verdict = text(lang, f"ind.v_{c.verdict}", seeds=c.n, minimum=proto["MINIMUM"])
        rows.append([_label(lang, *s), f"{ms[0]['params']:,}", f"{formed}/{len(ms)}",
                     spread(lang, np.mean(loss[s]), min(loss[s]), max(loss[s])), phase, diff, verdict])
    return rows


def depth_sentence(lang: str, result: dict | None = None) -> str:
    """The depth result in one paragraph, with its numbers."""
    result = _result(result)
    loss, proto, fam = _loss(result), _protocol(result), depth_family(result)
    chance = math.log(VOCAB)
    parts = []
    for s, c in fam.items():
        parts.append(text(lang, "ind.depth_part", label=_label(lang, *s), mean=float(np.mean(loss[s])),
                          diff=c.mean, lo=c.lo, hi=c.hi, verdict=text(lang, f"ind.v_{c.verdict}", seeds=c.n,
                                                                       minimum=proto["MINIMUM"])))
    return text(lang, "ind.depth", base=_label(lang, *BASELINE), base_mean=float(np.mean(loss[BASELINE])),
                chance=chance, family=len(fam), parts=text(lang, "ind.join").join(parts))


def _cause_names(result: dict, setting: tuple[int, int]) -> list[str]:
    return list(_models(result)[setting][0]["switched"])


# --8<-- [start:causes]
def cause_family(result: dict | None, setting: tuple[int, int]) -> dict:
    """Loss on the predictable tokens with each switch (a head zeroed,
    a path cut) minus the intact model's, paired by seed; Holm over
    the switches of this setting."""
    result = _result(result)
    ms = _models(result)[setting]
    intact = [m["final"]["predictable"] for m in ms]
    names = _cause_names(result, setting)
    pairs = [(intact, [m["switched"][n] for m in ms]) for n in names]
    found = stats.compare_family(pairs, minimum=_protocol(result)["MINIMUM"])
    return dict(zip(names, found, strict=True))
# --8<-- [end:causes]


def cause_header(lang: str) -> list[str]:
    return text(lang, "ind.cause_head")


def cause_rows(lang: str, setting: tuple[int, int], result: dict | None = None) -> list[list[str]]:
    """Per switch: what it does, the mean loss with it, the difference from the intact model, the verdict."""
    result = _result(result)
    ms, proto = _models(result)[setting], _protocol(result)
    fam = cause_family(result, setting)
    intact = [m["final"]["predictable"] for m in ms]
    rows = [[text(lang, "ind.intact"), f"{np.mean(intact):.2f}", text(lang, "ind.baseline"), "—"]]
    for name, c in fam.items():
        with_switch = [m["switched"][name] for m in ms]
        rows.append([text(lang, f"ind.switch_{name}"), f"{np.mean(with_switch):.2f}",
                     paired(lang, c.mean, c.lo, c.hi),
                     text(lang, f"ind.v_{c.verdict}", seeds=c.n, minimum=proto["MINIMUM"])])
    return rows


def cause_sentence(lang: str, setting: tuple[int, int], result: dict | None = None) -> str:
    """What the cuts show, with the K cut's and the Q and V cuts' numbers."""
    result = _result(result)
    fam, proto = cause_family(result, setting), _protocol(result)

    def said(name: str) -> str:
        c = fam[name]
        return text(lang, "ind.cause_part", switch=text(lang, f"ind.switch_{name}"), diff=c.mean, lo=c.lo,
                    hi=c.hi, verdict=text(lang, f"ind.v_{c.verdict}", seeds=c.n, minimum=proto["MINIMUM"]))

    names = [n for n in ("cut_k", "cut_k_all", "cut_q", "cut_v") if n in fam]
    return text(lang, "ind.causes", label=_label(lang, *setting), family=len(fam),
                parts=text(lang, "ind.join").join(said(n) for n in names))


def heads_sentence(lang: str, setting: tuple[int, int], result: dict | None = None) -> str:
    """In the 4-head model: how high the best previous-token and prefix-matching scores are, per seed,
    beside the one-head model's previous-token head."""
    result = _result(result)
    ms = _models(result)[setting]
    prev = [max(m["final"]["prev"][0]) for m in ms]
    prefix = [max(m["final"]["prefix"][1]) for m in ms]
    second = [sorted(m["final"]["prev"][0])[-2] for m in ms]
    every = [min(m["final"]["prefix"][1]) for m in ms]
    one = [m["final"]["prev"][0][0] for m in _models(result)[MINIMAL]]
    return text(lang, "ind.heads", label=_label(lang, *setting), seeds=len(ms),
                prev_lo=min(prev), prev_hi=max(prev), second_hi=max(second),
                prefix_lo=min(prefix), prefix_hi=max(prefix), every_lo=min(every),
                one=_label(lang, *MINIMAL), one_lo=min(one), one_hi=max(one), uniform=uniform_prev_score())


def uniform_prev_score(seq_len: int | None = None) -> float:
    """The previous-token score (train.head_scores: attention from t to t - 1, averaged over t = 1 ... T - 1)
    of a head that spreads its attention evenly over positions 0 ... t: the mean of 1 / (t + 1).

    >>> round(uniform_prev_score(48), 4)
    0.0736
    """
    from .task import SEQ_LEN

    T = SEQ_LEN if seq_len is None else seq_len
    if not isinstance(T, int) or T < 2:
        raise ValueError(f"seq_len must be an integer >= 2, got {T!r}")
    return sum(1 / (t + 1) for t in range(1, T)) / (T - 1)


def spread_sentence(lang: str, setting: tuple[int, int] = (2, 4), result: dict | None = None) -> str:
    """Read after the results (not part of the protocol): in the 4-head model, the layer-0 head whose zeroing
    costs most in each seed, its previous-token score, what zeroing one layer-1 head costs, and the loss left
    when every layer-0 head is cut from the keys, against the one-layer model (paired by seed)."""
    result = _result(result)
    models = _models(result)
    ms = models[setting]
    worst = [max(range(setting[1]), key=lambda h, m=m: m["ablated"][0][h]) for m in ms]
    worst_loss = [m["ablated"][0][h] for m, h in zip(ms, worst, strict=True)]
    worst_prev = [m["final"]["prev"][0][h] for m, h in zip(ms, worst, strict=True)]
    layer1 = [v for m in ms for v in m["ablated"][1]]
    cut_all = [m["switched"]["cut_k_all"] for m in ms]
    one_layer = [m["final"]["predictable"] for m in models[BASELINE]]
    c = stats.compare_paired(one_layer, cut_all)
    return text(lang, "ind.spread", label=_label(lang, *setting), seeds=len(ms), worst_lo=min(worst_loss),
                worst_hi=max(worst_loss), chance=math.log(VOCAB),
                above=sum(w > math.log(VOCAB) for w in worst_loss), prev_lo=min(worst_prev), prev_hi=max(worst_prev),
                one_lo=min(layer1), one_hi=max(layer1), cut=float(np.mean(cut_all)), base=_label(lang, *BASELINE),
                diff=c.mean, lo=c.lo, hi=c.hi,
                verdict=text(lang, f"ind.v_{c.verdict}", seeds=c.n, minimum=_protocol(result)["MINIMUM"]))


def one_layer_sentence(lang: str, result: dict | None = None) -> str:
    """What one layer learns instead: probability on tokens already seen, at step 0 and at the end."""
    result = _result(result)
    ms = _models(result)[BASELINE]
    start = [m["curve"][0]["context_mass"] for m in ms]
    end = [m["curve"][-1]["context_mass"] for m in ms]
    c = stats.compare_paired(start, end)
    loss = [m["final"]["predictable"] for m in ms]
    return text(lang, "ind.one_layer", label=_label(lang, *BASELINE), start=float(np.mean(start)),
                end=float(np.mean(end)), diff=c.mean, lo=c.lo, hi=c.hi, seeds=c.n,
                verdict=text(lang, f"ind.m_{c.verdict}", seeds=c.n),
                loss_lo=min(loss), loss_hi=max(loss), chance=math.log(VOCAB))


def protocol_sentence(lang: str, result: dict | None = None) -> str:
    proto = _protocol(_result(result))
    return text(lang, "ind.protocol", seeds=len(proto["SEEDS"]), steps=proto["STEPS"], batch=proto["BATCH"],
                every=proto["EVAL_EVERY"], size=proto["EVAL_SIZE"], formed=proto["FORMED"], phase=proto["PHASE"],
                minimum=proto["MINIMUM"])


def task_sentence(lang: str) -> str:
    """The task's sizes, from the lesson code."""
    return text(lang, "ind.task", seq_len=SEQ_LEN, vocab=VOCAB, lo=MIN_SEGMENT, hi=SEQ_LEN // 2,
                chance=math.log(VOCAB))


def pilot_header(lang: str) -> list[str]:
    return text(lang, "ind.pilot_head")


def pilot_rows(lang: str) -> list[list[str]]:
    """The pilots in the order they ran."""
    return [[_label(lang, layers, heads), str(seed), f"{steps:,}", f"{loss:.2f}",
             "—" if step is None else f"{step:,}"] for layers, heads, seed, steps, loss, step in P.PILOT]


def show_repeat_sequence(seq_len: int = 20, seed: int = 3) -> str:
    """One training sequence as two lines: its token ids, and a mark under the second copy (^ where the
    next token can be predicted from the first copy, · where it cannot)."""
    x, second = make_repeat_batch(1, seq_len, seed=seed)
    marks = ["·"] * seq_len
    for t in range(seq_len - 1):
        if second[0, t] and second[0, t + 1]:
            marks[t] = "^"
    return "\n".join([" ".join(f"{t:>2}" for t in x[0].tolist()), " ".join(f"{m:>2}" for m in marks)])


def induction_phase_figure(lang: str, result: dict | None = None) -> str:
    """Over training, every seed: the loss on the predictable tokens (top) and, for the 2-layer settings,
    the best layer-0 previous-token score and the best layer-1 prefix-matching score (bottom)."""
    result = _result(result)
    models, proto = _models(result), _protocol(result)
    settings = _settings(result)

    def draw():
        fig = Figure(figsize=(5.4, 7.4), layout="constrained")
        top, bottom = fig.subplots(2, 1, sharex=True)
        for i, s in enumerate(settings):
            for k, m in enumerate(models[s]):
                steps = [c["step"] for c in m["curve"]]
                top.plot(steps, [c["predictable"] for c in m["curve"]], color=f"C{i}", alpha=0.55, lw=1,
                         label=_label(lang, *s) if k == 0 else None)
                if s[0] == 2:
                    bottom.plot(steps, [max(c["prefix"][1]) for c in m["curve"]], color=f"C{i}", alpha=0.55,
                                lw=1, label=text(lang, "ind.fig_prefix", label=_label(lang, *s)) if k == 0 else None)
                    bottom.plot(steps, [max(c["prev"][0]) for c in m["curve"]], color=f"C{i}", alpha=0.55,
                                lw=1, ls=":", label=text(lang, "ind.fig_prev", label=_label(lang, *s))
                                if k == 0 else None)
        top.axhline(math.log(VOCAB), color="0.5", lw=0.8, ls="--")
        top.axhline(proto["FORMED"], color="0.5", lw=0.8, ls=":")
        top.set_ylabel(text(lang, "ind.fig_loss"))
        top.set_ylim(0, 5)
        bottom.set_ylabel(text(lang, "ind.fig_score"))
        bottom.set_ylim(0, 1)
        bottom.set_xlabel(text(lang, "ind.fig_step"))
        for ax in (top, bottom):
            ax.grid(alpha=0.3)
        top.legend(frameon=False, loc="lower left")
        fig.legend(*bottom.get_legend_handles_labels(), loc="outside lower center", ncols=1, frameon=False)
        return fig

    return _light_paths(svg_figure(draw, alt=text(lang, "ind.fig_alt"),
                                   caption=text(lang, "ind.fig_caption", seeds=len(proto["SEEDS"]),
                                                chance=math.log(VOCAB), formed=proto["FORMED"])))


_PATH = re.compile(r'(<path d=")([^"]*)(")')
_NUMBER = re.compile(r"-?\d+\.\d+")


def _light_paths(figure: str) -> str:
    """The figure with its path coordinates at 0.1 px and on one line: 70 curves of 25 points each are most
    of its bytes, and a tenth of a pixel is finer than any screen draws.

    >>> _light_paths('<path d="M 59.826434 21.394169 \\nL 72.928541 44.898289"/>')
    '<path d="M 59.8 21.4 L 72.9 44.9"/>'
    """
    return _PATH.sub(lambda m: m.group(1) + " ".join(_NUMBER.sub(lambda n: f"{float(n.group(0)):.1f}", m.group(2))
                                                       .split()) + m.group(3), figure)


def _made_up() -> dict:
    """A small stand-in for results/induction.json (doctests only)."""
    rng = np.random.default_rng(0)
    models = []
    for layers, heads in P.SETTINGS:
        for seed in range(10):
            base = 3.5 if layers == 1 else 0.4
            final = {"predictable": base + 0.05 * rng.standard_normal(), "random": 4.2,
                     "prev": [[0.1] * heads] * layers, "prefix": [[0.1] * heads] * layers}
            switched = {}
            if layers == 2:
                switched = {"ablate_prev": 3.9, "ablate_induction": 4.0, "cut_k": 3.8 + 0.05 * rng.standard_normal(),
                            "cut_q": final["predictable"] + 0.01 * rng.standard_normal(),
                            "cut_v": final["predictable"] + 0.01 * rng.standard_normal()}
            curve = [{"step": 0, "predictable": 4.5, "context_mass": 0.23},
                     {"step": 250, "predictable": final["predictable"], "context_mass": 0.28}]
            models.append({"layers": layers, "heads": heads, "seed": seed, "params": 1000 * layers * heads,
                           "final": final, "switched": switched, "curve": curve})
    proto = {"SETTINGS": [list(s) for s in P.SETTINGS], "SEEDS": list(range(10)), "FORMED": 1.0, "PHASE": 2.0,
             "MINIMUM": 0.1, "STEPS": 6000, "BATCH": 64, "EVAL_EVERY": 250, "EVAL_SIZE": 1024}
    return {"data": {"protocol": proto, "models": models}}
