"""The build's up-front computation (sitebuild.precompute): order, stamps, and that a stamp follows the code."""

from __future__ import annotations

import pytest

from sitebuild import precompute


def test_jobs_cover_every_model_and_run_costliest_first(tmp_path, monkeypatch):
    from snippets.whatif.analysis import HEADS, SEEDS

    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    todo = precompute.pending()
    models = {j.args[:2] for j in todo if j.fn == "whatif_run"}
    assert models == {(h, s) for h in HEADS for s in SEEDS}
    assert [j.cost for j in todo] == sorted((j.cost for j in todo), reverse=True)
    assert all(callable(getattr(precompute, j.fn)) for j in todo)
    # every model gets the lab's measure; pruning only where the page prints it
    assert all("specialisation" in j.args[2] for j in todo if j.fn == "whatif_run")
    assert {j.args[0] for j in todo if j.fn == "whatif_run" and "pruning" in j.args[2]} == {8, 16}
    # the real model's head ablation runs one layer per job, so both cores share it
    assert sorted(j.args[0] for j in todo if j.fn == "real_model_ablation") == list(range(6))


def test_a_job_runs_once_and_again_when_its_code_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    calls = []
    monkeypatch.setattr(precompute, "probe", lambda x: calls.append(x), raising=False)
    job = precompute.Job("probe 1", 1.0, "probe", (1,), ("snippets.whatif.task",))
    assert precompute.run([job], workers=1) == 1
    assert precompute.run([job], workers=1) == 0  # stamped: a warm build starts nothing
    assert calls == [1]
    real = precompute.fingerprint
    monkeypatch.setattr(precompute, "fingerprint", lambda modules: real(modules) + "edited")
    assert precompute.pending([job]) == [job]  # the code it depends on changed: it runs again
    assert precompute.run([job], workers=1) == 1 and calls == [1, 1]


def test_a_failing_job_leaves_no_stamp(tmp_path, monkeypatch):
    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))

    def broken(x):
        raise ValueError(f"bad input {x}")

    monkeypatch.setattr(precompute, "broken", broken, raising=False)
    job = precompute.Job("broken", 1.0, "broken", (7,), ("snippets.whatif.task",))
    with pytest.raises(ValueError, match="bad input 7"):
        precompute.run([job], workers=1)
    assert precompute.pending([job]) == [job]


def test_factor_jobs_are_the_per_layer_stacks_once(tmp_path, monkeypatch):
    """The second round's sweeps are committed results: the build trains only the per-layer ablation's stacks."""
    from snippets.whatif.factors import DEPTH, FACTOR_SEEDS

    monkeypatch.setenv("MHA_CACHE_DIR", str(tmp_path))
    todo = [j for j in precompute.pending() if j.fn == "factor_run"]
    keys = [(j.args[0], j.args[1]) for j in todo]
    assert len(keys) == len(set(keys))  # no run is trained twice
    assert all("layers" in dict(c) for c, _ in keys)
    stacks = [(dict(c), s, j.args[2]) for j, (c, s) in zip(todo, keys, strict=True) if "layers" in dict(c)]
    assert {(tuple(sorted(c.items())), s) for c, s, _ in stacks} == {
        (tuple(sorted(c.items())), s) for c in DEPTH for s in FACTOR_SEEDS}
    assert all(m == (("layer_ablation", "layer_shares") if c["num_heads"] == 1 else ("layer_shares",))
               for c, _, m in stacks)  # every stack's shares; the single-head stacks ablated layer by layer
