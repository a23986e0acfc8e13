"""The network file formats by name: each registered once, with everything about it.

A :class:`NetworkFormat` says how a network of
:func:`~estimators.network.export.exact_export.exact_network` is written and read back, its
file suffix, which independent engines read it right (measured), whether its state names
must be BIF text, and what a reader of the file needs told. :func:`register_format` adds
one; ``write_exact``, ``read_network``, ``write_network`` and ``kgraph export --to`` (its
choices, suffixes and help) read :data:`FORMATS`, so a format is one registration.

The probabilities are written exactly (the shortest decimal text of each float,
:mod:`estimators.network.export.numbers`): pgmpy's ``BIFWriter`` and ``XMLBIFWriter``
already do (``repr``); its ``NETWriter`` rounds to 8 decimals and its ``XDSLWriter`` to 16
fixed decimals, so the writers here replace their number format; UAI has its own writer
(:mod:`estimators.network.export.uai`). Importing this module imports no pgmpy (``kgraph
export --help`` prints the engines' lines without it).

Examples
--------
>>> sorted(FORMATS)
['bif', 'net', 'pgmpy', 'uai', 'xdsl', 'xmlbif']
>>> FORMATS["xmlbif"].suffix, FORMATS["pgmpy"].network_file
('.bifxml', False)
>>> get_format("dot")
Traceback (most recent call last):
...
ValueError: Unknown network format 'dot'; accepted: bif, xmlbif, uai, xdsl, net, pgmpy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from estimators.base.entry_points import check_new_name
from estimators.network.export.numbers import numbers

__all__ = ["FORMATS", "NetworkFormat", "get_format", "register_format"]


@dataclass(frozen=True)
class NetworkFormat:
    """A network file format.

    Attributes
    ----------
    name : str
        Its name (``kgraph export --to NAME``, ``write_network(model, NAME, path)``).
    suffix : str
        The file suffix ``kgraph export`` gives it by default.
    readers : str
        Which independent engines read it right, and which misread it and why (measured;
        ``kgraph export --help`` prints it).
    write : callable
        ``write(network, path)``: writes the pgmpy network to ``path``.
    read : callable
        ``read(path, like)``: the network back from ``path`` (``like``: the network that
        was written, or None).
    bif_states : bool
        Its state names must be text BIF holds (no quoting).
    network_file : bool
        A network file (False: a pickle of the pgmpy object, which any state name passes).
    notes : callable or None
        ``notes(network, path)``: what a reader of the written file needs told, one line
        each (``kgraph export`` prints them).
    """

    name: str
    suffix: str
    readers: str
    write: Callable[[Any, Path], Any]
    read: Callable[[Path, Any], Any]
    bif_states: bool = False
    network_file: bool = True
    notes: Callable[[Any, Path], list[str]] | None = None


#: name -> format; add entries with :func:`register_format`
FORMATS: dict[str, NetworkFormat] = {}


def register_format(fmt: NetworkFormat, *, replace: bool = False) -> NetworkFormat:
    """Register ``fmt`` under its name.

    Raises
    ------
    ValueError
        If the name is empty, or taken and ``replace`` is False.
    """
    check_new_name("network format", fmt.name, FORMATS, replace=replace)
    FORMATS[fmt.name] = fmt
    return fmt


def get_format(name: str) -> NetworkFormat:
    """The format registered as ``name``."""
    if name not in FORMATS:
        raise ValueError(f"Unknown network format {name!r}; accepted: {', '.join(FORMATS)}.")
    return FORMATS[name]


def _pgmpy_read(reader: str) -> Callable[[Path, Any], Any]:
    """``read`` by pgmpy's reader class ``reader`` (of ``pgmpy.readwrite``)."""
    def read(path, like=None):
        from pgmpy import readwrite

        return getattr(readwrite, reader)(str(path)).get_model()

    return read


def _pgmpy_write(writer: Callable[[], type]) -> Callable[[Any, Path], Any]:
    """``write`` by the pgmpy writer class ``writer()`` returns."""
    return lambda network, path: writer()(network).write(str(path))


def _bif():
    from pgmpy.readwrite import BIFWriter

    return BIFWriter


def _xmlbif():
    """pgmpy's ``XMLBIFWriter`` writing each state as ``str(value)``, unchanged (pgmpy's
    own replaces every character but letters, digits and ``_`` by ``_``)."""
    from pgmpy.readwrite import XMLBIFWriter

    class ExactXMLBIFWriter(XMLBIFWriter):
        def _make_valid_state_name(self, state_name) -> str:
            return str(state_name)

    return ExactXMLBIFWriter


