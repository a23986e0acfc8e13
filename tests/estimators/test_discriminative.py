"""Discriminative parameters (issue 33, MATH.md §10): values against scikit-learn's
LogisticRegression on the same convex problem, the CLL property, gradients against finite
differences, the missing-cell scheme and the refusals."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import optimize, sparse
from scipy.special import logsumexp
from sklearn.linear_model import LogisticRegression
from sklearn.utils._param_validation import InvalidParameterError

from estimators.discriminative import CLLProblem, Discriminative, _cll
from estimators.ktan import KTANClassifier, NaiveBayesClassifier, TANClassifier

C = 0.7  # scikit-learn's C; our lambda is 1 / C (both leave the intercept unpenalised)
#: the flat parameterisation (scale=None: no separate main effects), the same convex problem
#: as logistic regression on the cells
ZERO = Discriminative(centre="zero", l2=1 / C, tol=1e-10, scale=None)


def _lr(F, y):
    return LogisticRegression(C=C, tol=1e-12, max_iter=20000).fit(F, y)


def _categorical(rng, n=400, m=3):
    y = rng.integers(0, m, n)
    X = np.column_stack([(rng.integers(0, 3, n) + y) % 4, rng.integers(0, 2, n),
                         (y + rng.integers(0, 2, n)) % 3])
    return X, y


def _one_hot(X, levels):
    """One column per category (all of them: the over-parameterised cells); NaN -> zeros."""
    return np.column_stack([(X[:, j] == c).astype(float) for j, lev in enumerate(levels)
                            for c in lev])


def test_discrete_nb_equals_multinomial_lr_on_one_hot():
    X, y = _categorical(np.random.default_rng(0))
    types = dict.fromkeys(range(3), "categorical")
    nb = NaiveBayesClassifier(feature_types=types, parameters=ZERO).fit(X, y)
    F = _one_hot(X, [np.unique(X[:, j]) for j in range(3)])
    lr = _lr(F, y)
    assert nb.discriminative_.info["converged"]
    np.testing.assert_allclose(nb.predict_proba(X), lr.predict_proba(F), atol=1e-6)


def test_discrete_nb_with_missing_cells_equals_lr_with_zero_cells():
    """The missing-cell scheme: a missing categorical leaf's factor is marginalised (it
    drops), which is logistic regression with that feature's one-hot cells all zero."""
    rng = np.random.default_rng(1)
    X, y = _categorical(rng)
    X = X.astype(float)
    X[rng.random(X.shape) < 0.15] = np.nan
    types = dict.fromkeys(range(3), "categorical")
    nb = NaiveBayesClassifier(feature_types=types, parameters=ZERO).fit(X, y)
    F = _one_hot(X, [np.unique(X[~np.isnan(X[:, j]), j]) for j in range(3)])
    lr = _lr(F, y)
    np.testing.assert_allclose(nb.predict_proba(X), lr.predict_proba(F), atol=1e-6)


def test_gaussian_nb_equals_lr_on_standardised_x_and_x_squared():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 400)
    X = rng.normal(0.5 * y[:, None], 1.0 + 0.3 * y[:, None], size=(400, 3))
    nb = NaiveBayesClassifier(parameters=ZERO).fit(X, y)
    z = (X - X.mean(axis=0)) / X.std(axis=0)  # the documented standardisation
    F = np.hstack([z, z ** 2])
    lr = _lr(F, y)
    np.testing.assert_allclose(nb.predict_proba(X), lr.predict_proba(F), atol=1e-6)


def test_gaussian_nb_with_main_effects_equals_lr_on_scaled_terms_and_z():
    """scale=s: logistic regression's own features (here z) as separate columns, the
    structure's terms (here the cells [z, z^2]) scaled by s, one penalty on all: the same
    convex problem as scikit-learn's LogisticRegression on [s z, s z^2, z]."""
    rng = np.random.default_rng(12)
    y = rng.integers(0, 3, 300)
    X = rng.normal(0.5 * y[:, None], 1.0 + 0.3 * y[:, None], size=(300, 2))
    s = 0.3
    spec = Discriminative(centre="zero", l2=1 / C, tol=1e-10, scale=s)
    nb = NaiveBayesClassifier(parameters=spec).fit(X, y)
    z = (X - X.mean(axis=0)) / X.std(axis=0)
    F = np.hstack([s * z, s * z ** 2, z])
    np.testing.assert_allclose(nb.predict_proba(X), _lr(F, y).predict_proba(F), atol=1e-6)


