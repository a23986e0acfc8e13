"""Wide tables: time and peak memory of GNB / TAN / candidate k-TAN at d = 1,000 and 5,000.

n = 2,000 rows of continuous features (each column a noisy copy of an earlier random one,
two classes), the same data for every contender in the same run. Each fit runs in a fresh
subprocess; "peak extra" is the growth of its peak resident memory during the fit (data and
imports excluded), also given in units of d^2 float64 (8 d^2 bytes).

Contenders:

- **NumPy + scipy reference**: per-class ``np.cov`` -> correlations -> ``-1/2 sum_y p(y)
  ln(1 - r^2)`` -> ``scipy.sparse.csgraph.minimum_spanning_tree`` of the negated matrix;
- kgraph ``GNBClassifier`` (Gaussian, Gaussian copula), ``TANClassifier(features="gaussian")``,
  ``KTANClassifier(k=2, search="greedy", candidates=10)``;
- pgmpy 1.x ``TreeSearch(estimator_type="tan")`` on the features cut into quartiles (it needs
  discrete data), capped by a timeout.

Run: ``PYTHONPATH=. python benchmarks/wide.py`` (writes results/wide.md; ~15 min on 2 cores).
``--quick`` runs d = 200 and 1,000 only.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

N = 2000
TIMEOUT = {"pgmpy-treesearch": 180}
DEFAULT_TIMEOUT = 900


def make_data(n: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.standard_normal((n, d))
    for j in range(1, d):
        parent = rng.integers(0, j)
        X[:, j] += (0.4 + 0.5 * y) * X[:, parent]
    return X, y


def reference(X: np.ndarray, y: np.ndarray):
    from scipy.sparse.csgraph import minimum_spanning_tree

    W = np.zeros((X.shape[1], X.shape[1]))
    for c in np.unique(y):
        r = np.corrcoef(X[y == c], rowvar=False)
        W += (y == c).mean() * np.log1p(-np.minimum(r * r, 1 - 1e-15))
    return minimum_spanning_tree(W)  # W = -2 x the CMI: the minimum tree is the maximum one


def pgmpy_tan(X: np.ndarray, y: np.ndarray):
    import pandas as pd
    from pgmpy.estimators import TreeSearch

    cut = np.quantile(X, [0.25, 0.5, 0.75], axis=0)
    codes = (X[:, None, :] > cut[None]).sum(axis=1)
    frame = pd.DataFrame(codes, columns=[f"x{j}" for j in range(X.shape[1])])
    frame["class"] = y
    return TreeSearch(frame, root_node="x0").estimate(estimator_type="tan", class_node="class",
                                                      show_progress=False)


def contenders():
    from estimators.gnb import GNBClassifier
    from estimators.ktan import KTANClassifier, TANClassifier

    return {
        "numpy+scipy reference": reference,
        "GNB gaussian": lambda X, y: GNBClassifier(dependence="gaussian").fit(X, y),
        "GNB gaussian-copula": lambda X, y: GNBClassifier(dependence="gaussian-copula").fit(X, y),
        "TAN (gaussian)": lambda X, y: TANClassifier(features="gaussian").fit(X, y),
        "2-TAN greedy, 10 candidates": lambda X, y: KTANClassifier(
            k=2, search="greedy", features="gaussian", candidates=10).fit(X, y),
        "pgmpy-treesearch": pgmpy_tan,
    }


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def one(name: str, d: int) -> None:
    """Child process: fit one contender, print JSON (seconds, peak extra MB)."""
    X, y = make_data(N, d)
    fn = contenders()[name]
    before = _peak_mb()
    t0 = time.perf_counter()
    fn(X, y)
    seconds = time.perf_counter() - t0
    print(json.dumps({"seconds": seconds, "extra_mb": max(_peak_mb() - before, 0.0)}))


def measure(name: str, d: int) -> dict:
    timeout = TIMEOUT.get(name, DEFAULT_TIMEOUT)
    try:
        done = subprocess.run([sys.executable, __file__, "--one", name, str(d)], cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"did not finish in {timeout} s"}
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1][:80]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def loss_lines() -> list[str]:
    """Score lost to the candidate restriction at d <= 60 (same data, same backbone)."""
    from estimators.scores import GaussianCMI
    from estimators.search import backbone_dp, backbone_order, greedy_ktree
    from estimators.search.candidates import CandidateScore, top_candidates

    lines = ["", "## Score lost to the candidate restriction (k = 2, n = 2,000)", "",
             "Objective sum_v I(X_v; X_pa(v) | Y) in nats; loss relative to the unrestricted "
             "search on the same data (the backbone DP keeps the same mst-dfs backbone).", "",
             "| d | search | unrestricted | m | restricted | loss | hyperedges scored |",
             "|---:|---|---:|---:|---:|---:|---:|"]
    for d in (30, 60):
        X, y = make_data(N, d)
        score = GaussianCMI().fit(X, y)
        W, names = score.edge_matrix(), score.variables_
        order = backbone_order(W, "mst-dfs", variables=names)
        full = {"greedy": greedy_ktree(score, 2).score,
                "backbone-dp": backbone_dp(score, order, 2).score}
        for m in (5, 10):
            for search, value in full.items():
                f = CandidateScore(score, top_candidates(
                    W, m, names, zip(order, order[1:], strict=False) if search != "greedy" else ()))
                try:
                    got = (greedy_ktree(f, 2) if search == "greedy"
                           else backbone_dp(f, order, 2)).score
                except ValueError as exc:
                    lines.append(f"| {d} | {search} | {value:.3f} | {m} | {exc} | | |")
                    continue
                lines.append(f"| {d} | {search} | {value:.3f} | {m} | {got:.3f} | "
                             f"{(value - got) / value:.2%} | {f.n_scored_} |")
    return lines


def main(sizes: list[int]) -> None:
    from _common import write

    lines = [f"n = {N} rows, two classes; each cell: wall time, peak extra memory (MB, and in "
             "units of d^2 float64). The ratio column divides by the NumPy + scipy reference "
             "at the same d.", "",
             "| d | contender | seconds | vs reference | peak extra MB | d^2 floats |",
             "|---:|---|---:|---:|---:|---:|"]
    for d in sizes:
        ref = None
        for name in contenders():
            r = measure(name, d)
            print(d, name, r, file=sys.stderr, flush=True)
            if "error" in r:
                lines.append(f"| {d} | {name} | {r['error']} | | | |")
                continue
            ref = r["seconds"] if ref is None else ref
            units = r["extra_mb"] * 2**20 / (8 * d * d)
            lines.append(f"| {d} | {name} | {r['seconds']:.2f} | {r['seconds'] / ref:.2f}x | "
                         f"{r['extra_mb']:.0f} | {units:.1f} |")
    lines += loss_lines()
    lines += ["", "Command: `PYTHONPATH=. python benchmarks/wide.py`."]
    write("wide" if sizes == [1000, 5000] else "wide_quick", "Wide tables (issue 18)", lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        one(sys.argv[2], int(sys.argv[3]))
    else:
        main([200, 1000] if "--quick" in sys.argv else [1000, 5000])
