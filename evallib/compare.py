"""Comparison tests (比较检验, 西瓜书 §2.4): is a measured difference in performance real?

Taught in ``notebooks/08_hypothesis_tests.ipynb`` (§2.4.1–2.4.3: binomial and t-tests, cross-validated
t-tests, 5×2cv, McNemar, and how often each test rejects a true null) and
``notebooks/09_friedman_nemenyi.ipynb`` (§2.4.4: Friedman and Nemenyi, CD diagrams). Beyond the book,
``notebooks/13_comparing_today.ipynb`` teaches Demšar's (2006) sign and Wilcoxon tests, Holm and
Bonferroni–Dunn against a control, Benavoli et al.'s (2017) Bayesian tests with a ROPE, and measures the
Type-I error and power of every test here (:func:`rejection_rates`).

Every test returns a frozen result object with at least ``statistic``, ``pvalue``, ``df`` (None where
no degrees of freedom apply), ``alpha``, ``critical_value`` and ``reject``. Every distribution and
quantile comes from SciPy: no table is copied by hand.

Decision rule everywhere: reject H0 at level ``alpha`` when the statistic falls in the critical region
(equivalently, when the p-value is below ``alpha``). Not rejecting is *not* evidence that H0 holds.
"""
from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass, field, fields

import numpy as np
from scipy import stats

from ._validation import (
    check_bool,
    check_label_types,
    check_mean_ranks,
    as_1d_array,
    as_finite_array,
    check_consistent_length,
    check_positive_int,
    check_probability,
    check_random_state,
)

__all__ = [
    "TestResult",
    "BinomialTestResult",
    "TTestResult",
    "McNemarResult",
    "FriedmanResult",
    "NemenyiResult",
    "binomial_test",
    "binomial_critical_count",
    "ttest",
    "paired_ttest",
    "ttest_5x2cv",
    "combined_ftest_5x2cv",
    "corrected_resampled_ttest",
    "mcnemar_table",
    "mcnemar",
    "rank_matrix",
    "friedman",
    "q_alpha",
    "critical_difference",
    "nemenyi",
    "cd_groups",
    "NULL_TESTS",
    "NullRejectionRates",
    "null_rejection_rates",
    # beyond the book (notebook 13): Demšar 2006, Benavoli et al. 2017
    "SignTestResult",
    "WilcoxonResult",
    "HolmResult",
    "PosthocResult",
    "PairwiseWilcoxonResult",
    "CorrelatedTTestResult",
    "SignedRankResult",
    "sign_test",
    "wilcoxon",
    "holm",
    "posthoc_vs_control",
    "pairwise_wilcoxon_holm",
    "correlated_bayesian_ttest",
    "bayesian_signed_rank",
    "ALL_TESTS",
    "RejectionRates",
    "rejection_rates",
]


# ----------------------------------------------------------------------------------------------------
# Result objects
# ----------------------------------------------------------------------------------------------------
def _fmt(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        v = float(v)
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        return f"{v:.4g}"
    if isinstance(v, np.ndarray):
        if v.dtype == bool or v.dtype.kind in "iu":
            return np.array2string(v, separator=", ", max_line_width=10**6).replace("\n", "")
        return np.array2string(np.asarray(v, dtype=float), precision=4, separator=", ", suppress_small=True,
                               max_line_width=10**6).replace("\n", "")
    if isinstance(v, tuple):
        inner = ", ".join(_fmt(x) if not isinstance(x, str) else repr(x) for x in v)
        return f"({inner}{',' if len(v) == 1 else ''})"
    return repr(v)


class _ReprMixin:
    """A one-line, fixed-precision repr (stable text for nbval; NumPy 2 scalars shown as plain numbers)."""

    def __repr__(self) -> str:
        parts = [f"{f.name}={_fmt(getattr(self, f.name))}" for f in fields(self) if f.repr]
        return f"{type(self).__name__}({', '.join(parts)})"


@dataclass(frozen=True, repr=False)
class TestResult(_ReprMixin):
    """Outcome of a test: statistic, p-value, degrees of freedom, and the decision at level ``alpha``.

    ``distribution`` names the null distribution of ``statistic`` ("t", "chi2", "F", "binom", ...);
    :func:`evallib.plots.plot_null_distribution` draws it with the critical region.
    """

    __test__ = False  # not a pytest test class

    test: str
    statistic: float
    pvalue: float
    df: object
    alpha: float
    critical_value: float
    reject: bool
    distribution: str = field(default="", repr=False)


@dataclass(frozen=True, repr=False)
class BinomialTestResult(TestResult):
    """Binomial test of H0: ε ≤ ε0. ``statistic`` is the test error rate ε̂ = n_errors / m and
    ``critical_value`` the critical error rate ε̄ = C / m; ``critical_count`` is C."""

    n_errors: int = 0
    m: int = 1
    eps0: float = 0.0
    critical_count: int = 0


@dataclass(frozen=True, repr=False)
class TTestResult(TestResult):
    """A t-test; ``mean`` and ``std`` are the mean and sample standard deviation (ddof=1) behind it."""

    mean: float = 0.0
    std: float = 0.0
    k: int = 0


@dataclass(frozen=True, repr=False)
class McNemarResult(TestResult):
    """McNemar's test on the discordant counts ``e01`` (A wrong, B right) and ``e10`` (A right, B wrong)."""

    e01: int = 0
    e10: int = 0
    correction: bool = True
    exact: bool = False


@dataclass(frozen=True, repr=False)
class FriedmanResult(TestResult):
    """Friedman test (式(2.34)–(2.35)). ``statistic``/``pvalue``/``critical_value``/``reject`` are the
    F form τ_F (df = (k-1, (k-1)(N-1))); ``chi2`` and its p-value and critical value are the χ² form τ_χ²."""

    mean_ranks: np.ndarray = field(default=None)
    chi2: float = 0.0
    chi2_pvalue: float = 1.0
    chi2_df: int = 1
    chi2_critical_value: float = 0.0
    F: float = 0.0
    F_pvalue: float = 1.0
    n_datasets: int = 0
    n_algorithms: int = 0
    tie_correction: bool = False


@dataclass(frozen=True, repr=False)
class NemenyiResult(TestResult):
    """Nemenyi post-hoc test. ``statistic`` is the k×k matrix of |mean-rank differences|, ``pvalue`` the
    matrix of pairwise p-values, ``critical_value`` the critical difference CD, ``reject`` the k×k matrix
    of pairs that differ (|r_i - r_j| > CD). ``groups`` are the bars of a CD diagram."""

    mean_ranks: np.ndarray = field(default=None)
    names: tuple = ()
    cd: float = 0.0
    q_alpha: float = 0.0
    n_datasets: int = 0
    groups: tuple = ()

    @property
    def differ(self) -> np.ndarray:
        """k×k boolean matrix: True where two algorithms' mean ranks differ by more than CD."""
        return self.reject

    def significant_pairs(self) -> list[tuple[str, str]]:
        """The pairs (better, worse) whose mean ranks differ by more than CD, better = lower mean rank."""
        r = self.mean_ranks
        out = []
        for i, j in zip(*np.nonzero(np.triu(self.reject, 1))):
            a, b = (i, j) if r[i] <= r[j] else (j, i)
            out.append((self.names[a], self.names[b]))
        return sorted(out, key=lambda p: (r[self.names.index(p[0])], r[self.names.index(p[1])]))


# ----------------------------------------------------------------------------------------------------
# Validation helpers
# ----------------------------------------------------------------------------------------------------
def _check_alpha(alpha) -> float:
    return check_probability(alpha, "alpha", low_open=True, high_open=True)


def _check_count(n, name: str) -> int:
    return check_positive_int(n, name, minimum=0)


def _check_rates(x, name: str) -> np.ndarray:
    arr = as_finite_array(x, name)
    if arr.min() < 0 or arr.max() > 1:
        bad = arr[(arr < 0) | (arr > 1)][0]
        raise ValueError(f"{name} are error rates and must lie in [0, 1], got {bad}")
    return arr


def _check_scores_table(scores, name: str = "scores", *, min_rows: int = 2) -> np.ndarray:
    arr = as_finite_array(scores, name, ndim=None)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D with shape (N data sets, k algorithms), got an array of shape {arr.shape}"
        )
    n, k = arr.shape
    if n < min_rows:
        raise ValueError(f"{name} has {n} data set(s) (rows); at least {min_rows} are needed")
    if k < 2:
        raise ValueError(f"{name} has {k} algorithm (column); at least 2 are needed to compare")
    return arr


def _mean_std(x: np.ndarray) -> tuple[float, float]:
    """Mean and sample standard deviation; exactly (value, 0) when every value is the same
    (floating-point averaging would otherwise leave a 1e-17 spread and a meaningless t)."""
    if np.ptp(x) == 0:
        return float(x[0]), 0.0
    return float(x.mean()), float(x.std(ddof=1))


