"""Two ways to combine an ensemble of kDBs: the average of posteriors against the mixture of
joints (the rule :class:`estimators.network.member_mixture.MemberMixture` predicts with, whose
Bayesian network export is exact).

Ten kDB members (k = 2, Laplace) with random attribute orders (member i orders the features
by a permutation drawn with seed i; parents by class-conditional information as kDB does),
on five categorical tables, stratified 5-fold cross-validation (seed 0). For each fold both
ensembles predict the held-out fold; the file gives their accuracy and log-loss (mean over
folds), the paired differences (mixture minus average; a Wilcoxon signed-rank p over the
folds' differences is not informative at 5 folds, so the largest fold difference is shown),
and the default kDB (Sahami's order) for scale. ``--quick``: car only.

Run: ``PYTHONPATH=. python benchmarks/member_mixture_rules.py [--quick]`` (about three
minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sklearn.metrics import accuracy_score, log_loss  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402

import benchmarks._common as common  # noqa: E402
from estimators.bnc import KDBClassifier  # noqa: E402
from estimators.datasets import load_dataset  # noqa: E402
from estimators.network.member_mixture import MemberMixture  # noqa: E402

TABLES = ("car", "kr_vs_kp", "nursery", "tic_tac_toe", "votes")
N_MEMBERS = 10
K = 2


class RandomOrderKDB(KDBClassifier):
    """kDB with its attribute order a random permutation (``seed``) in place of the order
    by class information; the parents of each feature are still its ``max_parents``
    earlier features of largest class-conditional information."""

    def __init__(self, *, max_parents: int = 2, seed: int = 0):
        super().__init__(max_parents=max_parents)
        self.seed = seed

    def _fit_dag(self, enc, y_codes, kept, *rest) -> None:
        info = self.class_information_
        order = np.random.default_rng(self.seed).permutation(len(info))
        self.class_information_ = -order.astype(float)  # the first of the permutation first
        try:
            super()._fit_dag(enc, y_codes, kept, *rest)
        finally:
            self.class_information_ = info


def folds(name: str):
    """(members' average-of-posteriors proba, mixture proba, default kDB proba, y) of
    every fold of ``name``."""
    X, y = load_dataset(name)
    y = np.asarray(y)
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        members = [RandomOrderKDB(max_parents=K, seed=i).fit(X.iloc[train], y[train])
                   for i in range(N_MEMBERS)]
        Xt = X.iloc[test]
        average = np.mean([m.predict_proba(Xt) for m in members], axis=0)
        mixture = MemberMixture(members).predict_proba(Xt)
        single = KDBClassifier(max_parents=K).fit(X.iloc[train], y[train]).predict_proba(Xt)
        yield average, mixture, single, y[test], members[0].classes_


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="car only")
    args = parser.parse_args()
    common.QUICK = args.quick
    tables = ("car",) if args.quick else TABLES
    rows = ["| table | acc. average | acc. mixture | diff. (max fold) | log-loss average | "
            "log-loss mixture | diff. (max fold) | kDB acc. | kDB log-loss |",
            "|---|---|---|---|---|---|---|---|---|"]
    for name in tables:
        acc, loss = [], []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for average, mixture, single, y, classes in folds(name):
                acc.append([accuracy_score(y, classes[p.argmax(axis=1)])
                            for p in (average, mixture, single)])
                loss.append([log_loss(y, p, labels=classes) for p in (average, mixture, single)])
        acc, loss = np.array(acc), np.array(loss)
        da, dl = acc[:, 1] - acc[:, 0], loss[:, 1] - loss[:, 0]
        rows.append(
            f"| {name} | {acc[:, 0].mean():.4f} | {acc[:, 1].mean():.4f} | {da.mean():+.4f} "
            f"({da[np.abs(da).argmax()]:+.4f}) | {loss[:, 0].mean():.4f} | "
            f"{loss[:, 1].mean():.4f} | {dl.mean():+.4f} ({dl[np.abs(dl).argmax()]:+.4f}) | "
            f"{acc[:, 2].mean():.4f} | {loss[:, 2].mean():.4f} |")
    common.write("member_mixture_rules", "Average of posteriors against mixture of joints",
                 [f"{N_MEMBERS} kDB members (k = {K}, Laplace) with random attribute orders, "
                  "stratified 5-fold cross-validation (seed 0); mean over the folds, the "
                  "paired difference mixture minus average with its largest fold in "
                  "parentheses; the default kDB for scale.", "", *rows])


if __name__ == "__main__":
    main()
