"""Regression measures."""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_consistent_length, check_finite_result, validate_params


# ----------------------------------------------------------------------------------- regression
def _finite_result(func):
    """Run a regression metric without NumPy overflow warnings and raise, naming the inputs, when the result
    is not finite (|y_pred - y_true| near 1e308 squares to inf)."""
    import functools

    @functools.wraps(func)
    def wrapper(y_true, y_pred):
        with np.errstate(over="ignore", invalid="ignore"):
            value = func(y_true, y_pred)
        return check_finite_result(value, func.__name__, "y_true, y_pred")

    return wrapper


def _regression_pair(y_true, y_pred):
    yt = as_finite_array(y_true, "y_true")
    yp = as_finite_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    return yt, yp


@_finite_result
@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def mae(y_true, y_pred) -> float:
    """Mean absolute error (1/m) Σ |f(x_i) - y_i| (the L1 loss).

    >>> mae([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    0.6666666666666666
    """
    yt, yp = _regression_pair(y_true, y_pred)
    return float(np.mean(np.abs(yp - yt)))


@_finite_result
@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def mse(y_true, y_pred) -> float:
    """Mean squared error E(f; D) = (1/m) Σ (f(x_i) - y_i)^2 (式(2.2)).

    >>> mse([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    1.3333333333333333
    """
    yt, yp = _regression_pair(y_true, y_pred)
    return float(np.mean((yp - yt) ** 2))


@_finite_result
@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def rmse(y_true, y_pred) -> float:
    """Root mean squared error sqrt((1/m) Σ (f(x_i) - y_i)^2): the square root of MSE, in y's units.

    >>> round(rmse([1.0, 2.0, 3.0], [1.0, 2.0, 5.0]), 4)
    1.1547
    """
    return float(np.sqrt(mse(y_true, y_pred)))


def _relative_errors(y_true, y_pred):
    yt, yp = _regression_pair(y_true, y_pred)
    if (yt == 0).any():
        i = int(np.flatnonzero(yt == 0)[0])
        raise ValueError(
            f"y_true contains {int((yt == 0).sum())} zero(s) (first at index {i}): the relative error "
            "|y - f(x)| / |y| is undefined there; use mae/rmse, or drop or shift those targets"
        )
    err = np.abs(yp - yt) / np.abs(yt)
    if not np.isfinite(err).all():  # a median would hide it
        i = int(np.flatnonzero(~np.isfinite(err))[0])
        raise ValueError(
            f"y_true, y_pred: the relative error overflows at index {i} "
            f"(|{yp[i]!r} - {yt[i]!r}| / |{yt[i]!r}|); rescale the targets"
        )
    return err


@_finite_result
@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def mape(y_true, y_pred) -> float:
    """Mean absolute percentage error (1/m) Σ |y_i - f(x_i)| / |y_i|, as a fraction (0.1 = 10 %).

    scikit-learn: like ``mean_absolute_percentage_error`` it returns a fraction, but a zero in
    ``y_true`` raises instead of dividing by machine epsilon (which gives numbers like 2.25e15).

    >>> mape([100.0, 200.0], [110.0, 150.0])
    0.175
    """
    return float(np.mean(_relative_errors(y_true, y_pred)))


@_finite_result
@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def mdape(y_true, y_pred) -> float:
    """Median absolute percentage error: the median of |y_i - f(x_i)| / |y_i| (robust to a few outliers).

    >>> mdape([100.0, 200.0, 50.0], [110.0, 150.0, 50.0])
    0.1
    """
    return float(np.median(_relative_errors(y_true, y_pred)))


@_finite_result
@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def r2(y_true, y_pred) -> float:
    """Coefficient of determination R² = 1 - Σ(y - f(x))² / Σ(y - ȳ)².

    1 is perfect, 0 is "no better than predicting the mean", negative is worse than that. Undefined
    (raises) when ``y_true`` is constant.

    scikit-learn: ``r2_score`` agrees, but returns 0.0 (or 1.0 for a perfect fit) for a constant ``y_true``.

    >>> r2([1.0, 2.0, 3.0], [1.0, 2.0, 4.0])
    0.5
    """
    yt, yp = _regression_pair(y_true, y_pred)
    ss_tot = float(np.sum((yt - yt.mean()) ** 2))
    if ss_tot == 0:
        raise ValueError("y_true is constant (at least two different values are needed): R² is undefined")
    return 1.0 - float(np.sum((yt - yp) ** 2)) / ss_tot
