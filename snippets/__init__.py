"""The lesson code: every code block on every page comes from here, and every printed result is computed here.

The site machinery that formats some of those results and builds the pages lives in ``sitebuild``,
which this package never imports.

Shape letters used throughout:
    N  batch size
    L  target (query) length
    S  source (key/value) length
    E  model width, ``d_model``
    h  number of heads, ``num_heads``
    d_k  per-head width, ``E // h``
"""
