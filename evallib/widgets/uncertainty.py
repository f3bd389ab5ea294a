"""Explorer for intervals of an error rate (notebook 12, beyond the book), drawn in the browser
(docs/design/explorers.md).

:func:`interval_data` precomputes every state of the explorer's grid (the test-set sizes ``M_VALUES``, the true
error rates 0.01 … 0.99 by 0.01, the ``CONFIDENCES``) with :mod:`evallib.uncertainty`: for the expected count
round(ε·m), the normal (Wald), Clopper–Pearson and Wilson intervals, and each method's coverage, exact and
simulated (``N_TRIALS`` test sets, seed 0, as :func:`evallib.uncertainty.interval_coverage` draws them), plus the
exact coverage curves. The chart stores the readout's numbers as the digits Python prints (thousandths; the
simulated coverage as its count of covering test sets) and writes the readout in Vega.

:func:`interval_view` gives the text and the static figure (matplotlib) of one setting.
"""

from __future__ import annotations

import json

import altair as alt
import numpy as np
import pandas as pd
from scipy import stats

from .. import uncertainty as _unc
from .._validation import check_positive_int, check_probability, check_random_state, validate_params
from ..i18n import N_, say, ui
from ..plots import uncertainty as _plots
from ..plots._base import COLORS
from ..style import new_figure
from ._chart import (
    OPEN_UNIT,
    PROBABILITY,
    Explorer,
    at_least,
    inline,
    match,
    menu,
    readout,
    readout_expr,
    readout_fields,
    slider,
)
from .compare import py_fixed, py_round

__all__ = ["interval_view", "interval_data", "interval_explorer", "M_VALUES", "CONFIDENCES", "N_TRIALS"]

M_VALUES = (10, 20, 30, 50, 100, 200, 300, 500, 1000)  # the m menu
CONFIDENCES = (0.8, 0.9, 0.95, 0.99)
N_TRIALS = 4000  # simulated test sets per method: standard error about 0.0035 at 95 % coverage
ERROR_RATES = np.round(0.01 * np.arange(1, 100), 10)  # the error-rate slider: 0.01 … 0.99
N_GRID = 199  # points of each coverage curve (as plot_coverage draws them)
METHODS = _unc.INTERVAL_METHODS[::-1]  # normal, clopper-pearson, wilson: top to bottom, as the readout lists them
_L1 = N_("m = {m}, true error rate {eps:.2f}, confidence {c:g}")
_L2 = N_("a test set with the expected {k} error(s) (test error rate {rate:.3f}) gives:")
_L3 = N_("{meth:<16} [{lo:.3f}, {hi:.3f}]  width {w:.3f}   coverage: exact {ce:.3f}, simulated {cs:.3f}")


def _interval_rows(m, eps, confidence):
    """Text and the three interval results for the expected count round(ε·m)."""
    k = int(round(eps * m))
    lines = [say(_L1, m=m, eps=eps, c=confidence), say(_L2, k=k, rate=k / m)]
    rows = []
    for meth in METHODS:
        r = _unc.error_rate_interval(k, m, confidence=confidence, method=meth)
        c = _unc.interval_coverage(m, eps, confidence=confidence, method=meth, n_trials=N_TRIALS, random_state=0)
        rows.append(r)
        lines.append(say(_L3, meth=meth, lo=r.low, hi=r.high, w=r.width, ce=c.exact, cs=c.simulated))
    return "\n".join(lines), rows, k


def _check(m, error_rate, confidence):
    m = check_positive_int(m, "m")
    eps = check_probability(error_rate, "error_rate")
    confidence = check_probability(confidence, "confidence", low_open=True, high_open=True)
    return m, eps, confidence


@validate_params({"m": at_least(1), "error_rate": PROBABILITY, "confidence": OPEN_UNIT})
def interval_view(m, error_rate, confidence=0.95):
    """Text and figure: on ``m`` test samples with a true error rate ``error_rate``, the three intervals
    for the expected count of errors (round(ε·m)) and each method's coverage, exact and simulated
    (``N_TRIALS`` test sets, fixed seed).

    >>> text, fig = interval_view(20, 0.05)
    >>> print(text.splitlines()[2])
    normal           [0.000, 0.146]  width 0.146   coverage: exact 0.639, simulated 0.637
    """
    m, eps, confidence = _check(m, error_rate, confidence)
    text, rows, k = _interval_rows(m, eps, confidence)
    fig, (ax1, ax2) = new_figure(2, width=11.0, height=4.0)
    _plots.plot_intervals(
        rows,
        [r.method for r in rows],
        xlabel="error rate",
        colors=[_plots._METHOD_COLORS[r.method] for r in rows],
        ax=ax1,
    )
    ax1.set_xlim(0, 1.3)  # fixed: widths compare across m; the labels stand in a column right of 1
    ax1.set_xticks(np.linspace(0, 1, 6))
    for label in ax1.texts:
        label.xy = (1.0, label.xy[1])
    ax1.axvline(eps, color=COLORS["grey"], ls="--", lw=1.2)
    ax1.set_title(f"{k} error(s) in {m}: {confidence:g} intervals (dashed: true error)")
    _plots.plot_coverage(m, confidence=confidence, error_rate=eps, ax=ax2)
    return text, fig


