"""Explorers for evallib.curves: the threshold explorer (notebook 05) and the cost explorer (notebook 06), drawn
in the browser from data evallib precomputes (docs/design/explorers.md).

:func:`threshold_data` holds every cut point of the slider (:func:`evallib.curves.threshold_summary`);
:func:`cost_data` holds, per model, the ROC points on the convex hull and the probability-cost interval where each
is the best (:func:`evallib.curves.cost_curve`), and the readout's fields for every (p, cost ratio).
"""

from __future__ import annotations

import math

import altair as alt
import numpy as np
import pandas as pd

from .. import curves as _curves
from .._validation import check_probability, check_real, resolve_pos_label, validate_params
from ..i18n import N_, say, ui
from ..style import COLORS
from ._chart import POSITIVE, PROBABILITY, REAL, Explorer, inline, match, readout, readout_expr, slider, wrap

__all__ = ["threshold_data", "threshold_explorer", "cost_data", "cost_explorer"]

_PALETTE = [COLORS[c] for c in ("blue", "orange", "green", "red", "purple", "sky")]
THRESHOLD_TEXT = (
    N_("threshold {t:.2f}: predict positive when score >= {t:.2f}"),
    N_("precision {p:.3f}   recall {r:.3f}   F1 {f1:.3f}{note}"),
    N_("TPR {tpr:.3f}   FPR {fpr:.3f}   (AUC {auc:.3f}, BEP {bep:.3f})"),
)
NOTHING = N_("  (nothing predicted positive: precision taken as 1)")


def _threshold_grid(scores, step):
    s = np.asarray(scores, dtype=float)
    if isinstance(step, bool) or not (isinstance(step, (int, float)) and step > 0 and math.isfinite(step)):
        raise ValueError(f"step must be a number > 0, got {step!r}")
    lo = math.floor(s.min() / step) * step
    hi = math.ceil(s.max() / step) * step + step  # one step above the top score: nothing predicted positive
    lo, hi = round(lo, 10), round(hi, 10)
    n = int(round((hi - lo) / step))
    return lo, hi, np.round(lo + step * np.arange(n + 1), 10)


def _threshold_text(t, area, bep):
    note = say(NOTHING) if t.tp + t.fp == 0 else ""
    return "\n".join(
        [
            say(THRESHOLD_TEXT[0], t=t.threshold),
            f"[[TP, FN], [FP, TN]] = [[{t.tp}, {t.fn}], [{t.fp}, {t.tn}]]",
            say(THRESHOLD_TEXT[1], p=t.precision, r=t.recall, f1=t.f1, note=note),
            say(THRESHOLD_TEXT[2], tpr=t.tpr, fpr=t.fpr, auc=area, bep=bep),
        ]
    )


@validate_params({"y_true": ["array-like"], "scores": ["array-like"], "step": POSITIVE, "pos_label": [None, "label"]})
def threshold_data(y_true, scores, *, step=0.01, pos_label=None) -> dict:
    """Every state of the threshold explorer: for each cut point of the slider (multiples of ``step`` from below
    the lowest score to one step above the highest), :func:`evallib.curves.threshold_summary` and the readout;
    and the ROC and P-R curves (:func:`evallib.curves.roc_curve`, :func:`~evallib.curves.pr_curve`), AUC and BEP.

    Returns DataFrames ``states`` (one row per threshold: ``t``, tp, fn, fp, tn, precision, recall, f1, tpr, fpr,
    ``text`` as printed, ``readout`` wrapped for the chart), ``roc`` (fpr, tpr), ``pr`` (recall, precision) and
    the numbers ``auc`` and ``bep``.

    >>> d = threshold_data([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], step=0.1)
    >>> d["states"][["t", "tp", "fp"]].iloc[4].tolist()  # t = 0.1, 0.2, ...: scores >= 0.5 are positive
    [0.5, 2.0, 1.0]
    """
    roc = _curves.roc_curve(y_true, scores, pos_label=pos_label)  # validates y_true, scores
    pr = _curves.pr_curve(y_true, scores, pos_label=pos_label)
    area = _curves.roc_auc(y_true, scores, pos_label=pos_label)
    bep = _curves.break_even_point(y_true, scores, pos_label=pos_label)
    _, _, grid = _threshold_grid(scores, step)
    rows = []
    for th in grid:
        t = _curves.threshold_summary(y_true, scores, float(th), pos_label=pos_label)
        text = _threshold_text(t, area, bep)
        rows.append(
            dict(
                t=float(th),
                tp=t.tp,
                fn=t.fn,
                fp=t.fp,
                tn=t.tn,
                precision=t.precision,
                recall=t.recall,
                f1=t.f1,
                tpr=t.tpr,
                fpr=t.fpr,
                text=text,
                readout=wrap(text),
                roc_label=f"FPR {t.fpr:.2f}, TPR {t.tpr:.2f}",
                pr_label=f"R {t.recall:.2f}, P {t.precision:.2f}",
            )
        )
    return {
        "states": pd.DataFrame(rows),
        "roc": pd.DataFrame({"fpr": roc[0], "tpr": roc[1]}),
        "pr": pd.DataFrame({"recall": pr[1], "precision": pr[0]}),
        "auc": area,
        "bep": bep,
    }


