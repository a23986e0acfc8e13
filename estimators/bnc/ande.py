"""AODE and AnDE: averaged super-parent n-dependence estimators (MATH.md §9).

A SPODE with super-parent set S (n features) is the Bayesian network in which the class
and the members of S are parents of every other feature (the members of S ordered among
themselves by column): ``p(y, x) = p(y) p(x_S | y) prod_{i not in S} p(x_i | y, x_S)``.
AnDE (Webb, Boughton and Wang 2005 for n = 1, AODE; Webb et al. 2012 for n >= 2) averages
the SPODEs' *joint* probabilities over the n-subsets S that qualify for the row:

    p(y | x) ∝ (1 / |Q(x)|) sum_{S in Q(x)} p_S(y, x_O)

**Factors.** Every SPODE's factors are the conditional Gaussian factors of MATH.md §7
(:func:`estimators.network.model.fit_network`, the k-TAN's): a categorical feature given categorical
super-parents is a CPT with Laplace smoothing ``(n_{x,u,y} + alpha) / (n_{u,y} + K alpha)``
(``alpha=1``: Laplace's rule; smaller ``alpha`` is the m-estimate with a uniform prior and
equivalent sample size ``K alpha``); a continuous feature given (y, x_S) is a linear
Gaussian in the continuous members of S within each cell of its categorical members; a
categorical feature with a continuous super-parent is Bayes' rule on the CG joint; a
continuous super-parent itself is a Gaussian given the class. Each factor is fitted on its
available cases.

**Frequency limit.** ``Q(x)`` holds the S whose *observed categorical* members take, jointly,
a value seen in at least ``frequency_limit`` training rows (``m = 1`` by default, Webb's
later recommendation; 30 in the 2005 paper). A continuous member has no frequency limit
(its SPODE is always defined: a Gaussian has no empty cells), and a missing member is not
tested (see empty cells). If ``Q(x)`` is empty, the row gets naive Bayes, as in Webb's
AODE. A category unseen in training is a missing cell for every kgraph classifier (the
template codes it ``-1``), so it too is marginalised rather than excluding its SPODE.

**Empty cells.** Each SPODE marginalises exactly on its own structure
(:meth:`estimators.network.model.CGNetwork.joint_log_likelihood`, MATH.md §8): a missing child
drops from the product; a SPODE whose super-parent is missing stays in the average,
marginalised over it -- a sum over the levels of a categorical super-parent, the Gaussian
integral for a continuous one (closed form over linear-Gaussian children, a Gauss--Hermite
rule of order 64 where it has categorical children; error ~1e-7,
:mod:`estimators.marginal.mixed`). So every member of the average is a proper joint
``p_S(y, x_O)`` and the average is too. (Dropping such SPODEs instead would make the
average depend on which cells are missing in a way no joint model does.)

**Larger than memory.** AODE (``n = 1``) fits from a Dask DataFrame: every family has at
most one feature parent, so the partitions' pair statistics (counts and class/level
moments; ``fit(estimators.distributed.collect(X, y))``) hold everything; predictions equal the in-memory
fit's on complete tables (the Dask path fits on complete rows). AnDE with ``n >= 2`` needs
triples and is refused there.

**Cost.** ``C(d, n)`` SPODEs of ``d`` factors each: ``d^2`` factors for AODE, ``d^3 / 2``
for A2DE. The linear-Gaussian factors (a continuous child of continuous super-parents) of
all SPODEs are fitted at once from the class moments (:mod:`estimators.bnc._spode_gaussian`, the
same numbers as the per-family fit), and the SPODEs made only of them (a continuous table)
are evaluated together, a missing super-parent integrated out exactly for all (row, SPODE)
pairs at once. Any other SPODE evaluates on all rows at once (no loop over rows), the rows
grouped by the missing pattern of its super-parents only (a missing leaf drops whatever else
is missing, :mod:`estimators.bnc._spode_joint`): observed super-parents are the factors
summed, missing categorical ones are enumerated, and only rows with a missing continuous
super-parent go to the marginalisation engine. A2DE on sonar (208 x 60 continuous, 1,770
SPODEs) fits in a few seconds (``benchmarks/ande_speed.py``).

Examples
--------
>>> import numpy as np
>>> from estimators.bnc import AODEClassifier, A2DEClassifier
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 300)
>>> X = (rng.random((300, 4)) < 0.3 + 0.4 * y[:, None]).astype(int)
>>> aode = AODEClassifier().fit(X, y)
>>> aode.structure_
SuperParentEnsemble(n=1, 4 SPODEs over 4 features)
>>> A2DEClassifier().fit(X, y).structure_.super_parents[:2]
(('x0', 'x1'), ('x0', 'x2'))
>>> aode.predict_proba(X[:2]).sum(axis=1).round(12).tolist()
[1.0, 1.0]
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from itertools import combinations
from numbers import Integral

import numpy as np
from scipy.special import logsumexp
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from estimators.base.model_size import MAX_CELLS_PARAMETER, check_size, column_sizes, spode_size
from estimators.base.parameters import (
    ALPHA,
    RANDOM_STATE,
    VAR_SMOOTHING,
    VERBOSE,
    Flag,
    Parameter,
    declare,
)
from estimators.base.progress import progress
from estimators.bnc._counts import categorical_factor
from estimators.bnc._spode_gaussian import GaussianSpodes, fit_gaussian_families
from estimators.bnc._spode_joint import spode_joint_log_likelihood
from estimators.columns import EncodedColumns
from estimators.learning.structure_scores import MIN_CELL_ROWS
from estimators.network.class_node import unique_class_node
from estimators.network.fitting import fit_cg_factor
from estimators.network.hdp_tables import HDP_PARAMETERS, hdp_smoothing
from estimators.network.model import CGNetwork, var_floor
from estimators.network.stats_factors import factor_from_stats, log_likelihood_from_stats
from estimators.template.family_registry import register_family
from estimators.template.joint_likelihood import (
    DISCRETIZE,
    FEATURE_SELECTION,
    FEATURE_TYPES,
    JointLogLikelihoodClassifier,
)
from kgraph.superparent import SuperParentEnsemble

__all__ = ["A2DEClassifier", "AODEClassifier", "AnDEClassifier"]

#: SPODEs x rows x factor parameters evaluated at once (bounds memory)
_CHUNK = 1 << 22



#: the parameters of every AnDE classifier (AnDE adds ``n``)
ANDE_PARAMETERS = (
    Parameter("frequency_limit", 1, [Interval(Integral, 0, None, closed="left")], "int",
              "A SPODE is averaged for a row only when its observed categorical "
              "super-parents' joint value occurs in at least this many training rows "
              "(Webb's ``m``); 0 averages every SPODE."),
    ALPHA.but(doc="Pseudo-count of every CPT cell (Laplace smoothing)."),
    VAR_SMOOTHING.but(doc=("Fraction of the largest continuous-feature variance added to "
                           "every residual variance (as scikit-learn's ``GaussianNB``).")),
    FEATURE_TYPES,
    FEATURE_SELECTION.but(doc=(
        "Which features the SPODEs span (:func:`estimators.learning.feature_selection."
        "select_features`); None: all non-constant ones.")),
    RANDOM_STATE.but(doc="Seeds the feature selection's folds or permutations (None: seed 0)."),
    VERBOSE.but(doc="A progress bar over the SPODEs inside ``fit``."),
    MAX_CELLS_PARAMETER,
    Parameter(
        "smoothing", "laplace", [StrOptions({"laplace", "hdp"})], '{"laplace", "hdp"}',
        '``"laplace"``: the SPODEs\' tables with pseudo-count ``alpha``. ``"hdp"``: every '
        "categorical table ``p(x | super-parents, class)`` estimated by the hierarchical "
        "Dirichlet process of Petitjean et al. (2018) (:mod:`estimators.network.hdp_tables`: "
        "the tree backs off from the super-parents' value to the class; Gibbs sampling with "
        "the ``hdp_*`` parameters, seeded by ``random_state``); continuous features keep "
        "their Gaussian factors, a categorical feature with a continuous super-parent its "
        "Bayes'-rule factor (with ``alpha``).",
        Flag("the SPODEs' tables: laplace (alpha) or hdp", choices=None)),
    *(p.but(doc=p.doc.replace('``parameters="hdp"``', '``smoothing="hdp"``'))
      for p in HDP_PARAMETERS),
    DISCRETIZE,
)


@register_family(
    "ande", "AnDE classifier (averaged n-dependence estimators, MATH.md §9)", command_line=False)
@declare(
    Parameter(
        "n", 1, [Interval(Integral, 1, None, closed="left")], "int",
        "Size of the super-parent sets: 1 is AODE, 2 is A2DE. With fewer than ``n`` "
        "modelled features the model is naive Bayes."),
    *ANDE_PARAMETERS,
)
class AnDEClassifier(JointLogLikelihoodClassifier):
    """Averaged n-dependence estimators (AnDE): the mean of the SPODE joints over every
    super-parent set of ``n`` features (see :mod:`estimators.bnc.ande`).

    Attributes
    ----------
    structure_ : kgraph.superparent.SuperParentEnsemble
        The averaged SPODEs (feature names); its graph is the union of their arcs.
    spodes_ : list of CGNetwork
        The fitted factors of each SPODE, in the order of ``structure_.super_parents``.
    naive_bayes_ : CGNetwork
        The fallback for rows without a qualifying SPODE.
    edge_scores_ : dict
        ``(s, v) -> nats``: the training log-likelihood gain per row of giving v its
        parents in the SPODEs with the arc ``s -> v`` over naive Bayes's ``p(x_v | y)``
        (MATH.md §7's score f(v, P), averaged over those SPODEs; for AODE f(v, {s})).
    super_parent_counts_ : list of ndarray
        Per SPODE, the training rows of each joint value of its categorical super-parents
        (axes in the order of ``structure_.super_parents``; shape ``()`` when all are
        continuous).
    selected_features_ : list
        The modelled features.
    feature_selection_ : str or None
    classes_, class_count_, class_log_prior_, feature_types_, constant_features_,
    n_features_in_, feature_names_in_

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.bnc import AnDEClassifier
    >>> rng = np.random.default_rng(1)
    >>> y = rng.integers(0, 3, 200)
    >>> X = np.column_stack([rng.normal(y, 1.0), rng.integers(0, 2, 200), rng.normal(size=200)])
    >>> clf = AnDEClassifier(n=2).fit(X, y)
    >>> len(clf.spodes_), clf.predict(X[:3]).shape
    (3, (3,))
    """

    #: its graph in :func:`estimators.network.export.structure_graph.structure_graph`
    structure_graph_kind = "ande"

    _learns_dependence = True

    def __init__(self, n: int = 1, *, frequency_limit: int = 1, alpha: float = 1.0,
                 var_smoothing: float = 1e-9, feature_types="auto",
                 feature_selection: str | None = None, random_state=None,
                 verbose: bool = False, max_cells: int = 1_000_000,
                 smoothing: str = "laplace", hdp_iterations: int = 5000,
                 hdp_burn_in: int | None = None, hdp_tying: str = "level",
                 discretize: str | None = None):
        self.discretize = discretize
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.hdp_burn_in = hdp_burn_in
        self.hdp_tying = hdp_tying
        self.max_cells = max_cells
        self.n = n
        self.frequency_limit = frequency_limit
        self.alpha = alpha
        self.var_smoothing = var_smoothing
        self.feature_types = feature_types
        self.feature_selection = feature_selection
        self.random_state = random_state
        self.verbose = verbose

    def _n(self) -> int:
        return self.n

    def _table_smoothing(self):
        """The categorical tables' smoothing: ``alpha``, or the HDP of ``smoothing="hdp"``
        (:func:`~estimators.network.hdp_tables.hdp_smoothing`)."""
        return hdp_smoothing(self) if self.smoothing == "hdp" else self.alpha

    def _check_model_size(self, enc) -> None:
        """Refuse, before any work, a super-parent set size whose SPODE tables would hold
        more than ``100 * max_cells`` cells in all, or one more than ``max_cells``
        (:mod:`estimators.base.model_size`). With fewer than ``n`` modelled features the
        model is naive Bayes, as documented, so ``n`` has no upper bound of its own."""
        n, (sizes, work) = self._n(), column_sizes(enc)
        named = "n" in self.get_params()
        check_size("n", n, spode_size(sizes, self.classes_.size, work),
                   highest=n, bound="", limit=self.max_cells,
                   offer=None if named else (lambda v: f"AnDEClassifier(n={v})"))

    def _fit_table(self, X, y):
        """Fit every SPODE's factors (one pass over the super-parent sets)."""
        enc, codes = self._validate_training(X, y)
        kept = self._modelled_features(enc, codes)
        fit = dict(alpha=self._table_smoothing(), var_smoothing=self.var_smoothing, ridge=0.0,
                   min_cell_rows=MIN_CELL_ROWS, var_floor=var_floor(enc, kept, self.var_smoothing))
        m = self.classes_.size
        # every continuous family with continuous parents, of all SPODEs, fitted at once
        gaussian = fit_gaussian_families(
            enc, codes, m, _continuous_families(enc, kept, self._n()),
            var_floor=fit["var_floor"], min_cell_rows=MIN_CELL_ROWS)

        def network(parents):
            net, means = _spode(enc, codes, m, kept, parents, fit, gaussian)
            return net, [_mean_log_prob(f, enc, codes) if mean is None else mean
                         for f, mean in zip(net.factors, means, strict=True)]

        return self.fit_spodes(kept, network, lambda S: _joint_counts(enc, S))

    def _needs_rows(self) -> str | None:
        if self._n() != 1:  # families with n feature parents: the statistics hold pairs
            return f"n={self._n()}"
        return super()._needs_rows()

    def _fit_from_statistics(self, enc, table, data):
        """AODE from the pair statistics: every factor has at most one feature parent
        (:func:`~estimators.network.stats_factors.factor_from_stats`), the frequency
        limit's counts are the categorical columns' level counts, and the edge scores the
        factors' training log-likelihoods from the same statistics (NaN for a categorical
        child of a continuous super-parent: Bayes' rule's likelihood needs the rows)."""
        kept = self._modelled_statistics(enc)
        fit = dict(alpha=self._table_smoothing(), var_smoothing=self.var_smoothing, ridge=0.0,
                   min_cell_rows=MIN_CELL_ROWS,
                   var_floor=table.var_floor(kept, self.var_smoothing))

        def network(parents):
            fitted = [factor_from_stats(table, v, pa, **fit)
                      for v, pa in zip(kept, parents, strict=True)]
            mean = []
            for factor, own in fitted:
                ll = log_likelihood_from_stats(factor, own)
                mean.append(np.nan if ll is None else ll / max(factor.n_rows, 1))
            return CGNetwork(tuple(kept), tuple(tuple(pa) for pa in parents),
                             tuple(f for f, _ in fitted)), mean

        def counts(S):
            (s,) = S
            if enc.continuous[s]:
                return np.array(float(table.n_rows))
            q = table.position[s]
            return np.diagonal(table.stats.counts.table(q, q), axis1=1, axis2=2).sum(axis=0)

        return self.fit_spodes(kept, network, counts)

    def fit_spodes(self, kept: list, network, counts):
        """Fit the naive Bayes and every SPODE over the columns ``kept`` from ``network``
        (feature parents per column -> ``(CGNetwork, mean training ln p of each factor)``)
        and ``counts`` (super-parent set -> its joint value counts): the one fitting step of
        the in-memory and the Dask path (:meth:`_fit_from_statistics`).
        Returns ``self``."""
        n = self._n()
        sets = list(combinations(kept, n)) if len(kept) >= n else []
        names = self.feature_names()
        self.naive_bayes_, nb = network([()] * len(kept))
        self.spodes_, self.super_parent_counts_ = [], []
        gains: dict = {}
        for S in progress(sets, f"{type(self).__name__} SPODEs"):
            parents = [S[:S.index(v)] if v in S else S for v in kept]
            net, mean = network(parents)
            self.spodes_.append(net)
            self.super_parent_counts_.append(counts(S))
            for i, (v, pa) in enumerate(zip(kept, parents, strict=True)):
                for p in pa:
                    gains.setdefault((names[p], names[v]), []).append(mean[i] - nb[i])
        self.edge_scores_ = {e: float(np.mean(g)) for e, g in gains.items()}
        self.structure_ = SuperParentEnsemble(
            [names[j] for j in kept], [[names[j] for j in S] for S in sets], n,
            target=self.class_node_)
        self._sets = sets
        # the continuous SPODEs' factors stacked: all their joints at once
        stacked = [k for k, (net, S) in enumerate(zip(self.spodes_, sets, strict=True))
                   if GaussianSpodes.stackable(net, S)]
        self._gaussian = (np.array(stacked, np.int64), GaussianSpodes.of(
            [self.spodes_[k] for k in stacked], [sets[k] for k in stacked]) if stacked else None)
        return self

    def __getstate__(self) -> dict:
        """The state with the SPODEs' factors as one pickle: ``joblib.dump`` wraps every
        array of its own (A2DE on sonar: ~10^5 factors, 44 s of CPU against 4 s for one
        pickle of them)."""
        state = super().__getstate__()
        if "spodes_" in state:
            state = {**state, "spodes_": _PickledSpodes(pickle.dumps(state["spodes_"],
                                                                     protocol=5))}
        return state

    def __setstate__(self, state: dict) -> None:
        if isinstance(state.get("spodes_"), _PickledSpodes):
            state = {**state, "spodes_": pickle.loads(state["spodes_"].data)}
        super().__setstate__(state)

    @property
    def selected_features_(self) -> list:
        """The modelled features, in column order."""
        check_is_fitted(self)
        return list(self.structure_.features)

    @property
    def class_node_(self) -> str:
        """Name of the class vertex: ``"class"``, with ``_`` added until unique."""
        return unique_class_node(self.feature_names())

    def qualifying(self, enc: EncodedColumns) -> np.ndarray:
        """Boolean (n_samples, n_spodes): the SPODE is averaged for the row (its observed
        categorical super-parents' value seen in at least ``frequency_limit`` training
        rows)."""
        out = np.ones((enc.codes.shape[0], len(self._sets)), dtype=bool)
        for k, S in enumerate(self._sets):
            out[:, k] = _frequency(enc, S, self.super_parent_counts_[k]) >= self.frequency_limit
        return out

    def _joint_log_likelihood(self, X: EncodedColumns) -> np.ndarray:
        """``ln`` of the average of the qualifying SPODEs' ``p_S(y, x_O)``; naive Bayes for
        rows without one."""
        rows = X.codes.shape[0]
        total = np.full((rows, self.classes_.size), -np.inf)
        count = np.zeros(rows)
        if self._sets:
            use = self.qualifying(X)
            stacked, gaussian = self._gaussian
            if gaussian is not None:  # continuous S: no frequency limit, every row
                per = gaussian.coef[0].size  # array entries per row and SPODE
                block = max(1, _CHUNK // per)
                for r in range(0, rows, block):
                    here = slice(r, r + block)
                    part = X.take(here) if rows > block else X
                    step = max(1, _CHUNK // (part.codes.shape[0] * per))
                    for start in range(0, stacked.size, step):
                        ll = gaussian.log_likelihood(part, slice(start, start + step))
                        total[here] = np.logaddexp(
                            total[here], logsumexp(ll + self.class_log_prior_, axis=0))
                count += stacked.size
            for k in np.setdiff1d(np.arange(len(self.spodes_)), stacked):
                net = self.spodes_[k]
                if not use[:, k].any():
                    continue
                part = X.take(use[:, k])
                jll = spode_joint_log_likelihood(net, self._sets[k], part, self.class_log_prior_)
                total[use[:, k]] = np.logaddexp(total[use[:, k]], jll)
                count += use[:, k]
        out = np.empty_like(total)
        some = count > 0
        out[some] = total[some] - np.log(count[some])[:, None]
        if (~some).any():
            out[~some] = self.naive_bayes_.joint_log_likelihood(X.take(~some),
                                                                self.class_log_prior_)
        return out


@dataclass(frozen=True)
class _PickledSpodes:
    """The pickled ``spodes_`` of a fitted AnDE (see ``AnDEClassifier.__getstate__``)."""

    data: bytes


def _spode(enc: EncodedColumns, codes: np.ndarray, m: int, kept: list, parents: list,
           fit: dict, gaussian: dict) -> tuple[CGNetwork, list]:
    """One SPODE's network: categorical families with categorical parents from counts
    (:mod:`estimators.bnc._counts`), continuous ones with continuous parents from
    ``gaussian`` (:func:`estimators.bnc._spode_gaussian.fit_gaussian_families`), the others by
    :func:`estimators.network.fitting.fit_cg_factor` as :func:`estimators.network.model.fit_network`
    calls it (``fit``: its arguments); and per factor its mean training ``ln p`` when known
    (else None)."""
    cont, observed = enc.continuous, enc.observed
    fitted = []
    for v, pa in zip(kept, parents, strict=True):
        pa = tuple(sorted(pa))
        if (v, pa) in gaussian:
            fitted.append(gaussian[v, pa])
        elif not cont[v] and not cont[list(pa)].any():
            fitted.append(categorical_factor(enc, codes, m, v, pa, fit["alpha"], observed))
        else:
            fitted.append((fit_cg_factor(enc, codes, m, v, pa,
                                         shrink=not observed[:, [v, *pa]].all(), **fit), None))
    return (CGNetwork(tuple(kept), tuple(tuple(sorted(pa)) for pa in parents),
                      tuple(f for f, _ in fitted)), [mean for _, mean in fitted])


def _continuous_families(enc: EncodedColumns, kept: list, n: int) -> list:
    """The families ``(v, C)`` of the naive Bayes and the SPODEs over ``kept`` whose child
    and parents are all continuous."""
    cont = [v for v in kept if enc.continuous[v]]
    out = [(v, ()) for v in cont]
    for S in combinations(cont, n) if len(kept) >= n else ():
        out += [(v, S[:S.index(v)] if v in S else S) for v in cont]
    return out


def _mean_log_prob(factor, enc: EncodedColumns, codes: np.ndarray) -> float:
    """Mean ``ln p(x_v | parents, y_i)`` of the training rows where the factor's family is
    observed."""
    lp = factor.log_prob(enc)[np.arange(codes.size), codes]
    ok = np.isfinite(lp) & enc.observed[:, factor.v]
    return float(lp[ok].mean()) if ok.any() else 0.0


def _categorical_members(enc: EncodedColumns, S) -> list:
    return [s for s in S if not enc.continuous[s]]


def _joint_counts(enc: EncodedColumns, S) -> np.ndarray:
    """Training rows of each joint value of the categorical members of ``S`` (rows where
    all of them are observed), an array with one axis per member."""
    cat = _categorical_members(enc, S)
    shape = tuple(int(enc.n_levels[s]) for s in cat)
    if not cat:
        return np.array(float(enc.codes.shape[0]))
    codes = enc.codes[:, cat]
    seen = (codes >= 0).all(axis=1)
    flat = np.ravel_multi_index(tuple(codes[seen].T), shape)
    return np.bincount(flat, minlength=int(np.prod(shape))).reshape(shape).astype(float)


def _frequency(enc: EncodedColumns, S, counts: np.ndarray) -> np.ndarray:
    """Per row, the training count of the observed categorical members' joint value
    (members missing in the row summed out; ``inf`` when none is observed: no limit)."""
    cat = _categorical_members(enc, S)
    rows = enc.codes.shape[0]
    if not cat:
        return np.full(rows, np.inf)
    codes = enc.codes[:, cat]
    seen = codes >= 0
    out = np.full(rows, np.inf)
    patterns, inverse = np.unique(seen, axis=0, return_inverse=True)
    for p, pattern in enumerate(patterns):  # at most 2^n patterns
        if not pattern.any():
            continue
        table = counts.sum(axis=tuple(np.flatnonzero(~pattern))) if (~pattern).any() else counts
        here = inverse.ravel() == p
        out[here] = table[tuple(codes[here][:, pattern].T)]
    return out


@register_family("aode", "AODE classifier (averaged one-dependence estimators, MATH.md §9)")
@declare(*ANDE_PARAMETERS)
class AODEClassifier(AnDEClassifier):
    """Averaged one-dependence estimators (AODE, Webb, Boughton and Wang 2005):
    :class:`AnDEClassifier` with ``n = 1``.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.bnc import AODEClassifier, AnDEClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> X = (rng.random((200, 3)) < 0.3 + 0.4 * y[:, None]).astype(int)
    >>> a = AODEClassifier().fit(X, y).predict_proba(X)
    >>> bool(np.allclose(a, AnDEClassifier(n=1).fit(X, y).predict_proba(X), rtol=0, atol=1e-15))
    True
    """

    def __init__(self, *, frequency_limit: int = 1, alpha: float = 1.0,
                 var_smoothing: float = 1e-9, feature_types="auto",
                 feature_selection: str | None = None, random_state=None,
                 verbose: bool = False, max_cells: int = 1_000_000,
                 smoothing: str = "laplace", hdp_iterations: int = 5000,
                 hdp_burn_in: int | None = None, hdp_tying: str = "level",
                 discretize: str | None = None):
        self.discretize = discretize
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.hdp_burn_in = hdp_burn_in
        self.hdp_tying = hdp_tying
        self.max_cells = max_cells
        self.frequency_limit = frequency_limit
        self.alpha = alpha
        self.var_smoothing = var_smoothing
        self.feature_types = feature_types
        self.feature_selection = feature_selection
        self.random_state = random_state
        self.verbose = verbose

    def _n(self) -> int:
        return 1


@register_family("a2de", "A2DE classifier (averaged two-dependence estimators, MATH.md §9)")
@declare(*ANDE_PARAMETERS)
class A2DEClassifier(AODEClassifier):
    """Averaged two-dependence estimators (A2DE, Webb et al. 2012): :class:`AnDEClassifier`
    with ``n = 2`` (every pair of features a super-parent set).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.bnc import A2DEClassifier
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> X = (rng.random((200, 3)) < 0.3 + 0.4 * y[:, None]).astype(int)
    >>> A2DEClassifier().fit(X, y).structure_.n
    2
    """

    def _n(self) -> int:
        return 2
