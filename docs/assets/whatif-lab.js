/* The §4 model lab: the trained timeline models run in the reader's browser. Plain JavaScript, no dependencies.
 *
 * <div data-whatif-lab> on a page becomes the lab. Its data lives beside this file, in whatif-lab/
 * (written at build by sitebuild/hooks/whatif_lab.py from the cached models):
 *   index.json              event names, offsets, the models on offer, the held-out logs, the sample log
 *   h<h>-s<seed>.json       one model's state_dict (float32, base64), fetched when the reader picks it
 *   l<n>h<h>-s<seed>.json   the same for a residual stack of n layers of h heads
 *   (…-d<E>-…: a one-layer model of d_model E other than the index's d_model; …-ffn<F>-…: a stack whose
 *   blocks end in a feed-forward layer of hidden width F; the index gives each model's file and key)
 *
 * The one-layer model (snippets/whatif/model.py, TimelineModel): h = event[x] + position; one
 * multi-head attention layer (W_q, W_k, W_v, softmax(q kᵀ / √d_k) v, W_o); a linear readout to
 * T × V logits. Switching a head off zeroes its slice of the context just before W_o, as
 * snippets.whatif.analysis.heads_off does.
 *
 * The stack (StackModel): h = event[x] + position; then per block h = h + W_o(attention(LN(h)))
 * (pre-LN, heads of width d_k), and when the model file has a feed-forward layer (ffn = F > 0, the
 * block's ffn_norm and ffn.0 / ffn.2 weights) h = h + W_2 relu(W_1 LN'(h) + b_1) + b_2, position by
 * position (PreLNBlock); logits = readout(LN(h)). LN is nn.LayerNorm over E: biased variance, the eps
 * the build exports (one eps for every layer norm of the stack). A head switched off has its context
 * zeroed before its block's W_o (sitebuild.whatif_lab.stack_heads_off), so later blocks see the
 * changed residual stream.
 *
 * Shape letters: L log length, E = d_model, H heads per layer, N layers, D = d_k, T targets (offsets),
 * V events, C = V × L, F the feed-forward layer's hidden width.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var BASE = script ? new URL("whatif-lab/", script.src).href : "whatif-lab/";
  var FIRST = 64; // held-out logs scored before the first answer is drawn; the rest follow in chunks
  var CHUNK = 128;

  // The lab's words in the page's language: snippets.i18n's lab.* entries, put on the container
  // by the build (sitebuild/hooks/whatif_lab.py) as data-ui.
  function words(root) {
    try { return JSON.parse(root.getAttribute("data-ui")); } catch (e) { return null; }
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return String(values[k]); });
  }

  // ------------------------------------------------------------------ data

  function decodeF32(b64) {
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var view = new DataView(bytes.buffer);
    var out = new Float32Array(bytes.length / 4);
    for (var j = 0; j < out.length; j++) out[j] = view.getFloat32(4 * j, true); // little-endian
    return out;
  }

  function decodeLogs(hex) {
    var out = new Uint8Array(hex.length);
    for (var i = 0; i < hex.length; i++) out[i] = parseInt(hex[i], 16);
    return out;
  }

  /** Percent with one decimal, rounded half to even as Python's f"{100 * x:.1f}%" does. */
  function pct(x) {
    var y = 1000 * x; // exact for the float32 accuracies the page prints
    var n = Math.floor(y);
    var r = y - n === 0.5 ? (n % 2 === 0 ? n : n + 1) : Math.round(y);
    return (r / 10).toFixed(1) + "%";
  }

  // ------------------------------------------------------------------ the model

  function decodeWeights(meta) {
    var w = {};
    Object.keys(meta.weights).forEach(function (k) {
      var entry = meta.weights[k];
      w[k] = decodeF32(entry.data);
      var size = entry.shape.reduce(function (a, b) { return a * b; }, 1);
      if (w[k].length !== size) throw new Error(k + ": expected " + size + " numbers, got " + w[k].length);
    });
    return w;
  }

  /** The model a data file describes: the one-layer model, or a residual stack. */
  function makeModel(meta) {
    return meta.stack ? new Stack(meta) : new Model(meta);
  }

  function Model(meta) {
    var E = meta.d_model, V = meta.vocab, L = meta.seq_len, T = meta.offsets.length, H = meta.heads;
    var w = decodeWeights(meta);
    this.meta = meta;
    this.E = E; this.V = V; this.L = L; this.T = T; this.H = H; this.D = E / H; this.N = 1;
    this.roles = [meta.roles]; // (N, H): one layer
    this.offsets = meta.offsets;
    this.w = w;
    var C = V * L, ev = w["event.weight"], pos = w["position.weight"];
    var proj = [["attn.W_q.weight", "attn.W_q.bias"], ["attn.W_k.weight", "attn.W_k.bias"],
      ["attn.W_v.weight", "attn.W_v.bias"]];
    // q, k and v depend only on (event, position): C = V × L rows each, computed once.
    var tables = proj.map(function () { return new Float64Array(C * E); });
    var h = new Float64Array(E);
    for (var x = 0; x < V; x++) {
      for (var p = 0; p < L; p++) {
        var c = x * L + p;
        for (var e = 0; e < E; e++) h[e] = ev[x * E + e] + pos[p * E + e];
        for (var m = 0; m < 3; m++) {
          var W = w[proj[m][0]], b = w[proj[m][1]], out = tables[m];
          for (var o = 0; o < E; o++) {
            var s = b[o];
            for (var f = 0; f < E; f++) s += W[o * E + f] * h[f];
            out[c * E + o] = s;
          }
        }
      }
    }
    this.q = tables[0]; this.k = tables[1]; this.v = tables[2];
    // Readout after W_o, folded for scoring: logits = M · (gate ⊙ context) + c, M = R W_o, c = R b_o + b_r.
    var R = w["readout.weight"], br = w["readout.bias"], Wo = w["attn.W_o.weight"], bo = w["attn.W_o.bias"];
    var TV = T * V;
    this.M = new Float64Array(TV * E);
    this.c = new Float64Array(TV);
    for (var r = 0; r < TV; r++) {
      var cc = br[r];
      for (var k = 0; k < E; k++) cc += R[r * E + k] * bo[k];
      this.c[r] = cc;
      for (var j = 0; j < E; j++) {
        var acc = 0;
        for (var k2 = 0; k2 < E; k2++) acc += R[r * E + k2] * Wo[k2 * E + j];
        this.M[r * E + j] = acc;
      }
    }
  }

  /** Attention weights (H, L, L) and contexts (L, E) of one log x (L event ids), into the given arrays. */
  Model.prototype.attend = function (x, xOff, attn, ctx, ctxOff) {
    var E = this.E, L = this.L, H = this.H, D = this.D, q = this.q, k = this.k, v = this.v;
    var scale = Math.sqrt(D);
    var cs = this._cs || (this._cs = new Int32Array(L));
    var row = this._row || (this._row = new Float64Array(L));
    for (var j = 0; j < L; j++) cs[j] = x[xOff + j] * L + j;
    for (var l = 0; l < L; l++) {
      var qb = cs[l] * E, ob = ctxOff + l * E;
      for (var i = 0; i < H; i++) {
        var d0 = i * D, max = -Infinity;
        for (var j2 = 0; j2 < L; j2++) {
          var kb = cs[j2] * E + d0, s = 0;
          for (var d = 0; d < D; d++) s += q[qb + d0 + d] * k[kb + d];
          s /= scale;
          row[j2] = s;
          if (s > max) max = s;
        }
        var sum = 0;
        for (var j3 = 0; j3 < L; j3++) { row[j3] = Math.exp(row[j3] - max); sum += row[j3]; }
        for (var d2 = 0; d2 < D; d2++) ctx[ob + d0 + d2] = 0;
        for (var j4 = 0; j4 < L; j4++) {
          var a = row[j4] / sum, vb = cs[j4] * E + d0;
          if (attn) attn[(i * L + l) * L + j4] = a;
          for (var d3 = 0; d3 < D; d3++) ctx[ob + d0 + d3] += a * v[vb + d3];
        }
      }
    }
  };

  /** The forward pass on one log, as PyTorch runs it: {logits (L, T, V), attn (H, L, L), i.e. (N = 1, H, L, L)}. */
  Model.prototype.forward = function (x, keep) {
    var E = this.E, L = this.L, H = this.H, D = this.D, TV = this.T * this.V, w = this.w;
    var attn = new Float64Array(H * L * L), ctx = new Float64Array(L * E);
    this.attend(x, 0, attn, ctx, 0);
    var Wo = w["attn.W_o.weight"], bo = w["attn.W_o.bias"], R = w["readout.weight"], br = w["readout.bias"];
    var logits = new Float64Array(L * TV), out = new Float64Array(E);
    for (var l = 0; l < L; l++) {
      for (var e = 0; e < E; e++) if (!keep[Math.floor(e / D)]) ctx[l * E + e] = 0; // heads_off
      for (var o = 0; o < E; o++) {
        var s = bo[o];
        for (var f = 0; f < E; f++) s += Wo[o * E + f] * ctx[l * E + f];
        out[o] = s;
      }
      for (var r = 0; r < TV; r++) {
        var z = br[r];
        for (var f2 = 0; f2 < E; f2++) z += R[r * E + f2] * out[f2];
        logits[l * TV + r] = z;
      }
    }
    return { logits: logits, attn: attn };
  };

  /** Held-out scoring: contexts are computed once per model, the readout once per head mask. */
  function Scorer(model, logs, count) {
    this.model = model;
    this.logs = logs;
    this.count = count;
    this.ctx = new Float64Array(count * model.L * model.E);
    this.ready = 0; // logs whose contexts are in this.ctx
  }

  Scorer.prototype.contexts = function (upto) {
    var m = this.model, L = m.L, E = m.E;
    for (var n = this.ready; n < upto; n++) m.attend(this.logs, n * L, null, this.ctx, n * L * E);
    if (upto > this.ready) this.ready = upto;
  };

  /** Add logs [from, to) to hits and counts (per offset), for the heads with keep[i] true. */
  Scorer.prototype.score = function (from, to, keep, hits, counts) {
    var m = this.model, L = m.L, E = m.E, V = m.V, T = m.T, D = m.D, offsets = m.offsets, logs = this.logs;
    this.contexts(to);
    var feats = [];
    for (var i = 0; i < m.H; i++) if (keep[i]) for (var d = 0; d < D; d++) feats.push(i * D + d);
    var F = feats.length, MK = new Float64Array(T * V * F), g = new Float64Array(F);
    for (var r = 0; r < T * V; r++) for (var f = 0; f < F; f++) MK[r * F + f] = m.M[r * E + feats[f]];
    for (var n = from; n < to; n++) {
      for (var l = 0; l < L; l++) {
        var base = (n * L + l) * E;
        for (var f2 = 0; f2 < F; f2++) g[f2] = this.ctx[base + feats[f2]];
        for (var t = 0; t < T; t++) {
          var src = l + offsets[t];
          if (src < 0 || src >= L) continue;
          var best = -Infinity, arg = 0;
          for (var c = 0; c < V; c++) {
            var row = t * V + c, s = m.c[row], mb = row * F;
            for (var f3 = 0; f3 < F; f3++) s += MK[mb + f3] * g[f3];
            if (s > best) { best = s; arg = c; } // first maximum, as torch.argmax
          }
          counts[t]++;
          if (arg === logs[n * L + src]) hits[t]++;
        }
      }
    }
  };

  // ------------------------------------------------------------------ the residual stack

  function Stack(meta) {
    var E = meta.d_model, V = meta.vocab, L = meta.seq_len, T = meta.offsets.length, H = meta.heads;
    var D = meta.d_k, N = meta.layers, F = meta.ffn || 0, w = decodeWeights(meta);
    if (!(meta.norm_eps > 0)) throw new Error("a stack needs its layer norm's eps (norm_eps), got " + meta.norm_eps);
    this.meta = meta;
    this.stack = true;
    this.E = E; this.V = V; this.L = L; this.T = T; this.H = H; this.D = D; this.N = N; this.HD = H * D; this.F = F;
    this.eps = meta.norm_eps;
    this.offsets = meta.offsets;
    this.roles = meta.roles; // (N, H)
    this.w = w;
    this.blocks = [];
    function need(name, size) { // a weight the forward pass reads, at the size it reads
      if (!w[name] || w[name].length !== size) {
        throw new Error(name + ": expected " + size + " numbers, got " + (w[name] ? w[name].length : "none"));
      }
      return w[name];
    }
    for (var b = 0; b < N; b++) {
      var p = "blocks." + b + ".", HD = H * D;
      var blk = { g: need(p + "norm.weight", E), beta: need(p + "norm.bias", E),
        W: [need(p + "W_q.weight", HD * E), need(p + "W_k.weight", HD * E), need(p + "W_v.weight", HD * E)],
        bias: [need(p + "W_q.bias", HD), need(p + "W_k.bias", HD), need(p + "W_v.bias", HD)],
        Wo: need(p + "W_o.weight", E * HD), bo: need(p + "W_o.bias", E), ffn: null };
      if (F) { // nn.Sequential(Linear(E, F), ReLU(), Linear(F, E)) after its own layer norm
        blk.ffn = { g: need(p + "ffn_norm.weight", E), beta: need(p + "ffn_norm.bias", E),
          W1: need(p + "ffn.0.weight", F * E), b1: need(p + "ffn.0.bias", F),
          W2: need(p + "ffn.2.weight", E * F), b2: need(p + "ffn.2.bias", E) };
      } else if (w[p + "ffn.0.weight"]) {
        throw new Error(p + "ffn: the model file has feed-forward weights but no ffn width");
      }
      this.blocks.push(blk);
    }
    // scratch: the residual stream, its layer norm, q, k, v, the heads' contexts, one row of scores, the logits
    this.h = new Float64Array(L * E);
    this.z = new Float64Array(L * E);
    this.qkv = [new Float64Array(L * this.HD), new Float64Array(L * this.HD), new Float64Array(L * this.HD)];
    this.ctx = new Float64Array(L * this.HD);
    this.row = new Float64Array(L);
    this.hid = new Float64Array(F); // one position's feed-forward hidden layer
    this.out = new Float64Array(L * T * V);
  }

  /** nn.LayerNorm over the last axis of src (L, E) into dst: (x - mean) / sqrt(var + eps) * g + beta. */
  Stack.prototype.norm = function (src, dst, g, beta) {
    var E = this.E, L = this.L, eps = this.eps;
    for (var l = 0; l < L; l++) {
      var o = l * E, mean = 0, varsum = 0;
      for (var e = 0; e < E; e++) mean += src[o + e];
      mean /= E;
      for (var e2 = 0; e2 < E; e2++) { var d = src[o + e2] - mean; varsum += d * d; }
      var inv = 1 / Math.sqrt(varsum / E + eps); // biased variance, as PyTorch
      for (var e3 = 0; e3 < E; e3++) dst[o + e3] = (src[o + e3] - mean) * inv * g[e3] + beta[e3];
    }
  };

  /** Logits (L, T, V) of log x[xOff … xOff + L) into this.out, heads with keep[b * H + i] false switched
   *  off; each block's attention (N, H, L, L) into attn when given. */
  Stack.prototype.run = function (x, xOff, keep, attn) {
    var E = this.E, L = this.L, H = this.H, D = this.D, HD = this.HD, TV = this.T * this.V, w = this.w;
    var h = this.h, z = this.z, ctx = this.ctx, row = this.row, scale = Math.sqrt(D);
    var ev = w["event.weight"], pos = w["position.weight"];
    for (var l = 0; l < L; l++) {
      var xe = x[xOff + l] * E;
      for (var e = 0; e < E; e++) h[l * E + e] = ev[xe + e] + pos[l * E + e];
    }
    for (var b = 0; b < this.N; b++) {
      var blk = this.blocks[b];
      this.norm(h, z, blk.g, blk.beta);
      for (var m = 0; m < 3; m++) { // q, k, v = W z + b: (L, H·D)
        var W = blk.W[m], bias = blk.bias[m], dst = this.qkv[m];
        for (var l2 = 0; l2 < L; l2++) {
          for (var o = 0; o < HD; o++) {
            var s = bias[o];
            for (var f = 0; f < E; f++) s += W[o * E + f] * z[l2 * E + f];
            dst[l2 * HD + o] = s;
          }
        }
      }
      var q = this.qkv[0], k = this.qkv[1], v = this.qkv[2];
      for (var i = 0; i < H; i++) {
        var d0 = i * D, on = keep[b * H + i];
        for (var l3 = 0; l3 < L; l3++) {
          var max = -Infinity;
          for (var j = 0; j < L; j++) {
            var sc = 0;
            for (var d = 0; d < D; d++) sc += q[l3 * HD + d0 + d] * k[j * HD + d0 + d];
            sc /= scale;
            row[j] = sc;
            if (sc > max) max = sc;
          }
          var sum = 0;
          for (var j2 = 0; j2 < L; j2++) { row[j2] = Math.exp(row[j2] - max); sum += row[j2]; }
          var cb = l3 * HD + d0;
          for (var d2 = 0; d2 < D; d2++) ctx[cb + d2] = 0;
          for (var j3 = 0; j3 < L; j3++) {
            var a = row[j3] / sum;
            if (attn) attn[((b * H + i) * L + l3) * L + j3] = a;
            if (on) for (var d3 = 0; d3 < D; d3++) ctx[cb + d3] += a * v[j3 * HD + d0 + d3]; // off: stays 0
          }
        }
      }
      var Wo = blk.Wo, bo = blk.bo; // the residual add: h = h + W_o ctx + b_o
      for (var l4 = 0; l4 < L; l4++) {
        for (var o2 = 0; o2 < E; o2++) {
          var t = bo[o2];
          for (var f2 = 0; f2 < HD; f2++) t += Wo[o2 * HD + f2] * ctx[l4 * HD + f2];
          h[l4 * E + o2] += t;
        }
      }
      if (blk.ffn) this.feedForward(blk.ffn);
    }
    this.norm(h, z, w["norm.weight"], w["norm.bias"]);
    var R = w["readout.weight"], br = w["readout.bias"], out = this.out;
    for (var l5 = 0; l5 < L; l5++) {
      for (var r = 0; r < TV; r++) {
        var y = br[r];
        for (var f3 = 0; f3 < E; f3++) y += R[r * E + f3] * z[l5 * E + f3];
        out[l5 * TV + r] = y;
      }
    }
    return out;
  };

  /** The block's feed-forward layer on the residual stream this.h (L, E), in place, position by position:
   *  h = h + W_2 relu(W_1 LN(h) + b_1) + b_2 (W_1: (F, E), W_2: (E, F), as nn.Linear stores them). */
  Stack.prototype.feedForward = function (ffn) {
    var E = this.E, L = this.L, F = this.F, h = this.h, z = this.z, hid = this.hid;
    var W1 = ffn.W1, b1 = ffn.b1, W2 = ffn.W2, b2 = ffn.b2;
    this.norm(h, z, ffn.g, ffn.beta);
    for (var l = 0; l < L; l++) {
      var zb = l * E;
      for (var j = 0; j < F; j++) {
        var s = b1[j];
        for (var e = 0; e < E; e++) s += W1[j * E + e] * z[zb + e];
        hid[j] = s > 0 ? s : 0; // ReLU
      }
      for (var o = 0; o < E; o++) {
        var t = b2[o];
        for (var j2 = 0; j2 < F; j2++) t += W2[o * F + j2] * hid[j2];
        h[zb + o] += t; // the residual add
      }
    }
  };

  /** The forward pass on one log, as PyTorch runs it: {logits (L, T, V), attn (N, H, L, L)}. */
  Stack.prototype.forward = function (x, keep) {
    var attn = new Float64Array(this.N * this.H * this.L * this.L);
    var logits = Float64Array.from(this.run(x, 0, keep, attn));
    return { logits: logits, attn: attn };
  };

  /** Held-out scoring for a stack: every head mask changes the residual stream, so each log runs in full. */
  function StackScorer(model, logs, count) {
    this.model = model;
    this.logs = logs;
    this.count = count;
  }

  StackScorer.prototype.score = function (from, to, keep, hits, counts) {
    var m = this.model, L = m.L, V = m.V, T = m.T, offsets = m.offsets, logs = this.logs;
    for (var n = from; n < to; n++) {
      var z = m.run(logs, n * L, keep, null);
      for (var l = 0; l < L; l++) {
        for (var t = 0; t < T; t++) {
          var src = l + offsets[t];
          if (src < 0 || src >= L) continue;
          var base = (l * T + t) * V, best = -Infinity, arg = 0;
          for (var c = 0; c < V; c++) if (z[base + c] > best) { best = z[base + c]; arg = c; } // first maximum
          counts[t]++;
          if (arg === logs[n * L + src]) hits[t]++;
        }
      }
    }
  };

  function softmax(z, from, n) {
    var max = -Infinity, out = new Array(n), sum = 0;
    for (var i = 0; i < n; i++) if (z[from + i] > max) max = z[from + i];
    for (var j = 0; j < n; j++) { out[j] = Math.exp(z[from + j] - max); sum += out[j]; }
    return out.map(function (p) { return p / sum; });
  }

  // ------------------------------------------------------------------ the page

  var indexPromise = null;
  function loadIndex() {
    if (!indexPromise) {
      indexPromise = fetch(BASE + "index.json").then(function (r) {
        if (!r.ok) throw new Error("index.json: HTTP " + r.status);
        return r.json();
      }).then(function (index) {
        index.heldoutLogs = decodeLogs(index.heldout.logs);
        index.sampleLog = Array.prototype.slice.call(decodeLogs(index.sample));
        return index;
      });
    }
    return indexPromise;
  }

  var modelCache = {};
  function loadModel(file) {
    if (!modelCache[file]) {
      modelCache[file] = fetch(BASE + file).then(function (r) {
        if (!r.ok) throw new Error(file + ": HTTP " + r.status);
        return r.json();
      }).then(function (meta) { return makeModel(meta); });
      modelCache[file].catch(function () { delete modelCache[file]; });
    }
    return modelCache[file];
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var counter = 0;

  function Lab(root, index) {
    var ui = words(root), self = this, uid = "whatif-lab-" + (counter++);
    if (!ui) throw new Error("the lab's container has no data-ui (its words, written by the build)");
    var L = index.seq_len, events = index.events, offsets = index.offsets;
    this.root = root;
    this.index = index;
    this.ui = ui;
    this.state = { file: null, model: null, scorer: null, keep: [], x: index.sampleLog.slice(), pos: 7 };
    this.timings = [];
    this.generation = 0;
    this.results = {}; // file + mask -> {hits, counts} over every held-out log
    var heldout = index.heldout.count;

    // controls
    var controls = el("div", { "class": "wl-controls" });
    function select(id, label, options) {
      var wrap = el("span", { "class": "wl-control" });
      wrap.appendChild(el("label", { "for": id }, label));
      var sel = el("select", { id: id });
      options.forEach(function (o) { sel.appendChild(el("option", { value: String(o) }, String(o))); });
      wrap.appendChild(sel);
      controls.appendChild(wrap);
      return sel;
    }
    // The model menu: layers × heads, the one-layer models and the residual stacks in two groups.
    var kinds = [], seeds = {}, kindOf = {};
    index.models.forEach(function (m) {
      var key = modelKey(m);
      if (!seeds[key]) {
        seeds[key] = [];
        kinds.push(m);
        kindOf[key] = m;
      }
      seeds[key].push(m.seed);
    });
    this.seedsOf = seeds;
    this.kindOf = kindOf;
    var modelWrap = el("span", { "class": "wl-control" });
    modelWrap.appendChild(el("label", { "for": uid + "-model" }, ui.model));
    this.modelSel = el("select", { id: uid + "-model" });
    [[false, ui.flatGroup], [true, ui.stackGroup]].forEach(function (group) {
      var members = kinds.filter(function (m) { return m.stack === group[0]; });
      if (!members.length) return;
      var og = el("optgroup", { label: group[1] });
      members.forEach(function (m) {
        // a stack with a feed-forward layer says so; a one-layer model of another width names its d_model
        var text = m.stack ? fill(m.ffn ? ui.stackFfnOption : ui.stackOption, { n: m.layers, h: m.heads })
          : fill(m.d_model && m.d_model !== index.d_model ? ui.flatOptionWidth : ui.flatOption,
            { h: m.heads, dk: m.d_k, dm: m.d_model });
        og.appendChild(el("option", { value: modelKey(m) }, text));
      });
      self.modelSel.appendChild(og);
    });
    modelWrap.appendChild(this.modelSel);
    controls.appendChild(modelWrap);
    this.seedSel = select(uid + "-seed", ui.seed, []);
    this.seedNote = el("span", { "class": "wl-note", id: uid + "-seed-note" });
    this.seedSel.parentNode.appendChild(this.seedNote);
    var randomBtn = el("button", { type: "button", "class": "wl-button" }, ui.random);
    var sampleBtn = el("button", { type: "button", "class": "wl-button" }, ui.sample);
    controls.appendChild(randomBtn);
    controls.appendChild(sampleBtn);

    // the log: one radio per position (arrow keys move), and an editor for the chosen position
    var logBox = el("div", { "class": "wl-log", role: "radiogroup", "aria-label": ui.log });
    this.chips = [];
    for (var p = 0; p < L; p++) {
      var chip = el("button", { type: "button", role: "radio", "class": "wl-chip", "data-pos": String(p) });
      chip.appendChild(el("span", { "class": "wl-chip-pos" }, String(p)));
      chip.appendChild(el("span", { "class": "wl-chip-event" }));
      chip.appendChild(el("span", { "class": "wl-chip-off", "aria-hidden": "true" }));
      logBox.appendChild(chip);
      this.chips.push(chip);
    }
    logBox.addEventListener("click", function (ev) {
      var chip = ev.target.closest(".wl-chip");
      if (chip) self.select(Number(chip.dataset.pos), false);
    });
    logBox.addEventListener("keydown", function (ev) {
      var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
      var to = ev.key === "Home" ? 0 : ev.key === "End" ? L - 1 : step ? self.state.pos + step : null;
      if (to === null) return;
      ev.preventDefault();
      self.select(Math.max(0, Math.min(L - 1, to)), true);
    });
    var editWrap = el("span", { "class": "wl-control wl-edit" });
    this.editLabel = el("label", { "for": uid + "-edit" });
    this.editSel = el("select", { id: uid + "-edit" });
    events.forEach(function (name, i) { self.editSel.appendChild(el("option", { value: String(i) }, name)); });
    editWrap.appendChild(this.editLabel);
    editWrap.appendChild(this.editSel);

    // heads: a toggle and a row of attention cells per head
    var headsBox = el("div", { "class": "wl-panel wl-heads" });
    this.attnTitle = el("p", { "class": "wl-title", id: uid + "-attn" });
    var tools = el("div", { "class": "wl-tools" });
    var allOn = el("button", { type: "button", "class": "wl-button" }, ui.allOn);
    var allOff = el("button", { type: "button", "class": "wl-button" }, ui.allOff);
    tools.appendChild(allOn);
    tools.appendChild(allOff);
    this.grid = el("div", { "class": "wl-grid", role: "group", "aria-labelledby": uid + "-attn" });
    headsBox.appendChild(this.attnTitle);
    headsBox.appendChild(tools);
    headsBox.appendChild(this.grid);

    // predictions at the chosen position
    var predBox = el("div", { "class": "wl-panel wl-preds" });
    this.predTitle = el("p", { "class": "wl-title" });
    this.predList = el("ul", { "class": "wl-pred-list" });
    predBox.appendChild(this.predTitle);
    predBox.appendChild(this.predList);

    // held-out accuracy per offset
    var accBox = el("div", { "class": "wl-panel wl-acc" });
    accBox.appendChild(el("p", { "class": "wl-title" }, ui.accuracy));
    this.accRows = [];
    var accList = el("dl", { "class": "wl-acc-list" });
    ui.targets.concat([ui.overall]).forEach(function (label) {
      var dt = el("dt", {}, label);
      var dd = el("dd", {});
      var bar = el("span", { "class": "wl-bar", "aria-hidden": "true" });
      bar.appendChild(el("span", { "class": "wl-bar-fill" }));
      var value = el("span", { "class": "wl-acc-value" });
      var full = el("span", { "class": "wl-acc-full" });
      dd.appendChild(bar);
      dd.appendChild(value);
      dd.appendChild(full);
      accList.appendChild(dt);
      accList.appendChild(dd);
      self.accRows.push({ bar: bar.firstChild, value: value, full: full });
    });
    accBox.appendChild(accList);
    this.status = el("p", { "class": "wl-status", role: "status" });
    accBox.appendChild(this.status);

    var nojs = root.querySelector(".whatif-lab-nojs");
    if (nojs) nojs.remove();
    var main = el("div", { "class": "wl-main" });
    main.appendChild(headsBox);
    var side = el("div", { "class": "wl-side" });
    side.appendChild(predBox);
    side.appendChild(accBox);
    main.appendChild(side);
    [controls, logBox, editWrap, main].forEach(function (n) { root.appendChild(n); });

    // events
    this.modelSel.addEventListener("change", function () { self.syncSeeds(); self.pick(); });
    this.seedSel.addEventListener("change", function () { self.pick(); });
    this.editSel.addEventListener("change", function () {
      self.state.x[self.state.pos] = Number(self.editSel.value);
      self.drawLog();
      self.drawPosition();
    });
    randomBtn.addEventListener("click", function () {
      for (var i = 0; i < L; i++) self.state.x[i] = Math.floor(Math.random() * events.length);
      self.drawLog();
      self.drawPosition();
    });
    sampleBtn.addEventListener("click", function () {
      self.state.x = index.sampleLog.slice();
      self.drawLog();
      self.drawPosition();
    });
    allOn.addEventListener("click", function () { self.setKeep(self.state.keep.map(function () { return true; })); });
    allOff.addEventListener("click", function () { self.setKeep(self.state.keep.map(function () { return false; })); });
    this.grid.addEventListener("click", function (ev) {
      var b = ev.target.closest(".wl-head");
      if (!b) return;
      var keep = self.state.keep.slice();
      keep[Number(b.dataset.head)] = !keep[Number(b.dataset.head)];
      self.setKeep(keep);
    });
    this.heldout = heldout;
    this.drawLog();
    this.select(this.state.pos, false);
    // It opens on the one-layer model with 4 heads, seed 0: the model of the page's share and ablation tables.
    this.modelSel.value = seeds.h4 ? "h4" : modelKey(kinds[0]);
    this.syncSeeds();
  }

  /** The model menu's value: the index's key ('h4' for the one-layer model with 4 heads, 'l2h2' for the
   *  stack of 2 layers of 2 heads, 'h3-d24', 'l1h1-ffn128'), or for an index without keys its layers × heads. */
  function modelKey(m) {
    return m.key || (m.stack ? "l" + m.layers + "h" + m.heads : "h" + m.heads);
  }

  /** The seed menu offers the seeds of the chosen model; a model with one (the stacks, a second-round
   *  one-layer model) says so. */
  Lab.prototype.syncSeeds = function () {
    var key = this.modelSel.value, seeds = this.seedsOf[key], old = Number(this.seedSel.value), sel = this.seedSel;
    sel.textContent = "";
    seeds.forEach(function (s) { sel.appendChild(el("option", { value: String(s) }, String(s))); });
    sel.value = String(seeds.indexOf(old) >= 0 ? old : seeds[0]);
    var single = seeds.length === 1;
    sel.disabled = single;
    var note = this.kindOf[key].stack ? this.ui.oneSeed : this.ui.oneSeedModel;
    this.seedNote.textContent = single ? fill(note, { seed: seeds[0] }) : "";
    if (single) sel.setAttribute("aria-describedby", this.seedNote.id);
    else sel.removeAttribute("aria-describedby");
  };

  Lab.prototype.file = function () {
    var key = this.modelSel.value, s = Number(this.seedSel.value);
    var m = this.index.models.filter(function (e) { return modelKey(e) === key && e.seed === s; })[0];
    return m.file;
  };

  /** Load the model the selects name, then redraw everything and score the held-out logs. */
  Lab.prototype.pick = function () {
    var self = this, file = this.file(), t0 = performance.now();
    this.root.dataset.state = "loading";
    this.status.textContent = this.ui.loading;
    var gen = ++this.generation;
    return loadModel(file).then(function (model) {
      if (gen !== self.generation) return;
      var t1 = performance.now();
      self.state.file = file;
      self.state.model = model;
      self.state.scorer = new (model.stack ? StackScorer : Scorer)(model, self.index.heldoutLogs, self.heldout);
      self.state.keep = [];
      for (var k = 0; k < model.N * model.H; k++) self.state.keep.push(true);
      self.buildGrid();
      self.timing = { kind: "model", start: t0, loaded: t1 - t0 };
      self.update();
    }).catch(function (err) {
      if (gen !== self.generation) return;
      self.root.dataset.state = "error";
      self.status.textContent = fill(self.ui.failed, { error: err.message });
    });
  };

  Lab.prototype.setKeep = function (keep) {
    this.state.keep = keep;
    this.timing = { kind: "mask", start: performance.now(), loaded: 0 };
    this.update();
  };

  Lab.prototype.select = function (pos, focus) {
    this.state.pos = pos;
    var self = this;
    this.chips.forEach(function (c, i) {
      c.setAttribute("aria-checked", i === pos ? "true" : "false");
      c.tabIndex = i === pos ? 0 : -1;
      var off = i - pos, k = self.index.offsets.indexOf(off);
      c.classList.toggle("wl-target", k >= 0);
      c.lastChild.textContent = k >= 0 ? (off > 0 ? "+" : "−") + Math.abs(off) : "";
    });
    if (focus) this.chips[pos].focus();
    this.editLabel.textContent = fill(this.ui.edit, { i: pos });
    this.editSel.value = String(this.state.x[pos]);
    this.drawPosition();
  };

  Lab.prototype.drawLog = function () {
    var self = this, names = this.index.events;
    this.chips.forEach(function (c, i) {
      c.children[1].textContent = names[self.state.x[i]];
      c.setAttribute("aria-label", fill(self.ui.pos, { i: i }) + " " + names[self.state.x[i]]);
    });
    this.editSel.value = String(this.state.x[this.state.pos]);
  };

  /** Head k of the model (k = layer × H + head): its role from the page's share tables, or "none". */
  Lab.prototype.roleName = function (k) {
    var m = this.state.model, r = m.roles[Math.floor(k / m.H)][k % m.H];
    return r === null ? this.ui.none : r;
  };

  /** What the reader calls head k: "head 2", or in a stack "layer 1 head 0" (layers counted from 1). */
  Lab.prototype.headName = function (k) {
    var m = this.state.model;
    return m.stack ? fill(this.ui.layerHead, { layer: Math.floor(k / m.H) + 1, i: k % m.H }) : String(k);
  };

  Lab.prototype.buildGrid = function () {
    var ui = this.ui, L = this.index.seq_len, grid = this.grid, m = this.state.model;
    grid.textContent = "";
    grid.classList.toggle("wl-stack", !!m.stack);
    var header = el("div", { "class": "wl-row wl-header", "aria-hidden": "true" });
    header.appendChild(el("span", {}));
    this.headerCols = el("div", { "class": "wl-cols" });
    for (var j = 0; j < L; j++) this.headerCols.appendChild(el("span", { "class": "wl-col" }, String(j)));
    header.appendChild(this.headerCols);
    grid.appendChild(header);
    this.rows = [];
    for (var layer = 0; layer < m.N; layer++) {
      var box = grid;
      if (m.stack) { // one labelled group of rows per layer, first layer on top
        var name = fill(ui.layer, { n: layer + 1 }), gid = grid.getAttribute("aria-labelledby") + "-l" + layer;
        box = el("div", { "class": "wl-layer", role: "group", "aria-labelledby": gid });
        box.appendChild(el("p", { "class": "wl-layer-name", id: gid }, name));
        grid.appendChild(box);
      }
      for (var i = 0; i < m.H; i++) {
        var k = layer * m.H + i, role = this.roleName(k);
        var row = el("div", { "class": "wl-row" });
        var b = el("button", { type: "button", "class": "wl-head", "data-head": String(k),
          "aria-label": m.stack ? fill(ui.layerHeadButton, { layer: layer + 1, i: i, role: role })
            : fill(ui.headButton, { i: i, role: role }) });
        b.appendChild(el("span", { "class": "wl-head-name" }, fill(ui.head, { i: i })));
        b.appendChild(el("span", { "class": "wl-head-role" }, role));
        var cells = el("div", { "class": "wl-cells", role: "img" });
        for (var c = 0; c < L; c++) cells.appendChild(el("span", { "class": "wl-cell" }));
        row.appendChild(b);
        row.appendChild(cells);
        box.appendChild(row);
        this.rows.push({ row: row, button: b, cells: cells, layer: layer, head: i });
      }
    }
  };

  /** Everything that depends on the log and the chosen position: attention rows and predictions. */
  Lab.prototype.drawPosition = function () {
    var st = this.state, m = st.model, ui = this.ui, names = this.index.events;
    this.attnTitle.textContent = fill(m && m.stack ? ui.attentionStack : ui.attention, { i: st.pos });
    this.predTitle.textContent = fill(ui.preds, { i: st.pos });
    if (!m) return;
    var L = m.L, V = m.V, T = m.T, pos = st.pos;
    var res = m.forward(st.x, st.keep);
    this.lastForward = res;
    var header = this.headerCols.children;
    for (var j = 0; j < L; j++) {
      var k = m.offsets.indexOf(j - pos);
      header[j].className = "wl-col" + (j === pos ? " wl-query" : "") + (k >= 0 ? " wl-target" : "");
    }
    for (var i = 0; i < m.N * m.H; i++) { // head i of the whole model: layer-major, as res.attn (N, H, L, L)
      var r = this.rows[i], weights = [];
      for (var j2 = 0; j2 < L; j2++) {
        var a = res.attn[(i * L + pos) * L + j2];
        weights.push(a);
        var cell = r.cells.children[j2];
        cell.style.setProperty("--w", a.toFixed(3));
        cell.className = "wl-cell" + (j2 === pos ? " wl-query" : "");
      }
      var order = weights.map(function (_, j3) { return j3; }).sort(function (p, q) { return weights[q] - weights[p]; });
      var top = order.slice(0, 3).filter(function (j4, n) { return n === 0 || weights[j4] >= 0.05; });
      var list = top.map(function (j5) {
        return fill(ui.cell, { j: j5, event: names[st.x[j5]], p: Math.round(weights[j5] * 100) });
      }).join(ui.sep);
      r.cells.setAttribute("aria-label", m.stack ? fill(ui.layerHeadCells, { layer: r.layer + 1, i: r.head, list: list })
        : fill(ui.headCells, { i: i, list: list }));
    }
    this.predList.textContent = "";
    for (var t = 0; t < T; t++) {
      var src = pos + m.offsets[t];
      var li = el("li", { "class": "wl-pred" });
      li.appendChild(el("span", { "class": "wl-pred-target" }, ui.targets[t]));
      if (src < 0 || src >= L) {
        li.classList.add("wl-outside");
        li.appendChild(el("span", { "class": "wl-pred-verdict" }, ui.outside));
      } else {
        var probs = softmax(res.logits, (pos * T + t) * V, V), arg = 0;
        for (var c = 1; c < V; c++) if (probs[c] > probs[arg]) arg = c;
        var right = arg === st.x[src];
        li.classList.add(right ? "wl-right" : "wl-wrong");
        li.appendChild(el("code", { "class": "wl-pred-event" }, names[arg]));
        li.appendChild(el("span", { "class": "wl-pred-prob" }, Math.round(probs[arg] * 100) + "%"));
        li.appendChild(el("span", { "class": "wl-pred-verdict" },
          right ? ui.right : fill(ui.wrong, { event: names[st.x[src]] })));
      }
      this.predList.appendChild(li);
    }
  };

  /** Redraw after a model or mask change, then score the held-out logs: FIRST at once, the rest in chunks. */
  Lab.prototype.update = function () {
    var self = this, st = this.state, m = st.model, ui = this.ui;
    var gen = ++this.generation;
    this.rows.forEach(function (r, i) {
      r.button.setAttribute("aria-pressed", st.keep[i] ? "true" : "false");
      r.row.classList.toggle("wl-off", !st.keep[i]);
    });
    this.drawPosition();
    var key = st.file + ":" + st.keep.map(Number).join("");
    var fullKey = st.file + ":" + st.keep.map(function () { return 1; }).join("");
    var total = this.heldout, timing = this.timing;
    var hits = new Array(m.T).fill(0), counts = new Array(m.T).fill(0);
    var show = function (done) {
      self.drawAccuracy(hits, counts, self.results[fullKey]);
      var offs = st.keep.map(function (k, i) { return k ? null : self.headName(i); })
        .filter(function (i) { return i !== null; });
      var what = offs.length ? fill(ui.off, { list: offs.join(ui.sep) }) : ui.allHeadsOn;
      self.status.textContent = what + " · " + fill(done < total ? ui.progress : ui.done, { done: done, total: total });
      self.root.dataset.scored = String(done);
      self.root.dataset.state = done < total ? "scoring" : "done";
    };
    if (this.results[key]) {
      hits = this.results[key].hits.slice();
      counts = this.results[key].counts.slice();
      show(total);
      this.record(timing, total);
      return;
    }
    var done = 0;
    var step = function (n) {
      if (gen !== self.generation) return;
      var upto = Math.min(total, done + n);
      st.scorer.score(done, upto, st.keep, hits, counts);
      done = upto;
      if (done === total) self.results[key] = { hits: hits.slice(), counts: counts.slice() };
      show(done);
      if (timing && (done === Math.min(FIRST, total) || done === total)) self.record(timing, done);
      if (done < total) setTimeout(function () { step(CHUNK); }, 0);
    };
    step(FIRST);
  };

  Lab.prototype.record = function (timing, done) {
    if (!timing) return;
    this.timings.push({ kind: timing.kind, logs: done, ms: performance.now() - timing.start, loadMs: timing.loaded,
      heads: this.state.model.H, layers: this.state.model.N, file: this.state.file });
  };

  Lab.prototype.drawAccuracy = function (hits, counts, full) {
    var sum = function (a) { return a.reduce(function (x, y) { return x + y; }, 0); };
    var accs = hits.map(function (h, t) { return counts[t] ? Math.fround(h / counts[t]) : 0; });
    accs.push(Math.fround(sum(hits) / Math.max(1, sum(counts))));
    var fullAccs = null;
    if (full) {
      fullAccs = full.hits.map(function (h, t) { return Math.fround(h / full.counts[t]); });
      fullAccs.push(Math.fround(sum(full.hits) / sum(full.counts)));
    }
    var ui = this.ui, allOn = this.state.keep.every(Boolean);
    this.accRows.forEach(function (r, t) {
      r.bar.style.width = (100 * accs[t]).toFixed(1) + "%";
      r.value.textContent = pct(accs[t]);
      r.full.textContent = fullAccs && !allOn ? fill(ui.full, { v: pct(fullAccs[t]) }) : "";
    });
  };

  // The lab sits far down its page: it loads and scores only when the reader gets near it, so
  // opening the page costs a phone nothing (Lighthouse counted its first scoring as blocking time).
  function initWhenNear() {
    var roots = document.querySelectorAll("[data-whatif-lab]");
    if (!roots.length) return;
    if (!("IntersectionObserver" in window)) { initAll(roots); return; }
    var seen = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; })) return;
      seen.disconnect();
      initAll(roots);
    }, { rootMargin: "800px 0px" });
    Array.prototype.forEach.call(roots, function (root) { seen.observe(root); });
  }

  function initAll(roots) {
    loadIndex().then(function (index) {
      Array.prototype.forEach.call(roots, function (root) {
        if (root.dataset.ready) return;
        root.dataset.ready = "1";
        var lab = new Lab(root, index);
        window.WhatifLab.labs.push(lab);
        lab.pick();
      });
    }).catch(function (err) {
      Array.prototype.forEach.call(roots, function (root) {
        root.dataset.state = "error";
        var p = root.querySelector(".whatif-lab-nojs") || root.appendChild(el("p", {}));
        var ui = words(root);
        p.textContent = ui ? fill(ui.failed, { error: err.message }) : err.message;
      });
    });
  }

  // For the browser tests and the curious: the engine, the data loaders and the labs on this page.
  window.WhatifLab = { Model: Model, Stack: Stack, Scorer: Scorer, StackScorer: StackScorer, makeModel: makeModel,
    loadIndex: loadIndex, loadModel: loadModel,
    decodeF32: decodeF32, decodeLogs: decodeLogs, pct: pct, base: BASE, labs: [] };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initWhenNear);
  else initWhenNear();
})();
