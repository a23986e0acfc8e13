"""Missing-value marginalisation: cost of grouping rows by missing pattern.

Discrete k-TAN (k = 2) fitted on the complete shipped tables ``car`` and ``tic_tac_toe``;
10 %, 20 % and 40 % of the entries then removed completely at random (seed 0).
``ln p(y, x_O)`` by the pattern-grouped engine (``discrete_log_marginal``, one elimination
per distinct pattern) and by the evidence engine (``discrete_log_marginal_evidence``, one
elimination for all rows), same run, best of 3; the two must agree to 1e-9.

Run: ``PYTHONPATH=. python benchmarks/marginal_patterns.py``.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import QUICK, best_time, write  # noqa: E402

from estimators.ktan import KTANClassifier  # noqa: E402
from estimators.marginal import (  # noqa: E402
    discrete_log_marginal,
    discrete_log_marginal_evidence,
)

DATA = Path(__file__).resolve().parents[1] / "estimators" / "datasets" / "data"


def main() -> None:
    lines = ["| table | rows x features | missing | patterns | by pattern (s) | evidence (s) "
             "| ratio | max difference |", "|---|---|---|---|---|---|---|---|"]
    for name in ("car",) if QUICK else ("car", "tic_tac_toe"):
        frame = pd.read_csv(DATA / f"{name}.csv", dtype=str, keep_default_na=False)
        X, y = frame.drop(columns="class"), frame["class"].to_numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf = KTANClassifier(k=2).fit(X, y)
        codes = clf._check_X(X).codes
        factors = clf.network_.marginal_factors
        rng = np.random.default_rng(0)
        for rate in (0.2,) if QUICK else (0.1, 0.2, 0.4):
            m = rng.random(codes.shape) < rate
            args = (factors, clf.class_log_prior_, codes, m)
            t1, a = best_time(lambda args=args: discrete_log_marginal(*args))
            t2, b = best_time(lambda args=args: discrete_log_marginal_evidence(*args))
            diff = float(np.abs(a - b).max())
            assert diff < 1e-9, diff
            lines.append(f"| {name} | {codes.shape[0]} x {codes.shape[1]} | {rate:.0%} "
                         f"| {len(np.unique(m, axis=0))} | {t1:.3f} | {t2:.3f} "
                         f"| {t1 / t2:.2f} | {diff:.1e} |")
    write("marginal_patterns", "Marginalisation: by missing pattern vs per-row evidence", lines)


if __name__ == "__main__":
    main()
