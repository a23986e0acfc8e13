"""The quick subset CI runs on the lowest supported versions (.ci/constraints-lowest.txt):
every package imports, and each family of the registry fits and predicts once on a mixed table with missing
cells (penguins) and on a categorical one (car)."""

import importlib

import numpy as np
import pytest

from estimators import TANClassifier
from estimators.datasets import load_dataset
from estimators.template.family_registry import families

FAMILIES = [f.cls for f in families()]


@pytest.mark.parametrize("package", ["kgraph", "estimators", "viz", "viz.cli"])
def test_imports(package):
    assert importlib.import_module(package).__name__ == package


@pytest.mark.parametrize("table", ["penguins", "car"])
@pytest.mark.parametrize("cls", FAMILIES)
def test_each_family_fits_and_predicts(cls, table):
    X, y = load_dataset(table)
    rows = np.random.default_rng(0).permutation(len(y))[:300]
    X, y = X.iloc[rows], y.iloc[rows]
    clf = cls(random_state=0) if "random_state" in cls().get_params() else cls()
    clf.fit(X, y)
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    pred = clf.predict(X)
    assert (pred == clf.classes_[proba.argmax(axis=1)]).all()
    majority = y.value_counts(normalize=True).iloc[0]
    assert (pred == y.to_numpy()).mean() > majority  # learns more than the class prior


def test_pgmpy_export_gives_the_same_posterior():
    from pgmpy.inference import VariableElimination

    X, y = load_dataset("car")
    clf = TANClassifier().fit(X, y)
    bn = clf.to_pgmpy()
    (target,) = set(bn.nodes()) - set(X.columns)
    for i in (0, 500, 1200):
        row = X.iloc[i]
        q = VariableElimination(bn).query([target], evidence={c: row[c] for c in X.columns},
                                          show_progress=False)
        order = [list(q.state_names[target]).index(c) for c in clf.classes_]
        np.testing.assert_allclose(q.values[order], clf.predict_proba(X.iloc[[i]])[0],
                                   rtol=1e-6)


def test_discriminative_parameters_fit_and_predict():
    """parameters='discriminative' (on the lowest scipy, L-BFGS through
    scipy.optimize.minimize rather than the direct setulb loop of scipy >= 1.15)."""
    X, y = load_dataset("car")
    rows = np.random.default_rng(0).permutation(len(y))[:300]
    X, y = X.iloc[rows], y.iloc[rows]
    clf = TANClassifier(parameters="discriminative").fit(X, y)
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (clf.predict(X) == y.to_numpy()).mean() > 0.85
