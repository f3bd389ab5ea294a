"""DeLong's AUC variance, interval and test for two correlated ROC curves."""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .._validation import (
    Interval,
    as_finite_array,
    check_binary_labels,
    check_consistent_length,
    check_probability,
    validate_params,
)
from ._checks import _CONFIDENCE, _check_confidence, _clean
from ._results import (
    AUCInterval,
    DeLongResult,
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
