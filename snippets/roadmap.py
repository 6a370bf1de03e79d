"""What the roadmap page prints about the key/value heads lab, from its committed results.

The roadmap says where the key/value heads experiments stand. A hand-written sentence went stale
twice as the lab grew; this one is made from what is committed: the first recall test's result
(snippets.kvheads.report.summary_sentence, the sentence FAQ Q20 prints), and the second test's
protocol (snippets.kvheads.protocol), with whether its result file is in results/ yet.

>>> kv_heads_status("en", done=False).endswith("its results are not on the site yet.")
True
"""

from __future__ import annotations

import resultcache

from .i18n import check_lang, text
from .kvheads import protocol as P
from .kvheads.report import summary_sentence

__all__ = ["MQAR_RESULT", "mqar_done", "kv_heads_status"]

MQAR_RESULT = "kvheads-mqar.json"  # written by `python -m sitebuild.results mqar`


def mqar_done() -> bool:
    """Whether the second recall test's results are committed (results/kvheads-mqar.json)."""
    return (resultcache.results_dir() / MQAR_RESULT).is_file()


def _sizes(kind: str, lang: str) -> str:
    return text(lang, "roadmap.sep").join(str(size) for k, size in P.SETTINGS if k == kind)


def kv_heads_status(lang: str, done: bool | None = None) -> str:
    """Two sentences: the first recall test's result, and the second test's design and whether its results are
    committed (done: None reads results/)."""
    check_lang(lang)
    done = mqar_done() if done is None else done
    second = text(lang, "roadmap.mqar", pairs=P.PAIRS, seq_len=P.SEQ_LEN, g=_sizes("gqa", lang), d_c=_sizes("mla", lang),
                  seeds=len(P.SEEDS), steps=f"{P.STEPS:,}")
    state = text(lang, "roadmap.mqar_done" if done else "roadmap.mqar_pending")
    return text(lang, "roadmap.kv", first=summary_sentence(lang), second=second + state)
