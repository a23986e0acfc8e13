"""The ``kgraph`` command line: one entry point with sub-commands.

It sits on top of all three packages (it learns with :mod:`estimators`, draws with
:mod:`viz`, and saves :mod:`kgraph` structures), which is why it lives in the top layer.
Bad arguments exit with status 2 and a one-line reason.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import kgraph
from viz.cli import commands, compare, learn, runs


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit status 2)."""

    def error(self, message: str) -> None:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``kgraph`` command."""
    parser = _Parser(
        prog="kgraph",
        description="Learn, export and draw the graph structure of Naive-Bayes-family classifiers.",
    )
    parser.add_argument("--version", action="version", version=f"kgraph {kgraph.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in [*commands.REGISTER, learn.register, compare.register, runs.register]:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kgraph`` command; return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command line, for reports
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except commands.CommandError as exc:
        print(f"kgraph {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
