"""Tests of evallib.biasvar (西瓜书 §2.5, 式(2.37)–(2.42)) and its plots.

Oracles: the known noise variance (a chi-square interval from SciPy), closed forms (the variance of a
sample mean, the L2 projection of the target onto lines by quadrature), loops of scikit-learn clones,
scikit-learn's own polynomial pipeline and learning_curve, and a hand-worked 0-1 loss example.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from scipy import integrate, stats
from sklearn.base import clone
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import learning_curve as sk_learning_curve
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from evallib import plots
from evallib.biasvar import (
    BiasVarianceCurve,
    BiasVarianceResult,
    LearningCurve,
    ZeroOneDecomposition,
    bias_variance,
    bias_variance_01,
    bias_variance_curve,
    expected_best_accuracy,
    learning_curve,
)
from evallib.fitting import PolynomialRegression
from evallib.splits import HoldOut, KFold
from evallib.style import new_figure


def sine(x):
    return np.sin(2 * np.pi * x)


def chi2_interval(df, p=1e-6):
    return stats.chi2.ppf(p / 2, df), stats.chi2.ppf(1 - p / 2, df)


# ------------------------------------------------------------------------------------------ noise term
@pytest.mark.parametrize("noise_std", [0.1, 0.3, 1.0])
def test_noise_term_recovers_the_known_noise_variance(noise_std):
    r = bias_variance(PolynomialRegression(3), sine, noise_std=noise_std, n_train=20, n_datasets=150, random_state=1)
    n = r.y_test.size  # independent N(0, σ²) draws behind the noise term, 式(2.39)
    lo, hi = chi2_interval(n)
    assert lo <= r.noise * n / noise_std**2 <= hi
    assert r.noise == pytest.approx(noise_std**2, rel=0.05)


def test_noise_free_makes_the_identity_exact():
    # no noise: y_D = y, so 式(2.41) equals bias² + variance with no Monte-Carlo cross term left
    r = bias_variance(PolynomialRegression(2), sine, noise_std=0.0, n_train=15, random_state=0)
    assert r.noise == 0.0
    np.testing.assert_allclose(
        r.expected_error_per_point, r.bias2_per_point + r.variance_per_point, rtol=1e-12, atol=1e-15
    )


# ------------------------------------------------------------------------------- closed-form oracles
def test_variance_of_a_constant_model_is_sigma2_over_n():
    # degree 0 on a constant target: every prediction is c + the mean of n noise draws, so
    # K·variance / (σ²/n) ~ chi²(K − 1) at every test point, and bias² ~ (σ²/(nK))·chi²(1).
    sigma, n, K = 0.5, 10, 400
    r = bias_variance(
        PolynomialRegression(0),
        lambda x: np.full_like(x, 2.0),
        noise_std=sigma,
        n_train=n,
        n_datasets=K,
        x_test=[0.3],
        random_state=3,
    )
    lo, hi = chi2_interval(K - 1)
    assert lo <= K * r.variance / (sigma**2 / n) <= hi
    assert r.bias2 * n * K / sigma**2 <= stats.chi2.ppf(1 - 1e-6, 1)


def test_bias_of_a_line_is_the_distance_to_the_l2_projection():
    # with large training sets the mean fitted line tends to the L2 projection of sin(2πx) onto lines
    # (uniform x on [0, 1]); the projection is found by quadrature.
    gram = np.array([[1.0, 0.5], [0.5, 1.0 / 3.0]])
    rhs = np.array([integrate.quad(sine, 0, 1)[0], integrate.quad(lambda x: x * sine(x), 0, 1)[0]])
    a, b = np.linalg.solve(gram, rhs)
    x = np.linspace(0, 1, 51)
    r = bias_variance(
        PolynomialRegression(1), sine, noise_std=0.2, n_train=400, n_datasets=300, x_test=x, random_state=0
    )
    expected_bias2 = (a + b * x - sine(x)) ** 2
    assert r.bias2 == pytest.approx(expected_bias2.mean(), rel=0.03)
    np.testing.assert_allclose(r.mean_prediction, a + b * x, atol=0.03)


# ----------------------------------------------------------------------- under- and over-fitting
def test_under_fitting_is_bias_dominated():
    r = bias_variance(PolynomialRegression(1), sine, noise_std=0.3, n_train=30, random_state=0)
    assert r.bias2 > 5 * r.variance


def test_over_fitting_is_variance_dominated():
    r = bias_variance(PolynomialRegression(12), sine, noise_std=0.3, n_train=20, random_state=0)
    assert r.variance > 5 * r.bias2


def test_more_data_lowers_variance_not_the_bias_of_a_line():
    small = bias_variance(PolynomialRegression(1), sine, noise_std=0.3, n_train=10, random_state=0)
    large = bias_variance(PolynomialRegression(1), sine, noise_std=0.3, n_train=200, random_state=0)
    assert large.variance < small.variance / 5
    assert large.bias2 == pytest.approx(small.bias2, rel=0.25)


# ---------------------------------------------------------------------------------- the identity
@pytest.mark.parametrize("degree,n_train", [(0, 10), (1, 30), (3, 30), (6, 25), (9, 40)])
def test_identity_expected_error_is_bias2_plus_variance_plus_noise(degree, n_train):
    r = bias_variance(
        PolynomialRegression(degree), sine, noise_std=0.3, n_train=n_train, n_datasets=300, random_state=degree
    )
    total = r.bias2 + r.variance + r.noise
    assert r.expected_error == pytest.approx(total, rel=0.05)
    assert r.residual == pytest.approx(r.expected_error - total)
    # per point the terms are what the definitions 式(2.37)–(2.41) say, from the stored predictions
    f_bar = r.predictions.mean(axis=0)
    np.testing.assert_allclose(r.bias2_per_point, (f_bar - sine(r.x_test)) ** 2)
    np.testing.assert_allclose(r.variance_per_point, r.predictions.var(axis=0))
    np.testing.assert_allclose(r.expected_error_per_point, ((r.predictions - r.y_test) ** 2).mean(axis=0))
    assert r.bias2 == pytest.approx(r.bias2_per_point.mean())


# ------------------------------------------------------------------- vectorised path vs clones
@pytest.mark.parametrize(
    "degree,n_train,domain",
    [
        (0, 12, None),
        (1, 30, None),
        (3, 30, None),
        (7, 20, None),
        (12, 30, None),
        (5, 30, (0.0, 1.0)),
        (8, 5, None),  # fewer points than coefficients: both take the minimum-norm least-squares solution
        (3, 1, None),  # one point: the fitted domain is (x, x + 1)
    ],
)
def test_vectorised_path_equals_a_loop_of_sklearn_clones(degree, n_train, domain):
    model = PolynomialRegression(degree, domain=domain)
    r = bias_variance(model, sine, noise_std=0.3, n_train=n_train, n_datasets=50, random_state=4)
    assert r.method == "vectorised"
    loop = np.array(
        [
            clone(model).fit(r.x_train[k].reshape(-1, 1), r.y_train[k]).predict(r.x_test.reshape(-1, 1))
            for k in range(r.n_datasets)
        ]
    )
    np.testing.assert_allclose(r.predictions, loop, rtol=1e-10, atol=1e-10)
    r_loop = bias_variance(model, sine, noise_std=0.3, n_train=n_train, n_datasets=50, random_state=4, method="loop")
    assert r_loop.method == "loop"
    np.testing.assert_allclose(r_loop.predictions, loop, rtol=1e-10, atol=1e-10)
    assert r.variance == pytest.approx(r_loop.variance, rel=1e-9, abs=1e-12)


def test_vectorised_path_agrees_with_sklearn_polynomial_pipeline():
    r = bias_variance(PolynomialRegression(3), sine, noise_std=0.3, n_train=25, n_datasets=40, random_state=5)
    pipe = make_pipeline(PolynomialFeatures(3), LinearRegression())
    r_sk = bias_variance(pipe, sine, noise_std=0.3, n_train=25, n_datasets=40, random_state=5)
    assert r_sk.method == "loop"
    np.testing.assert_allclose(r.predictions, r_sk.predictions, atol=1e-8)
    assert r.bias2 == pytest.approx(r_sk.bias2, rel=1e-6)


def test_training_error_is_the_mean_training_mse():
    r = bias_variance(PolynomialRegression(4), sine, noise_std=0.3, n_train=20, n_datasets=30, random_state=0)
    mse = [
        np.mean(
            (
                PolynomialRegression(4)
                .fit(r.x_train[k].reshape(-1, 1), r.y_train[k])
                .predict(r.x_train[k].reshape(-1, 1))
                - r.y_train[k]
            )
            ** 2
        )
        for k in range(30)
    ]
    assert r.train_error == pytest.approx(np.mean(mse), rel=1e-9)


# --------------------------------------------------------------------------------- reproducibility
def test_reproducible_with_random_state():
    kw = dict(noise_std=0.3, n_train=20, n_datasets=30)
    a = bias_variance(PolynomialRegression(3), sine, random_state=7, **kw)
    b = bias_variance(PolynomialRegression(3), sine, random_state=7, **kw)
    c = bias_variance(PolynomialRegression(3), sine, random_state=8, **kw)
    np.testing.assert_array_equal(a.predictions, b.predictions)
    np.testing.assert_array_equal(a.y_test, b.y_test)
    assert a.expected_error == b.expected_error
    assert not np.array_equal(a.x_train, c.x_train)
    g1 = bias_variance(PolynomialRegression(3), sine, random_state=np.random.default_rng(7), **kw)
    np.testing.assert_array_equal(a.x_train, g1.x_train)
    t1 = bias_variance(DecisionTreeRegressor(max_depth=3, random_state=0), sine, random_state=2, **kw)
    t2 = bias_variance(DecisionTreeRegressor(max_depth=3, random_state=0), sine, random_state=2, **kw)
    assert t1.method == "loop" and t1.bias2 == t2.bias2 and t1.variance == t2.variance


def test_the_model_passed_in_is_not_fitted():
    tree = DecisionTreeRegressor(max_depth=2)
    bias_variance(tree, sine, noise_std=0.1, n_train=10, n_datasets=3, random_state=0)
    assert not hasattr(tree, "tree_")


def test_default_x_test_and_shapes():
    r = bias_variance(
        PolynomialRegression(2), sine, noise_std=0.2, n_train=8, n_datasets=5, x_range=(-1, 2), random_state=0
    )
    np.testing.assert_array_equal(r.x_test, np.linspace(-1, 2, 101))
    assert r.predictions.shape == r.y_test.shape == (5, 101)
    assert r.x_train.shape == r.y_train.shape == (5, 8)
    assert r.x_train.min() >= -1 and r.x_train.max() <= 2
    assert isinstance(r, BiasVarianceResult)
    assert repr(r).startswith("BiasVarianceResult(bias2=")
    with pytest.raises(AttributeError):
        r.bias2 = 0.0  # frozen


# ------------------------------------------------------------------------------- curve over degree
def test_bias_variance_curve_is_u_shaped():
    degrees = list(range(0, 13))
    c = bias_variance_curve(PolynomialRegression(), "degree", degrees, sine, noise_std=0.3, n_train=25, random_state=0)
    assert isinstance(c, BiasVarianceCurve)
    assert c.bias2[0] > 10 * c.bias2[5]  # bias falls with complexity
    assert c.variance[12] > 10 * c.variance[3]  # variance rises
    assert 3 <= c.best <= 7
    assert c.expected_error.min() < c.expected_error[0] and c.expected_error.min() < c.expected_error[-1]
    assert np.all(np.diff(c.train_error) <= 1e-12)  # nested models: the training error never rises
    # common random numbers: each point is bias_variance on the same simulated data sets
    seed = int(np.random.default_rng(0).integers(0, 2**63 - 1))
    one = bias_variance(PolynomialRegression(4), sine, noise_std=0.3, n_train=25, random_state=seed)
    assert c.expected_error[4] == one.expected_error
    assert "best degree=" in repr(c)


# ----------------------------------------------------------------------------------- learning curve
@pytest.mark.parametrize("degree", [1, 9])
def test_learning_curve_matches_sklearn(degree):
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 1, (60, 1))
    y = sine(X[:, 0]) + rng.normal(0, 0.3, 60)
    sizes = [10, 20, 30, 45]
    cv = KFold(4, random_state=0)
    lc = learning_curve(PolynomialRegression(degree), X, y, sizes, cv)
    n, tr, te = sk_learning_curve(
        PolynomialRegression(degree), X, y, train_sizes=sizes, cv=cv, scoring="neg_mean_squared_error", shuffle=False
    )
    np.testing.assert_array_equal(lc.train_sizes, n)
    np.testing.assert_allclose(lc.train_scores, -tr, rtol=1e-10)
    np.testing.assert_allclose(lc.test_scores, -te, rtol=1e-10)
    assert isinstance(lc, LearningCurve) and "4 sizes" in repr(lc)


def test_learning_curve_custom_metric():
    X = np.linspace(0, 1, 30).reshape(-1, 1)
    y = sine(X[:, 0])
    lc = learning_curve(
        PolynomialRegression(1),
        X,
        y,
        [10, 20],
        HoldOut(0.3, random_state=0),
        metric=lambda a, b: float(np.max(np.abs(a - b))),
    )
    assert lc.train_scores.shape == (2, 1)
    assert np.all(lc.test_scores > 0.2)  # a line misses a full sine period by a lot


# ------------------------------------------------------------------------------ 0-1 loss (Domingos)
def test_zero_one_identity_holds_and_the_naive_sum_does_not():
    r = bias_variance_01(
        DecisionTreeClassifier(max_depth=3, random_state=0),
        lambda x: 0.5 + 0.4 * np.sin(2 * np.pi * x),
        n_train=30,
        random_state=0,
    )
    assert isinstance(r, ZeroOneDecomposition)
    lhs = r.expected_loss_per_point
    rhs = r.c1 * r.noise_per_point + r.bias_per_point + r.c2 * r.variance_per_point  # Domingos, Theorem 2
    np.testing.assert_allclose(lhs, rhs, atol=1e-12)
    # Monte-Carlo check of the exact expected loss: draw test labels t ~ Bernoulli(p(x))
    rng = np.random.default_rng(1)
    p = 0.5 + 0.4 * np.sin(2 * np.pi * r.x_test)
    t = rng.random((500,) + r.predictions.shape) < p
    mc = (t != r.predictions.astype(bool)).mean(axis=(0, 1))
    np.testing.assert_allclose(mc, lhs, atol=0.01)
    assert r.naive_sum > r.expected_loss  # noise and variance do not simply add
    assert r.net_variance == pytest.approx(r.unbiased_variance - r.biased_variance)


def test_zero_one_hand_worked_constant_classifier():
    # always predict 1 with p(x) = x: variance 0, bias where x < 0.5, noise min(x, 1 − x), loss 1 − x
    x = np.array([0.1, 0.4, 0.6, 0.9])
    r = bias_variance_01(
        DummyClassifier(strategy="constant", constant=1),
        lambda x: x,
        n_train=10,
        n_datasets=5,
        x_test=x,
        random_state=0,
    )
    np.testing.assert_allclose(r.expected_loss_per_point, [0.9, 0.6, 0.4, 0.1])
    np.testing.assert_array_equal(r.bias_per_point, [1, 1, 0, 0])
    np.testing.assert_allclose(r.noise_per_point, [0.1, 0.4, 0.4, 0.1])
    np.testing.assert_array_equal(r.variance_per_point, 0)
    # on the biased points the noise counts negatively (c1 = −1): 0.9 = −0.1 + 1, not 0.1 + 1
    np.testing.assert_array_equal(r.c1, [-1, -1, 1, 1])


def test_zero_one_one_class_training_sets():
    # p(x) = 0.05 and 6 points: most training sets hold class 0 only; LogisticRegression refuses them and
    # the only sensible prediction is that class. Training sets with both classes are fitted normally.
    from sklearn.linear_model import LogisticRegression

    r = bias_variance_01(
        LogisticRegression(),
        lambda x: np.full_like(x, 0.05),
        n_train=6,
        n_datasets=40,
        x_test=[0.2, 0.8],
        random_state=0,
    )
    assert r.predictions.shape == (40, 2)
    assert r.bias == 0.0 and r.main_prediction.tolist() == [0, 0]
    np.testing.assert_allclose(r.noise_per_point, 0.05)


def test_zero_one_variance_can_lower_the_loss():
    # p(x) = 0.3 everywhere (Bayes label 0); a learner that guesses 1 with prob 0.6 has main prediction 1
    # (biased) and variance 0.4: its loss 0.6·0.7 + 0.4·0.3 = 0.54 is below the bias alone
    class Coin(DummyClassifier):
        def predict(self, X):
            return (np.random.default_rng(int(1e6 * self._seed)).random(len(X)) < 0.6).astype(int)

        def fit(self, X, y):
            self._seed = float(X[0, 0])
            return self

    r = bias_variance_01(
        Coin(), lambda x: np.full_like(x, 0.3), n_train=30, n_datasets=2000, x_test=[0.5], random_state=0
    )
    assert r.bias == 1.0
    frac1 = r.predictions.mean()
    assert r.variance == pytest.approx(1 - frac1)
    assert r.expected_loss == pytest.approx(frac1 * 0.7 + (1 - frac1) * 0.3)
    assert r.expected_loss < r.bias  # variance helped: 1 − V + c1·N < 1
    assert r.naive_sum > r.expected_loss + 0.5


# -------------------------------------------------------------------------------------------- plots
def test_plots_draw_what_the_result_holds():
    r = bias_variance(PolynomialRegression(3), sine, noise_std=0.3, n_train=20, n_datasets=30, random_state=0)
    fig, axes = new_figure(ncols=3)
    ax = plots.plot_prediction_fan(r, axes[0], n_curves=10)
    assert ax is axes[0]
    segs = ax.collections[0].get_segments()
    assert len(segs) == 10
    np.testing.assert_allclose(segs[3][:, 1], r.predictions[3][np.argsort(r.x_test)])
    assert len(ax.lines) == 3  # data, truth, mean
    np.testing.assert_allclose(ax.lines[-1].get_ydata(), r.mean_prediction[np.argsort(r.x_test)])
    ax = plots.plot_decomposition(r, axes[1], log=False)
    heights = [p.get_height() for p in ax.patches[:5]]
    np.testing.assert_allclose(
        heights, [r.bias2, r.variance, r.noise, r.bias2 + r.variance + r.noise, r.expected_error]
    )
    c = bias_variance_curve(
        PolynomialRegression(), "degree", [1, 3, 5], sine, noise_std=0.3, n_train=20, n_datasets=20, random_state=0
    )
    ax = plots.plot_bias_variance_curve(c, axes[2])
    np.testing.assert_allclose(ax.lines[3].get_ydata(), c.expected_error)
    fig2, ax2 = new_figure()
    lc = learning_curve(
        PolynomialRegression(1), r.x_train[0].reshape(-1, 1), r.y_train[0], [5, 10], KFold(4, random_state=0)
    )
    plots.plot_learning_curve(lc, ax2, title="t")
    np.testing.assert_allclose(ax2.lines[1].get_ydata(), lc.test_mean)
    z = bias_variance_01(DecisionTreeClassifier(max_depth=1), lambda x: x, n_train=20, n_datasets=10, random_state=0)
    ax3 = plots.plot_zero_one_decomposition(z, new_figure()[1])
    np.testing.assert_allclose(ax3.lines[0].get_ydata(), z.expected_loss_per_point[np.argsort(z.x_test)])


def test_plots_reject_bad_input():
    r = bias_variance(PolynomialRegression(1), sine, noise_std=0.3, n_train=10, n_datasets=5, random_state=0)
    _, ax = new_figure()
    for f in (
        plots.plot_prediction_fan,
        plots.plot_decomposition,
        plots.plot_bias_variance_curve,
        plots.plot_learning_curve,
        plots.plot_zero_one_decomposition,
    ):
        with pytest.raises(TypeError, match="must be a"):
            f({"bias2": 1}, ax)
    with pytest.raises(ValueError, match="n_curves"):
        plots.plot_prediction_fan(r, ax, n_curves=-1)
    with pytest.raises(TypeError, match="n_curves"):
        plots.plot_prediction_fan(r, ax, n_curves=2.5)
    with pytest.raises(ValueError, match="log"):
        plots.plot_decomposition(r, ax, log="yes")
    with pytest.raises(TypeError, match="ax"):
        plots.plot_decomposition(r, ax="left")


# ---------------------------------------------------------------------------------------- bad input
GOOD = dict(noise_std=0.3, n_train=10, n_datasets=5)


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(noise_std=-0.1), ValueError, "noise_std"),
        (dict(noise_std=float("nan")), ValueError, "noise_std"),
        (dict(noise_std="0.3"), TypeError, "noise_std"),
        (dict(n_train=0), ValueError, "n_train"),
        (dict(n_train=10.0), TypeError, "n_train"),
        (dict(n_datasets=1), ValueError, "n_datasets"),
        (dict(n_datasets=True), TypeError, "n_datasets"),
        (dict(x_range=(1, 0)), ValueError, "x_range"),
        (dict(x_range=(0, np.inf)), ValueError, "x_range"),
        (dict(x_range=5), ValueError, "x_range"),
        (dict(x_test=[]), ValueError, "x_test"),
        (dict(x_test=[0.1, np.nan]), ValueError, "x_test"),
        (dict(x_test=np.zeros((2, 2))), ValueError, "x_test"),
        (dict(random_state=-1), ValueError, "random_state"),
        (dict(random_state="seed"), TypeError, "random_state"),
        (dict(method="fast"), ValueError, "method"),
    ],
)
def test_bias_variance_rejects_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        bias_variance(PolynomialRegression(2), sine, **{**GOOD, **kwargs})


def test_bias_variance_rejects_bad_model_and_target():
    with pytest.raises(TypeError, match="model"):
        bias_variance(PolynomialRegression, sine, **GOOD)
    with pytest.raises(TypeError, match="model"):
        bias_variance("poly", sine, **GOOD)
    with pytest.raises(TypeError, match="target"):
        bias_variance(PolynomialRegression(1), [1, 2, 3], **GOOD)
    with pytest.raises(ValueError, match="target"):
        bias_variance(PolynomialRegression(1), lambda x: x[:3], **GOOD)
    with pytest.raises(ValueError, match="target"):
        bias_variance(PolynomialRegression(1), lambda x: np.log(x - 2), **GOOD)
    with pytest.raises(ValueError, match="vectorised"):
        bias_variance(DecisionTreeRegressor(), sine, method="vectorised", **GOOD)
    with pytest.raises(TypeError, match="degree"):
        bias_variance(PolynomialRegression(2.5), sine, **GOOD)
    with pytest.raises(TypeError):
        bias_variance(PolynomialRegression(1), sine, 0.3, 10)  # keyword-only settings
    with pytest.raises(TypeError, match="noise_std"):
        bias_variance(PolynomialRegression(1), sine, n_train=10)  # noise_std has no default


def test_bias_variance_curve_rejects_bad_input():
    with pytest.raises(ValueError, match="param_name"):
        bias_variance_curve(PolynomialRegression(), "depth", [1, 2], sine, **GOOD)
    with pytest.raises(ValueError, match="values"):
        bias_variance_curve(PolynomialRegression(), "degree", [], sine, **GOOD)
    with pytest.raises(ValueError, match="values"):
        bias_variance_curve(PolynomialRegression(), "degree", 3, sine, **GOOD)
    with pytest.raises(ValueError, match="n_train"):
        bias_variance_curve(PolynomialRegression(), "degree", [1], sine, noise_std=0.1, n_train=0)


def test_learning_curve_rejects_bad_input():
    # A continuous target (not whole numbers: those count as class labels, as in scikit-learn's type_of_target).
    X, y = np.linspace(0, 1, 20).reshape(-1, 1), np.arange(20.0) + 0.5
    cv = KFold(4, random_state=0)
    with pytest.raises(ValueError, match="train_sizes"):
        learning_curve(PolynomialRegression(1), X, y, [5, 16], cv)  # training folds hold 15
    with pytest.raises(ValueError, match="train_sizes"):
        learning_curve(PolynomialRegression(1), X, y, [0, 5], cv)
    with pytest.raises(ValueError, match="train_sizes"):
        learning_curve(PolynomialRegression(1), X, y, [], cv)
    with pytest.raises(ValueError, match="train_sizes"):
        learning_curve(PolynomialRegression(1), X, y, [0.5, 1.0], cv)
    with pytest.raises(ValueError, match="length mismatch"):
        learning_curve(PolynomialRegression(1), X, y[:-1], [5], cv)
    with pytest.raises(ValueError, match="empty"):
        learning_curve(PolynomialRegression(1), X[:0], y[:0], [5], cv)
    with pytest.raises(TypeError, match="splitter"):
        learning_curve(PolynomialRegression(1), X, y, [5], 4)
    with pytest.raises(TypeError, match="metric"):
        learning_curve(PolynomialRegression(1), X, y, [5], cv, metric="mse")
    with pytest.raises(TypeError, match="model"):
        learning_curve(None, X, y, [5], cv)


def test_bias_variance_01_rejects_bad_input():
    tree = DecisionTreeClassifier(max_depth=1)
    with pytest.raises(ValueError, match="prob"):
        bias_variance_01(tree, lambda x: x + 0.5, n_train=10, n_datasets=3, random_state=0)
    with pytest.raises(TypeError, match="prob"):
        bias_variance_01(tree, 0.3, n_train=10)
    with pytest.raises(ValueError, match="n_train"):
        bias_variance_01(tree, lambda x: x, n_train=1)
    with pytest.raises(ValueError, match="n_datasets"):
        bias_variance_01(tree, lambda x: x, n_train=10, n_datasets=1)
    with pytest.raises(ValueError, match="x_range"):
        bias_variance_01(tree, lambda x: x, n_train=10, x_range=(0, 0))
    with pytest.raises(TypeError, match="model"):
        bias_variance_01(object(), lambda x: x, n_train=10)

    class Three(DummyClassifier):
        def predict(self, X):
            return np.full(len(X), 3)

    with pytest.raises(ValueError, match="labels in"):
        bias_variance_01(Three(), lambda x: x, n_train=10, n_datasets=3, random_state=0)


# --------------------------------------------------------------------- selection bias (notebook 03)
@pytest.mark.parametrize("k,m,p", [(1, 50, 0.8), (5, 100, 0.9), (25, 100, 0.9), (125, 40, 0.7)])
def test_expected_best_accuracy_matches_simulation(k, m, p):
    rng = np.random.default_rng(k)
    best = rng.binomial(m, p, size=(40000, k)).max(axis=1) / m
    se = best.std() / np.sqrt(best.size)
    assert expected_best_accuracy(k, m, p) == pytest.approx(best.mean(), abs=5 * se + 1e-12)


def test_expected_best_accuracy_properties():
    assert expected_best_accuracy(1, 100, 0.9) == pytest.approx(0.9, abs=1e-12)  # no choice, no bias
    assert expected_best_accuracy(10, 100, 1.0) == pytest.approx(1.0)
    assert expected_best_accuracy(10, 100, 0.0) == pytest.approx(0.0)
    vals = [expected_best_accuracy(k, 100, 0.9) for k in (1, 5, 25, 125)]
    assert np.all(np.diff(vals) > 0)  # more candidates, more optimism
    # a larger validation set shrinks the optimism
    assert expected_best_accuracy(25, 1000, 0.9) - 0.9 < expected_best_accuracy(25, 100, 0.9) - 0.9


@pytest.mark.parametrize("k,m", [(2, 3), (3, 4), (4, 2)])
def test_expected_best_accuracy_equals_enumeration(k, m):
    """Brute force: every joint outcome of k independent Binomial(m, 1/3) counts, in exact fractions."""
    import itertools
    from fractions import Fraction
    from math import comb

    p = Fraction(1, 3)
    pmf = [comb(m, t) * p**t * (1 - p) ** (m - t) for t in range(m + 1)]
    exact = sum(
        np.prod([pmf[t] for t in ts]) * Fraction(max(ts), m) for ts in itertools.product(range(m + 1), repeat=k)
    )
    assert expected_best_accuracy(k, m, 1 / 3) == pytest.approx(float(exact), rel=1e-14)


def test_expected_best_accuracy_of_one_candidate_is_exactly_its_accuracy():
    # no residue of a summation: notebook 03 prints the optimism 0.0000, never -0.0000, on any CPU
    for p in (0.9, 0.7, 1 / 3):
        assert expected_best_accuracy(1, 142, p) - p == 0.0


@pytest.mark.parametrize(
    "args,exc,match",
    [
        ((0, 100, 0.9), ValueError, "n_candidates"),
        ((2.0, 100, 0.9), TypeError, "n_candidates"),
        ((5, 0, 0.9), ValueError, "n_val"),
        ((5, 100, 1.5), ValueError, "accuracy"),
        ((5, 100, float("nan")), ValueError, "accuracy"),
    ],
)
def test_expected_best_accuracy_rejects_bad_input(args, exc, match):
    with pytest.raises(exc, match=match):
        expected_best_accuracy(*args)


def test_plot_winner_optimism():
    _, ax = new_figure()
    plots.plot_winner_optimism([0.9, 0.95, 0.92], [0.88, 0.9, 0.91], ax)
    np.testing.assert_allclose(ax.lines[2].get_xydata(), [[0.9233333333, 0.8966666667]], rtol=1e-9)
    with pytest.raises(ValueError, match="length mismatch"):
        plots.plot_winner_optimism([0.9, 0.95], [0.88], ax)
    with pytest.raises(ValueError, match="validation_scores"):
        plots.plot_winner_optimism([0.9, np.nan], [0.88, 0.9], ax)
    with pytest.raises(ValueError, match="test_scores"):
        plots.plot_winner_optimism([0.9], [], ax)
