"""The information each feature carries about the class, I(X_j; C) in nats.

The ``weight`` of a class -> feature edge in the structure graphs (GraphML, JSON) of every
classifier (:mod:`estimators.network.export.structure_graph`); computed once at ``fit`` on the training
table (``class_information_``), on the available cases of each column (rows where it is
observed), with the estimator of the column's type that the models' pair scores use:

* categorical (and constant) columns: the plug-in (maximum-likelihood) mutual information
  of the contingency table of codes and classes, ``sum N_ck / n ln(n N_ck / (N_c N_k))``
  (scikit-learn's ``mutual_info_score``; 0 for a constant column);
* continuous columns: the Gaussian (conditional Gaussian) mutual information, the
  log-likelihood ratio per row of a Gaussian per class against one Gaussian for all,
  ``1/2 ln s^2 - sum_c n_c / n 1/2 ln s_c^2`` with maximum-likelihood variances, each
  floored at ``var_smoothing`` times the column's variance (scikit-learn's ``GaussianNB``
  floor) so a class with one value does not give an infinity. It is the CG score's
  I(X; C) for a continuous child of the categorical class (MATH.md §7); the Gaussian
  copula and KDE pair estimators have no class analogue (the class is discrete), so GNB
  and k-GNB use it whatever their ``dependence``.

Examples
--------
>>> import numpy as np
>>> from estimators.columns import MixedEncoder
>>> X = np.array([[0, 1.0], [0, 1.2], [1, 3.0], [1, 3.4]])
>>> enc = MixedEncoder({0: "categorical", 1: "continuous"}).fit_transform(X)
>>> mi = class_information(enc, np.array([0, 0, 1, 1]), 2)
>>> round(float(mi[0]), 6) == round(float(np.log(2)), 6)  # the class is the first column
True
"""

from __future__ import annotations

import numpy as np

from estimators.columns import EncodedColumns

__all__ = ["VAR_SMOOTHING", "class_information", "discrete_information", "gaussian_information",
           "gaussian_information_columns"]

#: floor of a within-class variance, relative to the column's variance (as GaussianNB)
VAR_SMOOTHING = 1e-9


def discrete_information(table: np.ndarray) -> float:
    """Plug-in I(X; C) in nats of a contingency table of counts, shape (classes, levels).

    Examples
    --------
    >>> import numpy as np
    >>> bool(np.isclose(discrete_information(np.array([[5, 0], [0, 5]])), np.log(2)))
    True
    """
    table = np.asarray(table, dtype=float)
    n = table.sum()
    if n <= 0:
        return 0.0
    outer = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True)
    nz = table > 0
    return float(max((table[nz] / n * np.log(table[nz] * n / outer[nz])).sum(), 0.0))


def gaussian_information(n_c: np.ndarray, mean_c: np.ndarray, var_c: np.ndarray, *,
                         var_smoothing: float = VAR_SMOOTHING) -> float:
    """Gaussian I(X; C) in nats from each class's row count, mean and (maximum-likelihood)
    variance: ``1/2 ln s^2 - sum_c n_c / n 1/2 ln s_c^2``, every variance plus
    ``var_smoothing s^2`` (``s^2`` the variance of all rows).

    Examples
    --------
    >>> import numpy as np
    >>> mi = gaussian_information(np.array([2, 2]), np.array([0.0, 2.0]), np.array([1.0, 1.0]))
    >>> bool(np.isclose(mi, 0.5 * np.log(2.0)))  # total variance 1 + 1 (between classes)
    True
    """
    n_c = np.asarray(n_c, dtype=float)
    has = n_c > 0
    if n_c.sum() < 2 or not has.any():
        return 0.0
    w = n_c[has] / n_c.sum()
    mean = float((w * mean_c[has]).sum())
    total = float((w * (var_c[has] + (mean_c[has] - mean) ** 2)).sum())
    if total <= 0.0:
        return 0.0
    eps = var_smoothing * total
    return float(max(0.5 * np.log(total + eps) - (w * 0.5 * np.log(var_c[has] + eps)).sum(),
                     0.0))


