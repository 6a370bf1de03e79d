"""The words that code prints into pages, one module per page or topic: each holds ZH and EN, two
dicts keyed by ``area.name``. ``snippets.i18n`` merges them into one table and is the one way to look
them up (``text(lang, key)``)."""

MODULES = ("article", "decoder", "faq", "figures", "home", "induction", "induction_live", "kvheads", "mqar", "performance", "real_model", "schematics", "site", "twominute", "whatif",)
