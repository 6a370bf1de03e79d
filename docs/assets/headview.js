/* Interactive attention head view. Plain JavaScript, no dependencies.
 *
 * Each <div class="headview"> holds a <script type="application/json" class="headview-data">
 * written at build time: {layers, heads, scale, texts: [{label, tokens, weights}], ui: {...labels}}.
 * weights is base64 of one byte per weight, row-major over (layer, head, query, key).
 * On the site the texts live in a file of their own (the script's data-src, see
 * sitebuild/hooks/page_data.py), fetched when the viewer comes near the screen.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var counter = 0;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function decode(b64) {
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  function select(id, label, count, format) {
    var wrap = el("span", { "class": "headview-control" });
    wrap.appendChild(el("label", { "for": id }, label));
    var sel = el("select", { id: id });
    for (var i = 0; i < count; i++) sel.appendChild(el("option", { value: String(i) }, format(i)));
    wrap.appendChild(sel);
    return { wrap: wrap, sel: sel };
  }

  function load(root) {
    var source = root.querySelector("script.headview-data");
    if (!source || root.dataset.ready) return;
    root.dataset.ready = "1";
    var data = JSON.parse(source.textContent);
    var src = source.getAttribute("data-src");
    if (!src) { build(root, data); return; }
    root.dataset.state = "loading";
    var nojs = root.querySelector(".headview-nojs");
    if (nojs) nojs.hidden = true;
    fetch(src).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (texts) {
      data.texts = texts;
      build(root, data);
      root.dataset.state = "ready";
    }).catch(function (err) {
      root.dataset.state = "error";
      if (nojs) {
        nojs.textContent = data.ui.error.replace("{status}", String(err && err.message || err));
        nojs.hidden = false;
      }
    });
  }

  function build(root, data) {
    var ui = data.ui;
    var uid = "headview-" + (counter++);
    var cache = {};
    var state = { text: 0, layer: 0, head: 0, query: null, focused: null };

    var controls = el("div", { "class": "headview-controls" });
    var textSel = select(uid + "-text", ui.text, data.texts.length, function (i) {
      var label = data.texts[i].label;
      return label.length > 48 ? label.slice(0, 47) + "…" : label;
    });
    var layerSel = select(uid + "-layer", ui.layer, data.layers, String);
    var headSel = select(uid + "-head", ui.head, data.heads, String);
    [textSel, layerSel, headSel].forEach(function (s) { controls.appendChild(s.wrap); });

    var body = el("div", { "class": "headview-body" });
    var left = el("div", { "class": "headview-tokens headview-queries", role: "group", "aria-label": ui.tokens });
    var svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", "headview-lines");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("preserveAspectRatio", "none");
    var right = el("div", { "class": "headview-tokens headview-keys", role: "list", "aria-label": ui.keys });
    body.appendChild(left);
    body.appendChild(svg);
    body.appendChild(right);
    var status = el("p", { "class": "headview-status", "aria-live": "polite" });

    var nojs = root.querySelector(".headview-nojs");
    if (nojs) nojs.remove();
    root.appendChild(controls);
    root.appendChild(body);
    root.appendChild(status);

    function weights() {
      if (!cache[state.text]) cache[state.text] = decode(data.texts[state.text].weights);
      return cache[state.text];
    }

    function row(q) {
      var T = data.texts[state.text].tokens.length;
      var base = ((state.layer * data.heads + state.head) * T + q) * T;
      var w = weights();
      var out = [];
      for (var k = 0; k < T; k++) out.push(w[base + k] / data.scale);
      return out;
    }

    function buildTokens() {
      var tokens = data.texts[state.text].tokens;
      left.textContent = "";
      right.textContent = "";
      tokens.forEach(function (tok, i) {
        var b = el("button", { type: "button", "class": "headview-token", "data-index": String(i) }, tok);
        b.addEventListener("mouseenter", function () { show(i); });
        b.addEventListener("mouseleave", function () { show(state.focused); });
        b.addEventListener("focus", function () { state.focused = i; show(i); });
        b.addEventListener("blur", function () { state.focused = null; show(null); });
        b.addEventListener("keydown", function (ev) {
          var next = ev.key === "ArrowDown" ? i + 1 : ev.key === "ArrowUp" ? i - 1 : null;
          if (ev.key === "Escape") { b.blur(); ev.preventDefault(); return; }
          if (next !== null && next >= 0 && next < tokens.length) {
            left.children[next].focus();
            ev.preventDefault();
          }
        });
        left.appendChild(b);
        right.appendChild(el("span", { "class": "headview-token", role: "listitem", "data-index": String(i) }, tok));
      });
      svg.setAttribute("viewBox", "0 0 100 " + tokens.length);
      svg.style.height = "calc(" + tokens.length + " * var(--headview-row))";
    }

    function line(q, k, w) {
      var l = document.createElementNS(SVG_NS, "line");
      l.setAttribute("x1", "0");
      l.setAttribute("x2", "100");
      l.setAttribute("y1", String(q + 0.5));
      l.setAttribute("y2", String(k + 0.5));
      l.setAttribute("vector-effect", "non-scaling-stroke");
      l.setAttribute("stroke-opacity", w.toFixed(3));
      return l;
    }

    function show(q) {
      state.query = q;
      var tokens = data.texts[state.text].tokens;
      var T = tokens.length;
      var frag = document.createDocumentFragment();
      var received = new Array(T).fill(0);
      var queries = q === null ? tokens.map(function (_, i) { return i; }) : [q];
      queries.forEach(function (i) {
        var r = row(i);
        for (var k = 0; k < T; k++) {
          received[k] += r[k] / queries.length;
          if (r[k] >= 0.01) frag.appendChild(line(i, k, q === null ? r[k] * 0.6 : r[k]));
        }
      });
      svg.textContent = "";
      svg.appendChild(frag);
      svg.classList.toggle("headview-all", q === null);
      Array.prototype.forEach.call(left.children, function (b, i) {
        b.classList.toggle("headview-active", i === q);
        b.setAttribute("aria-pressed", i === q ? "true" : "false");
      });
      Array.prototype.forEach.call(right.children, function (s, k) {
        s.style.setProperty("--w", received[k].toFixed(3));
        s.title = Math.round(received[k] * 100) + "%";
      });
      if (q === null) {
        status.textContent = ui.all + " · " + ui.layer + " " + state.layer + " · " + ui.head + " " + state.head;
        return;
      }
      var r = row(q);
      var order = r.map(function (w, k) { return k; }).sort(function (a, b) { return r[b] - r[a]; });
      order = order.slice(0, 3).filter(function (k, n) { return n === 0 || r[k] >= 0.005; });
      status.textContent = ui.attends.replace("{token}", "“" + tokens[q] + "”") + " " + order.map(function (k) {
        return "“" + tokens[k] + "” (" + Math.round(r[k] * 100) + "%)";
      }).join(", ");
    }

    textSel.sel.addEventListener("change", function () {
      state.text = Number(textSel.sel.value);
      state.focused = null;
      buildTokens();
      show(null);
    });
    layerSel.sel.addEventListener("change", function () { state.layer = Number(layerSel.sel.value); show(state.query); });
    headSel.sel.addEventListener("change", function () { state.head = Number(headSel.sel.value); show(state.query); });

    buildTokens();
    show(null);
  }

  // Each viewer starts (and fetches its data) when it comes within a screen or two of the viewport.
  function initAll() {
    var roots = Array.prototype.slice.call(document.querySelectorAll("[data-headview]"));
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

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initAll);
  else initAll();
})();
