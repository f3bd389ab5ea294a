"""Intervals for an error rate (normal, Wilson, Clopper–Pearson), their coverage, and the k-fold mean interval."""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .._validation import (
    Interval,
    Options,
    as_finite_array,
    check_positive_int,
    check_probability,
    check_random_state,
    validate_params,
)
from ._checks import (
    _AT_LEAST_1,
    _CONFIDENCE,
    _COUNT,
    INTERVAL_METHODS,
    _check_confidence,
    _check_counts,
    _check_method,
    _clean,
)
from ._results import (
    Coverage,
    ErrorRateInterval,
    MeanInterval,
)


# ----------------------------------------------------------------------------------------------------
# A binomial proportion: the test error rate (式(2.26))
# ----------------------------------------------------------------------------------------------------
def _bounds(k, m, confidence, method):
    """Vectorised (low, high) for counts ``k`` (array) out of ``m``; every quantile from SciPy."""
    k = np.asarray(k, dtype=float)
    p = k / m
    alpha = 1.0 - confidence
    z = stats.norm.isf(alpha / 2)
    if method == "normal":
        half = z * np.sqrt(p * (1 - p) / m)
        lo, hi = p - half, p + half
    elif method == "wilson":
        denom = 1 + z**2 / m
        centre = (p + z**2 / (2 * m)) / denom
        half = z / denom * np.sqrt(p * (1 - p) / m + z**2 / (4 * m**2))
        lo = np.where(k == 0, 0.0, centre - half)  # exactly 0 and 1 at the ends (not 1e-17 off)
        hi = np.where(k == m, 1.0, centre + half)
    else:  # clopper-pearson: quantiles of Beta distributions, the exact inversion of the binomial test
        with np.errstate(invalid="ignore"):
            lo = np.where(k > 0, stats.beta.ppf(alpha / 2, np.maximum(k, 1), m - k + 1), 0.0)
            hi = np.where(k < m, stats.beta.isf(alpha / 2, k + 1, np.maximum(m - k, 1)), 1.0)
    return _clean(np.clip(lo, 0.0, 1.0)), _clean(np.clip(hi, 0.0, 1.0))


@validate_params(
    {"n_errors": _COUNT, "m": _AT_LEAST_1, "confidence": _CONFIDENCE, "method": [Options(*INTERVAL_METHODS)]}
)
def error_rate_interval(n_errors, m, *, confidence=0.95, method="wilson") -> ErrorRateInterval:
    """Confidence interval for the generalisation error ε from ``n_errors`` mistakes on ``m`` test samples.

    The count of mistakes is Binomial(m, ε) (式(2.26)), so the test error rate ε̂ = n_errors / m is a binomial
    proportion. With z = Φ⁻¹(1 − α/2), α = 1 − ``confidence``:

    - ``"normal"`` (Wald): ε̂ ± z·sqrt(ε̂(1 − ε̂)/m). Zero width at 0 or m errors: it fails near 0 and 1.
    - ``"wilson"``: the ε whose score test |ε̂ − ε| ≤ z·sqrt(ε(1 − ε)/m) accepts, centred at
      (ε̂ + z²/2m)/(1 + z²/m).
    - ``"clopper-pearson"`` (exact): the ε the two one-sided binomial tests of chapter 08 (式(2.27)) do not
      reject at α/2; its ends are Beta quantiles. Covers at least ``confidence`` for every ε.

    Bounds are clipped to [0, 1] (as statsmodels' ``proportion_confint`` does; it is the test oracle, with
    methods "normal", "wilson" and "beta").

    Example
    -------
    >>> r = error_rate_interval(3, 20)
    >>> r.estimate, round(r.low, 4), round(r.high, 4)
    (0.15, 0.0524, 0.3604)
    """
    n_errors, m = _check_counts(n_errors, m)
    confidence = _check_confidence(confidence)
    method = _check_method(method, INTERVAL_METHODS)
    lo, hi = _bounds(n_errors, m, confidence, method)
    return ErrorRateInterval(
        estimate=n_errors / m,
        low=float(lo),
        high=float(hi),
        method=method,
        confidence=confidence,
        n_errors=n_errors,
        m=m,
    )


