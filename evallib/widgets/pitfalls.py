"""Explorers for chapter 14 (pitfalls, beyond the book): the leakage explorer (how many features were selected
before cross-validation) and the calibration explorer (bend the probabilities: AUC stays, calibration breaks).

evallib computes, the browser draws: :func:`leakage_data` and :func:`calibration_data` hold everything the charts
show for every setting of their controls (tested library functions: :func:`evallib.pitfalls.selection_leakage`,
:func:`evallib.pitfalls.distort_probabilities`, :func:`evallib.metrics.calibration_curve`,
:func:`evallib.metrics.brier_score`, :func:`evallib.metrics.log_loss`, :func:`evallib.curves.roc_auc`); the
Vega-Lite charts select from them.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .. import curves as _curves
from .. import metrics as _metrics
from .._validation import check_positive_int, check_real, validate_params
from ..i18n import say, ui
from ..pitfalls import LeakageStudy, distort_probabilities
from ..style import COLORS
from ._chart import POSITIVE, PROBABILITY, REAL, Explorer, at_least, inline, match, menu, readout, slider, wrap
from ._digits import significant

__all__ = [
    "leakage_data",
    "leakage_update",
    "leakage_explorer",
    "calibration_data",
    "calibration_update",
    "calibration_explorer",
]

_W = 280  # width of one panel: two panels with their axes fit WIDTH


def _readout_mark(data, filt):
    return readout(inline(data), text="lines", where=filt, n_lines=3)


# ------------------------------------------------------------------------------------------------ leakage
def _check_study(study):
    if not isinstance(study, LeakageStudy):
        raise TypeError(
            f"study must be a LeakageStudy from evallib.pitfalls.selection_leakage, got {type(study).__name__}"
        )
    return study


def _leakage_text(study, k):
    leaky, honest = study.at(k)  # validates k
    return say(
        "{k} features selected | selected on all data, then CV: {leaky:.3f} | selected inside each fold: "
        "{honest:.3f} | optimism {opt:+.3f}",
        k=k,
        leaky=leaky,
        honest=honest,
        opt=leaky - honest,
    )


@validate_params({"study": [LeakageStudy]})
def leakage_data(study: LeakageStudy) -> dict:
    """What the leakage explorer shows for every k of ``study``: ``{"curve", "folds", "readout"}`` DataFrames.

    ``curve``: k, way ("leaky"/"honest"), accuracy (the study's means); ``folds``: k, way, fold, accuracy (one row
    per test fold); ``readout``: k, text (the explorer's sentence for that k), lines (text broken to fit).

    >>> from evallib.pitfalls import LeakageStudy
    >>> st = LeakageStudy(np.array([1, 2]), np.array([.9, .8]), np.array([.5, .6]), np.ones((2, 2)), np.zeros((2, 2)))
    >>> leakage_data(st)["curve"].shape
    (4, 3)
    """
    st = _check_study(study)
    ks = [int(k) for k in st.ks]
    curve = pd.DataFrame(
        {
            "k": ks * 2,
            "way": ["leaky"] * len(ks) + ["honest"] * len(ks),
            "accuracy": np.concatenate([st.leaky, st.honest]).astype(float),
        }
    )
    rows = []
    for i, k in enumerate(ks):
        for way, folds in (("leaky", st.leaky_folds[i]), ("honest", st.honest_folds[i])):
            rows += [(k, way, j, float(a)) for j, a in enumerate(np.asarray(folds, float))]
    folds = pd.DataFrame(rows, columns=["k", "way", "fold", "accuracy"])
    texts = [_leakage_text(st, k) for k in ks]
    readout = pd.DataFrame({"k": ks, "text": texts, "lines": [wrap(t) for t in texts]})
    return {"curve": curve, "folds": folds, "readout": readout}


@validate_params({"study": [LeakageStudy], "k": at_least(1), "chance": [None, *PROBABILITY]})
def leakage_update(study: LeakageStudy, k, *, chance=None):
    """Text and figure of the leakage explorer for one number of features ``k`` (one of ``study.ks``): the
    static figure is :func:`evallib.plots.plot_leakage` with k circled."""
    from .. import plots
    from ..style import new_figure

    text = _leakage_text(_check_study(study), k)
    fig, ax = new_figure()
    plots.plot_leakage(study, ax=ax, mark=k, chance=chance)
    return text, fig


def _leakage_chart(data, k, chance):
    ks = data["readout"]["k"].tolist()
    kp = menu(int(k), ks, "features selected", name="k")
    at_k = match(k=kp)
    color = alt.Color(
        "way:N",
        scale=alt.Scale(domain=["leaky", "honest"], range=[COLORS["red"], COLORS["blue"]]),
        legend=alt.Legend(
            title=None,
            orient="bottom-left",
            labelExpr="datum.label == 'leaky' ? '%s' : '%s'"
            % (
                ui("selected on all data, then CV (leaky)").replace("'", "\\'"),
                ui("selected inside each fold (Pipeline)").replace("'", "\\'"),
            ),
        ),
    )
    x = alt.X("k:Q", scale=alt.Scale(type="log", base=2), title=ui("number of features selected"))
    y = alt.Y("accuracy:Q", scale=alt.Scale(domain=[0, 1.05]), title=ui("cross-validated accuracy"))
    base = alt.Chart(inline(data["curve"]))
    lines = base.mark_line(point=True).encode(x, y, color)
    ring = base.mark_point(size=180, strokeWidth=2, color="black").encode(x, y).transform_filter(at_k)
    left = lines + ring
    yf = alt.Y("accuracy:Q", scale=alt.Scale(domain=[-0.05, 1.05]), title=ui("accuracy on the test fold"))
    xw = alt.X("way:N", sort=["leaky", "honest"], title=None, axis=alt.Axis(labelAngle=0))
    fb = alt.Chart(inline(data["folds"])).transform_filter(at_k)
    dots = fb.mark_point(filled=True, size=40).encode(xw, yf, color.legend(None), xOffset=alt.XOffset("fold:N"))
    means = fb.mark_tick(color="black", thickness=3, size=40).encode(xw, alt.Y("mean(accuracy):Q"))
    right = dots + means
    if chance is not None:
        rule = alt.Chart(pd.DataFrame({"accuracy": [float(chance)]})).mark_rule(strokeDash=[4, 3], color=COLORS["grey"])
        left = left + rule.encode(y=alt.Y("accuracy:Q"))
        right = right + rule.encode(y=alt.Y("accuracy:Q"))
    left = left.properties(width=_W, height=260, title=ui("Feature selection before or inside CV"))
    right = right.properties(width=_W, height=260, title=ui("fold accuracies at the selected k"))
    readout = _readout_mark(data["readout"], at_k)
    return alt.vconcat(alt.hconcat(left, right), readout).add_params(kp)


@validate_params(
    {"k": [None, *at_least(1)], "chance": [None, *PROBABILITY]}
)  # study: inline, its message (pinned) names the function that makes one; k among study.ks: inline
def leakage_explorer(study: LeakageStudy, *, k=None, chance=None) -> Explorer:
    """One menu picks how many features were selected before cross-validation (one of ``study.ks``, from
    :func:`evallib.pitfalls.selection_leakage`); the text and the charts give the leaky and the honest estimate.

    Returns an :class:`Explorer` whose chart has the control ``k``.
    """
    st = _check_study(study)
    ks = [int(v) for v in st.ks]
    k = ks[len(ks) // 2] if k is None else k
    if k not in ks:
        raise ValueError(f"k must be one of the studied ks {ks}, got {k!r}")
    if chance is not None:
        chance = check_real(chance, "chance", low=0, high=1)
    data = leakage_data(st)
    return Explorer(
        _leakage_chart(data, k, chance),
        text=_leakage_text(st, k),
        data=data,
        title=ui("Leakage explorer: features selected before cross-validation"),
        values={"k": k},
    )


# -------------------------------------------------------------------------------------------- calibration
LOG2_SLOPES = np.round(-2 + 0.25 * np.arange(17), 10)  # slope = 2 ** these: 1/4 to 4
SHIFTS = np.round(-2 + 0.2 * np.arange(21), 10)


def _bent_summary(y_true, proba, slope, shift, n_bins):
    bent = distort_probabilities(proba, slope=slope, shift=shift)
    cc = _metrics.calibration_curve(y_true, bent, n_bins=n_bins)
    return bent, cc, _metrics.brier_score(y_true, bent), _metrics.log_loss(y_true, bent)


def _base_summary(y, p, n_bins):
    return (*_bent_summary(y, p, 1.0, 0.0, n_bins), _curves.roc_auc(y, p))


def _calibration_text(y, p, slope, shift, n_bins, base=None):
    check_real(slope, "slope", low=0, low_open=True)
    check_real(shift, "shift")
    bent, cc, brier, ll = _bent_summary(y, p, slope, shift, n_bins)
    _, cc0, brier0, ll0, auc0 = base if base is not None else _base_summary(y, p, n_bins)
    text = say(
        "slope {slope:.2f}, shift {shift:+.2f} | ROC AUC {auc:.4f} (original {auc0:.4f}) | Brier {b:.4f} "
        "(original {b0:.4f}) | log loss {ll:.4f} (original {ll0:.4f}) | ECE {e:.4f} (original {e0:.4f})",
        slope=slope,
        shift=shift,
        auc=_curves.roc_auc(y, bent),
        auc0=auc0,
        b=brier,
        b0=brier0,
        ll=ll,
        ll0=ll0,
        e=cc.ece,
        e0=cc0.ece,
    )
    return text, cc, brier


def _check_calibration(y_true, proba, n_bins):
    _metrics.brier_score(y_true, proba)  # y_true binary {0, 1} (or pos_label), proba in [0, 1]: errors name them
    check_positive_int(n_bins, "n_bins")
    return np.asarray(y_true), np.asarray(proba, dtype=float)


@validate_params({"y_true": ["array-like"], "proba": ["array-like"], "n_bins": at_least(1)})
def calibration_data(y_true, proba, *, n_bins=10) -> dict:
    """What the calibration explorer shows for every bend on its grid (slope = 2 ** :data:`LOG2_SLOPES`, shift in
    :data:`SHIFTS`): ``{"bins", "readout", "original", "roc"}`` DataFrames.

    ``bins``: log2_slope, shift, mean_predicted, fraction_positive, count (the reliability diagram of
    :func:`evallib.metrics.calibration_curve`, one row per non-empty bin); ``readout``: log2_slope, shift, text,
    lines (text broken to fit), title; ``original``: the diagram of ``proba``; ``roc``: fpr, tpr of :func:`evallib.curves.roc_curve`.
    """
    y, p = _check_calibration(y_true, proba, n_bins)
    base = _base_summary(y, p, n_bins)
    bins, readout = [], []
    for e in LOG2_SLOPES:
        for s in SHIFTS:
            text, cc, brier = _calibration_text(y, p, 2.0**e, s, n_bins, base)
            # 6 digits: the probabilities come through BLAS (a model's predict_proba) and differ between CPUs
            bins += list(
                zip(
                    [e] * len(cc.counts),
                    [s] * len(cc.counts),
                    significant(cc.mean_predicted),
                    cc.fraction_positive.tolist(),
                    cc.counts.tolist(),
                )
            )
            readout.append((e, s, text, wrap(text), f"bent: Brier {brier:.3f}, ECE {cc.ece:.3f}"))
    cc0 = base[1]
    roc = _curves.roc_curve(y, p)
    return {
        "bins": pd.DataFrame(bins, columns=["log2_slope", "shift", "mean_predicted", "fraction_positive", "count"]),
        "readout": pd.DataFrame(readout, columns=["log2_slope", "shift", "text", "lines", "title"]),
        "original": pd.DataFrame(
            {
                "mean_predicted": significant(cc0.mean_predicted),
                "fraction_positive": cc0.fraction_positive,
                "count": cc0.counts,
            }
        ),
        "roc": pd.DataFrame({"fpr": np.asarray(roc[0], float), "tpr": np.asarray(roc[1], float)}),
    }


@validate_params(
    {"y_true": ["array-like"], "proba": ["array-like"], "slope": POSITIVE, "shift": REAL, "n_bins": at_least(1)}
)
def calibration_update(y_true, proba, slope=1.0, shift=0.0, *, n_bins=10):
    """Text and figure of the calibration explorer for one bend ``expit(slope · logit(p) + shift)``: the static
    figure is the reliability diagram of the original and the bent probabilities."""
    from .. import plots
    from ..style import new_figure

    y, p = _check_calibration(y_true, proba, n_bins)
    text, _, _ = _calibration_text(y, p, slope, shift, n_bins)
    fig, ax = new_figure()
    plots.plot_calibration(y, p, n_bins=n_bins, ax=ax, label="original", color=COLORS["grey"])
    plots.plot_calibration(
        y, distort_probabilities(p, slope=slope, shift=shift), n_bins=n_bins, ax=ax, label="bent", color=COLORS["red"]
    )
    return text, fig


def _calibration_chart(data, log2_slope, shift):
    sp = slider(float(log2_slope), -2.0, 2.0, 0.25, "log₂ slope (over-/under-confidence)", name="log2_slope")
    hp = slider(float(shift), -2.0, 2.0, 0.2, "shift of the log-odds", name="shift")
    at = match(log2_slope=sp, shift=hp)
    x = alt.X("mean_predicted:Q", scale=alt.Scale(domain=[0, 1]), title=ui("mean predicted probability"))
    y = alt.Y("fraction_positive:Q", scale=alt.Scale(domain=[0, 1]), title=ui("fraction of positives"))
    diag = (
        alt.Chart(pd.DataFrame({"mean_predicted": [0, 1], "fraction_positive": [0, 1]}))
        .mark_line(strokeDash=[4, 3], color="black", strokeWidth=1)
        .encode(x, y)
    )
    orig = (
        alt.Chart(inline(data["original"]))
        .mark_line(point=alt.OverlayMarkDef(color=COLORS["grey"]), color=COLORS["grey"])
        .encode(x, y)
    )
    bent_base = alt.Chart(inline(data["bins"])).transform_filter(at)
    bent = bent_base.mark_line(color=COLORS["red"]).encode(x, y) + bent_base.mark_circle(
        color=COLORS["red"], opacity=1
    ).encode(x, y, size=alt.Size("count:Q", legend=None, scale=alt.Scale(range=[12, 132])))
    title = (
        alt.Chart(inline(data["readout"]))
        .transform_filter(at)
        .mark_text(align="left", baseline="top", fontWeight="bold", x=4, y=4)
        .encode(text="title:N")
    )
    left = (diag + orig + bent + title).properties(width=_W, height=_W)
    roc = (
        alt.Chart(inline(data["roc"]))
        .mark_line(color=COLORS["grey"])
        .encode(alt.X("fpr:Q", title=ui("false positive rate")), alt.Y("tpr:Q", title=ui("true positive rate")))
    )
    right = roc.properties(width=_W, height=_W, title=ui("ROC curve: the same for every bend"))
    return alt.vconcat(alt.hconcat(left, right), _readout_mark(data["readout"], at)).add_params(sp, hp)


@validate_params(
    {"y_true": ["array-like"], "proba": ["array-like"], "slope": POSITIVE, "shift": REAL, "n_bins": at_least(1)}
)  # slope and shift on the explorer's grid: inline
def calibration_explorer(y_true, proba, *, slope=1.0, shift=0.0, n_bins=10) -> Explorer:
    """Bend binary probabilities monotonically (:func:`evallib.pitfalls.distort_probabilities`) and watch the
    reliability diagram, Brier score and log loss move while the ROC curve and its AUC stay put.

    Controls: ``slope`` (log₂ scale, 1/4 to 4 in steps of 2 ** 0.25: below 1 under-confident, above 1
    over-confident) and ``shift`` (added to the log-odds, -2 to 2 in steps of 0.2); the start values lie on
    that grid. Returns an :class:`Explorer`.
    """
    y, p = _check_calibration(y_true, proba, n_bins)
    check_real(slope, "slope", low=0, low_open=True)
    check_real(shift, "shift")
    e = float(np.log2(slope))
    if np.min(np.abs(LOG2_SLOPES - e)) > 1e-9:
        raise ValueError(f"slope must be 2 ** k for k in -2, -1.75, ..., 2 (the explorer's grid), got {slope!r}")
    if np.min(np.abs(SHIFTS - shift)) > 1e-9:
        raise ValueError(f"shift must be a multiple of 0.2 in [-2, 2] (the explorer's grid), got {shift!r}")
    data = calibration_data(y, p, n_bins=n_bins)
    text, _, _ = _calibration_text(y, p, slope, shift, n_bins)
    return Explorer(
        _calibration_chart(data, e, shift),
        text=text,
        data=data,
        title=ui("Calibration explorer: bend the probabilities"),
        values={"slope": slope, "shift": shift},
    )