def _t_from_mean_std(mean: float, std: float, scale: float) -> float:
    """t = mean / (std * scale) with the degenerate zero-variance case made explicit (no NaN)."""
    if std * scale > 0:
        return mean / (std * scale)
    if mean == 0:
        return 0.0  # no difference and no spread: nothing speaks against H0
    return float(np.copysign(np.inf, mean))


def _two_sided_t(t: float, df: float, alpha: float, test: str, mean: float, std: float, k: int) -> TTestResult:
    crit = float(stats.t.isf(alpha / 2, df))
    p = float(min(1.0, 2 * stats.t.sf(abs(t), df)))
    return TTestResult(test=test, statistic=float(t), pvalue=p, df=df, alpha=alpha, critical_value=crit,
                       reject=bool(abs(t) > crit), distribution="t", mean=float(mean), std=float(std), k=k)


# ----------------------------------------------------------------------------------------------------
# One learner, one data set: binomial test and t-test (§2.4.1)
# ----------------------------------------------------------------------------------------------------
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
        test="binomial test (H0: eps <= eps0)", statistic=n_errors / m, pvalue=p, df=None, alpha=alpha,
        critical_value=c / m, reject=bool(n_errors > c), distribution="binom",
        n_errors=n_errors, m=m, eps0=eps0, critical_count=c,
    )


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
        raise ValueError(
            f"diffs must have shape (5, 2): 5 replicates of 2-fold cross-validation, got shape {d.shape}"
        )
    var = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)  # σ_i² = Σ_j (Δ_i^j - Δ̄_i)²
    return d, var


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
    if variant not in ("book", "dietterich"):
        raise ValueError(f"variant must be 'book' or 'dietterich', got {variant!r}")
    d, var = _check_5x2(diffs)
    alpha = _check_alpha(alpha)
    mu = float(d[0].mean()) if variant == "book" else float(d[0, 0])
    s = float(np.sqrt(var.mean()))  # sqrt(0.2 Σ σ_i²)
    t = _t_from_mean_std(mu, s, 1.0)
    return _two_sided_t(t, 5, alpha, f"5x2cv paired t-test ({variant})", mu, s, 10)


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
    return TestResult(test="combined 5x2cv F test", statistic=f, pvalue=float(stats.f.sf(f, 10, 5)), df=(10, 5),
                      alpha=alpha, critical_value=crit, reject=bool(f > crit), distribution="F")


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
    if isinstance(test_train_ratio, (bool, np.bool_)) or not isinstance(test_train_ratio, numbers.Real):
        raise TypeError(f"test_train_ratio must be a positive number, got {type(test_train_ratio).__name__}")
    if not (np.isfinite(test_train_ratio) and test_train_ratio > 0):
        raise ValueError(f"test_train_ratio must be a finite number > 0 (n_test / n_train), got {test_train_ratio}")
    alpha = _check_alpha(alpha)
    j = d.size
    mu, sd = _mean_std(d)
    t = _t_from_mean_std(mu, sd, np.sqrt(1 / j + float(test_train_ratio)))
    return _two_sided_t(t, j - 1, alpha, "corrected resampled t-test", mu, sd, j)


# ----------------------------------------------------------------------------------------------------
# McNemar (§2.4.3, 表 2.4, 式(2.33))
# ----------------------------------------------------------------------------------------------------
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
        return McNemarResult(test="McNemar exact (binomial)", statistic=float(s), pvalue=p, df=None, alpha=alpha,
                             critical_value=crit, reject=bool(p < alpha), distribution="binom",
                             e01=e01, e10=e10, correction=False, exact=True)
    crit = float(stats.chi2.isf(alpha, 1))
    if n == 0:
        stat, p = 0.0, 1.0
    else:
        diff = abs(e01 - e10) - (1 if correction else 0)
        stat = max(diff, 0) ** 2 / n
        p = float(stats.chi2.sf(stat, 1))
    return McNemarResult(test="McNemar chi2", statistic=float(stat), pvalue=p, df=1, alpha=alpha,
                         critical_value=crit, reject=bool(stat > crit), distribution="chi2",
                         e01=e01, e10=e10, correction=bool(correction), exact=False)


# ----------------------------------------------------------------------------------------------------
# Many learners, many data sets: Friedman and Nemenyi (§2.4.4)
# ----------------------------------------------------------------------------------------------------
def rank_matrix(scores, *, lower_is_better=True) -> np.ndarray:
    """Rank the k algorithms on each of the N data sets (rows): 1 = best, ties get the average rank.

    ``scores`` has shape (N data sets, k algorithms); with ``lower_is_better`` (error rates) the
    smallest score ranks 1, otherwise (accuracy, AUC) the largest does. 西瓜书 表 2.5.

    >>> rank_matrix([[0.1, 0.2, 0.2], [0.3, 0.1, 0.2]]).tolist()
    [[1.0, 2.5, 2.5], [3.0, 1.0, 2.0]]
    """
    s = _check_scores_table(scores, min_rows=1)
    lower_is_better = check_bool(lower_is_better, "lower_is_better")
    return stats.rankdata(s if lower_is_better else -s, axis=1, method="average")


def friedman(scores, *, lower_is_better=True, alpha=0.05, tie_correction=False) -> FriedmanResult:
    """Friedman test of H0: all k algorithms perform the same over N data sets (西瓜书 式(2.34)–(2.35)).

    With mean ranks r_i, τ_χ² = 12N / (k(k+1)) · (Σ r_i² - k(k+1)²/4), approximately χ²(k - 1) for large
    N and k; τ_F = (N - 1) τ_χ² / (N(k - 1) - τ_χ²) follows F with (k - 1) *and* (k - 1)(N - 1) degrees of
    freedom and is the form to use (Iman & Davenport; Demšar 2006). ``statistic``, ``pvalue``,
    ``critical_value`` and ``reject`` are those of τ_F.

    Uncorrected by default, as the book and Demšar write it. ``tie_correction=True`` divides τ_χ² by
    1 - Σ(t³ - t) / (N k (k² - 1)) (t: sizes of tied groups), which is what
    ``scipy.stats.friedmanchisquare`` computes. Perfect agreement (every data set ranks the algorithms
    the same way, τ_χ² = N(k - 1)) gives τ_F = inf and p = 0, not an error.

    Example (the book's worked example, 表 2.5)
    -------
    >>> r = friedman([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]])
    >>> r.mean_ranks.tolist(), round(r.chi2, 3), round(r.F, 3)
    ([1.0, 2.125, 2.875], 7.125, 24.429)
    """
    s = _check_scores_table(scores)
    alpha = _check_alpha(alpha)
    tie_correction = check_bool(tie_correction, "tie_correction")
    ranks = rank_matrix(s, lower_is_better=lower_is_better)
    n, k = ranks.shape
    r = ranks.mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (float(np.sum(r**2)) - k * (k + 1) ** 2 / 4)
    chi2 = max(chi2, 0.0)  # rounding can leave -1e-15
    if tie_correction:
        # Σ over tie groups of (t³ - t) = Σ over entries of (t² - 1), t = size of the entry's group in its row
        t = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        ties = float(np.sum(t**2 - 1))
        c = 1 - ties / (n * k * (k * k - 1))
        chi2 = chi2 / c if c > 0 else 0.0  # every row fully tied: no evidence at all
    top = n * (k - 1)
    chi2 = min(chi2, float(top))
    df1, df2 = k - 1, (k - 1) * (n - 1)
    if top - chi2 <= 1e-12 * top:
        f_stat = np.inf
    else:
        f_stat = (n - 1) * chi2 / (top - chi2)
    f_p = float(stats.f.sf(f_stat, df1, df2)) if np.isfinite(f_stat) else 0.0
    f_crit = float(stats.f.isf(alpha, df1, df2))
    return FriedmanResult(
        test="Friedman test (F form)", statistic=float(f_stat), pvalue=f_p, df=(df1, df2), alpha=alpha,
        critical_value=f_crit, reject=bool(f_stat > f_crit), distribution="F",
        mean_ranks=r, chi2=float(chi2), chi2_pvalue=float(stats.chi2.sf(chi2, df1)), chi2_df=df1,
        chi2_critical_value=float(stats.chi2.isf(alpha, df1)), F=float(f_stat), F_pvalue=f_p,
        n_datasets=n, n_algorithms=k, tie_correction=bool(tie_correction),
    )


def q_alpha(k, alpha=0.05) -> float:
    """The Nemenyi critical value q_α for k algorithms (西瓜书 表 2.7).

    q_α = q_{α; k, ∞} / √2, the upper-α quantile of the studentized range of k independent standard
    normals, divided by √2 (Demšar 2006), from ``scipy.stats.studentized_range``.

    >>> round(q_alpha(3), 3)
    2.344
    """
    k = check_positive_int(k, "k", minimum=2)
    return _q_alpha(int(k), float(_check_alpha(alpha)))


