"""§1's attention-budget widget in a real browser: its JavaScript against snippets.heads.one_head_vs_two on a
grid of settings, the controls by keyboard, the numbers it shows, both languages, and a phone-width screen."""

from __future__ import annotations

import itertools

import pytest

from snippets.heads import _num, one_head_vs_two
from snippets.i18n import text
from snippets.lessonfigs import DEMO_WANTED, attention_budget
from snippets.logline import log_tokens

from .conftest import PHONE
from .pages import OVERFLOW_JS

pytestmark = pytest.mark.browser

ZH, EN = "article/1-single-head/", "en/article/1-single-head/"
TOL = 1e-6
SLIDER_STEPS = [-20, -5, 0, 7, 13, 20, 27, 33, 40, 60]  # sharpness = 10^(k / 20): 0.1 … 1000

COMPUTE_JS = """
([pairs, steps]) => {
  const root = document.querySelector('[data-budget-widget]');
  const cfg = JSON.parse(root.dataset.config);
  const values = {};
  cfg.tokens.forEach((t, j) => { values[t] = cfg.values[j]; });
  const W = window.BudgetWidget;
  return pairs.flatMap(([a, b]) => steps.map((k) => {
    const s = W.sharpnessOf(k);
    return {a, b, k, s, r: W.compute(cfg.tokens, values, a, b, s)};
  }));
}
"""


def open_widget(page, url: str, scheme: str = "light"):
    page.emulate_media(color_scheme=scheme)
    page.goto(url)
    widget = page.locator(".budget-widget")
    widget.scroll_into_view_if_needed()
    page.wait_for_function("() => !!document.querySelector('.budget-widget').dataset.state")
    return widget


def test_javascript_matches_one_head_vs_two(page, server_url):
    open_widget(page, server_url + ZH)
    tokens = log_tokens()
    pairs = [(a, b) for a, b in itertools.permutations(range(len(tokens)), 2) if (a + 2 * b) % 5 == 0]
    pairs.append(tuple(tokens.index(t) for t in DEMO_WANTED))
    results = page.evaluate(COMPUTE_JS, [pairs, SLIDER_STEPS])
    assert len(results) == len(pairs) * len(SLIDER_STEPS)
    worst = worst_out = 0.0
    for case in results:
        wanted = (tokens[case["a"]], tokens[case["b"]])
        assert case["s"] == pytest.approx(10 ** (case["k"] / 20), rel=1e-12)
        ref = one_head_vs_two(tokens, wanted, sharpness=case["s"])
        r = case["r"]
        for h, (wa, wb, out, swapped) in ref.items():
            got = (r["a1"], r["b1"]) if h == 1 else (r["a2"], r["b2"])
            got_out = (r["out1"], r["sw1"]) if h == 1 else (r["out2"], r["sw2"])
            worst = max(worst, abs(got[0] - wa), abs(got[1] - wb))
            # outputs: PyTorch sums in float32, so its rounding grows with the size of the numbers
            rel = [abs(x - y) / max(1.0, abs(y)) for x, y in zip(got_out[0], out.tolist(), strict=True)]
            rel += [abs(x - y) / max(1.0, abs(y)) for x, y in zip(got_out[1], swapped.tolist(), strict=True)]
            d_ref = (out - swapped).abs().max().item()
            rel.append(abs((r["d1"] if h == 1 else r["d2"]) - d_ref) / max(1.0, d_ref))
            worst_out = max(worst_out, *rel)
        w1, w2 = attention_budget(tokens, wanted, case["s"])  # the whole rows, not just the two targets
        worst = max(worst, *(abs(x - y) for x, y in zip(r["one"], w1, strict=True)),
                    *(abs(x - y) for x, y in zip(r["two"][0] + r["two"][1], w2.ravel(), strict=True)))
    print(f"\nbudget widget: {len(results)} settings, weights: max |JS - PyTorch| = {worst:.1e}; "
          f"outputs: max |JS - PyTorch| / max(1, |PyTorch|) = {worst_out:.1e}")
    assert worst <= TOL
    assert worst_out <= TOL


