"""Explorer for comparing learners today (beyond the book, ``notebooks/13_comparing_today.ipynb``): the ROPE and
the number of data sets against the Bayesian signed-rank test's three probabilities and the frequentist
verdicts, side by side.

evallib computes, the browser draws: :func:`bayesian_comparison_data` runs the tests for every ROPE and N of the
sliders (the Bayesian signed-rank test with ``random_state=0``, the Wilcoxon, sign and t-tests) and keeps the
posterior draws the chart shows; the Vega-Lite chart selects the setting's rows.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .. import compare as _cmp
from .._validation import as_finite_array, check_consistent_length, check_positive_int, validate_params
from ..i18n import N_, say, ui
from ..plots import compare_today as _plots
from ..style import COLORS
from ._chart import NONNEGATIVE, WIDTH, Explorer, at_least, inline, match, readout, slider, wrap

__all__ = ["ROPES", "bayesian_comparison_data", "bayesian_comparison_view", "bayesian_comparison_explorer"]

DECISION = 0.95  # Benavoli et al. (2017): act on a region whose posterior probability exceeds 0.95
ROPES = np.round(0.005 * np.arange(11), 10)  # the ROPE slider's values (0 to 0.05)
N_SAMPLES = 10000  # posterior draws per test (the probabilities)
DRAWS = 100  # of which the simplex shows the first DRAWS (thinned: the data of 308 settings stays under 1 MB)
_H = float(np.sqrt(3) / 2)
_SW, _SH = 240, 208  # the simplex's panel (its aspect kept)


def _region_labels(names, lower_is_better, tr=lambda template, **fields: template.format(**fields)):
    a, b = names
    better = lambda x: tr(N_("{name} better"), name=x)  # noqa: E731
    # d = scores_b - scores_a: "left" (d < -rope) means B scores lower
    return (
        (better(b), tr(N_("equivalent")), better(a))
        if lower_is_better
        else (better(a), tr(N_("equivalent")), better(b))
    )


def _check(scores_a, scores_b, names):
    a = as_finite_array(scores_a, "scores_a")
    b = as_finite_array(scores_b, "scores_b")
    check_consistent_length(scores_a=a, scores_b=b)
    names = tuple(str(x) for x in names)
    if len(names) != 2:
        raise ValueError(f"names must name the two learners, got {len(names)} entries")
    return a, b, names


def _check_n(n_datasets, size):
    n = check_positive_int(n_datasets, "n_datasets", minimum=2)
    if n > size:
        raise ValueError(f"n_datasets={n} is larger than the {size} data sets given")
    return n


def _readout(a, b, names, lower_is_better, bs, wx, sg, tt):
    said = _region_labels(names, lower_is_better, say)  # the labels in the learner's language
    n, probs = bs.n, bs.probs
    best = int(np.argmax(probs))
    verdict = (
        say("{label} (P > {d})", label=said[best], d=DECISION)
        if probs[best] > DECISION
        else say("no decision (no P above {d})", d=DECISION)
    )
    d = b[:n] - a[:n]
    diff = float(d.mean()) + 0.0  # + 0.0: never print -0.0000
    b_wins = int(np.sum(d < 0)) if lower_is_better else int(np.sum(d > 0))
    ties = int(np.sum(d == 0))
    decide = lambda res: say("reject H0") if res.reject else say("cannot reject H0")  # noqa: E731
    return "\n".join(
        [
            say(
                "N = {n} data sets, rope = {rope:.3f}: mean {b} - {a} = {diff:.4f} ({b} better on {bw}, {a} better "
                "on {aw}, ties {ties})",
                n=n,
                rope=bs.rope,
                a=names[0],
                b=names[1],
                diff=diff,
                bw=b_wins,
                aw=n - b_wins - ties,
                ties=ties,
            ),
            say(
                "Bayesian signed-rank: P({l0}) = {p0:.3f}, P({l1}) = {p1:.3f}, P({l2}) = {p2:.3f} -> {verdict}",
                l0=said[0],
                l1=said[1],
                l2=said[2],
                p0=probs[0],
                p1=probs[1],
                p2=probs[2],
                verdict=verdict,
            ),
            say(
                "Wilcoxon: T = {t:g}, p = {p:.4f} -> {v1} | sign test: p = {ps:.4f} -> {v2} | t-test over data sets: "
                "p = {pt:.4f} -> {v3}",
                t=wx.statistic,
                p=wx.pvalue,
                v1=decide(wx),
                ps=sg.pvalue,
                v2=decide(sg),
                pt=tt.pvalue,
                v3=decide(tt),
            ),
        ]
    )


def _tests(a, b, rope, n, lower_is_better, n_samples=N_SAMPLES):
    a, b = a[:n], b[:n]
    return (
        _cmp.bayesian_signed_rank(a, b, rope=rope, n_samples=n_samples, random_state=0),
        _cmp.wilcoxon(a, b),
        _cmp.sign_test(a, b, lower_is_better=lower_is_better),
        _cmp.paired_ttest(a, b),
    )


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "rope": NONNEGATIVE,
        "n_datasets": at_least(2),  # at most the data sets given: inline
        "names": ["array-like"],
        "lower_is_better": ["boolean"],
        "n_samples": at_least(1),
    }
)
def bayesian_comparison_view(
    scores_a, scores_b, rope, n_datasets, names=("A", "B"), lower_is_better=True, n_samples=10000
):
    """Text and figure: A against B on the first ``n_datasets`` data sets, with a ROPE of ``rope``.

    The Bayesian signed-rank test (:func:`evallib.compare.bayesian_signed_rank`, ``random_state=0``) gives
    P(B better), P(equivalent), P(A better); beside it, the Wilcoxon signed-rank test, the sign test and the
    t-test over the same data sets. The figure: the posterior draws in the simplex
    (:func:`evallib.plots.plot_simplex`).

    >>> a = np.linspace(0.10, 0.30, 12); b = a - 0.01
    >>> text, fig = bayesian_comparison_view(a, b, 0.005, 12)
    >>> print(text.splitlines()[0])
    N = 12 data sets, rope = 0.005: mean B - A = -0.0100 (B better on 12, A better on 0, ties 0)
    """
    from ..style import new_figure

    a, b, names = _check(scores_a, scores_b, names)
    n = _check_n(n_datasets, a.size)
    rope = _cmp._check_real(rope, "rope")
    bs, wx, sg, tt = _tests(a, b, rope, n, lower_is_better, n_samples)
    fig, ax = new_figure()
    _plots.plot_simplex(bs, labels=_region_labels(names, lower_is_better), max_points=3000, ax=ax)
    return _readout(a, b, names, lower_is_better, bs, wx, sg, tt), fig


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "names": ["array-like"],
        "lower_is_better": ["boolean"],
        "min_n": at_least(2),
    }
)
def bayesian_comparison_data(scores_a, scores_b, *, names=("A", "B"), lower_is_better=True, min_n=3) -> dict:
    """Everything the explorer shows, for every ROPE in :data:`ROPES` and every N from ``min_n`` to the number of
    data sets: ``{"probs", "draws", "readout"}`` DataFrames.

    ``probs``: rope, n, region (0 left, 1 rope, 2 right), label, p (the test's probabilities from 10000 draws);
    ``draws``: rope, n and the arrays x, y, region of the first :data:`DRAWS` posterior draws projected to the
    simplex (as :func:`evallib.plots.plot_simplex` places them, rounded to 3 decimals); ``readout``: rope, n,
    text (the explorer's three lines), lines (text broken to fit the chart), title (the frequentist p-values), corner0–corner2 (the corners' labels).
    """
    a, b, names = _check(scores_a, scores_b, names)
    labels = _region_labels(names, lower_is_better)
    probs, draws, readout = [], [], []
    for n in range(int(min_n), a.size + 1):
        bs0, wx, sg, tt = _tests(a, b, 0.0, n, lower_is_better)
        for rope in ROPES:
            bs = _cmp.bayesian_signed_rank(a[:n], b[:n], rope=float(rope), n_samples=N_SAMPLES, random_state=0)
            probs += [(float(rope), n, k, f"P({labels[k]})", float(p)) for k, p in enumerate(bs.probs)]
            s = bs.samples[:DRAWS]
            x, y = _plots._project(s)
            draws.append((float(rope), n, np.round(x, 3).tolist(), np.round(y, 3).tolist(), s.argmax(axis=1).tolist()))
            text = _readout(a, b, names, lower_is_better, bs, wx, sg, tt)
            readout.append(
                (
                    float(rope),
                    n,
                    text,
                    wrap(text),
                    f"Wilcoxon p = {wx.pvalue:.4f}, sign test p = {sg.pvalue:.4f}",
                    f"{labels[0]}\nP = {bs.p_left:.3f}",
                    f"{labels[1]}: P = {bs.p_rope:.3f}",
                    f"{labels[2]}\nP = {bs.p_right:.3f}",
                )
            )
    return {
        "probs": pd.DataFrame(probs, columns=["rope", "n", "region", "label", "p"]),
        "draws": pd.DataFrame(draws, columns=["rope", "n", "x", "y", "region"]),
        "readout": pd.DataFrame(
            readout, columns=["rope", "n", "text", "lines", "title", "corner0", "corner1", "corner2"]
        ),
    }


def _chart(data, rope, n, n_max):
    rp = slider(float(rope), 0.0, float(ROPES[-1]), 0.005, "rope (half-width)", name="rope")
    np_ = slider(int(n), int(data["readout"]["n"].min()), int(n_max), 1, "N (data sets)", name="n_datasets")
    at = match(rope=rp, n=np_)
    colors = alt.Scale(domain=[0, 1, 2], range=[COLORS["red"], COLORS["grey"], COLORS["blue"]])
    sx = alt.Scale(domain=[-0.15, 1.15], nice=False)
    sy = alt.Scale(domain=[-0.2, _H + 0.12], nice=False)
    X, Y = (lambda f: alt.X(f, scale=sx, axis=None)), (lambda f: alt.Y(f, scale=sy, axis=None))
    frame = pd.DataFrame({"x": [0, 1, 0.5, 0], "y": [0, 0, _H, 0], "o": [0, 1, 2, 3]})
    tri = alt.Chart(frame).mark_line(color="black").encode(X("x:Q"), Y("y:Q"), order="o:Q")
    cx, cy = 0.5, _H / 3
    spokes = pd.DataFrame(
        {"x": [cx, 0.5, cx, 0.25, cx, 0.75], "y": [cy, 0, cy, _H / 2, cy, _H / 2], "s": [0, 0, 1, 1, 2, 2]}
    )
    split = (
        alt.Chart(spokes).mark_line(color=COLORS["grey"], strokeDash=[4, 3]).encode(X("x:Q"), Y("y:Q"), detail="s:N")
    )
    dots = (
        alt.Chart(inline(data["draws"]))
        .transform_filter(at)
        .transform_flatten(["x", "y", "region"])
        .mark_circle(size=16, opacity=0.6)
        .encode(X("x:Q"), Y("y:Q"), alt.Color("region:N", scale=colors, legend=None))
    )
    r = alt.Chart(inline(data["readout"])).transform_filter(at)
    px = lambda v: (v + 0.15) / 1.3 * _SW  # noqa: E731  (the corners' places as plot_simplex puts them)
    py = lambda v: (_H + 0.12 - v) / (_H + 0.32) * _SH  # noqa: E731
    corners = [
        r.mark_text(lineBreak="\n", baseline=base, fontSize=10, x=px(x), y=py(y)).encode(text=f"corner{k}:N")
        for k, (x, y, base) in enumerate(((-0.02, -0.04, "top"), (0.5, _H + 0.03, "bottom"), (1.02, -0.04, "top")))
    ]
    left = alt.layer(tri, split, dots, *corners).properties(
        width=_SW, height=_SH, title=ui("posterior draws in the simplex")
    )
    xp = alt.X("p:Q", scale=alt.Scale(domain=[0, 1]), title=ui("posterior probability"))
    yb = alt.Y("label:N", sort=alt.EncodingSortField("region"), title=None)
    pb = alt.Chart(inline(data["probs"])).transform_filter(at)
    bars = pb.mark_bar().encode(xp, yb, alt.Color("region:N", scale=colors, legend=None))
    values = (
        pb.transform_calculate(tx="min(datum.p + 0.02, 0.85)")
        .mark_text(align="left")
        .encode(alt.X("tx:Q", scale=alt.Scale(domain=[0, 1])), yb, text=alt.Text("p:Q", format=".3f"))
    )  # as the old bars
    rule = alt.Chart(pd.DataFrame({"p": [DECISION]})).mark_rule(strokeDash=[5, 3], color="black").encode(xp)
    title = r.mark_text(align="left", baseline="top", x=-150, y=-18, fontWeight="bold").encode(text="title:N")
    right = alt.layer(bars, values, rule, title).properties(width=WIDTH - _SW - 280, height=160)
    text = readout(alt.Chart(inline(data["readout"])), text="lines", where=at, n_lines=6)
    return alt.vconcat(alt.hconcat(left, right), text).add_params(rp, np_)


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "rope": NONNEGATIVE,  # on the explorer's grid: inline
        "n_datasets": [None, *at_least(2)],  # at least 3, the slider's start: inline
        "names": ["array-like"],
        "lower_is_better": ["boolean"],
    }
)
def bayesian_comparison_explorer(
    scores_a, scores_b, *, rope=0.01, n_datasets=None, names=("A", "B"), lower_is_better=True
):
    """Sliders for the ROPE width (0 to 0.05 in steps of 0.005) and the number of data sets N (3 to all), over
    :func:`bayesian_comparison_data` (notebook 13): a wider ROPE moves probability to "equivalent"; more data
    sets sharpen every verdict."""
    a, b, names = _check(scores_a, scores_b, names)
    n_datasets = a.size if n_datasets is None else n_datasets
    n = _check_n(n_datasets, a.size)
    rope = _cmp._check_real(rope, "rope")
    if np.min(np.abs(ROPES - rope)) > 1e-9:
        raise ValueError(f"rope must be a multiple of 0.005 in [0, 0.05] (the explorer's grid), got {rope!r}")
    if n < 3:
        raise ValueError(f"n_datasets must be at least 3 (the slider's start), got {n}")
    data = bayesian_comparison_data(a, b, names=names, lower_is_better=lower_is_better)
    text = data["readout"].query("n == @n and abs(rope - @rope) < 1e-9")["text"].iloc[0]
    return Explorer(
        _chart(data, rope, n, a.size),
        text=text,
        data=data,
        title=ui("Bayesian signed-rank vs Wilcoxon: the ROPE and the number of data sets"),
        values={"rope": rope, "n_datasets": n},
    )
