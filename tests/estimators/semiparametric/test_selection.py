"""The ``continuous="auto"`` choice (estimators/semiparametric/selection.py): each vertex's
density by held-out likelihood, then the class-free vertices by coordinate ascent on the
out-of-fold conditional log-likelihood (CLL), a switch taken when it gains more than one
standard error; and the class-free factor itself.

Values are checked against independent computations: the CLL on a dense grid of evidence
weights (not the bounded search the module uses), the held-out sums by hand, the class-free
factor against a least-squares regression pooled over the classes and against quadrature.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp
from scipy.stats import norm

from estimators import TANClassifier
from estimators.network.fitting import fit_cg_factor
from estimators.semiparametric import Semiparametric
from estimators.semiparametric.calibration import BOUNDS
from estimators.semiparametric.selection import CLASS_FREE, ClassFreeFactor, choose_kinds

from .test_marginal import _brute

W_GRID = np.linspace(*BOUNDS, 1001)


def redundant_table(seed=2, n=200):
    """b is a near copy of a (both carry the class), d a noisy threshold of a, e noise:
    with seed 2 TAN "auto" makes a (parent b, a leaf) and e (parent d, a leaf) class-free,
    b (parent d) and d keep the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = rng.gamma(2.0 + 2 * y, size=n)
    b = a + rng.normal(scale=0.05, size=n)
    e = rng.standard_t(3, size=n)
    d = np.where(a + rng.normal(scale=0.2, size=n) > 3.0, "u", "v")
    return pd.DataFrame({"a": a, "b": b, "e": e, "d": d}), y


@pytest.fixture(scope="module")
def fitted():
    X, y = redundant_table()
    return X, y, TANClassifier(continuous="auto").fit(X, y)


def grid_rows(L, y, log_prior, calibrate=True):
    """Per row ``ln p_w(y_i | x_i)`` at the w maximising their sum (w = 1 uncalibrated): a
    grid of 1001 weights over BOUNDS, then 1001 around the best of them (spacing 4e-6)."""
    def on(ws):
        s = ws[:, None, None] * L[None] + log_prior
        return s[:, np.arange(y.size), y] - logsumexp(s, axis=2)

    if not calibrate:
        return on(np.array([1.0]))[0]
    coarse = on(W_GRID)
    step = W_GRID[1] - W_GRID[0]
    best = W_GRID[int(np.argmax(coarse.sum(axis=1)))]
    fine = on(np.linspace(max(BOUNDS[0], best - step), min(BOUNDS[1], best + step), 1001))
    both = np.concatenate([coarse, fine])
    return both[int(np.argmax(both.sum(axis=1)))]


def grid_cll(L, y, log_prior, calibrate=True):
    """max over w of sum_i ln p_w(y_i | x_i)."""
    return float(grid_rows(L, y, log_prior, calibrate).sum())


def total(tables, choice, shape):
    return sum((t[k] for t, k in zip(tables, choice, strict=True) if k != CLASS_FREE),
               np.zeros(shape))


@st.composite
def problems(draw):
    n = draw(st.integers(12, 50))
    m = draw(st.integers(2, 3))
    d = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2 ** 31 - 1))
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(m), rng.integers(0, m, n - m)])
    tables = []
    for _ in range(d):
        t = {}
        for k in ("gaussian", "copula", "ckde")[:draw(st.integers(1, 3))]:
            scale = draw(st.sampled_from([0.0, 0.5, 3.0]))
            signal = np.eye(m)[y] * draw(st.floats(-2.0, 4.0))
            t[k] = scale * rng.normal(size=(n, m)) + signal - rng.exponential(size=(n, 1))
        if draw(st.booleans()):
            t[CLASS_FREE] = np.zeros((n, m))
        tables.append(t)
    prior = np.bincount(y, minlength=m) / n
    return tables, y, np.log(prior), draw(st.booleans())


