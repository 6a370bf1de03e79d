"""What a downloaded notebook needs from the lesson package besides the lessons themselves.

``download_results`` fetches the committed measurements (``results/*.json``) from the site: timings are
measured once, on the machine that builds the site, and a notebook shows them rather than timing again.
Inside the repository it fetches nothing (they are in ``results/``); outside it they go to the cache
folder, where ``results_dir()`` finds them.

``borrow_methods`` completes a class that a page shows in part: the notebook defines the class as the
page shows it, then takes the methods the page leaves out (a helper such as ``_check``) from the
package's class, made to read the notebook's names, so that ``isinstance(cache, KVCache)`` in a borrowed
method means the notebook's KVCache.
"""

from __future__ import annotations

import types

from resultcache import download_results, results_dir

from .i18n import text

__all__ = ["download_results", "fetch_results", "results_dir", "borrow_methods"]


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
        setattr(cls, name, copy)
