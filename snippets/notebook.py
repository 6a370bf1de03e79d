"""What a downloaded notebook needs from the lesson package besides the lessons themselves.

``download_results`` fetches the committed measurements (``results/*.json``) from the site: timings are
measured once, on the machine that builds the site, and a notebook shows them rather than timing again.
Inside the repository it fetches nothing (they are in ``results/``); outside it they go to the cache
folder, where ``results_dir()`` finds them.

``borrow_methods`` completes a class that a page shows in part: the notebook defines the class as the
page shows it, then takes the methods the page leaves out (a helper such as ``_check``) from the
package's class, made to read the notebook's names, so that ``isinstance(cache, KVCache)`` in a borrowed
method means the notebook's KVCache.

``use_definitions`` is what makes a reader's edit reach every result below it. A notebook defines the
functions and classes its page shows, and the cells below call lesson functions (a report, a table) that
call the package's own copies. After each cell of definitions the notebook calls ``use_definitions``: a
definition the reader has changed (its code differs from the package's, docstrings, comments and line
numbers aside) replaces the package's everywhere in the lesson package, and the package's cached
computations are switched off, since they were computed with the package's definitions. An unchanged
definition leaves the package as it is, so a notebook nobody edits runs the package's code and its caches.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import types

from resultcache import download_results, results_dir

from .i18n import text

__all__ = ["download_results", "fetch_results", "results_dir", "borrow_methods", "use_definitions", "edited",
           "reset_definitions", "trace_report"]


def fetch_results(base_url: str, names: list[str], lang: str = "zh") -> None:
    """download_results(base_url, names), then one short sentence in the page's language saying how many
    result files are ready. The notebook's setup cell calls this: it prints no path, so no rendered notebook
    shows the folder of the machine that ran it.
    """
    got = download_results(base_url, names)
    print(text(lang, "notebooks.results_ready", n=len(got)))


def borrow_methods(cls: type, source: type, names: list[str], namespace: dict) -> None:
    """Give cls the methods `names` of source, their global names looked up in namespace (a notebook's
    globals()), not in source's module.

    >>> class Shown:
    ...     pass
    >>> class Full:
    ...     def twice(self):
    ...         return 2 * UNIT
    >>> borrow_methods(Shown, Full, ["twice"], {"UNIT": 21})
    >>> Shown().twice()
    42
    """
    if not isinstance(namespace, dict):
        raise ValueError(f"expected the notebook's globals() as namespace, got {type(namespace).__name__}")
    for name in names:
        method = vars(source).get(name)
        if not isinstance(method, types.FunctionType):
            raise ValueError(f"expected {name!r} to be a method of {source.__name__}, got {method!r}")
        if "__class__" in method.__code__.co_freevars:
            raise ValueError(f"expected {source.__name__}.{name} to work outside its class, but it calls super() "
                             "without arguments")
        copy = types.FunctionType(method.__code__, namespace, method.__name__, method.__defaults__,
                                  method.__closure__)
        copy.__kwdefaults__ = method.__kwdefaults__
        copy.__doc__, copy.__annotations__ = method.__doc__, dict(method.__annotations__)
        copy.__qualname__ = f"{cls.__qualname__}.{name}"
        copy.__borrowed__ = True  # the package's code, which the notebook does not show: use_definitions skips it
        setattr(cls, name, copy)


# (module, name) -> [the package's own object, then every object installed in its place since]
_INSTALLED: dict[tuple[str, str], list] = {}
_EDITED: set[tuple[str, str]] = set()
_NAMESPACES: dict[tuple[str, str], dict] = {}  # where each registered definition lives (a notebook's globals())
# MHA_NOTEBOOK_TRACE=1 (the download test): install every definition, edited or not, and record which are
# called by a later cell; trace_report() gives the record.
_TRACE = os.environ.get("MHA_NOTEBOOK_TRACE") == "1"
_DEFINED_IN: dict[tuple[str, str], int] = {}
_CALLED: set[tuple[str, str]] = set()


def _unwrap(obj):
    """The function a decorator wraps (functools.wraps, joblib's cache), else obj."""
    for _ in range(10):
        cached = isinstance(obj, _Memo) or type(obj).__name__.endswith("MemorizedFunc")
        inner = getattr(obj, "__wrapped__", None) or (getattr(obj, "func", None) if cached else None)
        if inner is None:
            return obj
        obj = inner
    return obj


def _code_key(code: types.CodeType):
    """What a code object does, without its docstring, file, line numbers or name of the place it came from."""
    consts = list(code.co_consts)
    if consts and not code.co_name.startswith("<") and (consts[0] is None or isinstance(consts[0], str)):
        consts = consts[1:]  # the docstring slot of a def (a notebook's may be in the page's language)
    return (code.co_code, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars, code.co_argcount,
            code.co_kwonlyargcount, code.co_posonlyargcount, code.co_flags,
            tuple(_code_key(c) if isinstance(c, types.CodeType) else (type(c).__name__, repr(c)) for c in consts))


def _key(obj, skip: frozenset = frozenset()):
    """A comparable summary of a function or class: equal for two definitions of the same code (a class's
    members named in skip left out)."""
    obj = _unwrap(obj)
    if isinstance(obj, (staticmethod, classmethod)):
        return (type(obj).__name__, _key(obj.__func__))
    if isinstance(obj, property):
        return ("property", *(_key(f) if f else None for f in (obj.fget, obj.fset, obj.fdel)))
    if isinstance(obj, types.FunctionType):
        return ("function", _code_key(obj.__code__), repr(obj.__defaults__), repr(sorted((obj.__kwdefaults__ or {})
                                                                                         .items())))
    if isinstance(obj, type):
        members = {n: v for n, v in vars(obj).items() if n not in skip
                   and (not (n.startswith("__") and n.endswith("__")) or isinstance(v, types.FunctionType))}
        return ("class", tuple(b.__qualname__ for b in obj.__bases__),
                tuple(sorted((n, _key(v)) for n, v in members.items())))
    return ("value", repr(obj))


_PACKAGE_KEYS: dict[tuple, tuple] = {}


def _package_key(module: str, name: str, obj, skip: frozenset = frozenset()) -> tuple:
    """_key of the package's definition compiled again from its source by this interpreter, as the notebook's
    was (a .pyc written by another patch release of Python may hold other bytecode for the same source)."""
    if (module, name, skip) not in _PACKAGE_KEYS:
        import __future__
        import inspect
        import textwrap

        package = sys.modules[module]
        source = textwrap.dedent(inspect.getsource(_unwrap(obj)))
        flags = __future__.annotations.compiler_flag if vars(package).get("annotations") is __future__.annotations \
            else 0
        scope = dict(vars(package))
        exec(compile(source, package.__file__, "exec", flags=flags, dont_inherit=True), scope)  # noqa: S102
        _PACKAGE_KEYS[(module, name, skip)] = _key(scope[name], skip)
    return _PACKAGE_KEYS[(module, name, skip)]


def _same(new, module: str, name: str, original) -> bool:
    """Whether the notebook's definition `new` is the package's `original`, docstrings, comments and line
    numbers aside."""
    skip = frozenset(n for n, v in vars(new).items() if getattr(v, "__borrowed__", False)) \
        if isinstance(new, type) else frozenset()
    try:
        return _key(new, skip) == _package_key(module, name, original, skip)
    except Exception:  # noqa: BLE001 - anything we cannot compare counts as changed
        return False


def _lesson_modules():
    return [m for name, m in list(sys.modules.items())
            if m is not None and (name == "snippets" or name.startswith("snippets.")) and name != __name__]


def _rebind(old: list, new) -> None:
    """Every attribute of a lesson module that holds one of old now holds new."""
    ids = {id(o) for o in old}
    for m in _lesson_modules():
        for attr, value in list(vars(m).items()):
            if id(value) in ids and value is not new:
                setattr(m, attr, new)


class _Memo:
    """A cached lesson function while the notebook's definitions are in use: its results are kept in memory,
    for as long as the same definitions are in use (the disk cache holds the package's results)."""

    def __init__(self, cached, func=None):
        self.cached, self.func, self.results = cached, func or cached.func, {}

    def __call__(self, *args, **kwargs):
        import joblib

        key = joblib.hash((args, sorted(kwargs.items())))
        if key not in self.results:
            self.results[key] = self.func(*args, **kwargs)
        return self.results[key]

    def check_call_in_cache(self, *args, **kwargs) -> bool:
        """True: the lesson code computes what is not cached yet in other processes, which would run the
        package's definitions, not the notebook's; this way every call is computed here, when it is made."""
        return True


_STATE: list = []  # the edited definitions the memos were computed with


def _caches(on: bool) -> None:
    """The lesson package's cached computations (joblib, on disk) back on, or replaced by in-memory memos that
    are emptied whenever the notebook's edited definitions change."""
    memos = [v for m in _lesson_modules() for v in vars(m).values() if isinstance(v, _Memo)]
    if on:
        for m in _lesson_modules():
            for attr, value in list(vars(m).items()):
                if isinstance(value, _Memo):
                    setattr(m, attr, value.cached)
        return
    state = sorted((k, id(_NAMESPACES[k][k[1]])) for k in _EDITED)
    if state != _STATE and not _TRACE:  # traced definitions are the package's code: their results stand
        _STATE[:] = state
        for memo in memos:
            memo.results.clear()
    for m in _lesson_modules():
        for attr, value in list(vars(m).items()):
            if type(value).__name__.endswith("MemorizedFunc") and callable(getattr(value, "func", None)):
                setattr(m, attr, _Memo(value))


def _global_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _global_names(c)
    return names


def _rehome_function(f, package, namespace: dict):
    """A copy of the notebook's function f that looks its global names up in the package module (where the
    notebook's installed definitions are), as the package's own function does: a notebook is one namespace,
    and two lesson modules may use one private name for two things. A name the module lacks and the notebook
    has (a helper the reader added) is added to the module."""
    home = vars(package)
    if f.__globals__ is not namespace:  # already the package's, or not the notebook's (a decorator's wrapper)
        return f
    import builtins

    for name in _global_names(f.__code__):
        if name not in home and name in namespace and not hasattr(builtins, name):
            home[name] = namespace[name]
    copy = types.FunctionType(f.__code__, home, f.__name__, f.__defaults__, f.__closure__)
    copy.__kwdefaults__ = f.__kwdefaults__
    copy.__dict__.update(f.__dict__)
    copy.__doc__, copy.__annotations__, copy.__qualname__ = f.__doc__, dict(f.__annotations__), f.__qualname__
    copy.__module__ = package.__name__
    copy.__notebook_function__ = f  # what _unhome gives back
    return copy


def _unhome(obj):
    """obj as the notebook defined it, before _rehome (once the notebook's edits are undone, its definitions
    read the notebook's names again, as its own cells do)."""
    if isinstance(obj, types.FunctionType):
        return getattr(obj, "__notebook_function__", obj)
    if isinstance(obj, _Memo) and hasattr(obj.func, "__notebook_function__"):
        return _Memo(obj.cached, obj.func.__notebook_function__)
    if isinstance(obj, type) and "__notebook_methods__" in vars(obj):
        for n, v in vars(obj)["__notebook_methods__"].items():
            setattr(obj, n, v)
        delattr(obj, "__notebook_methods__")
    return obj


def _rehome(obj, package, namespace: dict):
    """obj as the package would hold it: functions look names up in the package module (a class keeps its
    identity, its methods are changed in place); a cached function is its plain function (caches are off
    while the notebook's definitions are in use)."""
    if isinstance(obj, _Memo):
        return _Memo(obj.cached, _rehome_function(obj.func, package, namespace)) \
            if obj.func.__globals__ is not vars(package) else obj
    if type(obj).__name__.endswith("MemorizedFunc") and isinstance(getattr(obj, "func", None), types.FunctionType):
        return _Memo(obj, _rehome_function(obj.func, package, namespace))
    if isinstance(obj, types.FunctionType):
        return _rehome_function(obj, package, namespace)
    if isinstance(obj, type):
        if "__notebook_methods__" not in vars(obj):
            obj.__notebook_methods__ = {n: v for n, v in vars(obj).items()
                                        if isinstance(v, (types.FunctionType, staticmethod, classmethod, property))}
        for n, v in list(vars(obj).items()):
            if isinstance(v, types.FunctionType):
                setattr(obj, n, _rehome_function(v, package, namespace))
            elif isinstance(v, (staticmethod, classmethod)) and isinstance(v.__func__, types.FunctionType):
                setattr(obj, n, type(v)(_rehome_function(v.__func__, package, namespace)))
            elif isinstance(v, property):
                setattr(obj, n, property(*(_rehome_function(f, package, namespace) if isinstance(f, types.FunctionType)
                                           else f for f in (v.fget, v.fset, v.fdel)), v.__doc__))
    return obj


def _cell() -> int:
    """The number of the cell running now (0 outside IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return 0
    shell = get_ipython()
    return shell.execution_count if shell is not None else 0


def _traced(obj, key):
    """obj, recording in _CALLED when a later cell calls it (a class: any of its own methods)."""
    def wrap(f):
        import functools

        @functools.wraps(f)
        def called(*args, **kwargs):
            if _cell() > _DEFINED_IN.get(key, 0):
                _CALLED.add(key)
            return f(*args, **kwargs)
        return called

    if isinstance(obj, type):
        for n, v in list(vars(obj).items()):
            if isinstance(v, types.FunctionType):
                setattr(obj, n, wrap(v))
        return obj
    if isinstance(obj, _Memo):
        obj.func = wrap(obj.func)
        return obj
    if isinstance(obj, types.FunctionType):
        return wrap(obj)
    if callable(obj) and hasattr(obj, "cache_clear") and isinstance(getattr(obj, "__wrapped__", None),
                                                                     types.FunctionType):
        traced = wrap(obj)  # functools.lru_cache: a call is recorded whether or not the cache answers it
        traced.cache_clear, traced.cache_info = obj.cache_clear, obj.cache_info
        return traced
    return obj


def use_definitions(namespace: dict, module: str, names: list[str]) -> None:
    """Register the notebook's definitions `names` (from module). If any registered definition differs from
    the package's, the lesson code uses every registered one (all of them, so that a class the reader
    edited and a class it meets in an isinstance check are both the notebook's) and the package's cached
    computations are off; if none differs, the package's own definitions and caches are back in place.

    A notebook's definition is compared with the package's source compiled again, as the notebook compiled
    it (the package's own object, compiled inside its module, may hold other bytecode).
    tests/test_notebook_edits.py shows it at work.
    """
    if not isinstance(namespace, dict):
        raise ValueError(f"expected the notebook's globals() as namespace, got {type(namespace).__name__}")
    package = importlib.import_module(module)
    for name in names:
        if name not in namespace:
            raise ValueError(f"expected the notebook to define {name!r} before this line, it does not")
        if not hasattr(package, name):
            raise ValueError(f"expected {module} to define {name!r}, it does not")
        key = (module, name)
        _INSTALLED.setdefault(key, [getattr(package, name)])
        _NAMESPACES[key] = namespace
        if _TRACE:
            _DEFINED_IN[key] = _cell()
            namespace[name] = _traced(_rehome(namespace[name], package, namespace), key)
    _EDITED.clear()
    _EDITED.update(k for k, history in _INSTALLED.items()
                   if _TRACE or not _same(_NAMESPACES[k][k[1]], k[0], k[1], history[0]))
    for (mod, name), history in _INSTALLED.items():
        ns = _NAMESPACES[(mod, name)]
        if _EDITED:
            ns[name] = target = _rehome(ns[name], sys.modules[mod], ns)
        else:
            ns[name], target = _unhome(ns[name]), history[0]
        _rebind(history, target)
        if all(target is not h for h in history):
            history.append(target)
    _caches(on=not _EDITED)


def reset_definitions() -> None:
    """Put the package's own definitions and caches back and forget every registered definition (what
    re-running a notebook from a fresh kernel does; tests that run notebook cells in one process call it)."""
    for history in _INSTALLED.values():
        _rebind(history, history[0])
    for key, ns in _NAMESPACES.items():
        if key[1] in ns:
            ns[key[1]] = _unhome(ns[key[1]])
    _EDITED.clear()
    _caches(on=True)
    _INSTALLED.clear()
    _NAMESPACES.clear()


def edited() -> list[str]:
    """The definitions the notebook has changed, as 'module.name'."""
    return sorted(f"{m}.{n}" for m, n in _EDITED)


def trace_report() -> str:
    """JSON: the definitions installed by use_definitions, and those a later cell called (MHA_NOTEBOOK_TRACE=1)."""
    return json.dumps({"shown": sorted(f"{m}.{n}" for m, n in _DEFINED_IN),
                       "called": sorted(f"{m}.{n}" for m, n in _CALLED)})
