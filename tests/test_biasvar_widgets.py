"""The bias–variance explorer, driven without a browser (evallib.widgets.biasvar)."""
import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.figure import Figure

import evallib as el
from evallib.biasvar import bias_variance
from evallib.fitting import PolynomialRegression
from evallib.widgets.biasvar import bias_variance_explorer, bias_variance_view, sine_target


def numbers(text):
    """The four decomposition numbers the explorer prints, parsed from its text."""
    lines = text.splitlines()
    b, v, n = (float(p.split("=")[1]) for p in lines[1].split("   "))
    s, e = (float(p.split("=")[1]) for p in lines[2].split("   "))
    return b, v, n, s, e


def test_sine_target_is_the_course_curve():
    X, y = el.data.make_sine(20, noise_std=0.0, random_state=0)
    np.testing.assert_allclose(sine_target(X[:, 0]), y)


def test_explorer_has_the_four_sliders_and_shows_the_library_numbers():
    ex = bias_variance_explorer()
    assert sorted(ex.controls) == ["degree", "n_datasets", "n_train", "noise_std"]
    assert isinstance(ex.figure, Figure) and len(ex.figure.axes) == 2
    r = bias_variance(PolynomialRegression(3), sine_target, noise_std=0.3, n_train=30, n_datasets=200,
                      random_state=0)
    b, v, n, s, e = numbers(ex.text)
    assert (b, v, n, e) == pytest.approx((r.bias2, r.variance, r.noise, r.expected_error), abs=5e-5)
    assert s == pytest.approx(r.bias2 + r.variance + r.noise, abs=5e-5)
    # the output area holds exactly the text (the nbval-safe append pattern); the figure is the Image widget
    kinds = [o["output_type"] for o in ex.out.outputs]
    assert kinds == ["stream"] and ex.image.value[:4] == b"\x89PNG"
    assert ex.out.outputs[0]["text"].startswith("degree 3, noise_std 0.30, 200 data sets of 30 points")


def test_moving_the_degree_slider_moves_from_bias_to_variance():
    ex = bias_variance_explorer(degree=1)
    assert ex.text.endswith("dominant term: bias²")
    b1, v1, *_ = numbers(ex.text)
    ex.set(degree=12, n_train=20)
    assert ex.text.endswith("dominant term: variance")
    b12, v12, *_ = numbers(ex.text)
    assert v12 > 100 * v1 and v12 > 5 * b12
    assert ex.values["degree"] == 12


def test_noise_training_size_and_data_set_sliders():
    ex = bias_variance_explorer(degree=3)
    ex.set(noise_std=0.0)
    assert numbers(ex.text)[2] == 0.0
    _, v_small, *_ = numbers(ex.text)
    ex.set(n_train=150)
    _, v_large, *_ = numbers(ex.text)
    assert v_large < v_small / 3  # more data, less variance
    ex.set(n_datasets=10)
    assert "10 data sets of 150 points" in ex.text
    fan = ex.figure.axes[0]
    assert fan.get_title() == "Polynomials of degree 3 fitted to 10 data sets"
    assert len(fan.collections[0].get_segments()) == 10  # one fitted curve per data set
    assert len(fan.lines) == 3  # one training set, the truth, the mean prediction


def test_view_is_a_pure_function_of_the_controls():
    t1, f1, r1 = bias_variance_view(5, 0.4, 25, 50)
    t2, f2, r2 = bias_variance_view(5, 0.4, 25, 50)
    assert t1 == t2 and f1 is not f2
    np.testing.assert_array_equal(r1.predictions, r2.predictions)
    t3, _, _ = bias_variance_view(5, 0.4, 25, 50, random_state=1)
    assert t3 != t1


def test_set_redraws_once():
    ex = bias_variance_explorer()
    n0 = ex.n_updates
    ex.set(degree=4, noise_std=0.5)
    assert ex.n_updates == n0 + 1
    with pytest.raises(ValueError, match="unknown control"):
        ex.set(depth=3)
    assert repr(ex).startswith("Explorer('Bias–variance explorer")


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(degree=16), ValueError, "degree"),
    (dict(degree=-1), ValueError, "degree"),
    (dict(degree=2.0), TypeError, "degree"),
    (dict(degree=True), TypeError, "degree"),
    (dict(noise_std=-0.1), ValueError, "noise_std"),
    (dict(noise_std="0.3"), ValueError, "noise_std"),
    (dict(n_train=1), ValueError, "n_train"),
    (dict(n_datasets=1), ValueError, "n_datasets"),
    (dict(target="sin"), TypeError, "target"),
    (dict(max_degree=3.5), TypeError, "max_degree"),
])
def test_explorer_rejects_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        bias_variance_explorer(**kwargs)


