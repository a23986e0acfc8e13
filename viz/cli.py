"""The ``kgraph`` command line: one entry point with sub-commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import kgraph


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``kgraph`` command."""
    parser = argparse.ArgumentParser(
        prog="kgraph",
        description="Learn, export and draw the graph structure of Naive-Bayes-family classifiers.",
    )
    parser.add_argument("--version", action="version", version=f"kgraph {kgraph.__version__}")
    parser.add_subparsers(dest="command", metavar="COMMAND")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kgraph`` command; return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
