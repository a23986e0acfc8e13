"""The whole structure of a fitted classifier as one property graph, for every family.

:func:`structure_graph` returns a :class:`kgraph.GraphDB` that ``kgraph.read_structure``
reads back as the model's structure (graph attribute ``structure``), completed with what a
reader of the file needs: the class node (``kind="class"``) and its edges
(``kind="class-edge"``), every feature's ``feature_type``, a numeric ``weight`` on every
edge and the model's name and target. Every number written is finite: a score that is not
(-inf: too few rows observed together; +inf: a feature a function of another within a
class, e.g. in a class of two rows) is written as ``<name>_note`` saying which, in place of
``weight``, ``clique_score`` or the total ``score``/``weight``. Edge weights are nats: between features the model's
edge score (class-conditional mutual information, per family below); on a class edge
I(X_j; C) of its feature (``class_information_``, :mod:`estimators.stats.class_information`:
plug-in mutual information for a categorical column, the Gaussian (conditional Gaussian)
one for a continuous column, on the rows where the column is observed; from the partition
statistics for a model fitted from Dask). ``states`` lists the class labels on the class node and the
training categories on each categorical (or constant) feature's node, in code order, each
the user's own value of its own type (JSON keeps the type; GraphML shows ``str`` of each
and keeps the type for kgraph's reader). Per family (one function each, chosen through
:data:`STRUCTURE_GRAPHS`):

* GNB (:class:`~estimators.gnb.GNBClassifier`): the GNB junction-tree graph; each tree edge
  carries ``weight`` = I(X_i; X_j | Y) and ``in_use`` (True for the first ``n_clusters_``
  clusters, the ones a reduced model predicts with).
* k-GNB and (k-)TAN: the acyclic k-tree with the class as a parent of every feature;
  (k-)TAN, and every other network classifier (kDB, ...: a ``network_`` on a
  ``structure_``, found without registration), parent edges carry ``weight`` = f(child, {parent}) (I(X_u; X_v | Y) on
  single-type data) and each feature its ``clique_score`` = f(v, pa(v)), ``parents`` and
  ``clique`` (comma-separated names) and ``parameters``, the fitted factor
  (:func:`estimators.network.export.pgmpy_network.factor_parameters`; readable text in GraphML, exact in
  the JSON), the graph its ``class_log_prior`` and, for ``parameters="discriminative"``,
  ``discriminative``: the fitted weights
  (:func:`estimators.network.export.pgmpy_network.discriminative_parameters`), and the class edge of a feature whose fitted factor is class-free
  (``continuous="auto"``: p(x_v | pa) the same in every class) ``in_use=False``; k-GNB
  parent edges carry ``weight`` = f(child, {parent}) from its
  ``edge_scores_`` and the graph its total ``weight``. ``KTANClassifier.write_graphml``
  writes this graph.
* AODE/AnDE (:class:`~estimators.bnc.AnDEClassifier`): the
  :class:`~kgraph.superparent.SuperParentEnsemble` graph, the union of the SPODEs' arcs;
  each ``super-parent`` edge ``s -> v`` carries ``spodes`` and ``weight`` = the model's
  ``edge_scores_[(s, v)]`` (the CG score f(v, S) averaged over the SPODEs with the arc).
* an ensemble of network classifiers (``estimators_`` and ``weights_``, found without
  registration): the :class:`~kgraph.consensus.EnsembleStructure` of its members'
  structures, each feature pair once (``kind="consensus"``, ``weight`` = the share of
  members joining it, ``forward``/``backward`` counts), the members' parent sets and
  ``weights`` in the graph attributes.
* latent CNB: the plate graph, with the class node as the parent of the mixing weights and
  of every feature's parameters (each class has its own); the class -> parameters edge of
  feature j carries I(X_j; C), the plate's notation edges (prior, mixing, selects,
  emission, class -> mixing weights) ``weight`` 0: they stand for no estimated dependence.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from sklearn.utils.validation import check_is_fitted

from kgraph import GraphDB

__all__ = ["STRUCTURE_GRAPHS", "register_structure_graph", "structure_graph"]


def _types(clf, names, default: str) -> dict:
    """Each feature's type: the model's ``feature_types_`` when it has one (mixed data),
    else ``default`` for all."""
    given = getattr(clf, "feature_types_", None)
    if isinstance(given, dict) and set(names) <= set(given):
        return {v: str(given[v]) for v in names}
    return dict.fromkeys(names, default)


def _with_class(graph: GraphDB, target, children, feature_type: dict) -> GraphDB:
    graph.attrs["target"] = target
    graph.add_node(target, kind="class")
    for v in children:
        graph.add_edge(target, v, kind="class-edge")
    for v, kind in feature_type.items():
        graph.set_node_attrs(v, feature_type=kind)
    return graph


def _labels(values) -> list:
    """Labels as the user gave them, as plain Python values (``int``, ``str``, ``bool``,
    ``float``)."""
    return list(values.tolist() if hasattr(values, "tolist") else values)


def _class_weights(graph: GraphDB, clf, target, node_of: Callable | None = None) -> GraphDB:
    """``weight`` = I(X_j; C) (``class_information_``, nats) on the class edge of every
    column ``j`` (to ``node_of(j)``, default its name) that has one."""
    info = getattr(clf, "class_information_", None)
    if info is None:  # a model pickled before class_information_ existed
        return graph
    for j, name in enumerate(clf.feature_names()):
        node = name if node_of is None else node_of(j)
        if graph.has_edge(target, node):
            graph.set_edge_attrs(target, node, weight=float(info[j]))
    return graph


def _with_states(graph: GraphDB, clf, target, node_of: Callable | None = None) -> GraphDB:
    """``states`` on the class node (``classes_``) and on every categorical or constant
    feature's node (its training categories, code order), each the user's own values;
    ``node_of(j)`` is the node of column ``j`` (default: its name)."""
    graph.set_node_attrs(target, states=_labels(clf.classes_))
    encoder = getattr(clf, "encoder_", None)
    if encoder is None:
        return graph
    names = clf.feature_names()
    for j, column in enumerate(encoder.feature_names_in_):
        node = names[j] if node_of is None else node_of(j)
        if column in encoder.categories_ and graph.has_node(node):
            graph.set_node_attrs(node, states=_labels(encoder.categories_[column]))
    return graph


def _gnb(clf) -> GraphDB:
    g = clf.structure_.to_graph()
    in_use = clf.n_clusters_
    for u, v, attrs in g.edges(kind="tree", data=True):
        g.set_edge_attrs(u, v, **_finite("weight", clf.edge_weights_[attrs["order"]]),
                         in_use=attrs["order"] < in_use)
    for v, kind in _types(clf, clf.structure_.features, "continuous").items():
        g.set_node_attrs(v, feature_type=kind)
    g.attrs.update(model=type(clf).__name__, dependence=clf.dependence,
                   n_clusters=int(in_use), **_finite("weight", clf.weight_),
                   parameters=_parameters_note(clf))
    return _class_weights(_with_states(g, clf, g.attrs["target"]), clf, g.attrs["target"])


def _parameters_note(clf) -> str:
    """What the exported parameters are: the model's own, or (``parameters=
    "discriminative"``) the generative ones its log-linear weights start from."""
    if getattr(clf, "discriminative_", None) is None:
        return "generative"
    if _is_network(clf):
        return ("discriminative: the factor parameters written here are the generative ones; "
                "predict uses the log-linear weights in the graph's discriminative attribute")
    return ("discriminative: the factor parameters written here are the generative ones; "
            "predict uses the log-linear weights of discriminative_ (not exported)")


def _ktree_of(clf, target, feature_type: str, names=None) -> GraphDB:
    """The k-tree with the class node joined to ``names`` (default: every feature)."""
    g = clf.structure_.to_graph()
    names = clf.feature_names() if names is None else names
    return _with_class(g, target, names, _types(clf, names, feature_type))


def _kgnb(clf) -> GraphDB:
    target = clf._target_name()
    g = _ktree_of(clf, target, "continuous")
    g.attrs.update(model=type(clf).__name__, dependence=clf.dependence,
                   **_finite("weight", clf.weight_))
    constant = set(getattr(clf, "constant_features_", ()))
    index = {v: j for j, v in enumerate(v for v in clf.feature_names() if v not in constant)}
    for p, v in g.edges(kind="parent"):
        g.set_edge_attrs(p, v, **_finite("weight", clf.edge_scores_[index[p], index[v]]))
    return _class_weights(_with_states(g, clf, target), clf, target)


def _network(clf, **attrs) -> GraphDB:
    """Any network classifier (:mod:`estimators.network.export.pgmpy_network`): its ``structure_`` (a
    :class:`kgraph.ParentSets` structure object) with the class node, every modelled
    feature's ``parents``, ``clique`` and fitted factor ``parameters``, ``clique_score``
    from ``hyperedge_scores_`` and parent-edge ``weight`` from ``edge_scores_`` (rows and
    columns the modelled features in column order) when the model has them; ``attrs`` go
    to the graph after ``model`` and ``family``."""
    from estimators.network.export.pgmpy_network import factor_parameters

    # the modelled features, in column order: the rows and columns of ``edge_scores_``
    # (constant columns, and those feature selection leaves out, are not in the model)
    constant = set(getattr(clf, "constant_features_", ()))
    names = getattr(clf, "selected_features_", None) or [v for v in clf.feature_names() if v not in constant]
    index = {v: j for j, v in enumerate(names)}
    family = getattr(clf, "family_", "mixed")
    g = _ktree_of(clf, clf.class_node_, family,  # features left out by selection: no node
                  [v for v in clf.feature_names() if v in constant or v in index])
    g.attrs.update(model=type(clf).__name__, family=family, **attrs,
                   constant_features=",".join(map(str, sorted(constant, key=str))),
                   parameters=_parameters_note(clf),
                   class_log_prior=[float(p) for p in clf.class_log_prior_])
    if getattr(clf, "discriminative_", None) is not None:
        from estimators.network.export.pgmpy_network import discriminative_parameters

        g.attrs["discriminative"] = discriminative_parameters(clf)
    factors = dict(zip(clf.network_.columns, clf.network_.factors, strict=True))
    all_names = clf.feature_names()
    clique_scores = getattr(clf, "hyperedge_scores_", None)
    edge_scores = getattr(clf, "edge_scores_", None)
    for v in names:
        parents = sorted(clf.structure_.parents(v), key=index.__getitem__)
        node = dict(parents=",".join(map(str, parents)),
                    clique=",".join(map(str, [v, *parents])),
                    parameters=factor_parameters(factors[all_names.index(v)], all_names))
        if clique_scores is not None:
            node = _finite("clique_score", clique_scores[v]) | node
        g.set_node_attrs(v, **node)
        if isinstance(node["parameters"], dict) and node["parameters"].get("class_free"):
            # continuous="auto" may fit p(x_v | x_pa) the same in every class: the learned
            # structure has the class edge, the fitted model does not use it
            g.set_edge_attrs(clf.class_node_, v, in_use=False)
        for p in parents:
            weight = 0.0 if edge_scores is None else float(edge_scores[index[p], index[v]])
            g.set_edge_attrs(p, v, **_finite("weight", weight))
    return _class_weights(_with_states(g, clf, clf.class_node_), clf, clf.class_node_)


#: what a non-finite score means, written instead of it (-inf, +inf)
_UNDEFINED = {False: "undefined: too few rows observed together (the score's -inf: the "
                     "searchers avoid it; a tree attaches a feature by it only when it has "
                     "no other)",
              True: "infinite: the feature is a function of the other within a class"}


def _finite(name: str, value) -> dict:
    """``{name: value}``, or for a value that is not finite ``{name_note: why}``."""
    value = float(value)
    return {name: value} if math.isfinite(value) else {f"{name}_note": _UNDEFINED[value > 0]}


def _ktan(clf) -> GraphDB:
    # the structure's total score: not finite when one family's is not
    return _network(clf, **_finite("score", clf.score_),
                    backbone=",".join(map(str, clf.backbone_ or ())), search=clf.search_)


def _latent(clf) -> GraphDB:
    g = clf.plate_graph().to_graph()
    names = set(clf.plate_graph().features)
    target = next(t for t in ("class", "y", "__class__") if t not in names)
    params = list(g.nodes(kind="parameter"))
    features = list(clf.plate_graph().features)
    types = _types(clf, features, clf.plate_graph().family)
    g = _with_class(g, target, ["pi", *params], {("x", j): types[j] for j in features})
    g.attrs["model"] = type(clf).__name__
    names = getattr(clf, "feature_names_in_", None)  # the plate's keys, constants included
    columns = list(range(clf.n_features_in_)) if names is None else names.tolist()
    for u, v in g.edges():  # plate notation, no estimated dependence (class edges below)
        g.set_edge_attrs(u, v, weight=0.0)
    g = _with_states(g, clf, target, lambda j: ("x", columns[j]))
    return _class_weights(g, clf, target, lambda j: ("theta", columns[j]))


def _ande(clf) -> GraphDB:
    g = clf.structure_.to_graph()
    target = clf.class_node_
    names = list(clf.structure_.features)
    for v, kind in _types(clf, names, "mixed").items():
        g.set_node_attrs(v, feature_type=kind)
    for u, v in g.edges(kind="super-parent"):
        g.set_edge_attrs(u, v, weight=clf.edge_scores_.get((u, v), 0.0))
    g.attrs.update(model=type(clf).__name__, frequency_limit=int(clf.frequency_limit),
                   alpha=float(clf.alpha), parameters="generative",
                   constant_features=",".join(map(str, clf.constant_features_)))
    return _class_weights(_with_states(g, clf, target), clf, target)


def _ensemble(clf) -> GraphDB:
    from kgraph.consensus import EnsembleStructure

    first = clf.estimators_[0]
    target = first.class_node_
    g = EnsembleStructure([m.structure_ for m in clf.estimators_], target).to_graph()
    names = [v for v in g.nodes(kind="variable")]
    for v, kind in _types(first, names, "mixed").items():
        g.set_node_attrs(v, feature_type=kind)
    g.attrs.update(model=type(clf).__name__, member_models=[type(m).__name__
                                                            for m in clf.estimators_],
                   weights=[float(w) for w in clf.weights_],
                   parameters="mixture of the members' joints")
    return _class_weights(_with_states(g, first, target), first, target)


#: the structure graphs of kgraph's own families, by the ``structure_graph_kind`` a family's
#: class declares (this module imports no family: the families import it, so the imports go
#: one way)
BUILT_IN: dict[str, Callable[[object], GraphDB]] = {
    "gnb": _gnb, "kgnb": _kgnb, "ktan": _ktan, "latent": _latent, "ande": _ande}

#: fitted-model class -> structure-graph function, added by :func:`register_structure_graph`
_REGISTERED: dict[type, Callable[[object], GraphDB]] = {}


def register_structure_graph(kind: type, build: Callable[[object], GraphDB]) -> None:
    """Give the fitted models of class ``kind`` (and its subclasses) the structure graph
    ``build(model)``. A network classifier (a ``network_`` on a ``structure_``) needs none:
    it gets the network graph (module docstring).

    Examples
    --------
    >>> class Mine: ...
    >>> register_structure_graph(Mine, lambda model: GraphDB())
    >>> Mine in STRUCTURE_GRAPHS()
    True
    >>> del _REGISTERED[Mine]
    """
    _REGISTERED[kind] = build


def STRUCTURE_GRAPHS() -> dict[type, Callable[[object], GraphDB]]:  # noqa: N802
    """The registry: fitted-model class -> its structure-graph function, as given to
    :func:`register_structure_graph` (kgraph's own families declare theirs:
    :data:`BUILT_IN`)."""
    return dict(_REGISTERED)


def _builder(model) -> Callable[[object], GraphDB] | None:
    """The structure-graph function of ``model``: a registered class's, else the one its
    class declares by ``structure_graph_kind``."""
    for kind, build in STRUCTURE_GRAPHS().items():
        if isinstance(model, kind):
            return build
    return BUILT_IN.get(getattr(type(model), "structure_graph_kind", None))


def _is_network(model) -> bool:
    from estimators.network.model import CGNetwork

    return isinstance(getattr(model, "network_", None), CGNetwork) and hasattr(
        getattr(model, "structure_", None), "parents")


def structure_graph(model) -> GraphDB:
    """The fitted model's whole structure: class, parents, edge scores, feature types.

    Parameters
    ----------
    model : GNBClassifier, KGNBClassifier, TANClassifier, KTANClassifier,
        LatentCNBClassifier, any network classifier (``network_`` on a ``structure_``:
        KDBClassifier, ...) or a class given to :func:`register_structure_graph`
        A fitted classifier.

    Returns
    -------
    kgraph.GraphDB
        Readable back as the model's structure with ``kgraph.read_structure`` after
        ``write_json`` / ``write_graphml``.

    Examples
    --------
    >>> from estimators.datasets import load_dataset
    >>> from estimators.ktan import TANClassifier
    >>> X, y = load_dataset("car")
    >>> g = structure_graph(TANClassifier().fit(X, y))
    >>> g.nodes(kind="class"), len(g.edges(kind="parent"))
    (['class'], 5)
    """
    build = _builder(model)
    if build is not None:
        check_is_fitted(model)
        return build(model)
    if hasattr(model, "get_params"):  # an estimator: refuse an unfitted one as unfitted
        check_is_fitted(model)
    if _is_network(model):
        return _network(model)
    if hasattr(model, "estimators_") and hasattr(model, "weights_"):
        return _ensemble(model)
    names = ", ".join(k.__name__ for k in STRUCTURE_GRAPHS())
    raise TypeError(f"No structure graph for a {type(model).__name__}; supported: {names}, "
                    "every network classifier (a network_ on a structure_) and every "
                    "ensemble of them (estimators_ and weights_).")
