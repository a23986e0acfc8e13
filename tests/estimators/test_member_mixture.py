"""The mixture of an ensemble's joints and its exact network over a member-selector node
(estimators.network.member_mixture), checked against independent computations: the members'
CPTs multiplied directly, brute-force sums over every combination of categories, and
pgmpy's variable elimination on the exported network and on every file format."""

from __future__ import annotations

import itertools
import warnings
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from benchmarks.member_mixture_rules import RandomOrderKDB
from estimators.bnc import AODEClassifier, KDBClassifier
from estimators.datasets import load_dataset
from estimators.ktan import TANClassifier
from estimators.network.export.exact_export import (
    exact_network,
    export_notes,
    read_network,
    write_network,
)
from estimators.network.export.network_formats import FORMATS
from estimators.network.export.pgmpy_network import network_tables
from estimators.network.member_mixture import MemberMixture, member_mixture_network

pytestmark = pytest.mark.filterwarnings("ignore")


def _fit(make, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make().fit(X, y)


def _members(X, y):
    """TAN, kDB k=2, two kDBs of conflicting random orders (their union has cycles) and a
    kDB modelling a subset of the features (selective naive Bayes selection)."""
    makers = [TANClassifier, lambda: KDBClassifier(max_parents=2),
              lambda: RandomOrderKDB(max_parents=2, seed=1),
              lambda: RandomOrderKDB(max_parents=1, seed=2),
              lambda: KDBClassifier(max_parents=1, feature_selection="selective-nb")]
    return [_fit(m, X, y) for m in makers]


@pytest.fixture(scope="module")
def car():
    X, y = load_dataset("car")
    X = X.assign(noise=np.random.default_rng(5).choice(["p", "q", "r"], len(X)))
    order = np.random.default_rng(0).permutation(len(X))
    test, train = order[:100], order[100:]
    members = _members(X.iloc[train], y.iloc[train])
    return X.iloc[train], X.iloc[test], members


def _direct_joint(member, X) -> np.ndarray:
    """ln p_m(y, x) of complete rows by the member's exported CPTs (NetworkTables)."""
    tables = network_tables(member)
    enc = member.encoder_
    codes = {str(c): pd.Index(enc.categories_[c]).get_indexer(X[c]) for c in X.columns
             if c in enc.categories_}
    return tables.log_joint(codes)


def test_joint_is_the_weighted_sum_of_completed_member_joints(car):
    _, rows, members = car
    w = np.array([1.0, 2.0, 3.0, 1.0, 3.0])
    mix = MemberMixture(members, w)
    levels = {c: len(members[0].encoder_.categories_[c]) for c in rows.columns}
    expected = []
    for m, wm in zip(members, w / w.sum(), strict=True):
        left = [c for c in rows.columns if c not in m.selected_features_]
        expected.append(np.log(wm) + _direct_joint(m, rows)
                        - sum(np.log(levels[c]) for c in left))
    assert len(members[-1].selected_features_) < rows.shape[1]  # the completion is exercised
    np.testing.assert_allclose(mix.joint_log_likelihood(rows), logsumexp(expected, axis=0),
                               rtol=0, atol=1e-10)


def test_mixture_is_a_distribution_over_every_row_and_its_margins(car):
    """Brute force over the 1728 rows x 4 classes of car: the mixture sums to one, and a
    row with an empty cell gets the sum over that cell's categories."""
    train, _, members = car
    mix = MemberMixture(members, [0.1, 0.2, 0.3, 0.15, 0.25])
    cats = {c: members[0].encoder_.categories_[c] for c in train.columns}
    grid = pd.DataFrame(list(itertools.product(*cats.values())), columns=list(cats))
    joint = mix.joint_log_likelihood(grid)
    assert abs(np.exp(logsumexp(joint)) - 1.0) < 1e-10
    row = grid.iloc[[0]].copy()
    for c in ("safety", "doors"):
        empty = row.copy()
        empty[c] = np.nan
        same = grid[(grid.drop(columns=c) == row.drop(columns=c).iloc[0]).all(axis=1)]
        np.testing.assert_allclose(mix.joint_log_likelihood(empty)[0],
                                   logsumexp(mix.joint_log_likelihood(same), axis=0),
                                   rtol=0, atol=1e-10)


def _posterior(bn, target, rows: pd.DataFrame, text: bool = True) -> np.ndarray:
    from pgmpy.inference import VariableElimination

    ve = VariableElimination(bn)
    out = []
    for r in rows.astype(object).to_dict("records"):
        evidence = {k: (str(v) if text else v) for k, v in r.items() if not pd.isna(v)}
        q = ve.query([target], evidence={**evidence, **bn.graph["evidence"]},
                     show_progress=False)
        out.append(q.values)
    return np.array(out)


def test_exported_network_gives_predict_proba_on_held_out_rows(car):
    _, rows, members = car
    ensemble = SimpleNamespace(estimators_=members, weights_=[0.3, 0.1, 0.2, 0.2, 0.2])
    bn = exact_network(ensemble)
    assert bn.graph["parameters"] == "member mixture"
    expected = MemberMixture(members, ensemble.weights_).predict_proba(rows)
    assert np.abs(_posterior(bn, "class", rows, text=False) - expected).max() < 1e-9
    holes = rows.copy()
    holes.iloc[::3, 1] = np.nan
    holes.iloc[::4, 4] = np.nan
    expected = MemberMixture(members, ensemble.weights_).predict_proba(holes)
    assert np.abs(_posterior(bn, "class", holes, text=False) - expected).max() < 1e-9
    assert any("member mixture" in n or "mixture of its members" in n for n in export_notes(bn))


def test_votes_with_empty_cells_exports_exactly():
    X, y = load_dataset("votes")
    X = X.mask(X == "?")  # the unrecorded votes as empty cells
    assert X.isna().any(axis=1).mean() > 0.3
    order = np.random.default_rng(1).permutation(len(X))
    test, train = order[:100], order[100:]
    members = _members(X.iloc[train], y.iloc[train])[:4]
    ensemble = SimpleNamespace(estimators_=members, weights_=np.ones(4))
    rows = X.iloc[test]
    got = _posterior(member_mixture_network(ensemble), "class", rows, text=False)
    assert np.abs(got - MemberMixture(members).predict_proba(rows)).max() < 1e-9


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_reads_back_to_predict_proba(car, fmt, tmp_path):
    _, rows, members = car
    ensemble = SimpleNamespace(estimators_=members[:3], weights_=[1, 1, 2])
    path = write_network(ensemble, fmt, tmp_path / f"m{FORMATS[fmt].suffix}")
    bn = read_network(path, fmt, exact_network(ensemble))
    bn.graph["evidence"] = exact_network(ensemble).graph["evidence"]
    got = _posterior(bn, "class", rows.iloc[:20], text=fmt != "pgmpy")
    expected = MemberMixture(members[:3], [1, 1, 2]).predict_proba(rows.iloc[:20])
    assert np.abs(got - expected).max() < 1e-9


def test_mixed_members_predict_and_refuse_export():
    X, y = load_dataset("penguins")
    X = X.dropna()
    y = y.loc[X.index]
    members = [_fit(TANClassifier, X, y), _fit(lambda: KDBClassifier(max_parents=2), X, y)]
    mix = MemberMixture(members)
    joints = np.stack([m.predict_joint_log_proba(X) for m in members])
    np.testing.assert_allclose(mix.joint_log_likelihood(X),
                               logsumexp(joints, axis=0) - np.log(2), rtol=0, atol=1e-10)
    with pytest.raises(ValueError, match="continuous feature"):
        exact_network(SimpleNamespace(estimators_=members, weights_=[1, 1]))


def test_refusals(car):
    train, _, members = car
    with pytest.raises(ValueError, match="at least one fitted"):
        MemberMixture([])
    with pytest.raises(ValueError, match="2 weights for 5 members"):
        MemberMixture(members, [1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        MemberMixture(members, [1, -1, 1, 1, 1])
    y = load_dataset("car")[1].loc[train.index]  # the fixture's rows
    other = _fit(TANClassifier, train, np.where(y == "unacc", "no", "yes"))
    with pytest.raises(ValueError, match="share their classes"):
        MemberMixture([members[0], other])
    fewer = _fit(TANClassifier, train.drop(columns="doors"), y)
    with pytest.raises(ValueError, match="fit the members on one table"):
        MemberMixture([members[0], fewer])
    disc = _fit(lambda: TANClassifier(parameters="discriminative"), train, y)
    with pytest.raises(ValueError, match="no joint p"):
        MemberMixture([members[0], disc])
    aode = _fit(AODEClassifier, train, y)
    MemberMixture([members[0], aode])  # any generative family mixes
    with pytest.raises(ValueError, match="no network of conditional probability tables"):
        member_mixture_network(SimpleNamespace(estimators_=[members[0], aode], weights_=[1, 1]))


def test_different_continuous_features_are_refused():
    X, y = load_dataset("penguins")
    X = X.dropna()
    y = y.loc[X.index]
    a = _fit(TANClassifier, X, y)
    b = _fit(lambda: KDBClassifier(feature_selection="selective-nb"), X, y)
    if set(b.selected_features_) == set(a.selected_features_):
        pytest.skip("the selection kept every feature")
    with pytest.raises(ValueError, match="continuous features"):
        MemberMixture([a, b])


def test_predict_joint_log_proba_takes_an_encoded_table(car):
    train, rows, members = car
    m = members[1]
    np.testing.assert_array_equal(m.predict_joint_log_proba(members[0].encode(rows)),
                                  m.predict_joint_log_proba(rows))
    with pytest.raises(ValueError, match="encoded table has the columns"):
        other = _fit(TANClassifier, train.drop(columns="doors"),
                     load_dataset("car")[1].loc[train.index])
        m.predict_joint_log_proba(other.encode(rows.drop(columns="doors")))


@pytest.mark.parametrize("fmt", ["graphml", "json"])
def test_structure_graph_of_an_ensemble_reads_back_as_its_members(car, fmt, tmp_path):
    from estimators.network.export.structure_graph import structure_graph
    from kgraph import EnsembleStructure, read_structure
    from kgraph.consensus import consensus

    _, _, members = car
    ensemble = SimpleNamespace(estimators_=members, weights_=[1, 1, 1, 1, 1])
    g = structure_graph(ensemble)
    path = tmp_path / f"e.{fmt}"
    g.write_graphml(path) if fmt == "graphml" else g.write_json(path)
    back = read_structure(path)
    assert back == EnsembleStructure([m.structure_ for m in members], "class")
    for e in consensus(members).edges:
        assert g.edge_attrs(e.u, e.v)["weight"] == e.fraction
        assert (g.edge_attrs(e.u, e.v)["forward"], g.edge_attrs(e.u, e.v)["backward"]) == \
            (e.forward, e.backward)
    assert g.attrs["weights"] == [1.0] * 5 and g.node_attrs("class")["states"] == \
        members[0].classes_.tolist()
