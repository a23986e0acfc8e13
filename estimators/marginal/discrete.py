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
