"""The linear-Gaussian factors of every SPODE at once, and the SPODEs' joints in closed form.

**Fitting.** A continuous child v with continuous parents C (a subset of a SPODE's
super-parents) has the linear-Gaussian factor of
:func:`estimators.network.fitting.fit_cg_factor` (no categorical parent: one cell per
class): the regression of x_v on x_C in each class, a class with fewer than
``max(min_cell_rows, |C| + 2)`` rows (or in which x_v is constant up to the floor) pooled
with all rows, or, on a family with missing cells, every class blended with that many
pseudo-rows of all rows; the residual variance plus the absolute floor. Everything it needs
is the moments (count, means, centred cross products) of ``[x_C, x_v]`` per class and over
all rows, on the rows where the family is observed. Here they come for every family at
once:

* families observed on every training row: sub-matrices of the two-pass class moments of
  all complete continuous columns (:meth:`estimators.stats.cell_statistics.CellStats.from_arrays`,
  the same sums bit for bit as the per-family call);
* families with missing cells: per parent set C, the two-pass moments of every child v on
  its own available rows, all children in one masked array operation;

then pooled (or shrunk) and solved by the Gaussian cells of the per-family fit
(:func:`~estimators.stats.gaussian.regression_cells`) on the stack of all families' cells.
The mean training ``ln p`` of each factor (the edge scores) is summed over its rows, chunks
of families at once.

**Prediction.** A SPODE whose factors are all such linear Gaussians (a continuous table)
is one Gaussian over its features given the class, and all of them are evaluated together
(:class:`GaussianSpodes`, arrays over SPODEs x rows x factors): where S is observed, the
sum of the factors' log densities; where a member of S is missing, its joint
``p_S(y, x_O)`` with the missing members integrated out exactly, by taking the factors in
order (members of S first) and keeping ``p(x_S | the values so far, y)`` in moment form --
a missing member adds a coordinate, an observed value conditions the Gaussian and adds the
log density of its prediction error (the Kalman filter's likelihood). All (row, SPODE) pairs
with a missing member go through one loop over the factors, where the general engine
(:meth:`estimators.network.model.CGNetwork.log_marginal`) took each SPODE's rows one
missing pattern (over all columns) at a time. The moment form is used because the
information form (summing ``c c' / s`` over the children) loses the flat directions of the
posterior when a child's residual variance is at its floor (3e-5 nats on a 12-row table).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from estimators.columns import EncodedColumns
from estimators.network.factors import LinearGaussianFactor
from estimators.stats.cell_statistics import CellStats
from estimators.stats.gaussian import LOG_2PI, normal_log_density, regression_cells

__all__ = ["GaussianSpodes", "fit_gaussian_families"]

#: families x rows (or children x rows x coordinates) per array operation (bounds memory)
_CHUNK = 1 << 21


def fit_gaussian_families(enc: EncodedColumns, y: np.ndarray, n_classes: int, families,
                          *, var_floor: float, min_cell_rows: int) -> dict:
    """The factors ``p(x_v | x_C, y)`` of the ``families`` ``(v, C)`` (v and every member of
    the sorted tuple C continuous), equal to ``fit_cg_factor(enc, y, n_classes, v, C,
    ridge=0, var_floor=var_floor, min_cell_rows=min_cell_rows, shrink=<family has a
    missing cell>)``, with the mean training ``ln p`` of each.

    Returns
    -------
    dict
        ``(v, C) -> (LinearGaussianFactor, float)``.

    Examples
    --------
    >>> import numpy as np
    >>> from estimators.columns import MixedEncoder
    >>> from estimators.network.fitting import fit_cg_factor
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> X = rng.normal(size=(200, 3)) + y[:, None]
    >>> enc = MixedEncoder().fit_transform(X)
    >>> got = fit_gaussian_families(enc, y, 2, [(2, (0, 1))], var_floor=1e-9, min_cell_rows=5)
    >>> f, mean = got[2, (0, 1)]
    >>> ref = fit_cg_factor(enc, y, 2, 2, (0, 1), ridge=0.0, var_floor=1e-9)
    >>> bool(np.allclose(f.coef, ref.coef, rtol=1e-12)), round(mean, 3) < 0
    (True, True)
    """
    y = np.asarray(y, dtype=np.int64)
    obs = enc.observed
    complete_cols = obs.all(axis=0)
    by_size: dict = defaultdict(list)
    for v, C in families:
        by_size[len(C)].append((*C, v))
    groups = {}  # (|C|, shrink) -> families
    for k, rows in by_size.items():
        idx = np.unique(np.array(rows, dtype=np.int64).reshape(len(rows), k + 1), axis=0)
        shrink = ~complete_cols[idx].all(axis=1)
        for flag in (False, True):
            chosen = idx[shrink == flag].tolist()
            if chosen:
                groups[k, flag] = [(f[-1], tuple(f[:-1])) for f in chosen]
    out = {}
    for (k, shrink), fams in groups.items():
        if shrink:
            cls, glob, rows = _available_moments(enc, obs, y, n_classes, fams)
        else:
            cls, glob, rows = _complete_moments(enc, y, n_classes, fams, complete_cols)
        out.update(_regressions(enc, y, fams, k, shrink, cls, glob, rows, n_classes,
                                var_floor, min_cell_rows))
    return out


def _complete_moments(enc, y, m, fams, complete_cols):
    """Class (families, m) and global (families,) moments of ``[x_C, x_v]`` on all rows."""
    cols = np.flatnonzero(complete_cols & enc.continuous)
    pos = np.full(enc.values.shape[1], -1)
    pos[cols] = np.arange(cols.size)
    X = enc.values[:, cols]
    cls = CellStats.from_arrays(X, y, m)
    glob = CellStats.from_arrays(X, np.zeros(y.size, np.int64), 1)
    idx = pos[np.array([[*C, v] for v, C in fams])]  # (F, k + 1)

    def sub(st: CellStats) -> CellStats:
        mean = np.moveaxis(st.mean[:, idx], 0, 1)
        M = np.moveaxis(st.M[:, idx[:, :, None], idx[:, None, :]], 0, 1)
        return CellStats(np.broadcast_to(st.n, (len(fams), st.n.size)), mean, M)

    return sub(cls), sub(glob), np.full(len(fams), y.size)


def _available_moments(enc, obs, y, m, fams):
    """As :func:`_complete_moments`, each family on the rows where it is observed: per
    parent set, the masked two-pass moments of all its children at once."""
    k = len(fams[0][1])
    by_parents: dict = defaultdict(list)
    for i, (_, C) in enumerate(fams):
        by_parents[C].append(i)
    F = len(fams)
    n = np.zeros((F, m))
    mean = np.zeros((F, m, k + 1))
    M = np.zeros((F, m, k + 1, k + 1))
    gn, gmean, gM = np.zeros((F, 1)), np.zeros((F, 1, k + 1)), np.zeros((F, 1, k + 1, k + 1))
    rows = np.zeros(F, np.int64)
    X0 = np.where(obs, enc.values, 0.0)
    onehot = (y[None, :] == np.arange(m)[:, None]).astype(float)  # (m, n)
    for C, members in by_parents.items():
        members = np.array(members)
        V = [fams[i][0] for i in members]
        W = obs[:, list(C)].all(axis=1)[:, None] & obs[:, V]  # (n, |V|)
        Z = np.empty(W.shape + (k + 1,))
        Z[:, :, :k] = X0[:, list(C)][:, None, :]
        Z[:, :, k] = X0[:, V]
        rows[members] = W.sum(axis=0)
        for groups, (nn, mu, MM) in ((onehot, (n, mean, M)), (np.ones((1, y.size)), (gn, gmean, gM))):
            cnt, mu_, M_ = _masked_two_pass(Z, W, groups)
            nn[members], mu[members], MM[members] = cnt, mu_, M_
    return CellStats(n, mean, M), CellStats(gn, gmean, gM), rows


def _masked_two_pass(Z, W, groups):
    """Per child (axis 1 of ``Z``, its rows ``W``) and group (rows of ``groups``, one-hot),
    the count, means and centred cross products: shapes (|V|, g), (|V|, g, p), (|V|, g, p, p)."""
    Wf = W.astype(float)
    cnt = groups @ Wf  # (g, V)
    s = np.einsum("gr,rvp->gvp", groups, Z * Wf[:, :, None])
    mu = s / np.maximum(cnt, 1.0)[:, :, None]
    g_of_row = groups.argmax(axis=0)
    D = (Z - mu[g_of_row]) * Wf[:, :, None]
    M = np.einsum("gr,rvp,rvq->gvpq", groups, D, D)
    return cnt.T, np.moveaxis(mu, 0, 1), np.moveaxis(M, 0, 1)


def _regressions(enc, y, fams, k, shrink, cls, glob, rows, m, floor, min_cell_rows) -> dict:
    """The stacked per-family pooling (or shrinkage) and regressions of ``fit_cg_factor``
    for continuous v without categorical parents (cells: the class, twice -- the
    configuration slot and the unseen slot)."""
    F = len(fams)
    threshold = max(min_cell_rows, k + 2)
    cell = np.arange(2 * m) % m  # the 2 m cells (u, y) of a family -> its class
    up_cls = (np.arange(F)[:, None] * m + cell[None, :]).ravel()
    up_glob = np.repeat(np.arange(F), 2 * m)
    flat_cls = CellStats(np.ascontiguousarray(cls.n).reshape(F * m),
                         cls.mean.reshape(F * m, k + 1), cls.M.reshape(F * m, k + 1, k + 1))
    flat_glob = CellStats(np.ascontiguousarray(glob.n).reshape(F), glob.mean.reshape(F, k + 1),
                          glob.M.reshape(F, k + 1, k + 1))
    levels = [(flat_cls, up_cls), (flat_glob, up_glob)]
    a, b, s2 = regression_cells(levels, threshold, ridge=0.0, scale=None, floor=floor,
                                additive=True, shrink=shrink,
                                min_var=np.r_[np.full(k, -np.inf), floor])
    a, b, s2 = a.reshape(F, 2, m), b.reshape(F, 2, m, k), s2.reshape(F, 2, m)
    total = _sum_log_prob(enc, y, fams, a[:, 0], b[:, 0], s2[:, 0])
    radix, configs = enc.n_levels[[]], np.zeros(1, np.int64)
    means = np.where(rows > 0, total / np.maximum(rows, 1), 0.0).tolist()
    return {(v, C): (LinearGaussianFactor(v=v, continuous_parents=C, categorical_parents=(),
                                          n_classes=m, radix=radix, configs=configs,
                                          n_rows=n, intercept=a[i], coef=b[i], var=s2[i]),
                     means[i])
            for i, ((v, C), n) in enumerate(zip(fams, rows.tolist(), strict=True))}


def _sum_log_prob(enc, y, fams, a, b, s2) -> np.ndarray:
    """Per family, ``sum ln N(x_v; a_y + b_y.x_C, s2_y)`` over the training rows where it is
    observed (``a``, ``s2`` (F, m), ``b`` (F, m, k)), in chunks of families."""
    idx = np.array([[*C, v] for v, C in fams]).reshape(len(fams), -1)
    k = idx.shape[1] - 1
    out = np.zeros(len(fams))
    step = max(1, _CHUNK // max(1, y.size * idx.shape[1]))
    for c in range(a.shape[1]):  # per class: its rows and its parameters
        Xc = enc.values[y == c]
        for start in range(0, len(fams), step):
            sl = slice(start, start + step)
            Z = Xc[:, idx[sl]]  # (n_c, f, k + 1)
            mu = a[sl, c] + sum(b[sl, c, j] * Z[..., j] for j in range(k))
            lp = normal_log_density(Z[..., k] - mu, s2[sl, c])
            out[sl] += np.where(np.isnan(lp), 0.0, lp).sum(axis=0)
    return out


@dataclass(frozen=True, eq=False)
class GaussianSpodes:
    """SPODEs of linear-Gaussian factors without categorical parents, stacked.

    Attributes
    ----------
    S : ndarray of int (P, n)
        The super-parents of each SPODE (encoded columns).
    children : ndarray of int (P, q)
        The column of each factor: the members of S first (in order), then the others.
    intercept, var : ndarray (P, q, m)
    coef : ndarray (P, q, m, n)
        Each factor's slopes on the members of S (0 where not a parent).
    """

    S: np.ndarray
    children: np.ndarray
    intercept: np.ndarray
    coef: np.ndarray
    var: np.ndarray

    @staticmethod
    def stackable(net, S) -> bool:
        """Every factor of ``net`` is a linear Gaussian in members of ``S`` alone."""
        return bool(S) and all(isinstance(f, LinearGaussianFactor) and not f.categorical_parents
                               and set(f.continuous_parents) <= set(S) for f in net.factors)

    @classmethod
    def of(cls, nets, sets) -> GaussianSpodes:
        """The stack of the SPODEs ``nets`` with super-parents ``sets`` (all
        :meth:`stackable`, with as many factors each)."""
        S = np.array(sets, dtype=np.int64).reshape(len(sets), -1)
        P, n = S.shape
        q = len(nets[0].factors) if P else 0
        m = nets[0].factors[0].n_classes if P else 0
        children = np.empty((P, q), np.int64)
        a, v, b = np.empty((P, q, m)), np.empty((P, q, m)), np.zeros((P, q, m, n))
        for k, (net, members) in enumerate(zip(nets, S, strict=True)):
            members = members.tolist()
            first = [net.factors[net.columns.index(s)] for s in members]
            fs = first + [f for f in net.factors if f.v not in members]
            children[k] = [f.v for f in fs]
            a[k] = [f.intercept[0] for f in fs]
            v[k] = [f.var[0] for f in fs]
            for j, f in enumerate(first):  # member j: parents the members before it
                b[k, j, :, :j] = f.coef[0]
            if q > n:  # the others: every member a parent, in order
                b[k, n:] = [f.coef[0] for f in fs[n:]]
        return cls(S, children, a, b, v)

    def log_likelihood(self, enc: EncodedColumns, spodes: slice) -> np.ndarray:
        """``ln p_S(x_O | y)`` of the SPODEs ``spodes`` per SPODE, row and class, shape
        (P, n_rows, m): the factors summed where S is observed; the missing members of S
        integrated out by sequential Gaussian conditioning (module docstring).

        Examples
        --------
        >>> import numpy as np
        >>> from estimators.bnc import A2DEClassifier
        >>> rng = np.random.default_rng(0)
        >>> y = rng.integers(0, 2, 100)
        >>> X = rng.normal(size=(100, 3)) + y[:, None]
        >>> X[0, 0] = np.nan  # a missing super-parent, integrated out
        >>> clf = A2DEClassifier().fit(X, y)
        >>> enc = clf.encoder_.transform(X[:2])
        >>> stacked, gaussian = clf._gaussian
        >>> ll = gaussian.log_likelihood(enc, slice(None)) + clf.class_log_prior_
        >>> engine = [net.joint_log_likelihood(enc, clf.class_log_prior_) for net in clf.spodes_]
        >>> ll.shape, bool(np.allclose(ll, engine, rtol=0, atol=1e-9))
        ((3, 2, 2), True)
        """
        S, ch = self.S[spodes], self.children[spodes]
        a, b, s = self.intercept[spodes], self.coef[spodes], self.var[spodes]
        obs = enc.observed
        x = np.where(obs, enc.values, 0.0)
        xs, xc = x[:, S], x[:, ch]  # (r, P, n), (r, P, q)
        use = obs[:, ch]  # (r, P, q)
        r0 = xc[..., None] - a[None] - np.einsum("rpn,pqmn->rpqm", xs, b)
        ll = -0.5 * np.einsum("rpq,rpqm->prm", use.astype(float),
                              LOG_2PI + np.log(s)[None] + r0 * r0 / s[None])
        gone = ~obs[:, S]  # (r, P, n)
        rows, spode = np.nonzero(gone.any(axis=2))
        if rows.size:
            ll[spode, rows] = _conditioned(x[rows], obs[rows], S[spode], ch[spode], a[spode],
                                           b[spode], s[spode])
        return ll


def _conditioned(x, obs, S, ch, a, b, s) -> np.ndarray:
    """``ln p_S(x_O | y)`` of N (row, SPODE) pairs with a missing member of S: the factors in
    order (members first), a Gaussian over x_S in moment form updated by each (Kalman):
    a missing member is added to it, an observed value conditions it and adds the log
    density of its innovation. Shapes: x, obs (N, d); S (N, n); ch (N, q); a, s (N, q, m);
    b (N, q, m, n). Returns (N, m)."""
    N, q, m = a.shape
    n = S.shape[1]
    mu = np.zeros((N, m, n))
    cov = np.zeros((N, m, n, n))
    ll = np.zeros((N, m))
    rows = np.arange(N)
    for i in range(q):
        v = ch[:, i]
        seen = obs[rows, v]
        bi = b[:, i]  # (N, m, n)
        pred = a[:, i] + np.einsum("kmn,kmn->km", bi, mu)
        Pb = np.einsum("kmij,kmj->kmi", cov, bi)
        var = np.einsum("kmn,kmn->km", bi, Pb) + s[:, i]
        e = x[rows, v][:, None] - pred
        upd = seen[:, None]
        ll += np.where(upd, normal_log_density(e, var), 0.0)
        gain = np.where(upd[..., None], Pb / var[..., None], 0.0)
        mu = mu + gain * e[..., None]
        cov = cov - gain[..., :, None] * Pb[..., None, :]
        cov = 0.5 * (cov + np.swapaxes(cov, -1, -2))
        if i < n:  # member i of S: its value, or a new coordinate of the Gaussian
            mu[:, :, i] = np.where(upd, x[rows, v][:, None], pred)
            col = np.where(upd[..., None], 0.0, Pb)
            cov[:, :, i, :] = col
            cov[:, :, :, i] = col
            cov[:, :, i, i] = np.where(upd, 0.0, var)
    return ll
