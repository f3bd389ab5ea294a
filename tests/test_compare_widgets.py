"""Explorers and figures of the comparison tests, checked without a browser: the text a learner reads
must state what SciPy computes, controls must drive it, and bad input must be refused clearly."""

import matplotlib

matplotlib.use("Agg")

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

import evallib as el
from evallib import compare as C
from evallib.widgets import compare as W
from evallib.widgets._chart import wrap


def _numbers(text):
    return [float(x) for x in re.findall(r"-?\d+\.\d+|\d+", text)]


# ----------------------------------------------------------------------------------------------------
# Binomial test explorer (notebook 08)
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("m,eps0,alpha,rate", [(100, 0.3, 0.05, 0.38), (50, 0.1, 0.01, 0.2), (20, 0.5, 0.1, 0.5)])
def test_binomial_view_states_scipy_numbers(m, eps0, alpha, rate):
    text, fig = W.binomial_view(m, eps0, alpha, rate)
    n = round(rate * m)
    p = stats.binomtest(n, m, eps0, alternative="greater").pvalue
    tails = stats.binom.sf(np.arange(m + 1), m, eps0)
    c = int(np.argmax(tails < alpha))  # first count whose upper tail is below alpha
    assert f"critical count C = {c}," in text
    assert f"critical error rate = {c / m:.3f}" in text
    assert f"= {p:.4f} ->" in text
    assert ("reject H0:" in text) == (n > c)
    assert fig is not None and len(fig.axes) == 1
    plt.close(fig)


def _binomial_states():
    rng = np.random.default_rng(8)
    states = [
        dict(m=50, eps0=0.3, alpha=0.05, error_rate=0.4),
        dict(m=80, eps0=0.05, alpha=0.1, error_rate=0.07),
        dict(m=5, eps0=0.01, alpha=0.01, error_rate=0.0),
        dict(m=500, eps0=0.99, alpha=0.05, error_rate=1.0),
        dict(m=500, eps0=0.5, alpha=0.01, error_rate=0.55),
        dict(m=10, eps0=0.5, alpha=0.05, error_rate=0.25),
        dict(m=160, eps0=0.06, alpha=0.1, error_rate=0.09),
    ]
    for _ in range(25):
        states.append(
            dict(
                m=int(5 * rng.integers(1, 101)),
                eps0=round(0.01 * rng.integers(1, 100), 2),
                alpha=float(rng.choice(W.ALPHAS)),
                error_rate=round(0.01 * rng.integers(0, 101), 2),
            )
        )
    return states


def test_binomial_explorer_chart_shows_scipy_numbers_in_vega():
    """The chart computes the distribution with Vega expressions: run in Vega (Node.js), its readout equals the
    Python readout (SciPy's tails through evallib.compare.binomial_test) and its legend the critical region's
    probability and the p-value, for 32 settings (corners, ties of Python's rounding: 7/80 = 0.0875 writes 0.087)."""
    import vega_eval

    ex = W.binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4)
    states = _binomial_states()
    for st, out in zip(states, vega_eval.run(ex.spec(), states)):
        n = round(st["error_rate"] * st["m"])
        expected, r = W._binomial_text(st["m"], st["eps0"], st["alpha"], n)
        assert expected in out["texts"], st
        c = r.critical_count
        p_crit = stats.binom.sf(c, st["m"], st["eps0"])
        note = f"critical region (> {c} errors), P = {p_crit:.3f}\nobserved: {n} errors, p = {r.pvalue:.3f}"
        assert note in out["texts"], st


def test_binomial_explorer_spec_and_initial_readout():
    ex = W.binomial_test_explorer(m=100, eps0=0.3, alpha=0.05, error_rate=0.38)
    assert isinstance(ex, el.widgets.Explorer)
    assert ex.text == W.binomial_view(100, 0.3, 0.05, 0.38)[0] and "cannot reject" in ex.text
    spec = ex.spec()  # validated against the Vega-Lite 5 schema
    assert {p["name"] for p in spec["params"]} == {"m", "eps0", "alpha", "error_rate"}
    assert spec["params"][2]["bind"]["input"] == "radio"  # arrows change it in JupyterLab
    assert ex.nbytes() < 100_000
    with el.i18n.language("zh"):
        zh = W.binomial_test_explorer(m=100, eps0=0.3, alpha=0.05, error_rate=0.38)
    assert zh.text.startswith("m = 100，ε0 = 0.30")


