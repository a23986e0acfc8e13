"""The consensus of an ensemble's structures (kgraph.consensus) and its figure
(viz.consensus): the counts against a direct count, the figure's edges and legend, and
check_figure on 30-feature ensembles."""

from __future__ import annotations

import importlib.util
import itertools
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgraph import ParentSetDAG
from kgraph.consensus import consensus
from viz.check import check_figure
from viz.consensus import plot_consensus
from viz.structure import plot_structure

_spec = importlib.util.spec_from_file_location("along_tests",
                                               Path(__file__).with_name("test_along.py"))
_along = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_along)


def _random_dag(seed: int, names, k: int = 2) -> ParentSetDAG:
    rng = np.random.default_rng(seed)
    order = [str(v) for v in rng.permutation(names)]
    parents = {}
    for i, v in enumerate(order):
        m = int(rng.integers(0, min(i, k) + 1))
        parents[v] = [str(p) for p in rng.choice(order[:i], size=m, replace=False)] if m else []
    return ParentSetDAG(parents, target="class")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_counts_equal_a_direct_count(seeds):
    names = list("abcdefg")
    dags = [_random_dag(s, names) for s in seeds]
    out = consensus(dags)
    found = {frozenset((e.u, e.v)): e for e in out.edges}
    for a, b in itertools.combinations(names, 2):
        ab = sum((a, b) in d.edges for d in dags)
        ba = sum((b, a) in d.edges for d in dags)
        if ab + ba == 0:
            assert frozenset((a, b)) not in found
            continue
        e = found[frozenset((a, b))]
        assert (e.forward, e.backward) == ((ab, ba) if e.u == a else (ba, ab))
        assert e.forward >= e.backward and e.fraction == (ab + ba) / len(dags)
        assert e.directed == (min(ab, ba) == 0)
    assert out.n_members == len(dags) and set(out.order) == set(names)


def test_refusals():
    with pytest.raises(ValueError, match="at least one structure"):
        consensus([])
    with pytest.raises(TypeError, match="fitted models with one as 'structure_'"):
        consensus([object()])
    with pytest.raises(ValueError, match="min_share must be"):
        plot_consensus([_random_dag(0, list("abc"))], min_share=1.5)


def test_figure_draws_each_pair_once_with_its_share():
    a = ParentSetDAG({"x": [], "y": ["x"], "z": ["y"], "w": ["x"]}, target="c")
    b = ParentSetDAG({"z": [], "y": ["z"], "x": ["y"], "w": []}, target="c")
    c = ParentSetDAG({"x": [], "y": ["x"], "z": ["x"]}, target="c")  # no w
    fig = plot_consensus([a, b, c], width="column")
    drawn = {e.gid: e for e in fig.kgraph_drawing.edges if not e.light}
    assert set(drawn) == {"consensus:x->y", "consensus:y->z", "consensus:x->z",
                          "consensus:x->w"}
    assert drawn["consensus:x->y"].width > drawn["consensus:y->z"].width \
        > drawn["consensus:x->z"].width
    assert not drawn["consensus:y->z"].directed and drawn["consensus:x->z"].directed
    legend = " ".join(fig.kgraph_drawing.legend)
    assert "share of the 3 members" in legend and "members differ in direction" in legend
    assert "left out by some members" in legend
    assert check_figure(fig) == []


def test_min_share_leaves_out_rare_pairs_and_says_so():
    dags = [_random_dag(s, list("abcdefgh")) for s in range(6)]
    fig = plot_consensus(dags, min_share=0.5)
    kept = [e for e in consensus(dags).edges if e.fraction >= 0.5]
    assert len([e for e in fig.kgraph_drawing.edges if not e.light]) == len(kept)
    left = len(consensus(dags).edges) - len(kept)
    assert f"{left} pairs joined by fewer than 50% of the members not drawn" in \
        " ".join(fig.kgraph_drawing.legend)


def test_a_hub_of_lines_is_drawn_as_the_class_is():
    """Members joining one feature to seven others in both directions: lines, not arrows;
    the hub rule takes them out when they run along each other."""
    names = [f"f{i}" for i in range(8)]
    out = ParentSetDAG({"f0": [], **{v: ["f0"] for v in names[1:]}}, target="c")
    into = ParentSetDAG({**{v: [] for v in names[1:]}, "f0": names[1:3]}, target="c")
    fig = plot_consensus([out, into], hubs=["f0"])
    assert not any("f0" in (e.u, e.v) for e in fig.kgraph_drawing.edges if not e.light)
    assert any("f0 (bold): joined to every" in t for t in fig.kgraph_drawing.legend)


@pytest.fixture(scope="module")
def kr30():
    from benchmarks.member_mixture_rules import RandomOrderKDB
    from estimators.bnc import KDBClassifier
    from estimators.datasets import load_dataset

    X, y = load_dataset("kr_vs_kp")
    X = X.iloc[:, :30]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        random = [RandomOrderKDB(max_parents=2, seed=i).fit(X, y) for i in range(10)]
        same = [KDBClassifier(max_parents=k).fit(X, y) for k in (1, 2, 3)]
    return random, same


@pytest.mark.parametrize(("which", "width"), [
    (0, "page"), (0, "column"), (1, "column"),
    pytest.param(1, "page", marks=pytest.mark.xfail(strict=True, reason=(
        "the members' one order: the k = 2 kDB itself, whose plot_ktree figure keeps one "
        "pair of mulch's three edges running along (fewer than the hub rule's four)")))])
def test_consensus_of_30_feature_kdbs_passes_the_check(kr30, which, width):
    members = kr30[which]
    fig = plot_structure(SimpleNamespace(estimators_=members, weights_=[1] * len(members)),
                         width=width)
    assert check_figure(fig, along=True) == []
    drawn = [e for e in fig.kgraph_drawing.edges if not e.light]
    hidden = sum(int(t.split("(")[-1].split()[0]) for t in fig.kgraph_drawing.legend
                 if "edges not drawn)" in t and "(bold)" in t)
    made = consensus(members)
    kept = [e for e in made.edges if e.fraction >= min(e.fraction for e in made.edges)]
    assert len(drawn) + hidden <= len(kept) and len(drawn) > 20


@pytest.mark.parametrize("width", ["page", "column"])
def test_consensus_of_the_30_feature_attrition_kdb_passes_the_check(width):
    """The 30-feature kDB of the hub tests, and its k = 1 (first parent) and k = 0 members:
    one order, so every pair is an arrow; the hub rule keeps every edge traceable."""
    dag, target, _, types = _along.kdb30()
    first = {v: list(dag.parent_map[v])[:1] for v in dag.order}
    members = [dag, ParentSetDAG(first, target=target),
               ParentSetDAG({v: [] for v in dag.order}, target=target)]
    fig = plot_consensus(members, width=width, feature_types=types)
    assert check_figure(fig, along=True) == []
    assert all(e.directed for e in fig.kgraph_drawing.edges)


def test_plot_structure_draws_an_ensemble_structure():
    from kgraph import EnsembleStructure

    dags = [_random_dag(s, list("abcde")) for s in range(3)]
    fig = plot_structure(EnsembleStructure(dags, target="class"))
    made = consensus(dags)
    assert {e.gid for e in fig.kgraph_drawing.edges if not e.light} == \
        {f"consensus:{e.u}->{e.v}" for e in made.edges}
