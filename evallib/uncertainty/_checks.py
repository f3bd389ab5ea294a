"""Argument checks shared by the interval functions of evallib.uncertainty."""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import (
    Interval,
    check_positive_int,
    check_probability,
)

INTERVAL_METHODS = ("wilson", "clopper-pearson", "normal")


# ----------------------------------------------------------------------------------------------------
# Validation helpers
# ----------------------------------------------------------------------------------------------------
_CONFIDENCE = [Interval(numbers.Real, 0, 1, closed="neither")]
_COUNT = [Interval(numbers.Integral, 0, None, closed="left")]
_AT_LEAST_1 = [Interval(numbers.Integral, 1, None, closed="left")]


def _check_confidence(confidence) -> float:
    return check_probability(confidence, "confidence", low_open=True, high_open=True)


def _check_method(method, options, name="method") -> str:
    if not isinstance(method, str) or method not in options:
        raise ValueError(f"{name} must be one of {options}, got {method!r}")
    return method


def _check_counts(n_errors, m) -> tuple[int, int]:
    m = check_positive_int(m, "m")
    n_errors = check_positive_int(n_errors, "n_errors", minimum=0)
    if n_errors > m:
        raise ValueError(f"n_errors={n_errors} is larger than m={m}: there are only m test samples")
    return n_errors, m


def _clean(x):
    """Plain float, no negative zero (printed outputs must not depend on the CPU)."""
    return np.asarray(x, dtype=float) + 0.0
