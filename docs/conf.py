"""Sphinx configuration of kgraph's documentation site.

Everything the site shows is generated from the repository at build time: the API reference
from each package's ``__all__`` (``_api.py``), the command-line reference from the argparse
parsers (sphinx-argparse), the gallery by running ``tutorials/`` (sphinx-gallery, through
``_gallery.py``), and the mathematics and benchmark pages from the files they include.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(ROOT), str(DOCS)]
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("KGRAPH_TUTORIAL_QUICK", "1")



def _example_plugin() -> None:
    """Make the gallery's plug-in tutorial (e) run where its example package is not
    installed (``pip install ./tutorials/e_plugin``): its module is read from
    ``tutorials/e_plugin`` and its entry point from a metadata folder written from that
    package's ``pyproject.toml``, so that ``pip install ".[docs]"`` alone builds the site."""
    import tempfile
    import tomllib
    from importlib.metadata import PackageNotFoundError, distribution

    source = ROOT / "tutorials" / "e_plugin"
    project = tomllib.loads((source / "pyproject.toml").read_text())["project"]
    try:
        distribution(project["name"])
        return
    except PackageNotFoundError:
        pass
    folder = Path(tempfile.mkdtemp(prefix="kgraph-docs-plugin-"))
    info = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items())
        for group, points in project["entry-points"].items()))
    sys.path[:0] = [str(source), str(folder)]


_example_plugin()

import _api  # noqa: E402
import _gallery  # noqa: E402

import kgraph  # noqa: E402

project = "kgraph"
author = "the kgraph developers"
copyright = "2026, the kgraph developers"
release = version = kgraph.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_examples", "gallery/*.ipynb", "gallery/*.py", "gallery/*.md5",
                    "gallery/*.zip", "gallery/*.json"]
myst_enable_extensions = ["dollarmath", "amsmath", "deflist"]
myst_heading_anchors = 3

templates_path = ["_templates"]
autosummary_generate = True
autodoc_default_options = {"members": True}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
default_role = "literal"
nitpicky = False

html_theme = "pydata_sphinx_theme"
html_title = "kgraph"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}

sphinx_gallery_conf = _gallery.configuration(ROOT, DOCS)

_SKLEARN_PLUMBING = ("get_metadata_routing", "set_output")


def _skip_sklearn_plumbing(app, what, name, obj, skip, options):
    """scikit-learn's generated ``set_*_request`` methods and routing helpers are
    scikit-learn's to document (their docstrings point into its glossary)."""
    if name.startswith("set_") and name.endswith("_request") or name in _SKLEARN_PLUMBING:
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_sklearn_plumbing)

# the API pages are written from the packages' __all__ before Sphinx reads the sources
_api.write_api_pages(DOCS / "api")
_api.write_cli_page(DOCS / "cli.rst")
_api.write_benchmark_pages(ROOT / "benchmarks" / "results", DOCS / "benchmarks")
