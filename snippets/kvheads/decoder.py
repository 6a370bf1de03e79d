"""A small decoder with a real KV cache: prefill the prompt, then generate one token at a time.

Scope: attention only. The model is token embeddings plus learned absolute position embeddings, then
``num_layers`` blocks of (layer norm, causal attention, residual), a final layer norm and a readout.
It has no feed-forward blocks, like the recall model on the same page: a feed-forward block works on
each position alone, so it changes what a cached key holds, never how the cache is kept.

The attention is any of the page's layers: ``GroupedQueryAttention`` with g = h (MHA), 1 < g < h (GQA)
or g = 1 (MQA), or ``LatentAttention`` run absorbed (MLA, the cache holds the latent c only). Each layer
has its own cache: ``KVCache`` / ``LatentCache`` grow with ``torch.cat`` (a new tensor, and a copy of
the whole past, at every step); ``PreallocatedKVCache`` / ``PreallocatedLatentCache`` write each new
position into a buffer of ``max_len`` positions allocated once.

Positions under a cache: the new tokens sit after the ``len(cache)`` positions already cached, so
their position embeddings are those of ``len(cache) … len(cache) + L - 1``, not ``0 … L - 1``.

Shape letters: N batch, L new positions, P cached positions, S = P + L, E = d_model, V vocabulary.

>>> torch.manual_seed(0)  # doctest: +ELLIPSIS
<torch._C.Generator object at ...>
>>> model = TinyDecoder(vocab=32, d_model=32, num_heads=4, num_kv_heads=2, max_len=16).double().eval()
>>> prompt = torch.randint(32, (2, 5))
>>> cached = generate_tokens(model, prompt, steps=6)
>>> torch.equal(cached, generate_tokens(model, prompt, steps=6, cache=None)), cached.shape
(True, torch.Size([2, 11]))
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .._checks import check_divisible, check_positive_int
from .attention import GroupedQueryAttention, KVCache, check_kv_heads
from .mla import LatentAttention, LatentCache

__all__ = ["CACHES", "PreallocatedKVCache", "PreallocatedLatentCache", "TinyDecoder", "generate_tokens", "kind_name"]

CACHES = ("preallocated", "cat", None)  # how generate keeps the past; None: no cache, recompute everything


# --8<-- [start:prealloc]
class PreallocatedKVCache(KVCache):
    """Keys and values in buffers of max_len positions, allocated once;
    each step writes its positions in place. self.k / self.v are views
    of the filled part, so the layer reads them as it reads KVCache."""

    def __init__(self, batch: int, num_kv_heads: int, max_len: int,
                 d_k: int, dtype=None, device=None):
        super().__init__()
        shape = (batch, num_kv_heads, max_len, d_k)  # (N, g, max_len, d_k)
        self.k_buf = torch.zeros(shape, dtype=dtype, device=device)
        self.v_buf = torch.zeros(shape, dtype=dtype, device=device)
        self.size = 0  # positions filled

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        S = self.size + k.shape[2]
        _check_room(S, self.k_buf.shape[2])
        self.k_buf[:, :, self.size:S] = k  # no new tensor, no copy of the past
        self.v_buf[:, :, self.size:S] = v
        self.size = S
        self.k, self.v = self.k_buf[:, :, :S], self.v_buf[:, :, :S]  # views
        return self.k, self.v


class PreallocatedLatentCache(LatentCache):
    """MLA's latents in a buffer of max_len positions, written in place."""

    def __init__(self, batch: int, max_len: int, d_latent: int,
                 dtype=None, device=None):
        super().__init__()
        # (N, max_len, C)
        self.c_buf = torch.zeros(batch, max_len, d_latent, dtype=dtype,
                                 device=device)
        self.size = 0

    def append(self, c: Tensor) -> Tensor:
        S = self.size + c.shape[1]
        _check_room(S, self.c_buf.shape[1])
        self.c_buf[:, self.size:S] = c
        self.size = S
        self.c = self.c_buf[:, :S]  # (N, S, C), a view
        return self.c


def _check_room(S: int, max_len: int) -> None:
    if S > max_len:
        raise ValueError(f"the cache holds at most max_len={max_len} "
                         f"positions, this step would fill {S}")
# --8<-- [end:prealloc]