def test_binomial_explorer_vega_readout_in_chinese():
    import vega_eval

    with el.i18n.language("zh"):
        ex = W.binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4)
        expected = W._binomial_text(200, 0.3, 0.01, 90)[0]
    out = vega_eval.run(ex.spec(), [dict(m=200, alpha=0.01, error_rate=0.45)])[0]
    assert expected in out["texts"]


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(m=0), "m must"),
        (dict(eps0=1.5), "eps0"),
        (dict(error_rate=-0.1), "error_rate"),
        (dict(alpha=0.0), "alpha"),
        (dict(m=2.5), "m must"),
        (dict(m=501), "multiple of 5"),
    ],
)
def test_binomial_view_bad_input(kwargs, match):
    args = dict(m=50, eps0=0.3, alpha=0.05, error_rate=0.4) | kwargs
    if "multiple" not in match:
        with pytest.raises((ValueError, TypeError), match=match):
            W.binomial_view(**args)
    with pytest.raises((ValueError, TypeError), match=match):
        W.binomial_test_explorer(**args)


def test_py_fixed_and_py_round_write_what_python_writes():
    import altair as alt
    import vega_eval

    xs = [0.0875, 0.0625, 0.125, 0.375, 2.5 / 1000, 1.0, 0.0, 0.9995, 0.00049999, 0.123456, 7 / 80, 3 / 16]
    rs = [0.5, 1.5, 2.5, 22.5, 0.45 * 50, 0.35 * 10, 7.0, 2.4999999999999996]
    rows = [{"x": x} for x in xs]
    chart = (
        alt.Chart(alt.Data(values=rows))
        .transform_calculate(**{f"f{d}": W.py_fixed("datum.x", d) for d in (2, 3, 4)})
        .mark_text()
        .encode(text=alt.Text("t:N"))
        .transform_calculate(t="datum.f2 + ' ' + datum.f3 + ' ' + datum.f4")
    )
    rchart = (
        alt.Chart(alt.Data(values=[{"x": r} for r in rs]))
        .transform_calculate(t="'' + " + W.py_round("datum.x"))
        .mark_text()
        .encode(text="t:N")
    )
    out = vega_eval.run(alt.vconcat(chart, rchart).to_dict(), [{}])[0]["texts"]
    assert sorted(out[: len(xs)]) == sorted(f"{x:.2f} {x:.3f} {x:.4f}" for x in xs)
    assert sorted(out[len(xs) :]) == sorted(str(round(r)) for r in rs)


# ----------------------------------------------------------------------------------------------------
# CD explorer (notebook 09)
# ----------------------------------------------------------------------------------------------------
def test_cd_view_book_example():
    text, fig = W.cd_view([1.0, 2.125, 2.875], ("A", "B", "C"), 0.05, 4)
    assert text.splitlines()[0] == "k = 3, N = 4, alpha = 0.05: q_alpha = 2.344, CD = 1.657"
    assert "A < C (1.88)" in text and "B <" not in text
    assert "groups joined by a bar: A B; B C" in text
    assert len(fig.axes) == 2
    plt.close(fig)


RANKS, NAMES = [4.8, 3.05, 2.9, 2.1, 2.15], ["maj", "tree", "nb", "knn", "lr"]


def test_cd_data_equals_scipy_and_evallib():
    d = W.cd_data(RANKS, NAMES)
    st = d["states"]
    assert len(st) == 3 * 99 and len(d["curves"]) == 3 * 3 * 99  # k = 3, 5, 10
    for a, n in [(0.01, 2), (0.05, 10), (0.1, 100), (0.05, 37)]:
        row = st[(st.alpha == a) & (st.N == n)].iloc[0]
        q = stats.studentized_range.isf(a, 5, np.inf) / np.sqrt(2)  # independent oracle: SciPy
        assert row.cd == pytest.approx(q * np.sqrt(5 * 6 / (6 * n)), rel=1e-9)
        assert row.text == W.cd_view(RANKS, NAMES, a, n)[0]
        g = d["groups"][(d["groups"].alpha == a) & (d["groups"].N == n)]
        bars = C.cd_groups(RANKS, row.cd)
        assert len(g) == len(bars)
        for (_, b), grp in zip(g.iterrows(), bars):
            assert b.a == pytest.approx(min(RANKS[i] for i in grp) - 0.04)
            assert b.b == pytest.approx(max(RANKS[i] for i in grp) + 0.04)
        curve = d["curves"][(d["curves"].alpha == a) & (d["curves"].N == n)]
        for _, c in curve.iterrows():
            assert c.cd == pytest.approx(C.critical_difference(int(c.k), n, a), rel=1e-12)
    plt.close("all")


