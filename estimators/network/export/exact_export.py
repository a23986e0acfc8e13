"""Write a fitted classifier as a Bayesian network file: exactly, or not at all.

Every export of a fitted model to a discrete Bayesian network -- ``to_pgmpy()``, ``kgraph
export --to pgmpy|bif|xmlbif|uai|xdsl|net`` -- goes through :func:`exact_network`, which
returns a pgmpy ``DiscreteBayesianNetwork`` whose class posterior (variable elimination
with every feature as evidence) is the model's ``predict_proba`` on complete rows (every
value a training category), or raises one ``ValueError`` whose first line says why:

* a network classifier (the (k-)TAN family, kDB, BAN: a ``network_`` on a ``structure_``)
  on categorical features exports, generative (its smoothed CPTs) or discriminative (the
  equivalent network of its log-linear weights, Roos et al. 2005, MATH.md §10.1: TAN and
  k-TAN keep their structure, kDB and BAN may gain edges that close a parent set, listed
  in the network's ``graph["closing_edges"]`` and by :func:`export_notes`). On rows with
  empty cells the exported network marginalises its own CPTs; a discriminative model
  keeps generative factors for the families an empty cell touches (MATH.md §10), so the
  two agree on complete rows only;
* a model with continuous features is refused, naming them: pgmpy and these formats hold
  discrete variables only (its full parameters are in the GraphML/JSON structure graph,
  :func:`estimators.network.export.structure_graph.structure_graph`);
* an ensemble of network classifiers on categorical features (``estimators_``,
  ``weights_``) exports as the mixture of its members' joints over a member-selector node,
  each member's tables gated by it (:mod:`estimators.network.member_mixture`): exact with
  the nodes of ``graph["evidence"]`` observed as given;
* AODE/AnDE on categorical features exports as a mixture of its SPODEs over two latent
  nodes, the SPODE and its super-parents' value (:mod:`estimators.network.spode_mixture`,
  MATH.md §10.2): CPTs of (SPODEs x classes x joint super-parent values) cells, exact
  with the frequency limit; A2DE and beyond are refused when a complete row can get the
  naive Bayes fallback (no super-parent set has every joint value qualifying);
* GNB and k-GNB on categorical features (their rooted form, generative or
  discriminative) and the latent CNB with one component are networks of their own
  (:mod:`estimators.network.model_tables`, MATH.md §10.2);
* any other model on categorical features (the latent CNB with two or more components:
  its score is a per-row variational bound) exports as :func:`posterior_table_network`:
  the class a child of every feature with ``predict_proba`` of every combination as its
  CPT, refused (naming the size) past :data:`POSTERIOR_TABLE_LIMIT` probabilities.

The formats are registered by name in :mod:`estimators.network.export.network_formats`
(:data:`~estimators.network.export.network_formats.FORMATS`), each with its writer and reader;
the files hold every probability exactly (the shortest decimal text of the float); UAI has its
own writer (:mod:`estimators.network.export.uai`: pgmpy's is wrong for two or more parents),
and a key file beside it naming its numbered variables and coded states (UAI keeps no names).
Which independent engines read each format right is each format's ``readers`` (measured,
``tests/estimators/test_exact_export.py``): pgmpy gives
``predict_proba`` to 1e-9 on BIF, XMLBIF, XDSL and NET; pyAgrum on XMLBIF (suffix
``.bifxml``) to 1e-9 and on BIF and NET to 1e-6 (pyAgrum 3.3.1, and aGrUM's current
grammars, whose BIF/NET/UAI parsers store numbers as C++ ``float``, read their numbers as
float32, 6e-8 relative: the posterior of the float32-rounded network, 1.2e-8 from
``predict_proba`` on car's discriminative TAN). Two readers disagree with these files where
two or more parents meet (measured on car): pyAgrum 3.3.1 reads a UAI table and an XDSL
``probabilities`` list with the *first* parent varying fastest (and writes them so),
against the UAI competition's specification (the last scope variable least significant)
and pgmpy's XDSL reader and writer (the last parent fastest), which these files follow
(GeNIe itself was not available to check XDSL); pgmpy 1.1.2's ``UAIReader`` takes the
child as the slowest variable and the parents in an arbitrary order. No independent engine
at hand reads a UAI file with two-parent tables right; kgraph's :func:`read_uai` reads it by
the specification.
The class node is named ``class`` (``class_``... when a feature has that name); where the
user's name for the class column is known, :func:`with_class_name` names it so, or says why
not (a feature's name, or text a format cannot hold as a name).
State names are ``str`` of the user's own values (the category ``1`` is written ``1``,
``1.0`` is ``1.0``), so pgmpy's readers give ``predict_proba`` back with evidence
``str(value)``. The XMLBIF writer registered keeps the text as it is (pgmpy's own replaces every
character but letters, digits and ``_`` by ``_``). BIF has no quoting: a state whose text
holds a comma, brace, double quote, or whitespace other than inner single spaces cannot be
written, and is refused with a ``ValueError`` naming it (XMLBIF holds any text).
"""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path

