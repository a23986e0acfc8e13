"""``ln p_S(y, x_O)`` of one SPODE, grouped by the missing pattern of its super-parents only.

In a SPODE every feature outside the super-parent set S is a leaf whose parents are S (and
the class), so a missing leaf integrates to 1 whatever else is missing: the joint of a row
depends on its empty cells only through which members of S are missing. The rows are
therefore grouped by the (at most ``2^n``) missing patterns of S, not by their missing
pattern over all columns (which the general engine of
:meth:`estimators.network.model.CGNetwork.log_marginal` needs, and which on a table like
helpmiss gives ~18 patterns per SPODE):

* S observed: ``ln p(y) + sum_{v observed} ln p(x_v | x_S, y)``, the factors evaluated on
  the rows (a missing leaf contributes 0) -- the complete-row formula;
* only categorical members of S missing: the same sum on copies of each row with the
  missing members set to every joint level, then ``logsumexp`` over those copies (exact
  enumeration, all rows at once);
* a continuous member of S missing: the exact marginalisation engine on those rows
  (Gaussian algebra and the Gauss--Hermite rule of :mod:`estimators.marginal.mixed`).

The result equals :meth:`~estimators.network.model.CGNetwork.joint_log_likelihood` (the same
factors summed in another order; tests/estimators/bnc/test_spode_joint.py).
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from estimators.columns import EncodedColumns
from estimators.network.model import CGNetwork

__all__ = ["spode_joint_log_likelihood"]

#: rows x joint levels evaluated at once when enumerating missing categorical super-parents
_CHUNK = 2**18


def spode_joint_log_likelihood(net: CGNetwork, S, enc: EncodedColumns,
                               class_log_prior: np.ndarray) -> np.ndarray:
    """``ln p_S(y, x_O)`` per row and class of the SPODE ``net`` with super-parents ``S``
    (encoded-column indices; every parent set of ``net`` is a subset of ``S``)."""
    prior = np.asarray(class_log_prior, dtype=float)
    rows = enc.codes.shape[0]
    out = np.empty((rows, prior.size))
    S = list(S)
    if not S:
        return net.joint_log_likelihood(enc, prior)
    missing = ~enc.observed[:, S]
    patterns, inverse = np.unique(missing, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    for p, pattern in enumerate(patterns):
        here = np.flatnonzero(inverse == p)
        part = enc.take(here)
        gone = [s for s, m in zip(S, pattern, strict=True) if m]
        if not gone:
            out[here] = net.log_likelihood(part) + prior
        elif not enc.continuous[gone].any():
            out[here] = _enumerated(net, part, gone, prior)
        else:
            out[here] = net.log_marginal(part, prior)
    return out


def _enumerated(net: CGNetwork, enc: EncodedColumns, gone: list, prior: np.ndarray
                ) -> np.ndarray:
    """Rows whose missing super-parents ``gone`` are all categorical: the complete-row sum
    at every joint level of ``gone``, summed out in log space."""
    levels = np.stack(np.meshgrid(*(np.arange(int(enc.n_levels[s])) for s in gone),
                                  indexing="ij"), axis=-1).reshape(-1, len(gone))
    L = levels.shape[0]
    rows = enc.codes.shape[0]
    out = np.empty((rows, prior.size))
    step = max(1, _CHUNK // L)
    for start in range(0, rows, step):
        sl = slice(start, start + step)
        k = enc.codes[sl].shape[0]
        codes = np.repeat(enc.codes[sl], L, axis=0)
        codes[:, gone] = np.tile(levels, (k, 1))
        filled = EncodedColumns(np.repeat(enc.values[sl], L, axis=0), codes, enc.types,
                                enc.n_levels, enc.names, enc.n_unseen)
        ll = (net.log_likelihood(filled) + prior).reshape(k, L, prior.size)
        out[sl] = logsumexp(ll, axis=1)
    return out
