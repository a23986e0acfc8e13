"""Classifiers take a score by registered name (checked against the live registry at fit)
or as an object following the score protocol; register_score mirrors register_searcher."""

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, clone
from sklearn.utils._param_validation import InvalidParameterError

from estimators import KGNBClassifier, KTANClassifier
from estimators.learning.structure_confidence import StructureConfidence
from estimators.scores import SCORES, DiscreteCMI, GaussianCMI, register_score
from estimators.search import backbone_dp, brute_force_ktree


class Closeness(BaseEstimator):
    """Protocol only (no BaseCMI): rewards parents close in column order, upstream more,
    scaled by the class-conditional correlation so that the data matter."""

    families = ("discrete", "gaussian")

    def __init__(self, upstream=0.5):
        self.upstream = upstream

    def fit(self, X, y):
        self.columns_ = list(X.columns)
        A = np.asarray(X, dtype=float)
        self.corr_ = np.nan_to_num(np.corrcoef(A, rowvar=False)) if A.std(0).all() else \
            np.zeros((A.shape[1],) * 2)
        return self

    def score(self, v, parents):
        i = self.columns_.index(v)
        total = 0.0
        for p in parents:
            j = self.columns_.index(p)
            total += abs(self.corr_[i, j]) + 1.0 / abs(i - j) + self.upstream * (j < i)
        return total


@pytest.fixture(scope="module")
def discrete():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    X = (rng.random((300, 5)) < 0.3 + 0.4 * y[:, None]).astype(int)
    X[:, 2] = X[:, 1] ^ (rng.random(300) < 0.1)
    return pd.DataFrame(X, columns=list("abcde")), y


@pytest.fixture()
def registered():
    names = []

    def add(name, factories, **kw):
        names.append(name)
        return register_score(name, factories, **kw)

    yield add
    for name in names:
        SCORES.pop(name, None)


def test_the_issues_example_works_by_name_and_by_object(discrete, registered):
    X, y = discrete

    class MyCMI(DiscreteCMI):
        pass

    SCORES["mine"] = {"discrete": MyCMI}  # the issue's way, without register_score
    try:
        by_name = KTANClassifier(k=2, structure_score="mine").fit(X, y)
    finally:
        del SCORES["mine"]
    by_object = KTANClassifier(k=2, structure_score=MyCMI()).fit(X, y)
    reference = KTANClassifier(k=2, structure_score="cmi").fit(X, y)
    assert by_name.structure_ == by_object.structure_ == reference.structure_
    assert by_name.score_ == pytest.approx(reference.score_, abs=1e-12)


def test_a_protocol_object_gives_the_exact_optimum_under_the_backbone(discrete):
    X, y = discrete
    clf = KTANClassifier(k=2, backbone="given", structure_score=Closeness()).fit(X, y)
    f = Closeness().fit(X, y).score
    best = brute_force_ktree(f, 2, backbone=list("abcde"))
    assert clf.score_ == pytest.approx(best.score, abs=1e-9)
    assert clf.score_ == pytest.approx(backbone_dp(f, list("abcde"), 2).score, abs=1e-9)
    assert clf.predict_proba(X).sum(axis=1) == pytest.approx(np.ones(len(y)))


def test_register_score_by_name_reaches_ktan_and_kgnb(discrete, registered):
    X, y = discrete
    registered("closeness", {"discrete": Closeness, "gaussian": Closeness})
    a = KTANClassifier(k=2, structure_score="closeness").fit(X, y)
    b = KTANClassifier(k=2, structure_score=Closeness()).fit(X, y)
    assert a.structure_ == b.structure_
    rng = np.random.default_rng(0)
    Xg = pd.DataFrame(rng.normal(size=(120, 4)), columns=list("pqrs"))
    yg = rng.integers(0, 2, 120)
    g1 = KGNBClassifier(order=4, structure_score="closeness").fit(Xg, yg)
    g2 = KGNBClassifier(order=4, structure_score=Closeness()).fit(Xg, yg)
    assert g1.structure_ == g2.structure_
    assert g1.weight_ == pytest.approx(float(g1.structure_.score(Closeness().fit(Xg, yg).score)))


def test_kgnb_score_object_equal_to_its_default(discrete):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 5))
    X[:, 1] += X[:, 0]
    y = rng.integers(0, 2, 200)
    default = KGNBClassifier(order=4).fit(X, y)
    named = KGNBClassifier(order=4, structure_score="cmi").fit(X, y)
    obj = KGNBClassifier(order=4, structure_score=GaussianCMI()).fit(X, y)
    assert default.structure_ == named.structure_ == obj.structure_
    assert obj.weight_ == pytest.approx(default.weight_, abs=1e-12)


