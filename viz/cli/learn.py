"""``kgraph learn``: learn a structure from a CSV file or a built-in data set.

Writes to ``--out``: the structure (``structure.graphml``, ``structure.json``), the fitted
model (``model.joblib``), cross-validated metrics (``metrics.json``, ``metrics.csv``), the
structure figure (``structure.pdf``, ``structure.png``) and a short ``report.md``.

Results come before figures: structure, model, metrics and report are written first. The
figure is the labelled structure at every width (with ``--overview``: an unlabelled overview
of the whole structure; the report says which figure it is). If drawing fails the results stay,
the report says so, one ``warning:`` line goes to stderr and the exit status is still 0.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from viz._markdown import markdown_table
from viz.cli import confidence, engine, methods, outputs, paths, provenance, report, runs, table
from viz.cli import folds as folds_check
from viz.cli.clock import Clock
from viz.cli.commands import CommandError

if TYPE_CHECKING:
    import pandas as pd

    from estimators.template.family_registry import Family
    from viz.cli.table import TableNotes


@dataclass(frozen=True)
class ModelSpec:
    """How ``--model NAME`` maps to an estimator: a family of the registry
    (:mod:`estimators.template.family_registry`); its model options are the estimator's
    declared parameters that have a command-line flag (:mod:`estimators.base.parameters`)."""

    family: Family

    @property
    def title(self) -> str:
        return self.family.title

    def estimator_class(self) -> type:
        return self.family.cls

    @property
    def options(self) -> tuple[str, ...]:
        """The model options it takes (its parameters with a flag), in ``__init__`` order."""
        return self.family.options

    def build(self, args: argparse.Namespace):
        """The estimator the parsed ``args`` ask for (the parser refused the model options
        it does not take)."""
        estimator = self.estimator_class()
        kwargs = {name: getattr(args, name) for name in (*self.options, "feature_types")
                  if getattr(args, name, None) is not None}
        if "backbone" in kwargs and "search" in self.options and "search" not in kwargs:
            kwargs["search"] = "backbone-dp"  # a backbone is kept by the backbone DP
        kwargs["verbose"] = not getattr(args, "quiet", False)  # --quiet: no bars in fit
        if "random_state" in inspect.signature(estimator).parameters:  # EM, inner CV, ...
            kwargs["random_state"] = getattr(args, "random_state", 0)
        return estimator(**kwargs)


class _Models(Mapping):
    """``kgraph learn``'s models: name -> :class:`ModelSpec` of every family of the registry
    that the command line fits, read when used (so a family registered later is one too)."""

    def _specs(self) -> dict[str, ModelSpec]:
        from estimators.template.family_registry import families

        return {f.name: ModelSpec(f) for f in families(command_line=True)}

    def __getitem__(self, name: str) -> ModelSpec:
        return self._specs()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs())

    def __len__(self) -> int:
        return len(self._specs())


#: ``--model NAME`` -> its :class:`ModelSpec`, from the family registry
MODELS: Mapping[str, ModelSpec] = _Models()


def model_flags() -> dict[str, list[tuple[str, Any]]]:
    """Each model option (a declared parameter with a flag) and the ``(model, Flag)`` of
    every model that takes it, in the order of :data:`MODELS` and of the declarations."""
    from estimators.base.parameters import declared_parameters

    flags: dict[str, list[tuple[str, Any]]] = {}
    for model, spec in MODELS.items():
        for p in declared_parameters(spec.estimator_class()):
            if p.flag is not None:
                flags.setdefault(p.name, []).append((model, p.flag))
    return flags


def model_options() -> tuple[str, ...]:
    """Every model option of some model (each model takes only its own)."""
    return tuple(model_flags())


def refused_options(args: argparse.Namespace) -> str | None:
    """Why the model options given in ``args`` do not fit ``--model``, naming the models
    that take each, or None when they fit: the parser's check, so a model never silently
    ignores what was asked.

    Examples
    --------
    >>> print(refused_options(argparse.Namespace(model="aode", k=2)))
    --k does not apply to --model aode (its model options: --alpha, --max-cells, --smoothing, --hdp-iterations, --hdp-burn-in, --hdp-tying, --discretize); the models that take --k: ktan
    """
    model = getattr(args, "model", None)
    if model not in MODELS:
        return None
    takes = MODELS[model].options
    other = {name: [m for m, _ in takers] for name, takers in model_flags().items()
             if name not in takes and getattr(args, name, None) is not None}
    if not other:
        return None
    verb = "does" if len(other) == 1 else "do"
    return (f"{', '.join(map(_flag, other))} {verb} not apply to --model {model} (its model "
            f"options: {', '.join(map(_flag, takes)) or 'none'}); the models that take "
            + "; ".join(f"{_flag(name)}: {', '.join(models)}" for name, models in other.items()))


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """The ``kgraph learn`` model options, built from the estimators' declarations: one
    option per declared parameter with a flag; its help starts with the models that take
    it (one text per distinct help)."""
    g = parser.add_argument_group(
        "model options (each model uses its own; defaults are the model's)")
    for name, takers in model_flags().items():
        first = takers[0][1]
        if any((f.type, f.choices, f.listed) != (first.type, first.choices, first.listed)
               for _, f in takers):
            raise ValueError(f"the declarations of {name!r} give {_flag(name)} different "
                             "types or choices")
        helps: dict[str, list[str]] = {}
        for model, flag in takers:
            helps.setdefault(flag.help, []).append(model)
        kwargs: dict[str, Any] = {"help": "; ".join(f"{', '.join(models)}: {text}"
                                                    for text, models in helps.items())}
        if first.type is not None:
            kwargs["type"] = _text_option(first.type)
        action = g.add_argument(_flag(name), **kwargs)
        if first.choices is not None:
            extra = tuple(dict.fromkeys(e for _, f in takers for e in f.extra))
            _choices(action, first.choices, extra)
        if first.listed is not None:
            action.methods = RegistryChoices(first.listed)  # read only when help is printed


def _text_option(parse):
    """``parse`` as an argparse type: its ValueError message becomes the option's error."""
    def option(text: str):
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    option.__name__ = getattr(parse, "__name__", "value")
    return option


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def registries() -> dict[str, list[str]]:
    """The registry behind each option with a fixed set of values (its ``choices``)."""
    from estimators.columns import DISCRETIZERS
    from estimators.columns.feature_families import FEATURE_FAMILIES
    from estimators.discriminative import PARAMETERS
    from estimators.gnb import DEPENDENCES
    from estimators.latent import FAMILIES, PRIORS
    from estimators.scores import score_names
    from estimators.search import BACKBONE_METHODS, searcher_names
    from estimators.semiparametric import KINDS

    return {"model": sorted(MODELS), "dependence": list(DEPENDENCES),
            "search": searcher_names(), "backbone": list(BACKBONE_METHODS),
            "features": list(FEATURE_FAMILIES), "prior": list(PRIORS),
            "family": list(FAMILIES), "score": score_names(),
            "parameters": list(PARAMETERS), "continuous": list(KINDS),
            "discretize": list(DISCRETIZERS)}


