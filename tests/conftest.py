"""Shared fixtures: the graph backend every GraphDB contract test runs on."""

import matplotlib

matplotlib.use("Agg")

BACKENDS = ("networkx", "igraph", "sqlite")


def pytest_addoption(parser):
    parser.addoption(
        "--graph-backend",
        action="store",
        default="all",
        choices=("all", *BACKENDS),
        help="Run the graph-backend tests on one backend only (default: all).",
    )


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        chosen = metafunc.config.getoption("--graph-backend")
        metafunc.parametrize("backend", BACKENDS if chosen == "all" else (chosen,))


# --dist loadscope sends a module's (or class's) tests to one worker, largest scopes (by number
# of tests) first, so a module of a few long tests is sent last and runs alone at the end of
# the run (issue 49: the README test command's wall time). The scopes below are sent first,
# in this order (the longest first); the tutorials share no fixture, so each is its own scope.
HEAVY_SCOPES = (
    "tests/estimators/ktan/test_missing.py",
    "tests/estimators/scores/test_cg_cell_statistics.py",
    "tests/test_tutorials.py::test_tutorial_runs",
    "tests/benchmarks/test_table_numbers.py",
    "tests/estimators/ktan/test_model_selection.py",
    "tests/estimators/test_exact_export.py",
    "tests/estimators/scores/test_conditional_gaussian_properties.py",
    "tests/viz/test_compare.py",
    "tests/viz/test_cli.py",
)
PER_TEST_SCOPES = ("tests/test_tutorials.py::test_tutorial_runs",)


def _rank(scope: str) -> int:
    """The position of ``scope`` among :data:`HEAVY_SCOPES` (after them: ``len``)."""
    return next((i for i, p in enumerate(HEAVY_SCOPES) if scope.startswith(p)),
                len(HEAVY_SCOPES))


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class HeavyFirstScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith(PER_TEST_SCOPES):
                return nodeid
            return super()._split_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            # stable: the heavy scopes first, the others in xdist's order
            for scope in sorted(self.workqueue, key=_rank, reverse=True):
                if _rank(scope) < len(HEAVY_SCOPES):
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return HeavyFirstScheduling(config, log)
