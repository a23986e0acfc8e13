"""Greedy hill-climbing with a tabu list over DAGs of bounded in-degree (MATH.md §9, BAN).

The objective is decomposable, ``F(G) = sum_v f(v, Pa_G(v))``, with ``f`` any hyperedge
score of :mod:`estimators.scores` (the class is a parent of every feature in the model and
implicit in ``f``). A move adds, removes or reverses one arc, keeping the graph acyclic and
every in-degree ``<= max_parents``; its gain is a difference of family scores:

* add ``u -> v``: ``f(v, Pa(v) + u) - f(v, Pa(v))``
* remove ``u -> v``: ``f(v, Pa(v) - u) - f(v, Pa(v))``
* reverse ``u -> v``: the removal's gain plus ``f(u, Pa(u) + v) - f(u, Pa(u))``

The search keeps the matrix ``T[u, v] = f(v, Pa(v) xor {u}) - f(v, Pa(v))`` (the gain of
toggling the arc ``u -> v``); a move changes the parents of one or two vertices, so only
their columns are rescored (each family is scored once: a cache keyed by ``(v, parents)``).
Legality is read from the transitive closure: adding ``u -> v`` closes a cycle iff ``v``
reaches ``u``; reversing it does iff another child of ``u`` reaches ``v``.

Each step takes the best legal move (ties: additions before removals before reversals, then
variable order; gains within :func:`estimators.base.tie_tolerance.tolerance` of the family scores'
magnitude tie, so that a score-equivalent reversal, whose gain is 0 in exact arithmetic,
is ranked the same on every CPU) that does not return to one of the last ``tabu_length`` DAGs visited (the
tabu list; such a DAG scores no more than the best so far). When no move improves, up to
``patience`` non-improving moves are taken in a row to leave the local optimum; the best DAG
seen is returned, so the result never scores below the start and is a local optimum (no
single legal move improves it). Optional random restarts perturb the best DAG by random
legal moves and climb again.

There is no optimality guarantee (learning a DAG of in-degree >= 2 is NP-hard); on small
cases :func:`brute_force_dag` gives the optimum to compare with.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, count, product

import numpy as np
from sklearn.utils import check_random_state

from estimators.base.progress import progress
from estimators.base.tie_tolerance import tied_ranking
from estimators.search._common import Score, resolve_variables, score_values

__all__ = ["BruteForceDAGResult", "HillClimbingResult", "brute_force_dag", "hill_climb_dag"]

ADD, REMOVE, REVERSE = 0, 1, 2
_MOVE_NAMES = ("add", "remove", "reverse")
#: the most vertices :func:`brute_force_dag` enumerates
MAX_BRUTE_FORCE = 5


@dataclass(frozen=True)
class HillClimbingResult:
    """The DAG found by :func:`hill_climb_dag`.

    Attributes
    ----------
    parents : dict
        Variable -> tuple of its parents (in variable order), every variable a key.
    score : float
        Its objective ``sum_v f(v, parents[v])``.
    start_score : float
        The objective of the start DAG.
    trace : tuple of float
        The best objective after each move (non-decreasing), starting with ``start_score``.
    moves : tuple
        The moves applied, ``(kind, u, v)`` with kind ``"add" | "remove" | "reverse"``.
    n_scored : int
        Distinct families ``(v, parents)`` scored.

    Examples
    --------
    >>> from estimators.search import hill_climb_dag
    >>> f = lambda v, ps: sum(1.0 if p == v - 1 else -0.5 for p in ps)
    >>> res = hill_climb_dag(f, 2, variables=[0, 1, 2, 3])
    >>> type(res).__name__, res.start_score, res.trace[:4], res.score, res.parents
    ('HillClimbingResult', 0.0, (0.0, 1.0, 2.0, 3.0), 3.0, {0: (), 1: (0,), 2: (1,), 3: (2,)})
    """

    parents: dict
    score: float
    start_score: float
    trace: tuple
    moves: tuple
    n_scored: int


@dataclass(frozen=True)
class BruteForceDAGResult:
    """The optimum of :func:`brute_force_dag`: ``parents``, ``score`` and how many DAGs
    (``n_structures``) of in-degree ``<= max_parents`` were scored.

    Examples
    --------
    >>> from estimators.search import brute_force_dag
    >>> res = brute_force_dag(lambda v, ps: float(len(ps)), 3, variables="abc")
    >>> type(res).__name__, res.n_structures, res.score
    ('BruteForceDAGResult', 25, 3.0)
    """

    parents: dict
    score: float
    n_structures: int


def _closure(A: np.ndarray) -> np.ndarray:
    """``R[u, v]``: a directed path of length >= 1 from u to v (boolean)."""
    R = A.copy()
    while True:
        grown = R | ((R.astype(np.int64) @ R.astype(np.int64)) > 0)
        if np.array_equal(grown, R):
            return R
        R = grown


class _Climber:
    """The state of one search: arcs, family scores, toggle gains, closure, cache."""

    def __init__(self, f: Score, variables: list, max_parents: int, cache: dict) -> None:
        self.f, self.variables, self.q, self.cache = f, variables, max_parents, cache
        self.d = len(variables)

    def family(self, items: list[tuple[int, frozenset]]) -> np.ndarray:
        """``f(v, P)`` of index items, each family scored once (shared cache)."""
        todo = list(dict.fromkeys(it for it in items if it not in self.cache))
        if todo:
            names = self.variables
            values = score_values(self.f, [(names[v], frozenset(names[p] for p in ps))
                                           for v, ps in todo])
            if np.any(values == np.inf):
                v, ps = todo[int(np.flatnonzero(values == np.inf)[0])]
                raise ValueError(f"The score returned +inf for v={names[v]!r} with parents "
                                 f"{sorted((names[p] for p in ps), key=repr)!r}; scores must "
                                 "be finite or -inf.")
            self.cache.update(zip(todo, values.tolist(), strict=True))
        return np.array([self.cache[it] for it in items], dtype=float)

    def reset(self, A: np.ndarray) -> None:
        self.A = A.copy()
        self.fam = self.family([(v, self.pa(v)) for v in range(self.d)])
        self.T = np.full((self.d, self.d), np.nan)
        self.rescore(list(range(self.d)))

    def pa(self, v: int) -> frozenset:
        return frozenset(np.flatnonzero(self.A[:, v]).tolist())

    @property
    def total(self) -> float:
        return float(self.fam.sum())

    def rescore(self, columns: list[int]) -> None:
        """Refresh ``fam`` and the toggle gains ``T[:, v]`` of the changed families."""
        items, where = [], []
        for v in columns:
            pa = self.pa(v)
            full = len(pa) >= self.q
            for u in range(self.d):
                if u != v and (u in pa or not full):
                    items.append((v, pa ^ {u}))
                    where.append((u, v))
        self.fam[columns] = self.family([(v, self.pa(v)) for v in columns])
        self.T[:, columns] = np.nan
        if items:
            uu, vv = np.array(where).T
            with np.errstate(invalid="ignore"):
                self.T[uu, vv] = self.family(items) - self.fam[vv]
        self.R = _closure(self.A)

    def gains(self) -> np.ndarray:
        """``G[kind, u, v]``: the gain of each legal move, -inf where illegal."""
        A, R, T = self.A, self.R, self.T
        off = ~np.eye(self.d, dtype=bool)
        room = A.sum(axis=0) < self.q
        G = np.full((3, self.d, self.d), -np.inf)
        add = off & ~A & ~A.T & room[None, :] & ~R.T
        G[ADD][add] = T[add]
        G[REMOVE][A] = T[A]
        other_path = (A.astype(np.int64) @ R.astype(np.int64)) > 0
        rev = A & room[:, None] & ~other_path
        G[REVERSE][rev] = T[rev] + T.T[rev]
        G[~np.isfinite(G)] = -np.inf  # nan (-inf - -inf) and -inf gains are not moves
        return G

    def apply(self, kind: int, u: int, v: int) -> None:
        if kind == ADD:
            self.A[u, v] = True
        elif kind == REMOVE:
            self.A[u, v] = False
        else:
            self.A[u, v], self.A[v, u] = False, True
        self.rescore([v] if kind != REVERSE else [u, v])


def _climb(state: _Climber, *, tabu_length: int, patience: int, max_iter: int, tol: float,
           trace: list, moves: list) -> tuple[np.ndarray, float]:
    """One tabu hill-climb from ``state``; the best DAG seen and its score."""
    best_A, best = state.A.copy(), state.total
    tabu: deque = deque([state.A.tobytes()], maxlen=tabu_length + 1)
    stall = 0
    steps = progress(count(), "hill-climbing moves") if max_iter else ()
    for step in steps:
        if step >= max_iter:
            break
        move = _best_move(state, tabu)
        if move is None:
            break
        gain, kind, u, v = move
        if gain <= tol and stall >= patience:
            break
        state.apply(kind, u, v)
        tabu.append(state.A.tobytes())
        moves.append((_MOVE_NAMES[kind], state.variables[u], state.variables[v]))
        if state.total > best + tol:
            best_A, best, stall = state.A.copy(), state.total, 0
        else:
            stall += 1
        trace.append(best)
    return best_A, best


def _best_move(state: _Climber, tabu: deque) -> tuple[float, int, int, int] | None:
    """The legal move of largest gain whose DAG is not among the recent ones (the tabu
    list; a DAG seen before scores no more than the best so far, so no aspiration)."""
    G = state.gains().ravel()
    finite = np.flatnonzero(np.isfinite(G))
    # a gain is a difference of family scores: the tolerance is relative to their size
    scale = np.abs(np.concatenate([state.fam, G[finite]])).max(where=np.isfinite(
        np.concatenate([state.fam, G[finite]])), initial=0.0)
    for flat in finite[tied_ranking(G[finite], scale=scale)]:
        kind, u, v = (int(i) for i in np.unravel_index(flat, (3, state.d, state.d)))
        A = state.A.copy()
        A[u, v] = kind == ADD
        if kind == REVERSE:
            A[v, u] = True
        if A.tobytes() not in tabu:
            return float(G[flat]), kind, u, v
    return None


def _start_matrix(start: Mapping | None, variables: list, q: int) -> np.ndarray:
    d = len(variables)
    A = np.zeros((d, d), dtype=bool)
    if start is None:
        return A
    index = {v: i for i, v in enumerate(variables)}
    for child, parents in start.items():
        if child not in index or any(p not in index for p in parents):
            raise ValueError(f"The start DAG names variables outside {variables!r}: "
                             f"{child!r} <- {list(parents)!r}.")
        if len(set(parents)) > q:
            raise ValueError(f"The start DAG gives {child!r} {len(set(parents))} parents; "
                             f"max_parents={q}.")
        for p in parents:
            if p == child:
                raise ValueError(f"The start DAG has a self-loop on {child!r}.")
            A[index[p], index[child]] = True
    if _closure(A).diagonal().any():
        raise ValueError("The start DAG has a directed cycle.")
    return A


def _parents(A: np.ndarray, variables: list) -> dict:
    return {v: tuple(variables[p] for p in np.flatnonzero(A[:, j])) for j, v in
            enumerate(variables)}


def hill_climb_dag(f: Score, max_parents: int = 2, *,
                   variables: Sequence[Hashable] | None = None, tabu_length: int = 10,
                   patience: int = 10, max_iter: int = 10_000, restarts: int = 0,
                   perturbation: int | None = None, random_state=None,
                   start: Mapping | None = None, tol: float = 1e-10) -> HillClimbingResult:
    """A DAG of in-degree ``<= max_parents`` maximising ``sum_v f(v, Pa(v))`` (heuristic).

    Greedy hill-climbing with a tabu list over arc additions, removals and reversals
    (see the module docstring).

    Parameters
    ----------
    f : callable
        Hyperedge score ``f(v, parents: frozenset) -> float`` (finite or -inf; -inf
        families are never entered); ``f.score_many`` is used when present.
    max_parents : int, default=2
        The largest in-degree among the variables (>= 0).
    variables : sequence, optional
        The vertices (default: ``f.variables_``).
    tabu_length : int, default=10
        How many recently visited DAGs the search may not return to (0: only the current
        one, i.e. no tabu list).
    patience : int, default=10
        Non-improving moves taken in a row to leave a local optimum (0: plain greedy
        hill-climbing, stop at the first local optimum).
    max_iter : int, default=10000
        The most moves per climb.
    restarts : int, default=0
        Random restarts: perturb the best DAG by ``perturbation`` random legal moves and
        climb again; the best DAG over all climbs is returned.
    perturbation : int, optional
        Random moves per restart (default: the number of variables).
    random_state : int, RandomState or None
        Seeds the restarts' perturbations (nothing else is random: ties are broken by
        move kind, then variable order).
    start : mapping, optional
        A start DAG ``{child: parents}`` (default: no arcs).
    tol : float, default=1e-10
        A gain counts as an improvement only above ``tol``.

    Returns
    -------
    HillClimbingResult

    Raises
    ------
    ValueError
        For ``max_parents < 0``, a start DAG that is cyclic, names unknown variables or
        exceeds the in-degree, a start DAG of score -inf, or a score returning NaN or +inf.

    Examples
    --------
    >>> f = lambda v, ps: sum(1.0 if p == v - 1 else -0.5 for p in ps)
    >>> res = hill_climb_dag(f, 2, variables=[0, 1, 2, 3])
    >>> res.parents, res.score
    ({0: (), 1: (0,), 2: (1,), 3: (2,)}, 3.0)
    """
    if isinstance(max_parents, bool) or not isinstance(max_parents, int | np.integer) \
            or max_parents < 0:
        raise ValueError(f"max_parents must be an int >= 0; got {max_parents!r}.")
    for name, value in (("tabu_length", tabu_length), ("patience", patience),
                        ("max_iter", max_iter), ("restarts", restarts)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
            raise ValueError(f"{name} must be an int >= 0; got {value!r}.")
    variables = resolve_variables(f, variables)
    q = min(int(max_parents), max(len(variables) - 1, 0))
    state = _Climber(f, variables, q, {})
    state.reset(_start_matrix(start, variables, q))
    start_score = state.total
    if not np.isfinite(start_score):
        raise ValueError("The start DAG scores -inf (an ineligible family); start from "
                         "another DAG.")
    trace, moves = [start_score], []
    options = dict(tabu_length=int(tabu_length), patience=int(patience),
                   max_iter=int(max_iter), tol=tol, trace=trace, moves=moves)
    best_A, best = _climb(state, **options)
    rng = check_random_state(random_state)
    n_random = len(variables) if perturbation is None else int(perturbation)
    for _ in range(restarts):
        state.reset(best_A)
        for _ in range(n_random):
            legal = np.argwhere(np.isfinite(state.gains()))
            if not len(legal):
                break
            state.apply(*(int(i) for i in legal[rng.randint(len(legal))]))
        found_A, found = _climb(state, **options)
        if found > best + tol:
            best_A, best = found_A, found
        trace.append(max(best, trace[-1]))
    return HillClimbingResult(_parents(best_A, variables), float(best), float(start_score),
                              tuple(trace), tuple(moves), len(state.cache))


def brute_force_dag(f: Score, max_parents: int, *,
                    variables: Sequence[Hashable] | None = None) -> BruteForceDAGResult:
    """The optimum of ``sum_v f(v, Pa(v))`` over ALL DAGs of in-degree ``<= max_parents``
    (the test oracle of :func:`hill_climb_dag`; at most :data:`MAX_BRUTE_FORCE` variables).

    Every choice of one parent set per vertex is formed and the cyclic ones (a nonzero
    trace of some power of the adjacency matrix) are dropped; ties: the first in
    enumeration order.

    Examples
    --------
    >>> res = brute_force_dag(lambda v, ps: float(len(ps)), 3, variables="abc")
    >>> res.n_structures, res.score  # 25 labelled DAGs on 3 vertices, the best complete
    (25, 3.0)
    """
    variables = resolve_variables(f, variables)
    d = len(variables)
    if d > MAX_BRUTE_FORCE:
        raise ValueError(f"brute_force_dag enumerates at most {MAX_BRUTE_FORCE} variables; "
                         f"got {d}.")
    q = min(int(max_parents), d - 1)
    options = [[ps for j in range(q + 1) for ps in combinations([u for u in range(d) if u != v],
                                                                 j)] for v in range(d)]
    names = variables
    values = [score_values(f, [(names[v], frozenset(names[p] for p in ps)) for ps in opts])
              for v, opts in enumerate(options)]
    choice = np.array(list(product(*(range(len(o)) for o in options))), dtype=np.int64)
    A = np.zeros((len(choice), d, d), dtype=np.int64)
    for v, opts in enumerate(options):
        for j, ps in enumerate(opts):
            rows = choice[:, v] == j
            for p in ps:
                A[rows, p, v] = 1
    power, cyclic = A.copy(), np.zeros(len(A), dtype=bool)
    for _ in range(d):
        cyclic |= np.trace(power, axis1=1, axis2=2) > 0
        power = np.minimum(power @ A, 1)
    choice = choice[~cyclic]
    total = sum(values[v][choice[:, v]] for v in range(d))
    best = int(np.argmax(total))
    parents = {names[v]: tuple(names[p] for p in options[v][choice[best, v]]) for v in range(d)}
    return BruteForceDAGResult(parents, float(total[best]), len(choice))
