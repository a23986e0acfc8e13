"""Weka's supervised MDL discretisation as a test oracle (weka.filters.supervised.attribute.
Discretize; Debian's ``weka`` package: ``apt-get install weka`` puts the jar in
/usr/share/java/weka.jar).

:func:`weka_cut_points` runs Weka on a table (the class the last attribute) and returns each
numeric column's cut points; ``python tests/weka_mdl.py`` rewrites
``tests/weka_reference/weka_cut_points.json`` (the bundled tables, both encodings), which
the tests read where Weka is not installed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

JAR = Path("/usr/share/java/weka.jar")
HERE = Path(__file__).parent / "weka_reference"
FIXTURE = HERE / "weka_cut_points.json"
TABLES = ("iris", "wine", "penguins", "oj", "abalone")


def weka_available() -> bool:
    """Weka's jar and a JDK are installed."""
    return JAR.exists() and shutil.which("javac") is not None and shutil.which("java") is not None


def _arff(X: pd.DataFrame, y, path: Path) -> None:
    """``X`` (numeric and string columns) and the class ``y`` as an ARFF file."""
    lines = ["@relation table"]
    numeric = []
    for j, c in enumerate(X.columns):
        col = X[c]
        numeric.append(pd.api.types.is_numeric_dtype(col))
        kind = "numeric" if numeric[-1] else (
            "{" + ",".join(f"'{v}'" for v in sorted(col.dropna().unique())) + "}")
        lines.append(f"@attribute 'a{j}' {kind}")
    labels = [str(v) for v in y]
    lines += ["@attribute class {" + ",".join(f"'{v}'" for v in sorted(set(labels))) + "}",
              "@data"]
    cols = [X[c].to_numpy(dtype=object) for c in X.columns]
    for i, label in enumerate(labels):
        cells = ["?" if pd.isna(col[i]) else (repr(float(col[i])) if num else f"'{col[i]}'")
                 for col, num in zip(cols, numeric, strict=True)]
        lines.append(",".join([*cells, f"'{label}'"]))
    path.write_text("\n".join(lines) + "\n")


def weka_cut_points(X: pd.DataFrame, y, better_encoding: bool = False) -> dict:
    """Column name -> Weka's cut points (a list, empty for none) of every numeric column."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        shutil.copy(HERE / "WekaCuts.java", tmp)
        subprocess.run(["javac", "-cp", str(JAR), "WekaCuts.java"], cwd=tmp, check=True)
        _arff(X, y, tmp / "t.arff")
        out = subprocess.run(
            ["java", "-cp", f"{JAR}:{tmp}", "WekaCuts", str(tmp / "t.arff"),
             *(["better"] if better_encoding else [])],
            capture_output=True, text=True, check=True).stdout
    cuts = {}
    for line in out.splitlines():
        name, _, values = line.partition("\t")
        cuts[X.columns[int(name[1:])]] = [float(v) for v in values.split(",") if v]
    return cuts


def main() -> None:
    from estimators.datasets import load_dataset

    cut_points = {}
    for name in TABLES:
        X, y = load_dataset(name)
        cut_points[name] = {enc: weka_cut_points(X, np.asarray(y), enc == "better")
                            for enc in ("default", "better")}
    FIXTURE.write_text(json.dumps({
        "source": "Weka 3.6.14 (Debian package weka), weka.filters.supervised.attribute."
                  "Discretize: cut points per numeric column, default options ('default') "
                  "and useBetterEncoding ('better'); made by tests/weka_mdl.py",
        "cut_points": cut_points}, indent=1) + "\n")


if __name__ == "__main__":
    main()
