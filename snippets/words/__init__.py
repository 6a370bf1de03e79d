"""The words that code prints into pages, one module per page or topic: each holds ZH and EN, two
dicts keyed by ``area.name``. ``snippets.i18n`` merges them into one table and is the one way to look
them up (``text(lang, key)``)."""

# Imported by name, not only listed: the build's caches key a page's printed output and each notebook by
# the files its code imports (resultcache.code_imports follows import statements), so a changed word must
# be an imported file, or a warm build would show the old text.
from . import (article, decoder, faq, figures, home, induction, induction_live, kvheads, mqar,  # noqa: F401
               performance, real_model, schematics, site, twominute, whatif)

MODULES = ("article", "decoder", "faq", "figures", "home", "induction", "induction_live", "kvheads", "mqar",
           "performance", "real_model", "schematics", "site", "twominute", "whatif")
