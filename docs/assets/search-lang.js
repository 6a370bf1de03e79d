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
  }

  function watch() {
    var list = document.querySelector(".md-search-result__list");
    if (!list) return;
    new MutationObserver(function () { filter(list); }).observe(list, { childList: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
