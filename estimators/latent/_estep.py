"""The per-row variational fixed point (E-step), vectorised across rows."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._prior_base import Prior

__all__ = ["EStepResult", "e_step"]


@dataclass
class EStepResult:
    """State after an E-step: q(pi) per row, phi, per-row ELBO and inner iterations."""

    q: tuple[np.ndarray, ...]
    phi: np.ndarray
    elbo: np.ndarray
    n_iter: int


def _take(q, idx):
    return tuple(a[idx] for a in q)


def e_step(
    prior: Prior,
    loglik: np.ndarray,
    mask: np.ndarray,
    q: tuple[np.ndarray, ...] | None = None,
    *,
    max_iter: int = 100,
    tol: float = 1e-6,
) -> EStepResult:
    """Coordinate ascent on each row's ELBO, all rows at once.

    One sweep sets ``phi_ijk ∝ exp(E_q[ln pi_ik]) p(x_ij | theta_kj)`` for the observed
    entries, then q(pi_i) from the counts ``n_ik = sum_j phi_ijk``. Each sweep maximises the
    ELBO exactly over one block, so a row's ELBO never decreases; a row stops (and is frozen,
    so its result does not depend on the other rows) once a sweep raises its ELBO by at most
    ``tol``, or after ``max_iter`` sweeps.

    The ELBO of row i after a sweep is evaluated in closed form from the sweep's quantities:
    with ``s_ij = sum_k exp(E_old ln pi_ik) p(x_ij | k)``,
    ``sum_jk phi (E_new ln pi + ln p - ln phi) - KL = sum_j ln s_ij
    + sum_k n_ik (E_new ln pi_ik - E_old ln pi_ik) - KL(q_new || prior)``.

    Parameters
    ----------
    prior : Prior
    loglik : ndarray of shape (n, d, K)
        ``ln p(x_ij | theta_kj)``; ignored where ``mask`` is False.
    mask : ndarray of shape (n, d), bool
        Observed entries.
    q : tuple of arrays, optional
        Warm start; default: the prior updated with the row's features spread evenly.
    max_iter, tol : int, float

    Returns
    -------
    EStepResult
    """
    n, d, K = loglik.shape
    m = mask.astype(float)
    peak = loglik.max(axis=2)
    scaled = np.exp(loglik - peak[:, :, None])  # in (0, 1], max 1 over k
    base = (m * peak).sum(axis=1)  # sum_j ln max_k p(x_ij | k) over observed j
    q = prior.initial(m.sum(axis=1)) if q is None else tuple(a.copy() for a in q)
    elog = prior.expected_log_weights(q)
    elog_used = elog.copy()  # E_old ln pi of the sweep that produced the stored phi
    elbo = np.full(n, -np.inf)

    rows = np.arange(n)  # rows in the working arrays
    active = np.ones(n, dtype=bool)  # per working row: not yet converged
    w_scaled, w_m, w_base = scaled, m, base
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007
        el = elog[rows]
        top = el.max(axis=1, keepdims=True)
        w = np.exp(el - top)
        s = np.einsum("ijk,ik->ij", w_scaled, w)
        s = np.where(w_m > 0, s, 1.0)
        counts = w * np.einsum("ijk,ij->ik", w_scaled, w_m / s)
        q_new = prior.posterior(counts)
        el_new = prior.expected_log_weights(q_new)
        value = (
            (w_m * np.log(s)).sum(axis=1)
            + w_base
            + w_m.sum(axis=1) * top[:, 0]
            + (counts * (el_new - el)).sum(axis=1)
            - prior.kl(q_new)
        )
        upd = rows[active]
        for arr, new in zip(q, q_new, strict=True):
            arr[upd] = new[active]
        elog_used[upd] = el[active]
        elog[upd] = el_new[active]
        change = value[active] - elbo[upd]
        elbo[upd] = value[active]
        active[active] = ~(change <= tol)
        if not active.any():
            break
        if active.sum() < 0.7 * rows.size:  # compact the working set
            rows, w_scaled, w_m, w_base = (
                rows[active], w_scaled[active], w_m[active], w_base[active]
            )
            active = np.ones(rows.size, dtype=bool)

    top = elog_used.max(axis=1, keepdims=True)
    w = np.exp(elog_used - top)
    phi = scaled * w[:, None, :]
    phi /= phi.sum(axis=2, keepdims=True)
    phi *= m[:, :, None]
    return EStepResult(q=q, phi=phi, elbo=elbo, n_iter=n_iter)
