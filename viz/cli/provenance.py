"""What a methods section needs to reproduce a ``kgraph learn`` run: the command line, the
kgraph version and the data's SHA-256 (of the CSV file's bytes; of the table for a
built-in data set, which has no file)."""

from __future__ import annotations

import argparse
import hashlib
import shlex
from pathlib import Path

__all__ = ["provenance", "provenance_lines"]


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def provenance(args: argparse.Namespace, X, y) -> dict[str, str]:
    """``command``, ``kgraph_version``, ``data_sha256`` and what was hashed
    (``data_sha256_of``) for ``args`` (``args.argv``: the arguments ``kgraph`` was given).

    Examples
    --------
    >>> import argparse, pandas as pd
    >>> args = argparse.Namespace(argv=["learn", "wine", "--out", "my dir"], data="wine")
    >>> p = provenance(args, pd.DataFrame({"a": [1, 2]}), pd.Series([0, 1]))
    >>> p["command"], p["data_sha256_of"], len(p["data_sha256"])
    ("kgraph learn wine --out 'my dir'", 'the table (a built-in data set)', 64)
    """
    import kgraph

    path = Path(args.data)
    if path.is_file():
        digest, of = _file_sha256(path), f"the file {path.name}"
    else:  # a built-in data set: the values, column names and dtypes of the table
        import pandas as pd
        from pandas.util import hash_pandas_object

        h = hashlib.sha256(repr([*map(str, X.columns), str(y.name)]).encode())
        h.update(hash_pandas_object(pd.concat([X, y], axis=1), index=False).to_numpy().tobytes())
        digest, of = h.hexdigest(), "the table (a built-in data set)"
    argv = getattr(args, "argv", None)
    command = "kgraph " + shlex.join(argv) if argv is not None else "(not run from kgraph)"
    return {"command": command, "kgraph_version": kgraph.__version__, "data_sha256": digest,
            "data_sha256_of": of}


def provenance_lines(p: dict[str, str]) -> list[str]:
    """The report's lines for :func:`provenance`."""
    return [f"- command: `{p['command']}`",
            f"- kgraph version: {p['kgraph_version']}",
            f"- data SHA-256 ({p['data_sha256_of']}): `{p['data_sha256']}`"]
