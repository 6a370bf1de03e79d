"""Small runs a reader can change: each calls, on a tiny case, definitions a page shows and prints a result.

A page (and its notebook) prints one of these below the definitions it exercises: the training functions
whose real results are committed measurements, the timing harness, the real decoder's layers on a tiny random
model. The keyword arguments are what a reader changes; each run takes a second or two on one core. The
definitions are looked up when a run is called, not when this module is imported, so in a notebook a run uses
the reader's edited definition (snippets.notebook.use_definitions installs it in its module).
"""

from __future__ import annotations

__all__ = ["fixed_pool_run", "step_table", "recall_run", "normed_mla_run", "bench_run", "tiny_generate",
           "made_up_scores", "head_off_run", "copies_or_not", "cut_run", "control_run", "shares_run"]


def fixed_pool_run(h: int = 8, steps: int = 80, pool: int = 16, lang: str = "en") -> str:
    """§4: _train_fixed on a small pool of training logs (d_model = 64, one thread); one sentence."""
    from .bench import threads
    from .whatif import regime, report

    with threads(1):
        train, held_out = regime._train_fixed(h, seed=0, steps=steps, pool=pool, d_model=64, batch_size=16)
    return report.fixed_pool_sentence(train, held_out, h, 64, steps, pool, lang)


def step_table(L: int = 64, d_model: int = 64, num_heads: int = 8, kv_heads: int = 2, d_latent: int = 16,
               lang: str = "en") -> str:
    """Key/value heads: next_token_fns (g = kv_heads) and latent_fns (d_c = d_latent) once on one input of
    L positions, each step's output against its reference and its FLOPs (step_flops); a table."""
    from .kvheads import decode_bench, report

    fns = report.step_fns(L=L, d_model=d_model, num_heads=num_heads, kv_heads=kv_heads, d_latent=d_latent)
    flops = {name: decode_bench.step_flops(fn) for name, fn in fns.items()}
    return report.quick_steps(fns, flops, lang)


def recall_run(steps: int = 150, pairs: int = 4, g: int = 2, batch: int = 32, lang: str = "en") -> str:
    """Key/value heads: the recall model (8 query heads, g key/value heads) trained briefly by _train; its
    held-out accuracy in one sentence."""
    from .bench import threads
    from .kvheads import report, train

    with threads(1):
        model = train._train(8, g, pairs, seed=0, steps=steps, batch_size=batch, lr=3e-3)
        acc = train.accuracy(model, pairs, size=200)
    return report.quick_recall(acc, steps, pairs, g, batch, lang)


def normed_mla_run(steps: int = 40, every: int = 10, size: int = 128, batch: int = 32, d_latent: int = 16,
                   lang: str = "en") -> str:
    """Key/value heads: the MLA model with a normed latent (normed_mla_model) trained briefly by train_mqar on
    the protocol's task, held-out accuracy every `every` steps; one sentence."""
    import torch

    from .bench import threads
    from .kvheads import followup, mqar, mqar_report, protocol

    torch.manual_seed(0)  # the initial weights
    with threads(1):
        _, curve = mqar.train_mqar(followup.normed_mla_model(d_latent), protocol.PAIRS, protocol.SEQ_LEN, seed=0,
                                   steps=steps, batch_size=batch, eval_every=every, eval_size=size)
    return mqar_report.followup_quick(curve, every, steps, batch, size, d_latent, lang)


def bench_run(L: int = 128, E: int = 64, h: int = 4, rounds: int = 3, lang: str = "en") -> str:
    """Performance: make_impls on a small size, time_rounds for a few rounds, peak_bytes of each implementation
    with the timings' thread count; a table of sample counts and peak memory (not the times, which differ from
    run to run)."""
    from . import bench, benchreport

    impls = bench.make_impls(N=1, L=L, d_model=E, num_heads=h)
    samples = bench.time_rounds(impls, rounds=rounds, min_sample_time=0.001)
    with bench.threads(1):
        peaks = {name: bench.peak_bytes(fn) for name, fn in impls.items()}
    return benchreport.quick_table(samples, peaks, L, E, h, lang)


