"""A BERT encoder (embeddings + post-LayerNorm Transformer layers) built on our MultiHeadAttention.

Shape letters: N batch, T tokens, E hidden size, h heads, F feed-forward size, n layers.

>>> cfg = BertConfig(vocab_size=10, hidden_size=8, num_layers=2, num_heads=2, intermediate_size=16)
>>> enc = BertEncoder(cfg).eval()
>>> hidden, attn = enc(torch.tensor([[1, 2, 3]]))
>>> len(hidden), tuple(hidden[-1].shape), len(attn), tuple(attn[0].shape)
(3, (1, 3, 8), 2, (1, 2, 3, 3))
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from .._checks import check_positive_int
from ..multihead import MultiHeadAttention

__all__ = ["BertConfig", "BertLayer", "BertEncoder", "load_bert_weights"]


@dataclass(frozen=True)
class BertConfig:
    vocab_size: int = 30522
    hidden_size: int = 384
    num_layers: int = 6
    num_heads: int = 12
    intermediate_size: int = 1536
    max_positions: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12

    def __post_init__(self):
        for name in ("vocab_size", "hidden_size", "num_layers", "num_heads", "intermediate_size",
                     "max_positions", "type_vocab_size"):
            check_positive_int(getattr(self, name), name)
        if self.hidden_size % self.num_heads:
            raise ValueError(
                f"hidden_size must be divisible by num_heads, got {self.hidden_size} and {self.num_heads}"
            )

    @classmethod
    def from_hf(cls, config: dict) -> BertConfig:
        """Read the fields we need from a Hugging Face config.json dict."""
        if config.get("model_type") != "bert":
            raise ValueError(f"expected a config with model_type 'bert', got {config.get('model_type')!r}")
        if config.get("hidden_act", "gelu") != "gelu" or config.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError("expected hidden_act 'gelu' and absolute position embeddings, got "
                             f"{config.get('hidden_act')!r} and {config.get('position_embedding_type')!r}")
        return cls(config["vocab_size"], config["hidden_size"], config["num_hidden_layers"],
                   config["num_attention_heads"], config["intermediate_size"],
                   config["max_position_embeddings"], config["type_vocab_size"], config["layer_norm_eps"])


# --8<-- [start:layer]
class BertLayer(nn.Module):
    """Self-attention and a feed-forward block, each followed by
    residual + LayerNorm (post-LN)."""

    def __init__(self, cfg: BertConfig):
        super().__init__()
        E, eps = cfg.hidden_size, cfg.layer_norm_eps
        self.attn = MultiHeadAttention(E, cfg.num_heads)  # W_q, W_k, W_v, W_o
        self.ln_attn = nn.LayerNorm(E, eps=eps)
        self.ff_in = nn.Linear(E, cfg.intermediate_size)
        self.ff_out = nn.Linear(cfg.intermediate_size, E)
        self.ln_ff = nn.LayerNorm(E, eps=eps)

    def forward(self, x: Tensor, pad: Tensor | None = None):
        # (N, T, E), (N, h, T, T)
        a, weights = self.attn(x, x, x, key_padding_mask=pad,
                               average_attn_weights=False)
        x = self.ln_attn(x + a)  # (N, T, E)
        f = nn.functional.gelu(self.ff_in(x))  # (N, T, F)
        f = self.ff_out(f)  # (N, T, E)
        return self.ln_ff(x + f), weights
# --8<-- [end:layer]


# --8<-- [start:encoder]
class BertEncoder(nn.Module):
    """Token + position + segment embeddings, then n BertLayers.
    No pooler, no dropout."""

    def __init__(self, cfg: BertConfig):
        super().__init__()
        self.cfg = cfg
        E = cfg.hidden_size
        self.tok = nn.Embedding(cfg.vocab_size, E)
        self.pos = nn.Embedding(cfg.max_positions, E)
        self.seg = nn.Embedding(cfg.type_vocab_size, E)
        self.ln_emb = nn.LayerNorm(E, eps=cfg.layer_norm_eps)
        self.layers = nn.ModuleList(
            BertLayer(cfg) for _ in range(cfg.num_layers))

    def forward(self, ids: Tensor, attention_mask: Tensor | None = None):
        """ids (N, T) -> hidden states [embeddings, layer 1, ..., layer n],
        each (N, T, E), and n attention maps (N, h, T, T).

        attention_mask: (N, T), 1 for real tokens and 0 for padding
        (the Hugging Face convention).
        """
        self._check(ids, attention_mask)
        positions = torch.arange(ids.size(1), device=ids.device)  # (T,)
        segments = torch.zeros_like(ids)  # (N, T), all sentence A
        x = self.tok(ids) + self.pos(positions) + self.seg(segments)
        x = self.ln_emb(x)  # (N, T, E)
        # (N, T), True = padding
        pad = None if attention_mask is None else attention_mask == 0
        hidden, maps = [x], []
        for layer in self.layers:
            x, weights = layer(x, pad)
            hidden.append(x)
            maps.append(weights)
        return hidden, maps
# --8<-- [end:encoder]

    def _check(self, ids: Tensor, attention_mask: Tensor | None) -> None:
        if not isinstance(ids, Tensor) or ids.dim() != 2 or ids.dtype != torch.long:
            got = f"{type(ids).__name__} {getattr(ids, 'dtype', '')} {tuple(getattr(ids, 'shape', ()))}"
            raise ValueError(f"ids must be a (N, T) torch.long tensor, got {got}")
        if ids.size(1) > self.cfg.max_positions:
            raise ValueError(f"at most {self.cfg.max_positions} tokens fit the position table, got {ids.size(1)}")
        if ids.numel() and (ids.min() < 0 or ids.max() >= self.cfg.vocab_size):
            raise ValueError(f"token ids must lie in [0, {self.cfg.vocab_size}), got [{ids.min()}, {ids.max()}]")
        if attention_mask is not None and tuple(attention_mask.shape) != tuple(ids.shape):
            raise ValueError(f"attention_mask must have the shape of ids {tuple(ids.shape)}, "
                             f"got {tuple(attention_mask.shape)}")


# --8<-- [start:load_weights]
def _bert_names(i: int) -> dict[str, str]:
    """Our parameter names for layer i -> the checkpoint's names."""
    names = {"attn.W_q": "attention.self.query",
             "attn.W_k": "attention.self.key",
             "attn.W_v": "attention.self.value",
             "attn.W_o": "attention.output.dense",
             "ln_attn": "attention.output.LayerNorm",
             "ff_in": "intermediate.dense",
             "ff_out": "output.dense",
             "ln_ff": "output.LayerNorm"}
    return {f"layers.{i}.{ours}.{w}": f"encoder.layer.{i}.{theirs}.{w}"
            for ours, theirs in names.items() for w in ("weight", "bias")}


