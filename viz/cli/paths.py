"""Output paths checked before any work: a command that would compute for minutes and then
fail to write its results refuses its ``--out`` first, in one line (exit 2).

A folder (``kgraph learn --out``, ``kgraph compare --out``) may exist (its files are
replaced) or not (it is made after the work, with its parents); a file (``kgraph plot
--out``, ``kgraph export --out``) may exist (it is replaced) but must not be a folder. What
is checked is that the nearest existing folder on the way takes a new file: a file is
created and removed there, so a read-only file system or folder (for a user who is not
root) and a path running through a file are caught, not guessed from permission bits.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from viz.cli.commands import CommandError

__all__ = ["check_output_file", "check_output_folder"]


def check_output_folder(path: Path, option: str = "--out") -> None:
    """Refuse, in one line, an output folder that cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> where = Path(tempfile.mkdtemp())
    >>> check_output_folder(where / "new" / "run")  # made later, with its parents
    >>> (where / "file.txt").write_text("x")
    1
    >>> check_output_folder(where / "file.txt")
    Traceback (most recent call last):
    ...
    viz.cli.commands.CommandError: cannot write to --out .../file.txt: it is a file, not a folder
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise CommandError(f"cannot write to {option} {path}: it is a file, not a folder")
    _check_writable(path, option)


def check_output_file(path: Path, option: str = "--out") -> None:
    """Refuse, in one line, an output file that cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> where = Path(tempfile.mkdtemp())
    >>> check_output_file(where / "figure.pdf")
    >>> check_output_file(where)
    Traceback (most recent call last):
    ...
    viz.cli.commands.CommandError: cannot write to --out ...: it is a folder, not a file
    """
    path = Path(path)
    if path.is_dir():
        raise CommandError(f"cannot write to {option} {path}: it is a folder, not a file")
    _check_writable(path.parent, option, shown=path)


def _check_writable(folder: Path, option: str, shown: Path | None = None) -> None:
    """The nearest existing folder on the way to ``folder`` takes a new file."""
    shown = folder if shown is None else shown
    existing = folder.absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise CommandError(f"cannot write to {option} {shown}: {existing} is a file, not a "
                           "folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise CommandError(f"cannot write to {option} {shown}: {reason} ({existing})") from exc