def test_register_score_mirrors_register_searcher(registered):
    registered("twice", {"discrete": DiscreteCMI})
    with pytest.raises(ValueError, match="'twice' is registered already; pass replace=True"):
        register_score("twice", {"discrete": DiscreteCMI})
    assert register_score("twice", {"gaussian": GaussianCMI}, replace=True) == \
        {"gaussian": GaussianCMI}
    with pytest.raises(ValueError, match=r"names the families \['ordinal'\]; the families are"):
        register_score("odd", {"ordinal": DiscreteCMI})
    with pytest.raises(TypeError, match="must be callable"):
        register_score("odd", {"discrete": 3})
    with pytest.raises(ValueError, match="non-empty str"):
        register_score("", {"discrete": DiscreteCMI})
    assert register_score("fam", Closeness) == {"discrete": Closeness, "gaussian": Closeness}
    SCORES.pop("fam")
    assert register_score("fam", DiscreteCMI) == {"discrete": DiscreteCMI}  # declared
    SCORES.pop("fam")
    with pytest.raises(TypeError, match="a factory with a 'families' attribute"):
        register_score("odd", lambda: DiscreteCMI())


def test_unknown_name_is_one_line_listing_the_registered_ones(discrete, registered):
    X, y = discrete
    registered("late-plugin", {"discrete": DiscreteCMI})
    for clf in (KTANClassifier(structure_score="nope"), KGNBClassifier(structure_score="nope")):
        with pytest.raises(InvalidParameterError) as err:
            clf.fit(X, y)
        text = str(err.value)
        assert "\n" not in text and "Got 'nope' instead" in text
        assert all(f"'{name}'" in text for name in ("bdeu", "bic", "cmi", "late-plugin"))


def test_clone_get_params_and_pickle_keep_the_object(discrete):
    X, y = discrete
    clf = KTANClassifier(k=2, structure_score=Closeness(upstream=2.0))
    params = clf.get_params()
    assert params["structure_score__upstream"] == 2.0
    twin = clone(clf)
    assert twin.structure_score is not clf.structure_score
    assert twin.structure_score.get_params() == {"upstream": 2.0}
    fitted = clf.fit(X, y)
    assert not hasattr(clf.structure_score, "columns_")  # the parameter is never fitted
    again = pickle.loads(pickle.dumps(fitted))
    assert again.structure_ == fitted.structure_
    np.testing.assert_array_equal(again.predict_proba(X), fitted.predict_proba(X))
    assert twin.fit(X, y).structure_ == fitted.structure_


def test_wrong_family_width_or_table_is_named(discrete):
    X, y = discrete

    class GaussianOnly(Closeness):
        families = ("gaussian",)

    class Pairs(Closeness):
        max_parents = 1

    with pytest.raises(ValueError, match="serves gaussian features .* this table has discrete"):
        KTANClassifier(k=2, structure_score=GaussianOnly()).fit(X, y)
    with pytest.raises(ValueError, match=r"answers at most 1 parent\(s\) .* got k=2"):
        KTANClassifier(k=2, structure_score=Pairs()).fit(X, y)
    assert KTANClassifier(k=1, structure_score=Pairs()).fit(X, y).structure_.k == 1
    class Undeclared(Closeness):
        families = None

    mixed = X.assign(z=np.linspace(0, 1, len(y)))
    with pytest.raises(ValueError, match="serves discrete, gaussian features .* this table "
                                         "has mixed features"):
        KTANClassifier(k=2, structure_score=Closeness()).fit(mixed, y)
    with pytest.raises(ValueError, match="has no fit_encoded, so it cannot score a table that "
                                         "is mixed"):
        KTANClassifier(k=2, structure_score=Undeclared()).fit(mixed, y)
    with pytest.raises(ValueError, match="scores complete continuous tables"):
        KGNBClassifier(structure_score=Closeness()).fit(mixed.astype({"a": str}), y)


def test_structure_confidence_with_a_score_object(discrete):
    X, y = discrete
    by_object = StructureConfidence(KTANClassifier(k=1, structure_score=DiscreteCMI()),
                                    n_resamples=4, random_state=0).fit(X, y)
    by_name = StructureConfidence(KTANClassifier(k=1, structure_score="cmi"),
                                  n_resamples=4, random_state=0).fit(X, y)
    for u, v in [("b", "c"), ("a", "b"), ("d", "e")]:
        assert by_object.confidence(u, v) == by_name.confidence(u, v)
    assert by_object.confidence("b", "c") == 1.0
