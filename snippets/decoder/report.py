"""What the real decoder page prints, read from the committed results/decoder-heads.json.

Nothing here loads the model: the page and its notebook read the result, so a build stays as fast
as before. The result comes from ``python -m sitebuild.results decoder-heads``.
"""

from __future__ import annotations

import numpy as np

from .. import stats
from .. import benchreport
from ..benchreport import load
from ..numfmt import typeset
from ..figures import FG, MIN_FONT_PT, Figure, svg_figure
from ..i18n import text, texts

__all__ = ["quick_decode", "quick_scores", "RESULT", "LOGIT_ATOL", "NEW_TOKENS", "result", "config_line",
           "summary_bullets", "score_figure", "grouping_figure", "decoder_cache_rows", "decoder_cache_header",
           "cache_sentence", "top_head_rows", "top_header", "layer_sentence", "tolerance_sentence", "ABLATION",
           "knockout_result", "knockout_family", "knockout_header", "knockout_rows", "knockout_sentence",
           "knockout_heads_sentence", "knockout_bullet", "induction_page_sentence", "knockout_reading", "TIMING",
           "timing_result", "timing_family", "quick_copies", "quick_cut", "timing_header", "timing_rows", "timing_sentence"]

RESULT = "decoder-heads"
# Our logits against transformers' on the same file (tests/test_decoder.py): both multiply the same float32
# weights, so only the order of float32 operations differs through 30 layers (measured there: ~1e-4 on
# logits of size ~36). 1e-3 leaves room for other BLAS kernels; a real error moves logits by more than 1.
LOGIT_ATOL = 1e-3
NEW_TOKENS = 32  # greedy decoding with the cache must equal decoding without it for this many new tokens
SCORES = ("prev", "prefix", "sink")  # the three maps: previous token, induction, sink
INDUCTION = 0.3  # a head "is" an induction head when its prefix-matching score exceeds this (chance ~ 1/T)


def result() -> dict:
    return load(RESULT)


def _maps(r: dict) -> dict[str, np.ndarray]:
    """(layers, heads) arrays: previous-token and sink averaged over the zh and en texts, prefix on repeats."""
    s = r["data"]["scores"]
    return {"prev": (np.array(s["zh"]["prev"]) + np.array(s["en"]["prev"])) / 2,
            "prefix": np.array(s["repeated"]["prefix"]),
            "sink": (np.array(s["zh"]["sink"]) + np.array(s["en"]["sink"])) / 2}


