"""Plots and the explorer of chapter 12: what they draw and print is checked against statsmodels' intervals and
a brute-force binomial coverage sum, the explorer's data against evallib.uncertainty and its readout in Vega
against Python's; bad input names the argument."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

import evallib as el
from evallib.widgets import uncertainty as W

SM = {"wilson": "wilson", "clopper-pearson": "beta", "normal": "normal"}


def brute_coverage(m, eps, method, confidence=0.95):
    total = 0.0
    for k in range(m + 1):
        lo, hi = np.clip(proportion_confint(k, m, alpha=1 - confidence, method=SM[method]), 0, 1)
        total += stats.binom.pmf(k, m, eps) if lo <= eps <= hi else 0.0
    return total


@pytest.mark.parametrize("m, eps, conf", [(20, 0.05, 0.95), (100, 0.3, 0.9), (1000, 0.01, 0.99)])
def test_interval_view_prints_statsmodels_intervals_and_exact_coverage(m, eps, conf):
    text, fig = el.widgets.interval_view(m, eps, conf)
    k = int(round(eps * m))
    assert f"expected {k} error(s)" in text
    for method in ("normal", "clopper-pearson", "wilson"):
        line = next(s for s in text.splitlines() if s.startswith(method))
        lo, hi = map(float, re.search(r"\[(\d\.\d{3}), (\d\.\d{3})\]", line).groups())
        exact, sim = map(float, re.search(r"exact (\d\.\d{3}), simulated (\d\.\d{3})", line).groups())
        sm_lo, sm_hi = np.clip(proportion_confint(k, m, alpha=1 - conf, method=SM[method]), 0, 1)
        assert abs(lo - sm_lo) <= 0.0005 + 1e-12 and abs(hi - sm_hi) <= 0.0005 + 1e-12
        assert abs(exact - brute_coverage(m, eps, method, conf)) <= 0.0005 + 1e-12
        assert abs(sim - exact) < 4 * np.sqrt(exact * (1 - exact) / 4000) + 0.001
    assert len(fig.axes) == 2
    plt.close(fig)


@pytest.fixture(scope="module")
def data():
    return W.interval_data()


def test_interval_data_equals_evallib_and_statsmodels(data):
    st, cu = data["states"], data["curves"]
    assert len(st) == len(W.M_VALUES) * 99 * len(W.CONFIDENCES) * 3
    assert len(cu) == len(W.M_VALUES) * len(W.CONFIDENCES) * 3 * W.N_GRID
    for m, eps, conf in [
        (10, 0.01, 0.8),
        (1000, 0.99, 0.99),
        (100, 0.05, 0.95),
        (10, 0.25, 0.8),
        (300, 0.37, 0.9),
        (50, 0.5, 0.99),
        (20, 0.05, 0.95),
    ]:
        for method in ("normal", "clopper-pearson", "wilson"):
            row = st[(st.m == m) & (st.error_rate == eps) & (st.confidence == conf) & (st.method == method)]
            assert len(row) == 1
            row = row.iloc[0]
            k = int(round(eps * m))
            r = el.uncertainty.error_rate_interval(k, m, confidence=conf, method=method)
            c = el.uncertainty.interval_coverage(
                m, eps, confidence=conf, method=method, n_trials=W.N_TRIALS, random_state=0
            )
            # bit for bit what the chapter's functions return (the readout prints these)
            assert (row.k, row.low, row.high, row.width) == (k, r.low, r.high, r.width)
            assert (row.exact, row.simulated) == (c.exact, c.simulated)
            assert row.n_covered == round(c.simulated * W.N_TRIALS)
            # and what an independent oracle says
            sm = np.clip(proportion_confint(k, m, alpha=1 - conf, method=SM[method]), 0, 1)
            np.testing.assert_allclose([row.low, row.high], sm, atol=1e-9)
            if m <= 100:
                assert row.exact == pytest.approx(brute_coverage(m, eps, method, conf), abs=1e-9)
            curve = cu[(cu.m == m) & (cu.confidence == conf) & (cu.method == method)]
            x = curve.x.to_numpy()
            np.testing.assert_array_equal(
                curve.coverage, el.uncertainty.coverage_curve(m, x, confidence=conf, method=method)
            )
            if m <= 50:
                for i in (0, 57, 198):
                    assert curve.coverage.iloc[i] == pytest.approx(brute_coverage(m, x[i], method, conf), abs=1e-9)


def test_chart_stores_the_digits_python_prints(data):
    # the chart's lists hold the readout's numbers as printed (thousandths) and the simulated count
    rows = W._chart_rows(data, W.N_TRIALS)
    assert len(rows) == len(W.M_VALUES) * len(W.CONFIDENCES) * 3
    st = data["states"]
    for row in rows[::7]:
        g = st[(st.m == row["m"]) & (st.confidence == row["confidence"]) & (st.method == row["method"])]
        g = g.sort_values("error_rate")
        for i in (0, 4, 49, 98):
            r = g.iloc[i]
            assert [f"{row[f][i] / 1000:.3f}" for f in ("los", "his", "ws", "ces")] == [
                f"{v:.3f}" for v in (r.low, r.high, r.width, r.exact)
            ]
            assert row["cs"][i] / W.N_TRIALS == r.simulated


def test_explorer_initial_readout_spec_and_size():
    ex = el.widgets.interval_explorer(m=100, error_rate=0.05, confidence=0.95)
    assert isinstance(ex, el.widgets.Explorer)
    assert ex.text == el.widgets.interval_view(100, 0.05, 0.95)[0]
    assert ex.text.splitlines()[2] == (
        "normal           [0.007, 0.093]  width 0.085   coverage: exact 0.877, simulated 0.876"
    )  # today's text (before the port)
    spec = ex.spec()  # validated against the Vega-Lite 5 schema
    assert {p["name"]: p["bind"]["input"] for p in spec["params"]} == {
        "m": "radio",
        "error_rate": "range",
        "confidence": "radio",
    }
    assert ex.nbytes() < 500_000
    assert ex.values == {"m": 100, "error_rate": 0.05, "confidence": 0.95}
    with el.i18n.language("zh"):
        zh = el.widgets.interval_explorer(m=100, error_rate=0.05, confidence=0.95)
    assert zh.text.startswith("m = 100，真实错误率 0.05")


def test_explorer_readout_in_vega_equals_python():
    """The chart writes the readout in Vega from the stored digits: run in Vega (Node.js), it equals
    interval_view's text, and the bars' labels its intervals (corners, a rounding tie: 0.25 · 10 = 2.5 -> 2)."""
    import vega_eval

    ex = el.widgets.interval_explorer(m=100, error_rate=0.05, confidence=0.95)
    states = [
        {},
        dict(m=20, error_rate=0.01),
        dict(m=10, error_rate=0.25, confidence=0.8),
        dict(m=1000, error_rate=0.99, confidence=0.99),
        dict(m=300, error_rate=0.37, confidence=0.9),
        dict(error_rate=0.06),  # only the slider moves: the formulas run again on the same rows
    ]
    for st, out in zip(states, vega_eval.run(ex.spec(), states)):
        args = dict(m=100, error_rate=0.05, confidence=0.95) | st
        text = el.widgets.interval_view(**args)[0]
        texts = [t.replace("\xa0", " ") for t in out["texts"]]
        assert text in texts, st
        k = int(round(args["error_rate"] * args["m"]))
        for method in ("normal", "clopper-pearson", "wilson"):
            r = el.uncertainty.error_rate_interval(k, args["m"], confidence=args["confidence"], method=method)
            assert f"[{r.low:.3f}, {r.high:.3f}]" in texts
        assert f"nominal {args['confidence']:g}" in texts
    plt.close("all")


def test_explorer_vega_readout_in_chinese():
    import vega_eval

    with el.i18n.language("zh"):
        ex = el.widgets.interval_explorer()
        text = el.widgets.interval_view(50, 0.3, 0.9)[0]
    out = vega_eval.run(ex.spec(), [dict(m=50, error_rate=0.3, confidence=0.9)])[0]
    assert text in [t.replace("\xa0", " ") for t in out["texts"]]
    plt.close("all")


def test_plot_intervals_draws_each_interval_where_it_is():
    fig, ax = plt.subplots()
    rows = [el.uncertainty.error_rate_interval(3, 20, method=mt) for mt in ("normal", "wilson")]
    el.plots.plot_intervals(rows + [(0.5, 0.4, 0.6)], ["a", "b", "c"], reference=0.15, ax=ax)
    bars = [ln for ln in ax.lines if len(ln.get_xdata()) == 2 and ln.get_ydata()[0] == ln.get_ydata()[1]]
    spans = sorted((float(b.get_xdata()[0]), float(b.get_xdata()[1])) for b in bars)
    assert spans == sorted([(rows[0].low, rows[0].high), (rows[1].low, rows[1].high), (0.4, 0.6)])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]
    plt.close(fig)


def test_plot_coverage_curves_equal_the_binomial_sum():
    fig, ax = plt.subplots()
    el.plots.plot_coverage(30, n_grid=21, ax=ax)
    for line in ax.lines[:3]:
        method = line.get_label()
        x, y = line.get_xdata(), line.get_ydata()
        for i in (0, 7, 10, 20):
            assert np.isclose(y[i], brute_coverage(30, x[i], method), atol=1e-12)
    plt.close(fig)


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: el.plots.plot_intervals([], []), ValueError, "intervals is empty"),
        (lambda: el.plots.plot_intervals([(0.5, 0.6, 0.4)], ["a"]), ValueError, r"intervals\[0\]"),
        (lambda: el.plots.plot_intervals([(0.5, 0.4)], ["a"]), ValueError, r"intervals\[0\]"),
        (lambda: el.plots.plot_intervals([5], ["a"]), TypeError, r"intervals\[0\]"),
        (lambda: el.plots.plot_intervals([(0.5, 0.4, 0.6)], ["a", "b"]), ValueError, "labels"),
        (lambda: el.plots.plot_intervals([(0.5, 0.4, 0.6)], ["a"], ax="x"), TypeError, "ax"),
        (lambda: el.plots.plot_coverage(0), ValueError, "m"),
        (lambda: el.plots.plot_coverage(10, confidence=1), ValueError, "confidence"),
        (lambda: el.plots.plot_coverage(10, methods=("agresti",)), ValueError, "methods"),
        (lambda: el.widgets.interval_view(10, 1.5), ValueError, "error_rate"),
        (lambda: el.widgets.interval_view(0, 0.5), ValueError, "m"),
        (lambda: el.widgets.interval_explorer(m=10, confidence=2.0), ValueError, "confidence"),
        (lambda: el.widgets.interval_explorer(m=1001), ValueError, "m must"),
        (lambda: el.widgets.interval_explorer(error_rate=0.005), ValueError, "error_rate"),
        (lambda: el.widgets.interval_explorer(error_rate=0.123), ValueError, "error_rate"),
        (lambda: W.interval_data(ms=()), ValueError, "ms"),
        (lambda: W.interval_data(confidences=(1.0,)), ValueError, "confidences"),
    ],
)
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
    plt.close("all")
