"""Categorical features: a discrete distribution per component and feature, with a pseudo-count."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._family_base import Family

__all__ = ["CategoricalFamily"]


def _is_missing(column: np.ndarray) -> np.ndarray:
    return np.asarray(pd.isna(column), dtype=bool)


class CategoricalFamily(Family):
    """``x_j | z = k ~ Cat(p_kj)`` over the values of feature j seen in training plus one
    extra slot for any value not seen in training.

    Values may be of any dtype (strings included); ``None``/NaN is an unobserved feature.
    The M-step is ``p_kjr ∝ sum_i phi_ijk 1[x_ij = r] + pseudo_count`` over the
    ``r_j + 1`` slots, the exact maximiser of ``ELBO + pseudo_count * sum ln p`` (the
    log-density of a Dirichlet(1 + pseudo_count) prior on each ``p_kj``, up to a constant):
    that penalised ELBO is the objective whose trajectory never decreases. A value unseen in
    training falls in the extra slot, whose probability is
    ``pseudo_count / (N_kj + (r_j + 1) pseudo_count)``: it is scored, never an error.

    Parameters
    ----------
    pseudo_count : float, default=0.1

    Examples
    --------
    >>> import numpy as np
    >>> fam = CategoricalFamily(pseudo_count=1.0)
    >>> X = np.array([["a", "x"], ["b", None], ["a", "y"]], dtype=object)
    >>> data, mask = fam.encode(X, fit=True)
    >>> fam.categories_
    [array(['a', 'b'], dtype=object), array(['x', 'y'], dtype=object)]
    >>> theta = fam.m_step(data, mask, np.ones((3, 2, 1)) * mask[:, :, None])
    >>> theta["probabilities"][0].round(3)  # slots a, b, unseen: (2+1, 1+1, 0+1) / 6
    array([[0.5  , 0.333, 0.167]])
    >>> fam.encode(np.array([["c", "x"]], dtype=object), fit=False)[0]  # 'c' -> unseen slot
    array([[2, 3]])
    """

    name = "categorical"

    def __init__(self, pseudo_count: float = 0.1):
        self.pseudo_count = pseudo_count

    def encode(self, X, *, fit):
        """Code X as flat indices into the concatenated per-feature slot tables.

        Feature j's slots are ``offsets_[j] .. offsets_[j] + r_j`` (the last one: unseen);
        a missing entry points to the sentinel slot ``offsets_[-1]`` (log-probability 0).
        """
        X = np.asarray(X, dtype=object) if np.asarray(X).dtype.kind not in "fiub" else np.asarray(X)
        missing = _is_missing(X)
        if fit:
            self.categories_ = []
            for j in range(X.shape[1]):
                values = X[~missing[:, j], j]
                try:
                    cats = np.unique(values)
                except TypeError:  # mixed, unorderable types: order by (type name, text)
                    cats = np.array(
                        sorted(set(values.tolist()), key=lambda v: (type(v).__name__, str(v))),
                        dtype=object,
                    )
                self.categories_.append(cats)
            sizes = np.array([len(c) + 1 for c in self.categories_])
            self.offsets_ = np.concatenate([[0], np.cumsum(sizes)])
        codes = np.empty(X.shape, dtype=np.intp)
        for j, cats in enumerate(self.categories_):
            col = pd.Index(cats, dtype=object).get_indexer(X[:, j])
            codes[:, j] = np.where(col < 0, len(cats), col) + self.offsets_[j]
        codes[missing] = self.offsets_[-1]
        return codes, ~missing

    def _slot_weights(self, data, phi):
        n_slots = self.offsets_[-1] + 1
        flat = data.ravel()
        return np.stack(
            [np.bincount(flat, phi[:, :, k].ravel(), n_slots) for k in range(phi.shape[2])], 1
        )[:-1]

    def _normalise(self, table):
        """Per-feature normalisation of a (slots, K) table into a list of (K, r_j + 1)."""
        return [
            (block / block.sum(axis=0)).T.copy()
            for block in np.split(table, self.offsets_[1:-1], axis=0)
        ]

    def distances(self, data, mask, i):
        """Square root of the number of jointly observed features whose values differ."""
        return np.sqrt(((data != data[i]) & mask & mask[i]).sum(axis=1).astype(float))

    def log_likelihood(self, theta, data, mask):
        table = np.concatenate([np.log(p.T) for p in theta["probabilities"]], axis=0)
        table = np.vstack([table, np.zeros((1, table.shape[1]))])
        return table[data]

    def m_step(self, data, mask, phi):
        return {"probabilities": self._normalise(self._slot_weights(data, phi) + self.pseudo_count)}

    def log_prior(self, theta):
        return self.pseudo_count * float(sum(np.log(p).sum() for p in theta["probabilities"]))