@validate_params(
    {
        "y_true": ["array-like"],
        "scores": ["array-like"],
        "threshold": [None, *REAL],  # within the scores' range: inline
        "step": POSITIVE,
        "pos_label": [None, "label"],
    }
)
def threshold_explorer(y_true, scores, *, threshold=None, step=0.01, pos_label=None) -> Explorer:
    """One slider moves the cut point (predict positive when ``score >= threshold``); the confusion
    matrix, P, R, F1, TPR and FPR and the marked point on both the ROC and the P-R curve follow it.

    Returns an :class:`Explorer` with the control ``threshold``.
    """
    _curves.roc_curve(y_true, scores, pos_label=pos_label)  # validates y_true, scores
    if threshold is not None:
        check_real(threshold, "threshold")
    lo, hi, grid = _threshold_grid(scores, step)
    if threshold is None:
        threshold = 0.5 if lo <= 0.5 <= hi else round(float(np.median(np.asarray(scores, float))), 10)
    if not lo <= threshold <= hi:
        raise ValueError(f"threshold must lie in [{lo}, {hi}] (the score range), got {threshold}")
    threshold = float(grid[np.argmin(np.abs(grid - threshold))])  # a point of the slider
    data = threshold_data(y_true, scores, step=step, pos_label=pos_label)
    st = data["states"]
    p_t = slider(threshold, lo, hi, step, "threshold", name="threshold")
    states = alt.Chart(inline(st.drop(columns="text"))).transform_filter(match(t=p_t))
    cells = states.transform_fold(["tp", "fn", "fp", "tn"], as_=["cell", "count"]).transform_calculate(
        row="datum.cell == 'tp' || datum.cell == 'fn' ? 0 : 1",
        col="datum.cell == 'tp' || datum.cell == 'fp' ? 0 : 1",
        share="datum.count / (datum.tp + datum.fn + datum.fp + datum.tn)",
        label="upper(datum.cell) + '\\n' + datum.count",
    )
    rect = cells.mark_rect(stroke="white").encode(
        x=alt.X("col:O", title=ui("predicted")),
        y=alt.Y("row:O", title=ui("true")),
        color=alt.Color("share:Q", scale=alt.Scale(scheme="blues", domain=[0, 1]), legend=None),
    )
    ctext = cells.mark_text(lineBreak="\n", fontSize=13).encode(
        x="col:O",
        y="row:O",
        text="label:N",
        color=alt.condition("datum.share > 0.5", alt.value("white"), alt.value("black")),
    )
    cm = alt.layer(rect, ctext).properties(width=150, height=150, title=ui("confusion matrix"))
    u = alt.Scale(domain=[-0.02, 1.02], nice=False)
    roc_line = (
        alt.Chart(inline(data["roc"]))
        .mark_line(color=COLORS["blue"])
        .encode(x=alt.X("fpr:Q", scale=u, title="FPR"), y=alt.Y("tpr:Q", scale=u, title="TPR"), order="index:Q")
        .transform_window(index="row_number()")
    )
    diag = (
        alt.Chart(inline(pd.DataFrame({"a": [0, 1]})))
        .mark_line(strokeDash=[4, 3], color=COLORS["grey"])
        .encode(x=alt.X("a:Q", scale=u), y=alt.Y("a:Q", scale=u))
    )
    dot = dict(filled=True, fill="white", stroke=COLORS["red"], strokeWidth=2, size=80)
    roc_mark = states.mark_point(**dot).encode(x="fpr:Q", y="tpr:Q")
    roc_note = states.mark_text(align="right", baseline="bottom", color=COLORS["red"]).encode(
        text="roc_label:N", x=alt.value(205), y=alt.value(190)
    )
    auc_note = (
        alt.Chart(inline(pd.DataFrame({"s": [f"ROC (AUC = {data['auc']:.3f})"]})))
        .mark_text(align="right", baseline="bottom", color=COLORS["blue"])
        .encode(text="s:N", x=alt.value(205), y=alt.value(175))
    )
    roc = alt.layer(roc_line, diag, roc_mark, roc_note, auc_note).properties(
        width=210, height=200, title=ui("ROC curve")
    )
    pr_line = (
        alt.Chart(inline(data["pr"]))
        .transform_window(index="row_number()")
        .mark_line(color=COLORS["green"])
        .encode(
            x=alt.X("recall:Q", scale=u, title=ui("recall")),
            y=alt.Y("precision:Q", scale=u, title=ui("precision")),
            order="index:Q",
        )
    )
    diag2 = diag.mark_line(strokeDash=[1, 2], color=COLORS["grey"])
    bep = alt.Chart(inline(pd.DataFrame({"b": [data["bep"]], "s": [f"BEP = {data['bep']:.3f}"]})))
    bep_mark = bep.mark_point(shape="diamond", filled=True, color=COLORS["green"], size=60).encode(x="b:Q", y="b:Q")
    bep_note = bep.mark_text(align="left", baseline="bottom", color=COLORS["green"]).encode(
        text="s:N", x=alt.value(5), y=alt.value(175)
    )
    pr_mark = states.mark_point(**dot).encode(x="recall:Q", y="precision:Q")
    pr_note = states.mark_text(align="left", baseline="bottom", color=COLORS["red"]).encode(
        text="pr_label:N", x=alt.value(5), y=alt.value(190)
    )
    pr = alt.layer(pr_line, diag2, bep_mark, bep_note, pr_mark, pr_note).properties(
        width=210, height=200, title=ui("P-R curve")
    )
    n_lines = max(t.count("\n") + 1 for t in st["readout"])
    title = ui("Threshold explorer: move the cut point")
    chart = (
        alt.vconcat(alt.hconcat(cm, roc, pr), readout(states, n_lines=n_lines)).add_params(p_t).properties(title=title)
    )
    text = st.loc[np.argmin(np.abs(st["t"].to_numpy() - threshold)), "text"]
    return Explorer(chart, data=data, text=text, title=title, values={"threshold": threshold})


