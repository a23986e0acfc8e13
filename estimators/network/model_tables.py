"""The GNB, k-GNB and one-component latent CNB on categorical features as network tables.

On categorical features these models are Bayesian networks with the class a parent of
every feature (MATH.md §10.2):

* :class:`~estimators.gnb.GNBClassifier` on a table with a categorical column is used in
  its rooted form, ``ln p(y, x) = ln p(y) + Σ_v ln p(x_v | x_m(v), y)`` over the forest of
  its first ``n_clusters_`` clusters (``forest_model_``): a TAN forest whose CPTs are the
  fitted tables; features outside the forest are not modelled;
* :class:`~estimators.gnb.KGNBClassifier` likewise, ``Σ_v ln p(x_v | x_pi(v), y)`` over
  the creation order of its acyclic k-tree (``network_``): the CPTs are clique-sized;
* :class:`~estimators.latent.LatentCNBClassifier` with ``n_components_ = 1``: its ELBO is
  ``Σ_j ln p(x_j | θ_yj)`` (one component: ``q(z) = 1``, no KL term), a naive Bayes whose
  per-class tables give a training category absent from class y the class's pseudo-count
  slot -- not normalised over the training categories, so the tables are normalised by
  :func:`~estimators.network.equivalent.equivalent_network` (the class term absorbs the
  normalisers).

A discriminative GNB is the log-linear model of its forest families
(:func:`estimators.network.discriminative_tables.log_tables`), turned into CPTs by the same
:func:`~estimators.network.equivalent.equivalent_network` (MATH.md §10.1).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from estimators.network.discriminative_tables import log_tables
from estimators.network.equivalent import NetworkTables, equivalent_network

__all__ = ["model_tables"]


def _forest_families(clf) -> list:
    """``(v, factor)`` of a rooted GNB forest or k-GNB network, parents first."""
    forest = getattr(clf, "forest_model_", None)
    if forest is not None:
        return [(v, forest.factor(v, ps)) for v, ps in forest.prefix(clf.n_clusters_)]
    net = clf.network_
    return [(v, net.factor(v, ps)) for v, ps in net.order]


def _families_tables(clf) -> NetworkTables:
    """A rooted GNB or k-GNB: its CPTs, or its discriminative weights normalised."""
    names = clf.feature_names()
    families = _forest_families(clf)
    prior = np.asarray(clf.class_log_prior_, float)
    fitted = getattr(clf, "discriminative_", None)
    if fitted is None:
        return NetworkTables(prior, {names[v]: [names[p] for p in f.categorical_parents]
                                     for v, f in families},
                             {names[v]: f.log_table for v, f in families})
    a, thetas = log_tables(fitted, prior)
    factors = fitted.design.factors
    parents = {names[f.v]: [names[p] for p in f.categorical_parents] for f in factors}
    tables = {names[f.v]: f.dense(t) for f, t in zip(factors, thetas, strict=True)}
    order = [names[v] for v, _ in families]
    return equivalent_network(a, parents, tables, order)


def _category_grid(clf) -> pd.DataFrame:
    """Rows in which every feature takes every training category (row r: category
    ``r mod K_j``), in the encoder's columns."""
    enc = clf.encoder_
    cats = {c: enc.categories_[c] for c in enc.feature_names_in_ if c in enc.categories_}
    rows = max(len(v) for v in cats.values())
    return pd.DataFrame({c: [v[r % len(v)] for r in range(rows)] for c, v in cats.items()})


def _latent_tables(clf) -> NetworkTables:
    """A one-component latent CNB as naive Bayes tables (the module docstring)."""
    names = clf.feature_names()
    grid = _category_grid(clf)
    enc = clf.encoder_.transform(grid)
    tables, parents = {}, {}
    for c, model in enumerate(clf.estimators_):
        data, mask = model.family_.encode(enc, fit=False)
        loglik = model.family_.log_likelihood(model.params_, data, mask)[..., 0]  # (R, d)
        for j, v in enumerate(model.family_.columns_):
            K = int(enc.n_levels[v])
            table = tables.setdefault(names[v], np.zeros((len(clf.estimators_), K)))
            table[c] = loglik[:K, j]  # grid row r < K holds code r
            parents[names[v]] = []
    return equivalent_network(np.asarray(clf.class_log_prior_, float), parents, tables)


def _is_rooted_gnb(clf) -> bool:
    return bool(getattr(clf, "rooted_", False)) and (
        getattr(clf, "forest_model_", None) is not None
        or hasattr(getattr(clf, "network_", None), "order"))


def _is_one_component_latent(clf) -> bool:
    return getattr(clf, "n_components_", None) == 1 and hasattr(clf, "estimators_")


#: (the model has these tables, its tables): the models with a network of their own
#: that is no ``CGNetwork`` (the network classifiers' is read by ``network.export``)
TABLES = ((_is_rooted_gnb, _families_tables), (_is_one_component_latent, _latent_tables))


def model_tables(clf) -> NetworkTables | None:
    """The fitted model's Bayesian network tables on categorical features (the module
    docstring), or None for a model with none here.

    Examples
    --------
    >>> from estimators.datasets import load_dataset
    >>> from estimators.gnb import KGNBClassifier
    >>> X, y = load_dataset("car")
    >>> net = model_tables(KGNBClassifier(order=4).fit(X, y))
    >>> max(len(p) for p in net.parents.values())
    2
    """
    for applies, tables in TABLES:
        if applies(clf):
            return tables(clf)
    return None
