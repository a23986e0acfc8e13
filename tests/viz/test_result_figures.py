"""What the result figures draw: reduction curves, relative F1, pair diagnostics, ELBO and
perplexity; values against direct computations; bad input."""

import numpy as np
import pandas as pd
import pytest
from viz_cases import elbo_runs, f1_table, pair, perplexity_results, reduction_scores

from estimators.gnb import pair_data
from viz.curves import plot_reduction_curve, plot_relative_f1, relative_f1
from viz.diagnostics import PairData, plot_pair_diagnostics
from viz.latent import perplexity_summary, plot_elbo, plot_perplexity


def gid_of(ax, gid):
    (artist,) = [a for a in [*ax.lines, *ax.collections, *ax.patches] if a.get_gid() == gid]
    return artist


# -- reduction curve (paper 1 appendix E) ---------------------------------------------------
def test_reduction_curve_one_line_per_split_and_the_mean():
    scores = reduction_scores()
    ax = plot_reduction_curve(scores).axes[0]
    assert len(ax.lines) == scores.shape[0] + 1
    for i, row in enumerate(scores):
        np.testing.assert_array_equal(gid_of(ax, f"split:{i}").get_ydata(), row)
    mean = gid_of(ax, "mean")
    np.testing.assert_array_equal(mean.get_xdata(), np.arange(1, scores.shape[1] + 1))
    expected = [sum(scores[s, m] for s in range(scores.shape[0])) / scores.shape[0]
                for m in range(scores.shape[1])]
    np.testing.assert_allclose(mean.get_ydata(), expected)
    assert mean.get_linewidth() > gid_of(ax, "split:0").get_linewidth()


def test_reduction_curve_marks_the_smallest_best_number_of_clusters():
    scores = np.array([[0.5, 0.9, 0.7, 0.9], [0.6, 0.7, 0.9, 0.7]])  # means .55 .8 .8 .8
    ax = plot_reduction_curve(scores).axes[0]
    np.testing.assert_allclose(gid_of(ax, "best").get_offsets(), [[2, 0.8]])
    assert "chosen: 2 clusters" in [t.get_text() for t in ax.get_legend().get_texts()]


class Fitted:
    def __init__(self, **attrs):
        self.__dict__.update(attrs)

    def get_params(self):
        return {}


def test_reduction_curve_from_a_fitted_model():
    scores = reduction_scores()
    ax = plot_reduction_curve(Fitted(reduction_scores_=scores, classes_=[0, 1])).axes[0]
    assert len(ax.lines) == scores.shape[0] + 1


@pytest.mark.parametrize(("bad", "message"), [
    (Fitted(classes_=[0, 1]), "has no 'reduction_scores_': fit it with n_clusters='auto'"),
    (np.zeros((2, 2, 2)), r"shape \(n_splits, n_clusters\).*got shape \(2, 2, 2\)"),
    (np.array([[0.5, np.nan]]), "NaN or infinity"),
])
def test_reduction_curve_bad_input(bad, message):
    with pytest.raises(ValueError, match=message):
        plot_reduction_curve(bad)


# -- relative F1 (paper 1 fig. 6) -------------------------------------------------------------
def test_relative_f1_bars_are_mean_ratios_to_each_datasets_best():
    table = f1_table()
    ax = plot_relative_f1(table, highlight=["GNB Gauss"]).axes[0]
    heights = [b.get_height() for b in ax.patches]
    expected = []
    for method in table.columns:
        ratios = [table.loc[d, method] / max(table.loc[d]) for d in table.index]
        expected.append(sum(ratios) / len(ratios))
    np.testing.assert_allclose(heights, expected)
    assert [t.get_text() for t in ax.get_xticklabels()] == list(table.columns)
    assert len([c for c in ax.collections if c.get_gid().startswith("dataset:")]) == len(table)
    colours = {tuple(b.get_facecolor()) for b in ax.patches}
    assert len(colours) == 2  # the highlighted method stands out


def test_relative_f1_table_values():
    rel = relative_f1(f1_table())
    assert np.allclose(rel.max(axis=1), 1.0)


