"""The vectorised fast paths of issue 15 against the plain computations they replace."""

import numpy as np
import pytest
from scipy.special import ndtr, ndtri
from scipy.stats import rankdata

from estimators.base.validation import check_cells
from estimators.columns import MixedEncoder, infer_feature_types
from estimators.densities.kde import _binned_cdf
from estimators.latent import make_prior
from estimators.latent._estep import e_step
from estimators.scores._marginals import bandwidth_factor, kernel_cdf, normal_scores
from estimators.search._backbone_tables import BackboneTables
from estimators.search._common import colex_rank


def _per_column_scores(X, y, marginals, eps=1e-6):
    """normal_scores written column by column with scipy's rankdata (the reference)."""
    out = []
    for c in np.unique(y):
        Xc = X[y == c]
        Z = np.empty_like(Xc)
        for i in range(Xc.shape[1]):
            r = rankdata(Xc[:, i])
            if marginals == "rank":
                u = r / (r.size + 1.0)
            else:
                u = kernel_cdf(r, bandwidth_factor("scott", r.size, 1) * r.std(ddof=1))
            Z[:, i] = ndtri(np.clip(u, eps, 1 - eps))
        out.append(Z)
    return out


@pytest.mark.parametrize("marginals", ["rank-kernel", "rank"])
@pytest.mark.parametrize("n", [40, 3000])
def test_shared_rank_scores_equal_the_per_column_ranks(marginals, n):
    rng = np.random.default_rng(1)
    X = rng.lognormal(size=(n, 4))
    X[:, 1] = np.round(X[:, 1])  # ties: the per-column path
    y = rng.integers(0, 2, n)
    got = normal_scores(X, y, 2, marginals=marginals)
    for g, ref in zip(got, _per_column_scores(X, y, marginals), strict=True):
        np.testing.assert_allclose(g, ref, rtol=0, atol=1e-12)


@pytest.mark.parametrize("g", [64, 700, 2000])
def test_truncated_cdf_convolution_equals_the_full_kernel(g):
    w = np.random.default_rng(g).random(g)
    w /= w.sum()
    step_h = 1 / 16
    k = np.arange(g)
    direct = (w[None, :] * ndtr((k[:, None] - k[None, :]) * step_h)).sum(axis=1)
    np.testing.assert_allclose(_binned_cdf(w, step_h), direct, rtol=0, atol=1e-13)


def test_float_array_check_names_the_first_bad_column():
    X = np.ones((5, 4))
    X[2, 3] = np.inf
    X[1, 1] = np.nan
    with pytest.raises(ValueError, match=r"NaN in column 'b'"):
        check_cells(X, list("abcd"), allow_nan=False)
    with pytest.raises(ValueError, match=r"infinity in column 'd'"):
        check_cells(X, list("abcd"), allow_nan=True)


def test_numeric_array_types_and_encoding_match_the_column_rule():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=50), rng.integers(0, 3, 50), np.full(50, 2.5),
                         np.r_[np.arange(12.0), np.zeros(38)], rng.normal(size=50)])
    X[3, 4] = np.nan
    types = infer_feature_types(X)
    assert types == {0: "continuous", 1: "categorical", 2: "constant", 3: "continuous",
                     4: "continuous"}
    enc = MixedEncoder().fit(X).transform(X)
    cont = np.array([t == "continuous" for t in types.values()])
    np.testing.assert_array_equal(enc.values[:, cont], X[:, cont])
    assert np.isnan(enc.values[:, ~cont]).all()
    np.testing.assert_array_equal(enc.codes[:, 1], X[:, 1].astype(int))
    with pytest.raises(ValueError, match="Column 0 holds infinite"):
        MixedEncoder().fit(X).transform(np.where(np.arange(5) == 0, np.inf, X))


@pytest.mark.parametrize(("n", "k"), [(7, 1), (8, 2), (9, 3)])
def test_added_vertex_rank_is_the_rank_of_the_sorted_union(n, k):
    tb = BackboneTables(n, k)
    t, v = np.nonzero(~(tb.T.rows[:, :, None] == np.arange(n)).any(axis=1))
    d, _ = tb.add_vertex(t, v, np.zeros(t.size, np.int64))
    union = np.sort(np.column_stack([tb.T.rows[t], v]), axis=1)
    np.testing.assert_array_equal(d, colex_rank(union, tb.binom))


def test_row_iters_count_each_rows_own_sweeps():
    rng = np.random.default_rng(0)
    loglik = np.log(rng.dirichlet(np.ones(3), size=(200, 6)))
    mask = rng.random((200, 6)) < 0.9
    prior = make_prior("dirichlet", 3)
    full = e_step(prior, loglik, mask, active_set=False)
    active = e_step(prior, loglik, mask)
    np.testing.assert_array_equal(full.row_iters, active.row_iters)
    assert full.row_iters.max() == full.n_iter and full.row_sweeps == 200 * full.n_iter
    # the active set computes each row's own sweeps, plus at most the 1/0.9 compaction slack
    assert active.row_iters.sum() <= active.row_sweeps <= active.row_iters.sum() / 0.9 + 200
