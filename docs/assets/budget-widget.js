/* §1's attention budget, live: one head against two heads, and the swap test.
 *
 * The container ([data-budget-widget], printed by snippets.lessonfigs.budget_widget) carries the
 * tokens, each token's value vector, the starting choices and the words in the page's language
 * (data-config). compute() is snippets.heads.one_head_vs_two in float64: keys are one-hot positions,
 * one head's query is sharpness × (e_a + e_b), two heads' queries are sharpness × e_a and
 * sharpness × e_b, scores are divided by √T, and head i reads the i-th half of every value.
 * tests/browser/test_budget_widget.py holds it to PyTorch. No network, no libraries.
 */
(function () {
  "use strict";

  const SLIDER = { min: -20, max: 60 }; // sharpness = 10^(k / 20): 0.1 … 1000

  function softmax(scores) {
    const m = Math.max(...scores);
    const e = scores.map((x) => Math.exp(x - m));
    const sum = e.reduce((p, x) => p + x, 0);
    return e.map((x) => x / sum);
  }

  function attend(weights, line, values, from, to) {
    const out = [];
    for (let f = from; f < to; f++) {
      let acc = 0;
      for (let j = 0; j < line.length; j++) acc += weights[j] * values[line[j]][f];
      out.push(acc);
    }
    return out;
  }

  function maxDiff(x, y) {
    let d = 0;
    for (let i = 0; i < x.length; i++) d = Math.max(d, Math.abs(x[i] - y[i]));
    return d;
  }

  /* tokens: the line; values: {token: vector}; a, b: the wanted positions; s: sharpness. */
  function compute(tokens, values, a, b, s) {
    const T = tokens.length;
    const width = values[tokens[0]].length;
    const half = width / 2;
    const score = s / Math.sqrt(T);
    const aim = (...at) => softmax(tokens.map((_, j) => (at.includes(j) ? score : 0)));
    const one = aim(a, b);
    const two = [aim(a), aim(b)];
    const swapped = tokens.slice();
    swapped[a] = tokens[b];
    swapped[b] = tokens[a];
    const run1 = (line) => attend(one, line, values, 0, width);
    const run2 = (line) => attend(two[0], line, values, 0, half).concat(attend(two[1], line, values, half, width));
    const out1 = run1(tokens), sw1 = run1(swapped), out2 = run2(tokens), sw2 = run2(swapped);
    return {
      one, two, out1, sw1, out2, sw2,
      a1: one[a], b1: one[b], a2: two[0][a], b2: two[1][b],
      d1: maxDiff(out1, sw1), d2: maxDiff(out2, sw2),
    };
  }

  const sharpnessOf = (k) => Math.pow(10, k / 20);
  const fill = (template, vals) => template.replace(/\{(\w+)\}/g, (_, k) => String(vals[k]));
  const fmtS = (s) => (s < 1 ? s.toFixed(2) : s < 10 ? s.toFixed(1) : s.toFixed(0));
  // snippets.heads._num: small numbers in scientific notation, the rest to 2 decimals. Below 1e-9 a change
  // is float64 rounding (one head's two equal weights summed in another order) and shows as 0.00.
  const num = (x) => (x >= 1e-9 && x < 1e-3 ? x.toExponential(1).replace(/e([+-])(\d)$/, "e$10$2") : x.toFixed(2));

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  let count = 0;

  function init(root) {
    const cfg = JSON.parse(root.dataset.config);
    const ui = cfg.ui;
    const tokens = cfg.tokens;
    const values = {};
    tokens.forEach((t, j) => { values[t] = cfg.values[j]; });
    const id = `bw${count++}`;

    const select = (name, label, chosen) => {
      const s = el("select", { id: `${id}-${name}`, name });
      tokens.forEach((t, j) => {
        const o = el("option", { value: String(j), text: t });
        if (t === chosen) o.selected = true;
        s.append(o);
      });
      return [el("label", { for: `${id}-${name}`, text: label }), s];
    };
    const [labA, selA] = select("a", ui.a, cfg.wanted[0]);
    const [labB, selB] = select("b", ui.b, cfg.wanted[1]);
    const k0 = Math.round(20 * Math.log10(cfg.sharpness));
    const slider = el("input", {
      type: "range", id: `${id}-s`, min: String(SLIDER.min), max: String(SLIDER.max), step: "1", value: String(k0),
    });
    const shown = el("output", { for: `${id}-s`, class: "bw-s" });
    const labS = el("label", { for: `${id}-s`, text: ui.sharpness });
    const note = el("p", { class: "bw-note", role: "status" });

    const wTable = el("table", { class: "bw-weights" });
    wTable.append(el("caption", { text: ui.weights }));
    const headRow = el("tr");
    for (const h of [ui.token, ui.one, fill(ui.head, { i: 0 }), fill(ui.head, { i: 1 })]) {
      headRow.append(el("th", { scope: "col", text: h }));
    }
    wTable.append(el("thead", {}, headRow));
    const wBody = el("tbody");
    const cells = tokens.map((t) => {
      const row = el("tr");
      row.append(el("th", { scope: "row", text: t }));
      const cs = ["one", "h0", "h1"].map((cls) => {
        const bar = el("span", { class: `bw-bar bw-${cls}`, "aria-hidden": "true" });
        const value = el("span", { class: "bw-num" });
        row.append(el("td", {}, value, bar));
        return { bar, value };
      });
      wBody.append(row);
      return { row, cs };
    });
    wTable.append(wBody);

    const sTable = el("table", { class: "bw-swap" });
    sTable.append(el("caption", { text: ui.swap }));
    const sHead = el("tr");
    sHead.append(el("th", { scope: "col", text: ui.setup }));
    const width = cfg.values[0].length;
    for (let f = 0; f < width; f++) sHead.append(el("th", { scope: "col", text: String(f) }));
    sHead.append(el("th", { scope: "col", text: ui.change }));
    sTable.append(el("thead", {}, sHead));
    const sBody = el("tbody");
    const swapRows = [[ui.one, ui.line], [ui.one, ui.swapped], [ui.two, ui.line], [ui.two, ui.swapped]];
    const outCells = swapRows.map(([setup, line]) => {
      const row = el("tr");
      row.append(el("th", { scope: "row", text: `${setup} · ${line}` }));
      const cs = [];
      for (let f = 0; f < width; f++) {
        const c = el("td", { class: "bw-out" });
        row.append(c);
        cs.push(c);
      }
      const change = el("td", { class: "bw-change" });
      row.append(change);
      sBody.append(row);
      return { cs, change };
    });
    sTable.append(sBody);
    const summary = el("p", { class: "bw-summary", "aria-live": "polite" });

    const controls = el("div", { class: "bw-controls" },
      el("div", { class: "bw-field" }, labA, selA),
      el("div", { class: "bw-field" }, labB, selB),
      el("div", { class: "bw-field bw-range" }, labS, slider, shown));
    root.textContent = "";
    root.setAttribute("role", "group");
    root.setAttribute("aria-labelledby", `${id}-title`);
    root.append(el("p", { class: "bw-title", id: `${id}-title`, text: ui.title }), controls, note,
      el("div", { class: "bw-scroll" }, wTable), el("div", { class: "bw-scroll" }, sTable), summary);

    function update(changed) {
      note.textContent = "";
      if (selA.value === selB.value) {
        const other = changed === selB ? selA : selB;
        const j = (Number(other.value) + 1) % tokens.length;
        other.value = String(j);
        note.textContent = fill(ui.same, { t: tokens[j] });
      }
      const a = Number(selA.value), b = Number(selB.value);
      const s = sharpnessOf(Number(slider.value));
      const r = compute(tokens, values, a, b, s);
      shown.textContent = fmtS(s);
      slider.setAttribute("aria-valuetext", `${ui.sharpness} = ${fmtS(s)}`);
      cells.forEach(({ row, cs }, j) => {
        row.classList.toggle("bw-wanted", j === a || j === b);
        [r.one[j], r.two[0][j], r.two[1][j]].forEach((w, n) => {
          cs[n].value.textContent = w.toFixed(3);
          cs[n].bar.style.width = `${(100 * w).toFixed(1)}%`;
        });
      });
      [r.out1, r.sw1, r.out2, r.sw2].forEach((out, n) => {
        out.forEach((x, f) => { outCells[n].cs[f].textContent = x.toFixed(2); });
      });
      outCells[1].change.textContent = num(r.d1);
      outCells[3].change.textContent = num(r.d2);
      // A change below 1e-9 is rounding (float64 here, float32 in PyTorch): said as no change, not as "at most 0.00".
      const change = (d) => (d < 1e-9 ? ui.unchanged : fill(ui.changed, { d: num(d) }));
      summary.textContent = fill(ui.summary, {
        s: fmtS(s), a1: r.a1.toFixed(3), b1: r.b1.toFixed(3), c1: change(r.d1),
        a2: r.a2.toFixed(3), b2: r.b2.toFixed(3), c2: change(r.d2),
      });
      root.dataset.state = JSON.stringify({ a, b, s });
    }

    selA.addEventListener("change", () => update(selA));
    selB.addEventListener("change", () => update(selB));
    slider.addEventListener("input", () => update(slider));
    update(null);
  }

  window.BudgetWidget = { compute, sharpnessOf, num };
  document.querySelectorAll("[data-budget-widget]").forEach(init);
})();
