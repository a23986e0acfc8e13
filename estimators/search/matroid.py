"""The matroid greedy algorithm (Kruskal is its graphic-matroid case; paper 1 §4.2)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["MatroidBasisResult", "greedy_matroid_basis"]


@dataclass(frozen=True)
class MatroidBasisResult:
    """The greedy basis: ``structure`` (the chosen elements in selection order) and
    ``score`` (their total weight); ``weights`` the chosen weights in that order.

    Examples
    --------
    >>> from estimators.search import greedy_matroid_basis
    >>> res = greedy_matroid_basis("abcd", [1.0, 3.0, 3.0, 2.0], lambda s: len(s) <= 2)
    >>> type(res).__name__, res.structure, res.weights, res.score
    ('MatroidBasisResult', ('b', 'c'), (3.0, 3.0), 6.0)
    """

    structure: tuple
    score: float
    weights: tuple[float, ...]


def greedy_matroid_basis(elements: Sequence[Hashable], weight: Callable[[Hashable], float] | Sequence[float],
                         is_independent: Callable[[list], bool]) -> MatroidBasisResult:
    """A maximum-weight basis of a matroid by the greedy algorithm.

    Elements are taken by decreasing weight (ties: in the order given) and kept whenever the
    kept set stays independent. For a matroid this is an optimal basis (Rado–Edmonds).

    Parameters
    ----------
    elements : sequence
        The ground set.
    weight : callable or sequence of float
        ``weight(e)``, or the weights aligned with ``elements``.
    is_independent : callable
        The independence oracle on a list of elements.

    Returns
    -------
    MatroidBasisResult

    Examples
    --------
    Uniform matroid of rank 2 (any two elements are independent):

    >>> from estimators.search.matroid import greedy_matroid_basis
    >>> res = greedy_matroid_basis("abcd", [1.0, 3.0, 3.0, 2.0], lambda s: len(s) <= 2)
    >>> res.structure, res.score
    (('b', 'c'), 6.0)
    """
    elements = list(elements)
    w = np.array([weight(e) for e in elements] if callable(weight) else list(weight), float)
    if w.shape != (len(elements),):
        raise ValueError(f"weight gives {w.size} values for {len(elements)} elements.")
    if np.isnan(w).any():
        bad = elements[int(np.flatnonzero(np.isnan(w))[0])]
        raise ValueError(f"The weight of element {bad!r} is NaN.")
    chosen: list = []
    kept: list[float] = []
    for i in np.argsort(-w, kind="stable"):
        if is_independent(chosen + [elements[i]]):
            chosen.append(elements[i])
            kept.append(float(w[i]))
    return MatroidBasisResult(tuple(chosen), float(sum(kept)), tuple(kept))
