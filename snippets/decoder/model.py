"""SmolLM2-135M, a Llama-style decoder, built on this site's grouped-query attention.

A block is: RMSNorm, causal grouped-query attention with RoPE (9 query heads share 3 key/value
heads), residual; RMSNorm, SwiGLU feed-forward, residual. 30 blocks, a final RMSNorm, and a readout
that reuses the token embedding (tied weights).

RoPE here rotates adjacent pairs (x0, x1), (x2, x3), ... of each head, the layout of the GGUF file
(llama.cpp's converter reorders the rows of W_q and W_k so that this is the same model as the
half-split rotation of ``transformers``: the same reorder of q and k leaves every score unchanged).

Shape letters: N batch, L new positions, P cached, S = P + L, E = d_model, h query heads, g key/value
heads, d_k = E // h, F feed-forward width, V vocabulary.

>>> torch.manual_seed(0)  # doctest: +ELLIPSIS
<torch._C.Generator object at ...>
>>> cfg = LlamaConfig(vocab=50, d_model=32, num_layers=2, num_heads=4, num_kv_heads=2,
...                   d_ff=48, context=16, rope_base=10000.0, eps=1e-5)
>>> model = LlamaDecoder(cfg).double().eval()
>>> prompt = torch.randint(50, (2, 5))
>>> model(prompt).shape
torch.Size([2, 5, 50])
>>> torch.equal(generate(model, prompt, 6), generate(model, prompt, 6, cache=False))
True
"""

from __future__ import annotations

import functools
import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ..kvheads.attention import GroupedQueryAttention, KVCache
from .._checks import check_positive_int
from .weights import LlamaConfig, file_hash, load_weights, read_config

__all__ = ["RMSNorm", "rope_angles", "apply_rope", "SwiGLU", "RotaryGQA", "LlamaBlock", "LlamaDecoder",
           "generate", "load_state", "load_model", "shared_model", "check_tokens", "gguf_tensors", "tiny_decoder"]


# --8<-- [start:norm]
class RMSNorm(nn.Module):
    """Scale each position to root-mean-square 1, then by a learned
    weight. No mean subtracted, no bias (LayerNorm has both)."""

    def __init__(self, d_model: int, eps: float = 1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d_model))
        self.eps = eps

    def forward(self, x: Tensor) -> Tensor:  # (N, L, E) -> (N, L, E)
        rms = x.pow(2).mean(-1, keepdim=True).add(self.eps).rsqrt()
        return x * rms * self.weight  # rms: (N, L, 1)
# --8<-- [end:norm]


# --8<-- [start:rope]
def rope_angles(d_k: int, start: int, L: int, base: float
                ) -> tuple[Tensor, Tensor]:
    """cos and sin of angle p * base^(-2i/d_k) for positions
    p = start ... start + L - 1 and pairs i = 0 ... d_k/2 - 1."""
    i = torch.arange(0, d_k, 2, dtype=torch.float32)  # (d_k/2,)
    freq = 1.0 / base ** (i / d_k)  # (d_k/2,): fast ... slow
    p = torch.arange(start, start + L, dtype=torch.float32)  # (L,)
    angle = p[:, None] * freq[None, :]  # (L, d_k/2)
    return angle.cos(), angle.sin()


def apply_rope(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    """Rotate each adjacent pair (x_2i, x_2i+1) of x (N, h, L, d_k)
    by its position's angle: a query at p and a key at p' then score
    by p - p' only."""
    pairs = x.unflatten(-1, (-1, 2))  # (N, h, L, d_k/2, 2)
    a, b = pairs[..., 0], pairs[..., 1]  # (N, h, L, d_k/2) each
    out = torch.stack([a * cos - b * sin,
                       a * sin + b * cos], dim=-1)  # (N, h, L, d_k/2, 2)
    return out.flatten(-2)  # (N, h, L, d_k)
# --8<-- [end:rope]


# --8<-- [start:swiglu]
class SwiGLU(nn.Module):
    """Feed-forward with a gate: W_down(silu(W_gate x) * W_up x)."""

    def __init__(self, d_model: int, d_ff: int):
        super().__init__()
        self.W_gate = nn.Linear(d_model, d_ff, bias=False)
        self.W_up = nn.Linear(d_model, d_ff, bias=False)
        self.W_down = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x: Tensor) -> Tensor:  # (N, L, E) -> (N, L, E)
        gate = F.silu(self.W_gate(x))  # (N, L, F)
        return self.W_down(gate * self.W_up(x))  # (N, L, F) -> (N, L, E)
# --8<-- [end:swiglu]


