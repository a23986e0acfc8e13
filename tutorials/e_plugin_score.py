# %% [markdown]
# # Tutorial (e): your own score as an installable plug-in
#
# A researcher's structure score drives every kgraph classifier and the `kgraph` command
# without a fork: one module and one entry-point line in a package of your own.
# `tutorials/e_plugin/` is such a package. It adds the James–Stein shrinkage estimate of
# class-conditional mutual information (Hausser & Strimmer, JMLR 10, 2009) under the name
# `js-cmi`: the joint cell frequencies of `(X_v, X_parents, Y)` are shrunk towards the
# uniform table with the data-driven intensity
#
#     lambda* = (1 - sum_k u_k^2) / ((n - 1) sum_k (1/p - u_k)^2),   clipped to [0, 1]
#
# and the CMI is computed from the shrunk joint. On small samples the plug-in CMI is biased
# upwards, more so for larger parent sets; shrinkage tempers that.
#
# The package is three things: `kgraph_js_cmi.py` (a class following the score protocol of
# `estimators.scores`: `fit(X, y)`, `score(v, parents)`, and the `families` it serves; it
# imports nothing from kgraph), a `pyproject.toml`, and in it the one line
#
#     [project.entry-points."kgraph.scores"]
#     js-cmi = "kgraph_js_cmi:JamesSteinCMI"
#
# Install it once (from the repository root), then run this tutorial:
#
#     pip install ./tutorials/e_plugin
#
# Figures are written to `tutorial_output/` (or `$KGRAPH_TUTORIAL_OUT`).

# %%
import os
import warnings
from importlib.metadata import entry_points
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import StratifiedShuffleSplit

from estimators import KTANClassifier, load_dataset
from estimators.confidence import StructureConfidence
from estimators.plugins import registered
from estimators.testing import check_score
from viz import plot_ktree, save_figure
from viz.cli import main as kgraph

out = Path(os.environ.get("KGRAPH_TUTORIAL_OUT", "tutorial_output"))
out.mkdir(parents=True, exist_ok=True)
quick = os.environ.get("KGRAPH_TUTORIAL_QUICK") == "1"
warnings.simplefilter("ignore")  # small training samples leave some columns constant in a class

(ep,) = entry_points(group="kgraph.scores", name="js-cmi")  # installed? (see above)
print(ep)

# %% [markdown]
# ## 1. kgraph finds it
#
# Nothing in kgraph names `js-cmi`: the registries read the entry points the first time
# they are used. `kgraph plugins` lists every score and searcher with its origin.

# %%
assert kgraph(["plugins"]) == 0
(row,) = [r for r in registered() if r.name == "js-cmi"]
assert row.families == ("discrete",) and row.origin.startswith("entry point js-cmi")

# %% [markdown]
# ## 2. The conformance kit
#
# `check_score` is to a score what scikit-learn's `check_estimator` is to an estimator: the
# protocol, determinism, pickling and cloning, the backbone DP against brute force with this
# score on small random tables, and a k-TAN fitted and predicting with it.

# %%
passed = check_score("js-cmi")
print("\n".join(passed))
assert len(passed) == 6

# %% [markdown]
# ## 3. From the command line
#
# The score is a choice of `--structure-score` like the built-in ones:
# `kgraph learn car --model ktan --k 2 --structure-score js-cmi --out car_js-cmi`.

# %%
cv = ["--cv", "3"] if quick else []
status = kgraph(["learn", "car", "--model", "ktan", "--k", "2", "--structure-score", "js-cmi",
                 "--quiet", *cv, "--out", str(out / "car_js-cmi")])
assert status == 0
report = (out / "car_js-cmi" / "report.md").read_text()
assert "structure_score='js-cmi'" in report
print(report[:700])

# %% [markdown]
# ## 4. The two structures on the car table
#
# On all 1728 rows of `car` the shrinkage is small and the two 2-trees are close; we draw
# both and count the edges they share.

