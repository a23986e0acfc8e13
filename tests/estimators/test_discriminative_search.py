"""The inner-CV search of the discriminative penalty (``estimators.discriminative._select``):
the descent on the λ grid against brute force (the grid's minimum) on unimodal held-out
losses."""

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from estimators.discriminative import L2_GRID, _select


@settings(max_examples=60, deadline=None)
@given(best=st.integers(0, len(L2_GRID) - 1), start=st.integers(0, len(L2_GRID) - 1),
       slopes=st.tuples(st.floats(0.01, 5.0), st.floats(0.01, 5.0)))
def test_descent_finds_the_grid_minimum_of_a_unimodal_loss(best, start, slopes):
    """On a loss strictly decreasing to grid index ``best`` and strictly increasing after
    it, the descent from any start returns the brute-force minimum, visiting at most
    ``|start - best| + 3`` grid points, each warm-started from its visited neighbour."""
    visited = []

    def step(states, lam, max_iter):
        i = L2_GRID.index(lam)
        # the start each fit received: the solution of the neighbour it was reached from
        assert states[0][4] is None or abs(states[0][4] - i) == 1
        states[0][4:6] = [i, None]
        visited.append(i)
        return (best - i) * slopes[0] if i < best else (i - best) * slopes[1]

    with mock.patch.object(_select, "_step", step):
        losses, solutions = _select._descend([[None] * 7], L2_GRID, start, 100)
    brute = {i: (best - i) * slopes[0] if i < best else (i - best) * slopes[1]
             for i in range(len(L2_GRID))}
    assert min(losses, key=losses.get) == min(brute, key=brute.get) == best
    assert len(visited) == len(set(visited)) <= abs(start - best) + 3
    assert all(losses[i] == brute[i] for i in losses)
    assert all(solutions[i][0][0] == i for i in solutions)
