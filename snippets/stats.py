"""The site's one statistics module: every comparison a page prints goes through here.

Two settings trained with the same seeds are compared seed by seed: the paired differences b - a.
If the two settings were really the same, swapping their labels would change nothing, so under that
null hypothesis each difference is as likely to be +d as -d: its distribution is symmetric about 0.
The interval on the mean difference is Student's t interval. Its false-positive rate under that null
is measured, not assumed (``false_positive_rate``): at the seed counts the pages use (5 to 12, and the
30 rounds of the timings) and for normal, heavy-tailed and two-peaked ("one setting learned, the other
not") differences, a nominal 95% t interval excludes 0 in at most 7% of simulated trials, where the
percentile bootstrap the site used before excludes it in about 17% at 5 seeds (``tests/test_stats.py``
holds these numbers). Below 5 seeds the t interval fails that test for two-peaked differences (about
25% at 3 seeds: three seeds that all happen to fall on one peak look very consistent), so a comparison
needs at least MIN_SEEDS = 5; an outcome that splits into "learned" and "did not learn" is better
reported in two parts (``learned_split``).

When a page prints a family of comparisons (a sweep, a grid), the verdicts are corrected over the
family with Holm's step-down method (``compare_family``), and each interval is printed at the level its
step used, so an interval excludes 0 exactly when its verdict is a difference. Holm's steps test at
5%/m, far out in the tails, and there the t test is not held for two-peaked differences: with m = 7 or
16 comparisons a family calls a false difference in about 15% of simulated null families at 10 seeds
and 35-65% at 5 (``family_error_rate``), because all seeds landing on one peak (2 / 2^n) looks like a
consistent difference. ``compare_family(..., sign_flip=True)`` also requires the exact sign-flip test,
which holds 5% for every symmetric null by construction; §4's families use it.

What none of this covers: differences with mean 0 that are not symmetric (one setting now and then
fails and is otherwise slightly better; log-normal spreads). There the settings are not interchangeable,
and both tests call a difference far more often than 5% (a third or more at 10 seeds): from 5 or 10
seeds no method tells "slightly better, rarely far worse, equal on average" from "better". A verdict
says that one setting did better seed by seed, not that its mean over all seeds would be higher.

The verdict words come from ``verdict`` alone: b higher, b lower, no measurable difference at n seeds,
or a difference smaller than the minimum that matters (e.g. 1 point of accuracy).

>>> c = compare_paired([0.80, 0.82, 0.81, 0.79, 0.80], [0.90, 0.91, 0.93, 0.90, 0.92])
>>> round(c.mean, 3), c.lo > 0, c.verdict
(0.108, True, 'higher')
>>> compare_paired([0.5, 0.6, 0.7, 0.6, 0.5], [0.6, 0.5, 0.7, 0.6, 0.55]).verdict
'none'
>>> round(t_quantile(0.975, 4), 4), round(t_quantile(0.975, 9), 4)
(2.7764, 2.2622)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["LEVEL", "MIN_SEEDS", "Comparison", "t_cdf", "t_quantile", "t_interval", "compare_paired", "compare_family",
           "holm", "verdict", "fisher_exact", "LearnedSplit", "learned_split", "percentile_bootstrap",
           "false_positive_rate", "NULL_SHAPES", "SKEWED_SHAPES", "sign_flip_p", "clopper_pearson",
           "family_error_rate"]

LEVEL = 0.95  # every interval on the site is 95%, corrected over its family where there is one
MIN_SEEDS = 5  # fewer paired values than this and the t interval's false-positive rate is not held


# --8<-- [start:t_interval]
def t_interval(d, level=LEVEL):
    """Mean of the paired differences d and Student's t interval for it."""
    d = _check_diffs(d)
    n, mean = len(d), float(d.mean())
    se = float(d.std(ddof=1)) / math.sqrt(n)  # standard error of the mean
    half = t_quantile((1 + level) / 2, n - 1) * se
    return mean, mean - half, mean + half
# --8<-- [end:t_interval]


