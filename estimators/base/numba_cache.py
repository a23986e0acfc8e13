"""``numba.njit`` with a disk cache where numba finds a writable place for it.

The compiled kernels (:mod:`estimators.scores._cg_kernel`,
:mod:`estimators.search._backbone_kernel`) cache their machine code beside their module, or,
where the package directory is read-only, in the user's cache directory (numba's own
fallback). Where neither is writable numba raises RuntimeError when the function is
decorated; the kernel is then compiled without a cache, again in each process, instead of
failing at import.
"""

from __future__ import annotations

from collections.abc import Callable

from numba import njit

__all__ = ["jit"]


def jit(*signatures, **options) -> Callable:
    """A decorator: ``numba.njit(*signatures, cache=True, **options)``, or without the
    cache where numba finds no writable cache directory.

    A signature (numba's string form) compiles that one specialisation when the function
    is decorated, and calls with other array layouts convert to it instead of compiling
    another (e.g. ``"float64[:]"`` takes contiguous and strided arrays alike).

    Examples
    --------
    >>> import numpy as np
    >>> @jit()
    ... def total(a):
    ...     s = 0.0
    ...     for x in a:
    ...         s += x
    ...     return s
    >>> float(total(np.arange(4.0)))
    6.0
    """
    def wrap(fn: Callable) -> Callable:
        try:
            return njit(*signatures, cache=True, **options)(fn)
        except RuntimeError:
            return njit(*signatures, **options)(fn)
    return wrap
