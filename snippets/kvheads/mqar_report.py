"""What the key/value heads page prints about its second recall test (snippets.kvheads.protocol).

Everything is read from results/kvheads-mqar.json, committed by ``python -m sitebuild.results mqar``;
every verdict comes from snippets.stats.

>>> r = _made_up()
>>> fam = mqar_family(r)
>>> fam["gqa", 1].verdict, fam["gqa", 4].verdict, fam["gqa", 1].family
('lower', 'none', 6)
>>> [row[3] for row in mqar_rows("en", r)][:4]
['10/10', '10/10', '10/10', '2/10']
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

import resultcache

from .. import stats
from ..figures import Figure, svg_figure
from ..i18n import text
from . import protocol as P
from .mqar import IGNORE, KEYS, VALUES, MQARModel, make_mqar_batch, mqar_accuracy, train_mqar

__all__ = ["followup_quick", "RESULT_NAME", "PILOT", "pilot_run", "mqar_pilot_header", "mqar_pilot_rows", "show_mqar_sequence", "load_mqar", "mqar_family", "mqar_rows", "mqar_header", "mqar_figure", "mqar_sentences", "params_sentence",
           "mqar_learned_sentence", "curve_sentence", "mqar_protocol_sentence", "mqar_cost_sentence", "equal_cache_sentence",
           "FOLLOWUP_NAME", "load_followup", "followup_family", "followup_header", "followup_rows",
           "followup_sentence", "mla_copy_of_mha", "holds_sentence", "still_rising", "CLEARLY_RISING"]

RESULT_NAME = "kvheads-mqar.json"
FOLLOWUP_NAME = "kvheads-mqar-followup.json"
FLOAT32 = 4  # bytes per cached number: the models train and would decode in float32


# The pilot that chose the level, in the order it ran: MHA only (g = 8), seeds the test does not use, a 256-row
# position table. (pairs, positions, batch, steps, seed, held-out accuracy on 1,000 sequences as pilot_run
# printed it). The first two measured the time per step at 64 positions; 48 positions were then used to halve it.
PILOT = ((8, 64, 64, 2000, 100, 1.0), (16, 64, 64, 2000, 100, 0.8811),
         (12, 48, 32, 1500, 100, 0.1262), (16, 48, 32, 1500, 100, 0.1147),
         (8, 48, 64, 1500, 101, 1.0), (12, 48, 64, 1500, 100, 0.1311),
         (10, 48, 64, 1000, 100, 0.1497), (10, 48, 64, 1000, 101, 0.9999),
         (8, 48, 64, 1000, 100, 0.9931), (8, 48, 64, 1000, 102, 0.9996))


def pilot_run(num_pairs: int, seq_len: int, batch_size: int, steps: int, seed: int) -> float:
    """Train one pilot model as the pilot did (MHA) and return its held-out accuracy, rounded as PILOT keeps
    it. About a minute of CPU per 1,000 steps at 48 positions and batch 64."""
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    model = MQARModel(P.NUM_HEADS, num_kv_heads=P.NUM_HEADS)
    model, _ = train_mqar(model, num_pairs, seq_len, seed, steps, batch_size=batch_size, eval_every=250)
    return round(mqar_accuracy(model, num_pairs, seq_len, 1000), 4)


def mqar_pilot_header(lang: str) -> list[str]:
    return text(lang, "mqar.pilot_head")


def mqar_pilot_rows(lang: str) -> list[list[str]]:
    """The pilot's runs in the order they ran; the last column says whether the model learned the task."""
    yes, no = text(lang, "mqar.yes"), text(lang, "mqar.no")
    return [[str(n), str(T), str(b), f"{steps:,}", str(seed), f"{a:.1%}", yes if a >= P.LEARNED else no]
            for n, T, b, steps, seed, a in PILOT]


