"""Friedman / Nemenyi statistics and the critical-difference diagram against independent
computations: scipy's friedmanchisquare, Demšar's (2006) table 5 of q_alpha, ranks counted by
brute force, and the F and CD formulas written out by hand."""

import itertools

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from viz.critical_difference import friedman_nemenyi, nemenyi_q, plot_critical_difference

#: Demšar (2006), table 5: critical values of the two-tailed Nemenyi test, k = 2..10
Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
Q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]


def _scores(seed: int, n: int, k: int, levels: int | None = None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.random((n, k)) + np.linspace(0, 0.3, k)
    if levels:  # coarse scores: many ties
        values = np.round(values * levels) / levels
    return pd.DataFrame(values, columns=[f"m{j}" for j in range(k)])


@pytest.mark.parametrize("k", range(2, 11))
def test_q_alpha_matches_demsar_table(k):
    assert nemenyi_q(k, 0.05) == pytest.approx(Q05[k - 2], abs=1e-3)  # the table has 3 decimals
    assert nemenyi_q(k, 0.10) == pytest.approx(Q10[k - 2], abs=1e-3)  # the table has 3 decimals


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 25), k=st.integers(3, 8),
       levels=st.sampled_from([None, 3, 10]))
def test_friedman_matches_scipy_and_ranks_by_brute_force(seed, n, k, levels):
    scores = _scores(seed, n, k, levels)
    values = scores.to_numpy()
    if np.all(values == values[:, :1]):
        return  # every method tied on every data set: scipy divides by zero
    test = friedman_nemenyi(scores)
    chi2, p = scipy.stats.friedmanchisquare(*values.T)
    assert test.friedman_chi2 == pytest.approx(chi2, rel=1e-9, abs=1e-9)
    assert test.friedman_p == pytest.approx(p, rel=1e-7, abs=1e-12)
    # rank of method j on a data set: 1 + (methods strictly better) + (ties) / 2
    better = (values[:, None, :] > values[:, :, None]).sum(axis=2)
    tied = (values[:, None, :] == values[:, :, None]).sum(axis=2) - 1
    brute = (1 + better + tied / 2).mean(axis=0)
    assert test.mean_ranks.to_dict() == pytest.approx(dict(zip(scores.columns, brute, strict=True)))
    # Iman-Davenport and CD written out
    if n * (k - 1) > test.friedman_chi2:
        f = (n - 1) * test.friedman_chi2 / (n * (k - 1) - test.friedman_chi2)
        assert test.iman_davenport_f == pytest.approx(f)
        assert test.iman_davenport_p == pytest.approx(
            scipy.stats.f.sf(f, k - 1, (k - 1) * (n - 1)), abs=1e-12)
    assert test.critical_difference == pytest.approx(nemenyi_q(k) * np.sqrt(k * (k + 1) / (6 * n)))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 12), k=st.integers(2, 7))
def test_cliques_are_the_maximal_groups_within_cd(seed, n, k):
    test = friedman_nemenyi(_scores(seed, n, k, 4), alpha=0.1)
    ranks, cd = test.mean_ranks, test.critical_difference
    names = list(ranks.index)
    # brute force: every run [i, j] of rank-sorted methods spanning less than CD, maximal
    runs = [(i, j) for i, j in itertools.combinations(range(len(names)), 2)
            if ranks.iloc[j] - ranks.iloc[i] < cd]
    maximal = {(i, j) for i, j in runs
               if not any(a <= i and j <= b and (a, b) != (i, j) for a, b in runs)}
    assert {tuple(names[i:j + 1]) for i, j in maximal} == set(test.cliques)


def test_losses_rank_the_lowest_first_and_nan_rows_are_dropped():
    loss = pd.DataFrame({"a": [0.1, 0.2, np.nan, 0.3], "b": [0.5, 0.6, 0.1, 0.7]},
                        index=["d1", "d2", "d3", "d4"])
    test = friedman_nemenyi(loss, higher_is_better=False)
    assert test.mean_ranks.to_dict() == {"a": 1.0, "b": 2.0}
    assert test.dropped == ("d3",) and test.n_datasets == 3
    assert friedman_nemenyi(loss).mean_ranks.to_dict() == {"b": 1.0, "a": 2.0}


