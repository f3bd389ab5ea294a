"""Plots for chapter 14 (pitfalls, beyond the book): the reliability diagram, a K-class confusion matrix, the
leakage curve and a summary of estimates against honest ones. Every function takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

import numbers

import numpy as np

from .. import metrics as _metrics
from .._validation import Interval, Options, as_finite_array, check_bool, validate_params
from ..pitfalls import LeakageStudy
from ._base import AX, COLORS, POSITIVE_INT, get_ax

__all__ = ["plot_calibration", "plot_multiclass_confusion", "plot_leakage", "plot_optimism"]


@validate_params(
    {
        "y_true": ["array-like"],
        "proba": ["array-like"],
        "n_bins": POSITIVE_INT,
        "strategy": [Options("uniform", "quantile")],
        "ax": AX,
        "pos_label": [None, "label"],
        "diagonal": ["boolean"],
    }
)
def plot_calibration(
    y_true, proba, *, n_bins=10, strategy="uniform", ax=None, label=None, color=None, pos_label=None, diagonal=True
):
    """Reliability diagram: per bin of predicted probability, the fraction of positives (y) against the mean
    prediction (x), dots sized by the bin's count; the diagonal is perfect calibration. The legend gives the
    Brier score and the expected calibration error (:func:`evallib.metrics.calibration_curve`).

    Returns the Axes.
    """
    diagonal = check_bool(diagonal, "diagonal")
    ax = get_ax(ax)
    cc = _metrics.calibration_curve(y_true, proba, n_bins=n_bins, strategy=strategy, pos_label=pos_label)
    brier = _metrics.brier_score(y_true, proba, pos_label=pos_label)
    text = f"Brier {brier:.3f}, ECE {cc.ece:.3f}"
    if diagonal:
        ax.plot([0, 1], [0, 1], ls="--", lw=1, color=COLORS["grey"], label="perfectly calibrated")
    (line,) = ax.plot(
        cc.mean_predicted, cc.fraction_positive, color=color, label=text if label is None else f"{label} ({text})"
    )
    ax.scatter(
        cc.mean_predicted,
        cc.fraction_positive,
        s=12 + 120 * cc.counts / cc.counts.max(),
        color=line.get_color(),
        zorder=3,
    )
    ax.set(
        xlim=(-0.02, 1.02),
        ylim=(-0.02, 1.02),
        xlabel="mean predicted probability",
        ylabel="fraction of positives",
        title="Reliability diagram",
    )
    ax.set_aspect("equal")
    ax.legend(loc="upper left")
    return ax


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "labels": [None, "array-like"],
        "ax": AX,
        "normalize": ["boolean"],
    }
)
def plot_multiclass_confusion(y_true, y_pred, *, labels=None, ax=None, normalize=False, title="Confusion matrix"):
    """K × K confusion matrix: rows the true class, columns the predicted class (the book's 表2.1 orientation,
    classes in sorted order or ``labels``); ``normalize=True`` shows each row's shares (the per-class recall on
    the diagonal). Returns the Axes; ``ax.images[0].get_array()`` holds the counts (or shares)."""
    normalize = check_bool(normalize, "normalize")
    yt, yp = _metrics._labels_pair(y_true, y_pred)
    _metrics._same_label_kind(y_true=yt, y_pred=yp)
    classes = np.unique(np.concatenate([yt, yp])) if labels is None else np.asarray(labels)
    if labels is not None:
        _metrics._same_label_kind(y_true=yt, labels=classes)
        extra = ~np.isin(np.concatenate([yt, yp]), classes)
        if extra.any():
            raise ValueError(f"labels lacks the class {np.concatenate([yt, yp])[extra][0].item()!r}")
    k = classes.size
    order = np.argsort(classes, kind="stable")  # codes in the order of `classes`, found by binary search
    ct, cp = (order[np.searchsorted(classes[order], v)] for v in (yt, yp))
    cm = np.bincount(ct * k + cp, minlength=k * k).reshape(k, k)
    shown = cm / np.maximum(cm.sum(axis=1, keepdims=True), 1) if normalize else cm
    ax = get_ax(ax)
    scale = shown.max() if shown.max() > 0 else 1
    ax.imshow(shown, cmap="Blues", vmin=0, vmax=scale)
    for i in range(k):
        for j in range(k):
            val = f"{shown[i, j]:.2f}" if normalize else f"{int(cm[i, j])}"
            ax.text(
                j,
                i,
                val,
                ha="center",
                va="center",
                fontsize=10,
                color="white" if shown[i, j] / scale > 0.5 else "black",
            )
    names = [str(c) for c in classes.tolist()]
    ax.set_xticks(range(k), names)
    ax.set_yticks(range(k), names)
    ax.set(xlabel="predicted class", ylabel="true class", title=title)
    ax.grid(False)
    return ax


@validate_params(
    {
        "ax": AX,
        "mark": [None, Interval(numbers.Real, 1, None, closed="left")],
        "chance": [None, Interval(numbers.Real, 0, 1)],
    }  # study: inline (tests/test_pitfalls.py matches "study must be a LeakageStudy")
)
def plot_leakage(study: LeakageStudy, *, ax=None, mark=None, chance=None):
    """Cross-validated accuracy against the number of selected features (log scale): selection on all the data
    before CV (leaky) and inside each training fold (honest, a Pipeline); ``mark`` (one of ``study.ks``) circles
    both; ``chance`` draws the accuracy of guessing. Returns the Axes."""
    if not isinstance(study, LeakageStudy):
        raise TypeError(
            f"study must be a LeakageStudy from evallib.pitfalls.selection_leakage, got {type(study).__name__}"
        )
    ax = get_ax(ax)
    ax.plot(study.ks, study.leaky, marker="o", color=COLORS["red"], label="selected on all data, then CV (leaky)")
    ax.plot(study.ks, study.honest, marker="s", color=COLORS["blue"], label="selected inside each fold (Pipeline)")
    if chance is not None:
        ax.axhline(float(chance), ls="--", lw=1, color=COLORS["grey"], label=f"chance ({float(chance):.2f})")
    if mark is not None:
        leaky, honest = study.at(mark)
        ax.plot([mark, mark], [leaky, honest], ls="none", marker="o", ms=11, mfc="none", mew=2, color=COLORS["black"])
    ax.set_xscale("log")
    ax.set(
        ylim=(0, 1.05),
        xlabel="number of features selected",
        ylabel="cross-validated accuracy",
        title="Feature selection before or inside CV",
    )
    ax.legend(loc="lower left")
    return ax


@validate_params(
    {
        "estimates": ["array-like"],
        "honest": ["array-like"],
        "ax": AX,
        "higher_is_better": ["boolean"],
    }
)
def plot_optimism(names, estimates, honest, *, ax=None, higher_is_better=True, xlabel="estimate"):
    """One row per pitfall: the flawed estimate (red) and the honest one (blue) joined by a line whose length is
    the optimism. Returns the Axes."""
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    est = as_finite_array(estimates, "estimates")
    hon = as_finite_array(honest, "honest")
    names = list(names)
    if est.shape != (len(names),) or hon.shape != (len(names),):
        raise ValueError(
            f"names, estimates and honest must have the same length, got {len(names)}, {est.shape}, {hon.shape}"
        )
    if not (np.isfinite(est).all() and np.isfinite(hon).all()):
        raise ValueError("estimates and honest must be finite")
    ax = get_ax(ax)
    rows = np.arange(len(names))[::-1]
    ax.hlines(rows, np.minimum(est, hon), np.maximum(est, hon), color=COLORS["grey"], lw=3)
    ax.plot(est, rows, "o", color=COLORS["red"], ms=8, label="flawed estimate")
    ax.plot(hon, rows, "s", color=COLORS["blue"], ms=8, label="honest estimate")
    ax.set_yticks(rows, names)
    ax.set(xlabel=xlabel, title="Optimism of each pitfall")
    ax.legend(loc="lower right" if higher_is_better else "lower left")
    return ax
