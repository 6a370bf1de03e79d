"""The §4 model lab in a real browser: the JavaScript model against PyTorch, the page's ablation table
replayed in the lab, the controls by mouse and keyboard, both palettes, a phone-width screen, and speed."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np
import pytest

from sitebuild.whatif_lab import FOLDER, decode_array, model_file
from snippets.whatif.analysis import sweep

from .conftest import ARTIFACTS, PHONE
from .pages import OVERFLOW_JS

pytestmark = pytest.mark.browser

ZH, EN = "article/4-what-if/", "en/article/4-what-if/"
LIMIT_MS = 100  # model switch or head mask change, until the new answer is on screen

# Runs in the page: every model's forward pass on the exported held-out logs, against PyTorch's logits.
COMPARE_JS = """
async () => {
  const W = window.WhatifLab;
  const index = await W.loadIndex();
  const out = [];
  for (const entry of index.models) {
    const model = await W.loadModel(entry.file);
    const check = await (await fetch(W.base + entry.file.replace(".json", ".check.json"))).json();
    const ref32 = W.decodeF32(check.logits);
    const bin = atob(check.logits64), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const ref64 = new Float64Array(bytes.buffer);
    const logs = W.decodeLogs(check.logs);
    const [M, N, L, T, V] = check.shape, size = L * T * V;
    let d32 = 0, d64 = 0, n = 0;
    for (let m = 0; m < M; m++) for (let k = 0; k < N; k++) {
      const logits = model.forward(logs.subarray(k * L, (k + 1) * L), check.masks[m]).logits;
      for (let i = 0; i < size; i++) {
        const at = (m * N + k) * size + i;
        d32 = Math.max(d32, Math.abs(logits[i] - ref32[at]));
        d64 = Math.max(d64, Math.abs(logits[i] - ref64[at]));
        n++;
      }
    }
    out.push({file: entry.file, d32, d64, n, masks: check.masks});
  }
  return out;
}
"""

STATE_JS = "() => { const r = document.querySelector('.whatif-lab'); return r && r.dataset.state; }"


def open_lab(page, url: str, scheme: str = "light"):
    page.emulate_media(color_scheme=scheme)
    page.goto(url)
    lab = page.locator(".whatif-lab")
    lab.scroll_into_view_if_needed()
    wait_done(page)
    return lab


def wait_done(page, timeout: float = 30_000):
    page.wait_for_function(f"({STATE_JS})() === 'done'", timeout=timeout)


def shown_accuracies(lab) -> list[str]:
    return lab.locator(".wl-acc-value").all_inner_texts()


def set_mask(page, lab, keep: list[bool]):
    """Switch heads with the lab's own buttons, as a reader would."""
    lab.get_by_role("button", name="全部打开" if page.evaluate("document.documentElement.lang").startswith("zh")
                    else "All heads on").click()
    for i, k in enumerate(keep):
        if not k:
            lab.locator(f'.wl-head[data-head="{i}"]').click()
    wait_done(page)


def test_lab_serves_the_cached_weights(built_site: Path):
    """The files the page fetches hold exactly the trained weights the page's tables come from."""
    folder = built_site / FOLDER
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    runs = sweep()
    assert [(m["heads"], m["seed"]) for m in index["models"]] == [(r["num_heads"], r["seed"]) for r in runs]
    for run in runs:
        data = json.loads((folder / model_file(run["num_heads"], run["seed"])).read_text(encoding="utf-8"))
        assert sorted(data["weights"]) == sorted(run["state_dict"])
        for name, tensor in run["state_dict"].items():
            entry = data["weights"][name]
            np.testing.assert_array_equal(decode_array(entry["data"], entry["shape"]), tensor, err_msg=name)
    # The English page reads the same files: nothing is duplicated under en/.
    assert not (built_site / "en" / FOLDER).exists()


def test_javascript_logits_match_pytorch(page, server_url):
    open_lab(page, server_url + ZH)
    results = page.evaluate(COMPARE_JS)
    assert len(results) == len(sweep())
    worst32 = max(r["d32"] for r in results)
    worst64 = max(r["d64"] for r in results)
    lines = [f"| {r['file']} | {r['n']} | {r['d32']:.2e} | {r['d64']:.2e} |" for r in results]
    report = "\n".join(["| model | logits | max diff vs float32 | max diff vs float64 |", "|---|--:|--:|--:|", *lines])
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "whatif-lab-logits.md").write_text(report + "\n", encoding="utf-8")
    print(f"\nwhatif lab: max |JS - PyTorch float32| = {worst32:.2e}, max |JS - PyTorch float64| = {worst64:.2e}")
    # Each check covers all heads and a set of heads switched off.
    assert all(r["masks"][0] == [True] * len(r["masks"][0]) and not all(r["masks"][1]) for r in results)
    assert worst32 <= 1e-4, report
    # The JavaScript runs in float64: against the same weights in float64 it agrees to rounding.
    assert worst64 <= 1e-9, report


