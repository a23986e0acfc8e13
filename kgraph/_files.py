"""GraphML and node-link JSON files of property graphs, exact for every key and value type.

Both formats store each node under a readable string id and keep its real key in the
``kgraph_key`` attribute (typed JSON, see :mod:`kgraph._codec`). In GraphML an attribute whose
values are all of one of GraphML's types (bool, int, float, str) is written natively; any other
attribute is written as typed-JSON text and listed in a graph attribute, so that plain networkx
and igraph read the file and kgraph restores the values exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable
from os import PathLike
from typing import Any

import networkx as nx

from kgraph._codec import decode, display, dumps, encode, loads

KEY_ATTR = "kgraph_key"
_ENCODED = {"graph": "kgraph_json_graph_attrs", "node": "kgraph_json_node_attrs",
            "edge": "kgraph_json_edge_attrs"}
_NATIVE = (bool, int, float, str)

_NOT_XML = re.compile(r"[\x00-\x08\x0b-\x0d\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

Nodes = list[tuple[Hashable, dict[str, Any]]]
Edges = list[tuple[Hashable, Hashable, dict[str, Any]]]


def _ids(nodes: Nodes) -> dict[Hashable, str]:
    ids: dict[Hashable, str] = {}
    used: set[str] = set()
    for key, _ in nodes:
        label = base = _NOT_XML.sub("?", display(key))
        n = 1
        while label in used:
            label, n = f"{base}#{n}", n + 1
        used.add(label)
        ids[key] = label
    return ids


_RESERVED = {
    "graph": {"node_default", "edge_default", *_ENCODED.values()},
    "node": {KEY_ATTR, "id"},
    "edge": {"id", "source", "target"},
}


def _check_names(attrs: dict[str, Any], domain: str) -> None:
    for name in attrs:
        if not isinstance(name, str):
            raise TypeError(f"Attribute names must be strings; got {name!r}.")
        if name in _RESERVED[domain]:
            raise ValueError(
                f"{domain.capitalize()} attribute name {name!r} is reserved by kgraph's file formats."
            )


def _json_names(dicts: list[dict[str, Any]], domain: str) -> set[str]:
    """Attributes that cannot be written natively: not all of one GraphML type."""
    types: dict[str, set[type]] = {}
    for attrs in dicts:
        _check_names(attrs, domain)
        for name, value in attrs.items():
            kind = type(value)
            if kind is str and _NOT_XML.search(value):
                kind = object  # XML cannot hold these characters: write typed JSON instead
            types.setdefault(name, set()).add(kind)
    return {name for name, ts in types.items() if len(ts) > 1 or not ts <= set(_NATIVE)}


def _native(attrs: dict[str, Any], json_names: set[str]) -> dict[str, Any]:
    return {k: dumps(v) if k in json_names else v for k, v in attrs.items()}


def write_graphml(directed: bool, attrs: dict, nodes: Nodes, edges: Edges,
                  path: str | PathLike) -> None:
    """Write a property graph as GraphML."""
    ids = _ids(nodes)
    enc = {"graph": _json_names([attrs], "graph"),
           "node": _json_names([a for _, a in nodes], "node"),
           "edge": _json_names([a for _, _, a in edges], "edge")}
    g = nx.DiGraph() if directed else nx.Graph()
    g.graph.update(_native(attrs, enc["graph"]))
    for domain, names in enc.items():
        g.graph[_ENCODED[domain]] = json.dumps(sorted(names))
    for key, a in nodes:
        g.add_node(ids[key], **{KEY_ATTR: dumps(key)}, **_native(a, enc["node"]))
    for u, v, a in edges:
        g.add_edge(ids[u], ids[v], **_native(a, enc["edge"]))
    nx.write_graphml(g, path)


def _restore(attrs: dict[str, Any], json_names: set[str]) -> dict[str, Any]:
    return {k: loads(v) if k in json_names else v for k, v in attrs.items()}


def read_graphml(path: str | PathLike) -> tuple[bool, dict, Nodes, Edges]:
    """Read GraphML into ``(directed, attrs, nodes, edges)``."""
    g = nx.read_graphml(path)
    if g.is_multigraph():
        raise ValueError(f"{path}: parallel edges found; GraphDB holds simple graphs only.")
    graph_attrs = dict(g.graph)
    for added_by_networkx in ("node_default", "edge_default"):
        graph_attrs.pop(added_by_networkx, None)
    enc = {d: set(json.loads(graph_attrs.pop(name, "[]"))) for d, name in _ENCODED.items()}
    keys = {}
    nodes: Nodes = []
    for label, a in g.nodes(data=True):
        a = dict(a)
        keys[label] = loads(a.pop(KEY_ATTR)) if KEY_ATTR in a else label
        nodes.append((keys[label], _restore(a, enc["node"])))
    edges: Edges = [(keys[u], keys[v], _restore(a, enc["edge"])) for u, v, a in g.edges(data=True)]
    return g.is_directed(), _restore(graph_attrs, enc["graph"]), nodes, edges


def write_json(directed: bool, attrs: dict, nodes: Nodes, edges: Edges,
               path: str | PathLike) -> None:
    """Write a property graph as node-link JSON (readable by ``nx.node_link_graph``)."""
    ids = _ids(nodes)
    _check_names(attrs, "graph")
    for a in nodes:
        _check_names(a[1], "node")
    for a in edges:
        _check_names(a[2], "edge")
    data = {
        "directed": directed,
        "multigraph": False,
        "graph": encode(attrs),
        "nodes": [{"id": ids[k], KEY_ATTR: encode(k), **encode(a)} for k, a in nodes],
        "edges": [{"source": ids[u], "target": ids[v], **encode(a)} for u, v, a in edges],
    }
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, allow_nan=False)


def read_json(path: str | PathLike) -> tuple[bool, dict, Nodes, Edges]:
    """Read node-link JSON into ``(directed, attrs, nodes, edges)``."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    keys = {}
    nodes: Nodes = []
    for item in data["nodes"]:
        item = dict(item)
        label = item.pop("id")
        keys[label] = decode(item.pop(KEY_ATTR)) if KEY_ATTR in item else label
        nodes.append((keys[label], decode(item)))
    edges: Edges = []
    for item in data.get("edges", data.get("links", [])):
        item = dict(item)
        u, v = keys[item.pop("source")], keys[item.pop("target")]
        edges.append((u, v, decode(item)))
    return bool(data["directed"]), decode(data.get("graph", {})), nodes, edges
