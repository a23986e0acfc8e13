"""The recipe "How to add a family" (docs/user_guide/architecture.md), followed by a toy family:
one class, declared and registered, is then a ``kgraph learn`` model with its own options,
passes the conformance checks every family passes, and has its row in the documentation's
family table, with no other edit."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from family_checks import BAD_INPUTS, at_defaults, bad_input_error, registered_classes
from family_checks import two_class_table as table
from sklearn.utils.estimator_checks import check_estimator

from estimators.base.parameters import declare, declared_parameters
from estimators.bnc import KDBClassifier
from estimators.bnc._dag_classifier import DAGNetworkClassifier
from estimators.bnc.kdb import kdb_parents
from estimators.learning.structure_scores import MIN_CELL_ROWS, RIDGE, fit_score
from estimators.template.family_registry import (
    family_names,
    get_family,
    parameter_meanings,
    register_family,
    unregister_family,
)
from kgraph import ParentSetDAG

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
import _api  # noqa: E402


@declare(*(p for p in declared_parameters(KDBClassifier) if p.name not in (
    "max_parents", "hdp_iterations", "hdp_burn_in", "hdp_tying", "random_state")))
class OneDependence(DAGNetworkClassifier):
    """The toy family: each feature has one feature parent, Sahami's rule with k = 1 (step 1
    of the recipe: the rule ``kdb_parents``), declared with kDB's parameters but
    ``max_parents``; step 2: a thin class on the network base that stores its parameters
    and writes ``_fit_dag``."""

    max_parents = 1  # the bound the base's size check reads

    def __init__(self, *, features="auto", alpha=1.0, ess=None, feature_types="auto",
                 var_smoothing=1e-9, feature_selection=None, parameters="generative",
                 verbose=False, continuous="gaussian", max_cells=1_000_000, discretize=None):
        self.discretize = discretize
        self.features = features
        self.alpha = alpha
        self.ess = ess
        self.feature_types = feature_types
        self.var_smoothing = var_smoothing
        self.feature_selection = feature_selection
        self.parameters = parameters
        self.verbose = verbose
        self.continuous = continuous
        self.max_cells = max_cells

    def _fit_dag(self, enc, y_codes, kept, spec, margins, model):
        names = self.feature_names()
        W = np.zeros((len(kept), len(kept)))
        if len(kept) > 1:  # I(X_i; X_j | C) of every pair
            W = np.array(fit_score(model, y_codes, self.classes_, var_smoothing=self.var_smoothing,
                                   ridge=RIDGE, min_cell_rows=MIN_CELL_ROWS,
                                   score="cmi").edge_matrix(), dtype=float)
        np.fill_diagonal(W, -np.inf)
        order, parents = kdb_parents(self.class_information_[kept], W, 1)
        self.structure_ = ParentSetDAG(
            {names[kept[i]]: [names[kept[p]] for p in parents[i]] for i in order},
            target=self.class_node_, max_in_degree=1)
        self._fit_network(enc, y_codes, [kept[i] for i in order],
                          [[kept[p] for p in parents[i]] for i in order], spec, margins)


@pytest.fixture(scope="module")
def toy():
    """The toy registered as ``toy`` (the one step of the recipe that adds it everywhere;
    a family's module writes it as a decorator), for this module's tests."""
    yield register_family("toy", "toy one-dependence kDB (a test's family)")(OneDependence)
    unregister_family("toy")


def test_the_toy_is_a_family_of_the_registry(toy):
    assert get_family("toy").cls is toy and family_names()[-1] == "toy"
    assert parameter_meanings() == []  # its names mean what they mean elsewhere
    assert toy in registered_classes()  # the conformance test's list


def test_the_toy_passes_the_conformance_checks(toy):
    check_estimator(at_defaults(toy))
    X, y = table()
    for case, expected in BAD_INPUTS.items():
        assert expected in bad_input_error(toy, case, X, y), case


def test_the_toy_is_the_same_model_as_kdb_with_one_parent(toy):
    X, y = table()
    np.testing.assert_array_equal(toy().fit(X, y).predict_proba(X),
                                  KDBClassifier(max_parents=1).fit(X, y).predict_proba(X))


def test_kgraph_learn_fits_the_toy_with_its_own_options(toy, tmp_path, capsys):
    from viz.cli import main

    assert main(["learn", "iris", "--model", "toy", "--alpha", "0.5", "--cv", "3",
                 "--quiet", "--out", str(tmp_path / "run")]) == 0
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert metrics["model"] == "toy" and metrics["params"]["alpha"] == 0.5
    assert (tmp_path / "run" / "report.md").read_text().startswith(
        "# toy one-dependence kDB (a test's family) on iris")
    with pytest.raises(SystemExit) as exc:  # an option it does not take: the parser's error
        main(["learn", "iris", "--model", "toy", "--max-parents", "2", "--out", "x"])
    assert exc.value.code == 2
    assert ("--max-parents does not apply to --model toy (its model options: --features, "
            "--alpha, --ess, --parameters, --continuous, --max-cells, --discretize); the models "
            "that take "
            "--max-parents: kdb, ban" in capsys.readouterr().err)


def test_the_docs_family_table_has_the_toy(toy):
    rows = _api.family_table().splitlines()
    assert ("| `OneDependence` | `toy` | toy one-dependence kDB (a test's family) | "
            "`--features`, `--alpha`, `--ess`, `--parameters`, `--continuous`, "
            "`--max-cells`, `--discretize` |") == rows[-1]
