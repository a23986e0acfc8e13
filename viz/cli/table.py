"""A researcher's CSV as ``kgraph learn`` reads it: encoding, separator and decimal mark,
column names, rows without a label, a table without features, identifier columns.

- The encoding is ``--encoding``, else UTF-8 (a byte-order mark is skipped); a file that is
  not UTF-8 is read as cp1252 (what Excel and LibreOffice write in Western Europe; every
  byte decodes), with one warning naming the encoding used.
- Column names must be distinct: a header naming a column twice is refused in one line
  naming it (pandas would rename the second ``f1.1``, a name the user never wrote, in the
  figure, the report and the exports).
- The separator is ``--sep`` or detected from the first lines (``,``, ``;``, tab, ``|``);
  with a separator other than ``,``, cells such as ``3,25`` (and none such as ``3.25``)
  mean a decimal comma. ``--decimal`` overrides. The report says which were used.
- Rows whose target cell is empty cannot be learned from: they are dropped (one line says
  how many) before the folds are made.
- A table with no column besides the target is an error saying so.
- A string column holding a distinct value in every row is an identifier, not a feature:
  one category per row can only overfit. It is left out with one warning naming it,
  unless ``--feature-types`` names it.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from viz.cli.commands import CommandError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TableNotes", "decimal_option", "detect_format", "prepare", "read_csv",
           "sep_option"]

#: the separators the detection chooses from
SEPARATORS = (",", ";", "\t", "|")
_COMMA_NUMBER = re.compile(r"^\s*[+-]?\d+,\d+\s*$")
_POINT_NUMBER = re.compile(r"^\s*[+-]?\d*\.\d+\s*$")
_NAMES = {",": "','", ";": "';'", "\t": "tab", "|": "'|'"}
#: the encoding tried when a file is not UTF-8 (and no --encoding is given)
FALLBACK_ENCODING = "cp1252"


@dataclass
class TableNotes:
    """What reading and preparing the table did, for the terminal and ``report.md``."""

    sep: str | None = None
    sep_detected: bool = False
    encoding: str = "utf-8"
    encoding_detected: bool = False
    decimal: str = "."
    decimal_detected: bool = False
    unlabelled: int = 0
    identifiers: list[str] = field(default_factory=list)

    def report_lines(self, target: str) -> list[str]:
        """The ``## Reading the table`` section of ``report.md``."""
        lines = ["", "## Reading the table", ""]
        if self.encoding != "utf-8":
            how = "the file is not UTF-8" if self.encoding_detected else "given with --encoding"
            lines.append(f"- encoding {self.encoding} ({how})")
        if self.sep is not None:
            how = "detected" if self.sep_detected else "given with --sep"
            mark = "detected" if self.decimal_detected else (
                "default" if self.decimal == "." else "given with --decimal")
            lines.append(f"- separator {_NAMES.get(self.sep, repr(self.sep))} ({how}), decimal "
                         f"mark {self.decimal!r} ({mark})")
        lines.append(f"- rows without a value in the target column {target!r}: "
                     f"{self.unlabelled} (dropped before the folds)")
        if self.identifiers:
            lines.append(f"- identifier columns left out (a distinct string in every row; "
                         f"keep one with --feature-types NAME=categorical): "
                         f"{', '.join(self.identifiers)}")
        else:
            lines.append("- identifier columns left out: none")
        return [*lines, ""]


def sep_option(text: str) -> str:
    r"""``--sep``: one character; ``tab`` or ``\t`` for a tab.

    Examples
    --------
    >>> sep_option(";"), sep_option("tab"), sep_option(r"\t")
    (';', '\t', '\t')
    >>> sep_option(";;")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected one character (or tab) as the separator, got ';;'
    """
    if text in ("tab", "\\t"):
        return "\t"
    if len(text) != 1:
        raise argparse.ArgumentTypeError(
            f"expected one character (or tab) as the separator, got {text!r}")
    return text


def decimal_option(text: str) -> str:
    """``--decimal``: ``.`` or ``,``.

    Examples
    --------
    >>> decimal_option(",")
    ','
    >>> decimal_option(";")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected . or , as the decimal mark, got ';'
    """
    if text not in (".", ","):
        raise argparse.ArgumentTypeError(f"expected . or , as the decimal mark, got {text!r}")
    return text


