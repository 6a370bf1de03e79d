"""Cutting SmolLM2-135M's top induction heads: does the model need them? (``python -m sitebuild.results
decoder-ablation``, results/decoder-ablation.json).

The protocol, fixed before any run (PROTOCOL below):

- **Which heads.** The k heads with the highest prefix-matching score in the committed decoder-heads
  result (scored on its own repeated sequences, seed 0), for k = 5 and k = 10.
- **How they are cut.** A head's output (its d_k numbers per position, before W_o mixes the heads) is
  replaced. Zero ablation: by zeros. Mean ablation: by that head's mean output over every position of
  every unit of the same kind (repeated or ordinary text), taken from the intact model; the head then
  still adds its average, but nothing that depends on the token.
- **Control.** As many heads drawn at random from the same layers (for each top head, one other head
  of its layer that is not among the top k), drawn again for each unit from a seeded generator, and cut
  the same way.
- **Units.** (a) 16 random token sequences shown twice (50 tokens per copy, seed 1: not the sequences
  the heads were chosen on); the loss is over the second copy's predictable tokens (positions T + 1 ...
  2T - 1). (b) 16 passages of ordinary text: the zh and en passages of texts.json, each split in four
  at sentence ends, and passages.json's four per language; the loss is over every next token.
- **Measure.** Mean next-token cross-entropy (nats) per unit.
- **Comparisons** (one family, Holm, with the exact sign-flip test, 16 paired units each; a difference
  under MINIMUM nats is negligible): for each k and each kind of cut, cut - intact on repeated text,
  cut - intact on ordinary text, top k - random k on repeated text: 2 x 2 x 3 = 12.

Shape letters: N units, L positions, h heads, d_k head width, n layers.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor

import resultcache

from .heads import EN_TEXT, ZH_TEXT, repeated_tokens
from .model import LlamaDecoder, shared_model
from .reference import encode
from .weights import file_hash

__all__ = ["PROTOCOL", "PASSAGES", "split_passage", "ordinary_passages", "top_heads", "random_heads", "heads_cut",
           "head_means", "unit_losses", "measure"]

PROTOCOL = {
    "K": [5, 10],  # heads cut at once
    "CUTS": ["zero", "mean"],
    "SCORE_RESULT": "decoder-heads",  # the heads are ranked by this committed result's prefix-matching score
    "REPEAT": {"sequences": 16, "length": 50, "low": 1000, "high": 40000, "seed": 1},
    "SPLIT": 4,  # each committed passage is cut into this many units
    "RANDOM_SEED": 0,  # the control heads of unit i: torch.Generator seeded RANDOM_SEED * 1000 + i
    "MINIMUM": 0.1,  # nats: smaller differences are negligible (the induction page's minimum)
    "COMPARISONS": ["cut-intact:repeated", "cut-intact:ordinary", "top-random:repeated"],
}
PASSAGES = json.loads(Path(__file__).with_name("passages.json").read_text(encoding="utf-8"))
_SENTENCE_END = {"zh": r"(?<=[。？！])", "en": r"(?<=[.?!])\s+"}
_JOIN = {"zh": "", "en": " "}  # what stood between two sentences


def split_passage(text: str, parts: int, lang: str) -> list[str]:
    """Cut text at sentence ends into `parts` consecutive pieces of about equal length (in characters).

    >>> split_passage("One. Two. Three. Four.", 2, "en")
    ['One. Two.', 'Three. Four.']
    """
    if lang not in _SENTENCE_END:
        raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
    sentences = [s for s in re.split(_SENTENCE_END[lang], text.strip()) if s]
    if not isinstance(parts, int) or not 1 <= parts <= len(sentences):
        raise ValueError(f"parts must be an integer from 1 to the {len(sentences)} sentences, got {parts!r}")
    sep = _JOIN[lang]
    ends = np.cumsum([len(s) for s in sentences])  # characters up to each sentence's end
    cuts, last = [], 0
    for j in range(1, parts):  # the sentence end nearest j / parts of the text, leaving one per part to come
        allowed = np.arange(last + 1, len(sentences) - (parts - j) + 1)
        last = int(allowed[np.argmin(np.abs(ends[allowed - 1] - ends[-1] * j / parts))])
        cuts.append(last)
    bounds = [0] + cuts + [len(sentences)]
    return [sep.join(sentences[a:b]) for a, b in zip(bounds, bounds[1:])]


def ordinary_passages() -> list[tuple[str, str]]:
    """(name, text): the committed zh and en passages split in PROTOCOL['SPLIT'], then passages.json's."""
    out = []
    for lang, text in (("zh", ZH_TEXT), ("en", EN_TEXT)):
        parts = split_passage(text, PROTOCOL["SPLIT"], lang) + PASSAGES[lang]
        out += [(f"{lang}-{i + 1}", p) for i, p in enumerate(parts)]
    return out


