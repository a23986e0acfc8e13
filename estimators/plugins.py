"""Plug-ins: scores and searchers that live in other packages, found through entry points.

A package adds a hyperedge score or a structure searcher to kgraph -- to every classifier,
to ``kgraph learn`` and to ``kgraph plugins`` -- with one entry-point line in its
``pyproject.toml``, and no edit to kgraph::

    [project.entry-points."kgraph.scores"]
    js-cmi = "kgraph_js_cmi:FAMILIES"        # what register_score(name, ...) takes

    [project.entry-points."kgraph.searchers"]
    my-search = "my_package:my_searcher"     # what register_searcher(name, ...) takes

The entry point's name is the registered name. A score entry point names a mapping
``{family: factory}`` (or a factory whose ``families`` attribute lists them); a searcher
entry point names the searcher function (:mod:`estimators.search.registry`).

Entry points are read once per process, the first time a registry is consulted (a name is
validated at ``fit``, ``kgraph learn`` checks a choice, ``kgraph plugins`` lists them), so
``import estimators`` costs nothing more with or without plug-ins. A plug-in that cannot be
loaded (its module fails to import, the object is missing or of the wrong kind, the name is
taken) is skipped with one :class:`PluginWarning` naming its entry point; nothing else fails.

Examples
--------
>>> from estimators.plugins import load_plugins, registered
>>> load_plugins()
>>> [row.name for row in registered() if row.origin == "kgraph"][:3]
['bdeu', 'bic', 'cmi']
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sklearn.utils._param_validation import StrOptions

__all__ = ["GROUPS", "PluginWarning", "RegistryName", "Registration", "check_new_name",
           "load_plugins", "registered"]

#: entry-point group -> the kind of object it registers
GROUPS = {"kgraph.scores": "score", "kgraph.searchers": "searcher"}


class PluginWarning(UserWarning):
    """A plug-in entry point could not be loaded; it is skipped."""


@dataclass(frozen=True)
class Registration:
    """One registered score or searcher, and where it comes from.

    Attributes
    ----------
    kind : str
        ``"score"`` or ``"searcher"``.
    name : str
        The registered name.
    origin : str
        ``"kgraph"`` (built in), ``"entry point NAME = VALUE (DIST VERSION)"`` for a
        plug-in, ``"register_*(...) in MODULE"`` for one registered at run time, or the
        failure of a broken plug-in.
    families : tuple of str
        The feature families of a score (empty for a searcher).
    loaded : bool
        False for a broken plug-in (skipped).
    """

    kind: str
    name: str
    origin: str
    families: tuple[str, ...] = ()
    loaded: bool = True


#: (kind, name) -> origin of what plug-ins registered; broken ones -> (origin, error)
_FROM_ENTRY_POINTS: dict[tuple[str, str], str] = {}
_BROKEN: dict[tuple[str, str], str] = {}
_LOADED = False


def _describe(ep) -> str:
    dist = getattr(ep, "dist", None)
    where = f" ({dist.name} {dist.version})" if dist is not None else ""
    return f"entry point {ep.name} = {ep.value}{where}"


def _register(kind: str, name: str, obj) -> None:
    if kind == "score":
        from estimators.scores import register_score

        register_score(name, obj)
    else:
        from estimators.search import register_searcher

        register_searcher(name, obj)


def load_plugins(*, reload: bool = False) -> None:
    """Register every score and searcher of the ``kgraph.scores`` / ``kgraph.searchers``
    entry points (once per process; ``reload=True`` reads them again, for tests).

    A broken entry point is skipped with one :class:`PluginWarning` naming it.
    """
    global _LOADED
    if _LOADED and not reload:
        return
    _LOADED = True
    from importlib.metadata import entry_points

    for group, kind in GROUPS.items():
        for ep in entry_points(group=group):
            key = (kind, ep.name)
            if key in _FROM_ENTRY_POINTS:
                continue
            try:
                _register(kind, ep.name, ep.load())
            except Exception as exc:  # a plug-in's failure must not stop kgraph
                reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
                why = f"{_describe(ep)}: {reason}"
                if _BROKEN.get(key) != why:  # one warning per broken plug-in and process
                    warnings.warn(f"kgraph: the {kind} plug-in {_describe(ep)} [group {group}] "
                                  f"could not be loaded and is skipped: {reason}",
                                  PluginWarning, stacklevel=2)
                _BROKEN[key] = why
            else:
                _FROM_ENTRY_POINTS[key] = _describe(ep)
                _BROKEN.pop(key, None)


def _origin(kind: str, name: str, obj) -> str:
    if (kind, name) in _FROM_ENTRY_POINTS:
        return _FROM_ENTRY_POINTS[kind, name]
    module = getattr(obj, "__module__", None) or type(obj).__module__
    if module and module.split(".")[0] in ("estimators", "kgraph"):
        return "kgraph"
    return f"register_{kind}(...) in {module}"


def registered() -> list[Registration]:
    """Every registered score and searcher (plug-ins loaded), then the broken plug-ins.

    Returns
    -------
    list of Registration
        Scores, then searchers, each sorted by name.
    """
    load_plugins()
    from estimators.scores import SCORES
    from estimators.search import SEARCHERS

    rows = []
    for name in sorted(SCORES):
        factories = SCORES[name]
        first = next(iter(factories.values()), None)
        rows.append(Registration("score", name, _origin("score", name, first),
                                 tuple(factories)))
    for name in sorted(SEARCHERS):
        rows.append(Registration("searcher", name, _origin("searcher", name, SEARCHERS[name])))
    for (kind, name), why in sorted(_BROKEN.items()):
        rows.append(Registration(kind, name, why, loaded=False))
    return rows


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


class RegistryName(StrOptions):
    """A parameter constraint: a name of a registry, read when a value is checked (plug-ins
    and later registrations count), so the error lists what is registered at ``fit``.

    Parameters
    ----------
    names : callable
        Returns the registered names (and loads the plug-ins).
    extra : iterable of str
        Further accepted values (e.g. ``"auto"``).

    Examples
    --------
    >>> names = ["a", "b"]
    >>> c = RegistryName(lambda: names, extra=("auto",))
    >>> c.is_satisfied_by("b"), c.is_satisfied_by("c")
    (True, False)
    >>> names.append("c")
    >>> c.is_satisfied_by("c"), str(c)
    (True, "a str among {'a', 'b', 'c', 'auto'}")
    """

    def __init__(self, names: Callable[[], Iterable[str]], extra: Iterable[str] = ()) -> None:
        self._names, self._extra = names, tuple(extra)
        self.hidden, self.type, self.deprecated = False, str, set()

    @property
    def options(self) -> list[str]:
        return [*sorted(self._names()), *self._extra]

    @options.setter
    def options(self, value) -> None:  # set by Options.__init__; the registry is the truth
        pass
