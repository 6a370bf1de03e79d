"""The real-model page's tables and sentences, from the measurements in ``snippets.bert``.

The measuring half (texts, attention maps, per-head statistics, categories) is lesson code;
this half only formats it in the page's language (strings from ``snippets.i18n``).
"""

from __future__ import annotations

from snippets import i18n
from snippets.bert.analysis import TEXTS, all_stats, wordpiece_rows
from snippets.bert.headstats import CATEGORIES, STAT_OF, THRESHOLDS
from snippets.bert.loader import encode
from snippets.logline import LOG_LINE
from snippets.tables import md_table

__all__ = ["wordpiece_table", "text_table", "stats_table", "category_grid", "category_rows", "category_table",
           "finding", "entropy_by_category"]


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
