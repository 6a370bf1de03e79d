"""The texts we run through the model, and the tables the page prints (labels from snippets.i18n).

>>> [row[1] for row in wordpiece_rows()][:3]
['202 · ##4 · - · 01 · - · 15', '10 · : · 30 · : · 45', 'error']
"""

from __future__ import annotations

import logging

import torch
from torch import Tensor

from resultcache import memory

from .. import i18n
from ..logline import LOG_LINE
from ..tables import md_table
from .headstats import CATEGORIES, THRESHOLDS, classify, head_stats
from .loader import encode, load_model, source_hash

__all__ = ["SENTENCES", "TEXTS", "attention_maps", "wordpiece_rows", "wordpiece_table", "text_table", "all_stats",
           "stats_table", "category_grid", "category_rows", "category_table", "strongest_heads", "finding",
           "entropy_by_category"]

log = logging.getLogger(__name__)

SENTENCES = (
    "The cat sat on the mat because it was tired.",
    "The on-call engineer restarted the database, and the errors stopped.",
    "She said she would call back after the meeting.",
)
TEXTS = (LOG_LINE, *SENTENCES)

@memory.cache
def _maps(text: str, code: str) -> tuple[Tensor, list[str]]:
    log.info("real model: attention maps of %r", text[:40])
    enc = encode(text)
    with torch.no_grad():
        _, maps = load_model()(enc.ids)
    return torch.stack([m[0] for m in maps]), enc.tokens  # (n, h, T, T)


def attention_maps(text: str) -> tuple[Tensor, list[str]]:
    """All attention maps of the pretrained model on one text: (n, h, T, T), and the T tokens (cached on disk)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    return _maps(text, source_hash())


def wordpiece_rows(line: str = LOG_LINE) -> list[tuple[str, str]]:
    """For each whitespace field of the line: the WordPieces that cover it."""
    enc = encode(line)
    rows, start = [], 0
    for field in line.split():
        begin = line.index(field, start)
        start = begin + len(field)
        pieces = [t for t, (a, b) in zip(enc.tokens, enc.offsets, strict=True) if b > a and begin <= a < start]
        rows.append((f"`{field}`", " · ".join(pieces)))
    return rows


def wordpiece_table(lang: str, line: str = LOG_LINE) -> str:
    lab = i18n.texts(lang, "bert")
    return md_table([lab["field"], lab["split"]], wordpiece_rows(line))


def text_table(lang: str, texts=TEXTS) -> str:
    """Per text: the text, its whitespace word count and its token count (with [CLS] and [SEP])."""
    lab = i18n.texts(lang, "bert")
    rows = [(t, len(t.split()), len(encode(t).tokens)) for t in texts]
    return md_table([lab["text"], lab["words"], lab["pieces"]], rows, align="lrr")


def all_stats(texts=TEXTS) -> tuple[dict[str, Tensor], list[list[str]]]:
    """Pooled per-head statistics over the texts, and each head's category."""
    stats = head_stats([attention_maps(t) for t in texts])
    return stats, classify(stats)


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
        which = ", ".join(f"{layer}-{head}: {stats[_STAT_OF[cat]][layer, head].item():.2f}" for layer, head in shown)
        rows.append((lab[cat], rule, len(members), which or "—"))
    return rows


def category_table(lang: str, texts=TEXTS) -> str:
    return md_table(i18n.texts(lang, "bert")["cats"], category_rows(lang, texts), align="llrl")


def strongest_heads(texts=TEXTS) -> list[tuple[str, int, int]]:
    """For each category that has members (except 'other'): the head with the highest statistic."""
    stats, cats = all_stats(texts)
    best = []
    for cat in CATEGORIES[:-1]:
        members = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == cat]
        if members:
            layer, head = max(members, key=lambda lh: stats[_STAT_OF[cat]][lh].item())
            best.append((cat, layer, head))
    return best


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
