"""Gaussian features: a univariate normal per component and feature, with a variance floor."""

from __future__ import annotations

import numpy as np

from estimators.stats.gaussian import LOG_2PI

from ._family_base import Family

__all__ = ["GaussianFamily"]


class GaussianFamily(Family):
    """``x_j | z = k ~ N(mu_kj, sigma2_kj)``.

    The M-step takes phi-weighted moments; a variance is floored at
    ``var_floor * Var(x_j)`` (the variance of the observed training values of feature j,
    or ``var_floor`` itself for a constant feature), which keeps the M-step an exact
    (constrained) maximiser, so the ELBO still never decreases.

    Parameters
    ----------
    var_floor : float, default=1e-3
        Relative variance floor.
    pooled : tuple of two ndarrays (means, variances), optional
        Moments of each feature over a larger sample (a classifier's whole training set).
        A feature with no observed value takes these moments, and one whose observed values
        are all equal takes its floor from the pooled variance, so a small class (one row)
        does not get a spike. Default: mean 0 and variance 1 for such features.

    Examples
    --------
    >>> import numpy as np
    >>> fam = GaussianFamily()
    >>> data, mask = fam.encode(np.array([[0.0, np.nan], [2.0, 1.0]]), fit=True)
    >>> mask
    array([[ True, False],
           [ True,  True]])
    >>> theta = fam.m_step(data, mask, np.ones((2, 2, 1)) * mask[:, :, None])
    >>> theta["means"], theta["variances"]
    (array([[1., 1.]]), array([[1.   , 0.001]]))
    """

    name = "gaussian"

    def __init__(self, var_floor: float = 1e-3, pooled=None):
        self.var_floor = var_floor
        self.pooled = pooled

    def encode(self, X, *, fit):
        X = np.asarray(X, dtype=float)
        mask = ~np.isnan(X)
        data = np.where(mask, X, 0.0)
        if fit:
            counts = mask.sum(axis=0)
            safe = np.maximum(counts, 1)
            mean = data.sum(axis=0) / safe
            var = (np.where(mask, X - mean, 0.0) ** 2).sum(axis=0) / safe
            ref_mean, ref_var = (np.zeros_like(mean), np.ones_like(var)) if self.pooled is None \
                else self.pooled
            ref_var = np.where(ref_var > 0, ref_var, 1.0)
            empty = counts == 0
            self.mean_ = np.where(empty, ref_mean, mean)
            self.var_ = np.where(empty, ref_var, var)
            self.floor_ = self.var_floor * np.where(var > 0, var, ref_var)
        return data, mask

    def distances(self, data, mask, i):
        """Euclidean distance of the standardised values over jointly observed features."""
        scale = np.sqrt(np.where(self.var_ > 0, self.var_, 1.0))
        both = mask & mask[i]
        return np.sqrt((((data - data[i]) / scale * both) ** 2).sum(axis=1))

    def log_likelihood(self, theta, data, mask):
        mu, var = theta["means"].T, theta["variances"].T  # (d, K)
        out = data[:, :, None] - mu
        out *= out
        out *= -0.5 / var
        out += -0.5 * (np.log(var) + LOG_2PI)
        out *= mask[:, :, None]
        return out

    def m_step(self, data, mask, phi):
        # phi-weighted moments of the values centred on the feature means (no (n, d, K)
        # temporaries; centring keeps the variance formula free of cancellation)
        centred = np.where(mask, data - self.mean_, 0.0)
        weight = phi.sum(axis=0)  # (d, K)
        first = np.einsum("ijk,ij->jk", phi, centred)
        second = np.einsum("ijk,ij->jk", phi, centred * centred)
        used = weight > 0
        safe = np.where(used, weight, 1.0)
        shift = np.where(used, first / safe, 0.0)
        variances = np.where(used, np.maximum(second / safe - shift * shift, 0.0),
                             self.var_[:, None])
        variances = np.maximum(variances, self.floor_[:, None])
        means = shift + self.mean_[:, None]
        return {"means": means.T.copy(), "variances": variances.T.copy()}
