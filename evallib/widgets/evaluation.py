"""Explorers for chapters 01–02: polynomial degree (over-/under-fitting) and p × k-fold cross-validation.

evallib computes every state of the controls' grid once (:func:`fitting_data`, :func:`kfold_data`); the chart
selects from it in the browser (docs/design/explorers.md)."""

from __future__ import annotations

from functools import lru_cache

import altair as alt
import numpy as np
import pandas as pd

from .. import plots
from .._validation import check_labels, check_nonnegative, check_positive_int, check_random_state, validate_params
from ..evaluation import _cv_summary, cross_validation, evaluate
from ..fitting import polynomial_experiment
from ..i18n import N_, say, ui
from ..splits import KFold
from ..style import COLORS, new_figure
from ._chart import (
    NONNEGATIVE,
    SEED,
    Explorer,
    at_least,
    inline,
    match,
    readout,
    readout_expr,
    readout_fields,
    slider,
    wrap,
)
from ._digits import Shown, plotted, significant

__all__ = ["fitting_data", "fitting_update", "fitting_explorer", "kfold_data", "kfold_update", "kfold_explorer"]

FITTING_TEXT = N_(
    "degree {d:2d} | training MSE {train:.4f} | test MSE {test:.4f} | noise variance {noise:.4f} | "
    "best degree on test: {best}"
)
KFOLD_TEXT = N_(
    "k = {k:2d}, p = {p:2d}: {fits:3d} fits | estimate {mean:.4f} | std of the p k-fold estimates "
    "{spread} | single folds range {lo:.3f}–{hi:.3f}"
)
# The fitting explorer's grid (its sliders): degree 0..15, training samples 10..100 by 5, noise std 0..1 by 0.05.
N_TRAIN_GRID = tuple(range(10, 101, 5))
NOISE_GRID = tuple(float(v) for v in np.round(0.05 * np.arange(21), 10))
N_CURVE = 100  # points of each fitted curve (the figure is ~300 px wide)


@lru_cache(maxsize=64)
def _experiment(n_train, noise_std, seed, max_degree):
    return polynomial_experiment(n_train, noise_std=noise_std, max_degree=max_degree, random_state=seed)


def _check_fitting(degree, n_train, noise_std, max_degree):
    if check_positive_int(degree, "degree", minimum=0) > max_degree:
        raise ValueError(f"degree must be <= max_degree = {max_degree}; got {degree}")
    check_positive_int(n_train, "n_train", minimum=2)
    check_nonnegative(noise_std, "noise_std")


def _fitting_text(e, d, noise_std):
    return say(FITTING_TEXT, **_fitting_fields(e, d, noise_std))


def _fitting_fields(e, d, noise_std):
    # Shown: a test error of 7e8 (degree 15 on 10 points) prints as 7.347e+8, not with digits of rounding noise
    train, test = Shown(e.train_mse[d]), Shown(e.test_mse[d])
    return dict(d=d, train=train, test=test, noise=noise_std**2, best=e.best_degree)