def detect_format(sample: str) -> tuple[str, str]:
    """``(separator, decimal mark)`` of the CSV text ``sample`` (its first lines).

    The separator is the one of :data:`SEPARATORS` that :class:`csv.Sniffer` finds (a
    character as frequent on every line, quoted cells aside); ``,`` when it finds none.
    With another separator a decimal comma is read when some cells look like ``3,25`` and
    none like ``3.25``.

    Examples
    --------
    >>> detect_format("a;b;class\\n1,5;2;x\\n2,25;3;y\\n")
    (';', ',')
    >>> detect_format("a,b,class\\n1.5,2,x\\n")
    (',', '.')
    """
    lines = sample.splitlines()
    if len(lines) > 1 and not sample.endswith(("\n", "\r")):
        lines.pop()  # the sample ends inside a line (a wide table): its fields are cut short
    lines = [line for line in lines if line.strip()][:50]
    try:
        sep = csv.Sniffer().sniff("\n".join(lines), delimiters="".join(SEPARATORS)).delimiter
    except csv.Error:  # no separator found: one column, or no text
        sep = ","
    return sep, _decimal_for(sample, sep)


def read_csv(path: Path, sep: str | None = None, decimal: str | None = None,
             encoding: str | None = None) -> tuple[pd.DataFrame, TableNotes]:
    """A CSV file as a DataFrame with its encoding, separator and decimal mark given or
    detected: strings stay strings ("NA" is a category), empty cells become NaN (missing),
    a column of whole numbers with empty cells stays integers (pandas ``Int64``, not floats:
    its categories are ``0``, ``1`` as in the file, not ``0.0``, ``1.0``); a header naming
    a column twice and every reading problem is a one-line CommandError.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "t.csv"
    >>> _ = path.write_bytes("colour;x;class\\nété;1,5;oui\\nbleu;2,25;non\\n".encode("cp1252"))
    >>> frame, notes = read_csv(path)  # one warning on stderr: not UTF-8, read as cp1252
    >>> frame["colour"].tolist(), frame["x"].tolist(), notes.encoding, notes.sep, notes.decimal
    (['été', 'bleu'], [1.5, 2.25], 'cp1252', ';', ',')
    >>> _ = path.write_bytes("f1,f1,class\\n1,2,a\\n".encode())
    >>> read_csv(path)
    Traceback (most recent call last):
    ...
    viz.cli.commands.CommandError: ...t.csv names the column 'f1' twice (columns 1 and 2): ...
    """
    import pandas as pd

    notes = TableNotes()
    try:
        raw = path.read_bytes()
        notes.encoding, notes.encoding_detected = _encoding(raw, encoding, path)
        sample = raw[:64 * 1024].decode(notes.encoding, errors="replace")
        notes.sep, notes.sep_detected = (sep, False) if sep else (detect_format(sample)[0], True)
        if decimal:
            notes.decimal = decimal
        else:
            notes.decimal = _decimal_for(sample, notes.sep)
            notes.decimal_detected = notes.decimal != "."
        _check_header(sample, notes.sep, path)
        options = {"sep": notes.sep, "decimal": notes.decimal, "keep_default_na": False,
                   "na_values": [""], "encoding": _python_encoding(notes.encoding)}
        frame = _integers_kept(pd.read_csv(path, **options), path, options)
    except (OSError, UnicodeDecodeError, LookupError, pd.errors.ParserError,
            pd.errors.EmptyDataError) as exc:
        raise CommandError(f"cannot read {path} as CSV: {str(exc).splitlines()[0]}") from exc
    return frame, notes


def _encoding(raw: bytes, given: str | None, path: Path) -> tuple[str, bool]:
    """``(encoding, detected)``: ``given``, else UTF-8 when the bytes decode as UTF-8,
    else :data:`FALLBACK_ENCODING` with one warning on stderr."""
    if b"\x00" in raw[:64 * 1024]:
        raise CommandError(f"cannot read {path} as CSV: it is not a text file (it holds NUL "
                           "bytes); export the table as CSV")
    if given:
        raw.decode(_python_encoding(given))  # an unknown name or bytes it cannot decode
        return given, False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        print(f"warning: {path} is not UTF-8 (byte {raw[exc.start]:#04x} at position "
              f"{exc.start}); read as {FALLBACK_ENCODING} (Windows Western European); give "
              "--encoding to choose another", file=sys.stderr)
        return FALLBACK_ENCODING, True
    return "utf-8", False


def _python_encoding(name: str) -> str:
    """The codec that reads ``name``: ``utf-8-sig`` for UTF-8, so a byte-order mark (as
    Excel writes "CSV UTF-8") does not become part of the first column's name."""
    return "utf-8-sig" if name.lower().replace("_", "-") in ("utf-8", "utf8") else name


