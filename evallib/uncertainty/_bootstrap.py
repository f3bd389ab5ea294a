"""The .632 / .632+ bootstrap error estimate and bootstrap confidence intervals."""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .._validation import (
    Interval,
    Options,
    as_1d_array,
    check_consistent_length,
    check_labels,
    check_positive_int,
    check_random_state,
    validate_params,
)
from ._checks import _AT_LEAST_1, _CONFIDENCE, _check_confidence, _check_method, _clean
from ._results import (
    Bootstrap632Result,
    BootstrapInterval,
)

# ----------------------------------------------------------------------------------------------------
# .632 and .632+ bootstrap (Efron 1983; Efron & Tibshirani 1997)
# ----------------------------------------------------------------------------------------------------
BOOTSTRAP_632_METHODS = (".632", ".632+")


@validate_params(
    {
        "X": ["array-like"],
        "y": ["array-like"],
        "n_repeats": _AT_LEAST_1,
        "method": [Options(*BOOTSTRAP_632_METHODS)],
        "random_state": ["random_state"],
    }
)
def bootstrap_632(model, X, y, *, n_repeats=200, method=".632+", random_state=None) -> Bootstrap632Result:
    """The .632 or .632+ bootstrap estimate of a classifier's error rate (0-1 loss).

    On the bootstrap samples of ``evallib.splits.Bootstrap(n_repeats, random_state=random_state)`` (§2.2.3):

    - err, ``training_error``: a clone fitted on all of D, scored on D (the apparent error);
    - Err⁽¹⁾, ``oob_error``: each sample's error averaged over the bootstrap models that did not train on it,
      then averaged over the samples that were out of the bag at least once (leave-one-out bootstrap);
    - γ, ``no_information_rate`` = Σ_k p_k (1 − q_k): p_k the share of class k in y, q_k the share of
      predictions k of the full-data model; the error if inputs and labels were unrelated;
    - R, ``relative_overfitting_rate`` = (Err⁽¹⁾' − err)/(γ − err) with Err⁽¹⁾' = min(Err⁽¹⁾, γ), 0 when
      Err⁽¹⁾ ≤ err or γ ≤ err, clipped to [0, 1];
    - ``weight`` w: 0.632 for ".632"; 0.632 / (1 − 0.368 R) for ".632+";
    - ``estimate`` = (1 − w)·err + w·Err⁽¹⁾ (".632") or (1 − w)·err + w·Err⁽¹⁾' (".632+");
    - ``repeat_oob_error``: chapter 02's out-of-bag estimate (包外估计), the mean of the per-repeat error rates.

    .632 is biased down for learners that overfit (err = 0: 1-NN, deep trees); .632+ moves the weight towards
    Err⁽¹⁾ by how much the learner overfits.

    Example
    -------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = np.r_[np.zeros(10), np.ones(10)][:, None] + np.arange(20)[:, None] % 3, np.r_[[0] * 10, [1] * 10]
    >>> r = bootstrap_632(DecisionTreeClassifier(random_state=0), X, y, n_repeats=20, random_state=0)
    >>> r.training_error, r.method
    (0.3, '.632+')
    """
    check_labels(y, "y")
    from sklearn.base import clone

    from ..evaluation import _check_run, _take
    from ..metrics import error_rate
    from ..splits import Bootstrap

    n_repeats = check_positive_int(n_repeats, "n_repeats")
    method = _check_method(method, BOOTSTRAP_632_METHODS)
    check_random_state(random_state)
    yy = y.to_numpy() if hasattr(y, "to_numpy") else y
    y_arr = as_1d_array(yy, "y")
    if y_arr.dtype.kind == "f" and not np.isfinite(y_arr).all():
        raise ValueError("y contains NaN or inf; labels must be finite")
    X, y, splits = _check_run(model, X, y, Bootstrap(n_repeats, random_state=random_state), error_rate, "predict")
    m = y_arr.size
    wrong = np.zeros(m)
    times_out = np.zeros(m)
    per_repeat = np.empty(len(splits))
    for r, (train, test) in enumerate(splits):
        miss = np.asarray(clone(model).fit(_take(X, train), _take(y, train)).predict(_take(X, test))) != y_arr[test]
        wrong[test] += miss
        times_out[test] += 1
        per_repeat[r] = miss.mean()
    covered = times_out > 0
    err1 = float(np.mean(wrong[covered] / times_out[covered]))
    pred_all = np.asarray(clone(model).fit(X, y).predict(X))
    err = float(np.mean(pred_all != y_arr))
    classes = np.unique(np.concatenate([y_arr, pred_all]))
    p = (y_arr[:, None] == classes[None, :]).mean(axis=0)
    q = (pred_all[:, None] == classes[None, :]).mean(axis=0)
    gamma = float(np.sum(p * (1 - q)))
    err1_capped = min(err1, gamma)
    R = (err1_capped - err) / (gamma - err) if (err1 > err and gamma > err) else 0.0
    R = float(np.clip(R, 0.0, 1.0))
    if method == ".632":
        w, estimate = 0.632, 0.368 * err + 0.632 * err1
    else:
        w = 0.632 / (1 - 0.368 * R)
        estimate = (1 - w) * err + w * err1_capped
    return Bootstrap632Result(
        estimate=float(estimate),
        method=method,
        training_error=err,
        oob_error=err1,
        no_information_rate=gamma,
        relative_overfitting_rate=R,
        weight=float(w),
        n_repeats=n_repeats,
        n_covered=int(covered.sum()),
        repeat_oob_error=float(per_repeat.mean()),
    )