def show_mqar_sequence(num_pairs: int = 4, seq_len: int = 16, seed: int = 0) -> str:
    """One MQAR sequence as two lines: its tokens (kN a key, vN a value, _ a distractor), and the targets
    (· where none)."""
    x, y = make_mqar_batch(1, num_pairs, seq_len, seed=seed)

    def name(t: int) -> str:
        return f"k{t}" if t < KEYS else f"v{t - KEYS}" if t < KEYS + VALUES else "_"

    return "\n".join([" ".join(f"{name(t):>4}" for t in x[0].tolist()),
                      " ".join(f"{'·' if t == IGNORE else name(t):>4}" for t in y[0].tolist())])


def load_mqar(path: Path | None = None) -> dict:
    """{"provenance": ..., "data": {"protocol": ..., "models": [...]}} committed by python -m sitebuild.results mqar."""
    path = resultcache.results_dir() / RESULT_NAME if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"expected the committed MQAR test at {path}; run `python -m sitebuild.results mqar`")
    return json.loads(path.read_text(encoding="utf-8"))


def _settings(result: dict) -> list[tuple[str, int]]:
    return [tuple(s) for s in result["data"]["protocol"]["SETTINGS"]]


def _models(result: dict) -> dict[tuple[str, int], list[dict]]:
    """Each setting's runs, in seed order."""
    out: dict[tuple[str, int], list[dict]] = {s: [] for s in _settings(result)}
    for m in sorted(result["data"]["models"], key=lambda m: m["seed"]):
        out[m["kind"], m["size"]].append(m)
    return out


def _acc(result: dict) -> dict[tuple[str, int], list[float]]:
    return {s: [m["accuracy"] for m in ms] for s, ms in _models(result).items()}


def _mha(result: dict) -> tuple[str, int]:
    return "gqa", result["data"]["protocol"]["NUM_HEADS"]


def _label(lang: str, kind: str, size: int) -> str:
    return text(lang, "mqar.setting", label=P.setting_label(kind, size))


def _result(result: dict | None) -> dict:
    return load_mqar() if result is None else result


# --8<-- [start:family]
def mqar_family(result: dict | None = None
                ) -> dict[tuple[str, int], stats.Comparison]:
    """Every setting against MHA, paired by seed: one family of six,
    Holm-corrected (snippets.stats.compare_family)."""
    result = _result(result)
    acc, mha = _acc(result), _mha(result)
    others = [s for s in _settings(result) if s != mha]
    minimum = result["data"]["protocol"]["MINIMUM"]
    family = stats.compare_family([(acc[mha], acc[s]) for s in others],
                                  minimum=minimum)
    return dict(zip(others, family, strict=True))
# --8<-- [end:family]


def _points(*values: float) -> list[float]:
    return [round(v * 100, 1) + 0.0 for v in values]  # + 0.0: no "-0.0"


def _p(p: float) -> str:
    """'= 0.63', '= 0.012', '< 0.001': a p-value as the sentences print it.

    >>> _p(0.6285), _p(0.01186), _p(0.0002)
    ('= 0.63', '= 0.012', '< 0.001')
    """
    if p < 0.001:
        return "< 0.001"
    return f"= {p:.2g}" if p < 0.1 else f"= {p:.2f}"


def _verdict_words(lang: str, c: stats.Comparison, minimum: float, area: str = "kvheads.v_") -> str:
    """The verdict's words; the verdict itself comes from snippets.stats.verdict alone."""
    return text(lang, f"{area}{c.verdict}", seeds=c.n, minimum=minimum * 100)


def mqar_header(lang: str) -> list[str]:
    return text(lang, "mqar.head")


def mqar_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """One row per setting: cache numbers per position and layer, parameters, seeds that learned, mean accuracy
    (lowest to highest seed), and the difference from MHA with its Holm interval and verdict."""
    result = _result(result)
    models, acc, family = _models(result), _acc(result), mqar_family(result)
    proto = result["data"]["protocol"]
    rows = []
    for s in _settings(result):
        a = np.array(acc[s])
        first = models[s][0]
        if s in family:
            c = family[s]
            d, lo, hi = _points(c.mean, c.lo, c.hi)
            diff = f"{d:+.1f} [{lo:+.1f}, {hi:+.1f}]"
            words = _verdict_words(lang, c, proto["MINIMUM"])
        else:
            diff, words = "", text(lang, "mqar.baseline")
        rows.append([_label(lang, *s), str(first["cache_numbers"] * FLOAT32), f"{first['params']:,}",
                     f"{int((a >= proto['LEARNED']).sum())}/{len(a)}",
                     f"{a.mean():.1%} ({a.min():.1%}–{a.max():.1%})", diff, words])
    return rows