@functools.lru_cache(maxsize=1024)
def _q_alpha(k: int, alpha: float) -> float:
    # studentized_range.isf integrates numerically (tens of ms a call); the CD explorer asks for the same few
    # (k, α) on every move
    return float(stats.studentized_range.isf(alpha, k, np.inf) / np.sqrt(2))


def critical_difference(k, n_datasets, alpha=0.05) -> float:
    """Nemenyi critical difference CD = q_α √(k(k+1) / (6N)) (西瓜书 式(2.36)).

    >>> round(critical_difference(3, 4), 3)
    1.657
    """
    k = check_positive_int(k, "k", minimum=2)
    n = check_positive_int(n_datasets, "n_datasets", minimum=1)
    return q_alpha(k, alpha) * float(np.sqrt(k * (k + 1) / (6 * n)))


def cd_groups(mean_ranks, cd) -> tuple[tuple[int, ...], ...]:
    """The bars of a CD diagram: maximal runs of algorithms (sorted by mean rank) whose mean ranks
    differ by at most ``cd``, as tuples of column indices in rank order (Demšar 2006).

    A run of one algorithm is not a group; a run inside a longer run is dropped.

    >>> cd_groups([1.0, 2.125, 2.875], 1.657)
    ((0, 1), (1, 2))
    """
    r = check_mean_ranks(mean_ranks)
    if isinstance(cd, (bool, np.bool_)) or not isinstance(cd, numbers.Real) or not np.isfinite(cd) or cd < 0:
        raise ValueError(f"cd must be a finite number >= 0, got {cd!r}")
    order = np.argsort(r, kind="stable")
    rs = r[order]
    # for each start i, the last j with rs[j] - rs[i] <= cd (vectorised through searchsorted)
    ends = np.searchsorted(rs, rs + cd * (1 + 1e-12), side="right") - 1
    groups, last_end = [], -1
    for i, j in enumerate(ends):
        if j > i and j > last_end:
            groups.append(tuple(int(x) for x in order[i : j + 1]))
            last_end = j
    return tuple(groups)


def _default_names(k: int) -> tuple[str, ...]:
    return tuple(chr(ord("A") + i) for i in range(k)) if k <= 26 else tuple(f"alg{i + 1}" for i in range(k))


def nemenyi(scores, *, lower_is_better=True, alpha=0.05, names=None) -> NemenyiResult:
    """Nemenyi post-hoc test after a Friedman test (西瓜书 式(2.36), 图 2.8).

    Two algorithms differ significantly when their mean ranks differ by more than
    CD = q_α √(k(k+1)/(6N)). The pairwise p-values come from the same studentized range distribution:
    p_ij = P(Q_k > |r_i - r_j| √(6N / (k(k+1))) · √2).

    Parameters
    ----------
    scores : array of shape (N data sets, k algorithms).
    lower_is_better : bool, True for error rates.
    alpha : float in (0, 1).
    names : k algorithm names (default "A", "B", ...).

    Example (the book's worked example)
    -------
    >>> r = nemenyi([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]])
    >>> round(r.cd, 3), r.significant_pairs(), r.groups
    (1.657, [('A', 'C')], (('A', 'B'), ('B', 'C')))
    """
    s = _check_scores_table(scores)
    alpha = _check_alpha(alpha)
    n, k = s.shape
    if names is None:
        names = _default_names(k)
    else:
        names = tuple(str(x) for x in names)
        if len(names) != k:
            raise ValueError(f"names has {len(names)} entries but scores has {k} algorithms (columns)")
        if len(set(names)) != k:
            raise ValueError("names must be distinct")
    r = rank_matrix(s, lower_is_better=lower_is_better).mean(axis=0)
    q = q_alpha(k, alpha)
    se = float(np.sqrt(k * (k + 1) / (6 * n)))
    cd = q * se
    diff = np.abs(r[:, None] - r[None, :])
    # the studentized range sf is a numerical integral: evaluate it once per distinct nonzero gap
    gaps, inverse = np.unique(diff, return_inverse=True)
    p_gap = np.ones_like(gaps)
    p_gap[gaps > 0] = np.clip(stats.studentized_range.sf(gaps[gaps > 0] / se * np.sqrt(2), k, np.inf), 0.0, 1.0)
    p = p_gap[inverse.reshape(diff.shape)]
    groups = tuple(tuple(names[i] for i in g) for g in cd_groups(r, cd))
    return NemenyiResult(
        test="Nemenyi post-hoc test", statistic=diff, pvalue=p, df=None, alpha=alpha, critical_value=cd,
        reject=diff > cd, distribution="studentized_range",
        mean_ranks=r, names=names, cd=cd, q_alpha=q, n_datasets=n, groups=groups,
    )


# ----------------------------------------------------------------------------------------------------
# How often does each test reject a true null? (notebook 08; Dietterich 1998)
# ----------------------------------------------------------------------------------------------------
# ----------------------------------------------------------------------------------------------------
# How often does each test reject a true null? (notebook 08; Dietterich 1998)
# ----------------------------------------------------------------------------------------------------
NULL_TESTS = (
    "resampled t-test",
    "corrected resampled t-test",
    "10-fold CV paired t-test",
    "McNemar",
    "5x2cv t-test (book)",
    "5x2cv t-test (Dietterich)",
    "5x2cv combined F-test",
)


@dataclass(frozen=True, repr=False)
class NullRejectionRates(_ReprMixin):
    """How often each test rejected a true H0 over ``n_trials`` fresh data sets (its Type-I error rate).

    ``rates[i]`` belongs to ``tests[i]``; ``pvalues`` and ``rejections`` have shape (n_trials, n_tests).
    ``stderr`` is the binomial standard error of each rate.
    """

    tests: tuple
    rates: np.ndarray
    stderr: np.ndarray
    n_trials: int
    n_samples: int
    alpha: float
    pvalues: np.ndarray = field(repr=False)
    rejections: np.ndarray = field(repr=False)

    def as_dict(self) -> dict:
        """``{test name: rejection rate}`` in the order of ``tests``."""
        return {t: float(r) for t, r in zip(self.tests, self.rates)}


def _stump_wrong(x: np.ndarray, y: np.ndarray, train: np.ndarray) -> np.ndarray:
    """A decision stump on one feature ("x > t → class 1"), fitted on every row of ``train`` at once.

    ``train`` is a boolean (S, m) mask of S training sets. The threshold minimises the training error
    (halfway between the two training values it separates); returns the (S, m) boolean matrix of which
    of the m samples each of the S stumps misclassifies. Vectorised: one sort, cumulative sums.
    """
    m = x.size
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    tr = train[:, order]
    pos = np.cumsum(tr & (ys == 1), axis=1)  # training positives at or below sorted position i
    neg = np.cumsum(tr & (ys == 0), axis=1)
    err = pos + (neg[:, -1:] - neg)  # training errors with the threshold just above position i
    err = np.where(tr, err, np.iinfo(np.int64).max)  # thresholds only right above a training value
    err_below_all = neg[:, -1]  # threshold below every value: everything predicted 1
    i = err.argmin(axis=1)
    best = err[np.arange(len(i)), i]
    # next training value above position i (m if none): reverse running minimum of training positions
    pos_idx = np.where(tr, np.arange(m), m)
    nxt = np.minimum.accumulate(pos_idx[:, ::-1], axis=1)[:, ::-1]
    nxt = np.concatenate([nxt[:, 1:], np.full((len(i), 1), m)], axis=1)[np.arange(len(i)), i]
    upper = np.where(nxt < m, xs[np.minimum(nxt, m - 1)], np.inf)
    t = np.where(np.isfinite(upper), (xs[i] + upper) / 2, xs[i])
    t = np.where(err_below_all <= best, -np.inf, t)
    pred = x[None, :] > t[:, None]
    return pred != (y[None, :] == 1)


def _null_trial(seed, m, separation, n_resamples, n_folds):
    """One data set from the symmetric population; the error differences (A - B) every test needs.

    Returns ``(d_resampled (J,), d_cv (k,), d_5x2 (5, 2), e01, e10)``: the differences over the J random
    2/3-1/3 hold-outs, over the k folds of one k-fold CV, over 5 × 2-fold CV, and McNemar's discordant
    counts on the first hold-out. All splits are fitted in one vectorised stump call per feature.
    """
    return _trial(seed, m, separation, separation, n_resamples, n_folds, third=False)[:5]


