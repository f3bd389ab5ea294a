"""Figures for intervals (beyond the book): notebook 12, "How sure are we?".

Every function draws on ``ax`` (pyplot's current Axes when None) and returns it; none calls ``plt.show()``
or changes rcParams. Figure text is English only.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import uncertainty as _unc
from .._validation import Interval, Options, check_positive_int, check_probability, validate_params
from ._base import AX, COLORS, POSITIVE_INT, get_ax

_OPEN_UNIT = [Interval(numbers.Real, 0, 1, closed="neither")]
_AT_LEAST_3 = [Interval(numbers.Integral, 3, None, closed="left")]

__all__ = ["plot_intervals", "plot_coverage", "plot_coverage_dip", "plot_632_weight"]

_METHOD_COLORS = {"normal": COLORS["red"], "wilson": COLORS["blue"], "clopper-pearson": COLORS["green"]}


def _triple(item, i):
    """(estimate, low, high) from a result object (estimate or auc, low, high) or a 3-sequence."""
    if hasattr(item, "low") and hasattr(item, "high"):
        est = getattr(item, "estimate", getattr(item, "auc", None))
        vals = (est, item.low, item.high)
    else:
        try:
            vals = tuple(item)
        except TypeError:
            raise TypeError(
                f"intervals[{i}] must be an interval result or (estimate, low, high), got {type(item).__name__}"
            ) from None
        if len(vals) != 3:
            raise ValueError(f"intervals[{i}] must be (estimate, low, high), got {len(vals)} values")
    try:
        est, lo, hi = (float(v) for v in vals)
    except (TypeError, ValueError):
        raise ValueError(f"intervals[{i}] must hold three numbers, got {vals!r}") from None
    if not (np.isfinite([est, lo, hi]).all() and lo <= est <= hi):
        raise ValueError(f"intervals[{i}] must satisfy low <= estimate <= high (finite), got {vals!r}")
    return est, lo, hi


@validate_params({"reference": [None, Interval(numbers.Real, None, None)], "ax": AX})
def plot_intervals(intervals, labels, *, reference=None, xlabel="estimate", title=None, colors=None, ax=None):
    """Estimate and interval per model (or per method): one horizontal bar each, top to bottom.

    ``intervals``: results of :mod:`evallib.uncertainty` (``error_rate_interval``, ``roc_auc_interval``,
    ``bootstrap_interval``, ``kfold_mean_interval``) or (estimate, low, high) triples; ``labels`` name them.
    ``reference`` draws a vertical line (a true value, or 0.5 for a random scorer's AUC). Each bar is labelled
    with its interval at three decimals. Taught in ``notebooks/12_how_sure.ipynb``.
    """
    items = list(intervals)
    if not items:
        raise ValueError("intervals is empty: give at least one interval")
    rows = [_triple(it, i) for i, it in enumerate(items)]
    labels = [str(s) for s in labels]
    if len(labels) != len(rows):
        raise ValueError(f"labels has {len(labels)} entries but intervals has {len(rows)}")
    if colors is not None and len(colors) != len(rows):
        raise ValueError(f"colors has {len(colors)} entries but intervals has {len(rows)}")
    ax = get_ax(ax)
    y = np.arange(len(rows))[::-1]
    for k, ((est, lo, hi), yy) in enumerate(zip(rows, y)):
        c = colors[k] if colors is not None else COLORS["blue"]
        ax.plot([lo, hi], [yy, yy], color=c, lw=3, solid_capstyle="butt")
        ax.plot([lo, lo], [yy - 0.15, yy + 0.15], color=c, lw=1.5)
        ax.plot([hi, hi], [yy - 0.15, yy + 0.15], color=c, lw=1.5)
        ax.plot(est, yy, "o", color=COLORS["black"], ms=6, zorder=3)
        ax.annotate(
            f"[{lo:.3f}, {hi:.3f}]", (hi, yy), xytext=(6, 0), textcoords="offset points", va="center", fontsize=9
        )
    if reference is not None:
        ax.axvline(float(reference), color=COLORS["grey"], ls="--", lw=1.2, label=f"reference {float(reference):g}")
        ax.legend(loc="best", fontsize=8)
    lo_all, hi_all = min(r[1] for r in rows), max(r[2] for r in rows)
    span = max(hi_all - lo_all, 1e-3)
    ax.set_xlim(lo_all - 0.08 * span, hi_all + 0.35 * span)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    return ax


@validate_params(
    {
        "m": POSITIVE_INT,
        "confidence": _OPEN_UNIT,
        "error_rate": [None, Interval(numbers.Real, 0, 1)],
        "n_grid": _AT_LEAST_3,
        "ax": AX,
    }
)
def plot_coverage(m, *, confidence=0.95, methods=_unc.INTERVAL_METHODS, error_rate=None, n_grid=199, ax=None):
    """The real (exact) coverage of each binomial interval against the true error rate, for ``m`` test samples.

    Coverage(ε) = Σ_k P(X = k | m, ε) · [ε inside the interval from k errors] (:func:`evallib.uncertainty.
    coverage_curve`); the dashed line is the nominal ``confidence``. The saw-tooth is real: the count is
    discrete. ``error_rate`` marks one ε. Taught in ``notebooks/12_how_sure.ipynb``.
    """
    m = check_positive_int(m, "m")
    confidence = check_probability(confidence, "confidence", low_open=True, high_open=True)
    n_grid = check_positive_int(n_grid, "n_grid", minimum=3)
    methods = tuple(methods)
    for meth in methods:
        if meth not in _unc.INTERVAL_METHODS:
            raise ValueError(f"methods must be among {_unc.INTERVAL_METHODS}, got {meth!r}")
    ax = get_ax(ax)
    grid = np.linspace(0.0025, 0.9975, n_grid)
    for meth in methods:
        cov = _unc.coverage_curve(m, grid, confidence=confidence, method=meth)
        ax.plot(grid, cov, color=_METHOD_COLORS[meth], lw=1.2, label=meth)
    ax.axhline(confidence, color=COLORS["black"], ls="--", lw=1, label=f"nominal {confidence:g}")
    if error_rate is not None:
        eps = check_probability(error_rate, "error_rate")
        ax.axvline(eps, color=COLORS["grey"], lw=1, ls=":")
    ax.set_ylim(max(0.0, min(0.5, confidence - 0.3)), 1.005)
    ax.set_xlim(0, 1)
    ax.set_xlabel("true error rate")
    ax.set_ylabel("coverage (exact)")
    ax.set_title(f"Real coverage of {confidence:g} intervals, m = {m}")
    ax.legend(loc="lower center", fontsize=8, ncol=2)
    return ax


@validate_params(
    {
        "m": POSITIVE_INT,
        "method": [Options(*_unc.INTERVAL_METHODS)],
        "confidence": _OPEN_UNIT,
        "eps_max": _OPEN_UNIT,
        "n_grid": _AT_LEAST_3,
        "ax": AX,
    }
)
def plot_coverage_dip(m, *, method="wilson", confidence=0.95, eps_max=0.05, n_grid=2000, ax=None):
    """The exact coverage of one binomial interval for small true error rates 0 < ε < ``eps_max`` (an inset for
    :func:`plot_coverage`), with its minimum marked: Wilson's dip to about 0.84 lies at ε near 0.18/m.

    >>> ax = plot_coverage_dip(20)
    """
    m = check_positive_int(m, "m")
    confidence = check_probability(confidence, "confidence", low_open=True, high_open=True)
    eps_max = check_probability(eps_max, "eps_max", low_open=True, high_open=True)
    n_grid = check_positive_int(n_grid, "n_grid", minimum=3)
    ax = get_ax(ax)
    grid = np.linspace(eps_max / n_grid, eps_max, n_grid)
    cov = _unc.coverage_curve(m, grid, confidence=confidence, method=method)
    i = int(np.argmin(cov))
    ax.plot(grid, cov, color=_METHOD_COLORS[method], lw=1.0)
    ax.axhline(confidence, color=COLORS["black"], ls="--", lw=0.8)
    ax.plot(grid[i], cov[i], "v", color=COLORS["black"], ms=5)
    ax.annotate(
        f"min {cov[i]:.3f}\nat ε = {grid[i]:.4f}",
        (grid[i], cov[i]),
        xytext=(8, 2),
        textcoords="offset points",
        fontsize=7,
        va="bottom",
    )
    ax.set_xlim(0, eps_max)
    ax.set_xticks([0, eps_max / 2, eps_max])
    ax.set_ylim(min(cov[i], confidence) - 0.04, 1.0)
    ax.set_title(f"{method}, ε < {eps_max:g}", fontsize=8)
    ax.tick_params(labelsize=7)
    return ax


@validate_params({"ax": AX, "n_grid": [Interval(numbers.Integral, 2, None, closed="left")]})
def plot_632_weight(*, ax=None, n_grid=201):
    """The .632+ weight w = 0.632 / (1 − 0.368 R) against the relative overfitting rate R ∈ [0, 1] (Efron &
    Tibshirani 1997): 0.632 (the .632 estimate) at R = 0, 1 (the leave-one-out bootstrap error alone) at R = 1.

    >>> ax = plot_632_weight()
    """
    n_grid = check_positive_int(n_grid, "n_grid", minimum=2)
    ax = get_ax(ax)
    R = np.linspace(0.0, 1.0, n_grid)
    ax.plot(R, 0.632 / (1 - 0.368 * R), color=COLORS["blue"], lw=1.5)
    ax.axhline(0.632, color=COLORS["grey"], ls=":", lw=1, label="w = 0.632 (.632 estimate)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0.6, 1.02)
    ax.set_xlabel("relative overfitting rate R (clipped to [0, 1])")
    ax.set_ylabel("weight w of Err(1)")
    ax.legend(loc="upper left", fontsize=8)
    return ax
