"""The running example: one SRE log line, split into tokens and embedded.

>>> log_tokens()
['2024-01-15', '10:30:45', 'ERROR', '[order-api]', 'connection_timeout', 'retry=3', 'duration=5000ms', 'service=database']
>>> embed_tokens(log_tokens(), d_model=512).shape
torch.Size([1, 8, 512])
"""

from __future__ import annotations

import torch
from torch import Tensor

from ._checks import check_positive_int

__all__ = ["LOG_LINE", "log_tokens", "embed_tokens"]

LOG_LINE = (
    "2024-01-15 10:30:45 ERROR [order-api] connection_timeout "
    "retry=3 duration=5000ms service=database"
)


def log_tokens(line: str = LOG_LINE) -> list[str]:
    """Whitespace tokens: each field of the log line is one token."""
    if not isinstance(line, str) or not line.strip():
        raise ValueError(f"line must be a non-empty string, got {line!r}")
    return line.split()


def embed_tokens(tokens: list[str], d_model: int, seed: int = 0) -> Tensor:
    """A fixed random vector per distinct token: (1, T, d_model). Untrained, so it carries no meaning."""
    if not tokens:
        raise ValueError("tokens must be a non-empty list of strings, got an empty list")
    check_positive_int(d_model, "d_model")
    vocab = sorted(set(tokens))
    g = torch.Generator().manual_seed(seed)
    table = torch.randn(len(vocab), d_model, generator=g)  # (V, E)
    ids = torch.tensor([vocab.index(t) for t in tokens])  # (T,)
    return table[ids].unsqueeze(0)  # (1, T, E)