COST_TEXT = (
    N_("p = {p:.2f}, cost_fn / cost_fp = {ratio:.3g}  ->  probability cost x = {x:.3f}"),
    N_(
        "{name:>{width}}: best threshold {t:.3g}, FPR {fpr:.3f}, FNR {fnr:.3f}, normalised cost {nc:.3f}, "
        "cost per sample {ec:.3f}"
    ),
    N_("lowest cost at this x: {name}"),
)
RATIOS = tuple(float(v) for v in np.round(np.arange(-5.0, 5.0001, 0.25), 10))  # the log2(cost ratio) slider


def _cost_text(curves, p, log2_cost_ratio):
    cost_fn, cost_fp = 2.0**log2_cost_ratio, 1.0
    x = _curves.probability_cost(p, cost_fn, cost_fp)
    lines = [say(COST_TEXT[0], p=p, ratio=cost_fn, x=x)]
    best, width = None, max(len(str(n)) for n in curves)
    for name, cc in curves.items():
        op = _curves.cost_operating_point(cc, p=p, cost_fn=cost_fn, cost_fp=cost_fp)
        lines.append(
            say(
                COST_TEXT[1],
                name=name,
                width=width,
                t=op.threshold,
                fpr=op.fpr,
                fnr=op.fnr,
                nc=op.normalized_cost,
                ec=op.expected_cost,
            )
        )
        if best is None or op.normalized_cost < best[1]:
            best = (name, op.normalized_cost)
    lines.append(say(COST_TEXT[2], name=best[0]))
    return "\n".join(lines)


