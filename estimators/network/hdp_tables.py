"""Conditional probability tables of a network's categorical factors smoothed by the
hierarchical Dirichlet process of :mod:`estimators.stats.hdp` (``parameters="hdp"``).

A factor's table ``p(x_v | u, y)`` (``u`` the configuration of its categorical parents,
the counts of shape ``(U + 1, m, K)`` of :func:`estimators.network.fitting.log_cpt_table`)
is the tree whose root is ``p(x_v)``, whose first level conditions on the class, and each
further level on one more categorical parent, in the order the family gives
(:attr:`HDPSmoothing.orders`; by default the factor's, column order). A parent
configuration seen in training with no row of some class takes the estimate of its deepest
ancestor with rows, as the reference does; the slot of configurations unseen in training
(row ``U``) takes the class level's ``p(x_v | y)``. The counts are those of the rows where
the family is observed, as for the Laplace tables; continuous parents keep their Gaussian
part and its pseudo-count table (Bayes' rule), as with ``parameters="generative"``.

Examples
--------
>>> import numpy as np
>>> counts = np.array([[[8, 2], [1, 3]], [[0, 1], [4, 0]], [[0, 0], [0, 0]]], float)
>>> table = HDPSmoothing(iterations=300).log_cpt(counts, np.array([0, 1]), np.array([2]), v=0)
>>> table.shape, bool(np.allclose(np.exp(table).sum(axis=-1), 1.0))
((3, 2, 2), True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from estimators.base.parameters import Flag, Parameter
from estimators.stats.hdp import DEFAULT_ITERATIONS, TYINGS, fit_hdp

__all__ = ["HDP_BURN_IN", "HDP_ITERATIONS", "HDP_PARAMETERS", "HDP_TYING", "HDPSmoothing",
           "hdp_smoothing"]

HDP_ITERATIONS = Parameter(
    "hdp_iterations", DEFAULT_ITERATIONS, [Interval(Integral, 1, None, closed="left")], "int",
    'Gibbs sweeps of the hierarchical Dirichlet process tables of ``parameters="hdp"`` '
    "(:mod:`estimators.stats.hdp`; 5000 is the reference implementation's default, its "
    "ensembles use 1000).",
    Flag("Gibbs sweeps of parameters=hdp", type=int))
HDP_BURN_IN = Parameter(
    "hdp_burn_in", None, [None, Interval(Integral, 0, None, closed="left")], "int or None",
    'Sweeps of ``parameters="hdp"`` not averaged; None: ``min(1000, hdp_iterations // 10)`` '
    "(the reference's).",
    Flag("burn-in sweeps of parameters=hdp", type=int))
HDP_TYING = Parameter(
    "hdp_tying", "level", [StrOptions(set(TYINGS))], '{"level", "single", "none", "same_parent"}',
    'Which nodes of a ``parameters="hdp"`` tree share a concentration: one per level (the '
    "reference's default), one for all, one per node, one per set of siblings.",
    Flag("concentration tying of parameters=hdp"))
#: the three, in the order the families list them
HDP_PARAMETERS = (HDP_ITERATIONS, HDP_BURN_IN, HDP_TYING)


@dataclass(frozen=True, eq=False)
class HDPSmoothing:
    """The HDP estimate of a factor's table, where a pseudo-count ``alpha`` would be
    (module docstring).

    Attributes
    ----------
    iterations, burn_in, tying :
        As in :func:`estimators.stats.hdp.fit_hdp`.
    seed : int
        With the factor's vertex and categorical parents, seeds each table's sampler.
    alpha : float
        The pseudo-count of the tables the HDP leaves (a categorical feature with
        continuous parents keeps its Bayes'-rule factor with this ``alpha``).
    orders : dict
        ``{v: parents}``: the order of v's categorical parents down the tree (those not
        listed follow in the factor's order).
    """

    iterations: int = DEFAULT_ITERATIONS
    burn_in: int | None = None
    tying: str = "level"
    seed: int = 0
    orders: dict = field(default_factory=dict)
    alpha: float = 1.0

    def log_cpt(self, counts: np.ndarray, configs: np.ndarray, radix: np.ndarray, v: int,
                parents: tuple = ()) -> np.ndarray:
        """The log table, shape ``counts.shape`` = (U + 1, m, K): ``configs`` the mixed-radix
        codes of the U seen configurations of the categorical ``parents`` (``radix`` their
        numbers of levels; the first the most significant)."""
        U1, m, K = counts.shape
        radix = np.asarray(radix, dtype=np.int64).reshape(-1)
        parents = tuple(parents) or tuple(range(radix.size))
        wanted = [p for p in self.orders.get(v, ()) if p in parents]
        perm = [parents.index(p) for p in wanted] + [
            i for i, p in enumerate(parents) if p not in wanted]
        digits = (np.stack(np.unravel_index(np.asarray(configs[:U1 - 1], np.int64),
                                            tuple(radix)), axis=1)[:, perm]
                  if radix.size else np.zeros((U1 - 1, 0), np.int64))
        U = U1 - 1
        paths = np.column_stack([np.tile(np.arange(m), U), np.repeat(digits, m, axis=0)])
        tree_radix = np.r_[m, radix[perm]].astype(np.int64)
        cells = np.rint(counts[:U].reshape(U * m, K)).astype(np.int64)
        key = [self.seed, int(v), *sorted(int(p) for p in parents if radix.size)]
        rs = np.random.RandomState(np.random.SeedSequence(key).generate_state(1))
        tree = fit_hdp(paths, cells, tree_radix, iterations=self.iterations,
                       burn_in=self.burn_in, tying=self.tying, random_state=rs)
        p = np.empty((U1, m, K))
        p[:U] = tree.query(paths).reshape(U, m, K)
        unseen = np.column_stack([np.arange(m), np.zeros((m, radix.size), np.int64)])
        p[U] = tree.query(unseen, depth=1)
        return np.log(p)


def hdp_smoothing(estimator, orders: dict | None = None) -> HDPSmoothing:
    """The :class:`HDPSmoothing` of an estimator's ``hdp_*`` parameters (the defaults of
    those it does not have) and ``random_state`` (None or none: seed 0, so that a fit is
    reproducible by default)."""
    state = getattr(estimator, "random_state", None)
    seed = (0 if state is None else int(state) if isinstance(state, Integral)
            else int(check_random_state(state).randint(2**31)))
    return HDPSmoothing(iterations=getattr(estimator, "hdp_iterations", DEFAULT_ITERATIONS),
                        burn_in=getattr(estimator, "hdp_burn_in", None),
                        tying=getattr(estimator, "hdp_tying", "level"), seed=seed,
                        orders=dict(orders or {}), alpha=float(estimator.alpha))