@settings(max_examples=40, deadline=None)
@given(problems())
def test_choice_is_best_density_then_no_switch_gains_beyond_noise(problem):
    tables, y, log_prior, calibrate = problem
    choice = choose_kinds(tables, y, log_prior, calibrate=calibrate)
    rows = np.arange(y.size)
    shape = (y.size, log_prior.size)
    densities = []
    for t, k in zip(tables, choice, strict=True):
        sums = {o: t[o][rows, y].sum() for o in t if o != CLASS_FREE}
        best = max(sums.values())
        densities.append([o for o in sums if sums[o] == best][0])
        assert k in (densities[-1], CLASS_FREE)
        assert k != CLASS_FREE or CLASS_FREE in t
    mine = grid_cll(total(tables, choice, shape), y, log_prior, calibrate)
    # never worse than every vertex keeping the class (the start of the ascent)
    assert mine >= grid_cll(total(tables, densities, shape), y, log_prior, calibrate) - 1e-6
    # no single vertex's switch improves it by more than one standard error of the rows'
    # gains (the search's stopping rule), up to the grid's resolution of w
    rows_mine = grid_rows(total(tables, choice, shape), y, log_prior, calibrate)
    for j, t in enumerate(tables):
        if CLASS_FREE not in t:
            continue
        other = CLASS_FREE if choice[j] != CLASS_FREE else densities[j]
        flipped = [*choice[:j], other, *choice[j + 1:]]
        gain = grid_rows(total(tables, flipped, shape), y, log_prior, calibrate) - rows_mine
        assert gain.sum() <= np.sqrt(y.size) * gain.std(ddof=1) + 1e-5


