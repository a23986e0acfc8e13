"""Input checks and score tables shared by the searchers."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import combinations
from math import comb

import numpy as np

__all__ = ["Score", "check_k", "check_backbone", "resolve_variables", "score_values",
           "combination_table", "colex_rank", "binomial_table"]

Score = Callable[[Hashable, frozenset], float]


def check_k(k: object, n: int) -> int:
    """``k`` as an int in ``[1, n - 1]`` (a k-tree on n vertices needs n >= k + 1)."""
    if isinstance(k, bool) or not isinstance(k, int | np.integer):
        raise TypeError(f"k must be an int in [1, {n - 1}]; got {k!r} of type {type(k).__name__}.")
    if not 1 <= k <= n - 1:
        raise ValueError(
            f"k must be an int in [1, {n - 1}] (k < number of variables = {n}); got {k}."
        )
    return int(k)


def check_backbone(backbone: Iterable[Hashable],
                   variables: Sequence[Hashable] | None = None) -> tuple:
    """The backbone as a tuple, checked to be a permutation of ``variables`` (when known).

    Raises ``ValueError`` naming the repeated, unknown or missing vertex.
    """
    backbone = tuple(backbone)
    seen: set = set()
    for v in backbone:
        if v in seen:
            raise ValueError(f"The backbone repeats vertex {v!r}; it must be a permutation "
                             "of the variables.")
        seen.add(v)
    if variables is not None:
        known = set(variables)
        unknown = [v for v in backbone if v not in known]
        if unknown:
            raise ValueError(f"The backbone has vertex {unknown[0]!r}, which is not a variable; "
                             f"the variables are {list(variables)!r}.")
        missing = [v for v in variables if v not in seen]
        if missing:
            raise ValueError(f"The backbone misses vertex {missing[0]!r}; it must be a "
                             "permutation of the variables.")
    return backbone


def resolve_variables(f: object, variables: Sequence[Hashable] | None) -> list:
    """The variables a score is about: given, or the fitted score's ``variables_``."""
    if variables is None:
        variables = getattr(f, "variables_", None)
    if variables is None:
        raise ValueError("Pass variables=[...]: the score has no 'variables_' attribute to "
                         "take them from.")
    variables = list(variables)
    if len(set(variables)) != len(variables):
        raise ValueError(f"The variables repeat a name: {variables!r}.")
    return variables


def score_values(f: Score, items: Sequence[tuple[Hashable, frozenset]]) -> np.ndarray:
    """``f(v, P)`` for each item as a float array, through ``f.score_many`` when it has one.

    Raises ``ValueError`` naming the vertex and parent set of the first NaN.
    """
    if not items:
        return np.zeros(0)
    many = getattr(f, "score_many", None)
    if callable(many):
        values = np.asarray(many(items), dtype=float)
    else:
        values = np.fromiter((f(v, p) for v, p in items), dtype=float, count=len(items))
    bad = np.flatnonzero(np.isnan(values))
    if bad.size:
        v, p = items[bad[0]]
        raise ValueError(f"The score returned NaN for v={v!r} with parents="
                         f"{sorted(p, key=repr)!r}; scores must be numbers (not NaN).")
    return values


def binomial_table(n: int, m: int) -> np.ndarray:
    """``B[i, j] = C(i, j)`` for ``0 <= i <= n``, ``0 <= j <= m``."""
    return np.array([[comb(i, j) for j in range(m + 1)] for i in range(n + 1)], dtype=np.int64)


def colex_rank(rows: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Colexicographic rank of each sorted row (a subset of ``range(n)``)."""
    rows = np.asarray(rows, dtype=np.int64)
    if rows.shape[1] == 0:
        return np.zeros(rows.shape[0], dtype=np.int64)
    return binom[rows, np.arange(1, rows.shape[1] + 1)].sum(axis=1)


def combination_table(n: int, m: int, binom: np.ndarray) -> np.ndarray:
    """All m-subsets of ``range(n)`` as sorted rows, row i having colex rank i."""
    rows = np.array(list(combinations(range(n), m)), dtype=np.int64).reshape(comb(n, m), m)
    out = np.empty_like(rows)
    out[colex_rank(rows, binom)] = rows
    return out
