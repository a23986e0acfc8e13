"""Labels keep their value and type everywhere (issue 25, item 1).

Categories and class labels of every dtype a table can hold (int, float with integral
values, digit strings, letters, bool, pandas ``category``, ``StringDtype``, mixed-type
objects) come back as the user gave them from ``classes_``, ``predict``, the encoder's
categories, ``to_pgmpy()``, the structure graph (JSON exact, GraphML as text and exact
through kgraph's reader); BIF and XMLBIF hold ``str(value)``, and pgmpy's readers give
``predict_proba`` back with the user's values stringified as evidence.
"""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader, XMLBIFReader

from estimators.bnc import KDBClassifier
from estimators.gnb import GNBClassifier
from estimators.ktan import KTANClassifier, TANClassifier
from estimators.latent import LatentCNBClassifier
from estimators.network.export.exact_export import write_network
from estimators.network.export.structure_graph import structure_graph
from kgraph import GraphDB

#: the levels of each label kind (three distinct values; bool has two)
LEVELS = {
    "int": [7, -2, 30],
    "float": [0.0, 1.0, 2.0],
    "digits": ["0", "1", "10"],
    "letters": ["no", "yes", "maybe"],
    "bool": [False, True],
    "category": ["b", "a", "c"],
    "string": ["0", "1", "2"],
    "mixed": [1, "a", 2.5],
}
CLASS_KINDS = [k for k in LEVELS if k != "mixed"]  # scikit-learn refuses mixed-type labels


def column(kind: str, codes: list[int]) -> pd.Series:
    """A column of ``kind`` whose row ``i`` holds level ``codes[i]``."""
    levels = LEVELS[kind]
    values = [levels[c % len(levels)] for c in codes]
    if kind == "category":
        return pd.Series(values, dtype="category")
    if kind == "string":
        return pd.Series(values, dtype="string")
    if kind in ("mixed", "digits", "letters"):
        return pd.Series(values, dtype=object)
    return pd.Series(values)


def python(values) -> list:
    """The values of a column as plain Python scalars (what the user holds)."""
    return [v.item() if isinstance(v, np.generic) else v for v in list(values)]


def typed(values) -> list:
    """Values with their types, so that ``1 == 1.0 == True`` do not pass for each other."""
    return [(type(v).__name__, v) for v in python(values)]


@st.composite
def tables(draw):
    n = 24
    kinds = draw(st.lists(st.sampled_from(sorted(LEVELS)), min_size=3, max_size=3))
    cols = {}
    for j, kind in enumerate(kinds):
        codes = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
        cols[f"f{j}"] = column(kind, [0, 1, *codes[2:]])  # two levels at least
    y_kind = draw(st.sampled_from(CLASS_KINDS))
    y_codes = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y = column(y_kind, [0, 1, 0, 1, *y_codes[4:]])
    return pd.DataFrame(cols), y


def check_labels(model, X: pd.DataFrame, y: pd.Series) -> None:
    """classes_, predict and the encoder's categories are the user's values, typed."""
    user_classes = sorted(set(typed(y)), key=repr)
    assert sorted(typed(model.classes_), key=repr) == user_classes
    assert set(typed(model.predict(X))) <= set(user_classes)
    for name in X.columns:
        got = typed(model.encoder_.categories_[name])
        assert sorted(got, key=repr) == sorted(set(typed(X[name])), key=repr), name


def check_graph(model, X: pd.DataFrame, tmp_path) -> None:
    """``states`` in the structure graph: exact in JSON (and GraphML through kgraph's
    reader), ``str(value)`` in the GraphML text other tools read."""
    graph = structure_graph(model)
    target = graph.attrs["target"]
    nodes = {graph.node_attrs(v).get("feature", v): v for v in graph.nodes(kind="variable")}
    expected = {target: python(model.classes_)} | {
        nodes[name]: python(model.encoder_.categories_[name]) for name in X.columns}
    graph.write_json(tmp_path / "g.json")
    graph.write_graphml(tmp_path / "g.graphml")
    for read in (GraphDB.read_json(tmp_path / "g.json"),
                 GraphDB.read_graphml(tmp_path / "g.graphml")):
        for node, states in expected.items():
            assert typed(read.node_attrs(node)["states"]) == typed(states), node
    plain = nx.read_graphml(tmp_path / "g.graphml")
    text = {d.get("label"): d.get("states") for _, d in plain.nodes(data=True)}
    assert text[str(target)] == "[" + ", ".join(str(v) for v in expected[target]) + "]"