def _xdsl():
    """pgmpy's ``XDSLWriter`` with every probability written by ``repr``."""
    from pgmpy.readwrite import XDSLWriter

    class ExactXDSLWriter(XDSLWriter):
        def get_cpds(self):
            out = super().get_cpds()
            for var, cpd in out.items():
                values = cpd.get_values()  # (K, configurations): each column one row of it
                self.variables[var].find("probabilities").text = numbers(values.T.ravel())
            return out

    return ExactXDSLWriter


def _net():
    """pgmpy's ``NETWriter`` with every probability written by ``repr``."""
    from pgmpy.readwrite import NETWriter

    class ExactNETWriter(NETWriter):
        def net_cpd(self, var_name) -> str:
            cpt = np.moveaxis(np.asarray(self.tables[var_name], float), 0, -1)
            return _nested(cpt)

    return ExactNETWriter


def _nested(array) -> str:
    """A NumPy array as NET's nested parentheses, each number by ``repr``."""
    if array.ndim == 1:
        return "(" + numbers(array) + ")"
    return "(" + " ".join(_nested(a) for a in array) + ")"


def _xmlbif_notes(network, path: Path) -> list[str]:
    if path.suffix.lower() == ".bifxml":
        return []
    return [f"pyAgrum reads XMLBIF only from a .bifxml file; {path.name} is read by pgmpy"]


def _write_uai(network, path: Path) -> None:
    """The UAI file and its key (variable names and state codes) beside it."""
    from estimators.network.export.uai import uai_key_path, write_uai, write_uai_key

    write_uai(network, path)
    write_uai_key(network, uai_key_path(path))


def _read_uai(path: Path, like=None):
    """The UAI file read by the specification; names and states from ``like`` (the network
    written), else from the key file."""
    from estimators.network.export.uai import read_uai, uai_names

    if like is None:
        return read_uai(path)
    states = {cpd.variable: [str(s) for s in cpd.state_names[cpd.variable]]
              for cpd in like.get_cpds()}
    return read_uai(path, uai_names(like), states)


def _uai_notes(network, path: Path) -> list[str]:
    from estimators.network.export.uai import uai_key, uai_key_path

    states: dict[tuple[int, str], list[str]] = {}
    for i, name, code, state in uai_key(network):
        states.setdefault((i, name), []).append(f"{code}={state}")
    return [f"UAI key (variable names and state codes): {uai_key_path(path)}",
            *(f"UAI variable {i} = {name}: {', '.join(s)}" for (i, name), s in states.items())]


def _dump(network, path: Path) -> None:
    import joblib

    joblib.dump(network, path)


def _load(path: Path, like=None):
    import joblib

    return joblib.load(path)


# The readers' lines were measured with pgmpy 1.1.2 and pyAgrum 3.3.1 on car
# (tests/estimators/test_exact_export.py, test_export_readers.py): pgmpy gives predict_proba
# to 1e-9 on BIF, XMLBIF, XDSL and NET; pyAgrum's BIF/NET/UAI parsers store numbers as C++
# float (float32, 6e-8 relative), and pyAgrum reads (and writes) a UAI table and an XDSL
# probabilities list with the first parent fastest, against the UAI specification (the last
# scope variable least significant) and pgmpy's XDSL order, which these files follow.
register_format(NetworkFormat(
    "bif", ".bif", "pgmpy exactly; pyAgrum in float32 (1e-8)",
    _pgmpy_write(_bif), _pgmpy_read("BIFReader"), bif_states=True))
register_format(NetworkFormat(
    "xmlbif", ".bifxml", "pgmpy exactly; pyAgrum exactly from a .bifxml file (it refuses .xml)",
    _pgmpy_write(_xmlbif), _pgmpy_read("XMLBIFReader"), notes=_xmlbif_notes))
register_format(NetworkFormat(
    "uai", ".uai",
    "kgraph's read_uai with the key file NAME.uai.key.csv (variable names, state codes); "
    "misread by pgmpy 1.1.2 (child taken as the slowest, parents in arbitrary order) and by "
    "pyAgrum 3.3.1 where a node has two or more parents (first parent taken as the fastest, "
    "against the UAI specification)", _write_uai, _read_uai, notes=_uai_notes))
register_format(NetworkFormat(
    "xdsl", ".xdsl",
    "pgmpy exactly; misread by pyAgrum 3.3.1 where a node has two or more parents (first "
    "parent taken as the fastest, against pgmpy and SMILE's order)",
    _pgmpy_write(_xdsl), _pgmpy_read("XDSLReader")))
register_format(NetworkFormat(
    "net", ".net", "pgmpy exactly; pyAgrum in float32 (1e-8)",
    _pgmpy_write(_net), _pgmpy_read("NETReader"), bif_states=True))
register_format(NetworkFormat(
    "pgmpy", ".pgmpy.joblib", "pgmpy (a joblib pickle of the DiscreteBayesianNetwork)",
    _dump, _load, network_file=False))