import numpy as np

from estimators.base.model_size import MAX_CELLS
from estimators.network.export.network_formats import get_format

#: text BIF can hold as a state name: no comma, brace, quote or spacing but single inner spaces
_BIF_STATE = re.compile(r"[^,{}\"\s]+( [^,{}\"\s]+)*")


#: the largest posterior table (probabilities) :func:`posterior_table_network` writes: the
#: limit a fit checks its own tables against (:mod:`estimators.base.model_size`)
POSTERIOR_TABLE_LIMIT = MAX_CELLS


def exact_network(model):
    """The fitted model as a pgmpy ``DiscreteBayesianNetwork`` with its posterior on
    complete rows, or a ``ValueError`` saying why there is none (module docstring): the
    first form of :data:`EXACT_FORMS` that applies, else :func:`posterior_table_network`.

    Examples
    --------
    >>> from estimators.datasets import load_dataset
    >>> from estimators.ktan import TANClassifier
    >>> X, y = load_dataset("car")
    >>> bn = exact_network(TANClassifier(parameters="discriminative").fit(X, y))
    >>> sorted(bn.get_parents("safety")), bn.graph["closing_edges"]
    (['buying', 'class'], [])
    """
    for applies, build in EXACT_FORMS:
        if applies(model):
            return build(model)
    return posterior_table_network(model)


def _network_classifier(model) -> bool:
    from estimators.network.export.pgmpy_network import continuous_features, is_network_classifier

    return is_network_classifier(model) or bool(continuous_features(model))


def _own_network(model):
    """A network classifier's network; refuses continuous features, naming them."""
    from estimators.network.export.pgmpy_network import exact_network as build

    return build(model)


def _spode_mixture(model) -> bool:
    from estimators.network.spode_mixture import is_spode_mixture

    return is_spode_mixture(model)


def _mixture_network(model):
    from estimators.network.spode_mixture import spode_mixture_network

    return spode_mixture_network(model)


def _member_mixture(model) -> bool:
    from estimators.network.member_mixture import is_member_mixture

    return is_member_mixture(model)


def _member_network(model):
    from estimators.network.member_mixture import member_mixture_network

    return member_mixture_network(model)


def _has_tables(model) -> bool:
    from estimators.network.model_tables import TABLES

    return any(applies(model) for applies, _ in TABLES)


def _tables_network(model):
    from estimators.network.export.pgmpy_network import tables_network
    from estimators.network.model_tables import model_tables

    kind = "generative" if getattr(model, "discriminative_", None) is None else "discriminative"
    return tables_network(model, model_tables(model), class_node(model), kind)


def class_node(model) -> str:
    """The class's node: the model's ``class_node_``, else ``"class"`` (``"y"``,
    ``"__class__"`` when a feature has that name)."""
    names = [str(c) for c in getattr(model.encoder_, "feature_names_in_", [])]
    return getattr(model, "class_node_", None) or next(
        t for t in ("class", "y", "__class__") if t not in names)


#: text every format holds as a variable's name (XDSL and NET take no spacing, BIF and NET
#: no punctuation of their grammars)
_NAME = re.compile(r"[^\s,;:=(){}\[\]<>&\"'|]+")


