"""``continuous=`` of TAN and k-TAN: every kind fits and predicts mixed tables with missing
cells, the default is the conditional Gaussian network unchanged, the structure is learned on
the normal scores, and bad values are refused with messages naming the argument."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from estimators import KTANClassifier, TANClassifier
from estimators.columns import MixedEncoder
from estimators.scores import GaussianCMI
from estimators.semiparametric import ClassMargins, Semiparametric, SemiparametricNetwork


def _mixed(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = rng.exponential(1.0 + y, n)
    b = np.where(rng.random(n) < 0.4, 0.0, a + rng.gamma(2.0, size=n))  # zero-inflated
    c = rng.normal(y, 1.0, n) + 0.5 * np.log1p(a)
    d = np.where(rng.random(n) < 0.3 + 0.4 * y, "s", "t")
    X = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    X.loc[rng.random(n) < 0.1, "c"] = np.nan
    X.loc[rng.random(n) < 0.1, "d"] = None
    return X, y


@pytest.mark.parametrize("cls", [TANClassifier, lambda **kw: KTANClassifier(k=2, **kw)])
@pytest.mark.parametrize("kind", ["copula", "ckde", "auto"])
def test_kinds_fit_and_predict_mixed_missing(cls, kind):
    X, y = _mixed()
    clf = cls(continuous=kind).fit(X, y)
    assert isinstance(clf.network_, SemiparametricNetwork)
    assert set(clf.factor_kinds_) == {"a", "b", "c", "d"}
    assert clf.factor_kinds_["d"] in ("categorical", "copula", "class-free")
    if kind != "auto":
        assert {clf.factor_kinds_[v] for v in "abc"} == {kind}
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.isfinite(proba).all()
    assert clf.score(X, y) > 0.6


def test_default_is_the_gaussian_network():
    X, y = _mixed()
    base = TANClassifier().fit(X, y)
    same = TANClassifier(continuous="gaussian").fit(X, y)
    assert type(base.network_).__name__ == "CGNetwork"
    assert base.factor_kinds_ == {"a": "gaussian", "b": "gaussian", "c": "gaussian",
                                  "d": "categorical"}
    np.testing.assert_array_equal(base.predict_proba(X), same.predict_proba(X))


def test_structure_is_the_normal_score_cmi():
    """On complete continuous data the copula TAN's tree score is the Gaussian CMI of the
    class-conditional normal scores (MATH.md §1, §11)."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    z = rng.normal(size=(300, 4))
    z[:, 1] += 0.9 * z[:, 0]
    z[:, 3] += 0.8 * z[:, 2] * (1 + y)
    X = pd.DataFrame(np.exp(z), columns=list("pqrs"))
    clf = TANClassifier(continuous="copula").fit(X, y)
    enc = MixedEncoder().fit_transform(X)
    spec = Semiparametric("copula")
    m = ClassMargins(enc, y, 2, range(4), bw_floor=spec.bw_floor, tail=spec.tail)
    cmi = GaussianCMI().fit(m.training_scores(enc, y).values, y)
    expected = sum(cmi.score(i, [j]) for i, j in
                   [(list("pqrs").index(v), list("pqrs").index(next(iter(p))))
                    for v, p in ((v, clf.structure_.parents(v)) for v in clf.structure_.order)
                    if p])
    assert clf.score_ == pytest.approx(expected, rel=1e-9)


def test_clone_keeps_the_spec():
    spec = Semiparametric("ckde", bandwidth="cv")
    assert clone(TANClassifier(continuous=spec)).continuous == spec


def test_bad_continuous_is_refused():
    X, y = _mixed()
    with pytest.raises(ValueError, match="'continuous' parameter of TANClassifier"):
        TANClassifier(continuous="kde").fit(X, y)
    with pytest.raises(ValueError, match="continuous='copula'.*generative only"):
        TANClassifier(continuous="copula", parameters="discriminative").fit(X, y)


@pytest.mark.parametrize("family", ["BANClassifier", "KDBClassifier"])
@pytest.mark.parametrize("kind", ["copula", "ckde", "auto"])
def test_ban_and_kdb_get_the_choice_through_the_shared_path(family, kind):
    import estimators.bnc

    cls = getattr(estimators.bnc, family)
    X, y = _mixed()
    clf = cls(continuous=kind).fit(X, y)
    assert isinstance(clf.network_, SemiparametricNetwork)
    assert set(clf.factor_kinds_) == {"a", "b", "c", "d"}
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert clf.score(X, y) > 0.6
    with pytest.raises(ValueError, match="generative only"):
        cls(continuous=kind, parameters="discriminative").fit(X, y)


@pytest.mark.parametrize("kind", ["copula", "ckde"])
def test_graphml_export_describes_the_factors(kind, tmp_path):
    import networkx as nx

    X, y = _mixed()
    clf = TANClassifier(continuous=kind).fit(X, y)
    clf.write_graphml(tmp_path / "s.graphml")
    g = nx.read_graphml(tmp_path / "s.graphml")
    text = str(g.nodes["a"]["parameters"])
    assert {"copula": "CopulaFactor", "ckde": "CKDEFactor"}[kind] in text
    assert "n_rows" in text and ("z_space" in text or "class_bandwidths" in text)


def test_cli_learn_continuous_option(tmp_path):
    from viz.cli import main

    X, y = _mixed(120)
    X.assign(label=y).to_csv(tmp_path / "t.csv", index=False)
    main(["learn", str(tmp_path / "t.csv"), "--target", "label", "--model", "tan",
          "--continuous", "copula", "--cv", "2", "--out", str(tmp_path / "out"), "--quiet"])
    assert "continuous='copula'" in (tmp_path / "out" / "report.md").read_text()


def test_dask_collection_is_refused_for_non_gaussian_kinds():
    dd = pytest.importorskip("dask.dataframe")
    X, y = _mixed()
    from estimators.distributed import collect

    ddf = dd.from_pandas(X.assign(label=y), npartitions=2)
    with pytest.raises(ValueError, match="needs the rows in memory"):
        TANClassifier(continuous="copula").fit(collect(ddf.drop(columns="label"), ddf["label"]))