def test_tan_main_effects_are_the_one_hot_cells_of_every_child():
    """With a scale, a categorical child's family has its structure cells times s and its
    own one-hot cells (logistic regression's features); the root's cells are its one-hot."""
    X, y = _categorical(np.random.default_rng(13), n=200)
    types = dict.fromkeys(range(3), "categorical")
    clf = TANClassifier(feature_types=types, parameters=Discriminative(
        l2=1.0, scale=0.25)).fit(X, y)
    design = clf.discriminative_.design
    F = design.matrix(clf._check_X(X)).toarray()
    main = F[:, design.n_cells:]
    children = [j for j, f in enumerate(design.factors) if len(f.categorical_parents)]
    assert len(children) == 2
    expected = np.hstack([_one_hot(X[:, [design.factors[j].v]],
                                   [np.unique(X[:, design.factors[j].v])]) for j in children])
    np.testing.assert_array_equal(main, expected)
    for j in range(len(design.factors)):
        block = F[:, design.offsets[j]:design.offsets[j + 1]]
        assert set(np.unique(block)) == ({0.0, 0.25} if j in children else {0.0, 1.0})


def _training_cll(clf, X, y) -> float:
    codes = np.searchsorted(clf.classes_, y)
    return float(clf.predict_log_proba(X)[np.arange(len(y)), codes].sum())