def mqar_sentences(lang: str, result: dict | None = None) -> str:
    """The verdicts in words: which settings are measurably below (or above) MHA, by how much, and which are
    not, with the family size and the levels the intervals are printed at."""
    result = _result(result)
    family, acc, mha = mqar_family(result), _acc(result), _mha(result)
    proto = result["data"]["protocol"]
    parts = []
    for s, c in family.items():
        d, lo, hi = _points(c.mean, c.lo, c.hi)
        parts.append(text(lang, "mqar.part", name=_label(lang, *s), diff=d, lo=lo, hi=hi, level=c.level,
                          verdict=_verdict_words(lang, c, proto["MINIMUM"])))
    found = sum(c.verdict in ("higher", "lower") for c in family.values())
    return text(lang, "mqar.verdicts", mha=float(np.mean(acc[mha])), seeds=len(acc[mha]), family=len(family),
                found=found, parts=text(lang, "kvheads.sep").join(parts))


def mqar_learned_sentence(lang: str, result: dict | None = None) -> str:
    """How many seeds of each setting learned the task, against MHA (Fisher's exact test, Holm over the six),
    and the accuracy among the seeds that learned."""
    result = _result(result)
    acc, mha = _acc(result), _mha(result)
    threshold = result["data"]["protocol"]["LEARNED"]
    others = [s for s in _settings(result) if s != mha]
    splits = {s: stats.learned_split(acc[mha], acc[s], threshold) for s in others}
    reject, _ = stats.holm([sp.p_share for sp in splits.values()])
    first = next(iter(splits.values()))
    shares = [text(lang, "kvheads.learned_mha", name=_label(lang, *mha), k=first.learned_a, seeds=first.n_a)]
    shares += [text(lang, "mqar.learned_part", name=_label(lang, *s), k=sp.learned_b, seeds=sp.n_b, p=_p(sp.p_share))
               for s, sp in splits.items()]
    among = [(mha, first.among_a)] + [(s, sp.among_b) for s, sp in splits.items()]
    among_text = text(lang, "kvheads.sep").join(
        text(lang, "kvheads.among_part", name=_label(lang, *s), mean=m, lo=lo, hi=hi)
        for s, (m, lo, hi) in among if not np.isnan(m))
    found = int(reject.sum())
    said = text(lang, "kvheads.learned_found", found=found) if found else text(lang, "mqar.shares_same")
    return text(lang, "mqar.learned", threshold=threshold, shares=text(lang, "kvheads.sep").join(shares),
                tests=len(others), said=said, among=among_text)


def equal_cache_sentence(lang: str, result: dict | None = None) -> str:
    """MLA against the GQA setting that keeps as many numbers per position: the paired difference, with a Holm
    correction over those pairs (a second family, said so)."""
    result = _result(result)
    acc, models = _acc(result), _models(result)
    pairs = []
    for s in _settings(result):
        if s[0] != "mla":
            continue
        same = [g for g in _settings(result) if g[0] == "gqa"
                and models[g][0]["cache_numbers"] == models[s][0]["cache_numbers"]]
        if same:
            pairs.append((same[0], s))
    if not pairs:
        raise ValueError("expected MLA settings with a GQA setting of the same cache size, got none")
    family = stats.compare_family([(acc[g], acc[s]) for g, s in pairs], minimum=result["data"]["protocol"]["MINIMUM"])
    parts = []
    for (g, s), c in zip(pairs, family, strict=True):
        d, lo, hi = _points(c.mean, c.lo, c.hi)
        parts.append(text(lang, "mqar.equal_part", mla=_label(lang, *s), gqa=_label(lang, *g),
                          numbers=models[s][0]["cache_numbers"] * FLOAT32, diff=d, lo=lo, hi=hi, level=c.level,
                          verdict=_verdict_words(lang, c, result["data"]["protocol"]["MINIMUM"], "mqar.ev_")))
    return text(lang, "mqar.equal", family=len(family), parts=text(lang, "kvheads.sep").join(parts))


