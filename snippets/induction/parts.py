"""A layer-0 head's output split into a token part and a position part, and a forward that lets a later layer
read only one part of it.

The model's layer 0 reads exactly the token embedding plus the position embedding (no LayerNorm, no
biases), so each layer-0 head's output is exactly the sum of two parts: its attention applied to values
computed from the token embeddings alone, and the same attention applied to values computed from the
position embeddings alone (``head_parts``). The attention pattern is the head's own in both.

``forward_parts`` runs AttentionOnly's forward with one more switch beside ``cut``:

- ``keep``: {(0, src_head, dst_layer, part): what}, what one of "pos", "tok", "mean": in layer dst_layer's
  queries, keys or values (part), the layer-0 head's output is replaced by only its position part, only its
  token part, or its mean over every position of every sequence in the batch. The other parts of that
  layer's input, later layers and the unembedding still see the whole output.

It lives beside the model rather than in it: the model's code is fingerprinted by every committed
induction result, and a switch in it would oblige all of them to be trained again. Tests hold it to
the model's own forward (no switch, and a cut) exactly.

Shape letters: N batch, T positions, E d_model, D d_head.

>>> torch.manual_seed(0); m = AttentionOnly(2, 2)
<torch._C.Generator object at ...>
>>> x = torch.randint(VOCAB, (3, 10))
>>> tok, pos = head_parts(m, x, 1)
>>> tok.shape, pos.shape
(torch.Size([3, 10, 64]), torch.Size([3, 10, 64]))
>>> bool(torch.allclose(forward_parts(m, x), m(x), atol=1e-6))
True
>>> forward_parts(m, x, keep={(0, 1, 1, "q"): "all"})
Traceback (most recent call last):
...
ValueError: expected what to keep of a head's output, one of ('pos', 'tok', 'mean'), got 'all'
"""

from __future__ import annotations

import math

import torch
from torch import Tensor

from .model import PARTS, AttentionOnly, _check_head, _check_switches, _removed
from .task import VOCAB

__all__ = ["KEEP", "head_parts", "forward_parts"]

KEEP = ("pos", "tok", "mean")  # what of a layer-0 head's output a later layer may keep


def _pattern(model: AttentionOnly, inp: Tensor, layer: int, head: int) -> Tensor:
    """One head's causal attention pattern (N, T, T) on the stream inp (N, T, E)."""
    q = inp @ model.W_Q[layer, head]  # (N, T, D)
    k = inp @ model.W_K[layer, head]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    T = inp.shape[1]
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    return scores.masked_fill(~causal, float("-inf")).softmax(-1)


# --8<-- [start:parts]
def head_parts(model, x, head):
    """Layer-0 head `head`'s output (N, T, E) as its token part and its
    position part: the same attention, values from one embedding each."""
    tok = model.embed(x)                          # (N, T, E)
    pos = model.pos(torch.arange(x.shape[1]))     # (T, E)
    attn = _pattern(model, tok + pos, 0, head)    # (N, T, T)
    W_V, W_O = model.W_V[0, head], model.W_O[0, head]
    return attn @ tok @ W_V @ W_O, attn @ pos @ W_V @ W_O
# --8<-- [end:parts]


def _check_keep(model: AttentionOnly, keep) -> dict:
    """{(dst_layer, part): [(src_head, what), ...]} from keep {(0, src_head, dst_layer, part): what}."""
    if not isinstance(keep, dict):
        raise ValueError(f"expected keep as a dict {{(0, head, dst_layer, part): what}}, got {type(keep).__name__}")
    by_target: dict = {}
    for path, what in keep.items():
        if not (isinstance(path, tuple) and len(path) == 4):
            raise ValueError(f"expected a path (0, head, dst_layer, part), got {path!r}")
        src_layer, src_head, dst_layer, part = path
        _check_head(model, src_layer, src_head)
        if src_layer != 0:
            raise ValueError(f"only a layer-0 head's output splits into token and position parts; expected "
                             f"src_layer 0, got {src_layer}")
        if not 0 < dst_layer < model.num_layers:
            raise ValueError(f"expected a dst_layer in 1..{model.num_layers - 1}, got {dst_layer}")
        if part not in PARTS:
            raise ValueError(f"expected a part, one of {PARTS}, got {part!r}")
        if what not in KEEP:
            raise ValueError(f"expected what to keep of a head's output, one of {KEEP}, got {what!r}")
        by_target.setdefault((dst_layer, part), []).append((src_head, what))
    return by_target


def forward_parts(model: AttentionOnly, x: Tensor, keep: dict | None = None, cut=frozenset()) -> Tensor:
    """AttentionOnly's forward (no ablation) with the keep switch above: logits (N, T, V)."""
    cuts = _check_switches(model, x, frozenset(), cut)
    kept = _check_keep(model, {} if keep is None else keep)
    for (dst_layer, part), heads in kept.items():
        for src_head, _ in heads:
            if (0, src_head) in cuts.get((dst_layer, part), ()):
                raise ValueError(f"a head is either cut from a part or has a part of it kept, got both for "
                                 f"{(0, src_head, dst_layer, part)}")
    T = x.shape[1]
    stream = model.embed(x) + model.pos(torch.arange(T))  # (N, T, E)
    outputs = []
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    replaced: dict = {}  # (head, what) -> what replaces that layer-0 head's output
    for layer in range(model.num_layers):
        ins = []
        for p in PARTS:
            inp = stream - _removed(outputs, cuts, layer, p)
            for head, what in kept.get((layer, p), ()):
                if (head, what) not in replaced:
                    out = outputs[0][:, head]
                    tok, pos = head_parts(model, x, head)
                    replaced[head, what] = {"tok": tok, "pos": pos,
                                            "mean": out.mean((0, 1)).expand_as(out)}[what]
                inp = inp - outputs[0][:, head] + replaced[head, what]
            ins.append(inp)
        q_in, k_in, v_in = ins
        q = torch.einsum("nte,hed->nhtd", q_in, model.W_Q[layer])
        k = torch.einsum("nte,hed->nhtd", k_in, model.W_K[layer])
        v = torch.einsum("nte,hed->nhtd", v_in, model.W_V[layer])
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        attn = scores.masked_fill(~causal, float("-inf")).softmax(-1)
        out = torch.einsum("nhtd,hde->nhte", attn @ v, model.W_O[layer])  # (N, H, T, E)
        outputs.append(out)
        stream = stream + out.sum(1)
    return model.unembed(stream)
