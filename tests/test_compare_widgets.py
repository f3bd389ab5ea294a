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


def test_binomial_explorer_controls_drive_text_and_figure():
    ex = W.binomial_test_explorer(m=100, eps0=0.3, alpha=0.05, error_rate=0.38)
    assert isinstance(ex, el.widgets.Explorer)
    assert set(ex.controls) == {"m", "eps0", "alpha", "error_rate"}
    assert "cannot reject" in ex.text  # 38 errors: p = 0.053
    first_fig, n0 = ex.figure, ex.n_updates
    ex.set(error_rate=0.45)
    assert "reject H0: the error rate is above eps0" in ex.text and ex.n_updates == n0 + 1
    assert ex.figure is first_fig  # one figure, drawn again (issue 19: no new figure per move)
    ex.set(alpha=0.01, m=200)
    assert "m = 200" in ex.text and "alpha = 0.01" in ex.text
    c = int(np.argmax(stats.binom.sf(np.arange(201), 200, 0.3) < 0.01))
    assert f"critical count C = {c}," in ex.text
    # the explorer's output area holds the text, replaced on every change; the figure is the Image widget
    assert len(ex.out.outputs) == 1 and ex.image.value[:4] == b"\x89PNG"
    assert repr(ex).startswith("Explorer('Binomial test")


@pytest.mark.parametrize("kwargs,match", [
    (dict(m=0), "m must"), (dict(eps0=1.5), "eps0"), (dict(error_rate=-0.1), "error_rate"),
    (dict(alpha=0.0), "alpha"), (dict(m=2.5), "m must"),
])
def test_binomial_view_bad_input(kwargs, match):
    args = dict(m=50, eps0=0.3, alpha=0.05, error_rate=0.4) | kwargs
    with pytest.raises((ValueError, TypeError), match=match):
        W.binomial_view(**args)
    with pytest.raises((ValueError, TypeError), match=match):
        W.binomial_test_explorer(**args)


# ----------------------------------------------------------------------------------------------------
# CD explorer (notebook 09)
# ----------------------------------------------------------------------------------------------------
def test_cd_view_book_example():
    text, fig = W.cd_view([1.0, 2.125, 2.875], ("A", "B", "C"), 0.05, 4)
    assert text.splitlines()[0] == "k = 3, N = 4, alpha = 0.05: q_alpha = 2.344, CD = 1.657"
    assert "A < C (1.88)" in text and "B <" not in text
    assert "groups joined by a bar: A B; B C" in text
    assert len(fig.axes) == 2


def test_cd_explorer_more_datasets_shrink_cd_and_separate_more_pairs():
    ranks, names = [1.6, 2.4, 3.1, 2.9], ["tree", "forest", "knn", "logreg"]
    ex = W.cd_explorer(ranks, names, n_datasets=6, alpha=0.05)
    cds = []
    for n in (6, 20, 60):
        ex.set(n_datasets=n)
        cd = _numbers(ex.text.splitlines()[0])[-1]
        expected = stats.studentized_range.isf(0.05, 4, np.inf) / np.sqrt(2) * np.sqrt(4 * 5 / (6 * n))
        assert cd == pytest.approx(expected, abs=6e-4)
        cds.append(cd)
    assert cds[0] > cds[1] > cds[2]
    assert "significantly different pairs: none" in W.cd_view(ranks, names, 0.05, 6)[0]
    assert "tree < knn" in ex.text  # 1.5 apart: significant once N = 60 (CD = 0.61)
    ex.set(alpha=0.01)
    cd01 = _numbers(ex.text.splitlines()[0])[-1]
    assert cd01 > cds[2]  # a stricter alpha widens CD


def test_cd_view_default_names_and_bad_input():
    text, _ = W.cd_view([1.5, 1.5], None, 0.1, 10)
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


# ----------------------------------------------------------------------------------------------------
# The explorers' fast figures (issue 19) show what the static figures show
# ----------------------------------------------------------------------------------------------------
def _pixels(png):
    import io

    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _differing(a, b):
    """How many pixels differ visibly (a stale label of a few glyphs is some 50). The explorer's bar collection and
    the static figure's bar patches may snap a bar edge to the pixel grid one pixel apart (matplotlib 3.10): a pixel
    matching its left or right neighbour in the other picture, or a lone one-pixel-wide column of difference (a gap
    between two bars drawn in one picture only), is not counted; a wrong label or bar is a blob, and is."""
    def off(x, y):
        return np.any(np.abs(x - y) > 8, axis=-1)

    d = off(a, b)
    left, right = np.ones_like(d), np.ones_like(d)
    left[:, 1:] = off(a[:, 1:], b[:, :-1])
    right[:, :-1] = off(a[:, :-1], b[:, 1:])
    d &= left & right
    beside = np.zeros_like(d)
    beside[:, 1:] |= d[:, :-1]
    beside[:, :-1] |= d[:, 1:]
    return int(np.sum(d & beside))


