"""The reference: ``transformers`` loading the same GGUF file (its own dequantizing, its own Llama).

Both sides start from the same float32 numbers (``transformers`` dequantizes with the same ``gguf``
package, then undoes llama.cpp's reorder of the W_q / W_k rows, which changes no score), so what
remains between them is float32 rounding in a different order of operations through 30 layers.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import torch

from .model import LlamaDecoder, shared_model
from .weights import gguf_path, load_tokenizer

__all__ = ["TEXTS", "reference_model", "reference_tokenizer", "encode", "compare_logits"]

# The texts (data, in texts.json: the same on both languages' pages). For the logit check: short zh and en
# texts, prose and a log line.
TEXTS_FILE = json.loads((Path(__file__).with_name("texts.json")).read_text(encoding="utf-8"))
TEXTS = TEXTS_FILE["reference"]


@functools.lru_cache(maxsize=1)
def reference_model():
    """transformers' LlamaForCausalLM from the same GGUF file, float32, eval mode (10-20 s)."""
    from transformers import AutoModelForCausalLM

    p = gguf_path()
    model = AutoModelForCausalLM.from_pretrained(str(p.parent), gguf_file=p.name, dtype=torch.float32)
    return model.eval().requires_grad_(False)


@functools.lru_cache(maxsize=1)
def reference_tokenizer():
    from transformers import AutoTokenizer

    p = gguf_path()
    return AutoTokenizer.from_pretrained(str(p.parent), gguf_file=p.name)


def encode(text: str, model: LlamaDecoder | None = None) -> torch.Tensor:
    """The token ids of text, (1, T), checked against the model's context."""
    if not isinstance(text, str) or not text:
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    ids = load_tokenizer().encode(text).ids
    context = (model or shared_model()).cfg.context
    if len(ids) > context:
        raise ValueError(f"text is {len(ids)} tokens long; the model's context is {context} tokens")
    return torch.tensor([ids])


@torch.no_grad()
def compare_logits(text: str) -> dict:
    """Our logits and the reference's on one text: largest absolute difference, the logits' scale,
    and whether the next-token choice (argmax) agrees at every position."""
    ours_model = shared_model()
    ids = encode(text, ours_model)
    ours = ours_model(ids)[0]  # (T, V)
    ref = reference_model()(ids).logits[0]  # (T, V)
    return {"tokens": ids.shape[1], "max_abs_diff": float((ours - ref).abs().max()),
            "logit_scale": float(ref.abs().max()), "argmax_agree": bool(torch.equal(ours.argmax(-1),
                                                                                     ref.argmax(-1)))}
