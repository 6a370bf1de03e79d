"""Every expensive result the pages read, computed up front on every core, longest first.

The pages and notebooks call lesson functions whose results are cached on disk
(``resultcache.memory``): the §4 sweep's 30 models and their analyses, the residual stacks of its
per-layer ablation, the real model's attention maps and checks (§4's second round is a committed
result, never trained at build). Left to the pages, they run one after another in
the build's own process while the other core idles. ``run()`` instead submits them all at once to
a pool of worker processes, one per core, each on one thread (so no result depends on the core
count), the costliest first so that no worker is left alone at the end; it logs progress with a
time estimate. The pages then find everything in the cache and run the same calls in milliseconds.

§4's first-round models and their measures are also committed (``results/build-models.json``,
``sitebuild.buildmodels``): when the file matches the code, a cold build fills its cache from it and stamps
those jobs done instead of training them.

A job that finished with the current code leaves a stamp (keyed by ``resultcache.fingerprint`` of
the modules it runs and its arguments), so a warm build starts no process at all. Deleting the
cache deletes the stamps with it.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from resultcache import cache_root, fingerprint

__all__ = ["Job", "jobs", "pending", "run"]

log = logging.getLogger("mkdocs.hooks.precompute")


@dataclass(frozen=True)
class Job:
    """One unit of work: fn(*args) in a worker; cost is a rough relative duration (for order and estimate)."""

    label: str
    cost: float
    fn: str  # a function of this module, by name (workers import it)
    args: tuple
    modules: tuple[str, ...]  # what the result depends on: the stamp follows their fingerprint

    def stamp(self) -> str:
        h = hashlib.sha256(f"{self.fn}{self.args!r}".encode())
        h.update(fingerprint(self.modules).encode())
        return h.hexdigest()[:32]


def whatif_run(num_heads: int, seed: int, measures: tuple[str, ...]) -> None:
    """One §4 model, trained, then the per-model measures the pages and the lab read."""
    from snippets.whatif import analysis
    from snippets.whatif.train import train_run

    run = train_run(num_heads, seed)
    for kind in measures:
        getattr(analysis, kind)(run)


def factor_run(config: tuple, seed: int, measures: tuple[str, ...]) -> None:
    """One run of §4's heads / width / depth sweeps (config: train_run's keyword arguments as pairs), then
    its per-layer measures."""
    from snippets.whatif import factors
    from snippets.whatif.train import train_run

    run = train_run(seed=seed, **dict(config))
    for kind in measures:
        getattr(factors, kind)(run)


def real_model() -> None:
    """The real-model page's measurements: attention maps, the check against transformers."""
    from snippets.bert.analysis import TEXTS, bert_attention_maps
    from snippets.bert.logdata import LONG_LOG
    from snippets.bert.reference import compare_with_reference
    from snippets.bert.viewer import VIEW_TEXTS
    from snippets.exercises.s4 import NEW_SENTENCE

    for text in dict.fromkeys((*TEXTS, *VIEW_TEXTS, NEW_SENTENCE, LONG_LOG)):
        bert_attention_maps(text)
    compare_with_reference(TEXTS)


def real_model_ablation(layer: int) -> None:
    """The real-model page's head ablation for one layer: every head removed, all paraphrase texts at once."""
    from snippets.bert.retrieval import full_embeddings, bert_layer_ablation

    bert_layer_ablation(layer)
    if layer == 0:
        full_embeddings()  # the full model's embeddings, once


# Which per-model measures the §4 page and the lab read, and for which head counts (a page that asks
# for more still works: it computes the rest itself, one after another).
WHATIF_MEASURES = {
    "specialisation": "all",  # the lab, the role and share tables
    "pruning": (8, 16),  # the pruning table and sentence
    "ablation": (4, 8, 16),  # the ablation table (h = 4), the roles' and the roleless heads' sentences
}
WHATIF_EXTRA: dict[tuple[int, int], tuple[str, ...]] = {}


def _whatif_cost(h: int, measures: tuple[str, ...]) -> float:
    """Rough seconds on one core: training, then evaluations over the held-out logs (specialisation 1; ablation
    and pruning share the h runs with one head removed, then ablation adds h + 1 and pruning h)."""
    evals = {"specialisation": 1, "ablation": h + 1, "pruning": h}
    shared = h if {"ablation", "pruning"} & set(measures) else 0
    return 2 + 0.35 * h + (shared + sum(evals[m] for m in measures)) * (0.04 + 0.006 * h)


