"""The evidence weight of a semiparametric network (MATH.md §11, "calibration").

A Bayesian-network classifier multiplies one factor per feature; when the structure cannot
express how the features depend on each other given the class (a tree over deterministic
sums and ratios of prices, as on ``oj``), the same evidence enters several factors and
``ln p(y | x)`` is too steep: the out-of-fold log-loss of TAN with any factor kind was 1.3-2.5x
that of a logistic regression on such tables while its accuracy was close. The network's
class posterior is therefore

    p_w(y | x) ∝ p(y) exp(w · ln p(x | y)),

one weight ``w > 0`` on the log-likelihood of the features (the class prior unweighted),
``w`` the maximiser of the *out-of-fold* conditional log-likelihood
``sum_i ln p_w(y_i | x_i)`` of the training rows: K folds of the training rows, the factors
(kinds and structure fixed) refitted without fold k and ``ln p(x_i | y)`` of its rows computed
by the same (marginalising) likelihood that predicts. The objective is concave in w (a
linear term minus a log-sum-exp of functions affine in w), so the bounded one-dimensional
search of :func:`evidence_weight` finds its maximum. ``w = 1`` is the plain generative
network; the fit never uses the rows it is evaluated on, and the argmax over classes is
unchanged for balanced priors (only the prior's weight relative to the evidence moves).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

from estimators.base.log_sum_exp import log_sum_exp

#: the search interval of the weight
BOUNDS = (0.02, 2.0)


def conditional_log_likelihood(w: float, loglik: np.ndarray, y: np.ndarray,
                               log_prior: np.ndarray) -> float:
    """``sum_i ln p_w(y_i | x_i)`` for per-row, per-class ``ln p(x_i | y)`` (``loglik``).

    Examples
    --------
    >>> import numpy as np
    >>> L = np.log([[0.2, 0.1], [0.1, 0.3]])
    >>> v = conditional_log_likelihood(1.0, L, np.array([0, 1]), np.log([0.5, 0.5]))
    >>> bool(np.isclose(v, np.log(2 / 3) + np.log(3 / 4)))
    True
    """
    s = w * loglik + log_prior
    return float(np.sum(s[np.arange(y.size), y] - log_sum_exp(s, 1)[:, 0]))


def evidence_weight(loglik: np.ndarray, y: np.ndarray, log_prior: np.ndarray) -> float:
    """The weight of :data:`BOUNDS` maximising :func:`conditional_log_likelihood` (1 when
    no row has finite likelihoods in every class).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 2000)
    >>> m = rng.normal(size=2000) + np.where(y == 1, 1.0, -1.0)   # true log-odds 2 m
    >>> L = np.column_stack([np.zeros(2000), 6.0 * m])            # 3x too steep
    >>> w = evidence_weight(L, y, np.log([0.5, 0.5]))
    >>> bool(abs(w - 1 / 3) < 0.05)
    True
    """
    y = np.asarray(y, dtype=np.int64)
    ok = np.isfinite(loglik).all(axis=1)
    if not ok.any():
        return 1.0
    L, yy = loglik[ok], y[ok]
    res = minimize_scalar(lambda w: -conditional_log_likelihood(w, L, yy, log_prior),
                          bounds=BOUNDS, method="bounded", options={"xatol": 1e-5})
    return float(res.x)