def _check_header(sample: str, sep: str, path: Path) -> None:
    """Refuse a header that names a column twice (pandas would rename the second one)."""
    header = next(csv.reader(sample.lstrip("\ufeff").splitlines()[:1], delimiter=sep), [])
    names = [name.strip() for name in header]
    twice = [name for i, name in enumerate(names) if name in names[:i]]
    if twice:
        name = twice[0]
        where = [str(i + 1) for i, other in enumerate(names) if other == name]
        more = f" (and {len(set(twice)) - 1} more)" if len(set(twice)) > 1 else ""
        raise CommandError(
            f"{path} names the column {name!r} "
            f"{'twice' if len(where) == 2 else f'{len(where)} times'} (columns "
            f"{' and '.join(where)}){more}: rename them in the header so that the figure, "
            "the report and the exports name each column as you do")


def _integers_kept(frame: pd.DataFrame, path: Path, options: dict) -> pd.DataFrame:
    """The float columns that pandas made of integers because of empty cells, back as
    ``Int64``: those whose every filled cell is written as an integer in the file (read
    again as text, those columns only)."""
    import numpy as np
    import pandas as pd

    floats = [c for c in frame.columns if frame[c].dtype == np.float64
              and frame[c].isna().any() and frame[c].notna().any()]
    whole = [c for c in floats if np.all(np.mod(frame[c].dropna().to_numpy(), 1) == 0)]
    if not whole:
        return frame
    text = pd.read_csv(path, usecols=whole, dtype=str, **options)
    for c in whole:
        if text[c].dropna().str.strip().str.fullmatch(r"[+-]?\d+").all():
            frame[c] = frame[c].astype("Int64")
    return frame


def _decimal_for(sample: str, sep: str) -> str:
    """The decimal mark of ``sample`` read with the separator ``sep``: ``,`` when the
    separator is not ``,`` and some cells look like ``3,25`` and none like ``3.25``."""
    if sep == ",":
        return "."
    lines = [line for line in sample.splitlines() if line.strip()][1:50]
    cells = [cell for row in csv.reader(lines, delimiter=sep) for cell in row]
    comma = any(_COMMA_NUMBER.match(c) for c in cells)
    return "," if comma and not any(_POINT_NUMBER.match(c) for c in cells) else "."


def prepare(frame: pd.DataFrame, target: str, source: str, keep: set[str],
            notes: TableNotes | None = None) -> tuple[pd.DataFrame, pd.Series, TableNotes]:
    """``(X, y, notes)`` of a table: the target split off, unlabelled rows dropped and
    identifier columns left out (unless named in ``keep``); one stderr line for each.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"id": ["a1", "b2", "c3", "d4"], "x": [1.0, 2.0, 3.0, 4.0],
    ...                       "class": ["u", None, "v", "u"]})
    >>> X, y, notes = prepare(frame, "class", "t.csv", keep=set())
    >>> list(X.columns), y.tolist(), notes.unlabelled, notes.identifiers
    (['x'], ['u', 'v', 'u'], 1, ['id'])
    """
    notes = notes or TableNotes()
    if target not in frame.columns:
        raise CommandError(f"{source} has no target column {target!r}; its columns are "
                           f"{list(frame.columns)} (choose one with --target)")
    if frame.shape[1] < 2:
        raise CommandError(f"{source} has no feature column besides the target {target!r}: "
                           "a classifier needs at least one feature")
    y = frame[target]
    blank = y.isna() | (y.map(lambda v: isinstance(v, str) and not v.strip())).astype(bool)
    notes.unlabelled = int(blank.sum())
    if notes.unlabelled:
        print(f"  dropped {notes.unlabelled} of {len(frame)} rows: no value in the target "
              f"column {target!r}", file=sys.stderr)
        frame = frame[~blank].reset_index(drop=True)
        y = frame[target]
    X = frame.drop(columns=[target])
    notes.identifiers = [c for c in X.columns if c not in keep and _identifier(X[c])]
    if notes.identifiers:
        names = ", ".join(repr(c) for c in notes.identifiers)
        print(f"warning: left out {names}: a distinct string in every row is an identifier, "
              f"not a feature (keep it with --feature-types {notes.identifiers[0]}=categorical)",
              file=sys.stderr)
        X = X.drop(columns=notes.identifiers)
        if X.shape[1] == 0:
            raise CommandError(f"{source} has no feature column besides the target {target!r} "
                               f"and the identifier column(s) {names}; keep one with "
                               "--feature-types NAME=categorical")
    return X, y, notes


def _identifier(column: pd.Series) -> bool:
    """A string column with a distinct non-empty value in every row (at least 3 rows)."""
    import pandas as pd

    if len(column) < 3 or pd.api.types.is_numeric_dtype(column.dtype) \
            or pd.api.types.is_bool_dtype(column.dtype) or column.isna().any():
        return False
    values = column.to_numpy(dtype=object)
    if not all(isinstance(v, str) and v.strip() for v in values):
        return False
    return column.nunique() == len(column)