def with_class_name(network, old: str, name) -> tuple[object, str | None]:
    """``network`` with its class node ``old`` renamed ``name`` (the user's class column),
    and ``None``; or ``network`` unchanged and a note saying why not: ``name`` is another
    node's (a feature's, or a latent node's), or text a format cannot hold as a name.

    Examples
    --------
    >>> from estimators.datasets import load_dataset
    >>> from estimators.ktan import TANClassifier
    >>> X, y = load_dataset("car")
    >>> bn = exact_network(TANClassifier().fit(X, y))
    >>> renamed, note = with_class_name(bn, "class", "acceptability")
    >>> sorted(renamed.get_parents("safety")), note
    (['acceptability', 'buying'], None)
    >>> print(with_class_name(bn, "class", "safety")[1])
    the class node is named 'class': the class column's name 'safety' is a feature's
    """
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    text = str(name)
    if text == old:
        return network, None
    if text in map(str, network.nodes()):
        latent = text in network.graph.get("latent", [])
        return network, (f"the class node is named {old!r}: the class column's name "
                         f"{text!r} is a {'latent node' if latent else 'feature'}'s")
    if not _NAME.fullmatch(text):
        return network, (f"the class node is named {old!r}: the class column's name {text!r} "
                         "holds spacing or punctuation that XDSL, NET or BIF cannot hold in "
                         "a name")
    rename = {old: text}
    bn = DiscreteBayesianNetwork()
    bn.add_nodes_from(rename.get(v, v) for v in network.nodes())
    bn.add_edges_from((rename.get(u, u), rename.get(v, v)) for u, v in network.edges())
    cpds = []
    for cpd in network.get_cpds():
        names = [rename.get(v, v) for v in cpd.variables]
        cpds.append(TabularCPD(names[0], int(cpd.cardinality[0]), cpd.get_values(),
                               evidence=names[1:] or None,
                               evidence_card=[int(c) for c in cpd.cardinality[1:]] or None,
                               state_names={rename.get(v, v): list(cpd.state_names[v])
                                            for v in cpd.variables}))
    bn.add_cpds(*cpds)
    bn.graph.update(network.graph)
    return bn, None


#: (applies to the fitted model, its exact network), tried in order: network classifiers
#: (and every model with continuous features, refused there), AnDE as a SPODE mixture with
#: latent nodes, an ensemble of network classifiers as a mixture over a member-selector
#: node (:mod:`estimators.network.member_mixture`), the models with tables of their own (GNB, k-GNB, one-component latent CNB)
EXACT_FORMS = ((_network_classifier, _own_network), (_spode_mixture, _mixture_network),
               (_member_mixture, _member_network), (_has_tables, _tables_network))


def posterior_table_network(model, limit: int = POSTERIOR_TABLE_LIMIT):
    """A fitted classifier on categorical features as the Bayesian network whose class has
    every feature as a parent and ``predict_proba`` of every combination of training
    categories as its CPT; the features are roots with uniform CPTs. Exact on complete
    rows by construction; on rows with empty cells the network averages the posterior
    over the missing features uniformly, not as the model marginalises. For models with no
    small exact network (the latent CNB with two or more components); any model on
    categorical features can be tabulated so.

    Raises
    ------
    ValueError
        When the table would hold more than ``limit`` probabilities, or the model has no
        categorical encoder.

    Examples
    --------
    >>> from estimators.datasets import load_dataset
    >>> from estimators.bnc import AODEClassifier
    >>> X, y = load_dataset("car")
    >>> bn = posterior_table_network(AODEClassifier().fit(X, y))
    >>> len(bn.get_parents("class")), bn.get_cpds("class").values.size
    (6, 6912)
    """
    import itertools

    import pandas as pd
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    name = type(model).__name__
    encoder = getattr(model, "encoder_", None)
    columns = list(getattr(encoder, "feature_names_in_", []))
    if not columns or any(c not in encoder.categories_ for c in columns):
        raise ValueError(f"A {name} is no Bayesian network with CPDs and has no categorical "
                         "encoder to tabulate its posterior; its structure exports with "
                         "--to graphml|json.")
    states = [encoder.categories_[c].tolist() for c in columns]
    classes = np.asarray(model.classes_).tolist()
    size = int(np.prod([len(s) for s in states], dtype=float) * len(classes))
    if size > limit:
        raise ValueError(f"A {name} {_why_no_network(model)}, and its posterior over "
                         f"every combination of its {len(columns)} features' categories "
                         f"would need {size:,} probabilities (limit {limit:,}); its "
                         "structure exports with --to graphml|json.")
    names = [str(c) for c in columns]
    target = class_node(model)
    grid = pd.DataFrame(list(itertools.product(*states)), columns=columns)
    proba = model.predict_proba(grid)  # rows: the last feature fastest, as pgmpy's columns
    bn = DiscreteBayesianNetwork()
    bn.add_nodes_from([*names, target])
    bn.add_edges_from([(v, target) for v in names])
    cpds = [TabularCPD(v, len(s), np.full((len(s), 1), 1.0 / len(s)), state_names={v: s})
            for v, s in zip(names, states, strict=True)]
    cpds.append(TabularCPD(target, len(classes), proba.T, evidence=names,
                           evidence_card=[len(s) for s in states],
                           state_names={target: classes, **dict(zip(names, states, strict=True))}))
    bn.add_cpds(*cpds)
    bn.check_model()
    bn.graph.update(parameters="posterior table", closing_edges=[])
    return bn


