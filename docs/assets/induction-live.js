/* The induction page's live view. Plain JavaScript, no dependencies.
 *
 * Each <div data-induction-live> holds a <script type="application/json" class="induction-live-data">
 * written at build time (snippets/induction/live.py): {ui, vocab, max_chars, start, labels, models}. On the
 * site the models (their weights) live in a file of their own (the script's data-src, see
 * sitebuild/hooks/page_data.py), fetched when the view comes near the screen.
 *
 * A model is snippets.induction.reader.ReaderModel: the token embedding, layers of causal heads added
 * to the residual stream, the unembedding; no position embedding, no MLP, no LayerNorm, no biases. Each
 * head adds to its score from t to s a learned number for the distance t - s (rel, L x H x max length). Weights are float16 (little-endian, base64; float32 read too); the forward pass runs in
 * float64. A head switched off has its output set to zero (its attention is still computed, as in
 * PyTorch). A character's id is its code point modulo the vocabulary size.
 */
(function () {
  "use strict";

  var counter = 0;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? String(values[k]) : m; });
  }

  function decodeF32(b64) {
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var view = new DataView(bytes.buffer);
    var out = new Float64Array(bytes.length / 4);
    for (var j = 0; j < out.length; j++) out[j] = view.getFloat32(4 * j, true);
    return out;
  }

  // IEEE 754 half precision, little-endian, to float64.
  function decodeF16(b64) {
    var bin = atob(b64);
    var out = new Float64Array(bin.length / 2);
    for (var i = 0; i < out.length; i++) {
      var h = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
      var sign = h & 0x8000 ? -1 : 1, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
      if (exp === 0) out[i] = sign * frac * Math.pow(2, -24);
      else if (exp === 31) out[i] = frac ? NaN : sign * Infinity;
      else out[i] = sign * (1 + frac / 1024) * Math.pow(2, exp - 15);
    }
    return out;
  }

  function textIds(text, vocab) {
    return Array.from(text).map(function (c) { return c.codePointAt(0) % vocab; });
  }

  function Model(entry) {
    var w = {};
    Object.keys(entry.weights).forEach(function (k) {
      var enc = entry.weights[k];
      w[k] = "f16" in enc ? decodeF16(enc.f16) : decodeF32(enc.f32);
    });
    this.L = entry.layers;
    this.H = entry.heads;
    this.E = entry.weights["embed.weight"].shape[1];
    this.V = entry.weights["embed.weight"].shape[0];
    this.D = entry.weights.W_Q.shape[3];
    this.maxLen = entry.weights.rel.shape[2];
    this.w = w;
    this.entry = entry;
  }

  // ids: token ids (length T); keep: one flag per head, layer by layer. Returns logits (T, V) and
  // attention (L, H, T, T), row-major.
  Model.prototype.forward = function (ids, keep) {
    var L = this.L, H = this.H, E = this.E, D = this.D, V = this.V, T = ids.length, w = this.w;
    if (T < 1 || T > this.maxLen) throw new Error("expected 1 to " + this.maxLen + " ids, got " + T);
    var stream = new Float64Array(T * E);
    for (var t = 0; t < T; t++) {
      for (var e = 0; e < E; e++) stream[t * E + e] = w["embed.weight"][ids[t] * E + e];
    }
    var attn = new Float64Array(L * H * T * T);
    var scale = 1 / Math.sqrt(D);
    var q = new Float64Array(T * D), k = new Float64Array(T * D), v = new Float64Array(T * D);
    var z = new Float64Array(T * D);
    var maxLen = this.maxLen;
    for (var l = 0; l < L; l++) {
      var add = new Float64Array(T * E);
      for (var h = 0; h < H; h++) {
        var base = (l * H + h) * E * D;
        [[w.W_Q, q], [w.W_K, k], [w.W_V, v]].forEach(function (pair) {
          var W = pair[0], out = pair[1];
          for (var t2 = 0; t2 < T; t2++) {
            for (var d = 0; d < D; d++) {
              var s = 0;
              for (var e2 = 0; e2 < E; e2++) s += stream[t2 * E + e2] * W[base + e2 * D + d];
              out[t2 * D + d] = s;
            }
          }
        });
        var a0 = (l * H + h) * T * T, r0 = (l * H + h) * maxLen;
        for (var i = 0; i < T; i++) {
          var max = -Infinity;
          for (var j = 0; j <= i; j++) {
            var sc = 0;
            for (var d2 = 0; d2 < D; d2++) sc += q[i * D + d2] * k[j * D + d2];
            sc = sc * scale + w.rel[r0 + i - j];
            attn[a0 + i * T + j] = sc;
            if (sc > max) max = sc;
          }
          var sum = 0;
          for (var j2 = 0; j2 <= i; j2++) {
            var ex = Math.exp(attn[a0 + i * T + j2] - max);
            attn[a0 + i * T + j2] = ex;
            sum += ex;
          }
          for (var j3 = 0; j3 <= i; j3++) attn[a0 + i * T + j3] /= sum;
          for (var d3 = 0; d3 < D; d3++) {
            var acc = 0;
            for (var j4 = 0; j4 <= i; j4++) acc += attn[a0 + i * T + j4] * v[j4 * D + d3];
            z[i * D + d3] = acc;
          }
        }
        if (!keep[l * H + h]) continue;
        var ob = (l * H + h) * D * E;
        for (var t3 = 0; t3 < T; t3++) {
          for (var e3 = 0; e3 < E; e3++) {
            var o = 0;
            for (var d4 = 0; d4 < D; d4++) o += z[t3 * D + d4] * w.W_O[ob + d4 * E + e3];
            add[t3 * E + e3] += o;
          }
        }
      }
      for (var n = 0; n < T * E; n++) stream[n] += add[n];
    }
    var logits = new Float64Array(T * V);
    var U = w["unembed.weight"];
    for (var t4 = 0; t4 < T; t4++) {
      for (var c = 0; c < V; c++) {
        var s2 = 0;
        for (var e4 = 0; e4 < E; e4++) s2 += stream[t4 * E + e4] * U[c * E + e4];
        logits[t4 * V + c] = s2;
      }
    }
    return { logits: logits, attn: attn };
  };

  function load(root) {
    var source = root.querySelector("script.induction-live-data");
    if (!source || root.dataset.ready) return;
    root.dataset.ready = "1";
    var data = JSON.parse(source.textContent);
    var src = source.getAttribute("data-src");
    if (!src) { build(root, data); return; }
    root.dataset.state = "loading";
    var nojs = root.querySelector(".il-nojs");
    fetch(src).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (models) {
      data.models = models;
      if (nojs) nojs.hidden = true;
      build(root, data);
    }).catch(function (err) {
      root.dataset.state = "error";
      if (nojs) {
        nojs.textContent = fill(data.ui.error, { status: String(err && err.message || err) });
        nojs.hidden = false;
      }
    });
  }

  function shown(ch) { return ch === " " ? "␣" : ch; }

  function build(root, data) {
    var ui = data.ui;
    var uid = "induction-live-" + (counter++);
    var nojs = root.querySelector(".il-nojs");
    if (nojs) nojs.hidden = true;
    var models = data.models.map(function (m) { return new Model(m); });
    var view = { model: 0, keep: null, text: ui[data.start], selected: null, result: null, ids: null };

    var controls = el("div", { "class": "il-controls" });
    var modelWrap = el("span", { "class": "il-control" });
    modelWrap.appendChild(el("label", { "for": uid + "-model" }, ui.model));
    var modelSel = el("select", { id: uid + "-model" });
    data.labels.forEach(function (label, i) { modelSel.appendChild(el("option", { value: String(i) }, label)); });
    modelWrap.appendChild(modelSel);
    controls.appendChild(modelWrap);
    if (data.labels.length < 2) modelSel.disabled = true;  // one model: the menu only names it

    var textWrap = el("div", { "class": "il-text" });
    textWrap.appendChild(el("label", { "for": uid + "-text" }, fill(ui.text, { max: data.max_chars })));
    var input = el("input", { id: uid + "-text", type: "text", maxlength: String(data.max_chars),
                              spellcheck: "false", autocomplete: "off", "aria-describedby": uid + "-ids" });
    input.value = view.text;
    textWrap.appendChild(input);
    var examples = el("span", { "class": "il-examples" });
    [["example_en_button", "example_en"], ["example_zh_button", "example_zh"]].forEach(function (p) {
      var b = el("button", { type: "button", "class": "il-button" }, ui[p[0]]);
      b.addEventListener("click", function () { input.value = ui[p[1]]; onText(); });
      examples.appendChild(b);
    });
    textWrap.appendChild(examples);
    var idsLine = el("p", { "class": "il-ids", id: uid + "-ids" });
    textWrap.appendChild(idsLine);

    var heads = el("fieldset", { "class": "il-heads" });
    heads.appendChild(el("legend", {}, ui.heads));
    var headList = el("div", { "class": "il-head-list" });
    heads.appendChild(headList);
    var allOn = el("button", { type: "button", "class": "il-button" }, ui.all_on);
    heads.appendChild(allOn);

    var summary = el("p", { "class": "il-summary", "aria-live": "polite" });
    var predTitle = el("p", { "class": "il-title", id: uid + "-pred" }, ui.predictions);
    var cells = el("div", { "class": "il-cells", role: "group", "aria-labelledby": uid + "-pred" });
    var hashNote = el("p", { "class": "il-note" });
    var attnTitle = el("p", { "class": "il-title" });
    var attnRows = el("div", { "class": "il-attn" });

    [controls, textWrap, heads, summary, predTitle, cells, hashNote, attnTitle, attnRows].forEach(function (n) {
      root.appendChild(n);
    });

    function model() { return models[view.model]; }

    function headName(l, h) { return fill(ui.head_label, { layer: l, head: h }); }

    function buildHeads() {
      var m = model(), entry = m.entry;
      view.keep = [];
      headList.textContent = "";
      for (var l = 0; l < m.L; l++) {
        for (var h = 0; h < m.H; h++) {
          view.keep.push(true);
          var id = uid + "-head-" + l + "-" + h;
          var row = el("div", { "class": "il-head" });
          var box = el("input", { type: "checkbox", id: id, "data-head": String(l * m.H + h) });
          box.checked = true;
          var label = el("label", { "for": id });
          label.appendChild(el("span", { "class": "il-head-name" }, headName(l, h)));
          var role = null;
          if (entry.roles.prev[0] === l && entry.roles.prev[1] === h) role = ui.role_prev;
          if (entry.roles.induction[0] === l && entry.roles.induction[1] === h) role = ui.role_induction;
          if (role) label.appendChild(el("span", { "class": "il-role" }, role));
          label.appendChild(el("span", { "class": "il-scores" }, fill(ui.scores, {
            prev: entry.prev[l][h].toFixed(2), prefix: entry.prefix[l][h].toFixed(2) })));
          row.appendChild(box);
          row.appendChild(label);
          headList.appendChild(row);
          box.addEventListener("change", function (ev) {
            view.keep[Number(ev.target.getAttribute("data-head"))] = ev.target.checked;
            run();
          });
        }
      }
    }

    function predicted(t) {
      var m = model(), V = m.V, logits = view.result.logits, best = 0;
      for (var c = 1; c < V; c++) if (logits[t * V + c] > logits[t * V + best]) best = c;
      var chars = view.chars, seen = null;
      for (var s = t; s >= 0; s--) if (view.ids[s] === best) { seen = chars[s]; break; }
      return { id: best, label: seen === null ? "#" + best : shown(seen), ch: seen };
    }

    function select(t, focus) {
      view.selected = t;
      Array.prototype.forEach.call(cells.children, function (b, i) {
        b.setAttribute("aria-pressed", i === t ? "true" : "false");
        b.tabIndex = i === t ? 0 : -1;
      });
      if (focus && cells.children[t]) cells.children[t].focus();
      drawAttention();
    }

    function drawCells() {
      var T = view.ids.length, hits = 0, unseen = null;
      cells.textContent = "";
      for (var t = 0; t < T; t++) {
        var p = predicted(t), next = t + 1 < T ? view.ids[t + 1] : null;
        if (p.ch === null && unseen === null) unseen = p.id;
        var verdict = next === null ? "" : (p.id === next ? ui.hit : ui.miss);
        if (next !== null && p.id === next) hits++;
        var cls = "il-cell" + (next === null ? "" : (p.id === next ? " il-hit" : " il-miss"));
        var b = el("button", { type: "button", "class": cls, "data-pos": String(t), "aria-pressed": "false",
                               "aria-label": fill(ui.cell, { pos: t, ch: shown(view.chars[t]), pred: p.label }) +
                               (verdict ? " " + verdict : "") });
        b.tabIndex = -1;
        b.appendChild(el("span", { "class": "il-char", "aria-hidden": "true" }, shown(view.chars[t])));
        b.appendChild(el("span", { "class": "il-pred", "aria-hidden": "true" }, p.label));
        b.appendChild(el("span", { "class": "il-mark", "aria-hidden": "true" },
                         next === null ? " " : (p.id === next ? "✓" : "✗")));
        cells.appendChild(b);
      }
      var total = Math.max(T - 1, 0);
      summary.textContent = total === 0 ? ui.summary_one : fill(hits ? ui.summary : ui.summary_none,
                                                                { hits: hits, total: total });
      // A guess shown as "#id": an id no character of the text has had so far, so no character to show.
      hashNote.textContent = unseen === null ? "" : fill(ui.hash_note, { id: unseen });
      hashNote.hidden = unseen === null;
    }

    function drawAttention() {
      var m = model(), t = view.selected, T = view.ids.length, attn = view.result.attn;
      attnTitle.textContent = fill(ui.attention, { pos: t, ch: shown(view.chars[t]) });
      attnRows.textContent = "";
      for (var l = 0; l < m.L; l++) {
        for (var h = 0; h < m.H; h++) {
          var a0 = ((l * m.H + h) * T + t) * T, best = 0;
          for (var s = 1; s <= t; s++) if (attn[a0 + s] > attn[a0 + best]) best = s;
          var read = fill(ui.attends, { pos: best, ch: shown(view.chars[best]),
                                        pct: Math.round(attn[a0 + best] * 100) });
          var row = el("div", { "class": "il-attn-row" + (view.keep[l * m.H + h] ? "" : " il-off") });
          row.appendChild(el("span", { "class": "il-attn-name" },
                             headName(l, h) + (view.keep[l * m.H + h] ? "" : " " + ui.off)));
          var bars = el("div", { "class": "il-bars", role: "img", "aria-label": headName(l, h) + ": " + read });
          bars.style.gridTemplateColumns = "repeat(" + T + ", minmax(0, 1fr))";
          for (var s2 = 0; s2 < T; s2++) {
            var bar = el("span", { "class": "il-bar" + (s2 === t ? " il-query" : "") + (s2 === best ? " il-best" : "") });
            var fillEl = el("span", { "class": "il-fill" });
            fillEl.style.height = (s2 <= t ? attn[a0 + s2] * 100 : 0).toFixed(1) + "%";
            bar.appendChild(fillEl);
            bars.appendChild(bar);
          }
          row.appendChild(bars);
          row.appendChild(el("span", { "class": "il-read" }, read));
          attnRows.appendChild(row);
        }
      }
    }

    function run() {
      var text = input.value;
      view.chars = Array.from(text).slice(0, data.max_chars);
      if (!view.chars.length) {
        view.ids = null;
        view.result = null;
        cells.textContent = "";
        attnRows.textContent = "";
        attnTitle.textContent = "";
        idsLine.textContent = ui.empty;
        summary.textContent = "";
        hashNote.textContent = "";
        hashNote.hidden = true;
        root.dataset.state = "ready";
        return;
      }
      view.ids = textIds(view.chars.join(""), data.vocab);
      idsLine.textContent = fill(ui.ids, { vocab: data.vocab, ids: view.ids.join(" ") });
      view.result = model().forward(view.ids, view.keep);
      var T = view.ids.length;
      if (view.selected === null || view.selected >= T) view.selected = Math.max(T - 2, 0);
      drawCells();
      select(view.selected, false);
      root.dataset.state = "ready";
    }

    function onText() {
      view.selected = null;
      run();
    }

    cells.addEventListener("click", function (ev) {
      var b = ev.target.closest(".il-cell");
      if (b) select(Number(b.getAttribute("data-pos")), true);
    });
    cells.addEventListener("keydown", function (ev) {
      if (view.selected === null) return;
      var T = view.ids.length, t = view.selected;
      var to = { ArrowLeft: t - 1, ArrowUp: t - 1, ArrowRight: t + 1, ArrowDown: t + 1, Home: 0, End: T - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      select(Math.min(Math.max(to, 0), T - 1), true);
    });
    input.addEventListener("input", onText);
    modelSel.addEventListener("change", function () {
      view.model = Number(modelSel.value);
      buildHeads();
      run();
    });
    allOn.addEventListener("click", function () {
      Array.prototype.forEach.call(headList.querySelectorAll("input"), function (box) { box.checked = true; });
      view.keep = view.keep.map(function () { return true; });
      run();
    });

    buildHeads();
    run();
    root.inductionLive = { view: view, models: models, run: run };
  }

  // Each view starts (and fetches its data) when it comes within a screen or two of the viewport.
  function initAll() {
    var roots = Array.prototype.slice.call(document.querySelectorAll("[data-induction-live]"));
    if (!("IntersectionObserver" in window)) { roots.forEach(load); return; }
    var near = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        near.unobserve(e.target);
        load(e.target);
      });
    }, { rootMargin: "1500px 0px" });
    roots.forEach(function (root) { near.observe(root); });
  }

  window.InductionLive = { Model: Model, textIds: textIds, decodeF32: decodeF32, decodeF16: decodeF16 };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initAll);
  else initAll();
})();
