"""The book's tests on one or two learners (西瓜书 §2.4.1-2.4.3): binomial, t, 5×2cv, McNemar."""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .._validation import (
    Interval,
    Options,
    as_1d_array,
    as_finite_array,
    check_bool,
    check_consistent_length,
    check_label_types,
    check_positive_int,
    check_probability,
    validate_params,
)
from ._checks import (
    ALPHA,
    COUNT,
    PROBABILITY,
    _check_alpha,
    _check_count,
    _check_rates,
    _mean_std,
    _t_from_mean_std,
    _two_sided_t,
)
from ._results import BinomialTestResult, McNemarResult, TestResult, TTestResult


# ----------------------------------------------------------------------------------------------------
# One learner, one data set: binomial test and t-test (§2.4.1)
# ----------------------------------------------------------------------------------------------------
@validate_params({"m": [Interval(numbers.Integral, 1, None, closed="left")], "eps0": PROBABILITY, "alpha": ALPHA})
def binomial_critical_count(m, eps0, alpha=0.05) -> int:
    """The critical error count C: the smallest c with P(X > c | ε0) < α for X ~ Binomial(m, ε0).

    This is the corrected, explicit form of 式(2.27): ε̄ = C / m, and H0 (ε ≤ ε0) is rejected when more
    than C of the m test samples are misclassified.

    >>> binomial_critical_count(10, 0.3)
    5
    """
    m = check_positive_int(m, "m")
    eps0 = check_probability(eps0, "eps0")
    alpha = _check_alpha(alpha)
    c = np.arange(m + 1)
    tail = stats.binom.sf(c, m, eps0)  # P(X > c)
    return int(np.flatnonzero(tail < alpha)[0])  # tail[m] = 0 < alpha, so one always exists


@validate_params(
    {"n_errors": COUNT, "m": [Interval(numbers.Integral, 1, None, closed="left")], "eps0": PROBABILITY, "alpha": ALPHA}
)
def binomial_test(n_errors, m, eps0, alpha=0.05) -> BinomialTestResult:
    """Binomial test of H0: ε ≤ ε0 from ``n_errors`` mistakes on ``m`` test samples (西瓜书 式(2.26)–(2.27)).

    Under H0 (at its boundary ε = ε0) the number of errors is Binomial(m, ε0). The critical error rate
    ε̄ = C / m uses the smallest count C with P(X > C) < α; H0 is rejected when ε̂ = n_errors / m > ε̄,
    which is the same as p = P(X ≥ n_errors | ε0) < α. The p-value agrees with
    ``scipy.stats.binomtest(n_errors, m, eps0, alternative="greater")``.

    Parameters
    ----------
    n_errors : int, 0 <= n_errors <= m.
    m : int, the number of test samples.
    eps0 : float in [0, 1], the error rate H0 allows.
    alpha : float in (0, 1), the significance level.

    Example
    -------
    >>> r = binomial_test(6, 10, 0.3)
    >>> r.critical_value, r.reject, round(r.pvalue, 4)
    (0.5, True, 0.0473)
    """
    n_errors = _check_count(n_errors, "n_errors")
    m = check_positive_int(m, "m")
    if n_errors > m:
        raise ValueError(f"n_errors={n_errors} is larger than m={m}: there are only m test samples")
    eps0 = check_probability(eps0, "eps0")
    alpha = _check_alpha(alpha)
    c = binomial_critical_count(m, eps0, alpha)
    p = float(stats.binom.sf(n_errors - 1, m, eps0)) if n_errors > 0 else 1.0
    return BinomialTestResult(
        test="binomial test (H0: eps <= eps0)",
        statistic=n_errors / m,
        pvalue=p,
        df=None,
        alpha=alpha,
        critical_value=c / m,
        reject=bool(n_errors > c),
        distribution="binom",
        n_errors=n_errors,
        m=m,
        eps0=eps0,
        critical_count=c,
    )