@validate_params(
    {
        "seed": SEED,
        "max_degree": at_least(0),
        "n_train": [*at_least(2), "array-like"],
        "noise_std": [*NONNEGATIVE, "array-like"],
        "n_curve": at_least(2),
    }
)
def fitting_data(*, seed=0, max_degree=15, n_train=N_TRAIN_GRID, noise_std=NOISE_GRID, n_curve=N_CURVE) -> dict:
    """Everything the fitting explorer shows, for every training-set size in ``n_train`` and noise std in
    ``noise_std`` (:func:`evallib.fitting.polynomial_experiment` with ``random_state=seed``).

    Returns a dict of DataFrames: ``errors`` (one row per (n, s): lists over degree 0..max_degree of training and
    test MSE, their readout strings, and the best degree), ``curves`` (one row per (n, degree): the fit at
    ``n_curve`` points of [0, 1] is ``fit0 + s * fit1``, since a least-squares fit is linear in the targets and
    the noise is ``s`` times the same normal draws), ``points`` (one row per (n, sample): x, sin(2πx) and the
    standard normal draw ``z``, so that y = sin(2πx) + s z) and ``truth`` (sin(2πx) on the curve's points).

    >>> d = fitting_data(n_train=(20,), noise_std=(0.25,))
    >>> len(d["errors"]), len(d["curves"])
    (1, 16)
    """
    check_random_state(seed, "seed")
    max_degree = check_positive_int(max_degree, "max_degree", minimum=0)
    n_curve = check_positive_int(n_curve, "n_curve", minimum=2)
    ns = [check_positive_int(n, "n_train", minimum=2) for n in np.atleast_1d(n_train).tolist()]
    ss = [check_nonnegative(s, "noise_std") for s in np.atleast_1d(noise_std).tolist()]
    if not ns or not ss:
        raise ValueError("n_train, noise_std: give at least one value each")
    pick = np.round(np.linspace(0, 199, n_curve)).astype(int)  # polynomial_experiment's grid has 200 points
    degrees = list(range(max_degree + 1))
    errors, curves, points = [], [], []
    for n in ns:
        e0, e1 = _experiment(n, 0.0, seed, max_degree), _experiment(n, 1.0, seed, max_degree)
        for d in degrees:
            curves.append(
                {
                    "n": n,
                    "d": d,
                    "fit0": plotted(e0.curves[d][pick], 4, 5),
                    "fit1": plotted(e1.curves[d][pick] - e0.curves[d][pick], 4, 5),
                }
            )
        for x, y0, y1 in zip(e0.x_train, e0.y_train, e1.y_train):
            points.append({"n": n, "x": round(float(x), 5), "y0": round(float(y0), 5), "z": round(float(y1 - y0), 5)})
        for s in ss:
            e = _experiment(n, s, seed, max_degree)
            f = [readout_fields(FITTING_TEXT, **_fitting_fields(e, d, s)) for d in degrees]
            errors.append(
                {
                    "n": n,
                    "s": s,
                    "best": int(e.best_degree),
                    "d": degrees,
                    # below 1e-9 (far under the axis' 1e-4): the rounding noise of a fit through every point
                    "train": significant(e.train_mse, 4, floor=1e-9),
                    "test": significant(e.test_mse, 4, floor=1e-9),
                    **{f"f_{k}": [row[k] for row in f] for k in ("d", "train", "test")},
                    "f_noise": f[0][N_("noise")],
                    "f_best": f[0]["best"],
                }
            )
    e = _experiment(ns[0], 0.0, seed, max_degree)
    truth = pd.DataFrame({"x": np.round(e.grid[pick], 5), "y": np.round(e.truth[pick], 5)})
    return {
        "errors": pd.DataFrame(errors),
        "curves": pd.DataFrame(curves),
        "points": pd.DataFrame(points),
        "truth": truth,
    }


@validate_params(
    {"degree": at_least(0), "n_train": at_least(2), "noise_std": NONNEGATIVE, "seed": SEED, "max_degree": at_least(0)}
)  # degree <= max_degree: inline
def fitting_update(degree=3, n_train=20, noise_std=0.25, *, seed=0, max_degree=15):
    """Text and static figure (matplotlib) of one setting of the fitting explorer: left, the degree-``degree``
    fit against the training points and the true curve; right, training and test MSE of every degree."""
    _check_fitting(degree, n_train, noise_std, check_positive_int(max_degree, "max_degree", minimum=0))
    check_random_state(seed, "seed")
    e = _experiment(int(n_train), float(noise_std), seed, max_degree)
    fig, (ax1, ax2) = new_figure(2)
    plots.plot_polynomial_fit(e, int(degree), ax=ax1)
    plots.plot_train_test_curve(
        e.degrees,
        e.train_mse,
        e.test_mse,
        ax=ax2,
        mark=int(degree),
        logy=True,
        floor=noise_std**2 if noise_std > 0 else None,
        xlabel="polynomial degree",
        ylabel="mean squared error",
    )
    return _fitting_text(e, int(degree), noise_std), fig


