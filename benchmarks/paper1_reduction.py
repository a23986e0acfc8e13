"""Paper 1's reduced models (§5.2, §6.1, §6.3) as the paper describes them.

The paper's rule for the reduced rows ("*"): on each of the ten train/test splits the full
GNB is learned on the training part and every reduced model (the forest of the first m
clusters of its cluster order, m = 1 .. d-1) is scored by its F1 *on the training data*
("These reduced models are evaluated on the training data", §5.2); the ten training curves
are averaged and the m with the highest mean is used on every split ("choosing the number of
clusters which achieved the highest f1 score on the average of the 10 runs", §6.3). Which F1
the curve uses is not said: the paper's tables use binary F1 for two classes and weighted F1
for three, so that is the main reading (``train_f1``); the weighted F1 on two-class sets is
the second one (``train_f1_weighted``). No test row enters the choice. The library's own
``n_clusters="auto"`` (held-out parts of the training data, one m per split) is reported
beside it as ``... (held-out m)``.

The KDE rows use the library's kernels (``GNBClassifier(kernel=...)``): the main ``GNB KDE``
is scipy's ``gaussian_kde`` kernel (``kernel="full"``), ``GNB KDE (product kernel)`` the
library's default; both reduced rows come from their full fits here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

from estimators.gnb.reduction import increments_jll
from estimators.learning.evaluation import split_metrics

#: full GNB method -> its reduced ("*") row
STAR = {"GNB-Gauss": "GNB-Gauss*", "GNB G-cop": "GNB G-cop*", "GNB KDE": "GNB KDE*",
        "GNB KDE (product kernel)": "GNB KDE* (product kernel)"}  # fmt: skip


def prefix_records(log_prior, density, edges, classes, Xa, ya, Xb, yb, f1_kind: str,
                   positive) -> list[dict]:
    """Per m = 1 .. len(edges): the training F1 (the paper's variant and weighted) and the
    test metrics of the forest of the first m clusters."""
    kw = {"average": "binary", "pos_label": positive} if f1_kind == "binary" else {
        "average": "weighted"}
    out = [{"m": m, "train_f1": f1_score(ya, classes[np.argmax(j, axis=1)], zero_division=0,
                                         **kw),
            "train_f1_weighted": f1_score(ya, classes[np.argmax(j, axis=1)],
                                          average="weighted", zero_division=0)}
           for m, j in enumerate(increments_jll(log_prior, density, edges, Xa), start=1)]
    for rec, j in zip(out, increments_jll(log_prior, density, edges, Xb), strict=True):
        rec.update(split_metrics(yb, classes[np.argmax(j, axis=1)], positive))
    return out


def model_prefix_records(model, Xa, ya, Xb, yb, f1_kind: str, positive) -> list[dict]:
    """``prefix_records`` of a fitted all-continuous ``GNBClassifier`` (its own densities);
    checks that the largest prefix predicts what ``model.predict`` does."""
    edges = [tuple(e) for e in model.cluster_order_.tolist()]
    A, B = (model._check_X(Z).values for Z in (Xa, Xb))
    last = np.argmax(model.class_log_prior_ + model.density_.log_density(B, edges), axis=1)
    if not np.array_equal(model.classes_[last], model.predict(Xb)):
        raise AssertionError("prefix evaluation disagrees with GNBClassifier.predict")
    return prefix_records(model.class_log_prior_, model.density_, edges, model.classes_,
                          A, ya, B, yb, f1_kind, positive)


def paper_rule_rows(curves: pd.DataFrame, column: str = "train_f1") -> pd.DataFrame:
    """The reduced rows: per (data set, method) the m with the best training F1 ``column``
    averaged over the splits (ties: the smaller m), and each split's test metrics at it."""
    out = []
    for _, g in curves.groupby(["dataset", "method"], sort=False):
        mean = g.groupby("m")[column].mean()
        best = int(mean.index[np.argmax(mean.to_numpy())])
        rows = g[g.m == best].drop(columns=["m", "train_f1", "train_f1_weighted"])
        out.append(rows.assign(n_clusters=best))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()