def _why_no_network(model) -> str:
    """Why a model goes to :func:`posterior_table_network` (the start of its refusal)."""
    k = getattr(model, "n_components_", None)
    if k is not None and k > 1:  # the latent CNB: its score is a variational bound
        return (f"with n_components_={k} scores a row by ln p(y) + ELBO_y(x), a per-row "
                "variational bound found by coordinate ascent, which is no sum over latent "
                "states of a Bayesian network (n_components=1 exports as naive Bayes)")
    return "is no Bayesian network with CPDs"


def export_notes(network) -> list[str]:
    """What a reader of an exported network should know, one line each: the closing edges
    of a discriminative model's equivalent network and where it equals the model."""
    notes = []
    if network.graph.get("parameters") == "posterior table":
        notes.append("the class's CPT is the model's posterior over every combination of "
                     "training categories (the features are uniform roots): exact on "
                     "complete rows; on rows with empty cells the file averages uniformly")
    if network.graph.get("parameters") == "spode mixture":
        latent = " and ".join(network.graph.get("latent", []))
        notes.append(f"the SPODE average as a mixture over the latent nodes {latent} (leave "
                     "them out of the evidence): exact on complete rows; on rows with empty "
                     "cells the file marginalises its own CPTs")
    if network.graph.get("parameters") == "member mixture":
        n = len(network.graph.get("evidence", {}))
        notes.append(f"the ensemble as a mixture of its members' joints over the latent node "
                     f"{network.graph['latent'][0]}: set its {n} member<m>_<feature> nodes to "
                     "true with the features (graph['evidence']) and leave the latent nodes "
                     "out; exact on every row, empty cells left out of the evidence")
    if network.graph.get("parameters") == "discriminative":
        edges = network.graph.get("closing_edges", [])
        listed = ", ".join(f"{q} -> {p}" for q, p in edges)
        notes.append(f"discriminative parameters as an equivalent Bayesian network; closing "
                     f"edges added: {len(edges)}" + (f" ({listed})" if edges else ""))
        notes.append("exact on complete rows; on rows with empty cells the model keeps "
                     "generative factors, the file marginalises its own CPTs")
    return notes


def write_network(model, fmt: str, path: str | PathLike, target=None) -> Path:
    """Write the fitted model as ``fmt`` (a name of
    :data:`~estimators.network.export.network_formats.FORMATS`; "pgmpy": a joblib pickle of
    :func:`exact_network`), the class node named ``target`` (the class column's name) when
    given and possible (:func:`with_class_name`, else its default name). A UAI file comes
    with its key file (:func:`~estimators.network.export.uai.uai_key_path`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from estimators.datasets import load_dataset
    >>> from estimators.ktan import TANClassifier
    >>> X, y = load_dataset("car")
    >>> clf = TANClassifier().fit(X, y)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = write_network(clf, "bif", pathlib.Path(d) / "car.bif")
    ...     from pgmpy.readwrite import BIFReader
    ...     sorted(BIFReader(path).get_model().get_parents("safety"))
    ['buying', 'class']
    """
    get_format(fmt)  # an unknown format is refused before the work
    network = exact_network(model)
    if target is not None:
        network, _ = with_class_name(network, class_node(model), target)
    return write_exact(network, fmt, path)


def write_exact(network, fmt: str, path: str | PathLike) -> Path:
    """Write a network of :func:`exact_network` as ``fmt`` (:func:`write_network`)."""
    form, path = get_format(fmt), Path(path)
    if form.network_file:
        _check_states(network, bif=form.bif_states)
    form.write(network, path)
    return path


def read_network(path: str | PathLike, fmt: str, like=None):
    """A file written by :func:`write_network` read back into pgmpy by its format's reader
    (``like``: the network of :func:`exact_network` that was written, which names a UAI
    file's variables and states; else the key file does)."""
    return get_format(fmt).read(Path(path), like)


def _check_states(network, *, bif: bool) -> None:
    """Refuse, naming them, two states of one variable with the same text (``1`` and
    ``"1"`` in one object column), and for ``bif`` a state whose text BIF cannot hold (see
    the module docstring)."""
    for cpd in network.get_cpds():
        texts = [str(s) for s in cpd.state_names[cpd.variable]]
        twice = sorted({t for t in texts if texts.count(t) > 1})
        if twice:
            raise ValueError(f"Variable {cpd.variable!r} has two states written {twice[0]!r} "
                             "(values of different types with the same text); text formats "
                             "cannot tell them apart: make the column one type.")
        for state in texts if bif else ():
            if not _BIF_STATE.fullmatch(state):
                raise ValueError(
                    f"Variable {cpd.variable!r} has the state {state!r}, which BIF cannot "
                    "hold (no comma, brace, double quote, tab, newline or leading, trailing "
                    "or double space); rename the category or export to XMLBIF.")
