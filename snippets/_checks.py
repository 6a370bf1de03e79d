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


def check_loadable(ours: object, official: object, cls: type) -> None:
    """Before copying official's weights into ours (a cls): the right types, the same shape, a packed
    in_proj_weight to copy from, and the same bias setting (else biases would stay random or be lost)."""
    if not isinstance(ours, cls) or not isinstance(official, torch.nn.MultiheadAttention):
        raise ValueError(
            f"expected ({cls.__name__}, nn.MultiheadAttention), got ({type(ours).__name__}, {type(official).__name__})"
        )
    if (official.embed_dim, official.num_heads) != (ours.d_model, ours.num_heads):
        raise ValueError(
            f"shapes differ: official has embed_dim={official.embed_dim}, num_heads={official.num_heads}; "
            f"ours has d_model={ours.d_model}, num_heads={ours.num_heads}"
        )
    if official.in_proj_weight is None:
        raise ValueError("official layer uses separate kdim/vdim projections; expected a packed in_proj_weight")
    if (official.in_proj_bias is None) != (ours.W_o.bias is None):
        raise ValueError(
            f"bias settings differ: official has bias={official.in_proj_bias is not None}, "
            f"ours has bias={ours.W_o.bias is not None}"
        )
