"""Comparing two settings trained with a few seeds: an interval on the difference, and the verdict it allows.

>>> diff, lo, hi = diff_interval([0.80, 0.82, 0.81], [0.90, 0.91, 0.93])
>>> round(diff, 3), lo > 0
(0.103, True)
>>> interval_verdict(-0.4, 0.06, ("lower", "higher", "no measurable difference"))
'no measurable difference'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["LEVEL", "diff_interval", "interval_verdict"]

LEVEL = 0.95


# --8<-- [start:interval]
def diff_interval(a, b, paired=True, level=LEVEL, n_boot=10_000, seed=0):
    """Mean of b minus mean of a, with a bootstrap interval over seeds.

    paired: a[i] and b[i] come from the same seed (same data), so a
    resample draws seeds and keeps each seed's pair together."""
    a, b = _check_samples(a, b, paired)
    rng = np.random.default_rng(seed)
    if paired:
        d = b - a  # one difference per seed
        boots = d[rng.integers(len(d), size=(n_boot, len(d)))].mean(1)
    else:
        ia = rng.integers(len(a), size=(n_boot, len(a)))
        ib = rng.integers(len(b), size=(n_boot, len(b)))
        boots = b[ib].mean(1) - a[ia].mean(1)
    lo, hi = np.quantile(boots, [(1 - level) / 2, (1 + level) / 2])
    return float(b.mean() - a.mean()), float(lo), float(hi)


def interval_verdict(lo, hi, words):
    """words: (b lower, b higher, no measurable difference)."""
    if hi < 0:
        return words[0]
    if lo > 0:
        return words[1]
    return words[2]  # the interval covers 0
# --8<-- [end:interval]


def _check_samples(a: Sequence[float], b: Sequence[float], paired: bool) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.ndim != 1 or b.ndim != 1 or len(a) < 2 or len(b) < 2:
        raise ValueError(f"a and b must be 1-D with at least 2 values each, got shapes {a.shape} and {b.shape}")
    if paired and len(a) != len(b):
        raise ValueError(f"paired samples must have the same length (one value per seed), got {len(a)} and {len(b)}")
    return a, b
