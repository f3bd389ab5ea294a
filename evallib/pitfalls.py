"""Pitfalls of evaluation (评估中的常见陷阱), beyond the book: the computations behind chapter 14's figures and
explorers (``notebooks/14_pitfalls.ipynb``).

* :func:`selection_leakage` — feature selection fitted on all the data before cross-validation against the
  same selection inside each training fold (what a scikit-learn ``Pipeline`` does), for many numbers of
  selected features at once.
* :func:`distort_probabilities` — a monotone bend of predicted probabilities: the order (and so every ROC
  curve and AUC) stays, the calibration does not.

The splitting, selection and models are scikit-learn's (``StratifiedKFold``, ``f_classif``, any classifier):
this module only avoids re-running the selection for every number of features, so a curve over twenty values of
k on 10,000 features costs about as much as one ``cross_val_score`` per k would without the repeats.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ._results import Result
from ._validation import (
    Interval,
    as_1d_array,
    as_finite_array,
    check_consistent_length,
    check_labels,
    check_positive_int,
    validate_params,
)

__all__ = ["LeakageStudy", "selection_leakage", "distort_probabilities"]


@dataclass(frozen=True, repr=False)
class LeakageStudy(Result):
    """Cross-validated accuracy with the feature selection done before the split (``leaky``) and inside each
    training fold (``honest``), per number of selected features ``ks``; ``*_folds`` hold one column per test
    fold (of every repeat); ``optimism`` = leaky − honest."""

    ks: np.ndarray
    leaky: np.ndarray
    honest: np.ndarray
    leaky_folds: np.ndarray
    honest_folds: np.ndarray

    @property
    def optimism(self) -> np.ndarray:
        return self.leaky - self.honest

    def at(self, k):
        """(leaky, honest) accuracy for one of the studied ``ks``."""
        hit = np.flatnonzero(self.ks == k)
        if hit.size == 0:
            raise ValueError(f"k={k!r} was not studied; ks are {self.ks.tolist()}")
        return float(self.leaky[hit[0]]), float(self.honest[hit[0]])

    _repr_format = "LeakageStudy({n_ks} values of k from {first_k} to {last_k}, largest optimism {max_optimism:+.3f})"

    def _repr_values(self) -> dict:
        return {"n_ks": len(self.ks), "first_k": self.ks[0], "last_k": self.ks[-1], "max_optimism": self.optimism.max()}


def _top_features(X, y, ks_max):
    """Indices of the features by decreasing ANOVA F (scikit-learn's ``f_classif``), ties by index."""
    from sklearn.feature_selection import f_classif

    f, _ = f_classif(X, y)
    f = np.nan_to_num(f, nan=0.0)  # constant features: F undefined, never chosen first
    return np.argsort(-f, kind="stable")[:ks_max]


def _one_nn_accuracies(X_train, y_train, X_test, y_test, ks):
    """Accuracy of the 1-nearest-neighbour rule on the first k columns, for every k in ``ks`` at once."""
    cuts, back = np.unique(ks, return_inverse=True)
    sq = (X_test.T[: cuts[-1], :, None] - X_train.T[: cuts[-1], None, :]) ** 2  # (features, test, train)
    d2 = np.cumsum(np.add.reduceat(sq, np.concatenate([[0], cuts[:-1]]), axis=0), axis=0)[back]  # (ks, test, train)
    nearest = np.argmin(d2, axis=2)  # the first of equal distances, as scikit-learn's brute force
    return np.mean(y_train[nearest] == y_test[None, :], axis=1)


@validate_params(
    {
        "X": ["array-like"],
        "y": ["array-like"],
        "ks": ["array-like"],
        "n_splits": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_repeats": [Interval(numbers.Integral, 1, None, closed="left")],
    }
)
def selection_leakage(X, y, ks, *, model=None, n_splits=5, n_repeats=1, random_state=0) -> LeakageStudy:
    """Cross-validated accuracy of "keep the k features most related to y, then classify", done two ways.

    *leaky*: the k features are chosen once on all of ``X, y`` (the test folds took part in the choice), then
    cross-validated; *honest*: they are chosen again on each training fold only, exactly what
    ``cross_val_score(make_pipeline(SelectKBest(f_classif, k=k), model), X, y, cv=...)`` does.

    Parameters
    ----------
    X : (m, d) features; y : m class labels.
    ks : numbers of features to keep (each in 1..d).
    model : a scikit-learn classifier (cloned per fit), or None (default): the 1-nearest-neighbour rule of
        ``KNeighborsClassifier(n_neighbors=1)`` (the example of Hastie, Tibshirani & Friedman, *Elements of
        Statistical Learning*, §7.10.2), computed for all ``ks`` at once from cumulative squared distances over
        the ranked features (the tests check it equals scikit-learn's).
    n_splits, n_repeats, random_state : scikit-learn's ``RepeatedStratifiedKFold``.

    Returns a :class:`LeakageStudy`. On labels independent of ``X`` the honest accuracy is about the majority
    share; the leaky one can be near 1.

    >>> rng = np.random.default_rng(0)
    >>> st = selection_leakage(rng.normal(size=(40, 2000)), np.repeat([0, 1], 20), [50])
    >>> float(st.leaky[0]), float(st.honest[0])
    (0.95, 0.5)
    """
    check_labels(y, "y")
    from sklearn.base import clone, is_classifier
    from sklearn.model_selection import RepeatedStratifiedKFold

    X = as_finite_array(X, "X", ndim=2)
    y = as_1d_array(y, "y")
    check_consistent_length(X=X, y=y)
    if np.unique(y).size < 2:
        raise ValueError("y holds one class only: there is nothing to select features for")
    ks_arr = as_1d_array(ks, "ks")
    if ks_arr.dtype.kind not in "iu" or (ks_arr < 1).any() or (ks_arr > X.shape[1]).any():
        raise ValueError(
            f"ks must hold whole numbers of features in 1..{X.shape[1]} (X's columns), got {ks_arr.tolist()}"
        )
    ks_arr = ks_arr.astype(np.int64)
    if model is not None and (isinstance(model, type) or not is_classifier(model)):
        raise TypeError(
            f"model must be a scikit-learn classifier instance (e.g. KNeighborsClassifier()), got {model!r}"
        )
    n_splits = check_positive_int(n_splits, "n_splits", minimum=2)
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    cv = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats, random_state=random_state)
    k_max = int(ks_arr.max())
    everywhere = _top_features(X, y, k_max)
    leaky, honest = [], []
    for train, test in cv.split(X, y):
        inside = _top_features(X[train], y[train], k_max)
        for order, out in ((everywhere, leaky), (inside, honest)):
            if model is None:
                out.append(
                    _one_nn_accuracies(X[np.ix_(train, order)], y[train], X[np.ix_(test, order)], y[test], ks_arr)
                )
            else:
                out.append(
                    [
                        np.mean(
                            clone(model).fit(X[np.ix_(train, order[:k])], y[train]).predict(X[np.ix_(test, order[:k])])
                            == y[test]
                        )
                        for k in ks_arr
                    ]
                )
    lf, hf = np.array(leaky).T, np.array(honest).T
    return LeakageStudy(ks_arr, lf.mean(axis=1), hf.mean(axis=1), lf, hf)


