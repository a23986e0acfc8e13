"""Probabilities as text that reads back to the same floats, for the network file writers."""

from __future__ import annotations

import numpy as np

__all__ = ["number", "numbers"]


def number(x) -> str:
    """A probability as the shortest decimal text that reads back to the same float, with
    no exponent (pgmpy's UAI reader takes none).

    Examples
    --------
    >>> number(1.2e-05), number(0.1), number(1.0)
    ('0.000012', '0.1', '1.0')
    """
    return np.format_float_positional(float(x), unique=True, trim="0")


def numbers(values) -> str:
    """Probabilities as text that reads back to the same floats (:func:`number`), space
    separated."""
    return " ".join(number(x) for x in values)