def test_cd_explorer_spec_size_and_readout_in_vega():
    import vega_eval

    ex = W.cd_explorer(RANKS, NAMES, n_datasets=10, alpha=0.05)
    assert ex.text == W.cd_view(RANKS, NAMES, 0.05, 10)[0]
    spec = ex.spec()
    assert {p["name"]: p["bind"]["input"] for p in spec["params"]} == {"alpha": "radio", "n_datasets": "range"}
    assert ex.nbytes() < 400_000
    states = [{}, dict(n_datasets=60, alpha=0.01), dict(n_datasets=2, alpha=0.1), dict(n_datasets=100)]
    for st, out in zip(states, vega_eval.run(spec, states)):
        a, n = st.get("alpha", 0.05), st.get("n_datasets", 10)
        text = W.cd_view(RANKS, NAMES, a, n)[0]
        assert wrap(text) in out["texts"]
        assert f"CD = {C.critical_difference(5, n, a):.3f}" in out["texts"]
    plt.close("all")


def test_cd_explorer_more_datasets_shrink_cd_and_separate_more_pairs():
    ranks, names = [1.6, 2.4, 3.1, 2.9], ["tree", "forest", "knn", "logreg"]
    st = W.cd_data(ranks, names)["states"]
    cds = [st[(st.alpha == 0.05) & (st.N == n)].cd.iloc[0] for n in (6, 20, 60)]
    assert cds[0] > cds[1] > cds[2]
    assert "significantly different pairs: none" in st[(st.alpha == 0.05) & (st.N == 6)].text.iloc[0]
    assert "tree < knn" in st[(st.alpha == 0.05) & (st.N == 60)].text.iloc[0]
    assert st[(st.alpha == 0.01) & (st.N == 60)].cd.iloc[0] > cds[2]  # a stricter alpha widens CD


def test_cd_view_default_names_and_bad_input():
    text, fig = W.cd_view([1.5, 1.5], None, 0.1, 10)
    plt.close(fig)
    assert "groups joined by a bar: A B" in text
    with pytest.raises(ValueError, match="at least 2"):
        W.cd_view([1.0], None, 0.05, 5)
    with pytest.raises(ValueError, match="names"):
        W.cd_view([1.0, 2.0], ("A",), 0.05, 5)
    with pytest.raises(ValueError, match="n_datasets"):
        W.cd_view([1.0, 2.0], None, 0.05, 1)
    with pytest.raises(ValueError, match="NaN"):
        W.cd_explorer([1.0, np.nan])
    with pytest.raises(ValueError, match="alpha"):
        W.cd_explorer([1.0, 2.0], alpha=1.0)
    with pytest.raises(ValueError, match="n_datasets"):
        W.cd_explorer([1.0, 2.0], n_datasets=101)


# ----------------------------------------------------------------------------------------------------
# Figures: they show what the results say, and refuse what they cannot draw
# ----------------------------------------------------------------------------------------------------
def test_plot_binomial_test_colours_exactly_the_critical_region():
    fig, ax = plt.subplots()
    out = el.plots.plot_binomial_test(30, 0.2, 0.05, 11, ax=ax)
    assert out is ax
    c = C.binomial_critical_count(30, 0.2)
    red = [p for p in ax.patches if p.get_facecolor()[:3] == matplotlib.colors.to_rgb(el.style.COLORS["red"])]
    xs = sorted(round(p.get_x() + p.get_width() / 2) for p in red)
    assert xs[0] == c + 1
    heights = sum(p.get_height() for p in red)
    assert heights == pytest.approx(stats.binom.sf(c, 30, 0.2), rel=1e-3)  # bars drawn up to pmf > 1e-6 max
    plt.close(fig)


