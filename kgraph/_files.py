"""GraphML and node-link JSON files of property graphs.

Node-link JSON is the exact format: every node key and attribute value comes back with its
type (typed JSON, see :mod:`kgraph._codec`).

GraphML is for people and tools (networkx, igraph, Gephi): each node's id and ``label`` are
its readable key (``{0, 1, 2}`` for a frozenset, ``(a, b)`` for a tuple); an attribute whose
values are all of one GraphML type (bool, int, float, str) is written natively; any other
attribute (tuples, frozensets, lists, ``None``, mixed types, text XML cannot carry) is
written as readable text (``None`` omitted; ints mixed with floats as floats) and, for
kgraph's reader, once more as a Python literal under ``kgraph_<name>`` (see
:mod:`kgraph._literal`). A node whose key is not its id (not a string, repeated text)
carries ``kgraph_key`` the same way. No value is JSON text. Reading such a file back with
:func:`read_graphml` is therefore exact; a GraphML file from elsewhere (no ``kgraph_*``
attributes) gives string keys and the attributes as the file types them. Attribute names
starting with ``kgraph_`` are reserved.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable
from os import PathLike
from typing import Any

import networkx as nx
import numpy as np

from kgraph._codec import decode, display, encode
from kgraph._literal import from_literal, to_literal

KEY_ATTR = "kgraph_key"
PREFIX = "kgraph_"
LABEL_FLAG = "kgraph_label"  # graph attribute: the node 'label' attribute was added by kgraph
_NATIVE = (bool, int, float, str)

_NOT_XML = re.compile(r"[\x00-\x08\x0b-\x0d\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

Nodes = list[tuple[Hashable, dict[str, Any]]]
Edges = list[tuple[Hashable, Hashable, dict[str, Any]]]


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _readable(value: Any) -> str:
    """Text for people: ``(a, b)``, ``{0, 1}``, ``[x, y]``, ``a: 1, b: 2``."""
    if isinstance(value, list | np.ndarray):
        return "[" + ", ".join(_readable(v) for v in list(value)) + "]"
    if isinstance(value, dict):
        return ", ".join(f"{_readable(k)}: {_readable(v)}" for k, v in value.items())
    return _NOT_XML.sub("?", display(value))


def _ids(nodes: Nodes) -> dict[Hashable, str]:
    ids: dict[Hashable, str] = {}
    used: set[str] = set()
    for key, _ in nodes:
        label = base = _readable(key)
        n = 1
        while label in used:
            label, n = f"{base}#{n}", n + 1
        used.add(label)
        ids[key] = label
    return ids


_RESERVED = {"graph": {"node_default", "edge_default"}, "node": {"id"},
             "edge": {"id", "source", "target"}}


def _check_names(attrs: dict[str, Any], domain: str) -> None:
    for name in attrs:
        if not isinstance(name, str):
            raise TypeError(f"Attribute names must be strings; got {name!r}.")
        if name in _RESERVED[domain] or name.startswith(PREFIX):
            raise ValueError(
                f"{domain.capitalize()} attribute name {name!r} is reserved by kgraph's file "
                f"formats (as is every name starting with {PREFIX!r})."
            )


def _column_types(dicts: list[dict[str, Any]], domain: str) -> dict[str, set[type]]:
    """The value types of each attribute (``object`` for a string XML cannot carry)."""
    types: dict[str, set[type]] = {}
    for attrs in dicts:
        _check_names(attrs, domain)
        for name, value in attrs.items():
            kind = type(_scalar(value))
            if kind is str and _NOT_XML.search(value):
                kind = object
            types.setdefault(name, set()).add(kind)
    return types


def _plain(attrs: dict[str, Any], types: dict[str, set[type]]) -> dict[str, Any]:
    """Attributes as GraphML writes them: native, or readable text plus a kgraph literal."""
    out: dict[str, Any] = {}
    for name, value in attrs.items():
        kinds, value = types[name], _scalar(value)
        if len(kinds) == 1 and kinds <= set(_NATIVE):
            out[name] = value
            continue
        out[PREFIX + name] = to_literal(value)
        if value is None:
            continue
        numeric = kinds <= {int, float} and isinstance(value, int | float)
        out[name] = float(value) if numeric else _readable(value)
    return out


def write_graphml(directed: bool, attrs: dict, nodes: Nodes, edges: Edges,
                  path: str | PathLike) -> None:
    """Write a property graph as GraphML (see the module docstring for the attributes)."""
    ids = _ids(nodes)
    node_types = _column_types([a for _, a in nodes], "node")
    edge_types = _column_types([a for _, _, a in edges], "edge")
    g = nx.DiGraph() if directed else nx.Graph()
    g.graph.update(_plain(attrs, _column_types([attrs], "graph")))
    add_label = "label" not in node_types
    if add_label:
        g.graph[LABEL_FLAG] = True
    for key, a in nodes:
        extra = {} if isinstance(key, str) and ids[key] == key else {KEY_ATTR: to_literal(key)}
        g.add_node(ids[key], **({"label": ids[key]} if add_label else {}), **extra,
                   **_plain(a, node_types))
    for u, v, a in edges:
        g.add_edge(ids[u], ids[v], **_plain(a, edge_types))
    nx.write_graphml(g, path)


def _restore(attrs: dict[str, Any]) -> dict[str, Any]:
    typed = {k[len(PREFIX):]: from_literal(v) for k, v in attrs.items() if k.startswith(PREFIX)}
    plain = {k: v for k, v in attrs.items() if not k.startswith(PREFIX)}
    return {**plain, **typed}


def read_graphml(path: str | PathLike) -> tuple[bool, dict, Nodes, Edges]:
    """Read GraphML into ``(directed, attrs, nodes, edges)``."""
    g = nx.read_graphml(path)
    if g.is_multigraph():
        raise ValueError(f"{path}: parallel edges found; GraphDB holds simple graphs only.")
    graph_attrs = dict(g.graph)
    for added_by_networkx in ("node_default", "edge_default"):
        graph_attrs.pop(added_by_networkx, None)
    drop_label = bool(graph_attrs.pop(LABEL_FLAG, False))
    keys = {}
    nodes: Nodes = []
    for label, a in g.nodes(data=True):
        a = dict(a)
        keys[label] = from_literal(a.pop(KEY_ATTR)) if KEY_ATTR in a else label
        if drop_label:
            a.pop("label", None)
        nodes.append((keys[label], _restore(a)))
    edges: Edges = [(keys[u], keys[v], _restore(a)) for u, v, a in g.edges(data=True)]
    return g.is_directed(), _restore(graph_attrs), nodes, edges


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
