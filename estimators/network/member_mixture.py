"""An ensemble of fitted classifiers as one mixture of their joint distributions, and its
exact Bayesian network over a member-selector node.

An ensemble (``estimators_``, ``weights_``: e.g. several kDBs with different attribute
orders) predicts with the mixture of its members' joints,

    p(y, x) = Σ_m w_m q_m(y, x),    p(y | x) = p(y, x) / Σ_c p(c, x),

where ``q_m`` is member m's ``p_m(y, x_{A_m})`` over the features ``A_m`` it models,
completed by a uniform distribution over the training categories of each categorical
feature it leaves out: ``ln q_m(y, x_O) = ln p_m(y, x_{A_m ∩ O}) - Σ_{j ∈ O \\ A_m} ln K_j``
on a row with observed cells O (empty cells marginalised exactly, as every member does).
Without the completion a member modelling fewer features would carry more mass in the sum.
The posterior is a weighted average of the members' posteriors, each weighted by the
member's share ``w_m q_m(x) / Σ_k w_k q_k(x)`` of the row's evidence: a member that
explains the row better counts more. The plain average of posteriors ``Σ_m w_m p_m(y | x)``
(ESKDB's rule) has no such distribution behind it: no Bayesian network with a selector node
gives it on every row. The mixture of joints is the one whose export is exact, as AODE's
average of SPODE joints is (:mod:`estimators.network.spode_mixture`). Ten kDB members
(k = 2) of random attribute orders, 5-fold cross-validation on car, kr_vs_kp, nursery,
tic_tac_toe and votes: the mixture minus the average is -0.003 to +0.010 in accuracy and
-0.013 to +0.010 in log-loss (mean over the folds; ``benchmarks/member_mixture_rules.py``):
neither rule is ahead.

The network (:func:`member_mixture_network`) has, with ``φ_{m,j}(x_j | y, x_pa)`` member
m's conditional probability tables:

* ``member`` (latent root): ``P(member = m) ∝ w_m Π_{j ∉ A_m} 1 / K_j``;
* ``member<m>`` (latent, parent ``member``): ``yes`` exactly when ``member = m``;
* the class, parent ``member``: ``P(y | member = m) = p_m(y)``;
* every feature: a root, uniform over its training categories;
* ``member<m>_<feature>`` for every feature j member m models, states ``false``/``true``,
  parents ``member<m>``, the class, the feature and its parents in member m:
  ``P(true | yes, y, x_j, x_pa) = φ_{m,j}(x_j | y, x_pa)``, ``P(true | no, ...) = 1``.

With every ``member<m>_<feature>`` node observed ``true`` (the network's
``graph["evidence"]``), ``P(y, x | evidence) = Σ_m w_m q_m(y, x)`` exactly: the uniform
roots contribute one constant, and given ``member = m`` only member m's tables multiply in.
So variable elimination with the features and that evidence returns the ensemble's
``predict_proba``, on rows with empty cells too (leave the feature out of the evidence).
The members' tables keep their own parents, so members with conflicting attribute orders
(a cycle in the union of their graphs) need no common order; a network over the features
alone would need one. The tables are each member's own CPTs (size ``2 x 2 x`` its CPT).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import logsumexp
from sklearn.utils.validation import check_is_fitted

__all__ = ["MemberMixture", "is_member_mixture", "member_mixture_network"]


def is_member_mixture(model) -> bool:
    """A fitted ensemble of classifiers: it has ``estimators_`` and ``weights_``."""
    return hasattr(model, "estimators_") and hasattr(model, "weights_")


class MemberMixture:
    """The mixture of joints of fitted generative classifiers (module docstring).

    Parameters
    ----------
    estimators : sequence of fitted classifiers
        Generative classifiers of the package (any family with ``predict_joint_log_proba``:
        naive Bayes, TAN, kDB, ...), fitted on tables with the same columns, class labels
        and categorical categories (e.g. one table).
    weights : array-like of shape (n_estimators,), optional
        Non-negative mixture weights, normalised to sum to one; equal when None.

    Attributes
    ----------
    estimators : list
    weights : ndarray of shape (n_estimators,)
        The normalised weights ``w_m``.
    classes_ : ndarray
    completion : ndarray of shape (n_estimators, n_columns)
        ``-ln K_j`` where member m leaves categorical column j out, else 0.

    Raises
    ------
    ValueError
        No members, weights of another length, negative or all zero, members with other
        columns, classes or categories, a discriminative member (no joint), or members
        modelling different continuous features (no common density to complete with).

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.datasets import load_dataset
    >>> from estimators.bnc import KDBClassifier
    >>> from estimators.ktan import TANClassifier
    >>> X, y = load_dataset("car")
    >>> members = [TANClassifier().fit(X, y), KDBClassifier(max_parents=2).fit(X, y)]
    >>> mix = MemberMixture(members)
    >>> joints = np.stack([m.predict_joint_log_proba(X[:3]) for m in members])
    >>> bool(np.allclose(mix.joint_log_likelihood(X[:3]),
    ...                  np.log(np.exp(joints).mean(axis=0))))
    True
    >>> mix.predict_proba(X[:3]).sum(axis=1).round(12).tolist()
    [1.0, 1.0, 1.0]
    """

    def __init__(self, estimators: Sequence, weights=None):
        self.estimators = list(estimators)
        if not self.estimators:
            raise ValueError("A member mixture needs at least one fitted classifier.")
        for est in self.estimators:
            check_is_fitted(est)
        self.weights = _weights(weights, len(self.estimators))
        first = self.estimators[0]
        self.classes_ = np.asarray(first.classes_)
        for k, est in enumerate(self.estimators[1:], 1):
            if not np.array_equal(np.asarray(est.classes_), self.classes_):
                raise ValueError(f"Member {k} has the classes {list(est.classes_)}, member 0 "
                                 f"{list(self.classes_)}: members must share their classes.")
            _same_encoding(first.encoder_, est.encoder_, k)
        for k, est in enumerate(self.estimators):
            if getattr(est, "discriminative_", None) is not None:
                raise ValueError(f"Member {k} ({type(est).__name__}) has discriminative "
                                 "parameters: a conditional model has no joint p(y, x) to "
                                 "mix; fit the members with parameters='generative'.")
        self.completion = self._completion()

    def _completion(self) -> np.ndarray:
        """``-ln K_j`` per member and categorical column it does not model (module
        docstring); refuses members modelling different continuous columns."""
        enc = self.estimators[0].encoder_
        names = [str(c) for c in enc.feature_names_in_]
        levels = np.array([len(enc.categories_[c]) if c in enc.categories_ else 0
                           for c in enc.feature_names_in_])
        out = np.zeros((len(self.estimators), len(names)))
        continuous = None
        for k, est in enumerate(self.estimators):
            modelled = {str(v) for v in modelled_features(est)}
            left = np.array([v not in modelled for v in names])
            out[k, left & (levels > 0)] = -np.log(levels[left & (levels > 0)])
            mine = {v for v, n in zip(names, levels, strict=True) if n == 0 and v in modelled}
            if continuous is not None and mine != continuous:
                raise ValueError(
                    f"Member {k} models the continuous features {sorted(mine)}, member 0 "
                    f"{sorted(continuous)}: densities over different continuous features "
                    "have no common scale to mix; give every member the same ones.")
            continuous = mine
        return out

    def member_joint_log_likelihoods(self, X) -> np.ndarray:
        """``ln w_m + ln q_m(y, x_O)`` of every member, row and class, shape
        (n_estimators, n_samples, n_classes); the table is encoded once."""
        enc = self.estimators[0].encode(X)
        observed = enc.observed
        out = np.stack([est.predict_joint_log_proba(enc) for est in self.estimators])
        with np.errstate(divide="ignore"):
            log_w = np.log(self.weights)
        out += (observed @ self.completion.T).T[:, :, None] + log_w[:, None, None]
        return out

    def joint_log_likelihood(self, X) -> np.ndarray:
        """``ln Σ_m w_m q_m(y, x_O)``, shape (n_samples, n_classes)."""
        return logsumexp(self.member_joint_log_likelihoods(X), axis=0)

    def predict_log_proba(self, X) -> np.ndarray:
        """``ln p(y | x)`` of the mixture."""
        jll = self.joint_log_likelihood(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """``p(y | x)`` of the mixture, rows summing to one."""
        proba = np.exp(self.predict_log_proba(X))
        return proba / proba.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        """The class of largest posterior."""
        return self.classes_[np.argmax(self.joint_log_likelihood(X), axis=1)]


def modelled_features(est) -> list:
    """The features a fitted member models: its ``selected_features_``, else every
    non-constant feature."""
    chosen = getattr(est, "selected_features_", None)
    if chosen is not None:
        return list(chosen)
    constant = set(getattr(est, "constant_features_", ()))
    return [v for v in est.feature_names() if v not in constant]


def _weights(weights, n: int) -> np.ndarray:
    if weights is None:
        return np.full(n, 1.0 / n)
    w = np.asarray(weights, dtype=float).ravel()
    if w.size != n:
        raise ValueError(f"{w.size} weights for {n} members: give one weight per member.")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(f"The member weights must be finite, non-negative and not all zero; "
                         f"got {w.tolist()}.")
    return w / w.sum()


def _same_encoding(a, b, k: int) -> None:
    """Refuse member ``k`` whose encoder has other columns, types or categories than
    member 0's (the mixture encodes a table once)."""
    if list(a.feature_names_in_) != list(b.feature_names_in_):
        raise ValueError(f"Member {k} was fitted on the columns {list(b.feature_names_in_)}, "
                         f"member 0 on {list(a.feature_names_in_)}: fit the members on one "
                         "table.")
    for c in a.feature_names_in_:
        ca, cb = a.categories_.get(c), b.categories_.get(c)
        if (ca is None) != (cb is None) or (ca is not None and not np.array_equal(ca, cb)):
            raise ValueError(f"Member {k} has other categories (or type) for column {c!r} "
                             "than member 0: fit the members on one table (the same rows "
                             "or the same categories).")


