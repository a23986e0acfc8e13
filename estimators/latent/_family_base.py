"""Shared pieces of the per-feature component families (Gaussian, categorical)."""

from __future__ import annotations

import numpy as np

__all__ = ["Family", "check_rows_observed", "check_no_inf"]


def check_no_inf(X: np.ndarray, feature_names=None) -> None:
    """Raise a ValueError naming the first column that holds an infinite value."""
    if X.dtype.kind not in "fc":
        return
    bad = np.isinf(X)
    if bad.any():
        col = int(np.flatnonzero(bad.any(axis=0))[0])
        name = feature_names[col] if feature_names is not None else col
        raise ValueError(
            f"Input X contains inf in column {name!r} (row {int(np.flatnonzero(bad[:, col])[0])});"
            " only finite values or NaN (an unobserved feature) are accepted."
        )


def check_rows_observed(mask: np.ndarray) -> None:
    """Raise a ValueError naming the first row with no observed feature."""
    empty = ~mask.any(axis=1)
    if empty.any():
        rows = np.flatnonzero(empty)
        raise ValueError(
            f"Row {int(rows[0])} of X has no observed feature (all NaN); "
            f"{rows.size} such row(s). Every row needs at least one observed value."
        )


class Family:
    """Base class of the distribution of one feature given its component.

    A family is created unfitted; :meth:`encode` with ``fit=True`` learns what it needs from
    the training data (categories, scales). Parameters ``theta`` are a dict of arrays. It
    supplies the family's steps of the variational EM: ``init_params``,
    ``log_likelihood`` (an (n, d, K) array, 0 where a feature is unobserved), ``m_step``
    (the exact maximiser of the objective given ``phi``) and ``log_prior`` (the
    penalty the M-step maximises besides the ELBO; 0 when there is none).
    """

    name: str = ""

    def encode(self, X, *, fit: bool) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
        raise NotImplementedError

    def init_params(self, data, mask, n_components, rng) -> dict:  # pragma: no cover
        raise NotImplementedError

    def log_likelihood(self, theta, data, mask) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def m_step(self, data, mask, phi) -> dict:  # pragma: no cover
        raise NotImplementedError

    def log_prior(self, theta) -> float:
        return 0.0
