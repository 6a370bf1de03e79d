"""The running example: one SRE log line, split into tokens and embedded.

>>> len(log_tokens())
11
>>> embed_tokens(log_tokens(), d_model=512).shape
torch.Size([1, 11, 512])

Eleven tokens against the source's 8 heads, d_k = 64 and d_model = 512: no two of the
running example's sizes are equal, so every reshape visibly changes a shape.
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
    """The line as a log parser reads it: split at whitespace into fields, and each
    ``key=value`` field into its key and its value (the ``=`` is dropped).

    >>> log_tokens()  # doctest: +NORMALIZE_WHITESPACE
    ['2024-01-15', '10:30:45', 'ERROR', '[order-api]', 'connection_timeout',
     'retry', '3', 'duration', '5000ms', 'service', 'database']
    >>> log_tokens("level=WARN disk at 91%")
    ['level', 'WARN', 'disk', 'at', '91%']
    """
    if not isinstance(line, str) or not line.strip():
        raise ValueError(f"line must be a non-empty string, got {line!r}")
    tokens = []
    for field in line.split():
        key, eq, value = field.partition("=")
        tokens += [key, value] if eq and key and value else [field]
    return tokens


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
