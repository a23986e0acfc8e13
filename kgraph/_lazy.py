"""Lazy package attributes (PEP 562): import a sub-module on first use of a name it exports.

``estimators`` and ``viz`` use it so that ``import estimators`` (or the ``kgraph`` command's
start-up) does not import every sub-module, and none imports pgmpy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], Any],
                                                                  Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose ``exports`` maps name -> module.

    Examples
    --------
    >>> getattr_, dir_ = lazy_exports("kgraph", {"GraphDB": "kgraph.graphdb"})
    >>> getattr_("GraphDB").__name__, "GraphDB" in dir_()
    ('GraphDB', True)
    """

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(exports[name]), name)

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
