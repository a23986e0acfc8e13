"""Write a fitted discrete classifier as a Bayesian network file (BIF, XMLBIF, pgmpy).

Only a network classifier (a ``network_`` on a ``structure_``: the (k-)TAN family, kDB, ...;
:mod:`estimators.network.export`) on discrete features is a discrete Bayesian network with
CPDs (:func:`estimators.network.export.discrete_network`: the class is a parent of every
feature, the CPDs are the classifier's smoothed tables). pgmpy's ``BIFWriter`` (with its default
``round_values=None``) and ``XMLBIFWriter`` write the probabilities with Python's ``repr``,
i.e. exactly; their readers give the model's posteriors on rows of training categories
(measured: largest difference 7e-16 on ``car``, see ``tests/estimators/test_network_export.py``).
BIF and XMLBIF state names are text: each state is ``str`` of the user's own value (the
category ``1`` is written ``1``, ``1.0`` is ``1.0``, ``"01"`` is ``01``, ``True`` is
``True``), so pgmpy's readers give ``predict_proba`` back with evidence ``str(value)``. The
XMLBIF writer here keeps the text as it is (pgmpy's own replaces every character but letters,
digits and ``_`` by ``_``: ``2.5`` would come back ``2_5``). BIF has no quoting: a state
whose text holds a comma, brace, double quote, or whitespace other than inner single spaces
cannot be written, and is refused with a ``ValueError`` naming it (XMLBIF holds any text).
GNB, k-GNB, latent CNB and Gaussian (k-)TAN models have continuous features, which neither
format holds; they are refused with a ``ValueError``.
"""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path

FORMATS = ("bif", "xmlbif", "pgmpy")
#: text BIF can hold as a state name: no comma, brace, quote or spacing but single inner spaces
_BIF_STATE = re.compile(r"[^,{}\"\s]+( [^,{}\"\s]+)*")


def discrete_network(model):
    """The model's pgmpy ``DiscreteBayesianNetwork`` with CPDs (discrete network
    classifiers only)."""
    from estimators.network.model import CGNetwork

    network = isinstance(getattr(model, "network_", None), CGNetwork)
    if not network or getattr(model, "family_", None) != "discrete":
        kind = getattr(model, "family_", "continuous")
        raise ValueError(
            f"Only a network classifier ((k-)TAN, kDB, ...) fitted on discrete features is a "
            f"discrete Bayesian network; got a {type(model).__name__} with {kind} features "
            "(BIF and XMLBIF hold discrete variables only).")
    from estimators.network.export import discrete_network as build

    return build(model)


def write_network(model, fmt: str, path: str | PathLike) -> Path:
    """Write the fitted model as ``fmt`` ("bif", "xmlbif" or "pgmpy": a joblib pickle).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from estimators.datasets import load_dataset
    >>> from estimators.ktan import TANClassifier
    >>> X, y = load_dataset("car")
    >>> clf = TANClassifier().fit(X, y)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = write_network(clf, "bif", pathlib.Path(d) / "car.bif")
    ...     from pgmpy.readwrite import BIFReader
    ...     sorted(BIFReader(path).get_model().get_parents("safety"))
    ['buying', 'class']
    """
    if fmt not in FORMATS:
        raise ValueError(f"Unknown network format {fmt!r}; accepted: {', '.join(FORMATS)}.")
    network = discrete_network(model) if fmt != "pgmpy" else _pgmpy(model)
    path = Path(path)
    if fmt != "pgmpy":
        _check_states(network, bif=fmt == "bif")
    if fmt == "bif":
        from pgmpy.readwrite import BIFWriter

        BIFWriter(network).write(str(path))
    elif fmt == "xmlbif":
        _exact_xmlbif_writer()(network).write(str(path))
    else:
        import joblib

        joblib.dump(network, path)
    return path


def _pgmpy(model):
    """pgmpy form of the model: the discrete network, or ``{class: network}`` for a
    Gaussian network classifier (:func:`estimators.network.export.to_pgmpy`)."""
    to_pgmpy = getattr(model, "to_pgmpy", None)
    if to_pgmpy is None:
        raise ValueError(f"A {type(model).__name__} has no pgmpy form; models with one: "
                         "TANClassifier, KTANClassifier.")
    return to_pgmpy()


def _check_states(network, *, bif: bool) -> None:
    """Refuse, naming them, two states of one variable with the same text (``1`` and
    ``"1"`` in one object column), and for ``bif`` a state whose text BIF cannot hold (see
    the module docstring)."""
    for cpd in network.get_cpds():
        texts = [str(s) for s in cpd.state_names[cpd.variable]]
        twice = sorted({t for t in texts if texts.count(t) > 1})
        if twice:
            raise ValueError(f"Variable {cpd.variable!r} has two states written {twice[0]!r} "
                             "(values of different types with the same text); text formats "
                             "cannot tell them apart: make the column one type.")
        for state in texts if bif else ():
            if not _BIF_STATE.fullmatch(state):
                raise ValueError(
                    f"Variable {cpd.variable!r} has the state {state!r}, which BIF cannot "
                    "hold (no comma, brace, double quote, tab, newline or leading, trailing "
                    "or double space); rename the category or export to XMLBIF.")


def _exact_xmlbif_writer():
    """pgmpy's ``XMLBIFWriter`` writing each state as ``str(value)``, unchanged."""
    from pgmpy.readwrite import XMLBIFWriter

    class ExactXMLBIFWriter(XMLBIFWriter):
        def _make_valid_state_name(self, state_name) -> str:
            return str(state_name)

    return ExactXMLBIFWriter
