"""Head ablation on the pretrained model: switch one head off, measure how much the sentence embedding moves.

all-MiniLM-L6-v2 turns a text into one vector by mean pooling its last hidden states (its
``1_Pooling/config.json``: ``pooling_mode_mean_tokens``), then normalising. A head is switched
off with a head mask: its slice of the merged context is zeroed just before ``W_o``, in our own
``MultiHeadAttention``. The change is 1 − cosine between the embedding with and without the head.

Shape letters: N batch, T tokens, E hidden size, h heads, n layers.

>>> import torch
>>> round(embedding_shift(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])), 3)
1.0
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import torch
from torch import Tensor, nn

from ..cache import memory
from ..tables import md_table
from .analysis import TEXTS, _labels, all_stats
from .loader import encode, load_model, source_hash

__all__ = ["head_mask", "sentence_embedding", "embedding_shift", "head_importance", "importance_rows",
           "importance_table", "importance_summary", "broad_vs_clark", "text_pair_shift"]


def _check_head(attn: nn.Module, head: int) -> None:
    if not isinstance(head, int) or not 0 <= head < attn.num_heads:
        raise ValueError(f"head must be in 0 … {attn.num_heads - 1}, got {head!r}")


# --8<-- [start:head_mask]
@contextlib.contextmanager
def head_mask(attn: nn.Module, head: int):
    """Switch one head of our MultiHeadAttention off (zero it before W_o)."""
    _check_head(attn, head)
    gate = torch.ones(attn.d_model)  # (E,)
    d_k = attn.d_k
    gate[head * d_k:(head + 1) * d_k] = 0.0  # head i's features

    def hook(module, args):
        return (args[0] * gate,)  # (N, T, E), the merged heads

    handle = attn.W_o.register_forward_pre_hook(hook)
    try:
        yield attn
    finally:
        handle.remove()


@torch.no_grad()
def sentence_embedding(model: nn.Module, ids: Tensor) -> Tensor:
    """Mean of the last hidden states over the tokens: (N, E)."""
    hidden, _ = model(ids)  # hidden[-1]: (N, T, E)
    return hidden[-1].mean(dim=1)  # (N, E), the model's mean pooling


def embedding_shift(a: Tensor, b: Tensor) -> float:
    """1 − cosine similarity: 0 when the direction is unchanged."""
    cos = nn.functional.cosine_similarity(a.flatten(), b.flatten(), dim=0)
    return 1.0 - cos.item()
# --8<-- [end:head_mask]


@memory.cache
def _importance(texts: tuple[str, ...], code: str) -> Tensor:
    model = load_model()
    n, h = model.cfg.num_layers, model.cfg.num_heads
    shift = torch.zeros(len(texts), n, h, dtype=torch.float64)  # (texts, n, h)
    for t, text in enumerate(texts):
        ids = encode(text).ids  # (1, T)
        full = sentence_embedding(model, ids)
        for layer in range(n):
            for head in range(h):
                with head_mask(model.layers[layer].attn, head):
                    shift[t, layer, head] = embedding_shift(sentence_embedding(model, ids), full)
    return shift


@memory.cache
def _pair_shift(texts: tuple[str, ...], code: str) -> float:
    model = load_model()
    emb = [sentence_embedding(model, encode(t).ids) for t in texts]
    pairs = [(i, j) for i in range(len(emb)) for j in range(i + 1, len(emb))]
    return sum(embedding_shift(emb[i], emb[j]) for i, j in pairs) / len(pairs)


def text_pair_shift(texts: Sequence[str] = TEXTS) -> float:
    """For scale: mean 1 − cos between the embeddings of two different texts."""
    if isinstance(texts, str) or len(texts) < 2:
        raise ValueError(f"texts must hold at least two strings, got {texts!r}")
    return _pair_shift(tuple(texts), source_hash())


def head_importance(texts: Sequence[str] = TEXTS) -> Tensor:
    """For every text, layer and head: 1 − cos(embedding without the head, full embedding). (texts, n, h)."""
    if isinstance(texts, str) or not texts or not all(isinstance(t, str) and t.strip() for t in texts):
        raise ValueError(f"texts must be a non-empty list of non-empty strings, got {texts!r}")
    return _importance(tuple(texts), source_hash())


def _by_category(texts) -> dict[str, list[tuple[int, int, float]]]:
    shift = head_importance(texts).mean(dim=0)  # (n, h): mean over texts
    _, cats = all_stats(texts)
    groups: dict[str, list[tuple[int, int, float]]] = {}
    for layer, row in enumerate(cats):
        for head, cat in enumerate(row):
            groups.setdefault(cat, []).append((layer, head, shift[layer, head].item()))
    return groups


def importance_rows(lang: str, texts: Sequence[str] = TEXTS) -> list[tuple[str, int, str, str, str]]:
    """Per category: heads, mean and largest shift, and the head with the largest shift (layer-head)."""
    lab = _labels(lang)
    groups = _by_category(texts)
    rows = []
    for cat in ("prev", "next", "sep", "cls", "broad", "other"):
        if cat not in groups:
            continue
        vals = groups[cat]
        top = max(vals, key=lambda v: v[2])
        mean = sum(v[2] for v in vals) / len(vals)
        rows.append((lab[cat], len(vals), f"{mean:.4f}", f"{top[2]:.4f}", f"{top[0]}-{top[1]}"))
    return rows


def importance_table(lang: str, texts: Sequence[str] = TEXTS) -> str:
    headers = {"zh": ["类别", "头数", "平均 1 − cos", "最大 1 − cos", "影响最大的头（层-头）"],
               "en": ["category", "heads", "mean 1 − cos", "largest 1 − cos", "largest (layer-head)"]}
    _labels(lang)
    return md_table(headers[lang], importance_rows(lang, texts), align="lrrrl")


def _ranked(texts) -> list[tuple[int, int, float, str]]:
    groups = _by_category(texts)
    flat = [(layer, head, s, cat) for cat, vals in groups.items() for layer, head, s in vals]
    return sorted(flat, key=lambda v: -v[2])


def importance_summary(lang: str, texts: Sequence[str] = TEXTS, top: int = 5) -> str:
    """Sentences with the measured ranking filled in: the most important heads, the least, and where broad heads rank."""
    lab = _labels(lang)
    ranked = _ranked(texts)
    n = len(ranked)
    fmt = "{}-{}（{}，{:.4f}）" if lang == "zh" else "{}-{} ({}, {:.4f})"
    best = ("、" if lang == "zh" else ", ").join(fmt.format(la, he, lab[c], s) for la, he, s, c in ranked[:top])
    least = ranked[-1]
    broad = [i + 1 for i, (_, _, _, cat) in enumerate(ranked) if cat == "broad"]
    median = sorted(s for _, _, s, _ in ranked)[n // 2]
    scale = text_pair_shift(texts)
    if lang == "zh":
        out = (f"去掉单个头时句向量变化最大的 {top} 个头（层-头，类别，1 − cos）：{best}。"
               f"变化最小的是 {least[0]}-{least[1]}（{lab[least[3]]}，{least[2]:.4f}）；{n} 个头的中位数是 {median:.4f}。"
               f"作为参照，本页两段不同文本的句向量之间，1 − cos 平均为 {scale:.2f}。")
        if broad:
            out += f"宽泛类的 {len(broad)} 个头在这 {n} 个头的排名（1 = 影响最大）为 {'、'.join(map(str, broad))}。"
        return out
    if lang == "en":
        out = (f"The {top} heads whose removal moves the sentence embedding most (layer-head, category, 1 − cos): "
               f"{best}. The least is {least[0]}-{least[1]} ({lab[least[3]]}, {least[2]:.4f}); the median over all "
               f"{n} heads is {median:.4f}. For scale, two different texts of this page are on average "
               f"{scale:.2f} apart (1 − cos).")
        if broad:
            out += f" The {len(broad)} broad heads rank {', '.join(map(str, broad))} of {n} (1 = largest effect)."
        return out
    raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")


def broad_vs_clark(lang: str, texts: Sequence[str] = TEXTS) -> str:
    """How this page's broad heads compare with Clark et al.'s description (rarely > 10% on one word)."""
    from .analysis import attention_maps

    stats, cats = all_stats(texts)
    broad = [(layer, head) for layer, row in enumerate(cats) for head, c in enumerate(row) if c == "broad"]
    if not broad:
        raise ValueError("no head is in the broad category; nothing to compare")
    rows_max = []  # over broad heads: share of query rows whose largest weight exceeds 10%
    for text in texts:
        maps, _ = attention_maps(text)  # (n, h, T, T)
        for layer, head in broad:
            rows_max.append((maps[layer, head].max(dim=-1).values > 0.1).double().mean().item())
    cls = [stats["cls"][lh].item() for lh in broad]
    frac = sum(rows_max) / len(rows_max)
    if lang == "zh":
        return (f"本页的 {len(broad)} 个宽泛头放在 [CLS] 上的平均份额在 {min(cls):.0%} 到 {max(cls):.0%} 之间；"
                f"平均 {frac:.0%} 的查询行里，权重最大的那个 token 拿到的超过 10%。")
    if lang == "en":
        return (f"This page's {len(broad)} broad heads put between {min(cls):.0%} and {max(cls):.0%} of their "
                f"attention on [CLS] on average; in {frac:.0%} of their query rows, on average, the most-attended "
                f"token gets more than 10%.")
    raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
