"""The shared half of the classifiers on a parent-set DAG (kDB, BAN).

A subclass learns the parents of each feature; everything else — the template's input
checks and feature selection, the normal-score table of ``continuous=``, the conditional
Gaussian network on the DAG, its exports and the discriminative refit — is here, once.
"""

from __future__ import annotations

from abc import abstractmethod

import numpy as np
from sklearn.base import _fit_context

from estimators.base.model_size import check_size, column_sizes, ktree_size
from estimators.base.user_warnings import user_fit
from estimators.columns import EncodedColumns
from estimators.columns.feature_families import family_of, feature_types_of
from estimators.learning.structure_scores import MIN_CELL_ROWS
from estimators.network.class_node import unique_class_node
from estimators.network.model import modelled_columns, refit_network
from estimators.semiparametric import (
    factor_kinds,
    fit_continuous_network,
    normal_score_table,
)
from estimators.template.joint_likelihood import (
    JointLogLikelihoodClassifier,
)


class DAGNetworkClassifier(JointLogLikelihoodClassifier):
    """Base of the classifiers whose features form a DAG with the class a parent of each.

    Subclasses set the hyperparameters ``features``, ``alpha``, ``ess``,
    ``var_smoothing``, ``continuous`` and ``parameters``, and write :meth:`_fit_dag`: their
    own choice of parents, then :meth:`_fit_network`; :meth:`fit` runs
    :meth:`_prepare_fit`, that, then the discriminative refit.
    """

    _min_features = 1
    _learns_dependence = True

    def _feature_types_by_column(self, raw):
        return feature_types_of(raw, self.features, super()._feature_types_by_column(raw),
                                self.feature_names(), type(self).__name__)

    @_fit_context(prefer_skip_nested_validation=True)
    @user_fit
    def fit(self, X, y):
        """Choose every feature's parents (the family's rule, :meth:`_fit_dag`) and fit the
        conditional models on the DAG.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)
            Continuous and categorical columns; missing cells allowed.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        enc, y_codes, kept, spec, margins, model = self._prepare_fit(X, y)
        self._fit_dag(enc, y_codes, kept, spec, margins, model)
        self._fit_parameters(enc, y_codes, self.parameters, getattr(self, "random_state", None))
        return self

    @abstractmethod
    def _fit_dag(self, enc: EncodedColumns, y_codes: np.ndarray, kept: list, spec, margins,
                 model) -> None:
        """Set ``structure_`` and the family's attributes, then :meth:`_fit_network`, from
        what :meth:`_prepare_fit` returns."""

    def _prepare_fit(self, X, y) -> tuple:
        """Validate, select features and build the modelled columns.

        Returns ``(enc, y_codes, kept, spec, margins, model)``: the encoded table, the class
        codes, the modelled column indices, the factor-kind specification and margins of
        ``continuous=`` and the modelled columns (normal scores where a kind needs them).
        """
        enc, y_codes = self._validate_training(X, y)
        names = self.feature_names()
        kept = self._modelled_features(enc, y_codes)
        spec, margins, scored = normal_score_table(
            enc, y_codes, self.classes_.size, kept, self.continuous,
            parameters=self.parameters)
        model = modelled_columns(scored, kept, [names[j] for j in kept])
        self.family_ = family_of(model.types)
        return enc, y_codes, kept, spec, margins, model

    def _fit_network(self, enc: EncodedColumns, y_codes: np.ndarray, columns: list,
                     parents: list, spec, margins) -> None:
        """Fit ``network_`` (the factor of each of ``columns`` given its ``parents``, column
        indices, and the class) and ``factor_kinds_``."""
        self.network_ = fit_continuous_network(
            enc, y_codes, self.classes_.size, columns, parents, spec, alpha=self.alpha,
            ess=self.ess, var_smoothing=self.var_smoothing, min_cell_rows=MIN_CELL_ROWS,
            margins=margins)
        self.factor_kinds_ = factor_kinds(self.network_, self.feature_names(),
                                          enc.continuous)

    #: the option bounding each feature's parents (``k`` of kDB, ``max_parents`` of BAN)
    _parent_bound: str

    def _check_model_size(self, enc: EncodedColumns) -> None:
        """Refuse a parent bound whose largest table would exceed ``max_cells``
        (:mod:`estimators.base.model_size`), before any work. The bound is an upper bound
        ("at most"): a value over the number of features is the model of d - 1, so only
        the table's size is checked."""
        sizes, _ = column_sizes(enc)
        value = getattr(self, self._parent_bound)
        width = ktree_size(sizes, self.classes_.size)
        check_size(self._parent_bound, value,
                   lambda v: width(min(v, len(sizes) - 1)), highest=value, bound="",
                   lowest=0, limit=self.max_cells)

    @property
    def class_node_(self) -> str:
        """Name of the class vertex in exports: ``"class"``, with ``_`` added until unique."""
        return unique_class_node(self.feature_names())

    @property
    def selected_features_(self) -> list:
        """The modelled features, in column order (all non-constant ones without feature
        selection)."""
        names = self.feature_names()
        return [names[j] for j in sorted(self.network_.columns)]

    def to_pgmpy(self):
        """The fitted model in pgmpy (:func:`estimators.network.export.pgmpy_network.to_pgmpy`): the
        discrete Bayesian network with the model's posterior on complete rows (generative
        CPDs, or for ``parameters="discriminative"`` the equivalent network, which may add
        edges closing a parent set: ``graph["closing_edges"]``, MATH.md §10.1), or ``{class
        label: LinearGaussianBayesianNetwork}`` for linear-Gaussian features; any other
        model with continuous features is refused, naming them."""
        from estimators.network.export.pgmpy_network import to_pgmpy

        return to_pgmpy(self)

    def write_graphml(self, path) -> None:
        """Write the learned DAG with the class node, the scores and every factor's
        parameters to GraphML (:func:`estimators.network.export.structure_graph.structure_graph`)."""
        from estimators.network.export.structure_graph import structure_graph

        structure_graph(self).write_graphml(path)

    def _smoothing(self) -> dict:
        return dict(alpha=self.alpha, ess=self.ess, var_smoothing=self.var_smoothing,
                    ridge=0.0, min_cell_rows=MIN_CELL_ROWS)

    def _log_linear_factors(self, enc: EncodedColumns, codes: np.ndarray) -> list:
        return list(self.network_.factors)

    def _refit_generative(self, enc: EncodedColumns, codes: np.ndarray):
        return refit_network(self.network_, enc, codes, self.classes_.size,
                             **self._smoothing())

    def _joint_log_likelihood(self, X: EncodedColumns) -> np.ndarray:
        """``ln p(y, x_O)`` per row and class, empty cells marginalised exactly."""
        return self.network_.joint_log_likelihood(X, self.class_log_prior_)
