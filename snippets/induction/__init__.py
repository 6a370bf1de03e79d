"""Induction heads: two heads in two layers that copy what followed the last time a token appeared."""
