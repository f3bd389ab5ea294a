"""Figures for bias and variance (偏差与方差, 西瓜书 §2.5; ``notebooks/10_bias_variance.ipynb``).

Every function draws on ``ax`` (or the current Axes) and returns it.
"""

from __future__ import annotations

import numbers

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from .._validation import Interval, check_bool, validate_params
from ..biasvar import BiasVarianceCurve, BiasVarianceResult, LearningCurve, ZeroOneDecomposition
from ._base import AX, COLORS, get_ax

__all__ = [
    "plot_prediction_fan",
    "plot_decomposition",
    "plot_bias_variance_curve",
    "plot_learning_curve",
    "plot_zero_one_decomposition",
    "plot_winner_optimism",
]


def _check(obj, cls, name):
    if not isinstance(obj, cls):
        raise TypeError(f"{name} must be a {cls.__name__} (from evallib.biasvar), got {type(obj).__name__}")
    return obj


def _check_n(n, name, minimum=0):
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(n).__name__}")
    if n < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {n}")
    return int(n)


def _log_axis(ax):
    """A log y-axis labelled 0.01, 1, 100, 1e+04 (plain text: cheaper to redraw than mathtext powers)."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, numticks=8))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


@validate_params(
    {
        "result": [BiasVarianceResult],
        "ax": AX,
        "n_curves": [Interval(numbers.Integral, 0, None, closed="left")],
        "show_data": ["boolean"],
    }
)
def plot_prediction_fan(result, ax=None, *, n_curves=40, show_data=True):
    """The fan of fitted curves f(x; D) of the first ``n_curves`` data sets, their mean f̄(x) (式(2.37))
    and the true function: the spread of the fan is the variance, the gap between the mean and the truth
    the bias.

    The y-axis is limited to a band around the true function (very wiggly fits leave it rather than hide it).
    """
    show_data = check_bool(show_data, "show_data")
    r = _check(result, BiasVarianceResult, "result")
    n_curves = _check_n(n_curves, "n_curves")
    ax = get_ax(ax)
    x = r.x_test
    order = np.argsort(x)
    x = x[order]
    k = min(n_curves, r.n_datasets)
    if k:
        # one LineCollection, not k Line2D artists: a redraw of the explorer stays fast
        segs = np.stack([np.broadcast_to(x, (k, x.size)), r.predictions[:k, order]], axis=-1)
        ax.add_collection(
            LineCollection(
                segs,
                colors=COLORS["sky"],
                linewidths=0.7,
                alpha=0.45,
                label=f"f(x; D), {k} of {r.n_datasets} data sets",
            )
        )
    if show_data:
        ax.plot(r.x_train[0], r.y_train[0], "o", ms=3, color=COLORS["grey"], label="one training set")
    ax.plot(x, r.y_true[order], color=COLORS["black"], lw=2, label="true f(x)")
    ax.plot(x, r.mean_prediction[order], color=COLORS["orange"], lw=2, ls="--", label="mean prediction")
    span = float(np.ptp(r.y_true)) or 1.0
    pad = 0.5 * span + 2.5 * r.noise_std
    ax.set_ylim(float(r.y_true.min()) - pad, float(r.y_true.max()) + pad)
    ax.set_xlim(float(x.min()), float(x.max()))
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.legend(loc="upper right", fontsize=8, frameon=True, framealpha=0.85)
    return ax


@validate_params({"result": [BiasVarianceResult], "ax": AX})  # log: inline (tests/test_biasvar.py: a ValueError)
def plot_decomposition(result, ax=None, *, log=None):
    """Bars of bias², variance and noise, their sum and the simulated expected error (式(2.42)).

    ``log=None`` switches to a logarithmic axis when the bars differ by more than a factor 100.
    """
    r = _check(result, BiasVarianceResult, "result")
    if log not in (None, True, False):
        raise ValueError(f"log must be None, True or False, got {log!r}")
    ax = get_ax(ax)
    names = ["bias²", "variance", "noise", "sum", "expected\nerror"]
    vals = np.array([r.bias2, r.variance, r.noise, r.bias2 + r.variance + r.noise, r.expected_error])
    colors = [COLORS["red"], COLORS["blue"], COLORS["grey"], COLORS["purple"], COLORS["black"]]
    pos = vals[vals > 0]
    if log is None:
        log = pos.size > 0 and pos.max() / pos.min() > 100
    ax.bar(range(5), vals, color=colors)
    # the sum is drawn as a stack too, so the eye can check it against the last bar
    bottom = 0.0
    for v, c in zip(vals[:3], colors[:3]):
        if not log:
            ax.bar(3, v, bottom=bottom, color=c, alpha=0.55, edgecolor="white")
        bottom += v
    if log:
        _log_axis(ax)
    for i, v in enumerate(vals):
        ax.annotate(f"{v:.3g}", (i, v), ha="center", va="bottom", fontsize=8, xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(range(5), names)
    ax.set_ylabel("mean over x (squared error)")
    ax.margins(y=0.15)
    return ax


@validate_params({"curve": [BiasVarianceCurve], "ax": AX, "log": ["boolean"], "show_train": ["boolean"]})
def plot_bias_variance_curve(curve, ax=None, *, log=True, show_train=True):
    """The bias–variance dilemma (西瓜书 图2.9): bias² falls, variance rises, their sum plus noise is U-shaped."""
    log = check_bool(log, "log")
    show_train = check_bool(show_train, "show_train")
    c = _check(curve, BiasVarianceCurve, "curve")
    ax = get_ax(ax)
    v = np.asarray(c.values, dtype=float)
    ax.plot(v, c.bias2, "o-", color=COLORS["red"], label="bias²")
    ax.plot(v, c.variance, "s-", color=COLORS["blue"], label="variance")
    ax.plot(v, c.noise, ":", color=COLORS["grey"], label="noise")
    ax.plot(v, c.expected_error, "D-", color=COLORS["black"], lw=2.2, label="expected error")
    if show_train:
        ax.plot(v, c.train_error, "--", color=COLORS["green"], label="training error")
    best = int(np.argmin(c.expected_error))
    ax.axvline(v[best], color=COLORS["orange"], lw=1, ls="--", label=f"best {c.param_name} = {c.values[best]}")
    if log:
        _log_axis(ax)
    ax.set_xlabel(c.param_name)
    ax.set_ylabel("squared error")
    ax.legend(fontsize=8)
    return ax


@validate_params({"curve": [LearningCurve], "ax": AX})
def plot_learning_curve(curve, ax=None, *, title=None):
    """Training and validation error against training-set size (mean over splits, band = min to max)."""
    c = _check(curve, LearningCurve, "curve")
    ax = get_ax(ax)
    n = c.train_sizes
    for scores, mean, color, label in (
        (c.train_scores, c.train_mean, COLORS["green"], "training error"),
        (c.test_scores, c.test_mean, COLORS["red"], "validation error"),
    ):
        ax.plot(n, mean, "o-", color=color, label=label)
        ax.fill_between(n, scores.min(axis=1), scores.max(axis=1), color=color, alpha=0.15, lw=0)
    ax.set_xlabel("training-set size")
    ax.set_ylabel("error")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    return ax


@validate_params({"result": [ZeroOneDecomposition], "ax": AX})
def plot_zero_one_decomposition(result, ax=None):
    """Per-point 0-1 loss terms of Domingos (2000): variance adds where the main prediction is right and
    subtracts where it is wrong (shaded)."""
    r = _check(result, ZeroOneDecomposition, "result")
    ax = get_ax(ax)
    order = np.argsort(r.x_test)
    x = r.x_test[order]
    ax.plot(x, r.expected_loss_per_point[order], color=COLORS["black"], lw=2, label="expected 0-1 loss")
    ax.plot(x, r.noise_per_point[order], ":", color=COLORS["grey"], label="noise N(x)")
    ax.plot(x, r.variance_per_point[order], color=COLORS["blue"], label="variance V(x)")
    ax.fill_between(
        x,
        0,
        1,
        where=r.bias_per_point[order] > 0,
        color=COLORS["red"],
        alpha=0.15,
        lw=0,
        label="biased: B(x) = 1",
        step="mid",
    )
    ax.set_ylim(0, 1)
    ax.set_xlabel("x")
    ax.set_ylabel("probability")
    ax.legend(fontsize=8)
    return ax


@validate_params({"validation_scores": ["array-like"], "test_scores": ["array-like"], "ax": AX})
def plot_winner_optimism(validation_scores, test_scores, ax=None):
    """Each repeat's tuned winner: its validation score (x) against its score on untouched test data (y).

    Points below the diagonal are repeats where validation flattered the winner (notebook 03, 西瓜书 §2.2.4).
    """
    from .._validation import as_finite_array, check_consistent_length

    v = as_finite_array(validation_scores, "validation_scores")
    t = as_finite_array(test_scores, "test_scores")
    check_consistent_length(validation_scores=v, test_scores=t)
    ax = get_ax(ax)
    ax.plot(v, t, "o", color=COLORS["blue"], alpha=0.7, label="one repeat")
    lo, hi = float(min(v.min(), t.min())), float(max(v.max(), t.max()))
    pad = 0.05 * (hi - lo or 1.0)
    ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color=COLORS["grey"], ls="--", lw=1, label="test = validation")
    ax.plot(
        [v.mean()],
        [t.mean()],
        "D",
        color=COLORS["red"],
        ms=8,
        label=f"means: validation {v.mean():.3f}, test {t.mean():.3f}",
    )
    ax.set_xlabel("winner's validation score")
    ax.set_ylabel("winner's test score")
    ax.legend(fontsize=8)
    return ax