@pytest.mark.parametrize(("table", "kwargs", "error", "message"), [
    ([[0.5, 0.6]], {}, TypeError, "must be a pandas DataFrame"),
    (pd.DataFrame({"A": [0.0], "B": [0.0]}, index=["d"]), {}, ValueError,
     "Data set 'd' has F1 0 for every method"),
    (pd.DataFrame({"A": [-0.1]}), {}, ValueError, "finite, non-negative"),
    (pd.DataFrame({"A": [0.5]}), {"highlight": ["Z"]}, ValueError,
     r"highlight names methods not in the table: \['Z'\]"),
])
def test_relative_f1_bad_input(table, kwargs, error, message):
    with pytest.raises(error, match=message):
        plot_relative_f1(table, **kwargs)


# -- pair diagnostics (paper 1 appendix F) ----------------------------------------------------
def test_pair_diagnostics_contours_per_class_and_misclassified_points():
    p = pair()
    ax = plot_pair_diagnostics([p, p]).axes
    assert len(ax) == 2
    for a in ax:
        contours = [c for c in a.collections if (c.get_gid() or "").startswith("density:")]
        assert sorted(c.get_gid() for c in contours) == ["density:a", "density:b"]
        wrong = gid_of(a, "misclassified").get_offsets()
        np.testing.assert_array_equal(wrong, p.x[p.y_true != p.y_pred])
        assert len(wrong) > 0
        shown = sum(len(gid_of(a, f"points:{c}").get_offsets()) for c in "ab")
        assert shown == len(p.x)
        assert (a.get_xlabel(), a.get_ylabel()) == ("length", "width")


def test_pair_diagnostics_contour_levels_follow_the_density():
    p = pair()
    a = plot_pair_diagnostics(p, levels=3).axes[0]
    levels = gid_of(a, "density:b").levels
    # peak of the standard bivariate normal is 1 / (2 pi); the grid comes close to it
    assert levels[0] / levels[-1] == pytest.approx(0.1 / 0.9)
    assert 0.9 / (2 * np.pi) * 0.9 < levels[-1] <= 0.9 / (2 * np.pi)


def test_pair_diagnostics_into_given_axes():
    from matplotlib.figure import Figure

    fig = Figure()
    axes = fig.subplots(1, 2)
    assert plot_pair_diagnostics([pair(), pair()], ax=axes) is fig
    with pytest.raises(ValueError, match="one Axes per pair: 2; got 1"):
        plot_pair_diagnostics([pair(), pair()], ax=[axes[0]])


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"x": np.zeros((3, 3))}, r"PairData.x must have shape \(n, 2\); got \(3, 3\)"),
    ({"y_pred": np.array(["a"])}, r"must have shape \(50,\)"),
    ({"log_density": {"a": len}}, "has no density for class 'b'"),
])
def test_pair_data_bad_input(kwargs, message):
    p = pair()
    args = {"x": p.x, "y_true": p.y_true, "y_pred": p.y_pred, "log_density": p.log_density}
    with pytest.raises(ValueError, match=message):
        PairData(**{**args, **kwargs})


def test_pair_data_from_a_model_uses_its_pairs_and_densities():
    from scipy.stats import multivariate_normal

    class Density:  # ln p(x_i, x_j | y): class k centred at k in columns i, j
        def logpdf2(self, X, i, j):
            return np.column_stack([multivariate_normal([k, k]).logpdf(X[:, [i, j]])
                                    for k in range(2)])

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = (X[:, 0] > 0).astype(int)
    model = Fitted(cluster_order_=np.array([[0, 2], [1, 2]]), n_clusters_=1, classes_=[0, 1],
                   density_=Density(), predict=lambda data: np.zeros(len(data), int))
    (panel,) = pair_data(model, X, y)
    np.testing.assert_array_equal(panel.x, X[:, [0, 2]])
    assert panel.names == ("x0", "x2")
    pts = np.array([[0.3, -1.2], [1.0, 1.0]])
    np.testing.assert_allclose(panel.log_density[1](pts), multivariate_normal([1, 1]).logpdf(pts))
    np.testing.assert_array_equal(panel.misclassified, y != 0)


