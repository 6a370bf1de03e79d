from __future__ import annotations

import html
import re

import numpy as np
import pytest

from snippets import schematics as S
from snippets.figures import PHONE_COLUMN_PX
from snippets.heads import concat_vs_sum
from snippets.logline import log_tokens

CJK = re.compile(r"[\u3400-\u9fff]")
FIGURES = ["layer_figure", "wo_sum_figure", "inproj_figure", "reshape_figure", "average_figure", "task_figure",
           "kv_groups_figure", "kv_cache_figure", "mla_figure"]


def alt_of(fig: str) -> str:
    return html.unescape(re.search(r'aria-label="([^"]*)"', fig).group(1))


@pytest.mark.parametrize("name", FIGURES)
def test_schematic_is_a_legible_deterministic_figure_in_both_languages(name):
    draw = getattr(S, name)
    zh, en = draw("zh"), draw("en")
    assert zh == draw("zh")
    for fig in (zh, en):
        assert fig.startswith('<figure class="mha-fig">')  # not the wide kind: a phone shows it whole
        assert int(re.search(r"min-width: (\d+)px", fig).group(1)) <= S.PHONE_FIGURE_PX < PHONE_COLUMN_PX
        assert "currentColor" in fig and "#010203" not in fig and "<figcaption>" in fig
        assert "clip-path=" not in fig and "rotate(-0" not in fig  # compacted
        sizes = [float(s) for s in re.findall(r"font-size: ?([\d.]+)px", fig)]
        assert sizes and min(sizes) >= 10
    assert CJK.search(alt_of(zh)) and not CJK.search(alt_of(en))
    assert CJK.search(zh.split("<figcaption>")[1]) and not CJK.search(en.split("<figcaption>")[1])


LESSON_FIGURES = ["layer_figure", "wo_sum_figure", "inproj_figure", "reshape_figure", "average_figure"]


@pytest.mark.parametrize("name", LESSON_FIGURES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lesson_schematics_keep_their_labels_at_11px_on_a_phone(name, lang):
    """§2 and §3's schematics fill the phone's 324 px result box; there a label's size is its font size
    times 324 / the viewBox width, and none may fall under PHONE_LABEL_PX (browser check:
    tests/browser/test_readable.py)."""
    fig = getattr(S, name)(lang)
    width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) [\d.]+"', fig).group(1))
    smallest = min(float(s) for s in re.findall(r"font-size: ?([\d.]+)px", fig))
    assert smallest * S.PHONE_FIGURE_PX / width >= S.PHONE_LABEL_PX


def test_wrap_label_breaks_between_words_never_inside_a_shape():
    s = "切成 8 个头，每个头的 q、k、v 宽 64：(1, 8, 11, 64)"
    assert S.wrap_label(s, 1000) == s
    lines = S.wrap_label(s, 150).split("\n")
    assert len(lines) > 1 and "(1, 8, 11, 64)" in lines and "".join(lines).replace(" ", "") == s.replace(" ", "")
    assert all(S.wrap_label(line, 150) == line for line in lines)  # each line fits
    assert S.wrap_label("(1, 8, 11, 64)", 10) == "(1, 8, 11, 64)"  # no break allowed: stays whole


@pytest.mark.parametrize(("d_model", "h"), [(512, 8), (64, 4)])
def test_layer_sketch_follows_its_configuration(d_model, h):
    sk = S.layer_sketch("en", d_model, h)
    L, d_k = len(log_tokens()), d_model // h
    c = sk.counts()
    assert c["proj-stripe"] == 3 * h and c["qkv"] == 3 * h  # each head's part of W_Q, W_K, W_V; its q, k, v
    assert c["map"] == c["head-out"] == c["concat-seg"] == c["wo-band"] == h
    assert sk.labels("head-index") == [str(i) for i in range(h)]
    assert sk.labels("matrix") == ["W^Q", "W^K", "W^V", "W^O"]
    steps = " ".join(sk.labels("step"))
    for shape in [(1, L, d_model), (1, h, L, d_k), (1, h, L, L)]:
        assert "(" + ", ".join(map(str, shape)) + ")" in steps
    maps = [d["values"] for kind, tag, d in sk.items if tag == "map"]
    assert all(m.shape == (L, L) and abs(m.sum(1) - 1).max() < 1e-5 for m in maps)  # real softmax rows
    assert sk.width <= S.WIDTH


