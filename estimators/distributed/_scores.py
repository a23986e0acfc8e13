"""Fitting the CMI scores from partition statistics (the client side of the search).

* :class:`~estimators.scores.GaussianCMI`: the class moments give the per-class correlation
  matrices exactly as :func:`~estimators.scores._gaussian.class_correlations` computes them
  from the rows (constant-in-class features get unit rows/columns), so every hyperedge score
  is available, not only pairs;
* :class:`~estimators.scores.DiscreteCMI`: the pair contingency tables give the whole edge
  matrix (:func:`~estimators.scores._discrete._pair_cmi` on the same tables); larger parent
  sets would need the joint tables of the parent configurations, which these statistics do
  not hold, so a score fitted from Dask answers pairs only (``ValueError`` otherwise);
* :class:`~estimators.scores.ConditionalGaussianScore` on complete mixed tables: the pair
  scores from class moments, pair counts and per-(level, class) cell moments, plus one pass
  for the categorical vertices with a continuous parent (:mod:`estimators.distributed._cg_score`);
  pairs only, like the discrete score.

Other scores given a Dask collection raise a ``TypeError`` naming the supported ones.
"""

from __future__ import annotations

import numpy as np

from estimators.distributed._collect import as_dask_data, categories_of, counts_of, moments_of
from estimators.distributed._stats import ClassMoments, PairCounts
from estimators.scores._conditional_gaussian import ConditionalGaussianScore
from estimators.scores._discrete import DiscreteCMI, _pair_cmi
from estimators.scores._gaussian import GaussianCMI

__all__ = [
    "DASK_SCORES",
    "discrete_edge_matrix",
    "fit_score_from_dask",
    "gaussian_score_from_moments",
    "moment_correlations",
]


def _check_not_constant(lo: np.ndarray, hi: np.ndarray, names, owner: str) -> None:
    const = lo.min(axis=0) == hi.max(axis=0)
    if const.any():
        cols = [names[i] for i in np.flatnonzero(const)]
        raise ValueError(f"{owner}: column(s) {cols} of X are constant; every feature needs at "
                         "least two distinct values.")


def _check_classes(classes: np.ndarray, owner: str) -> None:
    if classes.size < 2:
        raise ValueError(f"{owner} needs at least 2 classes in y; got only one class "
                         f"{classes.tolist()}.")


def moment_correlations(mo: ClassMoments, constant: np.ndarray) -> np.ndarray:
    """Per-class correlation matrices from centred cross-products, with the conventions of
    :func:`~estimators.scores._gaussian.class_correlations` (constant features: unit rows).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.distributed._stats import class_moments
    >>> mo = class_moments(np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0]]), np.zeros(3))
    >>> moment_correlations(mo, np.array([[False, False]]))[0].round(3)
    array([[1. , 0.5],
           [0.5, 1. ]])
    """
    R = np.empty_like(mo.M)
    for c, M in enumerate(mo.M):  # one matrix per class
        sd = np.sqrt(np.diagonal(M).copy())
        sd[constant[c] | (sd == 0)] = np.inf
        Rc = M / np.outer(sd, sd)
        Rc = np.clip((Rc + Rc.T) / 2.0, -1.0, 1.0)
        np.fill_diagonal(Rc, 1.0)
        R[c] = Rc
    return R


def gaussian_score_from_moments(mo: ClassMoments, names, owner: str,
                                score: GaussianCMI | None = None,
                                allow_constant: bool = False) -> GaussianCMI:
    """A fitted :class:`GaussianCMI` from class moments (constant columns refused unless
    ``allow_constant``: then they score 0, as the classifiers' in-memory scores do)."""
    _check_classes(mo.classes, owner)
    if not allow_constant:
        _check_not_constant(mo.lo, mo.hi, names, owner)
    score = GaussianCMI() if score is None else score
    constant = (mo.lo == mo.hi) | (mo.n <= 1)[:, None]
    score.fit_correlations(names, mo.classes, mo.n, constant, moment_correlations(mo, constant))
    score.moments_ = mo
    return score


