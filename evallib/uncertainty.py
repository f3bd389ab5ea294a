"""How sure is an estimate（估计的不确定性）: intervals around the book's point estimates. Beyond the book.

Taught in ``notebooks/12_how_sure.ipynb``. The book measures a test error rate (§2.2), an AUC (式(2.20)) and
tests hypotheses about them (§2.4); this module puts an interval around each number:

- :func:`error_rate_interval`: an error rate on m test samples is a binomial proportion (式(2.26)): Wilson,
  Clopper–Pearson (exact) and the normal (Wald) interval; :func:`interval_coverage` measures how often each
  really covers the truth.
- :func:`kfold_mean_interval`: a t interval for the mean of k cross-validation scores, naive or with
  Nadeau and Bengio's correction for the folds' shared training data (the corrected t-test of chapter 08).
- :func:`roc_auc_interval` and :func:`delong_test`: DeLong, DeLong & Clarke-Pearson (1988), from the
  structural components computed by sorting (O(N log N), no m⁺ × m⁻ matrix).
- :func:`bootstrap_632`: Efron's .632 and Efron & Tibshirani's (1997) .632+ estimates on the course's own
  :class:`evallib.splits.Bootstrap` samples.
- :func:`bootstrap_interval`: percentile or BCa bootstrap interval of any metric; the engine is
  ``scipy.stats.bootstrap`` (not rewritten here).

Every distribution and quantile comes from SciPy.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from ._results import Result
from ._validation import (
    Interval,
    Options,
    as_1d_array,
    as_finite_array,
    check_binary_labels,
    check_consistent_length,
    check_labels,
    check_positive_int,
    check_probability,
    check_random_state,
    validate_params,
)
from .compare import TestResult

__all__ = [
    "INTERVAL_METHODS",
    "ErrorRateInterval",
    "Coverage",
    "MeanInterval",
    "AUCInterval",
    "DeLongResult",
    "Bootstrap632Result",
    "BootstrapInterval",
    "error_rate_interval",
    "interval_coverage",
    "coverage_curve",
    "kfold_mean_interval",
    "structural_components",
    "roc_auc_interval",
    "delong_test",
    "bootstrap_632",
    "bootstrap_interval",
]

INTERVAL_METHODS = ("wilson", "clopper-pearson", "normal")


# ----------------------------------------------------------------------------------------------------
# Result objects
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class ErrorRateInterval(Result):
    """An interval for a generalisation error rate from ``n_errors`` mistakes on ``m`` test samples."""

    estimate: float
    low: float
    high: float
    method: str
    confidence: float
    n_errors: int
    m: int

    @property
    def width(self) -> float:
        return self.high - self.low


@dataclass(frozen=True, repr=False)
class Coverage(Result):
    """How often an interval method covers the true error rate ``error_rate`` on ``m`` test samples.

    ``exact`` sums the binomial probabilities of the counts whose interval covers the truth; ``simulated``
    is the fraction of ``n_trials`` simulated test sets whose interval does, ``stderr`` its standard error."""

    method: str
    m: int
    error_rate: float
    confidence: float
    exact: float
    simulated: float
    stderr: float
    n_trials: int


@dataclass(frozen=True, repr=False)
class MeanInterval(Result):
    """A t interval for the mean of k scores; ``variance_factor`` multiplies the sample variance σ²
    (1/k naive, 1/k + n_test/n_train corrected)."""

    estimate: float
    low: float
    high: float
    std: float
    k: int
    variance_factor: float
    confidence: float


@dataclass(frozen=True, repr=False)
class AUCInterval(Result):
    """DeLong's interval for the AUC: ``auc`` ± z·sqrt(``variance``), clipped to [0, 1]."""

    auc: float
    variance: float
    low: float
    high: float
    confidence: float
    n_pos: int
    n_neg: int


@dataclass(frozen=True, repr=False)
class DeLongResult(TestResult):
    """DeLong's test of H0: AUC_a = AUC_b for two scorers on the same samples. ``statistic`` is
    z = (auc_a − auc_b) / sqrt(var_a + var_b − 2 cov_ab); ``covariance`` the 2 × 2 DeLong covariance."""

    auc_a: float = 0.0
    auc_b: float = 0.0
    covariance: np.ndarray = field(default=None)


@dataclass(frozen=True, repr=False)
class Bootstrap632Result(Result):
    """The .632 / .632+ bootstrap estimate of the 0-1 loss and its ingredients (Efron & Tibshirani 1997)."""

    estimate: float
    method: str
    training_error: float
    oob_error: float
    no_information_rate: float
    relative_overfitting_rate: float
    weight: float
    n_repeats: int
    n_covered: int  # samples out of the bag at least once (the average of Err⁽¹⁾ runs over them)
    repeat_oob_error: float = 0.0  # chapter 02's out-of-bag estimate: the mean of the per-repeat OOB error rates


