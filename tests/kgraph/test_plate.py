"""LatentCNBPlate: the plate graph of paper 3, its invariants and its files."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgraph.graphdb import GraphDB
from kgraph.plate import LatentCNBPlate
from kgraph.structure import read_structure


@settings(max_examples=30, deadline=None)
@given(
    features=st.lists(st.one_of(st.integers(-5, 50), st.text(min_size=1, max_size=4)),
                      min_size=1, max_size=8, unique=True),
    k=st.integers(1, 6),
)
def test_plate_invariants(features, k):
    plate = LatentCNBPlate(features, k, prior="generalized-dirichlet", family="categorical")
    g = plate.graph
    d = len(features)
    assert g.number_of_nodes() == 2 + 3 * d and g.number_of_edges() == 1 + 3 * d
    assert g.successors("prior") == ["pi"]
    assert sorted(g.successors("pi"), key=str) == sorted((("z", j) for j in features), key=str)
    for j in features:
        assert set(g.predecessors(("x", j))) == {("z", j), ("theta", j)}
        assert g.successors(("x", j)) == []
        assert g.node_attrs(("x", j))["plates"] == ("rows",)
        assert g.node_attrs(("theta", j))["plates"] == ("components",)
    assert g.attrs["plates"] == {"rows": "N", "components": k}
    assert LatentCNBPlate.from_graph(g) == plate


@pytest.mark.parametrize("suffix", [".graphml", ".json"])
def test_plate_file_round_trip(tmp_path, backend, suffix):
    plate = LatentCNBPlate(["age", 3, ("a", 1)], 4, prior="beta-liouville")
    path = tmp_path / f"plate{suffix}"
    if suffix == ".graphml":
        plate.write_graphml(path, backend=backend)
        back = LatentCNBPlate.read_graphml(path, backend=backend)
        raw = GraphDB.read_graphml(path)
    else:
        plate.write_json(path, backend=backend)
        back = LatentCNBPlate.read_json(path, backend=backend)
        raw = GraphDB.read_json(path)
    assert back == plate and read_structure(path) == plate
    assert raw == plate.graph  # every node and edge attribute survives
    assert back.features == ("age", 3, ("a", 1)) and back.n_components == 4


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((["a", "a"], 2), "Feature 'a' is repeated"),
        (([], 2), "at least one feature"),
        ((["a"], 0), "n_components must be an int >= 1. Got 0"),
        ((["a"], 2, ""), "prior must be a non-empty string"),
    ],
)
def test_plate_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        LatentCNBPlate(*args)