# --8<-- [start:verdict]
def verdict(lo, hi, minimum=0.0):
    """The one place a verdict is decided, from an interval on b - a.

    'higher' / 'lower': the interval lies on one side of 0 and reaches
    past the minimum that matters; 'negligible': it excludes 0 but lies
    inside (-minimum, +minimum); 'none': it covers 0, so at these seeds
    there is no measurable difference."""
    if lo <= 0 <= hi:
        return "none"
    if minimum > 0 and -minimum < lo and hi < minimum:
        return "negligible"
    return "higher" if lo > 0 else "lower"
# --8<-- [end:verdict]


@dataclass(frozen=True)
class Comparison:
    """b - a over n paired seeds: mean, interval [lo, hi] at `level`, two-sided p and the verdict."""

    mean: float
    lo: float
    hi: float
    n: int
    p: float
    level: float
    verdict: str
    mean_a: float = math.nan
    mean_b: float = math.nan
    family: int = 1  # how many comparisons the correction covered
    extra: dict = field(default_factory=dict, compare=False)


def compare_paired(a, b, level=LEVEL, minimum=0.0, sign_flip=False) -> Comparison:
    """One comparison of b with a, paired by seed (a[i] and b[i] share seed i).

    sign_flip=True: a difference must also pass the exact sign-flip test (``sign_flip_p``) at the same level;
    otherwise the verdict is 'none' (see ``compare_family``)."""
    a, b = _check_pair(a, b)
    d = b - a
    mean, lo, hi = t_interval(d, level)
    p_t = _t_p(d)
    p = max(p_t, sign_flip_p(d)) if sign_flip else p_t
    word = verdict(lo, hi, minimum) if not sign_flip or p < 1 - level else "none"
    return Comparison(mean, lo, hi, len(d), p, level, word, float(a.mean()), float(b.mean()),
                      extra={"p_t": p_t, "sign_flip": bool(sign_flip)})


# --8<-- [start:holm]
def holm(p, alpha=1 - LEVEL):
    """Holm's step-down correction. Returns, per comparison, whether it
    is a difference and the level its interval is printed at.

    Sorted by p, the k-th smallest is tested at alpha / (m - k + 1); the
    first that fails stops the procedure, and every later one is printed
    at that failing step's level (its interval then covers 0 too)."""
    p = np.asarray(p, dtype=float)
    m = len(p)
    reject, levels = np.zeros(m, bool), np.empty(m)
    stopped_at = None
    for k, i in enumerate(np.argsort(p, kind="stable")):
        step = stopped_at if stopped_at is not None else k
        alpha_k = alpha / (m - step)
        if stopped_at is None and p[i] < alpha_k:
            reject[i] = True
        elif stopped_at is None:
            stopped_at = k
        levels[i] = 1 - alpha_k
    return reject, levels
# --8<-- [end:holm]


def compare_family(pairs: Sequence[tuple[Sequence[float], Sequence[float]]], level=LEVEL,
                   minimum=0.0, sign_flip=False) -> list[Comparison]:
    """Several paired comparisons that make one family (one sweep, one grid), Holm-corrected.

    Each Comparison's interval is at the level Holm's procedure tested it at, so it excludes 0 exactly
    when the corrected verdict is a difference.

    sign_flip=True: each comparison's p is the larger of the t test's and the exact sign-flip test's
    (``sign_flip_p``), so the family holds its 5% for any symmetric null, two-peaked included, where the t
    test alone does not at Holm's small steps (``family_error_rate``; tests/test_stats.py). A comparison
    whose t interval excludes 0 but whose sign-flip test does not pass its step is then 'none'. With 5
    seeds the sign-flip p is at least 1/16, so such a family can call no difference at all.

    >>> base = [0.5, 0.6, 0.7, 0.55, 0.65]
    >>> fam = compare_family([(base, [x + 0.1 for x in base]), (base, [0.55, 0.58, 0.71, 0.5, 0.66])])
    >>> [c.verdict for c in fam], [round(c.level, 3) for c in fam], fam[0].family
    (['higher', 'none'], [0.975, 0.95], 2)
    """
    if not pairs:
        raise ValueError("expected at least one (a, b) pair of seed values, got none")
    checked = [_check_pair(a, b) for a, b in pairs]
    p_ts = [_t_p(b - a) for a, b in checked]
    ps = [max(p, sign_flip_p(b - a)) for p, (a, b) in zip(p_ts, checked)] if sign_flip else p_ts
    reject, levels = holm(ps, 1 - level)
    out = []
    for (a, b), p, p_t, lev, r in zip(checked, ps, p_ts, levels, reject, strict=True):
        mean, lo, hi = t_interval(b - a, float(lev))
        out.append(Comparison(mean, lo, hi, len(a), p, float(lev), verdict(lo, hi, minimum) if r or not sign_flip else "none",
                              float(a.mean()), float(b.mean()), len(pairs),
                              extra={"p_t": p_t, "sign_flip": bool(sign_flip)}))
    return out


