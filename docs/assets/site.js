// Site behaviour on top of Material: a language switcher that keeps the page and the anchor, and
// names and keyboard access that the theme leaves out (checked with axe in tests/browser/).
(function () {
  "use strict";

  // Language switcher: go to the same page, at the same anchor, in the other language.
  // mkdocs-static-i18n already points each switcher link at the page's translation. Material's own
  // handler would instead look the page up in a sitemap.xml beside each <link rel="alternate">
  // (a 404 for every page but the home pages) and drop the anchor, so it is kept out of the way.
  document.querySelectorAll('link[rel="alternate"][hreflang]').forEach(function (link) {
    link.remove(); // stays in the HTML for crawlers; removed before Material reads it
  });
  document.addEventListener("click", function (ev) {
    var a = ev.target instanceof Element ? ev.target.closest("a.md-select__link[hreflang]") : null;
    if (!a) return;
    ev.stopPropagation();
    var url = new URL(a.getAttribute("href"), location.href);
    url.hash = location.hash;
    a.href = url.href;
  }, true);

  // Header hints: the build renames the header's title attributes to data-title, so that Material
  // does not build a tooltip for each on every page load (sitebuild/hooks/site.py says why). The first
  // hover or focus puts the title back, and the browser shows it as a plain tooltip.
  function restoreTitle(ev) {
    var el = ev.target instanceof Element ? ev.target.closest(".md-header [data-title]") : null;
    if (el && !el.hasAttribute("title")) el.setAttribute("title", el.getAttribute("data-title"));
  }
  document.addEventListener("pointerover", restoreTitle, { passive: true });
  document.addEventListener("focusin", restoreTitle);

  function label() {
    // The search dialog is named after its input ("搜索" / "Search").
    var dialog = document.querySelector('.md-search[role="dialog"]:not([aria-label])');
    var input = document.querySelector(".md-search__input");
    if (dialog && input) dialog.setAttribute("aria-label", input.getAttribute("aria-label") || input.placeholder);
    // A code annotation's marker shows its number only through CSS: it is named after its note, in the
    // page's own words.
    document.querySelectorAll(".md-annotation__index:not([aria-label])").forEach(function (a) {
      var note = a.closest(".md-annotation");
      var inner = note ? note.querySelector(".md-tooltip__inner") : null;
      var words = inner ? inner.textContent.replace(/\s+/g, " ").trim() : "";
      if (words) a.setAttribute("aria-label", words.length > 90 ? words.slice(0, 89) + "…" : words);
    });
  }

  // A box that scrolls sideways (wide formula, table, figure or code) must be reachable by keyboard.
  // Material makes a scrolling code block focusable when it mounts it, and with content.lazy it
  // mounts a block only near the screen: the blocks further down are covered here.
  var SCROLLERS = ".md-typeset div.math, .md-typeset__table > table, .md-typeset figure.mha-fig, " +
    ".md-typeset__scrollwrap, .md-typeset pre > code";
  // Each finished pass is counted on <html data-scroll-checked="n">, so a test can wait for it.
  var passes = 0;
  // Measuring a box that content-visibility skips (far from the screen) would lay it out, and one
  // pass measuring every box on a long page kept a phone busy for a quarter of a second. So a
  // skipped box is made focusable without measuring (it may scroll), and measured when the browser
  // draws it (contentvisibilityautostatechange), which then takes the mark back if it fits.
  // A box that has content-visibility itself (a figure) is not skipped: its content is, so ask a child.
  function skipped(el) {
    var probe = el.firstElementChild || el;
    return typeof probe.checkVisibility === "function" && !probe.checkVisibility({ contentVisibilityAuto: true });
  }
  function scrolls(el) {
    // A wide figure (one that scrolls on a phone) is always reachable: axe may measure it off screen.
    if (el.matches("figure.mha-fig--wide")) return true;
    return el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible";
  }
  function mark(el, scrolling) {
    if (scrolling && !el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("data-scroll-focus", "");
    } else if (!scrolling && el.hasAttribute("data-scroll-focus")) {
      el.removeAttribute("tabindex");
      el.removeAttribute("data-scroll-focus");
    }
  }
  function check(els) {
    var drawn = els.filter(function (el) { return !skipped(el); });
    var measured = drawn.map(scrolls); // all reads first, then all writes: one layout
    drawn.forEach(function (el, i) { mark(el, measured[i]); });
    els.forEach(function (el) { if (drawn.indexOf(el) < 0) mark(el, true); });
  }
  function focusable() {
    check(Array.prototype.slice.call(document.querySelectorAll(SCROLLERS)));
    document.documentElement.setAttribute("data-scroll-checked", String(++passes));
  }
  document.addEventListener("contentvisibilityautostatechange", function (ev) {
    if (ev.skipped || !(ev.target instanceof Element)) return;
    var els = Array.prototype.slice.call(ev.target.querySelectorAll(SCROLLERS));
    if (ev.target.matches(SCROLLERS)) els.push(ev.target);
    if (els.length) requestAnimationFrame(function () { check(els); });
  }, true);

  function update() {
    label();
    focusable();
  }
  // After the first paint and Material's own start-up, when the browser has time to spare.
  function later() {
    if (window.requestIdleCallback) requestIdleCallback(update, { timeout: 1500 });
    else setTimeout(update, 0);
  }
  if (window.document$) window.document$.subscribe(later);
  else document.addEventListener("DOMContentLoaded", update);
  var timer;
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(focusable, 100);
  });
})();
