"""§4 exercises: read the cached sweep, move a threshold, test the d_k = 1 argument, and look at a real model
(the second round's exercises are in snippets.exercises.s4b).

Everything here reads the §4 runs from the on-disk cache (snippets.whatif) or the pretrained model's cached
attention maps (snippets.bert); nothing is trained.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from ..bert.analysis import TEXTS, all_stats, bert_attention_maps
from ..bert.headstats import head_stats
from ..whatif.analysis import SEEDS, head_roles, sweep, specialisation
from ..whatif.report import SAMPLE_SEED
from ..whatif.model import D_MODEL
from ..whatif.task import make_batch
from ..whatif.train import load_model, train_run

__all__ = ["per_offset", "recovered", "roles_by_threshold", "favourite_keys", "NEW_SENTENCE", "prev_token_head", "per_offset_rows",
           "threshold_rows", "favourite_key_rows", "exercise_threshold_stats", "looks_at_line",
           "recovered_sentence"]


def _check_good(good: float) -> None:
    if not isinstance(good, float) or not 0 < good <= 1:
        raise ValueError(f"good must be a float in (0, 1], got {good!r}")


# --8<-- [start:per_offset]
def per_offset(heads=(2, 4), seeds=SEEDS, good=0.9):
    """Per head count and seed: held-out accuracy on each offset
    (−2, −1, +1, +2), and how many offsets reach `good`."""
    _check_good(good)
    rows = []
    for run in sweep(heads=list(heads), seeds=list(seeds)):
        acc = run["acc_by_offset"]  # one accuracy per offset
        n_good = sum(a >= good for a in acc)
        rows.append((run["num_heads"], run["seed"], acc, n_good))
    return rows


def recovered(rows, good=0.9):
    """(seed, offset) pairs the fewest-head models miss, and how many
    of them the most-head models with the same seed answer well."""
    few, most = min(r[0] for r in rows), max(r[0] for r in rows)
    acc = {(h, seed): a for h, seed, a, _ in rows}
    missed = [(seed, i) for h, seed, a, _ in rows if h == few
              for i, x in enumerate(a) if x < good]
    back = [(s, i) for s, i in missed if acc[most, s][i] >= good]
    return missed, back
# --8<-- [end:per_offset]


def recovered_sentence(missed: Sequence, back: Sequence, lang: str) -> str:
    """What recovered found, in the page's words: how many (seed, offset) pairs the 2-head models miss, and how many
    of them the 4-head models with the same seeds answer well (none, some, or all of them)."""
    from ..i18n import text

    key = "none" if not back else "all" if len(back) == len(missed) else "some"
    return text(lang, f"s4.recovered_{key}", missed=len(missed), back=len(back))


def _check_thresholds(thresholds: Sequence[float]) -> None:
    if not thresholds or not all(isinstance(t, (int, float)) and 0 < t <= 1 for t in thresholds):
        raise ValueError(f"thresholds must be a non-empty list of numbers in (0, 1], got {thresholds!r}")


# --8<-- [start:roles_by_threshold]
def roles_by_threshold(thresholds, num_heads=8, seeds=SEEDS):
    """Heads with a role (one offset holding >= threshold of its
    attention), per threshold, summed over the seeds' models."""
    _check_thresholds(thresholds)
    shares = [specialisation(train_run(num_heads, s))[0] for s in seeds]
    rows = []
    for t in thresholds:
        roles = [head_roles(sh, threshold=t) for sh in shares]
        n = sum(r is not None for rs in roles for r in rs)
        rows.append((t, n, num_heads * len(seeds)))
    return rows
# --8<-- [end:roles_by_threshold]


