"""The induction page's live view: the reader's own text through the trained models, in the browser.

docs/assets/induction-live.js runs ReaderModel's forward pass (snippets.induction.reader) on the
float16 weights that results/induction-reader.json keeps: the page's two-layer, one-head model,
trained on random ids with the repeat anywhere, at any length up to MAX_CHARS, with relative positions
(the protocol's own seed-0 models, results/induction-live.json, learned where its repeat sits and
fail on a short text). The page holds a container and a JSON script; the weights (``models``) leave
the page for a file of their own at build time (sitebuild/hooks/page_data.py), which the script
fetches when the view comes near the screen.

- ``text_ids``: a text as the model's ids: each character's Unicode code point modulo VOCAB (256).
  The model was trained on random ids; no character means anything to it, only repetition does.
- ``roles``: which head is the previous-token head (layer 0, highest previous-token score) and which
  the induction head (layer 1, highest prefix-matching score), the protocol's own rule
  (snippets.induction.protocol.switch_family), on the scores the result measured on these weights.
- ``bench_scores``: the model on the reader benchmark (snippets.induction.readerbench), per language.

>>> text_ids("Aa 头")
[65, 97, 32, 52]
>>> roles({"prev": [[.1, .8], [.2, .1]], "prefix": [[0, 0], [.3, .6]]})
{'prev': [0, 1], 'induction': [1, 1]}
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import resultcache

import torch

from ..i18n import text, texts
from . import readerbench
from .model import D_HEAD
from .reader import CANDIDATES, CANDIDATES_WIDE, LIVE, MAX_LEN, VOCAB, choose, job_key, load_reader

__all__ = ["RESULT_NAME", "READER_NAME", "SHOWN", "MAX_CHARS", "text_ids", "same_id", "roles", "load_live",
           "load_reader_result", "live_data", "live_html", "model_label", "live_sentence", "reader_sentence",
           "bench_scores", "bench_sentence", "choice_rows", "choice_sentence"]

RESULT_NAME = "induction-live.json"  # the protocol's seed-0 models (snippets.induction.weights), for the figures
READER_NAME = "induction-reader.json"  # the live view's model (snippets.induction.reader)
# The models the page offers, of reader.LIVE: the kept candidate first, then the minimal circuit.
SHOWN = LIVE
MAX_CHARS = MAX_LEN  # the longest sequence the model was trained on, one id per character
# Characters the page's sentence picks two of that share an id: those of the benchmark's Chinese sentences.
SHARED = "".join(dict.fromkeys("".join(s for _, s, _ in readerbench.CASES["zh"])))


def text_ids(text_: str) -> list[int]:
    """Each character's code point modulo VOCAB: the ids the model reads."""
    if not isinstance(text_, str) or not 1 <= len(text_) <= MAX_CHARS:
        got = f"{len(text_)} characters" if isinstance(text_, str) else type(text_).__name__
        raise ValueError(f"expected a text of 1 to {MAX_CHARS} characters, got {got}")
    return [ord(c) % VOCAB for c in text_]


def same_id(chars: str = SHARED) -> tuple[str, str]:
    """The first two characters of chars (in order) that get the same id.

    >>> same_id()
    ('这', '给')
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


def load_reader_result(path: Path | None = None) -> dict:
    """results/induction-reader.json, committed by python -m sitebuild.results induction-reader."""
    path = resultcache.results_dir() / READER_NAME if path is None else Path(path)
    if not path.is_file():
        raise ValueError(f"expected the live view's weights at {path}; "
                         "run `python -m sitebuild.results induction-reader`")
    return json.loads(path.read_text(encoding="utf-8"))


def _job_of(record: dict) -> tuple[int, int, int, int]:
    """A kept record's (layers, heads, seed, d_head)."""
    return job_key((record["layers"], record["heads"], record["seed"], record.get("d_head", D_HEAD)))


def _by_job(result: dict) -> dict:
    """{(layers, heads, seed, d_head): record} of a result's models."""
    return {_job_of(m): m for m in result["data"]["models"]}


def _record(result: dict, job=SHOWN[0]) -> dict:
    by_job, job = _by_job(result), job_key(job)
    if job not in by_job:
        raise ValueError(f"expected the live model {job} in the result, got {sorted(by_job)}; "
                         "run `python -m sitebuild.results induction-reader`")
    return by_job[job]


@torch.no_grad()
def bench_scores(result: dict | None = None, job=SHOWN[0]) -> dict:
    """The model on the reader benchmark: per language, each text's share of the second copy's
    predictable next characters guessed right (``texts``) and their mean (``mean``); and over all
    its predictable positions, [right, total] where the current character's id occurs once before
    the second copy (``once``: one place to copy from) and where it occurs several times (``several``)."""
    model = load_reader(_record(load_reader_result() if result is None else result, job))
    out = {}
    for lang in readerbench.CASES:
        shares, once, several = [], [0, 0], [0, 0]
        for t in readerbench.bench_texts(lang):
            ids = text_ids(t.text)
            guesses = model(torch.tensor([ids]))[0].argmax(-1).tolist()
            shares.append(readerbench.score(guesses, ids, t))
            for p in readerbench.predictable_positions(t):
                tally = once if ids[:t.second].count(ids[p]) == 1 else several
                tally[0] += guesses[p] == ids[p + 1]
                tally[1] += 1
        out[lang] = {"texts": shares, "mean": sum(shares) / len(shares), "once": once, "several": several}
    return out


