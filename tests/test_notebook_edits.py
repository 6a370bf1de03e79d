"""A reader's edit to a definition a notebook shows reaches the lesson code the cells below call
(snippets.notebook.use_definitions), and an unedited notebook runs the package's own code and caches."""

from __future__ import annotations

import __future__
import inspect
import textwrap

import pytest
import torch

import snippets.notebook as notebook
from snippets.notebook import edited, reset_definitions, use_definitions


@pytest.fixture(autouse=True)
def clean_package():
    """Every test starts and ends with the package's own definitions and caches in place (another test may
    have run a notebook's cells in this process)."""
    reset_definitions()
    yield
    reset_definitions()


def define(module, name: str, edit=("", ""), namespace: dict | None = None) -> dict:
    """A notebook's namespace holding `name` as the page shows it (the package's source, compiled in the
    notebook, with its docstring and comments in another language), after `edit` (old, new) to its source."""
    package = notebook._INSTALLED.get((module.__name__, name), [getattr(module, name)])[0]  # the package's own
    source = textwrap.dedent(inspect.getsource(package))
    source = source.replace('"""', '"""另一种语言的说明。', 1).replace("\n", "  # 注释\n", 1)
    old, new = edit
    if old:
        assert source.count(old) == 1, f"{old!r} is not in {name}"
        source = source.replace(old, new)
    ns = namespace if namespace is not None else {}
    ns.update({k: v for k, v in vars(module).items() if k not in ns and not k.startswith("__")})
    ns.pop(name, None)
    flags = __future__.annotations.compiler_flag if vars(module).get("annotations") is __future__.annotations else 0
    exec(compile(source, "<cell>", "exec", flags=flags, dont_inherit=True), ns)  # noqa: S102 - the lesson's own code
    return ns


def mha_vs_torch() -> float:
    """Largest difference between the site's MultiHeadAttention and torch's, same weights."""
    from snippets.multihead import MultiHeadAttention, load_from_torch

    torch.manual_seed(0)
    ref = torch.nn.MultiheadAttention(16, 4, batch_first=True).eval()
    ours = load_from_torch(MultiHeadAttention(16, 4), ref).eval()
    x = torch.randn(2, 5, 16)
    return (ours(x, x, x)[0] - ref(x, x, x)[0]).abs().max().item()


def test_an_unedited_definition_leaves_the_package_alone():
    import snippets.attention as attention
    import snippets.multihead as multihead

    before = multihead.scaled_dot_product_attention
    ns = define(attention, "scaled_dot_product_attention")
    assert ns["scaled_dot_product_attention"] is not before
    use_definitions(ns, "snippets.attention", ["scaled_dot_product_attention"])
    assert edited() == []
    assert multihead.scaled_dot_product_attention is before
    assert mha_vs_torch() < 1e-6


def test_an_edit_reaches_the_lesson_code_and_undoing_it_puts_the_package_back():
    """§3's named edit: drop the 1/sqrt(d_k) scale, and the comparison with torch fails."""
    import snippets.attention as attention
    import snippets.multihead as multihead

    package = multihead.scaled_dot_product_attention
    ns = define(attention, "scaled_dot_product_attention", ("/ math.sqrt(d_k)", ""))
    use_definitions(ns, "snippets.attention", ["scaled_dot_product_attention"])
    assert edited() == ["snippets.attention.scaled_dot_product_attention"]
    assert multihead.scaled_dot_product_attention is ns["scaled_dot_product_attention"]
    assert attention.scaled_dot_product_attention is ns["scaled_dot_product_attention"]
    assert mha_vs_torch() > 1e-2
    define(attention, "scaled_dot_product_attention", namespace=ns)  # the reader undoes the edit, runs again
    use_definitions(ns, "snippets.attention", ["scaled_dot_product_attention"])
    assert edited() == []
    assert multihead.scaled_dot_product_attention is package
    assert mha_vs_torch() < 1e-6


