// Language switcher: go to the same page, at the same anchor, in the other language.
// mkdocs-static-i18n already points each switcher link at the page's translation. Material's own
// handler would instead look the page up in a sitemap.xml beside each <link rel="alternate">
// (a 404 for every page but the home pages) and drop the anchor, so it is kept out of the way.
(function () {
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
})();
