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
    """``iterable`` itself, or, when progress is on, the same items with a tqdm bar.

    The bar opens once the first item's work is done (when the second item is asked for:
    a loop that stops after one item, or has none, draws nothing), and closes, and so
    vanishes, when the loop ends, breaks, or the iterator is dropped: a bar never stays on
    screen after its loop.

    Examples
    --------
    >>> with show_progress():
    ...     for i in progress(iter(int, 1), "stops at once"):
    ...         break
    >>> i
    0
    """
    if not _ENABLED.get():
        return iterable
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)
    return _with_bar(iterable, desc, total, kwargs)


def _with_bar(iterable: Iterable, desc: str, total: int | None,
              kwargs: dict[str, Any]) -> Iterator:
    from tqdm.auto import tqdm

    bar = None
    try:
        for i, item in enumerate(iterable):
            if i == 1:
                bar = tqdm(desc=desc, total=total, initial=1, leave=False, **kwargs)
            elif bar is not None:
                bar.update()
            yield item
    finally:
        if bar is not None:
            bar.close()
