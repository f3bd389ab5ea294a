"""Figures for regression and ranking measures (notebook 07): residuals, how one outlier moves MAE, RMSE,
MAPE and MdAPE, and the DCG discount 1/log₂(i + 1). Every function takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

import numbers

import numpy as np

from .. import metrics as _metrics
from .._validation import Interval, as_finite_array, check_consistent_length, validate_params
from ._base import AX, COLORS, get_ax

__all__ = ["plot_residuals", "plot_outlier_effect", "plot_dcg_discount"]

_INDEX = Interval(numbers.Integral, 0, None, closed="left")  # below len(y_true): checked inline
_MEASURES = {"MAE": _metrics.mae, "RMSE": _metrics.rmse, "MAPE": _metrics.mape, "MdAPE": _metrics.mdape}


@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"], "ax": AX, "highlight": [None, _INDEX]})
def plot_residuals(y_true, y_pred, *, ax=None, highlight=None):
    """Residuals eᵢ = ŷᵢ − yᵢ against the prediction ŷᵢ, with the zero line and ± RMSE band; ``highlight``
    (an index) circles one sample. Returns the Axes."""
    t, p = as_finite_array(y_true, "y_true"), as_finite_array(y_pred, "y_pred")
    check_consistent_length(y_true=t, y_pred=p)
    if highlight is not None and not (isinstance(highlight, (int, np.integer)) and 0 <= highlight < len(t)):
        raise ValueError(f"highlight must be an index in [0, {len(t)}), got {highlight!r}")
    ax = get_ax(ax)
    e = p - t
    rmse = float(np.sqrt(np.mean(e**2)))
    ax.scatter(p, e, s=12, color=COLORS["blue"], alpha=0.7, label="residual ŷ − y")
    ax.axhline(0, color=COLORS["black"], lw=1)
    ax.axhspan(-rmse, rmse, color=COLORS["grey"], alpha=0.2, label=f"± RMSE = {rmse:.1f}")
    if highlight is not None:
        ax.plot([p[highlight]], [e[highlight]], "o", ms=10, mfc="none", mec=COLORS["red"], mew=2, label="one sample")
    ax.set(xlabel="prediction ŷ", ylabel="residual ŷ − y", title="Residuals")
    ax.legend(loc="best")
    return ax


def _outlier_ratios(y_true, y_pred, shifts, *, index=0):
    """MAE, RMSE, MAPE and MdAPE when prediction ``index`` is moved by each of ``shifts``, each divided by
    its value without the shift: a dict name -> array (1.0 = unchanged)."""
    t, p = as_finite_array(y_true, "y_true"), as_finite_array(y_pred, "y_pred")
    check_consistent_length(y_true=t, y_pred=p)
    d = as_finite_array(shifts, "shifts")
    if isinstance(index, (bool, np.bool_)) or not (isinstance(index, (int, np.integer)) and 0 <= index < len(t)):
        raise ValueError(f"index must be an index in [0, {len(t)}), got {index!r}")
    out = {}
    for name, f in _MEASURES.items():
        base = f(t, p)
        vals = []
        for shift in d:
            q = p.copy()
            q[index] += shift
            vals.append(f(t, q) / base)
        out[name] = np.array(vals)
    return out


@validate_params(
    {"y_true": ["array-like"], "y_pred": ["array-like"], "shifts": ["array-like"], "index": [_INDEX], "ax": AX}
)
def plot_outlier_effect(y_true, y_pred, shifts, *, index=0, ax=None):
    """How far one spoilt prediction moves MAE, RMSE, MAPE and MdAPE: each relative to its clean value,
    against the size of the error added to prediction ``index``. Returns the Axes."""
    ratios = _outlier_ratios(y_true, y_pred, shifts, index=index)
    ax = get_ax(ax)
    d = np.asarray(shifts, dtype=float)
    for (name, r), c in zip(ratios.items(), ("blue", "orange", "green", "purple")):
        ax.plot(d, r, color=COLORS[c], label=name, gid=name)
    ax.axhline(1, color=COLORS["grey"], lw=1, ls="--")
    ax.set(xlabel=f"error added to prediction {index}", ylabel="measure / its clean value", title="One outlier")
    ax.legend(loc="upper left")
    return ax


@validate_params({"ax": AX})  # k: inline (tests/test_plots_selection.py matches "k must")
def plot_dcg_discount(k=10, *, ax=None):
    """The DCG discount 1/log₂(i + 1) of positions i = 1 … k, next to the linear 1/i (MRR's weight).
    Returns the Axes."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    ax = get_ax(ax)
    i = np.arange(1, k + 1)
    ax.bar(i, 1 / np.log2(i + 1), color=COLORS["blue"], alpha=0.8, label="DCG: 1 / log₂(i + 1)", gid="dcg")
    ax.plot(i, 1 / i, "o-", color=COLORS["orange"], label="1 / i (reciprocal rank)", gid="reciprocal")
    ax.set(xlabel="position i in the list", ylabel="weight of the gain", title="The DCG discount", ylim=(0, 1.05))
    ax.set_xticks(i)
    ax.legend(loc="upper right")
    return ax
