"""Typed JSON encoding of node keys and attribute values.

GraphML and JSON know strings, numbers and booleans; kgraph's node keys are often tuples or
frozensets (clusters, cliques) and attributes may hold them too. Values are encoded into
JSON-native objects with one-key tags (``{"__tuple__": [...]}``) and decoded back exactly.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

_TAGS = ("__tuple__", "__frozenset__", "__set__", "__dict__", "__float__")


def sort_key(value: Any) -> tuple[str, str]:
    """A total order over mixed hashable values: by type name, then by canonical text."""
    return (type(value).__name__, dumps(value))


def sorted_mixed(values: Iterable[Any]) -> list[Any]:
    """Sort values of possibly mixed types deterministically (natural order when possible)."""
    values = list(values)
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=sort_key)


def encode(value: Any) -> Any:
    """Encode ``value`` into JSON-native objects, tagging what JSON cannot represent."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {"__float__": repr(value)}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v) for v in value]}
    if isinstance(value, frozenset | set):
        tag = "__frozenset__" if isinstance(value, frozenset) else "__set__"
        items = [encode(v) for v in value]
        return {tag: sorted(items, key=lambda e: json.dumps(e, sort_keys=True))}
    if isinstance(value, list | np.ndarray):
        return [encode(v) for v in list(value)]
    if isinstance(value, dict):
        if all(isinstance(k, str) and k not in _TAGS for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"__dict__": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(
        f"Cannot encode a value of type {type(value).__name__} ({value!r}); "
        "accepted: None, bool, int, float, str, tuple, frozenset, set, list, dict."
    )


def decode(obj: Any) -> Any:
    """Invert :func:`encode`."""
    if isinstance(obj, list):
        return [decode(v) for v in obj]
    if isinstance(obj, dict):
        if len(obj) == 1:
            (tag, payload), = obj.items()
            if tag == "__tuple__":
                return tuple(decode(v) for v in payload)
            if tag == "__frozenset__":
                return frozenset(decode(v) for v in payload)
            if tag == "__set__":
                return {decode(v) for v in payload}
            if tag == "__dict__":
                return {decode(k): decode(v) for k, v in payload}
            if tag == "__float__":
                return float(payload)
        return {k: decode(v) for k, v in obj.items()}
    return obj


def dumps(value: Any) -> str:
    """Canonical JSON text of an encoded value."""
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"))


def loads(text: str) -> Any:
    """Invert :func:`dumps`."""
    return decode(json.loads(text))


def display(key: Hashable) -> str:
    """A readable label for a node key: ``{0, 1, 2}`` for a frozenset, ``(a, b)`` for a tuple."""
    if isinstance(key, frozenset | set):
        return "{" + ", ".join(display(k) for k in sorted_mixed(key)) + "}"
    if isinstance(key, tuple):
        return "(" + ", ".join(display(k) for k in key) + ")"
    return str(key)