@st.composite
def _mixed_tables(draw):
    seed = draw(st.integers(0, 2**31 - 1))
    n = draw(st.integers(30, 120))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, draw(st.integers(2, 3)), n)
    df = pd.DataFrame({
        "a": np.where(rng.random(n) < 0.3 + 0.2 * y, "u", "v"),
        "b": rng.normal(y, 1.0),
        "c": rng.integers(0, 3, n).astype(str),
        "d": rng.normal(0.0, 1.0 + y),
    })
    frac = draw(st.sampled_from([0.0, 0.1]))
    for col in df.columns:
        df.loc[rng.random(n) < frac, col] = np.nan
    return df, y, draw(st.sampled_from(["cells", "weights"]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mixed_tables())
def test_cll_after_fitting_at_least_generative(table):
    """Penalty centred on the generative parameters: CLL(w*) >= CLL(0) + (l2/2)|w*|^2."""
    df, y, form = table
    spec = Discriminative(form=form, l2=1.0, centre="generative", scale=0.5)
    for model in (NaiveBayesClassifier, TANClassifier):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gen = model().fit(df, y)
            dis = model(parameters=spec).fit(df, y)
        assert _training_cll(dis, df, y) >= _training_cll(gen, df, y) - 1e-8
        proba = dis.predict_proba(df)
        assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize(("shared", "m", "dense_cells"),
                         [(True, 3, None), (False, 3, None), (True, 10, None), (True, 3, 0)])
def test_gradient_matches_finite_differences(shared, m, dense_cells, monkeypatch):
    """A shared design dense (the small ones) or kept sparse (``DENSE_CELLS = 0``), and one
    design per class (sparse)."""
    if dense_cells is not None:
        monkeypatch.setattr(_cll, "DENSE_CELLS", dense_cells)
    rng = np.random.default_rng(3)
    n, p = 60, 7
    dense = rng.normal(size=(n, p)) * (rng.random((n, p)) < 0.5)
    design = sparse.csr_matrix(dense) if shared else [
        sparse.csr_matrix(dense * rng.normal(size=(1, p))) for _ in range(m)]
    problem = CLLProblem(design, rng.normal(size=(n, m)), rng.integers(0, m, n), l2=0.8)
    assert problem.dense == (shared and dense_cells is None)
    theta = rng.normal(size=p * m + m)
    err = optimize.check_grad(lambda t: problem.loss_grad(t)[0],
                              lambda t: problem.loss_grad(t)[1], theta)
    assert err < 1e-6 * np.linalg.norm(problem.loss_grad(theta)[1]) + 1e-7
    # and the loss is the penalised negative CLL divided by n, computed directly
    W, b = problem.unpack(theta)
    s = problem.offset + b + np.column_stack(
        [dense @ W[:, y] if shared else design[y] @ W[:, y] for y in range(m)])
    cll = (s[np.arange(n), problem.y] - logsumexp(s, axis=1)).sum()
    assert np.isclose(problem.loss_grad(theta)[0], (-cll + 0.4 * np.sum(W ** 2)) / n)


@pytest.mark.skipif(not _cll._DIRECT, reason="the direct setulb loop needs scipy >= 1.15")
@pytest.mark.parametrize("max_iter", [1000, 5])
def test_direct_lbfgs_loop_has_scipys_iterates(max_iter):
    """The L-BFGS-B loop around scipy's setulb (``_cll._drive``) takes the same iterations
    to the same point as ``scipy.optimize.minimize(method="L-BFGS-B")`` with the same
    options, stopped by the tolerances or by ``max_iter``."""
    rng = np.random.default_rng(5)
    n, p, m = 120, 9, 3
    X = rng.normal(size=(n, p))
    y = (X[:, :m] + rng.normal(size=(n, m))).argmax(axis=1)
    problem = CLLProblem(X, np.zeros((n, m)), y, l2=0.3)
    theta0 = rng.normal(size=p * m + m)
    mine = _cll._drive(problem.loss_grad, theta0, max_iter, 1e-8, lambda: None)
    ref = optimize.minimize(problem.loss_grad, theta0, jac=True, method="L-BFGS-B",
                            options={"maxiter": max_iter, "gtol": 1e-8, "ftol": 1e-11,
                                     "maxcor": _cll._MAXCOR, "maxls": _cll._MAXLS})
    assert (mine.nit, mine.nfev, mine.success) == (ref.nit, ref.nfev, ref.success)
    assert mine.success == (max_iter == 1000)
    np.testing.assert_allclose(mine.x, ref.x, rtol=0, atol=1e-12)


def test_a_changed_private_setulb_falls_back_to_minimize(monkeypatch):
    """``_drive`` calls scipy's private ``setulb``; a scipy whose routine takes other
    arguments makes ``_lbfgs`` go through ``minimize`` (the same optimum), not fail."""
    import types

    import scipy.optimize

    rng = np.random.default_rng(6)
    n, p, m = 100, 5, 3
    X = rng.normal(size=(n, p))
    y = (X[:, :m] + rng.normal(size=(n, m))).argmax(axis=1)
    problem = CLLProblem(X, np.zeros((n, m)), y, l2=0.3)
    theta0 = np.zeros(p * m + m)
    expected = _cll._lbfgs(problem.loss_grad, theta0, 1000, 1e-8)

    def changed(*args):  # a later scipy's signature
        raise TypeError(f"setulb() takes 18 positional arguments but {len(args)} were given")

    # what ``from scipy.optimize import _lbfgsb`` in _drive finds; minimize keeps its own
    monkeypatch.setattr(scipy.optimize, "_lbfgsb", types.SimpleNamespace(setulb=changed),
                        raising=False)
    monkeypatch.setattr(_cll, "_DIRECT", True)
    res = _cll._lbfgs(problem.loss_grad, theta0, 1000, 1e-8)
    assert res.success
    np.testing.assert_allclose(res.x, expected.x, rtol=0, atol=1e-6)


def test_tan_start_is_the_generative_model_and_leaf_cells_add():
    """centre="zero" starts from the generative weights: on complete categorical rows the
    starting scores are ln p(y, x) (CLL at the start = generative CLL); a missing leaf's
    cells leave the score, the rest stays."""
    rng = np.random.default_rng(4)
    X, y = _categorical(rng, n=300)
    types = dict.fromkeys(range(3), "categorical")
    gen = TANClassifier(feature_types=types).fit(X, y)
    dis = TANClassifier(feature_types=types, parameters=ZERO).fit(X, y)
    assert np.isclose(dis.discriminative_.info["cll_start"], _training_cll(gen, X, y))
    leaf = next(v for v in dis.structure_.order
                if not any(v in dis.structure_.parents(u) for u in dis.structure_.order))
    j = int(leaf[1:])
    row = X[:1].astype(float)
    gone = row.copy()
    gone[0, j] = np.nan
    enc_full, enc_gone = dis._check_X(row), dis._check_X(gone)
    diff = dis._scores(enc_full) - dis._scores(enc_gone)
    design = dis.discriminative_.design
    f = next(i for i, fac in enumerate(design.factors) if fac.v == j)
    cols = design.matrix(enc_full)[:, design.offsets[f]:design.offsets[f + 1]]
    np.testing.assert_allclose(diff[0], (cols @ dis.discriminative_.coef[
        design.offsets[f]:design.offsets[f + 1]])[0], atol=1e-10)


def test_ktan_discriminative_mixed_with_missing_predicts_every_row():
    rng = np.random.default_rng(5)
    n = 200
    y = rng.integers(0, 2, n)
    df = pd.DataFrame({"a": rng.normal(y, 1.0), "b": np.where(rng.random(n) < 0.3 + 0.4 * y,
                                                              "p", "q"),
                       "c": rng.normal(-y, 1.0), "d": rng.normal(0, 1, n)})
    df.loc[rng.random(n) < 0.2, "a"] = np.nan
    df.loc[rng.random(n) < 0.2, "b"] = None
    clf = KTANClassifier(k=2, parameters=Discriminative(l2=1.0, centre="generative",
                                                                scale=0.3)).fit(df, y)
    proba = clf.predict_proba(df)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)
    assert clf.discriminative_.info["cll"] >= clf.discriminative_.info["cll_start"]


