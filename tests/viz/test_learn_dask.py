"""``kgraph learn --engine dask``: Parquet/CSV globs on a Dask cluster, same files as in memory."""

import json

import joblib
import numpy as np
import pandas as pd
import pytest

from viz.cli import main

pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")


def _files(folder, suffix, mixed=False):
    rng = np.random.default_rng(0)
    folder.mkdir()
    for i in range(3):
        df = pd.DataFrame(rng.normal(size=(400, 4)), columns=list("abcd"))
        df["T"] = rng.choice(["u", "v"], 400)
        df["b"] += 2 * df["a"] * (df["T"] == "u")
        if mixed:  # a categorical column: the conditional Gaussian TAN
            df["d"] = np.where(df["c"] > 0, "hi", "lo")
        if suffix == ".csv":
            df.to_csv(folder / f"part{i}.csv", index=False)
        else:
            df.to_parquet(folder / f"part{i}.parquet")
    return str(folder / f"*{suffix}")


@pytest.fixture(scope="module")
def scheduler():
    """An in-process 2-worker cluster, passed to the CLI with --scheduler (fast in CI)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize(("suffix", "model", "mixed"), [(".parquet", "gnb", False),
                                                     (".csv", "tan", False),
                                                     (".parquet", "tan", True)])
def test_learn_with_dask_writes_the_in_memory_files(tmp_path, scheduler, suffix, model, mixed):
    pattern = _files(tmp_path / "data", suffix, mixed)
    out = tmp_path / "out"
    code = main(["learn", pattern, "--target", "T", "--model", model, "--engine", "dask",
                 "--scheduler", scheduler, "--out", str(out)])
    assert code == 0
    for name in ("structure.graphml", "structure.json", "model.joblib", "metrics.json",
                 "metrics.csv", "report.md"):
        assert (out / name).is_file()
    fitted = joblib.load(out / "model.joblib")
    assert ("a", "b") in {tuple(sorted(e)) for e in fitted.structure_.edges}
    assert not mixed or fitted.family_ == "mixed"
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["engine"] == "dask" and 0 < metrics["n_test"] < 1200
    # the held-out metrics are scikit-learn's on the held-out rows, recomputed here
    frame = pd.concat(pd.read_parquet(p) if suffix == ".parquet" else pd.read_csv(p)
                      for p in sorted((tmp_path / "data").glob(f"*{suffix}")))
    assert fitted.class_count_.sum() + metrics["n_test"] == len(frame)
    assert 0.5 < metrics["metrics"]["accuracy"]["holdout"] <= 1.0


def test_holdout_metrics_equal_scikit_learn_on_the_rows():
    from sklearn.metrics import accuracy_score, f1_score

    from viz.cli.engine import holdout_metrics

    rng = np.random.default_rng(1)
    true, pred = rng.integers(0, 3, 500), rng.integers(0, 3, 500)
    C = np.zeros((3, 4), dtype=int)
    np.add.at(C, (true, pred), 1)
    got = holdout_metrics(C, np.array(["a", "b", "c"]))
    assert got["accuracy"] == pytest.approx(accuracy_score(true, pred))
    assert got["f1"] == pytest.approx(f1_score(true, pred, average="weighted"))


@pytest.mark.parametrize(("args", "message"), [
    (["/nonexistent/*.parquet", "--model", "gnb"], "no file matches"),
    (["{data}", "--model", "kgnb"], "--engine dask fits the models ['gnb', 'tan']"),
    (["{data}", "--model", "gnb", "--target", "Z"], "has no target column 'Z'"),
    (["{data}", "--model", "gnb", "--bootstrap", "5"], "does not take --bootstrap"),
    (["{data}", "--model", "gnb", "--holdout", "1.5"], "--holdout must be in (0, 1)"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, args, message):
    pattern = _files(tmp_path / "data", ".csv")
    args = [a.format(data=pattern) for a in args]
    target = [] if "--target" in args else ["--target", "T"]
    code = main(["learn", *args, *target, "--engine", "dask", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
