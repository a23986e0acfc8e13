"""The Generalized Naive Bayes classifier for continuous features (paper 1, MATH.md §2–3)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from estimators._dask import is_dask
from estimators.gnb._base import BaseGNB
from estimators.gnb._learn import DEPENDENCES, learn_tree, make_density
from estimators.gnb.reduction import best_n_clusters, reduction_scores
from kgraph import GNBJunctionTree


class GNBClassifier(BaseGNB):
    """GNB classifier: a maximum-weight GNB junction tree with class-conditional pair densities.

    Structure (paper 1 Algorithm 1): the maximum spanning tree of the class-conditional mutual
    informations I(X_i; X_j | Y) of the chosen dependence model, clusters in Kruskal's order.
    Classification (MATH.md §3):
    ``ln p(y, x) = ln p(y) + sum_{(i,j) in T} ln p(x_i, x_j | y) - sum_s (deg(s) - 1) ln p(x_s | y)``,
    or the same over the GNB forest of the first m clusters (eq. 42) for a reduced model.

    Parameters
    ----------
    dependence : {"gaussian", "gaussian-copula", "kde"}, default="gaussian"
        Class-conditional pair model: bivariate normal; Gaussian copula with class-y KDE
        marginals; bivariate product-kernel KDE (with its own 1-D marginals).
    n_clusters : None, int or "auto", default=None
        None: all d - 1 clusters. int m in [1, d - 1]: the first m clusters. "auto": the m with
        the best mean weighted F1 over ``n_splits`` random splits of the training data (ties:
        smaller m); see :mod:`estimators.gnb.reduction`.
    bandwidth : "scott" or float, default="scott"
        Kernel bandwidth factor (times the class standard deviation) for the KDE-based models.
    var_smoothing : float, default=1e-9
        Fraction of the largest feature variance added to variances (as ``GaussianNB``); its
        square root is the floor on kernel standard deviations.
    n_splits : int, default=10
        Splits used by ``n_clusters="auto"``.
    n_jobs : int or None, default=None
        joblib workers for the scores and the "auto" splits.
    random_state : int, RandomState or None, default=None
        Seeds the "auto" splits.

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
    """

    _parameter_constraints: dict = {
        "dependence": [StrOptions(set(DEPENDENCES))],
        "n_clusters": [None, Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "bandwidth": [StrOptions({"scott"}), Interval(Real, 0, None, closed="neither")],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
        "n_splits": [Interval(Integral, 1, None, closed="left")],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        dependence: str = "gaussian",
        n_clusters: int | str | None = None,
        bandwidth: str | float = "scott",
        var_smoothing: float = 1e-9,
        n_splits: int = 10,
        n_jobs: int | None = None,
        random_state=None,
    ) -> None:
        self.dependence = dependence
        self.n_clusters = n_clusters
        self.bandwidth = bandwidth
        self.var_smoothing = var_smoothing
        self.n_splits = n_splits
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _min_rows_per_class(self) -> int:
        return 3 if self.n_clusters == "auto" else 2

    def _model_label(self) -> str:
        auto = ", n_clusters='auto'" if self.n_clusters == "auto" else ""
        return f"GNBClassifier(dependence={self.dependence!r}{auto})"

    def _fit_density(self, X: np.ndarray, codes: np.ndarray, edges: list):
        """Class log-prior and the densities of the given pairs on (X, codes)."""
        n_classes = self.classes_.size
        density = make_density(self.dependence, self.bandwidth, self.var_smoothing, X)
        density.fit(X, codes, n_classes, edges)
        counts = np.bincount(codes, minlength=n_classes)
        return np.log(counts / counts.sum()), density, edges

    def fit(self, X, y) -> GNBClassifier:
        """Learn the GNB structure and the class-conditional densities from (X, y)."""
        self._validate_params()
        if is_dask(X):  # larger than memory: partition statistics (estimators.distributed)
            from estimators.distributed import fit_gnb_dask

            return fit_gnb_dask(self, X, y)
        X, codes = self._validate_training(X, y)
        d = X.shape[1]
        if isinstance(self.n_clusters, Integral) and self.n_clusters > d - 1:
            raise ValueError(
                f"n_clusters={self.n_clusters} is out of range: X has {d} features, so a GNB has "
                f"{d - 1} clusters and n_clusters must be an int in [1, {d - 1}], None or 'auto'."
            )
        edges, self.edge_weights_ = learn_tree(
            X, codes, self.dependence, self.bandwidth, self.n_jobs
        )
        _, self.density_, _ = self._fit_density(X, codes, edges)
        self.cluster_order_ = np.array(edges, dtype=int).reshape(-1, 2)
        self.weight_ = float(self.edge_weights_.sum())
        names = self.feature_names()
        self.structure_ = GNBJunctionTree.from_tree(
            [(names[i], names[j]) for i, j in edges], target=self._target_name(), features=names
        )
        if self.n_clusters == "auto":
            self.reduction_scores_ = reduction_scores(
                lambda Xa, ya: self._fit_density(Xa, ya, edges),
                X,
                codes,
                self.n_splits,
                self.random_state,
                self.n_jobs,
            )
            self.n_clusters_ = best_n_clusters(self.reduction_scores_)
        else:
            self.n_clusters_ = d - 1 if self.n_clusters is None else int(self.n_clusters)
        return self

    @property
    def forest_(self):
        """The GNB forest of the first ``n_clusters_`` clusters used to predict."""
        return self.structure_.prefix(self.n_clusters_)

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        edges = [tuple(e) for e in self.cluster_order_[: self.n_clusters_]]
        return self.class_log_prior_ + self.density_.log_density(X, edges)
