"""Repeated random tokens: the task on which induction heads form (Olsson et al. 2022, arXiv 2209.11895).

A sequence of T = SEQ_LEN tokens, drawn independently and uniformly from VOCAB ids, ends with a
segment s of length L written twice: a random prefix of T - 2L tokens, then s, then s again. L is
drawn per sequence from MIN_SEGMENT to T // 2, so the distance from a token's second occurrence back
to its first varies: a head that copies from a fixed offset cannot do the task; it takes looking up
where the current token appeared before and what followed it.

Inside the second copy, every next token is predictable from the first copy, except the first one
(which follows the end of the first copy, a random token). Everything else is random: the model can
do no better there than about log(VOCAB) nats.

Shape letters: N batch, T positions.

>>> x, second = make_repeat_batch(2, seq_len=12, seed=0)
>>> x.shape, second.shape, second.dtype
(torch.Size([2, 12]), torch.Size([2, 12]), torch.bool)
>>> start = int(second[0].nonzero()[0]); L = 12 - start
>>> bool((x[0, start:] == x[0, start - L:start]).all())  # the segment, written twice
True
"""

from __future__ import annotations

import torch
from torch import Tensor

from .._checks import check_positive_int

__all__ = ["VOCAB", "SEQ_LEN", "MIN_SEGMENT", "make_repeat_batch", "predictable"]

VOCAB = 64
SEQ_LEN = 48
MIN_SEGMENT = 6


# --8<-- [start:task]
def make_repeat_batch(batch_size: int, seq_len: int = SEQ_LEN,
                      seed: int = 0) -> tuple[Tensor, Tensor]:
    """x (N, T): random tokens whose last 2L are a segment written
    twice, L random per row; second (N, T): True on the second copy."""
    _check(batch_size, seq_len)
    N, T = batch_size, seq_len
    gen = torch.Generator().manual_seed(seed)
    x = torch.randint(VOCAB, (N, T), generator=gen)
    L = torch.randint(MIN_SEGMENT, T // 2 + 1, (N,), generator=gen)
    pos = torch.arange(T)
    second = pos >= (T - L)[:, None]          # the last L positions
    # each position of the second copy repeats the token L back
    source = torch.where(second, pos - L[:, None], pos)
    x = x.gather(1, source)
    return x, second
# --8<-- [end:task]


def predictable(second: Tensor) -> Tensor:
    """Positions t whose next token x[t+1] the first copy gives away: t and t+1 both in the second copy.

    Shape (N, T - 1), aligned with next-token targets x[:, 1:].

    >>> predictable(torch.tensor([[False, False, True, True, True]])).tolist()
    [[False, False, True, True]]
    """
    return second[:, :-1] & second[:, 1:]


def _check(batch_size: int, seq_len: int) -> None:
    check_positive_int(batch_size, "batch_size")
    check_positive_int(seq_len, "seq_len")
    if seq_len < 2 * MIN_SEGMENT:
        raise ValueError(f"seq_len must be at least 2 * MIN_SEGMENT = {2 * MIN_SEGMENT}, got {seq_len}")