@validate_params({"seed": SEED})
def fitting_explorer(*, seed=0):
    """Sliders for polynomial degree, training-set size and noise: watch training and test error part ways."""
    d0, n0, s0 = 3, 20, 0.25
    data = fitting_data(seed=seed)
    deg = slider(d0, 0, 15, 1, "degree", name="degree")
    n = slider(n0, 10, 100, 5, "training samples", name="n_train")
    s = slider(s0, 0.0, 1.0, 0.05, "noise std", name="noise_std")
    c = COLORS
    legend = alt.Color(
        "what:N",
        title=None,
        legend=alt.Legend(orient="bottom"),
        scale=alt.Scale(
            domain=["true f(x) = sin(2πx)", "fit", "training samples", "training error", "test error", "noise level"],
            range=[c["grey"], c["blue"], c["orange"], c["blue"], c["red"], c["grey"]],
        ),
    )
    x01 = alt.Scale(domain=[0, 1])
    y2 = alt.Scale(domain=[-2, 2])
    truth = (
        alt.Chart(inline(data["truth"]))
        .mark_line(strokeDash=[5, 3])
        .encode(x=alt.X("x:Q", scale=x01), y=alt.Y("y:Q", scale=y2), color=legend)
        .transform_calculate(what="'true f(x) = sin(2πx)'")
    )
    fit = (
        alt.Chart(inline(data["curves"]))
        .mark_line(clip=True)
        .transform_filter(match(n=n, d=deg))
        .transform_flatten(["fit0", "fit1"])
        .transform_window(i="row_number()")
        .transform_calculate(
            x=f"(datum.i - 1) / {N_CURVE - 1}", y="clamp(datum.fit0 + noise_std * datum.fit1, -2, 2)", what="'fit'"
        )
        .encode(x=alt.X("x:Q", scale=x01), y=alt.Y("y:Q", scale=y2, title="y"), color=legend)
    )
    pts = (
        alt.Chart(inline(data["points"]))
        .mark_circle(size=25, opacity=1, clip=True)
        .transform_filter(match(n=n))
        .transform_calculate(y="datum.y0 + noise_std * datum.z", what="'training samples'")
        .encode(x=alt.X("x:Q", scale=x01), y=alt.Y("y:Q", scale=y2), color=legend)
    )
    left = alt.layer(truth, fit, pts).properties(width=270, height=240)

    err = alt.Chart(inline(data["errors"])).transform_filter(match(n=n, s=s))
    per_degree = err.transform_flatten(["d", "train", "test", "f_d", "f_train", "f_test"])
    logy = alt.Scale(type="log", domain=[1e-4, 1e2])
    curves = (
        per_degree.transform_fold(["train", "test"], as_=["which", "mse"])
        .transform_calculate(what="datum.which == 'train' ? 'training error' : 'test error'")
        .mark_line(point=True, clip=True)
        .encode(
            x=alt.X("d:Q", title=ui("polynomial degree"), scale=alt.Scale(domain=[0, 15])),
            y=alt.Y("mse:Q", scale=logy, title=ui("mean squared error")),
            color=legend,
            detail="which:N",
        )
    )
    floor = (
        err.transform_filter("datum.s > 0")
        .transform_calculate(floor="datum.s * datum.s", what="'noise level'")
        .mark_rule(strokeDash=[2, 2])
        .encode(y="floor:Q", color=legend)
    )
    mark = per_degree.transform_filter("datum.d == degree").mark_rule(color=c["black"], opacity=0.6).encode(x="d:Q")
    right = alt.layer(curves, floor, mark).properties(width=270, height=240)

    e = _experiment(n0, s0, seed, 15)
    sample = _fitting_fields(e, d0, s0)
    text = readout(
        per_degree.transform_filter("datum.d == degree").transform_calculate(
            readout=readout_expr(FITTING_TEXT, "f_", sample=sample)
        ),
        n_lines=2,
    )
    chart = (
        alt.vconcat(alt.hconcat(left, right), text)
        .add_params(deg, n, s)
        .properties(title=ui("Over- and under-fitting"))
    )
    return Explorer(
        chart,
        data=data,
        text=_fitting_text(e, d0, s0),
        title=ui("Over- and under-fitting"),
        values={"degree": d0, "n_train": n0, "noise_std": s0},
    )


