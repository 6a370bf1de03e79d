"""§4 what-if experiments: a synthetic log task, a one-layer model on the site's attention, training, analysis."""
