"""Explorers of chapters 01–02, driven without a browser: the printed numbers must be the library's."""
import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB

import evallib as el
from evallib.widgets import Explorer, fitting_explorer, fitting_update, kfold_explorer, kfold_update, slider


def test_fitting_explorer_reports_library_numbers():
    w = fitting_explorer(seed=0)
    e = el.fitting.polynomial_experiment(20, noise_std=0.25, random_state=0)
    assert f"training MSE {e.train_mse[3]:.4f}" in w.text
    w.set(degree=12)
    assert w.values["degree"] == 12
    assert f"test MSE {e.test_mse[12]:.4f}" in w.text
    assert f"best degree on test: {e.best_degree}" in w.text
    assert w.n_updates == 2


def test_fitting_explorer_output_uses_append_pattern():
    w = fitting_explorer()
    w.set(n_train=50)
    outs = w.out.outputs
    assert [o["output_type"] for o in outs] == ["stream"]  # replaced, not piled up
    assert outs[0]["text"] == w.text + "\n"
    assert w.image.value[:8] == b"\x89PNG\r\n\x1a\n"  # the figure: one Image widget, its PNG replaced
    assert repr(w) == "Explorer('Over- and under-fitting': degree=3, n_train=50, noise_std=0.25)"


def test_fitting_update_figure_marks_degree():
    text, fig = fitting_update(degree=5, n_train=30, noise_std=0.1)
    ax_fit, ax_err = fig.axes[:2]
    assert "degree 5" in ax_fit.get_title()
    marker = [ln for ln in ax_err.get_lines() if list(ln.get_xdata()) == [5, 5]]
    assert marker, "the current degree is marked on the error curve"


def test_kfold_explorer_matches_cross_validation():
    X, y = el.data.load_watermelon().X, el.data.load_watermelon().y
    w = kfold_explorer(GaussianNB(), X, y, random_state=0)
    w.set(n_splits=4, n_repeats=3)
    r = el.evaluation.cross_validation(GaussianNB(), X, y, n_splits=4, n_repeats=3, random_state=0)
    assert f"estimate {r.mean:.4f}" in w.text
    assert f"{r.repeat_std:.4f}" in w.text
    assert " 12 fits" in w.text
    # stratified: k cannot exceed the smallest class (8 bad melons), as scikit-learn's StratifiedKFold warns
    assert w.controls["n_splits"].max == 8 == min(np.bincount(y))


def test_kfold_explorer_y_axis_holds_every_fold_and_only_grows():
    X, y = el.data.load_watermelon().X, el.data.load_watermelon().y
    w = kfold_explorer(GaussianNB(), X, y, random_state=0)
    tops = []
    for k, p in [(5, 1), (2, 1), (8, 3), (3, 2), (7, 1), (5, 1)]:
        w.set(n_splits=k, n_repeats=p)
        ax = w.figure.axes[0]
        lo, hi = ax.get_ylim()
        r = el.evaluation.cross_validation(GaussianNB(), X, y, n_splits=k, n_repeats=p, random_state=0)
        assert lo < 0 <= r.scores.min() and r.scores.max() <= hi, (k, p, r.scores.max(), hi)
        assert abs(hi / 0.05 - round(hi / 0.05)) < 1e-9 and hi <= 1.05  # an error rate is at most 1
        tops.append(hi)
    assert tops == sorted(tops), "the axis never shrinks"
    assert tops[-1] == tops[-2], "back to a k already seen: the same frame"


def test_kfold_update_single_repeat_says_spread_needs_repeats():
    X, y = el.data.load_watermelon().X, el.data.load_watermelon().y
    text, fig = kfold_update(GaussianNB(), X, y, 5, 1)
    assert "needs p >= 2" in text
    assert fig.axes[0].get_title() == "1 × 5-fold: 5 fits"


def test_explorer_bad_input():
    with pytest.raises(ValueError, match="controls"):
        Explorer("x", {}, lambda: ("", None))
    with pytest.raises(TypeError, match="update"):
        Explorer("x", {"a": slider(1, 0, 2)}, None)
    w = Explorer("x", {"a": slider(1, 0, 2)}, lambda a: (f"a={a}", None))
    with pytest.raises(ValueError, match="unknown control"):
        w.set(b=1)
    assert w.text == "a=1"


def test_slider_box_leaves_a_draggable_track():
    # the box holds description (~7 px a character) + readout (~70 px) + a track of >= 1 px per step (200-400 px)
    for desc, lo, hi, step in [("degree", 0, 15, 1), ("prior p of the positive class", 0.01, 0.99, 0.01),
                               ("data sets", 2, 1000, 1)]:
        s = slider(lo, lo, hi, step, desc)
        width = int(s.layout.width.removesuffix("px"))
        track = width - 7 * len(desc) - 70
        steps = round((hi - lo) / step)
        assert track >= min(max(200, steps), 400)


def test_explorer_moves_existing_objects_out_of_the_collectors_way():
    import gc

    before = gc.get_freeze_count()
    junk = [[i] for i in range(1000)]  # long-lived objects created before the explorer
    Explorer("x", {"a": slider(1, 0, 2)}, lambda a: (f"a={a}", None))
    assert gc.get_freeze_count() >= before + 1000
    gc.unfreeze()
    del junk
