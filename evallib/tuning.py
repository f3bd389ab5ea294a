"""Tuning a learner and estimating the tuned procedure honestly (调参与最终模型, 西瓜书 §2.2.4): the winner's own
cross-validated score next to the nested cross-validation estimate. Chapter 03 runs the coin-flip study below
and chapter 14 reuses its result through the same call (a number is computed where it is shown, never copied)."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from ._results import Result
from ._validation import Interval, check_positive_int, check_probability, check_random_state, validate_params

__all__ = [
    "NestedTuning",
    "COIN_FLIP_GRID",
    "expected_best_accuracy",
    "make_coin_flips",
    "nested_tuning",
    "coin_flip_tuning",
]

# Chapter 03's grid: max_depth x min_weight_fraction_leaf on the notes' range [0, 0.2] with step 0.05 (25 trees).
COIN_FLIP_GRID = {"max_depth": [1, 2, 3, 4, None], "min_weight_fraction_leaf": np.linspace(0.0, 0.2, 5).tolist()}


@dataclass(frozen=True, repr=False)
class NestedTuning(Result):
    """A grid search's winner and its own (non-nested) CV score, next to the nested CV estimate of the procedure."""

    best_score: float  # the winner's inner cross-validated score on all the data (optimistic)
    best_params: dict
    nested_scores: np.ndarray  # one score per outer fold, each from a search that never saw that fold
    nested_mean: float
    nested_se: float  # standard error of nested_mean: std(ddof=1) / sqrt(number of outer folds)


@validate_params(
    {
        "n_samples": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_features": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }
)
def make_coin_flips(n_samples=300, n_features=5, *, random_state=1):
    """X (standard normal features) and y (fair coin flips, independent of X): every model's true accuracy is 0.5.

    >>> X, y = make_coin_flips(10, 2, random_state=0); X.shape, sorted(set(y.tolist())) <= [0, 1]
    ((10, 2), True)
    """
    n = check_positive_int(n_samples, "n_samples", minimum=2)
    p = check_positive_int(n_features, "n_features")
    rng = check_random_state(random_state)
    return rng.normal(size=(n, p)), rng.integers(0, 2, size=n)


@validate_params({"param_grid": [dict], "X": ["array-like"], "y": ["array-like"]})
def nested_tuning(estimator, param_grid, X, y, *, inner_cv, outer_cv) -> NestedTuning:
    """``GridSearchCV(estimator, param_grid, cv=inner_cv)`` fitted on all of (X, y) (its ``best_score_``) and scored
    by ``cross_val_score`` over ``outer_cv`` (nested cross-validation).

    >>> from sklearn.tree import DecisionTreeClassifier; from evallib.splits import KFold
    >>> X, y = make_coin_flips(60, 2, random_state=0)
    >>> r = nested_tuning(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, X, y,
    ...                   inner_cv=KFold(3, random_state=1), outer_cv=KFold(3, random_state=2))
    >>> len(r.nested_scores)
    3
    """
    from sklearn.base import clone
    from sklearn.model_selection import GridSearchCV, cross_val_score

    if not hasattr(estimator, "fit"):  # (scikit-learn's is_classifier raises AttributeError on a non-estimator)
        raise TypeError(f"estimator must be a scikit-learn estimator, got {type(estimator).__name__}")
    if not param_grid:
        raise TypeError(f"param_grid must be a non-empty dict of parameter lists, got {param_grid!r}")
    for name, cv in (("inner_cv", inner_cv), ("outer_cv", outer_cv)):
        if not hasattr(cv, "split"):
            raise TypeError(f"{name} must be a splitter with a split() method, got {type(cv).__name__}")
    search = GridSearchCV(clone(estimator), param_grid, cv=inner_cv)
    nested = cross_val_score(search, X, y, cv=outer_cv)
    search.fit(X, y)
    se = float(nested.std(ddof=1) / np.sqrt(len(nested))) if len(nested) > 1 else float("inf")
    return NestedTuning(
        best_score=float(search.best_score_),
        best_params=dict(search.best_params_),
        nested_scores=nested,
        nested_mean=float(nested.mean()),
        nested_se=se,
    )


@validate_params({"random_state": ["random_state"]})
def coin_flip_tuning(*, random_state=1) -> NestedTuning:
    """Chapter 03's selection-bias study: 25 decision trees (``COIN_FLIP_GRID``) searched by 5-fold CV on 300
    coin-flip samples with 5 features (``make_coin_flips``), nested in a 5-fold outer CV. True accuracy 0.5.

    >>> r = coin_flip_tuning(); r.best_score > r.nested_mean
    True
    """
    from sklearn.tree import DecisionTreeClassifier

    from .splits import KFold

    X, y = make_coin_flips(300, 5, random_state=random_state)
    return nested_tuning(
        DecisionTreeClassifier(random_state=0),
        COIN_FLIP_GRID,
        X,
        y,
        inner_cv=KFold(5, random_state=1),
        outer_cv=KFold(5, random_state=2),
    )


# ------------------------------------------------------------------- selection bias of tuning (notebook 03)
@validate_params(
    {
        "n_candidates": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_val": [Interval(numbers.Integral, 1, None, closed="left")],
        "accuracy": [Interval(numbers.Real, 0, 1)],
    }
)
def expected_best_accuracy(n_candidates, n_val, accuracy) -> float:
    """Expected validation accuracy of the *winner* among ``n_candidates`` equally good configurations.

    Each candidate's validation accuracy is Binomial(n_val, accuracy) / n_val (independent validation errors);
    the tuned model reports the largest. Its expectation exceeds ``accuracy`` although no candidate is better:
    the selection bias (winner's curse) of a tuned model's validation score (调参, 西瓜书 §2.2.4;
    ``notebooks/03_tuning_and_final_model.ipynb``). Exact, from the binomial CDF (SciPy):
    P(max <= t) = F(t)^k.

    >>> round(expected_best_accuracy(1, 100, 0.9), 10)
    0.9
    >>> expected_best_accuracy(25, 100, 0.9) > 0.93
    True
    """
    from scipy import stats

    k = check_positive_int(n_candidates, "n_candidates")
    m = check_positive_int(n_val, "n_val")
    p = check_probability(accuracy, "accuracy")
    if k == 1:
        return float(p)  # E[Binomial(m, p) / m] = p exactly (no rounding residue to print as -0.0000)
    # E[max] = sum_t P(max > t) = sum_t (1 - F(t)^k); math.fsum is exactly rounded, so the result does not
    # depend on a BLAS kernel's summation order (the value is the same on every CPU).
    F = stats.binom.cdf(np.arange(m), m, p)
    return math.fsum(1.0 - F**k) / m
