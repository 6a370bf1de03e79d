"""The texts we run through the model, its attention maps, and each head's statistics and category.

The page's tables and sentences are made from these in ``snippets.bert.report``.

>>> [row[1] for row in wordpiece_rows()][:3]
['202 · ##4 · - · 01 · - · 15', '10 · : · 30 · : · 45', 'error']
"""

from __future__ import annotations

import logging

import torch
from torch import Tensor

from resultcache import memory

from ..logline import LOG_LINE
from .headstats import CATEGORIES, STAT_OF, classify, head_stats
from .loader import encode_text, load_model, one_thread, source_hash

__all__ = ["SENTENCES", "TEXTS", "bert_attention_maps", "wordpiece_rows", "all_stats", "strongest_heads"]

log = logging.getLogger(__name__)

SENTENCES = (
    "The cat sat on the mat because it was tired.",
    "The on-call engineer restarted the database, and the errors stopped.",
    "She said she would call back after the meeting.",
)
TEXTS = (LOG_LINE, *SENTENCES)

@memory.cache
@one_thread
def _maps(text: str, code: str) -> tuple[Tensor, list[str]]:
    log.info("real model: attention maps of %r", text[:40])
    enc = encode_text(text)
    with torch.no_grad():
        _, maps = load_model()(enc.ids)
    return torch.stack([m[0] for m in maps]), enc.tokens  # (n, h, T, T)


def bert_attention_maps(text: str) -> tuple[Tensor, list[str]]:
    """All attention maps of the pretrained model on one text: (n, h, T, T), and the T tokens (cached on disk)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    return _maps(text, source_hash())


def wordpiece_rows(line: str = LOG_LINE) -> list[tuple[str, str]]:
    """For each whitespace field of the line: the WordPieces that cover it."""
    enc = encode_text(line)
    rows, start = [], 0
    for field in line.split():
        begin = line.index(field, start)
        start = begin + len(field)
        pieces = [t for t, (a, b) in zip(enc.tokens, enc.offsets, strict=True) if b > a and begin <= a < start]
        rows.append((f"`{field}`", " · ".join(pieces)))
    return rows


def all_stats(texts=TEXTS) -> tuple[dict[str, Tensor], list[list[str]]]:
    """Pooled per-head statistics over the texts, and each head's category."""
    stats = head_stats([bert_attention_maps(t) for t in texts])
    return stats, classify(stats)


def strongest_heads(texts=TEXTS) -> list[tuple[str, int, int]]:
    """For each category that has members (except 'other'): the head with the highest statistic."""
    stats, cats = all_stats(texts)
    best = []
    for cat in CATEGORIES[:-1]:
        members = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == cat]
        if members:
            layer, head = max(members, key=lambda lh: stats[STAT_OF[cat]][lh].item())
            best.append((cat, layer, head))
    return best
