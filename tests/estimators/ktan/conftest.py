from pathlib import Path

import numpy as np
import pandas as pd
import pytest

DATA = Path(__file__).resolve().parents[3] / "estimators" / "datasets" / "data"


def load(name: str, n_rows: int | None = None, n_features: int | None = None):
    """A data set of the repository as string categories: (X DataFrame, y array)."""
    frame = pd.read_csv(DATA / f"{name}.csv", dtype=str, keep_default_na=False)
    X, y = frame.drop(columns="class"), frame["class"].to_numpy()
    if n_rows is not None:
        idx = np.random.default_rng(0).choice(len(X), size=n_rows, replace=False)
        X, y = X.iloc[np.sort(idx)].reset_index(drop=True), y[np.sort(idx)]
    if n_features is not None:
        X = X.iloc[:, :n_features]
    return X, y


@pytest.fixture(scope="session")
def car():
    return load("car")


@pytest.fixture(scope="session")
def tic_tac_toe():
    return load("tic_tac_toe")


@pytest.fixture(scope="session")
def gaussian_data():
    """Five correlated Gaussian features whose dependence differs between two classes."""
    rng = np.random.default_rng(11)
    n = 600
    y = rng.integers(0, 2, n)
    z = rng.normal(size=(n, 5))
    X = np.cumsum(z, axis=1) * np.where(y[:, None] == 1, 1.0, -0.5) + y[:, None]
    return pd.DataFrame(X, columns=[f"g{i}" for i in range(5)]), np.where(y == 1, "b", "a")
