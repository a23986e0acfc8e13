"""Warnings point at the user's call; progress bars show only when switched on."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning

from estimators.base.progress import progress, progress_enabled, show_progress
from estimators.base.validation import DegenerateFeatureWarning
from estimators.datasets import load_dataset
from estimators.gnb import GNBClassifier, KGNBClassifier
from estimators.ktan import KTANClassifier, TANClassifier
from estimators.latent import LatentCNB, LatentCNBClassifier
from estimators.scores import GaussianCMI, _parallel
from estimators.scores._parallel import PROGRESS_MIN_ITEMS, run_chunked


def test_warnings_are_attributed_to_the_callers_line():
    X, y = load_dataset("car")
    with pytest.warns(UserWarning, match="needs at least") as record:
        KTANClassifier(k=6).fit(X.iloc[:, :3], y)
    assert {w.filename for w in record if "needs at least" in str(w.message)} == {__file__}
    Xw, yw = load_dataset("wine")
    yw = "cultivar " + yw.astype(str)  # labels, not the codes 0, 1, 2
    with pytest.warns(ConvergenceWarning) as record:
        LatentCNBClassifier(3, max_iter=1, family="gaussian").fit(Xw, yw)
    assert {w.filename for w in record if w.category is ConvergenceWarning} == {__file__}
    assert [str(w.message) for w in record if w.category is ConvergenceWarning] == [
        "LatentCNBClassifier: EM did not converge for class(es) ['cultivar 1', "
        "'cultivar 2', 'cultivar 3'] within max_iter=1; increase max_iter or tol."]


def _constant_column_table():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=40), "b": rng.normal(size=40), "k": 1.0})
    return X, np.repeat([0, 1], 20)


def test_fit_error_is_not_replaced_by_a_warning_under_error_filters():
    """A fit that warns (constant column 'k') and then raises (n_clusters out of range):
    with warnings as errors the ValueError comes through, not the DegenerateFeatureWarning;
    the warning is still shown once (error read as always) and the filters are restored."""
    X, y = _constant_column_table()
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="n_clusters=5 is out of range"):
            GNBClassifier(n_clusters=5).fit(X, y)
        assert warnings.filters[0][0] == "error"
        with pytest.raises(DegenerateFeatureWarning, match=r"\['k'\]"):
            GNBClassifier().fit(X, y)  # a fit that returns still raises its warning
    assert [w.category for w in shown] == [DegenerateFeatureWarning]
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="out of range"):
            GNBClassifier(n_clusters=5).fit(X, y)
    assert [w.filename for w in shown] == [__file__]  # still at the user's call
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=DegenerateFeatureWarning)
        with pytest.raises(ValueError, match="out of range"):
            GNBClassifier(n_clusters=5).fit(X, y)
    assert shown == []  # the caller's ignore filter is kept


def test_progress_bars_only_when_switched_on(capsys):
    assert not progress_enabled()
    items = np.arange(PROGRESS_MIN_ITEMS)
    double = lambda data, chunk: np.asarray(chunk) * data  # noqa: E731
    quiet = run_chunked(double, 2.0, items, n_jobs=1)
    assert capsys.readouterr().err == ""
    with show_progress():
        assert progress_enabled()
        shown = run_chunked(double, 2.0, items, n_jobs=1)
        assert list(progress(range(2), "demo")) == [0, 1]
    assert f"scores ({PROGRESS_MIN_ITEMS} items)" in capsys.readouterr().err
    np.testing.assert_array_equal(quiet, shown)
    assert not progress_enabled()


def test_small_score_calls_draw_no_bar_even_when_switched_on(capsys):
    """A search scoring hyperedges one at a time must not open a bar per call."""
    double = lambda data, chunk: np.asarray(chunk) * data  # noqa: E731
    with show_progress():
        out = [run_chunked(double, 2.0, np.array([i]), n_jobs=1) for i in range(100)]
    assert capsys.readouterr().err == ""
    np.testing.assert_array_equal(np.concatenate(out), 2.0 * np.arange(100))


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


# -- each warning once, naming the class label, at the user's call --------------------------

DEPENDENCE_CLASSIFIERS = {
    "gnb": lambda: GNBClassifier(),
    "gnb-kde": lambda: GNBClassifier(dependence="kde"),
    "kgnb": lambda: KGNBClassifier(order=4),
    "tan": lambda: TANClassifier(),
    "ktan": lambda: KTANClassifier(k=2),
    "ktan-auto": lambda: KTANClassifier(k=[1, 2]),  # nested fits inside the inner CV
}


def _constant_in_one_class(kind: str):
    """Labels 'setosa'/'virginica'; feature 'b' takes one value in class 'setosa' only."""
    rng = np.random.default_rng(0)
    y = np.repeat(["setosa", "virginica"], 60)
    if kind == "continuous":
        X = pd.DataFrame(rng.normal(size=(120, 3)), columns=list("abc"))
        X.loc[y == "setosa", "b"] = 1.0
    else:
        X = pd.DataFrame(rng.integers(0, 3, size=(120, 3)), columns=list("abc")).astype(str)
        X.loc[y == "setosa", "b"] = "x"
    return X, y


@pytest.mark.parametrize("name, kind", [  # GNB and k-GNB model continuous columns
    *((name, "continuous") for name in DEPENDENCE_CLASSIFIERS),
    *((name, "categorical") for name in DEPENDENCE_CLASSIFIERS if "tan" in name)])
def test_constant_within_a_class_is_warned_once_by_label_at_the_call(name, kind):
    X, y = _constant_in_one_class(kind)
    clf = DEPENDENCE_CLASSIFIERS[name]()
    with pytest.warns(DegenerateFeatureWarning, match="constant within a class") as record:
        clf.fit(X, y)
    notes = [w for w in record if "constant within" in str(w.message)]
    assert len(notes) == 1
    assert f"{type(clf).__name__}: " in str(notes[0].message)
    assert "class 'setosa': ['b']" in str(notes[0].message)
    assert all("class 0" not in str(w.message) for w in record)  # no class codes
    assert {w.filename for w in record} == {__file__}  # every warning at this line


def test_a_score_fitted_by_the_user_still_warns_by_its_labels():
    X, y = _constant_in_one_class("continuous")
    with pytest.warns(DegenerateFeatureWarning, match=r"\['b'\] constant within class 'setosa'"):
        GaussianCMI().fit(X, y)


def test_nested_fits_add_no_warnings_of_their_own():
    """k='auto' fits a TAN probe and a model per candidate and fold: the user sees the
    notes of the model they fitted, each once."""
    X, y = _constant_in_one_class("continuous")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        KTANClassifier(k=[1, 2]).fit(X, y)
    messages = [str(w.message) for w in record]
    assert len(messages) == len(set(messages))  # each note once
    assert all(m.startswith("KTANClassifier: ") for m in messages)
    assert sum("constant within a class" in m for m in messages) == 1


# -- verbose: a scikit-learn parameter that turns the bars on inside fit ----------------------

ALL = [GNBClassifier, KGNBClassifier, TANClassifier, KTANClassifier, LatentCNBClassifier,
       LatentCNB]


@pytest.mark.parametrize("cls", ALL)
def test_verbose_is_a_plain_parameter(cls):
    clf = cls(verbose=True)
    assert clf.get_params()["verbose"] is True and cls().verbose is False
    assert "verbose" in cls._parameter_constraints
    X, y = _constant_in_one_class("continuous")
    with pytest.raises(ValueError, match=f"The 'verbose' parameter of {cls.__name__} must be"):
        cls(verbose="loud").fit(X, y)


@pytest.mark.parametrize("make, bar", [
    (lambda: KTANClassifier(k=2, search="backbone-dp"), "backbone DP levels"),
    (lambda: LatentCNBClassifier(n_components=2, max_iter=5, family="categorical",
                                 random_state=0),
     "EM iterations"),
    (lambda: KGNBClassifier(order="auto"), "model selection (inner CV)"),
    (lambda: GNBClassifier(dependence="kde", n_clusters="auto", n_splits=2,
                           random_state=0), "scores ("),
])
def test_verbose_draws_bars_inside_fit_and_changes_nothing(make, bar, capsys, monkeypatch):
    monkeypatch.setattr(_parallel, "PROGRESS_MIN_ITEMS", 1)  # wine's score grids are small
    X, y = load_dataset("car") if "EM" in bar or "DP" in bar else load_dataset("wine")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quiet = make().fit(X, y)
        assert capsys.readouterr().err == ""
        loud = make().set_params(verbose=True).fit(X, y)
    assert bar in capsys.readouterr().err
    assert not progress_enabled()  # switched off again after fit
    np.testing.assert_array_equal(quiet.predict_proba(X), loud.predict_proba(X))
