"""k="auto", structure scores and the BDeu CPT prior of the k-TAN classifiers."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold

from estimators.ktan import KTANClassifier, TANClassifier
from estimators.learning.model_selection import one_standard_error, select_by_cv, smallest_mean
from estimators.scores import BIC, DiscreteBDeu
from estimators.search import backbone_dp, backbone_order

from .conftest import load


@pytest.fixture(scope="module")
def car_small():
    return load("car", n_rows=500)


def test_auto_table_equals_a_manual_cross_validation(car_small):
    X, y = car_small
    clf = KTANClassifier(k=[1, 2], structure_score="auto", feature_selection=None).fit(X, y)
    table = clf.cv_results_
    assert list(zip(table["k"], table["structure_score"], strict=True)) == [
        (1, "cmi"), (1, "bic"), (1, "bdeu"), (2, "cmi"), (2, "bic"), (2, "bdeu")]
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    manual = []
    for row, (k, score) in enumerate(zip(table["k"], table["structure_score"], strict=True)):
        losses = []
        for train, test in folds.split(X, y):
            model = KTANClassifier(k=k, structure_score=score).fit(X.iloc[train], y[train])
            losses.append(log_loss(y[test], model.predict_proba(X.iloc[test]), labels=model.classes_))
        assert table["mean_log_loss"][row] == pytest.approx(np.mean(losses), rel=1e-10)
        manual.append(losses)
    best = _one_standard_error_by_hand(np.array(manual))
    assert table["rule"] == "one-se"
    assert (clf.k_, clf.structure_score_) == (table["k"][best], table["structure_score"][best])
    refit = KTANClassifier(k=clf.k_, structure_score=clf.structure_score_).fit(X, y)
    np.testing.assert_allclose(clf.predict_proba(X), refit.predict_proba(X), rtol=1e-12)


def _one_standard_error_by_hand(losses):
    """The first row whose mean loss exceeds the best row's by at most scipy's standard
    error of the mean (ddof=1) of their paired fold differences."""
    from scipy.stats import sem

    best = np.argmin(losses.mean(axis=1))
    return next(i for i, row in enumerate(losses)
                if (row - losses[best]).mean() <= sem(row - losses[best]))


@pytest.mark.parametrize(("losses", "expected"), [
    # k = 2 better on average, by less than the spread of the paired differences: TAN
    ([[0.50, 0.40, 0.60, 0.55, 0.45], [0.52, 0.30, 0.61, 0.54, 0.44]], 0),
    # k = 2 better on every fold by about the same amount: k = 2
    ([[0.50, 0.40, 0.60, 0.55, 0.45], [0.48, 0.39, 0.58, 0.54, 0.43]], 1),
    # exact ties: the first (simplest)
    ([[0.5, 0.4, 0.6], [0.5, 0.4, 0.6], [0.5, 0.4, 0.6]], 0),
    # the best is the third, the second is within one error of it, the first is not
    ([[0.70, 0.60, 0.80], [0.52, 0.41, 0.60], [0.50, 0.40, 0.61]], 1),
    # a simpler candidate is always kept over a worse middle one when it qualifies
    ([[0.501, 0.399, 0.600], [0.90, 0.90, 0.90], [0.50, 0.40, 0.60]], 0),
])
def test_one_standard_error_rule_on_constructed_scores(losses, expected):
    losses = np.array(losses)
    assert one_standard_error(losses) == expected == _one_standard_error_by_hand(losses)
    assert smallest_mean(losses) == int(np.argmin(losses.mean(axis=1)))


def test_select_by_cv_refuses_an_unknown_rule(car_small):
    X, y = car_small
    with pytest.raises(ValueError, match=r"selection rule must be one of \['min', 'one-se'\]; got 'best'"):
        select_by_cv(KTANClassifier(k=1), X, y, [{"k": 1}], rule="best")


def test_default_choice_is_the_one_standard_error_choice(car_small):
    """The default's choice is the 1-SE choice of its own fold losses, and the plain
    minimum (``rule="min"``) differs from it only toward a more complex candidate."""
    X, y = car_small
    clf = KTANClassifier(random_state=0).fit(X, y)
    table = clf.cv_results_
    losses = table["fold_log_loss"]
    chosen = _one_standard_error_by_hand(losses)
    assert (clf.k_, clf.feature_selection_) == (table["k"][chosen],
                                                table["feature_selection"][chosen])
    assert chosen <= int(np.argmin(table["mean_log_loss"]))


def test_fixed_k_keeps_its_choice_and_no_table(car_small):
    clf = KTANClassifier(k=2).fit(*car_small)
    assert (clf.k_, clf.structure_score_, clf.cv_results_) == (2, "cmi", None)


@pytest.mark.parametrize(("name", "score"), [("bic", BIC()), ("bdeu", DiscreteBDeu())])
def test_structure_score_is_the_named_score(car_small, name, score):
    X, y = car_small
    clf = KTANClassifier(k=2, backbone="given", structure_score=name).fit(X, y)
    fitted = score.fit(X, y)
    expected = backbone_dp(fitted, tuple(X.columns), 2)
    assert clf.score_ == pytest.approx(expected.score, rel=1e-10)
    # score-equivalent orientations tie exactly; the classifier breaks ties by name
    # (estimators.search.ties), the direct call by the order given
    assert {frozenset(e) for e in clf.structure_.edges} == \
        {frozenset(e) for e in expected.structure.edges}


def test_tan_with_ess_uses_the_bdeu_cpts(car_small):
    X, y = car_small
    clf = TANClassifier(ess=4.0).fit(X, y)
    enc = clf._check_X(X)
    m = clf.classes_.size
    data = X.assign(_y=np.unique(y, return_inverse=True)[1])
    for factor, v in zip(clf.network_.factors, clf.network_.columns, strict=True):
        name = X.columns[v]
        pa = sorted(clf.structure_.parents(name))
        r = X[name].nunique()
        a = 4.0 / (r * np.prod([X[p].nunique() for p in pa]) * m)  # ess over r_v * q_v * m
        joint = data.groupby(["_y", *pa, name]).size()
        margin = data.groupby(["_y", *pa]).size()
        got = factor.log_prob(enc)
        for i in range(0, len(X), 97):
            for c in range(m):
                key = (c, *X.iloc[i][pa])
                expected = (joint.get((*key, X.iloc[i][name]), 0) + a) / (
                    margin.get(key if pa else c, 0) + a * r)
                assert np.exp(got[i, c]) == pytest.approx(expected, rel=1e-12)


def test_auto_k_is_capped_at_the_features(car_small):
    X, y = car_small
    clf = KTANClassifier(k="auto", feature_selection=None).fit(X.iloc[:, :3], y)
    assert clf.cv_results_["k"] == [1, 2]


def test_gaussian_auto_scores_skip_bdeu(gaussian_data):
    X, y = gaussian_data
    clf = KTANClassifier(k=[1], structure_score="auto").fit(X, y)
    assert clf.cv_results_["structure_score"] == ["cmi", "bic"]


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"k": 2, "structure_score": "auto"}, r"structure_score='auto'.*use k='auto'.*Got k=2"),
        ({"k": []}, r"'k' parameter of KTANClassifier must be .*non-empty list.*Got \[\]"),
        ({"k": [1, 0]}, r"'k' parameter of KTANClassifier must be .*Got \[1, 0\]"),
        # a requested k above the features' range is refused, not dropped (car: 6 features)
        ({"k": [1, 6, 9]}, r"k=\[1, 6, 9\] asks for k=6, 9, outside 1\.\.5: a k-tree over 6 "
                           r"features has k <= 5"),
        ({"structure_score": "aic"}, r"'structure_score' parameter of KTANClassifier must be"),
        ({"ess": 0.0}, r"'ess' parameter of KTANClassifier must be"),
    ],
)
def test_bad_parameters(car_small, params, match):
    with pytest.raises(ValueError, match=match):
        KTANClassifier(**params).fit(*car_small)


def test_bdeu_on_gaussian_features_names_the_usable_scores(gaussian_data):
    with pytest.raises(ValueError, match=r"'bdeu' is defined for discrete features only.*\['bic', 'cmi', 'gaussian-copula', 'kde'\]"):
        KTANClassifier(k=1, structure_score="bdeu").fit(*gaussian_data)


def test_auto_with_a_one_row_class_scores_the_folds_that_saw_each_class(car_small):
    """A class with one training row is absent from one training part: the auto choice still
    runs, and each fold's loss is the manual log-loss over the held-out rows of seen classes."""
    X, y = car_small
    y = y.astype(object)
    y[7] = "rare"
    clf = KTANClassifier(k=[1, 2], feature_selection=None).fit(X, y)
    assert "rare" in clf.classes_ and np.isfinite(clf.predict_proba(X)).all()
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    for row, k in enumerate(clf.cv_results_["k"]):
        losses = []
        for train, test in folds.split(X, y):
            model = KTANClassifier(k=k).fit(X.iloc[train], y[train])
            seen = np.isin(y[test], model.classes_)
            assert seen.sum() >= len(test) - 1
            proba = model.predict_proba(X.iloc[test])
            losses.append(log_loss(y[test][seen], proba[seen], labels=model.classes_))
        assert clf.cv_results_["mean_log_loss"][row] == pytest.approx(np.mean(losses), rel=1e-10)


