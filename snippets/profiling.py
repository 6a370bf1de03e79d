"""What torch.profiler saw during a block of code: the operators that ran, without its console noise.

>>> import torch
>>> with recorded_ops() as ops:
...     torch.softmax(torch.zeros(2, 3), dim=-1)
tensor(...)
>>> "aten::softmax" in ops
True
"""

from __future__ import annotations

import contextlib
import os
import sys

__all__ = ["quiet_stderr", "recorded_ops"]


@contextlib.contextmanager
def quiet_stderr():
    """Silence the profiler's start/stop lines, which its C++ side writes straight to file descriptor 2."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def recorded_ops():
    """`with recorded_ops() as ops:` runs the block under the CPU profiler; afterwards ops is the set of
    the names of the operators it recorded (e.g. "aten::_native_multi_head_attention")."""
    from torch.profiler import ProfilerActivity, profile

    ops: set[str] = set()
    with quiet_stderr(), profile(activities=[ProfilerActivity.CPU]) as prof:
        yield ops
    ops.update(e.name for e in prof.events())
