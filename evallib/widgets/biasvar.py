"""The bias–variance explorer (偏差与方差, 西瓜书 §2.5; centrepiece of ``notebooks/10_bias_variance.ipynb``).

evallib computes, the browser draws. With the same ``random_state`` for every setting (common random numbers),
a least-squares polynomial is linear in the labels y = f(x) + noise_std · ε, so each prediction is
P₀ + noise_std · P_ε (P₀ fitted to the noise-free labels, P_ε to the noise ε alone) and every term of the decomposition 式(2.42)
is a quadratic in noise_std. :func:`bias_variance_data` runs :func:`evallib.biasvar.bias_variance` at
noise_std 0 and 1 for every degree, training-set size and number of data sets of the menus and stores those
parts; the chart combines them for the noise slider's value (a test checks they equal ``bias_variance`` at
other noise levels).
"""

from __future__ import annotations

import json

import altair as alt
import numpy as np
import pandas as pd

from .._validation import validate_params
from ..biasvar import bias_variance
from ..fitting import PolynomialRegression
from ..i18n import N_, say, ui
from ..style import COLORS
from ._chart import (
    NONNEGATIVE,
    REAL,
    SEED,
    WIDTH,
    Explorer,
    at_least,
    inline,
    match,
    menu,
    readout,
    readout_expr,
    slider,
)
from ._digits import Shown, plotted, quadratic, shown_expr

__all__ = [
    "sine_target",
    "N_TRAINS",
    "N_DATASETS",
    "bias_variance_data",
    "bias_variance_view",
    "bias_variance_explorer",
]

N_TRAINS = (10, 20, 30, 50, 100, 200)  # the training-set size menu
N_DATASETS = (10, 50, 200)  # the data-set menu
N_CURVES = 8  # fitted polynomials shown per setting (of the n_datasets simulated)
FAN_STEP = 5  # the fan is drawn at every FAN_STEP-th of the 101 test points
DECOMPOSITION_YLIM = (1e-4, 1e4)  # mean squared error: bars outside it (degree 15 on 2 points) leave the axes
NOISE_STEPS = (0.3, 0.6, 1.0, 1.5, 2.0)  # the fan's y-range steps at these noise levels
NOISE_GRID = np.round(0.05 * np.arange(41), 10)  # the noise slider: 0 to 2 by 0.05
_TERMS = (N_("bias²"), N_("variance"), N_("noise"), N_("sum"), N_("expected error"))
_L1 = N_("degree {d}, noise_std {s:.2f}, {n} data sets of {m} points")
_L2 = N_("bias² = {b:.4f}   variance = {v:.4f}   noise = {e:.4f}")
_L3 = N_("bias² + variance + noise = {s:.4f}   simulated expected error = {ee:.4f}")
_L4 = N_("dominant term: {term}")


@validate_params({"x": [*REAL, "array-like"]})
def sine_target(x):
    """The course's true function f(x) = sin(2πx) (the same curve as :func:`evallib.data.make_sine`)."""
    from .._validation import as_finite_array, check_real

    x = check_real(x, "x") if np.ndim(x) == 0 else as_finite_array(x, "x")
    return np.sin(2 * np.pi * x)


def _readout(degree, r):
    """The explorer's text for one result (or anything with the same fields)."""
    s = r.bias2 + r.variance + r.noise
    dominant = max((N_("bias²"), r.bias2), (N_("variance"), r.variance), (N_("noise"), r.noise), key=lambda t: t[1])[0]
    return "\n".join(
        [
            say(_L1, d=degree, s=r.noise_std, n=r.n_datasets, m=r.n_train),
            say(_L2, b=Shown(r.bias2), v=Shown(r.variance), e=Shown(r.noise)),
            say(_L3, s=Shown(s), ee=Shown(r.expected_error)),
            say(_L4, term=say(dominant)),
        ]
    )