def test_bad_parameters_are_refused():
    X, y = _categorical(np.random.default_rng(6), n=60)
    with pytest.raises(InvalidParameterError, match="parameters"):
        TANClassifier(parameters="logistic").fit(X, y)
    with pytest.raises(ValueError, match="form must be one of"):
        Discriminative(form="cell")
    with pytest.raises(ValueError, match="centre must be one of"):
        Discriminative(centre="uniform")
    with pytest.raises(ValueError, match="l2 must be a finite number"):
        Discriminative(l2=-1.0)
    with pytest.raises(ValueError, match="scale must be a finite number > 0"):
        Discriminative(scale=0.0)


def test_gaussian_gnb_equals_lr_on_its_tree_monomials():
    """GNB(dependence="gaussian") rooted at the first vertex of its tree: root [z_r, z_r^2],
    each child c of m [z_c, z_c^2, z_c z_m, z_m, z_m^2] (the monomials of its family, those
    of the mother repeated as the cells repeat them); the constant cells are absorbed by
    the unpenalised intercept."""
    from estimators import GNBClassifier

    rng = np.random.default_rng(8)
    n = 300
    y = rng.integers(0, 3, n)
    x0 = rng.normal(y, 1.0)
    X = np.column_stack([x0, x0 + rng.normal(0, 0.5, n), rng.normal(-y, 1.0 + 0.2 * y)])
    # x1 is nearly x0: an ill-conditioned problem, solved to a tighter gradient tolerance
    clf = GNBClassifier(parameters=Discriminative(centre="zero", l2=1 / C, tol=1e-13,
                                                  scale=None)).fit(X, y)
    z = (X - X.mean(axis=0)) / X.std(axis=0)
    columns = []
    for v, parents in clf._families():
        columns += [z[:, v], z[:, v] ** 2]
        for p in parents:
            columns += [z[:, v] * z[:, p], z[:, p], z[:, p] ** 2]
    F = np.column_stack(columns)
    np.testing.assert_allclose(clf.predict_proba(X), _lr(F, y).predict_proba(F), atol=1e-6)


