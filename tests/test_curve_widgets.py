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
def test_threshold_data_equals_scikit_learn(data):
    y, s, _ = data
    d = el.widgets.threshold_data(y, s)
    st = d["states"]
    assert st["t"].iloc[0] == 0.0 and st["t"].iloc[-1] == pytest.approx(1.01) and len(st) == 102
    for t in (0.0, 0.3, 0.5, 0.62, 0.9, 1.01):
        row = st[np.isclose(st["t"], t)].iloc[0]
        pred = (s >= t).astype(int)
        tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=[0, 1]).ravel()
        assert (row.tp, row.fn, row.fp, row.tn) == (tp, fn, fp, tn)
        assert row.precision == pytest.approx(skm.precision_score(y, pred, zero_division=1.0))
        assert row.recall == pytest.approx(skm.recall_score(y, pred))
        assert row.f1 == pytest.approx(skm.f1_score(y, pred))
        assert row.fpr == pytest.approx(fp / (fp + tn))
        assert f"[[TP, FN], [FP, TN]] = [[{tp}, {fn}], [{fp}, {tn}]]" in row.text
    fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(d["roc"]["fpr"], fpr)
    np.testing.assert_allclose(d["roc"]["tpr"], tpr)
    assert d["auc"] == pytest.approx(skm.roc_auc_score(y, s))
    P, R, _ = skm.precision_recall_curve(y, s)
    np.testing.assert_allclose(d["pr"]["recall"], R[::-1])
    np.testing.assert_allclose(d["pr"]["precision"], P[::-1])


def test_threshold_explorer_readout_spec_and_vega(data):
    import vega_eval

    from evallib.widgets._chart import wrap

    y, s, _ = data
    ex = el.widgets.threshold_explorer(y, s, threshold=0.5)
    t = C.threshold_summary(y, s, 0.5)
    assert ex.text.splitlines()[0] == "threshold 0.50: predict positive when score >= 0.50"
    assert ex.text.splitlines()[1] == f"[[TP, FN], [FP, TN]] = [[{t.tp}, {t.fn}], [{t.fp}, {t.tn}]]"
    assert f"AUC {skm.roc_auc_score(y, s):.3f}" in ex.text and ex.values == {"threshold": 0.5}
    spec = ex.spec()
    assert [p["name"] for p in spec["params"]] == ["threshold"] and ex.nbytes() < 200_000
    st = ex.data["states"]
    states = [{}, {"threshold": 0.0}, {"threshold": 0.62}, {"threshold": 1.01}]
    for state, out in zip(states, vega_eval.run(spec, states)):
        row = st[np.isclose(st["t"], state.get("threshold", 0.5))].iloc[0]
        assert wrap(row.text) in out["texts"]
        assert row.roc_label in out["texts"] and row.pr_label in out["texts"]
    assert "nothing predicted positive" in st["text"].iloc[-1]


def test_threshold_explorer_bad_input(data):
    y, s, _ = data
    with pytest.raises(ValueError, match="one class"):
        el.widgets.threshold_explorer(np.ones(5), np.arange(5.0))
    with pytest.raises(ValueError, match="threshold"):
        el.widgets.threshold_explorer(y, s, threshold=7.0)
    with pytest.raises(ValueError, match="step"):
        el.widgets.threshold_explorer(y, s, step=0)


def test_cost_explorer_in_vega_equals_cost_operating_point(data):
    """The chart finds each model's best point at the current (p, cost ratio) itself (Vega expressions): run in
    Vega, its readout equals evallib's (cost_operating_point), and the best normalised cost a brute force over
    every threshold (scikit-learn's ROC)."""
    import vega_eval

    from evallib.widgets import curves as W

    y, s, s2 = data
    models = {"good model": s, "random model": s2}
    ex = el.widgets.cost_explorer(y, models, log2_cost_ratio=np.log2(5))
    curves = {n: C.cost_curve(y, v) for n, v in models.items()}
    assert ex.text == W._cost_text(curves, round(float(np.mean(y == 1)), 2), np.log2(5))
    assert "cost_fn / cost_fp = 5 " in ex.text
    spec = ex.spec()
    assert {p["name"] for p in spec["params"]} == {"p", "log2_cost_ratio"} and ex.nbytes() < 300_000
    states = [
        {},
        dict(p=0.5, log2_cost_ratio=0.0),
        dict(p=0.2, log2_cost_ratio=2.0),
        dict(p=0.8, log2_cost_ratio=-1.5),
        dict(p=0.01, log2_cost_ratio=-5.0),
        dict(p=0.99, log2_cost_ratio=5.0),
        dict(p=0.37, log2_cost_ratio=0.75),
    ]
    for state, out in zip(states, vega_eval.run(spec, states)):
        p, r = state.get("p", ex.values["p"]), state.get("log2_cost_ratio", np.log2(5))
        expected = W._cost_text(curves, p, r)
        assert "\n".join(out["texts"][-5:-1]) == expected, state
        x = p * 2.0**r / (p * 2.0**r + (1 - p))
        fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
        assert f"normalised cost {((1 - tpr) * x + fpr * (1 - x)).min():.3f}" in expected


def test_cost_explorer_bad_input(data):
    y, s, _ = data
    with pytest.raises(ValueError, match="scores_by_model"):
        el.widgets.cost_explorer(y, {})
    with pytest.raises(ValueError, match="length mismatch"):
        el.widgets.cost_explorer(y, {"a": s[:10]})
    with pytest.raises(ValueError, match="log2_cost_ratio"):
        el.widgets.cost_explorer(y, {"a": s}, log2_cost_ratio=6.0)


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
    el.widgets.threshold_explorer(y, s)
    el.widgets.cost_explorer(y, {"a": s, "b": s2})
    assert plt.get_fignums() == []  # the browser draws: no matplotlib figure is made
