"""Each semiparametric factor type is a proper conditional density (numerical quadrature
over x_v integrates to 1 for fixed parents, in every class and categorical-parent cell),
and the CKDE equals a direct kernel sum written from MATH.md §11."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import multivariate_normal

from estimators.columns import MixedEncoder
from estimators.semiparametric import (
    ClassMargins,
    Semiparametric,
    fit_ckde_factor,
    fit_copula_factor,
)


def _data(n=240, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    d = np.where(rng.random(n) < 0.5, "p", "q")
    a = rng.gamma(1.5 + y, size=n)
    b = np.log1p(a) + (d == "p") + rng.normal(scale=0.4, size=n)
    return pd.DataFrame({"a": a, "d": d, "b": b}), y


def _grid_rows(encoder, df, column, grid):
    """One row per grid value of ``column``, the other cells from ``df``'s first row."""
    rows = pd.concat([df.iloc[:1]] * grid.size, ignore_index=True)
    rows[column] = grid
    return encoder.transform(rows)


def _integral(factor, encoder, df, column, lo, hi, n=3001):
    grid = np.linspace(lo, hi, n)
    dens = np.exp(factor.log_prob(_grid_rows(encoder, df, column, grid)))
    return np.trapezoid(dens, grid, axis=0)


@pytest.mark.parametrize("tail", [0.0, 0.05])
@pytest.mark.parametrize("parents", [[], [0], [0, 1]])
def test_ckde_integrates_to_one(parents, tail):
    df, y = _data()
    encoder = MixedEncoder().fit(df)
    enc = encoder.transform(df)
    f = fit_ckde_factor(enc, y, 2, v=2, parents=parents, bw_floor=0.1, tail=tail)
    for level in ("p", "q"):
        probe = df.iloc[:1].assign(d=level, a=1.3)
        total = _integral(f, encoder, probe, "b", -8.0, 10.0)
        np.testing.assert_allclose(total, 1.0, atol=2e-4)


@pytest.mark.parametrize("parents", [[], [0], [0, 1]])
def test_copula_factor_integrates_to_one(parents):
    df, y = _data()
    encoder = MixedEncoder().fit(df)
    enc = encoder.transform(df)
    m = ClassMargins(enc, y, 2, [0, 2], bw_floor=0.1, tail=0.01)
    f = fit_copula_factor(enc, m.training_scores(enc, y), y, 2, 2, parents, m, alpha=1.0,
                          bw_floor=0.1, min_cell_rows=5)
    for level in ("p", "q"):
        probe = df.iloc[:1].assign(d=level, a=0.7)
        # the kernel margins' binned CDF and density agree to O((h / 16)^2)
        np.testing.assert_allclose(_integral(f, encoder, probe, "b", -12.0, 14.0), 1.0,
                                   atol=3e-3)


def test_categorical_copula_factor_sums_to_one():
    df, y = _data()
    enc = MixedEncoder().fit_transform(df)
    m = ClassMargins(enc, y, 2, [0, 2], bw_floor=0.1, tail=0.01)
    f = fit_copula_factor(enc, m.training_scores(enc, y), y, 2, 1, [0, 2], m, alpha=1.0,
                          bw_floor=0.1, min_cell_rows=5)
    both = []
    for level in (0, 1):
        codes = enc.codes.copy()
        codes[:, 1] = level
        both.append(np.exp(f.log_prob(type(enc)(enc.values, codes, enc.types, enc.n_levels,
                                                  enc.names, enc.n_unseen))))
    np.testing.assert_allclose(both[0] + both[1], 1.0, atol=1e-12)


def test_ckde_equals_direct_kernel_sum():
    """p(b | a, d, y) = KDE(b, a) / KDE(a) on the rows of the cell (d, y), H the
    normal-reference matrix of MATH.md §11, summed with scipy's multivariate normal."""
    df, y = _data()
    enc = MixedEncoder().fit_transform(df)
    f = fit_ckde_factor(enc, y, 2, v=2, parents=[0, 1], bw_floor=0.0, tail=0.0)
    probe = enc.take(np.arange(5))
    ours = f.log_prob(probe)
    for c in range(2):
        for i in range(5):
            cell = (y == c) & (enc.codes[:, 1] == enc.codes[i, 1])
            data = enc.values[cell][:, [2, 0]]
            n = data.shape[0]
            H = (4.0 / (4 * n)) ** (2.0 / 6) * np.cov(data, rowvar=False)
            q = enc.values[i, [2, 0]]
            joint = np.mean([multivariate_normal(row, H).pdf(q) for row in data])
            marg = np.mean([multivariate_normal(row[1], H[1, 1]).pdf(q[1]) for row in data])
            np.testing.assert_allclose(ours[i, c], np.log(joint / marg), rtol=1e-10)


