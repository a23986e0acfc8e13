"""Reading plug-in entry points into a registry: the half of :mod:`estimators.learning.plugin_registry` that
the registries themselves use.

The registries (:mod:`estimators.scores`, :mod:`estimators.search`) import this module to
check new names and to read their entry-point group the first time they are consulted;
:mod:`estimators.learning.plugin_registry`, which lists what every registry holds, imports the registries.
So the imports go one way (no cycle between the registries and the plug-in listing).

Examples
--------
>>> registry = {}
>>> check_new_name("score", "cmi", registry, replace=False)
>>> check_new_name("score", "", registry, replace=False)
Traceback (most recent call last):
...
ValueError: A score name must be a non-empty str; got ''.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["GROUPS", "STATE", "EntryPointState", "PluginWarning", "check_new_name",
           "describe", "load_group"]

#: entry-point group -> the kind of object it registers
GROUPS = {"kgraph.scores": "score", "kgraph.searchers": "searcher"}


class PluginWarning(UserWarning):
    """A plug-in entry point could not be loaded; it is skipped."""


@dataclass
class EntryPointState:
    """What the entry points gave in this process.

    Attributes
    ----------
    loaded : set of str
        The groups read already (each is read once unless reloaded).
    registered : dict
        ``(kind, name) -> origin`` of each plug-in registered.
    broken : dict
        ``(kind, name) -> origin and error`` of each plug-in skipped.
    """

    loaded: set[str] = field(default_factory=set)
    registered: dict[tuple[str, str], str] = field(default_factory=dict)
    broken: dict[tuple[str, str], str] = field(default_factory=dict)


#: the one state of this process
STATE = EntryPointState()


def describe(ep) -> str:
    """``entry point NAME = VALUE (DIST VERSION)``."""
    dist = getattr(ep, "dist", None)
    where = f" ({dist.name} {dist.version})" if dist is not None else ""
    return f"entry point {ep.name} = {ep.value}{where}"


def load_group(group: str, register: Callable[[str, object], object], *,
               reload: bool = False) -> None:
    """Register every entry point of ``group`` with ``register(name, obj)`` (once per
    process; ``reload=True`` reads the group again). A broken entry point is skipped with
    one :class:`PluginWarning` naming it."""
    if group in STATE.loaded and not reload:
        return
    STATE.loaded.add(group)
    from importlib.metadata import entry_points

    kind = GROUPS[group]
    for ep in entry_points(group=group):
        key = (kind, ep.name)
        if key in STATE.registered:
            continue
        try:
            register(ep.name, ep.load())
        except Exception as exc:  # a plug-in's failure must not stop kgraph
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
            why = f"{describe(ep)}: {reason}"
            if STATE.broken.get(key) != why:  # one warning per broken plug-in and process
                warnings.warn(f"kgraph: the {kind} plug-in {describe(ep)} [group {group}] "
                              f"could not be loaded and is skipped: {reason}",
                              PluginWarning, stacklevel=3)
            STATE.broken[key] = why
        else:
            STATE.registered[key] = describe(ep)
            STATE.broken.pop(key, None)


def check_new_name(kind: str, name: object, registry: dict, *, replace: bool) -> None:
    """The name checks shared by ``register_score`` and ``register_searcher``.

    Raises
    ------
    ValueError
        If ``name`` is not a non-empty str, or is taken and ``replace`` is False.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"A {kind} name must be a non-empty str; got {name!r}.")
    if name in registry and not replace:
        raise ValueError(f"A {kind} named {name!r} is registered already; pass replace=True "
                         "to replace it.")