@validate_params({"y_true": ["array-like"], "scores_by_model": [dict], "pos_label": [None, "label"]})
def cost_data(y_true, scores_by_model, *, pos_label=None) -> dict:
    """What the cost explorer draws and reads, for every class prior and cost ratio: per model its ROC points
    (:func:`evallib.curves.cost_curve`: FPR, FNR, threshold, and the readout's strings of them), its lower
    envelope, AUC and expected total cost. The chart finds the best point at the current probability cost as
    :func:`evallib.curves.cost_operating_point` does (the first ROC point, highest threshold, of least
    normalised cost FNR·x + FPR·(1 - x)), with the same floating-point operations.

    Returns DataFrames ``points`` (one row per model and ROC point), ``envelopes`` and ``models``.
    """
    if not isinstance(scores_by_model, dict) or not scores_by_model:
        raise ValueError("scores_by_model must be a non-empty dict {model name: scores}")
    curves = {name: _curves.cost_curve(y_true, s, pos_label=pos_label) for name, s in scores_by_model.items()}
    width = max(len(str(n)) for n in curves)
    points, env, models = [], [], []
    for m_i, (name, cc) in enumerate(curves.items()):
        auc = _curves.roc_auc(y_true, scores_by_model[name], pos_label=pos_label)
        models.append(
            dict(
                m_i=m_i,
                model=str(name),
                auc=auc,
                area=cc.expected_total_cost,
                roc_label=f"{name} (AUC {auc:.3f})",
                cost_label=f"{name} (area {cc.expected_total_cost:.3f})",
            )
        )
        for i, (f, n, t) in enumerate(zip(cc.fpr, cc.fnr, cc.thresholds)):
            points.append(
                dict(
                    m_i=m_i,
                    model=str(name),
                    i=i,
                    fpr=float(f),
                    fnr=float(n),
                    tpr=float(1 - n),
                    f_name=format(str(name), f">{width}"),
                    f_t=format(float(t), ".3g"),
                    f_fpr=format(float(f), ".3f"),
                    f_fnr=format(float(n), ".3f"),
                )
            )
        for i, (ex, ey) in enumerate(zip(cc.envelope_x, cc.envelope_y)):
            env.append(dict(m_i=m_i, model=str(name), i=i, x=float(ex), y=float(ey)))
    return {
        "points": pd.DataFrame(points),
        "envelopes": pd.DataFrame(env),
        N_("models"): pd.DataFrame(models),
        "curves": curves,
    }