def _fit_gaussian(score: GaussianCMI, data) -> GaussianCMI:
    return gaussian_score_from_moments(moments_of(data), data.names, type(score).__name__, score)


def discrete_edge_matrix(counts: PairCounts, alpha: float = 0.0) -> np.ndarray:
    """The plug-in ``I(X_i; X_j | Y)`` matrix from the pair contingency tables (zero
    diagonal), smoothed by ``alpha`` per cell like :class:`DiscreteCMI`."""
    d, K = counts.K.size, int(counts.K.max())
    iu, ju = np.triu_indices(d, k=1)
    m = counts.G.shape[0]
    N = np.zeros((iu.size, m, K, K))
    for k, (i, j) in enumerate(zip(iu, ju, strict=True)):  # loop over pairs (d^2), not rows
        N[k, :, : counts.K[i], : counts.K[j]] = counts.table(i, j)
        N[k, :, : counts.K[i], : counts.K[j]] += alpha
    W = np.zeros((d, d))
    if iu.size:
        W[iu, ju] = W[ju, iu] = _pair_cmi(N)
    return W


def _fit_discrete(score: DiscreteCMI, data) -> DiscreteCMI:
    owner = type(score).__name__
    categories, classes = categories_of(data)
    _check_classes(classes, owner)
    const = [data.names[j] for j, c in enumerate(categories) if c.size < 2]
    if const:
        raise ValueError(f"{owner}: column(s) {const} of X are constant; every feature needs at "
                         "least two distinct values.")
    counts = counts_of(data, categories, classes)
    n_y = counts.table(0, 0).sum(axis=(1, 2))
    diag = [np.diagonal(counts.table(j, j), axis1=1, axis2=2) for j in range(len(categories))]
    constant = np.column_stack([(dj > 0).sum(axis=1) <= 1 for dj in diag])
    score._set_fitted(data.names, classes, n_y, constant)
    score.categories_ = categories
    score.counts_ = counts
    score.data_ = None  # no rows on the client: pairs only, from the tables below
    score._max_parents = 1
    score._edge_matrix = discrete_edge_matrix(counts, float(score.alpha))
    d = len(categories)
    ii, jj = np.nonzero(~np.eye(d, dtype=bool))
    score._cache.update(((int(i), frozenset({int(j)})), float(score._edge_matrix[i, j]))
                        for i, j in zip(ii, jj, strict=True))
    return score


def _fit_cg(score: ConditionalGaussianScore, data) -> ConditionalGaussianScore:
    from estimators.distributed._cg_score import fit_cg_score_from_dask

    return fit_cg_score_from_dask(score, data)


#: the scores that accept a Dask collection, by class
DASK_SCORES = {GaussianCMI: _fit_gaussian, DiscreteCMI: _fit_discrete,
               ConditionalGaussianScore: _fit_cg}


def fit_score_from_dask(score, X, y):
    """Fit ``score`` from a Dask ``X`` and ``y`` through partition statistics.

    Examples
    --------
    >>> import numpy as np, pandas as pd, dask.dataframe as dd
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame(rng.normal(size=(400, 3)), columns=["a", "b", "c"])
    >>> df["y"] = rng.integers(0, 2, 400)
    >>> ddf = dd.from_pandas(df, npartitions=4)
    >>> W = GaussianCMI().fit(ddf[["a", "b", "c"]], ddf["y"]).edge_matrix()
    >>> bool(np.allclose(W, GaussianCMI().fit(df[["a", "b", "c"]], df["y"]).edge_matrix()))
    True
    """
    fit = DASK_SCORES.get(type(score))
    if fit is None:
        raise TypeError(f"{type(score).__name__} cannot be fitted from a Dask collection; the "
                        f"scores that can are {sorted(c.__name__ for c in DASK_SCORES)}. "
                        "Compute a sample into memory for the others.")
    return fit(score, as_dask_data(X, y, type(score).__name__))