def reader_sentence(lang: str, result: dict | None = None) -> str:
    """How the live view's models were trained and what they measure on held-out sequences, printed on the page."""
    result = load_reader_result() if result is None else result
    setup = result["data"]["setup"]
    kept, first = (_record(result, job) for job in SHOWN)
    inner = roles(first["final"])
    return text(lang, "ind.live_reader", min_len=setup["MIN_LEN"], max_len=setup["MAX_LEN"],
                min_seg=setup["MIN_SEGMENT"], max_gap=setup["MAX_GAP"], steps=setup["STEPS"], batch=setup["BATCH"],
                cpu_kept=kept["cpu_seconds"], cpu_first=first["cpu_seconds"], n_eval=setup["EVAL_SIZE"],
                kept=model_label(lang, SHOWN[0]), first=model_label(lang, SHOWN[1]),
                acc_kept=kept["final"]["accuracy"], acc_first=first["final"]["accuracy"],
                sev_kept=kept["final"]["accuracy_several"], sev_first=first["final"]["accuracy_several"],
                share=kept["final"]["share_several"],
                prev=first["final"]["prev"][0][inner["prev"][1]],
                prefix=first["final"]["prefix"][1][inner["induction"][1]])


def bench_sentence(lang: str, result: dict | None = None) -> str:
    """The benchmark's result for both offered models, printed on the page."""
    result = load_reader_result() if result is None else result
    k, f = (bench_scores(result, job) for job in SHOWN)

    def pooled(s: dict, where: str) -> float:  # right / total over both languages, "once" or "several"
        return sum(s[lang][where][0] for lang in s) / sum(s[lang][where][1] for lang in s)

    return text(lang, "ind.live_bench", n_zh=len(k["zh"]["texts"]), n_en=len(k["en"]["texts"]),
                short=readerbench.SHORTEST, long=readerbench.LONGEST, kept=model_label(lang, SHOWN[0]),
                zh=k["zh"]["mean"], en=k["en"]["mean"], lo=min(k["zh"]["texts"] + k["en"]["texts"]),
                zh1=f["zh"]["mean"], en1=f["en"]["mean"], once1=pooled(f, "once"), sev1=pooled(f, "several"),
                sev=pooled(k, "several"),
                zh_share=f["zh"]["several"][1] / (f["zh"]["once"][1] + f["zh"]["several"][1]),
                en_share=f["en"]["several"][1] / (f["en"]["once"][1] + f["en"]["several"][1]))


def choice_rows(lang: str, result: dict | None = None) -> list[list[str]]:
    """The kept model's candidates, as table rows: name, held-out accuracy, where the current id occurs once
    before the second copy and where several times, and whether it is the one kept (reader.choose)."""
    result = load_reader_result() if result is None else result
    cands = result["data"]["candidates"]
    kept = choose(cands)
    first = _record(result, SHOWN[1])
    rows = []
    for c in [first, *cands]:
        mark = "—" if c is first else ("✅" if c is kept else "")
        rows.append([model_label(lang, _job_of(c)), f"{c['final']['accuracy']:.1%}", f"{c['final']['accuracy_once']:.1%}",
                     f"{c['final']['accuracy_several']:.1%}", mark])
    return rows


def choice_sentence(lang: str, result: dict | None = None) -> str:
    """How the kept model was chosen, with the candidates' held-out accuracies, printed on the page."""
    result = load_reader_result() if result is None else result
    acc = {_job_of(c): c["final"]["accuracy"] for c in result["data"]["candidates"]}
    narrow, wide = ([acc[job_key(j)] for j in group] for group in (CANDIDATES, CANDIDATES_WIDE))
    kept = choose(result["data"]["candidates"])
    return text(lang, "ind.live_choice", a2=narrow[0], a4=narrow[1], w2=wide[0], w4=wide[1],
                first=_record(result, SHOWN[1])["final"]["accuracy"], width=D_HEAD,
                wide=job_key(CANDIDATES_WIDE[0])[3], kept=model_label(lang, _job_of(kept)))


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
    """The models the view offers (shown, of LIVE): sizes, head scores, roles, weights (float16 base64)."""
    result = load_reader_result() if result is None else result
    by_job = _by_job(result)
    missing = [job for job in shown if job_key(job) not in by_job or job_key(job) not in map(job_key, LIVE)]
    if missing:
        raise ValueError(f"expected the live models {tuple(shown)} in the result, missing {missing}; "
                         "run `python -m sitebuild.results induction-reader`")
    out = []
    for job in shown:
        m = by_job[job_key(job)]
        out.append({"layers": m["layers"], "heads": m["heads"], "seed": m["seed"],
                    "d_head": m.get("d_head", D_HEAD), "prev": m["final"]["prev"], "prefix": m["final"]["prefix"], "roles": roles(m["final"]),
                    "weights": m["state_dict"]})
    return out


def model_label(lang: str, job) -> str:
    """A model's name on the page: its layers and heads, and its head width when not D_HEAD."""
    layers, heads, _, d_head = job_key(job)
    label = text(lang, f"ind.setting_{layers}_{heads}")
    return label if d_head == D_HEAD else text(lang, "ind.setting_width", setting=label, d_head=d_head)


def live_html(lang: str, result: dict | None = None) -> str:
    """A <div> holding the view's words and data as JSON; induction-live.js builds the view inside it."""
    ui = texts(lang, "live")
    payload = {"ui": ui, "vocab": VOCAB, "max_chars": MAX_CHARS,
               "start": f"example_{lang}",  # the view opens on the page's language
               "labels": [model_label(lang, job) for job in SHOWN],
               "models": live_data(result)}
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (f'<div class="induction-live" data-induction-live>'
            f'<p class="il-nojs">{html.escape(ui["nojs"])}</p>'
            f'<script type="application/json" class="induction-live-data">{data}</script></div>')
