"""Explorers for evallib.curves: the threshold explorer (notebook 05) and the cost explorer (notebook 06).

Both follow the course's one pattern (:class:`evallib.widgets.Explorer`): the sliders call a pure update
that uses tested library functions (:func:`evallib.curves.threshold_summary`,
:func:`evallib.curves.cost_operating_point`) and draws on a figure from :func:`evallib.style.new_figure`.
"""
from __future__ import annotations

import math

import numpy as np
from matplotlib.collections import LineCollection

from .. import curves as _curves
from .._validation import check_probability, check_real, resolve_pos_label
from ..plots.curves import plot_confusion_matrix
from ..style import COLORS, new_figure
from ._base import Explorer, slider
from ..i18n import say

__all__ = ["threshold_explorer", "cost_explorer"]

_PALETTE = [COLORS[c] for c in ("blue", "orange", "green", "red", "purple", "sky")]


def threshold_explorer(y_true, scores, *, threshold=None, step=0.01, pos_label=None) -> Explorer:
    """One slider moves the cut point (predict positive when ``score >= threshold``); the confusion
    matrix, P, R, F1, TPR and FPR and the marked point on both the ROC and the P-R curve follow it.

    Returns an :class:`Explorer` with the control ``threshold``.
    """
    roc = _curves.roc_curve(y_true, scores, pos_label=pos_label)  # validates y_true, scores
    pr = _curves.pr_curve(y_true, scores, pos_label=pos_label)
    area = _curves.roc_auc(y_true, scores, pos_label=pos_label)
    bep = _curves.break_even_point(y_true, scores, pos_label=pos_label)
    s = np.asarray(scores, dtype=float)
    if threshold is not None:
        check_real(threshold, "threshold")
    if isinstance(step, bool) or not (isinstance(step, (int, float)) and step > 0 and math.isfinite(step)):
        raise ValueError(f"step must be a number > 0, got {step!r}")
    lo = math.floor(s.min() / step) * step
    hi = math.ceil(s.max() / step) * step + step  # one step above the top score: nothing predicted positive
    lo, hi = round(lo, 10), round(hi, 10)
    if threshold is None:
        threshold = 0.5 if lo <= 0.5 <= hi else round(float(np.median(s)), 10)
    if not lo <= threshold <= hi:
        raise ValueError(f"threshold must lie in [{lo}, {hi}] (the score range), got {threshold}")

    view = {}  # the figure, built at the first call and changed in place after (only animated artists move)

    def update(threshold):
        t = _curves.threshold_summary(y_true, scores, threshold, pos_label=pos_label)
        note = say("  (nothing predicted positive: precision taken as 1)") if t.tp + t.fp == 0 else ""
        text = "\n".join([
            say("threshold {t:.2f}: predict positive when score >= {t:.2f}", t=t.threshold),
            f"[[TP, FN], [FP, TN]] = [[{t.tp}, {t.fn}], [{t.fp}, {t.tn}]]",
            say("precision {p:.3f}   recall {r:.3f}   F1 {f1:.3f}{note}", p=t.precision, r=t.recall, f1=t.f1,
                note=note),
            say("TPR {tpr:.3f}   FPR {fpr:.3f}   (AUC {auc:.3f}, BEP {bep:.3f})", tpr=t.tpr, fpr=t.fpr, auc=area,
                bep=bep)])
        if not view:
            fig, (a0, a1, a2) = new_figure(ncols=3, width=12.0, height=4.0)
            plot_confusion_matrix(t.confusion_matrix, ax=a0, title=f"threshold {t.threshold:.2f}")
            a1.plot(roc[0], roc[1], color=COLORS["blue"], label=f"ROC (AUC = {area:.3f})")
            a1.plot([0, 1], [0, 1], ls="--", lw=1, color=COLORS["grey"])
            roc_mark, = a1.plot([t.fpr], [t.tpr], "o", ms=9, mfc="white", mew=2, color=COLORS["red"],
                                label=f"FPR {t.fpr:.2f}, TPR {t.tpr:.2f}")
            a1.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="FPR", ylabel="TPR", title="ROC curve")
            a1.legend(loc="lower right")
            a2.plot(pr[1], pr[0], color=COLORS["green"], label="P-R curve")
            a2.plot([0, 1], [0, 1], ls=":", lw=1, color=COLORS["grey"])
            a2.plot([bep], [bep], "D", color=COLORS["green"], label=f"BEP = {bep:.3f}")
            pr_mark, = a2.plot([t.recall], [t.precision], "o", ms=9, mfc="white", mew=2, color=COLORS["red"],
                               label=f"R {t.recall:.2f}, P {t.precision:.2f}")
            a2.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="recall", ylabel="precision", title="P-R curve")
            a2.legend(loc="lower left")
            # Drawn again on every move: only what moves, cheaply. The 2×2 image becomes a 4-cell mesh (the same
            # colours; an image is resampled to the axes' pixels on every draw); the legends stay in the cached
            # background with their marker's label hidden, and a copy of that label, at its place, moves.
            image = a0.images[0]
            image.set_visible(False)
            cm = a0.pcolormesh([-0.5, 0.5, 1.5], [-0.5, 0.5, 1.5], np.asarray(image.get_array()), cmap="Blues",
                               vmin=0, vmax=1, zorder=image.get_zorder())
            a0.set(xlim=(-0.5, 1.5), ylim=(1.5, -0.5))
            roc_label, pr_label = (_moving_label(ax) for ax in (a1, a2))
            view.update(fig=fig, cm=cm, cells=list(a0.texts), a0=a0, roc=roc_mark, pr=pr_mark,
                        roc_label=roc_label, pr_label=pr_label)
            for a in (cm, *a0.texts, a0.title, roc_mark, pr_mark, roc_label, pr_label):
                a.set_animated(True)
            return text, fig
        # the same drawing as plot_confusion_matrix and the markers above, for the new threshold
        m = np.asarray(t.confusion_matrix)
        share = m / max(m.sum(), 1)
        view["cm"].set_array(share.ravel())
        names = (("TP", "FN"), ("FP", "TN"))
        for (i, j), cell in zip(((0, 0), (0, 1), (1, 0), (1, 1)), view["cells"]):
            cell.set_text(f"{names[i][j]}\n{int(m[i, j])}")
            cell.set_color("white" if share[i, j] > 0.5 else "black")
        view["a0"].set_title(f"threshold {t.threshold:.2f}")
        view["roc"].set_data([t.fpr], [t.tpr])
        view["roc_label"].set_text(f"FPR {t.fpr:.2f}, TPR {t.tpr:.2f}")
        view["pr"].set_data([t.recall], [t.precision])
        view["pr_label"].set_text(f"R {t.recall:.2f}, P {t.precision:.2f}")
        return text, view["fig"]

    controls = {"threshold": slider(float(threshold), lo, hi, step, "threshold", readout_format=".2f")}
    return Explorer("Threshold explorer: move the cut point", controls, update)


