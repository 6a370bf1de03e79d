"""Jupyter notebooks for the chapters, generated from the pages and the snippets they include.

Split by job: ``parse`` reads a page, ``imports`` works out which imports a cell needs,
``build`` makes the notebook, ``run`` executes it (cached by content), ``wheel`` packs the lesson code that
a downloaded notebook installs from the site, ``cli`` writes them all:

    python -m sitebuild.notebooks --out notebooks --execute

The site builds them in ``sitebuild/hooks/notebooks.py``.
"""

from .build import (KERNEL, RUN_MARKER, build_notebook, heading_ids, needs, page_url, readme_with_instructions,
                    run_instructions, setup_cell, site_file_url)
from .cli import all_notebooks, code_sources, main, site_settings
from .imports import bound_names, context_imports, free_names, module_name, strip_magics, with_context
from .parse import DEFAULT_LANG, LANGS, Part, fence_options, language_pages, page_parts, snippet_expander
from .run import Background, NotebookError, cache_key, cache_path, dependencies, execute, execute_all, executed_path, current_path, is_executed, merge_streams, this_python_kernel

__all__ = [
    "KERNEL", "RUN_MARKER", "readme_with_instructions", "run_instructions", "build_notebook", "heading_ids", "page_url", "needs", "setup_cell", "site_file_url", "all_notebooks", "code_sources", "main", "site_settings",
    "bound_names", "context_imports", "free_names", "module_name", "strip_magics", "with_context", "DEFAULT_LANG",
    "LANGS", "Part", "fence_options", "language_pages", "page_parts", "snippet_expander", "Background", "NotebookError",
    "cache_key", "cache_path", "dependencies", "execute", "execute_all", "executed_path", "current_path", "is_executed", "merge_streams",
    "this_python_kernel",
]