def ablation_table(page) -> list[list[str]]:
    """The rows of the page's own ablation table, as printed."""
    return page.evaluate("""() => {
      let el = document.getElementById('ablation');
      while (el && !el.querySelector('table') && el.tagName !== 'TABLE') el = el.nextElementSibling;
      const table = el.tagName === 'TABLE' ? el : el.querySelector('table');
      return [...table.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => td.textContent.trim()));
    }""")


@pytest.mark.parametrize("path", [ZH, EN])
def test_lab_reproduces_the_ablation_table(page, server_url, path):
    lab = open_lab(page, server_url + path)
    rows = ablation_table(page)
    heads = lab.locator(".wl-head").count()
    assert len(rows) == 1 + 2 * heads  # all heads, each head removed, each head alone
    cases = [[True] * heads]
    cases += [[j != i for j in range(heads)] for i in range(heads)]
    cases += [[j == i for j in range(heads)] for i in range(heads)]
    for row, keep in zip(rows, cases, strict=True):
        set_mask(page, lab, keep)
        pressed = [b == "true" for b in lab.locator(".wl-head").evaluate_all("bs => bs.map(b => b.ariaPressed)")]
        assert pressed == keep
        assert shown_accuracies(lab) == row[1:], f"{row[0]}: lab shows {shown_accuracies(lab)}"


def test_controls_by_mouse(page, server_url):
    lab = open_lab(page, server_url + ZH)
    chips = lab.locator(".wl-chip")
    assert chips.count() == 16 and lab.locator(".whatif-lab-nojs").count() == 0
    chips.nth(3).click()
    assert chips.nth(3).get_attribute("aria-checked") == "true"
    assert lab.get_by_label("位置 3 的事件", exact=True).count() == 1
    # Targets of position 3 are marked on the chips.
    assert [chips.nth(i).locator(".wl-chip-off").inner_text() for i in (1, 2, 4, 5)] == ["−2", "−1", "+1", "+2"]
    # Change the event two places after: the "后 2 个" answer now expects it.
    lab.get_by_label("位置 3 的事件", exact=True).select_option("0")
    assert chips.nth(3).locator(".wl-chip-event").inner_text() == "deploy"
    before = chips.locator(".wl-chip-event").all_inner_texts()
    lab.get_by_role("button", name="随机换一段日志").click()
    assert chips.locator(".wl-chip-event").all_inner_texts() != before
    lab.get_by_role("button", name="换回样本日志").click()
    # Predictions at position 0: two targets fall outside the log.
    chips.nth(0).click()
    assert lab.locator(".wl-pred.wl-outside").count() == 2
    # Another model by mouse: its head rows replace the old ones.
    lab.get_by_label("头数 h", exact=True).select_option("8")
    wait_done(page)
    assert lab.locator(".wl-head").count() == 8
    head = lab.locator('.wl-head[data-head="2"]')
    head.click()
    wait_done(page)
    assert head.get_attribute("aria-pressed") == "false"
    assert "关掉的头：2" in lab.locator(".wl-status").inner_text()