def params_sentence(lang: str, result: dict | None = None) -> str:
    """Parameter counts are not matched: how many fewer GQA and MQA have than MHA (their W_k, W_v shrink), and how
    many more each MLA has than the GQA setting that caches as much, and what that does to each comparison."""
    result = _result(result)
    models, mha = _models(result), _mha(result)
    n_mha = models[mha][0]["params"]
    fewer = [text(lang, "mqar.params_fewer", label=_label(lang, *s),
                  share=1 - models[s][0]["params"] / n_mha)
             for s in _settings(result) if s[0] == "gqa" and s != mha]
    more = []
    for s in _settings(result):
        same = [g for g in _settings(result) if g[0] == "gqa" and s[0] == "mla"
                and models[g][0]["cache_numbers"] == models[s][0]["cache_numbers"]]
        if same:
            more.append(text(lang, "mqar.params_more", mla=_label(lang, *s), gqa=_label(lang, *same[0]),
                             share=models[s][0]["params"] / models[same[0]][0]["params"] - 1))
    if not fewer or not more:
        raise ValueError("expected GQA settings besides MHA and MLA settings with an equal-cache GQA partner")
    sep = text(lang, "kvheads.sep")
    return text(lang, "mqar.params", mha=_label(lang, *mha), fewer=sep.join(fewer), more=sep.join(more))


CLEARLY_RISING = 0.02  # a run that gained 2 points in its last window was still learning the task


def still_rising(result: dict, gain: float) -> list[dict]:
    """The runs whose accuracy rose by at least gain in their last evaluation window."""
    return [m for m in result["data"]["models"] if m["curve"][-1][1] - m["curve"][-2][1] >= gain]


def curve_sentence(lang: str, result: dict | None = None) -> str:
    """Learning curves: how many runs moved up by half a point or more in the last 250 steps (many of them creep
    near chance), and which gained 2 points or more (clearly still learning when the budget ran out)."""
    result = _result(result)
    runs = result["data"]["models"]
    rising, big = still_rising(result, 0.005), still_rising(result, CLEARLY_RISING)
    names = sorted({(m["kind"], m["size"]) for m in big}, key=_settings(result).index)
    steps = result["data"]["protocol"]["STEPS"]
    window = result["data"]["protocol"]["EVAL_EVERY"]
    if not rising:
        return text(lang, "mqar.curves_flat", runs=len(runs), window=window, steps=steps)
    if not big:
        return text(lang, "mqar.curves_small", runs=len(runs), rising=len(rising), window=window, steps=steps)
    counts = [sum((m["kind"], m["size"]) == s for m in big) for s in names]
    return text(lang, "mqar.curves", runs=len(runs), rising=len(rising), big=len(big), window=window, steps=steps,
                names=text(lang, "mqar.curve_sep").join(text(lang, "mqar.curve_part", name=_label(lang, *s), n=n)
                                                     for s, n in zip(names, counts, strict=True)))


def mqar_protocol_sentence(lang: str, result: dict | None = None) -> str:
    """The protocol as the results record it: level, grid, seeds, steps, threshold."""
    result = _result(result)
    p = result["data"]["protocol"]
    prov = result["provenance"]
    return text(lang, "mqar.protocol", pairs=p["PAIRS"], seq_len=p["SEQ_LEN"], seeds=len(p["SEEDS"]),
                steps=p["STEPS"], batch=p["BATCH"], settings=len(p["SETTINGS"]), learned=p["LEARNED"],
                commit=prov.get("commit", "?")[:7])


def mqar_cost_sentence(lang: str, result: dict | None = None) -> str:
    result = _result(result)
    secs = [m["cpu_seconds"] for m in result["data"]["models"]]
    return text(lang, "mqar.cost", models=len(secs), lo=min(secs), hi=max(secs), total=sum(secs) / 60)


