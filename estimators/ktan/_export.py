"""Exports of a fitted (k-)TAN: pgmpy models and the scored structure graph (GraphML).

* Discrete features: one pgmpy ``DiscreteBayesianNetwork`` with the class as a parent of
  every feature and ``TabularCPD`` s equal to the classifier's own smoothed tables (training
  categories as pgmpy state names). pgmpy inference on it reproduces ``predict_proba``
  on rows whose categories were all seen in training (pgmpy has no state for an unseen one).
* Gaussian features: pgmpy 1.1 has no network mixing a discrete class with linear-Gaussian
  children (its ``LinearGaussianBayesianNetwork`` takes only ``LinearGaussianCPD`` s, which
  have no discrete parents). The faithful export is therefore one
  ``LinearGaussianBayesianNetwork`` per class, holding that class's regressions on the
  same k-tree DAG: ``p(x | y = c)`` is exactly that network's density, and
  ``p(y = c) = exp(class_log_prior_[c])``. The structure alone (class included) is
  ``structure_.to_dag(class_node_)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kgraph import GraphDB

if TYPE_CHECKING:  # pragma: no cover - pgmpy is imported only when exporting (start-up time)
    from pgmpy.models import DiscreteBayesianNetwork


def _states(values: np.ndarray) -> list:
    """Category values as plain Python objects (pgmpy compares state names with ==)."""
    return np.asarray(values).tolist()


def discrete_network(clf) -> DiscreteBayesianNetwork:
    """The fitted discrete k-TAN as a pgmpy ``DiscreteBayesianNetwork`` with its CPDs."""
    from pgmpy.factors.discrete import TabularCPD

    names = clf.feature_names()
    target = clf.class_node_
    cpts = clf.cpts_
    cats = {v: _states(c) for v, c in zip(names, clf.encoding_.categories, strict=True)}
    states_y = _states(clf.classes_)
    model = clf.structure_.to_pgmpy(target)
    prior = clf.class_count_ / clf.class_count_.sum()
    cpds = [TabularCPD(target, len(states_y), prior.reshape(-1, 1), state_names={target: states_y})]
    for v, name in enumerate(names):
        parents = [names[p] for p in cpts.parents[v]]
        r = int(cpts.n_levels[v])
        seen = (slice(None),) + tuple(slice(0, int(cpts.n_levels[p])) for p in (*cpts.parents[v], v))
        count = cpts.counts[v][seen]
        prob = (count + clf.alpha) / (count.sum(axis=-1, keepdims=True) + clf.alpha * r)
        values = np.moveaxis(prob, -1, 0).reshape(r, -1)
        evidence = [target, *parents]
        cpds.append(
            TabularCPD(
                name,
                r,
                values,
                evidence=evidence,
                evidence_card=[len(states_y), *(int(cpts.n_levels[p]) for p in cpts.parents[v])],
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
    cpds = clf.cpds_
    edges = [(names[p], names[v]) for v in range(len(names)) for p in cpds.parents[v]]
    out = {}
    for c, label in enumerate(clf.classes_.tolist()):
        model = LinearGaussianBayesianNetwork(edges)
        model.add_nodes_from(names)
        model.add_cpds(
            *(
                LinearGaussianCPD(
                    name,
                    cpds.coef[v][c].tolist(),
                    float(np.sqrt(cpds.var[c, v])),
                    [names[p] for p in cpds.parents[v]],
                )
                for v, name in enumerate(names)
            )
        )
        model.check_model()
        out[label] = model
    return out


def to_pgmpy(clf):
    """Export a fitted (k-)TAN classifier to pgmpy.

    Parameters
    ----------
    clf : TANClassifier or KTANClassifier
        A fitted classifier.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork or dict
        Discrete features: the Bayesian network (class node ``clf.class_node_``).
        Gaussian features: ``{class label: LinearGaussianBayesianNetwork}`` (see the
        module docstring for why this is the faithful export in pgmpy 1.1).
    """
    return discrete_network(clf) if clf.family_ == "discrete" else gaussian_networks(clf)


def structure_graph(clf) -> GraphDB:
    """The learned structure as a directed property graph carrying its scores.

    Nodes: the class (``kind="class"``) and the features (``kind="variable"``), each feature
    with ``clique_score`` = ``I(X_v; X_pa(v) | Y)`` (nats), the score of the clique
    ``{v} ∪ pa(v)`` created with it, and ``clique`` listing that clique. Edges: class ->
    feature (``kind="class-edge"``) and parent -> child (``kind="parent"``), the latter
    with ``cmi`` = ``I(X_u; X_v | Y)``. Graph attributes: ``k``, ``score`` (the k-tree
    score, the sum of the clique scores), ``family``, ``target`` and ``backbone``.
    """
    names = clf.feature_names()
    index = {v: j for j, v in enumerate(names)}
    target = clf.class_node_
    graph = clf.structure_.to_dag(target)
    graph.attrs.update(
        score=float(clf.score_),
        family=clf.family_,
        target=target,
        backbone=",".join(clf.backbone_) if clf.backbone_ is not None else "",
    )
    for v in names:
        parents = sorted(clf.structure_.parents(v), key=index.__getitem__)
        graph.set_node_attrs(
            v, clique_score=float(clf.hyperedge_scores_[v]), clique=",".join([v, *parents])
        )
        for p in parents:
            graph.set_edge_attrs(p, v, cmi=float(clf.edge_scores_[index[p], index[v]]))
    return graph
