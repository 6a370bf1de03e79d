"""The what-if task: rebuild an incident timeline around every event in a log stream.

A sequence is L = 16 events drawn uniformly from a 16-event vocabulary. At every
position the model must name the events at offsets -2, -1, +1 and +2, i.e. what
happened two and one events before, and one and two events after. Targets that fall
outside the sequence are IGNORE and do not count.

Shape letters: N batch, L sequence length, T = len(OFFSETS) targets per position.

>>> x, y = make_batch(2, seed=0)
>>> x.shape, y.shape
(torch.Size([2, 16]), torch.Size([2, 16, 4]))
>>> bool(y[0, 5, 1] == x[0, 4]), int(y[0, 0, 0])
(True, -100)
"""

from __future__ import annotations

import torch
from torch import Tensor

from .._checks import check_positive_int

__all__ = ["EVENTS", "OFFSETS", "SEQ_LEN", "IGNORE", "make_batch", "event_names"]

# --8<-- [start:task]
EVENTS = (
    "deploy", "config_change", "cache_miss", "slow_query", "timeout",
    "retry", "5xx", "ERROR", "OOM", "restart", "healthcheck_fail",
    "scale_up", "failover", "rollback", "alert", "recovered",
)
OFFSETS = (-2, -1, 1, 2)  # which neighbours each position must name
SEQ_LEN = 16
IGNORE = -100  # target outside the sequence; skipped by the loss and accuracy


def make_batch(batch_size: int, seed: int, seq_len: int = SEQ_LEN,
               offsets: tuple[int, ...] = OFFSETS):
    """Random event streams x (N, L) and their neighbours y (N, L, T),
    from one seed; T = len(offsets)."""
    _check_batch(batch_size, seq_len, offsets)
    N, L, T = batch_size, seq_len, len(offsets)
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(len(EVENTS), (N, L), generator=g)  # (N, L)
    y = torch.full((N, L, T), IGNORE, dtype=torch.long)  # (N, L, T)
    for t, off in enumerate(offsets):
        # y[:, i, t] = x[:, i + off] where position i + off exists
        src = slice(max(off, 0), L + min(off, 0))
        dst = slice(max(-off, 0), L + min(-off, 0))
        y[:, dst, t] = x[:, src]
    return x, y
# --8<-- [end:task]


def _check_batch(batch_size: int, seq_len: int, offsets: tuple[int, ...] = OFFSETS) -> None:
    check_positive_int(batch_size, "batch_size")
    if (not isinstance(offsets, tuple) or not offsets or len(set(offsets)) != len(offsets)
            or not all(isinstance(o, int) and not isinstance(o, bool) and o != 0 for o in offsets)):
        raise ValueError(f"offsets must be a non-empty tuple of distinct non-zero integers, got {offsets!r}")
    if not isinstance(seq_len, int) or seq_len <= max(abs(o) for o in offsets):
        raise ValueError(f"seq_len must be an integer > {max(abs(o) for o in offsets)}, got {seq_len!r}")


def event_names(x: Tensor) -> list[str]:
    """Event names of one sequence (L,)."""
    if not isinstance(x, Tensor) or x.dim() != 1:
        raise ValueError(f"x must be a 1-D tensor of event ids, got {getattr(x, 'shape', type(x).__name__)}")
    return [EVENTS[i] for i in x.tolist()]