# ---- learned or not: the two parts of a split outcome -------------------------------------------------

def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided Fisher exact test of k1/n1 against k2/n2 (e.g. seeds that learned): p-value.

    >>> round(fisher_exact(8, 10, 6, 10), 2), fisher_exact(5, 5, 5, 5)
    (0.63, 1.0)
    """
    for name, v in (("n1", n1), ("n2", n2)):
        if not isinstance(v, int) or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if not (0 <= k1 <= n1 and 0 <= k2 <= n2):
        raise ValueError(f"expected 0 <= k1 <= n1 and 0 <= k2 <= n2, got k1={k1}, n1={n1}, k2={k2}, n2={n2}")
    k, n = k1 + k2, n1 + n2

    def prob(x):  # P(first group has x of the k) with margins fixed
        return math.comb(n1, x) * math.comb(n2, k - x) / math.comb(n, k)

    observed = prob(k1)
    lo, hi = max(0, k - n2), min(k, n1)
    return min(1.0, round(sum(prob(x) for x in range(lo, hi + 1) if prob(x) <= observed * (1 + 1e-9)), 12))


@dataclass(frozen=True)
class LearnedSplit:
    """A split outcome: how many seeds learned in each setting (exact test between them), and the mean
    and range of the outcome among the seeds that learned."""

    learned_a: int
    learned_b: int
    n_a: int
    n_b: int
    p_share: float
    among_a: tuple[float, float, float]  # mean, lowest, highest among the seeds that learned (nan if none)
    among_b: tuple[float, float, float]


def learned_split(a, b, threshold: float) -> LearnedSplit:
    """Seeds at or above threshold count as having learned.

    >>> s = learned_split([0.99, 0.98, 0.3, 0.97], [0.2, 0.99, 0.25, 0.3], threshold=0.9)
    >>> s.learned_a, s.learned_b, round(s.p_share, 2), s.among_b[0]
    (3, 1, 0.49, 0.99)
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.ndim != 1 or b.ndim != 1 or not len(a) or not len(b):
        raise ValueError(f"a and b must be non-empty 1-D sequences, got shapes {a.shape} and {b.shape}")

    def among(x):
        got = x[x >= threshold]
        return (float(got.mean()), float(got.min()), float(got.max())) if len(got) else (math.nan,) * 3

    ka, kb = int((a >= threshold).sum()), int((b >= threshold).sum())
    return LearnedSplit(ka, kb, len(a), len(b), fisher_exact(ka, len(a), kb, len(b)), among(a), among(b))


# ---- the interval's false-positive rate, measured -----------------------------------------------------

def percentile_bootstrap(d, level=LEVEL, n_boot=2000, rng=None):
    """The method this site used before: resample the seeds, keep the middle `level` of the means.
    Kept to show, by simulation, why it was replaced: with a handful of seeds it is too narrow."""
    d = _check_diffs(d)
    rng = np.random.default_rng(0) if rng is None else rng
    boots = d[rng.integers(len(d), size=(n_boot, len(d)))].mean(1)
    lo, hi = np.quantile(boots, [(1 - level) / 2, (1 + level) / 2])
    return float(d.mean()), float(lo), float(hi)


