"""The classifier families by name: each registered once, next to its class.

A family is a classifier class registered with :func:`register_family` (a class decorator:
name, title, and whether ``kgraph learn --model NAME`` fits it). Every list of families is
read from here: the command line's models and their options (``viz.cli.learn``, the options
being the class's declared parameters with a flag, :mod:`estimators.base.parameters`), the
conformance tests, the benchmarks' model board and the documentation's family table. So a new
family is one decorated class; nothing else lists it.

The built-in families register when their modules are imported; :func:`families` imports the
modules of :data:`BUILT_IN` first (by name, as plug-in entry points are loaded: the families
sit above this floor) and lists the built-ins in that order, then any other family in the
order it was registered (a researcher's own, a test's toy family).

A parameter name means one thing across the registry (``k`` is the k-tree width of k-TAN;
kDB's and BAN's bound on a feature's parents is ``max_parents``): :func:`parameter_meanings`
says where two families declare one name differently.

Examples
--------
>>> from sklearn.base import BaseEstimator, ClassifierMixin
>>> @register_family("demo", "a demo family")
... class Demo(ClassifierMixin, BaseEstimator):
...     '''A classifier.'''
>>> get_family("demo").cls is Demo, "demo" in family_names()
(True, True)
>>> unregister_family("demo")
>>> get_family("demo")
Traceback (most recent call last):
...
ValueError: Unknown family 'demo'; valid ones are ['gnb', 'kgnb', 'tan', 'ktan', 'kdb', \
'ande', 'aode', 'a2de', 'latent-cnb', 'ban', 'nb'].
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from sklearn.utils._param_validation import Interval

from estimators.base.entry_points import check_new_name
from estimators.base.parameters import declared_parameters

__all__ = ["BUILT_IN", "Family", "families", "family_names", "get_family",
           "parameter_meanings", "register_family", "unregister_family"]

#: the modules that define the built-in families, in the order every list shows them
BUILT_IN = ("estimators.gnb.gnb", "estimators.gnb.kgnb", "estimators.ktan.classifiers",
            "estimators.bnc.kdb", "estimators.bnc.ande", "estimators.latent._classifier",
            "estimators.bnc.ban", "estimators.ktan.naive_bayes")


@dataclass(frozen=True)
class Family:
    """A registered classifier family.

    Attributes
    ----------
    name : str
        Its name: ``kgraph learn --model NAME``, the benchmarks' row.
    cls : type
        The scikit-learn classifier class.
    title : str
        What it is, in one line (the report's heading, the documentation's table).
    command_line : bool
        Whether ``kgraph learn`` fits it (a model that learns a structure to write).
    """

    name: str
    cls: type
    title: str
    command_line: bool = True

    @property
    def options(self) -> tuple[str, ...]:
        """Its parameters with a ``kgraph learn`` flag, in ``__init__`` order."""
        return tuple(p.name for p in declared_parameters(self.cls) if p.flag is not None)


#: name -> family, in registration order; add entries with :func:`register_family`
_FAMILIES: dict[str, Family] = {}


def register_family(name: str, title: str, *, command_line: bool = True,
                    replace: bool = False) -> Callable[[type], type]:
    """Class decorator: register the class as the family ``name``.

    Raises
    ------
    ValueError
        If ``name`` is empty or taken (and ``replace`` is False), or the class is
        registered under another name.
    """
    def apply(cls: type) -> type:
        check_new_name("family", name, _FAMILIES, replace=replace)
        other = [f.name for f in _FAMILIES.values() if f.cls is cls and f.name != name]
        if other:
            raise ValueError(f"{cls.__name__} is registered already, as the family "
                             f"{other[0]!r}.")
        _FAMILIES[name] = Family(name, cls, title, command_line)
        return cls

    return apply


def unregister_family(name: str) -> None:
    """Remove the family ``name`` (a test's toy family, a plug-in replaced)."""
    get_family(name)
    del _FAMILIES[name]


def _rank(family: Family) -> int:
    module = family.cls.__module__
    return BUILT_IN.index(module) if module in BUILT_IN else len(BUILT_IN)


def families(*, command_line: bool | None = None) -> list[Family]:
    """The registered families: the built-ins in :data:`BUILT_IN` order, then the others as
    registered; ``command_line=True`` (False): only those ``kgraph learn`` fits (does not)."""
    for module in BUILT_IN:
        importlib.import_module(module)
    ordered = sorted(_FAMILIES.values(), key=_rank)  # stable: registration order within
    return [f for f in ordered if command_line is None or f.command_line == command_line]


def family_names(*, command_line: bool | None = None) -> list[str]:
    """The names of :func:`families`, in their order."""
    return [f.name for f in families(command_line=command_line)]


def get_family(name: str) -> Family:
    """The family registered as ``name``."""
    names = family_names()
    if name not in names:
        raise ValueError(f"Unknown family {name!r}; valid ones are {names}.")
    return _FAMILIES[name]


def parameter_meanings() -> list[str]:
    """One line per parameter name that two families declare with different numeric ranges,
    or with flags that parse the command line differently (empty: each name means one
    thing across the registry)."""
    ranges: dict[str, tuple[str, tuple]] = {}
    parsers: dict[str, tuple[str, object]] = {}
    lines = []
    for family in families():
        for p in declared_parameters(family.cls):
            span = tuple(str(c) for c in p.constraints if isinstance(c, Interval))
            first = ranges.setdefault(p.name, (family.name, span))
            if first[1] != span:
                lines.append(f"{p.name!r}: {first[0]} takes "
                             f"{' or '.join(first[1]) or 'no number'}, {family.name} "
                             f"{' or '.join(span) or 'no number'}")
            if p.flag is not None:
                first = parsers.setdefault(p.name, (family.name, p.flag.type))
                if first[1] is not p.flag.type:
                    lines.append(f"{p.name!r}: the flags of {first[0]} and {family.name} "
                                 "parse different values")
    return lines