@pytest.mark.parametrize(("d_model", "h"), [(512, 8), (96, 3)])
def test_wo_sum_sketch_has_one_term_per_head(d_model, h):
    sk = S.wo_sum_sketch("en", d_model, h)
    c = sk.counts()
    assert c["concat-seg"] == c["wo-band"] == c["head-slice"] == c["wo-block"] == h
    assert sk.labels("term") == [f"head {i}" for i in range(h)] + ["bias b"]
    assert sk.labels("op").count("+") == h  # between the h terms, and before the bias
    L = len(log_tokens())
    assert f"head i ({L}, {d_model // h})" in " ".join(sk.labels("step"))
    assert f"({d_model // h}, {d_model})" in " ".join(sk.labels("step"))
    fig = S.wo_sum_figure("en", d_model, h)
    assert f"at most {concat_vs_sum(d_model, h):.1e}: only floating-point rounding" in fig


@pytest.mark.parametrize(("d_model", "h"), [(512, 8), (96, 3)])
def test_inproj_sketch_cuts_the_packed_weight(d_model, h):
    sk = S.inproj_sketch("en", d_model, h)
    E, d_k = d_model, d_model // h
    c = sk.counts()
    assert c["packed-band"] == c["part-band"] == 3 * h and c["packed-section"] == c["part-frame"] == 3
    assert sk.labels("shape") == [f"({3 * E}, {E})"]
    assert sk.labels("matrix") == [f"{n} ({E}, {E})" for n in ("W_q", "W_k", "W_v")]
    assert sk.labels("rows") == [f"rows {m * E}–{(m + 1) * E - 1} = .chunk(3)[{m}]" for m in range(3)]
    assert sk.labels("head-rows")[0] == f"head 0: rows 0–{d_k - 1} … head {h - 1}: {(h - 1) * d_k}–{E - 1}"