@validate_params(
    {
        "proba": ["array-like", Interval(numbers.Real, 0, 1)],
        "shift": [Interval(numbers.Real, None, None)],
    }  # slope: inline, its message says why 0 is refused (every probability would map to one value)
)
def distort_probabilities(proba, *, slope=1.0, shift=0.0) -> np.ndarray:
    """Bend probabilities monotonically: expit(slope · logit(p) + shift) (SciPy's ``logit``/``expit``).

    ``slope`` > 1 makes them over-confident (pushed towards 0 and 1), 0 < ``slope`` < 1 under-confident; ``shift``
    adds a constant to the log-odds (moves every probability up or down). The order of the samples is kept
    (ties stay ties), so every ROC curve and AUC is unchanged, while calibration, Brier score and log loss change.
    0 and 1 stay 0 and 1.

    >>> distort_probabilities([0.0, 0.2, 0.5, 0.8, 1.0], slope=2.0).round(4).tolist()
    [0.0, 0.0588, 0.5, 0.9412, 1.0]
    """
    from scipy.special import expit, logit

    from ._validation import check_nonnegative, check_real

    p = as_finite_array(proba, "proba", ndim=None)
    if p.ndim > 1:  # predict_proba's two columns would each be bent and no longer sum to 1
        raise ValueError(
            f"proba must be the positive class's probabilities (a number or a 1-D array), got shape "
            f"{p.shape}; for predict_proba output pass its column [:, 1]"
        )
    if ((p < 0) | (p > 1)).any():
        raise ValueError("proba must hold probabilities in [0, 1]")
    slope = check_nonnegative(slope, "slope")
    if slope == 0:
        raise ValueError("slope must be > 0 (0 would map every probability to one value and lose the order)")
    shift = check_real(shift, "shift")
    with np.errstate(divide="ignore"):
        out = expit(slope * logit(p) + float(shift))
    return np.where((p == 0) | (p == 1), p, out)
