"""The import graph of :mod:`estimators`, computed from the source with :mod:`ast`.

Two rules (HELPERS.md "layering", issue 27):

(a) **No import cycle spanning two subpackages.** A *unit* is a subpackage of
    ``estimators`` (``estimators.gnb``, ``estimators.scores``, ...) or a top-level module
    (``estimators.testing``, ...). The graph has one vertex per
    module (a package is its ``__init__``) and an arc A -> B when A imports B anywhere: at
    module level, inside a function (a deferred import is still a dependency), under
    ``TYPE_CHECKING``. ``from P import x`` is an arc to ``P`` and, when ``x`` is a module, to
    ``P.x``; importing ``P.Q.m`` also runs ``P.Q``'s ``__init__``, so it is an arc to every
    package between ``estimators`` and ``m`` (``estimators`` itself is left out: its
    ``__init__`` imports nothing, its attributes are lazy). Every strongly connected
    component must lie inside one unit.

(b) **No private name imported across subpackages.** The rule, per component of what is
    imported (``P.m.name`` for ``from P.m import name``, ``import P.m``, or an attribute
    ``alias._x`` of an imported module):

    * a private *module* ``P._m`` (its name starts with one underscore) is private to its
      package ``P``: only modules inside ``P`` import it or anything from it. So
      a top-level ``estimators._m`` would be shared by all of
      ``estimators``, but ``estimators.scores._gaussian_cmi`` belongs to ``estimators.scores``
      (others import what ``estimators.scores`` exports);
    * a private *name* ``_x`` defined in a module ``M`` (a constant, function, class) is
      private to ``M``'s unit: ``_LOG_2PI`` of ``estimators.scores._gaussian_cmi`` may be
      imported inside ``estimators.scores`` only, ``_x`` of
      ``estimators.template.joint_likelihood`` inside ``estimators.template`` only.

    Dunder names (``__version__``) are public.

(While issue 27's statistics layer was unfinished, a list of its remaining violations, all
of them arcs to or from ``estimators.distributed``, was carried here and checked to shrink;
it emptied and was deleted.)
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]



@dataclass(frozen=True)
class Import:
    """One thing a module imports: ``target`` is a dotted name (a module or module.name)."""

    importer: str
    target: str
    line: int


def module_index(package: Path, name: str) -> dict[str, Path]:
    """Dotted module name -> source file, for every module under ``package``."""
    index = {}
    for path in sorted(package.rglob("*.py")):
        parts = [name, *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        index[".".join(parts)] = path
    return index


def is_package(modules: dict[str, Path], name: str) -> bool:
    return name in modules and modules[name].name == "__init__.py"


def type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside the body of an ``if TYPE_CHECKING:`` (or
    ``typing.TYPE_CHECKING``) block: imports made for the type checker only."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
                (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
                or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")):
            found |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path],
               type_checking: bool = True) -> list[Import]:
    """Everything module ``name`` imports (anywhere in its body), with attribute accesses
    ``alias._x`` on an imported module counted as importing ``module._x``; with
    ``type_checking=False``, not what ``if TYPE_CHECKING:`` blocks import."""
    tree = ast.parse(path.read_text(), filename=str(path))
    skipped = set() if type_checking else type_checking_nodes(tree)
    package = name if is_package(modules, name) else name.rpartition(".")[0]
    found: list[Import] = []
    aliases: dict[str, str] = {}  # local name -> module it is bound to
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(name, alias.name, node.lineno))
                if alias.asname:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                target = f"{source}.{alias.name}" if alias.name != "*" else source
                found.append(Import(name, target, node.lineno))
                if target in modules:
                    aliases[alias.asname or alias.name] = target
    for node in ast.walk(tree):
        if (id(node) not in skipped and isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            found.append(Import(name, f"{aliases[node.value.id]}.{node.attr}", node.lineno))
    return [imp for imp in found if imp.target.split(".")[0] == "estimators"]


def module_of(target: str, modules: dict[str, Path]) -> str:
    """The module a dotted import target lives in (itself when it is a module)."""
    while target not in modules:
        target = target.rpartition(".")[0]
    return target


def unit(module: str) -> str:
    """The subpackage (or top-level module) of ``estimators`` holding ``module``."""
    parts = module.split(".")
    return ".".join(parts[:2])


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def private_violation(imp: Import, modules: dict[str, Path]) -> bool:
    """Whether ``imp`` breaks rule (b) of the module docstring."""
    parts = imp.target.split(".")
    for i in range(1, len(parts)):
        head, part = ".".join(parts[:i]), parts[i]
        if not part.startswith("_") or part.startswith("__"):
            continue
        dotted = f"{head}.{part}"
        if dotted in modules:  # a private module (or package): private to its package
            if not inside(imp.importer, head):
                return True
        elif unit(imp.importer) != unit(module_of(head, modules)):  # a private name
            return True
    return False


def import_graph(modules: dict[str, Path], imports: list[Import]) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for imp in imports:
        target = module_of(imp.target, modules)
        parts = target.split(".")
        for i in range(2, len(parts) + 1):  # the packages on the way run their __init__
            dotted = ".".join(parts[:i])
            if dotted != imp.importer:
                graph.add_edge(imp.importer, dotted)
    return graph


def violations(package: Path, name: str) -> tuple[set, list[str]]:
    """The violations of rules (a) and (b) as triples -- ``("cycle", importer, imported)``
    for an arc between units on a cycle, ``("private", importer, dotted name)`` -- and
    readable lines."""
    modules = module_index(package, name)
    imports = [imp for mod, path in modules.items() for imp in imports_of(mod, path, modules)]
    found, lines = set(), []
    graph = import_graph(modules, imports)
    for component in nx.strongly_connected_components(graph):
        units = sorted({unit(m) for m in component})
        if len(units) < 2:
            continue
        arcs = sorted((a, b) for a, b in graph.subgraph(component).edges
                      if unit(a) != unit(b))
        found |= {("cycle", a, b) for a, b in arcs}
        lines.append(f"import cycle of {len(component)} modules through {units}; arcs "
                     f"between units: " + ", ".join(f"{a} -> {b}" for a, b in arcs))
    for imp in imports:
        if private_violation(imp, modules):
            found.add(("private", imp.importer, imp.target))
            lines.append(f"{imp.importer}:{imp.line} imports the private {imp.target}")
    return found, lines


def package_graph(package: Path, name: str) -> nx.DiGraph:
    """The package-level import graph (issue 47): one vertex per unit (a subpackage of
    ``estimators``, or a loose module directly in it), an arc A -> B when a module of A
    imports anything of B, at module level or inside a function, ``TYPE_CHECKING`` blocks
    left out. Each arc's ``why`` lists the imports behind it (``importer:line -> target``)."""
    modules = module_index(package, name)
    graph = nx.DiGraph()
    graph.add_nodes_from({unit(m) for m in modules if m != name})
    for mod, path in modules.items():
        for imp in imports_of(mod, path, modules, type_checking=False):
            a, b = unit(imp.importer), unit(module_of(imp.target, modules))
            if a != b and b != name:
                graph.add_edge(a, b)
                graph.edges[a, b].setdefault("why", []).append(
                    f"{imp.importer}:{imp.line} -> {imp.target}")
    return graph


