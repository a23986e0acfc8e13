"""Benchmark: paper 3 (latent conditional Naive Bayes) tables 1 and 2, categorical data, speed.

- Table 1 protocol: 70/30 split (stratified, seeds 0..9), 10 EM iterations, perplexity per
  observed feature (eq. 32) on the 30 % test part, for LD-, LGD- and LBL-CNB-Gaussian on
  wine, balance_scale, heart_failure, WDBC (scikit-learn's breast cancer) and yeast, with
  the paper's numbers beside ours. K = the number of classes; features standardised with the
  training part's mean and standard deviation (the paper states no scaling; a Gaussian
  perplexity depends on the units). The ELBO replaces ln p(x), so every perplexity here is an
  upper bound of the model's true perplexity.
- Table 2: WDBC accuracy / precision / recall / F1 (malignant positive) of the dominant
  component, the K = 2 components matched to the classes by Hungarian matching
  (scipy.optimize.linear_sum_assignment) on the training part, scored on the test part.
- Table 1 readings (``paper3_readings.py``): the perplexity under several scalings and
  formulas (eq. 32 / 33, log base, per-row normalisation), each against the paper's cells.
- Categorical family on votes and mushroom ('?' = missing), and a sparse variant with 50 % of
  the entries hidden at random: perplexity per feature (eq. 32) and per row (eq. 33). These
  two are SUBSTITUTES for the paper's MovieLens 100K (Table 3, figure 1), which is not
  available offline; no number of theirs is comparable with the paper's.
- Speed: one EM iteration at n = 100,000, d = 20, K = 5 against scikit-learn's
  GaussianMixture(covariance_type="diag", max_iter=1, tol=0) on the same data
  (tol=0 on both sides so that max_iter=3 really runs three iterations).

All priors use their default parameters (every parameter 1.0; see LatentCNB): Dirichlet
alpha = 1 (K values); generalized Dirichlet alpha = beta = 1 (K - 1 stick Beta shapes);
Beta-Liouville alpha = 1 (K - 1 Dirichlet parameters of w), u ~ Beta(1, 1). The paper states
none of its hyperparameters. Table 2 runs 20 initialisations (seeds 0..19), as the paper.
Run: ``python benchmarks/paper3.py`` (writes results/paper3.md; or ``kgraph bench paper3``);
``--quick`` (wine, votes, 2 seeds, no speed run) writes results/paper3_quick.md for CI.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import write  # noqa: E402
from paper3_readings import readings_lines  # noqa: E402
from scipy.optimize import linear_sum_assignment  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.metrics import accuracy_score, precision_recall_fscore_support  # noqa: E402
from sklearn.mixture import GaussianMixture  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

from estimators.datasets import load_dataset  # noqa: E402
from estimators.latent import LatentCNB, LatentCNBClassifier, e_step  # noqa: E402

warnings.filterwarnings("ignore", category=ConvergenceWarning)

SEEDS = range(10)
TABLE2_SEEDS = range(20)  # the paper: averages of 20 runs with random initial values
READING_SEEDS = range(3)
CATEGORICAL_SETS = ("votes", "mushroom")
PRIORS = {"LD": "dirichlet", "LGD": "generalized-dirichlet", "LBL": "beta-liouville"}
GAUSSIAN_SETS = {  # name -> (loader name, paper's Table 1 row LD, LGD, LBL)
    "Wine": ("wine", (0.9936, 0.9804, 0.93262)),
    "Balance": ("balance_scale", (0.9966, 0.9810, 0.9953)),
    "HeartFailure": ("heart_failure", (0.9837, 0.8792, 0.7987)),
    "WDBC": ("breast_cancer", (0.9967, 0.9943, 0.9925)),
    "Yeast": ("yeast", (0.9974, 0.9963, 0.9959)),
}
PAPER_TABLE2 = {"LD": (0.63, 0.55, 0.075, 0.132), "LGD": (0.85, 0.75, 0.90, 0.828),
                "LBL": (0.82, 0.92, 0.55, 0.688)}


def ms(values) -> str:
    values = np.asarray(values, dtype=float)
    return f"{values.mean():.4f} ± {values.std(ddof=1):.4f}"


def split(X, y, seed):
    return train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)


def standardise(train, test):
    mean, sd = train.mean(axis=0), train.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    return (train - mean) / sd, (test - mean) / sd


def fit(prior, family, K, X, seed, max_iter=10):
    return LatentCNB(K, prior=prior, family=family, max_iter=max_iter, tol=0,
                     random_state=seed).fit(X)


def versus_dirichlet(results: dict[str, list[float]], lower_is_better=True) -> list[str]:
    """Paired comparison over seeds of each generalized prior with the Dirichlet; a
    difference below 1e-9 (the same model, up to the last bits of the CPU's arithmetic) is
    neither a win nor a loss and counts as 0."""
    out = []
    for key in ("LGD", "LBL"):
        diff = np.asarray(results[key]) - np.asarray(results["LD"])
        diff = np.where(np.abs(diff) < 1e-9, 0.0, diff)
        wins = int((diff < 0).sum() if lower_is_better else (diff > 0).sum())
        losses = int((diff > 0).sum() if lower_is_better else (diff < 0).sum())
        if np.all(np.abs(diff) < 1e-9):
            verdict = "identical"
        elif wins >= 0.8 * diff.size:
            verdict = "**better**"
        elif losses >= 0.8 * diff.size:
            verdict = "**worse**"
        else:
            verdict = "no clear difference"
        out.append(f"{key} − LD {diff.mean():+.4f} ± {diff.std(ddof=1):.4f} "
                   f"(better in {wins}/{diff.size}, worse in {losses}/{diff.size}: {verdict})")
    return out


def table1(lines):
    lines += ["## Table 1: perplexity per observed feature, Gaussian family (10 EM iterations)",
              "", f"Mean ± standard deviation over {len(SEEDS)} stratified 70/30 splits (seed = init seed).",
              "", "| data | K | LD (paper) | LD (ours) | LGD (paper) | LGD (ours) | LBL (paper) "
              "| LBL (ours) | paired vs LD (ours) |", "|---|---|---|---|---|---|---|---|---|"]
    for label, (name, paper) in GAUSSIAN_SETS.items():
        X, y = load_dataset(name)
        X = X.to_numpy(dtype=float)
        K = y.nunique()
        res = {key: [] for key in PRIORS}
        for seed in SEEDS:
            Xtr, Xte, _, _ = split(X, y, seed)
            Xtr, Xte = standardise(Xtr, Xte)
            for key, prior in PRIORS.items():
                res[key].append(fit(prior, "gaussian", K, Xtr, seed).perplexity(Xte))
        cells = [f"{p} | {ms(res[k])}" for p, k in zip(paper, PRIORS, strict=True)]
        lines.append(f"| {label} | {K} | " + " | ".join(cells) + " | "
                     + "; ".join(versus_dirichlet(res)) + " |")
    lines.append("")


def matched_scores(model, Xtr, ytr, Xte, yte, positive):
    """Components matched to classes (Hungarian, on the training part), scored on test."""
    classes = np.unique(ytr)
    comp_tr = model.predict(Xtr)
    K = model.n_components
    agree = np.array([[np.sum((comp_tr == k) & (ytr == c)) for c in classes] for k in range(K)])
    rows, cols = linear_sum_assignment(-agree)
    mapping = dict(zip(rows, classes[cols], strict=True))
    pred = np.array([mapping.get(k, "unmatched") for k in model.predict(Xte)], dtype=object)
    yte = np.asarray(yte, dtype=object)
    p, r, f, _ = precision_recall_fscore_support(yte == positive, pred == positive,
                                                 average="binary", zero_division=0)
    return float(np.mean(yte == pred)), p, r, f


def table2(lines):
    X, y = load_dataset("breast_cancer")
    X, y = X.to_numpy(dtype=float), y.to_numpy()
    hyper = "; ".join(f"{key}: " + ", ".join(
        f"{k}={np.round(v, 3).tolist()}" for k, v in vars(fit(prior, "gaussian", 2, X[:40], 0,
                                                               max_iter=1).prior_).items()
        if k != "n_components") for key, prior in PRIORS.items())
    lines += ["## Table 2: WDBC, dominant component matched to the class (Hungarian matching)",
              "", "K = 2, 10 EM iterations; components matched to classes by "
              "`scipy.optimize.linear_sum_assignment` on the training part's dominant "
              "components, scored on the test part; malignant is the positive class. "
              f"Mean ± sd over {len(TABLE2_SEEDS)} seeds = split and initialisation seeds (the paper: "
              "20 initialisations). Hyperparameters (all three priors, as resolved by "
              "the fitted model): " + hyper + ". With K = 2 each is a Beta(1, 1) law on pi_1, so "
              "the three rows must be equal. Last row: the "
              "supervised LatentCNBClassifier (K = 2 per class, Dirichlet), for comparison.",
              "", "| model | accuracy (paper) | accuracy | precision (paper) | precision | "
              "recall (paper) | recall | F1 (paper) | F1 |", "|---|---|---|---|---|---|---|---|---|"]
    accuracy = {}
    for key, prior in PRIORS.items():
        scores = []
        for seed in TABLE2_SEEDS:
            Xtr, Xte, ytr, yte = split(X, y, seed)
            Xtr, Xte = standardise(Xtr, Xte)
            scores.append(matched_scores(fit(prior, "gaussian", 2, Xtr, seed), Xtr, ytr, Xte,
                                         yte, "malignant"))
        scores = np.array(scores)
        accuracy[key] = scores[:, 0]
        cells = [f"{p} | {ms(scores[:, i])}" for i, p in enumerate(PAPER_TABLE2[key])]
        lines.append(f"| {key}-CNB | " + " | ".join(cells) + " |")
    sup = []
    for seed in TABLE2_SEEDS:
        Xtr, Xte, ytr, yte = split(X, y, seed)
        Xtr, Xte = standardise(Xtr, Xte)
        pred = LatentCNBClassifier(2, max_iter=10, tol=0, random_state=seed).fit(Xtr, ytr)
        pred = pred.predict(Xte)
        p, r, f, _ = precision_recall_fscore_support(yte, pred, pos_label="malignant",
                                                     average="binary")
        sup.append((accuracy_score(yte, pred), p, r, f))
    sup = np.array(sup)
    lines.append("| LatentCNBClassifier | – | " + " | – | ".join(ms(sup[:, i]) for i in range(4))
                 + " |")
    lines += ["", "Accuracy, paired vs LD: " + "; ".join(
        versus_dirichlet(accuracy, lower_is_better=False)), ""]


def categorical(lines):
    lines += ["## Categorical family: votes and mushroom ('?' = missing), substitutes for "
              "MovieLens", "", "The paper's discrete experiment (Table 3, figure 1) uses "
              "MovieLens 100K, which is not available offline; votes and mushroom are "
              "substitutes (categorical, with missing entries), so none of these numbers is "
              "comparable with the paper's Table 3.", "",
              "K = 2 (the number of classes) and K = 4, 10 EM iterations, pseudo-count 0.1; "
              "perplexity per observed feature "
              "(eq. 32) and per row (eq. 33) on the 30 % test part; 'sparse': 50 % of all "
              "entries (train and test) hidden at random (the seed's own mask; each row keeps "
              "one of its observed values). Accuracy: dominant component matched to the "
              "class (Hungarian, on the training part; with K = 4 two components stay "
              f"unmatched and their rows count as errors). Mean ± sd over {len(SEEDS)} seeds.", "",
              "| data | prior | perplexity/feature | perplexity/row | accuracy |",
              "|---|---|---|---|---|"]
    summary = []
    for name in CATEGORICAL_SETS:
        X, y = load_dataset(name)
        X = X.astype(object).where(X != "?", None).to_numpy()
        some = (X != None).any(axis=1)  # noqa: E711  (votes has rows with no recorded vote)
        X, y = X[some], y.to_numpy()[some]
        dropped = int((~some).sum())
        for sparse, K in ((False, 2), (True, 2), (False, 4), (True, 4)):
            label = f"{name}{' (sparse)' if sparse else ''}, K = {K}"
            per_feature = {key: [] for key in PRIORS}
            for key, prior in PRIORS.items():
                per_row, acc = [], []
                for seed in SEEDS:
                    Xs = X.copy()
                    if sparse:
                        rng = np.random.default_rng(1000 + seed)
                        hide = rng.random(X.shape) < 0.5
                        observed = X != None  # noqa: E711
                        keep = (rng.random(X.shape) * observed).argmax(axis=1)
                        hide[np.arange(X.shape[0]), keep] = False
                        Xs[hide] = None
                    Xtr, Xte, ytr, yte = split(Xs, y, seed)
                    model = fit(prior, "categorical", K, Xtr, seed)
                    per_feature[key].append(model.perplexity(Xte))
                    per_row.append(model.perplexity(Xte, per="row"))
                    acc.append(matched_scores(model, Xtr, ytr, Xte, yte, ytr[0])[0])
                lines.append(f"| {label} | {key} | {ms(per_feature[key])} | {ms(per_row)} | "
                             f"{ms(acc)} |")
            summary.append(f"- {label} ({dropped} row(s) with no observed value dropped), "
                           "perplexity/feature: " + "; ".join(versus_dirichlet(per_feature)))
    lines += ["", "Paired differences of the perplexity per feature (negative = the generalized "
              "prior is better):", ""] + summary + [""]


def speed(lines):
    rng = np.random.default_rng(0)
    n, d, K = 100_000, 20, 5
    X = rng.normal(size=(n, d)) + rng.integers(0, K, n)[:, None] * rng.uniform(0.5, 2, d)

    def timed(make, repeat=3):
        best = np.inf
        for _ in range(repeat):
            t0 = time.perf_counter()
            model = make().fit(X)
            best = min(best, time.perf_counter() - t0)
        return best, model

    ours1, m1 = timed(lambda: LatentCNB(K, max_iter=1, tol=0, random_state=0))
    ours3, _ = timed(lambda: LatentCNB(K, max_iter=3, tol=0, random_state=0))
    gmm1, _ = timed(lambda: GaussianMixture(K, covariance_type="diag", max_iter=1, tol=0,
                                            random_state=0))
    gmm3, _ = timed(lambda: GaussianMixture(K, covariance_type="diag", max_iter=3, tol=0,
                                            random_state=0))
    part1, _ = timed(lambda: LatentCNB(K, max_iter=1, tol=0, e_step_max_iter=1, random_state=0))
    part3, _ = timed(lambda: LatentCNB(K, max_iter=3, tol=0, e_step_max_iter=1, random_state=0))
    ours_it, gmm_it = (ours3 - ours1) / 2, (gmm3 - gmm1) / 2
    part_it = (part3 - part1) / 2
    # sweeps of the E-step: from scratch with the fitted parameters, then warm after an M-step
    family, prior = m1.family_, m1.prior_
    data, mask = family.encode(m1.encoder_.transform(X), fit=False)
    cold = e_step(prior, family.log_likelihood(m1.params_, data, mask), mask, tol=1e-4)
    theta = family.m_step(data, mask, cold.phi)
    warm = e_step(prior, family.log_likelihood(theta, data, mask), mask, cold.counts, tol=1e-4)
    lines += ["## Speed: one EM iteration, n = 100,000, d = 20, K = 5 (best of 3)", "",
              "| what | LatentCNB (Dirichlet, Gaussian) | GaussianMixture(diag) | ratio |",
              "|---|---|---|---|",
              f"| `fit` with max_iter=1 (initialisation + one iteration) | {ours1:.2f} s | "
              f"{gmm1:.2f} s | {ours1 / gmm1:.1f}x |",
              f"| one further iteration ((max_iter=3 − max_iter=1) / 2) | {ours_it:.2f} s | "
              f"{gmm_it:.2f} s | {ours_it / gmm_it:.1f}x |",
              f"| `fit` with max_iter=1, partial E-step (e_step_max_iter=1) | {part1:.2f} s | "
              f"{gmm1:.2f} s | {part1 / gmm1:.1f}x |",
              f"| one further iteration, partial E-step | {part_it:.2f} s | {gmm_it:.2f} s | "
              f"{part_it / gmm_it:.1f}x |", "",
              "The target was 5x. With the full E-step that MATH.md §6 prescribes (each row "
              "iterated until its ELBO stops rising) it is not reached; a partial E-step (one "
              "sweep per EM iteration, still a monotone coordinate ascent of the ELBO) is "
              "closer but departs from MATH.md, so it is an option, not the default.", "",
              "LatentCNB's iteration is an M-step plus a full variational E-step: every row's "
              "fixed point (phi, q(pi)) is iterated until a sweep raises its ELBO by at most "
              f"e_step_tol = 1e-4 nats ({cold.n_iter} sweeps over an (n, K, d) array from "
              f"scratch, {warm.n_iter} warm-started after an M-step, on this data), whereas a "
              "GaussianMixture E-step is a single pass over (n, K); its initialisation runs "
              "k-means. The machine's load average is on the first line: both sides run "
              "under the same load.", ""]


NOTE = [
    "Regenerate with one command: `python benchmarks/paper3.py` (this file; `--quick` writes "
    "paper3_quick.md).",
    "",
    "Hyperparameters, every table: all three priors at their defaults (every parameter 1.0; "
    "the paper states none of its own): Dirichlet alpha = 1 (K values); generalized Dirichlet "
    "alpha = beta = 1 (K - 1 stick Beta shapes); Beta-Liouville alpha = 1 (K - 1 Dirichlet "
    "parameters of w) and u ~ Beta(1, 1). 10 EM iterations. Data: Table 1 and 2 use the "
    "paper's UCI sets (WDBC = scikit-learn's copy of the 569-row UCI data); the categorical "
    "section uses votes and mushroom as SUBSTITUTES for the paper's MovieLens 100K.",
    "",
    "Read first: with K = 2 the three priors are the same family. A two-component "
    "Dirichlet(a1, a2), a generalized Dirichlet with one stick V1 ~ Beta(a, b) and a "
    "Beta-Liouville with u ~ Beta(a, b) (w has a single component) are all a Beta law on pi_1, "
    "and the default parameters (all 1.0) make them the same Beta(1, 1). So every K = 2 cell "
    "(HeartFailure, WDBC, Table 2, the K = 2 categorical rows) is identical across priors, "
    "as it must be; the paper's K = 2 differences cannot come from the prior family itself.",
    "",
    "The paper's Gaussian perplexities are all just below 1 and its scaling is not stated; "
    "Table 1 below is on standardised features (eq. 32), so only the comparison between "
    "priors carries over; the section after it lists the other readings tried, with numbers.",
    "",
]


def main(argv=None):
    import argparse

    global SEEDS, GAUSSIAN_SETS, CATEGORICAL_SETS, TABLE2_SEEDS, READING_SEEDS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="wine and votes, 2 seeds, no speed run (for CI)")
    args = ap.parse_args(argv)
    if args.quick:
        SEEDS = TABLE2_SEEDS = range(2)
        READING_SEEDS = range(1)
        GAUSSIAN_SETS = {k: v for k, v in GAUSSIAN_SETS.items() if k == "Wine"}
        CATEGORICAL_SETS = ("votes",)
    start = time.perf_counter()
    lines: list[str] = list(NOTE)
    table1(lines)
    lines += readings_lines(GAUSSIAN_SETS, PRIORS, READING_SEEDS)
    table2(lines)
    categorical(lines)
    if not args.quick:
        speed(lines)
    lines.append(f"Total run time: {time.perf_counter() - start:.0f} s.")
    write("paper3_quick" if args.quick else "paper3",
          "Paper 3: latent conditional Naive Bayes (LD-, LGD-, LBL-CNB)", lines)


if __name__ == "__main__":
    main()
