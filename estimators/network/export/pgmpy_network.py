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
* Categorical features with ``parameters="discriminative"``: the Bayesian network with the
  same posterior on complete rows (:func:`network_tables`, MATH.md §10.1).
* Every other model with continuous features (continuous and categorical together,
  discriminative or non-Gaussian continuous factors): pgmpy has no such network;
  :func:`exact_network` refuses it, naming the continuous features. :func:`estimators.network.export.structure_graph.structure_graph` (GraphML,
  JSON; ``write_graphml``) carries the structure, the scores and every factor's parameters.
* Constant columns, and columns feature selection leaves out, are not modelled: the
  discrete network has each as an isolated root with a uniform CPT (evidence on it changes
  nothing), the Gaussian networks leave them out.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING

import numpy as np

from estimators.network.discriminative_tables import log_tables
from estimators.network.equivalent import NetworkTables, equivalent_network

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


def log_linear(clf) -> NetworkTables:
    """The scores of a fitted discrete network classifier on complete rows,
    ``s_y(x) = a_y + Σ_v θ_v(x_v, x_pa(v), y)`` (MATH.md §10.1), as unnormalised
    :class:`NetworkTables`: the generative log-CPTs and ``ln p(y)``, or for
    ``parameters="discriminative"`` the log-linear tables of
    :func:`estimators.network.discriminative_tables.log_tables`. A parent configuration unseen in
    training takes the factor's unseen slot, as in the classifier."""
    names = clf.feature_names()
    factors = dict(_factors(clf))
    parents = {v: [names[p] for p in f.categorical_parents] for v, f in factors.items()}
    prior = np.asarray(clf.class_log_prior_, float)
    fitted = getattr(clf, "discriminative_", None)
    if fitted is None:
        return NetworkTables(prior, parents, {v: f.log_table for v, f in factors.items()})
    a, thetas = log_tables(fitted, prior)
    tables = {names[f.v]: factors[names[f.v]].dense(t)
              for f, t in zip(fitted.design.factors, thetas, strict=True)}
    return NetworkTables(a, parents, tables)


def network_tables(clf) -> NetworkTables:
    """The fitted discrete network classifier as log-CPTs with its own posterior on complete
    rows: the generative CPTs, or for ``parameters="discriminative"`` the equivalent
    network of :func:`log_linear` (:mod:`estimators.network.equivalent`; edges closing a
    parent set in ``closing_edges``)."""
    net = log_linear(clf)
    if getattr(clf, "discriminative_", None) is None:
        return net
    order = clf.network_.to_graph(clf.feature_names(), clf.class_node_).order
    return equivalent_network(net.class_term, net.parents, net.tables, order)


def discriminative_parameters(clf) -> dict:
    """A discriminative network classifier's fitted weights for the structure graph
    (GraphML/JSON): on categorical features ``{"class_term": a, "tables": {v: {"parents",
    "log_table"}}}`` with ``predict_proba = softmax_y(a_y + Σ_v log_table_v[y, x_pa, x_v])``
    on complete rows (:func:`log_linear`; axes: class, the parents in order, v; codes: the
    ``states`` of each node); otherwise the raw layout of
    :class:`estimators.discriminative.Design` (its module docstring gives the formulas)."""
    fitted = clf.discriminative_
    spec = {"form": fitted.spec.form, "l2": fitted.spec.l2, "centre": fitted.spec.centre,
            "scale": fitted.spec.scale}
    try:
        net = log_linear(clf)
    except ValueError:  # continuous families: the design's own arrays
        d = fitted.design
        return {"kind": "design", **spec, "intercept": fitted.intercept.tolist(),
                "coef": fitted.coef.tolist(), "mean": d.mean.tolist(), "sd": d.sd.tolist(),
                "offsets": d.offsets.tolist(),
                "main": None if d.main is None else d.main.tolist(),
                "scales": None if d.scales is None else d.scales.tolist(),
                "class_log_prior": np.asarray(clf.class_log_prior_, float).tolist()}
    return {"kind": "log-linear tables", **spec, "class_term": net.class_term.tolist(),
            "tables": {str(v): {"parents": list(net.parents[v]), "log_table": t.tolist()}
                       for v, t in net.tables.items()}}


def discrete_network(clf) -> DiscreteBayesianNetwork:
    """The fitted discrete network classifier as a pgmpy ``DiscreteBayesianNetwork`` with
    CPDs whose posterior is ``predict_proba`` on complete rows (:func:`network_tables`;
    the network's ``graph["closing_edges"]`` lists the edges the equivalent network of a
    discriminative model added)."""
    kind = "generative" if clf.discriminative_ is None else "discriminative"
    return tables_network(clf, network_tables(clf), clf.class_node_, kind)