def test_plot_null_distribution_and_bad_result():
    fig, ax = plt.subplots()
    r = C.paired_ttest([0.1, 0.12, 0.15, 0.11], [0.13, 0.16, 0.14, 0.15])
    el.plots.plot_null_distribution(r, ax=ax)
    assert "cannot reject" in ax.get_title()
    assert any(line.get_xdata()[0] == pytest.approx(r.statistic) for line in ax.lines[1:])
    el.plots.plot_null_distribution(C.friedman(np.tile([1.0, 2, 3], (5, 1))), ax=ax)  # F = inf: no crash
    with pytest.raises(ValueError, match="t, chi2 or F"):
        el.plots.plot_null_distribution(C.binomial_test(3, 10, 0.2), ax=ax)
    plt.close(fig)


def test_plot_cd_diagram_bars_match_groups():
    s = np.random.default_rng(0).random((10, 5)) + np.linspace(0, 0.4, 5)
    res = C.nemenyi(s, names=["a", "b", "c", "d", "e"])
    fig, ax = plt.subplots()
    el.plots.plot_cd_diagram(res, ax=ax)
    thick = [ln for ln in ax.lines if ln.get_linewidth() == 3.5]
    assert len(thick) == len(res.groups)
    labels = {t.get_text() for t in ax.texts}
    assert {f"{n} (" for n in res.names} <= {t.split("(")[0] + "(" for t in labels}
    assert f"CD = {res.cd:.3f}" in labels
    with pytest.raises(ValueError, match="mean_ranks and cd"):
        el.plots.plot_cd_diagram(ax=ax)
    with pytest.raises(TypeError, match="NemenyiResult"):
        el.plots.plot_cd_diagram(C.friedman(s), ax=ax)
    with pytest.raises(ValueError, match="names"):
        el.plots.plot_cd_diagram(mean_ranks=[1, 2], cd=1.0, names=["x"], ax=ax)
    plt.close(fig)


def test_plot_friedman_graph_segments_have_length_cd():
    res = C.nemenyi([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]])
    fig, ax = plt.subplots()
    el.plots.plot_friedman_graph(res, ax=ax)
    segs = ax.collections[0].get_segments()
    lengths = [abs(s[1][0] - s[0][0]) for s in segs]
    assert np.allclose(lengths, res.cd)
    plt.close(fig)


def test_plot_rejection_rates_and_cd_curve():
    r = C.null_rejection_rates(30, random_state=1)
    fig, ax = plt.subplots()
    el.plots.plot_rejection_rates(r, ax=ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(r.tests)
    with pytest.raises(TypeError, match="null_rejection_rates"):
        el.plots.plot_rejection_rates(C.friedman(np.eye(3)), ax=ax)
    ax.clear()
    el.plots.plot_cd_curve((3, 5), n_range=(2, 30), alpha=0.05, mark=(3, 4), ax=ax)
    y = ax.lines[0].get_ydata()
    assert y[0] == pytest.approx(C.critical_difference(3, 2)) and np.all(np.diff(y) < 0)
    with pytest.raises(ValueError, match="n_range"):
        el.plots.plot_cd_curve(n_range=(10, 5), ax=ax)
    plt.close(fig)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda ax: el.plots.plot_binomial_test(0, 0.3, ax=ax), "m must"),
        (lambda ax: el.plots.plot_binomial_test(20, 1.3, ax=ax), "eps0"),
        (lambda ax: el.plots.plot_binomial_test(20, 0.3, 0.0, ax=ax), "alpha"),
        (lambda ax: el.plots.plot_binomial_test(20, 0.3, n_errors=21, ax=ax), "larger than m"),
        (lambda ax: el.plots.plot_binomial_test(20, 0.3, ax="not an axes"), "ax must"),
        (lambda ax: el.plots.plot_friedman_graph(mean_ranks=[1.0], cd=1.0, ax=ax), "at least 2"),
        (lambda ax: el.plots.plot_friedman_graph(mean_ranks=[1.0, 2.0], cd=-1.0, ax=ax), "cd"),
        (lambda ax: el.plots.plot_cd_diagram(mean_ranks=[1.0, np.inf], cd=1.0, ax=ax), "inf"),
        (lambda ax: el.plots.plot_cd_curve((1,), ax=ax), "k_values"),
    ],
)
def test_plots_bad_input(call, match):
    fig, ax = plt.subplots()
    with pytest.raises((ValueError, TypeError), match=match):
        call(ax)
    plt.close(fig)
