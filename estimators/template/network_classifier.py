"""The one base of the classifiers on a conditional Gaussian network ``network_`` (naive
Bayes, TAN and k-TAN, kDB, BAN).

A family writes its parent rule (:meth:`NetworkClassifier._fit_dag`: the parents of each
modelled feature, then :meth:`NetworkClassifier._fit_network`); the rest is here once, on
the template (:mod:`estimators.template.joint_likelihood`): a fit from rows is prepare
(validation, feature selection, the normal-score table of ``continuous=``) -> the parent
rule -> the network's factors (MATH.md §7) -> the discriminative parameters; and the
network's hooks (its factors for ``parameters="discriminative"``, their refit on a subset,
``ln p(y, x_O)``), the modelled features, the class node's name and the exports.
"""

from __future__ import annotations

import dataclasses
from os import PathLike

import numpy as np
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from estimators.columns import EncodedColumns
from estimators.columns.feature_families import family_of, feature_types_of
from estimators.discriminative import PARAMETERS, Discriminative
from estimators.learning.structure_scores import MIN_CELL_ROWS
from estimators.network.class_node import unique_class_node
from estimators.network.hdp_tables import HDPSmoothing, hdp_smoothing
from estimators.network.model import NetworkLikelihood, modelled_columns, refit_network
from estimators.semiparametric import factor_kinds, fit_continuous_network, normal_score_table
from estimators.template.joint_likelihood import FIT_PARAMETERS, JointLogLikelihoodClassifier

__all__ = ["HDP_FIT_PARAMETERS", "NetworkClassifier"]

#: ``parameters`` of the network families: the template's, and ``"hdp"``
HDP_FIT_PARAMETERS = FIT_PARAMETERS.but(
    constraints=[StrOptions({*PARAMETERS, "hdp"}), Discriminative],
    type='{"generative", "discriminative", "hdp"} or Discriminative',
    doc=FIT_PARAMETERS.doc + (
        ' ``"hdp"``: every categorical table ``p(x | parents, class)`` estimated by the '
        'hierarchical Dirichlet process of Petitjean et al. (2018) instead of ``alpha`` '
        '(:mod:`estimators.network.hdp_tables`: the tree backs off from the full parent '
        'configuration to the class, parents in the family\'s order; Gibbs sampling with '
        'the ``hdp_*`` parameters, seeded by ``random_state`` where the family has one, '
        'else seed 0); continuous features keep their Gaussian factors, a categorical feature '
        'with a continuous parent its Bayes\'-rule factor, the class prior its counts.'),
    flag=FIT_PARAMETERS.flag and dataclasses.replace(FIT_PARAMETERS.flag, extra=("hdp",)))


