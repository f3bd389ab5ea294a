"""Tests for the curve plots and explorers without a browser: the text and figure follow the controls,
and the numbers shown agree with independent computations (scikit-learn, evallib.metrics)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn import metrics as skm

import evallib as el
from evallib import curves as C


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 150)
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 2)
    s2 = np.round(rng.random(150), 2)
    return y, s, s2


# ----------------------------------------------------------------------------------------- plots
def test_plot_roc_draws_the_curve(data):
    y, s, _ = data
    fig, ax = plt.subplots()
    out = el.plots.plot_roc(y, s, ax=ax, label="model", mark=0.5)
    assert out is ax
    fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
    line = ax.lines[0]
    np.testing.assert_allclose(line.get_xdata(), fpr)
    np.testing.assert_allclose(line.get_ydata(), tpr)
    assert f"AUC = {skm.roc_auc_score(y, s):.3f}" in ax.get_legend().get_texts()[0].get_text()
    marked = ax.lines[-1]
    pred = s >= 0.5
    assert marked.get_xdata()[0] == pytest.approx(np.mean(pred[y == 0]))
    assert marked.get_ydata()[0] == pytest.approx(np.mean(pred[y == 1]))
    plt.close(fig)


def test_plot_pr_marks_the_bep(data):
    y, s, _ = data
    fig, ax = plt.subplots()
    assert el.plots.plot_pr(y, s, ax=ax) is ax
    bep = C.break_even_point(y, s)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(f"BEP = {bep:.3f}" in t for t in labels)
    P, R, _ = skm.precision_recall_curve(y, s)
    np.testing.assert_allclose(ax.lines[0].get_xdata(), R[::-1])
    np.testing.assert_allclose(ax.lines[0].get_ydata(), P[::-1])
    plt.close(fig)


def test_plot_cost_curves_shows_envelope(data):
    y, s, _ = data
    fig, ax = plt.subplots()
    assert el.plots.plot_cost_curves(y, s, ax=ax, x=0.3) is ax
    cc = C.cost_curve(y, s)
    assert len(ax.collections[0].get_segments()) == len(cc.fpr)  # one line per ROC point
    np.testing.assert_allclose(ax.lines[0].get_ydata(), cc.envelope_y)
    with pytest.raises(ValueError, match="x must lie"):
        el.plots.plot_cost_curves(y, s, ax=ax, x=1.5)
    plt.close(fig)


def test_plot_confusion_matrix_texts():
    fig, ax = plt.subplots()
    assert el.plots.plot_confusion_matrix([[5, 2], [1, 7]], ax=ax) is ax
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(["TP\n5", "FN\n2", "FP\n1", "TN\n7"])
    with pytest.raises(ValueError):
        el.plots.plot_confusion_matrix([[1, 2, 3]], ax=ax)
    with pytest.raises(ValueError):
        el.plots.plot_confusion_matrix([[1, -2], [0, 1]], ax=ax)
    with pytest.raises(TypeError):
        el.plots.plot_confusion_matrix([[1, 2], [0, 1]], ax="axes")
    plt.close(fig)


@pytest.mark.parametrize("f", [el.plots.plot_roc, el.plots.plot_pr, el.plots.plot_cost_curves])
def test_plots_bad_input(f):
    fig, ax = plt.subplots()
    with pytest.raises(ValueError):
        f([1, 1, 1], [0.1, 0.2, 0.3], ax=ax)
    with pytest.raises(ValueError):
        f([0, 1], [0.1, np.nan], ax=ax)
    plt.close(fig)


# -------------------------------------------------------------------------------------- explorers
def test_threshold_explorer_follows_the_slider(data):
    y, s, _ = data
    ex = el.widgets.threshold_explorer(y, s)
    assert ex.values == {"threshold": 0.5}
    for t in (0.3, 0.62, 0.9):
        ex.set(threshold=t)
        pred = (s >= t).astype(int)
        tn, fp, fn, tp = skm.confusion_matrix(y, pred).ravel()
        assert f"[[TP, FN], [FP, TN]] = [[{tp}, {fn}], [{fp}, {tn}]]" in ex.text
        assert f"precision {skm.precision_score(y, pred):.3f}" in ex.text
        assert f"recall {skm.recall_score(y, pred):.3f}" in ex.text
        assert f"F1 {skm.f1_score(y, pred):.3f}" in ex.text
        assert f"FPR {fp / (fp + tn):.3f}" in ex.text
        a_cm, a_roc, a_pr = ex.figure.axes
        marked = a_roc.lines[-1]
        assert marked.get_xdata()[0] == pytest.approx(fp / (fp + tn))
        assert marked.get_ydata()[0] == pytest.approx(tp / (tp + fn))
        assert a_pr.lines[-1].get_xdata()[0] == pytest.approx(tp / (tp + fn))
    assert f"AUC {skm.roc_auc_score(y, s):.3f}" in ex.text


def test_threshold_explorer_fast_picture_equals_plain_matplotlib(data):
    """The explorer draws the confusion matrix as a 4-cell mesh and the marker's legend label as a copy over the
    legend (issue 19: cheaper moves). Drawn the plain way instead (the image and the legend's own label, in one
    full draw), the picture is the same: a misplaced label or a wrong cell colour differs here."""
    import io

    from PIL import Image

    from evallib.widgets import redraw_all, render_png

    def pixels(png):
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)

    y, s, _ = data
    ex = el.widgets.threshold_explorer(y, s)
    for t in (0.3, 0.62, 0.9):
        ex.set(threshold=t)
        fast = pixels(ex.image.value)
        fig = ex.figure
        a_cm, a_roc, a_pr = fig.axes
        mesh, image = a_cm.collections[0], a_cm.images[0]
        np.testing.assert_allclose(mesh.get_array().reshape(2, 2), C.threshold_summary(y, s, t).confusion_matrix
                                   / len(y))
        image.set_data(mesh.get_array().reshape(2, 2))
        image.set_animated(True)  # over the spines, as the mesh is (and the image was, before issue 19)
        swaps = [(image, mesh)]
        for ax in (a_roc, a_pr):
            hidden, copy = ax.get_legend().texts[-1], ax.texts[-1]
            assert copy.get_text().startswith(("FPR ", "R ")) and not hidden.get_visible()
            hidden.set_text(copy.get_text())
            swaps.append((hidden, copy))
        for plain, fast_artist in swaps:
            plain.set_visible(True)
            fast_artist.set_visible(False)
        redraw_all(fig)
        plain = pixels(render_png(fig))
        for plain_artist, fast_artist in swaps:
            plain_artist.set_visible(False)
            fast_artist.set_visible(True)
        redraw_all(fig)
        assert np.mean(np.any(np.abs(fast - plain) > 8, axis=-1)) < 0.002, f"threshold {t}"


def test_threshold_explorer_above_every_score(data):
    y, s, _ = data
    ex = el.widgets.threshold_explorer(y, s)
    ex.set(threshold=ex.controls["threshold"].max)
    assert "[[TP, FN], [FP, TN]] = [[0, " in ex.text
    assert "nothing predicted positive" in ex.text


def test_threshold_explorer_bad_input(data):
    y, s, _ = data
    with pytest.raises(ValueError, match="one class"):
        el.widgets.threshold_explorer(np.ones(5), np.arange(5.0))
    with pytest.raises(ValueError, match="threshold"):
        el.widgets.threshold_explorer(y, s, threshold=7.0)
    with pytest.raises(ValueError, match="step"):
        el.widgets.threshold_explorer(y, s, step=0)


def test_cost_explorer_follows_prior_and_ratio(data):
    y, s, s2 = data
    ex = el.widgets.cost_explorer(y, {"good model": s, "random model": s2}, p=0.5)
    for p, r in [(0.5, 0.0), (0.2, 2.0), (0.8, -1.5)]:
        ex.set(p=p, log2_cost_ratio=r)
        cfn = 2.0 ** r
        x = p * cfn / (p * cfn + (1 - p))
        assert f"probability cost x = {x:.3f}" in ex.text
        # brute force: the smallest normalised cost over every threshold of the good model
        fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
        nc = (1 - tpr) * x + fpr * (1 - x)
        assert f"normalised cost {nc.min():.3f}" in ex.text
        a_cost, a_roc = ex.figure.axes
        assert a_cost.lines[-1].get_xdata()[0] == pytest.approx(x)  # the vertical line at x
    assert "lowest cost at this x: good model" in ex.text


def test_cost_explorer_bad_input(data):
    y, s, _ = data
    with pytest.raises(ValueError, match="scores_by_model"):
        el.widgets.cost_explorer(y, {})
    with pytest.raises(ValueError, match="length mismatch"):
        el.widgets.cost_explorer(y, {"a": s[:10]})


def test_plots_default_to_the_current_axes(data):
    y, s, _ = data
    plt.close("all")
    fig, ax = plt.subplots()
    assert el.plots.plot_roc(y, s) is ax
    assert el.plots.plot_confusion_matrix([[1, 2], [3, 4]]) is ax
    plt.close(fig)


def test_explorers_never_touch_pyplot(data):
    y, s, s2 = data
    plt.close("all")
    ex = el.widgets.threshold_explorer(y, s)
    ex.set(threshold=0.7)
    cx = el.widgets.cost_explorer(y, {"a": s, "b": s2})
    cx.set(p=0.3)
    assert plt.get_fignums() == []  # figures come from evallib.style.new_figure, never shown twice
    assert ex.n_updates == 2 and cx.n_updates == 2
