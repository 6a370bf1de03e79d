"""Code shown on the site: every code block on every page comes from here.

Shape letters used throughout:
    N  batch size
    L  target (query) length
    S  source (key/value) length
    E  model width, ``d_model``
    h  number of heads, ``num_heads``
    d_k  per-head width, ``E // h``
"""
