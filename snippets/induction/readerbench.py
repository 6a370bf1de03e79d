"""The live view's benchmark: texts a reader might type, each a sentence written twice.

Fixed before the reader's model (snippets.induction.reader) was first evaluated on any reader-like
text, and never used to choose anything about it: the training data, the model and the number of
steps were decided on random ids alone. Twenty Chinese and twenty English sentences of 12 to 48
characters; some are typed twice back to back, some with a separator between the copies, some after
a prefix, so the repeat sits anywhere in the text.

The metric, also fixed here: in each text, the predictable next characters are those of the second
copy after its first character (the first copy gives each of them away); a guess is right when the
model's most likely id is the next character's id. A text's score is the share of its predictable
next characters guessed right; the benchmark's score is the mean over texts, per language.

>>> len(CASES["zh"]), len(CASES["en"])
(20, 20)
>>> t = layout("前缀：", "今天下雨了，出门记得带伞。", "")
>>> t.text, t.second, t.length
('前缀：今天下雨了，出门记得带伞。今天下雨了，出门记得带伞。', 16, 13)
>>> predictable_positions(t)[:3], len(predictable_positions(t))
([16, 17, 18], 12)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

__all__ = ["SHORTEST", "LONGEST", "CASES", "Text", "layout", "bench_texts", "predictable_positions", "score"]

SHORTEST, LONGEST = 12, 48  # characters in a sentence

# Per language, (prefix, sentence, separator between the two copies): readerbench.json, as committed
# (the texts are data; the code holds no Chinese of its own).
_DATA = json.loads((Path(__file__).parent / "readerbench.json").read_text(encoding="utf-8"))
CASES = {lang: tuple(tuple(c) for c in cases) for lang, cases in _DATA.items()}


class Text(NamedTuple):
    text: str
    second: int  # index of the second copy's first character
    length: int  # characters in one copy


def layout(prefix: str, sentence: str, sep: str) -> Text:
    """The text prefix + sentence + sep + sentence, and where its second copy starts."""
    if not isinstance(sentence, str) or not SHORTEST <= len(sentence) <= LONGEST:
        raise ValueError(f"expected a sentence of {SHORTEST} to {LONGEST} characters, got {sentence!r}")
    second = len(prefix) + len(sentence) + len(sep)
    return Text(prefix + sentence + sep + sentence, second, len(sentence))


def bench_texts(lang: str) -> list[Text]:
    if lang not in CASES:
        raise ValueError(f"expected a language of {sorted(CASES)}, got {lang!r}")
    return [layout(*c) for c in CASES[lang]]


def predictable_positions(t: Text) -> list[int]:
    """Positions p whose next character p + 1 the first copy gives away: p and p + 1 in the second copy."""
    return list(range(t.second, t.second + t.length - 1))


def score(guesses: list[int], ids: list[int], t: Text) -> float:
    """Share of t's predictable next characters guessed right: guesses[p] is the model's id after p."""
    pos = predictable_positions(t)
    return sum(guesses[p] == ids[p + 1] for p in pos) / len(pos)
