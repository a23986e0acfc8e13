"""The column-by-column row reductions of the E-step and the Dirichlet prior against
NumPy's own reductions over the last axis."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from estimators.latent._estep import _row_max
from estimators.latent._prior_base import row_sum

tables = st.tuples(st.integers(0, 30), st.integers(1, 7)).flatmap(
    lambda shape: arrays(np.float64, shape, elements=st.floats(-1e6, 1e6)))


@settings(max_examples=60, deadline=None)
@given(tables)
def test_row_sum_and_row_max_equal_numpy_reductions(a):
    np.testing.assert_allclose(row_sum(a), a.sum(axis=1), rtol=1e-12, atol=1e-6)
    np.testing.assert_array_equal(_row_max(a), a.max(axis=1))
    # strided input (a transposed view) gives the same as a contiguous copy
    np.testing.assert_array_equal(row_sum(a.T.copy().T), row_sum(a))
