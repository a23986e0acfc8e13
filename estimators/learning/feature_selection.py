"""Feature selection for the NB-family classifiers: the class's Markov blanket estimated from
the training rows.

Features outside the class's Markov blanket are conditionally independent of the class given
the blanket, so they carry no information a classifier needs; fitted anyway they add
estimation variance (extra CPTs and edges). :func:`markov_blanket` estimates the blanket by
IAMB (incremental association Markov blanket; Tsamardinos, Aliferis and Statnikov 2003),
with the G-test of conditional independence:

- **grow**: among the features not yet in the blanket ``B``, take the one most strongly
  dependent on the class given ``B`` (smallest p-value of ``X_j ⊥ Y | X_B``) and add it
  while that p-value is below ``alpha``;
- **shrink**: remove, one at a time, each member ``j`` with ``X_j ⊥ Y | X_{B \\ j}`` not
  rejected at level ``alpha``.

The G statistic of ``X ⊥ Y | Z`` (categorical) is ``G = 2 sum_{z,x,y} n_zxy ln(n_zxy n_z /
(n_zx n_zy)) = 2 n I_hat(X; Y | Z)``, asymptotically chi-square with ``sum_z (r_z - 1)(c_z -
1)`` degrees of freedom, where ``r_z`` and ``c_z`` count the levels of X and Y observed in
stratum z (empty rows and columns of a stratum carry no degrees of freedom; this is the
convention of pgmpy's ``power_divergence`` CI test, without its Yates correction on 2 x 2
strata). Strata are the configurations of Z seen in the data.

Examples
--------
>>> import numpy as np
>>> from estimators.learning.feature_selection import markov_blanket
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 3000)
>>> x0 = np.where(rng.random(3000) < 0.8, y, 1 - y)          # child of the class
>>> x1 = np.where(rng.random(3000) < 0.9, x0, 1 - x0)        # child of x0 only
>>> x2 = rng.integers(0, 3, 3000)                            # noise
>>> markov_blanket(np.column_stack([x0, x1, x2]), y)
[0]
"""

from __future__ import annotations

from functools import partial

import numpy as np
from scipy.stats import chi2

__all__ = ["CI_TESTS", "FEATURE_SELECTORS", "g_test", "markov_blanket", "select_features",
           "sp_g_test"]

#: permutations of the semiparametric test (its degrees of freedom are their mean G)
N_PERMUTATIONS = 50