def _kfold_text(r, n_splits, n_repeats):
    spread = f"{r.repeat_std:.4f}" if n_repeats > 1 else say("n/a (needs p >= 2)")
    return say(
        KFOLD_TEXT,
        k=n_splits,
        p=n_repeats,
        fits=r.n_fits,
        mean=r.mean,
        spread=spread,
        lo=r.scores.min(),
        hi=r.scores.max(),
    )


def _fold_scores(model, X, y, k, n_repeats, random_state):
    """(n_repeats, k) fold errors of ``KFold(k, n_repeats, random_state)``: repeat r is the same partition for
    every p > r (the repeats come one after another from one generator), so these rows serve every p."""
    splits = list(KFold(k, n_repeats=n_repeats, random_state=random_state).split(X, y))
    return evaluate(model, X, y, splits).reshape(n_repeats, k)


def _kfold_limits(y, max_k, max_p):
    check_labels(y, "y")
    max_k = check_positive_int(max_k, "max_k", minimum=2)
    max_p = check_positive_int(max_p, "max_p")
    # stratified folds: k at most the smallest class, so that every fold can hold every class (above it
    # evallib and scikit-learn warn, and refuse once every class is smaller than k)
    smallest = int(np.unique(np.asarray(y), return_counts=True)[1].min())
    return max(2, min(max_k, len(y), smallest)), max_p


@validate_params(
    {"X": ["array-like"], "y": ["array-like"], "random_state": SEED, "max_k": at_least(2), "max_p": at_least(1)}
)
def kfold_data(model, X, y, *, random_state=0, max_k=20, max_p=10) -> dict:
    """Every state of the k-fold explorer: p-times k-fold cross-validation (:func:`evallib.evaluation.
    cross_validation`) for every k in 2..max_k (at most the smallest class) and p in 1..max_p, each (k, repeat)
    fitted once (max_p · Σk fits).

    Returns ``folds`` (one row per (k, repeat r = 1..max_p): the k fold errors, their x positions around r and
    the repeat's k-fold estimate), ``states`` (one row per (k, p): the estimate, the spread of the p estimates,
    the readout, wrapped for the chart, and ``text``, as printed) and ``ylim`` (one y-range that holds every fold of the grid).
    """
    max_k, max_p = _kfold_limits(y, max_k, max_p)
    folds, states = [], []
    for k in range(2, max_k + 1):
        scores = _fold_scores(model, X, y, k, max_p, random_state)
        jitter = (np.arange(k) - (k - 1) / 2) / k * 0.5
        for r in range(max_p):
            folds.append(
                {
                    "k": k,
                    "r": r + 1,
                    "error": scores[r].tolist(),
                    "x": np.round(r + 1 + jitter, 4).tolist(),
                    "estimate": float(scores[r].mean()),
                }
            )
        for p in range(1, max_p + 1):
            text = _kfold_text(_cv_summary(scores[:p]), k, p)
            states.append({"k": k, "p": p, "mean": float(scores[:p].mean()), "readout": wrap(text), "text": text})
    top = max(float(max(max(f["error"]) for f in folds)), 0.0)
    top = max(min(float(np.ceil(1.1 * top / 0.05) * 0.05), 1.05), 0.05)
    return {"folds": pd.DataFrame(folds), "states": pd.DataFrame(states), "ylim": (-0.05 * top, top)}


