"""Built-in data sets: the shipped files are the documented ones."""

import hashlib
import re
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest
from data_licences import PERMISSIVE, licences

import estimators.datasets as datasets
from estimators.datasets import dataset_info, list_datasets, load_dataset

DATA = resources.files("estimators.datasets") / "data"
#: the GPL tables, kept out of the package (benchmarks/data/README.md)
REPOSITORY = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


def documented(folder):
    """(file, rows, features, classes) and SHA-256 sums from a data README."""
    text = (folder / "README.md").read_text()
    rows = re.findall(r"^\| `(\w+)\.csv` \| (\d+) \| (\d+) \| .*? \| (\d+) \(", text, re.M)
    sums = dict((name, digest) for digest, name in
                re.findall(r"^([0-9a-f]{64})  (\w+)\.csv$", text, re.M))
    return {name: (int(n), int(d), int(c)) for name, n, d, c in rows}, sums


@pytest.mark.parametrize("folder, count", [(DATA, 15), (REPOSITORY, 3)])
def test_every_data_file_matches_its_documentation(folder, count):
    shapes, sums = documented(folder)
    assert len(shapes) == count and set(shapes) == set(sums)
    assert {p.stem for p in Path(str(folder)).glob("*.csv")} == set(shapes)
    for name, (n, d, n_classes) in shapes.items():
        digest = hashlib.sha256((folder / f"{name}.csv").read_bytes()).hexdigest()
        assert digest == sums[name], name
        X, y = load_dataset(name)
        assert X.shape == (n, d) and y.nunique() == n_classes, name


def test_every_data_file_states_its_licence_and_the_package_ships_only_permissive_ones():
    shipped = licences((DATA / "README.md").read_text())
    kept = licences((REPOSITORY / "README.md").read_text())
    assert set(shipped) == {p.name for p in Path(str(DATA)).glob("*.csv")}
    assert set(kept) == {p.name for p in REPOSITORY.glob("*.csv")}
    assert set(shipped.values()) <= PERMISSIVE
    assert all(licence.startswith("GPL") for licence in kept.values())


def test_gpl_tables_outside_a_source_checkout(monkeypatch, tmp_path):
    """Where the repository folder is absent (an installed wheel), the GPL tables are not
    listed and loading one says why and where it is."""
    monkeypatch.setattr(datasets, "_REPOSITORY", tmp_path)
    assert "oj" not in list_datasets() and "penguins" in list_datasets()
    with pytest.raises(ValueError, match="'oj' is licensed GPL-2, so the package does not "
                                         "ship it; a source checkout of kgraph has it as "
                                         "benchmarks/data/oj.csv"):
        load_dataset("oj")
    assert load_dataset("penguins")[0].shape == (344, 7)


def test_question_marks_stay_categories():
    X, _ = load_dataset("votes")
    assert (X == "?").to_numpy().sum() > 0 and not X.isna().to_numpy().any()


def test_sklearn_sets_and_unknown_name():
    X, y = load_dataset("iris")
    assert X.shape == (150, 4) and set(y) == {"setosa", "versicolor", "virginica"}
    assert dataset_info("breast_cancer")[0] == "continuous"
    assert "iris" in list_datasets()
    with pytest.raises(ValueError, match="Unknown data set 'irises'; built-in data sets are"):
        load_dataset("irises")


def test_real_tables_keep_types_and_empty_cells():
    X, y = load_dataset("helpmiss")
    assert X.shape == (470, 26) and int(X.isna().to_numpy().sum()) == 749
    assert (y == "missing").sum() == 1 and y.name == "class"
    X, y = load_dataset("penguins")
    assert pd.api.types.is_string_dtype(X["island"]) and X["bill_length_mm"].dtype == float
    assert dataset_info("oj")[0] == "mixed"
