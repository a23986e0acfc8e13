"""Structure searchers over pluggable scores (DESIGN.md, table of searchers).

Classifiers and the command line go through the registries: :data:`SEARCHERS` (extend it
with :func:`register_searcher`), :data:`BACKBONE_METHODS`, :func:`resolve_backbone`,
:func:`search_structure` and the size policy :func:`check_k`.

Every searcher takes a hyperedge score ``f(v, parents: frozenset) -> float`` (fitted score
objects are such callables) or, for spanning trees, a weight matrix, and returns a frozen
result with ``.structure`` and ``.score``.

**Ties.** Called directly, every searcher (Kruskal, the matroid greedy, the backbone DP,
the greedy k-tree, the arborescence, hill-climbing, brute force) is deterministic and
breaks exact ties by the order of the variables (or elements) it is given. The classifiers
call them through the policy of :mod:`estimators.search.ties`: the variables in name order
and the scores snapped to a grid of relative step :data:`TIE_RTOL` (1e-9), so ties within
that tolerance go to the names, never to the column order or ``PYTHONHASHSEED``.
"""

from estimators.search._common import WIDTH, check_backbone, check_k, fit_width
from estimators.search.arborescence import ArborescenceResult, maximum_spanning_arborescence
from estimators.search.backbone_dp import BackboneDPResult, backbone_dp
from estimators.search.backbone_order import (
    BACKBONE_METHODS,
    LocalSearchResult,
    backbone_order,
    local_search_backbone,
)
from estimators.search.brute_force import (
    BruteForceResult,
    SpanningTreeBruteForceResult,
    brute_force_ktree,
    brute_force_spanning_tree,
    enumerate_acyclic_ktrees,
)
from estimators.search.greedy import GreedyKTreeResult, greedy_ktree
from estimators.search.hill_climbing import (
    BruteForceDAGResult,
    HillClimbingResult,
    brute_force_dag,
    hill_climb_dag,
)
from estimators.search.matroid import MatroidBasisResult, greedy_matroid_basis
from estimators.search.registry import (
    SEARCHERS,
    SearchResult,
    get_searcher,
    load_searcher_plugins,
    register_searcher,
    reject_backbone,
    resolve_backbone,
    search_structure,
    searcher_names,
)
from estimators.search.spanning_tree import SpanningTreeResult, maximum_spanning_tree
from estimators.search.ties import TIE_RTOL, canonical_order, name_key, snap, tie_step

__all__ = [
    "WIDTH",
    "ArborescenceResult",
    "BACKBONE_METHODS",
    "BackboneDPResult",
    "SEARCHERS",
    "load_searcher_plugins",
    "SearchResult",
    "BruteForceDAGResult",
    "BruteForceResult",
    "HillClimbingResult",
    "GreedyKTreeResult",
    "LocalSearchResult",
    "MatroidBasisResult",
    "SpanningTreeBruteForceResult",
    "SpanningTreeResult",
    "backbone_dp",
    "backbone_order",
    "brute_force_dag",
    "brute_force_ktree",
    "check_backbone",
    "check_k",
    "fit_width",
    "get_searcher",
    "register_searcher",
    "reject_backbone",
    "resolve_backbone",
    "search_structure",
    "searcher_names",
    "brute_force_spanning_tree",
    "enumerate_acyclic_ktrees",
    "greedy_ktree",
    "hill_climb_dag",
    "greedy_matroid_basis",
    "local_search_backbone",
    "maximum_spanning_arborescence",
    "maximum_spanning_tree",
    "TIE_RTOL",
    "canonical_order",
    "name_key",
    "snap",
    "tie_step",
]
