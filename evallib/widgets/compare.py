"""Explorers for the comparison tests (notebooks 08 and 09), drawn in the browser (docs/design/explorers.md).

* The binomial test explorer evaluates the binomial distribution in the chart (a Vega expression: the pmf from
  the running sum of log((m - i + 1) / i · ε0 / (1 - ε0)), its upper tails, the critical count): the grid of its
  four controls has three million points. tests/test_compare_widgets.py shows the chart's values equal
  :func:`evallib.compare.binomial_test`'s.
* The CD explorer precomputes every state of its grid (:func:`cd_data`: 3 α × 99 N).

:func:`binomial_view` and :func:`cd_view` give the text and the static figure (matplotlib) of one setting.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .. import compare as _cmp
from .._validation import as_finite_array, check_positive_int, check_probability, validate_params
from ..i18n import N_, say, ui
from ..plots import compare as _plots
from ..style import COLORS, new_figure
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
    slider,
    wrap,
)

__all__ = ["binomial_view", "binomial_test_explorer", "cd_data", "cd_view", "cd_explorer"]

ALPHAS = (0.01, 0.05, 0.10)
BINOMIAL_TEXT = (
    N_("m = {m}, eps0 = {eps0:.2f}, alpha = {alpha:.2f}: {k} errors observed (test error rate {rate:.3f})"),
    N_("critical count C = {c}, critical error rate = {cv:.3f}"),
    N_("p = P(X >= {k} | eps0) = {p:.4f} -> {verdict}"),
)
REJECT, KEEP = N_("reject H0: the error rate is above eps0"), N_("cannot reject H0 (which does not prove it)")
CD_TEXT = (
    N_("k = {k}, N = {n}, alpha = {alpha:.2f}: q_alpha = {q:.3f}, CD = {cd:.3f}"),
    N_("significantly different pairs: {pairs}"),
    N_("groups joined by a bar: {groups}"),
)
M_MAX = 500  # the m slider: 5..500 by 5


# ----------------------------------------------------------------------------------------------------
# Python's formatting in a Vega expression
# ----------------------------------------------------------------------------------------------------
def py_round(expr: str) -> str:
    """A Vega expression rounding ``expr`` as Python's ``round`` does (halves to even; JavaScript's round takes
    them up)."""
    return (
        f"((({expr}) - floor({expr})) == 0.5 ? (floor({expr}) % 2 == 0 ? floor({expr}) : floor({expr}) + 1)"
        f" : round({expr}))"
    )


def py_fixed(expr: str, digits: int) -> str:
    """A Vega expression writing ``expr`` (a number >= 0) as Python's ``format(x, '.{digits}f')``: Python rounds the
    double's exact value (half to even), d3's format may not (0.0875 is 0.08749999999999999445…: Python writes
    0.087). The exact value's first 20 decimals (JavaScript's toFixed, exact) decide the last digit."""
    if not isinstance(digits, int) or not 1 <= digits <= 8:
        raise ValueError(f"digits must be an int in [1, 8], got {digits!r}")
    t = f"format({expr}, '.20f')"
    i = f"indexof({t}, '.')"
    kept = f"substring({t}, 0, {i} + {digits + 1})"
    nxt = f"substring({t}, {i} + {digits + 1}, {i} + {digits + 2})"
    rest = f"substring({t}, {i} + {digits + 2})"
    last = f"substring({t}, {i} + {digits}, {i} + {digits + 1})"
    up = f"({nxt} > '5' || ({nxt} == '5' && (test(/[1-9]/, {rest}) || indexof('13579', {last}) >= 0)))"
    return f"({up} ? format(toNumber({kept}) + {10.0**-digits!r}, '.{digits}f') : {kept})"


# ----------------------------------------------------------------------------------------------------
# Binomial test explorer (notebook 08)
# ----------------------------------------------------------------------------------------------------
def _binomial_text(m, eps0, alpha, n_errors):
    r = _cmp.binomial_test(n_errors, m, eps0, alpha)
    verdict = say(REJECT) if r.reject else say(KEEP)
    return "\n".join(
        [
            say(BINOMIAL_TEXT[0], m=m, eps0=eps0, alpha=r.alpha, k=n_errors, rate=r.statistic),
            say(BINOMIAL_TEXT[1], c=r.critical_count, cv=r.critical_value),
            say(BINOMIAL_TEXT[2], k=n_errors, p=r.pvalue, verdict=verdict),
        ]
    ), r


def _check_binomial(m, eps0, error_rate):
    m = check_positive_int(m, "m")
    eps0 = check_probability(eps0, "eps0")
    error_rate = check_probability(error_rate, "error_rate")
    return m, eps0, error_rate, int(round(error_rate * m))


@validate_params(
    {"eps0": PROBABILITY, "alpha": OPEN_UNIT, "error_rate": PROBABILITY}
)  # m: inline, its message is pinned ("m must be ...", as evallib.compare.binomial_test's)
def binomial_view(m, eps0, alpha, error_rate):
    """Text and figure of the binomial test for ``m`` test samples, H0: ε ≤ ``eps0``, level ``alpha``,
    and an observed test error rate ``error_rate`` (n_errors = round(error_rate · m)).

    >>> text, fig = binomial_view(100, 0.3, 0.05, 0.38)
    >>> print(text.splitlines()[1])
    critical count C = 38, critical error rate = 0.380
    """
    m, eps0, error_rate, n_errors = _check_binomial(m, eps0, error_rate)
    text, r = _binomial_text(m, eps0, alpha, n_errors)
    fig, ax = new_figure(width=7.5, height=4.0)
    _plots.plot_binomial_test(m, eps0, r.alpha, n_errors, ax=ax)
    return text, fig


def binomial_chart_data(m_max=M_MAX):
    """The binomial explorer's chart: the counts 0..``m_max`` (the chart computes, for the current m and ε0,
    each count's probability, the upper tails and the critical count: a Vega expression, see
    :func:`binomial_test_explorer`)."""
    return alt.sequence(0, check_positive_int(m_max, "m_max") + 1, as_="i")


def _binomial_transforms(chart):
    """The Vega transforms of the binomial explorer, applied to the counts ``i`` = 0..M_MAX: for the current
    params m, eps0, alpha, error_rate they add ``pmf`` = P(X = i), ``ge`` = P(X >= i) (X ~ Binomial(m, eps0)),
    the critical count ``C`` (the smallest c with P(X > c) < alpha), the observed count ``k`` = round(error_rate
    · m) (Python's round), ``lo``..``hi`` the counts plot_binomial_test draws, and the readout's fields
    (``f_*``, formatted as Python formats them)."""
    k = py_round("error_rate * m")
    return (
        chart.transform_filter("datum.i <= m")
        .transform_calculate(lt="datum.i == 0 ? 0 : log((m - datum.i + 1) / datum.i) + log(eps0 / (1 - eps0))")
        .transform_window(cum="sum(lt)", sort=[alt.SortField("i", order="ascending")], frame=[None, 0])
        .transform_calculate(pmf="exp(m * log(1 - eps0) + datum.cum)")
        .transform_window(ge="sum(pmf)", sort=[alt.SortField("i", order="descending")], frame=[None, 0])
        .transform_calculate(cand="datum.ge < alpha ? datum.i - 1 : m", k=k)
        .transform_joinaggregate(C="min(cand)", pmax="max(pmf)")
        .transform_calculate(
            keep_lo="datum.pmf > 1e-6 * datum.pmax || datum.i == min(datum.k, m) ? datum.i : 1e9",
            keep_hi="datum.pmf > 1e-6 * datum.pmax || datum.i == min(datum.k, m) ? datum.i : -1",
            tail="datum.i == datum.C + 1 ? datum.ge : 0",
            pval="datum.i == datum.k ? datum.ge : 0",
        )
        .transform_joinaggregate(lo0="min(keep_lo)", hi0="max(keep_hi)", P="sum(tail)", p="sum(pval)")
        .transform_calculate(
            lo="max(0, datum.lo0 - 1)", hi="min(m, max(datum.hi0 + 1, datum.C + 2))", reject="datum.k > datum.C"
        )
        .transform_calculate(**_binomial_fields())
    )


def _binomial_fields():
    """The readout's fields as Vega expressions over the transforms' columns (the formats of BINOMIAL_TEXT)."""
    return {
        "f_m": "'' + m",
        "f_eps0": py_fixed("eps0", 2),
        "f_alpha": py_fixed("alpha", 2),
        "f_k": "'' + datum.k",
        "f_rate": py_fixed("datum.k / m", 3),
        "f_c": "'' + datum.C",
        "f_cv": py_fixed("datum.C / m", 3),
        "f_p": py_fixed("datum.p", 4),
        "f_verdict": f"datum.reject ? {_js(say(REJECT))} : {_js(say(KEEP))}",
        "f_P": py_fixed("datum.P", 3),
        "f_p3": py_fixed("datum.p", 3),
    }


def _js(s):
    import json

    return json.dumps(s, ensure_ascii=False)


@validate_params(
    {"eps0": PROBABILITY, "alpha": OPEN_UNIT, "error_rate": PROBABILITY}
)  # m: inline, its message is pinned ("m must be ...", as evallib.compare.binomial_test's)
def binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4):
    """Sliders for m, ε0, the observed error rate and a menu for α over the binomial test (notebook 08): the
    distribution of the error count under H0, its critical region and the observed count, computed in the chart.
    """
    m, eps0, error_rate, n_errors = _check_binomial(m, eps0, error_rate)
    text, r = _binomial_text(m, eps0, alpha, n_errors)  # validates alpha
    if m > M_MAX or m % 5:
        raise ValueError(f"m must be a multiple of 5 in [5, {M_MAX}] (the slider's values), got {m}")
    options = list(ALPHAS) if alpha in ALPHAS else sorted({*ALPHAS, alpha})
    p_m = slider(m, 5, M_MAX, 5, "m (test samples)", name="m")
    p_eps0 = slider(eps0, 0.01, 0.99, 0.01, "eps0", name="eps0")
    p_alpha = menu(alpha, options, "alpha", name="alpha")
    p_rate = slider(error_rate, 0.0, 1.0, 0.01, "observed error rate", name="error_rate")
    base = _binomial_transforms(alt.Chart(binomial_chart_data()))
    shown = base.transform_filter("datum.i >= datum.lo && datum.i <= datum.hi")
    crit, ok = ui("critical region"), ui("do not reject")
    colour = alt.Color(
        "region:N",
        title=None,
        legend=alt.Legend(orient="top"),
        scale=alt.Scale(domain=[ok, crit], range=[COLORS["blue"], COLORS["red"]]),
    )
    bars = (
        shown.transform_calculate(
            region=f"datum.i > datum.C ? {_js(crit)} : {_js(ok)}", x0="datum.i - 0.45", x1="datum.i + 0.45"
        )
        .mark_rect()
        .encode(
            x=alt.X("x0:Q", title=ui("number of misclassified test samples"), scale=alt.Scale(zero=False, nice=False)),
            x2="x1:Q",
            y=alt.Y("pmf:Q", title=ui("probability under H0")),
            y2=alt.datum(0),
            color=colour,
        )
    )
    headroom = (
        shown.transform_filter("datum.i == datum.lo")
        .transform_calculate(top="1.45 * datum.pmax")
        .mark_point(opacity=0)
        .encode(x="i:Q", y="top:Q")
    )
    observed = (
        shown.transform_filter("datum.i == datum.k")
        .mark_rule(color=COLORS["black"], strokeDash=[5, 3], strokeWidth=1.4)
        .encode(x="i:Q")
    )
    label = _js(ui("critical region (> {c} errors), P = {P}"))
    notes = (
        shown.transform_filter("datum.i == datum.lo")
        .transform_calculate(
            note=f"replace(replace({label}, '{{c}}', datum.f_c), '{{P}}', datum.f_P) + '\\n' + "
            f"replace(replace({_js(ui('observed: {k} errors, p = {p}'))}, '{{k}}', datum.f_k),"
            " '{p}', datum.f_p3)"
        )
        .mark_text(align="left", baseline="top", lineBreak="\n", fontSize=11)
        .encode(text="note:N", x=alt.value(6), y=alt.value(4))
    )
    panel = alt.layer(bars, headroom, observed, notes).properties(width=640, height=240)
    sentence = " + '\\n' + ".join(readout_expr(t, "f_") for t in BINOMIAL_TEXT)
    lines = readout(base.transform_filter("datum.i == 0").transform_calculate(readout=sentence), n_lines=3)
    title = ui("Binomial test: H0 says the generalisation error is at most eps0")
    chart = alt.vconcat(panel, lines).add_params(p_m, p_eps0, p_alpha, p_rate).properties(title=title)
    return Explorer(
        chart,
        data=None,
        text=text,
        title=title,
        values={"m": m, "eps0": eps0, "alpha": alpha, "error_rate": error_rate},
    )


# ----------------------------------------------------------------------------------------------------
# CD explorer (notebook 09)
# ----------------------------------------------------------------------------------------------------
def _check_cd(mean_ranks, names, n_datasets):
    r = as_finite_array(mean_ranks, "mean_ranks")
    k = r.size
    if k < 2:
        raise ValueError(f"mean_ranks has {k} value; at least 2 algorithms are needed")
    names = tuple(str(n) for n in names) if names is not None else _cmp._default_names(k)
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries but mean_ranks has {k}")
    n = check_positive_int(n_datasets, "n_datasets", minimum=2)
    return r, names, n


def _cd_text(r, names, alpha, n):
    k = r.size
    q = _cmp.q_alpha(k, alpha)
    cd = _cmp.critical_difference(k, n, alpha)
    diff = np.abs(r[:, None] - r[None, :])
    pairs = []
    for i, j in zip(*np.nonzero(np.triu(diff > cd, 1))):
        a, b = (i, j) if r[i] <= r[j] else (j, i)
        pairs.append(f"{names[a]} < {names[b]} ({diff[i, j]:.2f})")
    groups = _cmp.cd_groups(r, cd)
    shown = [" ".join(names[i] for i in g) for g in groups]
    text = "\n".join(
        [
            say(CD_TEXT[0], k=k, n=n, alpha=alpha, q=q, cd=cd),
            say(CD_TEXT[1], pairs=", ".join(pairs) if pairs else say("none")),
            say(CD_TEXT[2], groups="; ".join(shown) if shown else say("none")),
        ]
    )
    return text, cd, groups


@validate_params(
    {"mean_ranks": ["array-like"], "names": [None, "array-like"], "alpha": OPEN_UNIT, "n_datasets": at_least(2)}
)
def cd_view(mean_ranks, names, alpha, n_datasets):
    """Text and figure: the Nemenyi CD for ``alpha`` and ``n_datasets`` (N), which pairs of algorithms
    with these mean ranks it separates, the CD-against-N curve and the CD diagram.

    >>> text, fig = cd_view([1.0, 2.125, 2.875], ("A", "B", "C"), 0.05, 4)
    >>> print(text.splitlines()[0])
    k = 3, N = 4, alpha = 0.05: q_alpha = 2.344, CD = 1.657
    """
    r, names, n = _check_cd(mean_ranks, names, n_datasets)
    text, cd, _ = _cd_text(r, names, alpha, n)
    k = r.size
    fig, (ax1, ax2) = new_figure(2, width=11.0, height=4.2)
    _plots.plot_cd_curve(
        sorted({3, k, 10} if k != 10 else {3, 10}), n_range=(2, max(50, n)), alpha=alpha, mark=(k, n), ax=ax1
    )
    _plots.plot_cd_diagram(mean_ranks=r, cd=cd, names=names, ax=ax2)
    return text, fig


@validate_params(
    {"mean_ranks": ["array-like"], "names": [None, "array-like"], "alphas": ["array-like"], "n_range": ["array-like"]}
)
def cd_data(mean_ranks, names=None, *, alphas=ALPHAS, n_range=(2, 100)) -> dict:
    """Every state of the CD explorer: for each α in ``alphas`` and N in ``n_range`` (both ends included), the
    critical difference (:func:`evallib.compare.critical_difference`), its groups (:func:`evallib.compare.
    cd_groups`) and the readout.

    Returns DataFrames ``curves`` (CD against N for k = 3, 10 and the k of ``mean_ranks``, per α), ``states``
    (one row per (α, N): ``cd``, ``readout`` (wrapped for the chart), ``text`` (as printed) and the mark's label),
    ``groups`` (one row per (α, N, bar): the bar's ends on the rank axis, and its row) and ``diagram`` (the
    static part of the CD diagram: the rank axis and the names, as segments and labels).

    >>> d = cd_data([1.0, 2.125, 2.875], ("A", "B", "C"), n_range=(4, 4))
    >>> d["states"][["alpha", "cd"]].round(3).values.tolist()  # N = 4 data sets at α = 0.01, 0.05, 0.1
    [[0.01, 2.06], [0.05, 1.657], [0.1, 1.451]]
    """
    r, names, _ = _check_cd(mean_ranks, names, 2)
    lo_n, hi_n = (check_positive_int(v, "n_range", minimum=2) for v in n_range)
    if hi_n < lo_n:
        raise ValueError(f"n_range must be (low, high) with low <= high, got {n_range!r}")
    alphas = [float(a) for a in alphas]
    k = r.size
    ks = sorted({3, k, 10})
    nn = np.arange(lo_n, hi_n + 1)
    curves = pd.DataFrame(
        [
            {"alpha": a, "k": kk, "N": int(n), "cd": _cmp.critical_difference(kk, int(n), a)}
            for a in alphas
            for kk in ks
            for n in nn
        ]
    )
    states, groups = [], []
    for a in alphas:
        for n in nn:
            text, cd, gs = _cd_text(r, names, a, int(n))
            states.append(
                {
                    "alpha": a,
                    "N": int(n),
                    "cd": cd,
                    "text": text,
                    "readout": wrap(text),
                    "mark": f"k = {k}, N = {int(n)}: CD = {cd:.3f}",
                    "cd_label": f"CD = {cd:.3f}",
                }
            )
            for g_i, g in enumerate(gs):
                groups.append(
                    {
                        "alpha": a,
                        "N": int(n),
                        "y": -0.35 - 0.45 * g_i,
                        "a": float(r[list(g)].min()) - 0.04,
                        "b": float(r[list(g)].max()) + 0.04,
                    }
                )
    return {
        "curves": curves,
        "states": pd.DataFrame(states),
        "groups": pd.DataFrame(groups, columns=["alpha", "N", "y", "a", "b"]),
        "diagram": _cd_diagram(r, names),
    }


def _cd_diagram(r, names):
    """What :func:`evallib.plots.plot_cd_diagram` draws that does not depend on CD: the rank axis, its ticks and
    labels, and each algorithm's name hanging from its mean rank. The names sit below room for k group bars
    (the most there can be), so they stay put while the bars change."""
    k = r.size
    lo, hi = 1, max(k, int(np.ceil(r.max())))
    segs = [dict(x=lo, x2=hi, y=0, y2=0, c="axis")]
    segs += [dict(x=t, x2=t, y=0, y2=0.18, c="axis") for t in range(lo, hi + 1)]
    segs += [dict(x=t, x2=t, y=0, y2=0.09, c="axis") for t in np.arange(lo + 0.5, hi, 1.0)]
    texts = [dict(x=t, y=0.3, text=str(t), align="center") for t in range(lo, hi + 1)]
    order = np.argsort(r, kind="stable")
    n_left = (k + 1) // 2
    y0 = -0.35 - 0.45 * (k - 1)
    for pos, idx in enumerate(order):
        left = pos < n_left
        row = pos if left else k - 1 - pos
        y = y0 - (row + 1)
        x_text = lo - 0.3 * (hi - lo) - 0.1 if left else hi + 0.3 * (hi - lo) + 0.1
        segs += [
            dict(x=float(r[idx]), x2=float(r[idx]), y=0, y2=y, c="name"),
            dict(x=float(r[idx]), x2=x_text, y=y, y2=y, c="name"),
        ]
        texts.append(
            dict(
                x=x_text + (-0.05 if left else 0.05),
                y=y,
                text=f"{names[idx]} ({_plots._rank_str(r[idx])})",
                align="right" if left else "left",
            )
        )
    bottom = y0 - (max(n_left, k - n_left) + 1)
    return {
        "segments": pd.DataFrame(segs),
        "texts": pd.DataFrame(texts),
        "xlim": (lo - 0.6 * (hi - lo) - 0.5, hi + 0.6 * (hi - lo) + 0.5),
        "ylim": (bottom - 0.5, 2.4),
    }


@validate_params(
    {"mean_ranks": ["array-like"], "names": [None, "array-like"], "n_datasets": at_least(2), "alpha": OPEN_UNIT}
)  # n_datasets <= 100 (the slider's end): inline
def cd_explorer(mean_ranks, names=None, *, n_datasets=10, alpha=0.05):
    """A slider for N and a menu for α over the Nemenyi critical difference of fixed mean ranks (notebook 09):
    with the same mean ranks, more data sets shrink CD and separate more pairs."""
    r, names_t, n = _check_cd(mean_ranks, names, n_datasets)
    text, _, _ = _cd_text(r, names_t, alpha, n)  # validates alpha
    if n > 100:
        raise ValueError(f"n_datasets must be in [2, 100] (the slider's range), got {n}")
    options = list(ALPHAS) if alpha in ALPHAS else sorted({*ALPHAS, alpha})
    data = cd_data(r, names_t, alphas=options)
    p_alpha = menu(alpha, options, "alpha", name="alpha")
    p_n = slider(n, 2, 100, 1, "N (data sets)", name="n_datasets")
    states = alt.Chart(inline(data["states"].drop(columns="text"))).transform_filter(match(alpha=p_alpha, N=p_n))
    y_all = data["curves"]["cd"]
    pad = 0.05 * (y_all.max() - y_all.min())
    ys = alt.Scale(domain=[float(y_all.min() - pad), float(y_all.max() + pad)], nice=False)
    xs = alt.Scale(domain=[2, 100], nice=False)
    curves = (
        alt.Chart(inline(data["curves"]))
        .transform_filter(match(alpha=p_alpha))
        .transform_calculate(label="'k = ' + datum.k")
        .mark_line()
        .encode(
            x=alt.X("N:Q", scale=xs, title=ui("number of data sets N")),
            y=alt.Y("cd:Q", scale=ys, title=ui("critical difference CD (mean ranks)")),
            color=alt.Color("label:N", title=None, legend=alt.Legend(orient="top-right")),
        )
    )
    mark = states.mark_point(filled=True, size=70, color=COLORS["red"]).encode(x="N:Q", y="cd:Q")
    mark_label = states.mark_text(align="right", baseline="top", color=COLORS["red"]).encode(
        text="mark:N", x=alt.value(255), y=alt.value(70)
    )
    left = alt.layer(curves, mark, mark_label).properties(
        width=260, height=240, title=ui("Nemenyi critical difference against N")
    )
    dg = data["diagram"]
    xd = alt.Scale(domain=list(dg["xlim"]), nice=False, zero=False)
    yd = alt.Scale(domain=list(dg["ylim"]), nice=False, zero=False)
    no_axis = dict(axis=None)
    seg = (
        alt.Chart(inline(dg["segments"]))
        .mark_rule()
        .encode(
            x=alt.X("x:Q", scale=xd, **no_axis),
            x2="x2:Q",
            y=alt.Y("y:Q", scale=yd, **no_axis),
            y2="y2:Q",
            color=alt.Color(
                "c:N", legend=None, scale=alt.Scale(domain=["axis", "name"], range=[COLORS["black"], COLORS["blue"]])
            ),
        )
    )
    labels = [
        alt.Chart(inline(dg["texts"]))
        .transform_filter(f"datum.align == '{a}'")
        .mark_text(align=a, baseline="middle", fontSize=11)
        .encode(x=alt.X("x:Q", scale=xd), y=alt.Y("y:Q", scale=yd), text="text:N")
        for a in ("left", "center", "right")
    ]
    bars = (
        alt.Chart(inline(data["groups"]))
        .transform_filter(match(alpha=p_alpha, N=p_n))
        .mark_rule(strokeWidth=3.5, strokeCap="round", color=COLORS["black"])
        .encode(x=alt.X("a:Q", scale=xd), x2="b:Q", y=alt.Y("y:Q", scale=yd))
    )
    cd_bar = (
        states.transform_calculate(x0="1", x1="1 + datum.cd", y="1.5")
        .mark_rule(color=COLORS["red"], strokeWidth=2)
        .encode(x=alt.X("x0:Q", scale=xd), x2="x1:Q", y=alt.Y("y:Q", scale=yd))
    )
    ends = (
        states.transform_calculate(e0="1", e1="1 + datum.cd")
        .transform_fold(["e0", "e1"], as_=["end", "xe"])
        .transform_calculate(ya="1.38", yb="1.62")
        .mark_rule(color=COLORS["red"], strokeWidth=1.5)
        .encode(x=alt.X("xe:Q", scale=xd), y=alt.Y("ya:Q", scale=yd), y2="yb:Q")
    )
    cd_text = (
        states.transform_calculate(xm="1 + datum.cd / 2", ym="1.7")
        .mark_text(color=COLORS["red"], baseline="bottom", fontSize=11)
        .encode(x=alt.X("xm:Q", scale=xd), y=alt.Y("ym:Q", scale=yd), text="cd_label:N")
    )
    right = (
        alt.layer(seg, *labels, bars, cd_bar, ends, cd_text)
        .properties(width=320, height=240, title=ui("Critical difference diagram (Nemenyi)"))
        .resolve_scale(color="independent")
    )
    n_lines = max(t.count("\n") + 1 for t in data["states"]["readout"])
    title = ui("Nemenyi critical difference: alpha and the number of data sets")
    chart = (
        alt.vconcat(alt.hconcat(left, right).resolve_scale(color="independent"), readout(states, n_lines=n_lines))
        .add_params(p_alpha, p_n)
        .properties(title=title)
        .configure_view(stroke=None)
    )
    return Explorer(chart, data=data, text=text, title=title, values={"alpha": alpha, "n_datasets": n})
