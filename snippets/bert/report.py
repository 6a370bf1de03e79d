"""The real-model page's tables and sentences, in the page's language, from the measurements in ``snippets.bert``.

The measuring modules (analysis, headstats, ablation, retrieval) compute, ``effects`` judges with
``snippets.stats``; this one only formats, with the words from ``snippets.i18n``. The page calls these functions in the blocks a reader sees.
"""

from __future__ import annotations

import statistics

import torch

from .. import i18n, stats
from ..logline import LOG_LINE
from ..tables import md_table
from .ablation import broad_heads_vs_clark, length_baseline
from .analysis import TEXTS, all_stats, wordpiece_rows
from .effects import retrieval_effects
from .headstats import CATEGORIES, STAT_OF, THRESHOLDS
from .loader import encode_text
from .logdata import PAIRS
from .retrieval import ablation_results

__all__ = ["quick_ablation", "wordpiece_table", "pair_examples", "text_table", "stats_table", "category_grid", "category_rows",
           "category_table",
           "finding", "entropy_by_category", "broad_removal", "smallest_detectable", "broad_vs_clark", "neighbour_heads", "special_tokens", "length_table",
           "length_summary", "ablation_scale", "two_minute_bullets",
           "layer_table", "layer_summary", "retrieval_verdicts", "retrieval_takeaway", "head_table"]


def _median(t: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """The median along dim; for an even count, the mean of the two middle
    values (torch.median returns the lower one), so the angles the page
    prints agree with the head table's percentiles."""
    return torch.quantile(t.double(), 0.5, dim=dim)


def wordpiece_table(lang: str, line: str = LOG_LINE) -> str:
    lab = i18n.texts(lang, "bert")
    return md_table([lab["field"], lab["split"]], wordpiece_rows(line))


def pair_examples(k: int = 3) -> str:
    """The first k retrieval pairs as a Markdown list: `message` → its rewording."""
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= len(PAIRS):
        raise ValueError(f"k must be an integer in 1 … {len(PAIRS)}, got {k!r}")
    return "\n".join(f"- `{message}` → {rewording}" for message, rewording in PAIRS[:k])


def text_table(lang: str, texts=TEXTS) -> str:
    """Per text: the text, its whitespace word count and its token count (with [CLS] and [SEP])."""
    lab = i18n.texts(lang, "bert")
    rows = [(t, len(t.split()), len(encode_text(t).tokens)) for t in texts]
    return md_table([lab["text"], lab["words"], lab["pieces"]], rows, align="lrr")


def stats_table(lang: str, texts=TEXTS) -> str:
    """Markdown table: one row per (layer, head) with every statistic and the category."""
    lab = i18n.texts(lang, "bert")
    stats, cats = all_stats(texts)
    rows = []
    for layer, row in enumerate(cats):
        for head, cat in enumerate(row):
            values = [stats[k][layer, head].item() for k in ("entropy", "norm_entropy", "cls", "sep", "prev", "next")]
            rows.append([layer, head, *(f"{v:.2f}" for v in values), lab[cat]])
    return md_table(lab["stats"], rows, align="rr" + "r" * 6 + "l")


def category_grid(lang: str, texts=TEXTS, legend: bool = False) -> str:
    """Markdown table: layers as rows, heads as columns, a short category label in each cell; with legend, a
    line under it saying what each label in the grid means."""
    lab = i18n.texts(lang, "bert")
    _, cats = all_stats(texts)
    headers = [lab["corner"]] + [str(h) for h in range(len(cats[0]))]
    rows = [[str(i)] + [lab[f"short.{c}"] for c in row] for i, row in enumerate(cats)]
    table = md_table(headers, rows, align="l" + "c" * len(cats[0]))
    grid = f'<div class="headgrid" markdown="1">\n\n{table}\n\n</div>'  # compact cells (headview.css)
    if not legend:
        return grid
    shown = {c for row in cats for c in row}
    items = [i18n.text(lang, f"bert.legend.{c}", mark=lab[f"short.{c}"], t=THRESHOLDS.get(c, 0))
             for c in CATEGORIES if c in shown]
    return grid + "\n\n" + i18n.text(lang, "bert.legend", items=lab["legend_sep"].join(items))


def two_minute_bullets(lang: str, texts=TEXTS) -> str:
    """The two-minute version's bullets after the equivalence: where the heads look (against Clark et al.), how
    far removing one head turns the embedding (and that the broad heads are no exception), and retrieval."""
    stats, cats = all_stats(texts)
    flat = [c for row in cats for c in row]
    count = {c: flat.count(c) for c in CATEGORIES}
    look = i18n.text(lang, "bert.box_look", n=len(flat), cls=count["cls"], sep=count["sep"],
                     cls_mean=stats["cls"].mean().item(), first=len(cats[0]),
                     broad_first=sum(c == "broad" for c in cats[0]), broad_t=THRESHOLDS["broad"],
                     prev=count["prev"], next=count["next"])
    res = ablation_results()
    med = _median(res["angles"])  # (n, h): each head's median angle over the texts
    layer, head = divmod(int(med.argmax()), med.size(1))
    broad = [med[i, j].item() for i, row in enumerate(cats) for j, c in enumerate(row) if c == "broad"]
    rest = [med[i, j].item() for i, row in enumerate(cats) for j, c in enumerate(row) if c != "broad"]
    turn = i18n.text(lang, "bert.box_turn", pair=_median(res["pair_angle"].flatten()).item(),
                     other=_median(res["other_angle"].flatten()).item(), all_med=_median(med.flatten()).item(),
                     n=med.numel(), layer=layer, head=head, med=med[layer, head].item(), broad_n=len(broad),
                     broad=statistics.median(broad), rest=statistics.median(rest))
    eff = retrieval_effects()
    survive = sum(v in ("lower", "higher") for row in eff["verdict"] for v in row)
    find = i18n.text(lang, "bert.box_retrieval", pairs=res["pairs"], acc=res["accuracy"], n=eff["family"],
                     survive=survive)
    return "\n".join(f"- {b}" for b in (look, turn, find))


def category_rows(lang: str, texts=TEXTS) -> list[tuple[str, str, int, str]]:
    """Per category: criterion, number of heads, and the heads with the statistic that placed them."""
    lab = i18n.texts(lang, "bert")
    stats, cats = all_stats(texts)
    rows = []
    for cat in CATEGORIES:
        if cat in ("prev", "next", "sep", "cls"):
            rule = lab["rule_share"].format(what=lab[cat], t=THRESHOLDS[cat])
        elif cat == "broad":
            rule = lab["rule_broad"].format(t=THRESHOLDS["broad"])
        else:
            rule = lab["rule_other"]
        members = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == cat]
        shown = members if cat != "other" else []
        which = lab["list_sep"].join(i18n.text(lang, "bert.head_value", head=f"{layer}-{head}",
                                               v=f"{stats[STAT_OF[cat]][layer, head].item():.2f}")
                                     for layer, head in shown)
        rows.append((lab[cat], rule, len(members), which or "—"))
    return rows


