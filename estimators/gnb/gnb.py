"""The Generalized Naive Bayes classifier for continuous features (paper 1, MATH.md §2–3)."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from estimators.base.parameters import (
    N_JOBS,
    RANDOM_STATE,
    VAR_SMOOTHING,
    VERBOSE,
    Flag,
    Parameter,
    declare,
    int_or_auto,
)
from estimators.base.user_warnings import user_fit
from estimators.densities import ClassGaussian
from estimators.densities.kde import BANDWIDTH
from estimators.gnb._forest import fit_rooted_forest, ratio_log_density
from estimators.gnb._gnb_base import BaseGNB
from estimators.gnb._learn import (
    DEPENDENCES,
    KERNELS,
    fitted_copula_tree,
    make_density,
    spanning_tree_of,
)
from estimators.gnb._log_linear import family_factors, forest_families
from estimators.gnb._mixed_scores import learn_gnb_tree
from estimators.gnb.reduction import best_n_clusters, increments_jll, reduction_scores
from estimators.scores.partition_scores import gaussian_statistics
from estimators.stats.cell_statistics import ClassMoments
from estimators.stats.engine import partition_dispatch
from estimators.stats.partitions import Partitions
from estimators.template.family_registry import register_family
from estimators.template.joint_likelihood import (
    FEATURE_TYPES,
    FIT_PARAMETERS,
)
from kgraph import GNBJunctionTree


@register_family("gnb", "GNB classifier (generalized Naive Bayes)")
@declare(
    Parameter("dependence", "gaussian", [StrOptions(set(DEPENDENCES))], '{"gaussian", "gaussian-copula", "kde"}',
              'Class-conditional pair model: bivariate normal; Gaussian copula with '
              'class-y KDE marginals; bivariate product-kernel KDE (with its own 1-D '
              'marginals).',
              Flag("the pair dependence model", choices="dependence")),
    Parameter("n_clusters", None, [None, Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})], 'None, int or "auto"',
              'None: all d - 1 clusters. int m in [1, d - 1]: the first m clusters. '
              '"auto": the m with the best mean weighted F1 over ``n_splits`` random '
              'splits of the training data (ties: smaller m); see '
              ':mod:`estimators.gnb.reduction`.',
              Flag("reduced model size or 'auto'", type=int_or_auto)),
    BANDWIDTH.but(doc='Kernel bandwidth rule, or the factor multiplying the class standard '
                  'deviation, for the KDE-based models.'),
    Parameter("kernel", "product", [StrOptions(set(KERNELS))], '{"product", "full"}',
              'Kernel of ``dependence="kde"`` (:class:`~estimators.densities.ClassKDE`). '
              '``"product"``: axis-aligned product kernel whose 1-D marginals are the '
              'separator densities (eq. 1 is then a proper density), on binned grids. '
              '``"full"``: scipy\'s ``gaussian_kde`` (kernel covariance factor^2 times the'
              ' class covariance of the pair, single features with their own 1-D factor),'
              " the kernel of paper 1's own code, by exact kernel sums (O(n_train * "
              'n_test)); rows with missing cells are refused at prediction on '
              'all-continuous tables. The structure score is the same for both.'),
    VAR_SMOOTHING.but(doc=(
        'Fraction of the largest feature variance added to variances (as ``GaussianNB``);'
        ' its square root is the floor on kernel standard deviations.')),
    FEATURE_TYPES,
    Parameter("n_splits", 10, [Interval(Integral, 1, None, closed="left")], 'int',
              'Splits used by ``n_clusters="auto"``.'),
    N_JOBS.but(doc='joblib workers for the scores and the "auto" splits.'),
    RANDOM_STATE.but(doc=(
        'Seeds the "auto" splits.')),
    VERBOSE,
    FIT_PARAMETERS.but(doc=(
        '``"discriminative"`` (``dependence="gaussian"`` only): keep the structure and '
        'fit log-linear weights on the cells of its rooted Gaussian (CG) families by '
        'maximising the penalised conditional log-likelihood '
        '(:mod:`estimators.discriminative`, :mod:`estimators.gnb._log_linear`).')),
)
class GNBClassifier(BaseGNB):
    """GNB classifier: a maximum-weight GNB junction tree with class-conditional pair densities.

    Structure (paper 1 Algorithm 1): the maximum spanning tree of the class-conditional mutual
    informations I(X_i; X_j | Y) of the chosen dependence model, clusters in Kruskal's order.
    For the Gaussian copula on complete continuous data these are the fitted density's own,
    ``-1/2 sum_y p(y) ln(1 - rho_{ij|y}^2)`` with ``rho = density_.corr_``: the normal
    scores are computed once, by the density's KDE marginals (the ones ``predict`` uses).
    Classification (MATH.md §3):
    ``ln p(y, x) = ln p(y) + sum_{(i,j) in T} ln p(x_i, x_j | y) - sum_s (deg(s) - 1) ln p(x_s | y)``,
    or the same over the GNB forest of the first m clusters (eq. 42) for a reduced model.

    **Mixed tables** (a categorical column among the features, MATH.md §7): the model is
    used in its rooted form, ``ln p(y, x) = ln p(y) + sum_roots ln p(x_r | y) +
    sum_arcs ln p(x_c | x_m, y)``, with the dependence model for continuous pairs and
    conditional Gaussian factors for pairs with a categorical end; the tree is the maximum
    spanning arborescence of the directed scores (dependence CMI for continuous pairs, the
    CG score otherwise): the maximum-likelihood rooted tree. ``cluster_order_`` then holds
    the arcs (mother, child) in decreasing order of weight. All-continuous tables keep the
    ratio form and Kruskal's tree (the two agree there).

    **Missing cells** (MATH.md §8): scores and densities from available cases; prediction
    marginalises exactly for the Gaussian dependence (closed form, or the CG engine of
    :mod:`estimators.marginal` with Gauss–Hermite where a missing continuous feature has a
    categorical child) and for the Gaussian copula on all-continuous tables. Otherwise
    (KDE; the copula on mixed tables) a missing feature with an observed neighbour further
    from the root is cut from the forest (its children become roots): an approximation.
    Unseen categories count as missing.

    Attributes
    ----------
    structure_ : kgraph.GNBJunctionTree
        Over the feature names (``feature_names_in_`` or ``x0, x1, ...``) with class vertex
        ``"class"`` (``"y"`` if a feature is called "class").
    cluster_order_ : ndarray of shape (d - 1, 2)
        The tree edges as column indices, in selection order.
    edge_weights_ : ndarray of shape (d - 1,)
        I(X_i; X_j | Y) of each edge (nats).
    weight_ : float
        Their sum: the structure-dependent part of the GNB weight (eq. 8).
    n_clusters_ : int
        Number of clusters used to predict.
    reduction_scores_ : ndarray of shape (n_splits, d - 1)
        Only with ``n_clusters="auto"``: each split's held-out weighted F1 per m.
    density_ : PairDensity
        The fitted class-conditional densities.
    discriminative_ : DiscriminativeParameters or None
        The discriminative parameters (``parameters="discriminative"``), else None.
    classes_, class_log_prior_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True, as_frame=True)
    >>> clf = GNBClassifier(dependence="gaussian").fit(X, y)
    >>> clf.structure_.edges[0]
    ('sepal length (cm)', 'petal length (cm)')
    >>> round(clf.score(X, y), 2)
    0.97

    Paper 1's own KDE (scipy's ``gaussian_kde`` kernel with its default bandwidth):

    >>> kde = GNBClassifier(dependence="kde", kernel="full").fit(X, y)
    >>> round(kde.score(X, y), 2)
    0.98
    """

    #: its graph in :func:`estimators.network.export.structure_graph.structure_graph`
    structure_graph_kind = "gnb"

    def __init__(
        self,
        *,
        dependence: str = "gaussian",
        n_clusters: int | str | None = None,
        bandwidth: str | float = "scott",
        kernel: str = "product",
        var_smoothing: float = 1e-9,
        feature_types="auto",
        n_splits: int = 10,
        n_jobs: int | None = None,
        random_state=None,
        verbose: bool = False,
        parameters="generative",
    ) -> None:
        self.parameters = parameters
        self.dependence = dependence
        self.n_clusters = n_clusters
        self.bandwidth = bandwidth
        self.kernel = kernel
        self.var_smoothing = var_smoothing
        self.feature_types = feature_types
        self.n_splits = n_splits
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _model_label(self) -> str:
        auto = ", n_clusters='auto'" if self.n_clusters == "auto" else ""
        return f"GNBClassifier(dependence={self.dependence!r}{auto})"

    def _fit_density(self, X: np.ndarray, codes: np.ndarray, edges: list, roots=(),
                     density=None):
        """Class log-prior and the densities of the given pairs (and of the single
        features ``roots`` for the KDE) on (X, codes); ``density``: already fitted there."""
        n_classes = self.classes_.size
        if density is None:
            density = make_density(self.dependence, self.bandwidth, self.var_smoothing, X,
                                   self.kernel)
            if len(roots) and self.dependence == "kde":
                density.fit(X, codes, n_classes, edges, features=roots)
            else:
                density.fit(X, codes, n_classes, edges)
        counts = np.bincount(codes, minlength=n_classes)
        return np.log(np.maximum(counts, 1) / counts.sum()), density, edges

    def _fit_model(self, enc, codes: np.ndarray, density=None):
        """The class log-prior and the fitted model (densities, and the rooted factors on
        mixed data) of the learned structure on (enc, codes); ``density``: the densities,
        when already fitted on (enc, codes)."""
        X = self._density_input(enc)
        pairs = [(i, j) for i, j in self.cluster_order_.tolist()
                 if enc.continuous[i] and enc.continuous[j]]
        log_prior, density, _ = self._fit_density(X, codes, pairs, self._used[
            enc.continuous[self._used]] if self.rooted_ else (), density)
        if not self.rooted_:
            return log_prior, density, None
        forest = fit_rooted_forest(enc, codes, self.classes_.size,
                                   [tuple(a) for a in self.cluster_order_.tolist()],
                                   self._used, density, self.dependence,
                                   var_smoothing=self.var_smoothing)
        return log_prior, density, forest

    @user_fit
    @partition_dispatch()
    def fit(self, X, y=None) -> GNBClassifier:
        """Learn the GNB structure and the class-conditional densities from (X, y)."""
        self._check_parameters()
        enc, codes = self._validate_training(X, y)
        used = self._structure_columns(enc)
        d = used.size
        if isinstance(self.n_clusters, Integral) and self.n_clusters > d - 1:
            raise ValueError(
                f"n_clusters={self.n_clusters} is out of range: X has {d} non-constant "
                f"features, so a GNB has {d - 1} clusters and n_clusters must be an int in "
                f"[1, {d - 1}], None or 'auto'."
            )
        self._used = used
        self.rooted_ = not bool(enc.continuous[used].all())
        density, shared = self._shared_density(enc, codes)
        names = self.feature_names()  # once: a call builds the d names
        labels = [names[u] for u in used]  # ties follow the names
        with self._one_warning():
            if isinstance(shared, ClassMoments):  # Kruskal on the moments' Gaussian CMI
                edges, self.edge_weights_ = spanning_tree_of(
                    shared.subset(used).pair_information(), used, labels)
            elif shared is not None:  # Chow-Liu on the fitted copula's own normal scores
                edges, self.edge_weights_ = fitted_copula_tree(
                    shared, np.bincount(codes, minlength=self.classes_.size), used, labels)
            else:
                edges, self.edge_weights_ = learn_gnb_tree(
                    enc, codes, self.classes_, used, self.dependence, self.bandwidth,
                    self.var_smoothing, self.n_jobs, directed=self.rooted_,
                )
        self.cluster_order_ = np.array(edges, dtype=int).reshape(-1, 2)
        _, self.density_, self.forest_model_ = self._fit_model(enc, codes, density)
        self.weight_ = float(self.edge_weights_.sum())
        names = self.feature_names()
        self.structure_ = GNBJunctionTree.from_tree(
            [(names[i], names[j]) for i, j in edges], target=self._target_name(),
            features=[names[u] for u in used],
        )
        if self.n_clusters == "auto":
            self.reduction_scores_ = reduction_scores(
                lambda rows: self._split_jlls(enc, codes, rows),
                codes, self.n_splits, self.random_state, self.n_jobs,
            )
            self.n_clusters_ = best_n_clusters(self.reduction_scores_)
        else:
            self.n_clusters_ = d - 1 if self.n_clusters is None else int(self.n_clusters)
        self._fit_parameters(enc, codes, self.parameters, self.random_state)
        return self

    def _check_parameters(self) -> None:
        """The parameters' constraints, and discriminative parameters on the conditional
        Gaussian model only."""
        self._validate_params()
        if self.parameters != "generative" and self.dependence != "gaussian":
            raise ValueError(f"GNBClassifier(parameters='discriminative') needs "
                             f"dependence='gaussian' (a conditional Gaussian model); got "
                             f"dependence={self.dependence!r}.")

    # -- the fit from partition statistics (dependence="gaussian", continuous columns) -----
    _min_class_rows = 1

    def _needs_rows(self) -> str | None:
        if self.dependence != "gaussian":  # kernel margins and densities keep the rows
            return f"dependence={self.dependence!r}"
        if self.n_clusters == "auto":  # chosen on random splits of the rows
            return "n_clusters='auto'"
        if self.parameters != "generative":
            return f"parameters={self.parameters!r}"
        return super()._needs_rows()

    def _continuous_columns(self, data: Partitions) -> np.ndarray:
        continuous = super()._continuous_columns(data)
        if not continuous.all():
            raise ValueError(f"{data.owner} fits from a Dask collection with float (continuous) "
                             "columns only; compute a sample into memory for categorical "
                             "columns.")
        return continuous

    def _fit_from_statistics(self, enc, table, data) -> GNBClassifier:
        """The same statistic as the in-memory fit: the class moments give the per-class
        correlation matrices -> the Gaussian CMI matrix -> Kruskal, and the
        class-conditional normals (:meth:`~estimators.densities.ClassGaussian.fit_moments`)."""
        mo = table.stats.moments
        self.discriminative_ = None
        used = self._structure_columns(enc)
        if self.n_clusters is not None and self.n_clusters > used.size - 1:
            raise ValueError(f"n_clusters={self.n_clusters} is out of range: X has {used.size} "
                             f"non-constant features, so a GNB has {used.size - 1} clusters and "
                             f"n_clusters must be an int in [1, {used.size - 1}] or None.")
        self._used, self.rooted_, self.forest_model_ = used, False, None
        names = self.feature_names()
        sub = mo.subset(used)
        _, R = gaussian_statistics(sub, [names[u] for u in used], data.owner)
        local, self.edge_weights_ = fitted_copula_tree(R, sub.n / sub.n.sum(),
                                                       np.arange(used.size),
                                                       [names[u] for u in used])
        edges = [(int(used[i]), int(used[j])) for i, j in local]
        self.cluster_order_ = np.array(edges, dtype=int).reshape(-1, 2)
        self.density_ = ClassGaussian(var_smoothing=self.var_smoothing).fit_moments(
            _zero_constant(mo, used))
        self.weight_ = float(self.edge_weights_.sum())
        self.structure_ = GNBJunctionTree.from_tree(
            [(names[i], names[j]) for i, j in edges], target=self._target_name(),
            features=[names[u] for u in used])
        self.n_clusters_ = used.size - 1 if self.n_clusters is None else int(self.n_clusters)
        return self

    def _families(self) -> list[tuple[int, tuple]]:
        """``(v, parents)`` of the forest used to predict, rooted (module
        :mod:`estimators.gnb._log_linear`)."""
        arcs = [tuple(a) for a in self.cluster_order_[:self.n_clusters_].tolist()]
        return forest_families(arcs, {c: m for m, c in arcs} if self.rooted_ else None)

    def _log_linear_factors(self, enc, codes: np.ndarray) -> list:
        return family_factors(enc, codes, self.classes_.size, self._families(),
                              self.var_smoothing)

    def _refit_generative(self, enc, codes: np.ndarray):
        log_prior, density, forest = self._fit_model(enc, codes)
        factors = self._log_linear_factors(enc, codes)
        m = self.n_clusters_
        return factors, lambda table: log_prior + self._log_density(table, density, forest, m)

    def _shared_density(self, enc, codes: np.ndarray):
        """On complete continuous data, the fitted density and what gives the edge weights --
        both from one set of statistics: the Gaussian's class moments (one Gram product per
        class; the score's correlations and the density's smoothed ones both come from them),
        or the copula's correlation matrices of its own normal scores. ``(None, None)`` otherwise (the KDE; mixed tables and missing cells
        keep the scores of :func:`~estimators.gnb._mixed_scores.learn_gnb_tree`, MATH.md
        §7–8)."""
        if self.dependence not in ("gaussian", "gaussian-copula") or self.rooted_:
            return None, None
        X = self._density_input(enc)
        if np.isnan(X).any():
            return None, None
        if self.dependence == "gaussian":
            moments = ClassMoments.from_arrays(X, codes, np.arange(self.classes_.size))
            density = ClassGaussian(var_smoothing=self.var_smoothing).fit_moments(moments)
            return density, moments
        density = make_density(self.dependence, self.bandwidth, self.var_smoothing, X)
        density.fit(X, codes, self.classes_.size)
        return density, density.corr_

    def _split_jlls(self, enc, codes: np.ndarray, rows: np.ndarray):
        """Fit on the training rows; return ``test_rows -> iterator of prefix jlls``."""
        log_prior, density, forest = self._fit_model(enc.take(rows), codes[rows])
        edges = [tuple(e) for e in self.cluster_order_.tolist()]

        def jlls(test):
            sub = enc.take(test)
            if not self.rooted_ and not np.isnan(sub.values[:, self._used]).any():
                return increments_jll(log_prior, density, edges, sub.values)
            return (log_prior + self._log_density(sub, density, forest, m)
                    for m in range(1, len(edges) + 1))

        return jlls

    def _log_density(self, enc, density, forest, m: int) -> np.ndarray:
        edges = [tuple(e) for e in self.cluster_order_[:m].tolist()]
        if forest is not None:
            return forest.log_density(enc, m)
        return ratio_log_density(density, self.dependence, edges, enc.values)

    @property
    def forest_(self):
        """The GNB forest of the first ``n_clusters_`` clusters used to predict."""
        return self.structure_.prefix(self.n_clusters_)

    def _joint_log_likelihood(self, X) -> np.ndarray:
        return self.class_log_prior_ + self._log_density(X, self.density_, self.forest_model_,
                                                         self.n_clusters_)


def _zero_constant(mo: ClassMoments, used) -> ClassMoments:
    """The moments of the table the in-memory GNB fits its density on: constant columns
    (not in ``used``) read as 0."""
    const = np.setdiff1d(np.arange(mo.mean.shape[1]), used)
    mean, M = mo.mean.copy(), mo.M.copy()
    mean[:, const], M[:, const, :], M[:, :, const] = 0.0, 0.0, 0.0
    lo, hi = mo.lo.copy(), mo.hi.copy()
    lo[:, const], hi[:, const] = 0.0, 0.0
    return ClassMoments(mo.classes, mo.n, mean, M, lo, hi)
