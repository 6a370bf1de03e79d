"""Solutions to the induction heads page's exercises (docs/lab/induction-heads.*.md);
tests/test_induction_exercises.py.

The hand-built circuit gives the residual stream four blocks of its own (Elhage et al. 2021 read a
trained model's stream the same way, as a sum of subspaces that heads write to and read from):

    [0, V)            the current token, one-hot (the token embedding)
    [V, V + T)        the position, one-hot (the position embedding)
    [V + T, 2V + T)   the previous token, written by layer 0's head
    [2V + T, 3V + T)  the copied token, written by layer 1's head; the unembedding reads only this

>>> m = induction_by_hand()
>>> m.embed.weight.shape, m.W_Q.shape
(torch.Size([64, 240]), torch.Size([2, 1, 240, 64]))
>>> induction_by_hand(sharpness=0)
Traceback (most recent call last):
...
ValueError: sharpness must be a positive number, got 0
"""

from __future__ import annotations

import torch

from resultcache import fingerprint, memory

from ..i18n import text
from ..induction.model import AttentionOnly
from ..induction.task import SEQ_LEN, VOCAB, make_repeat_batch, predictable
from ..induction.train import EVAL_SEED, losses

__all__ = ["induction_by_hand", "hand_built_losses", "hand_built_lines", "cut_rows", "offset_hits",
           "best_offset_lines"]


# --8<-- [start:by_hand]
def induction_by_hand(sharpness: float = 10.0) -> AttentionOnly:
    """2 layers x 1 head whose weights are set, not trained: layer 0
    copies the previous token, layer 1 looks up where the current token
    came before and copies what followed it."""
    if not sharpness > 0:
        raise ValueError(f"sharpness must be a positive number, "
                         f"got {sharpness}")
    V, T = VOCAB, SEQ_LEN
    TOK, POS, PREV, OUT = 0, V, V + T, 2 * V + T  # where each block starts
    E, D = 3 * V + T, V  # d_model 240, d_head 64
    m = AttentionOnly(2, 1, d_head=D, d_model=E)
    c = sharpness * D ** 0.5  # the head divides its scores by sqrt(D)
    with torch.no_grad():
        for p in m.parameters():
            p.zero_()
        eye, pos = torch.eye(V), torch.arange(T)
        m.embed.weight[:, TOK:TOK + V] = eye
        m.pos.weight[:, POS:POS + T] = torch.eye(T)
        # layer 0: position t attends to t - 1, copies its token to PREV
        m.W_Q[0, 0, POS + pos, pos] = c
        m.W_K[0, 0, POS + pos[:-1], pos[1:]] = 1.0
        m.W_V[0, 0, TOK:TOK + V] = eye
        m.W_O[0, 0, :, PREV:PREV + V] = eye
        # layer 1: the current token's query meets the keys of PREV,
        # so t attends to every s whose previous token is x[t];
        # it copies x[s] to OUT
        m.W_Q[1, 0, TOK:TOK + V] = c * eye
        m.W_K[1, 0, PREV:PREV + V] = eye
        m.W_V[1, 0, TOK:TOK + V] = eye
        m.W_O[1, 0, :, OUT:OUT + V] = eye
        m.unembed.weight[:, OUT:OUT + V] = sharpness * eye
    return m
# --8<-- [end:by_hand]


def _eval_batch(size: int = 1024):
    """The induction page's held-out batch (train.EVAL_SEED), the first `size` sequences."""
    return make_repeat_batch(size, seed=EVAL_SEED)


def hand_built_losses(sharpness: float = 10.0, size: int = 1024, **switches) -> dict:
    """The hand-built model's mean loss on the predictable and on the random targets (nats).

    Kept on disk by its arguments and the code it runs (the page and its notebook, in both languages, ask
    for the same few)."""
    canonical = tuple(sorted((k, ("set", tuple(sorted(v))) if isinstance(v, (set, frozenset)) else ("as is", v))
                             for k, v in switches.items()))
    return _hand_built_cached(sharpness, size, canonical, fingerprint(["snippets.exercises.induction"]))


@memory.cache
def _hand_built_cached(sharpness: float, size: int, switches: tuple, code: str) -> dict:
    x, second = _eval_batch(size)
    kwargs = {k: set(v) if kind == "set" else v for k, (kind, v) in switches}
    with torch.no_grad():
        return losses(induction_by_hand(sharpness), x, second, **kwargs)


def hand_built_lines(lang: str, size: int = 1024) -> str:
    """The losses of the hand-built circuit beside log(64), in the page's language."""
    got = hand_built_losses(size=size)
    return text(lang, "ind.ex_by_hand", predictable=got["predictable"], random=got["random"],
                chance=float(torch.log(torch.tensor(float(VOCAB)))), size=size)


# --8<-- [start:cuts]
def cut_rows(size: int = 1024) -> list[list[str]]:
    """The hand-built circuit's predictable loss, intact and with layer
    0's head cut from layer 1's queries, keys or values in turn."""
    rows = [["-", f"{hand_built_losses(size=size)['predictable']:.3f}"]]
    for part in ("q", "k", "v"):
        got = hand_built_losses(size=size, cut={(0, 0, 1, part)})
        rows.append([part, f"{got['predictable']:.3f}"])
    return rows
# --8<-- [end:cuts]


# --8<-- [start:offset]
def offset_hits(size: int = 1024) -> dict[int, float]:
    """For each fixed offset d: the share of predictable targets
    x[t + 1] that equal x[t + 1 - d], the token d positions back."""
    x, second = _eval_batch(size)
    known = predictable(second)  # (N, T - 1), aligned with x[:, 1:]
    target = x[:, 1:]
    hits = {}
    for d in range(1, SEQ_LEN // 2 + 1):
        back = torch.roll(x, d, dims=1)[:, 1:]  # x[t + 1 - d]
        ok = (back == target) & known
        ok[:, :d - 1] = False  # roll wrapped these around
        hits[d] = float(ok.sum() / known.sum())
    return hits
# --8<-- [end:offset]


def best_offset_lines(lang: str, size: int = 1024) -> str:
    """The best fixed offset's share of predictable targets, in the page's language."""
    hits = offset_hits(size)
    d = max(hits, key=hits.get)
    return text(lang, "ind.ex_offset", d=d, share=hits[d], size=size)
