"""wide.py's dense Prim reference builds the same maximum spanning tree as scipy's MST on
the same class-conditional Gaussian weights, and as kgraph's brute force on a small d."""

import importlib.util
import sys
from pathlib import Path

_DIR = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(_DIR))
_spec = importlib.util.spec_from_file_location("wide", _DIR / "wide.py")
wide = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wide)


def _edges_of_parents(parent):
    return {frozenset((v, int(p))) for v, p in enumerate(parent) if p >= 0}


def test_dense_prim_equals_scipy_mst():
    X, y = wide.make_data(500, 60, seed=3)
    tree = wide.reference(X, y).tocoo()
    assert _edges_of_parents(wide.dense_prim_reference(X, y)) == {
        frozenset((int(a), int(b))) for a, b in zip(tree.row, tree.col, strict=True)}


def test_dense_prim_equals_brute_force_on_six_features():
    from estimators.scores import GaussianCMI
    from estimators.search import brute_force_spanning_tree

    X, y = wide.make_data(400, 6, seed=1)
    score = GaussianCMI().fit(X, y)
    best = brute_force_spanning_tree(score.edge_matrix())
    assert _edges_of_parents(wide.dense_prim_reference(X, y)) == {
        frozenset(e) for e in best.edges}
