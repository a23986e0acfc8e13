"""Sphinx configuration of kgraph's documentation site.

Everything the site shows is generated from the repository at build time: the API reference
from each package's ``__all__`` (``_api.py``), the command-line reference from the argparse
parsers (sphinx-argparse), the family table from the family registry (``_api.py``), the
gallery by running ``tutorials/`` (sphinx-gallery, through ``_gallery.py``), and the
mathematics and benchmark pages from the files they include.
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


def _landing_example() -> None:
    """Run the landing page's example (the Python block of ``index.md``) in ``_landing/``,
    which the page then shows: what it prints and the figure it saves."""
    import contextlib
    import io
    import re
    import warnings

    code = re.search(r"```python\n(.*?)```", (DOCS / "index.md").read_text(), re.S).group(1)
    folder = DOCS / "_landing"
    folder.mkdir(exist_ok=True)
    printed, here = io.StringIO(), os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(printed), warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # pgmpy's deprecation notices
            exec(compile(code, str(DOCS / "index.md"), "exec"), {})
    finally:
        os.chdir(here)
    (folder / "output.txt").write_text(printed.getvalue())

import _api  # noqa: E402
import _gallery  # noqa: E402
import _see_also  # noqa: E402

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
    "sphinx.ext.intersphinx",
]

# Links to the documentation of the libraries kgraph builds on (intersphinx). A project's
# inventory is read from docs/_inventories/NAME.inv where that file exists (its README says
# where each one comes from; python docs/_inventories/fetch.py replaces them with the current
# ones on a machine with network access), and the links go to the documentation of the
# version that inventory describes. Projects without a file are read from their sites only
# with KGRAPH_DOCS_ONLINE=1: an offline build leaves them out rather than fail on a warning
# that they could not be reached, and their names stay plain text.
_INTERSPHINX = {
    "python": "https://docs.python.org/3/",
    "numpy": "https://numpy.org/doc/stable/",
    "pandas": "https://pandas.pydata.org/docs/",
    "sklearn": "https://scikit-learn.org/stable/",
    "networkx": "https://networkx.org/documentation/stable/",
    "pgmpy": "https://pgmpy.org/",
}
#: the documentation of one version, from the inventory's "# Version:" line
_VERSIONED = {
    "python": "https://docs.python.org/{minor}/",
    "numpy": "https://numpy.org/doc/{minor}/",
    "pandas": "https://pandas.pydata.org/pandas-docs/version/{version}/",
    "sklearn": "https://scikit-learn.org/{minor}/",
    "networkx": "https://networkx.org/documentation/networkx-{version}/",
}
_INVENTORIES = DOCS / "_inventories"


def _site(name: str, inventory: Path) -> str:
    """The documentation site of the version ``inventory`` describes (the stable site where
    the project keeps no versioned copies)."""
    import re

    head = inventory.read_bytes()[:200].decode("utf-8", "replace")
    version = re.search(r"^# Version: (\S+)", head, re.M)
    if not version or name not in _VERSIONED:
        return _INTERSPHINX[name]
    minor = ".".join(version.group(1).split(".")[:2])
    return _VERSIONED[name].format(version=version.group(1), minor=minor)


intersphinx_mapping = {
    name: (_site(name, _INVENTORIES / f"{name}.inv"), str(_INVENTORIES / f"{name}.inv"))
    if (_INVENTORIES / f"{name}.inv").is_file() else (url, None)
    for name, url in _INTERSPHINX.items()
    if (_INVENTORIES / f"{name}.inv").is_file() or os.environ.get("KGRAPH_DOCS_ONLINE") == "1"
}
intersphinx_timeout = 10
# parameter types link to their documentation: numpydoc's own names (Python's types, numpy's
# ndarray and array_like) and those below, nothing else (a bare word such as a kgraph class
# name could resolve ambiguously)
numpydoc_xref_param_type = True
numpydoc_xref_ignore = "all"
numpydoc_xref_aliases = {
    "mapping": "collections.abc.Mapping", "hashable": "collections.abc.Hashable",
    "path": "pathlib.Path",
    "DataFrame": "pandas.DataFrame", "pandas.DataFrame": "pandas.DataFrame",
    "Series": "pandas.Series", "pandas.Series": "pandas.Series",
    "matplotlib.figure.Figure": "matplotlib.figure.Figure",
}
if "numpy" not in intersphinx_mapping:  # numpydoc's glossary links into numpy's pages
    numpydoc_xref_aliases.update({"array-like": "numpy.typing.ArrayLike",
                                  "array_like": "numpy.typing.ArrayLike",
                                  "scalar": "numpy.generic"})

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_examples", "_inventories", "gallery/*.ipynb", "gallery/*.py", "gallery/*.md5",
                    "gallery/*.zip", "gallery/*.json", "user_guide/_families.md"]
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


def _add_see_also(app, what, name, obj, options, lines):
    """The main classes' "See Also" sections (``_see_also.py``), in numpydoc's form: this
    runs before numpydoc renders the docstring."""
    section = _SEE_ALSO.get(id(obj))
    if section:
        _see_also.insert(lines, section)


def _constant_docstring(app, what, name, obj, options, lines):
    """A public constant whose value is an instance of another project's class (such as
    scikit-learn's column selectors) is described by the ``#:`` comment where kgraph defines
    it, not by that class's docstring (whose references point into the other project)."""
    if what != "data" or type(obj).__module__.split(".")[0] in (*_api.TOP_PACKAGES,
                                                                  "builtins"):
        return
    from sphinx.pycode import ModuleAnalyzer

    attribute = name.rsplit(".", 1)[1]
    for module_name, module in sorted(sys.modules.items()):
        if (module_name.split(".")[0] not in _api.TOP_PACKAGES
                or getattr(module, attribute, None) is not obj):
            continue
        try:
            comment = ModuleAnalyzer.for_module(module_name).find_attr_docs().get(
                ("", attribute))
        except Exception:  # a module without source
            continue
        if comment:
            lines[:] = [*comment, f"(an instance of ``{type(obj).__module__}."
                                  f"{type(obj).__qualname__}``)", ""]
            return


def setup(app):
    app.connect("autodoc-skip-member", _skip_sklearn_plumbing)
    app.connect("autodoc-process-docstring", _constant_docstring)
    app.connect("autodoc-process-docstring", _add_see_also, priority=400)

_SEE_ALSO = _see_also.sections(_api.object_homes())
_landing_example()

# the API pages are written from the packages' __all__ before Sphinx reads the sources
_api.write_api_pages(DOCS / "api")
_api.write_cli_page(DOCS / "cli.rst")
_api.write_family_table(DOCS / "user_guide" / "_families.md")
_api.write_benchmark_pages(ROOT / "benchmarks" / "results", DOCS / "benchmarks")