def sign_flip_p(d) -> float:
    """Exact two-sided sign-flip permutation p-value for mean(d) = 0 (all 2^n sign patterns, n <= 16).
    Needs no normality; with n seeds it can never go below 2 / 2^n (0.0625 at n = 5).

    >>> sign_flip_p([1.0, 2.0, 3.0, 4.0, 5.0])
    0.0625
    """
    d = _check_diffs(d)
    if len(d) > 16:
        raise ValueError(f"sign_flip_p enumerates 2^n patterns: expected at most 16 values, got {len(d)}")
    n = len(d)
    signs = 1 - 2 * ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1)  # (2^n, n) of +-1
    stats = np.abs((signs * d).sum(1))
    return float((stats >= abs(d.sum()) * (1 - 1e-12)).mean())


NULL_SHAPES = ("normal", "heavy-tailed", "two-peaked")  # symmetric about 0: the two settings interchangeable
# Skewed, mean 0, not symmetric: the settings differ in how their seeds spread, not in their mean.
SKEWED_SHAPES = ("log-normal", "now-and-then-fails")


def _null_draws(shape: str, trials: int, n: int, rng) -> np.ndarray:
    """Paired differences whose mean is 0. NULL_SHAPES are symmetric about 0, as swapping the labels of two
    interchangeable settings requires; SKEWED_SHAPES are not (equal means, unequal spreads)."""
    if shape == "normal":
        return rng.standard_normal((trials, n))
    if shape == "heavy-tailed":  # Student t with 3 degrees of freedom
        return rng.standard_t(3, (trials, n))
    if shape == "two-peaked":  # one setting learned, the other not, in random order: +-1 plus noise
        return rng.choice([-1.0, 1.0], (trials, n)) + 0.1 * rng.standard_normal((trials, n))
    if shape == "log-normal":  # exp(Z) - E exp(Z): most seeds a little below 0, a few far above
        return np.exp(rng.standard_normal((trials, n))) - math.exp(0.5)
    if shape == "now-and-then-fails":  # b slightly better at 9 seeds in 10, far worse at the tenth
        fails = rng.random((trials, n)) < 0.1
        return np.where(fails, -0.9, 0.1) + 0.1 * rng.standard_normal((trials, n))
    raise ValueError(f"shape must be one of {NULL_SHAPES + SKEWED_SHAPES}, got {shape!r}")


def _sign_flip_ps(d: np.ndarray) -> np.ndarray:
    """sign_flip_p of each row of d (rows, n), n <= 16, vectorised."""
    n = d.shape[1]
    signs = 1.0 - 2 * ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1)  # (2^n, n)
    out = np.empty(len(d))
    for start in range(0, len(d), 256):
        chunk = d[start:start + 256]
        stats_ = np.abs(chunk @ signs.T)  # (rows, 2^n)
        out[start:start + 256] = (stats_ >= np.abs(chunk.sum(1))[:, None] * (1 - 1e-12)).mean(1)
    return out