@validate_params(
    {
        "degree": at_least(0),
        "noise_std": NONNEGATIVE,
        "n_train": at_least(1),
        "n_datasets": at_least(2),
        "target": ["callable"],
        "x_range": ["range"],
        "random_state": SEED,
        "n_curves": at_least(0),
    }
)
def bias_variance_view(
    degree, noise_std, n_train, n_datasets, *, target=sine_target, x_range=(0, 1), random_state=0, n_curves=40
):
    """Text, figure and result of the explorer for one setting: ``(text, figure, result)``.

    The figure shows the fan of fitted polynomials and the bars of the decomposition 式(2.42) (static:
    :func:`evallib.plots.plot_prediction_fan`, :func:`evallib.plots.plot_decomposition`).
    """
    from ..plots.biasvar import plot_decomposition, plot_prediction_fan
    from ..style import new_figure

    r = bias_variance(
        PolynomialRegression(degree),
        target,
        noise_std=noise_std,
        n_train=n_train,
        n_datasets=n_datasets,
        x_range=x_range,
        random_state=random_state,
    )
    fig, (ax1, ax2) = new_figure(ncols=2, width=9.6, height=3.8)
    plot_prediction_fan(r, ax1, n_curves=n_curves)
    ax1.set_title(f"Polynomials of degree {degree} fitted to {r.n_datasets} data sets")
    plot_decomposition(r, ax2, log=True)
    ax2.set_ylim(*DECOMPOSITION_YLIM)
    ax2.set_title("Decomposition, mean over x")
    return _readout(degree, r), fig, r


@validate_params(
    {
        "max_degree": at_least(0),
        "n_trains": ["array-like"],
        "n_datasets": ["array-like"],
        "target": ["callable"],
        "x_range": ["range"],
        "random_state": SEED,
        "n_curves": at_least(0),
    }
)
def bias_variance_data(
    *,
    max_degree=15,
    n_trains=N_TRAINS,
    n_datasets=N_DATASETS,
    target=sine_target,
    x_range=(0, 1),
    random_state=0,
    n_curves=N_CURVES,
) -> dict:
    """The parts of every setting of the explorer: ``{"terms", "fan", "mean", "train", "truth"}`` DataFrames.

    For each degree (0 … max_degree), training-set size ``t`` and number of data sets ``m``, with P₀ and P_ε the
    predictions of :func:`evallib.biasvar.bias_variance` at noise_std 0 and (those at 1) − P₀:
    ``terms``: d, t, m and the coefficients of bias² = b0 + b1·s + b2·s², variance = v0 + v1·s + v2·s²,
    noise = n2·s², expected error = e0 + e1·s + e2·s² (s = noise_std; exact up to rounding: least squares is
    linear in the labels); ``fan``: d, t, m, c and lists a, b: the first ``n_curves`` fitted polynomials
    a + s·b at every FAN_STEP-th test point (rounded to 3 decimals); ``mean``: d, t, m, a, b: the mean prediction
    likewise; ``train``: t, m, lists x, f, e: data set 0's training points y = f + s·e; ``truth``: x, y.
    Numbers are rounded to what the chart and the readout show (:mod:`evallib.widgets._digits`): least squares
    through BLAS differs between CPUs in the last digits, most where a fit explodes.
    """
    degrees = range(int(max_degree) + 1)
    terms, fan, mean, train = [], [], [], []
    for t in n_trains:
        for m in n_datasets:
            for d in degrees:
                kw = dict(n_train=int(t), n_datasets=int(m), x_range=x_range, random_state=random_state)
                r0 = bias_variance(PolynomialRegression(d), target, noise_std=0.0, **kw)
                r1 = bias_variance(PolynomialRegression(d), target, noise_std=1.0, **kw)
                f = r0.y_true
                p0, pe = r0.predictions, r1.predictions - r0.predictions
                eps = r1.y_test - f
                m0, me = p0.mean(axis=0), pe.mean(axis=0)
                d0, de = p0 - m0, pe - me
                q0, qe = p0 - f, pe - eps
                terms.append(
                    dict(
                        d=d,
                        t=t,
                        m=m,
                        b0=np.mean((m0 - f) ** 2),
                        b1=2 * np.mean((m0 - f) * me),
                        b2=np.mean(me**2),
                        v0=np.mean(d0**2),
                        v1=2 * np.mean(d0 * de),
                        v2=np.mean(de**2),
                        n2=np.mean(eps**2),
                        e0=np.mean(q0**2),
                        e1=2 * np.mean(q0 * qe),
                        e2=np.mean(qe**2),
                    )
                )
                order = np.argsort(r0.x_test)[::FAN_STEP]
                for c in range(min(int(n_curves), int(m))):
                    fan.append(dict(d=d, t=t, m=m, c=c, a=plotted(p0[c, order], 3, 5), b=plotted(pe[c, order], 3, 5)))
                mean.append(dict(d=d, t=t, m=m, a=plotted(m0[order], 3, 5), b=plotted(me[order], 3, 5)))
                if d == 0:
                    train.append(
                        dict(
                            t=t,
                            m=m,
                            x=plotted(r0.x_train[0], 4, 6),
                            f=plotted(r0.y_train[0], 4, 6),
                            e=plotted(r1.y_train[0] - r0.y_train[0], 4, 6),
                        )
                    )
    x = np.sort(r0.x_test)
    xf = x[::FAN_STEP]
    terms = pd.DataFrame(terms)
    for k in "bve":
        cols = [f"{k}0", f"{k}1", f"{k}2"]
        terms[cols] = quadratic(terms[cols].to_numpy(), NOISE_GRID)
    terms["n2"] = quadratic(np.c_[0 * terms.n2, 0 * terms.n2, terms.n2], NOISE_GRID)[:, 2]
    return {
        "terms": terms,
        "fan": pd.DataFrame(fan),
        "mean": pd.DataFrame(mean),
        "train": pd.DataFrame(train),
        "truth": pd.DataFrame({"x": x, "y": f[np.argsort(r0.x_test)]}),
        "fan_x": pd.DataFrame({"i": np.arange(len(xf)), "x": xf}),
    }


