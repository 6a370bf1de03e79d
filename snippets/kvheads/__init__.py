"""How many key/value heads a model needs: grouped-query attention (MHA, GQA, MQA), a KV cache, MLA,
and multi-query associative recall to measure what sharing keys and values costs."""
