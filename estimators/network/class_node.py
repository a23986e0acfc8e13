"""The name of the class vertex in a network's exports, distinct from every feature's."""

from __future__ import annotations

__all__ = ["CLASS_NODE", "unique_class_node"]

CLASS_NODE = "class"


def unique_class_node(feature_names) -> str:
    """The class vertex's name in exports: :data:`CLASS_NODE`, with ``_`` appended until it
    is not one of ``feature_names``.

    Examples
    --------
    >>> unique_class_node(["class", "x"])
    'class_'
    """
    node = CLASS_NODE
    while node in feature_names:
        node += "_"
    return node
