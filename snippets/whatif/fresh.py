"""§4 on ten more seeds, as the pages print it: the committed runs (results/whatif-sweeps.json, seeds 0-9; the
first round's seeds 0-4) beside the replication (results/whatif-replication.json, snippets.whatif.replication).

Nothing here trains. Counts of seeds past the bar carry their exact interval (snippets.stats.clopper_pearson);
the paired comparisons on the new seeds are one family, Holm-corrected, each also passing the exact sign-flip
test (snippets.stats.compare_family with sign_flip=True), as the second round's families do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import resultcache

from .. import stats
from .protocol import LEARNED, MINIMUM, SWEEPS
from .report import removable

__all__ = ["RESULT_NAME", "load_replication", "runs_of", "setting_name", "fresh_rows", "fresh_stats"]

RESULT_NAME = "whatif-replication.json"


def load_replication(path: Path | None = None) -> dict:
    """The committed replication's data: {"protocol": ..., "models": [...]} (provenance under "provenance")."""
    path = resultcache.results_dir() / RESULT_NAME if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"expected the committed replication at {path}; run "
                         "`python -m sitebuild.results whatif-replication`")
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {**raw["data"], "provenance": raw.get("provenance", {})}


def runs_of(data: dict, sweep: str, index: int) -> list[dict]:
    """One setting's runs in data (the sweeps' or the replication's), seeds in order."""
    out = sorted((m for m in data["models"] if m["sweep"] == sweep and m["index"] == index), key=lambda m: m["seed"])
    if not out:
        raise ValueError(f"expected runs of {sweep}[{index}] in the data, found none")
    return out


def setting_name(sweep: str, index: int) -> str:
    """A short key for a setting, used in fresh_stats' field names: dk3 (4 lookups, 3 heads), o6_4, dm3,
    p2x1f (2 layers x 1 head with the feed-forward layer), reg8.

    >>> setting_name("phase", 20), setting_name("fixed_dk", 2), setting_name("regime", 1)
    ('p2x1f', 'dk3', 'reg8')
    """
    c = SWEEPS[sweep][index]
    h = c["num_heads"]
    if sweep == "phase":
        return f"p{c['layers']}x{h}{'f' if c.get('ffn') else ''}"
    return {"fixed_dk": f"dk{h}", "offsets_6": f"o6_{h}", "fixed_dmodel": f"dm{h}", "regime": f"reg{h}"}[sweep]


def _acc(runs: Sequence[dict]) -> np.ndarray:
    return np.array([r["accuracy"] for r in runs])


def _count(runs: Sequence[dict]) -> int:
    return int((_acc(runs) >= LEARNED).sum())


def fresh_rows(sweeps: dict, rep: dict, labels: dict[str, str], brackets: str = "[]") -> list[list[object]]:
    """One row per replicated setting: its label (labels[sweep], fields {h} heads, {n} layers, {ffn} the
    labels["ffn"] suffix or ""), then for the committed seeds and for the new ones the seeds past the bar
    (k/n) and the mean accuracy, then all seeds together: k/n and the exact 95% interval on the share, in
    brackets (the page's: "[]" or full-width "［］")."""
    if len(brackets) != 2:
        raise ValueError(f"expected brackets as two characters, an opening and a closing one, got {brackets!r}")
    rows = []
    for sweep, index in (tuple(s) for s in rep["protocol"]["settings"]):
        c = SWEEPS[sweep][index]
        label = labels[sweep].format(h=c["num_heads"], n=c.get("layers", 1),
                                     ffn=labels["ffn"] if c.get("ffn") else "")
        old, new = runs_of(sweeps, sweep, index), runs_of(rep, sweep, index)
        k, n = _count(old) + _count(new), len(old) + len(new)
        lo, hi = stats.clopper_pearson(k, n)
        rows.append([label, f"{_count(old)}/{len(old)}", f"{_acc(old).mean():.1%}",
                     f"{_count(new)}/{len(new)}", f"{_acc(new).mean():.1%}",
                     f"{k}/{n} {brackets[0]}{100 * lo:.0f}–{100 * hi:.0f}%{brackets[1]}"])
    return rows


def fresh_stats(sweeps: dict, rep: dict, words: dict[str, str] | None = None) -> dict:
    """What the pages say about the replication, as fields of a sentence:

    - per setting (setting_name): old_<s>, new_<s> (seeds past the bar), n_old, n_new, seeds_lo..seeds_hi
      (the new seeds), mean_old_<s>, mean_new_<s>;
    - the family on the new seeds (Holm, sign-flip), paired by seed: deep_* = 3 x 1 minus 1 x 3, regime_* = 8
      minus 4 heads in the source's regime, each diff/lo/hi (points) and verdict (words[verdict] if given);
      deep_higher_new / deep_lower_new: seeds on which 3 x 1 scores higher / lower; pooled_* the same 3 x 1
      minus 1 x 3 over the committed and the new seeds together (its own comparison, the t interval alone: the
      exact sign-flip test enumerates at most 16 seeds);
    - pruning on the first round's new seeds (first_seeds_lo..hi, n_first): removable_<h>, drop_<h> /
      drop_lo_<h> / drop_hi_<h> at it and next_* one head more (points).
    """
    words = words or {}
    out: dict = {"learned_pct": 100 * LEARNED}
    settings = [tuple(s) for s in rep["protocol"]["settings"]]
    for sweep, index in settings:
        s = setting_name(sweep, index)
        old, new = runs_of(sweeps, sweep, index), runs_of(rep, sweep, index)
        out |= {f"old_{s}": _count(old), f"new_{s}": _count(new), f"mean_old_{s}": float(_acc(old).mean()),
                f"mean_new_{s}": float(_acc(new).mean()), "n_old": len(old), "n_new": len(new)}
    seeds = rep["protocol"]["seeds"]
    out |= {"seeds_lo": min(seeds), "seeds_hi": max(seeds), "n_all": out["n_old"] + out["n_new"]}
    by = {setting_name(s, i): (s, i) for s, i in settings}

    def acc(data: dict, name: str) -> np.ndarray:
        return _acc(runs_of(data, *by[name]))

    family = stats.compare_family([(acc(rep, "p1x3"), acc(rep, "p3x1")), (acc(rep, "reg4"), acc(rep, "reg8"))],
                                  minimum=MINIMUM, sign_flip=True)
    pooled = stats.compare_paired(np.r_[acc(sweeps, "p1x3"), acc(rep, "p1x3")],
                                  np.r_[acc(sweeps, "p3x1"), acc(rep, "p3x1")], minimum=MINIMUM)
    for name, c in (("deep", family[0]), ("regime", family[1]), ("pooled", pooled)):
        out |= {f"{name}_diff": 100 * c.mean, f"{name}_lo": 100 * c.lo, f"{name}_hi": 100 * c.hi,
                f"{name}_verdict": words.get(c.verdict, c.verdict), f"{name}_level": 100 * c.level}
    d = acc(rep, "p3x1") - acc(rep, "p1x3")
    out |= {"deep_higher_new": int((d > 0).sum()), "deep_lower_new": int((d < 0).sum())}
    first = rep["protocol"]["first_seeds"]
    out |= {"first_seeds_lo": min(first), "first_seeds_hi": max(first), "n_first": len(first)}
    for h in rep["protocol"]["first_heads"]:
        curves = [m["pruning"] for m in sorted(rep["models"], key=lambda m: m["seed"])
                  if m["sweep"] == "first" and m["index"] == h]
        out |= {f"{k}_{h}": v for k, v in removable(curves).items()}
    return out
