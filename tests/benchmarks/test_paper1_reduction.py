"""Paper 1's reduced-model rule (benchmarks/paper1_reduction.py) against independent
computations: a GNB fitted with ``n_clusters=m`` (both KDE kernels) and a hand-made curve
table. The full-covariance kernel against scipy: tests/estimators/test_kde_full.py."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_wine
from sklearn.metrics import f1_score

from estimators.gnb import GNBClassifier

_DIR = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(_DIR))
_spec = importlib.util.spec_from_file_location("paper1_reduction", _DIR / "paper1_reduction.py")
red = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(red)


@pytest.fixture(scope="module")
def wine_split():
    X, y = load_wine(return_X_y=True, as_frame=True)
    X = X.iloc[:, :6]
    rng = np.random.default_rng(0)
    test = rng.random(len(y)) < 0.3
    return X[~test], y[~test].to_numpy(), X[test], y[test].to_numpy()


@pytest.mark.parametrize(("dependence", "kernel"),
                         [("gaussian", "product"), ("kde", "product"), ("kde", "full")])
def test_prefix_records_equal_gnb_with_n_clusters(wine_split, dependence, kernel):
    Xa, ya, Xb, yb = wine_split
    full = GNBClassifier(dependence=dependence, kernel=kernel).fit(Xa, ya)
    recs = red.model_prefix_records(full, Xa, ya, Xb, yb, "weighted", None)
    assert [r["m"] for r in recs] == [1, 2, 3, 4, 5]
    for r in recs:
        m_model = GNBClassifier(dependence=dependence, kernel=kernel,
                                n_clusters=r["m"]).fit(Xa, ya)
        assert r["accuracy"] == pytest.approx(np.mean(m_model.predict(Xb) == yb))
        want = f1_score(ya, m_model.predict(Xa), average="weighted")
        assert r["train_f1_weighted"] == pytest.approx(want)
        assert r["train_f1"] == pytest.approx(want)  # three classes: the paper's F1 is weighted


def test_paper_rule_rows_mean_over_splits_ties_to_smaller_m():
    rows = []
    for seed, curve in ((0, [0.5, 0.9, 0.9]), (1, [0.7, 0.8, 0.8])):
        for m, f in enumerate(curve, start=1):
            rows.append({"dataset": "d", "method": "GNB-Gauss*", "seed": seed, "m": m,
                         "train_f1": f, "train_f1_weighted": 1.0 - f, "f1": 10 * seed + m})
    curves = pd.DataFrame(rows)
    out = red.paper_rule_rows(curves)
    assert out.n_clusters.tolist() == [2, 2] and out.f1.tolist() == [2, 12]
    assert red.paper_rule_rows(curves, "train_f1_weighted").n_clusters.tolist() == [1, 1]
