"""Plots for evallib.curves and evallib.metrics (notebooks 04–06): ROC, P-R with BEP, cost curves with
their lower envelope, and the confusion matrix in the book's layout. Every function takes ``ax=None``
and returns the Axes."""

from __future__ import annotations

import numpy as np

from .. import curves as _curves
from .._validation import check_bool, validate_params
from ..metrics import _as_confusion_matrices
from ._base import AX, COLORS, THRESHOLD, get_ax

__all__ = ["plot_roc", "plot_pr", "plot_cost_curves", "plot_confusion_matrix"]


def _mark_style(color):
    return dict(marker="o", markersize=8, markerfacecolor="white", markeredgewidth=2, color=color, zorder=5)


@validate_params(
    {
        "y_true": ["array-like"],
        "scores": ["array-like"],
        "pos_label": [None, "label"],
        "ax": AX,
        "mark": THRESHOLD,
        "chance": ["boolean"],
    }
)
def plot_roc(y_true, scores, *, ax=None, label=None, color=None, mark=None, chance=True, pos_label=None, markers=None):
    """ROC curve (式(2.18)–(2.19)) with its AUC in the legend; ``mark`` (a threshold) circles the point
    where ``scores >= mark`` puts the cut. ``markers`` draws a dot per point (default: when <= 60 points).

    Returns the Axes.
    """
    chance = check_bool(chance, "chance")
    ax = get_ax(ax)
    fpr, tpr, thr = _curves.roc_curve(y_true, scores, pos_label=pos_label)
    area = _curves.roc_auc(y_true, scores, pos_label=pos_label)
    text = f"AUC = {area:.3f}" if label is None else f"{label} (AUC = {area:.3f})"
    show_markers = len(fpr) <= 60 if markers is None else bool(markers)
    (line,) = ax.plot(fpr, tpr, marker="." if show_markers else None, color=color, label=text)
    if chance:
        ax.plot([0, 1], [0, 1], ls="--", lw=1, color=COLORS["grey"], label="random guessing")
    if mark is not None:
        s = _curves.threshold_summary(y_true, scores, mark, pos_label=pos_label)
        ax.plot([s.fpr], [s.tpr], **_mark_style(line.get_color()))
    ax.set(
        xlim=(-0.02, 1.02),
        ylim=(-0.02, 1.02),
        xlabel="false positive rate (FPR)",
        ylabel="true positive rate (TPR)",
        title="ROC curve",
    )
    ax.set_aspect("equal")
    ax.legend(loc="lower right")
    return ax


@validate_params(
    {
        "y_true": ["array-like"],
        "scores": ["array-like"],
        "pos_label": [None, "label"],
        "ax": AX,
        "mark": THRESHOLD,
        "bep": ["boolean"],
    }
)
def plot_pr(y_true, scores, *, ax=None, label=None, color=None, bep=True, mark=None, pos_label=None, markers=None):
    """P-R curve (recall on x, precision on y) with the break-even point on the line P = R.

    ``mark`` (a threshold) circles the cut ``scores >= mark``. Returns the Axes.
    """
    bep = check_bool(bep, "bep")
    ax = get_ax(ax)
    prec, rec, thr = _curves.pr_curve(y_true, scores, pos_label=pos_label)
    show_markers = len(prec) <= 60 if markers is None else bool(markers)
    (line,) = ax.plot(
        rec, prec, marker="." if show_markers else None, color=color, label=label if label is not None else "P-R curve"
    )
    if bep:
        b = _curves.break_even_point(y_true, scores, pos_label=pos_label)
        ax.plot([0, 1], [0, 1], ls=":", lw=1, color=COLORS["grey"])
        ax.plot(
            [b],
            [b],
            marker="D",
            ls="none",
            color=line.get_color(),
            label=f"BEP = {b:.3f}" if label is None else f"{label} BEP = {b:.3f}",
        )
    if mark is not None:
        s = _curves.threshold_summary(y_true, scores, mark, pos_label=pos_label)
        ax.plot([s.recall], [s.precision], **_mark_style(line.get_color()))
    ax.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="recall (R)", ylabel="precision (P)", title="P-R curve")
    ax.set_aspect("equal")
    ax.legend(loc="lower left")
    return ax


