"""The conditional Gaussian (CG) hyperedge score on mixed data (MATH.md §7, §8).

    f(v, P) = (1/n_vP) sum_{i complete} [ln p_hat(x_vi | x_Pi, y_i) - ln p_hat(x_vi | y_i)]

over the n_vP rows where v, every member of P and y are observed (available cases), both
factors fitted on those rows by maximum likelihood (CPT pseudo-count 0) with the
regularisation of :func:`fit_cg_factor`: the training log-likelihood gain of giving v the
parents P. It is directed: f(x, {z}) != f(z, {x}) for a mixed pair. Exact reductions: on
all-continuous data it is :class:`GaussianCMI` (ML moments: per class
``1/2 ln(s2_y / s2_{res,y})``), on all-categorical data the plug-in :class:`DiscreteCMI`
(alpha = 0).

**Computation.** Hyperedges are scored in batches from cell statistics computed once per
fit (:mod:`estimators.scores._cg_batch`: counts, means and cross products of the continuous
columns per missingness pattern, categorical configuration and class; a row with a missing
member of the hyperedge is in none of its cells), equal to the per-hyperedge row path
(fitting the two factors of each hyperedge on its rows: the tests' oracle) to 1e-10; hyperedges with exactly constant or
collinear cells, where the variance floor decides, are scored by the row path, batched
(:mod:`estimators.scores._cg_rows_batch`).

**Eligibility.** With fewer than ``max(min_cell_rows, |C| + 2)`` complete rows (C the
continuous parents) f(v, P) = -inf: the searchers then never choose that parent set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from estimators.base.parameters import VAR_SMOOTHING, Parameter, declare
from estimators.base.user_warnings import named_errors
from estimators.base.validation import encode_classes
from estimators.columns import EncodedColumns, MixedEncoder
from estimators.network.cg_pairs import cg_pair_statistics
from estimators.scores._cg_batch import CGTables, Hyperedges, cg_gains
from estimators.scores._parallel import run_chunked
from estimators.scores._positions import PositionsCMI, cached, positions_key
from estimators.scores._score_base import SCORE_N_JOBS, BaseCMI
from estimators.stats.engine import partition_dispatch
from estimators.stats.partitions import Partitions

__all__ = ["ConditionalGaussianScore"]


@dataclass(eq=False)
class CGData:
    """Payload of :class:`ConditionalGaussianScore`: the encoded table and the settings."""

    enc: EncodedColumns
    y: np.ndarray
    m: int
    var_smoothing: float
    ridge: float
    min_cell_rows: int
    #: cell statistics, built on first use (:class:`CGTables`)
    tables_: CGTables | None = field(default=None, repr=False)
    #: hyperedges scored on the row path because their cells are degenerate
    row_path_count: int = 0

    def tables(self) -> CGTables:
        """The cell statistics of the table (computed once, lazily per categorical tuple)."""
        if self.tables_ is None:
            self.tables_ = CGTables(self.enc, self.y, self.m)
        return self.tables_


def cg_gains_and_rows(data: CGData, items) -> tuple[np.ndarray, np.ndarray]:
    """``f(v, P)`` and the complete-row counts of the items, from the cell statistics
    (:mod:`estimators.scores._cg_batch`; degenerate hyperedges on the batched row path)."""
    gain, n, row_path = cg_gains(data.tables(), items, min_cell_rows=data.min_cell_rows,
                                 var_smoothing=data.var_smoothing, ridge=data.ridge)
    data.row_path_count += int(row_path.sum())
    return gain, n


def cg_block(data: CGData, items) -> np.ndarray:
    """``f(v, P)`` for each ``(v, P)`` item (P a sorted tuple) or of :class:`Hyperedges`,
    batched."""
    return cg_gains_and_rows(data, items if isinstance(items, Hyperedges) else list(items))[0]


@declare(
    Parameter("feature_types", "auto", [str, Mapping], '"auto" or mapping',
              "See :func:`estimators.columns.infer_feature_types`."),
    VAR_SMOOTHING.but(doc=(
        'Residual variances are floored at ``var_smoothing * var(x_v)``.')),
    Parameter("ridge", 1e-8, [Interval(Real, 0, None, closed="left")], 'float',
              "Ridge on the CG regressions, relative to the parents' variances."),
    Parameter("min_cell_rows", 5, [Interval(Integral, 1, None, closed="left")], 'int',
              'Gaussian cells with fewer rows are pooled; hyperedges with fewer complete '
              'rows are not eligible (-inf).'),
    SCORE_N_JOBS,
)
class ConditionalGaussianScore(PositionsCMI):
    """Directed log-likelihood-gain score of the conditional Gaussian model (MATH.md §7).

    Continuous and categorical features in one table, missing cells allowed (each hyperedge
    is scored on its available cases, MATH.md §8).

    Attributes
    ----------
    variables_, classes_, class_prior_, n_features_in_, data_
        As in :class:`BaseCMI`.
    feature_types_ : dict
        Column -> ``"continuous" | "categorical" | "constant"``, by the rule of
        :mod:`estimators.columns` unless ``feature_types`` names the column: a numeric
        column with at most 3 distinct values is categorical whatever they are, as is
        one of at most 10 integers.
    encoder_ : MixedEncoder

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 600)
    >>> z = rng.integers(0, 3, 600)
    >>> X = pd.DataFrame({"z": np.array(["a", "b", "c"])[z], "x": rng.normal(z + y, 1.0),
    ...                   "w": rng.normal(size=600)})
    >>> f = ConditionalGaussianScore().fit(X, y)
    >>> f.feature_types_
    {'z': 'categorical', 'x': 'continuous', 'w': 'continuous'}
    >>> round(f("x", {"z"}), 3), round(f("z", {"x"}), 3), f("x", {"w"}) < 0.01
    (0.248, 0.249, True)
    """

    #: the feature families it serves (the score protocol; :mod:`estimators.scores`): tables
    #: of mixed column types or with missing cells, fitted through :meth:`fit_encoded`
    families = ("mixed",)
    def __init__(self, *, feature_types: str | Mapping = "auto", var_smoothing: float = 1e-9,
                 ridge: float = 1e-8, min_cell_rows: int = 5, n_jobs: int | None = None):
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing
        self.ridge = ridge
        self.min_cell_rows = min_cell_rows
        self.n_jobs = n_jobs

    def _prepare(self, data: tuple[EncodedColumns, np.ndarray]) -> CGData:
        """The scores' payload from the encoded table and the class codes (this score types
        and encodes its columns itself, so :meth:`fit` is its own)."""
        enc, codes = data
        return CGData(enc, codes, self.classes_.size, float(self.var_smoothing),
                      float(self.ridge), int(self.min_cell_rows))

    @partition_dispatch()
    def fit(self, X, y=None):
        """Decide the column types, encode X and store what the scores need.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Mixed columns; NaN / None / empty strings are missing cells. Or
            :class:`~estimators.stats.partitions.Partitions` (``y`` None), e.g.
            ``estimators.distributed.collect(X, y)`` of a Dask DataFrame (complete rows):
            reduced to statistics, it answers the pair scores (one parent) only
            (:mod:`estimators.network.cg_pairs`).
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self._validate_params()
        self.encoder_ = MixedEncoder(self.feature_types).fit(X)
        enc = self.encoder_.transform(X)
        with named_errors(type(self).__name__):
            self.classes_, codes = encode_classes(y, enc.codes.shape[0])
        return self._fit_encoded(enc, codes)

    def _fit_from_statistics(self, data: Partitions) -> ConditionalGaussianScore:
        """The pair scores (one parent at most) from the partitions' statistics
        (:func:`~estimators.network.cg_pairs.cg_pair_statistics`)."""
        encoder, enc, table, classes, W = cg_pair_statistics(
            data, self.feature_types, var_smoothing=float(self.var_smoothing),
            ridge=float(self.ridge), min_cell_rows=int(self.min_cell_rows))
        self.encoder_ = encoder
        self.classes_ = classes
        self.variables_ = list(data.names)
        self.feature_types_ = dict(zip(data.names, enc.types, strict=True))
        self.n_features_in_ = len(data.names)
        counts = table.class_counts
        self.class_prior_ = counts / counts.sum()
        self._index = {v: i for i, v in enumerate(self.variables_)}
        self.data_ = None  # no rows: pairs only, from the statistics
        self.stats_ = table
        self._max_parents = 1
        self._edge_matrix = W
        ii, jj = np.nonzero(~np.eye(len(data.names), dtype=bool))
        self._cache = {(int(j), frozenset({int(i)})): float(W[i, j])
                       for i, j in zip(ii, jj, strict=True)}
        return self

    def fit_encoded(self, enc: EncodedColumns, y_codes: np.ndarray, classes: np.ndarray):
        """Fit on a table already encoded by a classifier's :class:`MixedEncoder`.

        Parameters
        ----------
        enc : EncodedColumns
        y_codes : ndarray of int, shape (n,)
            Class codes ``0 .. len(classes) - 1``.
        classes : ndarray
            The class labels.

        Returns
        -------
        self
        """
        self._validate_params()
        self.classes_ = np.asarray(classes)
        return self._fit_encoded(enc, np.asarray(y_codes, dtype=np.int64))

    def _fit_encoded(self, enc: EncodedColumns, codes: np.ndarray):
        self.variables_ = list(enc.names)
        self.feature_types_ = dict(zip(enc.names, enc.types, strict=True))
        self.n_features_in_ = len(enc.names)
        m = self.classes_.size
        self.class_prior_ = np.bincount(codes, minlength=m) / codes.size
        self._index = {v: i for i, v in enumerate(self.variables_)}
        self.data_ = self._prepare((enc, codes))
        self._cache: dict[tuple[int, frozenset], float] = {}
        #: per parent count j: (sorted keys of (v, P) in base d, values) -- score_positions
        self._position_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._edge_matrix = None
        return self

    #: ``block(data, items or Hyperedges) -> values`` of the hyperedges
    _block = staticmethod(cg_block)

    def _compute(self, todo: list[tuple[int, frozenset]]) -> None:
        """``f(v, P)`` for the uncached hyperedges (directed: no pair symmetry is used)."""
        work = [(v, tuple(sorted(p))) for v, p in todo]
        self._store(todo, run_chunked(type(self)._block, self.data_, work, self.n_jobs))

    def score_many(self, items) -> np.ndarray:
        """Score many hyperedges at once (see :meth:`BaseCMI.score_many`), through the
        cache of :meth:`score_positions`."""
        check_is_fitted(self, "data_")
        if self.data_ is None:  # fitted from partition statistics: the pair cache
            return BaseCMI.score_many(self, items)
        return super().score_many(items)

    def _positions(self, V: np.ndarray, P: np.ndarray) -> np.ndarray:
        """The batched cell-statistics path (:func:`cg_block`), cached by hyperedge."""
        key = positions_key(np.column_stack([V, P]), self.n_features_in_)
        if self.data_ is None or key is None:  # no rows / keys would overflow
            return self._items_path(V, P)
        return cached(self._position_cache, P.shape[1], key, lambda rows: run_chunked(
            type(self)._block, self.data_, Hyperedges(V[rows], P[rows]), self.n_jobs))

    def edge_matrix(self) -> np.ndarray:
        """The directed matrix ``W[i, j] = f(j, {i})`` (parent i, child j; zero diagonal).

        Returns
        -------
        ndarray of shape (n_features, n_features)
            Not symmetric in general; -inf marks ineligible pairs.
        """
        check_is_fitted(self, "data_")
        if self._edge_matrix is None:
            d = self.n_features_in_
            ii, jj = np.nonzero(~np.eye(d, dtype=bool))
            names = self.variables_
            vals = self.score_many([(names[j], (names[i],)) for i, j in zip(ii, jj, strict=True)])
            W = np.zeros((d, d))
            W[ii, jj] = vals
            self._edge_matrix = W
        return self._edge_matrix.copy()