def jobs() -> list[Job]:
    """The build's expensive work."""
    from snippets.whatif.analysis import HEADS, SEEDS

    out = []
    for h in HEADS:
        for s in SEEDS:
            measures = tuple(m for m, hs in WHATIF_MEASURES.items()
                             if hs == "all" or h in hs or m in WHATIF_EXTRA.get((h, s), ()))
            out.append(Job(f"§4 model h={h}, seed {s}", _whatif_cost(h, measures), "whatif_run", (h, s, measures),
                           ("snippets.whatif.analysis",)))
    out += _factor_jobs()
    bert = ("snippets.bert.ablation", "snippets.bert.analysis", "snippets.bert.reference", "snippets.bert.viewer",
            "snippets.exercises.s4")
    out.append(Job("real model: maps, reference check", 10, "real_model", (), bert))
    # removing a head of layer l reruns layers l … 5: cost falls with the layer (~3.5 s for layer 0, one core)
    out += [Job(f"real model: ablation of layer {layer}'s heads", 0.6 * (6 - layer), "real_model_ablation", (layer,),
                ("snippets.bert.retrieval",)) for layer in range(6)]
    return out


def _factor_cost(config: dict) -> float:
    """Rough seconds on one core (measured: a one-layer run ~1.5 s + 0.5 s per 8 features of d_model; a stack of
    600 steps ~1.5 s + 1 s per block, with its learning curve and per-layer measures)."""
    if config.get("layers"):
        return 1.5 + 1.0 * config["layers"]
    return 1.5 + 0.5 * config["d_model"] / 8


def _factor_jobs() -> list[Job]:
    """The residual stacks of §4's per-layer ablation (the second round's sweeps are committed results, not
    trained at build)."""
    from snippets.whatif.analysis import HEADS, SEEDS
    from snippets.whatif.factors import DEPTH, FACTOR_SEEDS, config_label
    from snippets.whatif.model import D_MODEL

    out: list[Job] = []
    seen = {(h, D_MODEL, s) for h in HEADS for s in SEEDS}  # trained by whatif_run
    for config in DEPTH:
        for s in FACTOR_SEEDS:
            if config.get("layers"):  # every stack's shares; the single-head stacks ablated layer by layer
                measures = ("layer_ablation", "layer_shares") if config["num_heads"] == 1 else ("layer_shares",)
            elif (config["num_heads"], config["d_model"], s) in seen:
                continue
            else:
                measures = ()
                seen.add((config["num_heads"], config["d_model"], s))
            out.append(Job(f"§4 sweep model {config_label(config)}, seed {s}", _factor_cost(config), "factor_run",
                           (tuple(sorted(config.items())), s, measures), ("snippets.whatif.factors",)))
    return out


def _stamp_path(job: Job):
    return cache_root() / "precompute" / f"{job.stamp()}.done"


def pending(todo: list[Job] | None = None) -> list[Job]:
    """The jobs without a stamp for the current code, costliest first."""
    todo = jobs() if todo is None else todo
    return sorted((j for j in todo if not _stamp_path(j).is_file()), key=lambda j: -j.cost)


def _work(fn: str, args: tuple) -> float:
    """Run one job on one thread (results independent of the core count); its seconds."""
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(1)
    start = time.perf_counter()
    try:
        globals()[fn](*args)
    finally:
        torch.set_num_threads(old)
    return time.perf_counter() - start


def run(todo: list[Job] | None = None, workers: int | None = None) -> int:
    """Compute every pending job, one worker per core (default); return how many ran."""
    todo = _from_committed(pending(todo))
    if not todo:
        return 0
    workers = min(workers or os.cpu_count() or 1, len(todo))
    total = sum(j.cost for j in todo)
    log.info("computing %d results on %d cores (models, measures, the real model): first build only", len(todo),
             workers)
    start, done = time.perf_counter(), 0.0
    for n, (job, seconds) in enumerate(_results(todo, workers), 1):
        path = _stamp_path(job)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
        done += job.cost
        left = (time.perf_counter() - start) / done * (total - done)
        log.info("computed %d/%d (%s, %.0f s), ~%.1f min left", n, len(todo), job.label, seconds, left / 60)
    return len(todo)


def _from_committed(todo: list[Job]) -> list[Job]:
    """The jobs left once the committed first-round file (sitebuild.buildmodels) has filled the cache: the jobs
    it covers are stamped done. Unchanged if it is missing or does not match the code."""
    from sitebuild import buildmodels

    if not any(j.fn in buildmodels.JOB_FNS for j in todo):
        return todo
    data = buildmodels.load_current()
    if data is None:
        return todo
    added = buildmodels.seed(data["entries"])
    covered = buildmodels.covered_jobs(data)
    left = []
    for job in todo:
        if (job.fn, repr(job.args)) in covered:
            path = _stamp_path(job)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
        else:
            left.append(job)
    log.info("read %d results of %d jobs from results/%s.json (not trained again)", added, len(todo) - len(left),
             buildmodels.NAME)
    return left


def _results(todo: list[Job], workers: int):
    """Yield (job, seconds) as each job finishes; a failure raises here, with its traceback, and fails the build."""
    if workers == 1:  # in this process (also what the tests use)
        for job in todo:
            yield job, _work(job.fn, job.args)
        return
    # spawn: a fresh interpreter per worker, never a fork of a process whose torch threads are running
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(_work, j.fn, j.args): j for j in todo}
        for future in as_completed(futures):
            yield futures[future], future.result()