def _discrete(codes: np.ndarray, y: np.ndarray, n_levels: int, m: int) -> float:
    seen = codes >= 0
    if not seen.any() or n_levels < 1:
        return 0.0
    table = np.bincount(y[seen] * n_levels + codes[seen], minlength=m * n_levels)
    return discrete_information(table.reshape(m, n_levels))


def _gaussian(values: np.ndarray, y: np.ndarray, m: int, var_smoothing: float) -> float:
    seen = ~np.isnan(values)
    x, c = values[seen], y[seen]
    n_c = np.bincount(c, minlength=m).astype(float)
    mean_c = np.bincount(c, x, minlength=m) / np.maximum(n_c, 1)
    var_c = np.bincount(c, (x - mean_c[c]) ** 2, minlength=m) / np.maximum(n_c, 1)
    return gaussian_information(n_c, mean_c, var_c, var_smoothing=var_smoothing)


def class_information(enc: EncodedColumns, y: np.ndarray, n_classes: int, *,
                      var_smoothing: float = VAR_SMOOTHING) -> np.ndarray:
    """I(X_j; C) in nats for every column of an encoded table (see the module docstring).

    Parameters
    ----------
    enc : EncodedColumns
        The training table, encoded.
    y : ndarray of int, shape (n_samples,)
        Class codes ``0 .. n_classes - 1``.
    n_classes : int
    var_smoothing : float, default=1e-9
        Floor of the within-class variances, relative to the column's variance.

    Returns
    -------
    ndarray of float, shape (n_features,)
    """
    y = np.asarray(y, dtype=np.int64)
    out = np.zeros(len(enc.types))
    complete = np.flatnonzero(enc.continuous & ~np.isnan(enc.values).any(axis=0))
    if complete.size:  # complete continuous columns: all at once
        values = enc.values if complete.size == out.size else enc.values[:, complete]
        out[complete] = gaussian_information_columns(values, y, n_classes, var_smoothing)
    done = set(complete.tolist())
    for j, kind in enumerate(enc.types):  # the other columns, one at a time, vectorised
        if j in done:
            continue
        out[j] = (_gaussian(enc.values[:, j], y, n_classes, var_smoothing)
                  if kind == "continuous" else
                  _discrete(enc.codes[:, j], y, int(enc.n_levels[j]), n_classes))
    return out


def gaussian_information_columns(X: np.ndarray, y: np.ndarray, n_classes: int,
                                 var_smoothing: float = VAR_SMOOTHING) -> np.ndarray:
    """:func:`gaussian_information` of every column of a complete ``X`` (n, d), in whole-array
    operations (the same formula column by column).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 1.5], [2.0, 4.0], [3.0, 3.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> got = gaussian_information_columns(X, y, 2)
    >>> ref = [_gaussian(X[:, j], y, 2, VAR_SMOOTHING) for j in range(2)]
    >>> bool(np.allclose(got, ref, rtol=1e-12))
    True
    """
    n_c = np.bincount(y, minlength=n_classes).astype(float)
    has = n_c > 0
    d = X.shape[1]
    if n_c.sum() < 2 or not has.any():
        return np.zeros(d)
    mean_c, var_c = np.zeros((n_classes, d)), np.zeros((n_classes, d))
    for c in np.flatnonzero(has):  # per class, whole rows
        Xc = X[y == c]
        mean_c[c] = Xc.mean(axis=0)
        Xc -= mean_c[c]
        var_c[c] = np.einsum("ij,ij->j", Xc, Xc) / n_c[c]
    w = (n_c[has] / n_c.sum())[:, None]
    mean_c, var_c = mean_c[has], var_c[has]
    mean = (w * mean_c).sum(axis=0)
    total = (w * (var_c + (mean_c - mean) ** 2)).sum(axis=0)
    eps = var_smoothing * total
    with np.errstate(divide="ignore", invalid="ignore"):
        mi = 0.5 * np.log(total + eps) - (w * 0.5 * np.log(var_c + eps)).sum(axis=0)
    return np.where(total > 0, np.maximum(mi, 0.0), 0.0)