def config_line(lang: str, r: dict | None = None) -> str:
    c = (r or result())["data"]["config"]
    return text(lang, "decoder.config", **c, d_k=c["d_model"] // c["num_heads"],
                group=c["num_heads"] // c["num_kv_heads"])


def tolerance_sentence(lang: str) -> str:
    return text(lang, "decoder.tolerance", tol=LOGIT_ATOL, steps=NEW_TOKENS)


def _top(m: np.ndarray, k: int) -> list[tuple[int, int, float]]:
    flat = np.argsort(-m, axis=None)[:k]
    return [(int(i // m.shape[1]), int(i % m.shape[1]), float(m.flat[i])) for i in flat]


def _induction_layers(m: np.ndarray) -> list[int]:
    return sorted({L for L, _, v in _top(m, m.size) if v > INDUCTION})


def summary_bullets(lang: str, r: dict | None = None, ablation: dict | None = None) -> str:
    """The two-minute version: four bullets from the model, the cache sizes and the head scores (the previous-token
    and the prefix-matching heads in one), the fifth from the cut."""
    r = r or result()
    maps, c, d = _maps(r), r["data"]["config"], r["data"]
    gqa = next(row for row in d["cache"]["rows"] if row["kind"] == "GQA")
    mha = next(row for row in d["cache"]["rows"] if row["kind"] == "MHA")
    (pl, ph, pv), (il, ih, iv) = _top(maps["prev"], 1)[0], _top(maps["prefix"], 1)[0]
    layers = _induction_layers(maps["prefix"])
    n_ind = int((maps["prefix"] > INDUCTION).sum())
    sink_mean = float(maps["sink"].mean())
    sink_half = int((maps["sink"] > 0.5).sum())
    items = [
        text(lang, "decoder.bullet.same", tol=LOGIT_ATOL),
        text(lang, "decoder.bullet.cache", h=c["num_heads"], g=c["num_kv_heads"],
             kib=gqa["bytes_per_token"]["bfloat16"] / 1024, mib=gqa["bytes_at_context"]["bfloat16"] / 2**20,
             context=c["context"], mha_mib=mha["bytes_at_context"]["bfloat16"] / 2**20),
        text(lang, "decoder.bullet.prev", layer=pl, head=ph, score=pv)
        + text(lang, "decoder.bullet.induction", n=n_ind, total=maps["prefix"].size, thr=INDUCTION,
               first=layers[0] if layers else -1, last=layers[-1] if layers else -1, layer=il, head=ih, score=iv,
               T=d["repeat"]["length"]),
        text(lang, "decoder.bullet.sink", mean=sink_mean, n=sink_half, total=maps["sink"].size),
        knockout_bullet(lang, ablation),
    ]
    return "\n".join(f"- {item}" for item in items)


def layer_sentence(lang: str, r: dict | None = None) -> str:
    """Where the induction heads sit, layer by layer: count per layer over the threshold."""
    maps = _maps(r or result())
    per = (maps["prefix"] > INDUCTION).sum(axis=1)
    listed = [f"{i}:{int(n)}" for i, n in enumerate(per) if n]
    return text(lang, "decoder.layers", thr=INDUCTION, listed=", ".join(listed) or "-",
                n_layers=int((per > 0).sum()), layers=len(per))


def top_header(lang: str) -> list[str]:
    return text(lang, "decoder.top_head")


def top_head_rows(lang: str, k: int = 5, r: dict | None = None) -> list[list[str]]:
    """The k heads with the highest score of each kind: rank, then (layer, head, score) per kind."""
    maps = _maps(r or result())
    cols = [_top(maps[s], k) for s in SCORES]
    return [[str(i + 1)] + [f"L{L} H{h}: {v:.2f}" for L, h, v in (col[i] for col in cols)] for i in range(k)]


def decoder_cache_header(lang: str) -> list[str]:
    return text(lang, "decoder.cache_head")


def decoder_cache_rows(lang: str, r: dict | None = None) -> list[list[str]]:
    d = (r or result())["data"]["cache"]
    t = texts(lang, "decoder.kind")
    return [[t[row["kind"]], str(row["kv_heads"]), f"{row['bytes_per_token']['float32']:,}",
             f"{row['bytes_per_token']['bfloat16']:,}", f"{row['bytes_at_context']['bfloat16'] / 2**20:,.0f}"]
            for row in d["rows"]]


def cache_sentence(lang: str, r: dict | None = None) -> str:
    d = (r or result())["data"]["cache"]
    gqa = next(row for row in d["rows"] if row["kind"] == "GQA")
    return text(lang, "decoder.cache_check", read=d["read_off_cache_float32"],
                formula=gqa["bytes_per_token"]["float32"],
                same=text(lang, "decoder.same" if d["read_off_cache_float32"] == gqa["bytes_per_token"]["float32"]
                          else "decoder.differs"))


def score_figure(lang: str, r: dict | None = None) -> str:
    """Three heatmaps, layers (rows) x heads (columns): previous token, induction, sink; one colour scale."""
    r = r or result()
    maps = _maps(r)
    t = texts(lang, "decoder.fig")
    titles = [t["prev"], t["prefix"], t["sink"]]
    n_layers, n_heads = maps["prev"].shape

    def draw():
        cell = 0.135  # inches: 9 heads x 3 maps stay within a phone column at 10 pt labels
        left, gap, top, bottom, bar = 0.45, 0.22, 0.5, 0.5, 0.75
        pw, ph = n_heads * cell, n_layers * cell
        W, H = left + 3 * pw + 2 * gap + bar, top + ph + bottom
        fig = Figure(figsize=(W, H))
        for k, (name, title) in enumerate(zip(SCORES, titles)):
            ax = fig.add_axes(((left + k * (pw + gap)) / W, bottom / H, pw / W, ph / H))
            im = ax.imshow(maps[name], cmap="viridis", vmin=0, vmax=1, aspect="auto")
            ax.set_title(title, fontsize=MIN_FONT_PT)
            ax.set_xticks(range(0, n_heads, 4), [str(h) for h in range(0, n_heads, 4)], fontsize=MIN_FONT_PT)
            ax.set_yticks(range(0, n_layers, 5), [str(L) for L in range(0, n_layers, 5)] if k == 0 else [],
                          fontsize=MIN_FONT_PT)
            ax.tick_params(length=2)
            if k > 0:
                ax.tick_params(axis="y", length=0)
            if k == 1:
                ax.set_xlabel(t["heads"], fontsize=MIN_FONT_PT)
            if k == 0:
                ax.set_ylabel(t["layers"], fontsize=MIN_FONT_PT)
        cax = fig.add_axes(((left + 3 * pw + 2 * gap + 0.12) / W, bottom / H, 0.1 / W, ph / H))
        fig.colorbar(im, cax=cax, ticks=[0, 0.5, 1])
        cax.tick_params(labelsize=MIN_FONT_PT)
        return fig

    c = r["data"]["config"]
    return svg_figure(draw, alt=text(lang, "decoder.fig.alt", layers=n_layers, heads=n_heads),
                      caption=text(lang, "decoder.fig.caption", T=r["data"]["repeat"]["length"],
                                   n=r["data"]["repeat"]["sequences"], context=c["context"]))


def grouping_figure(lang: str, r: dict | None = None) -> str:
    """The h query heads of one layer and the g key/value heads they read, drawn from the config."""
    c = (r or result())["data"]["config"]
    h, g = c["num_heads"], c["num_kv_heads"]
    per = h // g
    d_k = c["d_model"] // h
    t = texts(lang, "decoder.group")
    colours = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860"]

    def draw():
        qw, gap, group_gap, margin = 0.4, 0.06, 0.2, 0.1
        kw = per * qw + (per - 1) * gap
        qx = [margin + i * (qw + gap) + (i // per) * group_gap for i in range(h)]
        W, H = qx[-1] + qw + margin, 2.3
        fig = Figure(figsize=(W, H))
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, W)
        ax.set_ylim(0, H)
        ax.axis("off")
        for i in range(h):
            col = colours[(i // per) % len(colours)]
            ax.add_patch(_box(qx[i], 1.4, qw, 0.4, col))
            ax.text(qx[i] + qw / 2, 1.6, f"Q{i}", ha="center", va="center", fontsize=MIN_FONT_PT, color="white")
        for j in range(g):
            col = colours[j % len(colours)]
            x = qx[j * per]
            ax.add_patch(_box(x, 0.6, kw, 0.4, col))
            ax.text(x + kw / 2, 0.8, f"K{j} V{j}", ha="center", va="center", fontsize=MIN_FONT_PT, color="white")
            for i in range(j * per, (j + 1) * per):
                ax.plot([qx[i] + qw / 2, x + kw / 2], [1.4, 1.0], color=col, lw=1.2)
        ax.text(W / 2, 2.05, t["q"].format(h=h), ha="center", va="center", fontsize=MIN_FONT_PT, color=FG)
        ax.text(W / 2, 0.38, t["kv"].format(g=g, per=per, d_k=d_k), ha="center", va="center",
                fontsize=MIN_FONT_PT, color=FG)
        ax.text(W / 2, 0.1, t["note"].format(layers=c["num_layers"]), ha="center", va="center",
                fontsize=MIN_FONT_PT, color=FG)
        return fig

    return svg_figure(draw, alt=text(lang, "decoder.group.alt", h=h, g=g, per=per),
                      caption=text(lang, "decoder.group.caption", h=h, g=g, per=per))


def _box(x: float, y: float, w: float, hgt: float, colour: str):
    from matplotlib.patches import FancyBboxPatch

    return FancyBboxPatch((x, y), w, hgt, boxstyle="round,pad=0,rounding_size=0.06", fc=colour, ec="none")


# ---- cutting the top induction heads (results/decoder-ablation.json, snippets.decoder.ablation's protocol) ----

ABLATION = "decoder-ablation"


def knockout_result() -> dict:
    return load(ABLATION)


def _cells(r: dict) -> list[tuple[int, str, str]]:
    """(k, cut, comparison) in the family's order: each k, each kind of cut, each comparison."""
    p = r["data"]["protocol"]
    return [(k, cut, comp) for k in p["K"] for cut in p["CUTS"] for comp in p["COMPARISONS"]]


def _pair(r: dict, k: int, cut: str, comp: str) -> tuple[list[float], list[float]]:
    """The (a, b) per-unit losses whose difference b - a a comparison is about."""
    loss = r["data"]["loss"]
    if comp == "cut-intact:repeated":
        return loss["repeated"]["intact"], loss["repeated"][f"top{k}-{cut}"]
    if comp == "cut-intact:ordinary":
        return loss["ordinary"]["intact"], loss["ordinary"][f"top{k}-{cut}"]
    if comp == "top-random:repeated":
        return loss["repeated"][f"random{k}-{cut}"], loss["repeated"][f"top{k}-{cut}"]
    raise ValueError(f"unknown comparison {comp!r}")


# --8<-- [start:knockout_family]
def knockout_family(r: dict | None = None) -> dict:
    """Per (k, cut, comparison): the per-text losses b - a, paired by
    text; one family, Holm-corrected, with the exact sign-flip test."""
    r = r or knockout_result()
    cells = _cells(r)
    found = stats.compare_family([_pair(r, *c) for c in cells],
                                 minimum=r["data"]["protocol"]["MINIMUM"],
                                 sign_flip=True)
    return dict(zip(cells, found, strict=True))
# --8<-- [end:knockout_family]


def _verdict(lang: str, c: stats.Comparison, minimum: float) -> str:
    return text(lang, f"decoder.v_{c.verdict}", n=c.n, minimum=minimum)


def _diff(c: stats.Comparison, lang: str | None = None) -> str:
    """'+1.23 [+1.01, +1.45]' for a table cell; with lang, in nats as a sentence prints it."""
    if lang is None:
        return f"{c.mean:+.2f} [{c.lo:+.2f}, {c.hi:+.2f}]"
    return text(lang, "decoder.abl_diff", d=c.mean, lo=c.lo, hi=c.hi)


def knockout_header(lang: str) -> list[str]:
    return text(lang, "decoder.abl_head")


def knockout_rows(lang: str, r: dict | None = None) -> list[list[str]]:
    """One row per comparison: the heads cut and how, the text, what is compared, mean loss before -> after,
    the difference with its interval (at the level Holm's step used), the verdict."""
    r = r or knockout_result()
    fam, minimum = knockout_family(r), r["data"]["protocol"]["MINIMUM"]
    rows = []
    for (k, cut, comp), c in fam.items():
        rows.append([text(lang, f"decoder.abl_cut_{cut}", k=k), text(lang, f"decoder.abl_comp.{comp}"),
                     f"{c.mean_a:.2f} → {c.mean_b:.2f}", _diff(c), _verdict(lang, c, minimum)])
    return rows


def knockout_sentence(lang: str, r: dict | None = None) -> str:
    """The result in words, with its numbers: intact losses, then per k the zero cut (top against random, and on
    ordinary text) and the mean cut."""
    r = r or knockout_result()
    d, fam = r["data"], knockout_family(r)
    minimum, loss = d["protocol"]["MINIMUM"], d["loss"]
    parts = []
    for k in d["protocol"]["K"]:
        z = {comp: fam[k, "zero", comp] for comp in d["protocol"]["COMPARISONS"]}
        m = {comp: fam[k, "mean", comp] for comp in d["protocol"]["COMPARISONS"]}
        rnd = z["top-random:repeated"]
        parts.append(text(
            lang, "decoder.abl_part", k=k, top=z["cut-intact:repeated"].mean_b, d=_diff(z["cut-intact:repeated"], lang),
            v=_verdict(lang, z["cut-intact:repeated"], minimum), rnd=rnd.mean_a, dr=_diff(rnd, lang),
            vr=_verdict(lang, rnd, minimum), do=_diff(z["cut-intact:ordinary"], lang),
            vo=_verdict(lang, z["cut-intact:ordinary"], minimum),
            mean=m["cut-intact:repeated"].mean_b, dm=_diff(m["cut-intact:repeated"], lang),
            vm=_verdict(lang, m["cut-intact:repeated"], minimum), dmo=_diff(m["cut-intact:ordinary"], lang),
            vmo=_verdict(lang, m["cut-intact:ordinary"], minimum)))
    return text(lang, "decoder.abl_sentence", first=float(np.mean(loss["repeated"]["first_copy"])),
                second=float(np.mean(loss["repeated"]["intact"])), ordinary=float(np.mean(loss["ordinary"]["intact"])),
                n_rep=len(loss["repeated"]["intact"]), n_ord=len(loss["ordinary"]["intact"]),
                T=d["protocol"]["REPEAT"]["length"], family=len(fam), parts=text(lang, "decoder.abl_join").join(parts))


def knockout_heads_sentence(lang: str, r: dict | None = None, scores: dict | None = None) -> str:
    """Which heads are cut at each k (layer, head and prefix-matching score) and how the control is drawn."""
    r = r or knockout_result()
    m = _maps(scores or result())["prefix"]
    ks, sep = r["data"]["protocol"]["K"], text(lang, "decoder.abl_list_sep")
    small, large = (r["data"]["heads"][str(k)] for k in (ks[0], ks[-1]))

    def listed(heads):
        return sep.join(text(lang, "decoder.abl_head_item", L=L, h=h, s=float(m[L, h])) for L, h in heads)

    return text(lang, "decoder.abl_heads", k1=ks[0], k2=ks[-1], first=listed(small), more=listed(large[ks[0]:]),
                units=len(r["data"]["random"][str(ks[0])]))


def knockout_bullet(lang: str, r: dict | None = None) -> str:
    """The two-minute version's bullet: the zero cut of the smallest k against intact and against random heads,
    and on ordinary text."""
    r = r or knockout_result()
    fam, k = knockout_family(r), r["data"]["protocol"]["K"][0]
    minimum = r["data"]["protocol"]["MINIMUM"]
    rep, rnd, ordn = (fam[k, "zero", c] for c in ("cut-intact:repeated", "top-random:repeated", "cut-intact:ordinary"))
    return text(lang, "decoder.bullet.ablation", k=k, a=rep.mean_a, b=rep.mean_b, d=_diff(rep, lang),
                v=_verdict(lang, rep, minimum), rnd=rnd.mean_a,
                vr=text(lang, f"decoder.bullet.vs_random_{rnd.verdict}", n=rnd.n, minimum=minimum),
                do=_diff(ordn, lang),
                vo=_verdict(lang, ordn, minimum))


def induction_page_sentence(lang: str) -> str:
    """What zeroing the induction head did in the induction page's 2-layer models (results/induction.json)."""
    from ..induction.report import cause_family

    one, four = (cause_family(None, s)["ablate_induction"] for s in ((2, 1), (2, 4)))
    return text(lang, "decoder.abl_induction", one=_diff(one, lang), four=_diff(four, lang), seeds=one.n,
                a1=one.mean_a, b1=one.mean_b, a4=four.mean_a, b4=four.mean_b)


def knockout_reading(lang: str, r: dict | None = None) -> str:
    """Two readings of the table, with their numbers: how much of the gap between the first copy and the second the
    zero cut closes at each k, and how far from 0 the ordinary-text intervals reach, against the protocol's minimum."""
    r = r or knockout_result()
    d, fam = r["data"], knockout_family(r)
    loss, minimum = d["loss"]["repeated"], d["protocol"]["MINIMUM"]
    first, intact = float(np.mean(loss["first_copy"])), float(np.mean(loss["intact"]))
    shares = [(float(np.mean(loss[f"top{k}-zero"])) - intact) / (first - intact) for k in d["protocol"]["K"]]
    ordinary = [c for (k, cut, comp), c in fam.items() if comp == "cut-intact:ordinary"]
    bound = max(max(abs(c.lo), abs(c.hi)) for c in ordinary)
    return text(lang, "decoder.abl_reading", k1=d["protocol"]["K"][0], k2=d["protocol"]["K"][-1], s1=shares[0],
                s2=shares[-1], n=len(ordinary), bound=bound, minimum=minimum,
                inside=text(lang, "decoder.abl_inside" if bound < minimum else "decoder.abl_outside", minimum=minimum))
def quick_decode(prompt, cached, again, angles_shape, lang: str) -> str:
    """The page's small run on a tiny random decoder: the tokens generate gave after the prompt with the cache
    and without it, whether they agree, and the shape of rope_angles' cos and sin for the prompt's positions."""
    import torch

    if not all(isinstance(t, torch.Tensor) and t.dim() == 2 and t.size(0) == 1 for t in (prompt, cached, again)):
        raise ValueError("expected the prompt and both generations as (1, L) token tensors")
    P = prompt.size(1)
    if cached.size(1) <= P or cached.shape != again.shape or not torch.equal(cached[:, :P], prompt):
        raise ValueError(f"expected both generations to start with the {P}-token prompt and add the same number "
                         f"of tokens, got shapes {tuple(cached.shape)} and {tuple(again.shape)}")
    same = torch.equal(cached, again)
    shape = tuple(angles_shape)
    return text(lang, "decoder.quick_decode", prompt=prompt[0].tolist(), n=cached.size(1) - P,
                cached=cached[0, P:].tolist(), again=again[0, P:].tolist(),
                same=text(lang, "decoder.quick_same" if same else "decoder.quick_differs"),
                P=P, shape=f"({shape[0]}, {shape[1]})", pairs=shape[1])


def quick_scores(prev, prefix, sink, lang: str) -> str:
    """A table of the three scores (h,) of the made-up heads of heads.ideal_weights, one row per head."""
    from ..tables import md_table

    names = text(lang, "decoder.quick_heads")
    if not (len(prev) == len(prefix) == len(sink) == len(names)):
        raise ValueError(f"expected the {len(names)} made-up heads' scores, got {len(prev)}, {len(prefix)} and "
                         f"{len(sink)}")
    rows = [[name, f"{float(a):.2f}", f"{float(b):.2f}", f"{float(c):.2f}"]
            for name, a, b, c in zip(names, prev, prefix, sink)]
    return md_table(text(lang, "decoder.quick_scores_head"), rows, align="lrrr")


# The decoding timings with and without key/value head copies (results/decoder-timing.json, measured by
# snippets.decoder.timing).
TIMING = "decoder-timing"


def timing_result() -> dict:
    return load(TIMING)


def _timing_data(r: dict | None) -> dict:
    d = (r or timing_result())["data"]
    if not isinstance(d, dict) or not {"params", "rows"} <= d.keys():
        raise ValueError(f"expected a decoding-timing result with 'params' and 'rows', got "
                         f"{sorted(d) if isinstance(d, dict) else type(d).__name__}")
    return d


def _timing_row(d: dict, L: int, method: str) -> dict:
    for row in d["rows"]:
        if row["L"] == L and row["method"] == method:
            return row
    raise ValueError(f"no timing for L={L!r}, method={method!r}; measured L in {d['params']['lengths']}")


def timing_family(r: dict | None = None) -> dict[int, benchreport.Ratio]:
    """Per cached length L: time per token without head copies over with them, paired by round, Holm-corrected
    over the lengths."""
    d = _timing_data(r)
    Ls = d["params"]["lengths"]
    pairs = [(_timing_row(d, L, "grouped")["samples"], _timing_row(d, L, "copies")["samples"]) for L in Ls]
    return dict(zip(Ls, benchreport.ratio_family(pairs), strict=True))


def timing_header(lang: str) -> list[str]:
    return text(lang, "decoder.timing_head")


def _judged(lang: str, r: benchreport.Ratio) -> str:
    return text(lang, "decoder.timing_judged", ratio=benchreport.ratio_text(lang, r.ratio, 2),
                level=benchreport.level_text(r.level),
                verdict=text(lang, f"bench.verdict_{r.verdict}", minimum=f"{benchreport.MINIMUM - 1:.0%}"))


def timing_rows(lang: str, r: dict | None = None) -> list[list[str]]:
    """One row per cached length: the cache's MiB (float32, all layers), ms per token with copies and without
    (median [IQR] over the rounds), and without over with, judged."""
    d = _timing_data(r)
    family = timing_family(r)
    rows = []
    for L in d["params"]["lengths"]:
        cells = []
        for method in ("copies", "grouped"):
            t = benchreport.interval(_timing_row(d, L, method)["samples"])
            cells.append(benchreport.ms_spread(t.median, t.low, t.high, grouped=True))
        rows.append([f"{L:,}", f"{_timing_row(d, L, 'copies')['cache_bytes'] / 2**20:,.1f}", *cells,
                     _judged(lang, family[L])])
    return rows


def timing_sentence(lang: str, r: dict | None = None) -> str:
    """What the timings say: both ways compute the same logits (the largest difference), and at which lengths
    leaving out the copies made a step measurably faster."""
    d = _timing_data(r)
    p, family = d["params"], timing_family(r)
    faster = [L for L, f in family.items() if f.verdict == "lower"]
    diff = max(row["max_logit_difference"] for row in d["rows"])
    Ls = p["lengths"]
    big = family[Ls[-1]]
    if len(faster) == len(Ls):
        where = text(lang, "decoder.timing_all", n=len(Ls), L=f"{Ls[-1]:,}", share=1 - big.ratio.median)
    elif faster:
        where = text(lang, "decoder.timing_some", n=len(Ls),
                     lengths=text(lang, "decoder.timing_sep").join(f"{L:,}" for L in faster))
    else:
        where = text(lang, "decoder.timing_none", n=len(Ls))
    return text(lang, "decoder.timing_sentence", diff=typeset(f"{diff:.0e}"), g=p["num_kv_heads"], h=p["num_heads"],
                layers=p["num_layers"], where=where)


def quick_copies(L: int, shape: tuple[int, ...], diff: float, lang: str) -> str:
    """The small run's sentence: both forms' logits after L cached positions, and their largest difference."""
    return text(lang, "decoder.quick_copies", L=L, shape=shape, diff=typeset(f"{diff:.1e}"),
                same=text(lang, "decoder.quick_same" if diff < 1e-4 else "decoder.quick_differs"))


def quick_cut(layer: int, head: int, fill: str, moved: float, back: float, lang: str) -> str:
    """The small run of heads_cut: how far cutting one head moved the logits, and what is left after the block."""
    return text(lang, "decoder.quick_cut", layer=layer, head=head, fill=text(lang, f"decoder.quick_fill_{fill}"),
                moved=typeset(f"{moved:.3g}"), back=typeset(f"{back:.1e}"),
                restored=text(lang, "decoder.quick_restored" if back == 0 else "decoder.quick_not_restored"))