@validate_params({"error_rates": ["array-like"], "eps0": PROBABILITY, "alpha": ALPHA})
def ttest(error_rates, eps0, alpha=0.05) -> TTestResult:
    """Two-sided one-sample t-test of H0: ε = ε0 from k test error rates (西瓜书 式(2.30)).

    μ and σ² are the mean and the sample variance of the k rates (式(2.28)–(2.29)).

    τ_t = √k (μ - ε0) / σ follows a t distribution with k - 1 degrees of freedom (σ: sample standard
    deviation, ddof = 1). Reject when |τ_t| > t_{α/2, k-1}. Agrees with ``scipy.stats.ttest_1samp``.
    With zero spread the statistic is 0 (all rates equal ε0) or ±inf, never NaN.

    Example
    -------
    >>> r = ttest([0.2, 0.25, 0.3, 0.22, 0.28], 0.2)
    >>> round(r.statistic, 3), r.df, r.reject
    (2.712, 4, False)
    """
    x = _check_rates(error_rates, "error_rates")
    if x.size < 2:
        raise ValueError(f"error_rates has {x.size} value; a t-test needs at least 2")
    eps0 = check_probability(eps0, "eps0")
    alpha = _check_alpha(alpha)
    k = x.size
    mu, sd = _mean_std(x)
    t = _t_from_mean_std(mu - eps0, sd, 1 / np.sqrt(k))
    return _two_sided_t(t, k - 1, alpha, "one-sample t-test", mu, sd, k)


def _paired_diffs(a, b, name_a: str, name_b: str) -> np.ndarray:
    a = as_finite_array(a, name_a)
    b = as_finite_array(b, name_b)
    check_consistent_length(**{name_a: a, name_b: b})
    if a.size < 2:
        raise ValueError(f"{name_a} has {a.size} value; a paired t-test needs at least 2 pairs")
    return a - b


@validate_params({"errors_a": ["array-like"], "errors_b": ["array-like"], "alpha": ALPHA})
def paired_ttest(errors_a, errors_b, alpha=0.05) -> TTestResult:
    """k-fold cross-validated paired t-test of H0: A and B perform the same (西瓜书 式(2.31)).

    Δ_i = errors_a[i] - errors_b[i] (the same fold for both learners); τ_t = √k μ / σ with k - 1 degrees
    of freedom. The book writes |τ_t|; ``statistic`` keeps the sign (negative: A has the lower error),
    as ``scipy.stats.ttest_rel`` does, and the decision uses |τ_t|.

    Example
    -------
    >>> r = paired_ttest([0.10, 0.12, 0.08, 0.11], [0.14, 0.15, 0.13, 0.12])
    >>> round(r.statistic, 3), r.reject
    (-3.806, True)
    """
    d = _paired_diffs(errors_a, errors_b, "errors_a", "errors_b")
    alpha = _check_alpha(alpha)
    k = d.size
    mu, sd = _mean_std(d)
    t = _t_from_mean_std(mu, sd, 1 / np.sqrt(k))
    return _two_sided_t(t, k - 1, alpha, "paired t-test", mu, sd, k)


def _check_5x2(diffs) -> tuple[np.ndarray, np.ndarray]:
    d = as_finite_array(diffs, "diffs", ndim=None)
    if d.shape != (5, 2):
        raise ValueError(f"diffs must have shape (5, 2): 5 replicates of 2-fold cross-validation, got shape {d.shape}")
    var = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)  # σ_i² = Σ_j (Δ_i^j - Δ̄_i)²
    return d, var


@validate_params({"diffs": ["array-like"], "alpha": ALPHA, "variant": [Options("book", "dietterich")]})
def ttest_5x2cv(diffs, alpha=0.05, *, variant="book") -> TTestResult:
    """5×2 cross-validated paired t-test (西瓜书 式(2.32); Dietterich 1998).

    ``diffs[i, j]`` is the difference in error (A minus B) on fold j of replicate i of 2-fold CV.
    σ_i² = Σ_j (Δ_i^j - Δ̄_i)², and τ_t = μ / sqrt(0.2 Σ_i σ_i²) with 5 degrees of freedom, where

    - ``variant="book"``: μ = 0.5 (Δ_1^1 + Δ_1^2), the mean of the first replicate (the book and notes);
    - ``variant="dietterich"``: μ = Δ_1^1, the first difference alone (the original paper's t̃).

    Both are two-sided. Practitioners should prefer :func:`combined_ftest_5x2cv`, which uses all ten.

    Example
    -------
    >>> d = [[0.02, 0.04], [0.01, 0.03], [0.05, 0.00], [0.03, 0.02], [0.00, 0.04]]
    >>> round(ttest_5x2cv(d).statistic, 3), round(ttest_5x2cv(d, variant="dietterich").statistic, 3)
    (1.342, 0.894)
    """
    d, var = _check_5x2(diffs)
    alpha = _check_alpha(alpha)
    mu = float(d[0].mean()) if variant == "book" else float(d[0, 0])
    s = float(np.sqrt(var.mean()))  # sqrt(0.2 Σ σ_i²)
    t = _t_from_mean_std(mu, s, 1.0)
    return _two_sided_t(t, 5, alpha, f"5x2cv paired t-test ({variant})", mu, s, 10)