def test_view_rejects_bad_arguments_through_the_library():
    with pytest.raises(ValueError, match="noise_std"):
        bias_variance_view(3, -1.0, 20, 10)
    with pytest.raises(ValueError, match="n_datasets"):
        bias_variance_view(3, 0.3, 20, 1)


def _pixels(png):
    import io

    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def test_explorer_picture_equals_the_pure_views_figure():
    """The explorer changes one figure in place, replays the title and legend from cached pixels and keeps the
    simulations it has seen (issue 19); its picture must still be the one bias_variance_view draws from scratch
    (noise 0.3 lies on a step of NOISE_STEPS, so the y-ranges agree). A flipped or misplaced replay, a stale
    cached simulation or a forgotten artist differs here."""
    from evallib.widgets import render_png

    ex = bias_variance_explorer()
    for move in (dict(degree=12), dict(n_datasets=5), dict(degree=3), dict(n_datasets=1000), dict(n_train=2),
                 dict(degree=12), dict(n_datasets=5), dict(n_train=30)):  # the last three revisit cached settings
        ex.set(**move)
        text, fig, _ = bias_variance_view(**ex.values)
        assert ex.text == text
        plain = _pixels(render_png(fig))[:, :480]  # the fan, its title and legend (the left half)
        # (on the right, the blitted bars cover the grid, which a plain draw puts over them: as before issue 19)
        assert np.mean(np.any(np.abs(_pixels(ex.image.value)[:, :480] - plain) > 8, axis=-1)) < 0.0005, move


def test_fan_y_range_steps_with_the_noise_and_keeps_the_data_in_view():
    from evallib.widgets.biasvar import NOISE_STEPS

    ex = bias_variance_explorer(degree=1)
    fan = ex.figure.axes[0]
    seen = set()
    for noise in np.round(np.arange(0.0, 2.0001, 0.05), 2):
        ex.set(noise_std=float(noise))
        lo, hi = fan.get_ylim()
        seen.add((lo, hi))
        # plot_prediction_fan's range for this noise (±2.5 noise_std beyond the curve) lies inside the one shown
        assert lo <= -1 - 1.0 - 2.5 * noise + 1e-9 and hi >= 1 + 1.0 + 2.5 * noise - 1e-9
    assert len(seen) == len(NOISE_STEPS)  # one y-range per step, not one per slider value
    ex.set(noise_std=0.3)
    assert fan.get_ylim() == pytest.approx((-2.75, 2.75), abs=1e-6)  # the chapter's setting: plot_prediction_fan's


def test_cached_simulations_are_bounded_and_exact():
    ex = bias_variance_explorer()
    view = ex._update
    first = ex.text
    for n in range(2, 2 + view.MAX_CACHED + 10):
        ex.set(n_datasets=n)
    assert len(view.frames) == view.MAX_CACHED
    ex.set(n_datasets=200)  # evicted long ago: simulated again, the same numbers
    assert ex.text == first
    r = bias_variance(PolynomialRegression(3), sine_target, noise_std=0.3, n_train=30, n_datasets=200,
                      random_state=0)
    f = view.frames[(3, 0.3, 30, 200)]
    np.testing.assert_array_equal(f.curves, r.predictions[:40, np.argsort(r.x_test)])
    assert (f.bias2, f.variance, f.noise, f.expected_error) == (r.bias2, r.variance, r.noise, r.expected_error)


def test_noise_moves_across_a_step_paste_the_frame_drawn_for_that_y_range():
    """A drag around the chapter's noise 0.3 (a step of NOISE_STEPS) moves the y-axis on every move: the frame of
    each y-range is drawn once and pasted back afterwards (redraw_all's key), and the picture is still the one a
    whole-figure draw gives."""
    from evallib.widgets import redraw_all, render_png

    ex = bias_variance_explorer()
    live = ex.figure._evallib_live
    frames = {}
    for noise in (0.35, 0.3, 0.35, 0.3, 0.65, 0.35):
        ex.set(noise_std=noise)
        ylim = ex.figure.axes[0].get_ylim()
        assert frames.setdefault(ylim, live.background) is live.background, f"noise {noise}: frame drawn again"
        shown = _pixels(ex.image.value)
        redraw_all(ex.figure)  # no key: a whole-figure draw
        assert np.array_equal(_pixels(render_png(ex.figure)), shown), noise
    assert len(frames) == 3
    with pytest.raises(TypeError, match="key"):
        redraw_all(ex.figure, key=[0, 1])