@pytest.mark.parametrize(("d_model", "h"), [(512, 8), (64, 4)])
def test_reshape_sketch_regroups_tokens_into_heads(d_model, h):
    L = len(log_tokens())
    assert S.reshape_shapes(d_model, h) == [(1, L, d_model), (1, L, h, d_model // h), (1, h, L, d_model // h),
                                            (1, L, d_model)]
    sk = S.reshape_sketch("en", d_model, h)
    strips = {tag: [d["colors"] for _, t, d in sk.items if t == tag] for tag in ("token", "piece", "head", "merged")}
    colors = [S._color(i) for i in range(h)]
    for tag in ("token", "piece", "merged"):  # L tokens, each holding the h heads' pieces in order
        assert strips[tag] == [colors] * L
    assert strips["head"] == [[c] * L for c in colors]  # h heads, each holding L tokens
    assert sk.labels("head-index") == [str(i) for i in range(h)]
    assert sk.labels("token-index") == [str(i) for i in range(L)]


@pytest.mark.parametrize("h", [8, 2])
def test_average_sketch_draws_each_head_and_their_mean(h):
    sk = S.average_sketch("en", 512, h)
    c = sk.counts()
    assert c["map"] == c["to-mean"] == h and c["mean-map"] == 1
    maps = [d["values"] for _, t, d in sk.items if t == "map"]
    mean = next(d["values"] for _, t, d in sk.items if t == "mean-map")
    np.testing.assert_allclose(np.mean(maps, axis=0), mean, atol=1e-6)
    L = len(log_tokens())
    assert sk.labels("step") == [f"average_attn_weights=False: one map per head, (1, {h}, {L}, {L})",
                                 f"the default (True): their mean over the heads, (1, {L}, {L})"]


@pytest.mark.parametrize(("position", "seq_len", "offsets"), [(7, 16, (-2, -1, 1, 2)), (1, 8, (-3, -1, 1))])
def test_task_sketch_names_what_make_batch_asks(position, seq_len, offsets):
    from snippets.whatif.report import SAMPLE_SEED
    from snippets.whatif.task import EVENTS, IGNORE, make_batch

    x, y = make_batch(1, seed=SAMPLE_SEED, seq_len=seq_len, offsets=offsets)
    sk = S.task_sketch("en", position, seq_len=seq_len, offsets=offsets)
    c = sk.counts()
    inside = [t for t, o in enumerate(offsets) if 0 <= position + o < seq_len]
    assert c["event"] == seq_len and sk.labels("event-name") == [EVENTS[int(i)] for i in x[0]]
    assert c["target"] == c["link"] == c["answer-mark"] == len(inside)
    answers = sk.labels("answer")
    assert len(answers) == len(offsets)
    for t, o in enumerate(offsets):
        side = "before" if o < 0 else "after"
        if y[0, position, t] == IGNORE:
            assert answers[t] == f"{abs(o)} {side}: outside, not scored"
        else:
            assert answers[t] == f"{abs(o)} {side}: {EVENTS[int(x[0, position + o])]}"


def test_kv_groups_are_the_layers_repeat_interleave():
    import torch

    from snippets.kvheads.attention import GroupedQueryAttention

    assert S.kv_groups(8, 8) == list(range(8)) and S.kv_groups(8, 1) == [0] * 8
    assert S.kv_groups(6, 3) == [0, 0, 1, 1, 2, 2]
    # the layer itself: key head j's keys, repeated, land on exactly the query heads kv_groups names
    layer = GroupedQueryAttention(d_model=16, num_heads=4, num_kv_heads=2)
    k = torch.arange(2.0).view(1, 2, 1, 1)  # (N, g, S, d_k), key head j holds j
    assert k.repeat_interleave(layer.h // layer.g, dim=1).flatten().tolist() == S.kv_groups(4, 2)


@pytest.mark.parametrize(("h", "groups"), [(8, (8, 4, 2, 1)), (4, (4, 1))])
def test_kv_groups_sketch_follows_its_configuration(h, groups):
    sk = S.kv_groups_sketch("en", h, groups)
    c = sk.counts()
    assert c["q-head"] == c["link"] == h * len(groups)
    assert c["kv-head"] == sum(groups)
    assert sk.labels("band")[0] == f"g = {groups[0]} · MHA" and sk.labels("band")[-1] == "g = 1 · MQA"
    assert sk.labels("kv-index") == [str(j) for g in groups for j in range(g)]
    # each line ends under the key/value head of the query head it starts from
    links = [d for _, tag, d in sk.items if tag == "link"]
    heads = [d for _, tag, d in sk.items if tag == "kv-head"]
    for band, g in enumerate(groups):
        centres = [d["x"] + d["w"] / 2 for d in heads[sum(groups[:band]):sum(groups[:band + 1])]]
        ends = [d["x1"] for d in links[band * h:(band + 1) * h]]
        assert ends == pytest.approx([centres[j] for j in S.kv_groups(h, g)])


@pytest.mark.parametrize(("g", "steps"), [(2, 5), (1, 3)])
def test_kv_cache_sketch_grows_one_row_per_step(g, steps):
    seen = S.cache_schematic_rows(num_kv_heads=g, steps=steps)
    assert [k[2] for _, k in seen] == list(range(1, steps + 1))  # S after each step
    assert all(q == (1, 1, 64) and k[:2] == (1, g) for q, k in seen)
    sk = S.kv_cache_sketch("en", num_kv_heads=g, steps=steps)
    c = sk.counts()
    assert c["query"] == steps  # one query per step, none kept
    assert c["cache-new"] == steps * 2 * g  # one new row of keys and values per step
    assert c["cache-old"] == 2 * g * sum(range(steps))  # every earlier row, read again
    assert sk.labels("length") == [f"S = {s}" for s in range(1, steps + 1)]
    fig = S.kv_cache_figure("en", num_kv_heads=g, steps=steps)
    assert f"cached keys (1, {g}, {steps}, 8)" in fig


@pytest.mark.parametrize(("d_model", "h", "d_c", "steps"), [(64, 8, 32, 4), (32, 4, 16, 3)])
def test_mla_forms_are_recorded_from_the_layer(d_model, h, d_c, steps):
    m = S.mla_forms(d_model, h, d_c, steps)
    d_k = d_model // h
    assert m["cache"] == (1, steps, d_c)  # one latent per position, nothing else
    assert m["q"] == (1, h, 1, d_k) and m["kv"] == (1, h, steps, d_k)
    assert m["q_c"] == (1, h, 1, d_c) and m["out"] == (1, 1, d_model)
    # naive: W_uk and W_uv rebuild every cached position at every step; absorbed: never called
    assert m["built"]["naive"] == [(t, t) for t in range(1, steps + 1)]
    assert m["built"]["absorbed"] == [(0, 0)] * steps
    assert m["err"] < 1e-5


@pytest.mark.parametrize(("d_model", "h", "d_c", "steps"), [(64, 8, 32, 4), (32, 4, 16, 3)])
def test_mla_sketch_draws_the_latent_and_both_forms(d_model, h, d_c, steps):
    sk = S.mla_sketch("en", d_model, h, d_c, steps)
    d_k = d_model // h
    cells = {t: d for kind, t, d in sk.items if kind == "cells" and t not in ("cache", "head-out")}
    heads = [S._color(i) for i in range(h)]
    assert cells["mha-k"]["rows"] == cells["mha-v"]["rows"] == [heads]  # h heads' keys, h heads' values
    assert cells["latent"]["rows"] == [[S.AVERAGE_GREY]]  # one latent, no head's colour
    # widths count numbers: the latent is d_c wide against MHA's h·d_k keys (and as many values)
    assert cells["latent"]["w"] / cells["mha-k"]["w"] == pytest.approx(d_c / (h * d_k))
    caches = [d for kind, t, d in sk.items if t == "cache"]
    assert len(caches) == 2 and all(d["rows"] == [[S.AVERAGE_GREY]] * steps for d in caches)  # both read it
    assert cells["k-rebuilt"]["rows"] == cells["v-rebuilt"]["rows"] == [heads] * steps  # rebuilt, every row
    assert sk.count("rebuilt-frame") == 1
    assert cells["q-latent"]["rows"] == cells["ctx-latent"]["rows"] == [[c] for c in heads]
    assert cells["q-latent"]["w"] == pytest.approx(cells["latent"]["w"])  # each head's query is d_c wide
    assert sk.count("head-out") == 2 and sk.count("out") == 1  # the same output at the end of both
    assert sk.labels("form") == ["naive form", "absorbed form"]
    assert sk.labels("size") == [f"k and v: 2·h·d_k = {2 * h * d_k}", f"one latent c: d_c = {d_c}"]
    steps_text = " ".join(sk.labels("step"))
    for shape in [(1, steps, d_c), (1, h, steps, d_k), (1, h, 1, d_k), (1, h, 1, d_c), (1, 1, d_model)]:
        assert "(" + ", ".join(map(str, shape)) + ")" in steps_text
    assert f"all {steps} rows again" in steps_text and "W_ukᵀ" in steps_text and "W_uv" in steps_text
    fig = S.mla_figure("en", d_model, h, d_c, steps)
    assert f"differ by at most {S.mla_forms(d_model, h, d_c, steps)['err']:.1e}: only floating-point" in fig


def _label_boxes(sk):
    """Each label's box in points: the site font's measured width (10% slack), 1.2 lines high."""
    from snippets.figures import _text_width_in

    out = []
    for kind, tag, d in sk.items:
        if kind != "label":
            continue
        w, h = _text_width_in([d["s"]], d["size"]) * 72, 1.2 * d["size"]
        x = {"left": d["x"], "center": d["x"] - w / 2, "right": d["x"] - w}[d["ha"]]
        out.append((d["s"], x, d["y"] - h / 2, w, h))
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_mla_labels_fit_their_column_and_cover_nothing(lang):
    sk = S.mla_sketch(lang)
    labels = _label_boxes(sk)
    drawn = [(d["x"], d["y"], d["w"], d["h"]) for kind, t, d in sk.items if kind == "cells" or t == "out"]
    divider = next(d for _, t, d in sk.items if t == "divider" and d["h"] > d["w"])  # between the two forms
    for i, (s, x, y, w, h) in enumerate(labels):
        assert 0 <= x and x + w <= sk.width, s
        if divider["y"] < y < divider["y"] + divider["h"]:  # beside the divider: one side of it only
            assert x + w <= divider["x"] - 2 or x >= divider["x"] + divider["w"] + 2, s
        assert not any(_overlap((x, y, w, h), c) for c in drawn), s
        assert not any(_overlap((x, y, w, h), o[1:]) for o in labels[i + 1:]), s


def test_mla_sketch_has_the_same_drawing_in_both_languages():
    zh, en = S.mla_sketch("zh"), S.mla_sketch("en")
    assert (zh.width, zh.height) == (en.width, en.height)
    shapes = [[(k, t, d) for k, t, d in sk.items if k != "label"] for sk in (zh, en)]
    assert shapes[0] == shapes[1]
    at = [[(t, d["x"], d["y"]) for k, t, d in sk.items if k == "label"] for sk in (zh, en)]
    assert at[0] == at[1] and zh.labels() != en.labels()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: S.layer_figure("fr"), r"lang must be one of"),
        (lambda: S.layer_sketch("en", d_model=10, num_heads=3), r"divisible"),
        (lambda: S.wo_sum_sketch("en", d_model=10, num_heads=4), r"divisible"),
        (lambda: S.kv_groups(8, 3), r"num_kv_heads must divide num_heads"),
        (lambda: S.kv_groups_sketch("en", 8, ()), r"groups must name at least one"),
        (lambda: S.kv_cache_sketch("en", steps=0), r"steps must be a positive integer"),
        (lambda: S.layer_sketch("en", num_heads=64), r"at most 16 heads side by side, got num_heads=64"),
        (lambda: S.inproj_sketch("en", d_model=10, num_heads=4), r"divisible"),
        (lambda: S.reshape_sketch("en", d_model=10, num_heads=4), r"divisible"),
        (lambda: S.average_figure("xx"), r"lang must be one of"),
        (lambda: S.task_sketch("en", position=16), r"position must be an index in 0 … 15, got 16"),
        (lambda: S.mla_sketch("en", steps=0), r"steps must be a positive integer, got 0"),
        (lambda: S.mla_sketch("en", d_latent=0), r"d_latent must be a positive integer, got 0"),
        (lambda: S.mla_sketch("en", d_latent=128), r"d_latent=128 is too wide to draw beside a query: at most"),
        (lambda: S.mla_figure("de"), r"lang must be one of"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