def tiny_generate(d_model: int = 32, num_layers: int = 2, num_heads: int = 4, num_kv_heads: int = 2,
                  prompt: tuple[int, ...] = (1, 2, 3, 4, 1, 2), new: int = 4, lang: str = "en") -> str:
    """Real decoder: SmolLM2's layers as a tiny random model (vocabulary 50), written to a GGUF file and read
    back with load_model (tinyfile.tiny_from_file), then generate with the cache and without it."""
    import torch

    from .decoder import model as layers
    from .decoder import report, tinyfile
    from .decoder.weights import LlamaConfig

    cfg = LlamaConfig(vocab=50, d_model=d_model, num_layers=num_layers, num_heads=num_heads,
                      num_kv_heads=num_kv_heads, d_ff=48, context=16, rope_base=10000.0, eps=1e-5)
    net = tinyfile.tiny_from_file(cfg, seed=0)  # through a GGUF file and load_model
    ids = torch.tensor([list(prompt)])  # (N, P)
    cached = layers.generate(net, ids, new)
    again = layers.generate(net, ids, new, cache=False)
    cos, _ = layers.rope_angles(cfg.d_k, 0, ids.shape[1], cfg.rope_base)
    return report.quick_decode(ids, cached, again, cos.shape, lang)


def made_up_scores(T: int = 5, lang: str = "en") -> str:
    """Real decoder: three made-up heads on T tokens shown twice (ideal_weights), each scored by
    previous_token, prefix_matching and sink_share; a table."""
    from .decoder import heads, report

    w = heads.ideal_weights(T)  # (1, 3, 2T, 2T)
    return report.quick_scores(heads.previous_token(w), heads.prefix_matching(w, T), heads.sink_share(w), lang)


def head_off_run(texts: tuple[str, ...] = ("disk /var is full", "no space left on the /var partition"),
                 layer: int = 5, head: int = 0, lang: str = "en") -> str:
    """Real model: the texts' sentence vectors (pooled_embedding of the last layer) with every head on, and
    with one head switched off by head_mask; the angles, in one table."""
    import torch

    from .bert import ablation, loader, report, retrieval

    ids, mask = retrieval.encode_batch(list(texts))  # (N, T) each, padded
    model = loader.load_model()
    with torch.no_grad():
        full = retrieval.pooled_embedding(model(ids, mask)[0][-1], mask)  # (N, E)
        with ablation.head_mask(model.layers[layer].attn, head):
            off = retrieval.pooled_embedding(model(ids, mask)[0][-1], mask)
    return report.quick_ablation(full, off, layer, head, lang)


def copies_or_not(L: int = 12, d_model: int = 48, num_heads: int = 6, num_kv_heads: int = 2,
                  lang: str = "en") -> str:
    """Real decoder: one decoding step (decode_step) of a tiny random model after L cached positions, with the
    key/value heads copied and with grouped_rotary; the largest difference between the two logits."""
    from .decoder import report, timing
    from .decoder.model import tiny_decoder
    from .decoder.weights import LlamaConfig

    cfg = LlamaConfig(vocab=50, d_model=d_model, num_layers=2, num_heads=num_heads, num_kv_heads=num_kv_heads,
                      d_ff=64, context=L + 1, rope_base=10000.0, eps=1e-5)
    fns = timing.timing_step_fns(tiny_decoder(cfg, seed=0), L)
    copied, grouped = fns["copies"](), fns["grouped"]()  # (1, 1, V) each
    return report.quick_copies(L, tuple(copied.shape), float((copied - grouped).abs().max()), lang)


