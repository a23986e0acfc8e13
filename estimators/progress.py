"""Progress bars (tqdm, on stderr) inside long work: score grids, the backbone DP, EM.

Off by default. :func:`show_progress` turns them on for a block of code (the ``kgraph``
command does, unless ``--quiet``); :func:`progress` wraps a loop and draws a bar only
then. The switch is a context variable: it does not reach joblib worker processes, whose
loops stay silent.

Examples
--------
>>> with show_progress(False):
...     sum(progress(range(3), "demo"))
3
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Any

_ENABLED: ContextVar[bool] = ContextVar("kgraph_progress", default=False)

__all__ = ["progress", "progress_enabled", "show_progress"]


def progress_enabled() -> bool:
    """Whether :func:`progress` draws bars here."""
    return _ENABLED.get()


@contextlib.contextmanager
def show_progress(enabled: bool = True) -> Iterator[None]:
    """Draw (or, with ``enabled=False``, hide) progress bars inside the block."""
    token = _ENABLED.set(bool(enabled))
    try:
        yield
    finally:
        _ENABLED.reset(token)


def progress(iterable: Iterable, desc: str, total: int | None = None, **kwargs: Any) -> Iterable:
    """``iterable`` itself, or a tqdm bar over it when progress is on (bars vanish when done)."""
    if not _ENABLED.get():
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, total=total, leave=False, **kwargs)
