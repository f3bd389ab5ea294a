"""Polynomial models used to show under- and over-fitting (西瓜书 §2.1) and bias–variance (§2.5).

The design matrix uses Legendre polynomials on x mapped to [-1, 1], which keeps least squares well
conditioned up to degree 20 (raw powers x^d are not). The fitted function is the same polynomial.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

from ._validation import as_finite_array, check_positive_int

__all__ = ["polynomial_design", "PolynomialRegression", "polynomial_errors"]


def _domain(domain):
    try:
        lo, hi = (float(v) for v in domain)
    except (TypeError, ValueError):
        raise ValueError(f"domain must be a pair (low, high), got {domain!r}") from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"domain must satisfy low < high with finite ends, got {domain!r}")
    return lo, hi


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
    lo, hi = _domain(domain)
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
        self.degree = degree
        self.domain = domain

    def fit(self, X, y):
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
            self.domain_ = _domain(self.domain)
        A = polynomial_design(X[:, 0], self.degree, self.domain_)
        self.coef_ = np.linalg.lstsq(A, y, rcond=None)[0]
        self.n_features_in_ = 1
        return self

    def predict(self, X):
        X = as_finite_array(X, "X", ndim=2)
        if X.shape[1] != 1:
            raise ValueError(f"X must have exactly one feature column, got shape {X.shape}")
        return polynomial_design(X[:, 0], self.degree, self.domain_) @ self.coef_


def polynomial_errors(x_train, y_train, x_test, y_test, degrees, domain=(0.0, 1.0)):
    """Training and test mean squared error of least-squares polynomials of each degree.

    Returns ``(train_mse, test_mse)``, arrays of len(degrees). The training error falls with the degree;
    the test error falls, then rises once the polynomial starts to fit the noise (过拟合).
    """
    x_train, y_train = as_finite_array(x_train, "x_train", ndim=None).ravel(), as_finite_array(y_train, "y_train")
    x_test, y_test = as_finite_array(x_test, "x_test", ndim=None).ravel(), as_finite_array(y_test, "y_test")
    if len(x_train) != len(y_train):
        raise ValueError(f"length mismatch: x_train has {len(x_train)}, y_train has {len(y_train)}")
    if len(x_test) != len(y_test):
        raise ValueError(f"length mismatch: x_test has {len(x_test)}, y_test has {len(y_test)}")
    degrees = [check_positive_int(d, "degrees", minimum=0) for d in np.atleast_1d(degrees).tolist()]
    if not degrees:
        raise ValueError("degrees is empty")
    A_tr = polynomial_design(x_train, max(degrees), domain)
    A_te = polynomial_design(x_test, max(degrees), domain)
    train, test = [], []
    for d in degrees:  # a loop over at most ~20 degrees, not over samples
        coef = np.linalg.lstsq(A_tr[:, : d + 1], y_train, rcond=None)[0]
        train.append(np.mean((A_tr[:, : d + 1] @ coef - y_train) ** 2))
        test.append(np.mean((A_te[:, : d + 1] @ coef - y_test) ** 2))
    return np.array(train), np.array(test)