@torch.no_grad()
def load_bert_weights(model: BertEncoder,
                      state: dict[str, Tensor]) -> BertEncoder:
    """Copy a Hugging Face BERT checkpoint into our encoder;
    every parameter must be found."""
    emb = "embeddings."
    mapping = {"tok.weight": emb + "word_embeddings.weight",
               "pos.weight": emb + "position_embeddings.weight",
               "seg.weight": emb + "token_type_embeddings.weight",
               "ln_emb.weight": emb + "LayerNorm.weight",
               "ln_emb.bias": emb + "LayerNorm.bias"}
    for i in range(model.cfg.num_layers):
        mapping |= _bert_names(i)
    params = dict(model.named_parameters())
    _check_checkpoint(params, state, mapping)
    for ours, theirs in mapping.items():
        params[ours].copy_(state[theirs])
    return model
# --8<-- [end:load_weights]


def _check_checkpoint(params: dict[str, Tensor], state: dict[str, Tensor], mapping: dict[str, str]) -> None:
    """load_bert_weights' checks: every parameter has a checkpoint tensor of its shape."""
    missing = sorted(theirs for theirs in mapping.values() if theirs not in state)
    if missing or set(params) != set(mapping):
        raise ValueError(f"checkpoint does not fit the encoder: missing {missing[:5]} "
                         f"(and {max(0, len(missing) - 5)} more)")
    for ours, theirs in mapping.items():
        if params[ours].shape != state[theirs].shape:
            raise ValueError(f"{theirs}: expected shape {tuple(params[ours].shape)}, got {tuple(state[theirs].shape)}")
