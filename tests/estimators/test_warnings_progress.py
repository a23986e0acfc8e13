"""Warnings point at the user's call; progress bars show only when switched on."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from estimators.datasets import load_dataset
from estimators.ktan import KTANClassifier
from estimators.latent import LatentCNBClassifier
from estimators.progress import progress, progress_enabled, show_progress
from estimators.scores._parallel import run_chunked


def test_warnings_are_attributed_to_the_callers_line():
    X, y = load_dataset("car")
    with pytest.warns(UserWarning, match="needs at least") as record:
        KTANClassifier(k=6).fit(X.iloc[:, :3], y)
    assert {w.filename for w in record if "needs at least" in str(w.message)} == {__file__}
    Xw, yw = load_dataset("wine")
    with pytest.warns(ConvergenceWarning) as record:
        LatentCNBClassifier(max_iter=1, family="gaussian").fit(Xw, yw)
    assert {w.filename for w in record if w.category is ConvergenceWarning} == {__file__}


def test_progress_bars_only_when_switched_on(capsys):
    assert not progress_enabled()
    items = np.arange(50)
    double = lambda data, chunk: np.asarray(chunk) * data  # noqa: E731
    quiet = run_chunked(double, 2.0, items, n_jobs=1)
    assert capsys.readouterr().err == ""
    with show_progress():
        assert progress_enabled()
        shown = run_chunked(double, 2.0, items, n_jobs=1)
        assert list(progress(range(2), "demo")) == [0, 1]
    assert "scores (50 items)" in capsys.readouterr().err
    np.testing.assert_array_equal(quiet, shown)
    assert not progress_enabled()


def test_progress_inside_the_backbone_dp_and_em(capsys):
    X, y = load_dataset("car")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quiet = KTANClassifier(k=2, search="backbone-dp").fit(X, y)
        with show_progress():
            shown = KTANClassifier(k=2, search="backbone-dp").fit(X, y)
            LatentCNBClassifier(n_components=2, max_iter=5, family="categorical").fit(X, y)
    err = capsys.readouterr().err
    assert "backbone DP levels" in err and "EM iterations" in err
    assert shown.structure_ == quiet.structure_ and shown.score_ == quiet.score_
