"""The API reference pages, written from each public package's ``__all__`` at build time so
that a new public name gets its page without anyone editing the docs."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import re
from pathlib import Path

TOP_PACKAGES = ("kgraph", "estimators", "viz")


def public_packages() -> list[str]:
    """``kgraph``, ``estimators`` and every subpackage of ``estimators`` that declares
    ``__all__``, and ``viz``: the modules whose ``__all__`` is the public API."""
    names = []
    for top in TOP_PACKAGES:
        names.append(top)
        module = importlib.import_module(top)
        for info in pkgutil.iter_modules(module.__path__, prefix=f"{top}."):
            if not info.ispkg or info.name.rsplit(".", 1)[1].startswith("_"):
                continue
            if top == "viz":  # the command line is documented by cli.rst
                continue
            sub = importlib.import_module(info.name)
            if getattr(sub, "__all__", None):
                names.append(info.name)
    return names


ROOT = Path(__file__).resolve().parents[1]
#: a dotted path into the three packages, as the README and the guide write one
_PATH = re.compile(r"(?:from\s+((?:kgraph|estimators|viz)(?:\.\w+)*)\s+import\s+(\([^)]*\)|[\w, ]+)"
                   r"|`((?:kgraph|estimators|viz)(?:\.\w+)+))")


def named_paths(root: Path = ROOT) -> set[str]:
    """Every dotted path into ``kgraph``, ``estimators`` or ``viz`` that ``README.md`` and
    the pages of ``docs/`` name: the modules of their ``from ... import`` lines and what
    those lines import, and every such path written in backquotes."""
    texts = [root / "README.md", *sorted((root / "docs").glob("*.md")),
             *sorted((root / "docs" / "user_guide").glob("*.md"))]
    found: set[str] = set()
    for path in texts:
        for match in _PATH.finditer(path.read_text()):
            if match.group(1):
                found.add(match.group(1))
                found |= {f"{match.group(1)}.{name.strip()}"
                          for name in match.group(2).strip("()").split(",") if name.strip()}
            else:
                found.add(match.group(3))
    return found


def module_of(path: str) -> str:
    """The longest prefix of the dotted ``path`` that imports as a module."""
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        try:
            importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        return ".".join(parts[:end])
    raise ImportError(path)


def _public_path(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split(".")) and not (
        name == "viz.cli" or name.startswith("viz.cli."))  # cli.rst documents the command


def public_modules(root: Path = ROOT) -> list[str]:
    """Every module with an API page: :func:`public_packages`, then every other public
    module or subpackage directly under a top package that declares ``__all__`` (such as
    ``estimators.testing`` and ``viz.compare``), then every module the README or the guide
    names (:func:`named_paths`), with or without ``__all__``."""
    packages = public_packages()
    extra: set[str] = set()
    for top in TOP_PACKAGES:
        for info in pkgutil.iter_modules(importlib.import_module(top).__path__,
                                         prefix=f"{top}."):
            if _public_path(info.name) and getattr(importlib.import_module(info.name),
                                                   "__all__", None):
                extra.add(info.name)
    extra |= {module_of(path) for path in named_paths(root)}
    return packages + sorted(m for m in extra - set(packages) if _public_path(m))


def public_names(package: str) -> list[str]:
    """The names of ``package.__all__``, sorted (none for a module without one)."""
    return sorted(getattr(importlib.import_module(package), "__all__", None) or [])


def object_homes() -> dict[int, str]:
    """``id(object) -> the full name of its API page``, as :func:`write_api_pages` assigns
    them."""
    packages = public_packages()
    tops = [p for p in packages if "." not in p]
    return _homes([p for p in packages if "." in p] + tops + public_modules()[len(packages):])


def _homes(packages: list[str]) -> dict[int, str]:
    """Each public object's home: the first package in ``packages`` whose ``__all__`` holds
    it (subpackages come before the package that re-exports them)."""
    homes: dict[int, str] = {}
    for package in packages:
        module = importlib.import_module(package)
        for name in public_names(package):
            homes.setdefault(id(getattr(module, name)), f"{package}.{name}")
    return homes


def _page(package: str, homes: dict[int, str]) -> str:
    """The page of ``package``: its docstring, its own public names (each with a page of its
    own), and the names it re-exports, linked to their pages in the subpackages."""
    module = importlib.import_module(package)
    own, relayed = [], []
    for name in public_names(package):
        home = homes[id(getattr(module, name))]
        (own if home == f"{package}.{name}" else relayed).append((name, home))
    title = f"``{package}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {package}", "   :no-members:", "",
             f".. currentmodule:: {package}", ""]
    if not hasattr(module, "__all__"):
        lines += ["A namespace of modules; it declares no public names of its own.", ""]
    if own:
        lines += [".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
        lines += [f"   {name}" for name, _ in own] + [""]
    if relayed:
        lines += ["Also importable from here (documented in their subpackages):", ""]
        lines += [f"- :py:obj:`{name} <{home}>`" for name, home in relayed] + [""]
    return "\n".join(lines)


def write_api_pages(folder: Path) -> None:
    """Write ``index.rst`` and one page per public package into ``folder`` (only files
    whose text changed are rewritten, so incremental builds stay incremental)."""
    folder.mkdir(exist_ok=True)
    modules = public_modules()
    homes = object_homes()
    index = ["API reference", "=============", "",
             "Every name in the ``__all__`` of ``kgraph``, ``estimators`` and ``viz``, of their "
             "subpackages and public modules, from its numpydoc docstring; each name has its "
             "page once, where it is defined for users, and the other modules that export "
             "it link there.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    index += [f"   {module}" for module in modules]
    pages = {"index": "\n".join(index) + "\n"}
    pages.update({module: _page(module, homes) for module in modules})
    for name, text in pages.items():
        path = folder / f"{name}.rst"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    # autosummary's stubs of names no longer documented on their own page would be orphans
    stubs = set(homes.values())
    for stub in (folder / "generated").glob("*.rst"):
        if stub.stem.rsplit(".", 1)[0] in stubs or stub.stem in stubs:
            continue
        stub.unlink()


def write_benchmark_pages(results: Path, folder: Path) -> None:
    """One page per full ``benchmarks/results/*.md`` in ``folder``, each including its file.
    The ``*_quick*`` files are left out: they are the small runs CI reruns and compares number
    for number, not results to read (a quick page left by an earlier build is removed)."""
    folder.mkdir(exist_ok=True)
    for page in folder.glob("*_quick*.md"):
        page.unlink()
    for path in sorted(results.glob("*.md")):
        if "_quick" in path.stem:
            continue
        text = f"```{{include}} ../../benchmarks/results/{path.name}\n:relative-images:\n```\n"
        page = folder / path.name
        if not page.exists() or page.read_text() != text:
            page.write_text(text)


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def write_cli_page(path: Path) -> None:
    """The command-line reference: the help of ``kgraph`` and of every sub-command (and
    theirs), exactly as ``--help`` prints it, taken from the argparse parsers."""
    from viz.cli import build_parser

    lines = ["Command-line reference", "======================", "",
             "Generated from the argparse parsers of ``kgraph`` when these pages were built: "
             "each block is what ``--help`` prints. Bad arguments exit with status 2 and a "
             "one-line reason.", ""]

    def add(parser: argparse.ArgumentParser, name: str, depth: int) -> None:
        if depth:
            title = f"``{name}``"
            lines.extend([title, "-~^"[depth - 1] * len(title), ""])
        text = parser.format_help()
        lines.extend([".. code-block:: text", ""])
        lines.extend(f"   {line}".rstrip() for line in text.splitlines())
        lines.append("")
        for sub, subparser in _subcommands(parser).items():
            add(subparser, f"{name} {sub}", depth + 1)

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps help text at the terminal's width
    try:
        add(build_parser(), "kgraph", 0)
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    text = "\n".join(lines) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def family_table() -> str:
    """The family table of the user guide, from the family registry
    (:mod:`estimators.template.family_registry`): each family's class, its ``kgraph learn
    --model`` name (none for a family the command line does not fit), what it is, and its
    model options (the flags of its declared parameters)."""
    from estimators.template.family_registry import families

    lines = ["| model | `kgraph learn --model` | what it is | model options |",
             "|---|---|---|---|"]
    for f in families():
        flags = ", ".join(f"`--{name.replace('_', '-')}`" for name in f.options)
        lines.append(f"| `{f.cls.__name__}` | {f'`{f.name}`' if f.command_line else ''} | "
                     f"{f.title} | {flags if f.command_line else ''} |")
    return "\n".join(lines) + "\n"


def write_family_table(path: Path) -> None:
    """Write :func:`family_table` to ``path`` (the page includes it), when it changed."""
    text = family_table()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