def _moving_label(ax, index=-1):
    """Label ``index`` (the last by default) of ``ax``'s legend as a Text of the axes at the same place, drawn over
    the legend, which stays in the cached background with that label hidden: a move redraws one label instead of the
    whole legend. Its numbers (d.dd) keep their width, so the legend's frame fits every value. Also used by the
    bias–variance explorer."""
    from matplotlib.text import Text

    hidden = ax.get_legend().texts[index]
    label = Text(0, 0, hidden.get_text())
    label.update_from(hidden)  # font, colour, alignment and the legend's transform (placed when the legend draws)
    label.set_clip_on(False)
    label.set_in_layout(False)  # placed only when the legend draws: not part of the layout
    label.set_zorder(ax.get_legend().get_zorder() + 0.01)
    ax.add_artist(label)
    hidden.set_visible(False)  # keeps its place in the legend's layout
    return label


def cost_explorer(y_true, scores_by_model, *, p=None, log2_cost_ratio=0.0, pos_label=None) -> Explorer:
    """Cost ratio and class prior → the best threshold of each model and where it sits on the cost curve.

    ``scores_by_model`` maps a model's name to its scores on the same samples ``y_true``. Controls:
    ``p`` (prior probability of the positive class, default: its share in ``y_true``) and
    ``log2_cost_ratio`` = log2(cost_fn / cost_fp) (cost_fp fixed at 1). Left: each model's cost lines
    and lower envelope with the vertical line at the probability cost x (式(2.24)); right: the ROC
    curves with the best point of each model and its iso-cost line of slope (1 - x) / x (the duality).
    """
    if not isinstance(scores_by_model, dict) or not scores_by_model:
        raise ValueError("scores_by_model must be a non-empty dict {model name: scores}")
    curves = {name: _curves.cost_curve(y_true, s, pos_label=pos_label) for name, s in scores_by_model.items()}
    aucs = {name: _curves.roc_auc(y_true, s, pos_label=pos_label) for name, s in scores_by_model.items()}
    check_real(log2_cost_ratio, "log2_cost_ratio")
    if p is not None:
        check_probability(p, "p")
    if p is None:
        y = np.asarray(y_true)
        p = round(float(np.mean(y == resolve_pos_label(np.unique(y), pos_label))), 2)
    p = float(np.clip(p, 0.01, 0.99))

    view = {}  # built at the first call; after it only the animated markers, iso-cost lines and x move

    def update(p, log2_cost_ratio):
        cost_fn, cost_fp = 2.0 ** log2_cost_ratio, 1.0
        x = _curves.probability_cost(p, cost_fn, cost_fp)
        lines = [say("p = {p:.2f}, cost_fn / cost_fp = {ratio:.3g}  ->  probability cost x = {x:.3f}", p=p,
                     ratio=cost_fn, x=x)]
        best, width = None, max(len(str(n)) for n in curves)
        ops = []
        for name, cc in curves.items():
            op = _curves.cost_operating_point(cc, p=p, cost_fn=cost_fn, cost_fp=cost_fp)
            ops.append(op)
            lines.append(say("{name:>{width}}: best threshold {t:.3g}, FPR {fpr:.3f}, FNR {fnr:.3f}, normalised cost "
                             "{nc:.3f}, cost per sample {ec:.3f}", name=name, width=width, t=op.threshold,
                             fpr=op.fpr, fnr=op.fnr, nc=op.normalized_cost, ec=op.expected_cost))
            if best is None or op.normalized_cost < best[1]:
                best = (name, op.normalized_cost)
        lines.append(say("lowest cost at this x: {name}", name=best[0]))
        if not view:
            _build_cost_view(view, curves, aucs)
        fx = np.array([0.0, 1.0])
        for (cost_mark, roc_mark, iso), op in zip(view["marks"], ops):
            cost_mark.set_data([x], [op.normalized_cost])
            roc_mark.set_data([op.fpr], [1 - op.fnr])
            iso.set_visible(x > 0)
            if x > 0:
                iso.set_data(fx, (1 - op.fnr) + (1 - x) / x * (fx - op.fpr))
        view["vline"].set_xdata([x, x])
        return "\n".join(lines), view["fig"]

    controls = {
        "p": slider(p, 0.01, 0.99, 0.01, "prior p of the positive class", readout_format=".2f"),
        "log2_cost_ratio": slider(float(log2_cost_ratio), -5.0, 5.0, 0.25, "log2(cost_fn / cost_fp)",
                                  readout_format=".2f"),
    }
    for c in controls.values():  # long descriptions: widen the box so the track stays easy to drag
        c.layout.width = "480px"
    return Explorer("Cost explorer: class prior and cost ratio", controls, update, columns=2)