def family_error_rate(method: str, n: int, m: int, shape: str = "normal", trials: int = 2000,
                      level=LEVEL, seed: int = 0) -> float:
    """Share of simulated families of m comparisons, none with a true difference in mean, in which Holm's
    method calls at least one a difference (the family-wise error; 5% is what a 95% family promises).

    method: 't' (the t test's p, as compare_family), 'sign-flip' (sign_flip_p, exact for symmetric nulls) or
    't+sign-flip' (the larger of the two, as compare_family(..., sign_flip=True)).

    >>> family_error_rate("sign-flip", 5, 7, trials=200)  # 5 seeds: the smallest p is 1/16, never < 5%/7
    0.0
    """
    if method not in ("t", "sign-flip", "t+sign-flip"):
        raise ValueError(f"method must be 't', 'sign-flip' or 't+sign-flip', got {method!r}")
    if not isinstance(n, int) or not 2 <= n <= 16:
        raise ValueError(f"n must be an integer from 2 to 16 (seeds), got {n!r}")
    if not isinstance(m, int) or m < 1:
        raise ValueError(f"m must be a positive integer (comparisons in the family), got {m!r}")
    if not isinstance(trials, int) or trials < 100:
        raise ValueError(f"trials must be an integer >= 100, got {trials!r}")
    rng = np.random.default_rng(seed)
    d = _null_draws(shape, trials * m, n, rng)  # (trials * m, n)
    # Holm calls some comparison a difference exactly when the smallest p is below alpha / m; for the
    # t test that is |t| above the t quantile at 1 - alpha / (2m)
    alpha = (1 - level) / m
    t = np.abs(d.mean(1)) / (d.std(1, ddof=1) / math.sqrt(n))
    by_t = t > t_quantile(1 - alpha / 2, n - 1)
    if method == "t":
        hit = by_t
    elif method == "sign-flip":
        hit = _sign_flip_ps(d) < alpha
    else:  # 't+sign-flip': the larger of the two p's, so only rows the t test calls need the sign flips
        hit = by_t.copy()
        hit[by_t] = _sign_flip_ps(d[by_t]) < alpha if by_t.any() else []
    return float(hit.reshape(trials, m).any(1).mean())