def mqar_figure(lang: str, result: dict | None = None) -> str:
    """Accuracy against the bytes one layer's cache keeps per position: GQA (g = 1, 2, 4, 8) as one line, MLA
    (d_c = 16, 32, 64) as another, each seed a dot, each mean with its 95% t interval."""
    result = _result(result)
    models, acc = _models(result), _acc(result)
    cached = {s: ms[0]["cache_numbers"] * FLOAT32 for s, ms in models.items()}
    kinds = {k: [s for s in cached if s[0] == k] for k in ("gqa", "mla")}
    xs_all = sorted(set(cached.values()))
    offset = {"gqa": -1, "mla": 1}

    def draw():
        fig = Figure(figsize=(5.4, 4.6), layout="constrained")
        ax = fig.subplots()
        for i, (kind, settings) in enumerate(kinds.items()):
            shift = 2 ** (0.07 * offset[kind])  # side by side at equal cache
            settings = sorted(settings, key=cached.get)
            xs = [cached[s] * shift for s in settings]
            for x, s in zip(xs, settings, strict=True):
                ax.scatter([x] * len(acc[s]), np.array(acc[s]) * 100, s=10, color=f"C{i}", alpha=0.45)
            means = np.array([stats.t_interval(acc[s]) for s in settings]) * 100
            ax.errorbar(xs, means[:, 0], yerr=np.clip([means[:, 0] - means[:, 1], means[:, 2] - means[:, 0]], 0, None),
                        fmt="o-", color=f"C{i}", capsize=3, label=text(lang, f"mqar.fig_{kind}"))
            if kind == "gqa":
                for x, s, m in zip(xs, settings, means[:, 0], strict=True):
                    ax.annotate(f"g={s[1]}", (x, m), textcoords="offset points", xytext=(-6, 8), ha="right",
                                fontsize=8, color="C0")
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs_all, [str(x) for x in xs_all])
        ax.minorticks_off()
        ax.set_xlabel(text(lang, "mqar.fig_x"))
        ax.set_ylabel(text(lang, "mqar.fig_y"))
        ax.grid(alpha=0.3)
        fig.legend(*ax.get_legend_handles_labels(), loc="outside upper center", ncols=1, frameon=False)
        return fig

    seeds = len(result["data"]["protocol"]["SEEDS"])
    return svg_figure(draw, alt=text(lang, "mqar.fig_alt"), caption=text(lang, "mqar.fig_caption", seeds=seeds))


# --8<-- [start:holds]
def mla_copy_of_mha(mha: MQARModel) -> MQARModel:
    """An MLA model with d_c = d_model that computes exactly what the
    given MHA model computes: W_dkv = I, so the latent is x itself,
    and W_uk, W_uv are MHA's W_k, W_v. Its cache is half of MHA's."""
    E = mha.token.weight.shape[1]
    mla = MQARModel(P.NUM_HEADS, d_latent=E,
                    max_len=mha.position.num_embeddings)
    state = {k: v for k, v in mha.state_dict().items()
             if ".W_k." not in k and ".W_v." not in k}
    mla.load_state_dict(state, strict=False)
    with torch.no_grad():
        for a, b in zip(mha.attns, mla.attns):
            b.W_dkv.weight.copy_(torch.eye(E))
            b.W_uk.weight.copy_(a.W_k.weight)
            b.W_uv.weight.copy_(a.W_v.weight)
    return mla
# --8<-- [end:holds]


def holds_sentence(lang: str, seed: int = 0) -> str:
    """The largest difference in logits between a random MHA model and its MLA copy, on one batch of the task,
    with the two caches' sizes."""
    torch.manual_seed(seed)
    mha = MQARModel(P.NUM_HEADS, num_kv_heads=P.NUM_HEADS, max_len=P.SEQ_LEN)
    mla = mla_copy_of_mha(mha)
    x, _ = make_mqar_batch(8, P.PAIRS, P.SEQ_LEN, seed=seed)
    with torch.no_grad():
        diff = float((mha(x) - mla(x)).abs().max())
    E = mha.token.weight.shape[1]
    key = "mqar.holds_exact" if diff == 0 else "mqar.holds"
    return text(lang, key, d_c=E, diff=diff, mha=P.cache_numbers(P.NUM_HEADS, P.NUM_HEADS, None) * FLOAT32,
                mla=P.cache_numbers(P.NUM_HEADS, None, E) * FLOAT32)


