"""Plots and the explorer of chapter 12: what they draw and print is checked against statsmodels' intervals and
a brute-force binomial coverage sum; bad input names the argument."""
import io
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from PIL import Image
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

import evallib as el

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


def test_explorer_moves_and_prints_what_the_view_prints():
    ex = el.widgets.interval_explorer(m=100, error_rate=0.05)
    assert ex.text == el.widgets.interval_view(100, 0.05, 0.95)[0]
    ex.set(m=20, error_rate=0.01)
    assert ex.text.startswith("m = 20, true error rate 0.01")
    line = next(s for s in ex.text.splitlines() if s.startswith("normal"))
    assert f"exact {brute_coverage(20, 0.01, 'normal'):.3f}" in line  # Wald: 0.182, far below 95 %
    ex.set(confidence=0.8)
    assert "confidence 0.8" in ex.text


def test_explorer_figure_after_moves_draws_what_a_fresh_view_draws():
    # the explorer changes one figure in place (curves, legend, titles): after moves of every control its artists
    # carry the data of a figure drawn from scratch for the same values
    ex = el.widgets.interval_explorer(m=100, error_rate=0.05)
    for move in (dict(m=20), dict(confidence=0.8), dict(error_rate=0.3), dict(m=1000, confidence=0.99)):
        ex.set(**move)
        fresh = el.widgets.interval_view(**ex.values)[1]
        for ax, fax in zip(ex.figure.axes, fresh.axes):
            assert ax.get_title() == fax.get_title() and ax.get_ylim() == fax.get_ylim()
            for line, fline in zip(ax.lines, fax.lines):
                np.testing.assert_array_equal(line.get_ydata(), fline.get_ydata())
        assert [t.get_text() for t in ex.figure.axes[1].get_legend().texts] == \
            [t.get_text() for t in fresh.axes[1].get_legend().texts]
        plt.close(fresh)


def test_a_new_confidence_redraws_the_legend_not_the_frame_and_keeps_it_over_the_curves():
    # the legend is animated (drawn over the curves, as in a plain draw, when one runs through it: m = 10 at a
    # low confidence) and its nominal entry follows the confidence without a whole-figure draw while the
    # coverage axis keeps its range (every confidence of the menu); below 0.8 the range and the frame change
    ex = el.widgets.interval_explorer(m=100, error_rate=0.05, confidence=0.95)
    live, ax2 = ex.figure._evallib_live, ex.figure.axes[1]
    assert ax2.get_legend().get_animated()
    frame = live.background
    for c in (0.9, 0.8, 0.99, 0.95):
        ex.set(confidence=c)
        assert live.background is frame, f"confidence {c}: the whole figure was drawn again"
        assert f"nominal {c:g}" in [t.get_text() for t in ax2.get_legend().texts]
    ex._update(m=10, error_rate=0.05, confidence=0.5)
    png = el.widgets.render_png(ex.figure)
    assert ax2.get_ylim() == (0.2, 1.005) and live.background is not frame
    fresh = el.widgets.interval_view(m=10, error_rate=0.05, confidence=0.5)[1]
    plain = el.widgets.render_png(fresh)
    a, b = (np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int) for png in (png, plain))
    assert np.mean(np.any(np.abs(a - b) > 8, axis=-1)) < 0.002  # the legend over the m = 10 curve, as drawn plainly
    plt.close(fresh)


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


@pytest.mark.parametrize("call, exc, match", [
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
])
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
    plt.close("all")
