"""The UAI format (the inference competitions'): a Bayesian network's writer, a reader by
the specification, and the key file that names its numbered variables and coded states.

A UAI file holds no names: variable ``i`` is the i-th of :func:`uai_names` (the class, then
the features in topological order) and a state is its position among the variable's states.
:func:`write_uai_key` writes them beside the file (``NAME.uai.key.csv``: one row per state,
``variable, name, code, state``), so evidence can be entered in any engine.

Each function's scope lists the parents then the child; its table enumerates the scope's
values with the first variable most significant and the last (the child) least, as the
specification says. Readers that do otherwise (measured): pgmpy 1.1.2's ``UAIReader``
reads a table with the child *most* significant and its parents in the order of its graph's
edge set (an arbitrary one), so ``check_model`` refuses every table with a parent of two or
more states ("Sum or integral of conditional probabilities ... is not equal to 1"); pyAgrum
3.3.1 reads (and writes) the parents with the *first* fastest, so tables with two or more
parents are misread (one-parent tables agree).
"""

from __future__ import annotations

import csv
from os import PathLike
from pathlib import Path

import numpy as np

__all__ = ["read_uai", "read_uai_key", "uai_key_path", "uai_names", "write_uai",
           "write_uai_key"]


def uai_names(network) -> list:
    """The variables of ``network`` in the order of its UAI file (variable ``i`` is the
    i-th): the class, then the features in topological order."""
    import networkx as nx

    return list(nx.lexicographical_topological_sort(network, key=str))


def uai_key_path(path: str | PathLike) -> Path:
    """The key file of the UAI file ``path``: ``m.uai`` -> ``m.uai.key.csv``."""
    path = Path(path)
    return path.with_name(path.name + ".key.csv")


def uai_key(network) -> list[tuple[int, str, int, str]]:
    """``(variable, name, code, state)`` for every state of every variable of ``network``
    as its UAI file numbers them (:func:`uai_names`; states as ``str``)."""
    cpds = {cpd.variable: cpd for cpd in network.get_cpds()}
    return [(i, str(v), code, str(s)) for i, v in enumerate(uai_names(network))
            for code, s in enumerate(cpds[v].state_names[v])]


def write_uai_key(network, path: str | PathLike) -> Path:
    """Write the key of ``network``'s UAI file (:func:`uai_key`) as CSV with a header row
    ``variable,name,code,state``; returns its path."""
    path = Path(path)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["variable", "name", "code", "state"])
        writer.writerows(uai_key(network))
    return path


def read_uai_key(path: str | PathLike) -> tuple[list[str], dict[str, list[str]]]:
    """The names (in variable order) and each name's states (in code order) of a key file
    written by :func:`write_uai_key`."""
    names: dict[int, str] = {}
    states: dict[str, list[str]] = {}
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            names[int(row["variable"])] = row["name"]
            states.setdefault(row["name"], []).append(row["state"])
    return [names[i] for i in sorted(names)], states


def write_uai(network, path: str | PathLike) -> Path:
    """Write ``network`` as a UAI ``BAYES`` file: the variables' cardinalities, one function
    per variable with its parents then itself as scope, each table in row-major order over
    that scope (the variable itself fastest), every probability as the shortest decimal
    text of its float with no exponent. Written here because pgmpy 1.1.2's ``UAIWriter``
    lists a table in its own CPD order under a reversed scope (wrong with two or more
    parents) and writes exponents its reader cannot parse."""
    from estimators.network.export.numbers import numbers

    names = uai_names(network)
    index = {v: i for i, v in enumerate(names)}
    cpds = {cpd.variable: cpd for cpd in network.get_cpds()}
    lines = ["BAYES", str(len(names)),
             " ".join(str(cpds[v].variable_card) for v in names), str(len(names))]
    tables = []
    for v in names:
        cpd = cpds[v]
        scope = [*cpd.variables[1:], v]
        lines.append(" ".join(map(str, [len(scope), *(index[u] for u in scope)])))
        values = np.moveaxis(np.asarray(cpd.values, float), 0, -1)  # parents..., v
        tables += ["", str(values.size), numbers(values.ravel())]
    path = Path(path)
    path.write_text("\n".join(lines + tables) + "\n")
    return path


def read_uai(path: str | PathLike, names: list | None = None, states: dict | None = None):
    """A Bayesian network from a UAI file, read by the competition's specification (module
    docstring). ``names[i]`` and ``states[name]`` name variable ``i`` and its codes; by
    default they come from the key file beside it (:func:`uai_key_path`)."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    if names is None or states is None:
        names, states = read_uai_key(uai_key_path(path))
    tokens = iter(Path(path).read_text().split())
    if next(tokens) != "BAYES":
        raise ValueError(f"{path} is no UAI Bayesian network (no BAYES preamble)")
    n = int(next(tokens))
    cards = [int(next(tokens)) for _ in range(n)]
    scopes = [[int(next(tokens)) for _ in range(int(next(tokens)))]
              for _ in range(int(next(tokens)))]
    bn = DiscreteBayesianNetwork()
    bn.add_nodes_from(names)
    cpds = []
    for scope in scopes:
        values = np.array([float(next(tokens)) for _ in range(int(next(tokens)))])
        *pa, child = scope
        bn.add_edges_from([(names[p], names[child]) for p in pa])
        table = values.reshape([cards[i] for i in scope])
        cpds.append(TabularCPD(names[child], cards[child],
                               np.moveaxis(table, -1, 0).reshape(cards[child], -1),
                               evidence=[names[p] for p in pa] or None,
                               evidence_card=[cards[p] for p in pa] or None,
                               state_names={names[i]: states[names[i]] for i in scope}))
    bn.add_cpds(*cpds)
    return bn
