"""The site machinery: everything that builds the site around the lesson code in ``snippets``.

- ``hooks``: the MkDocs hooks named in mkdocs.yml (math, glossary, exec cache, notebooks, warnings).
- ``notebooks``: the chapter notebooks, generated from the pages (parse, imports, build, run, cli).
- ``benchreport``: the performance page's tables and plots from ``snippets.bench``'s measurements.
- ``buildbench``: how long the site takes to build.

It may import ``snippets`` and ``resultcache``; ``snippets`` never imports it (tests/test_architecture.py).
"""
