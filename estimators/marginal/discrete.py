"""Exact ln p(y, x_O) of a discrete k-TAN / TAN by variable elimination (MATH.md §8).

For each missing pattern: the missing vertices without an observed descendant drop (their
CPTs sum to 1); the others are summed out of ``ln p(y) + sum_v ln P(x_v | y, x_pa(v))`` by
log-space variable elimination (:mod:`._elimination`) over their training categories, the
rows of the pattern handled together by broadcasting. It is the all-categorical case of
:func:`estimators.marginal.mixed.cg_log_marginal`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from estimators.marginal._elimination import check_summed, eliminate
from estimators.marginal.cg_vertex_factors import CategoricalFactor
from estimators.marginal.mixed import cg_log_marginal


def discrete_log_marginal(
    factors: Sequence[CategoricalFactor], class_log_prior: np.ndarray, codes: np.ndarray,
    missing: np.ndarray
) -> np.ndarray:
    """``ln p(y, x_O)`` of every row and class of a discrete k-TAN with missing entries.

    Parameters
    ----------
    factors : sequence of categorical factors
        The fitted tables, ``factors[v]`` of vertex v (e.g.
        :attr:`~estimators.network.model.CGNetwork.marginal_factors` of
        ``KTANClassifier.network_``).
    class_log_prior : ndarray of shape (n_classes,)
        ``ln p(y)``.
    codes : ndarray of int, shape (n_samples, n_features)
        Category codes as the classifier's encoder gives them; entries under ``missing``
        are ignored.
    missing : ndarray of bool, shape (n_samples, n_features)
        True where the entry is missing (or its category unseen in training).

    Returns
    -------
    ndarray of shape (n_samples, n_classes)

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import TANClassifier
    >>> codes = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
    >>> clf = TANClassifier().fit(codes, [0, 0, 1, 1])
    >>> factors, prior = clf.network_.marginal_factors, clf.class_log_prior_
    >>> x0_only = discrete_log_marginal(factors, prior, codes[:1], np.array([[False, True]]))
    >>> both = clf._joint_log_likelihood(clf._check_X(np.array([[0, 0], [0, 1]])))
    >>> bool(np.allclose(np.exp(x0_only), np.exp(both).sum(axis=0)))
    True
    """
    return cg_log_marginal(factors, class_log_prior, np.asarray(codes, dtype=float), missing)


def discrete_log_marginal_evidence(
    factors: Sequence[CategoricalFactor], class_log_prior: np.ndarray, codes: np.ndarray,
    missing: np.ndarray
) -> np.ndarray:
    """The same ``ln p(y, x_O)`` as :func:`discrete_log_marginal`, without grouping by pattern.

    Every vertex is summed with a per-row evidence vector (0 on the observed code and -inf
    elsewhere; 0 on every category of a missing entry), so all rows go through one
    elimination, whatever their patterns: the faster choice when most rows have their own
    pattern (many features). Limited to 62 features (numpy's axis count).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.ktan import TANClassifier
    >>> codes = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
    >>> clf = TANClassifier().fit(codes, [0, 0, 1, 1])
    >>> factors, prior = clf.network_.marginal_factors, clf.class_log_prior_
    >>> m = np.array([[False, True], [True, False], [False, False], [True, True]])
    >>> bool(np.allclose(discrete_log_marginal_evidence(factors, prior, codes, m),
    ...                  discrete_log_marginal(factors, prior, codes, m)))
    True
    """
    codes = np.asarray(codes)
    missing = np.asarray(missing, dtype=bool)
    d = len(factors)
    check_summed(d, "features (evidence method)")
    n_classes = np.shape(class_log_prior)[0]
    rows = np.arange(codes.shape[0])
    logs = [np.reshape(class_log_prior, (1, n_classes) + (1,) * d)]
    for v, factor in enumerate(factors):
        size = factor.n_states
        evidence = np.full((codes.shape[0], size), -np.inf)
        evidence[rows, np.where(missing[:, v], 0, codes[:, v])] = 0.0
        evidence[missing[:, v]] = 0.0
        shape = [codes.shape[0], 1] + [1] * d
        shape[2 + v] = size
        logs.append(evidence.reshape(shape))
        table = factor.log_table  # axes: class, parents (in factor order), v
        shape = [1, n_classes] + [1] * d
        axes = (*factor.parents, v)
        for axis, u in zip(range(1, table.ndim), axes, strict=True):
            shape[2 + u] = table.shape[axis]
        order = np.argsort(axes)
        logs.append(np.transpose(table, (0, *(1 + order))).reshape(shape))
    return eliminate(logs, codes.shape[0], n_classes, d)