@pytest.mark.parametrize("bad, error, message", [
    (np.zeros((3, 3)), TypeError, "pandas DataFrame"),
    (pd.DataFrame({"a": [1.0, 2.0]}), ValueError, "at least 2 methods"),
    (pd.DataFrame({"a": [1.0], "b": [2.0]}), ValueError, "at least 2 data sets"),
    (pd.DataFrame({"a": [1.0, np.inf], "b": [2.0, 1.0]}), ValueError, "finite"),
    (pd.DataFrame({"a": ["x", "y"], "b": [2.0, 1.0]}), ValueError, "numbers"),
])
def test_bad_scores(bad, error, message):
    with pytest.raises(error, match=message):
        friedman_nemenyi(bad)


def test_bad_alpha():
    with pytest.raises(ValueError, match="alpha"):
        friedman_nemenyi(_scores(0, 5, 3), alpha=1.5)


def test_diagram_draws_every_method_the_cd_bar_and_the_cliques():
    scores = _scores(1, 15, 6)
    test = friedman_nemenyi(scores)
    fig = plot_critical_difference(scores, title="accuracy")
    lines = {line.get_gid(): line for line in fig.axes[0].lines}
    one = lines["tick:1"].get_xdata()[0]
    unit = lines["tick:2"].get_xdata()[0] - one  # one rank on the axis
    for name, rank in test.mean_ranks.items():
        at = lines[f"method:{name}"].get_xdata()[0]
        assert 1 + (at - one) / unit == pytest.approx(rank)
    cd = lines["cd"].get_xdata()
    assert (cd[1] - cd[0]) / unit == pytest.approx(test.critical_difference)
    assert sum(gid.startswith("clique:") for gid in lines) == len(test.cliques)
    # the same figure from the test result
    again = plot_critical_difference(test)
    assert {line.get_gid() for line in again.axes[0].lines} == set(lines)


def test_few_data_sets_warn_and_a_long_cd_bar_stops_at_the_end_of_the_axis():
    # 3 data sets, 3 methods: CD = 2.343 * sqrt(3 * 4 / 18) = 1.91 < 2 = the axis; with 2
    # data sets CD = 2.343 * sqrt(12 / 12) = 2.34, longer than the axis (ranks 1 to 3)
    scores = _scores(3, 2, 3)
    with pytest.warns(UserWarning, match="Only 2 data sets: .* need at least 5"):
        test = friedman_nemenyi(scores)
    assert test.critical_difference == pytest.approx(nemenyi_q(3) * np.sqrt(3 * 4 / (6 * 2)))
    assert test.critical_difference > 2
    with pytest.warns(UserWarning, match="Only 2 data sets"):
        fig = plot_critical_difference(scores)
    ax = fig.axes[0]
    lines = {line.get_gid(): line for line in ax.lines}
    axis, cd = lines["axis"].get_xdata(), lines["cd"].get_xdata()
    assert cd[0] == pytest.approx(axis[0]) and cd[1] == pytest.approx(axis[1])
    texts = [t.get_text() for t in ax.texts]
    assert any("longer than the rank axis" in t for t in texts)
    assert any("too few data sets" in t for t in texts)
    # from 5 data sets on: no warning, and a short bar is drawn at its length
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        test = friedman_nemenyi(_scores(3, 40, 3))
        fig = plot_critical_difference(test)
    lines = {line.get_gid(): line for line in fig.axes[0].lines}
    unit = (lines["axis"].get_xdata()[1] - lines["axis"].get_xdata()[0]) / 2
    cd = lines["cd"].get_xdata()
    assert (cd[1] - cd[0]) / unit == pytest.approx(test.critical_difference)
    assert not any("too few" in t.get_text() for t in fig.axes[0].texts)
