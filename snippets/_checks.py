"""Argument checks shared by the public functions. Each raises ValueError saying what was expected and what was given."""

from __future__ import annotations

import torch
from torch import Tensor


def check_positive_int(value: object, name: str) -> None:
    """The one positive-integer check: bool is not an integer here (True would pass as 1).

    >>> check_positive_int(True, "num_heads")
    Traceback (most recent call last):
    ...
    ValueError: num_heads must be a positive integer, got True
    """
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def check_divisible(d_model: int, num_heads: int) -> None:
    check_positive_int(num_heads, "num_heads")
    check_positive_int(d_model, "d_model")
    if d_model % num_heads != 0:
        raise ValueError(
            f"d_model must be divisible by num_heads: got d_model={d_model}, num_heads={num_heads} "
            f"({d_model} % {num_heads} = {d_model % num_heads})"
        )


def check_tensor(x: object, name: str, ndim: int | tuple[int, ...]) -> Tensor:
    if not isinstance(x, Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    dims = (ndim,) if isinstance(ndim, int) else ndim
    if x.dim() not in dims:
        want = " or ".join(f"{d}-D" for d in dims)
        raise ValueError(f"{name} must be {want}, got shape {tuple(x.shape)}")
    if not torch.is_floating_point(x):
        raise ValueError(f"{name} must be a floating-point tensor, got dtype {x.dtype}")
    return x


def check_mask_dtype(mask: Tensor, name: str) -> None:
    if not isinstance(mask, Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(mask).__name__}")
    if mask.dtype != torch.bool and not torch.is_floating_point(mask):
        raise ValueError(f"{name} must be torch.bool or a floating-point tensor, got dtype {mask.dtype}")
