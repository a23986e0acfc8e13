"""How long a command's work took, in the terms that survive a busy machine: wall seconds
beside CPU seconds and the load average. On a shared machine at load 10 the wall time of a
fit reads many times its CPU time; the CPU time is what the work cost.

CPU time is this process's and that of its child processes which have ended (the operating
system reports a child's time when it is waited for); the workers of ``--n-jobs`` that are
still alive at the end are not in it, and the line says so.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass

__all__ = ["Clock", "Timing"]


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _load() -> float:
    return os.getloadavg()[0]


@dataclass(frozen=True)
class Timing:
    """Wall and CPU seconds of some work, and the 1-minute load average before and after."""

    wall: float
    cpu: float
    load_start: float
    load_end: float

    def line(self, what: str, jobs: int | None = None) -> str:
        """One report line.

        Examples
        --------
        >>> Timing(12.0, 20.5, 0.4, 1.9).line("fit and 5-fold cross-validation")
        'fit and 5-fold cross-validation took 12.0 s wall, 20.5 s CPU; load average 0.4 at the start, 1.9 at the end'
        >>> Timing(3.0, 1.0, 0.1, 0.2).line("the fit", jobs=2).split("; ")[-1]
        'the CPU of the --n-jobs 2 workers still running is not counted'
        """
        text = (f"{what} took {self.wall:.1f} s wall, {self.cpu:.1f} s CPU; load average "
                f"{self.load_start:.1f} at the start, {self.load_end:.1f} at the end")
        if jobs is not None and jobs != 1:
            text += f"; the CPU of the --n-jobs {jobs} workers still running is not counted"
        return text


class Clock:
    """Started at construction; :meth:`stop` gives the :class:`Timing` since.

    Examples
    --------
    >>> clock = Clock()
    >>> timing = clock.stop()
    >>> timing.wall >= 0 and timing.cpu >= 0
    True
    """

    def __init__(self) -> None:
        self._wall, self._cpu, self._load = time.perf_counter(), _cpu_seconds(), _load()

    def stop(self) -> Timing:
        return Timing(time.perf_counter() - self._wall, _cpu_seconds() - self._cpu,
                      self._load, _load())