@validate_params(
    {
        "y_true": ["array-like"],
        "scores_by_model": [dict],
        "p": [None, *PROBABILITY],
        "log2_cost_ratio": REAL,  # within the slider's [-5, 5]: inline
        "pos_label": [None, "label"],
    }
)
def cost_explorer(y_true, scores_by_model, *, p=None, log2_cost_ratio=0.0, pos_label=None) -> Explorer:
    """Cost ratio and class prior → the best threshold of each model and where it sits on the cost curve.

    ``scores_by_model`` maps a model's name to its scores on the same samples ``y_true``. Controls:
    ``p`` (prior probability of the positive class, default: its share in ``y_true``) and
    ``log2_cost_ratio`` = log2(cost_fn / cost_fp) (cost_fp fixed at 1). Left: each model's cost lines
    and lower envelope with the vertical line at the probability cost x (式(2.24)); right: the ROC
    curves with the best point of each model and its iso-cost line of slope (1 - x) / x (the duality).
    """
    from .compare import _js, py_fixed

    data = cost_data(y_true, scores_by_model, pos_label=pos_label)
    curves = data.pop("curves")
    check_real(log2_cost_ratio, "log2_cost_ratio")
    if p is not None:
        check_probability(p, "p")
    if p is None:
        y = np.asarray(y_true)
        p = round(float(np.mean(y == resolve_pos_label(np.unique(y), pos_label))), 2)
    p = round(float(np.clip(p, 0.01, 0.99)), 2)
    r0 = float(log2_cost_ratio)
    if not -5.0 <= r0 <= 5.0:
        raise ValueError(f"log2_cost_ratio must lie in [-5, 5] (the slider's range), got {log2_cost_ratio}")
    text = _cost_text(curves, p, r0)
    p_p = slider(p, 0.01, 0.99, 0.01, "prior p of the positive class", name="p")
    p_r = slider(r0, -5.0, 5.0, 0.25, "log2(cost_fn / cost_fp)", name="log2_cost_ratio")
    cfn_list = "[" + ", ".join(repr(2.0**r) for r in RATIOS) + "]"
    ratio_list = "[" + ", ".join(_js(format(2.0**r, ".3g")) for r in RATIOS) + "]"
    idx = "round((log2_cost_ratio + 5) * 4)"
    # the initial value may lie between the slider's steps (chapter 06: log2(5)): its own ratio until moved
    at_start = f"abs(log2_cost_ratio - {r0!r}) < 1e-12"
    cfn = f"({at_start} ? {2.0**r0!r} : {cfn_list}[{idx}])"
    x_expr = f"p * {cfn} / (p * {cfn} + (1 - p) * 1.0)"
    names = data[N_("models")]["model"].tolist()
    colour = alt.Color("model:N", title=None, scale=alt.Scale(domain=names, range=_PALETTE[: len(names)]), legend=None)
    best = (
        alt.Chart(inline(data["points"]))
        .transform_calculate(x=x_expr, cfn=cfn)
        .transform_calculate(nc="datum.fnr * datum.x + datum.fpr * (1 - datum.x)")
        .transform_joinaggregate(least="min(nc)", groupby=["m_i"])
        .transform_filter("datum.nc == datum.least")
        .transform_window(rank="row_number()", groupby=["m_i"], sort=[alt.SortField("i")])
        .transform_filter("datum.rank == 1")
        .transform_calculate(ec="datum.nc * (p * datum.cfn + (1 - p) * 1.0)")
        .transform_joinaggregate(gmin="min(nc)")
        .transform_calculate(cand="datum.nc == datum.gmin ? datum.m_i : 1e9")
        .transform_joinaggregate(bi="min(cand)")
        .transform_calculate(
            f_p=py_fixed("p", 2),
            f_ratio=f"{at_start} ? {_js(format(2.0**r0, '.3g'))} : {ratio_list}[{idx}]",
            f_x=py_fixed("datum.x", 3),
            f_nc=py_fixed("datum.nc", 3),
            f_ec=py_fixed("datum.ec", 3),
        )
    )
    unit = alt.Scale(domain=[0, 1], nice=False)
    # left: cost lines of every ROC point, the envelopes, the vertical line at x and each model's best point
    lines = (
        alt.Chart(inline(data["points"]))
        .transform_calculate(x0="0", x1="1")
        .mark_rule(opacity=0.25, strokeWidth=0.5)
        .encode(
            x=alt.X("x0:Q", scale=unit, title=ui("probability cost P(+)cost")),
            x2="x1:Q",
            y=alt.Y("fpr:Q", scale=unit, title=ui("normalised cost")),
            y2="fnr:Q",
            color=colour,
        )
    )
    env = (
        alt.Chart(inline(data["envelopes"]))
        .mark_line(strokeWidth=2)
        .encode(x=alt.X("x:Q", scale=unit), y=alt.Y("y:Q", scale=unit), color=colour, order="i:Q", detail="m_i:N")
    )
    vline = best.transform_filter("datum.m_i == 0").mark_rule(color=COLORS["black"], strokeDash=[5, 3]).encode(x="x:Q")
    dot = dict(filled=True, fill="white", strokeWidth=2, size=60)
    cost_mark = best.mark_point(**dot).encode(
        x="x:Q",
        y="nc:Q",
        stroke=alt.Stroke("model:N", scale=alt.Scale(domain=names, range=_PALETTE[: len(names)]), legend=None),
    )
    left = alt.layer(lines, env, vline, cost_mark).properties(
        width=270, height=240, title=ui("Cost curves and lower envelopes")
    )
    # right: ROC curves, best points and iso-cost lines of slope (1 - x) / x through them
    u2 = alt.Scale(domain=[-0.02, 1.02], nice=False)
    roc = (
        alt.Chart(inline(data["points"]))
        .mark_line()
        .encode(
            x=alt.X("fpr:Q", scale=u2, title="FPR"),
            y=alt.Y("tpr:Q", scale=u2, title="TPR"),
            color=colour,
            order="i:Q",
            detail="m_i:N",
        )
    )
    roc_mark = best.mark_point(**dot).encode(
        x="fpr:Q",
        y="tpr:Q",
        stroke=alt.Stroke("model:N", scale=alt.Scale(domain=names, range=_PALETTE[: len(names)]), legend=None),
    )
    iso = (
        best.transform_calculate(
            a0="0",
            a1="1",
            b0="datum.tpr + (1 - datum.x) / datum.x * (0 - datum.fpr)",
            b1="datum.tpr + (1 - datum.x) / datum.x * (1 - datum.fpr)",
        )
        .mark_rule(strokeDash=[1, 2], clip=True)
        .encode(x=alt.X("a0:Q", scale=u2), x2="a1:Q", y=alt.Y("b0:Q", scale=u2), y2="b1:Q", color=colour)
    )
    legend = (
        alt.Chart(inline(data[N_("models")]))
        .mark_text(align="right", baseline="bottom", fontSize=11)
        .encode(text="roc_label:N", color=colour, x=alt.value(265), y=alt.Y("pos:Q", scale=None))
        .transform_calculate(pos=f"236 - 14 * ({len(names)} - 1 - datum.m_i)")
    )
    right = alt.layer(roc, iso, roc_mark, legend).properties(
        width=270, height=240, title=ui("ROC: best points and iso-cost lines")
    )
    # the readout: a line per model between the prior/cost line and the best model's name (10 px monospace:
    # the longest line, about 115 columns, fits 720 px without wrapping)
    mono = dict(align="left", baseline="top", font="monospace", fontSize=10)
    n = len(names)
    head = (
        best.transform_filter("datum.m_i == 0")
        .transform_calculate(line=readout_expr(COST_TEXT[0], "f_"))
        .mark_text(**mono)
        .encode(text="line:N", x=alt.value(0), y=alt.value(2))
    )
    rows = (
        best.transform_calculate(line=readout_expr(COST_TEXT[1], "f_"), y="2 + 14 * (datum.m_i + 1)")
        .mark_text(**mono)
        .encode(text="line:N", x=alt.value(0), y=alt.Y("y:Q", scale=None, axis=None))
    )
    tail = (
        best.transform_filter("datum.m_i == datum.bi")
        .transform_calculate(f_name="datum.model", line=readout_expr(COST_TEXT[2], "f_"))
        .mark_text(**mono)
        .encode(text="line:N", x=alt.value(0), y=alt.value(2 + 14 * (n + 1)))
    )
    text_panel = alt.layer(head, rows, tail).properties(width=680, height=14 * (n + 2) + 4)
    title = ui("Cost explorer: class prior and cost ratio")
    chart = (
        alt.vconcat(alt.hconcat(left, right), text_panel)
        .add_params(p_p, p_r)
        .resolve_scale(color="independent")
        .properties(title=title)
    )
    return Explorer(chart, data=data, text=text, title=title, values={"p": p, "log2_cost_ratio": r0})
