# %% [markdown]
# # Tutorial (i): learn from a Dask DataFrame on a LocalCluster
#
# The scores of TAN and GNB are functions of sufficient statistics that add up over row
# partitions (per-class counts, means and centred cross-products). `collect` hands a Dask
# DataFrame to `fit` as partitions whose statistics are computed on the workers and merged
# in a tree, so the model is learned from data that never sits in one process, and it is
# the same model as the in-memory fit on the same rows. `predict_dask` maps the fitted
# model over the partitions, lazily.
#
# The cluster here is a `LocalCluster` with threads (`processes=False`) so that the page
# builds in seconds; on a real cluster, connect a `Client` to its scheduler instead
# (`kgraph learn 'data/*.parquet' --target T --model tan --engine dask --scheduler
# ADDRESS` from the command line). The table is drawn from a class-conditional Gaussian
# whose dependence graph is a known tree.
#
# Figures are written to `tutorial_output/` (or `$KGRAPH_TUTORIAL_OUT`).

# %%
import os
from pathlib import Path

import dask.dataframe as dd
import numpy as np
from dask.distributed import Client, LocalCluster

from estimators import TANClassifier
from estimators.datasets import make_gaussian_tree
from estimators.distributed import collect, predict_dask
from viz import plot_ktree, save_figure

out = Path(os.environ.get("KGRAPH_TUTORIAL_OUT", "tutorial_output"))
out.mkdir(parents=True, exist_ok=True)

X, y, edges = make_gaussian_tree(20_000, 8, random_state=0)
table = X.assign(target=y)
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                       dashboard_address=None)
client = Client(cluster)
frame = dd.from_pandas(table, npartitions=8)
print(f"{len(table)} rows in {frame.npartitions} partitions on "
      f"{len(client.scheduler_info()['workers'])} workers")

# %% [markdown]
# ## 1. Fit from the partitions
#
# Every partition is reduced to its statistics where it lives; the structure search runs
# on the client. The learned tree is the one the data were drawn from, and the fitted
# model is the in-memory fit: the same structure and the same probabilities to 1e-9.

# %%
features = frame.drop(columns="target")
model = TANClassifier().fit(collect(features, frame["target"]))
in_memory = TANClassifier().fit(X, y)

learned = {frozenset(edge) for edge in model.structure_.edges}
print("learned tree == true tree:", learned == {frozenset(edge) for edge in edges})
assert model.structure_.edges == in_memory.structure_.edges
assert np.allclose(model.predict_proba(X.iloc[:500]), in_memory.predict_proba(X.iloc[:500]),
                   atol=1e-9)
save_figure(plot_ktree(model), out / "dask_tan.pdf")

# %% [markdown]
# ## 2. Predict on the partitions
#
# `predict_dask` returns a lazy Dask Series (or one column per class for
# `predict_proba`); `compute` runs it on the workers.

# %%
predicted = predict_dask(model, features, "predict")
accuracy = float((predicted == frame["target"]).mean().compute())
print(f"accuracy on the {len(table)} rows: {accuracy:.3f}")
client.close()
cluster.close()