def test_noise_goes_class_free_and_a_copy_too_without_the_weight():
    """Vertex 0 separates the classes, vertex 1 is its evidence doubled, vertex 2 noise.
    With the evidence weight the copy costs nothing (w rescales it): only the noise goes
    class-free, the exhaustive best of the 2^3 choices. With w = 1 the three-fold evidence
    is too steep: one of the copies goes class-free too."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    s = rng.normal(size=300) + np.where(y == 1, 1.0, -1.0)
    L0 = np.column_stack([-s, s])
    free = np.zeros((300, 2))
    tables = [{"gaussian": L0, CLASS_FREE: free}, {"copula": 2 * L0, CLASS_FREE: free},
              {"ckde": 2.0 * rng.normal(size=(300, 2)), CLASS_FREE: free}]
    prior = np.log([0.5, 0.5])
    choice = choose_kinds(tables, y, prior)
    assert choice == ("gaussian", "copula", CLASS_FREE)
    best = max(grid_cll(total(tables, c, (300, 2)), y, prior)
               for c in itertools.product(*[list(t) for t in tables]))
    assert grid_cll(total(tables, choice, (300, 2)), y, prior) == pytest.approx(best, abs=1e-6)
    fixed = choose_kinds(tables, y, prior, calibrate=False)
    assert fixed[2] == CLASS_FREE and CLASS_FREE in fixed[:2]


def test_option_with_a_zero_density_row_is_dropped():
    y = np.array([0, 1, 0, 1, 0, 1])
    good = np.log(np.full((6, 2), 0.5))
    bad = good + 1.0
    bad[2, 1] = -np.inf  # the best held-out sum, but a row of zero density in class 1
    choice = choose_kinds([{"copula": bad, "gaussian": good}], y, np.log([0.5, 0.5]))
    assert choice == ("gaussian",)
    # its only density is kept (nothing else to choose)
    assert choose_kinds([{"ckde": bad}], y, np.log([0.5, 0.5])) == ("ckde",)


def test_class_free_factor_is_the_pooled_regression(fitted):
    """a's class-free factor given b: the least-squares line of a on b over every training
    row (both classes), residual variance RSS / n plus the floor (bw_floor sd(a))^2."""
    X, y, clf = fitted
    net = clf.network_
    assert clf.factor_kinds_["a"] == CLASS_FREE and clf.structure_.parents("a") == {"b"}
    f = net.factors[net.columns.index(list(X.columns).index("a"))]
    assert isinstance(f, ClassFreeFactor)
    A = np.column_stack([np.ones(len(X)), X["b"]])
    beta, *_ = np.linalg.lstsq(A, X["a"].to_numpy(), rcond=None)
    rss = float(np.sum((X["a"] - A @ beta) ** 2))
    var = rss / len(X) + (Semiparametric().bw_floor * X["a"].std(ddof=0)) ** 2
    expect = norm.logpdf(X["a"], A @ beta, np.sqrt(var))
    got = f.log_prob(clf.encoder_.transform(X))
    np.testing.assert_allclose(got, np.column_stack([expect, expect]), rtol=1e-9, atol=1e-9)


def test_class_free_factors_integrate_to_one(fitted):
    """e given d (continuous child): the trapezoid rule over e in each parent level gives 1;
    d given a as a class-free factor (categorical child, continuous parent, Bayes' rule on
    the pooled CG joint): its two levels sum to 1 at any a."""
    X, y, clf = fitted
    net = clf.network_
    names = list(X.columns)
    fe = net.factors[net.columns.index(names.index("e"))]
    assert isinstance(fe, ClassFreeFactor) and clf.structure_.parents("e") == {"d"}
    grid = np.linspace(-60.0, 60.0, 24001)
    for level in ("u", "v"):
        rows = pd.DataFrame({"a": 1.0, "b": 1.0, "e": grid, "d": level})
        p = np.exp(fe.log_prob(clf.encoder_.transform(rows)))
        np.testing.assert_allclose(np.trapezoid(p, grid, axis=0), [1.0, 1.0], atol=1e-6)
    enc = clf.encoder_.transform(X)
    fd = ClassFreeFactor(fit_cg_factor(enc, np.zeros(len(X), np.int64), 1, names.index("d"),
                                       [names.index("a")]), 2)
    for a in (0.1, 2.0, 9.0):
        rows = pd.DataFrame({"a": a, "b": 1.0, "e": 0.0, "d": ["u", "v"]})
        p = np.exp(fd.log_prob(clf.encoder_.transform(rows)))
        np.testing.assert_allclose(p.sum(axis=0), [1.0, 1.0], rtol=1e-12)
        assert p[0, 0] == p[0, 1]


def test_class_free_leaf_does_not_move_the_posterior(fitted):
    """e is a class-free leaf: whatever its value, p(y | x) is unchanged."""
    X, y, clf = fitted
    assert clf.factor_kinds_["e"] == CLASS_FREE
    assert all("e" not in clf.structure_.parents(v) for v in X.columns)
    other = X.assign(e=np.random.default_rng(5).normal(scale=10.0, size=len(X)))
    np.testing.assert_allclose(clf.predict_proba(other), clf.predict_proba(X), rtol=1e-12)


@pytest.mark.parametrize("missing", [["a"], ["b"], ["d"], ["e"], ["a", "d"], ["b", "e"]])
def test_class_free_vertices_marginalise_exactly(fitted, missing):
    """Missing cells of class-free vertices and of their parents (grid engine) against the
    brute-force integral of the complete-row density (test_marginal._brute: 1201 nodes per
    missing cell, 301 for two). Measured largest error: 2e-15 where the missing cells drop
    out (a, e: leaves) or are summed (d, a and d), 6.1e-8 for b (the parent of the
    class-free a: the grid engine), 5.9e-8 for b and e; asserted 1e-6."""
    X, y, clf = fitted
    assert sorted(v for v, k in clf.factor_kinds_.items() if k == CLASS_FREE) == ["a", "e"]
    clf._train = X
    row = X.iloc[3].copy()
    row[missing] = np.nan
    enc = clf.encoder_.transform(pd.DataFrame([row]))
    ours = clf.network_.feature_log_likelihood(enc, 2)[0] + clf.class_log_prior_
    brute = _brute(clf, X.iloc[3], missing, n=1201 if len(missing) == 1 else 301)
    np.testing.assert_allclose(ours, brute, atol=1e-6)


def test_structure_graph_marks_the_class_edges_the_model_does_not_use(fitted):
    """The learned TAN keeps a class edge to every feature; the class edge of each
    class-free feature (a and e here) carries ``in_use=False``, the others none."""
    from estimators.network.export.structure_graph import structure_graph

    _, _, clf = fitted
    graph = structure_graph(clf)
    free = {v for v, kind in clf.factor_kinds_.items() if kind == CLASS_FREE}
    assert free == {"a", "e"}
    marked = {v for _, v, a in graph.edges(data=True)
              if a.get("kind") == "class-edge" and a.get("in_use") is False}
    assert marked == free
    assert all("in_use" not in a for _, v, a in graph.edges(data=True)
               if a.get("kind") == "class-edge" and v not in free)