class NetworkClassifier(JointLogLikelihoodClassifier):
    """Base of the classifiers whose model is a conditional Gaussian network ``network_``
    over the features, the class a parent of each (module docstring).

    A family sets the hyperparameters ``alpha`` and ``var_smoothing`` (and, when it has
    them, ``features``, ``ess``, ``continuous``, ``parameters``, ``random_state``) and
    writes :meth:`_fit_dag`.
    """

    def _feature_types_by_column(self, raw):
        return feature_types_of(raw, getattr(self, "features", "auto"),
                                super()._feature_types_by_column(raw), self.feature_names(),
                                type(self).__name__)

    # -- the fit from rows: prepare -> parent rule -> network -> parameters -----------------
    def _fit_table(self, X, y):
        """Choose every feature's parents (the family's rule, :meth:`_fit_dag`) and fit the
        conditional models on them, then the discriminative parameters."""
        enc, y_codes, kept, spec, margins, model = self._prepare_fit(X, y)
        self._fit_dag(enc, y_codes, kept, spec, margins, model)
        self._fit_parameters(enc, y_codes, self.parameters, getattr(self, "random_state", None))
        return self

    def _fit_dag(self, enc: EncodedColumns, y_codes: np.ndarray, kept: list, spec, margins,
                 model) -> None:
        """The family's parent rule: set ``structure_`` and the family's attributes, then
        :meth:`_fit_network`, from what :meth:`_prepare_fit` returns."""
        raise NotImplementedError(f"{type(self).__name__} writes no parent rule (_fit_dag).")

    def _prepare_fit(self, X, y) -> tuple:
        """Validate, select features (at least ``_min_features``) and build the modelled
        columns.

        Returns ``(enc, y_codes, kept, spec, margins, model)``: the encoded table, the class
        codes, the modelled column indices, the factor-kind specification and margins of
        ``continuous=`` and the modelled columns (normal scores where a kind needs them).
        """
        enc, y_codes = self._validate_training(X, y)
        names = self.feature_names()
        kept = self._modelled_features(enc, y_codes, self._min_features)
        spec, margins, scored = normal_score_table(
            enc, y_codes, self.classes_.size, kept, getattr(self, "continuous", "gaussian"),
            parameters=self.parameters)
        model = modelled_columns(scored, kept, [names[j] for j in kept])
        self.family_ = family_of(model.types)
        return enc, y_codes, kept, spec, margins, model

    def _fit_network(self, enc: EncodedColumns, y_codes: np.ndarray, columns: list,
                     parents: list, spec, margins) -> None:
        """Fit ``network_`` (the factor of each of ``columns`` given its ``parents``, column
        indices, and the class) and ``factor_kinds_``."""
        self.network_ = fit_continuous_network(
            enc, y_codes, self.classes_.size, columns, parents, spec,
            alpha=self._table_smoothing(dict(zip(columns, map(tuple, parents), strict=True))),
            ess=getattr(self, "ess", None), var_smoothing=self.var_smoothing,
            min_cell_rows=MIN_CELL_ROWS, margins=margins)
        self.factor_kinds_ = factor_kinds(self.network_, self.feature_names(),
                                          enc.continuous)

    def _table_smoothing(self, orders: dict | None = None) -> float | HDPSmoothing:
        """The categorical tables' smoothing: the pseudo-count ``alpha``, or with
        ``parameters="hdp"`` the hierarchical Dirichlet process of the ``hdp_*`` parameters
        (:mod:`estimators.network.hdp_tables`; ``orders``: each feature's parents in the
        family's order, the tree's levels after the class)."""
        if getattr(self, "parameters", None) == "hdp":
            return hdp_smoothing(self, orders)
        return self.alpha

    def _smoothing(self) -> dict:
        """The factors' settings (:func:`~estimators.network.model.fit_network`)."""
        return dict(alpha=self._table_smoothing(), ess=getattr(self, "ess", None),
                    var_smoothing=self.var_smoothing, ridge=0.0, min_cell_rows=MIN_CELL_ROWS)

    # -- the network's hooks ----------------------------------------------------------------
    def _log_linear_factors(self, enc: EncodedColumns, codes: np.ndarray) -> list:
        return list(self.network_.factors)

    def _likelihood(self):
        return NetworkLikelihood(self.network_, self.class_log_prior_)

    def _refit_generative(self, enc: EncodedColumns, codes: np.ndarray):
        return refit_network(self.network_, enc, codes, self.classes_.size,
                             **self._smoothing())

    def _joint_log_likelihood(self, X: EncodedColumns) -> np.ndarray:
        """``ln p(y, x_O)`` for every row and class, shape (n_samples, n_classes): missing
        cells and unseen categories marginalised exactly."""
        return self.network_.joint_log_likelihood(X, self.class_log_prior_)

    @property
    def selected_features_(self) -> list:
        """The features the model spans, in column order: all but the constant ones, or the
        ones feature selection kept (the others are ignored at prediction)."""
        check_is_fitted(self)
        names = self.feature_names()
        return [names[j] for j in sorted(self.network_.columns)]

    @property
    def class_node_(self) -> str:
        """Name of the class vertex in exports: ``"class"``, with ``_`` added until unique."""
        check_is_fitted(self)
        return unique_class_node(self.feature_names())


class NetworkExports:
    """The exports of a :class:`NetworkClassifier` with a learned structure ``structure_``
    (every one but naive Bayes, whose structure is the class alone)."""

    def to_pgmpy(self):
        """The fitted model in pgmpy (see :func:`estimators.network.export.pgmpy_network.to_pgmpy`).

        Returns
        -------
        pgmpy.models.DiscreteBayesianNetwork or dict
            The Bayesian network with the model's posterior on complete rows (categorical
            features; ``parameters="discriminative"``: the equivalent network, which may add
            edges closing a parent set, ``graph["closing_edges"]``, MATH.md §10.1) or
            ``{class label: LinearGaussianBayesianNetwork}`` (linear-Gaussian features,
            generative).

        Raises
        ------
        ValueError
            For any other model with continuous features (named): pgmpy has no conditional
            Gaussian network and no log-linear continuous weights.
        """
        from estimators.network.export.pgmpy_network import to_pgmpy

        return to_pgmpy(self)

    def write_graphml(self, path: str | PathLike) -> None:
        """Write the learned structure with its scores and parameters to GraphML.

        The graph is :func:`estimators.network.export.structure_graph.structure_graph`, the one the
        ``kgraph learn`` command writes: the class node (``kind="class"``) and the feature
        nodes (``feature_type``, ``parents``, ``clique_score``, the factor ``parameters``),
        class -> feature edges and parent -> child edges whose ``weight`` is the pair score
        (nats). networkx, igraph and Gephi read the file as it is;
        ``kgraph.read_structure`` reads it back.

        Parameters
        ----------
        path : str or path-like
            Output file.
        """
        from estimators.network.export.structure_graph import structure_graph

        check_is_fitted(self)
        structure_graph(self).write_graphml(path)
