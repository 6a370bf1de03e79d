"""What the roadmap page prints about the key/value heads lab, from its committed results.

The roadmap says where the key/value heads experiments stand, in one clause and a link; the results
themselves are on the key/value heads page. A hand-written sentence went stale twice as the lab grew,
so this one is chosen by whether the second recall test's result file is in results/ yet.

>>> kv_heads_status("en", done=False).endswith("are not on the site yet.")
True
"""

from __future__ import annotations

import resultcache

from .i18n import check_lang, text

__all__ = ["MQAR_RESULT", "mqar_done", "kv_heads_status"]

MQAR_RESULT = "kvheads-mqar.json"  # written by `python -m sitebuild.results mqar`


def mqar_done() -> bool:
    """Whether the second recall test's results are committed (results/kvheads-mqar.json)."""
    return (resultcache.results_dir() / MQAR_RESULT).is_file()


def kv_heads_status(lang: str, done: bool | None = None) -> str:
    """One sentence: which recall tests have their results on the key/value heads page (done: None reads
    results/)."""
    check_lang(lang)
    done = mqar_done() if done is None else done
    return text(lang, "roadmap.kv_done" if done else "roadmap.kv_pending")