# --8<-- [start:model]
class TinyDecoder(nn.Module):
    """Token + learned absolute position embeddings, attention-only blocks
    (layer norm, causal attention, residual), final norm, readout.
    num_kv_heads = g for MHA / GQA / MQA; d_latent instead for MLA."""

    def __init__(self, vocab: int, d_model: int, num_heads: int,
                 num_kv_heads: int | None = None, d_latent: int | None = None,
                 num_layers: int = 2, max_len: int = 64):
        super().__init__()
        _check_decoder(vocab, d_model, num_heads, num_kv_heads, d_latent,
                       num_layers, max_len)
        self.mla, self.max_len = d_latent is not None, max_len
        self.token = nn.Embedding(vocab, d_model)
        self.position = nn.Embedding(max_len, d_model)
        self.norms = nn.ModuleList(nn.LayerNorm(d_model)
                                   for _ in range(num_layers))
        self.attns = nn.ModuleList(
            LatentAttention(d_model, num_heads, d_latent) if self.mla
            else GroupedQueryAttention(d_model, num_heads, num_kv_heads)
            for _ in range(num_layers))
        self.norm_f = nn.LayerNorm(d_model)
        self.readout = nn.Linear(d_model, vocab)

    def forward(self, tokens: Tensor, caches: list | None = None) -> Tensor:
        """tokens (N, L) -> logits (N, L, V). With caches (one per layer),
        the L tokens come after the positions the caches already hold."""
        N, L = tokens.shape
        start = 0 if caches is None else len(caches[0])  # positions cached
        _check_positions(start, L, self.max_len)
        pos = torch.arange(start, start + L, device=tokens.device)
        x = self.token(tokens) + self.position(pos)  # (N, L, E)
        for i, (norm, attn) in enumerate(zip(self.norms, self.attns)):
            cache = None if caches is None else caches[i]
            if self.mla:
                x = x + attn(norm(x), cache, absorbed=True)
            else:
                x = x + attn(norm(x), cache)
        return self.readout(self.norm_f(x))  # (N, L, V)

    def new_caches(self, batch: int, preallocate: bool = True) -> list:
        """One empty cache per layer."""
        p = self.position.weight
        f = {"dtype": p.dtype, "device": p.device}
        if not preallocate:
            return [LatentCache() if self.mla else KVCache()
                    for _ in self.attns]
        if self.mla:
            return [PreallocatedLatentCache(batch, self.max_len,
                                            a.W_dkv.out_features, **f)
                    for a in self.attns]
        return [PreallocatedKVCache(batch, a.g, self.max_len, a.d_k, **f)
                for a in self.attns]
# --8<-- [end:model]


# --8<-- [start:generate]
@torch.no_grad()
def generate_tokens(model: TinyDecoder, prompt: Tensor, steps: int,
             cache: str | None = "preallocated") -> Tensor:
    """Greedy decoding: prompt (N, P) -> (N, P + steps) tokens.
    With a cache: one prefill over the prompt, then one position per step.
    cache=None: every step runs the whole sequence again."""
    _check_generate(model, prompt, steps, cache)
    tokens = prompt
    if cache is None:
        for _ in range(steps):
            logits = model(tokens)  # all positions again, every layer
            nxt = logits[:, -1].argmax(-1, keepdim=True)  # (N, 1)
            tokens = torch.cat([tokens, nxt], dim=1)
        return tokens
    caches = model.new_caches(prompt.shape[0], cache == "preallocated")
    logits = model(prompt, caches)  # prefill: P positions at once
    for step in range(steps):
        nxt = logits[:, -1].argmax(-1, keepdim=True)  # (N, 1)
        tokens = torch.cat([tokens, nxt], dim=1)
        if step < steps - 1:
            logits = model(nxt, caches)  # decode: one position
    return tokens
# --8<-- [end:generate]


def kind_name(num_heads: int, num_kv_heads: int | None, d_latent: int | None = None) -> str:
    """'MHA', 'GQA', 'MQA' or 'MLA' for a TinyDecoder's arguments."""
    if d_latent is not None:
        return "MLA"
    return "MHA" if num_kv_heads == num_heads else "MQA" if num_kv_heads == 1 else "GQA"


def _check_decoder(vocab, d_model, num_heads, num_kv_heads, d_latent, num_layers, max_len) -> None:
    check_positive_int(vocab, "vocab")
    check_divisible(d_model, num_heads)
    check_positive_int(num_layers, "num_layers")
    check_positive_int(max_len, "max_len")
    if (num_kv_heads is None) == (d_latent is None):
        raise ValueError(f"give exactly one of num_kv_heads (MHA/GQA/MQA) and d_latent (MLA), got "
                         f"num_kv_heads={num_kv_heads!r}, d_latent={d_latent!r}")
    if d_latent is None:
        check_kv_heads(num_heads, num_kv_heads)
    else:
        check_positive_int(d_latent, "d_latent")


def _check_positions(start: int, L: int, max_len: int) -> None:
    if L < 1:
        raise ValueError("tokens must hold at least one position, got 0")
    if start + L > max_len:
        raise ValueError(f"positions {start} to {start + L - 1} do not fit the {max_len} learned positions "
                         f"(max_len={max_len})")


def _check_generate(model: object, prompt: object, steps: object, cache: object) -> None:
    if not isinstance(model, TinyDecoder):
        raise ValueError(f"model must be a TinyDecoder, got {type(model).__name__}")
    if not isinstance(prompt, Tensor) or prompt.dim() != 2 or prompt.dtype != torch.long or prompt.shape[1] < 1:
        got = tuple(prompt.shape) if isinstance(prompt, Tensor) else type(prompt).__name__
        raise ValueError(f"prompt must be a (N, P >= 1) tensor of token ids (torch.long), got {got}")
    check_positive_int(steps, "steps")
    if cache not in CACHES:
        raise ValueError(f"cache must be one of {CACHES}, got {cache!r}")
    _check_positions(0, prompt.shape[1] + steps - 1, model.max_len)