def package_cycles(graph: nx.DiGraph) -> list[str]:
    """One readable line per strongly connected component of two or more units, with the
    imports behind its arcs."""
    lines = []
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            arcs = sorted(graph.subgraph(component).edges(data="why"))
            lines.append(f"package cycle through {sorted(component)}:\n" + "\n".join(
                f"  {a} -> {b}: " + "; ".join(why) for a, b, why in arcs))
    return lines


def test_estimators_subpackages_are_acyclic():
    """Issue 47: the floors of DESIGN.md ("estimators, floor by floor") -- no package
    imports another that imports it back, even through other packages."""
    lines = package_cycles(package_graph(ROOT / "estimators", "estimators"))
    assert not lines, "\n".join(lines)


def test_bnc_does_not_import_ktan():
    """Issue 47: the families stand side by side; what both use lives below them."""
    graph = package_graph(ROOT / "estimators", "estimators")
    assert not graph.has_edge("estimators.bnc", "estimators.ktan"), \
        "; ".join(graph.edges["estimators.bnc", "estimators.ktan"]["why"])


@pytest.mark.parametrize(("files", "expected", "cyclic"), [
    # no module cycle, but a package cycle: a.m -> b.n and b.p -> a.q
    ({"a/__init__.py": "", "a/m.py": "from estimators.b.n import g\n", "a/q.py": "h = 1\n",
      "b/__init__.py": "", "b/n.py": "g = 1\n",
      "b/p.py": "def f():\n    from estimators.a.q import h\n"},
     {("estimators.a", "estimators.b"), ("estimators.b", "estimators.a")}, True),
    # an import for the type checker only is no arc; a loose module is its own unit
    ({"a/__init__.py": "", "a/m.py": "from estimators.b.n import g\nfrom estimators import t\n",
      "b/__init__.py": "", "t.py": "",
      "b/n.py": "from typing import TYPE_CHECKING\ng = 1\nif TYPE_CHECKING:\n"
                "    from estimators.a.m import x\n"},
     {("estimators.a", "estimators.b"), ("estimators.a", "estimators.t")}, False),
])
def test_the_package_graph(tmp_path, files, expected, cyclic):
    package = write(tmp_path / "estimators", {"__init__.py": "", **files})
    graph = package_graph(package, "estimators")
    assert set(graph.edges) == expected
    assert bool(package_cycles(graph)) == cyclic


