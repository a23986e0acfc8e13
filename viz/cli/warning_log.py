"""The warnings of one ``kgraph learn`` run: short on the terminal, whole in ``report.md``.

A model warns once per fit (each distinct warning once, :mod:`estimators.base.user_warnings`), but a
run fits it once per fold, once more on all rows and, with ``--bootstrap``, once per
resample; the same note then comes back many times with a different class list each time.
:class:`WarningLog` keeps every warning with where it was raised (``fold 3``, ``final fit``,
``bootstrap``); :meth:`WarningLog.terminal_lines` gives at most one line per kind (category
and the message's leading text) with how often it was raised, where, and the names it
involves (the quoted columns and classes, shortened); :meth:`WarningLog.report_lines` gives
the full list per fold for ``report.md``.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from collections.abc import Iterator

__all__ = ["WarningLog"]

#: a name quoted in a message: a column, a class label, a value
_QUOTED = re.compile(r"'([^']*)'")
#: where a message's variable part starts: a quote, a list, a number
_VARIABLE = re.compile(r"['\[\d]")
#: the longest leading text and the most names a terminal line shows; a message raised
#: alike everywhere is shown whole up to _WHOLE characters
_HEAD, _NAMES, _WHOLE = 120, 6, 200
#: the longest text of messages merged into one line (:func:`_merged`)
_MERGED = 160


def _name(category: type[Warning] | str) -> str:
    """A warning category's name (given as the class, or its name as stored in a run)."""
    return category if isinstance(category, str) else category.__name__


def _kind(category: type[Warning] | str, message: str) -> tuple[str, str]:
    """``(category name, leading text)``: messages differing only in the names and numbers
    they carry (one per fold) are one kind.

    Examples
    --------
    >>> _kind(UserWarning, "GNBClassifier: column(s) ['k'] of X are constant.")
    ('UserWarning', 'GNBClassifier: column(s)')
    """
    match = _VARIABLE.search(message)
    head = (message[:match.start()] if match else message).strip().rstrip(":,;(").strip()
    return _name(category), head or message[:_HEAD]


def _where(sources: list[str]) -> str:
    """``folds 1-3, 5, final fit``: the sources of a kind, fold numbers as ranges.

    Examples
    --------
    >>> _where(["fold 1", "fold 2", "fold 3", "fold 5", "final fit"])
    'folds 1-3, 5, final fit'
    """
    folds = sorted({int(s.split()[1]) for s in sources if s.startswith("fold ")})
    runs: list[list[int]] = []
    for f in folds:
        if runs and f == runs[-1][-1] + 1:
            runs[-1].append(f)
        else:
            runs.append([f])
    parts = [f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs]
    out = [f"fold{'s' if len(folds) > 1 else ''} {', '.join(parts)}"] if folds else []
    return ", ".join(out + list(dict.fromkeys(s for s in sources if not s.startswith("fold "))))


def _merged(head: str, messages: list[str]) -> str:
    """The messages of one kind in one line: the first whole, the variable part of each
    other after the last word of their common ``head`` (so each class keeps its name), as
    many as fit in a line (the first cut when it alone is too long); empty when they do not
    all start with ``head``.

    Examples
    --------
    >>> _merged("M: constant within class", ["M: constant within class 1: ['K'].",
    ...                                       "M: constant within class 2: ['Ba', 'Fe']."])
    "M: constant within class 1: ['K']; class 2: ['Ba', 'Fe']"
    """
    if not head or not all(m.startswith(head) for m in messages):
        return ""
    word = head.split()[-1]
    tails = [m[len(head):].strip().rstrip(".") for m in messages]
    text = f"{head} {tails[0]}"
    if len(text) > _MERGED:  # the first alone is long: cut it (each class by its columns)
        return text[:_MERGED - 3].rstrip(" ,;") + "..." + (
            f"; {len(tails) - 1} more" if len(tails) > 1 else "")
    for i, tail in enumerate(tails[1:], start=1):
        if len(text) + len(word) + len(tail) + 3 > _MERGED:  # the rest in report.md
            return text + f"; {len(tails) - i} more"
        text += f"; {word} {tail}"
    return text