def test_gnb_discriminative_refuses_non_gaussian_dependence_and_fits_mixed():
    from estimators import GNBClassifier

    rng = np.random.default_rng(9)
    n = 150
    y = rng.integers(0, 2, n)
    df = pd.DataFrame({"a": rng.normal(y, 1.0), "b": rng.normal(-y, 1.0),
                       "c": np.where(rng.random(n) < 0.3 + 0.4 * y, "p", "q")})
    with pytest.raises(ValueError, match="needs dependence='gaussian'"):
        GNBClassifier(dependence="kde", parameters="discriminative").fit(df, y)
    df.loc[rng.random(n) < 0.1, "a"] = np.nan
    spec = Discriminative(l2=1.0, centre="generative", scale=1.0)
    gen = GNBClassifier().fit(df, y)
    dis = GNBClassifier(parameters=spec).fit(df, y)
    assert _training_cll(dis, df, y) >= _training_cll(gen, df, y) - 1e-8
    assert np.allclose(dis.predict_proba(df).sum(axis=1), 1.0)


def test_inner_cv_folds_follow_the_estimators_random_state():
    """The penalty's inner cross-validation is seeded by ``random_state`` (None means 0):
    the same seed gives the same inner-CV table, and it equals the table of seed 0 when
    no seed is given; another seed splits the rows otherwise."""
    from sklearn.model_selection import StratifiedKFold

    X, y = _categorical(np.random.default_rng(3), n=150)
    spec = Discriminative(l2="auto", centre="generative")

    def table(seed):
        clf = KTANClassifier(k=1, parameters=spec, random_state=seed).fit(X, y)
        return clf.discriminative_.info["cv"]

    assert table(None) == table(0)
    assert table(4) == table(4)
    assert table(4) != table(0)
    first = [test for _, test in StratifiedKFold(3, shuffle=True, random_state=4).split(X, y)]
    other = [test for _, test in StratifiedKFold(3, shuffle=True, random_state=0).split(X, y)]
    assert any(not np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_a_single_row_class_is_in_every_inner_training_part():
    """A class with one training row (helpmiss's 'missing') is never held out: its row is in
    every inner training part, the other rows are split as before (without such a class the
    folds are StratifiedKFold's own), and the penalty is still chosen by inner CV."""
    from sklearn.model_selection import StratifiedKFold

    from estimators.discriminative._select import INNER_FOLDS, _inner_splits

    X, y = _categorical(np.random.default_rng(5), n=120)
    plain = _inner_splits(y, np.bincount(y), 0)
    reference = StratifiedKFold(INNER_FOLDS, shuffle=True, random_state=0).split(X, y)
    for (tr, te), (tr0, te0) in zip(plain, reference, strict=True):
        assert np.array_equal(tr, tr0) and np.array_equal(te, te0)
    y = np.where(np.arange(y.size) == 7, 3, y)  # class 3: one row, index 7
    splits = _inner_splits(y, np.bincount(y), 0)
    assert all(7 in tr and 7 not in te for tr, te in splits)
    held = np.sort(np.concatenate([te for _, te in splits]))
    assert np.array_equal(held, np.delete(np.arange(y.size), 7))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning
        clf = TANClassifier(parameters="discriminative").fit(X, y)
    assert clf.discriminative_.info["cv"]
    assert np.isfinite(clf.predict_proba(X)).all()


def testinner_rows_subsample_is_seeded_stratified_and_only_above_the_threshold():
    """Above ``INNER_ROWS`` training rows the penalty's inner CV runs on a subsample: the
    same seed gives the same rows, another seed others; sorted distinct rows, about
    ``INNER_ROWS`` of them, every class in proportion (within one row) and a rare class kept
    whole up to ``INNER_FOLDS`` rows; at or below the threshold, all rows (None)."""
    from estimators.discriminative._select import INNER_FOLDS, INNER_ROWS, inner_rows

    rng = np.random.default_rng(8)
    n = 3 * INNER_ROWS
    y = rng.choice(4, n, p=[0.6, 0.3, 0.1 - 2 / n, 2 / n])
    counts = np.bincount(y)
    assert inner_rows(y[:INNER_ROWS], np.bincount(y[:INNER_ROWS]), 0) is None
    assert inner_rows(y[:INNER_ROWS + 1], np.bincount(y[:INNER_ROWS + 1]), 0) is not None
    rows = inner_rows(y, counts, 0)
    assert np.array_equal(rows, inner_rows(y, counts, 0))
    assert not np.array_equal(rows, inner_rows(y, counts, 1))
    assert np.array_equal(rows, np.unique(rows))
    kept = np.bincount(y[rows], minlength=counts.size)
    expected = counts * INNER_ROWS / n
    big = counts >= 3 * INNER_FOLDS
    assert np.all(np.abs(kept[big] - expected[big]) <= 1)
    assert np.array_equal(kept[~big], np.minimum(counts[~big], INNER_FOLDS))
    assert abs(kept.sum() - INNER_ROWS) <= counts.size + INNER_FOLDS


def test_penalty_aboveinner_rows_is_the_inner_cv_of_the_subsample(monkeypatch):
    """Above the threshold, ``select_penalty`` is exactly the inner CV of the subsample:
    every refit sees subsample rows only, and its table equals the one of the subsample
    given as the whole training set (below the threshold)."""
    from estimators.discriminative import _select
    from estimators.discriminative._discriminative_model import _terms

    X, y = _categorical(np.random.default_rng(9), n=240)
    clf = TANClassifier().fit(X, y)
    enc = clf._check_X(X)
    spec = Discriminative()
    seen = []

    def refit(rows):
        seen.append(np.asarray(rows))
        return clf._refit_generative(enc.take(rows), y[rows])

    monkeypatch.setattr(_select, "INNER_ROWS", 150)
    sub = _select.inner_rows(y, np.bincount(y), 0)
    assert sub is not None and 140 <= sub.size <= 160
    table = _select.select_penalty(spec, enc, y, 3, refit, _terms)[3]
    assert seen and all(np.isin(rows, sub).all() for rows in seen)
    monkeypatch.setattr(_select, "INNER_ROWS", 10_000)
    alone = _select.select_penalty(spec, enc.take(sub), y[sub], 3,
                                   lambda rows: refit(sub[rows]), _terms)[3]
    assert table == alone


def test_scale_search_starts_at_start_scale_with_a_continuous_column():
    """The inner CV's first fits are at (START_SCALE, START_L2) on a table with a continuous
    column and at (1, START_L2) on an all-categorical one; the walk over scales visits
    neighbours of the grid only and keeps the best setting of all it visited."""
    from estimators.discriminative._select import SCALE_GRID, START_L2, START_SCALE

    X, y = _categorical(np.random.default_rng(10), n=200)
    z = np.random.default_rng(11).normal(y, 1.0)
    mixed = pd.DataFrame(X, columns=list("abc")).assign(z=z)
    for table, first in ((X, 1.0), (mixed, START_SCALE)):
        clf = TANClassifier(parameters="discriminative").fit(table, y)
        cv, spec = clf.discriminative_.info["cv"], clf.discriminative_.spec
        assert next(iter(cv)) == ("zero", first, START_L2)
        visited = sorted({SCALE_GRID.index(scale) for _, scale, _ in cv})
        assert visited == list(range(visited[0], visited[-1] + 1))
        assert SCALE_GRID.index(first) in visited
        assert cv[("zero", spec.scale, spec.l2)] == min(cv.values())


def test_inner_folds_keep_continuous_complete_factors_with_the_same_numbers(monkeypatch):
    """Continuous families without categorical parents on complete rows: the inner folds keep
    the training factors (the family's refit is never called) and the inner-CV table equals
    the one with refitted factors exactly; a missing cell, a categorical parent or another
    centre or form means refitting."""
    from estimators.discriminative import _select
    from estimators.discriminative._discriminative_model import _terms

    rng = np.random.default_rng(13)
    n = 240
    y = rng.integers(0, 2, n)
    df = pd.DataFrame({"a": rng.normal(y, 1.0), "b": rng.normal(-y, 1.0)})
    df["c"] = df["a"] + rng.normal(size=n)
    clf = TANClassifier().fit(df, y)
    enc = clf._check_X(df)
    factors = clf._log_linear_factors(enc, y)
    spec = Discriminative()

    def refit(rows):
        return clf._refit_generative(enc.take(rows), y[rows])

    def refuse(rows):
        raise AssertionError("refit called")

    assert _select._refit_free(spec, ("zero",), factors, enc)
    kept = _select.select_penalty(spec, enc, y, 2, refuse, _terms, factors=factors)[3]
    assert kept == _select.select_penalty(spec, enc, y, 2, refit, _terms)[3]
    assert not _select._refit_free(spec, ("zero", "generative"), factors, enc)
    assert not _select._refit_free(Discriminative(form="weights"), ("zero",), factors, enc)
    holed = df.copy()
    holed.loc[3, "c"] = np.nan
    assert not _select._refit_free(spec, ("zero",), factors, clf._check_X(holed))
    mixed = df.assign(d=np.where(y == 1, "p", "q"))
    other = TANClassifier().fit(mixed, y)
    enc_m = other._check_X(mixed)
    assert not _select._refit_free(spec, ("zero",), other._log_linear_factors(enc_m, y), enc_m)


def test_no_splittable_class_warns_and_uses_the_defaults():
    """Every class on one row: no inner split is possible; the documented defaults are used
    and one warning says so."""
    from estimators.discriminative._select import select_penalty

    spec = Discriminative()
    with pytest.warns(UserWarning, match="no class has two training rows"):
        l2, centre, scale, table = select_penalty(spec, None, np.array([0, 1, 2]), 3,
                                                  None, None)
    assert (l2, centre, scale, table) == (1.0, "zero", 1.0, {})


def test_zero_centre_offset_from_the_class_prior_equals_the_marginal_formula():
    """The inner CV's zero-centred offset with a network's likelihood: on rows where every
    family is active, the class prior (no marginalisation computed); elsewhere ln p(y, x_O)
    minus the active log-factors. It equals the formula on every row (missing cells and a
    category unseen by the refitted factors included)."""
    from estimators.discriminative._design import fit_design
    from estimators.discriminative._discriminative_model import _terms
    from estimators.network.model import NetworkLikelihood, refit_network

    rng = np.random.default_rng(12)
    n = 300
    y = rng.integers(0, 2, n)
    a = np.where(np.arange(n) < 20, "rare", rng.choice(["p", "q"], n))  # 'rare' refit-unseen
    df = pd.DataFrame({"a": a, "b": rng.normal(y, 1.0), "c": rng.normal(-y, 1.0)})
    df["d"] = df["b"] + rng.normal(size=n)
    df.loc[rng.random(n) < 0.1, "c"] = np.nan
    clf = TANClassifier().fit(df, y)
    enc = clf._check_X(df)
    rows = np.arange(20, n)  # the refit never sees 'rare'
    factors, like = refit_network(clf.network_, enc.take(rows), y[rows], 2, alpha=clf.alpha,
                                  var_smoothing=clf.var_smoothing, ridge=0.0, min_cell_rows=5)
    assert isinstance(like, NetworkLikelihood)
    design = fit_design(factors, enc.take(rows), 1.0)
    active = design.active(enc)
    assert active.all(axis=1).any() and not active.all(axis=1).all()
    assert not active[:20].all(axis=1).any()  # the unseen category: an inactive family
    spec = Discriminative(l2=1.0, centre="zero", scale=1.0)
    short, matrix = _terms(spec, design, enc, like)
    full, matrix_full = _terms(spec, design, enc, like(enc))
    np.testing.assert_allclose(short, full, rtol=0, atol=1e-10)
    assert (matrix != matrix_full).nnz == 0
    np.testing.assert_array_equal(short[active.all(axis=1)],
                                  np.tile(like.class_log_prior, (active.all(axis=1).sum(), 1)))