def category_table(lang: str, texts=TEXTS) -> str:
    return md_table(i18n.texts(lang, "bert")["cats"], category_rows(lang, texts), align="llrl")


def finding(lang: str, texts=TEXTS) -> str:
    """One sentence per language with the measured counts filled in."""
    stats, cats = all_stats(texts)
    flat = [c for row in cats for c in row]
    n, first = len(flat), len(cats[0])
    count = {c: flat.count(c) for c in CATEGORIES}
    cls_mean, sep_mean = stats["cls"].mean().item(), stats["sep"].mean().item()
    broad_first = sum(c == "broad" for c in cats[0])
    return i18n.text(lang, "bert.finding", n=n, cls=count["cls"], sep=count["sep"], cls_mean=cls_mean, sep_mean=sep_mean,
                first=first, broad_first=broad_first, prev=count["prev"], next=count["next"])


def entropy_by_category(lang: str, texts=TEXTS) -> str:
    """Mean entropy / ln T of the [CLS] heads and of the broad heads (1 would be uniform)."""
    stats, cats = all_stats(texts)
    ne = stats["norm_entropy"]
    mean = {}
    for cat in ("cls", "broad"):
        values = [ne[layer, head].item() for layer, row in enumerate(cats) for head, c in enumerate(row) if c == cat]
        mean[cat] = sum(values) / len(values) if values else float("nan")
    broad = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == "broad"]
    rest = [f"{layer}-{head}" for layer, head in broad if layer > 0]
    return i18n.text(lang, "bert.entropy", cls=mean["cls"], broad=mean["broad"], broad_n=len(broad),
                     broad_first=len(broad) - len(rest), broad_others=len(rest),
                     broad_rest=i18n.text(lang, "bert.list_sep").join(rest) or "—")


