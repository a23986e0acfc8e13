"""The API reference pages, written from each public package's ``__all__`` at build time so
that a new public name gets its page without anyone editing the docs."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
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


def public_names(package: str) -> list[str]:
    """The names of ``package.__all__``, sorted."""
    return sorted(importlib.import_module(package).__all__)


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
    packages = public_packages()
    tops = [p for p in packages if "." not in p]
    homes = _homes([p for p in packages if "." in p] + tops)
    index = ["API reference", "=============", "",
             "Every name in the ``__all__`` of ``kgraph``, ``estimators`` (and its "
             "subpackages) and ``viz``, from its numpydoc docstring.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    index += [f"   {package}" for package in packages]
    pages = {"index": "\n".join(index) + "\n"}
    pages.update({package: _page(package, homes) for package in packages})
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
    """One page per ``benchmarks/results/*.md`` in ``folder``, each including its file."""
    folder.mkdir(exist_ok=True)
    for path in sorted(results.glob("*.md")):
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
