"""Polynomial models used to show under- and over-fitting (西瓜书 §2.1) and bias–variance (§2.5).

The design matrix uses Legendre polynomials on x mapped to [-1, 1], which keeps least squares well
conditioned up to degree 20 (raw powers x^d are not). The fitted function is the same polynomial.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

from ._results import Result
from ._validation import Interval, as_finite_array, check_positive_int, check_random_state, check_range, validate_params

__all__ = ["polynomial_design", "PolynomialRegression", "polynomial_experiment", "PolynomialExperiment"]


@validate_params(
    {"x": ["array-like"], "degree": [Interval(numbers.Integral, 0, None, closed="left")], "domain": ["range"]}
)
def polynomial_design(x, degree, domain=(0.0, 1.0)) -> np.ndarray:
    """Design matrix of shape (len(x), degree + 1): Legendre P_0..P_degree at x mapped from ``domain`` to [-1, 1].

    >>> polynomial_design([0.0, 0.5, 1.0], 1).tolist()
    [[1.0, -1.0], [1.0, 0.0], [1.0, 1.0]]
    """
    x = as_finite_array(x, "x", ndim=None)
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.ndim != 1:
        raise ValueError(f"x must be 1-D or one column, got shape {x.shape}")
    degree = check_positive_int(degree, "degree", minimum=0)
    lo, hi = check_range(domain, "domain")
    t = (2.0 * x - (lo + hi)) / (hi - lo)
    return np.polynomial.legendre.legvander(t, degree)


class PolynomialRegression(RegressorMixin, BaseEstimator):
    """Least-squares polynomial of one feature: a scikit-learn regressor (fit/predict/score, clone-able).

    Parameters
    ----------
    degree : int >= 0, the model's complexity.
    domain : (low, high) or None; x is mapped from it to [-1, 1]. None uses the training data's range.

    >>> import numpy as np
    >>> x = np.linspace(0, 1, 5).reshape(-1, 1)
    >>> m = PolynomialRegression(degree=2).fit(x, 3 * x[:, 0] ** 2 - x[:, 0] + 1)
    >>> np.round(m.predict([[2.0]]), 6).tolist()
    [11.0]
    """

    def __init__(self, degree=3, domain=None):
        check_positive_int(degree, "degree", minimum=0)  # again in fit: set_params does not pass through here
        self.degree = degree
        self.domain = domain

    def fit(self, X, y):
        check_positive_int(self.degree, "degree", minimum=0)
        X = as_finite_array(X, "X", ndim=2)
        y = as_finite_array(y, "y")
        if X.shape[1] != 1:
            raise ValueError(f"X must have exactly one feature column, got shape {X.shape}")
        if X.shape[0] != y.shape[0]:
            raise ValueError(f"length mismatch: X has {X.shape[0]} samples, y has {y.shape[0]}")
        if self.domain is None:
            lo, hi = float(X.min()), float(X.max())
            if lo == hi:
                hi = lo + 1.0
            self.domain_ = (lo, hi)
        else:
            self.domain_ = check_range(self.domain, "domain")
        A = polynomial_design(X[:, 0], self.degree, self.domain_)
        self.coef_ = np.linalg.lstsq(A, y, rcond=None)[0]
        self.n_features_in_ = 1
        return self

    def predict(self, X):
        X = as_finite_array(X, "X", ndim=2)
        if X.shape[1] != 1:
            raise ValueError(f"X must have exactly one feature column, got shape {X.shape}")
        return polynomial_design(X[:, 0], self.degree, self.domain_) @ self.coef_


@dataclass(frozen=True, repr=False)
class PolynomialExperiment(Result):
    """One draw of noisy sine data and the least-squares polynomial of every degree 0..max_degree.

    ``curves[d]`` is the degree-d fit evaluated on ``grid``; ``train_mse[d]`` / ``test_mse[d]`` its errors
    on the training sample and on a large independent test sample (a stand-in for the generalisation error).
    """

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    grid: np.ndarray
    truth: np.ndarray
    degrees: np.ndarray
    curves: np.ndarray
    train_mse: np.ndarray
    test_mse: np.ndarray
    noise_std: float

    @property
    def best_degree(self) -> int:
        return int(self.degrees[np.argmin(self.test_mse)])

    _repr_format = "PolynomialExperiment(n_train={n_train}, noise_std={noise_std}, degrees=0..{max_degree}, best_degree={best_degree})"

    def _repr_values(self) -> dict:
        return {"n_train": len(self.x_train), "max_degree": int(self.degrees[-1])}


@validate_params(
    {
        "n_train": [Interval(numbers.Integral, 2, None, closed="left")],
        "noise_std": [Interval(numbers.Real, 0, None, closed="left")],
        "max_degree": [Interval(numbers.Integral, 0, None, closed="left")],
        "n_test": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_grid": [Interval(numbers.Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
    }
)
def polynomial_experiment(
    n_train=20, *, noise_std=0.25, max_degree=15, n_test=1000, n_grid=200, random_state=None
) -> PolynomialExperiment:
    """Fit polynomials of degree 0..max_degree to ``n_train`` noisy samples of sin(2πx) (西瓜书 §2.1).

    Low degrees under-fit (欠拟合: both errors high); high degrees over-fit (过拟合: the training error
    keeps falling while the test error rises). The test error never goes below ``noise_std**2`` on average.

    >>> e = polynomial_experiment(20, noise_std=0.2, random_state=0)
    >>> bool(e.train_mse[15] < e.train_mse[3] and e.test_mse[3] < e.test_mse[0])
    True
    """
    from .data import make_sine

    n_train = check_positive_int(n_train, "n_train", minimum=2)
    max_degree = check_positive_int(max_degree, "max_degree", minimum=0)
    n_test = check_positive_int(n_test, "n_test")
    n_grid = check_positive_int(n_grid, "n_grid", minimum=2)
    rng = check_random_state(random_state)
    X_tr, y_tr = make_sine(n_train, noise_std=noise_std, random_state=rng)
    X_te, y_te = make_sine(n_test, noise_std=noise_std, random_state=rng)
    grid = np.linspace(0.0, 1.0, n_grid)
    A_tr = polynomial_design(X_tr[:, 0], max_degree)
    A_te = polynomial_design(X_te[:, 0], max_degree)
    A_gr = polynomial_design(grid, max_degree)
    degrees = np.arange(max_degree + 1)
    curves = np.empty((max_degree + 1, n_grid))
    train_mse = np.empty(max_degree + 1)
    test_mse = np.empty(max_degree + 1)
    for d in degrees:  # one small least-squares problem per degree
        coef = np.linalg.lstsq(A_tr[:, : d + 1], y_tr, rcond=None)[0]
        curves[d] = A_gr[:, : d + 1] @ coef
        train_mse[d] = np.mean((A_tr[:, : d + 1] @ coef - y_tr) ** 2)
        test_mse[d] = np.mean((A_te[:, : d + 1] @ coef - y_te) ** 2)
    return PolynomialExperiment(
        X_tr[:, 0],
        y_tr,
        X_te[:, 0],
        y_te,
        grid,
        np.sin(2 * np.pi * grid),
        degrees,
        curves,
        train_mse,
        test_mse,
        float(noise_std),
    )
