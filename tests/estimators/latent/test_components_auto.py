"""LatentCNBClassifier(n_components="auto"): the number of components chosen by inner
cross-validated log-loss, checked against a manual cross-validation."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold

from estimators.latent import LatentCNBClassifier

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def _table(n=120, seed=0):
    """Two classes; one categorical and two continuous columns, a few missing cells."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = pd.DataFrame({"colour": np.where(rng.random(n) < 0.3 + 0.4 * y, "red", "blue"),
                      "size": rng.normal(y, 1.0), "weight": rng.normal(-y, 2.0)})
    X.loc[[3, 70], "size"] = np.nan
    return X, y


def test_auto_components_equal_a_manual_cross_validation():
    X, y = _table()
    clf = LatentCNBClassifier(n_components="auto", random_state=0, max_iter=20).fit(X, y)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    assert clf.cv_results_["n_components"] == [1, 2, 3]
    for row, k in enumerate(clf.cv_results_["n_components"]):
        manual = LatentCNBClassifier(k, random_state=0, max_iter=20)
        losses = [log_loss(y[te], manual.fit(X.iloc[tr], y[tr]).predict_proba(X.iloc[te]),
                           labels=[0, 1]) for tr, te in folds.split(X, y)]
        assert clf.cv_results_["mean_log_loss"][row] == pytest.approx(np.mean(losses),
                                                                      rel=1e-10)
    best = clf.cv_results_["n_components"][int(np.argmin(clf.cv_results_["mean_log_loss"]))]
    assert clf.n_components_ == best
    assert {m.n_components for m in clf.estimators_} == {best}
    assert clf.plate_graph().n_components == best
    fixed = LatentCNBClassifier(best, random_state=0, max_iter=20).fit(X, y)
    np.testing.assert_allclose(clf.predict_proba(X), fixed.predict_proba(X), rtol=1e-12)
    assert fixed.cv_results_ is None and fixed.n_components_ == best


def test_a_list_of_components_is_searched_in_increasing_order():
    X, y = _table(seed=1)
    clf = LatentCNBClassifier(n_components=[2, 1, 2], random_state=0, max_iter=20).fit(X, y)
    assert clf.cv_results_["n_components"] == [1, 2]
    assert clf.n_components_ in (1, 2)


@pytest.mark.parametrize("bad", [[0, 2], [], [1.5], [True]])
def test_bad_component_lists(bad):
    X, y = _table()
    with pytest.raises(ValueError, match=r"'n_components' parameter of LatentCNBClassifier"):
        LatentCNBClassifier(n_components=bad).fit(X, y)


def test_bad_component_string():
    X, y = _table()
    with pytest.raises(ValueError, match=r"n_components.*'auto'"):
        LatentCNBClassifier(n_components="best").fit(X, y)