def broad_removal(lang: str, texts=TEXTS) -> str:
    """How far removing one broad (near-uniform) head turns the sentence embedding, against removing one of the
    other heads: the median over those heads of each head's median angle over the texts."""
    med = _median(ablation_results()["angles"])  # (n, h)
    _, cats = all_stats(texts)
    groups: dict[bool, list[float]] = {True: [], False: []}
    for layer, row in enumerate(cats):
        for head, c in enumerate(row):
            groups[c == "broad"].append(med[layer, head].item())
    return i18n.text(lang, "bert.broad_removal", n=len(groups[True]), broad=statistics.median(groups[True]),
                     others=len(groups[False]), other=statistics.median(groups[False]))


def broad_vs_clark(lang: str, texts=TEXTS) -> str:
    """How many broad heads layer 0 has, and how they compare with Clark et al.'s description (rarely > 10% on one
    word)."""
    _, cats = all_stats(texts)
    return i18n.text(lang, "bert.broad_vs_clark", first=len(cats[0]), broad_first=sum(c == "broad" for c in cats[0]),
                     **broad_heads_vs_clark(texts))


def neighbour_heads(lang: str, texts=TEXTS) -> str:
    """The previous-token and next-token heads, each with its mean share on that neighbour."""
    stats, cats = all_stats(texts)
    sep = i18n.text(lang, "bert.list_sep")

    def heads(cat):
        found = [i18n.text(lang, "bert.head_value", head=f"{layer}-{head}", v=f"{stats[cat][layer, head].item():.2f}")
                 for layer, row in enumerate(cats) for head, c in enumerate(row) if c == cat]
        return len(found), sep.join(found) or "—"

    (prev, prev_heads), (nxt, next_heads) = heads("prev"), heads("next")
    return i18n.text(lang, "bert.neighbours", prev=prev, prev_heads=prev_heads, next=nxt, next_heads=next_heads)


def special_tokens(lang: str, texts=TEXTS) -> str:
    """Where the [CLS] heads sit, layer by layer, and how much attention [CLS] and [SEP] get overall."""
    stats, cats = all_stats(texts)
    per_layer = [sum(c == "cls" for c in row) for row in cats]
    return i18n.text(lang, "bert.special", cls=sum(per_layer), last=len(cats) - 1,
                     per_layer=i18n.text(lang, "bert.list_sep").join(map(str, per_layer)),
                     sep=sum(c == "sep" for row in cats for c in row),
                     cls_mean=stats["cls"].mean().item(), sep_mean=stats["sep"].mean().item())


def _short(text: str, width: int = 42) -> str:
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def length_table(lang: str) -> str:
    """Per text: tokens, a uniform row's weight per token, and the broad heads' rows above 10%."""
    lab = i18n.texts(lang, "bert")
    rows = [(f"`{_short(r['text'])}`", r["tokens"], f"{r['uniform']:.1%}", f"{r['over_10']:.0%}")
            for r in length_baseline()]
    return md_table(lab["length"], rows, align="lrrr")


def length_summary(lang: str) -> str:
    """The length effect in one sentence: short texts against the long log excerpt."""
    rows = length_baseline()
    short, long = rows[:-1], rows[-1]
    return i18n.text(lang, "bert.length_summary", tmin=min(r["tokens"] for r in short),
                     tmax=max(r["tokens"] for r in short), umin=min(r["uniform"] for r in short),
                     umax=max(r["uniform"] for r in short), short_over=sum(r["over_10"] for r in short) / len(short),
                     t=long["tokens"], u=long["uniform"], long_over=long["over_10"])


def _level(level: float) -> str:
    """An interval's level as printed: 95%, 97.5%, 99.93%."""
    return f"{100 * level:.2f}".rstrip("0").rstrip(".") + "%"


def _interval(lang: str, eff, layer: int, head: int, lo: str = "lo", hi: str = "hi") -> str:
    """change [lo, hi] in points: the Holm-corrected interval, or with lo_95 / hi_95 the head's own 95% one
    (bert.interval; a Chinese page writes its minus signs as −)."""
    return i18n.text(lang, "bert.interval", d=100 * eff["delta"][layer, head].item(),
                     lo=100 * eff[lo][layer, head].item(), hi=100 * eff[hi][layer, head].item())