@dataclass(frozen=True, repr=False)
class BootstrapInterval(Result):
    """A bootstrap interval of a metric from ``scipy.stats.bootstrap``; ``standard_error`` is the standard
    deviation of the bootstrap distribution."""

    estimate: float
    low: float
    high: float
    method: str
    confidence: float
    standard_error: float
    n_resamples: int


# ----------------------------------------------------------------------------------------------------
# Validation helpers
# ----------------------------------------------------------------------------------------------------
_CONFIDENCE = [Interval(numbers.Real, 0, 1, closed="neither")]
_COUNT = [Interval(numbers.Integral, 0, None, closed="left")]
_AT_LEAST_1 = [Interval(numbers.Integral, 1, None, closed="left")]


def _check_confidence(confidence) -> float:
    return check_probability(confidence, "confidence", low_open=True, high_open=True)


def _check_method(method, options, name="method") -> str:
    if not isinstance(method, str) or method not in options:
        raise ValueError(f"{name} must be one of {options}, got {method!r}")
    return method


def _check_counts(n_errors, m) -> tuple[int, int]:
    m = check_positive_int(m, "m")
    n_errors = check_positive_int(n_errors, "n_errors", minimum=0)
    if n_errors > m:
        raise ValueError(f"n_errors={n_errors} is larger than m={m}: there are only m test samples")
    return n_errors, m


def _clean(x):
    """Plain float, no negative zero (printed outputs must not depend on the CPU)."""
    return np.asarray(x, dtype=float) + 0.0


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


# ----------------------------------------------------------------------------------------------------
# AUC: DeLong's structural components
# ----------------------------------------------------------------------------------------------------
def _pos_neg(y_true, scores, pos_label, name="scores"):
    s = as_finite_array(scores, name)
    check_consistent_length(y_true=y_true, **{name: s})
    pos = check_binary_labels(y_true, pos_label=pos_label)
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if n_pos < 2 or n_neg < 2:
        raise ValueError(
            f"y_true has {n_pos} positive(s) and {n_neg} negative(s); DeLong's variance needs at least 2 of "
            "each (a variance over one value is undefined)"
        )
    return s, pos


def _components(pos_scores, neg_scores):
    """Structural components by sorting: V10 for each positive, V01 for each negative (ties count ½).

    Both classes are sorted once and searched with sorted queries (a binary search with sorted needles walks
    memory in order: ~10x faster than with shuffled ones at 10^6 scores), then put back in the input order,
    so the components of two scorers on the same samples line up for the covariance."""
    ox, oy = np.argsort(pos_scores), np.argsort(neg_scores)
    xs, ys = pos_scores[ox], neg_scores[oy]
    v10, v01 = np.empty(xs.size), np.empty(ys.size)
    # negatives below x plus half the negatives equal to x: (#(< x) + #(<= x)) / 2
    v10[ox] = (np.searchsorted(ys, xs, "left") + np.searchsorted(ys, xs, "right")) / (2.0 * ys.size)
    # positives above y plus half the positives equal to y
    v01[oy] = 1.0 - (np.searchsorted(xs, ys, "left") + np.searchsorted(xs, ys, "right")) / (2.0 * xs.size)
    return v10, v01