# --8<-- [start:favourite_keys]
def favourite_keys(num_heads=32, seed=0, stream=SAMPLE_SEED):
    """For each head: the distinct keys that some query of one
    stream weights most (its argmax), as a sorted list."""
    model = load_model(train_run(num_heads, seed))  # cached in §4
    x, _ = make_batch(1, seed=stream)  # (1, L): one stream
    with torch.no_grad():
        _, w = model(x, need_weights=True)  # (1, h, L, L)
    top = w[0].argmax(dim=-1)  # (h, L): each query's top key
    return [sorted(set(t.tolist())) for t in top]
# --8<-- [end:favourite_keys]


NEW_SENTENCE = "After the deploy, the checkout page slowed down and users left."


# --8<-- [start:prev_token_head]
def prev_token_head(text=NEW_SENTENCE):
    """The (layer, head) whose mean weight on the previous token is
    highest on this text; what each token looks at most in that head;
    and the head that wins on the lab page's texts."""
    maps, tokens = bert_attention_maps(text)  # (n, h, T, T), T tokens
    prev = head_stats([(maps, tokens)])["prev"]  # (n, h)
    layer, head = divmod(int(prev.argmax()), prev.size(1))
    top = maps[layer, head].argmax(dim=-1)  # (T,): each query's key
    pooled = all_stats(TEXTS)[0]["prev"]  # (n, h), the lab page's texts
    return {"head": (layer, head), "prev": prev[layer, head].item(),
            "looks_at": [(t, tokens[j]) for t, j in zip(tokens, top)],
            "page_head": divmod(int(pooled.argmax()), pooled.size(1))}
# --8<-- [end:prev_token_head]


def per_offset_rows(heads: Sequence[int] = (2, 4)) -> list[tuple]:
    """per_offset as printable rows: heads, seed, accuracy per offset in %, offsets reaching 90%."""
    return [(h, s, *(f"{a:.1%}" for a in acc), n) for h, s, acc, n in per_offset(heads)]


def threshold_rows(thresholds: Sequence[float], heads: Sequence[int] = (4, 8)) -> list[tuple]:
    """roles_by_threshold for each head count side by side: (threshold, 'with a role / all heads', ...)."""
    columns = [roles_by_threshold(thresholds, h) for h in heads]
    return [(t, *(f"{col[i][1]} / {col[i][2]}" for col in columns)) for i, t in enumerate(thresholds)]


def favourite_key_rows(heads: Sequence[int] = (32, 16, 4), seed: int = 0) -> list[tuple[int, int, int, int]]:
    """(h, d_k, fewest favourite keys of any head, most favourite keys of any head)."""
    rows = []
    for h in heads:
        counts = [len(keys) for keys in favourite_keys(h, seed)]
        rows.append((h, D_MODEL // h, min(counts), max(counts)))
    return rows


def exercise_threshold_stats(thresholds: Sequence[float], heads: Sequence[int] = (4, 8)) -> dict:
    """For the sentence under the threshold table: lowest / highest threshold, and per head count h the heads with
    a role at the lowest (first_<h>) and highest (last_<h>) threshold, all_<h> (heads over all seeds), and
    weakest_<h> (the smallest share any head puts on its favourite offset)."""
    ts = sorted(thresholds)
    stats: dict = {"lowest": ts[0], "highest": ts[-1]}
    for h in heads:
        rows = roles_by_threshold(ts, h)
        shares = [specialisation(train_run(h, s))[0] for s in SEEDS]
        stats.update({f"first_{h}": rows[0][1], f"last_{h}": rows[-1][1], f"all_{h}": rows[0][2],
                      f"weakest_{h}": float(min(sh.max(axis=1).min() for sh in shares))})
    return stats


def looks_at_line(result: dict, sep: str = " · ") -> str:
    """prev_token_head(...)["looks_at"] as one line: 'token→favourite · token→favourite · …'."""
    if not isinstance(result, dict) or "looks_at" not in result:
        raise ValueError(f"result must be a dict returned by prev_token_head, got {type(result).__name__}")
    return sep.join(f"{t}→{k}" for t, k in result["looks_at"])
