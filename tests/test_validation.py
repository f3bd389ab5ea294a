"""evallib._validation: the messages name the argument and the problem."""
import numpy as np
import pytest

from evallib._validation import (as_1d_array, as_finite_array, check_binary_labels, check_consistent_length,
                                 check_nonnegative, check_positive_int, check_probability, check_random_state)


def test_random_state_forms():
    assert isinstance(check_random_state(None), np.random.Generator)
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    assert check_random_state(5).random() == np.random.default_rng(5).random()
    assert isinstance(check_random_state(np.random.RandomState(0)), np.random.Generator)
    with pytest.raises(TypeError, match="random_state"):
        check_random_state(1.5)
    with pytest.raises(TypeError, match="random_state"):
        check_random_state(True)


@pytest.mark.parametrize("value, match", [
    ([], "scores is empty"), ([[1, 2], [3, 4]], "scores must be 1-D"), ([[1], [2]], "ravel"),
    (None, "None"),
])
def test_as_1d_array(value, match):
    with pytest.raises(ValueError, match=match):
        as_1d_array(value, "scores")


def test_as_finite_array():
    np.testing.assert_array_equal(as_finite_array([1, 2], "x"), [1.0, 2.0])
    with pytest.raises(ValueError, match=r"x contains 1 non-finite value\(s\) \(NaN at flat index 1\)"):
        as_finite_array([1, np.nan], "x")
    with pytest.raises(ValueError, match="inf"):
        as_finite_array([np.inf], "x")
    with pytest.raises(ValueError, match="numeric"):
        as_finite_array(["a"], "x")
    with pytest.raises(ValueError, match="2-D"):
        as_finite_array([1.0], "X", ndim=2)


def test_binary_labels():
    np.testing.assert_array_equal(check_binary_labels([0, 1, 1]), [False, True, True])
    np.testing.assert_array_equal(check_binary_labels(["b", "g"], pos_label="g"), [False, True])
    with pytest.raises(ValueError, match="one class only"):
        check_binary_labels([1, 1])
    with pytest.raises(ValueError, match="binary"):
        check_binary_labels([0, 1, 2])
    with pytest.raises(ValueError, match="pos_label"):
        check_binary_labels([0, 2])
    assert check_binary_labels([1, 1], need_both=False).all()


def test_scalars():
    assert check_probability(0.05, "alpha") == 0.05
    with pytest.raises(ValueError, match=r"alpha must lie in \(0, 1\)"):
        check_probability(1.0, "alpha", low_open=True, high_open=True)
    with pytest.raises(ValueError, match="eps0"):
        check_probability(1.5, "eps0")
    with pytest.raises(TypeError, match="eps0"):
        check_probability("0.1", "eps0")
    assert check_positive_int(np.int64(3), "k") == 3
    with pytest.raises(ValueError, match="k must be >= 2"):
        check_positive_int(1, "k", minimum=2)
    with pytest.raises(TypeError, match="k"):
        check_positive_int(True, "k")
    with pytest.raises(ValueError, match="cost_fn"):
        check_nonnegative(-1, "cost_fn")
    with pytest.raises(ValueError, match="cost_fn"):
        check_nonnegative(float("nan"), "cost_fn")
    assert check_consistent_length(a=[1, 2], b=np.zeros(2)) == 2
    with pytest.raises(ValueError, match="a has 2, b has 3"):
        check_consistent_length(a=[1, 2], b=[1, 2, 3])
