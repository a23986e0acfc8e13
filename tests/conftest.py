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
