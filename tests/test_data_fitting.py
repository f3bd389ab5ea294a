"""evallib.data and evallib.fitting."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

import evallib as el
from evallib.fitting import PolynomialRegression, polynomial_design, polynomial_experiment


def test_watermelon_matches_the_book():
    d = el.data.load_watermelon()
    assert d.X.shape == (17, 2)
    assert d.y.tolist() == [1] * 8 + [0] * 9  # melons 1-8 good, 9-17 bad
    # spot checks against 西瓜书 表4.5 (melon 1, 9, 17)
    assert d.X[0].tolist() == [0.697, 0.460]
    assert d.X[8].tolist() == [0.666, 0.091]
    assert d.X[16].tolist() == [0.719, 0.103]
    assert "17" in repr(d)


def test_watermelon_is_a_fresh_copy():
    d = el.data.load_watermelon()
    d.X[0, 0] = 99
    assert el.data.load_watermelon().X[0, 0] == 0.697


def test_make_sine_and_majority_trap():
    X, y = el.data.make_sine(500, noise_std=0.1, random_state=0)
    resid = y - np.sin(2 * np.pi * X[:, 0])
    assert abs(resid.std() - 0.1) < 0.01 and X.min() >= 0 and X.max() <= 1
    X2, y2 = el.data.make_sine(500, noise_std=0.1, random_state=0)
    assert np.array_equal(y, y2)
    X, y = el.data.make_majority_trap(10)
    assert np.bincount(y).tolist() == [5, 5] and X.shape == (10, 1)


def test_bundled_data_sets_load_offline():
    for name, shape in [
        ("breast_cancer", (569, 30)),
        ("iris", (150, 4)),
        ("wine", (178, 13)),
        ("digits", (1797, 64)),
        ("diabetes", (442, 10)),
    ]:
        X, y = el.data.load_bundled(name)
        assert X.shape == shape and len(y) == shape[0]


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: el.data.make_sine(0), ValueError, "n_samples"),
        (lambda: el.data.make_sine(5, noise_std=-1), ValueError, "noise_std"),
        (lambda: el.data.make_sine(5, x_range=(1, 0)), ValueError, "x_range"),
        (lambda: el.data.make_sine(5, x_range=3), ValueError, "x_range"),
        (lambda: el.data.make_majority_trap(7), ValueError, "even"),
        (lambda: el.data.load_bundled("mnist"), ValueError, "name"),
    ],
)
def test_data_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_polynomial_regression_equals_sklearn_pipeline():
    X, y = el.data.make_sine(40, noise_std=0.3, random_state=2)
    for degree in (0, 1, 3, 7):
        ours = PolynomialRegression(degree).fit(X, y)
        ref = make_pipeline(PolynomialFeatures(degree), LinearRegression()).fit(X, y)
        grid = np.linspace(0, 1, 11).reshape(-1, 1)
        np.testing.assert_allclose(ours.predict(grid), ref.predict(grid), atol=1e-7)
    assert clone(PolynomialRegression(4)).degree == 4


def test_polynomial_regression_recovers_exact_polynomial():
    x = np.linspace(-1, 3, 9).reshape(-1, 1)
    y = 2 - x[:, 0] + 0.5 * x[:, 0] ** 3
    m = PolynomialRegression(3, domain=(-1, 3)).fit(x, y)
    np.testing.assert_allclose(m.predict([[10.0]]), [2 - 10 + 500], rtol=1e-10)


def test_polynomial_design_is_legendre():
    A = polynomial_design([0.0, 0.25, 1.0], 2)
    t = np.array([-1.0, -0.5, 1.0])
    np.testing.assert_allclose(A, np.column_stack([np.ones(3), t, (3 * t**2 - 1) / 2]))


def test_polynomial_experiment_shapes_and_overfitting():
    e = polynomial_experiment(15, noise_std=0.3, max_degree=12, random_state=0)
    assert e.curves.shape == (13, 200)
    assert np.all(np.diff(e.train_mse) <= 1e-12)  # nested models: training error never rises
    assert e.test_mse[12] > e.test_mse[e.best_degree]
    # degree 0 fits the mean of the training targets
    assert e.train_mse[0] == pytest.approx(np.var(e.y_train), rel=1e-12)


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: polynomial_design([0.1, np.nan], 2), ValueError, "x"),
        (lambda: polynomial_design([0.1], -1), ValueError, "degree"),
        (lambda: polynomial_design([0.1], 2, domain=(1, 1)), ValueError, "domain"),
        (lambda: PolynomialRegression(2).fit(np.zeros((3, 2)), np.zeros(3)), ValueError, "one feature"),
        (lambda: PolynomialRegression(2).fit(np.zeros((3, 1)), np.zeros(4)), ValueError, "length mismatch"),
        (lambda: PolynomialRegression(2).fit(np.zeros(3), np.zeros(3)), ValueError, "2-D"),
        (lambda: polynomial_experiment(1), ValueError, "n_train"),
        (lambda: polynomial_experiment(10, noise_std=-0.1), ValueError, "noise_std"),
    ],
)
def test_fitting_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
