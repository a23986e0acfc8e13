"""A discrete log-linear classifier as the Bayesian network with the same posterior
(MATH.md §10.1; Roos, Wettig, Grünwald, Myllymäki & Tirri, Machine Learning 59, 2005).

A discrete network classifier fitted with ``parameters="discriminative"`` scores a complete
row by ``s_y(x) = a_y + Σ_v θ_v(x_v, x_pa(v), y)``: a log-linear model over the structure's
family cells whose tables ``θ_v`` are not normalised. :func:`equivalent_network` turns the
tables into CPTs without changing ``p(y | x) ∝ exp s_y(x)``: from the last feature in
topological order to the first, ``ln Z_v = logsumexp_{x_v} θ_v`` (a function of v's
parents and the class) is subtracted from ``θ_v`` (which becomes ``ln p(x_v | pa, y)``) and
added to the table of v's latest parent ``p`` -- which must hold v's other parents: when
one is missing the edge ``q -> p`` is added (``q`` is earlier than ``p``, so no cycle
arises) -- or, for v with no feature parent, to the class term ``a``. The class prior is
``softmax(a)``. Every step leaves ``s_y(x)`` unchanged, so the network's
``p(y, x) = softmax(a)_y Π_v p(x_v | pa, y)`` is ``exp s_y(x) / Σ_y exp a_y`` and its
posterior is the classifier's.

Tables are dense NumPy arrays laid out ``(m, r_p1, ..., r_pk, r_v)`` (class, the
parents in the listed order, the vertex).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from kgraph import ParentSetDAG

__all__ = ["NetworkTables", "equivalent_network"]


@dataclass
class NetworkTables:
    """A discrete Bayesian network classifier as dense log-tables.

    Attributes
    ----------
    class_term : ndarray of shape (m,)
        ``a_y``: the log class prior up to a constant (exactly ``ln p(y)`` once
        normalised).
    parents : dict
        Feature -> its feature parents (the class is a parent of every feature).
    tables : dict
        Feature -> log-table ``(m, r_p1, ..., r_pk, r_v)`` over ``parents[v]`` in order.
    closing_edges : list of tuple
        The edges :func:`equivalent_network` added (``(q, p)``: q -> p).
    """

    class_term: np.ndarray
    parents: dict
    tables: dict
    closing_edges: list = field(default_factory=list)

    def log_joint(self, codes: dict) -> np.ndarray:
        """``s_y(x)`` of complete rows given as ``{feature: int codes (n,)}``: (n, m)."""
        n = len(next(iter(codes.values()))) if codes else 1
        out = np.tile(np.asarray(self.class_term, float), (n, 1))
        for v, table in self.tables.items():
            idx = tuple(codes[p] for p in (*self.parents[v], v))
            out += np.moveaxis(table[(slice(None), *idx)], 0, -1)
        return out

    def class_prior(self) -> np.ndarray:
        """``softmax(a)``: the network's class prior."""
        return np.exp(self.class_term - logsumexp(self.class_term))


def _expand(table: np.ndarray, axes: list, new: list) -> tuple[np.ndarray, list]:
    """``table`` over ``[class, *axes, v]`` broadcast to ``[class, *axes, *new, v]``
    (``new``: (name, size) pairs); returns the table and its parent axes."""
    shape = table.shape
    out = table.reshape(shape[:-1] + (1,) * len(new) + shape[-1:])
    out = np.broadcast_to(out, shape[:-1] + tuple(s for _, s in new) + shape[-1:]).copy()
    return out, [*axes, *(name for name, _ in new)]


def equivalent_network(class_term, parents: dict, tables: dict, order=None) -> NetworkTables:
    """Normalise a log-linear classifier into a Bayesian network with the same posterior.

    Parameters
    ----------
    class_term : array-like of shape (m,)
        ``a_y``.
    parents : dict
        Feature -> feature parents (a DAG).
    tables : dict
        Feature -> ``θ_v`` as an array ``(m, r_p1, ..., r_pk, r_v)`` over ``parents[v]``.
    order : list, optional
        A topological order to normalise in (default: ``kgraph.ParentSetDAG(parents).order``); the
        closing edges depend on it (none for the parent sets of an acyclic k-tree, in any
        topological order).

    Returns
    -------
    NetworkTables
        Normalised log-CPTs (``logsumexp`` over the last axis is 0), the class prior term
        and the edges added to close parent sets.

    Examples
    --------
    A kDB-like structure whose last feature has two non-adjacent parents gets one edge:

    >>> rng = np.random.default_rng(0)
    >>> pa = {"a": [], "b": [], "c": ["a", "b"]}
    >>> theta = {"a": rng.normal(size=(2, 3)), "b": rng.normal(size=(2, 2)),
    ...          "c": rng.normal(size=(2, 3, 2, 2))}
    >>> net = equivalent_network(np.zeros(2), pa, theta)
    >>> net.closing_edges, net.parents["b"]
    ([('a', 'b')], ['a'])
    >>> x = {"a": np.array([0, 2]), "b": np.array([1, 0]), "c": np.array([1, 1])}
    >>> before = NetworkTables(np.zeros(2), pa, theta).log_joint(x)
    >>> after = net.log_joint(x)
    >>> bool(np.allclose(after - after[:, :1], before - before[:, :1]))
    True
    """
    parents = {v: list(p) for v, p in parents.items()}
    tables = {v: np.array(t, dtype=float) for v, t in tables.items()}
    a = np.array(class_term, dtype=float)
    order = list(ParentSetDAG(parents).order if order is None else order)
    pos = {v: i for i, v in enumerate(order)}
    sizes = {v: t.shape[-1] for v, t in tables.items()}
    added = []
    for v in reversed(order):
        log_z = logsumexp(tables[v], axis=-1)  # (m, *parents[v])
        tables[v] = tables[v] - log_z[..., None]
        if not parents[v]:
            a = a + log_z
            continue
        p = max(parents[v], key=pos.__getitem__)
        missing = [q for q in parents[v] if q != p and q not in parents[p]]
        if missing:
            added += [(q, p) for q in missing]
            tables[p], parents[p] = _expand(tables[p], parents[p],
                                            [(q, sizes[q]) for q in missing])
        # log_z over [class, *parents[v]] onto p's table over [class, *parents[p], p]:
        # its axes sorted by where they go, then 1 on the axes it does not have
        axes = [*parents[p], p]
        dest = np.array([axes.index(q) + 1 for q in parents[v]])
        shape = [log_z.shape[0]] + [1] * len(axes)
        for at in dest:
            shape[at] = tables[p].shape[at]
        sorted_z = np.transpose(log_z, [0, *(1 + np.argsort(dest))])
        tables[p] = tables[p] + sorted_z.reshape(shape)
    return NetworkTables(a, parents, tables, added)