def _codes(columns: np.ndarray) -> tuple[np.ndarray, int]:
    """One code per row for the joint configuration of ``columns`` (n, m), 0 .. n_conf - 1,
    and the number of configurations seen (1 for no columns)."""
    if columns.shape[1] == 0:
        return np.zeros(columns.shape[0], dtype=np.int64), 1
    if columns.shape[1] == 1:
        _, inverse = np.unique(columns[:, 0], return_inverse=True)
    else:
        _, inverse = np.unique(columns, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    return inverse.astype(np.int64), int(inverse.max()) + 1


def g_test(x: np.ndarray, y: np.ndarray, z: np.ndarray | None = None) -> tuple[float, int, float]:
    """G-test of ``X ⊥ Y | Z`` for categorical codes: ``(G, dof, log p-value)``.

    Parameters
    ----------
    x, y : ndarray of int, shape (n,)
        Codes ``>= 0``.
    z : ndarray of int, shape (n, m), optional
        Conditioning columns (codes); none when omitted.

    Returns
    -------
    G : float
        ``2 n I_hat(X; Y | Z)`` in nats.
    dof : int
        ``sum_z (r_z - 1)(c_z - 1)`` over the strata (levels observed in each stratum).
    log_p : float
        ``ln P(chi2_dof >= G)`` (0 when dof is 0); the log keeps the ranking of strongly
        dependent features (p-values below 1e-300).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0, 0, 1, 1, 0, 1, 0, 1])
    >>> g, dof, log_p = g_test(x, x)
    >>> round(g, 4), dof        # 2 n ln 2 for a copy of a fair binary variable
    (11.0904, 1)
    """
    z = np.empty((len(x), 0), dtype=np.int64) if z is None else np.asarray(z).reshape(len(x), -1)
    zc, n_z = _codes(z)
    xc, n_x = _codes(np.asarray(x).reshape(-1, 1))
    yc, n_y = _codes(np.asarray(y).reshape(-1, 1))
    counts = np.bincount((zc * n_x + xc) * n_y + yc, minlength=n_z * n_x * n_y)
    counts = counts.reshape(n_z, n_x, n_y).astype(float)
    g = float(_g_statistics(counts[None])[0])
    n_zx, n_zy = counts.sum(axis=2), counts.sum(axis=1)
    dof = int(np.sum(np.maximum((n_zx > 0).sum(axis=1) - 1, 0) * np.maximum((n_zy > 0).sum(axis=1) - 1, 0)))
    log_p = float(chi2.logsf(g, dof)) if dof > 0 else 0.0
    return g, dof, log_p


def _g_statistics(counts: np.ndarray) -> np.ndarray:
    """G of each stacked table ``counts`` (P, n_z, n_x, n_y), shape (P,)."""
    n_zx, n_zy = counts.sum(axis=3), counts.sum(axis=2)
    n_z = n_zx.sum(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = counts * n_z[:, :, None, None] / (n_zx[:, :, :, None] * n_zy[:, :, None, :])
        terms = np.where(counts > 0, counts * np.log(np.where(counts > 0, ratio, 1.0)), 0.0)
    return np.maximum(2.0 * terms.sum(axis=(1, 2, 3)), 0.0)


def sp_g_test(x: np.ndarray, y: np.ndarray, z: np.ndarray | None = None, *,
              n_permutations: int = N_PERMUTATIONS, random_state=0) -> tuple[float, float, float]:
    """Semiparametric G-test of ``X ⊥ Y | Z``: ``(G, effective dof, log p-value)``.

    The chi-square reference distribution of :func:`g_test` is anti-conservative on sparse
    tables (a stratum with two rows and two distinct x and y adds ``4 ln 2 = 2.77`` to G but
    one degree of freedom), so a blanket grown by it keeps absorbing features once the
    conditioning set is large. Here the degrees of freedom are estimated as the mean of G
    over ``n_permutations`` permutations of x within the strata of Z (which keep both
    conditional margins and make X ⊥ Y | Z hold), and the p-value is the chi-square tail at
    that estimate: bnlearn's ``"sp-mi"`` test (Tsamardinos and Borboudakis 2010). On a
    dense table the estimate is close to :func:`g_test`'s dof.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> z = rng.integers(0, 400, 1000)                  # sparse strata, X ⊥ Y | Z
    >>> x, y = (z + rng.integers(0, 2, 1000)) % 3, rng.integers(0, 2, 1000)
    >>> bool(np.exp(g_test(x, y, z)[2]) < 0.05), bool(np.exp(sp_g_test(x, y, z)[2]) > 0.05)
    (True, True)
    """
    z = np.empty((len(x), 0), dtype=np.int64) if z is None else np.asarray(z).reshape(len(x), -1)
    zc, n_z = _codes(z)
    xc, n_x = _codes(np.asarray(x).reshape(-1, 1))
    yc, n_y = _codes(np.asarray(y).reshape(-1, 1))
    rng = np.random.default_rng(random_state)
    by_z = np.argsort(zc, kind="stable")
    shuffled = np.argsort(zc[None, :] + rng.random((n_permutations, len(xc))), axis=1)
    x_perm = np.empty((n_permutations + 1, len(xc)), dtype=np.int64)
    x_perm[0] = xc
    x_perm[1:, by_z] = xc[shuffled]
    cells = n_z * n_x * n_y
    index = (zc * n_x + x_perm) * n_y + yc + cells * np.arange(n_permutations + 1)[:, None]
    counts = np.bincount(index.ravel(), minlength=cells * (n_permutations + 1))
    g_all = _g_statistics(counts.reshape(n_permutations + 1, n_z, n_x, n_y).astype(float))
    dof = float(g_all[1:].mean())
    log_p = float(chi2.logsf(g_all[0], dof)) if dof > 0 else 0.0
    return float(g_all[0]), dof, log_p


def markov_blanket(X: np.ndarray, y: np.ndarray, *, alpha: float = 0.05, test: str = "sp-g",
                   min_features: int = 0, random_state: int = 0) -> list[int]:
    """The class's Markov blanket estimated by IAMB with G-tests (see the module docstring).

    Parameters
    ----------
    X : ndarray of int, shape (n, d)
        Categorical feature codes (``>= 0``; complete rows).
    y : ndarray, shape (n,)
        Class labels or codes.
    alpha : float, default=0.05
        Significance level of every conditional-independence test.
    test : {"sp-g", "g"}, default="sp-g"
        :func:`sp_g_test` (semiparametric, right on sparse tables) or :func:`g_test`
        (asymptotic chi-square; keeps adding features once the blanket is large).
    min_features : int, default=0
        When the blanket has fewer members, the strongest other features (smallest marginal
        G-test p-value) are added until it has this many (a k-TAN needs two features).
    random_state : int, default=0
        Seed of the permutations of every :func:`sp_g_test`.

    Returns
    -------
    list of int
        Column indices of the blanket, in increasing order.
    """
    X = np.asarray(X)
    y = _codes(np.asarray(y).reshape(-1, 1))[0]
    d = X.shape[1]
    if X.size and X.min() < 0:
        raise ValueError("markov_blanket needs complete categorical codes (>= 0); X has a "
                         "missing or unseen cell (code -1).")
    if test not in CI_TESTS:
        raise ValueError(f"markov_blanket: unknown test {test!r}; choose one of {sorted(CI_TESTS)}.")
    ci_test = CI_TESTS[test]
    if ci_test is sp_g_test:
        ci_test = partial(sp_g_test, random_state=random_state)
    blanket: list[int] = []
    while len(blanket) < d:  # grow
        rest = [j for j in range(d) if j not in blanket]
        strata = _codes(X[:, blanket])[0][:, None]  # the blanket's configurations, once
        tests = [ci_test(X[:, j], y, strata) for j in rest]
        best = min(range(len(rest)), key=lambda i: (tests[i][2], -tests[i][0]))
        if not tests[best][2] < np.log(alpha):
            break
        blanket.append(rest[best])
    for j in list(blanket):  # shrink, in the order added
        others = [b for b in blanket if b != j]
        if not ci_test(X[:, j], y, _codes(X[:, others])[0][:, None])[2] < np.log(alpha):
            blanket.remove(j)
    if len(blanket) < min_features:
        rest = [j for j in range(d) if j not in blanket]
        marginal = [g_test(X[:, j], y) for j in rest]
        ranked = sorted(range(len(rest)), key=lambda i: (marginal[i][2], -marginal[i][0]))
        blanket += [rest[i] for i in ranked[: min_features - len(blanket)]]
    return sorted(blanket)


#: conditional-independence tests of :func:`markov_blanket` by name
CI_TESTS = {"sp-g": sp_g_test, "g": g_test}

def _markov_blanket_columns(enc, y, columns, min_features: int, random_state: int,
                            names=None) -> list[int]:
    """:func:`markov_blanket` on the categorical ``columns`` of an encoded table (complete
    categorical columns only: a ``ValueError`` naming the others)."""
    names = names if names is not None else [str(j) for j in range(len(enc.types))]
    bad = [names[j] for j in columns if enc.types[j] != "categorical" or (enc.codes[:, j] < 0).any()]
    if bad:
        raise ValueError(
            "feature_selection='markov-blanket' needs complete categorical "
            f"columns; column(s) {bad} are continuous or have missing cells. Use "
            "feature_selection='selective-nb' or None (all features) on this table.")
    chosen = markov_blanket(enc.codes[:, columns], y, min_features=min_features,
                            random_state=random_state)
    return [columns[i] for i in chosen]


def _selective_nb_columns(enc, y, columns, min_features: int, random_state: int,
                          names=None) -> list[int]:
    from estimators.learning.selective_nb import selective_nb

    return selective_nb(enc, y, columns, min_features=min_features, random_state=random_state)


#: feature selectors by name: ``(enc, class codes, columns, min_features, random_state,
#: names) -> the chosen columns`` (``enc`` an :class:`~estimators.columns.EncodedColumns`,
#: ``columns`` the candidate indices into it, ``names`` for messages)
FEATURE_SELECTORS = {
    "markov-blanket": _markov_blanket_columns,
    "selective-nb": _selective_nb_columns,
}


def select_features(method: str | None, enc, y, columns, *, min_features: int = 1,
                    random_state: int = 0, names=None) -> list[int]:
    """The columns of ``columns`` that ``method`` (a name of :data:`FEATURE_SELECTORS`)
    keeps; all of them for None.

    ``"markov-blanket"``: the class's Markov blanket by IAMB with semiparametric G-tests
    (:func:`markov_blanket`; complete categorical columns only). ``"selective-nb"``: forward
    selection of a naive Bayes's features by cross-validated log-loss
    (:func:`estimators.learning.selective_nb.selective_nb`; any column types, missing cells
    allowed). At least ``min_features`` columns are kept.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> rng = np.random.default_rng(1)
    >>> y = rng.integers(0, 2, 500)
    >>> X = np.column_stack([np.where(rng.random(500) < 0.8, y, 1 - y),
    ...                      rng.integers(0, 3, 500)])
    >>> enc = MixedEncoder().fit_transform(X)
    >>> [select_features(m, enc, y, [0, 1]) for m in ("markov-blanket", "selective-nb", None)]
    [[0], [0], [0, 1]]
    """
    columns = list(columns)
    if method is None:
        return columns
    return FEATURE_SELECTORS[method](enc, np.asarray(y), columns, min_features, random_state,
                                     names=names)