def _trial(seed, m, separation, separation_b, n_resamples, n_folds, *, third):
    """:func:`_null_trial` with feature x2 (learner B) at ``separation_b`` and, when ``third``, a third
    learner C (a stump on a fresh feature x3 at ``separation``, drawn after everything else so the
    first five outputs are those of :func:`_null_trial` whenever ``separation_b == separation``).

    Returns the five outputs of :func:`_null_trial` and the (k, 3) fold error rates of A, B, C (C's
    column is zero when ``third`` is False).
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    X = rng.normal(size=(m, 2)) + separation * (2 * y - 1)[:, None]
    if separation_b != separation:
        X[:, 1] += (separation_b - separation) * (2 * y - 1)
    n_test = m // 3
    holdout = np.argsort(rng.random((n_resamples, m)), axis=1).argsort(axis=1) < n_test
    fold = np.empty(m, dtype=int)
    fold[rng.permutation(m)] = np.arange(m) % n_folds
    kfold = fold[None, :] == np.arange(n_folds)[:, None]
    half = np.argsort(rng.random((5, m)), axis=1).argsort(axis=1) < m // 2
    test = np.concatenate([holdout, kfold, half, ~half])  # rows of 5x2: 0-4 first halves, 5-9 second halves
    wa, wb = _stump_wrong(X[:, 0], y, ~test), _stump_wrong(X[:, 1], y, ~test)
    d = ((wa & test).sum(axis=1) - (wb & test).sum(axis=1)) / test.sum(axis=1)
    j, k = n_resamples, n_folds
    t0 = holdout[0]
    e01 = int(np.sum(wa[0] & ~wb[0] & t0))  # B right, A wrong
    e10 = int(np.sum(~wa[0] & wb[0] & t0))
    folds = np.zeros((k, 3))
    n_fold = kfold.sum(axis=1)
    folds[:, 0] = (wa[j:j + k] & kfold).sum(axis=1) / n_fold
    folds[:, 1] = (wb[j:j + k] & kfold).sum(axis=1) / n_fold
    if third:
        x3 = rng.normal(size=m) + separation * (2 * y - 1)
        folds[:, 2] = (_stump_wrong(x3, y, ~kfold) & kfold).sum(axis=1) / n_fold
    return d[:j], d[j:j + k], d[j + k:].reshape(2, 5).T, e01, e10, folds


def _mean_std_rows(d: np.ndarray):
    """Row-wise mean and sample std, exactly (value, 0) for constant rows (as :func:`_mean_std`)."""
    const = np.ptp(d, axis=1) == 0
    mean = np.where(const, d[:, 0], d.mean(axis=1))
    sd = np.where(const, 0.0, d.std(axis=1, ddof=1))
    return mean, sd


def _t_rows(mean, denom):
    """mean / denom row-wise, with 0 (no difference) or ±inf where denom is 0, as _t_from_mean_std."""
    out = np.where(mean == 0, 0.0, np.copysign(np.inf, mean))
    np.divide(mean, denom, out=out, where=denom > 0)
    return out


def _null_pvalues(diffs, test_train_ratio):
    """p-values of the seven NULL_TESTS for many trials at once (one SciPy call per test).

    The formulas are those of paired_ttest, corrected_resampled_ttest, mcnemar, ttest_5x2cv and
    combined_ftest_5x2cv; tests/test_compare.py checks that they agree trial by trial.
    """
    d_res = np.array([t[0] for t in diffs])
    d_cv = np.array([t[1] for t in diffs])
    d52 = np.array([t[2] for t in diffs])
    e01 = np.array([t[3] for t in diffs], dtype=float)
    e10 = np.array([t[4] for t in diffs], dtype=float)
    p = np.empty((len(diffs), len(NULL_TESTS)))
    j, k = d_res.shape[1], d_cv.shape[1]
    mu, sd = _mean_std_rows(d_res)
    p[:, 0] = 2 * stats.t.sf(np.abs(_t_rows(mu, sd / np.sqrt(j))), j - 1)
    p[:, 1] = 2 * stats.t.sf(np.abs(_t_rows(mu, sd * np.sqrt(1 / j + test_train_ratio))), j - 1)
    mu, sd = _mean_std_rows(d_cv)
    p[:, 2] = 2 * stats.t.sf(np.abs(_t_rows(mu, sd / np.sqrt(k))), k - 1)
    n = e01 + e10
    chi2 = np.where(n > 0, np.maximum(np.abs(e01 - e10) - 1, 0) ** 2 / np.maximum(n, 1), 0.0)
    p[:, 3] = np.where(n > 0, stats.chi2.sf(chi2, 1), 1.0)
    var = ((d52 - d52.mean(axis=2, keepdims=True)) ** 2).sum(axis=2)  # (trials, 5)
    s = np.sqrt(var.mean(axis=1))
    p[:, 4] = 2 * stats.t.sf(np.abs(_t_rows(d52[:, 0].mean(axis=1), s)), 5)
    p[:, 5] = 2 * stats.t.sf(np.abs(_t_rows(d52[:, 0, 0], s)), 5)
    f_stat = _t_rows((d52**2).sum(axis=(1, 2)), 2 * var.sum(axis=1))
    p[:, 6] = stats.f.sf(f_stat, 10, 5)
    return np.minimum(p, 1.0)


def null_rejection_rates(n_trials=1000, *, n_samples=200, separation=1.0, alpha=0.05, n_resamples=30,
                         n_folds=10, random_state=None, n_jobs=None) -> NullRejectionRates:
    """Measure each comparison test's Type-I error: how often it rejects when H0 is true (Dietterich 1998).

    Each trial draws a fresh data set of ``n_samples`` points: y ∈ {0, 1} with equal probability and two
    features x1, x2 ~ N(±``separation``, 1), independent given y. Learner A is a decision stump on x1,
    learner B the same stump on x2. The two features are exchangeable, so A and B have exactly the same
    expected error for every training-set size: H0 is true. On every data set, seven tests compare them
    (``NULL_TESTS``): the resampled t-test over ``n_resamples`` random 2/3–1/3 hold-outs, the same with
    Nadeau & Bengio's correction, the ``n_folds``-fold paired t-test, McNemar on one hold-out, the 5×2cv
    t-test in the book's and Dietterich's form and the combined 5×2cv F-test. A valid test rejects in
    about ``alpha`` of the trials.

    Trials are independent streams spawned from ``random_state``, so the result does not depend on
    ``n_jobs`` or the joblib backend: ``with joblib.parallel_config(backend="dask"):`` and ``n_jobs=-1``
    spread the trials over a Dask cluster. Taught in ``notebooks/08_hypothesis_tests.ipynb``.

    Example
    -------
    >>> r = null_rejection_rates(20, random_state=0)
    >>> r.rates.shape, r.tests[0]
    ((7,), 'resampled t-test')
    """
    n_trials = check_positive_int(n_trials, "n_trials")
    m = check_positive_int(n_samples, "n_samples", minimum=20)
    if isinstance(separation, (bool, np.bool_)) or not isinstance(separation, numbers.Real):
        raise TypeError(f"separation must be a real number, got {type(separation).__name__}")
    if not (np.isfinite(separation) and separation >= 0):
        raise ValueError(f"separation must be a finite number >= 0, got {separation}")
    alpha = _check_alpha(alpha)
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if n_folds > m // 2:
        raise ValueError(f"n_folds={n_folds} is too large for n_samples={m}; use at most {m // 2}")
    rng = check_random_state(random_state)
    seeds = np.random.SeedSequence(int(rng.integers(0, 2**63 - 1))).spawn(n_trials)
    args = (m, float(separation), n_resamples, n_folds)
    from joblib import Parallel, delayed, effective_n_jobs

    workers = effective_n_jobs(n_jobs)  # under parallel_config(backend="dask"): the cluster's worker threads
    if workers == 1:
        diffs = [_null_trial(s, *args) for s in seeds]
    else:
        chunks = np.array_split(np.arange(n_trials), max(1, min(n_trials, 4 * workers)))
        parts = Parallel(n_jobs=n_jobs)(
            delayed(_null_chunk)([seeds[i] for i in c], args) for c in chunks if len(c)
        )
        diffs = [row for part in parts for row in part]
    n_test = m // 3
    pvals = _null_pvalues(diffs, n_test / (m - n_test))
    rej = pvals < alpha
    rates = rej.mean(axis=0)
    return NullRejectionRates(tests=NULL_TESTS, rates=rates, stderr=np.sqrt(rates * (1 - rates) / n_trials),
                              n_trials=n_trials, n_samples=m, alpha=alpha, pvalues=pvals, rejections=rej)


def _null_chunk(seeds, args):
    return [_null_trial(s, *args) for s in seeds]


# ----------------------------------------------------------------------------------------------------
# Beyond the book (notebook 13): Demšar 2006 and Benavoli et al. 2017
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class SignTestResult(TestResult):
    """Sign test over N data sets. ``wins``: data sets where A is better, ``losses``: where B is better,
    ``ties``: equal scores. Ties are split evenly between A and B and an odd one is dropped (Demšar 2006),
    so ``statistic`` = wins + ties // 2 out of ``n`` = wins + losses + 2 (ties // 2) ~ Binomial(n, 1/2)
    under H0. ``critical_value`` is the smallest count of wins (of either learner) that rejects, n + 1
    when none can."""

    wins: int = 0
    losses: int = 0
    ties: int = 0
    n: int = 0


@dataclass(frozen=True, repr=False)
class WilcoxonResult(TestResult):
    """Wilcoxon signed-rank test over N data sets (Demšar 2006 §3.1.3) on d = scores_b - scores_a.

    ``r_plus``/``r_minus``: rank sums of the positive/negative differences (zeros as ``zero_method``
    says); ``statistic`` T = min(R+, R-); ``z`` its normal approximation
    (T - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24) with SciPy's tie correction; ``method`` how SciPy computed
    the p-value ("exact", "permutation" or "approx"). ``critical_value`` is the largest T that rejects
    by the exact distribution without ties (Demšar's table; -1: no T can, too few data sets), or the
    normal approximation's bound for n > 50; the decision itself is ``pvalue < alpha``."""

    r_plus: float = 0.0
    r_minus: float = 0.0
    n: int = 0
    n_zero: int = 0
    z: float = 0.0
    zero_method: str = "zsplit"
    method: str = ""


@dataclass(frozen=True, repr=False)
class HolmResult(_ReprMixin):
    """Holm's step-down correction of m p-values: ``adjusted_pvalue`` (in the input order) and ``reject``
    (adjusted p <= alpha, as statsmodels decides)."""

    pvalue: np.ndarray
    adjusted_pvalue: np.ndarray
    reject: np.ndarray
    alpha: float


@dataclass(frozen=True, repr=False)
class PosthocResult(_ReprMixin):
    """Each algorithm against a control after a Friedman test (Demšar 2006 §3.2.2). Arrays run over the
    other algorithms in column order: ``others`` (column indices), ``statistic`` (z; positive = ranks
    behind the control), ``pvalue`` (two-sided normal), ``adjusted_pvalue`` and ``reject``.
    ``critical_difference`` is the Bonferroni–Dunn CD = z_{α/(2(k-1))} sqrt(k(k+1)/(6N))."""

    test: str
    control: int
    others: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    adjusted_pvalue: np.ndarray
    reject: np.ndarray
    method: str
    alpha: float
    mean_ranks: np.ndarray = field(repr=False)
    names: tuple = field(default=(), repr=False)
    n_datasets: int = field(default=0, repr=False)
    critical_difference: float = field(default=0.0, repr=False)


@dataclass(frozen=True, repr=False)
class PairwiseWilcoxonResult(_ReprMixin):
    """All pairs of k algorithms by Wilcoxon signed-rank tests, Holm-corrected (Benavoli, Corani &
    Mangili 2016; the CD diagrams of autorank and Ismail Fawaz et al.). ``pvalue``, ``adjusted_pvalue``
    and ``reject`` are k×k (diagonal: 1, 1, False); ``groups`` are the cliques a CD diagram joins by a bar:
    maximal runs in mean-rank order with no significant pair inside (names), ``cliques`` the same as
    column indices."""

    names: tuple
    mean_ranks: np.ndarray
    groups: tuple
    alpha: float
    pvalue: np.ndarray = field(repr=False)
    adjusted_pvalue: np.ndarray = field(repr=False)
    reject: np.ndarray = field(repr=False)
    cliques: tuple = field(default=(), repr=False)

    def significant_pairs(self) -> list[tuple[str, str]]:
        """The pairs (better, worse) that differ after Holm's correction, better = lower mean rank."""
        r = self.mean_ranks
        out = []
        for i, j in zip(*np.nonzero(np.triu(self.reject, 1))):
            a, b = (i, j) if r[i] <= r[j] else (j, i)
            out.append((self.names[a], self.names[b]))
        return sorted(out, key=lambda p: (r[self.names.index(p[0])], r[self.names.index(p[1])]))


@dataclass(frozen=True, repr=False)
class CorrelatedTTestResult(_ReprMixin):
    """Posterior of the mean difference d = scores_b - scores_a on one data set (Corani & Benavoli 2015):
    Student t with ``df`` degrees of freedom, location ``mean`` and scale ``scale``. ``p_left`` = P(d < -rope),
    ``p_rope`` = P(|d| <= rope), ``p_right`` = P(d > rope)."""

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    rho: float
    mean: float = field(repr=False)
    scale: float = field(repr=False)
    df: int = field(repr=False)

    @property
    def probs(self) -> tuple[float, float, float]:
        """(p_left, p_rope, p_right)."""
        return self.p_left, self.p_rope, self.p_right


@dataclass(frozen=True, repr=False)
class SignedRankResult(_ReprMixin):
    """Bayesian signed-rank test over N data sets (Benavoli et al. 2017), d = scores_b - scores_a.
    ``samples`` (n_samples, 3) are posterior draws of (θ_left, θ_rope, θ_right); ``p_left`` etc. are the
    fractions of draws in which that region is the most probable."""

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    n: int
    n_samples: int
    prior: float = field(repr=False)
    samples: np.ndarray = field(repr=False)

    @property
    def probs(self) -> tuple[float, float, float]:
        """(p_left, p_rope, p_right)."""
        return self.p_left, self.p_rope, self.p_right


def _check_pair(scores_a, scores_b, minimum: int = 1):
    a = as_finite_array(scores_a, "scores_a")
    b = as_finite_array(scores_b, "scores_b")
    check_consistent_length(scores_a=a, scores_b=b)
    if a.size < minimum:
        raise ValueError(f"scores_a has {a.size} value(s); at least {minimum} are needed")
    return a, b


def _check_real(x, name: str, *, minimum=0.0, below=None) -> float:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__}")
    x = float(x)
    if not np.isfinite(x) or x < minimum or (below is not None and x >= below):
        bound = f" and < {below}" if below is not None else ""
        raise ValueError(f"{name} must be a finite number >= {minimum}{bound}, got {x}")
    return x


