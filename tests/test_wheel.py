"""The built wheel holds what the code needs and nothing it may not ship: every module of
the three packages, every data file ``load_dataset`` opens, and no data file whose licence
(the ``licence`` column of the data READMEs) forbids shipping it under BSD-3-Clause.

The wheel is the one named by ``KGRAPH_WHEEL`` (``.ci/run`` builds it with ``python -m
build`` before the test command), else one built here from the source tree
(``pip wheel --no-deps`` on a copy of the files a build reads, so that no ``build/`` folder
lands in the tree; in pip's isolated build environment: ~10 s)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from data_licences import PERMISSIVE, licences

import estimators.datasets as datasets
import kgraph

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("kgraph", "estimators", "viz")
#: what setuptools reads to build the sdist and the wheel
BUILD_FILES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "CHANGELOG.md",
               "CITATION.cff")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    given = os.environ.get("KGRAPH_WHEEL")
    if given:
        path = Path(given)
    else:
        out, source = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("source")
        for name in BUILD_FILES:
            shutil.copy2(ROOT / name, source / name)
        for name in PACKAGES:
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                        str(out), str(source)], check=True, capture_output=True)
        (path,) = out.glob("kgraph_bnc-*.whl")
    with zipfile.ZipFile(path) as archive:
        yield archive


def test_every_module_of_the_packages_is_in_the_wheel(wheel):
    names = set(wheel.namelist())
    tracked = subprocess.run(["git", "ls-files", "--", *PACKAGES], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.split()
    modules = [p for p in tracked if p.endswith(".py")]
    assert len(modules) > 200
    assert sorted(set(modules) - names) == []
    # and nothing from outside the three packages but the metadata
    outside = {n.split("/")[0] for n in names} - set(PACKAGES)
    assert outside == {f"kgraph_bnc-{kgraph.__version__}.dist-info"}


def test_every_data_file_the_code_opens_is_in_the_wheel(wheel):
    names = set(wheel.namelist())
    bundled = [n for n in datasets.list_datasets()
               if n not in datasets._NOT_SHIPPED and n not in ("iris", "breast_cancer")]
    assert "penguins" in bundled and "car" in bundled
    for name in bundled:
        assert f"estimators/datasets/data/{name}.csv" in names, name
    assert "estimators/datasets/data/README.md" in names  # the attributions travel along


def test_no_data_file_in_the_wheel_has_a_licence_that_forbids_shipping_it(wheel):
    shipped = [n for n in wheel.namelist() if n.endswith(".csv")]
    stated = licences(wheel.read("estimators/datasets/data/README.md").decode())
    for name in shipped:
        assert name.startswith("estimators/datasets/data/"), name
        assert stated.get(Path(name).name) in PERMISSIVE, name
    kept = licences((ROOT / "benchmarks" / "data" / "README.md").read_text())
    assert kept and not {Path(n).name for n in shipped} & set(kept)


def test_metadata_names_the_distribution_version_and_licence(wheel):
    info = f"kgraph_bnc-{kgraph.__version__}.dist-info"
    metadata = Parser().parsestr(wheel.read(f"{info}/METADATA").decode())
    assert metadata["Name"] == "kgraph-bnc"
    assert metadata["Version"] == kgraph.__version__
    assert metadata["License-Expression"] == "BSD-3-Clause"
    assert metadata["License-File"] == "LICENSE"
    assert wheel.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
    assert "kgraph = viz.cli:main" in wheel.read(f"{info}/entry_points.txt").decode()