# --8<-- [start:attention]
class RotaryGQA(GroupedQueryAttention):
    """The site's GroupedQueryAttention (same W_q, W_k, W_v, W_o and
    KVCache) with RoPE on queries and keys before the cache."""

    def forward(self, x: Tensor, cache: KVCache | None = None,
                base: float = 10000.0, keep: bool = False) -> Tensor:
        N, L, E = self._check(x, cache)
        h, g, d_k = self.h, self.g, self.d_k
        start = 0 if cache is None else len(cache)  # positions cached
        cos, sin = rope_angles(d_k, start, L, base)  # (L, d_k/2) each
        q = self.W_q(x).view(N, L, h, d_k).transpose(1, 2)  # (N, h, L, d_k)
        k = self.W_k(x).view(N, L, g, d_k).transpose(1, 2)  # (N, g, L, d_k)
        v = self.W_v(x).view(N, L, g, d_k).transpose(1, 2)  # (N, g, L, d_k)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        if cache is not None:
            k, v = cache.append(k, v)  # (N, g, S, d_k): rotated keys kept
        S = k.shape[2]
        k = k.repeat_interleave(h // g, dim=1)  # (N, h, S, d_k)
        v = v.repeat_interleave(h // g, dim=1)  # (N, h, S, d_k)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (N, h, L, S)
        future = torch.ones(L, S, dtype=torch.bool, device=x.device)
        future = future.triu(diagonal=S - L + 1)  # (L, S)
        scores = scores.masked_fill(future, float("-inf"))
        weights = scores.softmax(dim=-1)  # (N, h, L, S)
        self.weights = weights if keep else None  # for the head scores
        out = (weights @ v).transpose(1, 2).reshape(N, L, E)  # (N, L, E)
        return self.W_o(out)
# --8<-- [end:attention]


# --8<-- [start:model]
class LlamaBlock(nn.Module):
    """Pre-norm: x + attn(norm(x)), then x + ffn(norm(x))."""

    def __init__(self, cfg: LlamaConfig):
        super().__init__()
        self.attn_norm = RMSNorm(cfg.d_model, cfg.eps)
        self.attn = RotaryGQA(cfg.d_model, cfg.num_heads, cfg.num_kv_heads)
        self.ffn_norm = RMSNorm(cfg.d_model, cfg.eps)
        self.ffn = SwiGLU(cfg.d_model, cfg.d_ff)
        self.base = cfg.rope_base

    def forward(self, x: Tensor, cache: KVCache | None = None,
                keep: bool = False) -> Tensor:  # (N, L, E)
        x = x + self.attn(self.attn_norm(x), cache, self.base, keep)
        return x + self.ffn(self.ffn_norm(x))


class LlamaDecoder(nn.Module):
    """Token embedding, cfg.num_layers blocks, final RMSNorm, and a
    readout that is the embedding matrix again (tied weights)."""

    def __init__(self, cfg: LlamaConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab, cfg.d_model)
        self.blocks = nn.ModuleList(LlamaBlock(cfg)
                                    for _ in range(cfg.num_layers))
        self.norm_f = RMSNorm(cfg.d_model, cfg.eps)

    def forward(self, tokens: Tensor, caches: list | None = None,
                keep: bool = False) -> Tensor:
        """tokens (N, L) -> logits (N, L, V); with caches (one per
        layer), the tokens come after the positions already cached."""
        start = 0 if caches is None else len(caches[0])
        check_tokens(tokens, start, self.cfg)
        x = self.embed(tokens)  # (N, L, E); no position embedding: RoPE
        for i, block in enumerate(self.blocks):
            x = block(x, None if caches is None else caches[i], keep)
        return self.norm_f(x) @ self.embed.weight.T  # (N, L, V)

    def new_caches(self) -> list[KVCache]:
        return [KVCache() for _ in self.blocks]
# --8<-- [end:model]

    def attention_weights(self) -> list[Tensor]:
        """Each layer's weights (N, h, L, S) from the last forward(..., keep=True)."""
        ws = [b.attn.weights for b in self.blocks]
        if any(w is None for w in ws):
            raise ValueError("no attention weights kept: run forward(tokens, keep=True) first")
        return ws


def check_tokens(tokens: object, start: int, cfg: LlamaConfig) -> None:
    """(N, L >= 1) token ids below the vocabulary, fitting the context after start cached positions."""
    if not isinstance(tokens, Tensor) or tokens.dim() != 2 or tokens.dtype != torch.long or tokens.shape[1] < 1:
        got = tuple(tokens.shape) if isinstance(tokens, Tensor) else type(tokens).__name__
        raise ValueError(f"tokens must be a (N, L >= 1) tensor of token ids (torch.long), got {got}")
    if start + tokens.shape[1] > cfg.context:
        raise ValueError(f"the model's context is {cfg.context} tokens; {start} cached + {tokens.shape[1]} new "
                         f"= {start + tokens.shape[1]} do not fit")
    if tokens.numel() and (tokens.min() < 0 or tokens.max() >= cfg.vocab):
        raise ValueError(f"token ids must lie in 0 ... {cfg.vocab - 1}, got {int(tokens.min())} ... "
                         f"{int(tokens.max())}")


def _check_generate(model: object, prompt: object, steps: object) -> None:
    if not isinstance(model, LlamaDecoder):
        raise ValueError(f"model must be a LlamaDecoder, got {type(model).__name__}")
    check_positive_int(steps, "steps")
    check_tokens(prompt, 0, model.cfg)
    need, context = prompt.shape[1] + steps - 1, model.cfg.context  # the last new token is never fed back
    if need > context:
        raise ValueError(f"the model's context is {context} tokens; a {prompt.shape[1]}-token prompt and {steps} "
                         f"new tokens need {need} positions")


# --8<-- [start:generate]
@torch.no_grad()
def generate(model: LlamaDecoder, prompt: Tensor, steps: int,
             cache: bool = True) -> Tensor:
    """Greedy decoding: prompt (N, P) -> (N, P + steps). With the
    cache: prefill once, then one position per step; without: the
    whole sequence again at every step."""
    _check_generate(model, prompt, steps)
    tokens, caches = prompt, model.new_caches() if cache else None
    logits = model(prompt, caches)  # (N, P, V)
    for step in range(steps):
        nxt = logits[:, -1].argmax(-1, keepdim=True)  # (N, 1)
        tokens = torch.cat([tokens, nxt], dim=1)  # (N, P + step + 1)
        if step < steps - 1:
            logits = model(nxt, caches) if cache else model(tokens)
    return tokens
# --8<-- [end:generate]


# --8<-- [start:load]
GGUF_NAMES = {"attn_norm.weight": "attn_norm.weight",
              "attn_q.weight": "attn.W_q.weight",
              "attn_k.weight": "attn.W_k.weight",
              "attn_v.weight": "attn.W_v.weight",
              "attn_output.weight": "attn.W_o.weight",
              "ffn_norm.weight": "ffn_norm.weight",
              "ffn_gate.weight": "ffn.W_gate.weight",
              "ffn_up.weight": "ffn.W_up.weight",
              "ffn_down.weight": "ffn.W_down.weight"}


def load_state(model: LlamaDecoder, tensors: dict) -> LlamaDecoder:
    """Copy the GGUF tensors (name -> float32 tensor) into model."""
    _check_state(tensors, model)
    state = {"embed.weight": tensors["token_embd.weight"],  # (V, E)
             "norm_f.weight": tensors["output_norm.weight"]}  # (E,)
    for i in range(len(model.blocks)):
        for src, dst in GGUF_NAMES.items():
            state[f"blocks.{i}.{dst}"] = tensors[f"blk.{i}.{src}"]
    model.load_state_dict(state, strict=True, assign=True)  # shapes checked
    return model.eval().requires_grad_(False)


def load_model(path=None) -> LlamaDecoder:
    """SmolLM2-135M with its dequantized weights, in eval mode."""
    cfg = read_config(path)
    with torch.device("meta"):  # no random init of 135M numbers
        model = LlamaDecoder(cfg)
    return load_state(model, load_weights(path))
# --8<-- [end:load]


def gguf_tensors(model: LlamaDecoder) -> dict:
    """The model's weights under the names a GGUF file gives them (what load_state reads): the page's small
    run loads a random model's weights into another with it, where SmolLM2's file is not installed.

    >>> cfg = LlamaConfig(vocab=50, d_model=32, num_layers=2, num_heads=4, num_kv_heads=2,
    ...                   d_ff=48, context=16, rope_base=10000.0, eps=1e-5)
    >>> len(gguf_tensors(LlamaDecoder(cfg))), len(LlamaDecoder(cfg).state_dict())
    (20, 20)
    """
    if not isinstance(model, LlamaDecoder):
        raise ValueError(f"model must be a LlamaDecoder, got {type(model).__name__}")
    state = model.state_dict()
    out = {"token_embd.weight": state["embed.weight"], "output_norm.weight": state["norm_f.weight"]}
    for i in range(len(model.blocks)):
        for src, dst in GGUF_NAMES.items():
            out[f"blk.{i}.{src}"] = state[f"blocks.{i}.{dst}"]
    return {k: v.detach().clone() for k, v in out.items()}


def tiny_decoder(cfg: LlamaConfig, seed: int = 0) -> LlamaDecoder:
    """A randomly initialised decoder (seeded) whose weights went through their GGUF names: one model's
    gguf_tensors loaded into another by load_state, as load_model loads SmolLM2's file."""
    torch.manual_seed(seed)
    return load_state(LlamaDecoder(cfg), gguf_tensors(LlamaDecoder(cfg)))


def shared_model(path=None) -> LlamaDecoder:
    """load_model, once per process and file (by hash): read-only use."""
    return _shared(str(path), file_hash(path))


@functools.lru_cache(maxsize=1)
def _shared(path: str, digest: str) -> LlamaDecoder:
    return load_model(None if path == "None" else path)


def _check_state(tensors: object, model: LlamaDecoder) -> None:
    if not isinstance(tensors, dict):
        raise ValueError(f"expected a dict of GGUF tensors (name -> tensor), got {type(tensors).__name__}")
    names = ["token_embd.weight", "output_norm.weight"]
    names += [f"blk.{i}.{src}" for i in range(len(model.blocks)) for src in GGUF_NAMES]
    missing = [n for n in names if n not in tensors]
    if missing:
        raise ValueError(f"the GGUF tensors lack {len(missing)} that the model needs, e.g. {missing[:3]}")
    if "output.weight" in tensors:
        raise ValueError("the file has its own readout (output.weight); this model ties it to token_embd.weight")
