"""The Python-literal text of GraphML's kgraph_* attributes: exact, never JSON, never code."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgraph._literal import from_literal, to_literal

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
values = st.recursive(
    scalars,
    lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=3)
    | st.frozensets(st.integers() | st.text(max_size=3), max_size=3)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


@given(values)
def test_round_trip_is_exact_and_typed(value):
    text = to_literal(value)
    back = from_literal(text)
    assert back == value and type(back) is type(value)
    assert not text.startswith(('"', "{\"__"))


def test_special_floats_and_empty_containers():
    assert math.isnan(from_literal(to_literal(math.nan)))
    assert from_literal(to_literal(-math.inf)) == -math.inf
    assert from_literal(to_literal(frozenset())) == frozenset()
    assert from_literal(to_literal((1,))) == (1,)
    assert to_literal("it's") == "'it\\'s'"


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "open('x')", "1 +",
                                  "frozenset(x=1)"])
def test_code_is_refused(text):
    with pytest.raises(ValueError, match="Not a kgraph literal"):
        from_literal(text)


def test_unencodable_value():
    with pytest.raises(TypeError, match="Cannot encode a value of type object"):
        to_literal(object())
