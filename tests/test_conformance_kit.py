"""The conformance kit (estimators.testing): kgraph's own scores and searchers pass it, and
it fails -- naming the check -- on plug-ins that break the protocol."""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from estimators.scores import BUILTIN_SCORES, DiscreteCMI
from estimators.search import SEARCHERS, SearchResult
from estimators.testing import ConformanceError, check_score, check_searcher, random_table
from kgraph import AcyclicKTree

BUILTIN_SEARCHERS = ("arborescence", "backbone-dp", "greedy", "spanning-tree")


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate-class notes of the random tables
        yield


@pytest.mark.parametrize("name", BUILTIN_SCORES)
def test_kgraphs_own_scores_pass(name):
    from estimators.scores import SCORES

    passed = check_score(name)
    for family in SCORES[name]:
        assert f"{family}: backbone DP equals brute force" in passed
        assert f"{family}: classifiers fit and predict" in passed


@pytest.mark.parametrize("name", BUILTIN_SEARCHERS)
def test_kgraphs_own_searchers_pass(name):
    passed = check_searcher(name)
    assert passed[0] == "protocol" and passed[-1] == "classifiers"
    assert ("k=2: optimality certificate" in passed) == (name == "backbone-dp")


def test_every_builtin_is_covered():
    assert set(BUILTIN_SEARCHERS) <= set(SEARCHERS)


class Noisy(DiscreteCMI):
    """A score whose fit draws noise: two fits disagree."""

    def fit(self, X, y):
        super().fit(X, y)
        self.noise_ = np.random.default_rng().normal()
        return self

    def score(self, v, parents):
        return super().score(v, parents) + (self.noise_ if parents else 0.0)


class Counter(DiscreteCMI):
    """A score that depends on how often it was called."""

    def score(self, v, parents):
        self.calls_ = getattr(self, "calls_", 0) + 1
        return super().score(v, parents) + 1e-3 * self.calls_


class NaNs(DiscreteCMI):
    def score(self, v, parents):
        return float("nan") if len(parents) == 1 else 0.0


class NoSelf(DiscreteCMI):
    def fit(self, X, y):
        super().fit(X, y)


class Unpicklable(BaseEstimator):
    families = ("discrete",)

    def fit(self, X, y):
        self.f_ = lambda v, parents: float(len(parents))
        return self

    def score(self, v, parents):
        return self.f_(v, parents)


class Greedier(DiscreteCMI):
    """Rewards the parent sets visited first: breaks the backbone DP's exactness (a score
    must depend only on (v, parents))."""

    def score(self, v, parents):
        seen = self.__dict__.setdefault("seen_", {})
        seen.setdefault((v, frozenset(parents)), len(seen))
        return super().score(v, parents)


@pytest.mark.parametrize("score, check", [
    (Noisy(), "discrete: determinism: two fits on the same data give different scores"),
    (Counter(), "discrete: determinism: repeated calls"),
    (NaNs(), "discrete: values: scores must be finite or -inf"),
    (NoSelf(), "discrete: protocol: fit must return the score itself"),
    (Unpicklable(), "discrete: pickle and clone: .*Can.t pickle"),
])
def test_a_broken_score_fails_the_named_check(score, check):
    with pytest.raises(ConformanceError, match=check.replace("(", r"\(")):
        check_score(score, families=("discrete",))


class Undeclared(BaseEstimator):
    """Protocol only, no ``families``."""

    def fit(self, X, y):
        return self

    def score(self, v, parents):
        return float(len(parents))


def test_an_object_without_families_is_told_to_declare_them():
    with pytest.raises(ConformanceError, match="declares no families"):
        check_score(Undeclared())
    with pytest.raises(ConformanceError, match="no score is registered as 'nope'"):
        check_score("nope")


class Closeness(BaseEstimator):
    """Protocol only (no BaseCMI): closeness in column order."""

    families = ("discrete", "gaussian")
    symmetric = True

    def fit(self, X, y):
        self.columns_ = list(X.columns)
        return self

    def score(self, v, parents):
        i = self.columns_.index(v)
        return float(sum(1 / abs(i - self.columns_.index(p)) for p in parents))


class MyCMI(DiscreteCMI):
    """The README's example: a bare subclass of a built-in score."""


def test_a_bare_subclass_of_a_builtin_score_inherits_its_families_and_passes():
    from estimators.scores import SCORES

    passed = check_score(MyCMI())
    assert {p.split(":")[0] for p in passed} == {"discrete"} == set(SCORES["bdeu"])
    assert "discrete: backbone DP equals brute force" in passed
    assert "discrete: classifiers fit and predict" in passed


def test_the_builtin_classes_declare_their_registry_families():
    from estimators.scores import BIC, SCORES, GaussianCMI

    for name in (*BUILTIN_SCORES, "gaussian-copula", "kde"):
        for family, make in SCORES[name].items():
            assert family in make().families, (name, family)
    assert BIC(GaussianCMI()).families == ("gaussian",)
    assert BIC(Undeclared()).families is None


def test_a_protocol_only_score_passes():
    assert len(check_score(Closeness())) == 12


def test_a_local_class_does_not_pickle():
    class Local(Closeness):
        pass

    with pytest.raises(ConformanceError, match="pickle and clone: .*Can't pickle local object"):
        check_score(Local())


def _wrong_score(f, variables, k, *, backbone=None, W=None, owner=None):
    found = SEARCHERS["greedy"](f, variables, k)
    return SearchResult(found.structure, found.score + 1.0)


def _false_certificate(f, variables, k, *, backbone=None, W=None, owner=None):
    v = list(variables)
    tree = AcyclicKTree(k, v, {b: v[max(0, i + 1 - k):i + 1] for i, b in enumerate(v[1:])})
    return SearchResult(tree, float(tree.score(f)), tuple(v), certificate="trust me")


_rng = np.random.default_rng(0)


def _shuffled(f, variables, k, *, backbone=None, W=None, owner=None):
    return SEARCHERS["greedy"](f, list(_rng.permutation(list(variables))), k)


def _first_k(f, variables, k, *, backbone=None, W=None, owner=None):
    return SEARCHERS["greedy"](f, variables, k)


@pytest.mark.parametrize("searcher, check", [
    (_wrong_score, "k=1: result: score .* is not sum_v f"),
    (_false_certificate, "k=1: optimality certificate|k=2: optimality certificate"),
    (lambda f, variables, k, *, backbone=None, W=None, owner=None: None,
     "k=1: result: it must return a SearchResult"),
    (lambda f, variables, k: None, "protocol: the signature must be"),
])
def test_a_broken_searcher_fails_the_named_check(searcher, check):
    with pytest.raises(ConformanceError, match=check):
        check_searcher(searcher)


def test_an_unregistered_searcher_is_checked_and_not_left_registered():
    before = dict(SEARCHERS)
    assert check_searcher(_first_k)[-1] == "classifiers"
    assert SEARCHERS == before
    with pytest.raises(ConformanceError, match="pickle: the searcher does not pickle"):
        check_searcher(lambda f, variables, k, **kw: SEARCHERS["greedy"](f, variables, k))
    assert pickle.loads(pickle.dumps(_first_k)) is _first_k


def test_random_tables():
    X, y = random_table("mixed")
    assert X.isna().sum().sum() == 6 and set(X["x0"]) == {"lo", "mid", "hi"}
    with pytest.raises(ValueError, match="Unknown family 'ordinal'"):
        random_table("ordinal")
