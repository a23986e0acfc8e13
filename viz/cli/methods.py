"""What a methods section needs from a ``kgraph learn`` run, for ``report.md``.

* the class node named after the target column (:func:`rename_class`), in the figure, the
  GraphML/JSON files and the report;
* a baseline on the same folds: always predicting the majority class, with the training
  folds' class frequencies as probabilities (:func:`baseline_summary`), and a warning when
  the model does worse on accuracy or log-loss;
* the model selection of ``"auto"`` options (the chosen value and the inner
  cross-validation table ``cv_results_``);
* the score the structure search actually used (its class and feature family);
* each feature's parents with the family score, and the backbone with its method.

:func:`add_options` adds ``--figure-width`` to ``kgraph learn``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from kgraph import GraphDB
from viz._markdown import markdown_table

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["add_options", "baseline_lines", "baseline_summary", "figure_width", "method_lines",
           "rename_class"]


def figure_width(text: str) -> str | float:
    """``--figure-width`` / ``--width``: ``column``, ``page`` or inches.

    Examples
    --------
    >>> figure_width("column"), figure_width("5.5")
    ('column', 5.5)
    """
    from viz.style import PAPER_WIDTHS, paper_width

    try:
        inches = paper_width(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text if text in PAPER_WIDTHS else inches


def add_options(p: argparse.ArgumentParser) -> None:
    """``--figure-width`` and ``--overview`` of ``kgraph learn``."""
    p.add_argument("--figure-width", type=figure_width, default="page", metavar="WIDTH",
                   help="width of structure.pdf/.png: 'column' (3.5 in), 'page' (7.0 in, the "
                        "default) or inches; text is 7 pt at that size")
    p.add_argument("--overview", action="store_true",
                   help="draw structure.pdf/.png as an unlabelled overview (dots and lines)")


def rename_class(graph: GraphDB, name: Any) -> GraphDB:
    """The graph with its ``kind="class"`` node renamed ``name`` (the target column) and the
    ``target`` attribute set; unchanged when ``name`` is already a node of another kind.

    Examples
    --------
    >>> g = GraphDB(directed=True, attrs={"target": "class"})
    >>> g.add_node("class", kind="class")
    >>> g.add_edge("class", "bill", kind="class-edge")
    >>> h = rename_class(g, "species")
    >>> h.attrs["target"], h.nodes(kind="class"), h.edges()
    ('species', ['species'], [('species', 'bill')])
    """
    import networkx as nx

    classes = graph.nodes(kind="class")
    if len(classes) != 1 or classes[0] == name or name in graph:
        return graph
    g = nx.relabel_nodes(graph.to_networkx(), {classes[0]: name}, copy=True)
    g.graph["target"] = name
    return GraphDB.from_networkx(g, backend=graph.backend)


def baseline_summary(X, y, folds: int, random_state: int) -> dict[str, dict[str, float]]:
    """The metrics of always predicting the majority class (probabilities: the training
    folds' class frequencies) on the folds the model was scored on."""
    from sklearn.dummy import DummyClassifier

    from estimators.learning.evaluation import fold_metrics, summarise

    return summarise(fold_metrics(DummyClassifier(strategy="prior"), X, y, n_splits=folds,
                                  random_state=random_state))


def baseline_lines(summary: dict, baseline: dict, majority: Any) -> tuple[list[str], list[str]]:
    """Report lines of the baseline and the warnings (also for stderr) when the model does
    worse than it on accuracy or log-loss.

    Examples
    --------
    >>> model = {"accuracy": {"mean": 0.739}, "log_loss": {"mean": 0.61}}
    >>> base = {"accuracy": {"mean": 0.754}, "log_loss": {"mean": 0.56}}
    >>> lines, warnings = baseline_lines(model, base, "no")
    >>> warnings[0]
    "the model's accuracy (0.7390) is below the majority-class baseline's (0.7540)"
    """
    acc, loss = baseline["accuracy"]["mean"], baseline["log_loss"]["mean"]
    lines = [f"- baseline on the same folds: always the majority class (`{majority}`), with the "
             f"training folds' class frequencies as probabilities: accuracy {acc:.4f}, "
             f"log-loss {loss:.4f}"]
    warnings = []
    if summary["accuracy"]["mean"] < acc:
        warnings.append(f"the model's accuracy ({summary['accuracy']['mean']:.4f}) is below "
                        f"the majority-class baseline's ({acc:.4f})")
    if summary["log_loss"]["mean"] > loss:
        warnings.append(f"the model's log-loss ({summary['log_loss']['mean']:.4f}) is above "
                        f"the majority-class baseline's ({loss:.4f})")
    lines += [f"- **warning: {w}**" for w in warnings]
    return lines, warnings


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return "all features" if value is None else str(value)


def selection_lines(model) -> list[str]:
    """The chosen value of each ``"auto"`` option and the inner cross-validation table."""
    table = getattr(model, "cv_results_", None)
    if not table:
        return []
    import numpy as np

    skip = {"fold_log_loss", "n_folds", "rule"}
    keys = [k for k in table if k not in skip]
    params = [k for k in keys if not k.endswith("_log_loss")]
    n = len(table[keys[0]])
    chosen = {k: getattr(model, f"{k}_", None) for k in params}
    folds = table.get("n_folds", "?")
    rule = {"one-se": "within one standard error of the smallest mean log-loss, the first "
                      "(simplest) candidate", "min": "the smallest mean log-loss"}.get(
        table.get("rule", "min"), table.get("rule"))
    lines = ["", "## Model selection (inner cross-validation)", "",
             f"Chosen by the mean log-loss ({rule}) of a stratified "
             f"{folds}-fold cross-validation inside the training data: "
             + ", ".join(f"{k} = {_cell(v)}" for k, v in chosen.items()) + " (std: the sample "
             "standard deviation over the inner folds, ddof = 1).", ""]
    rows = []
    for i in range(n):
        row = [table[k][i] for k in keys]
        values = [_cell(float(v) if isinstance(v, np.floating) else v) for v in row]
        mark = "✓" if all(_same(table[k][i], chosen[k]) for k in params) else ""
        rows.append([*values, mark])
    align = "l" * len(params) + "r" * (len(keys) - len(params)) + "l"
    return lines + markdown_table([*keys, "chosen"], rows, align)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return str(a) == str(b)


#: what the family scores of each built-in structure score measure (report.md)
SCORE_UNITS = {
    "cmi": "nats: the class-conditional mutual information I(X_v; X_pa | class)",
    "js-cmi": "nats: the class-conditional mutual information I(X_v; X_pa | class), "
              "James-Stein estimate",
    "gaussian-copula": "nats: the class-conditional mutual information of the Gaussian copula",
    "kde": "nats: the class-conditional mutual information of kernel density estimates",
    "bic": "nats: the log-likelihood gain of the parents less the BIC penalty "
           "(free parameters / 2 · ln n)",
    "bdeu": "nats: the gain of the log BDeu marginal likelihood",
}


def score_lines(model) -> list[str]:
    """The structure score actually used: its registry name, class and feature family."""
    name = type(model).__name__
    types = getattr(model, "feature_types_", {}) or {}
    counts = {t: list(types.values()).count(t) for t in ("continuous", "categorical")}
    mix = ", ".join(f"{n} {t}" for t, n in counts.items() if n)
    if hasattr(model, "family_") and hasattr(model, "hyperedge_scores_"):  # (k-)TAN
        from estimators.scores import make_score

        score, family = getattr(model, "structure_score_", "cmi"), model.family_
        if isinstance(score, str):
            try:
                obj = make_score(score, family)
            except (ValueError, TypeError):
                obj = None
            what = f"`{score}`: `{type(obj).__name__}`" if obj is not None else f"`{score}`"
        else:
            what = f"`{type(score).__name__}` (given as an object)"
        units = SCORE_UNITS.get(score, "the score's own units") if isinstance(score, str) \
            else "the score's own units"
        return ["", "## Structure score", "",
                f"- {what}, the score of the {family} feature family ({mix or 'no'} "
                f"features); family scores below are in {units}"]
    if name == "KGNBClassifier":
        given = getattr(model, "structure_score", None)
        if given is not None:
            what = f"`{given}` (the researcher's score, on the continuous features)"
        elif getattr(model, "rooted_", False):
            what = ("`MixedScore`: the conditional-Gaussian score of the dependence model "
                    f"`{model.dependence}` on a mixed table")
        else:
            what = (f"the class-conditional mutual information of the dependence model "
                    f"`{model.dependence}`")
        return ["", "## Structure score", "", f"- {what} ({mix or 'no'} features)"]
    if name == "GNBClassifier":
        return ["", "## Structure score", "",
                f"- pair dependence `{model.dependence}`: I(X_i; X_j | class) of each feature "
                f"pair under that model ({mix or 'no'} features), in nats"]
    return []


def parents_lines(model, graph: GraphDB) -> list[str]:
    """Each feature's parents (the class not listed) and its family score when stored."""
    attrs = dict(graph.nodes(data=True))
    target = graph.attrs.get("target")
    kind = graph.attrs.get("structure")
    if kind in ("AcyclicKTree", "ParentSetDAG"):
        rows = []
        for v in model.structure_.order:
            a = attrs.get(v, {})
            parents = a.get("parents")
            if parents is None:
                parents = ", ".join(map(str, model.structure_.parents(v)))
            score = a.get("clique_score")
            shown = a.get("clique_score_note", "") if score is None else f"{float(score):.4f}"
            rows.append((v, parents.replace(",", ", ") or "(none)", shown))
        total = graph.attrs.get("weight")
        total = f"{float(total):.4f}" if total is not None else graph.attrs.get(
            "weight_note", "not written")
        note = ("f(v, pa(v)), the score of the family" if any(r[2] for r in rows) else
                f"not stored by {type(model).__name__} (its total weight: {total})")
        lines = ["", f"## Parents (besides the class `{target}`)", "", f"Family score: {note}.",
                 ""]
        kinds = getattr(model, "factor_kinds_", None) or {}
        if set(kinds.values()) <= {"gaussian", "categorical"}:
            return lines + markdown_table(["feature", "parents", "family score"], rows, "llr")
        lines[3] += (" Factor: its kind under `continuous=` (class-free: p(feature | parents) "
                     "the same in every class, so the class is not its parent in the fitted "
                     "model).")
        return lines + markdown_table(["feature", "parents", "family score", "factor"],
                                      [(*row, kinds.get(row[0], "")) for row in rows], "llrl")
    if kind == "GNBJunctionTree":
        lines = ["", f"## Parents (besides the class `{target}`)", "",
                 "Each feature's mother in the GNB tree; the score is the edge's I(X_i; X_j | "
                 "class) in nats.", ""]
        rows = [(v, u, f"{float(a['weight']):.4f}" if "weight" in a else a.get("weight_note", ""),
                 "yes" if a.get("in_use", True) else "no")
                for u, v, a in graph.edges(kind="tree", data=True)]
        return lines + markdown_table(["feature", "mother", "score", "cluster in use"], rows,
                                      "llrl")
    return []


def backbone_lines(model) -> list[str]:
    """The backbone path kept by the backbone DP and the method that chose it."""
    search = getattr(model, "search_", getattr(model, "search", None))
    if search is None:
        return []
    kept = getattr(model, "backbone_", None)
    given = getattr(model, "backbone", None)
    if given is None:
        method = ("none (the exact maximum spanning tree)" if getattr(model, "k_", 2) == 1
                  and search != "backbone-dp" else "mst-dfs (the default)")
    elif isinstance(given, str):
        method = given
    else:
        method = "given by the user"
    lines = ["", "## Search and backbone", "", f"- searcher: `{search}`"]
    if search == "backbone-dp" or kept:
        lines.append(f"- backbone method: {method}")
    if kept:
        lines.append(f"- backbone ({len(kept)} features): {' - '.join(map(str, kept))}")
    elif search == "backbone-dp":
        lines.append("- backbone: not stored on the fitted model")
    return lines


def fold_choice_lines(choices: list[dict]) -> list[str]:
    """What each outer fold's model chose by its own inner cross-validation (the metrics
    are those of these choices, not of the final fit's alone).

    Examples
    --------
    >>> fold_choice_lines([{"k": 2}, {"k": 1}, {"k": 2}])[1:]
    ['- k chosen in each outer fold: fold 1: 2, fold 2: 1, fold 3: 2 (k = 1 in 1 of 3 folds, k = 2 in 2)', '']
    >>> fold_choice_lines([{}, {}])
    []
    """
    keys = list(dict.fromkeys(k for c in choices for k in c))
    lines = []
    for key in keys:
        values = [c.get(key) for c in choices]
        counts = {v: values.count(v) for v in dict.fromkeys(values)}
        tally = ", ".join(f"{key} = {_cell(v)} in {n}" + (f" of {len(values)} folds" if i == 0
                                                             else "")
                          for i, (v, n) in enumerate(sorted(counts.items(), key=lambda t: str(t[0]))))
        lines.append(f"- {key} chosen in each outer fold: "
                     + ", ".join(f"fold {f}: {_cell(v)}" for f, v in enumerate(values, start=1))
                     + f" ({tally})")
    return ["", *lines, ""] if lines else []


def discriminative_lines(model) -> list[str]:
    """The penalty (and centre, scale) the discriminative parameters were fitted with, and
    whether inner cross-validation chose them."""
    fitted = getattr(model, "discriminative_", None)
    if fitted is None:
        return []
    spec, info = fitted.spec, fitted.info
    lines = ["", "## Parameters (discriminative)", "",
             "- fitted by maximising the conditional log-likelihood of the class with the "
             f"penalty (λ/2)‖w‖²: λ = {_cell(float(spec.l2))}, shrunk towards "
             f"`{spec.centre}`, scale {_cell(spec.scale)}, form `{spec.form}`"]
    tried = info.get("cv")
    if tried:
        best = min(tried, key=tried.get)
        lines.append(f"- chosen among {len(tried)} (centre, scale, λ) settings by inner "
                     f"cross-validated log-loss ({tried[best]:.4f} at the choice)")
    if "n_iter" in info:
        lines.append(f"- L-BFGS: {info['n_iter']} iterations, "
                     + ("converged" if info.get("converged") else
                        f"not converged ({info.get('message', '')})"))
    return lines


def export_lines(model) -> list[str]:
    """How a discriminative discrete network classifier exports: the equivalent Bayesian
    network (``kgraph export``) and the number of edges it adds to close parent sets."""
    if getattr(model, "discriminative_", None) is None:
        return []
    from estimators.network.export.pgmpy_network import continuous_features, is_network_classifier

    if not is_network_classifier(model) or continuous_features(model):
        return []
    from estimators.network.export.pgmpy_network import network_tables

    edges = network_tables(model).closing_edges
    listed = "".join(f" `{q}` -> `{p}`;" for q, p in edges).rstrip(";")
    return ["", "## Export", "",
            "- `kgraph export --to pgmpy|bif|xmlbif|uai|xdsl|net` writes the equivalent "
            "Bayesian network of the discriminative parameters (MATH.md §10.1): its posterior "
            "is `predict_proba` on complete rows",
            f"- closing edges added to the learned structure: {len(edges)}"
            + (f" ({listed.strip()})" if edges else "")]


def method_lines(model, graph: GraphDB, choices: list[dict] = ()) -> list[str]:
    """Model selection (the final fit's, and what each outer fold's model chose:
    ``choices``), structure score, search and backbone, parents and discriminative
    parameters and their export, for report.md."""
    selection, folds = selection_lines(model), fold_choice_lines(list(choices))
    if folds and not selection:
        selection = ["", "## Model selection (inner cross-validation)"]
    return (selection + folds + score_lines(model) + backbone_lines(model)
            + parents_lines(model, graph) + discriminative_lines(model) + export_lines(model))


def majority_class(y: pd.Series) -> Any:
    """The most frequent class (the first in sorted order on ties)."""
    counts = y.value_counts()
    return sorted(counts[counts == counts.max()].index, key=str)[0]
