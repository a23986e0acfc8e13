"""BAN's hill-climbing against the brute-force optimum over all DAGs on the registry's
scores, with the instances of benchmarks/ban_optimality.py (which records the miss rates)."""

import importlib.util
from itertools import product
from pathlib import Path

import pytest

from estimators.search import brute_force_dag, hill_climb_dag

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "ban_optimality.py"
_spec = importlib.util.spec_from_file_location("ban_optimality", _PATH)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.parametrize("name, kind, dims", [
    ("bic", "discrete", (3, 4)), ("bdeu", "discrete", (3, 4)), ("bic", "gaussian", (3, 4)),
    # the mixed score's brute force at d = 4 is the slowest check of the suite (~30 s idle):
    # the default run checks d = 3, the `slow` step (.ci/run) the full set as for the others
    ("bic", "mixed", (3,)), pytest.param("bic", "mixed", (3, 4), marks=pytest.mark.slow)])
def test_reaches_the_brute_force_optimum_on_registry_scores(name, kind, dims, capsys):
    """d <= 4, in-degree 2: every hit equals brute force; the misses are counted and
    printed (and guarded below 10 %), never hidden (benchmarks/ban_optimality.py)."""
    hits, misses = 0, []
    for seed, d in product(range(6), dims):
        f, variables = bench.instance(name, kind, seed, d)
        res, best = hill_climb_dag(f, 2, variables=variables), brute_force_dag(f, 2)
        assert res.score <= best.score + 1e-9
        if res.score >= best.score - 1e-9:
            hits += 1
            assert res.score == pytest.approx(best.score, rel=1e-12, abs=1e-9)
        else:
            misses.append((seed, d, best.score - res.score))
    with capsys.disabled():
        print(f"\nhill-climbing {name}/{kind}: optimum on {hits} of {hits + len(misses)} "
              f"instances; misses (seed, d, gap): {misses}")
    assert len(misses) <= 0.1 * (hits + len(misses))
