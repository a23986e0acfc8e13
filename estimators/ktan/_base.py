"""The shared base of :class:`TANClassifier` and :class:`KTANClassifier`.

k-TAN classification (MATH.md §4): ``ln p(y, x) = ln p(y) + sum_v ln p(x_v | y, x_pa(v))``,
with smoothed CPTs (discrete features) or class-conditional linear-Gaussian regressions
(Gaussian features) over the parent sets of a learned acyclic k-tree.
"""

from __future__ import annotations

from abc import abstractmethod
from numbers import Real
from os import PathLike

import numpy as np
import pandas as pd
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from estimators._joint import JointLogLikelihoodClassifier
from estimators._validation import check_finite_columns
from estimators.ktan._columns import FEATURE_FAMILIES, DiscreteEncoding, resolve_family
from estimators.ktan._cpt import fit_cpts
from estimators.ktan._export import structure_graph, to_pgmpy
from estimators.ktan._linear_gaussian import fit_linear_gaussian
from estimators.ktan._structure import learn_structure

CLASS_NODE = "class"


class BaseKTAN(JointLogLikelihoodClassifier):
    """k-TAN classifier machinery: subclasses say which k, search and backbone to use."""

    _parameter_constraints: dict = {
        "features": [StrOptions(set(FEATURE_FAMILIES))],
        "alpha": [Interval(Real, 0, None, closed="neither")],
    }

    # -- what a subclass decides ------------------------------------------------------------
    @abstractmethod
    def _search_spec(self) -> tuple[int, str, object]:
        """``(k, search, backbone)`` of this estimator."""

    def _score_name(self) -> str:
        """Name of the structure score in :data:`estimators.scores.SCORES` (default CMI)."""
        return "cmi"

    # -- fitting ----------------------------------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Learn the k-tree over the features and the conditional models on it.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)
            Training data: categorical values (any hashable, e.g. strings) or numbers.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        name = type(self).__name__
        raw = X
        X, y = validate_data(self, X, y, dtype=None, ensure_all_finite=False)
        if X.shape[0] < 2:
            raise ValueError(f"{name} needs at least 2 samples; got n_samples = {X.shape[0]}.")
        names = self._names()
        check_finite_columns(X, names, name, numeric=False)
        check_classification_targets(y)
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(
                f"{name} needs samples of at least 2 classes in y; got only class "
                f"{self.classes_[0]!r}."
            )
        k, search, backbone = self._search_spec()
        d = self.n_features_in_
        if d < 2:
            raise ValueError(f"{name} needs at least 2 features to learn a k-tree; X has {d} feature(s).")
        if k >= d:
            raise ValueError(
                f"The 'k' parameter of {name} must be an int in [1, {d - 1}] for X with {d} "
                f"features. Got {k} instead."
            )
        self.family_ = resolve_family(raw if isinstance(raw, pd.DataFrame) else X, self.features, names, name)
        if self.family_ == "discrete":
            self.encoding_ = DiscreteEncoding.fit(X)
            data = self.encoding_.transform(X)
        else:
            data = X.astype(float)
            check_finite_columns(data, names, name)
        fit = learn_structure(
            data, y_codes, names, self.family_, k=k, search=search, backbone=backbone, estimator=name,
            score=self._score_name(),
        )
        self.structure_ = fit.structure
        self.backbone_ = fit.backbone
        self.certificate_ = fit.certificate
        self.score_ = fit.score
        self.edge_scores_ = fit.edge_matrix
        self.hyperedge_scores_ = {v: float(fit.score_fn(v, self.structure_.parents(v))) for v in names}
        index = {v: j for j, v in enumerate(names)}
        parents = [tuple(index[p] for p in self.structure_.parents(v)) for v in names]
        class_counts = np.bincount(y_codes, minlength=self.classes_.size)
        self.class_count_ = class_counts
        self.class_log_prior_ = np.log(class_counts) - np.log(class_counts.sum())
        if self.family_ == "discrete":
            self.cpts_ = fit_cpts(data, y_codes, self.classes_.size, self.encoding_.n_levels, parents, self.alpha,
                                  ess=self.ess)
        else:
            self.cpds_ = fit_linear_gaussian(data, y_codes, self.classes_.size, parents)
        return self

    def _names(self) -> list[str]:
        """Feature names: pandas column names, else ``x0, x1, ...``."""
        if hasattr(self, "feature_names_in_"):
            return [str(v) for v in self.feature_names_in_]
        return [f"x{j}" for j in range(self.n_features_in_)]

    @property
    def class_node_(self) -> str:
        """Name of the class vertex in exports: ``"class"``, with ``_`` added until unique."""
        check_is_fitted(self)
        node = CLASS_NODE
        while node in self._names():
            node += "_"
        return node

    # -- prediction -------------------------------------------------------------------------
    def _joint_log_likelihood(self, X) -> np.ndarray:
        """``ln p(y, x)`` for every row and class, shape (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=None, ensure_all_finite=False)
        names = self._names()
        check_finite_columns(X, names, type(self).__name__, numeric=False)
        if self.family_ == "discrete":
            jll = self.cpts_.joint_log_likelihood(self.encoding_.transform(X))
        else:
            data = X.astype(float)
            check_finite_columns(data, names, type(self).__name__)
            jll = self.cpds_.joint_log_likelihood(data)
        return jll + self.class_log_prior_


    # -- export -----------------------------------------------------------------------------
    def to_pgmpy(self):
        """The fitted model in pgmpy (see :func:`estimators.ktan._export.to_pgmpy`).

        Returns
        -------
        pgmpy.models.DiscreteBayesianNetwork or dict
            The Bayesian network (discrete features) or ``{class label:
            LinearGaussianBayesianNetwork}`` (Gaussian features).
        """
        return to_pgmpy(self)

    def write_graphml(self, path: str | PathLike) -> None:
        """Write the learned structure with its scores to GraphML.

        The graph is :func:`estimators.ktan._export.structure_graph`: class and feature
        nodes, class -> feature and parent -> child edges, pair CMIs on the edges and
        clique scores on the features; plain networkx and igraph read the file.

        Parameters
        ----------
        path : str or path-like
            Output file.
        """
        check_is_fitted(self)
        structure_graph(self).write_graphml(path)
