"""The registries of structure learning: searchers and backbone orders by name.

Every classifier and the command line learn structures through this module, so a searcher
or a backbone heuristic registered here once is accepted everywhere (the ``search`` and
``backbone`` parameters, the ``kgraph learn`` choices).

A **searcher** is a function with one signature::

    searcher(f, variables, k, *, backbone=None, W=None) -> SearchResult

``f`` is a hyperedge score ``f(v, parents: frozenset) -> float`` over ``variables``, ``k``
the width (already checked by :func:`check_k`), ``backbone`` the user's backbone
specification (None, a name of :data:`BACKBONE_METHODS` or a sequence; a searcher that takes
none rejects anything but None through :func:`reject_backbone`), ``W`` the pair-score matrix
when the caller has it (else the searcher computes what it needs from ``f``). Its errors
need not name the estimator: the estimator's ``fit`` puts its name in front
(:func:`~estimators.base.user_warnings.named_errors`). Register a new one with
:func:`register_searcher`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from estimators.base.entry_points import check_new_name, load_group
from estimators.search._common import Score, check_backbone
from estimators.search.arborescence import maximum_spanning_arborescence
from estimators.search.backbone_dp import backbone_dp
from estimators.search.backbone_order import BACKBONE_METHODS, backbone_order
from estimators.search.greedy import greedy_ktree
from estimators.search.hill_climbing import hill_climb_dag
from estimators.search.spanning_tree import maximum_spanning_tree, weight_matrix
from kgraph.dag import ParentSetDAG, ParentSets

__all__ = ["SEARCHERS", "SearchResult", "Searcher", "get_searcher", "load_searcher_plugins",
           "register_searcher", "reject_backbone", "resolve_backbone", "search_structure", "searcher_names"]


@dataclass(frozen=True)
class SearchResult:
    """What every registered searcher returns.

    Attributes
    ----------
    structure : kgraph.ParentSets
        The learned structure over the variables: an acyclic k-tree (a tree for k = 1), a
        GNB forest, a :class:`kgraph.ParentSetDAG` -- anything with ``order`` and
        ``parents(v)``.
    score : float
        Its objective ``sum_v f(v, pa(v))``.
    backbone : tuple or None
        The backbone kept (variables in order), None when the searcher keeps none.
    certificate : object or None
        A proof of optimality when the searcher gives one (the backbone DP's PBKT), or its
        record of the search (hill-climbing's :class:`HillClimbingResult`).

    Examples
    --------
    Every registered searcher returns one:

    >>> from estimators.search import search_structure
    >>> f = lambda v, ps: float(sum(abs(v - p) == 1 for p in ps))
    >>> res = search_structure("backbone-dp", f, [0, 1, 2, 3], 2, backbone="given")
    >>> type(res).__name__, res.score, res.backbone, type(res.certificate).__name__
    ('SearchResult', 3.0, (0, 1, 2, 3), 'PBKT')
    """

    structure: ParentSets
    score: float
    backbone: tuple | None = None
    certificate: Any = None


Searcher = Callable[..., SearchResult]

#: name -> searcher; add entries with :func:`register_searcher`
SEARCHERS: dict[str, Searcher] = {}


def register_searcher(name: str, searcher: Searcher, *, replace: bool = False) -> Searcher:
    """Register ``searcher`` under ``name`` (see the module docstring for its signature).

    Raises
    ------
    ValueError
        If ``name`` is taken and ``replace`` is False.

    Examples
    --------
    >>> from estimators.search.registry import SEARCHERS, register_searcher, SearchResult
    >>> def first_order(f, variables, k, *, backbone=None, W=None):
    ...     from kgraph.dag import ParentSetDAG, ParentSets
    ...     v = list(variables)
    ...     tree = AcyclicKTree(1, v, {b: [a] for a, b in zip(v, v[1:])})
    ...     return SearchResult(tree, float(tree.score(f)))
    >>> _ = register_searcher("demo-path", first_order)
    >>> "demo-path" in SEARCHERS
    True
    >>> del SEARCHERS["demo-path"]
    """
    check_new_name("searcher", name, SEARCHERS, replace=replace)
    if not callable(searcher):
        raise TypeError(f"The searcher {name!r} must be callable; got {type(searcher).__name__}.")
    SEARCHERS[name] = searcher
    return searcher


def load_searcher_plugins(*, reload: bool = False) -> None:
    """Register the searchers of the ``kgraph.searchers`` entry points (once per process;
    ``reload=True`` reads them again); see :mod:`estimators.learning.plugin_registry`.

    Examples
    --------
    >>> from estimators.search import load_searcher_plugins, searcher_names
    >>> load_searcher_plugins()  # the installed packages' kgraph.searchers entry points
    >>> "backbone-dp" in searcher_names()
    True
    """
    load_group("kgraph.searchers", register_searcher, reload=reload)


def searcher_names() -> list[str]:
    """The registered searcher names, plug-ins included (sorted).

    Examples
    --------
    >>> from estimators.search import searcher_names
    >>> {"arborescence", "backbone-dp", "greedy", "hill-climbing", "spanning-tree"} <= set(
    ...     searcher_names())
    True
    """
    load_searcher_plugins()
    return sorted(SEARCHERS)


def get_searcher(name: str) -> Searcher:
    """The searcher registered under ``name`` (plug-ins included).

    Examples
    --------
    >>> get_searcher("bogus")
    Traceback (most recent call last):
    ...
    ValueError: Unknown searcher 'bogus'; valid ones are ['arborescence', 'backbone-dp', 'greedy', 'hill-climbing', 'spanning-tree'].
    """
    load_searcher_plugins()
    try:
        return SEARCHERS[name]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown searcher {name!r}; valid ones are {sorted(SEARCHERS)}."
                         ) from None


def resolve_backbone(backbone: str | Sequence[Hashable] | None, variables: Sequence[Hashable],
                     *, W=None, f: Score | None = None, k: int | None = None) -> tuple | None:
    """A backbone specification as a tuple of variables (None stays None).

    Parameters
    ----------
    backbone : None, str or sequence
        A name of :data:`BACKBONE_METHODS` (computed from ``W`` by :func:`backbone_order`;
        ``"local-search"`` also needs ``f`` and ``k``), or a permutation of the variables
        whose entries are variables or int column indices.
    variables : sequence
        The variables, in column order.
    W : array-like of shape (d, d), optional
        Pair scores for a named method (default: computed from ``f``).
    f, k :
        The score and width, for ``"local-search"``.

    Examples
    --------
    >>> import numpy as np
    >>> W = np.array([[0, 1, 5], [1, 0, 4], [5, 4, 0]], float)
    >>> resolve_backbone("mst-dfs", ["a", "b", "c"], W=W)
    ('a', 'c', 'b')
    >>> resolve_backbone([2, "a", 1], ["a", "b", "c"])
    ('c', 'a', 'b')
    >>> resolve_backbone("zigzag", ["a", "b", "c"], W=W)
    Traceback (most recent call last):
    ...
    ValueError: Unknown backbone method 'zigzag'; valid ones are ['given', 'mst-dfs', 'greedy-path', 'local-search'].
    """
    if backbone is None:
        return None
    variables = list(variables)
    if isinstance(backbone, str):
        if backbone not in BACKBONE_METHODS:
            raise ValueError(f"Unknown backbone method {backbone!r}; valid ones are "
                             f"{list(BACKBONE_METHODS)}.")
        if W is None:
            if f is None:
                raise ValueError(f"The backbone method {backbone!r} needs the pair scores W or "
                                 "the score f.")
            W = weight_matrix(f, variables)[0]
        return tuple(backbone_order(np.asarray(W, dtype=float), backbone, f=f, k=k,
                                    variables=variables))
    return check_backbone(backbone, variables)


def reject_backbone(searcher: str, backbone: object) -> None:
    """Raise the one error of a searcher that keeps no backbone but got one.

    Examples
    --------
    >>> from estimators.search import reject_backbone
    >>> reject_backbone("greedy", None)  # no backbone: nothing to say
    >>> reject_backbone("greedy", "mst-dfs")
    Traceback (most recent call last):
    ...
    ValueError: search='greedy' learns without a backbone; got ...
    """
    if backbone is not None:
        raise ValueError(
            f"search={searcher!r} learns without a backbone; got backbone="
            f"{backbone!r}. Use search='backbone-dp' to keep a backbone."
        )


def _pair_matrix(f: Score, variables: Sequence[Hashable], W) -> np.ndarray:
    return weight_matrix(f if W is None else W, list(variables))[0]


def _spanning_tree(f: Score, variables: Sequence[Hashable], k: int, *, backbone=None, W=None
                   ) -> SearchResult:
    """The maximum spanning tree of the pair scores (Kruskal): the exact optimum for k = 1."""
    reject_backbone("spanning-tree", backbone)
    if k != 1:
        raise ValueError("search='spanning-tree' learns a tree "
                         f"(k = 1); got k={k}. Use 'backbone-dp' or 'greedy' for k >= 2.")
    tree = maximum_spanning_tree(_pair_matrix(f, variables, W), variables=list(variables)).ktree
    return SearchResult(tree, float(tree.score(f)))


def _backbone_dp(f: Score, variables: Sequence[Hashable], k: int, *, backbone=None, W=None
                 ) -> SearchResult:
    """The exact optimum containing the backbone path (``None``: the exact spanning tree
    for k = 1, the ``"mst-dfs"`` backbone for k >= 2)."""
    if backbone is None and k == 1:
        return _spanning_tree(f, variables, k, W=W)
    order = resolve_backbone("mst-dfs" if backbone is None else backbone, variables,
                             W=W, f=f, k=k)
    result = backbone_dp(f, order, k, variables=list(variables))
    return SearchResult(result.structure, float(result.score), order, result.pbkt)


def _greedy(f: Score, variables: Sequence[Hashable], k: int, *, backbone=None, W=None
            ) -> SearchResult:
    """The backbone-free greedy k-tree (heuristic)."""
    reject_backbone("greedy", backbone)
    result = greedy_ktree(f, k, variables=list(variables))
    return SearchResult(result.structure, float(result.score))


def _arborescence(f: Score, variables: Sequence[Hashable], k: int, *, backbone=None, W=None
                  ) -> SearchResult:
    """The maximum spanning arborescence of the directed pair scores ``f(child, {parent})``
    (Chu–Liu/Edmonds): the exact optimum for k = 1 and any score, symmetric or not."""
    reject_backbone("arborescence", backbone)
    if k != 1:
        raise ValueError("search='arborescence' learns a tree "
                         f"(k = 1); got k={k}. Use 'backbone-dp' or 'greedy' for k >= 2.")
    result = maximum_spanning_arborescence(f, list(variables))
    return SearchResult(result.structure, float(result.score))


def _hill_climbing(f: Score, variables: Sequence[Hashable], k: int, *, backbone=None, W=None,
                   **options) -> SearchResult:
    """Tabu hill-climbing over DAGs of in-degree <= k (:func:`hill_climb_dag`; ``options``
    are its keyword arguments, e.g. ``tabu_length``, ``restarts``, ``random_state``;
    heuristic): a :class:`kgraph.ParentSetDAG`, not a k-tree; the climb is the
    certificate."""
    reject_backbone("hill-climbing", backbone)
    found = hill_climb_dag(f, k, variables=list(variables), **options)
    return SearchResult(ParentSetDAG(found.parents, target=_free_target(variables),
                                     max_in_degree=k), found.score, certificate=found)


def _free_target(variables: Sequence[Hashable]) -> str:
    """A class-vertex name that is no variable: ``"class"``, with ``_`` added until free."""
    target = "class"
    while target in set(variables):
        target += "_"
    return target


def search_structure(search: str, f: Score, variables: Sequence[Hashable], k: int, *,
                     backbone=None, W=None, **options) -> SearchResult:
    """Run the searcher registered as ``search``: the one door to structure learning.
    ``options`` go to the searcher as keyword arguments (those it takes besides the
    width and backbone, e.g. hill-climbing's ``tabu_length``).

    Examples
    --------
    >>> f = lambda v, ps: float(sum(abs(v - p) == 1 for p in ps))
    >>> res = search_structure("backbone-dp", f, [0, 1, 2, 3], 2, backbone="given")
    >>> res.score, res.backbone
    (3.0, (0, 1, 2, 3))
    """
    return get_searcher(search)(f, variables, k, backbone=backbone, W=W, **options)


register_searcher("backbone-dp", _backbone_dp)
register_searcher("greedy", _greedy)
register_searcher("spanning-tree", _spanning_tree)
register_searcher("arborescence", _arborescence)
register_searcher("hill-climbing", _hill_climbing)
