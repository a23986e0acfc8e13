"""A family per feature in one model: Gaussian for continuous, categorical for categorical."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from estimators.columns import EncodedColumns

from ._categorical import CategoricalFamily
from ._family_base import Family
from ._gaussian_features import GaussianFamily

__all__ = ["MixedFamily", "encoder_feature_types", "pooled_moments"]


class MixedFamily(Family):
    """Each feature of an encoded table (:class:`~estimators.columns.EncodedColumns`) gets
    the family of its type: :class:`GaussianFamily` for a continuous column,
    :class:`CategoricalFamily` for a categorical one; constant columns are left out.

    The model of paper 3 (MATH.md §6) already allows a distribution per component *and
    feature*, so the mixed model is the same variational EM: the log-likelihood table is the
    two families' tables side by side, the M-step is each family's exact M-step on its
    columns (so the objective still never decreases) and ``log_prior`` is the categorical
    pseudo-count penalty. A missing cell, or a category the encoder did not see in training
    (coded ``-1``), is an unobserved feature. ``data`` is one float matrix over the modelled
    columns: the value of a continuous cell (0 where missing), the slot index of a
    categorical one (:meth:`CategoricalFamily.encode`).

    Parameters
    ----------
    var_floor : float, default=1e-3
        As in :class:`GaussianFamily`.
    pseudo_count : float, default=0.1
        As in :class:`CategoricalFamily`.
    pooled : tuple of two ndarrays, optional
        Means and variances of the continuous columns over the whole training set, for
        features missing or constant in the rows this family is fitted on (e.g. a class
        with one row): see :class:`GaussianFamily`.

    Attributes
    ----------
    columns_ : ndarray of int
        Positions (in the encoded table) of the modelled columns, in table order.
    kinds_ : list of str
        ``"continuous"`` or ``"categorical"`` per modelled column.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> X = pd.DataFrame({"sex": ["m", "f", "f", None], "mass": [3.5, 4.0, np.nan, 3.0],
    ...                   "site": [1, 1, 1, 1]})
    >>> enc = MixedEncoder({"mass": "continuous"}).fit_transform(X)  # 3 values: else categorical
    >>> fam = MixedFamily()
    >>> data, mask = fam.encode(enc, fit=True)
    >>> fam.kinds_, mask.tolist()
    (['categorical', 'continuous'], [[True, True], [True, True], [True, False], [False, True]])
    >>> theta = fam.m_step(data, mask, mask[:, :, None].astype(float))
    >>> sorted(theta), theta["means"].round(3).tolist()
    (['means', 'probabilities', 'variances'], [[3.5]])
    """

    name = "auto"

    def __init__(self, var_floor: float = 1e-3, pseudo_count: float = 0.1, pooled=None):
        self.var_floor = var_floor
        self.pseudo_count = pseudo_count
        self.pooled = pooled

    def _blocks(self):
        """``(family, positions in data)`` of each non-empty block."""
        return [(fam, pos) for fam, pos in ((self.gaussian_, self._gpos), (self.categorical_,
                                                                          self._cpos)) if pos.size]

    def encode(self, X: EncodedColumns, *, fit: bool):
        """``(data, mask)`` of the modelled columns of ``X``."""
        if fit:
            keep = [j for j, t in enumerate(X.types) if t in ("continuous", "categorical")]
            self.columns_ = np.array(keep, dtype=np.intp)
            self.kinds_ = [X.types[j] for j in keep]
            kinds = np.array(self.kinds_, dtype=object)
            self._gpos = np.flatnonzero(kinds == "continuous")
            self._cpos = np.flatnonzero(kinds == "categorical")
            self.gaussian_ = GaussianFamily(self.var_floor, self.pooled)
            self.categorical_ = CategoricalFamily(self.pseudo_count)
        cont, cat = self.columns_[self._gpos], self.columns_[self._cpos]
        codes = X.codes[:, cat]
        parts = [X.values[:, cont], np.where(codes >= 0, codes, np.nan)]
        n = X.values.shape[0]
        data = np.zeros((n, self.columns_.size))
        mask = np.zeros((n, self.columns_.size), dtype=bool)
        for (fam, pos), block in zip(((self.gaussian_, self._gpos),
                                      (self.categorical_, self._cpos)), parts, strict=True):
            if pos.size:
                data[:, pos], mask[:, pos] = fam.encode(block, fit=fit)
        return data, mask

    @staticmethod
    def _columns(a, pos):
        """``a[:, pos]``: a view when ``pos`` is every column in order (one family), so
        the (n, d, K) arrays of the EM are not copied."""
        return a if pos.size == a.shape[1] and (pos == np.arange(pos.size)).all() else a[:, pos]

    def _split(self, data, pos, fam):
        block = self._columns(data, pos)
        return block.astype(np.intp) if fam is self.categorical_ else block

    def distances(self, data, mask, i):
        """Euclidean combination of the two families' distances."""
        total = np.zeros(data.shape[0])
        for fam, pos in self._blocks():
            total += fam.distances(self._split(data, pos, fam), self._columns(mask, pos), i) ** 2
        return np.sqrt(total)

    def log_likelihood(self, theta, data, mask):
        blocks = self._blocks()
        if len(blocks) == 1 and blocks[0][1].size == data.shape[1]:  # one family: no copy
            fam, pos = blocks[0]
            return fam.log_likelihood(theta, self._split(data, pos, fam), mask)
        out = np.zeros((*data.shape, self._n_components(theta)))
        for fam, pos in blocks:
            out[:, pos] = fam.log_likelihood(theta, self._split(data, pos, fam), mask[:, pos])
        return out

    @staticmethod
    def _n_components(theta) -> int:
        if "means" in theta:
            return theta["means"].shape[0]
        return theta["probabilities"][0].shape[0] if theta.get("probabilities") else 1

    def m_step(self, data, mask, phi):
        theta: dict = {}
        for fam, pos in self._blocks():
            theta.update(fam.m_step(self._split(data, pos, fam), self._columns(mask, pos),
                                    self._columns(phi, pos)))
        if not theta:  # no modelled column: one (empty) parameter set per component
            theta = {"means": np.zeros((phi.shape[2], 0)), "variances": np.ones((phi.shape[2], 0))}
        return theta

    def log_prior(self, theta):
        return self.categorical_.log_prior(theta) if self._cpos.size else 0.0