def check_networks(model, X: pd.DataFrame, tmp_path, formats=("xmlbif",)) -> None:
    """to_pgmpy() with the user's values as evidence, and the files of ``formats`` read
    back by pgmpy with their text, give ``predict_proba``."""
    rows = X.iloc[:3]
    expected = model.predict_proba(rows)
    target = model.class_node_
    bn = model.to_pgmpy()
    assert typed(bn.get_cpds(target).state_names[target]) == typed(model.classes_)
    networks = [(bn, lambda v: v.item() if isinstance(v, np.generic) else v)]
    readers = {"bif": BIFReader, "xmlbif": XMLBIFReader}
    for fmt in formats:
        path = write_network(model, fmt, tmp_path / f"m.{fmt}")
        networks.append((readers[fmt](str(path)).get_model(), str))
    for network, as_evidence in networks:
        infer = VariableElimination(network)
        states = network.get_cpds(target).state_names[target]
        order = [states.index(as_evidence(c)) for c in python(model.classes_)]
        for i in range(len(rows)):  # cell by cell: a row Series would share one dtype
            evidence = {k: as_evidence(rows[k].iloc[i]) for k in rows.columns
                        if k in network.nodes()}
            got = infer.query([target], evidence=evidence, show_progress=False).values
            np.testing.assert_allclose(got[order], expected[i], atol=1e-10)


MODELS = {
    "tan": lambda: TANClassifier(),
    "ktan": lambda: KTANClassifier(k=2),
    "kdb": lambda: KDBClassifier(max_parents=2),
    "gnb": lambda: GNBClassifier(),
    "latent-categorical": lambda: LatentCNBClassifier(n_components=2, family="categorical",
                                                      random_state=0),
}


@pytest.mark.parametrize("name", sorted(MODELS))
@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=tables())
def test_labels_round_trip(name, data, tmp_path):
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant-within-class notes on small tables
        model = MODELS[name]().fit(X, y)
        check_labels(model, X, y)
        check_graph(model, X, tmp_path)
        if name in ("tan", "ktan", "kdb"):
            check_networks(model, X, tmp_path)


@pytest.mark.parametrize("name", ["tan", "ktan", "kdb"])
def test_bif_round_trip_of_every_label_kind(name, tmp_path):
    """BIF (pgmpy's reader builds its grammar in ~3 s, so one table holds every kind
    instead of a hypothesis run): ``predict_proba`` back from ``str(value)`` evidence."""
    rng = np.random.default_rng(3)
    X = pd.DataFrame({kind: column(kind, [0, 1, *rng.integers(0, 3, 38)]) for kind in LEVELS})
    y = column("bool", [0, 1, *rng.integers(0, 2, 38)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MODELS[name]().fit(X, y)
    check_labels(model, X, y)
    check_networks(model, X, tmp_path, formats=("bif", "xmlbif"))


def test_int_and_digit_string_columns_export_their_own_states(tmp_path):
    """The issue's case: 0/1 integers and "0"/"1" strings are exported as ``0, 1`` (not
    ``0.0, 1.0``) and answer queries with the table's own values."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"f1": rng.integers(0, 2, 60), "f2": rng.integers(0, 2, 60).astype(str),
                      "f3": rng.integers(0, 2, 60)})
    y = pd.Series(np.where(rng.random(60) < 0.5, "yes", "no"), name="class")
    model = TANClassifier().fit(X, y)
    bn = model.to_pgmpy()
    assert bn.get_cpds("f1").state_names["f1"] == [0, 1]
    assert bn.get_cpds("f2").state_names["f2"] == ["0", "1"]
    got = VariableElimination(bn).query(["class"], evidence={"f2": "0", "f1": 1},
                                        show_progress=False)
    row = pd.DataFrame({"f1": [1], "f2": ["0"], "f3": [np.nan]})
    np.testing.assert_allclose(got.values, model.predict_proba(row)[0], atol=1e-12)
    path = write_network(model, "bif", tmp_path / "m.bif")
    assert "{ 0, 1 }" in path.read_text()


def test_mixed_type_class_labels_are_refused_with_the_reason():
    X = pd.DataFrame({"a": [0, 1, 0, 1], "b": [1, 1, 0, 0]})
    y = pd.Series([1, "a", 1, "a"], dtype=object)
    with pytest.raises(TypeError, match=r"mix the types \['int', 'str'\]"):
        TANClassifier().fit(X, y)


@pytest.mark.parametrize("state", ["a,b", "{z}", 'q"r', "a\tb", " lead"])
def test_bif_refuses_a_state_it_cannot_hold_and_xmlbif_keeps_it(state, tmp_path):
    X = pd.DataFrame({"a": [state, "ok"] * 10, "b": [0, 1, 1, 0] * 5})
    y = pd.Series([0, 0, 1, 1] * 5)
    model = TANClassifier().fit(X, y)
    with pytest.raises(ValueError, match="which BIF cannot hold"):
        write_network(model, "bif", tmp_path / "m.bif")
    path = write_network(model, "xmlbif", tmp_path / "m.xml")
    assert state in XMLBIFReader(str(path)).get_model().get_cpds("a").state_names["a"]


def test_states_with_the_same_text_are_refused(tmp_path):
    X = pd.DataFrame({"a": pd.Series([1, "1", "x", "x"] * 5, dtype=object),
                      "b": [0, 1, 1, 0] * 5})
    model = TANClassifier().fit(X, pd.Series([0, 0, 1, 1] * 5))
    assert typed(model.to_pgmpy().get_cpds("a").state_names["a"]) == [
        ("str", "1"), ("str", "x"), ("int", 1)]
    with pytest.raises(ValueError, match="two states written"):
        write_network(model, "xmlbif", tmp_path / "m.xml")