@validate_params({"y_true": ["array-like"], "scores": ["array-like"], "pos_label": [None, "label"]})
def structural_components(y_true, scores, *, pos_label=None) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's structural components (DeLong et al. 1988): for each positive x_i,
    V10(x_i) = (1/m⁻) Σ_j ψ(x_i, y_j), and for each negative y_j, V01(y_j) = (1/m⁺) Σ_i ψ(x_i, y_j), with
    ψ = 1 when the positive scores higher, ½ on a tie, 0 otherwise. Both average to the AUC (式(2.22): 1 − ℓ_rank).

    Computed by sorting and binary search: O(N log N) time, O(N) memory, no m⁺ × m⁻ matrix.
    Returned in the order the positives and the negatives appear in ``y_true``.

    >>> v10, v01 = structural_components([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    >>> v10.tolist(), v01.tolist()
    ([1.0, 0.75], [0.75, 1.0])
    """
    s, pos = _pos_neg(y_true, scores, pos_label)
    return _components(s[pos], s[~pos])


def _delong_cov(pos, score_rows):
    """AUCs and DeLong covariance S10/m⁺ + S01/m⁻ for several score rows on the same samples."""
    v10, v01 = zip(*(_components(s[pos], s[~pos]) for s in score_rows))
    v10, v01 = np.array(v10), np.array(v01)
    aucs = v10.mean(axis=1)
    cov = np.atleast_2d(np.cov(v10)) / v10.shape[1] + np.atleast_2d(np.cov(v01)) / v01.shape[1]
    return aucs, cov


@validate_params(
    {"y_true": ["array-like"], "scores": ["array-like"], "confidence": _CONFIDENCE, "pos_label": [None, "label"]}
)
def roc_auc_interval(y_true, scores, *, confidence=0.95, pos_label=None) -> AUCInterval:
    """The AUC (式(2.20)) with DeLong's variance and a normal confidence interval (DeLong et al. 1988).

    Var(AUC) = S10/m⁺ + S01/m⁻, where S10 and S01 are the sample variances (ddof 1) of the structural
    components (:func:`structural_components`); the interval AUC ± z·sqrt(Var) is clipped to [0, 1].
    With perfectly separated classes every component is 1 and the variance 0: the interval is one point,
    which says more about the method than about the data (use :func:`bootstrap_interval` or more data).

    Example
    -------
    >>> r = roc_auc_interval([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.3, 0.2])
    >>> round(r.auc, 4), round(r.variance, 4), round(r.low, 3), round(r.high, 3)
    (0.8889, 0.0247, 0.581, 1.0)
    """
    s, pos = _pos_neg(y_true, scores, pos_label)
    confidence = _check_confidence(confidence)
    aucs, cov = _delong_cov(pos, [s])
    auc, var = float(aucs[0]), float(max(cov[0, 0], 0.0))
    half = float(stats.norm.isf((1 - confidence) / 2)) * np.sqrt(var)
    return AUCInterval(
        auc=auc,
        variance=var,
        low=float(_clean(max(auc - half, 0.0))),
        high=float(_clean(min(auc + half, 1.0))),
        confidence=confidence,
        n_pos=int(pos.sum()),
        n_neg=int((~pos).sum()),
    )


@validate_params(
    {
        "y_true": ["array-like"],
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "alpha": [Interval(numbers.Real, 0, 1, closed="neither")],
        "pos_label": [None, "label"],
    }
)
def delong_test(y_true, scores_a, scores_b, *, alpha=0.05, pos_label=None) -> DeLongResult:
    """DeLong's test of H0: AUC_a = AUC_b for two scorers on the same test samples (DeLong, DeLong &
    Clarke-Pearson 1988).

    The two AUCs are correlated (same samples); their 2 × 2 covariance is S10/m⁺ + S01/m⁻ from the
    structural components of both scorers. z = (auc_a − auc_b) / sqrt(var_a + var_b − 2 cov_ab) is standard
    normal under H0; the p-value is two-sided. Zero variance of the difference gives z = 0 (equal AUCs) or
    ±inf, never NaN.

    Example
    -------
    >>> y = [1, 1, 0, 1, 0, 0, 1, 0]
    >>> r = delong_test(y, [0.9, 0.8, 0.7, 0.6, 0.3, 0.2, 0.5, 0.4], [0.6, 0.9, 0.8, 0.4, 0.5, 0.1, 0.7, 0.3])
    >>> round(r.auc_a, 4), round(r.auc_b, 4), round(r.statistic, 3), round(r.pvalue, 3)
    (0.875, 0.75, 1.225, 0.221)
    """
    sa, pos = _pos_neg(y_true, scores_a, pos_label, "scores_a")
    sb = as_finite_array(scores_b, "scores_b")
    check_consistent_length(scores_a=sa, scores_b=sb)
    alpha = check_probability(alpha, "alpha", low_open=True, high_open=True)
    aucs, cov = _delong_cov(pos, [sa, sb])
    diff = float(aucs[0] - aucs[1])
    var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    if var > 1e-15 * max(1.0, cov[0, 0] + cov[1, 1]):
        z = diff / np.sqrt(var)
    else:
        z = 0.0 if diff == 0 else float(np.copysign(np.inf, diff))
    z = float(_clean(z))
    p = float(min(1.0, 2 * stats.norm.sf(abs(z))))
    crit = float(stats.norm.isf(alpha / 2))
    return DeLongResult(
        test="DeLong test (H0: AUC_a = AUC_b)",
        statistic=z,
        pvalue=p,
        df=None,
        alpha=alpha,
        critical_value=crit,
        reject=bool(abs(z) > crit),
        distribution="norm",
        auc_a=float(aucs[0]),
        auc_b=float(aucs[1]),
        covariance=_clean(cov),
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

    from .evaluation import _check_run, _take
    from .metrics import error_rate
    from .splits import Bootstrap

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