@validate_params(
    {
        "m": _AT_LEAST_1,
        "error_rate": [Interval(numbers.Real, 0, 1)],
        "confidence": _CONFIDENCE,
        "method": [Options(*INTERVAL_METHODS)],
        "n_trials": _AT_LEAST_1,
        "random_state": ["random_state"],
    }
)
def interval_coverage(
    m, error_rate, *, confidence=0.95, method="wilson", n_trials=10_000, random_state=None
) -> Coverage:
    """The real coverage of an interval method for a true error rate ``error_rate`` on ``m`` test samples.

    ``exact`` = Σ_k P(X = k) · [low(k) ≤ ε ≤ high(k)] over X ~ Binomial(m, ε); ``simulated`` draws
    ``n_trials`` test sets (their error counts) and counts how many intervals cover ε. The two agree within
    the simulation's standard error; a method is honest when both are near ``confidence``.

    Example
    -------
    >>> c = interval_coverage(20, 0.05, method="normal", random_state=0)
    >>> round(c.exact, 4)
    0.6389
    """
    m = check_positive_int(m, "m")
    eps = check_probability(error_rate, "error_rate")
    confidence = _check_confidence(confidence)
    method = _check_method(method, INTERVAL_METHODS)
    n_trials = check_positive_int(n_trials, "n_trials")
    rng = check_random_state(random_state)
    k = np.arange(m + 1)
    lo, hi = _bounds(k, m, confidence, method)
    covers = (lo <= eps) & (eps <= hi)
    exact = float(stats.binom.pmf(k, m, eps)[covers].sum())
    draws = rng.binomial(m, eps, size=n_trials)
    sim = float(covers[draws].mean())
    return Coverage(
        method=method,
        m=m,
        error_rate=eps,
        confidence=confidence,
        exact=min(exact, 1.0),
        simulated=sim,
        stderr=float(np.sqrt(sim * (1 - sim) / n_trials)),
        n_trials=n_trials,
    )


@validate_params(
    {"m": _AT_LEAST_1, "error_rates": ["array-like"], "confidence": _CONFIDENCE, "method": [Options(*INTERVAL_METHODS)]}
)
def coverage_curve(m, error_rates, *, confidence=0.95, method="wilson") -> np.ndarray:
    """Exact coverage (see :func:`interval_coverage`) for each true error rate in ``error_rates``.

    Both ends of every method's interval grow with the count k, so the counts whose interval covers ε form
    one run b..a, and the coverage is a difference of two binomial CDFs (not a sum over all m + 1 counts).
    """
    m = check_positive_int(m, "m")
    eps = as_finite_array(error_rates, "error_rates")
    if eps.min() < 0 or eps.max() > 1:
        raise ValueError("error_rates must lie in [0, 1]")
    confidence = _check_confidence(confidence)
    method = _check_method(method, INTERVAL_METHODS)
    k = np.arange(m + 1)
    lo, hi = _bounds(k, m, confidence, method)
    if np.all(np.diff(lo) >= 0) and np.all(np.diff(hi) >= 0):
        a = np.searchsorted(lo, eps, "right") - 1  # last count whose low end is <= eps
        b = np.searchsorted(hi, eps, "left")  # first count whose high end is >= eps
        cov = np.where(a >= b, stats.binom.cdf(a, m, eps) - stats.binom.cdf(b - 1, m, eps), 0.0)
    else:  # not reached for the three methods here; kept so a new method cannot give a wrong curve
        covers = (lo[None, :] <= eps[:, None]) & (eps[:, None] <= hi[None, :])
        cov = (stats.binom.pmf(k[None, :], m, eps[:, None]) * covers).sum(axis=1)
    return np.clip(cov, 0.0, 1.0) + 0.0


# ----------------------------------------------------------------------------------------------------
# The mean of k cross-validation scores
# ----------------------------------------------------------------------------------------------------
@validate_params(
    {
        "scores": ["array-like"],
        "confidence": _CONFIDENCE,
        "test_train_ratio": [Interval(numbers.Real, 0, None, closed="left")],
    }
)
def kfold_mean_interval(scores, *, confidence=0.95, test_train_ratio=0.0) -> MeanInterval:
    """t interval for the mean of k scores (e.g. the k fold error rates of cross-validation).

    mean ± t_{1−α/2, k−1} · σ · sqrt(1/k + ``test_train_ratio``), σ the sample standard deviation (ddof 1).
    ``test_train_ratio=0`` is the naive interval, which treats the k scores as independent; they are not
    (the training sets share (k − 2)/(k − 1) of their samples). Nadeau and Bengio (2003) inflate the variance
    by n_test/n_train (= 1/(k − 1) for k-fold CV): the interval that inverts
    :func:`evallib.compare.corrected_resampled_ttest` (chapter 08).

    Example
    -------
    >>> r = kfold_mean_interval([0.10, 0.12, 0.08, 0.11, 0.09], test_train_ratio=0.25)
    >>> round(r.estimate, 3), round(r.low, 4), round(r.high, 4)
    (0.1, 0.0706, 0.1294)
    """
    x = as_finite_array(scores, "scores")
    if x.size < 2:
        raise ValueError(f"scores has {x.size} value; an interval for a mean needs at least 2")
    confidence = _check_confidence(confidence)
    k = x.size
    mean = float(x[0]) if np.ptp(x) == 0 else float(x.mean())
    sd = 0.0 if np.ptp(x) == 0 else float(x.std(ddof=1))
    factor = 1.0 / k + float(test_train_ratio)
    half = float(stats.t.isf((1 - confidence) / 2, k - 1)) * sd * np.sqrt(factor)
    return MeanInterval(
        estimate=mean,
        low=float(_clean(mean - half)),
        high=float(_clean(mean + half)),
        std=sd,
        k=k,
        variance_factor=factor,
        confidence=confidence,
    )