def load_followup(path: Path | None = None) -> dict:
    """The latent-RMSNorm follow-up committed by python -m sitebuild.results mqar-followup."""
    path = resultcache.results_dir() / FOLLOWUP_NAME if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"expected the committed follow-up at {path}; run `python -m sitebuild.results mqar-followup`")
    return json.loads(path.read_text(encoding="utf-8"))


def _followup_pairs(result: dict, followup: dict) -> list[tuple[int, list[float], list[float]]]:
    """(d_c, the plain MLA model's accuracy per seed, the normed model's per seed), seeds in the same order."""
    plain = _models(result)
    normed: dict[int, list[dict]] = {}
    for m in sorted(followup["data"]["models"], key=lambda m: m["seed"]):
        normed.setdefault(m["size"], []).append(m)
    out = []
    for size in sorted(normed):
        a, b = plain["mla", size], normed[size]
        if [m["seed"] for m in a] != [m["seed"] for m in b]:
            raise ValueError(f"expected the follow-up at d_c={size} to have the test's seeds "
                             f"{[m['seed'] for m in a]}, got {[m['seed'] for m in b]}")
        out.append((size, [m["accuracy"] for m in a], [m["accuracy"] for m in b]))
    return out


def followup_family(result: dict | None = None, followup: dict | None = None) -> dict[int, stats.Comparison]:
    """MLA with the latent RMSNorm against the same MLA without it, paired by seed (same initial weights, same
    data), one Holm family over the latent widths.

    >>> r, f = _made_up_followup(learned={16: 8, 32: 0, 64: 0})
    >>> fam = followup_family(r, f)
    >>> fam[16].verdict, fam[32].verdict, fam[16].family
    ('higher', 'none', 3)
    """
    result, followup = _result(result), load_followup() if followup is None else followup
    pairs = _followup_pairs(result, followup)
    minimum = result["data"]["protocol"]["MINIMUM"]
    family = stats.compare_family([(plain, normed) for _, plain, normed in pairs], minimum=minimum)
    return {size: c for (size, _, _), c in zip(pairs, family, strict=True)}


def followup_header(lang: str) -> list[str]:
    return text(lang, "mqarf.head")


def followup_rows(lang: str, result: dict | None = None, followup: dict | None = None) -> list[list[str]]:
    """One row per latent width: seeds that learned and mean accuracy without and with the norm, and the paired
    difference with its Holm interval and verdict."""
    result, followup = _result(result), load_followup() if followup is None else followup
    family = followup_family(result, followup)
    threshold, minimum = result["data"]["protocol"]["LEARNED"], result["data"]["protocol"]["MINIMUM"]
    rows = []
    for size, plain, normed in _followup_pairs(result, followup):
        c = family[size]
        d, lo, hi = _points(c.mean, c.lo, c.hi)
        cells = []
        for acc in (plain, normed):
            a = np.array(acc)
            cells += [f"{int((a >= threshold).sum())}/{len(a)}", f"{a.mean():.1%}"]
        rows.append([str(size), *cells, f"{d:+.1f} [{lo:+.1f}, {hi:+.1f}]",
                     _verdict_words(lang, c, minimum, "mqarf.v_")])
    return rows


