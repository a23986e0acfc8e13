# %% [markdown]
# # Tutorial (f): every structure type, drawn
#
# kgraph's models learn different kinds of structure, and each kind has its own figure:
# a spanning tree over the features (TAN, and GNB with the class in every cluster), an
# acyclic k-tree (k-TAN), a DAG whose features have up to k feature parents (kDB) or any
# parents a score prefers (BAN), and the latent model's plate. This tutorial fits each on
# one small categorical table and draws it with the function made for it. Every plot
# function takes the fitted model (or its structure) and returns a matplotlib figure;
# `save_figure` writes PDF, SVG or PNG.
#
# Figures are written to `tutorial_output/` (or `$KGRAPH_TUTORIAL_OUT`).

# %%
import os
from pathlib import Path

from estimators import (
    BANClassifier,
    GNBClassifier,
    KDBClassifier,
    KTANClassifier,
    TANClassifier,
    load_dataset,
)
from viz import (
    check_figure,
    plot_gnb_graph,
    plot_junction_tree,
    plot_ktree,
    plot_structure,
    save_figure,
)

out = Path(os.environ.get("KGRAPH_TUTORIAL_OUT", "tutorial_output"))
out.mkdir(parents=True, exist_ok=True)

X, y = load_dataset("car")
print(X.shape, "classes:", sorted(y.unique()))

# %% [markdown]
# ## 1. TAN: a tree over the features
#
# Each feature has the class and at most one other feature as parents. The tree maximises
# the sum of the class-conditional mutual informations of its edges (exact, by Kruskal).

# %%
tan = TANClassifier().fit(X, y)
print(tan.structure_)
fig = plot_ktree(tan)
assert not check_figure(fig)  # no overlapping boxes or labels, no text below 6 pt
save_figure(fig, out / "car_tan.pdf")

# %% [markdown]
# ## 2. k-TAN: an acyclic k-tree
#
# With k = 2 every feature has up to two feature parents, and the parents of a feature are
# adjacent to each other: the structure is a 2-tree.

# %%
ktan = KTANClassifier(k=2).fit(X, y)
print({v: sorted(ktan.structure_.parents(v)) for v in ktan.structure_.order})
save_figure(plot_ktree(ktan), out / "car_2tan.pdf")

# %% [markdown]
# ## 3. kDB and BAN: DAGs over the features
#
# kDB gives each feature up to k parents among the features ranked before it by their
# mutual information with the class; BAN searches parent sets by a decomposable score.
# Neither structure needs to be a k-tree, so both are drawn as DAGs.

# %%
kdb = KDBClassifier(max_parents=2).fit(X, y)
save_figure(plot_structure(kdb.structure_), out / "car_kdb.pdf")
ban = BANClassifier().fit(X, y)
save_figure(plot_structure(ban.structure_), out / "car_ban.pdf")

# %% [markdown]
# ## 4. GNB on continuous features: a junction tree
#
# Paper 1's generalized Naive Bayes keeps the class in every cluster of an order-3 cherry
# junction tree: the clusters are the class and a tree edge's two features.

# %%
Xw, yw = load_dataset("wine")
gnb = GNBClassifier(dependence="gaussian").fit(Xw, yw)
save_figure(plot_gnb_graph(gnb), out / "wine_gnb_graph.pdf")
save_figure(plot_junction_tree(gnb.structure_), out / "wine_junction_tree.pdf")