def shown(widget) -> dict:
    return widget.evaluate("""w => ({
      weights: [...w.querySelectorAll('.bw-weights tbody tr')].map(tr =>
        [...tr.querySelectorAll('.bw-num')].map(n => n.textContent)),
      outs: [...w.querySelectorAll('.bw-swap tbody tr')].map(tr =>
        [...tr.querySelectorAll('.bw-out')].map(n => n.textContent)),
      changes: [...w.querySelectorAll('.bw-change')].map(n => n.textContent),
      s: w.querySelector('output').textContent,
    })""")


@pytest.mark.parametrize("path", [ZH, EN])
def test_keyboard_drives_the_widget_and_it_shows_the_demos_numbers(page, server_url, path):
    widget = open_widget(page, server_url + path)
    tokens = log_tokens()
    slider = widget.locator('input[type="range"]')
    # By keyboard only: the second token one down, the sharpness 20 steps down (100 -> 10).
    widget.locator("select").nth(1).focus()
    page.keyboard.press("ArrowDown")
    slider.focus()
    for _ in range(20):
        page.keyboard.press("ArrowLeft")
    a = int(widget.locator("select").nth(0).input_value())
    b = int(widget.locator("select").nth(1).input_value())
    assert (tokens[a], tokens[b]) == (DEMO_WANTED[0], tokens[tokens.index(DEMO_WANTED[1]) + 1])
    s = 10 ** (int(slider.input_value()) / 20)
    assert s == pytest.approx(10)
    got = shown(widget)
    ref = one_head_vs_two(tokens, (tokens[a], tokens[b]), sharpness=s)
    w1, w2 = attention_budget(tokens, (tokens[a], tokens[b]), s)
    assert got["weights"] == [[f"{x:.3f}", f"{y:.3f}", f"{z:.3f}"] for x, y, z in zip(w1, w2[0], w2[1], strict=True)]
    outs = [ref[1][2], ref[1][3], ref[2][2], ref[2][3]]
    assert got["outs"] == [[f"{x:.2f}" for x in o.tolist()] for o in outs]
    for shown_change, h in zip(got["changes"][1::2], (1, 2), strict=True):
        d = (ref[h][2] - ref[h][3]).abs().max().item()
        if d < 1e-5:  # floating-point rounding: float32 in PyTorch, float64 here
            assert float(shown_change) < 1e-5
        else:
            assert shown_change == _num(d)
    assert got["changes"][0::2] == ["", ""]
    assert got["s"] == "10"
    # The summary says a change only where there is one (here the one head, whose two weights are equal, leaves
    # the output as it was; the two heads do not), never "at most 0.00".
    lang = "en" if path.startswith("en/") or "/en/" in path else "zh"
    summary = widget.locator(".bw-summary").inner_text()
    same = [(ref[h][2] - ref[h][3]).abs().max().item() < 1e-5 for h in (1, 2)]
    assert summary.count(text(lang, "figs.widget.unchanged")) == sum(same), summary
    assert summary.count(text(lang, "figs.widget.changed").split("{")[0]) == 2 - sum(same), summary
    assert 0 < sum(same) < 2, "the keyboard steps should leave one setup unchanged and change the other"
    # The same token twice is refused, and the reader is told.
    widget.locator("select").nth(1).select_option(str(a))
    assert widget.locator("select").nth(0).input_value() != widget.locator("select").nth(1).input_value()
    assert widget.locator(".bw-note").inner_text().strip()


@pytest.mark.parametrize(("path", "scheme"), [(ZH, "light"), (EN, "dark")])
def test_widget_is_labelled_and_fits_a_phone(browser, server_url, path, scheme):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    try:
        widget = open_widget(page, server_url + path, scheme)
        labels = widget.evaluate("""w => [...w.querySelectorAll('select, input')].map(c =>
            c.labels && c.labels.length ? c.labels[0].textContent.trim() : '')""")
        assert all(labels) and len(labels) == 3
        assert widget.locator("caption").count() == 2
        assert widget.get_attribute("role") == "group"
        box = widget.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert page.evaluate(OVERFLOW_JS) == []
        assert not widget.locator(".bw-nojs").count()
    finally:
        context.close()