@validate_params({"ms": ["array-like"], "confidences": ["array-like"], "n_trials": at_least(1)})
def interval_data(*, ms=M_VALUES, confidences=CONFIDENCES, n_trials=N_TRIALS) -> dict:
    """Every state of the interval explorer: ``{"states", "curves"}`` DataFrames.

    ``states``: one row per (m, error_rate, confidence, method) over ``ms`` × ERROR_RATES × ``confidences`` ×
    (normal, clopper-pearson, wilson): ``k`` = round(ε·m), the interval ``low``, ``high``, ``width`` of
    :func:`evallib.uncertainty.error_rate_interval` for k errors, and the coverage ``exact`` and ``simulated``
    (``n_trials`` test sets, random_state=0) of :func:`evallib.uncertainty.interval_coverage`, with
    ``n_covered`` = simulated · n_trials. ``curves``: m, confidence, method, x (N_GRID true error rates, as
    :func:`evallib.plots.plot_coverage` draws them) and the exact ``coverage``
    (:func:`evallib.uncertainty.coverage_curve`).

    >>> d = interval_data(ms=(20,), confidences=(0.95,))
    >>> row = d["states"].query("error_rate == 0.05 and method == 'normal'").iloc[0]
    >>> f"{row.exact:.3f} {row.simulated:.3f} {row.n_covered}"
    '0.639 0.637 2550'
    """
    ms = [check_positive_int(m, "ms") for m in ms]
    confidences = [check_probability(c, "confidences", low_open=True, high_open=True) for c in confidences]
    n_trials = check_positive_int(n_trials, "n_trials")
    if not ms or not confidences:
        raise ValueError("ms, confidences: must not be empty")
    eps = ERROR_RATES
    grid = np.linspace(0.0025, 0.9975, N_GRID)
    states, curves = [], []
    for m in ms:
        ks = np.arange(m + 1)
        # what interval_coverage computes, for every error rate at once: the pmf and the draws (one fresh
        # generator per call, seeded 0: the draws depend on m and ε only)
        pmf = stats.binom.pmf(ks[None, :], m, eps[:, None])
        rng = check_random_state(0)
        seed0 = rng.bit_generator.state
        counts = np.empty((eps.size, m + 1), dtype=np.int64)  # how many of the n_trials test sets had k errors
        for i, e in enumerate(eps):
            rng.bit_generator.state = seed0  # each call of interval_coverage draws from a fresh generator
            counts[i] = np.bincount(rng.binomial(m, e, size=n_trials), minlength=m + 1)
        k_exp = [int(round(e * m)) for e in eps]
        for c in confidences:
            for meth in METHODS:
                lo, hi = _unc._bounds(ks, m, c, meth)
                covers = (lo[None, :] <= eps[:, None]) & (eps[:, None] <= hi[None, :])
                hits = (counts * covers).sum(axis=1)
                for i, e in enumerate(eps):
                    exact = min(float(pmf[i][covers[i]].sum()), 1.0)
                    k = k_exp[i]
                    low, high = float(lo[k]), float(hi[k])
                    states.append(
                        (m, float(e), c, meth, k, low, high, high - low, exact, int(hits[i]) / n_trials, int(hits[i]))
                    )
                cov = _unc.coverage_curve(m, grid, confidence=c, method=meth)
                curves.append(pd.DataFrame({"m": m, "confidence": c, "method": meth, "x": grid, "coverage": cov}))
    states = pd.DataFrame(
        states,
        columns=[
            "m",
            "error_rate",
            "confidence",
            "method",
            "k",
            "low",
            "high",
            "width",
            "exact",
            "simulated",
            "n_covered",
        ],
    )
    return {"states": states, "curves": pd.concat(curves, ignore_index=True)}


def _milli(x):
    """The digits Python prints with '.3f', as an int (0.639 -> 639): what the chart stores."""
    return [int(format(float(v), ".3f").replace(".", "")) for v in x]


