"""LatentCNBClassifier(n_components="auto"): the number of components chosen by inner
cross-validated log-loss and the one-standard-error rule, checked against a manual
cross-validation; on naive-Bayes data the default is naive Bayes."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold

from estimators.ktan.naive_bayes import NaiveBayesClassifier
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
    clf = LatentCNBClassifier(n_components=[1, 2, 3], random_state=0, max_iter=20).fit(X, y)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    assert clf.cv_results_["n_components"] == [1, 2, 3]
    manual_losses = []
    for row, k in enumerate(clf.cv_results_["n_components"]):
        manual = LatentCNBClassifier(k, random_state=0, max_iter=20)
        losses = [log_loss(y[te], manual.fit(X.iloc[tr], y[tr]).predict_proba(X.iloc[te]),
                           labels=[0, 1]) for tr, te in folds.split(X, y)]
        assert clf.cv_results_["mean_log_loss"][row] == pytest.approx(np.mean(losses),
                                                                      rel=1e-10)
        manual_losses.append(losses)
    best = clf.cv_results_["n_components"][_one_se(np.array(manual_losses))]
    assert clf.n_components_ == best
    assert {m.n_components for m in clf.estimators_} == {best}
    assert clf.plate_graph().n_components == best
    fixed = LatentCNBClassifier(best, random_state=0, max_iter=20).fit(X, y)
    np.testing.assert_allclose(clf.predict_proba(X), fixed.predict_proba(X), rtol=1e-12)
    assert fixed.cv_results_ is None and fixed.n_components_ == best


def _one_se(losses):
    """The one-standard-error rule written out: the first row whose mean loss is at most the
    best row's plus the standard error (scipy's sem, ddof=1) of the paired differences."""
    from scipy.stats import sem

    best = np.argmin(losses.mean(axis=1))
    return next(i for i, row in enumerate(losses)
                if (row - losses[best]).mean() <= sem(row - losses[best]))


def test_auto_is_the_default_and_grows_while_the_loss_falls():
    X, y = _table()
    clf = LatentCNBClassifier(random_state=0, max_iter=20).fit(X, y)
    assert LatentCNBClassifier().n_components == "auto" and clf.cv_results_["rule"] == "one-se"
    tried = clf.cv_results_["n_components"]
    means = clf.cv_results_["mean_log_loss"]
    assert tried == [1, 2, 3][:len(tried)]
    # the next K is tried only while the last one lowered the mean loss strictly
    assert all(b < a for a, b in zip(means[:-2], means[1:-1], strict=True))
    assert len(tried) == 3 or means[-1] >= means[-2]
    assert clf.n_components_ == tried[_one_se(clf.cv_results_["fold_log_loss"])]


def _naive_bayes_table(n=300, seed=0):
    """Binary features independent given the class (the naive Bayes model), 75 % majority."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.75, "a", "b")
    p = np.where(y[:, None] == "a", [0.2, 0.5, 0.7, 0.4, 0.3, 0.6], [0.4, 0.3, 0.5, 0.6, 0.5, 0.4])
    X = pd.DataFrame((rng.random(p.shape) < p).astype(int), columns=list("abcdef"))
    return X, y


def test_default_is_naive_bayes_on_naive_bayes_data():
    """Where the naive Bayes model holds, the default keeps one component, and one
    component is naive Bayes: per class and feature the smoothed frequencies
    ``(count + c) / (n_y + c (r + 1))`` (pseudo-count c, one slot for unseen values)."""
    X, y = _naive_bayes_table()
    clf = LatentCNBClassifier(random_state=0).fit(X, y)
    assert clf.n_components_ == 1
    c = clf.pseudo_count
    log_joint = np.zeros((len(X), 2))
    for col, label in enumerate(clf.classes_):
        rows = X[y == label]
        log_joint[:, col] = np.log(np.mean(y == label))
        for name in X.columns:
            counts = rows[name].value_counts().reindex([0, 1], fill_value=0)
            prob = (counts + c) / (len(rows) + 3 * c)
            log_joint[:, col] += np.log(prob[X[name]].to_numpy())
    expected = np.exp(log_joint - np.logaddexp.reduce(log_joint, axis=1, keepdims=True))
    np.testing.assert_allclose(clf.predict_proba(X), expected, rtol=1e-9)


def test_default_is_not_worse_than_naive_bayes_on_held_out_rows():
    """On a small binary table of naive-Bayes data the default's held-out log-loss is
    naive Bayes' (same folds; naive Bayes with the latent model's pseudo-count)."""
    X, y = _naive_bayes_table(seed=1)
    folds = list(StratifiedKFold(n_splits=3, shuffle=True, random_state=0).split(X, y))

    def held_out_loss(model):
        return np.mean([log_loss(y[te], model.fit(X.iloc[tr], y[tr]).predict_proba(X.iloc[te]))
                        for tr, te in folds])

    nb = held_out_loss(NaiveBayesClassifier(alpha=0.1))
    assert held_out_loss(LatentCNBClassifier(random_state=0)) < nb + 0.005


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
