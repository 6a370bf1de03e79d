"""Check our encoder against the reference implementation, transformers' BertModel, on the same weights.

transformers is imported only inside these functions: it is slow to import and only the check needs it.
"""

from __future__ import annotations

import functools
import logging

import torch

from resultcache import memory
from .loader import encode_text, load_model, model_dir, one_thread, source_hash

log = logging.getLogger(__name__)

__all__ = ["TOLERANCE", "reference_outputs", "compare_with_reference", "bert_equivalence_rows", "equivalence_summary"]

TOLERANCE = 1e-4  # max abs difference allowed on hidden states (float32, 6 layers, LayerNorm eps 1e-12)


@functools.lru_cache(maxsize=1)
def _reference_model(folder: str):
    import transformers  # noqa: PLC0415  (slow import, needed only here)

    transformers.utils.logging.disable_progress_bar()
    return transformers.BertModel.from_pretrained(folder, attn_implementation="eager", local_files_only=True).eval()


@torch.no_grad()
def reference_outputs(text: str, path: str | None = None) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Hidden states (n + 1 of (1, T, E)) and attention maps (n of (1, h, T, T)) from transformers' BertModel."""
    ref = _reference_model(str(model_dir() if path is None else path))
    out = ref(encode_text(text, path).ids, output_hidden_states=True, output_attentions=True)
    return list(out.hidden_states), list(out.attentions)


@memory.cache
@one_thread
def _compare(texts: tuple[str, ...], code: str) -> list[tuple[int, float, float]]:
    log.info("real model: comparing every layer with transformers' BertModel on %d texts", len(texts))
    model = load_model()
    worst = None
    for text in texts:
        ids = encode_text(text).ids
        with torch.no_grad():
            hidden, maps = model(ids)
        ref_hidden, ref_maps = reference_outputs(text)
        diff_h = [float((a - b).abs().max()) for a, b in zip(hidden, ref_hidden, strict=True)]
        diff_a = [0.0] + [float((a - b).abs().max()) for a, b in zip(maps, ref_maps, strict=True)]
        pair = list(zip(diff_h, diff_a, strict=True))
        worst = pair if worst is None else [(max(a, c), max(b, d)) for (a, b), (c, d) in zip(worst, pair, strict=True)]
    return [(i, h, a) for i, (h, a) in enumerate(worst)]


def compare_with_reference(texts: list[str] | tuple[str, ...]) -> list[tuple[int, float, float]]:
    """Per layer (0 = embeddings): max abs difference of hidden states and of attention maps, over all texts."""
    if isinstance(texts, str) or not texts or not all(isinstance(t, str) and t.strip() for t in texts):
        raise ValueError(f"texts must be a non-empty list of non-empty strings, got {texts!r}")
    return _compare(tuple(texts), source_hash())


def bert_equivalence_rows(texts: list[str] | tuple[str, ...], labels: tuple[str, str] = ("embeddings", "layer {}"),
                     tol: float = TOLERANCE) -> list[tuple[str, str, str, str]]:
    """Table rows: layer name, max |Δ hidden|, max |Δ attention|, within tolerance (✅/❌).

    Layers are numbered from 0, as everywhere on the real-model page: row i > 0 is layer i - 1's output."""
    rows = []
    for i, dh, da in compare_with_reference(texts):
        name = labels[0] if i == 0 else labels[1].format(i - 1)
        rows.append((name, f"{dh:.1e}", "—" if i == 0 else f"{da:.1e}", "✅" if dh <= tol else "❌"))
    return rows


def equivalence_summary(texts: list[str] | tuple[str, ...], template: str, verdicts: tuple[str, str],
                        tol: float = TOLERANCE) -> str:
    """A sentence with the worst difference filled in: template uses {worst}, {tol} and {verdict},
    which is verdicts[0] when the worst difference is within tol and verdicts[1] otherwise."""
    if len(verdicts) != 2:
        raise ValueError(f"verdicts must be (within, outside), got {verdicts!r}")
    worst = max(dh for _, dh, _ in compare_with_reference(texts))
    return template.format(worst=worst, tol=tol, verdict=verdicts[0] if worst <= tol else verdicts[1])
