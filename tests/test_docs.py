"""The documentation site's generated pages cover the public API and the command line.

The build itself (``sphinx -W``, the gallery included) runs in ``.ci/run``; these tests check,
without Sphinx, that the pages it is built from name every public object and every
sub-command, and that the gallery translation of a tutorial keeps its text and code.
"""

import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
sys.path.insert(0, str(DOCS))

import _api  # noqa: E402
import _gallery  # noqa: E402


def _documented(folder: Path) -> set[str]:
    """Full names with a page: autosummary entries under a module, and relayed links."""
    names = set()
    for page in folder.glob("*.rst"):
        text = page.read_text()
        module = re.search(r"^\.\. currentmodule:: (\S+)", text, re.M)
        for block in re.findall(r":toctree: generated\n   :nosignatures:\n\n((?:   \S+\n)+)", text):
            names |= {f"{module.group(1)}.{line.strip()}" for line in block.splitlines()}
        names |= set(re.findall(r":py:obj:`\S+ <(\S+)>`", text))
    return names


def test_every_public_name_has_an_api_page(tmp_path):
    _api.write_api_pages(tmp_path)
    documented = _documented(tmp_path)
    for package in ("kgraph", "estimators", "viz", *(
            p for p in _api.public_packages() if p.startswith("estimators."))):
        module = importlib.import_module(package)
        for name in module.__all__:
            homes = {n for n in documented if n.rsplit(".", 1)[1] == name}
            assert any(getattr(importlib.import_module(h.rsplit(".", 1)[0]), name)
                       is getattr(module, name) for h in homes), f"{package}.{name}"


def _public_objects() -> dict[int, tuple[str, object]]:
    """Every public class and function, once, under the first package that exports it."""
    found: dict[int, tuple[str, object]] = {}
    for package in _api.public_packages():
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                found.setdefault(id(obj), (f"{package}.{name}", obj))
    return found


def test_every_public_class_and_function_has_an_examples_section():
    """numpydoc's Examples heading in the object's own docstring (its doctest runs with
    ``--doctest-modules``); a class's docstring, not its ``__init__``'s."""
    objects = _public_objects()
    assert len(objects) > 150  # the walk found the API, not an empty list
    lacking = sorted(name for name, obj in objects.values()
                     if ">>> " not in ((inspect.getdoc(obj) or "") + "\nExamples\n--------\n"
                                       ).split("\nExamples\n--------\n", 1)[1])
    assert not lacking, f"{len(lacking)} public names without Examples: {lacking}"


def test_every_subpackage_with_all_is_documented():
    import estimators

    expected = {f"estimators.{m}" for m in dir(estimators)
                if not m.startswith("_") and getattr(getattr(estimators, m), "__all__", None)
                and getattr(getattr(estimators, m), "__path__", None)}
    assert expected <= set(_api.public_packages())


def test_cli_page_has_every_subcommand_and_option(tmp_path):
    from viz.cli import build_parser

    page = tmp_path / "cli.rst"
    _api.write_cli_page(page)
    text = page.read_text()
    for name, parser in _api._subcommands(build_parser()).items():
        assert f"``kgraph {name}``" in text
        for action in parser._actions:
            for flag in action.option_strings:
                assert flag in text, (name, flag)


def test_gallery_translation_keeps_title_text_and_code():
    source = (Path(__file__).resolve().parents[1] / "tutorials" / "g_export_pgmpy.py").read_text()
    translated = _gallery.translate(source)
    assert translated.startswith('"""\nTutorial (g): export a fitted model to pgmpy and check it\n====')
    assert "# 1. The network and its CPDs\n# ---" in translated
    assert "network = model.to_pgmpy()" in translated
    compile(translated, "g_export_pgmpy.py", "exec")


def test_markdown_indented_code_becomes_a_literal_block():
    rst = _gallery._markdown_to_rst(["Install it:", "", "    pip install x", "", "Then run."])
    assert rst == ["Install it::", "", "    pip install x", "", "Then run."]


