"""Parametrisations whose default run keeps a representative subset (issue 49: the README
test command within 5 minutes on two cores): the other cases carry the ``slow`` mark, which
``.ci/run`` runs in its own step (``python -m pytest -q -m slow``), so every case still runs
in CI."""

from __future__ import annotations

from collections.abc import Iterable

import pytest


def _values(case) -> tuple:
    return case if isinstance(case, tuple) else (case,)


def representative(cases: Iterable, keep: Iterable) -> list:
    """``cases`` as ``pytest.param``, those not in ``keep`` marked ``slow``.

    A case is a value (one argument) or a tuple (several arguments); the ids are pytest's
    own, so a case keeps its test id whichever step runs it.

    >>> [[m.name for m in p.marks] for p in representative([1, 2], keep=[2])]
    [['slow'], []]
    >>> representative([1], keep=[3])
    Traceback (most recent call last):
    ...
    ValueError: kept case(s) [3] are not among the cases
    """
    cases, keep = list(cases), list(keep)
    missing = [k for k in keep if k not in cases]
    if missing:
        raise ValueError(f"kept case(s) {missing} are not among the cases")
    return [pytest.param(*_values(c), marks=() if c in keep else pytest.mark.slow)
            for c in cases]