def clopper_pearson(k: int, n: int, level=LEVEL) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval on a share k of n, e.g. seeds past a bar: it covers the true share
    in at least `level` of repeats, whatever the share.

    >>> [round(x, 3) for x in clopper_pearson(9, 10)], [round(x, 3) for x in clopper_pearson(10, 10)]
    ([0.555, 0.997], [0.692, 1.0])
    """
    if not isinstance(n, int) or n < 1 or not isinstance(k, int) or not 0 <= k <= n:
        raise ValueError(f"expected integers 0 <= k <= n, n >= 1, got k={k!r}, n={n!r}")
    if not 0 < level < 1:
        raise ValueError(f"level must be strictly between 0 and 1, got {level!r}")
    tail = (1 - level) / 2

    def solve(f, target):  # the share x in (0, 1) with f(x) = target, f increasing
        lo, hi = 0.0, 1.0
        for _ in range(100):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) < target else (lo, mid)
        return (lo + hi) / 2

    # lower: P(X >= k | x) = tail, i.e. I_x(k, n - k + 1) = tail; upper: P(X <= k | x) = tail
    lower = 0.0 if k == 0 else solve(lambda x: _betainc(k, n - k + 1, x), tail)
    upper = 1.0 if k == n else solve(lambda x: _betainc(k + 1, n - k, x), 1 - tail)
    return lower, upper


def false_positive_rate(method: str, n: int, shape: str = "normal", trials: int = 20_000, level=LEVEL,
                        seed: int = 0, n_boot: int = 1000) -> float:
    """Share of simulated null comparisons (n paired seeds, no true difference) whose interval excludes 0.

    method: 't' (this site's interval) or 'percentile-bootstrap' (the old one). A 95% interval should
    exclude 0 in about 5% of trials.

    >>> false_positive_rate("t", 5, trials=4000) < 0.065
    True
    """
    if method not in ("t", "percentile-bootstrap"):
        raise ValueError(f"method must be 't' or 'percentile-bootstrap', got {method!r}")
    if not isinstance(n, int) or n < 2:
        raise ValueError(f"n must be an integer >= 2 (seeds), got {n!r}")
    if not isinstance(trials, int) or trials < 100:
        raise ValueError(f"trials must be an integer >= 100, got {trials!r}")
    rng = np.random.default_rng(seed)
    d = _null_draws(shape, trials, n, rng)  # (trials, n)
    mean = d.mean(1)
    if method == "t":
        half = t_quantile((1 + level) / 2, n - 1) * d.std(1, ddof=1) / math.sqrt(n)
        lo, hi = mean - half, mean + half
    else:
        out_lo, out_hi = np.empty(trials), np.empty(trials)
        for start in range(0, trials, 500):  # in chunks: (500, n_boot, n) at a time
            chunk = d[start:start + 500]
            idx = rng.integers(n, size=(len(chunk), n_boot, n))
            boots = np.take_along_axis(chunk[:, None, :].repeat(n_boot, 1), idx, 2).mean(2)
            out_lo[start:start + 500], out_hi[start:start + 500] = np.quantile(
                boots, [(1 - level) / 2, (1 + level) / 2], axis=1)
        lo, hi = out_lo, out_hi
    return float(((lo > 0) | (hi < 0)).mean())


# ---- Student's t, without scipy ---------------------------------------------------------------------

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    if not df > 0:
        raise ValueError(f"df must be positive, got {df!r}")
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def t_quantile(q: float, df: int) -> float:
    """The t with t_cdf(t, df) = q, by bisection (to 1e-12)."""
    if not 0 < q < 1:
        raise ValueError(f"q must be strictly between 0 and 1, got {q!r}")
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


def _t_p(d: np.ndarray) -> float:
    """Two-sided p-value of the one-sample t test of mean(d) = 0."""
    n, sd = len(d), float(d.std(ddof=1))
    if sd == 0:
        return 1.0 if float(d.mean()) == 0 else 0.0
    t = float(d.mean()) / (sd / math.sqrt(n))
    return min(1.0, 2 * (1 - t_cdf(abs(t), n - 1)))


def _check_diffs(d) -> np.ndarray:
    d = np.asarray(d, dtype=float)
    if d.ndim != 1 or len(d) < 2:
        raise ValueError(f"expected a 1-D sequence of at least 2 paired differences (one per seed), got shape {d.shape}")
    if not np.isfinite(d).all():
        raise ValueError("expected finite differences, got NaN or infinity")
    return d


def _check_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    _check_lengths(a, b)
    if a.ndim != 1 or b.ndim != 1 or len(a) < MIN_SEEDS:
        raise ValueError(f"a and b must be 1-D with at least {MIN_SEEDS} values (one per seed; below that the "
                         f"interval's false-positive rate is not held), got shapes {a.shape} and {b.shape}")
    if len(a) != len(b):
        raise ValueError(f"paired samples must have the same length (one value per seed), got {len(a)} and {len(b)}")
    return a, b


def _check_lengths(a, b) -> None:
    if np.ndim(a) == 1 and np.ndim(b) == 1 and len(a) != len(b):
        raise ValueError(f"paired samples must have the same length (one value per seed), got {len(a)} and {len(b)}")


# ---- ratios: two timings compared round by round ------------------------------------------------------

def ratio_interval(a, b, level=LEVEL):
    """How many times b the value a is, paired by round: the geometric mean of a[i] / b[i] and its interval.

    A time's noise is a factor (a busy round makes every contender slower by some share), so the
    comparison is made on the log scale: Student's t interval (``t_interval``) on the per-round
    differences log a[i] - log b[i], mapped back with exp. The ratio of b to a is exactly the
    reciprocal, interval included. Needs at least MIN_SEEDS rounds, positive values.

    >>> r, lo, hi = ratio_interval([2.0, 4.1, 6.0, 8.2, 9.9], [1.0, 2.0, 3.0, 4.0, 5.0])
    >>> round(r, 4), round(lo, 4), round(hi, 4)
    (2.0158, 1.9764, 2.056)
    >>> [round(x, 4) for x in ratio_interval([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.1, 6.0, 8.2, 9.9])]
    [0.4961, 0.4864, 0.506]
    """
    a, b = _check_pair(a, b)
    if not ((a > 0).all() and (b > 0).all()):
        raise ValueError(f"a ratio needs positive values (times), got {a.tolist()!r} and {b.tolist()!r}")
    mean, lo, hi = t_interval(np.log(a) - np.log(b), level)
    return math.exp(mean), math.exp(lo), math.exp(hi)
