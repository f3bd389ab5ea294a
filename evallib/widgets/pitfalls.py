"""Explorers for chapter 14 (pitfalls, beyond the book): the leakage explorer (how many features were selected
before cross-validation) and the calibration explorer (bend the probabilities: AUC stays, calibration breaks).

Both follow the fast pattern of :mod:`evallib.widgets._base`: a view object builds its figure once and changes it
in place; the moving artists are animated. The computations are tested library functions
(:func:`evallib.pitfalls.selection_leakage`, :func:`evallib.pitfalls.distort_probabilities`,
:func:`evallib.metrics.calibration_curve`, :func:`evallib.metrics.brier_score`, :func:`evallib.metrics.log_loss`).
"""
from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import curves as _curves
from .. import metrics as _metrics
from .. import plots
from ..pitfalls import LeakageStudy, distort_probabilities
from .._validation import check_positive_int, check_real
from ..style import COLORS, new_figure
from ._base import Explorer, redraw_all, slider
from ..i18n import say

__all__ = ["leakage_update", "leakage_explorer", "calibration_update", "calibration_explorer"]


# ------------------------------------------------------------------------------------------------ leakage
class _LeakageView:
    """Left: leaky and honest accuracy against k with k circled; right: the fold accuracies at k."""

    def __init__(self, study: LeakageStudy, chance=None):
        if not isinstance(study, LeakageStudy):
            raise TypeError(f"study must be a LeakageStudy from evallib.pitfalls.selection_leakage, "
                            f"got {type(study).__name__}")
        self.study, self.chance, self.fig = study, chance, None

    def __call__(self, k):
        leaky, honest = self.study.at(k)  # validates k
        i = int(np.flatnonzero(self.study.ks == k)[0])
        lf, hf = self.study.leaky_folds[i], self.study.honest_folds[i]
        text = say("{k} features selected | selected on all data, then CV: {leaky:.3f} | selected inside each fold: "
                   "{honest:.3f} | optimism {opt:+.3f}", k=k, leaky=leaky, honest=honest, opt=leaky - honest)
        if self.fig is None:
            self._build(k)
        self.mark.set_data([k, k], [leaky, honest])
        jitter = np.linspace(-0.12, 0.12, lf.size)
        self.dots_leaky.set_offsets(np.column_stack([0 + jitter, lf]))
        self.dots_honest.set_offsets(np.column_stack([1 + jitter, hf]))
        self.means.set_data([0, 1], [leaky, honest])
        self.ax2.set_title(f"fold accuracies, k = {k}")
        return text, self.fig

    def _build(self, k):
        self.fig, (ax1, ax2) = new_figure(2, width=11.0, height=4.2)
        plots.plot_leakage(self.study, ax=ax1, chance=self.chance)
        (self.mark,) = ax1.plot([], [], ls="none", marker="o", ms=12, mfc="none", mew=2, color=COLORS["black"])
        self.dots_leaky = ax2.scatter([], [], color=COLORS["red"], s=25)
        self.dots_honest = ax2.scatter([], [], color=COLORS["blue"], s=25, marker="s")
        (self.means,) = ax2.plot([], [], ls="none", marker="_", ms=40, mew=3, color=COLORS["black"])
        if self.chance is not None:
            ax2.axhline(float(self.chance), ls="--", lw=1, color=COLORS["grey"])
        ax2.set_xticks([0, 1], ["leaky", "honest"])
        ax2.set(xlim=(-0.5, 1.5), ylim=(-0.05, 1.05), ylabel="accuracy on the test fold")
        self.ax2 = ax2
        for a in (self.mark, self.dots_leaky, self.dots_honest, self.means, ax2.title):
            a.set_animated(True)
        redraw_all(self.fig)


def leakage_update(study: LeakageStudy, k, *, chance=None):
    """Text and figure of the leakage explorer for one number of features ``k`` (one of ``study.ks``)."""
    return _LeakageView(study, chance)(k)