def tables_network(clf, net: NetworkTables, target, kind: str) -> DiscreteBayesianNetwork:
    """Normalised log-tables ``net`` of a fitted classifier on categorical features as a
    pgmpy ``DiscreteBayesianNetwork`` (class node ``target``, the training categories as
    state names); every column the tables leave out is an isolated uniform root.
    ``graph["parameters"]`` is ``kind``, ``graph["closing_edges"]`` the tables' own."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    cats = category_states(clf)
    states_y = _states(clf.classes_)
    m = len(states_y)
    model = DiscreteBayesianNetwork()
    model.add_node(target)
    model.add_nodes_from(net.parents)
    model.add_edges_from([(target, v) for v in net.parents]
                         + [(p, v) for v, pa in net.parents.items() for p in pa])
    prior = net.class_prior()
    cpds = [TabularCPD(target, m, prior.reshape(-1, 1), state_names={target: states_y})]
    for name, log_table in net.tables.items():
        pa = net.parents[name]
        K = log_table.shape[-1]
        cpds.append(TabularCPD(
            name, K, np.exp(log_table).reshape(-1, K).T, evidence=[target, *pa],
            evidence_card=[m, *log_table.shape[1:-1]],
            state_names={name: cats[name], target: states_y, **{p: cats[p] for p in pa}}))
    model.add_nodes_from([v for v in cats if v not in net.parents])
    cpds += uniform_roots(cats, net.parents)
    model.add_cpds(*cpds)
    model.check_model()
    model.graph["closing_edges"] = list(net.closing_edges)
    model.graph["parameters"] = kind
    return model


def category_states(clf) -> dict:
    """Feature name -> its training categories (pgmpy state names), every categorical or
    constant column of the classifier's encoder."""
    names = clf.feature_names()
    enc = clf.encoder_
    return {names[j]: _states(enc.categories_[c]) for j, c in enumerate(enc.feature_names_in_)
            if c in enc.categories_}


def uniform_roots(cats: dict, modelled) -> list:
    """A uniform root CPD for every column of ``cats`` the model does not use (constant,
    or left out by feature selection or a reduced structure): evidence on every column of
    a row is then accepted and changes nothing."""
    from pgmpy.factors.discrete import TabularCPD

    return [TabularCPD(v, len(s), np.full((len(s), 1), 1 / len(s)), state_names={v: s})
            for v, s in cats.items() if v not in modelled]


def continuous_features(clf) -> list:
    """The features of a fitted classifier typed continuous (``feature_types_``), constant
    columns left out (no model uses them)."""
    types = getattr(clf, "feature_types_", None) or {}
    constant = set(getattr(clf, "constant_features_", ()))
    return [v for v, kind in types.items() if kind == "continuous" and v not in constant]


def is_network_classifier(model) -> bool:
    """A fitted classifier with a :class:`~estimators.network.model.CGNetwork` ``network_``
    (module docstring)."""
    from estimators.network.model import CGNetwork

    return isinstance(getattr(model, "network_", None), CGNetwork)


def exact_network(clf) -> DiscreteBayesianNetwork:
    """The one export to a discrete Bayesian network (:mod:`estimators.network.export.exact_export`):
    :func:`discrete_network` of a network classifier on categorical features, else a
    ``ValueError`` whose first line says why there is none and what exports.

    Raises
    ------
    ValueError
        For a model that is no network classifier, or one with continuous features
        (named).
    """
    name = type(clf).__name__
    continuous = continuous_features(clf)
    if continuous:
        shown = ", ".join(map(str, continuous[:8])) + (", ..." if len(continuous) > 8 else "")
        raise ValueError(
            f"{name} has {len(continuous)} continuous feature(s) ({shown}), which no discrete "
            "Bayesian network (pgmpy, BIF, XMLBIF, UAI, XDSL, NET) holds; its full "
            "parameters export with --to graphml|json (structure_graph).")
    if not is_network_classifier(clf):
        raise ValueError(
            f"A {name} is no Bayesian network with CPDs: only network classifiers ((k-)TAN, "
            "kDB, BAN) on categorical features export to pgmpy/BIF/XMLBIF/UAI/XDSL/NET; "
            "its structure and parameters export with --to graphml|json.")
    return discrete_network(clf)


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
        Categorical features: :func:`exact_network` (class node ``clf.class_node_``),
        generative or discriminative. Linear-Gaussian features, generative parameters:
        ``{class label: LinearGaussianBayesianNetwork}`` (see the module docstring for why
        this is the faithful export in pgmpy 1.1).

    Raises
    ------
    ValueError
        Any other model (:func:`exact_network`): continuous and categorical features
        together, continuous features with discriminative parameters or non-Gaussian
        factors (``continuous=``).
    """
    from estimators.network.factors import LinearGaussianFactor

    gaussian = all(type(f) is LinearGaussianFactor for f in clf.network_.factors)
    if clf.family_ == "gaussian" and gaussian and getattr(clf, "discriminative_", None) is None:
        return gaussian_networks(clf)
    return exact_network(clf)


def factor_parameters(factor, names: list[str]) -> dict:
    """The parameters of a CG factor: its kind, parents (names), the training
    configurations of its categorical parents and every array as nested lists (classes on
    the axis after the configurations); ``parameters`` of a feature in
    :func:`estimators.network.export.structure_graph.structure_graph`. A factor with a ``describe(names)``
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