class WarningLog:
    """Every warning of a run, by where it was raised.

    Examples
    --------
    >>> log = WarningLog()
    >>> for fold, label in enumerate(["a", "b", "a"], start=1):
    ...     log.add(f"fold {fold}", [(UserWarning, f"Model: constant within class '{label}': ['x']")])
    >>> log.terminal_lines()
    ["warning: UserWarning (3 times: folds 1-3): Model: constant within class 'a': ['x']; class 'b': ['x'] (2 distinct messages; every one in report.md)"]
    """

    def __init__(self, replaced: tuple[str, ...] = ()) -> None:
        self.records: list[tuple[str, type[Warning], str]] = []
        #: the run's own warnings (``warning:`` lines of kgraph itself), in order
        self.notes: list[str] = []
        self._replaced = [re.compile(pattern) for pattern in replaced]

    def add(self, source: str, caught) -> None:
        """Add ``caught`` (``(category, message)`` pairs, the category a class or its name,
        or ``warnings.WarningMessage``s) as raised in ``source``, but those matching a
        ``replaced`` pattern (messages the run states in its own words, :meth:`note`)."""
        for w in caught:
            category, message = ((w.category, str(w.message))
                                 if isinstance(w, warnings.WarningMessage) else w)
            if not any(r.search(str(message)) for r in self._replaced):
                self.records.append((source, category, str(message)))

    def note(self, text: str) -> None:
        """Add one of the run's own warnings (shown as ``warning: text``, and in report.md).

        Examples
        --------
        >>> log = WarningLog()
        >>> log.note("the figure was not drawn")
        >>> log.terminal_lines(), log.report_lines()[3:5]
        (['warning: the figure was not drawn'], ['### The run', ''])
        """
        if text not in self.notes:
            self.notes.append(text)

    @contextlib.contextmanager
    def recording(self, source: str) -> Iterator[None]:
        """Record the warnings raised inside the block as raised in ``source``."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                yield
            finally:
                self.add(source, caught)

    def terminal_lines(self) -> list[str]:
        """One line per kind: category, count, where, the leading text and the names."""
        kinds: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for source, category, message in self.records:
            kinds.setdefault(_kind(category, message), []).append((source, message))
        lines = []
        for (category, head), seen in kinds.items():
            sources = list(dict.fromkeys(s for s, _ in seen))
            names = list(dict.fromkeys(n for _, m in seen for n in _QUOTED.findall(m)))
            shown = ", ".join(repr(n) for n in names[:_NAMES])
            if len(names) > _NAMES:
                shown += f" and {len(names) - _NAMES} more"
            messages = list(dict.fromkeys(m for _, m in seen))
            if len(messages) == 1 and len(messages[0]) <= _WHOLE:
                text = messages[0]
            else:
                text = _merged(head, messages) or (
                    (head if len(head) <= _HEAD else head[:_HEAD - 3] + "...")
                    + (f": {shown}" if shown else ""))
                text += (f" ({len(messages)} distinct message{'s' if len(messages) > 1 else ''}"
                         "; every one in report.md)")
            count = f"{len(seen)} time{'s' if len(seen) > 1 else ''}"
            lines.append(f"warning: {category} ({count}: {_where(sources)}): {text}")
        return lines + [f"warning: {note}" for note in self.notes]

    def report_lines(self, where: str = "each fold's model, the model fitted on all rows, "
                                        "the bootstrap refits", capitalize: bool = True) -> list[str]:
        """The ``## Warnings`` section of ``report.md``: every distinct message per source
        (``where`` says what the sources are; ``capitalize``: the sources' first letter
        upper-cased in their headings)."""
        lines = ["", "## Warnings", ""]
        if not self.records and not self.notes:
            return [*lines, "None were raised.", ""]
        if self.notes:
            lines += ["### The run", "", *(f"- {note}" for note in self.notes), ""]
        if not self.records:
            return lines
        lines += [f"Every distinct warning, where it was raised ({where}):", ""]
        by_source: dict[str, dict[tuple[str, str], int]] = {}
        for source, category, message in self.records:
            seen = by_source.setdefault(source, {})
            key = (_name(category), message)
            seen[key] = seen.get(key, 0) + 1
        for source, seen in by_source.items():
            head = source[0].upper() + source[1:] if capitalize else source
            lines += [f"### {head}", ""]
            lines += [f"- `{category}`: {message}" + (f" ({n} times)" if n > 1 else "")
                      for (category, message), n in seen.items()]
            lines.append("")
        return lines