def test_bandwidth_floor_bounds_a_constant_class_column():
    """A column constant within class 0 gets the floor bandwidth: a class-0 row off that
    value costs a bounded amount, not the ~1e12-scale penalty of a degenerate kernel."""
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 100)
    x = np.where(y == 0, 2.0, rng.normal(size=200))
    enc = MixedEncoder().fit_transform(pd.DataFrame({"x": x}))
    probe = MixedEncoder().fit(pd.DataFrame({"x": x})).transform(pd.DataFrame({"x": [2.5]}))
    f = fit_ckde_factor(enc, y, 2, v=0, bw_floor=0.1, tail=0.01)
    gap = f.log_prob(probe)[0, 1] - f.log_prob(probe)[0, 0]
    assert 0 < gap < np.log(1 / 0.01) + 2.0
    bare = fit_ckde_factor(enc, y, 2, v=0, bw_floor=0.0, tail=0.0)
    assert bare.log_prob(probe)[0, 1] - bare.log_prob(probe)[0, 0] > 1e6


@pytest.mark.parametrize("kwargs, message", [
    ({"kind": "kde"}, "continuous must be one of"),
    ({"bandwidth": "silverman"}, "bandwidth must be one of"),
    ({"tail": 1.0}, "tail must be in [0, 1)"),
    ({"bw_floor": -1.0}, "bw_floor must be >= 0"),
    ({"folds": 1}, "folds must be at least 2"),
])
def test_bad_spec(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace(")", r"\)")):
        Semiparametric(**kwargs)


def test_cv_bandwidth_beats_normal_reference_on_a_bimodal_sample():
    """The normal-reference rule oversmooths a well separated mixture; ``bandwidth="cv"``
    picks a smaller factor of CV_SCALES and a larger held-out log-likelihood."""
    from estimators.semiparametric.ckde import CV_SCALES

    rng = np.random.default_rng(5)

    def sample(n):
        return np.where(rng.random(n) < 0.5, -3.0, 3.0) + rng.normal(scale=0.3, size=n)

    encoder = MixedEncoder().fit(pd.DataFrame({"x": sample(200)}))
    enc = encoder.transform(pd.DataFrame({"x": sample(200)}))
    test = encoder.transform(pd.DataFrame({"x": sample(2000)}))
    y = np.zeros(200, int)
    nr = fit_ckde_factor(enc, y, 1, v=0)
    cv = fit_ckde_factor(enc, y, 1, v=0, bandwidth="cv")
    assert cv.scale in CV_SCALES and cv.scale < 1.0
    assert cv.log_prob(test).sum() > nr.log_prob(test).sum()


def _pair(n, rng, shape):
    z = rng.multivariate_normal([0.0, 0.0], [[1.0, 0.7], [0.7, 1.0]], size=n)
    return np.exp(z) if shape == "lognormal" else z


@pytest.mark.parametrize("shape, bound", [("normal", 2e-3), ("lognormal", 1e-2)])
def test_binned_ckde_within_its_bound_of_the_direct_sum(shape, bound):
    """Cells of >= BINNED_MIN_ROWS rows sum their kernels on a grid: ln p(x_v | x_C, y) of
    held-out rows within ``bound`` of the direct sum (ckde.py's module docstring: spacing
    1/16 of a bandwidth for the normal sample; the lognormal tail coarsens it), and the tail
    mixture on top changes nothing of that."""
    rng = np.random.default_rng(3)
    train, test = _pair(3000, rng, shape), _pair(400, rng, shape)
    y = np.tile([0, 1], 1700)
    both = np.vstack([train, test])
    enc = MixedEncoder().fit_transform(pd.DataFrame({"a": both[:, 0], "b": both[:, 1]}))
    rows, probe = np.arange(3000), enc.take(np.arange(3000, 3400))
    inside = ((test >= train.min(axis=0)) & (test <= train.max(axis=0))).all(axis=1)
    for tail in (0.0, 0.1):
        exact, binned = (fit_ckde_factor(enc, y, 2, v=1, parents=[0], bw_floor=0.5,
                                         tail=tail, rows=rows, kernel_sum=s)
                         for s in ("exact", "binned"))
        assert all(c.binned is not None for c in binned.class_cells)
        assert all(c.binned is None for c in exact.class_cells)
        diff = np.abs(binned.log_prob(probe) - exact.log_prob(probe))[inside]
        assert diff.max() < bound
        assert diff.max() > 0  # the grid is used, not the direct sum


def test_small_cells_keep_the_direct_sum():
    """Below BINNED_MIN_ROWS rows a cell is summed directly: binned equals exact."""
    df, y = _data()
    enc = MixedEncoder().fit_transform(df)
    exact, binned = (fit_ckde_factor(enc, y, 2, v=2, parents=[0], kernel_sum=s)
                     for s in ("exact", "binned"))
    np.testing.assert_array_equal(binned.log_prob(enc), exact.log_prob(enc))


def test_bad_kernel_sum():
    df, y = _data()
    enc = MixedEncoder().fit_transform(df)
    with pytest.raises(ValueError, match="kernel_sum must be one of"):
        fit_ckde_factor(enc, y, 2, v=2, parents=[0], kernel_sum="fast")
    with pytest.raises(ValueError, match="kernel_sum must be one of"):
        Semiparametric("auto", kernel_sum="fft")
    from estimators.semiparametric.ckde import BinnedKernelSum
    with pytest.raises(ValueError, match="1 or 2 dimensions; got 3"):
        BinnedKernelSum(np.zeros((10, 3)), np.eye(3))
