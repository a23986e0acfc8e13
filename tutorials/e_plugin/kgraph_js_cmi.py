"""The James–Stein shrinkage estimate of class-conditional mutual information, as a kgraph
structure score (a plug-in: this module imports nothing from kgraph).

Hausser, J. and Strimmer, K. (2009). Entropy inference and the James–Stein estimator, with
application to nonlinear gene association networks. JMLR 10, 1469–1484.

For a table of ``p`` cells with counts ``y_k`` summing to ``n``, the maximum-likelihood
frequencies ``u_k = y_k / n`` are shrunk towards the uniform target ``t_k = 1 / p``::

    u_k^shrink = lambda * t_k + (1 - lambda) * u_k,
    lambda*    = (1 - sum_k u_k^2) / ((n - 1) * sum_k (t_k - u_k)^2),   clipped to [0, 1]

(their eq. 8 and 12). Mutual information is the plug-in formula applied to the shrunk
*joint* cell frequencies, with the marginals of that shrunk joint (their section 4). Here
the joint is the table of ``(X_v, X_parents, Y)`` with ``p = K_v * prod K_parents * m``
cells (every combination of the categories seen in training), and the score is::

    I(X_v; X_P | Y) = H(X_v, Y) + H(X_P, Y) - H(X_v, X_P, Y) - H(Y)

with every entropy from the shrunk joint (in nats). A marginal of the shrunk joint is the
ML marginal shrunk with the same lambda towards its own uniform target, so only the observed
cells are ever stored.

The score follows kgraph's score protocol: ``fit(X, y)`` on the category codes of complete
categorical columns, then ``score(v, parents)``; it declares ``families``, ``symmetric``.

Examples
--------
>>> import numpy as np, pandas as pd
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 40)
>>> X = pd.DataFrame({"a": y ^ (rng.random(40) < 0.2), "b": rng.integers(0, 3, 40)})
>>> js = JamesSteinCMI().fit(X, y)
>>> bool(js.score("a", {"b"}) > 0 and np.isclose(js.score("a", {"b"}), js.score("b", {"a"})))
True
>>> 0 < js.shrinkage_intensity("a", {"b"}) < 1
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import numpy as np
from sklearn.base import BaseEstimator

__all__ = ["JamesSteinCMI", "js_entropy", "shrinkage_intensity"]


def shrinkage_intensity(counts: np.ndarray, n_cells: int) -> float:
    """``lambda*`` of Hausser & Strimmer (eq. 12) for the observed ``counts`` (the other
    cells of the ``n_cells`` are empty), towards the uniform target ``1 / n_cells``.

    Examples
    --------
    >>> shrinkage_intensity(np.array([5, 5]), 2)  # the ML estimate is the target
    1.0
    >>> round(shrinkage_intensity(np.array([8, 1, 1]), 3), 6)
    0.115646
    """
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    if n <= 1:
        return 1.0
    u = counts / n
    t = 1.0 / n_cells
    spread = np.sum((t - u) ** 2) + (n_cells - counts.size) * t**2
    if spread == 0:
        return 1.0
    return float(np.clip((1.0 - np.sum(u**2)) / ((n - 1.0) * spread), 0.0, 1.0))


def js_entropy(counts: np.ndarray, n_cells: int, lam: float) -> float:
    """Entropy (nats) of the frequencies ``lam / n_cells + (1 - lam) * counts / n`` over
    ``n_cells`` cells, ``counts`` those of the observed cells (the rest hold ``lam /
    n_cells``)."""
    counts = np.asarray(counts, dtype=float)
    q = lam / n_cells + (1.0 - lam) * counts / counts.sum()
    q = q[q > 0]
    empty = n_cells - counts.size
    h = -float(np.sum(q * np.log(q)))
    if empty and lam > 0:
        q0 = lam / n_cells
        h -= empty * q0 * np.log(q0)
    return h


def _cell_counts(columns: np.ndarray, cards: np.ndarray) -> tuple[np.ndarray, int]:
    """Counts of the observed cells of the columns' joint table, and its number of cells."""
    index = np.ravel_multi_index(tuple(columns.T), tuple(int(c) for c in cards))
    return np.unique(index, return_counts=True)[1], int(np.prod(cards, dtype=float))


class JamesSteinCMI(BaseEstimator):
    """James–Stein shrinkage class-conditional mutual information ``I(X_v; X_P | Y)``.

    Parameters
    ----------
    shrinkage : "auto" or float in [0, 1], default="auto"
        ``"auto"``: the data-driven ``lambda*`` of each hyperedge's joint table; a number
        fixes lambda (0 gives the plug-in estimate).

    Attributes
    ----------
    variables_ : list
        The fitted columns.
    cardinalities_ : ndarray
        Categories per column (``max code + 1``), then the number of classes.
    """

    #: what kgraph reads (the score protocol of ``estimators.scores``)
    families = ("discrete",)
    symmetric = True

    def __init__(self, shrinkage: str | float = "auto"):
        self.shrinkage = shrinkage

    def fit(self, X, y) -> JamesSteinCMI:
        """Keep the category codes (``X``: a DataFrame of codes ``0..K-1``; ``y``: class
        codes ``0..m-1``)."""
        if not (self.shrinkage == "auto" or 0.0 <= float(self.shrinkage) <= 1.0):
            raise ValueError(f"shrinkage must be 'auto' or in [0, 1]; got {self.shrinkage!r}.")
        self.variables_ = list(X.columns)
        codes = np.asarray(X, dtype=np.int64)
        y = np.asarray(y, dtype=np.int64)
        if codes.size and codes.min() < 0:
            raise ValueError("JamesSteinCMI needs complete categorical columns (codes >= 0).")
        self.codes_ = np.column_stack([codes, y])
        self.cardinalities_ = self.codes_.max(axis=0) + 1
        self._index = {v: i for i, v in enumerate(self.variables_)}
        return self

    def _columns(self, v: Hashable, parents: Iterable[Hashable]) -> tuple[int, list[int]]:
        return self._index[v], sorted(self._index[p] for p in parents)

    def shrinkage_intensity(self, v: Hashable, parents: Iterable[Hashable]) -> float:
        """The lambda used for the joint table of ``(X_v, X_parents, Y)``."""
        i, ps = self._columns(v, parents)
        if self.shrinkage != "auto":
            return float(self.shrinkage)
        cols = [i, *ps, self.codes_.shape[1] - 1]
        return shrinkage_intensity(*_cell_counts(self.codes_[:, cols], self.cardinalities_[cols]))

    def score(self, v: Hashable, parents: Iterable[Hashable]) -> float:
        """``I(X_v; X_parents | Y)`` in nats from the shrunk joint (0 for no parents)."""
        parents = list(parents)
        if not parents:
            return 0.0
        i, ps = self._columns(v, parents)
        c = self.codes_.shape[1] - 1
        lam = self.shrinkage_intensity(v, parents)

        def h(cols: list[int]) -> float:
            return js_entropy(*_cell_counts(self.codes_[:, cols], self.cardinalities_[cols]),
                              lam)

        return h([i, c]) + h([*ps, c]) - h([i, *ps, c]) - h([c])
