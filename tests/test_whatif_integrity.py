"""§4's committed sweeps cannot be satisfied by editing a file: a sample of their runs is trained again here and
must give the same numbers to the last digit.

The sample changes with every commit (it is drawn with the commit's hash as the seed), so over the project's
history every run gets retrained sooner or later. Training is deterministic (one thread, seeded weights and
data), so any difference means the committed numbers did not come from this code.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import commit_seed

from snippets.whatif import protocol
from snippets.whatif.round2 import load_sweeps

SAMPLE = 3  # runs retrained per test session
CHEAP = 10.0  # CPU seconds: only runs that trained faster than this are drawn (a few seconds each)


def _sample() -> list[dict]:
    models = load_sweeps()["models"]
    cheap = [m for m in models if m["cpu_seconds"] < CHEAP]
    rng = np.random.default_rng(commit_seed())
    return [cheap[i] for i in rng.choice(len(cheap), size=SAMPLE, replace=False)]


def _plain(x):
    return json.loads(json.dumps(x))


def test_the_sample_covers_several_sweeps_over_commits():
    models = load_sweeps()["models"]
    cheap = {m["sweep"] for m in models if m["cpu_seconds"] < CHEAP}
    assert {"fixed_dk", "offsets_2", "width", "regime"} <= cheap
    assert len(models) == sum(len(c) for c in protocol.SWEEPS.values()) * len(protocol.SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("k", range(SAMPLE))
def test_a_committed_run_retrains_to_the_same_numbers(k):
    committed = _sample()[k]
    fresh = _plain(protocol.run_one(committed["sweep"], committed["index"], committed["seed"]))
    for key in set(committed) | set(fresh):
        if key == "cpu_seconds":
            continue
        assert fresh.get(key) == committed.get(key), (
            f"{committed['sweep']}[{committed['index']}] seed {committed['seed']}: {key} differs from the "
            f"committed result ({fresh.get(key)!r} now, {committed.get(key)!r} committed)")