def _build_cost_view(view, curves, aucs):
    """The cost explorer's figure: cost lines, envelopes and ROC curves (static); per model a marker on each
    panel and an iso-cost line, and the vertical line at x (animated, moved by the update)."""
    fig, (a0, a1) = new_figure(ncols=2, width=11.0, height=4.6)
    marks = []
    for k, (name, cc) in enumerate(curves.items()):
        col = _PALETTE[k % len(_PALETTE)]
        segs = np.stack([np.column_stack([np.zeros_like(cc.fpr), cc.fpr]),
                         np.column_stack([np.ones_like(cc.fnr), cc.fnr])], axis=1)
        a0.add_collection(LineCollection(segs, colors=col, linewidths=0.5, alpha=0.25))
        a0.plot(cc.envelope_x, cc.envelope_y, color=col, lw=2, label=f"{name} (area {cc.expected_total_cost:.3f})")
        cost_mark, = a0.plot([0.5], [0.5], "o", ms=8, mfc="white", mew=2, color=col)
        a1.plot(cc.fpr, 1 - cc.fnr, color=col, label=f"{name} (AUC {aucs[name]:.3f})")
        roc_mark, = a1.plot([0.5], [0.5], "o", ms=8, mfc="white", mew=2, color=col)
        iso, = a1.plot([0.0, 1.0], [0.5, 0.5], ls=":", lw=1, color=col)
        marks.append((cost_mark, roc_mark, iso))
    vline = a0.axvline(0.5, color=COLORS["black"], lw=1, ls="--")
    a0.set(xlim=(0, 1), ylim=(0, 1), xlabel="probability cost P(+)cost", ylabel="normalised cost",
           title="Cost curves and lower envelopes")
    a0.legend(loc="upper right")
    a1.plot([0, 1], [0, 1], ls="--", lw=1, color=COLORS["grey"])
    a1.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="FPR", ylabel="TPR",
           title="ROC: best points and iso-cost lines")
    a1.legend(loc="lower right")
    for artist in (vline, *(a for m in marks for a in m)):
        artist.set_animated(True)
    view.update(fig=fig, marks=marks, vline=vline)

