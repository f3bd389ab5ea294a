"""Running a learner over a splitter: one score per split (西瓜书 §2.2).

Taught in ``notebooks/02_evaluation_methods.ipynb``.
"""
from __future__ import annotations

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone

from ._validation import check_consistent_length, num_samples
from .metrics import error_rate

__all__ = ["evaluate"]

_RESPONSES = ("predict", "predict_proba", "decision_function")


def _fit_and_score(model, X, y, train, test, metric, response):
    est = clone(model)
    est.fit(_take(X, train), _take(y, train))
    out = getattr(est, response)(_take(X, test))
    if response == "predict_proba":
        out = out[:, 1]  # score of the positive (second) class
    return metric(_take(y, test), out)


def _take(a, idx):
    return a.iloc[idx] if hasattr(a, "iloc") else a[idx]


def evaluate(model, X, y, splitter, metric=error_rate, *, response="predict", n_jobs=None) -> np.ndarray:
    """Score a fresh clone of ``model`` on every split of ``splitter``: one value per split.

    For each ``(train, test)`` the estimator is cloned (so no state leaks between splits), fitted on the
    training part and scored with ``metric(y_test, output)`` on the test part. Hold-out repeats, k × p
    cross-validation folds and bootstrap out-of-bag estimates (西瓜书 §2.2.1–2.2.3) are all this loop.

    Parameters
    ----------
    model : scikit-learn estimator (anything with ``fit`` and the method named by ``response``).
    X, y : data with the same number of samples.
    splitter : an evallib or scikit-learn splitter (``split(X, y)``) or an iterable of (train, test) pairs.
    metric : callable ``(y_true, y_pred_or_scores) -> float``; default :func:`evallib.metrics.error_rate`.
    response : "predict" (labels), "predict_proba" (positive-class probability) or "decision_function".
    n_jobs : joblib's ``n_jobs``: None runs splits one after another, -1 uses every core. Any joblib
        backend works, e.g. ``with joblib.parallel_config(backend="dask"):`` runs them on a Dask cluster.

    Returns
    -------
    numpy.ndarray of floats, one per split, in the splitter's order.

    Example
    -------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from evallib.splits import KFold
    >>> X, y = np.arange(20.0).reshape(-1, 1), np.repeat([0, 1], 10)
    >>> evaluate(DecisionTreeClassifier(), X, y, KFold(5, random_state=0)).tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0]
    """
    if not (hasattr(model, "fit") and hasattr(model, "get_params")):
        raise TypeError(f"model must be a scikit-learn estimator with fit/get_params, got {type(model).__name__}")
    if response not in _RESPONSES:
        raise ValueError(f"response must be one of {_RESPONSES}, got {response!r}")
    if not hasattr(model, response):
        raise TypeError(f"model {type(model).__name__} has no method {response}()")
    if not callable(metric):
        raise TypeError(f"metric must be callable as metric(y_true, y_pred), got {type(metric).__name__}")
    m = check_consistent_length(X=X, y=y)
    if m == 0:
        raise ValueError("X is empty: a data set with at least one sample is needed")
    if hasattr(X, "ndim") and X.ndim != 2:
        raise ValueError(f"X must be 2-D (samples × features), got shape {X.shape}")
    X = X if hasattr(X, "iloc") else np.asarray(X)
    y = y if hasattr(y, "iloc") else np.asarray(y)
    if hasattr(splitter, "split"):
        splits = list(splitter.split(X, y))
    else:
        try:
            splits = list(splitter)
        except TypeError:
            raise TypeError(
                f"splitter must have a split(X, y) method or be an iterable of (train, test), got {type(splitter).__name__}"
            ) from None
    if not splits:
        raise ValueError("splitter produced no splits")
    for train, test in splits:
        if len(train) == 0 or len(test) == 0:
            raise ValueError("splitter produced an empty training or test set")
        if max(np.max(train), np.max(test)) >= num_samples(X):
            raise ValueError("splitter produced an index beyond the number of samples")
    scores = Parallel(n_jobs=n_jobs)(
        delayed(_fit_and_score)(model, X, y, train, test, metric, response) for train, test in splits
    )
    return np.asarray(scores, dtype=float)