def _check_bool(x, name: str) -> bool:
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {x!r}")
    return bool(x)


def sign_test(scores_a, scores_b, *, alpha=0.05, lower_is_better=True) -> SignTestResult:
    """Sign test of H0: A and B are equally good, from their scores on N data sets (Demšar 2006 §3.1.3).

    Count the data sets each learner wins; under H0 the wins are Binomial(N, 1/2). Ties are split evenly
    between the two and an odd tie is dropped, as Demšar recommends. The two-sided p-value is
    ``scipy.stats.binomtest(wins + ties // 2, n, 0.5).pvalue``. Weak (it ignores by how much a learner
    wins) but assumption-free: it works with scores that are not commensurable across data sets.

    Parameters
    ----------
    scores_a, scores_b : N scores each, one per data set (paired).
    alpha : float in (0, 1).
    lower_is_better : True for error rates (the lower score wins), False for accuracy or AUC.

    Example
    -------
    >>> r = sign_test([0.1, 0.2, 0.3, 0.1, 0.2], [0.2, 0.3, 0.4, 0.3, 0.2])
    >>> r.wins, r.losses, r.ties, r.n, round(r.pvalue, 4)
    (4, 0, 1, 4, 0.125)
    """
    a, b = _check_pair(scores_a, scores_b)
    alpha = _check_alpha(alpha)
    lower_is_better = _check_bool(lower_is_better, "lower_is_better")
    better = (a < b) if lower_is_better else (a > b)
    wins, ties = int(better.sum()), int((a == b).sum())
    losses = a.size - wins - ties
    stat, n = wins + ties // 2, wins + losses + 2 * (ties // 2)
    if n == 0:
        return SignTestResult(test="sign test", statistic=0.0, pvalue=1.0, df=None, alpha=alpha, critical_value=1.0,
                              reject=False, distribution="binom", wins=wins, losses=losses, ties=ties, n=0)
    p = float(stats.binomtest(stat, n, 0.5).pvalue)
    w = np.arange((n + 1) // 2, n + 1)
    ok = np.flatnonzero(np.minimum(1.0, 2 * stats.binom.sf(w - 1, n, 0.5)) < alpha)
    crit = float(w[ok[0]]) if ok.size else float(n + 1)
    return SignTestResult(test="sign test", statistic=float(stat), pvalue=p, df=None, alpha=alpha,
                          critical_value=crit, reject=bool(p < alpha), distribution="binom",
                          wins=wins, losses=losses, ties=ties, n=n)


def _signed_rank_sums(d: np.ndarray, zero_method: str) -> tuple[float, float, int]:
    """R+, R- and the number of differences ranked, with zeros handled as ``zero_method`` says."""
    if zero_method == "wilcox":
        d = d[d != 0]
    if d.size == 0:
        return 0.0, 0.0, 0
    r = stats.rankdata(np.abs(d))
    zero = d == 0
    if zero_method == "zsplit":
        half = r[zero].sum() / 2
        return float(r[d > 0].sum() + half), float(r[d < 0].sum() + half), int(d.size)
    return float(r[d > 0].sum()), float(r[d < 0].sum()), int(d.size - zero.sum() if zero_method == "pratt" else d.size)


def _wilcoxon_critical_t(n: int, alpha: float) -> float:
    """The largest T with P(T <= t) two-sided < alpha for n differences without ties (-1: none)."""
    if n > 50:
        mu, sd = n * (n + 1) / 4, np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
        return float(mu - stats.norm.isf(alpha / 2) * sd)
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for i in range(1, n + 1):  # subset sums of {1, ..., n}: the exact null distribution of R+
        counts[i:] = counts[i:] + counts[:-i].copy()
    cdf = np.cumsum(counts) / 2.0**n
    ok = np.flatnonzero(np.minimum(1.0, 2 * cdf[: n * (n + 1) // 4 + 1]) < alpha)
    return float(ok[-1]) if ok.size else -1.0


def _wilcoxon_z(d: np.ndarray, zero_method: str, r_plus: float) -> float:
    """-|z| of R+ under the normal approximation with the tie correction, as ``scipy.stats.wilcoxon(...,
    method="asymptotic").zstatistic`` (computed here once instead of a second SciPy call per test)."""
    kept = d[d != 0] if zero_method == "wilcox" else d
    n = kept.size
    _, t = np.unique(np.abs(kept), return_counts=True)
    mn, var = n * (n + 1) / 4, n * (n + 1) * (2 * n + 1)
    if zero_method == "pratt":
        n0 = int((kept == 0).sum())
        mn -= n0 * (n0 + 1) / 4
        var -= n0 * (n0 + 1) * (2 * n0 + 1)
        if n0:
            t = t[1:]  # the zeros' tie group is not counted
    var = (var - np.sum(t.astype(float) ** 3 - t) / 2) / 24
    return float(-abs((r_plus - mn) / np.sqrt(var)))


def _wilcoxon_permutation_p(d: np.ndarray, zero_method: str, r_plus: float) -> float:
    """Two-sided p-value of R+ over all 2^n sign flips of d (n <= 13): the permutation test SciPy's
    ``wilcoxon(method="auto")`` runs with ties or zeros, enumerated as one (2^n, n) matrix product instead
    of SciPy's per-permutation loop (a hundred times faster; tests/test_compare.py checks equality)."""
    keep = d != 0 if zero_method == "wilcox" else np.ones(d.size, dtype=bool)
    ranks = stats.rankdata(np.abs(d[keep]))
    dk = d[keep]
    const = ranks[dk == 0].sum() / 2 if zero_method == "zsplit" else 0.0
    n = dk.size
    signs = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1  # every sign pattern once
    null = np.where(dk != 0, signs, 0) @ ranks + const
    gamma = abs(np.finfo(float).eps * 100 * r_plus)
    p_less, p_greater = np.mean(null <= r_plus + gamma), np.mean(null >= r_plus - gamma)
    return float(min(1.0, 2 * min(p_less, p_greater)))


def wilcoxon(scores_a, scores_b, *, alpha=0.05, zero_method="zsplit", method="auto") -> WilcoxonResult:
    """Wilcoxon signed-rank test of H0: A and B are equally good over N data sets (Demšar 2006 §3.1.3).

    Rank the |d_i| of d = scores_b - scores_a (ties get average ranks); R+ sums the ranks of positive
    differences, R- of negative ones; T = min(R+, R-). Zero differences are split evenly between R+ and
    R- (``zero_method="zsplit"``, Demšar's choice; ``"wilcox"`` drops them, ``"pratt"`` ranks then drops
    them). The p-value is ``scipy.stats.wilcoxon(scores_b, scores_a, zero_method=..., method=...)``:
    exact for small N without ties, an exact permutation test for N <= 13 with ties or zeros, the normal
    approximation otherwise. Unlike the t-test over data sets it needs neither normal differences nor
    commensurable scores, and outliers (one data set with a huge difference) weigh only by their rank.

    Example
    -------
    >>> r = wilcoxon([0.1, 0.2, 0.3, 0.1, 0.2, 0.3], [0.2, 0.25, 0.4, 0.3, 0.2, 0.35])
    >>> r.r_plus, r.r_minus, round(r.pvalue, 4)
    (20.5, 0.5, 0.0625)
    """
    a, b = _check_pair(scores_a, scores_b)
    alpha = _check_alpha(alpha)
    if zero_method not in ("zsplit", "wilcox", "pratt"):
        raise ValueError(f"zero_method must be 'zsplit', 'wilcox' or 'pratt', got {zero_method!r}")
    if method not in ("auto", "exact", "approx"):
        raise ValueError(f"method must be 'auto', 'exact' or 'approx', got {method!r}")
    d = b - a
    n_zero = int((d == 0).sum())
    r_plus, r_minus, n = _signed_rank_sums(d, zero_method)
    t = min(r_plus, r_minus)
    ranked = d if zero_method != "wilcox" else d[d != 0]
    crit = _wilcoxon_critical_t(n, alpha) if n else -1.0
    if n == 0 or r_plus == r_minus:
        # no signed difference at all (or perfect balance): nothing speaks against H0; SciPy would warn or divide 0/0
        z, p, how = 0.0, 1.0, "none"
    else:
        has_ties = np.unique(np.abs(ranked)).size < ranked.size
        how = method if method != "auto" else ("approx" if d.size > 50 else "exact" if not (has_ties or n_zero)
                                               else "permutation" if d.size <= 13 else "approx")
        z = _wilcoxon_z(d, zero_method, r_plus)
        if how == "approx":
            p = float(min(1.0, 2 * stats.norm.sf(abs(z))))
        elif how == "permutation":
            p = _wilcoxon_permutation_p(d, zero_method, r_plus)
        else:
            p = float(stats.wilcoxon(b, a, zero_method=zero_method, method="exact").pvalue)
    return WilcoxonResult(test="Wilcoxon signed-rank test", statistic=float(t), pvalue=min(p, 1.0), df=None,
                          alpha=alpha, critical_value=crit, reject=bool(p < alpha), distribution="wilcoxon",
                          r_plus=r_plus, r_minus=r_minus, n=n, n_zero=n_zero, z=z, zero_method=zero_method,
                          method=how)


def holm(pvalues, *, alpha=0.05) -> HolmResult:
    """Holm's step-down correction for m tests (Holm 1979; Demšar 2006 §3.2.2).

    Sort the p-values p_(1) <= ... <= p_(m); the adjusted p-value of the i-th is
    max_{j <= i} min(1, (m - j + 1) p_(j)), and a hypothesis is rejected when its adjusted p-value is at
    most ``alpha`` — the same as comparing p_(i) with α / (m - i + 1) and stopping at the first that fails.
    Agrees with ``statsmodels.stats.multitest.multipletests(pvalues, alpha, method="holm")``.

    Example
    -------
    >>> r = holm([0.01, 0.04, 0.03, 0.005])
    >>> r.adjusted_pvalue.tolist(), r.reject.tolist()
    ([0.03, 0.06, 0.06, 0.02], [True, False, False, True])
    """
    p = as_finite_array(pvalues, "pvalues")
    if p.min() < 0 or p.max() > 1:
        raise ValueError(f"pvalues must lie in [0, 1], got {p[(p < 0) | (p > 1)][0]}")
    alpha = _check_alpha(alpha)
    m = p.size
    order = np.argsort(p, kind="stable")
    adj_sorted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    adj = np.empty(m)
    adj[order] = adj_sorted
    return HolmResult(pvalue=p, adjusted_pvalue=adj, reject=adj <= alpha, alpha=alpha)


def posthoc_vs_control(scores, control, *, method="holm", lower_is_better=True, alpha=0.05,
                       names=None) -> PosthocResult:
    """Compare every algorithm with a control after a Friedman test (Demšar 2006 §3.2.2).

    With mean ranks R_j over N data sets and k algorithms, z_i = (R_i - R_c) / sqrt(k(k+1)/(6N)) and
    p_i = 2 P(Z > |z_i|). ``method="holm"`` corrects the k - 1 p-values by :func:`holm`;
    ``method="bonferroni-dunn"`` multiplies them by k - 1 (capped at 1), equivalent to the critical
    difference CD = z_{α/(2(k-1))} sqrt(k(k+1)/(6N)) around the control. Holm is never less powerful.
    Only k - 1 comparisons instead of Nemenyi's k(k-1)/2: more power when a new method is tested
    against existing ones.

    Example
    -------
    >>> r = posthoc_vs_control([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]], 0)
    >>> r.others.tolist(), np.round(r.statistic, 3).tolist(), r.reject.tolist()
    ([1, 2], [1.591, 2.652], [False, True])
    """
    s = _check_scores_table(scores)
    n, k = s.shape
    if isinstance(control, (bool, np.bool_)) or not isinstance(control, numbers.Integral):
        raise TypeError(f"control must be a column index (int), got {type(control).__name__}")
    if not 0 <= int(control) < k:
        raise ValueError(f"control must be a column index in [0, {k - 1}], got {control}")
    control = int(control)
    if method not in ("holm", "bonferroni-dunn"):
        raise ValueError(f"method must be 'holm' or 'bonferroni-dunn', got {method!r}")
    lower_is_better = _check_bool(lower_is_better, "lower_is_better")
    alpha = _check_alpha(alpha)
    if names is None:
        names = _default_names(k)
    else:
        names = tuple(str(x) for x in names)
        if len(names) != k:
            raise ValueError(f"names has {len(names)} entries but scores has {k} algorithms (columns)")
    r = rank_matrix(s, lower_is_better=lower_is_better).mean(axis=0)
    se = float(np.sqrt(k * (k + 1) / (6 * n)))
    others = np.array([j for j in range(k) if j != control])
    z = (r[others] - r[control]) / se
    p = np.minimum(1.0, 2 * stats.norm.sf(np.abs(z)))
    if method == "holm":
        adj = holm(p, alpha=alpha).adjusted_pvalue
        rej = adj <= alpha
    else:
        adj = np.minimum(1.0, p * (k - 1))
        rej = adj <= alpha
    cd = float(stats.norm.isf(alpha / (2 * (k - 1))) * se)
    label = "Holm" if method == "holm" else "Bonferroni-Dunn"
    return PosthocResult(test=f"{label} post-hoc test vs control {names[control]}", control=control, others=others,
                         statistic=z, pvalue=p, adjusted_pvalue=adj, reject=rej, method=method, alpha=alpha,
                         mean_ranks=r, names=names, n_datasets=n, critical_difference=cd)


def _cliques(mean_ranks: np.ndarray, reject: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Maximal runs in mean-rank order with no rejected pair inside (runs of one and runs inside a longer
    run dropped), as :func:`cd_groups` does for Nemenyi's CD."""
    order = np.argsort(mean_ranks, kind="stable")
    k = order.size
    groups, last_end = [], -1
    for i in range(k):
        j = i
        while j + 1 < k and not reject[order[j + 1], order[i : j + 1]].any():
            j += 1
        if j > i and j > last_end:
            groups.append(tuple(int(x) for x in order[i : j + 1]))
            last_end = j
    return tuple(groups)


def pairwise_wilcoxon_holm(scores, *, lower_is_better=True, alpha=0.05, names=None) -> PairwiseWilcoxonResult:
    """Wilcoxon signed-rank tests for every pair of k algorithms over N data sets, Holm-corrected over the
    k(k-1)/2 pairs (Benavoli, Corani & Mangili 2016: the post-hoc test that does not depend on the other
    algorithms, unlike mean-rank tests). Its cliques are what :func:`evallib.plots.plot_cd_diagram` joins
    by a bar for a result of this kind.

    Example
    -------
    >>> E = [[.10, .12, .30], [.20, .18, .35], [.15, .16, .40], [.11, .10, .50],
    ...      [.30, .33, .40], [.20, .22, .30], [.25, .21, .31], [.12, .15, .20]]
    >>> pairwise_wilcoxon_holm(E).groups
    (('A', 'B'),)
    """
    s = _check_scores_table(scores)
    n, k = s.shape
    alpha = _check_alpha(alpha)
    lower_is_better = _check_bool(lower_is_better, "lower_is_better")
    if names is None:
        names = _default_names(k)
    else:
        names = tuple(str(x) for x in names)
        if len(names) != k or len(set(names)) != k:
            raise ValueError(f"names must be {k} distinct names, one per column of scores")
    r = rank_matrix(s, lower_is_better=lower_is_better).mean(axis=0)
    iu = np.triu_indices(k, 1)
    p_pairs = np.array([wilcoxon(s[:, i], s[:, j], alpha=alpha).pvalue for i, j in zip(*iu)])
    h = holm(p_pairs, alpha=alpha)
    p, adj, rej = np.ones((k, k)), np.ones((k, k)), np.zeros((k, k), dtype=bool)
    for mat, v in ((p, p_pairs), (adj, h.adjusted_pvalue), (rej, h.reject)):
        mat[iu] = v
        mat[iu[::-1]] = v
    cl = _cliques(r, rej)
    return PairwiseWilcoxonResult(names=names, mean_ranks=r, groups=tuple(tuple(names[i] for i in g) for g in cl),
                                  alpha=alpha, pvalue=p, adjusted_pvalue=adj, reject=rej, cliques=cl)


def correlated_bayesian_ttest(scores_a, scores_b, *, rho, rope=0.0) -> CorrelatedTTestResult:
    """Correlated Bayesian t-test on one data set's k-fold scores (Corani & Benavoli 2015; Benavoli et al. 2017).

    The posterior of the mean of d = scores_b - scores_a is a Student t with n - 1 degrees of freedom,
    location mean(d) and squared scale var(d) (1/n + ρ/(1 - ρ)) — the Nadeau–Bengio correction of
    chapter 08 (ρ = 1/k for one run of k-fold CV, ρ = n_test / n_total for repeated hold-outs).
    p_left = P(d < -rope), p_rope = P(|d| <= rope), p_right = P(d > rope): the region of practical
    equivalence (ROPE) is the difference too small to matter. With ``rope=0`` p_right is one minus the
    one-sided p-value of the corrected t-test. Zero variance: the posterior is a point mass at mean(d)
    (p = 0.5/0.5 when it sits exactly at a boundary with rope 0), as in baycomp.

    Example
    -------
    >>> r = correlated_bayesian_ttest([.80, .82, .79, .81, .80], [.83, .84, .80, .84, .82], rho=0.2, rope=0.01)
    >>> round(r.p_left, 3), round(r.p_rope, 3), round(r.p_right, 3)
    (0.002, 0.047, 0.95)
    """
    a, b = _check_pair(scores_a, scores_b, minimum=2)
    rho = _check_real(rho, "rho", minimum=0.0, below=1.0)
    rope = _check_real(rope, "rope")
    d = b - a
    n = d.size
    mean, sd = _mean_std(d)
    scale = sd * float(np.sqrt(1 / n + rho / (1 - rho)))
    if scale == 0:
        if rope == 0:
            pr = float(mean > 0) + 0.5 * float(mean == 0)
            pl, pe = 1.0 - pr, 0.0
        else:
            pl, pr = float(mean < -rope), float(mean > rope)
            pe = 1.0 - pl - pr
    else:
        if rope == 0:
            pr = float(stats.t.sf(-mean / scale, n - 1))
            pl, pe = 1.0 - pr, 0.0
        else:
            pl, pr = float(stats.t.cdf((-rope - mean) / scale, n - 1)), float(stats.t.sf((rope - mean) / scale, n - 1))
            pe = max(0.0, 1.0 - pl - pr)
    return CorrelatedTTestResult(p_left=pl, p_rope=pe, p_right=pr, rope=rope, rho=rho, mean=mean, scale=scale,
                                 df=n - 1)


def bayesian_signed_rank(scores_a, scores_b, *, rope=0.0, n_samples=50000, random_state=None,
                         prior=1.0) -> SignedRankResult:
    """Bayesian signed-rank test over N data sets (Benavoli, Corani, Mangili, Zaffalon & Ruggeri 2014;
    Benavoli et al. 2017).

    A Dirichlet process posterior on the distribution of d = scores_b - scores_a: weights
    w ~ Dirichlet(prior, 1, ..., 1) on the pseudo-observation z_0 = 0 and the N differences. Each draw gives
    θ_right = Σ_ij w_i w_j [z_i + z_j > 2 rope], θ_left likewise below -2 rope (a pair exactly on the
    boundary counts half), θ_rope = 1 - θ_left - θ_right; p_left, p_rope, p_right are the fractions of
    the ``n_samples`` draws in which that θ is the largest (Monte Carlo: standard error at most
    0.5/sqrt(n_samples)). The same posterior as ``baycomp.SignedRankTest(x, y, rope, prior=1)``.
    Vectorised: one Dirichlet draw matrix, pair sums through a matrix product.

    Example
    -------
    >>> a = [.80, .75, .90, .85, .70, .82, .78, .88]
    >>> b = [.83, .77, .91, .86, .74, .81, .80, .90]
    >>> r = bayesian_signed_rank(a, b, rope=0.01, random_state=0)
    >>> r.p_right > 0.5 > r.p_left
    True
    """
    a, b = _check_pair(scores_a, scores_b)
    rope = _check_real(rope, "rope")
    n_samples = check_positive_int(n_samples, "n_samples")
    prior = _check_real(prior, "prior")
    if prior == 0:
        raise ValueError("prior must be > 0 (the weight of the pseudo-observation at 0), got 0.0")
    rng = check_random_state(random_state)
    z = np.concatenate([[0.0], b - a])
    sums = z[:, None] + z[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
    weights = np.ones(z.size)
    weights[0] = prior
    samples = np.empty((n_samples, 3))
    step = max(1, 2_000_000 // z.size**2)  # bounded memory for many data sets
    for start in range(0, n_samples, step):
        w = rng.dirichlet(weights, size=min(step, n_samples - start))
        sl = slice(start, start + w.shape[0])
        samples[sl, 2] = ((w @ above) * w).sum(axis=1)
        samples[sl, 0] = 1.0 - samples[sl, 2] if rope == 0 else ((w @ below) * w).sum(axis=1)
    samples[:, 1] = 0.0 if rope == 0 else 1.0 - samples[:, 0] - samples[:, 2]
    pl, pe, pr = np.bincount(samples.argmax(axis=1), minlength=3) / n_samples
    return SignedRankResult(p_left=float(pl), p_rope=float(pe), p_right=float(pr), rope=rope, n=int(z.size - 1),
                            n_samples=n_samples, prior=prior, samples=samples)


# ----------------------------------------------------------------------------------------------------
# Every test of the course on the same simulated data sets: Type-I error and power (notebook 13)
# ----------------------------------------------------------------------------------------------------
ALL_TESTS = NULL_TESTS + (
    "correlated Bayesian t-test",
    "t-test over data sets",
    "sign test",
    "Wilcoxon signed-rank",
    "Bayesian signed-rank",
    "Friedman (k = 3)",
    "Friedman + Nemenyi",
    "Friedman + Holm vs control",
    "Friedman + Bonferroni-Dunn vs control",
)
_ONE_DATA_SET = len(NULL_TESTS) + 1  # the first eight tests look at one data set, the others at N


@dataclass(frozen=True, repr=False)
class RejectionRates(_ReprMixin):
    """How often each test of ``ALL_TESTS`` rejected H0 ("A and B are equally good"): its Type-I error
    when ``difference`` is 0, its power otherwise.

    ``rates[i]`` belongs to ``tests[i]`` and comes from ``n_runs[i]`` runs: ``n_trials`` data sets for
    the tests on one data set, ``n_trials // n_datasets`` groups of data sets for the tests over data
    sets. ``stderr`` is each rate's binomial standard error; ``rejections[i]`` the run-by-run decisions.
    """

    tests: tuple
    rates: np.ndarray
    stderr: np.ndarray
    n_runs: np.ndarray
    difference: float
    n_datasets: int
    alpha: float
    n_trials: int = field(repr=False)
    n_samples: int = field(repr=False)
    rejections: tuple = field(repr=False)

    def as_dict(self) -> dict:
        """``{test name: rejection rate}`` in the order of ``tests``."""
        return {t: float(r) for t, r in zip(self.tests, self.rates)}


def _trial_chunk(seeds, args):
    return [_trial(s, *args, third=True) for s in seeds]


def rejection_rates(n_trials=1000, *, difference=0.0, n_datasets=10, n_samples=200, separation=1.0, alpha=0.05,
                    n_resamples=30, n_folds=10, bayes_samples=4000, random_state=None,
                    n_jobs=None) -> RejectionRates:
    """Type-I error (``difference=0``) or power (``difference > 0``) of every comparison test in the course,
    on the simulated data sets of :func:`null_rejection_rates` (Dietterich 1998; Demšar 2006).

    Each of the ``n_trials`` data sets is drawn as in :func:`null_rejection_rates` with the same seeds, so
    with ``difference=0`` the first seven tests give exactly its rates. Learner B's feature x2 may be
    more informative: its Bayes error Φ(-s_B) is Φ(-``separation``) − ``difference``. A third learner C
    (a stump on a fresh feature like x1) joins for the tests of k = 3 algorithms. The tests:

    - on each data set: the seven of ``NULL_TESTS`` and the correlated Bayesian t-test on the
      ``n_folds``-fold differences (ρ = 1/k, ROPE 0);
    - on each group of ``n_datasets`` consecutive data sets, with each learner's k-fold mean error as its
      score: the paired t-test over data sets, the sign test, the Wilcoxon signed-rank test and the
      Bayesian signed-rank test (ROPE 0, ``bayes_samples`` posterior draws) for A against B; and for A, B, C
      the Friedman test, then (only after Friedman rejects, as Demšar prescribes) Nemenyi, Holm and
      Bonferroni–Dunn against the control B. These count a run as rejecting when any pair differs.

    A Bayesian test "rejects" when P(left) or P(right) exceeds 1 − α/2: the two-sided error budget of
    the frequentist tests. Every decision comes from the public functions of this module.

    Example
    -------
    >>> r = rejection_rates(20, n_datasets=10, random_state=0)
    >>> len(r.tests), r.n_runs[0], r.n_runs[-1]
    (16, 20, 2)
    """
    n_trials = check_positive_int(n_trials, "n_trials")
    n_datasets = check_positive_int(n_datasets, "n_datasets", minimum=5)
    if n_trials < n_datasets:
        raise ValueError(f"n_trials={n_trials} is smaller than n_datasets={n_datasets}: no group of data sets to test")
    m = check_positive_int(n_samples, "n_samples", minimum=20)
    separation = _check_real(separation, "separation")
    base = float(stats.norm.cdf(-separation))
    difference = _check_real(difference, "difference", below=base)
    alpha = _check_alpha(alpha)
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if n_folds > m // 2:
        raise ValueError(f"n_folds={n_folds} is too large for n_samples={m}; use at most {m // 2}")
    bayes_samples = check_positive_int(bayes_samples, "bayes_samples")
    rng = check_random_state(random_state)
    seeds = np.random.SeedSequence(int(rng.integers(0, 2**63 - 1))).spawn(n_trials)
    sep_b = float(-stats.norm.ppf(base - difference)) if difference > 0 else separation
    args = (m, separation, sep_b, n_resamples, n_folds)
    if n_jobs in (None, 1):
        trials = _trial_chunk(seeds, args)
    else:
        from joblib import Parallel, delayed

        chunks = np.array_split(np.arange(n_trials), max(1, min(n_trials, 4 * abs(int(n_jobs)))))
        parts = Parallel(n_jobs=n_jobs)(delayed(_trial_chunk)([seeds[i] for i in c], args) for c in chunks if len(c))
        trials = [row for part in parts for row in part]
    n_test = m // 3
    rej = [(_null_pvalues([t[:5] for t in trials], n_test / (m - n_test)) < alpha).T]
    folds = np.array([t[5] for t in trials])  # (n_trials, k, 3): fold errors of A, B, C
    cut = 1 - alpha / 2
    bayes_t = np.array([max(correlated_bayesian_ttest(f[:, 0], f[:, 1], rho=1 / n_folds).probs) > cut for f in folds])
    means = folds.mean(axis=1)
    groups = means[: (n_trials // n_datasets) * n_datasets].reshape(-1, n_datasets, 3)
    over = []
    cd = critical_difference(3, n_datasets, alpha)  # Nemenyi separates some pair iff max - min mean rank > CD
    for g in groups:
        a, b = g[:, 0], g[:, 1]
        fr = friedman(g, alpha=alpha)
        post = [posthoc_vs_control(g, 1, method=mt, alpha=alpha).reject.any() for mt in ("holm", "bonferroni-dunn")]
        over.append([
            paired_ttest(a, b, alpha=alpha).reject,
            sign_test(a, b, alpha=alpha).reject,
            wilcoxon(a, b, alpha=alpha).reject,
            max(bayesian_signed_rank(a, b, n_samples=bayes_samples, random_state=rng).probs) > cut,
            fr.reject, fr.reject and bool(np.ptp(fr.mean_ranks) > cd), fr.reject and post[0], fr.reject and post[1],
        ])
    over = np.array(over, dtype=bool).T
    rejections = tuple(rej[0]) + (bayes_t,) + tuple(over)
    rates = np.array([r.mean() for r in rejections])
    n_runs = np.array([r.size for r in rejections])
    return RejectionRates(tests=ALL_TESTS, rates=rates, stderr=np.sqrt(rates * (1 - rates) / n_runs), n_runs=n_runs,
                          difference=difference, n_datasets=n_datasets, alpha=alpha, n_trials=n_trials, n_samples=m,
                          rejections=rejections)