def test_estimators_has_no_cross_subpackage_cycle_or_private_import():
    found, lines = violations(ROOT / "estimators", "estimators")
    assert not found, "\n".join(lines)


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.mark.parametrize(("files", "expected"), [
    # a cycle through a deferred import, across two subpackages
    ({"a/__init__.py": "", "a/m.py": "from estimators.b.n import g\n",
      "b/__init__.py": "", "b/n.py": "def g():\n    from estimators.a import m\n"},
     {("cycle", "estimators.a.m", "estimators.b.n"),
      ("cycle", "estimators.b.n", "estimators.a.m")}),
    # the same pair of modules inside one subpackage is no violation
    ({"a/__init__.py": "", "a/m.py": "from .n import g\n",
      "a/n.py": "def g():\n    from . import m\n"}, set()),
    # importing a submodule runs its package's __init__, which closes the cycle
    ({"a/__init__.py": "from .m import f\n", "a/m.py": "def f(): pass\n",
      "b/__init__.py": "", "b/n.py": "from estimators.a.m import f\n",
      "a/p.py": "import estimators.b.n\n"}, set()),
    ({"a/__init__.py": "from .p import h\n", "a/m.py": "def f(): pass\n",
      "a/p.py": "from estimators.b.n import g\nh = 1\n",
      "b/__init__.py": "", "b/n.py": "from estimators.a.m import f\ng = 1\n"},
     {("cycle", "estimators.a.p", "estimators.b.n"), ("cycle", "estimators.b.n", "estimators.a")}),
    # private names and modules across subpackages; top-level private modules are shared
    ({"a/__init__.py": "", "a/_m.py": "_X = 1\nY = 2\n",
      "b/__init__.py": "", "b/n.py": "from estimators.a._m import Y\nfrom ..a import _m\n"
                                     "from estimators._t import T\nfrom estimators._t import _U\n",
      "a/q.py": "from ._m import _X\nimport estimators.a._m as mm\nZ = mm._X\n",
      "_t.py": "T = 1\n_U = 2\n",
      "c.py": "import estimators.a.q as q\nW = q._hidden\nV = q.__doc__\n"},
     {("private", "estimators.b.n", "estimators.a._m.Y"),
      ("private", "estimators.b.n", "estimators.a._m"),
      ("private", "estimators.b.n", "estimators._t._U"),
      ("private", "estimators.c", "estimators.a.q._hidden")}),
])
def test_the_checker_finds_cycles_and_private_imports(tmp_path, files, expected):
    package = write(tmp_path / "estimators", {"__init__.py": "", **files})
    assert violations(package, "estimators")[0] == expected


