"""The site machinery: everything that builds the site around the lesson code in ``snippets``.

- ``hooks``: the MkDocs hooks named in mkdocs.yml (math, glossary, exec cache, up-front computation,
  notebooks, the §4 lab, per-page widget assets, warnings).
- ``precompute``: the expensive results the pages read, computed first on every core.
- ``whatif_lab``: the §4 lab's data files and words.
- ``notebooks``: the chapter notebooks, generated from the pages (parse, imports, build, run, cli).
- ``results``: committed measurements (``results/*.json``) with their provenance, and the commands that measure them.
- ``buildbench``: how long the site takes to build.

It may import ``snippets`` and ``resultcache``; ``snippets`` never imports it (tests/test_architecture.py).
"""