def _vega_terms():
    """Vega calculate expressions of the four terms (and their sum) from a terms row and the noise param."""
    q = lambda k: f"datum.{k}0 + noise_std * (datum.{k}1 + noise_std * datum.{k}2)"  # noqa: E731
    return {
        "bias2": f"max(0, {q('b')})",
        N_("variance"): f"max(0, {q('v')})",
        N_("noise"): "datum.n2 * noise_std * noise_std",
        "expected": f"max(0, {q('e')})",
    }


def _readout_expr():
    """The readout's four lines, written in the browser from the terms (the same templates as :func:`_readout`)."""
    lines = [readout_expr(_L1, "l1_"), readout_expr(_L2, "l2_"), readout_expr(_L3, "l3_"), readout_expr(_L4, "l4_")]
    return "replace(" + ' + "\\n" + '.join(lines) + ", regexp(' ', 'g'), '\\u00a0')"  # SVG folds runs of spaces


def _readout_fields():
    j = lambda s: json.dumps(s, ensure_ascii=False)  # noqa: E731
    return {
        "l1_d": "toString(degree)",
        "l1_s": "format(noise_std, '.2f')",
        "l1_n": "toString(n_datasets)",
        "l1_m": "toString(n_train)",
        "l2_b": shown_expr("datum.bias2"),
        "l2_v": shown_expr("datum.variance"),
        "l2_e": shown_expr("datum.noise"),
        "l3_s": shown_expr("datum.sum"),
        "l3_ee": shown_expr("datum.expected"),
        "l4_term": (
            f"datum.bias2 >= datum.variance && datum.bias2 >= datum.noise ? {j(say('bias²'))} : "
            f"datum.variance >= datum.noise ? {j(say('variance'))} : {j(say('noise'))}"
        ),
    }