def followup_sentence(lang: str, result: dict | None = None, followup: dict | None = None) -> str:
    """What the follow-up found, in one sentence: seeds that learned with the norm against without it and
    against MHA, and how many of the paired differences are measurable."""
    result, followup = _result(result), load_followup() if followup is None else followup
    family = followup_family(result, followup)
    threshold = result["data"]["protocol"]["LEARNED"]
    mha = np.array(_acc(result)[_mha(result)])
    pairs = _followup_pairs(result, followup)
    learned = lambda acc: int((np.array(acc) >= threshold).sum())  # noqa: E731
    normed = text(lang, "kvheads.sep").join(
        text(lang, "mqarf.part_none" if learned(a) == learned(b) == 0 else "mqarf.part", size=size, k=learned(b),
             plain=learned(a)) for size, a, b in pairs)
    found = sum(c.verdict in ("higher", "lower") for c in family.values())
    key = "mqarf.found" if found else "mqarf.none"
    said = [text(lang, key, normed=normed, seeds=len(mha), mha=learned(mha), family=len(family), found=found)]
    for size, a, b in pairs:  # a measurable difference between models that all failed is not recall
        c = family[size]
        if c.verdict in ("higher", "lower") and learned(a) == learned(b) == 0:
            d, lo, hi = _points(c.mean, c.lo, c.hi)
            said.append(text(lang, "mqarf.chance", size=size, diff=d, lo=lo, hi=hi))
    return text(lang, "faq.sep_sentence").join(said)


def _made_up_followup(learned: dict[int, int]) -> tuple[dict, dict]:
    """A test result whose MLA models all fail, and a follow-up for it in which, at each d_c, the first
    learned[d_c] seeds learn with the norm (for the doctests)."""
    result = _made_up()
    models = []
    for m in result["data"]["models"]:
        if m["kind"] == "mla":
            m["accuracy"] = 0.15 + 0.001 * m["seed"]
            acc = 0.99 if m["seed"] < learned[m["size"]] else 0.15 + 0.001 * m["seed"]
            models.append(m | {"kind": "mla_norm", "accuracy": acc})
    return result, {"provenance": {"commit": "0" * 40}, "data": {"settings": [], "models": models}}


def _made_up() -> dict:
    """A result with known values, for the doctests: MQA fails 8 of its 10 seeds, the rest learn."""
    rng = np.random.default_rng(0)
    models = []
    for kind, size in P.SETTINGS:
        g, d_c = (None, size) if kind == "mla" else (size, None)
        for seed in P.SEEDS:
            acc = 0.99 + rng.normal(0, 0.003)
            if (kind, size) == ("gqa", 1) and seed >= 2:
                acc = 0.15
            models.append({"kind": kind, "size": size, "seed": seed, "accuracy": float(min(acc, 1.0)),
                           "curve": [[250, 0.2], [500, 0.9], [750, acc], [1000, acc]], "params": 1000,
                           "cache_numbers": P.cache_numbers(P.NUM_HEADS, g, d_c), "cpu_seconds": 60.0})
    proto = {k: getattr(P, k) for k in ("PAIRS", "SEQ_LEN", "NUM_HEADS", "STEPS", "BATCH", "LR", "EVAL_EVERY",
                                        "EVAL_SIZE", "LEARNED", "MINIMUM")}
    proto |= {"SEEDS": list(P.SEEDS), "SETTINGS": [list(s) for s in P.SETTINGS]}
    return {"provenance": {"commit": "0" * 40}, "data": {"protocol": proto, "models": models}}


def followup_quick(curve: list[float], every: int, steps: int, batch: int, size: int, d_latent: int,
                   lang: str) -> str:
    """One sentence on a short run of the normed MLA (train_mqar's curve, every `every` steps) beside chance
    (one value in VALUES) and the steps the experiment's models train for."""
    if not curve or any(not 0 <= a <= 1 for a in curve):
        raise ValueError(f"expected a non-empty curve of accuracies in [0, 1], got {curve!r}")
    if len(curve) != steps // every:
        raise ValueError(f"expected {steps // every} accuracies ({steps} steps, one every {every}), got {len(curve)}")
    sep = text(lang, "kvheads.list_sep")
    return text(lang, "mqarf.quick", d_c=d_latent, steps=steps, batch=batch, every=every, size=size,
                curve=sep.join(f"{a:.1%}" for a in curve), chance=1 / VALUES, full=P.STEPS)
