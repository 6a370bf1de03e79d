"""The induction page's live view: the reader's own text through the trained models, in the browser.

docs/assets/induction-live.js runs AttentionOnly's forward pass (snippets.induction.model) on the
weights that results/induction-live.json keeps (snippets.induction.weights: seed 0 of the protocol's
two-layer models, trained again as the protocol trains them). The page holds a container and a JSON
script; the weights (``models``) leave the page for a file of their own at build time
(sitebuild/hooks/page_data.py), which the script fetches when the view comes near the screen.

- ``text_ids``: a text as the model's ids: each character's Unicode code point modulo VOCAB. The
  models were trained on random ids; no character means anything to them, only repetition does.
- ``roles``: which head is the previous-token head (layer 0, highest previous-token score) and which
  the induction head (layer 1, highest prefix-matching score), the protocol's own rule
  (snippets.induction.protocol.switch_family), on the scores the result measured on these weights.

>>> text_ids("Aa 头")
[1, 33, 32, 52]
>>> roles({"prev": [[.1, .8], [.2, .1]], "prefix": [[0, 0], [.3, .6]]})
{'prev': [0, 1], 'induction': [1, 1]}
"""

from __future__ import annotations

import html
import json
import string
from pathlib import Path

import resultcache

from ..i18n import text, texts
from .task import SEQ_LEN, VOCAB
from .weights import LIVE

__all__ = ["RESULT_NAME", "SHOWN", "MAX_CHARS", "text_ids", "same_id", "roles", "load_live", "live_data", "live_html",
           "live_sentence"]

RESULT_NAME = "induction-live.json"
# The models the page offers, of weights.LIVE: the minimal circuit only. Every model's weights travel
# with the page's data (and inline in its notebook): the 2 x 4 model would more than triple them.
SHOWN = ((2, 1, 0),)
MAX_CHARS = SEQ_LEN  # the models have learned positions for SEQ_LEN tokens, one per character


def text_ids(text_: str) -> list[int]:
    """Each character's code point modulo VOCAB: the ids the model reads."""
    if not isinstance(text_, str) or not 1 <= len(text_) <= MAX_CHARS:
        got = f"{len(text_)} characters" if isinstance(text_, str) else type(text_).__name__
        raise ValueError(f"expected a text of 1 to {MAX_CHARS} characters, got {got}")
    return [ord(c) % VOCAB for c in text_]


def same_id(chars: str = string.digits + string.ascii_letters) -> tuple[str, str]:
    """The first two characters of chars (in order) that get the same id.

    >>> same_id()
    ('0', 'p')
    """
    first: dict[int, str] = {}
    for c in chars:
        i = text_ids(c)[0]
        if i in first:
            return first[i], c
        first[i] = c
    raise ValueError(f"expected characters among which two share an id, got {chars!r}")


def live_sentence(lang: str) -> str:
    """How the view turns a text into ids, printed on the page."""
    a, b = same_id()
    return text(lang, "ind.live_ids", vocab=VOCAB, max=MAX_CHARS, a=a, b=b)


def roles(final: dict) -> dict:
    """The previous-token head (layer 0) and the induction head (layer 1) of a two-layer model, as
    [layer, head], from its head scores (head_scores: prev and prefix, per layer and head)."""
    if not isinstance(final, dict) or len(final.get("prev", ())) != 2 or len(final.get("prefix", ())) != 2:
        raise ValueError(f"expected head scores (prev, prefix) of a two-layer model, got {final!r:.80}")
    prev, prefix = final["prev"][0], final["prefix"][1]
    return {"prev": [0, max(range(len(prev)), key=prev.__getitem__)],
            "induction": [1, max(range(len(prefix)), key=prefix.__getitem__)]}


def load_live(path: Path | None = None) -> dict:
    """results/induction-live.json, committed by python -m sitebuild.results induction-live."""
    path = resultcache.results_dir() / RESULT_NAME if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"expected the live view's weights at {path}; "
                         "run `python -m sitebuild.results induction-live`")
    return json.loads(path.read_text(encoding="utf-8"))


def live_data(result: dict | None = None, shown=SHOWN) -> list[dict]:
    """The models the view offers (shown, of LIVE): sizes, head scores, roles, weights (float32 base64)."""
    result = load_live() if result is None else result
    by_job = {(m["layers"], m["heads"], m["seed"]): m for m in result["data"]["models"]}
    missing = [job for job in shown if job not in by_job or job not in LIVE]
    if missing:
        raise ValueError(f"expected the live models {tuple(shown)} in the result, missing {missing}; "
                         "run `python -m sitebuild.results induction-live`")
    out = []
    for job in shown:
        m = by_job[job]
        out.append({"layers": m["layers"], "heads": m["heads"], "seed": m["seed"],
                    "prev": m["final"]["prev"], "prefix": m["final"]["prefix"], "roles": roles(m["final"]),
                    "weights": m["state_dict"]})
    return out


def live_html(lang: str, result: dict | None = None) -> str:
    """A <div> holding the view's words and data as JSON; induction-live.js builds the view inside it."""
    ui = texts(lang, "live")
    payload = {"ui": ui, "vocab": VOCAB, "max_chars": MAX_CHARS,
               "labels": [text(lang, f"ind.setting_{layers}_{heads}") for layers, heads, _ in SHOWN],
               "models": live_data(result)}
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (f'<div class="induction-live" data-induction-live>'
            f'<p class="il-nojs">{html.escape(ui["nojs"])}</p>'
            f'<script type="application/json" class="induction-live-data">{data}</script></div>')
