// Search results in the reader's language only.
// mkdocs-static-i18n writes one search index for both languages; Material would list the Chinese
// and the English copy of every page side by side. Hide the results of the other language and
// correct the count, using Material's own translated strings from the page's __config.
(function () {
  var config = JSON.parse((document.getElementById("__config") || {}).textContent || "{}");
  var t = config.translations || {};
  var base = new URL((config.base || ".").replace(/\/*$/, "/"), location.href);  // "/" on the 404 page: not "//"
  var englishRoot = new URL("en/", base).pathname;
  var pathIsEnglish = function (path) { return path.indexOf(englishRoot) === 0; };
  var here = pathIsEnglish(location.pathname);
  if (document.documentElement.lang === "en") here = true;

  function filter(list) {
    var shown = 0;
    list.querySelectorAll(":scope > li.md-search-result__item").forEach(function (li) {
      var a = li.querySelector("a[href]");
      var same = !a || pathIsEnglish(new URL(a.getAttribute("href"), location.href).pathname) === here;
      li.hidden = !same;
      if (same) shown += 1;
    });
    var meta = document.querySelector(".md-search-result__meta");
    if (meta && list.children.length) {
      var text = shown === 0 ? t["search.result.none"] : shown === 1 ? t["search.result.one"] : t["search.result.other"];
      if (text) meta.textContent = text.replace("#", String(shown));
    }
    more(list);
  }

  // Material shows the first 10 results, then 4 more each time the list's scroll box reaches its end:
  // it waits for "at the end" to turn from false to true. Hidden results do not make the list longer,
  // so a reader at the end would wait for the next ones forever (and a short list cannot scroll at
  // all). When the box is at its end after a batch, make it longer for a frame and take that back, so
  // Material sees the change it waits for and adds the next batch. Once every result is in, no batch
  // comes, the list does not change, and this stops.
  var nudging = false;
  function more(list) {
    var wrap = list.closest(".md-search__scrollwrap");
    if (!wrap || nudging || !list.children.length) return;
    if (wrap.scrollTop + wrap.clientHeight < wrap.scrollHeight - 16) return;
    nudging = true;
    list.style.minHeight = (wrap.scrollHeight + wrap.clientHeight) + "px";
    wrap.dispatchEvent(new Event("scroll"));
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        list.style.minHeight = "";
        wrap.dispatchEvent(new Event("scroll"));
        nudging = false;
      });
    });
  }

  function watch() {
    var list = document.querySelector(".md-search-result__list");
    if (!list) return;
    new MutationObserver(function () { filter(list); }).observe(list, { childList: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
