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
from sklearn.utils.validation import check_is_fitted

from estimators._dask import is_dask
from estimators._joint import JointLogLikelihoodClassifier
from estimators._validation import check_finite_columns
from estimators.ktan._columns import FEATURE_FAMILIES, DiscreteEncoding, resolve_family
from estimators.ktan._cpt import fit_cpts
from estimators.ktan._export import structure_graph, to_pgmpy
from estimators.ktan._linear_gaussian import fit_linear_gaussian
from estimators.ktan._structure import learn_structure
from estimators.search import check_k

CLASS_NODE = "class"


class BaseKTAN(JointLogLikelihoodClassifier):
    """k-TAN classifier machinery: subclasses say which k, search and backbone to use."""

    _min_features = 2

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
        if is_dask(X):  # larger than memory: partition statistics (estimators.distributed)
            from estimators.distributed import fit_tan_dask

            return fit_tan_dask(self, X, y)
        name = type(self).__name__
        raw = X
        X, y_codes = self._validate_training(X, y)
        names = self.feature_names()
        k, search, backbone = self._search_spec()
        self.k_ = k = check_k(k, len(names), owner=name)
        self.family_ = resolve_family(raw if isinstance(raw, pd.DataFrame) else X, self.features, names, name)
        if self.family_ == "discrete":
            self.encoding_ = DiscreteEncoding.fit(X)
            data = self.encoding_.transform(X)
        else:
            data = X.astype(float)
            check_finite_columns(data, names, name)
        fit = learn_structure(
            data, y_codes, names, self.family_, k=k, search=search, backbone=backbone, estimator=name,
            candidates=getattr(self, "candidates", None),
            score=self._score_name(),
        )
        self.candidates_ = getattr(fit.score_fn, "candidates_", None)
        self.structure_ = fit.structure
        self.backbone_ = fit.backbone
        self.certificate_ = fit.certificate
        self.score_ = fit.score
        self.edge_scores_ = fit.edge_matrix
        self.hyperedge_scores_ = {v: float(fit.score_fn(v, self.structure_.parents(v))) for v in names}
        index = {v: j for j, v in enumerate(names)}
        parents = [tuple(index[p] for p in self.structure_.parents(v)) for v in names]
        if self.family_ == "discrete":
            self.cpts_ = fit_cpts(data, y_codes, self.classes_.size, self.encoding_.n_levels, parents, self.alpha,
                                  ess=self.ess)
        else:
            self.cpds_ = fit_linear_gaussian(data, y_codes, self.classes_.size, parents)
        return self

    @property
    def class_node_(self) -> str:
        """Name of the class vertex in exports: ``"class"``, with ``_`` added until unique."""
        check_is_fitted(self)
        node = CLASS_NODE
        while node in self.feature_names():
            node += "_"
        return node

    # -- prediction -------------------------------------------------------------------------
    def _input_dtype(self):
        return None  # categories of any type; Gaussian columns are converted in fit

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        """``ln p(y, x)`` for every validated row and class, shape (n_samples, n_classes)."""
        if self.family_ == "discrete":
            jll = self.cpts_.joint_log_likelihood(self.encoding_.transform(X))
        else:
            data = X.astype(float)
            check_finite_columns(data, self.feature_names(), type(self).__name__)
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