def test_auto_needs_a_class_with_two_rows():
    X = pd.DataFrame({"a": list("xyx"), "b": list("xxy")})
    with pytest.raises(ValueError, match="needs a class with at least 2 training rows.*every class of the 3 has 1"):
        KTANClassifier(k="auto").fit(X, np.array([0, 1, 2]))


def test_backbone_order_accepts_penalised_edge_matrices(car_small):
    X, y = car_small
    W = BIC().fit(X, y).edge_matrix()
    assert (W < 0).any()
    assert sorted(backbone_order(W, "mst-dfs")) == list(range(X.shape[1]))



def test_auto_with_verbose_shows_the_candidate_fits_left(capsys):
    """``k="auto"`` with ``verbose=True`` draws a progress bar of the inner-CV fits left
    (folds x candidates), on stderr; without verbose nothing is drawn."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 80)
    X = pd.DataFrame({"a": rng.normal(y, 1.0), "b": rng.choice(["p", "q"], 80),
                      "c": rng.normal(size=80)})
    KTANClassifier(k="auto", verbose=True).fit(X, y)
    err = capsys.readouterr().err
    assert "candidate fits left" in err and "/10" in err  # 5 folds x k = 1, 2
    KTANClassifier(k="auto").fit(X, y)
    assert "candidate fits left" not in capsys.readouterr().err


class _ScriptedLoss:
    """A classifier whose held-out log-loss is set by its parameter ``k`` (constant class
    probabilities ``p`` for the observed class): a stand-in for a k-TAN with a chosen loss
    curve over k."""

    _curves: dict = {}

    def __init__(self, k=1, curve="u"):
        self.k, self.curve = k, curve

    def get_params(self, deep=True):
        return {"k": self.k, "curve": self.curve}

    def set_params(self, **params):
        for key, value in params.items():
            setattr(self, key, value)
        return self

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])  # class 1 never observed: every row's loss is -ln p
        fitted = type(self)._curves.setdefault(self.curve, [])
        fitted.append(self.k)
        return self

    def predict_proba(self, X):
        p = {"u": {1: 0.6, 2: 0.7, 3: 0.65}, "down": {1: 0.6, 2: 0.7, 3: 0.8},
             "bump": {1: 0.7, 2: 0.6, 3: 0.9}, "tie": {1: 0.7, 2: 0.7, 3: 0.9}}[self.curve][self.k]
        return np.tile([p, 1 - p], (len(X), 1))


@pytest.mark.parametrize(("curve", "tried", "sequential", "exhaustive"), [
    ("u", [1, 2, 3], 2, 2),      # k = 2 improves, k = 3 does not: stop at 3, choose 2
    ("down", [1, 2, 3], 3, 3),   # every k improves
    ("bump", [1, 2], 1, 3),      # k = 2 worse than k = 1: k = 3 never tried (it would win)
    ("tie", [1, 2], 1, 3),       # a tie is no improvement; the tie goes to the smaller k
])
def test_growing_k_stops_at_the_first_k_that_does_not_improve(curve, tried, sequential,
                                                              exhaustive):
    """``grow="k"``: the loss of class 0 (every row) is -ln p(k); the candidates are tried k by
    k, and k + 1 only when k lowered the mean loss strictly. The exhaustive rule (no grow) on
    the same candidates picks the smallest loss of all."""
    from estimators.learning.model_selection import select_by_cv

    X, y = np.zeros((20, 1)), np.zeros(20, dtype=int)
    grid = [{"k": k} for k in (1, 2, 3)]
    _ScriptedLoss._curves.clear()
    best, table = select_by_cv(_ScriptedLoss(curve=curve), X, y, grid, grow="k")
    assert table["k"] == tried and best == {"k": sequential}
    assert sorted(set(_ScriptedLoss._curves[curve])) == tried  # k = 3 not even fitted
    p = _ScriptedLoss(curve=curve)
    expected = [-np.log(p.set_params(k=k).predict_proba(X[:1])[0, 0]) for k in tried]
    np.testing.assert_allclose(table["mean_log_loss"], expected, rtol=1e-12)
    best, table = select_by_cv(_ScriptedLoss(curve=curve), X, y, grid)
    assert table["k"] == [1, 2, 3] and best == {"k": exhaustive}


def test_auto_rows_equal_the_exhaustive_list_rows(car_small):
    """k="auto" (grown k by k) gives the same held-out losses as the list [1, 2, 3] for the k
    it tries, and stops as the rule says."""
    X, y = car_small
    auto = KTANClassifier(k="auto", feature_selection=None).fit(X, y).cv_results_
    full = KTANClassifier(k=[1, 2, 3], feature_selection=None).fit(X, y).cv_results_
    n = len(auto["k"])
    assert auto["k"] == full["k"][:n] and auto["mean_log_loss"] == full["mean_log_loss"][:n]
    means = full["mean_log_loss"]
    expected = 3 if means[1] < means[0] else 2
    assert n == expected


def test_the_default_k_is_auto_and_equals_an_explicit_auto(car_small):
    X, y = car_small
    assert KTANClassifier().k == "auto"
    default = KTANClassifier(random_state=0).fit(X, y)
    explicit = KTANClassifier(k="auto", random_state=0).fit(X, y)
    assert default.cv_results_ is not None and default.k_ in (1, 2, 3)
    assert default.k_ == explicit.k_
    assert default.cv_results_["mean_log_loss"] == explicit.cv_results_["mean_log_loss"]
    np.testing.assert_array_equal(default.predict_proba(X), explicit.predict_proba(X))
