"""The explorers' fast redraw (issue 19), checked without a browser.

Each explorer keeps one figure and changes it in place; moves of its main control redraw only the animated
artists over a cached background (blitting). The claim that could fail: after any sequence of moves, the picture
the learner gets equals a full redraw of the same figure (a view that forgets ``redraw_all`` after changing
something static shows a stale background), and equals the picture of a figure built from scratch for the same
values (an in-place update that forgets an artist shows the old value). Plus: the worker thread draws the newest
value and skips stale ones; an ``update`` that returns a new figure each time (the old pattern) still works.
"""
from __future__ import annotations

import io

import matplotlib
import numpy as np
import pytest
from PIL import Image
from sklearn.naive_bayes import GaussianNB

import evallib as el
from evallib.widgets import Explorer, redraw_all, render_png, slider

matplotlib.use("Agg")


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def differing_share(a: bytes, b: bytes) -> float:
    pa, pb = pixels(a), pixels(b)
    assert pa.shape == pb.shape
    return float(np.mean(np.any(np.abs(pa - pb) > 8, axis=-1)))


def full_redraw(fig) -> bytes:
    redraw_all(fig)
    return render_png(fig)


def _scores():
    rng = np.random.default_rng(0)
    y = (rng.random(120) < 0.4).astype(int)
    a = np.round(np.clip(0.35 * y + 0.65 * rng.random(120), 0, 1), 3)
    b = np.round(np.clip(0.2 * y + 0.8 * rng.random(120), 0, 1), 3)
    return y, {"A": a, "B": b}


def _watermelon():
    d = el.data.load_watermelon()
    return d.X, d.y


def _builders():
    y, s = _scores()
    X, yw = _watermelon()
    return {
        "fitting": (lambda: el.widgets.fitting_explorer(seed=0),
                    [dict(degree=9), dict(degree=1), dict(n_train=50), dict(degree=12), dict(noise_std=0.0),
                     dict(degree=4)]),
        "kfold": (lambda: el.widgets.kfold_explorer(GaussianNB(), X, yw, random_state=0),
                  # the last three revisit frames drawn before: pasted from the frames kept per signature
                  [dict(n_splits=5), dict(n_repeats=3), dict(n_splits=2), dict(n_repeats=1), dict(n_splits=5),
                   dict(n_repeats=3)]),
        "threshold": (lambda: el.widgets.threshold_explorer(y, s["A"], threshold=0.5),
                      [dict(threshold=0.3), dict(threshold=0.8), dict(threshold=0.0), dict(threshold=1.01)]),
        "cost": (lambda: el.widgets.cost_explorer(y, s, log2_cost_ratio=1.0),
                 [dict(p=0.2), dict(log2_cost_ratio=-3.0), dict(p=0.9, log2_cost_ratio=5.0)]),
        "binomial": (lambda: el.widgets.binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4),
                     [dict(error_rate=0.25), dict(alpha=0.01), dict(error_rate=0.5), dict(m=200), dict(eps0=0.5),
                      dict(error_rate=0.1)]),
        "cd": (lambda: el.widgets.cd_explorer([1.2, 2.1, 2.9, 3.8], ["a", "b", "c", "d"], n_datasets=10),
               [dict(n_datasets=40), dict(alpha=0.1), dict(n_datasets=2), dict(n_datasets=99)]),
        "biasvar": (lambda: el.widgets.bias_variance_explorer(degree=3, n_datasets=50),
                    [dict(degree=9), dict(degree=1), dict(noise_std=1.0), dict(n_train=100), dict(n_datasets=10),
                     dict(degree=15)]),
        "roofline": (lambda: el.widgets.roofline_explorer(models=("VGG16", "MobileNetV1")),
                     [dict(batch=64), dict(device="H100 SXM"), dict(models=("ResNet-18",)), dict(mac_flops=1),
                      dict(peak_flops=1e13), dict(dtype="float16")]),
        "interval": (lambda: el.widgets.interval_explorer(m=100, error_rate=0.05),
                     [dict(error_rate=0.3), dict(m=20), dict(error_rate=0.01), dict(confidence=0.8), dict(m=1000),
                      dict(error_rate=0.99)]),
        "bayes": (lambda: el.widgets.bayesian_comparison_explorer(s["A"][:30] * 0.3, s["B"][:30] * 0.3, rope=0.01),
                  [dict(n_datasets=10), dict(rope=0.03), dict(n_datasets=25), dict(rope=0.0)]),
    }


BUILDERS = _builders()


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_fast_redraw_equals_a_full_redraw_and_a_fresh_figure(name):
    build, moves = BUILDERS[name]
    ex = build()
    shown = ex.image.value
    assert shown[:8] == b"\x89PNG\r\n\x1a\n"
    size = pixels(shown).shape
    for move in moves:
        ex.set(**move)
        shown = ex.image.value
        assert pixels(shown).shape == size, "the figure keeps its size (layout frozen)"
        # the same figure drawn whole: a stale background (a missing redraw_all) differs here
        assert differing_share(shown, full_redraw(ex.figure)) < 0.002, f"{name} after {move}: stale background"
        # a figure built from scratch for the same values: a forgotten artist differs here
        fresh = build()
        fresh.set(**ex.values)
        assert fresh.text == ex.text
        assert differing_share(shown, fresh.image.value) < 0.01, f"{name} after {move}: differs from a fresh figure"