def test_controls_by_keyboard(page, server_url):
    lab = open_lab(page, server_url + EN, scheme="dark")
    chips = lab.locator(".wl-chip")
    start = int(lab.locator('.wl-chip[aria-checked="true"]').get_attribute("data-pos"))
    # One tab stop for the whole log; arrows move the chosen position.
    assert lab.locator(".wl-chip[tabindex='0']").count() == 1
    chips.nth(start).focus()
    page.keyboard.press("ArrowRight")
    assert chips.nth(start + 1).evaluate("e => e === document.activeElement")
    assert chips.nth(start + 1).get_attribute("aria-checked") == "true"
    page.keyboard.press("Home")
    assert chips.nth(0).get_attribute("aria-checked") == "true"
    page.keyboard.press("End")
    assert chips.nth(15).get_attribute("aria-checked") == "true"
    # Tab reaches the event menu; arrow keys change the event.
    old = chips.nth(15).locator(".wl-chip-event").inner_text()
    page.keyboard.press("Tab")
    editor = lab.get_by_label("Event at position 15", exact=True)
    assert editor.evaluate("e => e === document.activeElement")
    page.keyboard.press("ArrowDown")
    assert chips.nth(15).locator(".wl-chip-event").inner_text() != old
    # A head goes off and on with Space and Enter.
    head = lab.locator('.wl-head[data-head="1"]')
    head.focus()
    page.keyboard.press("Space")
    wait_done(page)
    assert head.get_attribute("aria-pressed") == "false"
    off = shown_accuracies(lab)
    page.keyboard.press("Enter")
    wait_done(page)
    assert head.get_attribute("aria-pressed") == "true"
    assert shown_accuracies(lab) != off
    # The seed menu by keyboard loads another model.
    seed = lab.get_by_label("Seed", exact=True)
    seed.focus()
    page.keyboard.press("ArrowDown")
    wait_done(page)
    assert seed.input_value() == "1"
    assert page.evaluate("WhatifLab.labs[0].state.file") == "h4-s1.json"


@pytest.mark.parametrize(("path", "scheme", "palette"), [(ZH, "light", "default"), (EN, "dark", "slate")])
def test_phone_width_palettes_and_axe(page, server_url, path, scheme, palette):
    from axe_playwright_python.sync_playwright import Axe

    page.set_viewport_size(PHONE)
    lab = open_lab(page, server_url + path, scheme)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == palette
    lab.locator('.wl-head[data-head="0"]').click()  # a head off: struck through and dimmed
    wait_done(page)
    assert page.evaluate(OVERFLOW_JS) == []
    box = lab.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    colours = lab.evaluate("""v => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--md-accent-fg-color)';
        v.appendChild(probe);
        const accent = getComputedStyle(probe).color;
        probe.remove();
        return {accent, bar: getComputedStyle(v.querySelector('.wl-bar-fill')).backgroundColor,
                text: getComputedStyle(v).color, background: getComputedStyle(document.body).backgroundColor};
    }""")
    assert colours["bar"] == colours["accent"]
    assert colours["text"] != colours["background"]
    ARTIFACTS.mkdir(exist_ok=True)
    lab.screenshot(path=str(ARTIFACTS / f"whatif-lab-{scheme}-phone.png"))
    results = Axe().run(page, context=".whatif-lab").response
    bad = [f"{v['id']} ({v['impact']}): {v['help']} e.g. {v['nodes'][0]['target']}" for v in results["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)


def test_model_switch_and_reevaluation_are_fast(page, server_url):
    """Time from the reader's action to the new answer on screen: predictions, attention and held-out
    accuracy on the first batch of logs (the rest are scored in the background, timed too)."""
    lab = open_lab(page, server_url + ZH)
    heads_sel = lab.get_by_label("头数 h", exact=True)
    seed_sel = lab.get_by_label("种子", exact=True)
    for h, s in [(1, 1), (2, 1), (8, 1), (16, 1), (32, 1), (4, 2)]:  # warm the JIT on every model size
        heads_sel.select_option(str(h))
        seed_sel.select_option(str(s))
        wait_done(page)
    page.evaluate("WhatifLab.labs[0].timings = []")
    for h in (1, 2, 4, 8, 16, 32):
        for s in (3, 4):
            heads_sel.select_option(str(h))
            seed_sel.select_option(str(s))
            wait_done(page)
            lab.locator('.wl-head[data-head="0"]').click()
            wait_done(page)
    timings = page.evaluate("WhatifLab.labs[0].timings")
    first = [t for t in timings if t["logs"] < lab_count(page)]
    full = [t for t in timings if t["logs"] == lab_count(page)]
    lines = ["| action | model | logs scored | ms (of which loading) |", "|---|---|--:|--:|"]
    lines += [f"| {t['kind']} | {t['file']} | {t['logs']} | {t['ms']:.1f} ({t['loadMs']:.1f}) |" for t in timings]
    report = "\n".join(lines)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "whatif-lab-timing.md").write_text(report + "\n", encoding="utf-8")
    ms = [t["ms"] for t in first]
    print(f"\nwhatif lab, first answer: median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms "
          f"over {len(ms)} switches; all logs: median {statistics.median(t['ms'] for t in full):.1f} ms")
    assert len(first) >= 24  # two actions per model switch above, each timed
    assert max(ms) < LIMIT_MS, report


def lab_count(page) -> int:
    return page.evaluate("WhatifLab.labs[0].heldout")