@validate_params(
    {
        "y_true": ["array-like"],
        "scores": ["array-like"],
        "pos_label": [None, "label"],
        "ax": AX,
        "lines": ["boolean"],
    }  # x: inline (tests/test_curve_widgets.py matches "x must lie")
)
def plot_cost_curves(y_true, scores, *, ax=None, label=None, color=None, lines=True, x=None, pos_label=None):
    """Cost curve (西瓜书 图2.5): every ROC point's line from (0, FPR) to (1, FNR) in light grey and their
    lower envelope, whose area (the expected total cost) is shaded and given in the legend.

    ``x`` (a probability cost) draws a vertical line there and marks the envelope. Returns the Axes.
    """
    lines = check_bool(lines, "lines")
    ax = get_ax(ax)
    cc = _curves.cost_curve(y_true, scores, pos_label=pos_label)
    if lines:
        segs = np.stack(
            [np.column_stack([np.zeros_like(cc.fpr), cc.fpr]), np.column_stack([np.ones_like(cc.fnr), cc.fnr])], axis=1
        )
        from matplotlib.collections import LineCollection

        ax.add_collection(LineCollection(segs, colors=COLORS["grey"], linewidths=0.6, alpha=0.6))
    text = f"expected total cost = {cc.expected_total_cost:.3f}"
    (env,) = ax.plot(cc.envelope_x, cc.envelope_y, color=color, label=text if label is None else f"{label} ({text})")
    ax.fill_between(cc.envelope_x, cc.envelope_y, color=env.get_color(), alpha=0.15)
    if x is not None:
        xv = float(x)
        if not 0 <= xv <= 1:
            raise ValueError(f"x must lie in [0, 1], got {xv}")
        ax.axvline(xv, color=COLORS["black"], lw=1, ls="--")
        ax.plot([xv], [np.interp(xv, cc.envelope_x, cc.envelope_y)], **_mark_style(env.get_color()))
    ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="probability cost P(+)cost", ylabel="normalised cost", title="Cost curve")
    ax.legend(loc="upper right")
    return ax


@validate_params({"cm": ["array-like"], "ax": AX, "normalize": ["boolean"]})
def plot_confusion_matrix(cm, *, ax=None, title="Confusion matrix", normalize=False):
    """The 2×2 matrix ``[[TP, FN], [FP, TN]]`` as a table of coloured cells (rows: true class,
    columns: predicted class; the book's 表2.1). ``normalize=True`` shows row shares. Returns the Axes."""
    normalize = check_bool(normalize, "normalize")
    if np.any(np.asarray(cm, dtype=object) < 0):
        raise ValueError(f"cm: counts must be >= 0; got {np.asarray(cm).tolist()}")
    m = _as_confusion_matrices(cm)
    if m.shape[0] != 1:
        raise ValueError(f"cm must be one 2x2 confusion matrix, got shape {np.shape(cm)}")
    m = m[0]
    ax = get_ax(ax)
    shown = m / np.maximum(m.sum(axis=1, keepdims=True), 1) if normalize else m
    ax.imshow(m / max(m.sum(), 1), cmap="Blues", vmin=0, vmax=1)
    names = [["TP", "FN"], ["FP", "TN"]]
    for i in range(2):
        for j in range(2):
            val = f"{shown[i, j]:.2f}" if normalize else f"{int(round(shown[i, j]))}"
            ax.text(
                j,
                i,
                f"{names[i][j]}\n{val}",
                ha="center",
                va="center",
                fontsize=11,
                color="white" if m[i, j] / max(m.sum(), 1) > 0.5 else "black",
            )
    ax.set_xticks([0, 1], ["predicted +", "predicted -"])
    ax.set_yticks([0, 1], ["actual +", "actual -"])
    ax.grid(False)
    ax.set_title(title)
    return ax
