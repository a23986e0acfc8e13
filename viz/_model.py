"""What a figure reads from a fitted classifier besides its structure: edge weights and
feature types (through :func:`estimators.network.export.structure_graph.structure_graph`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from kgraph import GraphDB
from kgraph.structure import Structure


def graph_extras(graph: GraphDB) -> tuple[dict, dict]:
    """``({(u, v): weight}, {feature: type})`` from a structure graph's attributes."""
    weights = {(u, v): float(a["weight"]) for u, v, a in graph.edges(data=True)
               if a.get("kind") not in ("class-edge",) and a.get("weight") is not None}
    types = {v: a["feature_type"] for v, a in graph.nodes(data=True) if "feature_type" in a}
    return weights, types


def unused_class_edges(graph: GraphDB) -> set:
    """The features whose class edge the fitted model does not use (``in_use=False``: a
    class-free factor of ``continuous="auto"``)."""
    return {v for _, v, a in graph.edges(data=True)
            if a.get("kind") == "class-edge" and a.get("in_use") is False}


def model_extras(obj: Any, weights: dict | None, feature_types: dict | None
                 ) -> tuple[dict | None, dict | None]:
    """The weights and feature types to draw: those given, else a fitted model's."""
    if (weights is not None and feature_types is not None) or isinstance(obj, Structure | GraphDB):
        return weights, feature_types
    if not hasattr(obj, "structure_"):
        return weights, feature_types
    try:
        from estimators.network.export.structure_graph import structure_graph

        found_w, found_t = graph_extras(structure_graph(obj))
    except (TypeError, ValueError, AttributeError):
        return weights, feature_types
    return (found_w if weights is None else weights,
            found_t if feature_types is None else feature_types)


def lookup(weights: dict | None, u: Hashable, v: Hashable) -> float | None:
    """The weight of edge u-v in either direction, or None."""
    if not weights:
        return None
    w = weights.get((u, v), weights.get((v, u)))
    return None if w is None else float(w)
