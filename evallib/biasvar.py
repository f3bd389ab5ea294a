"""Bias–variance decomposition by simulation (偏差与方差, 西瓜书 §2.5, 式(2.37)–(2.42)).

Taught in ``notebooks/10_bias_variance.ipynb`` (the learning-curve helper also in ``03_tuning_and_final_model``).

For a regression problem with a *known* target ``f`` and known Gaussian noise, we can do what the book's
derivation only imagines: draw many training sets D of the same size, fit the learner on each, and average
over D at every test point x:

* 式(2.37) mean prediction      f̄(x)   = E_D[f(x; D)]
* 式(2.38) variance             var(x) = E_D[(f(x; D) − f̄(x))²]
* 式(2.39) noise                ε²     = E_D[(y_D − y)²]
* 式(2.40) squared bias         bias²(x) = (f̄(x) − y)²
* 式(2.41) expected error       E(f; D) = E_D[(f(x; D) − y_D)²]
* 式(2.42)                      E(f; D) = bias²(x) + var(x) + ε²

Here y = f(x) is the true value and y_D = y + noise the label a data set carries. All four terms are
estimated from the same simulated draws, so 式(2.42) holds up to Monte-Carlo error (the cross terms of the
derivation are zero only in expectation); :attr:`BiasVarianceResult.residual` shows how far.

:class:`evallib.fitting.PolynomialRegression` is fitted on all data sets at once (one batched SVD
least-squares solve) so that a slider can re-run a 200-data-set simulation in a few milliseconds; any
other scikit-learn regressor is cloned and fitted in a loop.

:func:`bias_variance_01` is the 0-1 loss decomposition of Domingos (2000) for binary classification:
there the terms do *not* simply add up, which is why the book's clean decomposition is for squared loss.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from ._results import Result
from ._validation import (
    Interval,
    Options,
    as_finite_array,
    check_nonnegative,
    check_positive_int,
    check_random_state,
    check_range,
    validate_params,
)

__all__ = [
    "BiasVarianceResult",
    "bias_variance",
    "BiasVarianceCurve",
    "bias_variance_curve",
    "ZeroOneDecomposition",
    "bias_variance_01",
]

# Moved: learning curves to evallib.evaluation (beside complexity curves), expected_best_accuracy to evallib.tuning
# (beside nested CV); the old names keep working.
from .evaluation import LearningCurve, learning_curve  # noqa: E402,F401
from .tuning import expected_best_accuracy  # noqa: E402,F401

_METHODS = ("auto", "vectorised", "loop")
_AT_LEAST_1 = [Interval(numbers.Integral, 1, None, closed="left")]
_AT_LEAST_2 = [Interval(numbers.Integral, 2, None, closed="left")]


# --------------------------------------------------------------------------------------------- checks
def _check_model(model, name="model"):
    if isinstance(model, type):
        raise TypeError(f"{name} must be an estimator instance, got the class {model.__name__}; add ()")
    for attr in ("fit", "predict", "get_params"):
        if not callable(getattr(model, attr, None)):
            raise TypeError(f"{name} must be a scikit-learn estimator with fit/predict, got {type(model).__name__}")
    return model


def _check_target(target):
    if not callable(target):
        raise TypeError(f"target must be a callable f(x) -> y on a 1-D array, got {type(target).__name__}")
    return target


def _eval_target(target, x, name="target"):
    """target(x) for a float array x of any shape, checked: same shape, finite."""
    flat = x.ravel()
    try:
        with np.errstate(all="ignore"):  # a NaN/inf result is reported below, naming the argument
            y = np.asarray(target(flat), dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}(x) failed on a 1-D float array: {exc}") from None
    if y.shape == ():
        y = np.full(flat.shape, float(y))
    if y.shape != flat.shape:
        raise ValueError(f"{name}(x) must return one value per x (shape {flat.shape}), got shape {y.shape}")
    if not np.isfinite(y).all():
        raise ValueError(f"{name}(x) returned NaN or inf on x_range")
    return y.reshape(x.shape)


def _check_x_test(x_test, lo, hi):
    if x_test is None:
        return np.linspace(lo, hi, 101)
    x = as_finite_array(x_test, "x_test", ndim=None)
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.ndim != 1:
        raise ValueError(f"x_test must be 1-D or one column, got shape {x.shape}")
    return x


def _check_method(method):
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    return method


# ------------------------------------------------------------------------------------- vectorised path
def _is_polynomial(model) -> bool:
    from .fitting import PolynomialRegression

    return type(model) is PolynomialRegression


def _batched_lstsq(A, Y):
    """Least squares for a stack: A (K, n, p), Y (K, n) -> coefficients (K, p).

    One batched SVD with the cut-off ``np.linalg.lstsq(rcond=None)`` uses, so rank-deficient systems
    (fewer points than coefficients) get the same minimum-norm solution the loop of fits gets.
    """
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    cutoff = np.finfo(float).eps * max(A.shape[1], A.shape[2]) * s[:, :1]
    s_inv = np.where(s > cutoff, 1.0 / np.where(s > 0, s, 1.0), 0.0)
    uty = np.einsum("knp,kn->kp", U, Y)
    return np.einsum("kpq,kp->kq", Vt, s_inv * uty)


def _polynomial_fit_predict(model, X, Y, x_test):
    """Fit PolynomialRegression(degree, domain) on every row of X, Y at once; predict at x_test.

    Mirrors ``PolynomialRegression.fit`` exactly (the same Legendre design, the per-data-set domain when
    ``domain=None``), so the predictions equal those of a loop of clones to rounding error.
    Returns (predictions (K, m), training predictions (K, n)).
    """

    degree = check_positive_int(model.degree, "model.degree", minimum=0)
    K = X.shape[0]
    if model.domain is None:
        lo, hi = X.min(axis=1), X.max(axis=1)
        hi = np.where(lo == hi, lo + 1.0, hi)
    else:
        lo_, hi_ = check_range(model.domain, "domain")
        lo, hi = np.full(K, lo_), np.full(K, hi_)
    lo, hi = lo[:, None], hi[:, None]
    t_train = (2.0 * X - (lo + hi)) / (hi - lo)
    t_test = (2.0 * x_test[None, :] - (lo + hi)) / (hi - lo)
    A = np.polynomial.legendre.legvander(t_train, degree)  # (K, n, p)
    coef = _batched_lstsq(A, Y)
    pred = np.einsum("kmp,kp->km", np.polynomial.legendre.legvander(t_test, degree), coef)
    fitted = np.einsum("knp,kp->kn", A, coef)
    return pred, fitted


def _loop_fit_predict(model, X, Y, x_test):
    K, n = X.shape
    pred = np.empty((K, len(x_test)))
    fitted = np.empty((K, n))
    Xt = x_test.reshape(-1, 1)
    for k in range(K):  # one fit per simulated data set (not a loop over samples)
        est = clone(model).fit(X[k].reshape(-1, 1), Y[k])
        pred[k] = np.asarray(est.predict(Xt), dtype=float).ravel()
        fitted[k] = np.asarray(est.predict(X[k].reshape(-1, 1)), dtype=float).ravel()
    if not np.isfinite(pred).all():
        raise ValueError(f"{type(model).__name__} produced NaN or inf predictions on x_test")
    return pred, fitted


def _fit_predict(model, X, Y, x_test, method):
    use_vec = method == "vectorised" or (method == "auto" and _is_polynomial(model))
    if use_vec and not _is_polynomial(model):
        raise ValueError(
            f"method='vectorised' needs an evallib.fitting.PolynomialRegression model, got {type(model).__name__}"
        )
    if use_vec:
        return (*_polynomial_fit_predict(model, X, Y, x_test), "vectorised")
    return (*_loop_fit_predict(model, X, Y, x_test), "loop")


# ------------------------------------------------------------------------------------------ the result
@dataclass(frozen=True, repr=False)
class BiasVarianceResult(Result):
    """The terms of 式(2.42), averaged over ``x_test`` (floats) and per test point (arrays).

    Fields
    ------
    bias2, variance, noise, expected_error : float — means over x_test of the per-point terms.
    bias2_per_point, variance_per_point, noise_per_point, expected_error_per_point : arrays (n_test,).
    x_test : (n_test,) test inputs; y_true : f(x_test), the noise-free target.
    predictions : (n_datasets, n_test), f(x; D) of every fitted model; mean_prediction : f̄(x), 式(2.37).
    y_test : (n_datasets, n_test), the noisy labels y_D used for the noise and expected-error terms.
    x_train, y_train : (n_datasets, n_train), the simulated training sets.
    train_error : float, mean training MSE over the data sets (for learning curves).
    noise_std, n_train, n_datasets, method ("vectorised" or "loop").
    """

    bias2: float
    variance: float
    noise: float
    expected_error: float
    bias2_per_point: np.ndarray
    variance_per_point: np.ndarray
    noise_per_point: np.ndarray
    expected_error_per_point: np.ndarray
    x_test: np.ndarray
    y_true: np.ndarray
    mean_prediction: np.ndarray
    predictions: np.ndarray
    y_test: np.ndarray
    x_train: np.ndarray
    y_train: np.ndarray
    train_error: float
    noise_std: float
    n_train: int
    n_datasets: int
    method: str

    @property
    def residual(self) -> float:
        """expected_error − (bias2 + variance + noise): Monte-Carlo error of 式(2.42), zero in expectation."""
        return self.expected_error - (self.bias2 + self.variance + self.noise)

    _repr_format = "BiasVarianceResult(bias2={bias2:.4f}, variance={variance:.4f}, noise={noise:.4f}, expected_error={expected_error:.4f}, residual={residual:+.4f}; {n_datasets} data sets of {n_train}, {n_test} test points, {method})"

    def _repr_values(self) -> dict:
        return {"n_test": len(self.x_test)}


def _simulate(target, lo, hi, noise_std, n_train, n_datasets, x_test, rng):
    """Training sets, test labels and the true values, all drawn once from ``rng``."""
    X = rng.uniform(lo, hi, size=(n_datasets, n_train))
    Y = _eval_target(target, X) + noise_std * rng.standard_normal((n_datasets, n_train))
    y_true = _eval_target(target, x_test)
    y_test = y_true[None, :] + noise_std * rng.standard_normal((n_datasets, len(x_test)))
    return X, Y, y_true, y_test


def _decompose(pred, y_true, y_test):
    """The per-point terms of 式(2.37)–(2.41) from predictions (K, m), true values (m,), labels (K, m)."""
    mean_pred = pred.mean(axis=0)  # 式(2.37)
    variance = ((pred - mean_pred) ** 2).mean(axis=0)  # 式(2.38), E_D over K data sets (ddof=0)
    noise = ((y_test - y_true) ** 2).mean(axis=0)  # 式(2.39)
    bias2 = (mean_pred - y_true) ** 2  # 式(2.40)
    expected = ((pred - y_test) ** 2).mean(axis=0)  # 式(2.41)
    return mean_pred, bias2, variance, noise, expected


@validate_params(
    {
        "target": ["callable"],
        "noise_std": [Interval(numbers.Real, 0, None, closed="left")],
        "n_train": _AT_LEAST_1,
        "n_datasets": _AT_LEAST_2,
        "x_test": [None, "array-like"],
        "x_range": ["range"],
        "random_state": ["random_state"],
        "method": [Options(*_METHODS)],
    }
)
def bias_variance(
    model, target, *, noise_std, n_train, n_datasets=200, x_test=None, x_range=(0, 1), random_state=None, method="auto"
) -> BiasVarianceResult:
    """Estimate bias², variance, noise and expected error of a regressor by simulation (式(2.37)–(2.42)).

    Draws ``n_datasets`` training sets of ``n_train`` points (x uniform on ``x_range``,
    y = target(x) + N(0, noise_std²)), fits a clone of ``model`` on each (X of shape (n_train, 1)),
    predicts at ``x_test`` (default: 101 points evenly spread over ``x_range``) and averages over the data
    sets. The noise and expected-error terms use fresh noisy labels y_D at x_test, one per data set.

    Parameters
    ----------
    model : scikit-learn regressor (cloned, never fitted in place). A
        :class:`evallib.fitting.PolynomialRegression` is fitted on all data sets in one batched solve.
    target : callable, f(x) -> y on a 1-D float array: the true function.
    noise_std : float >= 0, the standard deviation of the label noise (so ε² should come out ≈ noise_std²).
    n_train : int >= 1, the size of each training set.
    n_datasets : int >= 2, how many training sets are drawn.
    x_test : 1-D array-like or None.
    x_range : (low, high), where training inputs are drawn (and the default x_test lies).
    random_state : None, int or numpy Generator; the same value gives the same result.
    method : "auto" (vectorised for PolynomialRegression, else a loop), "vectorised" or "loop".

    >>> from evallib.fitting import PolynomialRegression
    >>> r = bias_variance(PolynomialRegression(1), lambda x: np.sin(2 * np.pi * x), noise_std=0.2,
    ...                   n_train=20, random_state=0)
    >>> r.bias2 > r.variance   # a straight line under-fits a sine: bias dominates
    True
    """
    _check_model(model)
    _check_target(target)
    noise_std = check_nonnegative(noise_std, "noise_std")
    n_train = check_positive_int(n_train, "n_train")
    n_datasets = check_positive_int(n_datasets, "n_datasets", minimum=2)
    lo, hi = check_range(x_range, "x_range")
    x_test = _check_x_test(x_test, lo, hi)
    method = _check_method(method)
    rng = check_random_state(random_state)

    X, Y, y_true, y_test = _simulate(target, lo, hi, noise_std, n_train, n_datasets, x_test, rng)
    pred, fitted, used = _fit_predict(model, X, Y, x_test, method)
    mean_pred, bias2, variance, noise, expected = _decompose(pred, y_true, y_test)
    return BiasVarianceResult(
        bias2=float(bias2.mean()),
        variance=float(variance.mean()),
        noise=float(noise.mean()),
        expected_error=float(expected.mean()),
        bias2_per_point=bias2,
        variance_per_point=variance,
        noise_per_point=noise,
        expected_error_per_point=expected,
        x_test=x_test,
        y_true=y_true,
        mean_prediction=mean_pred,
        predictions=pred,
        y_test=y_test,
        x_train=X,
        y_train=Y,
        train_error=float(((fitted - Y) ** 2).mean()),
        noise_std=noise_std,
        n_train=n_train,
        n_datasets=n_datasets,
        method=used,
    )


# ------------------------------------------------------------------------- over a range of complexity
@dataclass(frozen=True, repr=False)
class BiasVarianceCurve(Result):
    """bias², variance, noise, expected and training error for each value of one parameter (the U-curve).

    Arrays of len(values); ``best`` is the value with the smallest expected error.
    """

    param_name: str
    values: tuple
    bias2: np.ndarray
    variance: np.ndarray
    noise: np.ndarray
    expected_error: np.ndarray
    train_error: np.ndarray

    @property
    def best(self):
        return self.values[int(np.argmin(self.expected_error))]

    _repr_format = "BiasVarianceCurve({param_name}: {n_values} values, best {param_name}={best!r}, min expected_error={min_error:.4f})"

    def _repr_values(self) -> dict:
        return {"n_values": len(self.values), "min_error": self.expected_error.min()}


@validate_params(
    {
        "param_name": ["str"],
        "target": ["callable"],
        "noise_std": [Interval(numbers.Real, 0, None, closed="left")],
        "n_train": _AT_LEAST_1,
        "n_datasets": _AT_LEAST_2,
        "x_test": [None, "array-like"],
        "x_range": ["range"],
        "random_state": ["random_state"],
    }
)
def bias_variance_curve(
    model,
    param_name,
    values,
    target,
    *,
    noise_std,
    n_train,
    n_datasets=200,
    x_test=None,
    x_range=(0, 1),
    random_state=None,
) -> BiasVarianceCurve:
    """:func:`bias_variance` for each value of ``param_name`` (e.g. the degree): the bias–variance dilemma.

    Every value sees the *same* simulated data sets (common random numbers), so the curves are smooth and
    differences between values come from the model alone. Bias² falls and variance rises with complexity;
    their sum plus noise is U-shaped (西瓜书 图2.9).

    >>> from evallib.fitting import PolynomialRegression
    >>> c = bias_variance_curve(PolynomialRegression(), "degree", [1, 3, 9], lambda x: np.sin(2 * np.pi * x),
    ...                         noise_std=0.3, n_train=25, random_state=0)
    >>> c.best
    3
    """
    _check_model(model)
    if not isinstance(param_name, str) or param_name not in model.get_params():
        raise ValueError(f"param_name must be a parameter of {type(model).__name__}, got {param_name!r}")
    try:
        values = tuple(values)
    except TypeError:
        raise ValueError(f"values must be a sequence of parameter values, got {values!r}") from None
    if not values:
        raise ValueError("values is empty: give at least one parameter value")
    seed = check_random_state(random_state).integers(0, 2**63 - 1)
    rows = []
    for v in values:  # a loop over a handful of parameter values; each call is vectorised
        r = bias_variance(
            clone(model).set_params(**{param_name: v}),
            target,
            noise_std=noise_std,
            n_train=n_train,
            n_datasets=n_datasets,
            x_test=x_test,
            x_range=x_range,
            random_state=int(seed),
        )
        rows.append((r.bias2, r.variance, r.noise, r.expected_error, r.train_error))
    a = np.array(rows)
    return BiasVarianceCurve(param_name, values, a[:, 0], a[:, 1], a[:, 2], a[:, 3], a[:, 4])


# ----------------------------------------------------------------------------- 0-1 loss (Domingos 2000)
@dataclass(frozen=True, repr=False)
class ZeroOneDecomposition(Result):
    """Domingos' (2000) decomposition of the expected 0-1 loss of a binary classifier — *not* 式(2.42).

    Per test point x, with y* the Bayes-optimal label and y_m the main (majority) prediction over data sets:
    noise N(x) = P(t ≠ y*), bias B(x) = 1[y_m ≠ y*], variance V(x) = P_D(f(x; D) ≠ y_m) and
    expected loss E(x) = P_{D,t}(f(x; D) ≠ t). For two classes (Domingos' Theorem 2)

        E(x) = c1(x)·N(x) + B(x) + c2(x)·V(x),  c1 = 2·P_D(f = y*) − 1,  c2 = +1 if B(x) = 0 else −1,

    so variance *adds* to the loss where the main prediction is right and *subtracts* where it is wrong,
    and noise enters with a weight that depends on the learner. Floats are means over x_test; the arrays
    are per point. ``naive_sum`` = mean(N + B + V) is what an additive reading would predict.
    """

    expected_loss: float
    bias: float
    variance: float
    noise: float
    net_variance: float
    naive_sum: float
    expected_loss_per_point: np.ndarray
    bias_per_point: np.ndarray
    variance_per_point: np.ndarray
    noise_per_point: np.ndarray
    c1: np.ndarray
    c2: np.ndarray
    x_test: np.ndarray
    main_prediction: np.ndarray
    predictions: np.ndarray

    @property
    def unbiased_variance(self) -> float:
        """Mean over x_test of V(x) where B(x) = 0 (adds to the loss), zero elsewhere."""
        return float(np.mean(np.where(self.bias_per_point == 0, self.variance_per_point, 0.0)))

    @property
    def biased_variance(self) -> float:
        """Mean over x_test of V(x) where B(x) = 1 (subtracts from the loss), zero elsewhere."""
        return float(np.mean(np.where(self.bias_per_point == 1, self.variance_per_point, 0.0)))

    _repr_format = "ZeroOneDecomposition(expected_loss={expected_loss:.4f}, bias={bias:.4f}, variance={variance:.4f} (net {net_variance:+.4f}), noise={noise:.4f}, naive_sum={naive_sum:.4f})"


@validate_params(
    {
        "prob": ["callable"],
        "n_train": _AT_LEAST_2,
        "n_datasets": _AT_LEAST_2,
        "x_test": [None, "array-like"],
        "x_range": ["range"],
        "random_state": ["random_state"],
    }
)
def bias_variance_01(
    model, prob, *, n_train, n_datasets=200, x_test=None, x_range=(0, 1), random_state=None
) -> ZeroOneDecomposition:
    """0-1 loss bias/variance/noise of a binary classifier by simulation (Domingos 2000), for §2.5's remark.

    Training sets: x uniform on ``x_range``, label 1 with probability ``prob(x)``. A clone of ``model`` is
    fitted on each (X of shape (n_train, 1)) and predicts labels at ``x_test``. Since ``prob`` is known, the
    noise and the expected loss are computed exactly given the predictions (no test labels are drawn):
    E(x) = mean_D P(t ≠ f(x; D)). The identity in :class:`ZeroOneDecomposition` then holds to rounding.

    >>> from sklearn.tree import DecisionTreeClassifier
    >>> r = bias_variance_01(DecisionTreeClassifier(max_depth=1), lambda x: (x > 0.5) * 0.8 + 0.1,
    ...                      n_train=30, random_state=0)
    >>> round(r.noise, 2)
    0.1
    """
    _check_model(model)
    if not callable(prob):
        raise TypeError(f"prob must be a callable p(x) -> P(y = 1 | x) on a 1-D array, got {type(prob).__name__}")
    n_train = check_positive_int(n_train, "n_train", minimum=2)
    n_datasets = check_positive_int(n_datasets, "n_datasets", minimum=2)
    lo, hi = check_range(x_range, "x_range")
    x_test = _check_x_test(x_test, lo, hi)
    rng = check_random_state(random_state)

    def p_of(x):
        p = _eval_target(prob, x, "prob")
        if np.any((p < 0) | (p > 1)):
            raise ValueError("prob(x) must return probabilities in [0, 1]")
        return p

    X = rng.uniform(lo, hi, size=(n_datasets, n_train))
    Y = (rng.random((n_datasets, n_train)) < p_of(X)).astype(int)
    p_test = p_of(x_test)
    Xt = x_test.reshape(-1, 1)
    pred = np.empty((n_datasets, len(x_test)), dtype=int)
    for k in range(n_datasets):  # one fit per data set
        try:
            est = clone(model).fit(X[k].reshape(-1, 1), Y[k])
        except ValueError:
            if Y[k].min() != Y[k].max():
                raise
            pred[k] = Y[k, 0]  # a learner that refuses one-class data could only predict that class
            continue
        pred[k] = np.asarray(est.predict(Xt)).astype(int)
    if not np.isin(pred, (0, 1)).all():
        raise ValueError("model must predict labels in {0, 1}")
    y_star = (p_test > 0.5).astype(int)  # Bayes-optimal label (ties -> 0)
    frac1 = pred.mean(axis=0)
    y_main = (frac1 > 0.5).astype(int)  # main prediction (ties -> 0)
    noise = np.where(y_star == 1, 1 - p_test, p_test)  # P(t != y*)
    bias = (y_main != y_star).astype(float)
    variance = np.where(y_main == 1, 1 - frac1, frac1)  # P_D(f != y_m)
    p_correct_opt = np.where(y_star == 1, frac1, 1 - frac1)  # P_D(f = y*)
    c1 = 2 * p_correct_opt - 1
    c2 = np.where(bias == 0, 1.0, -1.0)
    # exact expected loss given the predictions: P(t != f) = p if f = 0 else 1 - p
    expected = np.where(pred == 1, 1 - p_test, p_test).mean(axis=0)
    return ZeroOneDecomposition(
        expected_loss=float(expected.mean()),
        bias=float(bias.mean()),
        variance=float(variance.mean()),
        noise=float(noise.mean()),
        net_variance=float((c2 * variance).mean()),
        naive_sum=float((noise + bias + variance).mean()),
        expected_loss_per_point=expected,
        bias_per_point=bias,
        variance_per_point=variance,
        noise_per_point=noise,
        c1=c1,
        c2=c2,
        x_test=x_test,
        main_prediction=y_main,
        predictions=pred,
    )