def _chart_rows(data, n_trials):
    """One row per (m, confidence, method): lists over the error rates (thousandths as printed; the simulated
    coverage as its count) and the coverage curve (thousandths)."""
    st, cu = data["states"], data["curves"]
    rows = []
    curves = dict(iter(cu.groupby(["m", "confidence", "method"], sort=False)))
    for (m, c, meth), g in st.groupby(["m", "confidence", "method"], sort=False):
        g = g.sort_values("error_rate")
        curve = curves[(m, c, meth)]
        rows.append(
            {
                "m": int(m),
                "confidence": float(c),
                "method": meth,
                "order": METHODS.index(meth),
                "pm": readout_fields(_L3, meth=meth, lo=0, hi=0, w=0, ce=0, cs=0)["meth"],
                "los": _milli(g.low),
                "his": _milli(g.high),
                "ws": _milli(g.width),
                "ces": _milli(g.exact),
                "cs": g.n_covered.astype(int).tolist(),
                "cov": _milli(curve.coverage),
            }
        )
    return rows


def _js(s):
    return json.dumps(s, ensure_ascii=False)


def _chart(data, m, eps, confidence, ms, confidences, n_trials):
    pm = menu(m, list(ms), "m (test samples)", name="m")
    pe = slider(eps, 0.01, 0.99, 0.01, "true error rate", name="error_rate")
    pc = menu(confidence, list(confidences), "confidence", name="confidence")
    colors = alt.Scale(domain=list(METHODS), range=[_plots._METHOD_COLORS[t] for t in METHODS])
    rows = _chart_rows(data, n_trials)
    states = inline([{k: v for k, v in r.items() if k != "cov"} for r in rows], name="interval_states")
    here = (
        alt.Chart()
        .transform_filter(match(m=pm, confidence=pc))
        .transform_calculate(i="clamp(round(error_rate * 100), 1, 99) - 1")
        .transform_calculate(k=py_round("error_rate * m"))
        .transform_calculate(
            lo="datum.los[datum.i] / 1000",
            hi="datum.his[datum.i] / 1000",
            w="datum.ws[datum.i] / 1000",
            ce="datum.ces[datum.i] / 1000",
            ncs="datum.cs[datum.i]",
            est="datum.k / m",
            eps="(datum.i + 1) / 100",
        )
    )
    # intervals: bars, end caps, the estimate, their labels, the truth
    xs = alt.Scale(domain=[0, 1.45], nice=False)  # the labels stand in a column right of 1
    X = alt.X("lo:Q", scale=xs, title=ui("error rate"), axis=alt.Axis(values=[0, 0.2, 0.4, 0.6, 0.8, 1.0]))
    Y = alt.Y("method:N", sort=list(METHODS), title=None, axis=alt.Axis(labelFontSize=10))
    col = alt.Color("method:N", scale=colors, legend=None)
    bars = here.mark_rule(strokeWidth=4).encode(X, Y, col, x2="hi:Q")
    caps = (
        here.transform_fold(["lo", "hi"], as_=["end", "at"])
        .mark_tick(thickness=1.5, size=14)
        .encode(alt.X("at:Q", scale=xs), Y, col)
    )
    dots = here.mark_circle(size=45, color=COLORS["black"], opacity=1).encode(alt.X("est:Q", scale=xs), Y)
    labels = (
        here.transform_calculate(label="'[' + format(datum.lo, '.3f') + ', ' + format(datum.hi, '.3f') + ']'", one="1")
        .mark_text(align="left", dx=5, fontSize=10)
        .encode(alt.X("one:Q", scale=xs), Y, text="label:N")
    )
    truth = (
        here.transform_filter("datum.order == 0")
        .mark_rule(color=COLORS["grey"], strokeDash=[5, 3])
        .encode(alt.X("eps:Q", scale=xs))
    )
    left = alt.layer(bars, caps, dots, labels, truth).properties(
        width=290, height=200, title=ui("Intervals (dashed: true error rate)")
    )
    # coverage curves, the nominal level, the truth and each method's coverage there
    curve = (
        alt.Chart(
            inline([{k: r[k] for k in ("m", "confidence", "method", "cov")} for r in rows], name="coverage_curves")
        )
        .transform_filter(match(m=pm, confidence=pc))
        .transform_flatten(["cov"])
        .transform_window(j="row_number()", groupby=["method"])
        .transform_calculate(x=f"0.0025 + (datum.j - 1) * {0.995 / (N_GRID - 1)!r}", y="datum.cov / 1000")
    )
    ys = alt.Scale(domain=[0.5, 1.005], nice=False, zero=False)
    xc = alt.Scale(domain=[0, 1], nice=False)
    lines = curve.mark_line(strokeWidth=1.2, clip=True).encode(
        alt.X("x:Q", scale=xc, title=ui("true error rate")),
        alt.Y("y:Q", scale=ys, title=ui("coverage (exact)")),
        alt.Color("method:N", scale=colors, legend=alt.Legend(orient="bottom", title=None, direction="horizontal")),
    )
    nominal = (
        here.transform_filter("datum.order == 0")
        .transform_calculate(c="confidence")
        .mark_rule(color=COLORS["black"], strokeDash=[6, 3])
        .encode(alt.Y("c:Q", scale=ys))
    )
    nominal_label = (
        here.transform_filter("datum.order == 0")
        .transform_calculate(c="confidence", t=f"{_js(ui('nominal'))} + ' ' + confidence", x1="1")
        .mark_text(align="right", baseline="bottom", dy=-2, fontSize=10)
        .encode(alt.X("x1:Q", scale=xc), alt.Y("c:Q", scale=ys), text="t:N")
    )
    at = (
        here.transform_filter("datum.order == 0")
        .mark_rule(color=COLORS["grey"], strokeDash=[2, 2])
        .encode(alt.X("eps:Q", scale=xc))
    )
    points = here.mark_point(filled=True, size=40, clip=True).encode(
        alt.X("eps:Q", scale=xc), alt.Y("ce:Q", scale=ys), alt.Color("method:N", scale=colors)
    )  # the lines' legend
    right = alt.layer(lines, nominal, nominal_label, at, points).properties(
        width=240, height=200, title=ui("Real coverage of each method")
    )
    # the readout: the same sentence as interval_view's text
    line = readout_expr(_L3, "f_")
    fields = {
        "f_meth": "datum.pm",
        "f_lo": "format(datum.lo, '.3f')",
        "f_hi": "format(datum.hi, '.3f')",
        "f_w": "format(datum.w, '.3f')",
        "f_ce": "format(datum.ce, '.3f')",
        "f_cs": py_fixed(f"datum.ncs / {int(n_trials)}", 3),
    }
    head = {
        "h_m": "'' + m",
        "h_eps": py_fixed("datum.eps", 2),
        "h_c": "'' + confidence",
        "h_k": "'' + datum.k",
        "h_rate": py_fixed("datum.k / m", 3),
    }
    l1 = (
        readout_expr(_L1)
        .replace('datum["m"]', "datum.h_m")
        .replace('datum["eps"]', "datum.h_eps")
        .replace('datum["c"]', "datum.h_c")
    )
    l2 = readout_expr(_L2).replace('datum["k"]', "datum.h_k").replace('datum["rate"]', "datum.h_rate")
    sentence = f"{l1} + '\\n' + {l2} + '\\n' + " + " + '\\n' + ".join(
        f"datum.lines[{i}].line" for i in range(len(METHODS))
    )
    text = (
        here.transform_calculate(**fields)
        .transform_calculate(line=line)
        .transform_aggregate(lines="values(line)", groupby=["eps", "k"])  # in the data's order: METHODS
        .transform_calculate(**head)
        .transform_calculate(readout=f"replace({sentence}, regexp(' ', 'g'), '\\u00a0')")
    )
    return alt.vconcat(
        alt.hconcat(left, right).resolve_scale(color="independent"), readout(text, n_lines=5), data=states
    ).add_params(pm, pe, pc)


