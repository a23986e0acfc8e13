"""The structure store: exact round trips, queries against a brute-force count, concurrency."""

import multiprocessing
import os
import signal
import sqlite3
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgraph import AcyclicKTree, GNBJunctionTree, GraphDB
from kgraph.store import StructureStore

FORK = multiprocessing.get_context("fork")


def test_runs_and_structures_round_trip_exactly(tmp_path):
    path = tmp_path / "runs.db"
    gnb = GNBJunctionTree([("a", "b"), ("b", ("c", 1))], target="y")
    ktree = AcyclicKTree(2, ["a", "b", "c", "d"], {"c": ["a", "b"], "d": ["b", "c"]})
    plain = GraphDB(directed=True, attrs={"note": "no structure"})
    plain.add_edge(1, 2, weight=0.5)
    params = {"k": 2, "order": ("a", "b"), "alpha": 0.1, "none": None}
    with StructureStore(path) as store:
        rid = store.add_run(model="ktan", data_hash="abc", params=params, fold=3,
                            metrics={"f1": 0.75, "per_class": {0: 1.0}}, label="demo",
                            structures=[gnb, ktree, plain])
    with StructureStore(path) as store:  # reopened from the file
        run = store.run(rid)
        assert (run.model, run.data_hash, run.fold, run.seed, run.label) == \
            ("ktan", "abc", 3, None, "demo")
        assert run.params == params and run.metrics == {"f1": 0.75, "per_class": {0: 1.0}}
        assert run.n_structures == 3
        assert store.structures(rid) == [gnb, ktree, plain]
        assert store.structures(rid, as_graph=True)[0] == gnb.to_graph()


def test_queries_select_runs_by_columns():
    store = StructureStore()
    tree = GNBJunctionTree([("a", "b")], target="y")
    for seed in range(3):
        store.add_run(model="gnb" if seed < 2 else "ktan", data_hash="d", seed=seed,
                      structures=[tree])
    assert [r.seed for r in store.runs(model="gnb")] == [0, 1]
    assert store.runs_with_edge("b", "a", model="ktan") == [3]
    assert store.runs_with_edge("a", "z") == []
    assert store.edge_frequencies(seed=5) == []
    store.delete_run(1)
    assert [r.run_id for r in store.runs()] == [2, 3]


def test_direction_is_counted_for_directed_structures():
    store = StructureStore()
    forward = AcyclicKTree(1, ["a", "b", "c"], {"b": ["a"], "c": ["b"]})
    backward = AcyclicKTree(1, ["c", "b", "a"], {"b": ["c"], "a": ["b"]})
    for s in (forward, forward, backward):
        store.add_run(model="tan", structures=[s])
    assert store.runs_with_edge("a", "b", directed=True) == [1, 2]
    assert store.runs_with_edge("b", "a", directed=True) == [3]
    assert store.runs_with_edge("b", "a") == [1, 2, 3]
    freq = {(e.u, e.v): (e.count, e.forward) for e in store.edge_frequencies()}
    assert freq == {("a", "b"): (3, 2), ("b", "c"): (3, 2)}


graphs = st.lists(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=8),
                  min_size=1, max_size=6)


@settings(max_examples=30, deadline=None)
@given(graphs, st.booleans())
def test_edge_frequencies_equal_a_direct_count(edge_lists, directed):
    store = StructureStore()
    expected: Counter = Counter()
    for i, edges in enumerate(edge_lists):
        g = GraphDB(directed=directed)
        g.add_nodes_from((v, {"kind": "variable"}) for v in range(6))
        g.add_node("y", kind="class")
        for u, v in edges:
            if u != v:
                g.add_edge(u, v)
        g.add_edge("y", 0)  # not between variables: never counted
        expected.update({frozenset(e) for e in g.edges() if "y" not in e})
        store.add_run(seed=i, structures=[g])
    got = {frozenset((e.u, e.v)): (e.count, e.frequency) for e in store.edge_frequencies()}
    n = len(edge_lists)
    assert got == {e: (c, c / n) for e, c in expected.items()}
    for edge, count in expected.items():
        u, v = sorted(edge)
        assert len(store.runs_with_edge(v, u)) == count


