"""Exact ln p(y, x_O) of a discrete k-TAN / TAN by variable elimination (MATH.md §8).

For each missing pattern: the missing vertices without an observed descendant drop (their
CPTs sum to 1); the others are summed out of ``ln p(y) + sum_v ln P(x_v | y, x_pa(v))`` by
log-space variable elimination (:mod:`._elimination`) over their training categories, the
rows of the pattern handled together by broadcasting.
"""

from __future__ import annotations

import numpy as np

from estimators.ktan._cpt import DiscreteCPTs
from estimators.marginal._elimination import axis_shape, check_summed, eliminate
from estimators.marginal._patterns import kept_vertices, missing_patterns


def _cpt_factor(table: np.ndarray, values: list[np.ndarray]) -> np.ndarray:
    """``table[y, values...]`` broadcast over rows, classes and summed axes."""
    n_classes = table.shape[0]
    y = np.arange(n_classes).reshape((1, n_classes) + (1,) * (values[0].ndim - 2))
    return table[tuple(np.broadcast_arrays(y, *values))]


def discrete_log_marginal(
    cpts: DiscreteCPTs, class_log_prior: np.ndarray, codes: np.ndarray, missing: np.ndarray
) -> np.ndarray:
    """``ln p(y, x_O)`` of every row and class of a discrete k-TAN with missing entries.

    Parameters
    ----------
    cpts : DiscreteCPTs
        The fitted tables (``KTANClassifier.cpts_``).
    class_log_prior : ndarray of shape (n_classes,)
        ``ln p(y)``.
    codes : ndarray of int, shape (n_samples, n_features)
        Category codes as the classifier's encoding gives them; entries under ``missing``
        are ignored.
    missing : ndarray of bool, shape (n_samples, n_features)
        True where the entry is missing.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan._cpt import fit_cpts
    >>> codes = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
    >>> cpts = fit_cpts(codes, np.array([0, 0, 1, 1]), 2, np.array([2, 2]), [(), (0,)], 1.0)
    >>> prior = np.log([0.5, 0.5])
    >>> full = cpts.joint_log_likelihood(codes[:1]) + prior
    >>> x0_only = discrete_log_marginal(cpts, prior, codes[:1], np.array([[False, True]]))
    >>> bool(np.allclose(np.exp(x0_only), np.exp(full) + np.exp(
    ...     cpts.joint_log_likelihood(np.array([[0, 1]])) + prior)))
    True
    """
    codes = np.asarray(codes)
    missing = np.asarray(missing, dtype=bool)
    n_classes = cpts.log_tables[0].shape[0]
    out = np.empty((codes.shape[0], n_classes))
    for pattern, rows in missing_patterns(missing):
        keep = kept_vertices(cpts.parents, pattern)
        summed = [int(v) for v in np.flatnonzero(keep & pattern)]
        check_summed(len(summed), "categorical features")
        axis = {v: a for a, v in enumerate(summed)}
        n_vars = len(summed)
        values = {}
        for v in np.flatnonzero(keep):
            if v in axis:
                values[v] = np.arange(int(cpts.n_levels[v])).reshape(
                    axis_shape(n_vars, axis[v], int(cpts.n_levels[v]))
                )
            else:
                values[v] = codes[rows, v].reshape((rows.size, 1) + (1,) * n_vars)
        factors = [
            _cpt_factor(cpts.log_tables[v], [values[p] for p in (*cpts.parents[v], v)])
            for v in np.flatnonzero(keep)
        ]
        factors.append(np.reshape(class_log_prior, (1, n_classes) + (1,) * n_vars))
        out[rows] = eliminate(factors, rows.size, n_classes, n_vars)
    return out
