"""Plug-ins: scores and searchers that live in other packages, found through entry points.

A package adds a hyperedge score or a structure searcher to kgraph -- to every classifier,
to ``kgraph learn`` and to ``kgraph plugins`` -- with one entry-point line in its
``pyproject.toml``, and no edit to kgraph::

    [project.entry-points."kgraph.scores"]
    js-cmi = "kgraph_js_cmi:JamesSteinCMI"   # what register_score(name, ...) takes

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
>>> from estimators.learning.plugin_registry import load_plugins, registered
>>> load_plugins()
>>> [row.name for row in registered() if row.origin == "kgraph"][:3]
['bdeu', 'bic', 'cmi']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sklearn.utils._param_validation import StrOptions

from estimators.base.entry_points import GROUPS, STATE, PluginWarning, check_new_name
from estimators.scores import SCORES, load_score_plugins
from estimators.search import SEARCHERS, load_searcher_plugins

__all__ = ["GROUPS", "PluginWarning", "RegistryName", "Registration", "check_new_name",
           "load_plugins", "registered"]


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


def load_plugins(*, reload: bool = False) -> None:
    """Register every score and searcher of the ``kgraph.scores`` / ``kgraph.searchers``
    entry points (once per process; ``reload=True`` reads them again, for tests).

    Each registry also reads its own group the first time it is consulted
    (:func:`estimators.base.entry_points.load_group`). A broken entry point is skipped with one
    :class:`PluginWarning` naming it.
    """
    load_score_plugins(reload=reload)
    load_searcher_plugins(reload=reload)


def _origin(kind: str, name: str, obj) -> str:
    if (kind, name) in STATE.registered:
        return STATE.registered[kind, name]
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
    rows = []
    for name in sorted(SCORES):
        factories = SCORES[name]
        first = next(iter(factories.values()), None)
        rows.append(Registration("score", name, _origin("score", name, first),
                                 tuple(factories)))
    for name in sorted(SEARCHERS):
        rows.append(Registration("searcher", name, _origin("searcher", name, SEARCHERS[name])))
    for (kind, name), why in sorted(STATE.broken.items()):
        rows.append(Registration(kind, name, why, loaded=False))
    return rows


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