@validate_params(
    {
        "X": ["array-like"],
        "y": ["array-like"],
        "n_splits": at_least(2),
        "n_repeats": at_least(1),
        "random_state": SEED,
        "ylim": [None, "range"],
    }
)
def kfold_update(model, X, y, n_splits=10, n_repeats=1, *, random_state=0, ylim=None):
    """Text and static figure (matplotlib) for one (k, p) of the k-fold explorer: the estimate, its spread and
    its cost."""
    check_labels(y, "y")
    n_splits = check_positive_int(n_splits, "n_splits", minimum=2)
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    r = cross_validation(model, X, y, n_splits=n_splits, n_repeats=n_repeats, random_state=random_state)
    fig, ax = new_figure()
    plots.plot_cv_repeats(r, ax=ax, ylabel="error rate", ylim=ylim)
    return _kfold_text(r, n_splits, n_repeats), fig


@validate_params(
    {"X": ["array-like"], "y": ["array-like"], "random_state": SEED, "max_k": at_least(2), "max_p": at_least(1)}
)
def kfold_explorer(model, X, y, *, random_state=0, max_k=20, max_p=10):
    """Sliders for k (folds) and p (repeats) of p-times k-fold cross-validation on (X, y): every (k, p) computed
    once (:func:`kfold_data`), drawn in the browser."""
    data = kfold_data(model, X, y, random_state=random_state, max_k=max_k, max_p=max_p)
    max_k, max_p = _kfold_limits(y, max_k, max_p)
    k0, p0 = min(10, max_k), 1
    k = slider(k0, 2, max_k, 1, "k (folds)", name="n_splits")
    p = slider(p0, 1, max_p, 1, "p (repeats)", name="n_repeats")
    c = COLORS
    legend = alt.Color(
        "what:N",
        title=None,
        legend=alt.Legend(orient="top"),
        scale=alt.Scale(
            domain=[ui("single fold"), ui("k-fold estimate"), ui("mean of all folds")],
            range=[c["grey"], c["blue"], c["red"]],
        ),
    )
    xs = alt.Scale(domain=[0.4, max_p + 0.6])
    ys = alt.Scale(domain=list(data["ylim"]))
    base = alt.Chart(inline(data["folds"])).transform_filter(f"{match(k=k)} && datum.r <= n_repeats")
    single = (
        base.transform_flatten(["error", "x"])
        .transform_calculate(what=repr(ui("single fold")))
        .mark_circle(size=14, opacity=0.6)
        .encode(
            x=alt.X("x:Q", scale=xs, title=ui("repeat"), axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("error:Q", scale=ys, title=ui("error rate")),
            color=legend,
        )
    )
    estimate = (
        base.transform_calculate(what=repr(ui("k-fold estimate")))
        .mark_circle(size=60, opacity=1)
        .encode(x=alt.X("r:Q", scale=xs), y=alt.Y("estimate:Q", scale=ys), color=legend)
    )
    states = inline(data["states"][["k", "p", "mean", "readout"]])  # "text": the same, unwrapped (text/plain)
    mean = (
        alt.Chart(states)
        .transform_filter(match(k=k, p=p))
        .transform_calculate(what=repr(ui("mean of all folds")))
        .mark_rule(strokeWidth=1.5)
        .encode(y=alt.Y("mean:Q", scale=ys), color=legend)
    )
    plot = alt.layer(single, estimate, mean).properties(width=560, height=260)
    text = readout(states, where=match(k=k, p=p), n_lines=2)
    chart = alt.vconcat(plot, text).add_params(k, p).properties(title=ui("p-times k-fold cross-validation"))
    initial = data["states"].query("k == @k0 and p == @p0").text.item()
    return Explorer(
        chart,
        data=data,
        text=initial,
        title=ui("p-times k-fold cross-validation"),
        values={"n_splits": k0, "n_repeats": p0},
    )
