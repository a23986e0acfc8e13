"""Compare a freshly written results file with the committed one, number by number.

A benchmark's ``--quick`` mode is rerun by the tests (``tests/benchmarks/test_quick_runs.py``)
and every file it writes is compared with the committed ``benchmarks/results/*_quick*`` file:
every number must match, except the numbers that measure the run itself (wall and CPU time,
speed, machine load, memory), which each step declares with a :class:`Varying`
(``benchmarks/__main__.py:STEPS``). Declared, not guessed: a column named "ratio" may be a
ratio of times (varying) or of likelihoods (not).

Rules:

* a ``.md`` file's first three lines (title, blank, provenance: commit, date, load) are
  skipped; the rest is read line by line; markdown tables are split into cells, each named by
  its column header; ``.csv`` files are one table; ``.json`` files are compared as their
  sorted, indented text; other files (figures) are not compared;
* in a table, a column whose header matches a pattern of ``Varying.columns`` is dropped, and
  so is every cell but the first of a row whose first cell matches ``Varying.rows``; in a line
  outside a table (and in every kept cell) the text matching a pattern of ``Varying.text`` is
  masked; the lines under a markdown heading that matches a pattern of ``Varying.sections``
  (up to the next heading) are skipped, the heading kept;
* what remains must be equal as text once numbers are taken out, and the numbers must be equal
  within one unit of the last printed digit of the less precise of the two (round-off of the
  formatting across BLAS builds) or within ``ARITHMETIC = 1e-12`` relative (a number printed
  to all its digits carries the last bits of the CPU's arithmetic), and two numbers below
  1e-12 in magnitude (rounding measured) are equal; numbers printed without a decimal point
  or an exponent (counts) must be equal; ``nan`` equals ``nan``;
* lines are aligned on their text without numbers (:mod:`difflib`), so a missing or an extra
  row is reported as such, not as a shift of every later row.

Examples
--------
>>> head = "# Title\\n\\nGenerated at commit 3c64cba, load average 1.1.\\n"
>>> table = "| model | accuracy | fit (s) |\\n|---|---|---|\\n| TAN | {} | {} |\\n"
>>> committed = head + table.format("0.9375", "0.19")
>>> fresh = head.replace("1.1", "7.5") + table.format("0.9376", "3.50")
>>> compare_text(committed, fresh, Varying(columns=(r"\\(s\\)",)), name="x.md")
[]
>>> for problem in compare_text(committed, fresh.replace("0.9376", "0.9390"), name="x.md"):
...     print(problem)
x.md: row 'TAN', column 'accuracy': committed 0.9375, fresh 0.9390
x.md: row 'TAN', column 'fit (s)': committed 0.19, fresh 3.50
>>> compare_text(head + "The run took 80 s; 3 folds.\\n", head + "The run took 95 s; 3 folds.\\n",
...              Varying(text=(r"took \\d+ s",)), name="y.md")
[]
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

#: a number as printed: optional minus sign (ASCII or U+2212), digits with an optional decimal
#: part, an optional exponent; not inside a word ("x86_64", "F1", "k2" hold no number), but a
#: unit may follow ("2851x", "80s")
NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.])(?:[-\u2212](?=[\d.]))?"
    r"(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|(?<![A-Za-z])(?:nan|NaN|inf)(?![A-Za-z]))")
#: a markdown table's separator line (``|---|:--:|``)
SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
#: lines of the provenance header of a ``.md`` results file (``benchmarks._common.header``)
HEADER_LINES = 3
MASK = "\u2026"


@dataclass(frozen=True)
class Varying:
    """What varies between two runs of the same code, as regular expressions
    (:func:`re.search`, case-insensitive).

    Parameters
    ----------
    columns : tuple of str
        Table columns (markdown header cells, CSV column names) whose values vary.
    rows : tuple of str
        Table rows (matched on their first cell) whose values vary.
    text : tuple of str
        Text that varies, masked wherever it matches (outside tables and inside kept cells).
    sections : tuple of str
        Markdown headings (without their ``#``) whose lines vary, up to the next heading
        (e.g. a table of times whose columns are model names).
    why : str
        Why these vary (for the reader of ``STEPS``).
    """

    columns: tuple[str, ...] = ()
    rows: tuple[str, ...] = ()
    text: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    why: str = ""

    def column(self, name: str) -> bool:
        return any(re.search(p, name, re.I) for p in self.columns)

    def row(self, label: str) -> bool:
        return any(re.search(p, label, re.I) for p in self.rows)

    def section(self, heading: str) -> bool:
        return any(re.search(p, heading, re.I) for p in self.sections)

    def mask(self, text: str) -> str:
        for p in self.text:
            text = re.sub(p, MASK, text, flags=re.I)
        return text


@dataclass
class Cell:
    """One compared piece of a line: its text with numbers replaced by ``#``, the numbers as
    printed, and where it is (for messages)."""

    skeleton: str
    numbers: list[str]
    where: str


@dataclass
class Line:
    cells: list[Cell] = field(default_factory=list)

    @property
    def skeleton(self) -> str:
        return "\x00".join(c.skeleton for c in self.cells)


def _cell(text: str, where: str, varying: Varying) -> Cell:
    text = varying.mask(text.strip())
    return Cell(NUMBER.sub("#", text), NUMBER.findall(text), where)


def _row(cells: list[str], columns: list[str], label_where: str, varying: Varying) -> Line:
    out = []
    dropped_row = varying.row(cells[0]) if cells else False
    for i, text in enumerate(cells):
        column = columns[i] if i < len(columns) else f"#{i + 1}"
        if varying.column(column) or (dropped_row and i > 0):
            text = MASK
        out.append(_cell(text, f"{label_where}, column '{column}'", varying))
    return Line(out)


def _split_row(line: str) -> list[str]:
    """The cells of a markdown table row; an escaped ``\\|`` (as in ``p(y \\| x)``) is text."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _markdown_lines(text: str, varying: Varying) -> list[Line]:
    lines = text.splitlines()[HEADER_LINES:]
    out, columns, section = [], None, ""
    for k, line in enumerate(lines):
        number = k + HEADER_LINES + 1
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif varying.section(section):
            continue
        is_row = line.lstrip().startswith("|")
        if is_row and columns is None and k + 1 < len(lines) and SEPARATOR.match(lines[k + 1]):
            columns = _split_row(line)
            out.append(Line([_cell(c, f"line {number}", Varying()) for c in columns]))
            continue
        if is_row and columns is not None:
            if SEPARATOR.match(line):
                continue
            cells = _split_row(line)
            label = " | ".join(cells[:2]) if NUMBER.fullmatch(cells[0]) else cells[0]
            where = f"row '{label}'" + (f" (section '{section}')" if section else "")
            out.append(_row(cells, columns, where, varying))
            continue
        columns = None
        if line.strip():
            out.append(Line([_cell(line, f"line {number} ('{line.strip()[:60]}')", varying)]))
    return out


def _csv_lines(text: str, varying: Varying) -> list[Line]:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return []
    columns = rows[0]
    out = [Line([_cell(c, "header", Varying()) for c in columns])]
    for i, cells in enumerate(rows[1:], start=2):
        label = ", ".join(c for c in cells[:3])
        out.append(_row(cells, columns, f"line {i} ({label})", varying))
    return out


def _json_lines(text: str, varying: Varying) -> list[Line]:
    pretty = json.dumps(json.loads(text), indent=1, sort_keys=True)
    return [Line([_cell(line, f"line {i} ('{line.strip()[:60]}')", varying)])
            for i, line in enumerate(pretty.splitlines(), start=1)]


#: how far two computations of the same number may be apart on two CPUs (numpy's SIMD
#: ``log`` on AVX-512, OpenBLAS's kernels: last bits), relative, and in magnitude for a
#: number that measures rounding itself (e.g. the largest difference of two predictions)
ARITHMETIC = 1e-12


def _unit(printed: str) -> float:
    """One unit of the last printed digit; 0 for a count (no decimal point, no exponent)."""
    mantissa, _, exponent = printed.lower().replace("\u2212", "-").partition("e")
    if "." not in mantissa and not exponent:
        return 0.0
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def _value(printed: str) -> float:
    return float(printed.replace("\u2212", "-"))


def numbers_equal(a: str, b: str) -> bool:
    """Two printed numbers are equal within one unit of the last printed digit of the less
    precise one (counts: exactly), or within :data:`ARITHMETIC` (the last bits of another
    CPU's arithmetic: a number printed to 16 digits, or a difference of two computations
    printed at the level of rounding, below ``ARITHMETIC`` in magnitude); ``nan`` equals
    ``nan``.

    >>> numbers_equal("0.9375", "0.9376"), numbers_equal("0.9375", "0.9377")
    (True, False)
    >>> numbers_equal("0.1", "0.0999"), numbers_equal("12", "13"), numbers_equal("nan", "NaN")
    (True, False, True)
    >>> numbers_equal("0.9616492287116709", "0.9616492287116711"), numbers_equal("1.7e-14", "1.4e-14")
    (True, True)
    >>> numbers_equal("1.7e-9", "1.4e-9")
    False
    """
    x, y = _value(a), _value(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    if max(abs(x), abs(y)) < ARITHMETIC and _unit(a) and _unit(b):
        return True
    return abs(x - y) <= max(max(_unit(a), _unit(b)) * (1 + 1e-9),
                             ARITHMETIC * max(abs(x), abs(y)))


def _compare_lines(a: Line, b: Line, name: str) -> list[str]:
    problems = []
    if len(a.cells) != len(b.cells):
        return [f"{name}: {a.cells[0].where}: {len(a.cells)} cells committed, "
                f"{len(b.cells)} fresh"]
    for ca, cb in zip(a.cells, b.cells, strict=True):
        if ca.skeleton != cb.skeleton:
            problems.append(f"{name}: {ca.where}: committed '{ca.skeleton}', "
                            f"fresh '{cb.skeleton}' (# stands for a number)")
            continue
        bad = [(x, y) for x, y in zip(ca.numbers, cb.numbers, strict=True) if not numbers_equal(x, y)]
        if bad:
            problems.append(f"{name}: {ca.where}: committed {', '.join(x for x, _ in bad)}, "
                            f"fresh {', '.join(y for _, y in bad)}")
    return problems


def _describe(line: Line) -> str:
    return " | ".join(c.skeleton for c in line.cells)[:120]


def compare_lines(committed: list[Line], fresh: list[Line], name: str) -> list[str]:
    """Align the two files' lines on their text without numbers, then compare the aligned
    lines; a line only in one file is reported as missing or extra."""
    problems = []
    matcher = difflib.SequenceMatcher(None, [x.skeleton for x in committed],
                                      [x.skeleton for x in fresh], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("equal", "replace") and i2 - i1 == j2 - j1:
            for a, b in zip(committed[i1:i2], fresh[j1:j2], strict=True):
                problems += _compare_lines(a, b, name)
            continue
        for a in committed[i1:i2]:
            problems.append(f"{name}: {a.cells[0].where}: missing from the fresh file "
                            f"('{_describe(a)}')")
        for b in fresh[j1:j2]:
            problems.append(f"{name}: {b.cells[0].where}: not in the committed file "
                            f"('{_describe(b)}')")
    return problems


READERS = {".md": _markdown_lines, ".csv": _csv_lines, ".json": _json_lines}


def compare_text(committed: str, fresh: str, varying: Varying = Varying(), *,
                 name: str = "file.md") -> list[str]:
    """The differences between two texts of results file ``name`` (its suffix picks the
    reader: ``.md``, ``.csv`` or ``.json``), one message per differing cell or line; empty
    when every number not declared ``varying`` matches.

    >>> compare_text("a,seconds\\n1.5,0.2\\n", "a,seconds\\n1.5,0.7\\n",
    ...              Varying(columns=("^seconds$",)), name="z.csv")
    []
    """
    read = READERS[Path(name).suffix]
    return compare_lines(read(committed, varying), read(fresh, varying), name)


def compare_files(committed: Path, fresh: Path, varying: Varying = Varying()) -> list[str]:
    """:func:`compare_text` of two files named alike; files of other kinds (figures) are not
    compared (an empty list), nor read."""
    if fresh.suffix not in READERS:
        return []
    if not committed.is_file():
        return [f"{committed.name}: no committed file {committed}"]
    return compare_text(committed.read_text(), fresh.read_text(), varying, name=fresh.name)
