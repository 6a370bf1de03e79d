"""The second round's exercises (4b): move the 95% bar, count a residual stack's parameters, compare depth
with heads seed by seed.

Everything here reads the second round's committed result (snippets.whatif.round2) or builds an untrained
model to count its parameters; nothing is trained, and nothing loads the pretrained model.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..whatif.model import StackModel, stack_parameters
from ..whatif.round2 import config_of, groups, load_sweeps
from ..whatif.train import STACK_D_K

__all__ = ["fewest_heads", "count_params", "deep_vs_wide", "bar_rows", "param_rows", "deep_vs_wide_rows",
           "deep_vs_wide_stats"]


def _check_bar(bar: float) -> None:
    if not isinstance(bar, float) or not 0 < bar <= 1:
        raise ValueError(f"bar must be a float in (0, 1], got {bar!r}")


# --8<-- [start:fewest_heads]
def fewest_heads(bar=0.95, sweeps=("offsets_2", "fixed_dk", "offsets_6")):
    """Per one-layer sweep: the fewest heads with which every seed's
    held-out accuracy reaches `bar` (None: no head count does)."""
    _check_bar(bar)
    data = load_sweeps()
    out = {}
    for name in sweeps:
        out[name] = None
        for runs in groups(data, name):  # the seeds of one head count
            if all(r["accuracy"] >= bar for r in runs):
                out[name] = config_of(name, runs[0]["index"])["num_heads"]
                break
    return out
# --8<-- [end:fewest_heads]


# --8<-- [start:count_params]
def count_params(layers, heads, ffn=0):
    """A residual stack's parameters: counted on a real StackModel,
    by the page's formula, and as the committed result recorded them."""
    model = StackModel(layers, heads, d_k=STACK_D_K, ffn=ffn)
    counted = sum(p.numel() for p in model.parameters())
    formula = stack_parameters(layers, heads, d_k=STACK_D_K, ffn=ffn)
    shape = {"layers": layers, "num_heads": heads, "ffn": ffn}
    recorded = {m["params"] for m in load_sweeps()["models"]
                if m["sweep"] == "phase" and shape.items()
                <= config_of("phase", m["index"]).items()}
    return counted, formula, recorded
# --8<-- [end:count_params]


# --8<-- [start:deep_vs_wide]
def deep_vs_wide(deep=(3, 1), wide=(1, 3), ffn=0):
    """Seed by seed, held-out accuracy of two residual stacks
    (layers, heads per layer) of the phase sweep: (seed, deep, wide)."""
    data = load_sweeps()
    by_shape = {}
    for runs in groups(data, "phase"):
        c = config_of("phase", runs[0]["index"])
        if c["ffn"] == ffn:
            by_shape[c["layers"], c["num_heads"]] = runs
    pairs = zip(by_shape[tuple(deep)], by_shape[tuple(wide)])
    return [(d["seed"], d["accuracy"], w["accuracy"]) for d, w in pairs]
# --8<-- [end:deep_vs_wide]


def bar_rows(bars: Sequence[float], sweeps: Sequence[str] = ("offsets_2", "fixed_dk", "offsets_6"),
             none: str = "—") -> list[tuple]:
    """fewest_heads at each bar, one row per bar: (bar as a percentage, heads per sweep)."""
    found = [fewest_heads(b, tuple(sweeps)) for b in bars]
    return [(f"{b:.0%}", *(none if f[s] is None else f[s] for s in sweeps)) for b, f in zip(bars, found)]


def param_rows(shapes: Sequence[tuple[int, int, int]], with_ffn: str = " + FFN {ffn}") -> list[tuple]:
    """count_params of each (layers, heads, ffn) as printable rows: shape ('layers × heads', then with_ffn
    filled when there is a feed-forward layer), counted, formula, recorded."""
    rows = []
    for layers, heads, ffn in shapes:
        counted, formula, recorded = count_params(layers, heads, ffn)
        rows.append((f"{layers} × {heads}" + (with_ffn.format(ffn=ffn) if ffn else ""), f"{counted:,}", f"{formula:,}",
                     ", ".join(f"{r:,}" for r in sorted(recorded))))
    return rows


def deep_vs_wide_rows(deep=(3, 1), wide=(1, 3), ffn=0) -> list[tuple]:
    """deep_vs_wide as printable rows: seed, then both accuracies in %."""
    return [(s, f"{d:.1%}", f"{w:.1%}") for s, d, w in deep_vs_wide(deep, wide, ffn)]


def deep_vs_wide_stats(deep=(3, 1), wide=(1, 3), ffn=0) -> dict:
    """For the sentence under deep_vs_wide: seeds, seeds where the deep stack scores higher / lower / the same
    (to the printed 0.1 point), and the mean difference deep - wide in points."""
    pairs = deep_vs_wide(deep, wide, ffn)
    diffs = [round(100 * (d - w), 1) for _, d, w in pairs]
    return {"n": len(pairs), "deeper": sum(x > 0 for x in diffs), "wider": sum(x < 0 for x in diffs),
            "tied": sum(x == 0 for x in diffs), "mean_diff": 100 * sum(d - w for _, d, w in pairs) / len(pairs)}