def encoder_feature_types(names: list, family: str, feature_types):
    """The ``feature_types`` the encoder gets for a latent model with ``family``.

    ``"auto"`` keeps the user's ``feature_types``; ``"gaussian"`` or ``"categorical"``
    models every column as continuous or categorical (a mapping may only repeat that).

    Examples
    --------
    >>> encoder_feature_types(["a", "b"], "categorical", "auto")
    {'a': 'categorical', 'b': 'categorical'}
    >>> encoder_feature_types(["a", "b"], "gaussian", {"a": "categorical"})
    Traceback (most recent call last):
    ...
    ValueError: feature_types['a'] = 'categorical' contradicts family='gaussian', which models every column as continuous; use family='auto' to mix types.
    """
    if family == "auto":
        return feature_types
    kind = "continuous" if family == "gaussian" else "categorical"
    if isinstance(feature_types, Mapping):
        for column, asked in feature_types.items():
            if asked != kind:
                raise ValueError(
                    f"feature_types[{column!r}] = {asked!r} contradicts family={family!r}, "
                    f"which models every column as {kind}; use family='auto' to mix types.")
    return dict.fromkeys(names, kind)


def pooled_moments(enc: EncodedColumns) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance (NaN-aware; 0 and 1 for an all-missing column) of each continuous
    column of ``enc``, in table order: the ``pooled`` argument of :class:`MixedFamily`."""
    values = enc.values[:, enc.continuous]
    seen = ~np.isnan(values)
    count = np.maximum(seen.sum(axis=0), 1)
    mean = np.where(seen, values, 0.0).sum(axis=0) / count
    var = (np.where(seen, values - mean, 0.0) ** 2).sum(axis=0) / count
    empty = ~seen.any(axis=0)
    return np.where(empty, 0.0, mean), np.where(empty, 1.0, var)
