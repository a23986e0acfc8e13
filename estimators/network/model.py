"""The parent-set network: the one model of every structured classifier (MATH.md §7–§9).

:class:`CGNetwork` holds the fitted factors (:mod:`estimators.network.factors`) of the
modelled features on ANY DAG over them with the class a parent of every feature -- an
acyclic k-tree (TAN, k-TAN), a kDB or BAN :class:`kgraph.ParentSetDAG` -- and gives the
joint log-likelihood, the exact marginalisation of empty cells, its structure graph
(:meth:`CGNetwork.to_graph`) and the pgmpy DAG (:meth:`CGNetwork.to_pgmpy`; the CPDs of a
fitted classifier: :func:`estimators.network.export.pgmpy_network.to_pgmpy`).

Every modelled feature v gets ``p(x_v | x_pa(v), y)`` from
:func:`estimators.network.fitting.fit_cg_factor` on the rows where v, its parents and y are observed
(available cases): a CPT with pseudo-count ``alpha`` for a categorical v with categorical
parents, a class-conditional linear-Gaussian regression for a continuous v (one per
configuration of its categorical parents), Bayes' rule on the CG joint for a categorical v
with continuous parents. Residual variances get ``var_smoothing`` times the largest
feature variance added, as scikit-learn's ``GaussianNB``, and the slopes are the
(minimum-norm) least-squares ones: on complete single-type data these are the CPTs and
regressions the discrete and Gaussian k-TAN had before mixed tables. A factor fitted on
available cases (its family v, P has a missing cell in some training row) instead blends
every Gaussian cell (parent configuration x class) with ``max(min_cell_rows, |C| + 2)``
pseudo-rows of its coarser cell (the class, then all rows; ``shrink=True`` of
:func:`~estimators.network.fitting.fit_cg_factor`, MATH.md §8): a conjugate prior that keeps a
regression fitted on the few available cases of a 2- or 3-parent family from collapsing
its residual variance. A family observed on every training row keeps the maximum-likelihood
fit (with small cells pooled), so complete tables are fitted exactly as before. ``ln p(y, x)`` of a complete row is ``ln p(y) + sum_v
ln p(x_v | x_pa(v), y)``; rows with missing cells (or categories unseen in training, coded
as missing) go to :meth:`CGNetwork.log_marginal`, the exact marginalisation of
:mod:`estimators.marginal`, which groups them by missing pattern.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from estimators.columns import EncodedColumns
from estimators.marginal import cg_log_marginal, discrete_log_marginal_evidence
from estimators.network.factors import LinearGaussianFactor
from estimators.network.fitting import fit_cg_factor
from kgraph import ParentSetDAG

#: an all-categorical network with more missing patterns than this uses the evidence engine
EVIDENCE_MIN_PATTERNS = 16
#: ... when it has at most this many features (NumPy's axis limit)
EVIDENCE_MAX_FEATURES = 60


@dataclass(frozen=True, eq=False)
class CGNetwork:
    """The factors of the modelled features.

    Attributes
    ----------
    columns : tuple of int
        Encoded-column index of each modelled feature (constant columns are not modelled).
    parents : tuple of tuple of int
        ``parents[i]``: the feature parents of ``columns[i]`` (encoded-column indices, sorted).
    factors : tuple
        ``factors[i]``: the fitted factor of ``columns[i]`` (``log_prob(enc) -> (n, m)``).

    Examples
    --------
    The fitted network of a TAN on iris with one categorical column added (``network_``):

    >>> import numpy as np
    >>> from estimators import TANClassifier, load_dataset
    >>> X, y = load_dataset("iris")
    >>> X["over_5"] = np.where(X["sepal length (cm)"] > 5.0, "yes", "no")
    >>> network = TANClassifier().fit(X, y).network_
    >>> type(network).__name__, len(network.columns), network.parents[0]
    ('CGNetwork', 5, ())
    >>> sorted({type(f).__name__ for f in network.factors})
    ['BayesCategoricalFactor', 'LinearGaussianFactor']
    """

    columns: tuple
    parents: tuple
    factors: tuple

    def log_likelihood(self, enc: EncodedColumns) -> np.ndarray:
        """``sum_v ln p(x_v | x_pa(v), y)`` per row and class, shape (n, n_classes): exact on
        complete rows; 0 for a missing v; NaN where an observed v has a missing parent."""
        return sum(f.log_prob(enc) for f in self.factors)

    def missing(self, enc: EncodedColumns) -> np.ndarray:
        """Boolean (n, len(columns)): the modelled cell is missing (or unseen)."""
        return ~enc.observed[:, list(self.columns)]

    def joint_log_likelihood(self, enc: EncodedColumns, class_log_prior: np.ndarray
                             ) -> np.ndarray:
        """``ln p(y, x_O)`` per row and class: the factors on complete rows, exact
        marginalisation (:meth:`log_marginal`) on the others."""
        missing = self.missing(enc)
        incomplete = missing.any(axis=1)
        out = np.empty((enc.codes.shape[0], class_log_prior.size))
        if (~incomplete).any():
            out[~incomplete] = self.log_likelihood(enc.take(~incomplete)) + class_log_prior
        if incomplete.any():
            out[incomplete] = self.log_marginal(enc.take(incomplete), class_log_prior)
        return out


    def to_graph(self, names, target="class") -> ParentSetDAG:
        """The structure as a :class:`kgraph.ParentSetDAG` over the feature ``names``
        (``names[j]`` of encoded column ``j``), features in the network's order, the class
        vertex ``target``.

        Examples
        --------
        >>> import numpy as np, pandas as pd
        >>> from estimators.columns import MixedEncoder
        >>> rng = np.random.default_rng(0)
        >>> X = pd.DataFrame({"a": rng.normal(size=50), "b": rng.normal(size=50)})
        >>> y = rng.integers(0, 2, 50)
        >>> net = fit_network(MixedEncoder().fit_transform(X), y, 2, (0, 1), ((), (0,)),
        ...                   alpha=1.0, var_smoothing=1e-9, ridge=0.0, min_cell_rows=5)
        >>> net.to_graph(["a", "b"], "y").edges
        [('a', 'b')]
        """
        return ParentSetDAG({names[v]: [names[p] for p in pa]
                             for v, pa in zip(self.columns, self.parents, strict=True)},
                            target=target)

    def to_pgmpy(self, names, target="class"):
        """The pgmpy ``DiscreteBayesianNetwork`` of :meth:`to_graph` (structure only; a
        fitted classifier's CPDs: :func:`estimators.network.export.pgmpy_network.to_pgmpy`)."""
        return self.to_graph(names, target).to_pgmpy()

    @cached_property
    def marginal_factors(self) -> list:
        """The factors as vertices of the marginalisation engine
        (:func:`estimators.marginal.cg_log_marginal`): vertex ``i`` the ``i``-th modelled
        column in column order (``sorted(columns)``), the engine's X that table's columns.

        Examples
        --------
        >>> import numpy as np
        >>> from estimators.ktan import TANClassifier
        >>> rng = np.random.default_rng(0)
        >>> X = np.column_stack([rng.integers(0, 2, 40), rng.integers(0, 3, 40)])
        >>> clf = TANClassifier().fit(X, rng.integers(0, 2, 40))
        >>> [(f.vertex, f.n_states) for f in clf.network_.marginal_factors]
        [(0, 2), (1, 3)]
        """
        vertex = {v: i for i, v in enumerate(sorted(self.columns))}
        out = sorted((f.relabel(vertex) for f in self.factors), key=lambda f: f.vertex)
        return list(out)

    def log_marginal(self, enc: EncodedColumns, class_log_prior: np.ndarray) -> np.ndarray:
        """``ln p(y, x_O)`` of every row and class, the missing (or unseen) cells of the
        modelled columns marginalised exactly by :func:`estimators.marginal.cg_log_marginal`
        (rows grouped by missing pattern; missing vertices without an observed descendant
        drop; categorical vertices summed; linear-Gaussian blocks integrated in closed form;
        a continuous vertex with a categorical descendant by a Gauss–Hermite rule of order
        :data:`estimators.marginal.GH_ORDER`, error stated in :mod:`estimators.marginal.mixed`).
        """
        cols = sorted(self.columns)
        missing = ~enc.observed[:, cols]
        prior = np.asarray(class_log_prior)
        if not enc.continuous[cols].any() and len(cols) <= EVIDENCE_MAX_FEATURES and len(
                np.unique(missing, axis=0)) > EVIDENCE_MIN_PATTERNS:
            # all categorical, many patterns: one elimination with per-row evidence (the
            # same numbers, benchmarks/results/marginal_patterns.md)
            return discrete_log_marginal_evidence(self.marginal_factors, prior,
                                                  enc.codes[:, cols], missing)
        X = np.where(enc.continuous[cols], enc.values[:, cols], enc.codes[:, cols])
        return cg_log_marginal(self.marginal_factors, prior, X, missing)


def fit_network(enc: EncodedColumns, y_codes: np.ndarray, n_classes: int, columns, parents, *,
                alpha: float, var_smoothing: float, ridge: float, min_cell_rows: int,
                ess: float | None = None) -> CGNetwork:
    """Fit the factor of every modelled column on its available cases.

    Categorical tables get the pseudo-count ``alpha`` in every cell (Laplace's rule) or,
    when ``ess`` is given, the BDeu-style Dirichlet prior that spreads ``ess`` pseudo-rows
    uniformly over the cells of the family of ``v``:
    ``alpha_v = ess / (r_v * q_v * m)``, ``q_v`` the number of configurations of v's
    categorical parents and ``m`` the number of classes (a table with many parent
    configurations is smoothed less per cell: the prior that makes BDeu score-equivalent).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> X = pd.DataFrame({"z": np.where(rng.random(200) < 0.3 + 0.4 * y, "a", "b"),
    ...                   "x": rng.normal(y, 1.0)})
    >>> enc = MixedEncoder().fit_transform(X)
    >>> net = fit_network(enc, y, 2, (0, 1), ((), (0,)), alpha=1.0, var_smoothing=1e-9,
    ...                   ridge=1e-8, min_cell_rows=5)
    >>> [type(f).__name__ for f in net.factors]
    ['CategoricalFactor', 'LinearGaussianFactor']
    """
    parents = tuple(tuple(sorted(int(p) for p in pa)) for pa in parents)
    columns = tuple(int(v) for v in columns)
    floor = var_floor(enc, columns, var_smoothing)
    factors = tuple(
        fit_cg_factor(enc, y_codes, n_classes, v, pa,
                      alpha=pseudo_count(enc, v, pa, n_classes, alpha, ess),
                      var_smoothing=var_smoothing, ridge=ridge, min_cell_rows=min_cell_rows,
                      var_floor=floor,
                      shrink=not enc.observed[:, [v, *pa]].all())
        for v, pa in zip(columns, parents, strict=True))
    return CGNetwork(columns, parents, factors)


def modelled_columns(enc: EncodedColumns, kept, names) -> EncodedColumns:
    """The columns ``kept`` of ``enc`` named ``names`` (the table a structure score of the
    modelled features is fitted on)."""
    kept = list(kept)
    return EncodedColumns(enc.values[:, kept], enc.codes[:, kept],
                          tuple(enc.types[j] for j in kept), enc.n_levels[kept],
                          tuple(names), enc.n_unseen[kept])


def refit_network(network: CGNetwork, enc: EncodedColumns, y_codes: np.ndarray,
                  n_classes: int, **kwargs):
    """``(factors, jll)``: ``network``'s structure refitted on ``(enc, y_codes)`` by
    :func:`fit_network` (``kwargs``: its smoothing arguments), and the function
    ``enc -> ln p(y, x_O)`` of the refitted network with the subset's class frequencies."""
    net = fit_network(enc, y_codes, n_classes, network.columns, network.parents, **kwargs)
    return list(net.factors), NetworkLikelihood(net, class_log_prior(y_codes, n_classes))


def class_log_prior(y_codes: np.ndarray, n_classes: int) -> np.ndarray:
    """``ln`` of the class frequencies of ``y_codes`` (an absent class counted once), the
    class term of :func:`refit_network`'s likelihood.

    Examples
    --------
    >>> import numpy as np
    >>> np.exp(class_log_prior(np.array([0, 0, 1, 0]), 3)).round(2).tolist()
    [0.75, 0.25, 0.25]
    """
    counts = np.bincount(y_codes, minlength=n_classes)
    return np.log(np.maximum(counts, 1) / counts.sum())


@dataclass(frozen=True, eq=False)
class NetworkLikelihood:
    """``enc -> ln p(y, x_O)`` of a fitted network with the class term ``class_log_prior``.

    On a row where every factor is defined (its vertex and parents observed, its parent
    cell seen) the value is ``class_log_prior + Σ_f f.log_prob`` (:meth:`CGNetwork.
    joint_log_likelihood`'s complete rows): what the discriminative inner cross-validation
    uses to skip the marginalisation on such rows."""

    network: CGNetwork
    class_log_prior: np.ndarray

    def __call__(self, enc: EncodedColumns) -> np.ndarray:
        return self.network.joint_log_likelihood(enc, self.class_log_prior)


def pseudo_count(enc: EncodedColumns, v: int, parents, n_classes: int, alpha: float,
                  ess: float | None) -> float:
    """``alpha``, or the BDeu-style ``ess / (r_v * q_v * m)`` of :func:`fit_network`."""
    if ess is None or enc.continuous[v] or not isinstance(alpha, (int, float)):
        return alpha  # a number, or a smoothing of its own (HDPSmoothing)
    q = np.prod([enc.n_levels[p] for p in parents if not enc.continuous[p]], dtype=float)
    return float(ess / (max(int(enc.n_levels[v]), 1) * q * n_classes))


def var_floor(enc: EncodedColumns, columns, var_smoothing: float) -> float:
    """``var_smoothing`` times the largest variance of the modelled continuous columns
    (observed cells), added to every residual variance as scikit-learn's ``GaussianNB``
    does (1 when there is no continuous column)."""
    cont = [v for v in columns if enc.continuous[v]]
    if not cont:
        return var_smoothing
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        largest = np.nanmax(np.nanvar(enc.values[:, cont], axis=0))
    return var_smoothing * (float(largest) if np.isfinite(largest) and largest > 0 else 1.0)


def floored_vertices(network: CGNetwork, floor: float) -> list:
    """Columns whose residual variance is at most twice the added ``floor`` in some cell
    seen in training: constant or collinear with their parents within a class."""
    return [v for v, f in zip(network.columns, network.factors, strict=True)
            if isinstance(f, LinearGaussianFactor) and np.any(f.var[:-1] <= 2.0 * floor)]


