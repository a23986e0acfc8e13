"""The models of ``kgraph compare``: command-line specs, importable classifiers, baselines.

A model is given as

* a **command-line spec**: a ``kgraph learn`` model name with its model options, e.g.
  ``"tan --parameters discriminative"`` or ``"ktan --structure-score js-cmi"`` (plug-in
  scores included): parsed by the very parser of ``kgraph learn`` and built by its model
  registry (:data:`viz.cli.learn.MODELS`, the families of
  :mod:`estimators.template.family_registry`), so every option and check is the same;
* an **importable classifier** ``package.module:Class``, optionally followed by
  ``name=value`` parameters (values read as Python literals, else strings);
* an **estimator object** under a label (the Python API, e.g. the benchmark scripts).

The baselines of :func:`estimators.learning.baseline_classifiers.baselines` are added unless switched off, and
``best`` adds the nested-CV choice among the given models
(:class:`estimators.learning.best_of.BestOfClassifier`), labelled as such.

Each model carries its **key** for the run store: a hash of the unfitted estimator (its
class and every parameter) and the code version (:func:`code_version`).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import inspect
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["BEST", "Model", "code_version", "parse_models", "split_models"]

#: the label of the nested-CV choice among the given models
BEST = "best of models (nested CV)"
#: the packages whose sources make the code version (with scikit-learn's version)
PACKAGES = ("kgraph", "estimators")


@dataclass(frozen=True)
class Model:
    """A model of the comparison.

    Attributes
    ----------
    label : str
        Its name in every output (the spec as given, or the baseline's name).
    estimator : scikit-learn classifier
        Unfitted; cloned for each cell.
    kind : str
        ``"spec"``, ``"import"``, ``"object"``, ``"baseline"`` or ``"best"``.
    key : str
        Hash of the estimator and the code version: a stored cell is reused only under it.
    description : str
        What it is, for the reports (the estimator's repr unless given).
    """

    label: str
    estimator: Any
    kind: str
    key: str
    description: str = ""

    def __post_init__(self) -> None:
        if not self.description:
            object.__setattr__(self, "description", " ".join(repr(self.estimator).split()))


def _hash_files(paths: Sequence[Path], root: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def code_version() -> str:
    """A hash of the sources of ``kgraph`` and ``estimators`` (every ``.py`` file, path and
    content) and scikit-learn's version: the version of the code a stored cell came from.

    Examples
    --------
    >>> len(code_version().split("-sk")[0])
    12
    """
    import sklearn

    root = Path(importlib.import_module(PACKAGES[0]).__file__).resolve().parents[1]
    files = sorted(p for name in PACKAGES for p in (root / name).rglob("*.py"))
    return f"{_hash_files(files, root)}-sk{sklearn.__version__}"


def _own_source(estimator) -> str:
    """A hash of the file defining the estimator's class, for a class outside kgraph's
    packages and scikit-learn (a user's own classifier: editing it makes new cells)."""
    module = type(estimator).__module__
    if module.split(".")[0] in (*PACKAGES, "sklearn"):
        return ""
    try:
        path = Path(inspect.getfile(type(estimator))).resolve()
    except (TypeError, OSError):
        return ""
    return "-" + _hash_files([path], path.parent)


def estimator_key(estimator, version: str) -> str:
    """The store key of an unfitted estimator under a code version."""
    import joblib

    return f"{joblib.hash(estimator)[:16]}-{version}{_own_source(estimator)}"


def split_models(text: str, names: Sequence[str]) -> list[str]:
    """Split ``--models`` at its commas, except commas inside an option's value (a piece
    that does not start with a model name or ``module:Class`` continues the previous one).

    Examples
    --------
    >>> split_models("tan,ktan --k 1,2, kdb", ["tan", "ktan", "kdb"])
    ['tan', 'ktan --k 1,2', 'kdb']
    """
    out: list[str] = []
    for piece in text.split(","):
        first = piece.split()[0] if piece.split() else ""
        if out and first not in names and ":" not in first:
            out[-1] += "," + piece.strip()
        else:
            out.append(piece.strip())
    return [p for p in out if p]


class _SpecParser(argparse.ArgumentParser):
    """``kgraph learn``'s parser, raising ValueError instead of exiting."""

    def error(self, message: str) -> None:
        raise ValueError(message)


def _learn_parser() -> argparse.ArgumentParser:
    from viz.cli import learn

    root = _SpecParser(prog="kgraph compare --models", add_help=False)
    learn.register(root.add_subparsers(dest="command"))
    return root


def _from_spec(spec: str, tokens: list[str], random_state: int):
    """The estimator of a ``kgraph learn`` model spec (the parser refuses a model option
    the model does not take)."""
    from viz.cli import learn

    parser = _learn_parser()
    base = ["learn", "DATA", "--model", tokens[0], "--out", "-"]
    try:
        args = parser.parse_args([*base, *tokens[1:]])
    except ValueError as exc:
        raise ValueError(f"model {spec!r}: {exc}") from exc
    default = parser.parse_args(base)
    allowed = {*learn.model_options(), "feature_types"}
    other = [k for k, v in vars(args).items() if k not in allowed and v != getattr(default, k)]
    if other:
        raise ValueError(f"model {spec!r}: {', '.join('--' + k.replace('_', '-') for k in other)}"
                         " is not a model option (give it to kgraph compare itself)")
    args.random_state, args.quiet = random_state, True
    return learn.MODELS[tokens[0]].build(args)


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _from_import(spec: str, tokens: list[str], random_state: int):
    """The estimator of ``package.module:Class [name=value ...]``."""
    module_name, _, class_name = tokens[0].partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"model {spec!r}: cannot import {class_name!r} from "
                         f"{module_name!r} ({exc})") from exc
    params = {}
    for token in tokens[1:]:
        name, equals, value = token.partition("=")
        if not equals:
            raise ValueError(f"model {spec!r}: expected name=value after the class, got "
                             f"{token!r}")
        params[name] = _literal(value)
    try:
        estimator = cls(**params)
    except TypeError as exc:
        raise ValueError(f"model {spec!r}: {exc}") from exc
    for method in ("fit", "predict_proba"):
        if not callable(getattr(estimator, method, None)):
            raise ValueError(f"model {spec!r}: {class_name} has no {method} method (a "
                             "scikit-learn classifier with predict_proba is needed)")
    if "random_state" in estimator.get_params() and "random_state" not in params:
        estimator.set_params(random_state=random_state)
    return estimator


def parse_models(models: Sequence[str] | Mapping[str, Any], *, baselines: bool = True,
                 best: bool = False, random_state: int = 0) -> list[Model]:
    """The models of a comparison, in order: the given ones, the nested-CV best, the
    baselines.

    Parameters
    ----------
    models : sequence of str or mapping of label to estimator
        Specs (see the module docstring) or estimator objects under their labels.
    baselines : bool, default=True
        Add LR, HGB and mixed NB (:func:`estimators.learning.baseline_classifiers.baselines`).
    best : bool, default=False
        Add :data:`BEST`, the model with the lowest inner-CV log-loss among ``models``.
    random_state : int, default=0
        The seed of every model that has one.

    Raises
    ------
    ValueError
        No model, a label given twice, an unknown model or option, a class that cannot be
        imported or is not a classifier.

    Examples
    --------
    >>> [m.label for m in parse_models(["tan --alpha 0.5"], baselines=False)]
    ['tan --alpha 0.5']
    >>> parse_models(["tan --alpha 0.5"])[0].estimator.alpha
    0.5
    """
    from viz.cli import learn

    out: list[Model] = []
    version = code_version()
    items = (models.items() if isinstance(models, Mapping)
             else ((" ".join(shlex.split(s)), None) for s in models))
    for label, given in items:
        if given is not None:
            estimator, kind = given, "object"
        else:
            tokens = shlex.split(label)
            if not tokens:
                raise ValueError("an empty model spec")
            if tokens[0] in learn.MODELS:
                estimator, kind = _from_spec(label, tokens, random_state), "spec"
            elif ":" in tokens[0]:
                estimator, kind = _from_import(label, tokens, random_state), "import"
            else:
                raise ValueError(f"model {label!r}: {tokens[0]!r} is neither a kgraph model "
                                 f"({', '.join(learn.MODELS)}) nor package.module:Class")
        out.append(Model(label, estimator, kind, estimator_key(estimator, version)))
    if not out:
        raise ValueError("no model to compare")
    if best:
        from estimators.learning.best_of import BestOfClassifier

        if len(out) < 2:
            raise ValueError("--best chooses among the given models: give at least 2")
        chooser = BestOfClassifier([(m.label, m.estimator) for m in out], random_state)
        out.append(Model(BEST, chooser, "best", estimator_key(chooser, version),
                         "BestOfClassifier: on each training part, the given model with the "
                         "lowest inner 5-fold CV log-loss, refitted"))
    if baselines:
        from estimators.learning.baseline_classifiers import DESCRIPTIONS
        from estimators.learning.baseline_classifiers import baselines as make

        out += [Model(name, e, "baseline", estimator_key(e, version), DESCRIPTIONS[name])
                for name, e in make(random_state).items()]
    labels = [m.label for m in out]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise ValueError(f"model {twice[0]!r} is given twice")
    return out