def _fan_domain(truth):
    lo, hi = float(truth["y"].min()), float(truth["y"].max())
    span = (hi - lo) or 1.0
    step = " : ".join(f"noise_std <= {s + 1e-9} ? {s}" for s in NOISE_STEPS) + " : noise_std"
    pad = f"({0.5 * span} + 2.5 * ({step}))"
    return alt.ExprRef(f"[{lo} - {pad}, {hi} + {pad}]")


def _chart(data, degree, noise_std, n_train, n_datasets, max_degree):
    dp = slider(int(degree), 0, int(max_degree), 1, "degree (complexity)", name="degree")
    sp = slider(float(noise_std), 0.0, float(NOISE_GRID[-1]), 0.05, "noise_std", name="noise_std")
    tp = menu(int(n_train), sorted(set(data["terms"]["t"])), "training-set size", name="n_train")
    mp = menu(int(n_datasets), sorted(set(data["terms"]["m"])), "data sets", name="n_datasets")
    here = match(d=dp, t=tp, m=mp)
    xs = alt.Scale(domain=[float(data["truth"]["x"].min()), float(data["truth"]["x"].max())], nice=False)
    ys = alt.Scale(domain=_fan_domain(data["truth"]), nice=False)
    X, Y = alt.X("x:Q", scale=xs, title="x"), alt.Y("y:Q", scale=ys, title="y")
    fx = inline(data["fan_x"], name="fan_x")

    def curves(frame, **enc):
        return (
            alt.Chart(inline(frame))
            .transform_filter(here)
            .transform_flatten(["a", "b"])
            .transform_window(i="row_number()", groupby=["c"] if "c" in frame else [])
            .transform_calculate(i="datum.i - 1", y="datum.a + noise_std * datum.b")
            .transform_lookup(lookup="i", from_=alt.LookupData(fx, key="i", fields=["x"]))
            .mark_line(clip=True, **enc)
            .encode(X, Y)
        )

    fan = curves(data["fan"], color=COLORS["blue"], opacity=0.35, strokeWidth=1).encode(detail="c:N")
    mean = curves(data["mean"], color=COLORS["red"], strokeWidth=2.5)
    truth = alt.Chart(inline(data["truth"])).mark_line(color="black", strokeDash=[5, 3]).encode(X, Y)
    pts = (
        alt.Chart(inline(data["train"]))
        .transform_filter(match(t=tp, m=mp))
        .transform_flatten(["x", "f", "e"])
        .transform_calculate(y="datum.f + noise_std * datum.e")
        .mark_circle(color="black", size=18, opacity=0.8, clip=True)
        .encode(X, Y)
    )
    left = alt.layer(fan, truth, pts, mean).properties(
        width=290, height=250, title=ui("fitted polynomials, their mean (red), f(x) (dashed)")
    )
    calc = _vega_terms()
    terms = (
        alt.Chart(inline(data["terms"]))
        .transform_filter(here)
        .transform_calculate(**calc)
        .transform_calculate(sum="datum.bias2 + datum.variance + datum.noise")
    )
    bars = terms.transform_fold(
        ["bias2", N_("variance"), N_("noise"), N_("sum"), "expected"], as_=["term", "value"]
    ).transform_calculate(shown="max(datum.value, 1e-4)")
    names = dict(zip(["bias2", N_("variance"), N_("noise"), N_("sum"), "expected"], [ui(t) for t in _TERMS]))
    label = "+".join(f"(datum.value == '{k}' ? {json.dumps(v, ensure_ascii=False)} : '')" for k, v in names.items())
    xb = alt.X("term:N", sort=list(names), title=None, axis=alt.Axis(labelExpr=label, labelAngle=-30))
    yb = alt.Y(
        "shown:Q",
        stack=None,
        scale=alt.Scale(type="log", domain=list(DECOMPOSITION_YLIM), clamp=True),
        title=ui("mean squared error"),
    )
    colors = alt.Scale(domain=list(names), range=[COLORS["red"], COLORS["blue"], COLORS["grey"], "#999999", "black"])
    right = alt.layer(
        bars.mark_bar().encode(xb, yb, alt.Color("term:N", scale=colors, legend=None)),
        bars.mark_text(dy=-6).encode(xb, yb, text=alt.Text("value:Q", format=".3g")),
    ).properties(width=WIDTH - 290 - 220, height=250, title=ui("Decomposition, mean over x"))
    text = readout(
        terms.transform_calculate(**_readout_fields()).transform_calculate(readout=_readout_expr()),
        n_lines=4,
        width=WIDTH - 100,
    )
    return alt.vconcat(alt.hconcat(left, right), text).add_params(dp, sp, tp, mp)