# -- latent models (paper 3) ------------------------------------------------------------------
def test_elbo_one_line_per_run_with_iterations_from_one():
    runs = elbo_runs()
    ax = plot_elbo(runs, labels=["dirichlet", "beta-liouville"]).axes[0]
    assert len(ax.lines) == len(runs)
    for line, run in zip(ax.lines, runs, strict=True):
        np.testing.assert_array_equal(line.get_ydata(), run)
        np.testing.assert_array_equal(line.get_xdata(), np.arange(1, len(run) + 1))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["dirichlet", "beta-liouville"]


def test_elbo_of_a_single_run_and_of_a_fitted_model():
    assert len(plot_elbo([-3.0, -2.0]).axes[0].lines) == 1
    model = Fitted(lower_bounds_=[-5.0, -4.0, -3.9], lower_bound_=-3.9)
    np.testing.assert_array_equal(plot_elbo(model).axes[0].lines[0].get_ydata(), [-5, -4, -3.9])


@pytest.mark.parametrize(("bad", "kwargs", "message"), [
    ([], {}, "lower_bounds is empty"),
    ([[1.0], []], {}, "Run 1 of lower_bounds must be a non-empty sequence"),
    ([[1.0, np.inf]], {}, "Run 0 of lower_bounds contains NaN or infinity"),
    ([[1.0], [2.0]], {"labels": ["a"]}, "labels must name each of the 2 runs; got 1"),
    (Fitted(), {}, "Fitted has no 'lower_bounds_'; fit it first"),
])
def test_elbo_bad_input(bad, kwargs, message):
    with pytest.raises(ValueError, match=message):
        plot_elbo(bad, **kwargs)


def test_perplexity_bars_are_means_with_standard_deviation():
    results = perplexity_results()
    ax = plot_perplexity(results).axes[0]
    bars = {}
    for patch in ax.patches:
        bars.setdefault(patch.get_gid(), []).append(patch.get_height())
    assert set(bars) == {"series:dirichlet", "series:beta-liouville"}
    for prior in ["dirichlet", "beta-liouville"]:
        expected = [np.mean(results[d][prior]) for d in ("iris", "wine")]
        np.testing.assert_allclose(bars[f"series:{prior}"], expected)
    from matplotlib.container import ErrorbarContainer

    spreads = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    half = [np.ptp(seg[:, 1]) / 2 for c in spreads for seg in c.lines[2][0].get_segments()]
    expected = [np.std(results[d][p]) for p in ("dirichlet", "beta-liouville")
                for d in ("iris", "wine")]
    np.testing.assert_allclose(half, expected)
    summary = perplexity_summary(results)
    np.testing.assert_allclose(summary.loc[("wine", "dirichlet"), "std"],
                               np.std([5.5, 5.9, 5.7]))
    assert len(gid_of(ax, "values").get_offsets()) == 12
    assert [t.get_text() for t in ax.get_xticklabels()] == ["iris", "wine"]


def test_perplexity_from_a_long_table():
    table = pd.DataFrame({"data": ["x", "x", "y"], "model": ["p", "p", "p"],
                          "ppl": [2.0, 4.0, 3.0]})
    ax = plot_perplexity(table, group="data", series="model", value="ppl").axes[0]
    np.testing.assert_allclose([p.get_height() for p in ax.patches], [3.0, 3.0])


@pytest.mark.parametrize(("results", "error", "message"), [
    ([1, 2], TypeError, "results must be a DataFrame or a mapping"),
    (pd.DataFrame({"dataset": ["a"], "prior": ["p"]}), ValueError,
     "results has no column 'perplexity'"),
    ({"a": {"p": [0.5]}}, ValueError, "finite perplexities >= 1"),
])
def test_perplexity_bad_input(results, error, message):
    with pytest.raises(error, match=message):
        plot_perplexity(results)
