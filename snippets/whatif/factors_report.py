"""Tables, sentences and figures for §4's heads / width / depth experiment, from the cached runs.

Like report.py, functions that feed the page's prose take templates and labels in the page's language;
every comparison is an interval on a difference (compare.py) and the verdict is chosen from it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..figures import Figure, svg_figure
from ..tables import md_table
from .analysis import HEADS, SEEDS, sweep
from .. import stats as _stats
from ..stats import LEVEL
from .factors import DEPTH, TARGET, config_label, factor_runs, layer_ablation, layer_shares
from .model import D_MODEL, stack_parameters
from .protocol import LAB_MODELS, SWEEPS
from .report import fmt_offset, sentence
from .task import OFFSETS
from .train import build_model

__all__ = [
    "parameters", "steps_to_target", "factor_depth_rows", "compare_stats", "comparison_sentences",
    "layer_rows", "layer_stats", "curve_figure", "factor_layer_figure", "sweep_by_heads", "layer_tables", "LAB_SEED", "lab_stats",
]

LAB_SEED = 0  # the one seed of each stack that §4's browser lab offers: the seed of the per-layer table and figure


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _points(x: float, digits: int) -> str:
    """A number of points without a minus sign on zero.

    >>> _points(-0.04, 1), _points(-30.26, 1), _points(-0.4, 0)
    ('0.0', '-30.3', '0')
    """
    v = round(float(x), digits)
    return f"{(0.0 if v == 0 else v):.{digits}f}"


def _check_groups(groups) -> None:
    if (not isinstance(groups, (list, tuple)) or not groups
            or not all(isinstance(g, (list, tuple)) and g and all(isinstance(r, dict) and "accuracy" in r for r in g)
                       for g in groups)):
        raise ValueError("expected one non-empty list of train_run results per configuration (factor_runs' result), "
                         f"got {type(groups).__name__}")


def parameters(config: dict) -> int:
    """Trainable parameters of a configuration's model: the printed formula for stacks, a count otherwise.

    >>> parameters({"num_heads": 4, "d_model": 32}), parameters({"layers": 4, "num_heads": 1, "d_k": 8})
    (7360, 7776)
    """
    if config.get("layers"):
        return stack_parameters(config["layers"], config["num_heads"], config.get("d_k", 8),
                                config.get("d_model", D_MODEL))
    model = build_model(config["num_heads"], config.get("d_model", D_MODEL))
    return sum(p.numel() for p in model.parameters())


def steps_to_target(run: dict, target: float = TARGET) -> int | None:
    """The first recorded step at which held-out accuracy reached target; None if it never did.

    >>> steps_to_target({"acc_curve": [(25, 0.5), (50, 0.96), (75, 0.99)]})
    50
    """
    curve = run.get("acc_curve") if isinstance(run, dict) else None
    if not curve:
        raise ValueError("run must be a train_run result with a learning curve (eval_every > 0)")
    return next((step for step, acc in curve if acc >= target), None)


def _fails(runs: list[dict], target: float = TARGET) -> int:
    return sum(r["accuracy"] < target for r in runs)


def _steps_cell(runs: list[dict], none: str) -> str:
    steps = [s for s in (steps_to_target(r) for r in runs) if s is not None]
    if not steps:
        return none
    return f"{int(np.median(steps))} ({min(steps)}–{max(steps)})"


def factor_depth_rows(configs: Sequence[dict], groups: list[list[dict]], none: str = "—") -> list[list[object]]:
    """Stacks: layers × heads, parameters, mean held-out accuracy, mean accuracy per offset,
    median steps to TARGET (lowest–highest, seeds that reach it), seeds below TARGET at the end."""
    _check_groups(groups)
    rows = []
    for c, runs in zip(configs, groups, strict=True):
        by = np.array([r["acc_by_offset"] for r in runs]).mean(0)
        rows.append([config_label(c).replace("x", " × "), f"{parameters(c):,}",
                     _pct(np.mean([r["accuracy"] for r in runs])), *[_pct(a) for a in by],
                     _steps_cell(runs, none), f"{_fails(runs)}/{len(runs)}"])
    return rows


def compare_stats(a: list[dict], b: list[dict], verdicts: Sequence[str], key: str = "accuracy",
                  level: float = LEVEL, tolerance: float = 0.0) -> dict:
    """b minus a, paired by seed (same seed, same training streams and held-out set): mean_a, mean_b, diff, lo, hi
    (in points for accuracy: *_pts), n (pairs), level_pct and the verdict chosen from the interval.
    key 'steps' compares steps to TARGET over the seeds where both reach it.
    verdicts: (lower, higher, no measurable difference[, negligible]); the fourth is used, with tolerance > 0, when
    the interval excludes 0 but lies within ±tolerance (a difference too small to matter, e.g. 99.998% against
    100%)."""
    if len(verdicts) not in (3, 4) or (tolerance > 0) != (len(verdicts) == 4):
        raise ValueError("verdicts must be (lower, higher, no measurable difference), plus a fourth word for a "
                         f"negligible difference exactly when tolerance > 0; got {verdicts!r}, tolerance={tolerance!r}")
    _check_groups([a, b])
    va, vb = {r["seed"]: _value(r, key) for r in a}, {r["seed"]: _value(r, key) for r in b}
    seeds = sorted(s for s in set(va) & set(vb) if va[s] is not None and vb[s] is not None)
    if len(seeds) < 2:
        raise ValueError(f"need at least 2 seeds with a value of {key!r} in both settings, got {len(seeds)}")
    x, y = [va[s] for s in seeds], [vb[s] for s in seeds]
    diff, lo, hi = _stats.t_interval(np.subtract(y, x), level)
    scale = 100 if key == "accuracy" else 1
    v = _stats.verdict(lo, hi, tolerance)  # the one place verdicts are decided
    word = {"lower": verdicts[0], "higher": verdicts[1], "none": verdicts[2]}.get(v) or verdicts[3]
    return {"mean_a": float(np.mean(x)), "mean_b": float(np.mean(y)), "diff": diff, "lo": lo, "hi": hi,
            "diff_pts": scale * diff, "lo_pts": scale * lo, "hi_pts": scale * hi, "n": len(seeds),
            "level_pct": 100 * level, "verdict": word}


def _value(run: dict, key: str):
    if key == "steps":
        return steps_to_target(run)
    if key == "accuracy":
        return run["accuracy"]
    raise ValueError(f"key must be 'accuracy' or 'steps', got {key!r}")


def comparison_sentences(pairs: Sequence[tuple[str, list[dict], str, list[dict]]], template: str,
                         verdicts: Sequence[str], key: str = "accuracy", tolerance: float = 0.0) -> str:
    """One sentence per (name_a, runs_a, name_b, runs_b), each filled from compare_stats plus {a} and {b} (which the
    verdict words may use too); sentences are separated by blank lines (one paragraph each)."""
    if not pairs:
        raise ValueError("pairs must name at least one comparison")
    out = []
    for name_a, a, name_b, b in pairs:
        stats = compare_stats(a, b, verdicts, key, tolerance=tolerance)
        stats["verdict"] = stats["verdict"].replace("{a}", name_a).replace("{b}", name_b)
        out.append(sentence(template, {"a": name_a, "b": name_b, **stats}))
    return "\n\n".join(out)


def layer_rows(run: dict, labels: dict[str, str]) -> list[list[str]]:
    """Per block of a one-head-per-layer stack: label ('{}' the layer, from 1), the offset its head looks at most
    and the share ('{offset} ({share})'), then the held-out accuracy lost at each target offset when that block's
    head is zeroed, in points. labels: 'layer', 'looks'."""
    if set(labels) != {"layer", "looks"}:
        raise ValueError(f"labels must have keys 'layer' and 'looks', got {sorted(labels)}")
    shares = layer_shares(run)  # (n, h, O)
    abl = layer_ablation(run)
    full = np.array(abl[0]["acc_by_offset"])
    rows = []
    offsets = (-2, -1, 0, 1, 2)
    for i, res in enumerate(abl[1:]):
        s = shares[i].mean(0)  # over heads (one head here)
        j = int(np.argmax(s))
        looks = labels["looks"].format(offset=fmt_offset(offsets[j]), share=f"{s[j]:.0%}")
        drop = 100 * (full - np.array(res["acc_by_offset"]))
        rows.append([labels["layer"].format(i + 1), looks, *[_points(d, 1) for d in drop]])
    return rows


def _drops(run: dict) -> np.ndarray:
    abl = layer_ablation(run)
    full = np.array(abl[0]["acc_by_offset"])
    return np.array([full - np.array(r["acc_by_offset"]) for r in abl[1:]])  # (n, T)


def layer_stats(groups: list[list[dict]], threshold: float = 0.5) -> dict:
    """Over the seeds of each single-head stack (label: '4x1', '2x1'): n_seeds; own_<label>: seeds in which every
    target offset has exactly one block whose removal costs it more than threshold; composed_<label>: (block,
    offset) pairs, over all seeds, where removing the block costs the offset more than threshold although the
    block's head puts under half its attention there (it fetched the offset through an earlier block);
    pairs_<label>: all (block, offset) pairs costing more than threshold; threshold_pts."""
    _check_groups(groups)
    offsets = (-2, -1, 0, 1, 2)
    stats: dict = {"threshold_pts": 100 * threshold}
    for runs in groups:
        c = {"layers": runs[0]["layers"], "num_heads": runs[0]["num_heads"]}
        key = config_label(c)
        own = composed = pairs = 0
        for r in runs:
            drops = _drops(r)  # (n, T)
            shares = layer_shares(r).mean(1)  # (n, O)
            big = drops > threshold
            own += int(np.all(big.sum(0) == 1))
            pairs += int(big.sum())
            for i, t in zip(*np.nonzero(big), strict=True):
                composed += int(shares[i, offsets.index(OFFSETS[t])] < 0.5)
        stats.update({f"own_{key}": own, f"composed_{key}": composed, f"pairs_{key}": pairs,
                      "n_seeds": len(runs)})
    return stats


def _mean_acc(runs: list[dict]) -> float:
    return float(np.mean([r["accuracy"] for r in runs]))


def curve_figure(groups: list[list[dict]], labels: dict[str, str], alt: str, caption: str | None = None) -> str:
    """Held-out accuracy during training for each stack in DEPTH, one panel each: one line per seed, the TARGET
    level dashed. labels: 'step', 'acc', 'title' (with {label})."""
    if set(labels) != {"step", "acc", "title"}:
        raise ValueError(f"labels must have keys 'step', 'acc', 'title', got {sorted(labels)}")
    _check_groups(groups)

    def draw():
        fig = Figure(figsize=(8.4, 2.6), layout="constrained")
        axes = fig.subplots(1, len(groups), sharey=True)
        for ax, c, runs in zip(axes, DEPTH, groups, strict=True):
            for k, r in enumerate(runs):
                steps, acc = zip(*r["acc_curve"], strict=True)
                ax.plot(steps, [100 * a for a in acc], color=f"C{k}", linewidth=1.2)
            ax.axhline(100 * TARGET, color="0.5", linestyle="--", linewidth=1)
            ax.set_title(labels["title"].format(label=config_label(c).replace("x", " × ")), fontsize=11)
            ax.set_xlabel(labels["step"])
            last = r["acc_curve"][-1][0]
            ax.set_xticks([0, last // 2, last])
            ax.grid(alpha=0.3)
        axes[0].set_ylabel(labels["acc"])
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def factor_layer_figure(runs: Sequence[dict], labels: dict[str, str], alt: str, caption: str | None = None) -> str:
    """For each given single-head stack run: a layer × target-offset heatmap of the held-out accuracy lost when that
    block's head is zeroed (points, written in each cell). labels: 'title' (with {label}), 'layer' (with {}),
    'offset', 'drop'."""
    if set(labels) != {"title", "layer", "offset", "drop"}:
        raise ValueError(f"labels must have keys 'title', 'layer', 'offset', 'drop', got {sorted(labels)}")
    _check_groups([list(runs)])
    drops = [100 * _drops(r) for r in runs]

    def draw():
        fig = Figure(figsize=(8.4, 2.9), layout="constrained")
        axes = fig.subplots(1, len(runs), width_ratios=[1] * len(runs))
        axes = np.atleast_1d(axes)
        for ax, r, d in zip(axes, runs, drops, strict=True):
            im = ax.imshow(d, cmap="viridis", vmin=0, vmax=100, aspect="auto")
            ax.set_xticks(range(len(OFFSETS)), [fmt_offset(o) for o in OFFSETS])
            ax.set_yticks(range(d.shape[0]), [labels["layer"].format(i + 1) for i in range(d.shape[0])])
            ax.set_xlabel(labels["offset"])
            ax.set_title(labels["title"].format(label=config_label(r).replace("x", " × ")), fontsize=11)
            for i in range(d.shape[0]):
                for j in range(d.shape[1]):
                    ax.text(j, i, _points(d[i, j], 0), ha="center", va="center", fontsize=10,
                            color="black" if d[i, j] > 60 else "white")
        fig.colorbar(im, ax=list(axes), label=labels["drop"])
        return fig

    return svg_figure(draw, alt=alt, caption=caption)


def sweep_by_heads(heads: Sequence[int]) -> dict[int, list[dict]]:
    """The main sweep (d_model = 32, every seed) grouped by head count: {h: [run per seed]}."""
    return {h: sweep(heads=(h,)) for h in heads}


def layer_tables(stacks: Sequence[tuple[str, dict]], header: Sequence[str], labels: dict[str, str],
                 title: str) -> str:
    """layer_rows of each (name, run) as a Markdown table under its title ('{name}' the stack's name)."""
    if not stacks:
        raise ValueError("stacks must name at least one (name, run)")
    return "\n\n".join(f"{title.format(name=name)}\n\n{md_table(list(header), layer_rows(run, labels))}"
                       for name, run in stacks)


def lab_stats(sep: str = ", ") -> dict:
    """What §4's browser lab offers (sitebuild/whatif_lab.py exports exactly these models), for the page's
    sentence: n_models in all, n_flat one-layer models (the sweep's) with n_seeds seeds per head count,
    n_stacks residual stacks (DEPTH) named in stacks ('2 × 2', joined by sep), each with seed stack_seed;
    and n_second models of the second round (protocol.LAB_MODELS, seed second_seed): the one-layer model
    with second_heads heads of d_k = second_d_k (d_model = second_d_model), and the stacks with a
    feed-forward layer named in ffn_stacks.

    >>> s = lab_stats()
    >>> s["n_stacks"], s["stacks"], s["stack_seed"], s["n_models"] == s["n_flat"] + s["n_stacks"] + s["n_second"]
    (4, '1 × 4, 2 × 2, 4 × 1, 2 × 1', 0, True)
    >>> s["n_second"], s["second_heads"], s["second_d_k"], s["second_d_model"], s["ffn_stacks"], s["second_seed"]
    (3, '3', 8, 24, '1 × 1, 1 × 2', 0)
    """
    if not isinstance(sep, str):
        raise ValueError(f"sep must be a string, got {type(sep).__name__}")
    second = [SWEEPS[name][i] for name, i, _ in LAB_MODELS]
    flat2 = [c for c in second if not c.get("layers")]
    seeds2 = sorted({s for _, _, s in LAB_MODELS})
    if len(seeds2) != 1 or len({(c["d_model"], c["num_heads"]) for c in flat2}) > 1:
        raise ValueError(f"expected the second round's lab models to share one seed and one width, got {LAB_MODELS!r}")
    return {"n_models": len(HEADS) * len(SEEDS) + len(DEPTH) + len(second), "n_flat": len(HEADS) * len(SEEDS),
            "n_seeds": len(SEEDS), "n_stacks": len(DEPTH), "stack_seed": LAB_SEED,
            "stacks": sep.join(f"{c['layers']} × {c['num_heads']}" for c in DEPTH),
            "n_second": len(second), "second_seed": seeds2[0],
            "second_heads": sep.join(str(c["num_heads"]) for c in flat2),
            "second_d_k": flat2[0]["d_model"] // flat2[0]["num_heads"] if flat2 else None,
            "second_d_model": flat2[0]["d_model"] if flat2 else None,
            "ffn_stacks": sep.join(f"{c['layers']} × {c['num_heads']}" for c in second if c.get("ffn"))}