@validate_params({"diffs": ["array-like"], "alpha": ALPHA})
def combined_ftest_5x2cv(diffs, alpha=0.05) -> TestResult:
    """Combined 5×2cv F test (Alpaydın 1999): F = Σ_ij Δ_ij² / (2 Σ_i σ_i²) ~ F(10, 5) under H0.

    Uses all ten differences (the t-test uses one or two), is less sensitive to which replicate comes
    first, and keeps its Type-I error near α. Not in the book.

    Example
    -------
    >>> d = [[0.02, 0.04], [0.01, 0.03], [0.05, 0.00], [0.03, 0.02], [0.00, 0.04]]
    >>> round(combined_ftest_5x2cv(d).statistic, 3)
    1.68
    """
    d, var = _check_5x2(diffs)
    alpha = _check_alpha(alpha)
    num, den = float((d**2).sum()), float(2 * var.sum())
    f = num / den if den > 0 else (0.0 if num == 0 else np.inf)
    crit = float(stats.f.isf(alpha, 10, 5))
    return TestResult(
        test="combined 5x2cv F test",
        statistic=f,
        pvalue=float(stats.f.sf(f, 10, 5)),
        df=(10, 5),
        alpha=alpha,
        critical_value=crit,
        reject=bool(f > crit),
        distribution="F",
    )


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "test_train_ratio": [Interval(numbers.Real, 0, None, closed="neither")],
        "alpha": ALPHA,
    }
)
def corrected_resampled_ttest(scores_a, scores_b, *, test_train_ratio, alpha=0.05) -> TTestResult:
    """Corrected resampled t-test (Nadeau & Bengio 2003) for J repeated train/test splits.

    t = μ / sqrt((1/J + n_test/n_train) σ²) with J - 1 degrees of freedom. The plain resampled t-test
    uses 1/J alone and ignores that the J estimates share one data set, so it rejects a true H0 far too
    often; the n_test/n_train term corrects that. For k-fold CV, ``test_train_ratio = 1 / (k - 1)``.

    Example
    -------
    >>> a, b = [0.20, 0.22, 0.19, 0.21], [0.22, 0.25, 0.20, 0.24]
    >>> round(corrected_resampled_ttest(a, b, test_train_ratio=0.5).statistic, 3)
    -2.714
    """
    d = _paired_diffs(scores_a, scores_b, "scores_a", "scores_b")
    alpha = _check_alpha(alpha)
    j = d.size
    mu, sd = _mean_std(d)
    t = _t_from_mean_std(mu, sd, np.sqrt(1 / j + float(test_train_ratio)))
    return _two_sided_t(t, j - 1, alpha, "corrected resampled t-test", mu, sd, j)