@validate_params(
    {
        "degree": at_least(0),  # <= max_degree: inline
        "n_train": at_least(2),  # the menus' ends (200, 1000): inline
        "n_datasets": at_least(2),
        "max_degree": at_least(0),
        "target": ["callable"],
        "x_range": ["range"],
        "random_state": SEED,
    }
)  # noise_std: inline, a ValueError for any bad value (pinned by tests/test_biasvar_widgets.py)
def bias_variance_explorer(
    *,
    degree=3,
    noise_std=0.3,
    n_train=30,
    n_datasets=200,
    max_degree=15,
    target=sine_target,
    x_range=(0, 1),
    random_state=0,
):
    """Explorer with a ``degree`` and a ``noise_std`` slider and menus for the training-set size (N_TRAINS) and the
    number of data sets (N_DATASETS; the start values are added to the menus), over :func:`bias_variance_data`.

    >>> ex = bias_variance_explorer(degree=3, n_datasets=10, n_train=10, max_degree=3)
    >>> ex.text.splitlines()[0]
    'degree 3, noise_std 0.30, 10 data sets of 10 points'
    """
    if not callable(target):
        raise TypeError(f"target must be a callable f(x) -> y, got {type(target).__name__}")
    for name, v in (("degree", degree), ("max_degree", max_degree), ("n_train", n_train), ("n_datasets", n_datasets)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an int, got {type(v).__name__}")
    if not 0 <= degree <= max_degree:
        raise ValueError(f"degree must lie in [0, max_degree={max_degree}], got {degree}")
    if not 2 <= n_train <= 200:
        raise ValueError(f"n_train must lie in [2, 200], got {n_train}")
    if not 2 <= n_datasets <= 1000:
        raise ValueError(f"n_datasets must lie in [2, 1000], got {n_datasets}")
    if isinstance(noise_std, bool) or not isinstance(noise_std, (int, float, np.floating)) or not 0 <= noise_std <= 2:
        raise ValueError(f"noise_std must be a number in [0, 2], got {noise_std!r}")
    trains = tuple(sorted({*N_TRAINS, int(n_train)}))
    sets = tuple(sorted({*N_DATASETS, int(n_datasets)}))
    data = bias_variance_data(
        max_degree=int(max_degree),
        n_trains=trains,
        n_datasets=sets,
        target=target,
        x_range=x_range,
        random_state=random_state,
    )
    r = bias_variance(
        PolynomialRegression(int(degree)),
        target,
        noise_std=float(noise_std),
        n_train=int(n_train),
        n_datasets=int(n_datasets),
        x_range=x_range,
        random_state=random_state,
    )
    return Explorer(
        _chart(data, degree, noise_std, n_train, n_datasets, max_degree),
        data=data,
        text=_readout(int(degree), r),
        title=ui("Bias–variance explorer (squared loss, 式(2.42))"),
        values={
            "degree": int(degree),
            "noise_std": float(noise_std),
            "n_train": int(n_train),
            "n_datasets": int(n_datasets),
        },
    )
