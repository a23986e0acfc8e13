"""Built-in data sets: the shipped files are the documented ones."""

import hashlib
import re
from importlib import resources

import pandas as pd
import pytest

from estimators.datasets import dataset_info, list_datasets, load_dataset

DATA = resources.files("estimators.datasets") / "data"


def documented():
    """(file, rows, features, classes) and SHA-256 sums from the data README."""
    text = (DATA / "README.md").read_text()
    rows = re.findall(r"^\| `(\w+)\.csv` \| (\d+) \| (\d+) \| .*? \| (\d+) \(", text, re.M)
    sums = dict((name, digest) for digest, name in
                re.findall(r"^([0-9a-f]{64})  (\w+)\.csv$", text, re.M))
    return {name: (int(n), int(d), int(c)) for name, n, d, c in rows}, sums


def test_every_shipped_file_matches_its_documentation():
    shapes, sums = documented()
    assert len(shapes) == 18 and set(shapes) == set(sums)
    for name, (n, d, n_classes) in shapes.items():
        digest = hashlib.sha256((DATA / f"{name}.csv").read_bytes()).hexdigest()
        assert digest == sums[name], name
        X, y = load_dataset(name)
        assert X.shape == (n, d) and y.nunique() == n_classes, name


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