# ----------------------------------------------------------------------------------------------------
# McNemar (§2.4.3, 表 2.4, 式(2.33))
# ----------------------------------------------------------------------------------------------------
@validate_params({"y_true": ["array-like"], "pred_a": ["array-like"], "pred_b": ["array-like"]})
def mcnemar_table(y_true, pred_a, pred_b) -> np.ndarray:
    """The book's contingency table (列联表, 表 2.4): ``[[e00, e01], [e10, e11]]``.

    Rows: B correct / B wrong; columns: A correct / A wrong. So e01 counts samples B gets right and A
    gets wrong, e10 the reverse. Labels may be of any kind (not only binary).

    >>> mcnemar_table([0, 1, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]).tolist()
    [[1, 2], [1, 0]]
    """
    y = as_1d_array(y_true, "y_true")
    a = as_1d_array(pred_a, "pred_a")
    b = as_1d_array(pred_b, "pred_b")
    check_consistent_length(y_true=y, pred_a=a, pred_b=b)
    for name, v in (("y_true", y), ("pred_a", a), ("pred_b", b)):
        if v.dtype.kind == "f" and not np.isfinite(v).all():
            raise ValueError(f"{name} contains NaN or inf; labels must be finite")
    check_label_types(y_true=y, pred_a=a, pred_b=b)
    a_wrong = (a != y).astype(int)
    b_wrong = (b != y).astype(int)
    table = np.zeros((2, 2), dtype=int)
    np.add.at(table, (b_wrong, a_wrong), 1)
    return table


@validate_params({"table": ["array-like"], "correction": ["boolean"], "exact": ["boolean"], "alpha": ALPHA})
def mcnemar(table, *, correction=True, exact=False, alpha=0.05) -> McNemarResult:
    """McNemar's test of H0: A and B have the same error rate (西瓜书 式(2.33)).

    Only the discordant counts e01 and e10 matter. The χ² form is
    τ_χ² = (|e01 - e10| - 1)² / (e01 + e10) with 1 degree of freedom (``correction=True``: the book's
    continuity correction, never taken below 0) or without the -1. ``exact=True`` uses the two-sided
    binomial test of e01 ~ Binomial(e01 + e10, 1/2) instead; then ``statistic`` is min(e01, e10) and
    ``critical_value`` the largest such count that still rejects (-1: no count can, too few discordant
    pairs). No discordant pairs: statistic 0, p-value 1. Agrees with
    ``statsmodels.stats.contingency_tables.mcnemar`` whenever e01 ≠ e10.

    Example
    -------
    >>> r = mcnemar([[50, 12], [3, 35]])
    >>> round(r.statistic, 3), round(r.pvalue, 4), r.reject
    (4.267, 0.0389, True)
    """
    t = as_finite_array(table, "table", ndim=None)
    if t.shape != (2, 2):
        raise ValueError(f"table must be a 2×2 contingency table [[e00, e01], [e10, e11]], got shape {t.shape}")
    if (t < 0).any():
        raise ValueError("table holds counts and must be >= 0")
    if not np.all(t == np.round(t)):
        raise ValueError("table holds counts and must contain whole numbers")
    alpha = _check_alpha(alpha)
    correction = check_bool(correction, "correction")
    exact = check_bool(exact, "exact")
    e01, e10 = int(t[0, 1]), int(t[1, 0])
    n = e01 + e10
    if exact:
        s = min(e01, e10)
        p = 1.0 if n == 0 else float(min(1.0, 2 * stats.binom.cdf(s, n, 0.5)))
        cand = np.arange(n // 2 + 1)
        ok = np.flatnonzero(np.minimum(1.0, 2 * stats.binom.cdf(cand, n, 0.5)) < alpha) if n else np.array([], int)
        crit = float(ok[-1]) if ok.size else -1.0
        return McNemarResult(
            test="McNemar exact (binomial)",
            statistic=float(s),
            pvalue=p,
            df=None,
            alpha=alpha,
            critical_value=crit,
            reject=bool(p < alpha),
            distribution="binom",
            e01=e01,
            e10=e10,
            correction=False,
            exact=True,
        )
    crit = float(stats.chi2.isf(alpha, 1))
    if n == 0:
        stat, p = 0.0, 1.0
    else:
        diff = abs(e01 - e10) - (1 if correction else 0)
        stat = max(diff, 0) ** 2 / n
        p = float(stats.chi2.sf(stat, 1))
    return McNemarResult(
        test="McNemar chi2",
        statistic=float(stat),
        pvalue=p,
        df=1,
        alpha=alpha,
        critical_value=crit,
        reject=bool(stat > crit),
        distribution="chi2",
        e01=e01,
        e10=e10,
        correction=bool(correction),
        exact=False,
    )