@validate_params({"m": at_least(1), "error_rate": PROBABILITY, "confidence": OPEN_UNIT})  # the grid's values: inline
def interval_explorer(m=100, error_rate=0.05, confidence=0.95):
    """A menu for the test-set size m (M_VALUES), a slider for the true error rate (0.01 … 0.99) and radio
    buttons for the confidence (CONFIDENCES; a start value outside them is added): each interval for the expected
    count of errors and its real coverage (notebook 12), over :func:`interval_data`."""
    m, eps, confidence = _check(m, error_rate, confidence)
    if m > 1000:
        raise ValueError(f"m must be at most 1000 (the menu's largest test set), got {m}")
    if not (0.01 - 1e-12 <= eps <= 0.99 + 1e-12) or abs(eps * 100 - round(eps * 100)) > 1e-9:
        raise ValueError(f"error_rate must be one of 0.01, 0.02, …, 0.99 (the slider's values), got {error_rate!r}")
    eps = float(ERROR_RATES[int(round(eps * 100)) - 1])
    ms = tuple(sorted({*M_VALUES, m}))
    confidences = tuple(sorted({*CONFIDENCES, confidence}))
    text = _interval_rows(m, eps, confidence)[0]
    data = interval_data(ms=ms, confidences=confidences)
    chart = _chart(data, m, eps, confidence, ms, confidences, N_TRIALS)
    title = ui("Intervals for an error rate: test-set size and true error")
    return Explorer(
        chart.properties(title=title),
        data=data,
        text=text,
        title=title,
        values={"m": m, "error_rate": eps, "confidence": confidence},
    )