def _score_map(result: dict | None = None) -> np.ndarray:
    if result is None:
        path = resultcache.results_dir() / f"{PROTOCOL['SCORE_RESULT']}.json"
        result = json.loads(path.read_text(encoding="utf-8"))
    return np.array(result["data"]["scores"]["repeated"]["prefix"])  # (n, h)


def top_heads(k: int, result: dict | None = None) -> list[tuple[int, int]]:
    """The k (layer, head) pairs with the highest prefix-matching score, highest first."""
    m = _score_map(result)
    if not isinstance(k, int) or not 1 <= k <= m.size:
        raise ValueError(f"k must be an integer from 1 to {m.size}, got {k!r}")
    flat = np.argsort(-m, axis=None, kind="stable")[:k]
    return [(int(i // m.shape[1]), int(i % m.shape[1])) for i in flat]


def random_heads(top: list[tuple[int, int]], num_heads: int, seed: int) -> list[tuple[int, int]]:
    """For each top head, another head of its layer, not among the top ones, drawn without replacement."""
    g = torch.Generator().manual_seed(seed)
    chosen, out = set(top), []
    for layer, _ in top:
        free = [h for h in range(num_heads) if (layer, h) not in chosen]
        if not free:
            raise ValueError(f"layer {layer} has no head left to draw: all {num_heads} are cut or drawn")
        pick = (layer, free[int(torch.randint(len(free), (1,), generator=g))])
        chosen.add(pick)
        out.append(pick)
    return out


# --8<-- [start:cut]
@contextlib.contextmanager
def heads_cut(model: LlamaDecoder, cut: dict, fill: dict):
    """Within the block, replace chosen heads' outputs before W_o.
    cut[layer]: (N, h) booleans, True where unit n's head is cut;
    fill[layer]: (h, d_k), what goes in its place (zeros or a mean)."""
    def hook(layer):
        def pre(W_o, args):
            x = args[0]  # (N, L, h * d_k): the heads side by side
            N, L, _ = x.shape
            f = fill[layer]  # (h, d_k)
            x = x.view(N, L, *f.shape)  # (N, L, h, d_k)
            c = cut[layer][:, None, :, None]  # (N, 1, h, 1)
            return torch.where(c, f, x).flatten(2)  # (N, L, h * d_k)
        return pre

    handles = [model.blocks[i].attn.W_o.register_forward_pre_hook(hook(i))
               for i in cut]
    try:
        yield model
    finally:
        for h in handles:
            h.remove()
# --8<-- [end:cut]


@torch.no_grad()
def head_means(model: LlamaDecoder, units: list[Tensor]) -> dict[int, Tensor]:
    """Each layer's per-head mean output (h, d_k) over every position of every unit (each (N, L))."""
    cfg = model.cfg
    sums = {i: torch.zeros(cfg.num_heads, cfg.d_k, dtype=torch.float64) for i in range(cfg.num_layers)}
    count = [0]

    def hook(layer):
        def pre(W_o, args):
            x = args[0]  # (N, L, h * d_k)
            sums[layer] += x.double().sum((0, 1)).view(cfg.num_heads, cfg.d_k)
            if layer == 0:
                count[0] += x.shape[0] * x.shape[1]
        return pre

    handles = [b.attn.W_o.register_forward_pre_hook(hook(i)) for i, b in enumerate(model.blocks)]
    try:
        for ids in units:
            model(ids)
    finally:
        for h in handles:
            h.remove()
    return {i: (s / count[0]).float() for i, s in sums.items()}


def _loss(logits: Tensor, ids: Tensor, first: int) -> Tensor:
    """(N,) mean cross-entropy of predicting ids[:, t + 1] from position t, for t >= first."""
    pred = logits[:, first:-1]  # (N, L', V)
    return F.cross_entropy(pred.transpose(1, 2), ids[:, first + 1:], reduction="none").mean(1)


@torch.no_grad()
def unit_losses(model: LlamaDecoder, units: list[Tensor], first: int, heads: list[list[tuple[int, int]]] | None = None,
                fill: dict | None = None) -> list[float]:
    """Mean loss of each unit (a (N, L) batch; from position `first` on), with heads[j] cut in unit j (None: intact)."""
    out, j = [], 0
    for ids in units:
        N = ids.shape[0]
        if heads is None:
            logits = model(ids)
        else:
            cut = {}
            for n in range(N):
                for layer, h in heads[j + n]:
                    cut.setdefault(layer, torch.zeros(N, model.cfg.num_heads, dtype=torch.bool))[n, h] = True
            with heads_cut(model, cut, fill):
                logits = model(ids)
        out += [round(float(x), 5) for x in _loss(logits, ids, first)]
        j += N
    return out


def measure(record=None) -> dict:
    """Everything the page shows about the cut heads (one command: ``python -m sitebuild.results decoder-ablation``)."""
    record = record or (lambda run: contextlib.nullcontext())
    torch.set_num_threads(1)
    model = shared_model()
    cfg = model.cfg
    rep = PROTOCOL["REPEAT"]
    T = rep["length"]
    kinds = {"repeated": ([repeated_tokens(**rep)], T),  # one (16, 2T) batch; loss from position T on
             "ordinary": ([encode(text, model) for _, text in ordinary_passages()], 0)}  # (1, L) each
    n_units = {"repeated": rep["sequences"], "ordinary": len(ordinary_passages())}
    data = {"file_sha256": file_hash(), "protocol": PROTOCOL,
            "units": {"repeated": [2 * T] * rep["sequences"],
                      "ordinary": [[name, encode(text, model).shape[1]] for name, text in ordinary_passages()]},
            "heads": {}, "random": {}, "loss": {}}
    zeros = {i: torch.zeros(cfg.num_heads, cfg.d_k) for i in range(cfg.num_layers)}
    for k in PROTOCOL["K"]:
        top = top_heads(k)
        data["heads"][str(k)] = [list(x) for x in top]
        seeds = [PROTOCOL["RANDOM_SEED"] * 1000 + i for i in range(max(n_units.values()))]
        data["random"][str(k)] = [[list(x) for x in random_heads(top, cfg.num_heads, s)] for s in seeds]
    for kind, (units, first) in kinds.items():
        n = n_units[kind]
        with record(f"{kind}: intact and head means"):
            loss = {"intact": unit_losses(model, units, first)}
            if kind == "repeated":
                loss["first_copy"] = unit_losses(model, [u[:, :T] for u in units], 0)
            means = head_means(model, units)
        for cut in PROTOCOL["CUTS"]:
            fill = zeros if cut == "zero" else means
            for k in PROTOCOL["K"]:
                with record(f"{kind}: {cut} cut of {k} heads, top and random"):
                    top = [tuple(x) for x in data["heads"][str(k)]]
                    loss[f"top{k}-{cut}"] = unit_losses(model, units, first, [top] * n, fill)
                    rnd = [[tuple(x) for x in r] for r in data["random"][str(k)][:n]]
                    loss[f"random{k}-{cut}"] = unit_losses(model, units, first, rnd, fill)
        data["loss"][kind] = loss
    assert all(math.isfinite(x) for v in data["loss"].values() for xs in v.values() for x in xs)
    return data
