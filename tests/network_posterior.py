"""The class posterior of a pgmpy network from its CPDs alone (brute force, no inference
engine), shared by the export tests."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd


def brute_posterior(bn, target, rows: pd.DataFrame) -> np.ndarray:
    """p(class | x) of every row: the product of every CPD entry, summed over every state
    of the nodes that are neither the class nor a column of ``rows`` (latent nodes),
    normalised over the classes."""
    cpds = {cpd.variable: cpd for cpd in bn.get_cpds()}
    hidden = [v for v in cpds if v != target and v not in rows.columns]
    spaces = [cpds[v].state_names[v] for v in hidden]
    classes = cpds[target].state_names[target]
    out = np.zeros((len(rows), len(classes)))
    for i, row in enumerate(rows.itertuples(index=False)):
        x = dict(zip(rows.columns, row, strict=True))
        for c, label in enumerate(classes):
            for latent in itertools.product(*spaces):
                value = {**x, target: label, **dict(zip(hidden, latent, strict=True))}
                p = 1.0
                for cpd in cpds.values():
                    p *= cpd.get_value(**{u: value[u] for u in cpd.variables})
                out[i, c] += p
    return out / out.sum(axis=1, keepdims=True)


def all_rows(X: pd.DataFrame) -> pd.DataFrame:
    """Every combination of the training categories of ``X``."""
    cats = [sorted(X[c].unique()) for c in X.columns]
    return pd.DataFrame(list(itertools.product(*cats)), columns=X.columns)