def test_bad_inputs_name_what_is_wrong(tmp_path):
    store = StructureStore()
    with pytest.raises(ValueError, match=r"Unknown run filter 'colour'; runs are selected by"):
        store.runs(colour="red")
    with pytest.raises(TypeError, match="The run's seed must be an int or None; got '3'"):
        store.add_run(seed="3")
    with pytest.raises(KeyError, match="Run 9 is not in the store"):
        store.structures(9)
    with pytest.raises(TypeError, match="must be a kgraph Structure or a GraphDB; got list"):
        store.add_run(structures=[[("a", "b")]])
    assert store.runs() == []  # the failed run was rolled back with its structure
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"garbage" * 200)
    with pytest.raises(ValueError, match="Cannot open .*junk.db.* as a kgraph structure store"):
        StructureStore(junk)


def test_names_from_data_never_become_sql():
    hostile = "a'); DROP TABLE runs; --"
    store = StructureStore()
    g = GraphDB()
    g.add_edge(hostile, "b")
    store.add_run(model=hostile, data_hash=hostile, params={hostile: hostile}, structures=[g])
    assert store.runs_with_edge("b", hostile, model=hostile) == [1]
    assert store.run(1).params == {hostile: hostile}


def _write_runs(path, worker, n):
    with StructureStore(path) as store:
        for i in range(n):
            g = GraphDB()
            g.add_edge(f"w{worker}", i)
            store.add_run(model=f"worker{worker}", seed=i, structures=[g])


def test_two_processes_writing_at_once_lose_no_run(tmp_path):
    path = tmp_path / "runs.db"
    StructureStore(path).close()
    n = 40
    procs = [FORK.Process(target=_write_runs, args=(path, w, n)) for w in (0, 1)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    with StructureStore(path) as store:
        runs = store.runs()
        assert len(runs) == 2 * n and len({r.run_id for r in runs}) == 2 * n
        for w in (0, 1):
            assert sorted(r.seed for r in store.runs(model=f"worker{w}")) == list(range(n))
        assert all(r.n_structures == 1 for r in runs)


def _die_inside_a_transaction(path, ready):
    store = StructureStore(path)
    with store.transaction():
        store.add_run(model="doomed", structures=[GNBJunctionTree([("a", "b")], target="y")])
        store.add_run(model="doomed")
        ready.set()
        signal.pause()  # killed here, before the commit


def test_a_killed_writer_leaves_the_store_consistent(tmp_path):
    path = tmp_path / "runs.db"
    with StructureStore(path) as store:
        store.add_run(model="kept", structures=[GNBJunctionTree([("a", "b")], target="y")])
    ready = FORK.Event()
    child = FORK.Process(target=_die_inside_a_transaction, args=(path, ready))
    child.start()
    assert ready.wait(30)
    os.kill(child.pid, signal.SIGKILL)
    child.join(30)
    assert child.exitcode == -signal.SIGKILL
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()
    with StructureStore(path) as store:
        assert [r.model for r in store.runs()] == ["kept"]
        assert store.edge_frequencies()[0].count == 1
        store.add_run(model="after")  # the dead writer's lock is gone
        assert [r.model for r in store.runs()] == ["kept", "after"]


def test_an_exception_inside_a_transaction_keeps_nothing(tmp_path):
    store = StructureStore(tmp_path / "runs.db")
    with pytest.raises(RuntimeError, match="fit failed"), store.transaction():
        store.add_run(model="partial", structures=[GNBJunctionTree([("a", "b")], target="y")])
        raise RuntimeError("fit failed")
    assert store.runs() == [] and store.edge_frequencies() == []
    assert store.add_run(model="next") == store.runs()[0].run_id