def ablation_scale(lang: str) -> str:
    """The full model's accuracy, the angles between texts, and the largest turn from removing one head."""
    res = ablation_results()
    ang = res["angles"]  # (n, h, N)
    med = _median(ang)  # (n, h)
    layer, head = divmod(int(med.argmax()), med.size(1))
    p10, p90 = torch.quantile(ang[layer, head].double(), torch.tensor([0.1, 0.9], dtype=torch.float64)).tolist()
    return i18n.text(lang, "bert.ablation_scale", pairs=res["pairs"], texts=ang.size(-1), acc=res["accuracy"],
                     pair=_median(res["pair_angle"].flatten()).item(),
                     other=_median(res["other_angle"].flatten()).item(),
                     head=f"{layer}-{head}", med=med[layer, head].item(), p10=p10, p90=p90,
                     all_med=_median(med.flatten()).item(), n=med.numel())


def layer_table(lang: str) -> str:
    """Per layer: the spread of its heads' median angles, and the head whose removal costs most retrieval."""
    lab = i18n.texts(lang, "bert")
    res, eff = ablation_results(), retrieval_effects()
    med = _median(res["angles"])  # (n, h)
    rows = []
    for layer in range(med.size(0)):
        m = med[layer]
        top, worst = int(m.argmax()), int(eff["delta"][layer].argmin())
        drops = eff["verdict"][layer].count("lower")  # Holm-corrected over every head of the model
        rows.append((layer, f"{m.min():.1f}°", f"{_median(m).item():.1f}°", i18n.text(lang, "bert.angle_head", a=m.max().item(), h=f"{layer}-{top}"),
                     i18n.text(lang, "bert.head_value", head=f"{layer}-{worst}",
                               v=_interval(lang, eff, layer, worst)), drops))
    return md_table(lab["layers"], rows, align="rrrlll")


def layer_summary(lang: str) -> str:
    """Why a cross-layer ranking by angle favours the last layer, with the numbers."""
    res = ablation_results()
    med = _median(res["angles"])  # (n, h)
    _, cats = all_stats(TEXTS)
    last = med.size(0) - 1
    return i18n.text(lang, "bert.layer_summary", last=last, last_min=med[last].min().item(),
                     before_max=med[:last].max().item(), other=sum(c == "other" for c in cats[last]),
                     heads=len(cats[last]))


def smallest_detectable(pairs: int, family: int) -> int:
    """The fewest of `pairs` pairs a head's removal must cost their whole score (changing no other pair) for the
    t interval at Holm's first step over `family` heads, the strictest one, to call it a drop; pairs + 1 if none.

    >>> smallest_detectable(34, 72)
    11
    """
    level = 1 - (1 - stats.LEVEL) / family
    for k in range(1, pairs + 1):
        if stats.compare_paired([0.0] * pairs, [-1.0] * k + [0.0] * (pairs - k), level).verdict == "lower":
            return k
    return pairs + 1


# The order a paragraph lists the verdicts in (snippets.stats.verdict's keys; "none" is the rest).
_EFFECTS = ("lower", "higher", "negligible")


