"""Hyperedges given as arrays of positions: :class:`PositionsCMI`, the checks, integer keys
and a sorted-key cache.

A hyperedge ``(v, P)`` of a fitted score over ``d`` variables is given by the position
``v`` and the row ``P`` of ascending positions (one parent count per call), so that many
are scored without a frozenset, tuple or dict entry each (``score_positions`` of
:class:`~estimators.scores.GaussianCMI` and
:class:`~estimators.scores.ConditionalGaussianScore`, which the backbone DP's score tables
use). Values are cached under integer keys -- the members in base ``d``, or a parent
set's colexicographic rank (:func:`subset_rank`) -- in a dense array per size where the key
space is small enough, else under sorted keys (:func:`cached`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections import defaultdict
from collections.abc import Callable, Sequence
from math import comb

import numpy as np
from sklearn.utils.validation import check_is_fitted

from estimators.base.validation import UndefinedScoreError
from estimators.scores._score_base import BaseCMI

__all__ = ["PositionsCMI", "cached", "check_positions", "positions_key", "score_keys",
           "subset_rank", "undefined_score"]

#: keys in base d must stay below this (int64 with a margin)
KEY_LIMIT = 2.0**62
#: key spaces up to this size are cached in dense arrays (8 bytes and a flag per key)
DENSE_KEYS = 1 << 23


def check_positions(owner: str, V, P, d: int, max_parents: int | None):
    """``(V, P)`` as int64 arrays (N,) and (N, j), checked: each row of ``P`` strictly
    ascending positions in ``0 .. d - 1`` without its vertex, ``1 <= j <= max_parents``.

    Examples
    --------
    >>> V, P = check_positions("f", [2], [[0, 1]], 3, None)
    >>> V.tolist(), P.tolist()
    ([2], [[0, 1]])
    >>> check_positions("f", [1], [[1, 2]], 3, None)
    Traceback (most recent call last):
    ...
    ValueError: f.score_positions: each row of P must be 1 or more strictly ascending positions in 0 .. 2, without its vertex.
    """
    V = np.asarray(V, dtype=np.int64).reshape(-1)
    P = np.asarray(P, dtype=np.int64).reshape(V.size, -1)
    j = P.shape[1]
    if V.size:
        members = np.column_stack([V, P])
        if (j < 1 or members.min() < 0 or members.max() >= d
                or (np.diff(P, axis=1) <= 0).any() or (P == V[:, None]).any()):
            raise ValueError(f"{owner}.score_positions: each row of P must be 1 or more "
                             f"strictly ascending positions in 0 .. {d - 1}, without its "
                             "vertex.")
    if max_parents is not None and j > max_parents:
        raise ValueError(f"{owner} supports at most {max_parents} parent(s); got {j}.")
    return V, P


def positions_key(members: np.ndarray, d: int) -> np.ndarray | None:
    """One int64 key per row of ``members`` (N, s), the row read as digits in base ``d``;
    None when such keys could overflow."""
    s = members.shape[1]
    if float(d) ** s >= KEY_LIMIT:
        return None
    return members @ (d ** np.arange(s - 1, -1, -1, dtype=np.int64))


def subset_rank(S: np.ndarray, d: int) -> tuple[np.ndarray, int]:
    """The colexicographic rank of each row of ``S`` (N, j) -- an ascending j-subset of
    ``0 .. d - 1`` -- and the number of such subsets, ``C(d, j)`` (a dense key space).

    Examples
    --------
    >>> import numpy as np
    >>> subset_rank(np.array([[0, 1], [0, 2], [1, 2], [0, 3]]), 4)
    (array([0, 1, 2, 3]), 6)
    """
    j = S.shape[1]
    binom = np.array([[comb(i, c) for c in range(1, j + 1)] for i in range(d)], dtype=np.int64)
    return binom[S, np.arange(j)].sum(axis=1), comb(d, j)


def cached(cache: dict, name, key: np.ndarray, compute: Callable[[np.ndarray], np.ndarray],
           n_keys: int | None = None) -> np.ndarray:
    """The values of ``key`` (N,) from ``cache[name]``, computing the missing ones once
    each: ``compute(rows)`` gets the rows of ``key`` to compute (one per missing key, in
    row order) and returns their values (along axis 0).

    With ``n_keys`` (keys in ``0 .. n_keys - 1``) up to :data:`DENSE_KEYS`, the values live
    in a dense array (a lookup is a gather); otherwise under sorted keys (a lookup is a
    binary search).

    Examples
    --------
    >>> import numpy as np
    >>> cache, calls = {}, []
    >>> def square(rows):
    ...     calls.append(rows.size)
    ...     return np.asarray(keys[rows], float) ** 2
    >>> keys = np.array([3, 1, 3])
    >>> cached(cache, 1, keys, square).tolist(), calls
    ([9.0, 1.0, 9.0], [2])
    >>> keys = np.array([1, 2])
    >>> cached(cache, 1, keys, square).tolist(), calls
    ([1.0, 4.0], [2, 1])
    >>> keys = np.array([3, 1, 3])
    >>> cached({}, 1, keys, square, n_keys=5).tolist(), calls[-1]
    ([9.0, 1.0, 9.0], 2)
    """
    if n_keys is not None and n_keys <= DENSE_KEYS:
        return _cached_dense(cache, name, key, compute, n_keys)
    known, vals = cache.get(name, (np.zeros(0, dtype=np.int64), None))
    if known.size:
        at = np.minimum(np.searchsorted(known, key), known.size - 1)
        hit = known[at] == key
        if hit.all():
            return vals[at]
    else:
        hit = np.zeros(key.size, dtype=bool)
    rows = np.sort(np.flatnonzero(~hit)[np.unique(key[~hit], return_index=True)[1]])
    new_keys, new = key[rows], np.asarray(compute(rows))
    if vals is not None:
        new_keys = np.concatenate([known, new_keys])
        new = np.concatenate([vals, new])
    order = np.argsort(new_keys, kind="stable")
    cache[name] = known, vals = new_keys[order], new[order]
    return vals[np.searchsorted(known, key)]


def _cached_dense(cache: dict, name, key: np.ndarray,
                  compute: Callable[[np.ndarray], np.ndarray], n_keys: int) -> np.ndarray:
    """:func:`cached` in a dense array of ``n_keys`` values (and a mask of those known)."""
    known, vals = cache.get(name, (None, None))
    if known is None:
        known = np.zeros(n_keys, dtype=bool)
    hit = known[key]
    if hit.all():
        return vals[key]
    miss = np.flatnonzero(~hit)
    first = np.empty(n_keys, dtype=np.int64)  # each missing key's first row (no sort)
    first[key[miss[::-1]]] = miss[::-1]
    rows = miss[first[key[miss]] == miss]
    new = np.asarray(compute(rows))
    if vals is None:
        vals = np.empty((n_keys, *new.shape[1:]), dtype=new.dtype)
    vals[key[rows]] = new
    known[key[rows]] = True
    cache[name] = known, vals
    return vals[key]


def score_keys(keys: Sequence[tuple[int, frozenset]],
               score_positions: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """Values of resolved hyperedges ``(v, parent positions)`` through ``score_positions``,
    one call per parent count (an empty parent set is 0)."""
    out = np.zeros(len(keys))
    by_size: dict[int, list] = defaultdict(list)
    for i, (_, ps) in enumerate(keys):
        if ps:
            by_size[len(ps)].append(i)
    for j, idx in by_size.items():
        V = np.array([keys[i][0] for i in idx], dtype=np.int64)
        P = np.array([sorted(keys[i][1]) for i in idx], dtype=np.int64).reshape(-1, j)
        out[idx] = score_positions(V, P)
    return out


def undefined_score(owner: str, names: Sequence, v: int, parents) -> UndefinedScoreError:
    """The error for a NaN score of the hyperedge ``(v, parents)`` (positions in
    ``names``)."""
    return UndefinedScoreError(
        f"{owner}: the score of variable {names[v]!r} with parents "
        f"{sorted((names[p] for p in parents), key=str)} is NaN (e.g. perfectly collinear "
        "parents); only finite or +inf scores are accepted.")


class PositionsCMI(BaseCMI):
    """A score answering hyperedges as arrays of positions: :meth:`score_positions` (the
    checks and the NaN policy) around the subclass's ``_positions(V, P)``, and
    :meth:`score_many` through it (one call per parent count)."""

    @abstractmethod
    def _positions(self, V: np.ndarray, P: np.ndarray) -> np.ndarray:
        """The values of checked, non-empty ``(V, P)`` (cached by the subclass)."""

    def _items_path(self, V: np.ndarray, P: np.ndarray) -> np.ndarray:
        """The values through :meth:`BaseCMI.score_many` (names, the dict cache)."""
        names = self.variables_
        return BaseCMI.score_many(self, [(names[v], [names[p] for p in ps])
                                         for v, ps in zip(V.tolist(), P.tolist(), strict=True)])

    def score_many(self, items) -> np.ndarray:
        """Score many hyperedges at once (see :meth:`BaseCMI.score_many`), through
        :meth:`score_positions` and its cache."""
        check_is_fitted(self, "data_")
        return score_keys([self._resolve(v, p) for v, p in items], self.score_positions)

    def score_positions(self, V, P) -> np.ndarray:
        """``f(v, P)`` of hyperedges given by positions in ``variables_``, cached: no
        Python work per hyperedge beyond what is not cached yet.

        Parameters
        ----------
        V : array-like of int, shape (N,)
            The vertices.
        P : array-like of int, shape (N, j)
            Their parents, each row strictly ascending, without the vertex (one parent
            count per call; ``j >= 1``).

        Returns
        -------
        ndarray of shape (N,)

        Raises
        ------
        ValueError
            If a row is not ascending, holds its vertex or a position out of range, or
            a value is NaN (:class:`~estimators.base.validation.UndefinedScoreError`).

        Examples
        --------
        >>> import numpy as np
        >>> from estimators.scores import GaussianCMI
        >>> rng = np.random.default_rng(0)
        >>> f = GaussianCMI().fit(rng.normal(size=(200, 4)), rng.integers(0, 2, 200))
        >>> vals = f.score_positions([0, 3], [[1, 2], [0, 1]])
        >>> bool(vals[0] == f(0, {1, 2})), bool(vals[1] == f(3, {0, 1}))
        (True, True)
        """
        check_is_fitted(self, "data_")
        owner = type(self).__name__
        V, P = check_positions(owner, V, P, self.n_features_in_, self._max_parents)
        if V.size == 0:
            return np.zeros(0)
        out = self._positions(V, P)
        bad = np.flatnonzero(np.isnan(out))
        if bad.size:
            raise undefined_score(owner, self.variables_, V[bad[0]], P[bad[0]])
        return out