def test_every_shown_class_is_installed_once_one_is_edited():
    """The key/value page's named edit: the preallocated cache writes one row too far. The package's layer
    checks isinstance(cache, KVCache); the notebook's PreallocatedKVCache derives from the notebook's
    KVCache, so the notebook's KVCache (unedited) must be installed too, or the layer refuses the cache."""
    import snippets.kvheads.attention as attention
    import snippets.kvheads.decoder as decoder
    from snippets.kvheads.report import decoder_rows

    ns = define(attention, "KVCache")
    use_definitions(ns, "snippets.kvheads.attention", ["KVCache"])
    ns = define(decoder, "PreallocatedKVCache", ("self.k_buf[:, :, self.size:S] = k",
                                                 "self.k_buf[:, :, self.size + 1:S + 1] = k"), namespace=ns)
    use_definitions(ns, "snippets.kvheads.decoder", ["PreallocatedKVCache"])
    assert edited() == ["snippets.kvheads.decoder.PreallocatedKVCache"]
    assert attention.KVCache is ns["KVCache"]  # unedited, installed with the edited one
    assert ns["PreallocatedKVCache"].append.__globals__ is vars(decoder)  # reads its module's names
    rows = decoder_rows("en")
    assert any("❌" in " ".join(map(str, row)) for row in rows), rows
    define(decoder, "PreallocatedKVCache", namespace=ns)  # undone
    use_definitions(ns, "snippets.kvheads.decoder", ["PreallocatedKVCache"])
    assert edited() == [] and attention.KVCache is not ns["KVCache"]
    assert ns["KVCache"].append.__globals__ is ns  # the notebook's classes read the notebook's names again
    assert all("❌" not in " ".join(map(str, row)) for row in decoder_rows("en"))


def test_an_installed_function_reads_its_own_modules_names():
    """A notebook is one namespace, and two lesson modules use one private name for two things
    (_check_task takes two arguments in recall.py, three in mqar.py). An installed definition looks its
    names up in its module, as the package's own does."""
    import snippets.kvheads.mqar as mqar
    import snippets.kvheads.recall as recall

    # the reader edits the recall task (queries in key order: the edit itself changes what recall gives)
    ns = define(recall, "make_recall_batch", ("order = torch.rand(N, n, generator=gen).argsort(1)",
                                              "order = torch.arange(n).expand(N, n)"))
    use_definitions(ns, "snippets.kvheads.recall", ["make_recall_batch"])
    ns = define(mqar, "make_mqar_batch", namespace=ns)
    ns["_check_task"] = recall._check_task  # the notebook imported recall's, and mqar's include reads that name
    with pytest.raises(TypeError):
        ns["make_mqar_batch"](2, 4, 32, seed=0)  # as the notebook's cell would call it
    use_definitions(ns, "snippets.kvheads.mqar", ["make_mqar_batch"])
    assert mqar.make_mqar_batch is ns["make_mqar_batch"]  # installed, since an edit is in use
    x, _ = mqar.make_mqar_batch(2, 4, 32, seed=0)
    assert tuple(x.shape) == (2, 32)
    x, y = recall.make_recall_batch(1, 3, seed=0)
    assert torch.equal(x[0, 6:], x[0, 0:6:2])  # the edit: queries in the order the keys came


def test_cached_lesson_functions_are_memos_while_an_edit_is_in_use():
    """§4's training results are cached on disk, computed with the package's definitions: while an edit is
    in use they are memos, computed in this process and kept only while the same edits are in use."""
    import snippets.attention as attention
    import snippets.whatif.train as train

    cached = train._train_cached
    ns = define(attention, "scaled_dot_product_attention", ("/ math.sqrt(d_k)", "/ 1.0"))
    use_definitions(ns, "snippets.attention", ["scaled_dot_product_attention"])
    memo = train._train_cached
    assert isinstance(memo, notebook._Memo) and memo.cached is cached
    assert memo.check_call_in_cache(1, 0)  # so the lesson code trains here, not in processes of its own
    memo.results["x"] = 1
    use_definitions(ns, "snippets.attention", ["scaled_dot_product_attention"])
    assert memo.results == {"x": 1}  # the same edits: the memos stand
    define(attention, "scaled_dot_product_attention", ("/ math.sqrt(d_k)", "/ 2.0"), namespace=ns)
    use_definitions(ns, "snippets.attention", ["scaled_dot_product_attention"])
    assert memo.results == {}  # another edit: computed again
    define(attention, "scaled_dot_product_attention", namespace=ns)
    use_definitions(ns, "snippets.attention", ["scaled_dot_product_attention"])
    assert train._train_cached is cached


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="expected the notebook's globals"):
        use_definitions([], "snippets.attention", ["scaled_dot_product_attention"])
    with pytest.raises(ValueError, match="expected the notebook to define 'nothing'"):
        use_definitions({}, "snippets.attention", ["nothing"])
    with pytest.raises(ValueError, match="expected snippets.attention to define 'f'"):
        use_definitions({"f": len}, "snippets.attention", ["f"])
