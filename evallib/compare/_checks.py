"""Argument checks and small numerical helpers shared by the tests of evallib.compare."""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .._validation import (
    Interval,
    as_finite_array,
    check_consistent_length,
    check_positive_int,
    check_probability,
)
from ._results import TTestResult

# Declared constraints shared by the tests (evallib._validation.validate_params)
ALPHA = [Interval(numbers.Real, 0, 1, closed="neither")]
PROBABILITY = [Interval(numbers.Real, 0, 1)]
COUNT = [Interval(numbers.Integral, 0, None, closed="left")]
NONNEGATIVE = [Interval(numbers.Real, 0, None, closed="left")]
N_JOBS = [None, Interval(numbers.Integral, None, None)]


def at_least(n: int) -> list:
    """An int >= n."""
    return [Interval(numbers.Integral, n, None, closed="left")]


# ----------------------------------------------------------------------------------------------------
# Validation helpers
# ----------------------------------------------------------------------------------------------------
def _check_alpha(alpha) -> float:
    return check_probability(alpha, "alpha", low_open=True, high_open=True)


def _check_count(n, name: str) -> int:
    return check_positive_int(n, name, minimum=0)


def _check_rates(x, name: str) -> np.ndarray:
    arr = as_finite_array(x, name)
    if arr.min() < 0 or arr.max() > 1:
        bad = arr[(arr < 0) | (arr > 1)][0]
        raise ValueError(f"{name} are error rates and must lie in [0, 1], got {bad}")
    return arr


def _check_scores_table(scores, name: str = "scores", *, min_rows: int = 2) -> np.ndarray:
    arr = as_finite_array(scores, name, ndim=None)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D with shape (N data sets, k algorithms), got an array of shape {arr.shape}"
        )
    n, k = arr.shape
    if n < min_rows:
        raise ValueError(f"{name} has {n} data set(s) (rows); at least {min_rows} are needed")
    if k < 2:
        raise ValueError(f"{name} has {k} algorithm (column); at least 2 are needed to compare")
    return arr


def _mean_std(x: np.ndarray) -> tuple[float, float]:
    """Mean and sample standard deviation; exactly (value, 0) when every value is the same
    (floating-point averaging would otherwise leave a 1e-17 spread and a meaningless t)."""
    if np.ptp(x) == 0:
        return float(x[0]), 0.0
    return float(x.mean()), float(x.std(ddof=1))


def _t_from_mean_std(mean: float, std: float, scale: float) -> float:
    """t = mean / (std * scale) with the degenerate zero-variance case made explicit (no NaN)."""
    if std * scale > 0:
        return mean / (std * scale)
    if mean == 0:
        return 0.0  # no difference and no spread: nothing speaks against H0
    return float(np.copysign(np.inf, mean))


def _two_sided_t(t: float, df: float, alpha: float, test: str, mean: float, std: float, k: int) -> TTestResult:
    crit = float(stats.t.isf(alpha / 2, df))
    p = float(min(1.0, 2 * stats.t.sf(abs(t), df)))
    return TTestResult(
        test=test,
        statistic=float(t),
        pvalue=p,
        df=df,
        alpha=alpha,
        critical_value=crit,
        reject=bool(abs(t) > crit),
        distribution="t",
        mean=float(mean),
        std=float(std),
        k=k,
    )


def _check_pair(scores_a, scores_b, minimum: int = 1):
    a = as_finite_array(scores_a, "scores_a")
    b = as_finite_array(scores_b, "scores_b")
    check_consistent_length(scores_a=a, scores_b=b)
    if a.size < minimum:
        raise ValueError(f"scores_a has {a.size} value(s); at least {minimum} are needed")
    return a, b


def _check_real(x, name: str, *, minimum=0.0, below=None) -> float:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__}")
    x = float(x)
    if not np.isfinite(x) or x < minimum or (below is not None and x >= below):
        bound = f" and < {below}" if below is not None else ""
        raise ValueError(f"{name} must be a finite number >= {minimum}{bound}, got {x}")
    return x


def _check_bool(x, name: str) -> bool:
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {x!r}")
    return bool(x)