def partition_tests(package: Path) -> list[str]:
    """The modules under ``package`` that call ``isinstance(x, Partitions)`` (alone or in a
    tuple)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "isinstance" and len(node.args) == 2):
                kinds = node.args[1]
                names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
                if any(isinstance(n, ast.Name) and n.id == "Partitions" for n in names):
                    found.append(str(path.relative_to(package.parent)))
                    break
    return found


def test_the_engine_is_chosen_in_at_most_two_files():
    """Issue 47: the choice between rows in memory and partitions is made once
    (``estimators.stats.engine``; the template refuses partitions for the families without a
    partition fit), not by ``isinstance`` in families or scores."""
    found = partition_tests(ROOT / "estimators")
    assert len(found) <= 2, found


def test_partition_tests_are_found(tmp_path):
    package = write(tmp_path / "estimators", {
        "a.py": "def f(X):\n    return isinstance(X, Partitions)\n",
        "b.py": "def f(X):\n    return isinstance(X, (int, Partitions))\n",
        "c.py": "def f(X):\n    return isinstance(X, Partition)\n"})
    assert partition_tests(package) == ["estimators/a.py", "estimators/b.py"]


#: the modules allowed directly in ``estimators/`` besides ``__init__`` (issue 47, "loose
#: modules find a floor"): ``testing`` fits classifiers of the families (its conformance
#: checks run a score inside k-GNB and k-TAN), so no floor below the top can hold it; the
#: others are the public paths the user guide and tutorials write, each a facade that only
#: re-exports a module of the learning floor.
TOP_LEVEL_MODULES = {"testing": None,
                     "confidence": "estimators.learning.structure_confidence",
                     "plugins": "estimators.learning.plugin_registry",
                     "baselines": "estimators.learning.baseline_classifiers"}


def facade_of(path: Path) -> str | None:
    """The one module that ``path`` re-exports, when its body is a docstring, ``from M
    import ...`` lines of one module ``M`` and ``__all__`` alone (else None)."""
    sources = set()
    for node in ast.parse(path.read_text(), filename=str(path)).body:
        if isinstance(node, ast.ImportFrom) and not node.level:
            sources.add(node.module)
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                  or isinstance(node, ast.Assign)
                  and [getattr(t, "id", None) for t in node.targets] == ["__all__"]):
            return None
    return sources.pop() if len(sources) == 1 else None


def loose_modules(package: Path) -> dict[str, str | None]:
    """The modules directly in ``package`` (``__init__`` aside), each with what it
    re-exports (None: a module with code of its own)."""
    return {path.stem: facade_of(path) for path in sorted(package.glob("*.py"))
            if path.stem != "__init__"}


def test_no_loose_module_in_estimators():
    """Issue 47: every module of ``estimators`` lives on a floor (a subpackage), but the
    conformance kit and the documented public paths, which only re-export their floor's
    module (and re-export it whole: the same ``__all__``)."""
    import importlib

    found = loose_modules(ROOT / "estimators")
    assert found == TOP_LEVEL_MODULES
    for name, home in found.items():
        if home is not None:
            facade, module = (importlib.import_module(m) for m in (f"estimators.{name}", home))
            assert sorted(facade.__all__) == sorted(module.__all__)
            assert all(getattr(facade, n) is getattr(module, n) for n in module.__all__)


def test_loose_modules_are_found(tmp_path):
    package = write(tmp_path / "estimators", {
        "__init__.py": "", "sub/__init__.py": "", "sub/m.py": "x = 1\n",
        "a.py": '"""doc."""\n\nfrom estimators.sub.m import x\n\n__all__ = ["x"]\n',
        "b.py": "from estimators.sub.m import x\ny = x + 1\n",
        "c.py": "from estimators.sub.m import x\nfrom estimators.sub import m\n",
        "_d.py": "def f():\n    pass\n"})
    assert loose_modules(package) == {"a": "estimators.sub.m", "b": None, "c": None,
                                      "_d": None}


def test_file_names_do_not_repeat_across_folders():
    """Issue 47: a file name says what the file holds without its folder, so no two modules
    of ``estimators`` share one (``__init__`` aside)."""
    from collections import Counter

    names = Counter(path.name for path in (ROOT / "estimators").rglob("*.py")
                    if path.name != "__init__.py")
    assert [name for name, count in names.items() if count > 1] == []
