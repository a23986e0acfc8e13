"""Write a fitted discrete classifier as a Bayesian network file (BIF, XMLBIF, pgmpy).

Only the (k-)TAN family on discrete features is a discrete Bayesian network with CPDs
(:func:`estimators.ktan._export.discrete_network`: the class is a parent of every feature,
the CPDs are the classifier's smoothed tables). pgmpy's ``BIFWriter`` (with its default
``round_values=None``) and ``XMLBIFWriter`` write the probabilities with Python's ``repr``,
i.e. exactly; their readers give the model's posteriors on rows of training categories
(measured: largest difference 7e-16 on ``car``, see ``tests/estimators/test_network_export.py``).
BIF and XMLBIF state names are text: a category ``1`` is read back as ``"1"``.
GNB, k-GNB, latent CNB and Gaussian (k-)TAN models have continuous features, which neither
format holds; they are refused with a ``ValueError``.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path

FORMATS = ("bif", "xmlbif", "pgmpy")


def discrete_network(model):
    """The model's pgmpy ``DiscreteBayesianNetwork`` with CPDs (discrete (k-)TAN only)."""
    from estimators.ktan._base import BaseKTAN

    if not isinstance(model, BaseKTAN) or getattr(model, "family_", None) != "discrete":
        kind = getattr(model, "family_", "continuous")
        raise ValueError(
            f"Only a (k-)TAN fitted on discrete features is a discrete Bayesian network; got a "
            f"{type(model).__name__} with {kind} features (BIF and XMLBIF hold discrete "
            "variables only).")
    from estimators.ktan._export import discrete_network as build

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
    if fmt == "bif":
        from pgmpy.readwrite import BIFWriter

        BIFWriter(network).write(str(path))
    elif fmt == "xmlbif":
        from pgmpy.readwrite import XMLBIFWriter

        XMLBIFWriter(network).write(str(path))
    else:
        import joblib

        joblib.dump(network, path)
    return path


def _pgmpy(model):
    """pgmpy form of the model: the discrete network, or ``{class: network}`` for a
    Gaussian (k-)TAN (:func:`estimators.ktan._export.to_pgmpy`)."""
    to_pgmpy = getattr(model, "to_pgmpy", None)
    if to_pgmpy is None:
        raise ValueError(f"A {type(model).__name__} has no pgmpy form; models with one: "
                         "TANClassifier, KTANClassifier.")
    return to_pgmpy()