def retrieval_verdicts(lang: str) -> str:
    """The verdicts on retrieval, Holm-corrected over every head (``effects``): which heads' removal measurably
    lowers or raises accuracy, and, for scale, how many heads' own 95% intervals would exclude 0 against what
    chance alone gives among that many heads."""
    lab = i18n.texts(lang, "bert")
    eff = retrieval_effects()
    _, cats = all_stats(TEXTS)
    n, h = eff["delta"].shape
    heads = [(layer, head) for layer in range(n) for head in range(h)]

    def refs(which, lo="lo", hi="hi"):
        return lab["list_sep"].join(i18n.text(lang, "bert.verdict_head", head=f"{layer}-{head}",
                                              cat=lab[cats[layer][head]], iv=_interval(lang, eff, layer, head, lo, hi))
                                    for layer, head in which)

    parts = [i18n.text(lang, "bert.verdict_family", n=len(heads))]
    found = {key: [lh for lh in heads if eff["verdict"][lh[0]][lh[1]] == key] for key in _EFFECTS}
    if not any(found.values()):
        layer, head = divmod(int(eff["p"].argmin()), h)
        parts.append(i18n.text(lang, "bert.verdict_all_none", pairs=eff["pairs"], n=len(heads),
                               head=f"{layer}-{head}", cat=lab[cats[layer][head]], iv=_interval(lang, eff, layer, head),
                               p=eff["p"][layer, head].item(), level=_level(eff["level"][layer, head].item())))
    else:
        parts += [i18n.text(lang, f"bert.verdict_{key}", k=len(which), heads=refs(which))
                  for key, which in found.items() if which]
        parts.append(i18n.text(lang, "bert.verdict_rest", k=len(heads) - sum(map(len, found.values())), n=len(heads),
                               pairs=eff["pairs"]))
    k = smallest_detectable(eff["pairs"], len(heads))
    parts.append(i18n.text(lang, "bert.verdict_power", pairs=eff["pairs"], k=k, points=100 * k / eff["pairs"]))
    # Each head's own 95% interval excludes 0 5% of the time by chance: among many heads, some will.
    alone = [lh for lh in heads if eff["verdict_95"][lh[0]][lh[1]] != "none"]
    if alone:
        parts.append(i18n.text(lang, "bert.verdict_alone", k=len(alone), n=len(heads), expected=0.05 * len(heads),
                               heads=refs(alone, "lo_95", "hi_95")))
    else:
        parts.append(i18n.text(lang, "bert.verdict_alone_none", n=len(heads)))
    return "".join(parts)


def retrieval_takeaway(lang: str) -> str:
    """The takeaway on retrieval, with the counts of retrieval_verdicts: how many heads' removal measurably changes
    accuracy with all heads tested together (Holm), and how many would seem to, judged one at a time."""
    eff = retrieval_effects()
    n_heads = eff["family"]
    flat = [v for row in eff["verdict"] for v in row]
    survive = sum(v in ("lower", "higher") for v in flat)
    k = sum(v != "none" for row in eff["verdict_95"] for v in row)
    key = "bert.takeaway_none" if survive == 0 else "bert.takeaway_some"
    out = i18n.text(lang, key, n=n_heads, survive=survive, pairs=eff["pairs"])
    if k:
        out += i18n.text(lang, "bert.takeaway_alone", k=k, expected=0.05 * n_heads)
    return out


def head_table(lang: str) -> str:
    """Every head: category, median angle with its 10–90% spread over the texts, retrieval change."""
    lab = i18n.texts(lang, "bert")
    res, eff = ablation_results(), retrieval_effects()
    ang = res["angles"].double()  # (n, h, N)
    q = torch.quantile(ang, torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64), dim=-1)  # (3, n, h)
    _, cats = all_stats(TEXTS)
    rows = [(f"{layer}-{head}", lab[cats[layer][head]], f"{q[1, layer, head]:.1f}°",
             f"{q[0, layer, head]:.1f}°–{q[2, layer, head]:.1f}°", _interval(lang, eff, layer, head),
             i18n.text(lang, "bert.effect_cell", verdict=lab[f"effect_{eff['verdict'][layer][head]}"],
                       level=_level(eff["level"][layer, head].item())))
            for layer in range(ang.size(0)) for head in range(ang.size(1))]
    return md_table(lab["heads_table"], rows, align="llrrll")


def quick_ablation(full: torch.Tensor, off: torch.Tensor, layer: int, head: int, lang: str) -> str:
    """Two texts' sentence vectors (2, E) with every head on (full) and with one head off: the angle between
    the texts each way, and how far each vector turned."""
    from .retrieval import angle_deg

    if not isinstance(full, torch.Tensor) or full.dim() != 2 or full.size(0) != 2 or full.shape != off.shape:
        raise ValueError(f"expected two texts' sentence vectors (2, E) each way, got "
                         f"{tuple(getattr(full, 'shape', ()))} and {tuple(getattr(off, 'shape', ()))}")
    turn = angle_deg(full, off)  # (2,)
    return i18n.text(lang, "bert.quick", both=float(angle_deg(full[0], full[1])),
                     both_off=float(angle_deg(off[0], off[1])), layer=layer, head=head,
                     turn_a=float(turn[0]), turn_b=float(turn[1]))
