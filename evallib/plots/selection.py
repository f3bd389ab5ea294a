"""Figures for model selection that open a formula up: the validation scores of a grid search as a heat map
(notebook 03) and AUC = 1 − ℓ_rank as the cells above the ROC staircase (notebook 05, 式(2.21)–(2.22)).
Every function takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

import numpy as np

from .. import curves as _curves
from .._validation import as_finite_array, validate_params
from ._base import AX, COLORS, get_ax

__all__ = ["plot_grid_scores", "plot_rank_cells"]


@validate_params(
    {
        "scores": ["array-like"],
        "row_name": ["str"],
        "col_name": ["str"],
        "ax": AX,
        "fmt": ["str"],
    }
)
def plot_grid_scores(
    scores, row_values, col_values, *, row_name="", col_name="", ax=None, fmt="{:.3f}", cmap="viridis"
):
    """Heat map of a two-parameter grid search's scores, each cell labelled, the best cell(s) framed.

    ``scores[i, j]`` belongs to ``row_values[i]`` and ``col_values[j]`` (e.g. the validation accuracies of
    notebook 03). Returns the Axes.

    >>> ax = plot_grid_scores([[0.9, 0.8], [0.7, 0.9]], [1, 2], ["a", "b"])  # doctest: +SKIP
    """
    s = as_finite_array(scores, "scores", ndim=2)
    if s.ndim != 2 or s.size == 0:
        raise ValueError(f"scores must be a non-empty 2-D array, got shape {s.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite (no NaN or inf)")
    if len(row_values) != s.shape[0] or len(col_values) != s.shape[1]:
        raise ValueError(
            f"row_values ({len(row_values)}) and col_values ({len(col_values)}) must match "
            f"the shape of scores {s.shape}"
        )
    if "{" not in fmt:
        raise ValueError(f"fmt: must be a format string with a {{}} field such as '{{:.3f}}'; got {fmt!r}")
    ax = get_ax(ax)
    ax.imshow(s, cmap=cmap, origin="upper", aspect="auto")
    lo, hi = s.min(), s.max()
    for (i, j), v in np.ndenumerate(s):
        dark = hi > lo and (v - lo) / (hi - lo) < 0.5
        ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=8, color="white" if dark else "black")
    for i, j in zip(*np.nonzero(s == hi)):
        ax.add_patch(_rect((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=COLORS["red"], lw=2, gid="best"))
    ax.set_xticks(range(s.shape[1]), [str(v) for v in col_values])
    ax.set_yticks(range(s.shape[0]), [str(v) for v in row_values])
    ax.set(xlabel=col_name, ylabel=row_name)
    ax.grid(False)
    return ax


def _rect(xy, w, h, **kw):
    from matplotlib.patches import Rectangle

    return Rectangle(xy, w, h, **kw)


@validate_params({"y_true": ["array-like"], "scores": ["array-like"], "pos_label": [None, "label"], "ax": AX})
def plot_rank_cells(y_true, scores, *, pos_label=None, ax=None):
    """The unit square cut into m⁺ × m⁻ cells, one per (positive, negative) pair, with the ROC staircase:
    the cells above it are the mis-ordered pairs (the negative scored higher), a tie is a hatched cell
    counted ½. Their area is ℓ_rank (式(2.21)) and the rest is AUC = 1 − ℓ_rank (式(2.22)).

    Cells above the curve have ``gid="above"``, tied ones ``gid="tie"`` (tests count them). Returns the Axes.
    """
    sp, sn = _curves._split_scores(y_true, scores, pos_label)
    pos, neg = sp[::-1], sn[::-1]  # highest first: row r = r-th highest positive, column c = negative
    m_pos, m_neg = len(pos), len(neg)
    if m_pos * m_neg > 10_000:
        raise ValueError(
            f"plot_rank_cells draws one cell per pair: m+ x m- = {m_pos * m_neg} > 10000; "
            "use plot_roc for large samples"
        )
    ax = get_ax(ax)
    w, h = 1 / m_neg, 1 / m_pos
    above = neg[None, :] > pos[:, None]
    tie = neg[None, :] == pos[:, None]
    for r, c in zip(*np.nonzero(above)):
        ax.add_patch(_rect((c * w, r * h), w, h, facecolor=COLORS["red"], alpha=0.35, edgecolor="white", gid="above"))
    for r, c in zip(*np.nonzero(tie)):
        ax.add_patch(
            _rect((c * w, r * h), w, h, facecolor="none", hatch="//", edgecolor=COLORS["red"], lw=0.5, gid="tie")
        )
    for k in range(1, m_neg):
        ax.axvline(k * w, color=COLORS["grey"], lw=0.3)
    for k in range(1, m_pos):
        ax.axhline(k * h, color=COLORS["grey"], lw=0.3)
    fpr, tpr, _ = _curves.roc_curve(y_true, scores, pos_label=pos_label)
    loss = _curves.rank_loss(y_true, scores, pos_label=pos_label)
    ax.plot(fpr, tpr, color=COLORS["blue"], lw=2, label=f"ROC: AUC = {1 - loss:.3f}, ℓ_rank = {loss:.3f}")
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1),
        xlabel=f"false positive rate ({m_neg} negatives)",
        ylabel=f"true positive rate ({m_pos} positives)",
        title="ℓ_rank = cells above the staircase",
    )
    ax.set_aspect("equal")
    ax.legend(loc="lower right")
    return ax
