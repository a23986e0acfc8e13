"""AODE and AnDE on categorical features as a Bayesian network with two latent nodes.

On a complete row AnDE (:mod:`estimators.bnc.ande`, MATH.md §9) predicts
``p(y | x) ∝ Σ_{s ∈ Q(x)} p_s(y, x)``: the SPODEs whose super-parent value ``x_s`` occurs in
at least ``frequency_limit`` training rows (the factor ``1 / |Q(x)|`` does not depend on the
class and cancels), or naive Bayes when ``Q(x)`` is empty. With ``e_s(z) = 1`` when the
joint value z of s's super-parents qualifies, ``E_s = Σ_{y,z} e_s(z) p_s(y, z)``, and for
AODE ``N_j(y) = Σ_{v: e_j(v) = 0} p_NB(v | y)``, ``E_NB = Σ_y p(y) Π_j N_j(y)``, the network
(MATH.md §10.2)

* ``S`` (latent root): the SPODE, ``P(S = s) = E_s / E`` and, for AODE, the naive Bayes
  ``P(S = nb) = E_NB / E`` (``E`` the sum; ``nb`` left out when ``E_NB = 0``);
* ``Z`` (latent, parent S): the joint super-parent value, ``P(z | s) = e_s(z) p_s(z) / E_s``
  (states past the set's own joint values have probability 0; under ``nb``, ``Z = 0``);
* the class, parents S and Z: ``p_s(y | z)``; under ``nb`` ``∝ p(y) Π_j N_j(y)``;
* every feature j, parents S, the class and Z: ``x_j = z_j`` (deterministic) when j is one
  of s's super-parents, else ``p_s(x_j | y, z)``; under ``nb``
  ``p_NB(x_j | y) (1 - e_j(x_j)) / N_j(y)``

has ``P(y, x) = [Σ_s e_s(x_s) p_s(y, x) + 1[Q(x) = ∅] p_NB(y, x)] / E`` (sum over S and Z):
its posterior is the model's on every complete row. For AnDE with ``n >= 2`` the naive
Bayes corner ``Q(x) = ∅`` has no such product form; it is unreachable, and the network
exact, when some super-parent set has every joint value qualifying (always with
``frequency_limit <= 1`` and every pair of values seen together); otherwise the export is
refused.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from estimators.network.equivalent import NetworkTables
from estimators.network.export.pgmpy_network import (
    _states,
    category_states,
    tables_network,
    uniform_roots,
)

__all__ = ["is_spode_mixture", "spode_mixture_network"]


def is_spode_mixture(model) -> bool:
    """A fitted AnDE (an average of SPODEs with a naive Bayes fallback)."""
    return hasattr(model, "spodes_") and hasattr(model, "naive_bayes_")


def _unique(name: str, taken) -> str:
    while name in taken:
        name += "_"
    return name


def _spode_joint(net, members, index, prior) -> np.ndarray:
    """``ln p_s(y, z)`` over (class, member values...) of one SPODE (members in order)."""
    factor = dict(zip(net.columns, net.factors, strict=True))
    cards = [factor[index[s]].log_table.shape[-1] for s in members]
    joint = np.asarray(prior, float).reshape(-1, *([1] * len(members)))
    for k, s in enumerate(members):
        table = factor[index[s]].log_table  # (m, r_s1 .. r_s(k-1), r_sk)
        joint = joint + table.reshape(table.shape + (1,) * (len(members) - k - 1))
    return joint.reshape(joint.shape[0], int(np.prod(cards)))


def spode_mixture_network(clf):
    """A fitted AnDE on categorical features as the pgmpy network of the module docstring
    (latent nodes ``spode`` and ``spode_value``, named apart from the features).

    Raises
    ------
    ValueError
        For ``n >= 2`` when a row with no qualifying SPODE (naive Bayes) can occur.

    Examples
    --------
    >>> from estimators.datasets import load_dataset
    >>> from estimators.bnc import AODEClassifier
    >>> X, y = load_dataset("car")
    >>> bn = spode_mixture_network(AODEClassifier().fit(X, y))
    >>> sorted(bn.get_parents("safety")), bn.get_cpds("spode").variable_card
    (['class', 'spode', 'spode_value'], 6)
    """
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    names = clf.feature_names()
    index = {v: j for j, v in enumerate(names)}
    target = clf.class_node_
    cats = category_states(clf)
    kept = list(clf.structure_.features)
    sets = [tuple(s) for s in clf.structure_.super_parents]
    prior = np.asarray(clf.class_log_prior_, float)
    if not sets:  # fewer features than n: the model is its naive Bayes
        nb = clf.naive_bayes_
        return tables_network(clf, NetworkTables(
            prior, {names[v]: [] for v in nb.columns},
            {names[v]: f.log_table for v, f in zip(nb.columns, nb.factors, strict=True)}),
            target, "generative")
    classes = _states(clf.classes_)
    m = len(classes)
    # per SPODE: ln of e_s(z) p_s(y, z) (-inf where z does not qualify), (m, Z_s)
    joints = []
    for net, members, counts in zip(clf.spodes_, sets, clf.super_parent_counts_, strict=True):
        ok = (np.asarray(counts).ravel() >= clf.frequency_limit)
        joints.append(np.where(ok, _spode_joint(net, members, index, prior), -np.inf))
    nb = _naive_bayes_corner(clf, sets, kept, index, prior)
    n_z = max([j.shape[1] for j in joints] + [1])
    log_e = [logsumexp(j) for j in joints] + ([nb[0]] if nb else [])
    states_s = [f"s{k}" for k in range(len(sets))] + (["nb"] if nb else [])
    s_node = _unique("spode", {*names, target})
    z_node = _unique("spode_value", {*names, target, s_node})
    states = {s_node: states_s, z_node: [f"z{k}" for k in range(n_z)], target: classes}
    n_s = len(states_s)
    p_s = np.exp(np.array(log_e) - logsumexp(log_e)).reshape(-1, 1)
    p_z = np.zeros((n_z, n_s))
    p_y = np.full((m, n_s, n_z), 1.0 / m)
    for k, j in enumerate(joints):
        if np.isfinite(log_e[k]):
            p_z[:j.shape[1], k] = np.exp(logsumexp(j, axis=0) - log_e[k])
        else:  # no qualifying value: a SPODE of probability 0
            p_z[0, k] = 1.0
        seen = np.isfinite(j).any(axis=0)
        p_y[:, k, :j.shape[1]][:, seen] = np.exp(j[:, seen] - logsumexp(j[:, seen], axis=0))
    if nb:
        p_z[0, -1] = 1.0
        p_y[:, -1, :] = np.exp(nb[1] - logsumexp(nb[1]))[:, None]
    cpds = [TabularCPD(s_node, n_s, p_s, state_names={s_node: states_s}),
            TabularCPD(z_node, n_z, p_z, evidence=[s_node], evidence_card=[n_s],
                       state_names={k: states[k] for k in (z_node, s_node)}),
            TabularCPD(target, m, p_y.reshape(m, -1), evidence=[s_node, z_node],
                       evidence_card=[n_s, n_z], state_names=states)]
    for v in kept:
        K = len(cats[v])
        table = np.full((K, n_s, m, n_z), 1.0 / K)  # columns: S, class, Z (Z fastest)
        for k, (net, members) in enumerate(zip(clf.spodes_, sets, strict=True)):
            cards = [len(cats[s]) for s in members]
            size = int(np.prod(cards))
            if v in members:
                digit = np.unravel_index(np.arange(size), cards)[members.index(v)]
                table[:, k, :, :size] = 0.0
                table[digit, k, :, np.arange(size)] = 1.0
            else:
                log_table = dict(zip(net.columns, net.factors, strict=True))[index[v]].log_table
                table[:, k, :, :size] = np.exp(np.moveaxis(log_table.reshape(m, size, K), -1, 0))
        if nb:
            table[:, -1, :, :] = nb[2][v].T[:, :, None]
        cpds.append(TabularCPD(v, K, table.reshape(K, -1), evidence=[s_node, target, z_node],
                               evidence_card=[n_s, m, n_z],
                               state_names={v: cats[v], **states}))
    cpds += uniform_roots(cats, kept)
    bn = DiscreteBayesianNetwork()
    bn.add_nodes_from([s_node, z_node, target, *cats])
    bn.add_edges_from([(s_node, z_node), (s_node, target), (z_node, target)]
                      + [(p, v) for v in kept for p in (s_node, target, z_node)])
    bn.add_cpds(*cpds)
    bn.check_model()
    bn.graph.update(parameters="spode mixture", closing_edges=[], latent=[s_node, z_node])
    return bn


def _naive_bayes_corner(clf, sets, kept, index, prior):
    """The naive Bayes component of rows with no qualifying SPODE: None when no complete
    row has none (``E_NB = 0``), else ``(ln E_NB, ln p(y) Π_j N_j(y) (m,), {feature:
    truncated CPT (m, K)})``; refuses AnDE n >= 2 when such a row can occur."""
    eligible = [np.asarray(c) >= clf.frequency_limit for c in clf.super_parent_counts_]
    if any(e.all() for e in eligible):
        return None
    if len(sets[0]) > 1:
        raise ValueError(
            f"{type(clf).__name__}: no super-parent set has every joint value in at least "
            f"frequency_limit={clf.frequency_limit} training rows, so a complete row may get "
            "the naive Bayes fallback, which no small network adds exactly to the SPODE "
            "mixture; its structure and parameters export with --to graphml|json.")
    factors = dict(zip(clf.naive_bayes_.columns, clf.naive_bayes_.factors, strict=True))
    log_n, truncated = {}, {}
    for (s,), e in zip(sets, eligible, strict=True):
        table = factors[index[s]].log_table  # (m, K)
        kept_values = np.where(e, -np.inf, table)
        log_n[s] = logsumexp(kept_values, axis=1)
        truncated[s] = np.exp(kept_values - log_n[s][:, None])
    class_term = prior + sum(log_n.values())
    return logsumexp(class_term), class_term, truncated