# ----------------------------------------------------------------------------------------------------
# Bootstrap interval of any metric: scipy.stats.bootstrap
# ----------------------------------------------------------------------------------------------------
BOOTSTRAP_INTERVAL_METHODS = ("percentile", "BCa", "basic")


@validate_params(
    {
        "metric": ["callable"],
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "confidence": _CONFIDENCE,
        "method": [Options(*BOOTSTRAP_INTERVAL_METHODS)],
        "n_resamples": [Interval(numbers.Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
    }
)
def bootstrap_interval(
    metric, y_true, y_pred, *, confidence=0.95, method="BCa", n_resamples=2000, random_state=None
) -> BootstrapInterval:
    """Bootstrap confidence interval of ``metric(y_true, y_pred)`` by resampling test samples in pairs.

    A thin, validated wrapper of ``scipy.stats.bootstrap(..., paired=True, vectorized=False)``: the
    ``method`` is SciPy's ("percentile", "BCa" or "basic"). Works for any metric (AUC, F1, error rate).
    A resample that leaves one class out makes some metrics (AUC) undefined: the metric's error is raised,
    naming ``y_true``; on small test sets prefer DeLong's interval (:func:`roc_auc_interval`).

    Example
    -------
    >>> from evallib.metrics import error_rate
    >>> y = np.r_[np.zeros(30), np.ones(30)]; p = y.copy(); p[:6] = 1
    >>> r = bootstrap_interval(error_rate, y, p, method="percentile", n_resamples=999, random_state=0)
    >>> r.estimate, r.low < 0.1 < r.high
    (0.1, True)
    """
    if not callable(metric):
        raise TypeError(f"metric must be callable as metric(y_true, y_pred), got {type(metric).__name__}")
    yt = as_1d_array(y_true, "y_true")
    yp = as_1d_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    if yt.size < 2:
        raise ValueError(f"y_true has {yt.size} sample; the bootstrap needs at least 2")
    confidence = _check_confidence(confidence)
    method = _check_method(method, BOOTSTRAP_INTERVAL_METHODS)
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    rng = check_random_state(random_state)
    estimate = float(metric(yt, yp))
    res = stats.bootstrap(
        (yt, yp),
        lambda a, b: metric(a, b),
        paired=True,
        vectorized=False,
        confidence_level=confidence,
        n_resamples=n_resamples,
        method=method,
        rng=rng,
    )
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return BootstrapInterval(
        estimate=estimate,
        low=float(_clean(lo)),
        high=float(_clean(hi)),
        method=method,
        confidence=confidence,
        standard_error=float(res.standard_error),
        n_resamples=n_resamples,
    )
