"""The bias–variance explorer without a browser (evallib.widgets.biasvar): the parts the chart combines equal
evallib.biasvar.bias_variance at every sampled setting, the readout is today's, the spec validates and is small."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import evallib as el
from evallib.biasvar import bias_variance
from evallib.fitting import PolynomialRegression
from evallib.widgets._digits import Shown
from evallib.widgets.biasvar import (
    _readout,
    bias_variance_data,
    bias_variance_explorer,
    bias_variance_view,
    sine_target,
)


def test_sine_target_is_the_course_curve():
    X, y = el.data.make_sine(20, noise_std=0.0, random_state=0)
    np.testing.assert_allclose(sine_target(X[:, 0]), y)


@pytest.fixture(scope="module")
def data():
    return bias_variance_data(max_degree=15, n_trains=(10, 30), n_datasets=(10, 50))


def _quad(row, k, s):
    return max(0.0, row[f"{k}0"] + s * (row[f"{k}1"] + s * row[f"{k}2"]))  # the chart's calculate


@pytest.mark.parametrize("d, t, m", [(0, 10, 10), (3, 30, 50), (9, 10, 50), (15, 10, 10), (12, 30, 10)])
def test_the_charts_terms_equal_bias_variance_at_any_noise(data, d, t, m):
    terms = data["terms"].set_index(["d", "t", "m"]).loc[(d, t, m)]
    fan = data["fan"][(data["fan"].d == d) & (data["fan"].t == t) & (data["fan"].m == m)]
    mean = data["mean"][(data["mean"].d == d) & (data["mean"].t == t) & (data["mean"].m == m)].iloc[0]
    train = data["train"][(data["train"].t == t) & (data["train"].m == m)].iloc[0]
    x_fan = data["fan_x"].x.to_numpy()
    for s in (0.0, 0.05, 0.35, 1.3, 2.0):  # the oracle: the library's simulation at that noise
        r = bias_variance(PolynomialRegression(d), sine_target, noise_std=s, n_train=t, n_datasets=m, random_state=0)
        got = {
            "bias2": _quad(terms, "b", s),
            "variance": _quad(terms, "v", s),
            "noise": terms.n2 * s * s,
            "expected_error": _quad(terms, "e", s),
        }
        for k, v in got.items():  # stored to what the readout prints (widgets._digits.quadratic)
            assert v == pytest.approx(getattr(r, k), rel=1e-4, abs=2e-7), (k, s)
            assert f"{Shown(v):.4f}" == f"{Shown(getattr(r, k)):.4f}"  # what the readout prints
        order = np.argsort(r.x_test)[::5]
        np.testing.assert_array_equal(r.x_test[order], x_fan)
        want = r.predictions[: len(fan), order]
        shown = np.array(fan.a.tolist()) + s * np.array(fan.b.tolist())
        inside = np.abs(want) < 10  # the plot's y-range is at most ±6 (beyond, 5 significant digits)
        np.testing.assert_allclose(shown[inside], want[inside], atol=2e-3)
        np.testing.assert_allclose(
            (np.array(mean.a) + s * np.array(mean.b))[np.abs(r.mean_prediction[order]) < 10],
            r.mean_prediction[order][np.abs(r.mean_prediction[order]) < 10],
            atol=2e-3,
        )
        np.testing.assert_allclose(np.array(train.x), r.x_train[0], atol=1e-4)
        np.testing.assert_allclose(np.array(train.f) + s * np.array(train.e), r.y_train[0], atol=3e-4)
    np.testing.assert_allclose(data["truth"].y, np.sin(2 * np.pi * data["truth"].x))


def test_the_chapters_explorer_readout_spec_and_size():
    ex = bias_variance_explorer(degree=3, noise_std=0.3, n_train=30, n_datasets=200)
    r = bias_variance(PolynomialRegression(3), sine_target, noise_std=0.3, n_train=30, n_datasets=200, random_state=0)
    assert ex.text.splitlines() == [
        "degree 3, noise_std 0.30, 200 data sets of 30 points",
        f"bias² = {r.bias2:.4f}   variance = {r.variance:.4f}   noise = {r.noise:.4f}",
        f"bias² + variance + noise = {r.bias2 + r.variance + r.noise:.4f}   simulated expected error = "
        f"{r.expected_error:.4f}",
        "dominant term: noise",
    ]
    assert ex.text == bias_variance_view(3, 0.3, 30, 200)[0]
    assert ex.values == {"degree": 3, "noise_std": 0.3, "n_train": 30, "n_datasets": 200}
    spec = ex.spec()  # validated against the Vega-Lite 5 schema
    assert {p["name"] for p in spec["params"] if "bind" in p} == {"degree", "noise_std", "n_train", "n_datasets"}
    assert ex.nbytes() < 1_000_000
    assert sorted(set(ex.data["terms"].t)) == [10, 20, 30, 50, 100, 200]
    with el.i18n.language("zh"):
        assert _readout(3, r) != ex.text


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
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
    ],
)
def test_explorer_rejects_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        bias_variance_explorer(**kwargs)


def test_view_rejects_bad_arguments_through_the_library():
    with pytest.raises(ValueError, match="noise_std"):
        bias_variance_view(3, -1.0, 20, 10)
    with pytest.raises(ValueError, match="n_datasets"):
        bias_variance_view(3, 0.3, 20, 1)