@pytest.mark.parametrize("line, expected", [
    ("- an item", ["Text", "", "- an item"]),
    ("see [pgmpy](https://pgmpy.org)", ["Text", "see `pgmpy <https://pgmpy.org>`__"]),
])
def test_markdown_lists_and_links(line, expected):
    assert _gallery._markdown_to_rst(["Text", line]) == expected


def test_every_public_path_the_readme_and_guide_name_has_an_api_page(tmp_path):
    """Each module the README or a page of the guide names (``from M import``, or `M.X` in
    backquotes) has its own API page, and each object it names from one is documented."""
    _api.write_api_pages(tmp_path)
    pages = {p.stem for p in tmp_path.glob("*.rst")} - {"index"}
    documented = _documented(tmp_path)
    named = _api.named_paths()
    assert {"estimators.testing.check_score", "viz.compare.run_comparison"} <= named
    for path in sorted(named):
        module = _api.module_of(path)
        assert module in pages, f"{path}: no API page for {module}"
        if path != module:
            obj = getattr(importlib.import_module(module), path[len(module) + 1:])
            assert any(getattr(importlib.import_module(home.rsplit(".", 1)[0]),
                               home.rsplit(".", 1)[1], None) is obj
                       for home in documented), f"{path}: not documented"
    for required in ("estimators.confidence", "estimators.testing", "estimators.baselines",
                     "estimators.plugins", "viz.compare"):
        assert required in pages, required


def test_see_also_sections_link_documented_objects(tmp_path):
    import _see_also

    _api.write_api_pages(tmp_path)
    documented = _documented(tmp_path)
    sections = _see_also.sections(_api.object_homes())
    assert len(sections) == len(_see_also.SEE_ALSO) >= 10
    for lines in sections.values():
        assert lines[:2] == ["See Also", "--------"]
        for entry in lines[2:-1]:
            assert entry.split(" : ")[0] in documented, entry
    docstring = ["Summary.", "", "Examples", "--------", ">>> 1"]
    _see_also.insert(docstring, ["See Also", "--------", "x : Y.", ""])
    assert docstring[:6] == ["Summary.", "", "See Also", "--------", "x : Y.", ""]


def test_gallery_runs_in_file_order_and_says_where_it_is_reduced():
    # sphinx-gallery sorts by file name (the docs extra, not the test extra, installs it)
    assert ('"within_subsection_order": "sphinx_gallery.sorting.FileNameSortKey"'
            in (DOCS / "_gallery.py").read_text())
    tutorials = sorted((DOCS.parent / "tutorials").glob("*.py"))
    assert [p.name[0] for p in tutorials] == sorted(p.name[0] for p in tutorials)
    for path in tutorials:
        source = path.read_text()
        page = _gallery.translate(source, quick=True)
        assert (_gallery.QUICK_NOTE in page) == ("KGRAPH_TUTORIAL_QUICK" in source), path.name
        assert _gallery.QUICK_NOTE not in _gallery.translate(source)
    assert any("KGRAPH_TUTORIAL_QUICK" in p.read_text() for p in tutorials)


def test_gallery_warnings_name_no_file_of_the_building_machine():
    text = _gallery.format_warning("constant column", UserWarning, "/tmp/x/a.py", 3)
    assert text == "UserWarning: constant column\n"


def test_intersphinx_inventories_are_sphinx_inventories_with_their_source_stated():
    folder = DOCS / "_inventories"
    readme = (folder / "README.md").read_text()
    inventories = sorted(folder.glob("*.inv"))
    assert {p.stem for p in inventories} >= {"python", "pandas", "sklearn"}
    for path in inventories:
        head = path.read_bytes()[:60].decode("ascii", "replace")
        assert head.startswith("# Sphinx inventory version 2\n# Project: "), path.name
        assert f"| `{path.name}` |" in readme, path.name
