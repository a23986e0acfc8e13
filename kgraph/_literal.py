"""Exact, readable text of typed values for GraphML's ``kgraph_*`` attributes.

GraphML holds strings, numbers and booleans. A value of any other type (a tuple, a
frozenset, ``None``, a string XML cannot carry) is written twice: readable text under its
own name for people and tools, and under ``kgraph_<name>`` a Python literal that
:func:`from_literal` parses back exactly (``('a', 1)``, ``frozenset({0, 2})``,
``float('inf')``). The literal is never JSON text and never starts with a double quote:
strings are single-quoted with every quote, backslash and non-ASCII character escaped.

Examples
--------
>>> to_literal((1, "b", frozenset({2})))
"(1, 'b', frozenset({2}))"
>>> from_literal(to_literal({"a": [None, float("-inf")]}))
{'a': [None, -inf]}
"""

from __future__ import annotations

import ast
import math
from typing import Any

import numpy as np

from kgraph._codec import sort_key


def _string(text: str) -> str:
    body = text.encode("unicode_escape").decode("ascii").replace("'", "\\'")
    return f"'{body}'"


def _items(values) -> str:
    return ", ".join(to_literal(v) for v in values)


def to_literal(value: Any) -> str:
    """Python-literal text of ``value`` that :func:`from_literal` parses back exactly."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool | int):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f"float('{value!r}')"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, tuple):
        return f"({_items(value)},)" if len(value) == 1 else f"({_items(value)})"
    if isinstance(value, list | np.ndarray):
        return f"[{_items(list(value))}]"
    if isinstance(value, frozenset | set):
        name = "frozenset" if isinstance(value, frozenset) else "set"
        return f"{name}({{{_items(sorted(value, key=sort_key))}}})" if value else f"{name}()"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{to_literal(k)}: {to_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(
        f"Cannot encode a value of type {type(value).__name__} ({value!r}); "
        "accepted: None, bool, int, float, str, tuple, frozenset, set, list, dict."
    )


_CALLS = {"frozenset": frozenset, "set": set, "float": float}


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand)
    if isinstance(node, ast.Tuple):
        return tuple(_eval(e) for e in node.elts)
    if isinstance(node, ast.List):
        return [_eval(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {_eval(k): _eval(v) for k, v in zip(node.keys, node.values, strict=True)}
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _CALLS and len(node.args) <= 1 and not node.keywords):
        if not node.args:
            return _CALLS[node.func.id]()
        arg = node.args[0]
        items = [_eval(e) for e in arg.elts] if isinstance(arg, ast.Set) else _eval(arg)
        return _CALLS[node.func.id](items)
    raise ValueError(f"Not a kgraph literal: {ast.unparse(node)!r}.")


def from_literal(text: str) -> Any:
    """Parse text written by :func:`to_literal` (no code is ever run)."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"Not a kgraph literal: {text!r}.") from exc
    return _eval(tree.body)
