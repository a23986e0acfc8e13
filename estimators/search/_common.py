"""Input checks and score tables shared by the searchers."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import combinations, starmap
from math import comb
from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from estimators.base.user_warnings import warn_user
from estimators.base.validation import UndefinedScoreError

__all__ = ["WIDTH", "Score", "check_k", "check_backbone", "fit_width", "own_edge_matrix", "resolve_variables",
           "score_values",
           "nan_score_error", "combination_table", "colex_rank", "binomial_table"]

Score = Callable[[Hashable, frozenset], float]

#: the rule on a k-tree width the table does not decide: an int >= 1 (the constraint of
#: every classifier's declared ``k``, and what :func:`check_k` checks for the searchers)
WIDTH = Interval(Integral, 1, None, closed="left")


def check_k(k: object, n: int, *, owner: str | None = None, param: str = "k",
            offset: int = 0) -> int:
    """``k`` as an int in ``[1, n - 1]`` (a k-tree on n vertices needs n >= k + 1).

    The one size policy of the package. A searcher (``owner=None``) raises on a ``k`` that is
    too large; a classifier (``owner`` its name) lowers it to ``n - 1`` with one
    ``UserWarning``. ``param`` and ``offset`` name the parameter the user set when it is
    not ``k`` itself (k-GNB's ``order = k + 2``).

    Raises
    ------
    TypeError
        If ``k`` is not an int.
    ValueError
        If ``k < 1``, ``n < 2``, or ``k >= n`` for a searcher.

    Examples
    --------
    >>> import warnings
    >>> check_k(2, 5)
    2
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     check_k(4, 3, owner="KGNBClassifier", param="order", offset=2)
    2
    >>> print(caught[0].message)
    KGNBClassifier(order=6) needs at least 5 features; X has 3, so order=4 is used.
    """
    if isinstance(k, bool) or not isinstance(k, Integral):
        raise TypeError(f"k must be an int in [1, {n - 1}]; got {k!r} of type {type(k).__name__}.")
    if owner is not None and WIDTH.is_satisfied_by(k) and (n < 2 or k >= n):
        return fit_width(k, n, owner, param=param, offset=offset)
    if not (WIDTH.is_satisfied_by(k) and k <= n - 1):
        raise ValueError(
            f"k must be an int in [1, {n - 1}] (k < number of variables = {n}); got {k}."
        )
    return int(k)


def fit_width(k: int, n: int, owner: str, *, param: str = "k", offset: int = 0) -> int:
    """The width a classifier fits on ``n`` features: its ``k``, already validated at
    ``fit`` by its declared constraint (an int >= 1; not checked again here), lowered to
    ``n - 1`` with one ``UserWarning`` when the table is too narrow (``param`` and
    ``offset`` name the parameter the user set, as in :func:`check_k`).

    Raises
    ------
    ValueError
        If ``n < 2`` (no k-tree to learn).

    Examples
    --------
    >>> fit_width(2, 5, "KTANClassifier")
    2
    """
    assert WIDTH.is_satisfied_by(k), k  # the template validated it (the declared k)
    if n < 2:
        raise ValueError(f"{owner} needs at least 2 features to learn a k-tree; X has {n} "
                         "feature(s).")
    if k >= n:
        lowered = n - 1
        warn_user(
            f"{owner}({param}={k + offset}) needs at least {k + 1} features; X has {n}, so "
            f"{param}={lowered + offset} is used.", UserWarning)
        return lowered
    return int(k)


def check_backbone(backbone: Iterable[Hashable],
                   variables: Sequence[Hashable] | None = None) -> tuple:
    """The backbone as a tuple of variables, checked to be a permutation of ``variables``
    (when known): the one backbone validator of the package.

    An entry is a variable, or else an int column index into ``variables``. Raises
    ``ValueError`` naming the repeated, unknown or missing variables.

    Examples
    --------
    >>> check_backbone(["b", 0, "c"], ["a", "b", "c"])
    ('b', 'a', 'c')
    >>> check_backbone(["a", "a", "c"], ["a", "b", "c"])
    Traceback (most recent call last):
    ...
    ValueError: The backbone repeats variable(s) ['a']; it must be a permutation of the variables ['a', 'b', 'c'].
    """
    where = "The backbone"
    entries = tuple(backbone)
    if variables is None:
        out = entries
    else:
        variables = list(variables)
        known = set(variables)
        resolved = []
        for v in entries:
            if v in known:
                resolved.append(v)
            elif isinstance(v, int | np.integer) and not isinstance(v, bool) \
                    and 0 <= v < len(variables):
                resolved.append(variables[int(v)])
            else:
                raise ValueError(
                    f"{where} has {v!r}, which is neither a variable nor a column index in "
                    f"[0, {len(variables) - 1}]; the variables are {variables!r}.")
        out = tuple(resolved)
    seen: set = set()
    repeated = []
    for v in out:
        if v in seen and v not in repeated:
            repeated.append(v)
        seen.add(v)
    tail = ("the variables" if variables is None else f"the variables {variables!r}")
    if repeated:
        raise ValueError(f"{where} repeats variable(s) {repeated!r}; it must be a permutation "
                         f"of {tail}.")
    if variables is not None:
        missing = [v for v in variables if v not in seen]
        if missing:
            raise ValueError(f"{where} misses variable(s) {missing!r}; it must be a "
                             f"permutation of {tail}.")
    return out


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


def own_edge_matrix(f, variables: Sequence[Hashable]) -> np.ndarray:
    """``f.edge_matrix()`` (in the order of ``f.variables_``) rearranged to ``variables``,
    a permutation of them (a searcher may be handed the variables in another order).

    Examples
    --------
    >>> class F:
    ...     variables_ = ["a", "b"]
    ...     def edge_matrix(self):
    ...         return np.array([[0.0, 1.0], [2.0, 0.0]])
    >>> own_edge_matrix(F(), ["b", "a"]).tolist()
    [[0.0, 2.0], [1.0, 0.0]]
    """
    W = np.asarray(f.edge_matrix(), dtype=float)
    own = list(getattr(f, "variables_", None) or variables)
    variables = list(variables)
    if own == variables or len(own) != len(variables) or set(own) != set(variables):
        return W
    at = {v: i for i, v in enumerate(own)}
    perm = [at[v] for v in variables]
    return W[np.ix_(perm, perm)]


def score_values(f: Score, items: Sequence[tuple[Hashable, frozenset]]) -> np.ndarray:
    """``f(v, P)`` for each item as a float array, through ``f.score_many`` when it has one.

    Raises :class:`~estimators.base.validation.UndefinedScoreError` (a ``ValueError``) naming the
    vertex and parent set of the first NaN.
    """
    if not items:
        return np.zeros(0)
    many = getattr(f, "score_many", None)
    if callable(many):
        values = np.asarray(many(items), dtype=float)
    else:
        values = np.fromiter(starmap(f, items), dtype=float, count=len(items))
    bad = np.flatnonzero(np.isnan(values))
    if bad.size:
        raise nan_score_error(*items[bad[0]])
    return values


def nan_score_error(v: Hashable, parents) -> UndefinedScoreError:
    """The error for a score that returned NaN at ``(v, parents)``."""
    return UndefinedScoreError(f"The score returned NaN for v={v!r} with parents="
                               f"{sorted(parents, key=repr)!r}; scores must be numbers (not "
                               "NaN).")


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
