"""Data and HTML for the interactive head view (docs/assets/headview.js draws it in the browser).

Weights are quantised to bytes (0..255 for 0..1) and base64-encoded, row-major over (n, h, T, T):
a 34-token text costs about 110 kB instead of about 400 kB as JSON numbers.

>>> data = viewer_data(["Hi there."])
>>> data["layers"], data["heads"], data["texts"][0]["tokens"]
(6, 12, ['[CLS]', 'hi', 'there', '.', '[SEP]'])
>>> decode_weights(data["texts"][0]).shape
(6, 12, 5, 5)
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence

import numpy as np

from .. import i18n
from ..logline import LOG_LINE
from .analysis import SENTENCES, bert_attention_maps

__all__ = ["VIEW_TEXTS", "SCALE", "viewer_data", "decode_weights", "headview_html"]

VIEW_TEXTS = (LOG_LINE, *SENTENCES[:2])
SCALE = 255  # one byte per weight: resolution 1/255 ≈ 0.4 %

def viewer_data(texts: Sequence[str] = VIEW_TEXTS) -> dict:
    """What the browser receives: sizes, and per text its tokens and quantised weights."""
    if isinstance(texts, str) or not texts:
        raise ValueError(f"texts must be a non-empty list of strings, got {texts!r}")
    entries, shape = [], None
    for text in texts:
        maps, tokens = bert_attention_maps(text)  # (n, h, T, T)
        shape = maps.shape[:2]
        q = np.rint(maps.numpy() * SCALE).clip(0, SCALE).astype(np.uint8)  # (n, h, T, T)
        entries.append({"label": text, "tokens": tokens, "weights": base64.b64encode(q.tobytes()).decode("ascii")})
    return {"layers": int(shape[0]), "heads": int(shape[1]), "scale": SCALE, "texts": entries}


def decode_weights(entry: dict, layers: int = 6, heads: int = 12, scale: int = SCALE) -> np.ndarray:
    """The inverse of the encoding, as the browser does it: (n, h, T, T) floats in [0, 1]."""
    T = len(entry["tokens"])
    raw = np.frombuffer(base64.b64decode(entry["weights"]), dtype=np.uint8)
    if raw.size != layers * heads * T * T:
        raise ValueError(f"expected {layers}*{heads}*{T}*{T} = {layers * heads * T * T} bytes, got {raw.size}")
    return raw.reshape(layers, heads, T, T).astype(np.float64) / scale  # (n, h, T, T)


def headview_html(lang: str, texts: Sequence[str] = VIEW_TEXTS) -> str:
    """A <div> holding the data as JSON; headview.js builds the controls and the drawing inside it."""
    ui = i18n.texts(lang, "headview")
    payload = viewer_data(texts) | {"ui": ui}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    hint = html.escape(ui["hint"])
    return (f'<div class="headview" data-headview>'
            f'<p class="headview-hint">{hint}</p>'
            f'<p class="headview-nojs">{html.escape(ui["nojs"])}</p>'
            f'<script type="application/json" class="headview-data">{text}</script></div>')