def cut_run(layer: int = 1, head: int = 0, fill: str = "zero", lang: str = "en") -> str:
    """Real decoder: heads_cut on a tiny random model (2 layers, 4 heads): one head of one layer replaced by zeros
    or by its mean output on the same tokens; how far the logits move, and whether they come back once the block
    is left."""
    import torch

    from .decoder import ablation, report
    from .decoder.model import tiny_decoder
    from .decoder.weights import LlamaConfig

    cfg = LlamaConfig(vocab=50, d_model=32, num_layers=2, num_heads=4, num_kv_heads=2, d_ff=48, context=16,
                      rope_base=10000.0, eps=1e-5)
    if fill not in ("zero", "mean"):
        raise ValueError(f"fill must be 'zero' or 'mean', got {fill!r}")
    if layer not in range(cfg.num_layers) or head not in range(cfg.num_heads):
        raise ValueError(f"layer must be 0 … {cfg.num_layers - 1} and head 0 … {cfg.num_heads - 1}, "
                         f"got layer={layer!r}, head={head!r}")
    net = tiny_decoder(cfg, seed=0)
    ids = torch.randint(0, cfg.vocab, (2, 10), generator=torch.Generator().manual_seed(0))  # (N, L)
    with torch.no_grad():
        before = net(ids)  # (N, L, V)
        means = ablation.head_means(net, [ids])  # layer -> (h, d_k)
        filler = means[layer] if fill == "mean" else torch.zeros(cfg.num_heads, cfg.d_k)
        cut = torch.zeros(2, cfg.num_heads, dtype=torch.bool)
        cut[:, head] = True  # this head, in both sequences
        with ablation.heads_cut(net, {layer: cut}, {layer: filler}):
            during = net(ids)
        after = net(ids)
    return report.quick_cut(layer, head, fill, float((during - before).abs().max()),
                            float((after - before).abs().max()), lang)


def control_run(L: int = 64, d_model: int = 64, num_heads: int = 8, lang: str = "en") -> str:
    """Key/value heads: the shared-query control (SharedQueryAttention, shared_query_fns) once on one input of L
    positions: its cached step against its own full forward, its cache beside MHA's, and the FLOPs of both steps."""
    import torch

    from .kvheads import decode_bench, report
    from .kvheads.attention import GroupedQueryAttention
    from .kvheads.sharedq import SharedQueryAttention

    torch.manual_seed(0)
    control, mha = SharedQueryAttention(d_model, num_heads).eval(), GroupedQueryAttention(d_model, num_heads,
                                                                                          num_heads).eval()
    x = torch.randn(1, L, d_model, generator=torch.Generator().manual_seed(L))  # (N, L, E)
    step = decode_bench.shared_query_fns(control, x)[decode_bench.SHARED_QUERY]
    with torch.no_grad():
        full = control(x)[:, -1:]  # (N, 1, E): every position again
    same = bool(torch.allclose(step(), full, rtol=0, atol=1e-5))
    mha_step = decode_bench.next_token_fns(mha, x)["cache_grouped"]
    return report.quick_control(L, same, decode_bench.cache_bytes(control, x), decode_bench.cache_bytes(mha, x),
                                decode_bench.step_flops(step), decode_bench.step_flops(mha_step), lang)


def shares_run(offset: int = 1, L: int = 6, lang: str = "en") -> str:
    """§4: offset_shares and head_roles on one made-up head that puts all its attention `offset` places away (rolled
    round at the end of the sequence); its share at each offset and the role it gets."""
    import torch

    from .i18n import text
    from .whatif import analysis

    w = torch.eye(L).roll(offset, dims=1)[None]  # (h=1, L, L): query i looks at key i + offset
    shares = analysis.offset_shares(w)  # (h, O)
    role = analysis.head_roles(shares)[0]

    def signed(o: int) -> str:
        return "0" if o == 0 else f"{o:+d}".replace("-", "\u2212")

    cells = text(lang, "whatif.quick_sep").join(text(lang, "whatif.quick_cell", o=signed(o), x=f"{x:.2f}")
                                                 for o, x in zip(analysis.SHARE_OFFSETS, shares[0].tolist()))
    return text(lang, "whatif.quick_shares", offset=signed(offset), cells=cells,
                role=text(lang, "whatif.quick_no_role") if role is None else signed(role))
