"""How much Chow-Liu on the fitted Gaussian copula changes the GNB against the tree of the
standalone kernel-CDF score (``GaussianCopulaCMI(marginals="kernel")``, the structure score
the copula GNB used before), on the shipped continuous data sets.

Both models share the fitted density (``density_`` does not depend on the tree); only the
tree differs. For each data set: whether the edge sets and Kruskal orders agree, the largest
difference of the edge weights of the shared edges, the fitted-model weight of each tree
(sum of -1/2 sum_y p(y) ln(1 - rho_y^2) with rho = ``density_.corr_``), the largest
|difference| of training-set ``predict_proba``, the number of changed predictions and the
training accuracy of both.

    python benchmarks/copula_structure.py   # -> benchmarks/results/copula_structure.md
"""

from __future__ import annotations

import copy
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import QUICK, write  # noqa: E402

from estimators.datasets import dataset_info, list_datasets, load_dataset  # noqa: E402
from estimators.gnb import GNBClassifier  # noqa: E402
from estimators.gnb._learn import make_score  # noqa: E402
from estimators.scores._gaussian_cmi import CorrelationData, gaussian_pair_matrix  # noqa: E402
from estimators.search import maximum_spanning_tree  # noqa: E402


def copula_loglik_gain(clf, X: np.ndarray, codes: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """``L[i, j] = sum_y p(y) mean_{rows of y} ln c_rho(z_i, z_j)``: the fitted model's
    training log-likelihood gain per row of the edge (i, j) over the used columns (the
    marginals are the same for every tree), with z the density's training normal scores."""
    used = clf._used
    L = np.zeros((used.size, used.size))
    for c in np.flatnonzero(prior):
        _, z = clf.density_._marginals(X[codes == c], c, used)
        M = z.T @ z / z.shape[0]
        m = np.diag(M)
        r = clf.density_.corr_[c][np.ix_(used, used)]
        r2 = np.minimum(r * r, 1.0 - 1e-15)  # the unit diagonal, zeroed below
        L += prior[c] * (-0.5 * np.log1p(-r2) - (r2 * (m[:, None] + m[None, :]) - 2 * r * M)
                         / (2 * (1 - r2)))
    np.fill_diagonal(L, 0.0)
    return L


def compare(name: str) -> tuple:
    X, y = load_dataset(name)
    new = GNBClassifier(dependence="gaussian-copula").fit(X, y)
    used = new._used
    codes = np.searchsorted(new.classes_, np.asarray(y))
    prior = np.bincount(codes, minlength=new.classes_.size) / codes.size
    W_score = make_score("gaussian-copula").fit(np.asarray(X, float)[:, used],
                                                codes).edge_matrix()
    old_edges = [(int(used[i]), int(used[j])) for i, j in maximum_spanning_tree(W_score).edges]
    old = copy.copy(new)  # same density, the score's tree
    old.cluster_order_ = np.array(old_edges)
    new_edges = [tuple(e) for e in new.cluster_order_.tolist()]
    W_fit = gaussian_pair_matrix(CorrelationData(new.density_.corr_, prior))
    pos = {int(u): k for k, u in enumerate(used)}
    shared = {frozenset(e) for e in new_edges} & {frozenset(e) for e in old_edges}
    dw = max(abs(W_fit[a, b] - W_score[pos[a], pos[b]]) for a, b in map(tuple, shared))
    L = copula_loglik_gain(new, np.asarray(X, float), codes, prior)
    best = [(int(used[i]), int(used[j])) for i, j in maximum_spanning_tree(L).edges]
    ll = [sum(L[pos[a], pos[b]] for a, b in t) for t in (new_edges, old_edges, best)]
    p_new, p_old = new.predict_proba(X), old.predict_proba(X)
    return (name, X.shape[0], used.size, {frozenset(e) for e in new_edges} == {
        frozenset(e) for e in old_edges}, new_edges == old_edges, len(new_edges) - len(shared),
        dw, sum(W_fit[a, b] for a, b in new_edges), sum(W_fit[a, b] for a, b in old_edges),
        float(np.abs(p_new - p_old).max()), int((new.predict(X) != old.predict(X)).sum()),
        new.score(X, y), old.score(X, y), *ll)


def main() -> None:
    warnings.simplefilter("ignore")  # constant columns, tiny classes: the same for both
    rows = []
    names = [n for n in list_datasets() if dataset_info(n)[0] == "continuous"]
    for name in names[:1] if QUICK else names:
        rows.append(compare(name))
        print(rows[-1], flush=True)
    lines = [
        "Same fitted density for both; "
        "\"fitted-model weight\" is the sum over the tree of the fitted copula's "
        "-1/2 sum_y p(y) ln(1 - rho_y^2) (nats): Chow-Liu on the fitted copula maximises it. "
        "Proba, predictions and accuracy on the training rows. \"copula log-lik per row\" is "
        "the fitted model's training log-likelihood gain of the tree's copula terms, "
        "sum over edges of sum_y p(y) mean ln c_rho(z_i, z_j) (z the density's training "
        "normal scores): it equals the fitted-model weight only when every z has mean 0 and "
        "mean square 1, which kernel-CDF normal scores do not have (mean z^2 is mostly "
        "0.5-0.96 on these sets, 0 for columns constant in a class, down to 0.01 on "
        "breast_cancer's small-scale columns, whose bandwidth is the var_smoothing floor); "
        "its own maximum spanning tree is the last column.",
        "",
        "| data set | n | d | same edges | same order | edges differing | max abs weight diff "
        "(shared edges) | fitted-model weight, new tree | fitted-model weight, score's tree | "
        "max abs predict_proba diff | predictions changed | accuracy, new tree | accuracy, "
        "score's tree | copula log-lik per row, new tree | same, score's tree | same, "
        "its maximum spanning tree |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {'yes' if r[3] else 'no'} | "
                     f"{'yes' if r[4] else 'no'} | {r[5]} | {r[6]:.2e} | {r[7]:.6f} | "
                     f"{r[8]:.6f} | {r[9]:.2e} | {r[10]} | {r[11]:.4f} | {r[12]:.4f} | {r[13]:.5f} | "
                     f"{r[14]:.5f} | {r[15]:.5f} |")
    write("copula_structure",
          "Copula GNB: tree of the fitted copula against the standalone score's tree", lines)


if __name__ == "__main__":
    main()
