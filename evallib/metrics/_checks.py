"""Argument checks shared by the measures of evallib.metrics."""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import (
    as_1d_array,
    check_binary_labels,
    check_consistent_length,
    check_label_types,
    resolve_pos_label,
)


# ----------------------------------------------------------------------------------------- helpers
def _labels_pair(y_true, y_pred):
    yt = as_1d_array(y_true, "y_true")
    yp = as_1d_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if a.dtype.kind in "fc" and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; labels must be finite")
    check_label_types(y_true=yt, y_pred=yp)
    return yt, yp


def _binary_pair(y_true, y_pred, pos_label):
    """Boolean masks (true positive class, predicted positive class) of two binary label arrays."""
    yt, yp = _labels_pair(y_true, y_pred)
    pos_label = resolve_pos_label(
        np.unique(np.concatenate([np.unique(yt), np.unique(yp)])), pos_label, "y_true and y_pred"
    )
    t = check_binary_labels(yt, "y_true", pos_label=pos_label, need_both=False)
    p = check_binary_labels(yp, "y_pred", pos_label=pos_label, need_both=False)
    union = np.unique(np.concatenate([np.unique(yt), np.unique(yp)]))
    if len(union) > 2:
        raise ValueError(
            f"y_true and y_pred together hold {len(union)} labels {union.tolist()}; a binary confusion "
            "matrix needs at most two (the positive label and one negative label)"
        )
    if len(union) == 2 and pos_label not in union:
        raise ValueError(f"pos_label={pos_label!r} is not among the labels {union.tolist()}")
    return t, p


def _check_zero_division(zero_division):
    if isinstance(zero_division, str):
        if zero_division != "raise":
            raise ValueError(f"zero_division must be 'raise', 0.0 or 1.0, got {zero_division!r}")
        return zero_division
    if (
        isinstance(zero_division, (bool, np.bool_))
        or not isinstance(zero_division, numbers.Real)
        or float(zero_division) not in (0.0, 1.0)
    ):
        raise ValueError(f"zero_division must be 'raise', 0.0 or 1.0, got {zero_division!r}")
    return float(zero_division)


def _ratio(num, den, zero_division, what):
    zd = _check_zero_division(zero_division)
    if den == 0:
        if zd == "raise":
            raise ValueError(f"{what}; pass zero_division=0.0 or 1.0 to choose a value")
        return zd
    return float(num / den)
