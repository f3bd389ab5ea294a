"""Chapter 13's figures and explorer, checked without a browser: the text states what SciPy and baycomp-style
formulas compute, the figures draw what they claim, the controls drive the text, bad input is refused."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

import evallib as el
from evallib import compare as C

RNG = np.random.default_rng(0)
A = np.round(RNG.random(30) * 0.2 + 0.05, 3)
B = np.round(A - 0.01 + 0.02 * RNG.standard_normal(30), 3)


def test_view_text_states_the_tests():
    text, fig = el.widgets.bayesian_comparison_view(A, B, 0.01, 20, ("a", "b"))
    a, b = A[:20], B[:20]
    bs = C.bayesian_signed_rank(a, b, rope=0.01, n_samples=10000, random_state=0)
    lines = text.splitlines()
    assert lines[0].startswith(f"N = 20 data sets, rope = 0.010: mean b - a = {np.mean(b - a) + 0.0:.4f}")
    assert f"(b better on {np.sum(b < a)}, a better on {np.sum(a < b)}, ties {np.sum(a == b)})" in lines[0]
    assert f"P(b better) = {bs.p_left:.3f}, P(equivalent) = {bs.p_rope:.3f}, P(a better) = {bs.p_right:.3f}" in lines[1]
    assert f"p = {stats.wilcoxon(b, a, zero_method='zsplit').pvalue:.4f}" in lines[2]
    assert f"t-test over data sets: p = {stats.ttest_rel(a, b).pvalue:.4f}" in lines[2]
    assert len(fig.axes) == 1  # plot_simplex


def test_view_decides_equivalence_with_a_wide_rope_and_a_side_with_a_clear_gap():
    text, _ = el.widgets.bayesian_comparison_view(A, A + 0.001, 0.02, 30)
    assert "-> equivalent (P > 0.95)" in text
    text, _ = el.widgets.bayesian_comparison_view(A, A - 0.05, 0.01, 30)
    assert "-> B better (P > 0.95)" in text and "Wilcoxon: T = 0," in text


@pytest.fixture(scope="module")
def explorer():
    # 8 data sets: N from 3 to 8, 11 ROPEs (66 settings; the chapter's 30 data sets give 308)
    return el.widgets.bayesian_comparison_explorer(A[:8], B[:8], rope=0.01, names=("a", "b"))


def test_explorer_data_are_the_tests_at_grid_points(explorer):
    ex = explorer
    assert ex.values == {"rope": 0.01, "n_datasets": 8}
    assert ex.text == el.widgets.bayesian_comparison_view(A[:8], B[:8], 0.01, 8, ("a", "b"))[0]
    probs, draws, rd = ex.data["probs"], ex.data["draws"], ex.data["readout"]
    assert len(rd) == 6 * 11 and set(rd.n) == set(range(3, 9))
    for rope, n in ((0.0, 3), (0.01, 8), (0.05, 5), (0.03, 8), (0.005, 4)):
        at = lambda t: np.isclose(t.rope, rope) & (t.n == n)  # noqa: E731
        a, b = A[:n], B[:n]  # oracles: the library's Bayesian test (baycomp's posterior, tested in test_compare)
        bs = C.bayesian_signed_rank(a, b, rope=rope, n_samples=10000, random_state=0)
        np.testing.assert_array_equal(probs[at(probs)].sort_values("region").p, bs.probs)
        row = draws[at(draws)].iloc[0]
        s = bs.samples[: len(row.x)]
        np.testing.assert_allclose(row.x, s[:, 2] + s[:, 1] / 2, atol=5e-4)  # rounded to 3 decimals
        np.testing.assert_allclose(row.y, s[:, 1] * np.sqrt(3) / 2, atol=5e-4)
        np.testing.assert_array_equal(row.region, s.argmax(axis=1))
        text = rd[at(rd)].text.iloc[0]
        assert text == el.widgets.bayesian_comparison_view(A, B, rope, n, ("a", "b"))[0]
        assert f"p = {stats.wilcoxon(b, a, zero_method='zsplit').pvalue:.4f}" in text  # SciPy
        assert f"t-test over data sets: p = {stats.ttest_rel(a, b).pvalue:.4f}" in text
    plt.close("all")


def test_explorer_spec_validates_binds_its_params_and_is_small(explorer):
    spec = explorer.spec()
    assert {p["name"] for p in spec["params"] if "bind" in p} == {"rope", "n_datasets"}
    assert explorer.nbytes() < 1_000_000 / 308 * 66 * 1.2  # the chapter's 30 data sets stay under 1 MB
    with pytest.raises(ValueError, match="rope must be a multiple of 0.005"):
        el.widgets.bayesian_comparison_explorer(A, B, rope=0.0125)
    with pytest.raises(ValueError, match="n_datasets must be at least 3"):
        el.widgets.bayesian_comparison_explorer(A, B, n_datasets=2)


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: el.widgets.bayesian_comparison_view(A, B, 0.01, 40), ValueError, "n_datasets"),
        (lambda: el.widgets.bayesian_comparison_view(A, B, -0.01, 10), ValueError, "rope"),
        (lambda: el.widgets.bayesian_comparison_view(A, B, 0.01, 10, names=("x",)), ValueError, "names"),
        (lambda: el.widgets.bayesian_comparison_explorer(A, B[:5]), ValueError, "scores_a has 30, scores_b has 5"),
        (lambda: el.plots.plot_posterior("no"), TypeError, "result"),
        (lambda: el.plots.plot_simplex(C.correlated_bayesian_ttest(A, B, rho=0.1)), TypeError, "result"),
        (
            lambda: el.plots.plot_posterior(C.correlated_bayesian_ttest(A, B, rho=0.1), labels=("a",)),
            ValueError,
            "labels",
        ),
        (lambda: el.plots.plot_power_curve([5, 10], {"x": [0.1]}), ValueError, "n_values"),
        (lambda: el.plots.plot_power_curve([5, 10], []), TypeError, "power"),
        (lambda: el.plots.plot_size_power("a", "b"), TypeError, "null"),
        (lambda: el.plots.plot_cd_diagram(mean_ranks=[1, 2, 3]), ValueError, "cd"),
        (lambda: el.plots.plot_cd_diagram(mean_ranks=[1, 2, 3], groups=[("A", "Z")]), ValueError, "groups"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
    plt.close("all")


def test_posterior_plot_fills_the_three_regions_with_their_probabilities():
    r = C.correlated_bayesian_ttest(A, B, rho=0.1, rope=0.005)
    fig, ax = plt.subplots()
    el.plots.plot_posterior(r, ax=ax)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == [f"P(left) = {r.p_left:.3f}", f"P(rope) = {r.p_rope:.3f}", f"P(right) = {r.p_right:.3f}"]
    # the filled area of each region is its posterior probability (trapezoid rule on the drawn curve)
    for poly, p in zip(ax.collections, r.probs):
        xy = poly.get_paths()[0].vertices
        x, y = xy[:, 0], xy[:, 1]
        area = 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))  # shoelace
        assert area == pytest.approx(p, abs=0.01)
    plt.close(fig)


def test_simplex_puts_each_draw_in_its_region():
    r = C.bayesian_signed_rank(A, B, rope=0.01, n_samples=3000, random_state=1)
    fig, ax = plt.subplots()
    el.plots.plot_simplex(r, ax=ax)
    counts = [len(c.get_offsets()) for c in ax.collections]
    assert sum(counts) == 3000
    np.testing.assert_allclose(
        sorted(counts),
        sorted(
            np.bincount(r.samples.argmax(axis=1), minlength=3)[np.bincount(r.samples.argmax(axis=1), minlength=3) > 0]
        ),
    )
    for c in ax.collections:  # every point lies inside the triangle
        x, y = c.get_offsets().T
        assert np.all(y >= -1e-12) and np.all(y <= np.sqrt(3) * np.minimum(x, 1 - x) + 1e-9)
    plt.close(fig)


def test_cd_diagram_draws_wilcoxon_holm_cliques():
    E = np.array(
        [
            [0.10, 0.12, 0.30],
            [0.20, 0.18, 0.35],
            [0.15, 0.16, 0.40],
            [0.11, 0.10, 0.50],
            [0.30, 0.33, 0.40],
            [0.20, 0.22, 0.30],
            [0.25, 0.21, 0.31],
            [0.12, 0.15, 0.20],
        ]
    )
    pw = C.pairwise_wilcoxon_holm(E)
    fig, ax = plt.subplots()
    el.plots.plot_cd_diagram(pw, ax=ax)
    thick = [ln for ln in ax.lines if ln.get_linewidth() == 3.5]
    assert len(thick) == len(pw.cliques) == 1
    assert "Wilcoxon-Holm" in ax.get_title() and not any("CD =" in t.get_text() for t in ax.texts)
    ax.clear()
    ne = C.nemenyi(E)
    el.plots.plot_cd_diagram(ne, groups=pw.groups, ax=ax)  # Nemenyi's CD bar with the Wilcoxon-Holm cliques
    assert any("CD =" in t.get_text() for t in ax.texts)
    assert len([ln for ln in ax.lines if ln.get_linewidth() == 3.5]) == 1
    plt.close(fig)


def test_size_power_and_power_curve_draw_the_rates():
    null = C.rejection_rates(40, n_datasets=10, random_state=0)
    alt = C.rejection_rates(40, difference=0.03, n_datasets=10, random_state=0)
    fig, ax = plt.subplots()
    el.plots.plot_size_power(null, alt, ax=ax)
    widths = [p.get_width() for p in ax.patches]
    np.testing.assert_allclose(widths, np.concatenate([null.rates, alt.rates]))
    ax.clear()
    el.plots.plot_power_curve([5, 10, 20], {"x": [0.1, 0.3, 0.6]}, ax=ax)
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [0.1, 0.3, 0.6])
    plt.close(fig)
