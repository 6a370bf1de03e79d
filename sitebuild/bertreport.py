"""The real-model page's tables and sentences, from the measurements in ``snippets.bert``.

The measuring half (texts, attention maps, per-head statistics, categories) is lesson code;
this half only formats it in the page's language (strings from ``snippets.i18n``).
"""

from __future__ import annotations

from snippets import i18n
from snippets.bert.ablation import broad_heads_vs_clark, importance_by_category, ranked_heads, text_pair_shift
from snippets.bert.analysis import TEXTS, all_stats, wordpiece_rows
from snippets.bert.headstats import CATEGORIES, STAT_OF, THRESHOLDS
from snippets.bert.loader import encode
from snippets.logline import LOG_LINE
from snippets.tables import md_table

__all__ = ["wordpiece_table", "text_table", "stats_table", "category_grid", "category_rows", "category_table",
           "finding", "entropy_by_category", "importance_rows", "importance_table", "importance_summary",
           "broad_vs_clark"]


def wordpiece_table(lang: str, line: str = LOG_LINE) -> str:
    lab = i18n.texts(lang, "bert")
    return md_table([lab["field"], lab["split"]], wordpiece_rows(line))


def text_table(lang: str, texts=TEXTS) -> str:
    """Per text: the text, its whitespace word count and its token count (with [CLS] and [SEP])."""
    lab = i18n.texts(lang, "bert")
    rows = [(t, len(t.split()), len(encode(t).tokens)) for t in texts]
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


def category_grid(lang: str, texts=TEXTS) -> str:
    """Markdown table: layers as rows, heads as columns, a short category label in each cell."""
    lab = i18n.texts(lang, "bert")
    _, cats = all_stats(texts)
    headers = [lab["corner"]] + [str(h) for h in range(len(cats[0]))]
    rows = [[str(i)] + [lab[f"short.{c}"] for c in row] for i, row in enumerate(cats)]
    table = md_table(headers, rows, align="l" + "c" * len(cats[0]))
    return f'<div class="headgrid" markdown="1">\n\n{table}\n\n</div>'  # compact cells (headview.css)


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
        which = ", ".join(f"{layer}-{head}: {stats[STAT_OF[cat]][layer, head].item():.2f}" for layer, head in shown)
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
    return i18n.text(lang, "bert.entropy", cls=mean["cls"], broad=mean["broad"])


def importance_rows(lang: str, texts=TEXTS) -> list[tuple[str, int, str, str, str]]:
    """Per category: heads, mean and largest 1 − cos, and the head with the largest (layer-head)."""
    lab = i18n.texts(lang, "bert")
    groups = importance_by_category(texts)
    rows = []
    for cat in CATEGORIES:
        if cat not in groups:
            continue
        vals = groups[cat]
        top = max(vals, key=lambda v: v[2])
        mean = sum(v[2] for v in vals) / len(vals)
        rows.append((lab[cat], len(vals), f"{mean:.4f}", f"{top[2]:.4f}", f"{top[0]}-{top[1]}"))
    return rows


def importance_table(lang: str, texts=TEXTS) -> str:
    return md_table(i18n.text(lang, "bert.importance"), importance_rows(lang, texts), align="lrrrl")


def importance_summary(lang: str, texts=TEXTS, top: int = 5) -> str:
    """The most and least important heads, the median, the scale, and where the broad heads rank."""
    lab = i18n.texts(lang, "bert")
    ranked = ranked_heads(texts)
    n = len(ranked)

    def ref(layer, head, shift, cat):
        return i18n.text(lang, "bert.head_ref", layer=layer, head=head, cat=lab[cat], shift=shift)

    median = sorted(s for _, _, s, _ in ranked)[n // 2]
    out = i18n.text(lang, "bert.importance_summary", top=top, best=lab["list_sep"].join(ref(*r) for r in ranked[:top]),
                    least=ref(*ranked[-1]), n=n, median=median, scale=text_pair_shift(texts))
    broad = [i + 1 for i, r in enumerate(ranked) if r[3] == "broad"]
    if broad:
        out += i18n.text(lang, "bert.importance_broad", count=len(broad), n=n,
                         ranks=lab["list_sep"].join(map(str, broad)))
    return out


def broad_vs_clark(lang: str, texts=TEXTS) -> str:
    """How this page's broad heads compare with Clark et al.'s description (rarely > 10% on one word)."""
    return i18n.text(lang, "bert.broad_vs_clark", **broad_heads_vs_clark(texts))