# -- the network ----------------------------------------------------------------------------
def _unique(name: str, taken: set) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def member_mixture_network(model):
    """A fitted ensemble (``estimators_`` and ``weights_``, members network classifiers on
    categorical features) as the pgmpy network of the module docstring: variable
    elimination with the features and ``graph["evidence"]`` as evidence gives
    :class:`MemberMixture`'s ``predict_proba``.

    Raises
    ------
    ValueError
        A member with continuous features (named) or no network of tables (e.g. AODE), and
        everything :class:`MemberMixture` refuses.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from pgmpy.inference import VariableElimination
    >>> from estimators.datasets import load_dataset
    >>> from estimators.bnc import KDBClassifier
    >>> from estimators.ktan import TANClassifier
    >>> X, y = load_dataset("car")
    >>> members = [TANClassifier().fit(X, y), KDBClassifier(max_parents=2).fit(X, y)]
    >>> ensemble = SimpleNamespace(estimators_=members, weights_=[0.5, 0.5])
    >>> bn = member_mixture_network(ensemble)
    >>> row = {v: str(X[v].iloc[0]) for v in X.columns}
    >>> q = VariableElimination(bn).query(["class"], {**row, **bn.graph["evidence"]},
    ...                                   show_progress=False)
    >>> p = MemberMixture(members).predict_proba(X[:1])[0]
    >>> bool(abs(q.values - p).max() < 1e-9)
    True
    """
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    from estimators.network.export.pgmpy_network import (
        _states,
        category_states,
        continuous_features,
        is_network_classifier,
        network_tables,
    )

    mix = MemberMixture(model.estimators_, model.weights_)
    for k, est in enumerate(mix.estimators):
        continuous = continuous_features(est)
        if continuous:
            shown = ", ".join(map(str, continuous[:8])) + (", ..." if len(continuous) > 8 else "")
            raise ValueError(
                f"{type(model).__name__}: member {k} has {len(continuous)} continuous "
                f"feature(s) ({shown}), which no discrete Bayesian network (pgmpy, BIF, XMLBIF, "
                "UAI, XDSL, NET) holds; its structure exports with --to graphml|json.")
        if not is_network_classifier(est):
            raise ValueError(
                f"{type(model).__name__}: member {k} is a {type(est).__name__}, no network of "
                "conditional probability tables; only ensembles of network classifiers ((k-)"
                "TAN, kDB, BAN) export to pgmpy/BIF/XMLBIF/UAI/XDSL/NET.")
    first = mix.estimators[0]
    cats = category_states(first)
    classes = _states(mix.classes_)
    n_classes = len(classes)
    target = first.class_node_
    taken = {*cats, target}
    s_node = _unique("member", taken)
    n = len(mix.estimators)
    s_states = [f"m{k}" for k in range(n)]
    prior = mix.weights * np.exp(mix.completion.sum(axis=1))
    cpds = [TabularCPD(s_node, n, (prior / prior.sum()).reshape(-1, 1),
                       state_names={s_node: s_states})]
    p_y = np.stack([np.exp(np.asarray(est.class_log_prior_, float)) for est in mix.estimators],
                   axis=1)
    cpds.append(TabularCPD(target, n_classes, p_y / p_y.sum(axis=0), evidence=[s_node],
                           evidence_card=[n], state_names={target: classes, s_node: s_states}))
    edges = [(s_node, target)]
    evidence, latent = {}, [s_node]
    yes_no, false_true = ["no", "yes"], ["false", "true"]
    for k, est in enumerate(mix.estimators):
        b_node = _unique(f"member{k}", taken)
        latent.append(b_node)
        chosen = np.zeros((2, n))
        chosen[1, k], chosen[0] = 1.0, 1.0
        chosen[0, k] = 0.0
        cpds.append(TabularCPD(b_node, 2, chosen, evidence=[s_node], evidence_card=[n],
                               state_names={b_node: yes_no, s_node: s_states}))
        edges.append((s_node, b_node))
        net = network_tables(est)
        for v, log_table in net.tables.items():
            pa = list(net.parents[v])
            e_node = _unique(f"member{k}_{v}", taken)
            evidence[e_node] = "true"
            table = np.moveaxis(np.exp(log_table), -1, 1)  # (class, v, parents...)
            on = np.stack([np.ones_like(table), table])  # member{k} no / yes
            cpds.append(TabularCPD(
                e_node, 2, np.stack([1.0 - on.ravel(), on.ravel()]),
                evidence=[b_node, target, v, *pa],
                evidence_card=[2, n_classes, *table.shape[1:]],
                state_names={e_node: false_true, b_node: yes_no, target: classes,
                             **{u: cats[u] for u in (v, *pa)}}))
            edges += [(b_node, e_node), (target, e_node), (v, e_node)] + [(p, e_node)
                                                                          for p in pa]
    cpds += [TabularCPD(v, len(s), np.full((len(s), 1), 1.0 / len(s)), state_names={v: s})
             for v, s in cats.items()]
    bn = DiscreteBayesianNetwork()
    bn.add_nodes_from([s_node, target, *cats, *latent[1:], *evidence])
    bn.add_edges_from(edges)
    bn.add_cpds(*cpds)
    bn.check_model()
    bn.graph.update(parameters="member mixture", closing_edges=[], latent=latent,
                    evidence=evidence)
    return bn
