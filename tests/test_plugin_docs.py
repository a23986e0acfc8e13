"""The plug-in snippets of the user guide (docs/user_guide/plugins.md) and of ``estimators.learning.plugin_registry`` as written: the entry-point
lines are those of the example package (tutorials/e_plugin) and resolve to an object that
``register_score`` takes; the guide's Python example runs."""

import importlib.util
import re
import textwrap
import tomllib
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest
from installed_plugins import JS_CMI, require_js_cmi

import estimators.learning.plugin_registry
from estimators.scores import SCORES, register_score

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tutorials" / "e_plugin"


GUIDE = "docs/user_guide/plugins.md"  # the user guide's plug-in page


def plugin_section() -> str:
    return (ROOT / GUIDE).read_text()


def readme_entry_points() -> dict:
    blocks = re.findall(r"```toml\n(.*?)```", plugin_section(), re.S)
    assert len(blocks) == 1
    return tomllib.loads(blocks[0])["project"]["entry-points"]


def docstring_entry_points() -> dict:
    doc = estimators.learning.plugin_registry.__doc__
    after = doc.split("and no edit to kgraph::\n", 1)[1]
    block = re.match(r"(?:\n| {4}.*\n)+", after).group(0)  # the indented literal block
    return tomllib.loads(textwrap.dedent(block))["project"]["entry-points"]


def shipped_entry_points() -> dict:
    meta = tomllib.loads((PACKAGE / "pyproject.toml").read_text())
    return meta["project"]["entry-points"]


def test_the_documented_entry_point_is_the_example_packages():
    shipped = shipped_entry_points()["kgraph.scores"]
    assert readme_entry_points() == {"kgraph.scores": shipped}
    documented = docstring_entry_points()
    assert documented["kgraph.scores"] == shipped
    assert re.fullmatch(r"[\w.]+:\w+", documented["kgraph.searchers"]["my-search"])


def test_the_documented_entry_point_resolves_to_what_register_score_takes(monkeypatch):
    if importlib.util.find_spec("kgraph_js_cmi") is None:  # not installed: the source
        monkeypatch.syspath_prepend(str(PACKAGE))
    (name, value), = readme_entry_points()["kgraph.scores"].items()
    factory = EntryPoint(name, value, "kgraph.scores").load()
    monkeypatch.setitem(SCORES, "docs-" + name, {})
    assert register_score("docs-" + name, factory, replace=True) == {"discrete": factory}


def test_the_installed_plugin_has_the_documented_entry_point():
    require_js_cmi()
    (found,) = entry_points(group="kgraph.scores", name=JS_CMI)
    assert {found.name: found.value} == readme_entry_points()["kgraph.scores"]
    import kgraph_js_cmi

    assert found.load() is kgraph_js_cmi.JamesSteinCMI


def test_the_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", plugin_section(), re.S)
    (code,) = [b for b in blocks if "class MyCMI(DiscreteCMI)" in b]
    before = dict(SCORES)
    namespace: dict = {}
    try:
        exec(compile(code, GUIDE, "exec"), namespace)
        assert SCORES["mine"] == {"discrete": namespace["MyCMI"]}
    finally:
        SCORES.clear()
        SCORES.update(before)
    from estimators import KTANClassifier

    X, y = namespace["X"], namespace["y"]
    by_class = KTANClassifier(k=2, structure_score=namespace["MyCMI"]()).fit(X, y)
    assert by_class.structure_ == KTANClassifier(k=2, structure_score="cmi").fit(X, y).structure_


@pytest.mark.parametrize("snippet", [GUIDE, "estimators/learning/plugin_registry.py"])
def test_no_snippet_names_a_missing_object(snippet):
    text = (ROOT / snippet).read_text()
    for module, attribute in re.findall(r'"(kgraph_js_cmi):(\w+)"', text):
        spec = importlib.util.spec_from_file_location("kgraph_js_cmi_doc", PACKAGE /
                                                      f"{module}.py")
        found = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(found)
        assert hasattr(found, attribute), f"{snippet}: {module} has no {attribute}"