def test_a_figure_once_view_pastes_frames_it_has_drawn_before():
    """The k-fold explorer's x-axis changes with p (a whole-figure draw); going back to a p seen before pastes
    the frame kept for that frame signature instead of drawing it again, and the picture is a full redraw's."""
    X, y = _watermelon()
    ex = el.widgets.kfold_explorer(GaussianNB(), X, y, random_state=0)
    live = ex.figure._evallib_live
    seen = {}
    for p in (2, 1, 2, 3, 1, 3):
        ex.set(n_repeats=p)
        assert seen.setdefault(p, live.background) is live.background, f"p = {p}: its frame was drawn again"
        fresh = el.widgets.kfold_explorer(GaussianNB(), X, y, random_state=0)
        fresh.set(n_repeats=p)  # drawn whole, from scratch
        assert differing_share(ex.image.value, fresh.image.value) == 0.0, p
    assert len(live.backgrounds) == 3


def test_redraw_all_with_a_key_pastes_the_frame_drawn_under_it():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2), dpi=100)
    (line,) = ax.plot([0, 1], [0, 1])
    line.set_animated(True)
    pictures = {}
    for key, top in ((7, 2.0), ("wide", 5.0), (7, 2.0), ("wide", 5.0)):  # keys of any hashable kind
        ax.set_ylim(0, top)
        redraw_all(fig, key=key)
        png = render_png(fig)
        live = fig._evallib_live
        assert pictures.setdefault(key, (png, live.background)) == (png, live.background), key  # pasted back
    assert len(live.backgrounds) == 2
    redraw_all(fig)  # no key: a real draw, nothing pasted
    render_png(fig)
    assert live.background is not pictures["wide"][1]
    plt.close(fig)


def test_moves_of_the_main_control_reuse_the_figure():
    ex = el.widgets.fitting_explorer(seed=0)
    fig = ex.figure
    ex.set(degree=7)
    ex.set(degree=2)
    assert ex.figure is fig and fig.get_layout_engine() is None or type(fig.get_layout_engine()).__name__ == \
        "PlaceHolderLayoutEngine"


def test_worker_draws_the_newest_value_and_skips_stale_ones():
    calls = []

    def update(k):
        calls.append(k)
        import time
        time.sleep(0.05)  # a slow update: values arrive faster than it draws
        return f"k = {k}", None

    ex = Explorer("t", {"k": slider(0, 0, 50)}, update)
    ex._threaded = True
    for k in range(1, 31):
        ex.controls["k"].value = k
    assert ex.wait(10)
    assert ex.text == "k = 30" and calls[-1] == 30  # the last value is always drawn
    assert len(calls) < 10, f"stale values were not skipped: {calls}"
    ex.close()


def test_an_update_returning_a_new_figure_each_time_still_works():
    def update(a):
        fig, ax = el.style.new_figure()
        ax.plot([0, 1], [0, a])
        ax.set_ylim(0, 5)
        return f"a = {a}", fig

    ex = Explorer("old pattern", {"a": slider(1, 0, 5)}, update)
    first = ex.figure
    ex.set(a=4)
    assert ex.figure is not first and ex.text == "a = 4"
    assert pixels(ex.image.value).shape == pixels(render_png(first)).shape
    assert ex.out.outputs[0]["text"] == "a = 4\n" and len(ex.out.outputs) == 1


def test_slider_updates_while_dragged_by_default():
    assert slider(1, 0, 5).continuous_update is True
    assert slider(1.0, 0.0, 5.0, 0.5, continuous_update=False).continuous_update is False


def test_roofline_every_control_blitted_equals_a_full_redraw_and_a_fresh_figure():
    """The roofline view keeps rendered texts and counted models between moves; moving every control, leaving a
    device's y range and coming back must still give the picture of a full redraw and of a fresh explorer."""
    def build():
        return el.widgets.roofline_explorer(models=("VGG16", "MobileNetV1", "MobileNetV2"))

    ex = build()
    for move in (dict(batch=64), dict(dtype="float16"), dict(bandwidth=2e11), dict(outputs="io"), dict(batch=1024),
                 dict(peak_flops=3e15), dict(peak_flops=5e12), dict(mac_flops=1), dict(batch=64),
                 dict(models=("AlexNet", "ResNet-50")), dict(dtype="int8"), dict(device="H100 SXM"), dict(batch=1)):
        ex.set(**move)
        shown = ex.image.value
        assert differing_share(shown, full_redraw(ex.figure)) < 0.002, f"roofline after {move}: stale background"
        fresh = build()
        fresh.set(device=ex.values["device"], dtype=ex.values["dtype"])  # the presets first, then moved sliders
        fresh.set(**ex.values)
        assert fresh.text == ex.text
        assert differing_share(shown, fresh.image.value) < 0.002, f"roofline after {move}: differs from a fresh one"


def test_a_moving_line_through_the_frame_is_drawn_under_the_spines_as_in_a_plain_draw():
    """Spines (zorder 2.5) lie over lines (2) in a plain draw; a blit that drew the moving line over a background
    holding the spines would paint the line over the frame (biasvar's degree-12 fan did: 0.2 % of its pixels).
    An axis("off") axes keeps its spines hidden."""
    import matplotlib.pyplot as plt

    from evallib.widgets._base import _LiveCanvas

    def picture(slope, off):
        fig, ax = plt.subplots(figsize=(3, 2), dpi=100)
        ax.set_xlim(0, 1)
        ax.set_ylim(-1, 1)
        line, = ax.plot([0, 0, 1], [-1, 1, slope], lw=4, color="orange")  # runs up the left spine
        ax.axis("off") if off else None
        return fig, line

    for off in (False, True):
        fig, line = picture(0.0, off)
        line.set_animated(True)
        render_png(fig)
        line.set_ydata([-1, 1, 0.5])  # a blit: the background holds the frame, the line is drawn again
        blitted = render_png(fig)
        assert fig._evallib_live.full is False and isinstance(fig._evallib_live, _LiveCanvas)
        plain, _ = picture(0.5, off)
        assert differing_share(blitted, render_png(plain)) == 0.0, f"axis off: {off}"
        plt.close("all")
