"""The plate-graph figure of latent CNB."""

import numpy as np
import pytest

from estimators.latent import LatentCNB
from kgraph import LatentCNBPlate
from viz import plot_plate, plot_structure, save_figure


def gids(ax, prefix):
    return sorted(p.get_gid() for p in ax.patches if (p.get_gid() or "").startswith(prefix))


def test_plate_figure_draws_every_node_edge_and_plate(tmp_path):
    plate = LatentCNBPlate(["a", "b"], 4, prior="generalized-dirichlet")
    fig = plot_plate(plate)
    ax = fig.axes[0]
    assert len(gids(ax, "node:")) == 2 + 3 * 2  # prior, pi, then z, x, theta per feature
    assert len(gids(ax, "edge:")) == plate.graph.number_of_edges() == 1 + 3 * 2
    assert gids(ax, "plate:") == ["plate:components (K = 4)", "plate:rows (N)"]
    texts = {t.get_text() for t in ax.texts}
    assert {"generalized-dirichlet", "π", "z[a]", "x[b]", "θ[a]"} <= texts
    for suffix in (".pdf", ".png"):
        assert save_figure(fig, tmp_path / f"plate{suffix}").stat().st_size > 0


def test_plate_from_a_fitted_model_and_dispatch():
    X = np.random.default_rng(0).normal(size=(60, 3))
    model = LatentCNB(n_components=2, max_iter=3, random_state=0).fit(X)
    ax = plot_plate(model).axes[0]
    assert len(gids(ax, "node:")) == 2 + 3 * 3
    assert len(plot_structure(model.plate_graph()).axes[0].patches) == len(ax.patches)
    with pytest.raises(TypeError, match="Expected a LatentCNBPlate or a fitted LatentCNB"):
        plot_plate(object())
