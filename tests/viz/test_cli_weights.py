"""Every edge in the GraphML ``kgraph learn`` writes has a numeric ``weight`` (issue 25,
item 2); class -> feature edges carry I(X_j; C) in nats, checked here against
scikit-learn: ``mutual_info_score`` for a categorical column, ``GaussianNB``'s fitted
variances for a continuous one."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from cli_tables import small_mixed_table
from sklearn.metrics import mutual_info_score
from sklearn.naive_bayes import GaussianNB
from slow_cases import representative

from viz.cli import main
from viz.cli.learn import MODELS


def gaussian_class_mi(x: np.ndarray, y: np.ndarray) -> float:
    """½ ln var(x) - Σ_c p_c ½ ln var_c(x) with GaussianNB's floored class variances (its
    floor, 1e-9 var(x), is the one the CLI's estimate uses)."""
    nb = GaussianNB().fit(x.reshape(-1, 1), y)
    p = nb.class_count_ / nb.class_count_.sum()
    total = x.var() + nb.epsilon_
    return 0.5 * math.log(total) - float((p * 0.5 * np.log(nb.var_[:, 0])).sum())


#: k-TAN's weights come from the same k-tree code as TAN's, AODE's from A2DE's: both
#: under ``slow``, the other models in the default run
@pytest.mark.parametrize("model", representative(
    sorted(MODELS), keep=[m for m in sorted(MODELS) if m not in ("ktan", "aode")]))
def test_every_graphml_edge_has_a_numeric_weight(model, tmp_path):
    data = small_mixed_table(tmp_path / "t.csv")
    out = tmp_path / "out"
    assert main(["learn", str(tmp_path / "t.csv"), "--target", "class", "--model", model,
                 "--out", str(out), "--cv", "2", "--quiet"]) == 0
    g = nx.read_graphml(out / "structure.graphml")
    assert g.number_of_edges() > 0
    for u, v, attrs in g.edges(data=True):
        assert isinstance(attrs.get("weight"), float), (u, v, attrs)
        assert math.isfinite(attrs["weight"]) and attrs["weight"] >= 0, (u, v, attrs)
    y = data["class"].to_numpy()
    expected = {
        "colour": mutual_info_score(data["colour"], y),
        "level": mutual_info_score(data["level"], y),
        "size": gaussian_class_mi(data["size"].to_numpy(), y),
        "mass": gaussian_class_mi(data["mass"].to_numpy(), y),
    }
    assert expected["colour"] > 0.01 and expected["mass"] > 0.01  # a real signal
    weights = {}
    for u, v, attrs in g.edges(data=True):
        if attrs["kind"] == "class-edge" and u == "class":
            feature = g.nodes[v].get("feature", v)  # latent: the feature's parameters
            weights[feature] = attrs["weight"]
    assert set(expected) <= set(weights)
    for name, value in expected.items():
        assert weights[name] == pytest.approx(value, rel=1e-9, abs=1e-12), name
