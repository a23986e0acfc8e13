"""Exports of a fitted network classifier: pgmpy models and the parameters of its factors.

A *network classifier* is any fitted classifier of the template with a
:class:`~estimators.network.model.CGNetwork` ``network_`` on a :class:`kgraph.ParentSets`
``structure_`` (the (k-)TAN family, kDB, BAN, ...): it has ``feature_names()``,
``class_node_``, ``encoder_``, ``classes_``, ``class_count_`` and ``family_``
(``"discrete"``, ``"gaussian"`` or ``"mixed"``). Everything below reads only those, so a
new structured classifier exports without code here.

* Categorical features: one pgmpy ``DiscreteBayesianNetwork`` with the class as a parent of
  every feature and ``TabularCPD`` s equal to the classifier's own smoothed tables (training
  categories as pgmpy state names). pgmpy inference on it reproduces ``predict_proba``,
  also on rows with missing entries given only the observed entries as evidence (a
  category unseen in training is a missing entry for the classifier: leave it out of the
  evidence).
* Gaussian features: pgmpy 1.1 has no network mixing a discrete class with linear-Gaussian
  children (its ``LinearGaussianBayesianNetwork`` takes only ``LinearGaussianCPD`` s, which
  have no discrete parents). The faithful export is therefore one
  ``LinearGaussianBayesianNetwork`` per class, holding that class's regressions on the
  same DAG: ``p(x | y = c)`` is exactly that network's density, and
  ``p(y = c) = exp(class_log_prior_[c])``. The structure alone (class included) is
  ``structure_.to_dag(class_node_)``.
* Continuous and categorical features together: pgmpy has no conditional Gaussian network;
  :func:`to_pgmpy` says so. :func:`estimators.structure_graph.structure_graph` (GraphML,
  JSON; ``write_graphml``) carries the structure, the scores and every factor's parameters.
* Constant columns are not modelled and are not in either export.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - pgmpy is imported only when exporting (start-up time)
    from pgmpy.models import DiscreteBayesianNetwork


def _states(values: np.ndarray) -> list:
    """Category values as plain Python objects (pgmpy compares state names with ==)."""
    return np.asarray(values).tolist()


def _factors(clf) -> list[tuple[str, object]]:
    """``(feature name, factor)`` of every modelled feature, in structure order."""
    names = clf.feature_names()
    return [(names[v], f) for v, f in zip(clf.network_.columns, clf.network_.factors,
                                          strict=True)]


def _full_table(factor) -> np.ndarray:
    """Probabilities of a CPT factor over every configuration of its (categorical)
    parents, shape (configurations, classes, categories); a configuration not seen in
    training gets the factor's unseen slot (uniform)."""
    radix = factor.radix
    codes = np.arange(int(np.prod(radix)))
    pos = np.minimum(np.searchsorted(factor.configs, codes), factor.n_configs - 1)
    u = np.where(factor.configs[pos] == codes, pos, factor.n_configs)
    return np.exp(factor.log_cpt[u])


def discrete_network(clf) -> DiscreteBayesianNetwork:
    """The fitted discrete network classifier as a pgmpy ``DiscreteBayesianNetwork`` with
    its CPDs."""
    from pgmpy.factors.discrete import TabularCPD

    names = clf.feature_names()
    target = clf.class_node_
    cats = {names[v]: _states(clf.encoder_.categories_[clf.encoder_.feature_names_in_[v]])
            for v in clf.network_.columns}
    states_y = _states(clf.classes_)
    m = len(states_y)
    model = clf.network_.to_graph(names, target).to_pgmpy()
    prior = clf.class_count_ / clf.class_count_.sum()
    cpds = [TabularCPD(target, m, prior.reshape(-1, 1), state_names={target: states_y})]
    for name, factor in _factors(clf):
        parents = [names[p] for p in factor.categorical_parents]
        prob = _full_table(factor)  # (P, m, K); evidence order: class, then the parents
        K = prob.shape[2]
        cpds.append(
            TabularCPD(
                name,
                K,
                prob.transpose(1, 0, 2).reshape(-1, K).T,
                evidence=[target, *parents],
                evidence_card=[m, *(int(r) for r in factor.radix)],
                state_names={name: cats[name], target: states_y, **{p: cats[p] for p in parents}},
            )
        )
    model.add_cpds(*cpds)
    model.check_model()
    return model


def gaussian_networks(clf) -> dict:
    """One pgmpy ``LinearGaussianBayesianNetwork`` per class: ``{class label: network}``."""
    from pgmpy.factors.continuous import LinearGaussianCPD
    from pgmpy.models import LinearGaussianBayesianNetwork

    names = clf.feature_names()
    factors = _factors(clf)
    edges = [(names[p], name) for name, f in factors for p in f.continuous_parents]
    out = {}
    for c, label in enumerate(clf.classes_.tolist()):
        model = LinearGaussianBayesianNetwork(edges)
        model.add_nodes_from([name for name, _ in factors])
        model.add_cpds(
            *(
                LinearGaussianCPD(
                    name,
                    [float(f.intercept[0, c]), *f.coef[0, c].tolist()],
                    float(np.sqrt(f.var[0, c])),
                    [names[p] for p in f.continuous_parents],
                )
                for name, f in factors
            )
        )
        model.check_model()
        out[label] = model
    return out


def to_pgmpy(clf):
    """Export a fitted network classifier to pgmpy.

    Parameters
    ----------
    clf : TANClassifier, KTANClassifier, KDBClassifier, ...
        A fitted network classifier (module docstring).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork or dict
        Categorical features: the Bayesian network (class node ``clf.class_node_``).
        Continuous features: ``{class label: LinearGaussianBayesianNetwork}`` (see the
        module docstring for why this is the faithful export in pgmpy 1.1).

    Raises
    ------
    ValueError
        For a model with continuous and categorical features (``family_ == "mixed"``).
    """
    if getattr(clf, "discriminative_", None) is not None:
        raise ValueError(
            f"{type(clf).__name__}(parameters='discriminative') cannot be exported to "
            "pgmpy: its log-linear weights are no CPDs, and the generative CPDs would "
            "not predict what it predicts; fit with parameters='generative' to export.")
    if clf.family_ == "mixed":
        raise ValueError(
            f"{type(clf).__name__} models continuous and categorical features together (a "
            "conditional Gaussian network); pgmpy has no conditional Gaussian network, so "
            "only all-categorical and all-continuous models export to pgmpy. Use "
            "write_graphml (structure, scores and parameters) or structure_.to_dag() instead."
        )
    return discrete_network(clf) if clf.family_ == "discrete" else gaussian_networks(clf)


def factor_parameters(factor, names: list[str]) -> dict:
    """The parameters of a CG factor: its kind, parents (names), the training
    configurations of its categorical parents and every array as nested lists (classes on
    the axis after the configurations); ``parameters`` of a feature in
    :func:`estimators.structure_graph.structure_graph`. A factor with a ``describe(names)``
    method (the semiparametric ones, :mod:`estimators.semiparametric`) describes itself."""
    if hasattr(factor, "describe"):
        return factor.describe(names)
    out = {"kind": type(factor).__name__,
           "categorical_parents": [names[p] for p in factor.categorical_parents],
           "continuous_parents": [names[p] for p in factor.continuous_parents],
           "n_rows": int(factor.n_rows)}
    for f in fields(factor):
        value = getattr(factor, f.name)
        if isinstance(value, np.ndarray) and f.name != "radix":
            out[f.name] = value.tolist()
    return out
