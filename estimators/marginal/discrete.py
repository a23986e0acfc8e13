"""Exact ln p(y, x_O) of a discrete k-TAN / TAN by variable elimination (MATH.md §8).

For each missing pattern: the missing vertices without an observed descendant drop (their
CPTs sum to 1); the others are summed out of ``ln p(y) + sum_v ln P(x_v | y, x_pa(v))`` by
log-space variable elimination (:mod:`._elimination`) over their training categories, the
rows of the pattern handled together by broadcasting. It is the all-categorical case of
:func:`estimators.marginal.mixed.cg_log_marginal`.
"""

from __future__ import annotations

import numpy as np

from estimators.ktan._cpt import DiscreteCPTs
from estimators.marginal._elimination import check_summed, eliminate
from estimators.marginal.factors import factors_from_cpts
from estimators.marginal.mixed import cg_log_marginal


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
    return cg_log_marginal(factors_from_cpts(cpts), class_log_prior, codes, missing)


def discrete_log_marginal_evidence(
    cpts: DiscreteCPTs, class_log_prior: np.ndarray, codes: np.ndarray, missing: np.ndarray
) -> np.ndarray:
    """The same ``ln p(y, x_O)`` as :func:`discrete_log_marginal`, without grouping by pattern.

    Every vertex is summed with a per-row evidence vector (0 on the observed code and -inf
    elsewhere; 0 on the training categories of a missing entry), so all rows go through
    one elimination, whatever their patterns: the faster choice when most rows have their
    own pattern (many features). Limited to 62 features (numpy's axis count).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan._cpt import fit_cpts
    >>> codes = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
    >>> cpts = fit_cpts(codes, np.array([0, 0, 1, 1]), 2, np.array([2, 2]), [(), (0,)], 1.0)
    >>> m = np.array([[False, True], [True, False], [False, False], [True, True]])
    >>> prior = np.log([0.5, 0.5])
    >>> bool(np.allclose(discrete_log_marginal_evidence(cpts, prior, codes, m),
    ...                  discrete_log_marginal(cpts, prior, codes, m)))
    True
    """
    codes = np.asarray(codes)
    missing = np.asarray(missing, dtype=bool)
    d = len(cpts.parents)
    check_summed(d, "features (evidence method)")
    n_classes = np.shape(class_log_prior)[0]
    rows = np.arange(codes.shape[0])
    factors = [np.reshape(class_log_prior, (1, n_classes) + (1,) * d)]
    for v in range(d):
        size = int(cpts.n_levels[v]) + 1  # training codes and the "unseen" code
        evidence = np.full((codes.shape[0], size), -np.inf)
        evidence[rows, np.where(missing[:, v], 0, codes[:, v])] = 0.0
        evidence[missing[:, v], : size - 1] = 0.0
        shape = [codes.shape[0], 1] + [1] * d
        shape[2 + v] = size
        factors.append(evidence.reshape(shape))
        table = cpts.log_tables[v]  # axes: class, parents (sorted), v
        shape = [1, n_classes] + [1] * d
        for axis, u in zip(range(1, table.ndim), (*cpts.parents[v], v), strict=True):
            shape[2 + u] = table.shape[axis]
        order = np.argsort([*cpts.parents[v], v])
        factors.append(np.transpose(table, (0, *(1 + order))).reshape(shape))
    return eliminate(factors, codes.shape[0], n_classes, d)