# %%
X, y = load_dataset("car")
models = {s: KTANClassifier(k=2, structure_score=s).fit(X, y) for s in ("cmi", "js-cmi")}
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
for ax, (score, clf) in zip(axes, models.items(), strict=True):
    plot_ktree(clf.structure_, ax=ax, title=f"2-TAN on car, structure score {score}")
save_figure(fig, out / "car_cmi_vs_js_cmi.png")
edges = {s: {frozenset(e) for e in m.structure_.edges} for s, m in models.items()}
print(f"shared edges: {len(edges['cmi'] & edges['js-cmi'])} of {len(edges['cmi'])}")

# %% [markdown]
# ## 5. Small samples: plug-in CMI against its shrinkage estimate
#
# On a few of the shared discrete tables, we learn a 2-TAN from small stratified training
# samples (n rows) and score it on all the other rows: held-out log-loss and accuracy, mean
# over repeated draws (the same draws for both scores). Which score wins is a property of
# the tables; the tutorial prints the numbers, it does not assume them.

# %%
tables = ["car", "balance_scale"] if quick else ["car", "balance_scale", "tic_tac_toe"]
sizes = [60] if quick else [60, 200]
repeats = 2 if quick else 10
rows = []
for name in tables:
    X, y = load_dataset(name)
    for n in sizes:
        split = StratifiedShuffleSplit(n_splits=repeats, train_size=n, random_state=0)
        result = {s: ([], []) for s in ("cmi", "js-cmi")}
        for train, test in split.split(X, y):
            for score, (losses, accs) in result.items():
                clf = KTANClassifier(k=2, structure_score=score).fit(X.iloc[train], y[train])
                seen = np.isin(y[test], clf.classes_)
                proba = clf.predict_proba(X.iloc[test][seen])
                losses.append(log_loss(y[test][seen], proba, labels=clf.classes_))
                accs.append(accuracy_score(y[test], clf.predict(X.iloc[test])))
        rows.append((name, n, *(f"{np.mean(v):.3f}" for s in result for v in result[s])))
print(f"{'table':<14} {'n':>4} | {'cmi loss':>9} {'acc':>6} | {'js-cmi loss':>11} {'acc':>6}")
for name, n, l1, a1, l2, a2 in rows:
    print(f"{name:<14} {n:>4} | {l1:>9} {a1:>6} | {l2:>11} {a2:>6}")
(out / "small_samples.md").write_text(
    "| table | n | cmi log-loss | cmi accuracy | js-cmi log-loss | js-cmi accuracy |\n"
    "|---|---:|---:|---:|---:|---:|\n"
    + "".join(f"| {' | '.join(map(str, r))} |\n" for r in rows))

# %% [markdown]
# ## 6. The shrinkage intensity, and edge confidence
#
# lambda* falls as the sample grows, and is larger for a bigger table (a larger parent set):
# exactly where the plug-in estimate is least reliable. `StructureConfidence` takes the
# classifier with the plug-in score like any other.

# %%
from kgraph_js_cmi import JamesSteinCMI  # noqa: E402  (the installed module itself)

X, y = load_dataset("car")
codes = X.apply(lambda c: c.astype("category").cat.codes)
y_codes = np.unique(y, return_inverse=True)[1]
rng = np.random.default_rng(0)
for n in (60, 200, len(y)):
    sample = rng.choice(len(y), n, replace=False)
    js = JamesSteinCMI().fit(codes.iloc[sample], y_codes[sample])
    pair = js.shrinkage_intensity("safety", {"persons"})
    triple = js.shrinkage_intensity("safety", {"persons", "buying"})
    print(f"n = {n:>4}: lambda* one parent {pair:.3f}, two parents {triple:.3f}")
    assert 0 <= pair <= 1 and 0 <= triple <= 1
confidence = StructureConfidence(KTANClassifier(k=1, structure_score="js-cmi"),
                                 n_resamples=4 if quick else 20, random_state=0).fit(X, y)
print("confidence of safety - persons:", confidence.confidence("safety", "persons"))