def test_binomial_explorer_picture_equals_the_static_figure_after_moves_and_back():
    # The explorer keeps one figure, pastes texts, legends and whole axes it has drawn before (per state) and
    # draws the bars as two collections; the picture must still be plot_binomial_test's, also after moving back to
    # a state seen before (a pasted axes). The layout is frozen at the first draw: these states keep its tick widths.
    ex = W.binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4)
    for move in [{}, dict(error_rate=0.25), dict(alpha=0.01), dict(error_rate=0.5), dict(m=200), dict(m=50),
                 dict(alpha=0.05), dict(error_rate=0.4), dict(m=500, eps0=0.99, error_rate=1.0),
                 dict(m=50, eps0=0.3, error_rate=0.25)]:
        ex.set(**move)
        _, fig = W.binomial_view(**ex.values)
        n = _differing(_pixels(ex.image.value), _pixels(el.widgets.render_png(fig)))
        assert n <= 10, f"after {move}: {n} pixels differ from the static figure"


def test_cd_explorer_diagram_equals_the_static_diagram_after_moves_and_back():
    # Right half: plot_cd_diagram's picture (kept per groups, the CD bar and label drawn over it). The left half
    # differs by design: the explorer's CD curves span the slider's range of N, with room for every alpha.
    ranks, names = [1.2, 2.1, 2.9, 3.8], ["a", "b", "c", "d"]
    ex = W.cd_explorer(ranks, names, n_datasets=10)
    for move in [{}, dict(n_datasets=11), dict(n_datasets=12), dict(n_datasets=40), dict(alpha=0.1),
                 dict(alpha=0.01, n_datasets=50), dict(n_datasets=51), dict(n_datasets=10),
                 dict(alpha=0.05), dict(n_datasets=40), dict(n_datasets=2, alpha=0.01)]:
        ex.set(**move)
        _, fig = W.cd_view(ranks, names, ex.values["alpha"], ex.values["n_datasets"])
        a, b = _pixels(ex.image.value), _pixels(el.widgets.render_png(fig))
        if ex.values["alpha"] == 0.1:
            continue  # the static figure's y ticks are narrower there, so its layout (not its diagram) moves
        half = a.shape[1] // 2
        n = _differing(a[:, half:], b[:, half:])
        assert n <= 10, f"after {move}: {n} of the diagram's pixels differ from the static one"
        ax1 = ex.figure.axes[0]
        assert ax1.get_xlim() == pytest.approx((-2.9, 104.9))  # N from 2 to 100 with autoscale's margins
        mark = ax1.lines[-1]
        assert list(mark.get_xdata()) == [ex.values["n_datasets"]]
        assert mark.get_ydata()[0] == pytest.approx(C.critical_difference(4, ex.values["n_datasets"],
                                                                          ex.values["alpha"]))


@pytest.mark.parametrize("build,moves", [
    (lambda: W.binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4),
     [dict(m=55), dict(m=50), dict(eps0=0.31), dict(eps0=0.3), dict(error_rate=0.41), dict(error_rate=0.4)]),
    (lambda: W.cd_explorer([4.8, 3.05, 2.9, 2.1, 2.15], ["maj", "tree", "nb", "knn", "lr"], n_datasets=10),
     [dict(n_datasets=11), dict(n_datasets=10), dict(alpha=0.1), dict(alpha=0.05)]),
])
def test_explorer_pixel_cache_is_bounded_and_does_not_grow_when_moving_back_and_forth(build, moves):
    ex = build()
    pixels = ex._view.pixels
    for move in moves:  # every state once
        ex.set(**move)
    n_images, n_bytes = len(pixels.images), pixels.n_bytes
    for _ in range(3):
        for move in moves:
            ex.set(**move)
    assert (len(pixels.images), pixels.n_bytes) == (n_images, n_bytes)
    pixels.max_bytes = n_bytes // 2  # a long drag through new states keeps at most max_bytes
    control = "m" if "m" in ex.controls else "n_datasets"
    for v in range(60, 120, 5) if control == "m" else range(20, 60, 3):
        ex.set(**{control: v})
        assert pixels.n_bytes <= pixels.max_bytes
    assert pixels.n_bytes == sum(img.nbytes for img, _, _ in pixels.images.values() if img is not None)


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


@pytest.mark.parametrize("call,match", [
    (lambda ax: el.plots.plot_binomial_test(0, 0.3, ax=ax), "m must"),
    (lambda ax: el.plots.plot_binomial_test(20, 1.3, ax=ax), "eps0"),
    (lambda ax: el.plots.plot_binomial_test(20, 0.3, 0.0, ax=ax), "alpha"),
    (lambda ax: el.plots.plot_binomial_test(20, 0.3, n_errors=21, ax=ax), "larger than m"),
    (lambda ax: el.plots.plot_binomial_test(20, 0.3, ax="not an axes"), "ax must"),
    (lambda ax: el.plots.plot_friedman_graph(mean_ranks=[1.0], cd=1.0, ax=ax), "at least 2"),
    (lambda ax: el.plots.plot_friedman_graph(mean_ranks=[1.0, 2.0], cd=-1.0, ax=ax), "cd"),
    (lambda ax: el.plots.plot_cd_diagram(mean_ranks=[1.0, np.inf], cd=1.0, ax=ax), "inf"),
    (lambda ax: el.plots.plot_cd_curve((1,), ax=ax), "k_values"),
])
def test_plots_bad_input(call, match):
    fig, ax = plt.subplots()
    with pytest.raises((ValueError, TypeError), match=match):
        call(ax)
    plt.close(fig)
