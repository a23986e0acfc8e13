"""The batched linear-Gaussian SPODEs of :mod:`estimators.bnc._spode_gaussian` against the
per-family path they replace: every factor equals ``fit_cg_factor`` on its own family (the
pooling, shrinkage and floors included), every stacked SPODE's joint equals the
marginalisation engine's (missing super-parents integrated out), and AnDE's predict_proba
equals the average of the per-family SPODEs' joints computed by the engine, on small random
continuous tables with and without empty cells (a 12-row table whose regressions sit at the
variance floor included)."""

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp, softmax

from estimators.bnc import A2DEClassifier, AnDEClassifier
from estimators.bnc._spode_gaussian import GaussianSpodes, fit_gaussian_families
from estimators.learning.structure_scores import MIN_CELL_ROWS
from estimators.network.fitting import fit_cg_factor
from estimators.network.model import CGNetwork, var_floor


def _table(seed: int, n: int, d: int, holes: float, constant: bool = False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, d)) + y[:, None] * rng.normal(size=d)
    X[:, 1] += 2.0 * X[:, 0]  # nearly collinear super-parents
    if constant:
        X[y == 0, 2] = 1.5  # constant within a class: its cells pool
    X[rng.random(X.shape) < holes] = np.nan
    return pd.DataFrame(X, columns=[f"c{j}" for j in range(d)]), y


TABLES = {"complete": (0, 80, 5, 0.0, False), "holes": (1, 100, 5, 0.15, False),
          "tiny": (2, 12, 4, 0.2, False), "constant": (3, 60, 4, 0.0, True),
          "few rows": (4, 25, 5, 0.1, False)}


def _reference_net(clf, enc, codes, net):
    """The SPODE ``net`` refitted one family at a time by ``fit_cg_factor``, as
    ``fit_network`` fits it."""
    floor = var_floor(enc, net.columns, clf.var_smoothing)
    factors = tuple(fit_cg_factor(enc, codes, clf.classes_.size, v, pa, alpha=clf.alpha,
                                  var_smoothing=clf.var_smoothing, ridge=0.0,
                                  min_cell_rows=MIN_CELL_ROWS, var_floor=floor,
                                  shrink=not enc.observed[:, [v, *pa]].all())
                    for v, pa in zip(net.columns, net.parents, strict=True))
    return CGNetwork(net.columns, net.parents, factors)


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("n", [1, 2, 3])
def test_batched_ande_equals_the_per_family_fit_and_the_engine(name, n):
    X, y = _table(*TABLES[name])
    if name == "constant":
        with pytest.warns(Warning, match="constant within a class"):
            clf = AnDEClassifier(n=n).fit(X, y)
    else:
        clf = AnDEClassifier(n=n).fit(X, y)
    enc = clf._check_X(X)
    codes = np.searchsorted(clf.classes_, y)
    joints = []
    for net in clf.spodes_:
        ref = _reference_net(clf, enc, codes, net)
        for f, g in zip(net.factors, ref.factors, strict=True):
            assert (f.v, f.continuous_parents, f.n_rows) == (g.v, g.continuous_parents, g.n_rows)
            for attr in ("intercept", "coef", "var"):
                np.testing.assert_allclose(getattr(f, attr), getattr(g, attr), rtol=1e-12,
                                           atol=1e-12)
        joints.append(ref.joint_log_likelihood(enc, clf.class_log_prior_))  # the engine
    stacked, gaussian = clf._gaussian
    assert stacked.size == len(clf.spodes_)  # every SPODE of a continuous table is stacked
    fast = gaussian.log_likelihood(enc, slice(None)) + clf.class_log_prior_
    joints = np.array(joints)
    moderate = np.abs(joints) < 1e3  # the 12-row table's floored SPODEs reach -2e10 nats,
    np.testing.assert_allclose(fast[moderate], joints[moderate], rtol=0, atol=1e-9)
    np.testing.assert_allclose(fast, joints, rtol=1e-7)  # where both round at 1e-8 relative
    expected = softmax(logsumexp(joints, axis=0), axis=1)
    np.testing.assert_allclose(clf.predict_proba(X), expected, rtol=0, atol=1e-10)
    if name in ("holes", "tiny"):  # missing super-parents exercised, one and two at once
        assert (~enc.observed[:, list(clf._sets[0])]).any()


def test_edge_scores_are_the_mean_training_log_density():
    X, y = _table(5, 80, 4, 0.1)
    clf = A2DEClassifier().fit(X, y)
    enc = clf._check_X(X)
    codes = np.searchsorted(clf.classes_, y)
    floor = var_floor(enc, range(4), clf.var_smoothing)
    fams = [(3, (0, 1)), (1, (0,)), (2, ())]
    got = fit_gaussian_families(enc, codes, 3, fams, var_floor=floor, min_cell_rows=MIN_CELL_ROWS)
    for v, C in fams:
        f, mean = got[v, C]
        lp = f.log_prob(enc)[np.arange(codes.size), codes]
        ok = enc.observed[:, [v, *C]].all(axis=1)
        assert mean == pytest.approx(lp[ok].mean(), rel=1e-12)


def test_mixed_spodes_stay_on_the_general_path():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 80)
    X = pd.DataFrame({"a": rng.normal(y, 1.0), "b": rng.normal(size=80),
                      "k": np.where(rng.random(80) < 0.3 + 0.4 * y, "u", "v")})
    clf = A2DEClassifier().fit(X, y)
    stackable = [GaussianSpodes.stackable(net, S)
                 for net, S in zip(clf.spodes_, clf._sets, strict=True)]
    assert stackable == [False, False, False]  # every SPODE has the categorical k
    assert clf._gaussian[1] is None


def test_pickled_ande_keeps_its_spodes(tmp_path):
    import joblib

    X, y = _table(7, 60, 4, 0.1)
    clf = A2DEClassifier().fit(X, y)
    joblib.dump(clf, tmp_path / "m.joblib")
    back = joblib.load(tmp_path / "m.joblib")
    assert len(back.spodes_) == 6 and back.spodes_[0].columns == clf.spodes_[0].columns
    np.testing.assert_array_equal(back.predict_proba(X), clf.predict_proba(X))
    assert isinstance(clf.__getstate__()["spodes_"].data, bytes)  # one blob for joblib


def test_chunks_of_rows_and_spodes_give_the_same_numbers(monkeypatch):
    import estimators.bnc.ande as ande

    X, y = _table(8, 90, 5, 0.1)
    clf = A2DEClassifier().fit(X, y)
    whole = clf.predict_proba(X)
    monkeypatch.setattr(ande, "_CHUNK", 64)  # 8 rows x 1 SPODE per block
    np.testing.assert_allclose(clf.predict_proba(X), whole, rtol=0, atol=1e-14)