class RegistryChoices(Sequence):
    """The ``choices`` of an option, read from its registry when argparse first uses them
    (checking a value, or printing ``kgraph learn --help``), so that building the parser,
    and so ``kgraph --help``, imports no estimator (nor scikit-learn or SciPy).

    Examples
    --------
    >>> search = RegistryChoices("search")
    >>> "backbone-dp" in search, str(RegistryChoices("model", extra=("x",))).endswith(" | x")
    (True, True)
    """

    def __init__(self, key: str, extra: tuple[str, ...] = ()) -> None:
        self.key, self.extra = key, extra

    def _values(self) -> list[str]:
        return [*registries()[self.key], *self.extra]  # not cached: a registration counts

    def __getitem__(self, index):
        return self._values()[index]

    def __len__(self) -> int:
        return len(self._values())

    def __iter__(self) -> Iterator[str]:
        return iter(self._values())

    def __contains__(self, value: object) -> bool:
        return value in self._values()

    def __str__(self) -> str:
        return " | ".join(self._values())


def _choices(action: argparse.Action, key: str, extra: tuple[str, ...] = ()) -> None:
    """Give ``action`` the values of a registry as its choices, set after ``add_argument``
    (which would list them at once to check the metavar)."""
    action.choices = RegistryChoices(key, extra)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``learn`` sub-command."""
    p = sub.add_parser(
        "learn", help="learn a structure and a classifier from data",
        description="Learn the structure of a Naive-Bayes-family classifier from a CSV file or a "
                    "built-in data set ('kgraph datasets' lists them), cross-validate it, and "
                    "write the structure (GraphML, JSON), the model (joblib), the metrics, the "
                    "structure figure and a markdown report to --out.")
    p.add_argument("data", help="a CSV file (features and a target column) or a data set name")
    p.add_argument("--target", default="class", help="the class column (default: class)")
    _choices(p.add_argument("--model", required=True, help="which model"), "model")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument("--cv", type=int, default=5, help="stratified cross-validation folds (5)")
    p.add_argument("--random-state", type=int, default=0,
                   help="seed of every random step: the folds, the model's own (EM starts, "
                        "inner cross-validation, tests' permutations) and --bootstrap (0)")
    p.add_argument("--sep", type=table.sep_option,
                   help="CSV: the column separator, one character or 'tab' (default: detected "
                        "among , ; tab |)")
    p.add_argument("--decimal", type=table.decimal_option,
                   help="CSV: the decimal mark, . or , (default: detected; ',' only with a "
                        "separator other than ',')")
    p.add_argument("--encoding", help="CSV: the file's text encoding, e.g. utf-8, cp1252, "
                   "latin-1 (default: UTF-8, and cp1252 with a warning where the file is "
                   "not UTF-8)")
    p.add_argument("--feature-types", type=report.feature_types_option,
                   metavar="COL=TYPE,...", help="column types that override the automatic "
                   "rule: continuous or categorical (every model)")
    confidence.add_options(p)
    engine.add_options(p)
    outputs.add_options(p)
    methods.add_options(p)
    p.set_defaults(run=run_learn)
    p.__class__ = _with_model_options(type(p))


def _with_model_options(base: type) -> type:
    """``base`` (the sub-command's parser class) adding the model options when first used:
    they come from the estimators' declarations, so ``kgraph --help`` imports none."""

    class LearnParser(base):
        def _model_options(self) -> None:
            if not getattr(self, "_model_options_added", False):
                self._model_options_added = True
                add_model_options(self)

        def parse_known_args(self, *args, **kwargs):
            self._model_options()
            namespace, rest = super().parse_known_args(*args, **kwargs)
            refused = refused_options(namespace)
            if refused:
                self.error(refused)
            return namespace, rest

        def format_help(self) -> str:
            self._model_options()
            return super().format_help()

        def format_usage(self) -> str:
            self._model_options()
            return super().format_usage()

    LearnParser.__name__ = LearnParser.__qualname__ = f"Learn{base.__name__}"
    return LearnParser


def load_data(data: str, target: str, sep: str | None = None, decimal: str | None = None,
              keep: Sequence[str] = (), encoding: str | None = None
              ) -> tuple[pd.DataFrame, pd.Series, str, TableNotes | None]:
    """``(X, y, name, notes)`` from a CSV path or a built-in name: a CSV is read with its
    encoding, separator and decimal mark and prepared by :func:`viz.cli.table.prepare` (unlabelled
    rows dropped, identifier columns not in ``keep`` left out; ``notes`` says what was
    done; None for a built-in data set); every problem is a CommandError."""
    from estimators.datasets import dataset_target, list_datasets, load_dataset

    path = Path(data)
    if path.suffix.lower() == ".csv" or path.exists():
        if not path.is_file():
            raise CommandError(f"cannot read {data}: no such file")
        frame, notes = table.read_csv(path, sep, decimal, encoding)
        X, y, notes = table.prepare(frame, target, data, set(keep), notes)
        return X, y, path.stem, notes
    if data not in list_datasets():
        raise CommandError(f"{data!r} is neither a CSV file nor a built-in data set "
                           f"({', '.join(list_datasets())})")
    if target not in ("class", dataset_target(data)):
        raise CommandError(f"the class of the built-in data set {data} is "
                           f"{dataset_target(data)!r}, not {target!r}")
    X, y = load_dataset(data)
    return X, y, data, None


def target_column(data: str, target: str) -> str:
    """The name of the class column: ``--target`` for a CSV file, the data set's own class
    column for a built-in data set."""
    from estimators.datasets import dataset_target, list_datasets

    path = Path(data)
    if path.suffix.lower() == ".csv" or path.exists() or data not in list_datasets():
        return target
    return dataset_target(data)


def learned_structure(model):
    """The kgraph structure of a fitted model."""
    for name in ("structure_", "plate_"):
        if hasattr(model, name):
            return getattr(model, name)
    plate = getattr(model, "plate_graph", None)
    if callable(plate):
        return plate()
    raise CommandError(f"{type(model).__name__} exposes no structure")


def run_learn(args: argparse.Namespace) -> int:
    import joblib

    from estimators.learning.evaluation import fold_metrics, summarise

    paths.check_output_folder(args.out)  # before any work: a run never dies writing
    if engine.ENGINES[args.engine] is not None:  # e.g. dask: a Parquet/CSV glob on a cluster
        return engine.ENGINES[args.engine](args)
    if args.cv < 2:
        raise CommandError(f"--cv must be at least 2; got {args.cv}")
    X, y, name, notes = load_data(args.data, args.target, args.sep, args.decimal,
                                  keep=list(args.feature_types or {}), encoding=args.encoding)
    report.check_feature_types(args.feature_types, X)
    fold_notes = folds_check.check_folds(y, args.cv, args.data)
    spec = MODELS[args.model]
    model = spec.build(args)
    clock = Clock()
    with outputs.run_context(args.quiet, replaced=folds_check.REPLACED) as log:
        for note in fold_notes:
            log.note(note)
        try:
            choices: list[dict] = []
            folds, caught = fold_metrics(model, X, y, n_splits=args.cv,
                                         random_state=args.random_state, n_jobs=args.n_jobs,
                                         verbose=not args.quiet, record_warnings=True,
                                         choices=choices)
            for fold, records in enumerate(caught, start=1):
                log.add(f"fold {fold}", records)
            with log.recording("final fit"):
                model.fit(X, y)
        except (ValueError, TypeError) as exc:
            raise CommandError(folds_check.explain_failure(str(exc).splitlines()[0], y,
                                                           args.cv)) from exc
        timing = clock.stop()
        with log.recording("bootstrap"):
            conf = confidence.bootstrap(args, model, X, y)
        with log.recording("baseline"):
            baseline = methods.baseline_summary(X, y, args.cv, args.random_state)
        summary = summarise(folds)
        lines, warned = methods.baseline_lines(summary, baseline, methods.majority_class(y))
        for warning in warned:
            log.note(warning)
    structure = learned_structure(model)
    prov = provenance.provenance(args, X, y)

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    graph = outputs.write_structure(model, conf, out, target_column(args.data, args.target))
    joblib.dump(model, out / "model.joblib")
    (out / "metrics.json").write_text(json.dumps(
        {"data": name, "model": args.model, "params": _params(model), "cv_folds": args.cv,
         **prov, "std": STD_NOTE, "metrics": finite_or_null(summary)}, indent=2,
        allow_nan=False))
    folds.rename_axis("fold").to_csv(out / "metrics.csv")
    width = (f"{args.figure_width} width" if isinstance(args.figure_width, str)
             else f"{args.figure_width:g} in wide")
    figure = (f"an overview: the whole structure without labels ({width}, --overview)"
              if args.overview else f"the labelled structure ({width})")
    text = _report(name, X, y, spec, model, _named(structure, graph), summary, args.cv,
                   timing.line(f"fit and {args.cv}-fold cross-validation", args.n_jobs), prov)
    text = text.replace("{baseline}", "\n".join(lines))
    tail = "\n".join(methods.method_lines(model, graph, choices) + report.data_lines(X, model)
                     + confidence.report_lines(conf)
                     + (notes.report_lines(args.target) if notes else []))
    (out / "report.md").write_text(text.replace("{figure}", figure) + tail
                                   + "\n".join(log.report_lines()))
    failure = _draw(model, structure, out, conf, args.threshold, args.dpi,
                    overview=args.overview, graph=graph, width=args.figure_width)
    if failure:
        warning = f"the figure was not drawn ({failure}); every other file is written"
        log.note(warning)
        (out / "report.md").write_text(text.replace("{figure}", f"not drawn ({failure})") + tail
                                       + "\n".join(log.report_lines()))
        print(f"warning: {warning}", file=sys.stderr)
    run_id = runs.record(args, name, X, y, _params(model), structure, finite_or_null(summary),
                         conf)
    print(f"wrote {out}/: structure.graphml structure.json model.joblib metrics.json "
          f"metrics.csv {'' if failure else 'structure.pdf structure.png '}report.md"
          + (f"; run {run_id} in {args.store}" if run_id is not None else ""))
    return 0


def _draw(model, structure, out: Path, conf, threshold: float, dpi: int, *,
          overview: bool, graph=None, width: str | float | None = "page") -> str | None:
    """Draw the figure into ``out``: the structure with its class node, the edge
    confidences after a bootstrap, or an overview of a structure too large to label; the
    first line of any error, else None (a figure must never cost the results)."""
    from viz.cli.commands import write_key
    from viz.key import key_caption, key_in_figure
    from viz.overview import plot_overview

    try:
        fig = (plot_overview(structure, width=width) if overview and conf is None
               else outputs.structure_figure(model, structure, conf, threshold, graph, width))
        outputs.save_figures(fig, out, dpi)
    except Exception as exc:  # noqa: BLE001 - a figure must never cost the results
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    note = write_key(fig, out / "structure_key.txt")
    if note:
        print(note)
    if not key_in_figure(fig) and (out / "report.md").is_file():  # the key goes in the caption
        report_text = (out / "report.md").read_text()
        figure_line = "![structure](structure.png)\n"
        (out / "report.md").write_text(report_text.replace(
            figure_line, f"{figure_line}\n{key_caption(fig)} (also in `structure_key.txt`)\n", 1))
    return None


def _named(structure, graph):
    """The structure as the files give it: its class node named as the target column
    (the fitted model calls it ``class`` when the table has no such feature)."""
    from kgraph.structure import structure_from_graph

    try:
        named = structure_from_graph(graph)
    except (ValueError, KeyError, TypeError):
        return structure
    return named if type(named) is type(structure) else structure


def _params(model) -> dict[str, Any]:
    return {k: v if isinstance(v, int | float | str | bool | type(None)) else repr(v)
            for k, v in model.get_params().items()}


#: the standard deviation every table of report.md and metrics.json gives over folds
STD_NOTE = "sample standard deviation over the folds (ddof = 1)"


def _report(name, X, y, spec, model, structure, summary, folds, took, prov) -> str:
    classes = y.value_counts().sort_index()
    lines = [
        f"# {spec.title} on {name}",
        "",
        *provenance.provenance_lines(prov),
        f"- data: {name}, {X.shape[0]} rows, {X.shape[1]} features, {classes.size} classes "
        f"({', '.join(f'{c}: {n}' for c, n in classes.items())})",
        f"- model: `{type(model).__name__}({', '.join(f'{k}={v!r}' for k, v in _params(model).items())})`",
        f"- structure: `{structure!r}`",
        f"- {took}",
        "",
        f"## Cross-validated metrics (stratified {folds}-fold)",
        "",
        f"Mean and std over the {folds} test folds (std: the {STD_NOTE}, here and in every "
        "table of this report).",
        "",
        *markdown_table(["metric", "mean", "std"], [
            (m, _number(v["mean"]), _number(v["std"])) for m, v in summary.items()], "lrr"),
        *_undefined_lines(summary, folds),
        "",
        "{baseline}",
        "",
        "## Structure",
        "",
        "Figure: {figure}.",
        "",
        "![structure](structure.png)",
        "",
    ]
    lines += ["", "Files: `structure.graphml`, `structure.json` (read with "
              "`kgraph.read_structure`), `model.joblib`, `metrics.json`, `metrics.csv`, "
              "`structure.pdf`.", ""]
    return "\n".join(lines)



def finite_or_null(summary: dict) -> dict:
    """``summary`` with each undefined (NaN) mean or std as None: JSON's null, not the
    non-standard ``NaN`` (the report says why each is undefined).

    Examples
    --------
    >>> finite_or_null({"roc_auc_ovr": {"mean": float("nan"), "std": 0.5, "n_folds": 0}})
    {'roc_auc_ovr': {'mean': None, 'std': 0.5, 'n_folds': 0}}
    """
    import math

    return {m: {k: None if isinstance(v, float) and not math.isfinite(v) else v
                for k, v in value.items()} for m, value in summary.items()}


def _number(value: float) -> str:
    import math

    return f"{value:.4f}" if math.isfinite(value) else "undefined"


def _undefined_lines(summary: dict, folds: int) -> list[str]:
    """Why a metric is averaged over fewer folds, or undefined (a test part of one class
    has no ROC AUC)."""
    lines = []
    for metric, value in summary.items():
        used = value.get("n_folds", folds)
        if used < folds:
            lines.append(f"- {metric}: over {used} of the {folds} folds; the test part of "
                         "the others holds a single class, where it is undefined"
                         + (" (so it is undefined here)" if used == 0 else
                            " (std undefined with one fold)" if used == 1 else ""))
    return ["", *lines] if lines else []
