"""The figures of fitted results, drawn from the real estimators (not stand-ins)."""

import numpy as np
import pytest

from estimators.datasets import load_dataset
from estimators.gnb import GNBClassifier, pair_data
from estimators.ktan import KTANClassifier
from estimators.latent import LatentCNB
from viz import (
    plot_elbo,
    plot_gnb_forest,
    plot_ktree,
    plot_pair_diagnostics,
    plot_pbkt,
    plot_reduction_curve,
)


@pytest.fixture(scope="module")
def iris_reduced():
    X, y = load_dataset("iris")
    return GNBClassifier(dependence="kde", n_clusters="auto", n_splits=4,
                         random_state=0).fit(X, y), X, y


def test_reduction_curve_of_a_fitted_gnb(iris_reduced):
    model, _, _ = iris_reduced
    ax = plot_reduction_curve(model).axes[0]
    n_splits, n_m = model.reduction_scores_.shape
    assert (n_splits, n_m) == (4, 3)
    mean = [line for line in ax.lines if np.allclose(line.get_ydata(),
                                                     model.reduction_scores_.mean(axis=0))]
    assert len(mean) == 1 and list(mean[0].get_xdata()) == [1, 2, 3]


def test_forest_and_pair_diagnostics_of_a_fitted_gnb(iris_reduced):
    model, X, y = iris_reduced
    forest = model.structure_.prefix(model.n_clusters_)
    ax = plot_gnb_forest(model).axes[0]
    drawn = [p for p in ax.patches if (p.get_gid() or "").startswith("node:")]
    assert len(drawn) == len(forest.features) + 1  # the class vertex too
    pairs = pair_data(model, X, y)
    assert len(pairs) == model.n_clusters_
    wrong = int((model.predict(X) != y).sum())
    assert all(int((p.y_true != p.y_pred).sum()) == wrong for p in pairs)
    assert len(plot_pair_diagnostics(pairs).axes) >= len(pairs)


def test_ktan_figures_from_a_fitted_model():
    X, y = load_dataset("car")
    model = KTANClassifier(k=2, backbone="given").fit(X, y)
    ax = plot_ktree(model, target="class").axes[0]
    parents = [p for p in ax.patches if (p.get_gid() or "").startswith("edge:parent")]
    assert len(parents) == len(model.structure_.edges)
    assert plot_pbkt(model.certificate_).axes


def test_elbo_of_a_fitted_latent_model():
    X = np.random.default_rng(0).normal(size=(200, 4))
    model = LatentCNB(n_components=2, max_iter=15, tol=0, random_state=0).fit(X)
    ax = plot_elbo(model).axes[0]
    assert len(ax.lines) == 1
    np.testing.assert_allclose(ax.lines[0].get_ydata(), model.lower_bounds_)