def leakage_explorer(study: LeakageStudy, *, k=None, chance=None) -> Explorer:
    """One slider picks how many features were selected before cross-validation (one of ``study.ks``, from
    :func:`evallib.pitfalls.selection_leakage`); the text and the figures give the leaky and the honest estimate.

    Returns an :class:`Explorer` with the control ``k``.
    """
    view = _LeakageView(study, chance)
    ks = [int(v) for v in study.ks]
    k = ks[len(ks) // 2] if k is None else k
    if k not in ks:
        raise ValueError(f"k must be one of the studied ks {ks}, got {k!r}")
    control = widgets.SelectionSlider(options=[(str(v), v) for v in ks], value=k, description="features selected",
                                      continuous_update=True, style={"description_width": "initial"},
                                      layout=widgets.Layout(width="420px"))
    return Explorer("Leakage explorer: features selected before cross-validation", {"k": control}, view)


# -------------------------------------------------------------------------------------------- calibration
def _bent_summary(y_true, proba, slope, shift, n_bins):
    bent = distort_probabilities(proba, slope=slope, shift=shift)
    cc = _metrics.calibration_curve(y_true, bent, n_bins=n_bins)
    return bent, cc, _metrics.brier_score(y_true, bent), _metrics.log_loss(y_true, bent)


class _CalibrationView:
    """Left: the reliability diagram of the original (grey) and the bent probabilities; right: the ROC curve,
    the same for every bend (drawn once)."""

    def __init__(self, y_true, proba, n_bins=10):
        _metrics.brier_score(y_true, proba)  # y_true binary {0, 1} (or pos_label), proba in [0, 1]: errors name them
        check_positive_int(n_bins, "n_bins")
        self.y, self.p, self.n_bins = y_true, proba, n_bins
        self.auc = _curves.roc_auc(y_true, proba)
        self.base = _bent_summary(y_true, proba, 1.0, 0.0, n_bins)
        self.fig = None

    def __call__(self, slope=1.0, shift=0.0):
        check_real(slope, "slope", low=0, low_open=True)
        check_real(shift, "shift")
        bent, cc, brier, ll = _bent_summary(self.y, self.p, slope, shift, self.n_bins)
        auc = _curves.roc_auc(self.y, bent)
        _, cc0, brier0, ll0 = self.base
        text = say("slope {slope:.2f}, shift {shift:+.2f} | ROC AUC {auc:.4f} (original {auc0:.4f}) | Brier {b:.4f} "
                   "(original {b0:.4f}) | log loss {ll:.4f} (original {ll0:.4f}) | ECE {e:.4f} (original {e0:.4f})",
                   slope=slope, shift=shift, auc=auc, auc0=self.auc, b=brier, b0=brier0, ll=ll, ll0=ll0, e=cc.ece,
                   e0=cc0.ece)
        if self.fig is None:
            self._build()
        self.line.set_data(cc.mean_predicted, cc.fraction_positive)
        self.dots.set_offsets(np.column_stack([cc.mean_predicted, cc.fraction_positive]))
        self.dots.set_sizes(12 + 120 * cc.counts / cc.counts.max())
        self.ax1.set_title(f"bent: Brier {brier:.3f}, ECE {cc.ece:.3f}")
        return text, self.fig

    def _build(self):
        self.fig, (ax1, ax2) = new_figure(2, width=10.0, height=4.6)
        plots.plot_calibration(self.y, self.p, n_bins=self.n_bins, ax=ax1, label="original", color=COLORS["grey"])
        (self.line,) = ax1.plot([], [], color=COLORS["red"], label="bent")
        self.dots = ax1.scatter([], [], color=COLORS["red"], zorder=4)
        ax1.legend(loc="upper left")
        plots.plot_roc(self.y, self.p, ax=ax2, label="any bend", markers=False)
        ax2.set_title("ROC curve: the same for every bend")
        self.ax1 = ax1
        for a in (self.line, self.dots, ax1.title):
            a.set_animated(True)
        redraw_all(self.fig)


def calibration_update(y_true, proba, slope=1.0, shift=0.0, *, n_bins=10):
    """Text and figure of the calibration explorer for one bend ``expit(slope · logit(p) + shift)``."""
    return _CalibrationView(y_true, proba, n_bins)(slope, shift)


def calibration_explorer(y_true, proba, *, slope=1.0, shift=0.0, n_bins=10) -> Explorer:
    """Bend binary probabilities monotonically (:func:`evallib.pitfalls.distort_probabilities`) and watch the
    reliability diagram, Brier score and log loss move while the ROC curve and its AUC stay put.

    Controls: ``slope`` (log scale, 1/4 to 4: below 1 under-confident, above 1 over-confident) and ``shift``
    (added to the log-odds). Returns an :class:`Explorer`.
    """
    view = _CalibrationView(y_true, proba, n_bins)  # validates y_true, proba
    check_real(slope, "slope", low=0, low_open=True)
    check_real(shift, "shift")
    controls = {
        "slope": widgets.FloatLogSlider(value=float(slope), base=2, min=-2, max=2, step=0.125,
                                        description="slope (over-/under-confidence)", readout_format=".2f",
                                        continuous_update=True, style={"description_width": "initial"},
                                        layout=widgets.Layout(width="480px")),
        "shift": slider(float(shift), -2.0, 2.0, 0.1, "shift of the log-odds", readout_format=".1f"),
    }
    return Explorer("Calibration explorer: bend the probabilities", controls, view, columns=2)
