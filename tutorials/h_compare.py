# %% [markdown]
# # Tutorial (h): compare classifiers on several tables
#
# `kgraph compare` cross-validates every model on every table on the same stratified folds
# and writes a leaderboard (`leaderboard.md`), a LaTeX table with Wilcoxon tests
# (`table.tex`), Demšar's critical-difference diagrams (`cd_accuracy.pdf`,
# `cd_log_loss.pdf`) and one row per fold (`folds.csv`). The command
#
#     kgraph compare iris wine balance_scale car tic_tac_toe \
#         --models "tan,kdb,aode,estimators.baselines:MixedNB" --no-baselines --cv 3 \
#         --out comparison
#
# is `viz.compare.run_comparison` below. Five small built-in tables, three of kgraph's
# models and the mixed naive Bayes baseline, 3 folds: the build of this page stays fast.
# Without `--no-baselines` the comparison also has logistic regression (its C chosen by
# an inner cross-validation) and histogram gradient boosting, which take most of the time
# on tables this small. Every cell (table, model, fold) is a row of a run store
# (`comparison/runs.db`): the same command run again resumes where it stopped.
#
# Figures are written to `tutorial_output/` (or `$KGRAPH_TUTORIAL_OUT`).

# %%
import os
from pathlib import Path

from viz import friedman_nemenyi, plot_critical_difference, save_figure
from viz.compare import run_comparison

out = Path(os.environ.get("KGRAPH_TUTORIAL_OUT", "tutorial_output"))
out.mkdir(parents=True, exist_ok=True)

tables = ["iris", "wine", "balance_scale", "car", "tic_tac_toe"]
models = ["tan", "kdb", "aode", "estimators.baselines:MixedNB"]
result = run_comparison(tables, models, out / "comparison", cv=3, baselines=False,
                        verbose=False)
print(result.folds[["table", "model", "fold", "accuracy", "log_loss"]].head(8))
print([path.name for path in result.files])

# %% [markdown]
# ## 1. The leaderboard
#
# For each metric, the models by mean rank over the tables (1 = the best on a table), the
# Friedman test and the Nemenyi critical difference, then the mean and standard deviation
# over the folds on each table.

# %%
leaderboard = (out / "comparison" / "leaderboard.md").read_text()
section = leaderboard.split("## accuracy")[1].split("\n## ")[0]
print("## accuracy" + section)

# %% [markdown]
# The same means, over all tables, from `folds.csv` (one row per table, model and fold):

# %%
result.folds.groupby("model", sort=False)[["accuracy", "log_loss"]].mean().round(4)

# %% [markdown]
# ## 2. The critical-difference diagram
#
# `folds.csv` holds every fold's score, so the diagram can be redrawn with other options
# from the per-table means: `friedman_nemenyi` ranks the models on each table and
# `plot_critical_difference` draws the mean ranks, with a thick bar joining the models
# whose mean ranks differ by less than the critical difference. The mean ranks are those
# of the leaderboard.

# %%
means = result.folds.groupby(["table", "model"], sort=False)["accuracy"].mean().unstack()
test = friedman_nemenyi(means, higher_is_better=True)
print(test.mean_ranks.round(2))
rows = [line.split("|")[1:] for line in section.splitlines() if line.startswith("| ")]
shown = {cells[0].strip(): cells[1].strip() for cells in rows}  # first cell -> second
for model, rank in test.mean_ranks.items():
    assert shown[model] == f"{rank:.2f}", (model, rank)
fig = plot_critical_difference(test, title=f"accuracy: mean rank over {test.n_datasets} "
                               "tables (1 = best)")
save_figure(fig, out / "compare_cd_accuracy.pdf")
