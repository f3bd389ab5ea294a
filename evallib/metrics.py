"""Performance measures (性能度量): 西瓜书 §2.3.

Classification metrics take ``(y_true, y_pred)``; taught in ``notebooks/01_error_and_fitting.ipynb``
(error rate, accuracy) and ``notebooks/04_classification_metrics.ipynb``.
"""
from __future__ import annotations

import numpy as np

from ._validation import as_1d_array, check_consistent_length

__all__ = ["error_rate", "accuracy", "mse"]


def _labels_pair(y_true, y_pred):
    yt = as_1d_array(y_true, "y_true")
    yp = as_1d_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if a.dtype.kind in "fc" and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; labels must be finite")
    return yt, yp


def error_rate(y_true, y_pred) -> float:
    """Fraction of samples predicted wrongly: E(f; D) = (1/m) Σ I(f(x_i) ≠ y_i) (式(2.4)).

    Works for any labels (binary or multiclass).

    >>> error_rate([1, 0, 1, 1], [1, 1, 1, 0])
    0.5
    """
    yt, yp = _labels_pair(y_true, y_pred)
    return float(np.mean(yt != yp))


def accuracy(y_true, y_pred) -> float:
    """Fraction of samples predicted rightly: acc(f; D) = 1 - E(f; D) (式(2.5)).

    >>> accuracy([1, 0, 1, 1], [1, 1, 1, 0])
    0.5
    """
    yt, yp = _labels_pair(y_true, y_pred)
    return float(np.mean(yt == yp))


def _regression_pair(y_true, y_pred):
    from ._validation import as_finite_array

    yt = as_finite_array(y_true, "y_true")
    yp = as_finite_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    return yt, yp


def mse(y_true, y_pred) -> float:
    """Mean squared error E(f; D) = (1/m) Σ (f(x_i) - y_i)^2 (式(2.2)).

    >>> mse([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    1.3333333333333333
    """
    yt, yp = _regression_pair(y_true, y_pred)
    return float(np.mean((yp - yt) ** 2))
