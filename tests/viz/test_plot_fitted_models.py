"""Every ``plot_*`` of viz takes the fitted model it draws (issue 50, item 7): each model of
``kgraph learn``'s registry, fitted, is drawn by the functions that draw its kind, and
every other function refuses it with one line naming what it takes and the model given."""

import warnings

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import viz  # noqa: E402
from estimators.datasets import load_dataset  # noqa: E402
from viz.cli.learn import MODELS  # noqa: E402

PLOTS = [name for name in viz.__all__ if name.startswith("plot_")]

#: the functions that must draw each fitted model (the others must refuse it in one line)
DRAWS = {
    "gnb": {"plot_structure", "plot_gnb_graph", "plot_gnb_forest", "plot_junction_tree"},
    "kgnb": {"plot_structure", "plot_ktree", "plot_tree_representation"},
    "tan": {"plot_structure", "plot_ktree", "plot_tree_representation"},
    "ktan": {"plot_structure", "plot_ktree", "plot_tree_representation", "plot_pbkt"},
    "kdb": {"plot_structure", "plot_ktree"},
    "aode": {"plot_structure"},
    "a2de": {"plot_structure"},
    "latent-cnb": {"plot_structure", "plot_plate", "plot_elbo"},
    "ban": {"plot_structure", "plot_ktree"},
}


@pytest.fixture(scope="module")
def fitted():
    X, y = load_dataset("iris")
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, spec in MODELS.items():
            options = {"k": 2} if name == "ktan" else {}  # the backbone DP's certificate
            out[name] = spec.estimator_class()(**options, verbose=False).fit(X, y)
    return out


def test_every_cli_model_is_listed():
    assert set(DRAWS) == set(MODELS)


@pytest.mark.parametrize("plot", PLOTS)
def test_each_plot_draws_or_names_what_it_takes(fitted, plot):
    function = getattr(viz, plot)
    for name, model in fitted.items():
        if plot in DRAWS[name]:
            assert isinstance(function(model), Figure), (plot, name)
        else:
            with pytest.raises((TypeError, ValueError)) as info:
                function(model)
            message = str(info.value)
            given = {type(model).__name__, type(getattr(model, "structure_", None)).__name__}
            assert "\n" not in message and any(g in message for g in given), (plot, name)
            assert "object is not iterable" not in message  # Python's, not ours
        plt.close("all")


def test_plot_pbkt_says_why_a_fitted_tan_has_no_certificate(fitted):
    with pytest.raises(TypeError, match=r"search='spanning-tree', which keeps none \(draw "
                                        r"its structure with plot_ktree\)"):
        viz.plot_pbkt(fitted["tan"])


def test_plot_elbo_draws_one_run_per_class_of_a_latent_classifier(fitted):
    model = fitted["latent-cnb"]
    fig = viz.plot_elbo(model)
    lines = fig.axes[0].lines
    assert [line.get_label() for line in lines] == [f"class {c}" for c in model.classes_]
    assert [list(line.get_ydata()) for line in lines] == \
        [list(m.lower_bounds_) for m in model.estimators_]
    plt.close("all")
