"""Tests for evallib.uncertainty against independent oracles: statsmodels' proportion_confint, a brute-force
O(m·n) DeLong written here from the definition (placement values, ties ½), SciPy's t distribution and
bootstrap, and a plain-loop .632/.632+ from Efron & Tibshirani's formulas on the same Bootstrap samples."""

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import roc_auc_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from statsmodels.stats.proportion import proportion_confint

import evallib as el
from evallib import uncertainty as U

SM_METHOD = {"wilson": "wilson", "clopper-pearson": "beta", "normal": "normal"}


# ----------------------------------------------------------------------------------------------------
# Error-rate intervals: statsmodels is the oracle
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", U.INTERVAL_METHODS)
@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
@pytest.mark.parametrize("m", [1, 2, 7, 20, 100, 1000])
def test_error_rate_interval_matches_statsmodels(method, confidence, m):
    for k in sorted({0, 1, m // 3, m // 2, m - 1, m}):
        r = U.error_rate_interval(k, m, confidence=confidence, method=method)
        lo, hi = proportion_confint(k, m, alpha=1 - confidence, method=SM_METHOD[method])
        np.testing.assert_allclose([r.low, r.high], np.clip([lo, hi], 0, 1), rtol=1e-9, atol=1e-12)
        assert r.estimate == k / m and r.method == method and 0 <= r.low <= r.estimate <= r.high <= 1


@settings(max_examples=60, deadline=None)
@given(m=st.integers(1, 3000), frac=st.floats(0, 1), conf=st.floats(0.5, 0.999))
def test_error_rate_interval_property_vs_statsmodels(m, frac, conf):
    k = int(round(frac * m))
    for method in U.INTERVAL_METHODS:
        r = U.error_rate_interval(k, m, confidence=conf, method=method)
        lo, hi = proportion_confint(k, m, alpha=1 - conf, method=SM_METHOD[method])
        np.testing.assert_allclose([r.low, r.high], np.clip([lo, hi], 0, 1), rtol=1e-7, atol=1e-10)


def test_clopper_pearson_inverts_the_binomial_test():
    # The exact interval's upper end is the eps0 at which the one-sided binomial test of chapter 08
    # (H0: eps >= eps0 seen from below) has p = alpha/2: P(X <= k | high) = 0.025.
    k, m = 3, 20
    r = U.error_rate_interval(k, m, method="clopper-pearson")
    assert np.isclose(stats.binom.cdf(k, m, r.high), 0.025)
    assert np.isclose(stats.binom.sf(k - 1, m, r.low), 0.025)
    assert np.isclose(el.compare.binomial_test(k, m, r.low).pvalue, 0.025)


def test_wald_has_zero_width_at_the_ends_and_no_negative_zero():
    r = U.error_rate_interval(0, 50, method="normal")
    assert (r.low, r.high) == (0.0, 0.0) and str(r.low) == "0.0"
    assert U.error_rate_interval(0, 50, method="wilson").high > 0.05


# ----------------------------------------------------------------------------------------------------
# Coverage
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", U.INTERVAL_METHODS)
@pytest.mark.parametrize("m, eps", [(20, 0.05), (100, 0.2), (37, 0.5), (1000, 0.01)])
def test_coverage_exact_is_the_binomial_sum_over_statsmodels_intervals(method, m, eps):
    covered = 0.0
    for k in range(m + 1):
        lo, hi = np.clip(proportion_confint(k, m, alpha=0.05, method=SM_METHOD[method]), 0, 1)
        if lo <= eps <= hi:
            covered += stats.binom.pmf(k, m, eps)
    c = U.interval_coverage(m, eps, method=method, n_trials=20000, random_state=1)
    assert np.isclose(c.exact, covered, atol=1e-12)
    assert abs(c.simulated - c.exact) < 4 * np.sqrt(c.exact * (1 - c.exact) / c.n_trials) + 1e-9
    assert np.isclose(U.coverage_curve(m, [eps], method=method)[0], covered, atol=1e-12)


def test_clopper_pearson_covers_at_least_the_confidence_and_wald_fails_near_zero():
    grid = np.linspace(0.005, 0.995, 199)
    for m in (10, 50, 200):
        assert U.coverage_curve(m, grid, method="clopper-pearson").min() >= 0.95 - 1e-9
    assert U.interval_coverage(20, 0.01, method="normal", random_state=0).exact < 0.2


# ----------------------------------------------------------------------------------------------------
# k-fold mean
# ----------------------------------------------------------------------------------------------------
def test_kfold_mean_interval_naive_is_scipy_t_interval_and_corrected_inverts_the_corrected_test():
    x = np.array([0.11, 0.09, 0.14, 0.10, 0.12, 0.08, 0.13, 0.10, 0.09, 0.12])
    naive = U.kfold_mean_interval(x, confidence=0.9)
    lo, hi = stats.t.interval(0.9, x.size - 1, loc=x.mean(), scale=stats.sem(x))
    np.testing.assert_allclose([naive.low, naive.high], [lo, hi], rtol=1e-12)
    corr = U.kfold_mean_interval(x, test_train_ratio=1 / 9)
    for end in (corr.low, corr.high):  # the corrected t-test against the interval's end has p = 0.05 exactly
        p = el.compare.corrected_resampled_ttest(x, np.full(x.size, end), test_train_ratio=1 / 9).pvalue
        assert np.isclose(p, 0.05)
    assert corr.high - corr.low > naive.high - naive.low
    same = U.kfold_mean_interval([0.1, 0.1, 0.1])
    assert (same.low, same.high, same.std) == (0.1, 0.1, 0.0)


# ----------------------------------------------------------------------------------------------------
# DeLong: a brute-force O(m·n) oracle from the definition
# ----------------------------------------------------------------------------------------------------
def brute_delong(y, score_list):
    """AUCs and DeLong covariance from the placement values, pair by pair (ψ = 1, ½, 0), plain sums."""
    y = np.asarray(y)
    pos_idx = [i for i in range(len(y)) if y[i] == 1]
    neg_idx = [j for j in range(len(y)) if y[j] != 1]
    m, n = len(pos_idx), len(neg_idx)

    def psi(a, b):
        return 1.0 if a > b else (0.5 if a == b else 0.0)

    V10, V01 = [], []
    for s in score_list:
        V10.append([sum(psi(s[i], s[j]) for j in neg_idx) / n for i in pos_idx])
        V01.append([sum(psi(s[i], s[j]) for i in pos_idx) / m for j in neg_idx])
    aucs = [sum(v) / m for v in V10]
    r = len(score_list)
    cov = np.zeros((r, r))
    for a, b in itertools.product(range(r), repeat=2):
        s10 = sum((V10[a][i] - aucs[a]) * (V10[b][i] - aucs[b]) for i in range(m)) / (m - 1)
        s01 = sum((V01[a][j] - aucs[a]) * (V01[b][j] - aucs[b]) for j in range(n)) / (n - 1)
        cov[a, b] = s10 / m + s01 / n
    return np.array(aucs), cov, V10, V01


def _scores_with_ties(rng, n, n_levels=None):
    y = rng.integers(0, 2, n)
    y[:2], y[2:4] = 1, 0
    s = rng.normal(size=n) + y
    if n_levels:
        s = np.round(s * n_levels / 4) / (n_levels / 4)
    return y, s


@pytest.mark.parametrize("n, levels, seed", [(4, None, 0), (9, 2, 1), (40, None, 2), (60, 3, 3), (150, 8, 4)])
def test_roc_auc_interval_matches_brute_force_delong(n, levels, seed):
    rng = np.random.default_rng(seed)
    y, s = _scores_with_ties(rng, n, levels)
    aucs, cov, V10, V01 = brute_delong(y, [s])
    r = U.roc_auc_interval(y, s, confidence=0.9)
    assert np.isclose(r.auc, aucs[0]) and np.isclose(r.auc, roc_auc_score(y, s))
    assert np.isclose(r.variance, cov[0, 0], rtol=1e-10, atol=1e-15)
    z = stats.norm.ppf(0.95)
    np.testing.assert_allclose([r.low, r.high], np.clip(aucs[0] + np.array([-1, 1]) * z * np.sqrt(cov[0, 0]), 0, 1))
    v10, v01 = U.structural_components(y, s)
    np.testing.assert_allclose(v10, V10[0])
    np.testing.assert_allclose(v01, V01[0])


def test_ten_melons_of_chapter_05():
    score = np.array([0.95, 0.86, 0.78, 0.70, 0.70, 0.62, 0.55, 0.47, 0.40, 0.31])
    label = np.array([1, 1, 0, 1, 0, 1, 0, 1, 0, 0])
    v10, v01 = U.structural_components(label, score)
    # by hand: melon 4 (0.70, good) ties melon 5 (0.70, bad): ½
    assert v10.tolist() == [1.0, 1.0, 0.7, 0.6, 0.4] and v01.tolist() == [0.4, 0.5, 0.8, 1.0, 1.0]
    r = U.roc_auc_interval(label, score)
    assert r.auc == 0.74 and np.isclose(r.variance, np.var(v10, ddof=1) / 5 + np.var(v01, ddof=1) / 5)


@pytest.mark.parametrize("n, levels, seed", [(6, None, 0), (12, 2, 1), (50, None, 2), (120, 4, 3)])
def test_delong_test_matches_brute_force(n, levels, seed):
    rng = np.random.default_rng(seed)
    y, a = _scores_with_ties(rng, n, levels)
    b = a + rng.normal(scale=1.0, size=n)
    if levels:
        b = np.round(b)
    aucs, cov, _, _ = brute_delong(y, [a, b])
    r = U.delong_test(y, a, b)
    np.testing.assert_allclose([r.auc_a, r.auc_b], aucs)
    np.testing.assert_allclose(r.covariance, cov, rtol=1e-10, atol=1e-15)
    z = (aucs[0] - aucs[1]) / np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    assert np.isclose(r.statistic, z) and np.isclose(r.pvalue, 2 * stats.norm.sf(abs(z)))
    assert r.reject == (r.pvalue < 0.05) and r.df is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.statistic = 0


def test_delong_degenerate_cases_give_no_nan():
    y = [1, 1, 0, 0]
    r = U.delong_test(y, [0.9, 0.8, 0.2, 0.1], [0.9, 0.8, 0.2, 0.1])
    assert (r.statistic, r.pvalue, r.reject) == (0.0, 1.0, False)
    perfect = U.roc_auc_interval(y, [0.9, 0.8, 0.2, 0.1])
    assert (perfect.auc, perfect.variance, perfect.low, perfect.high) == (1.0, 0.0, 1.0, 1.0)
    # identical AUCs of different scorers: z = 0 exactly
    assert U.delong_test(y, [0.9, 0.8, 0.2, 0.1], [0.8, 0.9, 0.1, 0.2]).statistic == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 4)), min_size=4, max_size=30))
def test_delong_variance_property_with_heavy_ties(pairs):
    y = np.array([p[0] for p in pairs])
    s = np.array([p[1] for p in pairs], dtype=float)
    if min(y.sum(), (1 - y).sum()) < 2:
        with pytest.raises(ValueError, match="y_true"):
            U.roc_auc_interval(y, s)
        return
    aucs, cov, _, _ = brute_delong(y, [s])
    r = U.roc_auc_interval(y, s)
    assert np.isclose(r.auc, aucs[0]) and np.isclose(r.variance, max(cov[0, 0], 0), atol=1e-14)


def test_delong_at_a_million_scores_runs_without_a_matrix():
    # 5·10^5 × 5·10^5 float64 would need 2 TB; the sort-based components need O(N).
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 10**6)
    s = rng.normal(size=y.size) + 0.5 * y
    r = U.roc_auc_interval(y, s)
    assert np.isclose(r.auc, el.curves.roc_auc(y, s))
    assert 0 < r.variance < 1e-5


# ----------------------------------------------------------------------------------------------------
# .632 / .632+: plain loops from Efron & Tibshirani (1997) on the same Bootstrap samples
# ----------------------------------------------------------------------------------------------------
def brute_632(model, X, y, n_repeats, random_state):
    from sklearn.base import clone

    m = len(y)
    errs = [[] for _ in range(m)]
    repeat_rates = []
    for train, test in el.splits.Bootstrap(n_repeats, random_state=random_state).split(X, y):
        pred = clone(model).fit(X[train], y[train]).predict(X[test])
        for i, p in zip(test, pred):
            errs[i].append(float(p != y[i]))
        repeat_rates.append(sum(float(p != y[i]) for i, p in zip(test, pred)) / len(test))
    per_sample = [sum(e) / len(e) for e in errs if e]
    err1 = sum(per_sample) / len(per_sample)
    full = clone(model).fit(X, y).predict(X)
    err = sum(float(a != b) for a, b in zip(full, y)) / m
    gamma = 0.0
    for c in set(y.tolist()) | set(full.tolist()):
        p_c = sum(1 for v in y if v == c) / m
        q_c = sum(1 for v in full if v == c) / m
        gamma += p_c * (1 - q_c)
    e632 = 0.368 * err + 0.632 * err1
    err1p = min(err1, gamma)
    R = (err1p - err) / (gamma - err) if (err1 > err and gamma > err) else 0.0
    R = min(max(R, 0.0), 1.0)
    w = 0.632 / (1 - 0.368 * R)
    e632p = (1 - w) * err + w * err1p
    # Efron & Tibshirani's eq. (32) form, the same number when Err1 is not capped
    if err1 <= gamma:
        assert np.isclose(e632p, e632 + (err1p - err) * 0.368 * 0.632 * R / (1 - 0.368 * R))
    return dict(
        err=err, err1=err1, gamma=gamma, R=R, e632=e632, e632p=e632p, w=w, oob=sum(repeat_rates) / len(repeat_rates)
    )


@pytest.mark.parametrize(
    "model, n, seed",
    [
        (DecisionTreeClassifier(random_state=0), 40, 0),
        (KNeighborsClassifier(1), 30, 1),
        (DecisionTreeClassifier(max_depth=1, random_state=0), 35, 2),
    ],
)
def test_bootstrap_632_matches_plain_formulas(model, n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] + rng.normal(scale=1.0, size=n) > 0).astype(int)
    ref = brute_632(model, X, y, 25, seed)
    plus = U.bootstrap_632(model, X, y, n_repeats=25, random_state=seed)
    plain = U.bootstrap_632(model, X, y, n_repeats=25, method=".632", random_state=seed)
    assert np.isclose(plus.training_error, ref["err"]) and np.isclose(plus.oob_error, ref["err1"])
    assert np.isclose(plus.no_information_rate, ref["gamma"])
    assert np.isclose(plus.relative_overfitting_rate, ref["R"]) and np.isclose(plus.weight, ref["w"])
    assert np.isclose(plus.estimate, ref["e632p"]) and np.isclose(plain.estimate, ref["e632"])
    assert plain.weight == 0.632 and plus.estimate >= plain.estimate - 1e-12
    # chapter 02's out-of-bag estimate on the same samples is evallib.evaluation.evaluate over Bootstrap
    oob = el.evaluation.evaluate(model, X, y, el.splits.Bootstrap(25, random_state=seed)).mean()
    assert np.isclose(plus.repeat_oob_error, ref["oob"]) and np.isclose(plus.repeat_oob_error, oob)


def test_bootstrap_632_multiclass_gamma_and_capping():
    # labels unrelated to X: the no-information rate of a 3-class problem, and Err1 capped at gamma
    rng = np.random.default_rng(5)
    X = rng.normal(size=(45, 3))
    y = np.repeat([0, 1, 2], 15)
    ref = brute_632(KNeighborsClassifier(1), X, y, 30, 7)
    r = U.bootstrap_632(KNeighborsClassifier(1), X, y, n_repeats=30, random_state=7)
    assert np.isclose(r.no_information_rate, ref["gamma"]) and np.isclose(r.estimate, ref["e632p"])
    assert r.training_error == 0 and np.isclose(r.no_information_rate, 2 / 3)


# ----------------------------------------------------------------------------------------------------
# Bootstrap interval: scipy.stats.bootstrap is the engine
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_bootstrap_interval_is_scipy_bootstrap(method):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 80)
    s = rng.normal(size=80) + y
    r = U.bootstrap_interval(el.curves.roc_auc, y, s, method=method, n_resamples=500, random_state=3)
    ref = stats.bootstrap(
        (y, s),
        roc_auc_score,
        paired=True,
        vectorized=False,
        n_resamples=500,
        method=method,
        rng=np.random.default_rng(3),
    )
    np.testing.assert_allclose([r.low, r.high], [ref.confidence_interval.low, ref.confidence_interval.high])
    assert np.isclose(r.estimate, roc_auc_score(y, s)) and r.low < r.estimate < r.high


def test_bootstrap_interval_of_an_error_rate_is_near_wilson_on_a_large_test_set():
    y = np.zeros(2000, dtype=int)
    pred = y.copy()
    pred[:300] = 1
    b = U.bootstrap_interval(el.metrics.error_rate, y, pred, method="percentile", n_resamples=1000, random_state=0)
    w = U.error_rate_interval(300, 2000)
    assert abs(b.low - w.low) < 0.005 and abs(b.high - w.high) < 0.005


# ----------------------------------------------------------------------------------------------------
# Bad input: errors name the argument
# ----------------------------------------------------------------------------------------------------
BAD = [
    (lambda: U.error_rate_interval(5, 3), ValueError, "n_errors"),
    (lambda: U.error_rate_interval(-1, 3), ValueError, "n_errors"),
    (lambda: U.error_rate_interval(1.5, 3), TypeError, "n_errors"),
    (lambda: U.error_rate_interval(1, 0), ValueError, "m"),
    (lambda: U.error_rate_interval(1, 10, confidence=1.0), ValueError, "confidence"),
    (lambda: U.error_rate_interval(1, 10, confidence=0), ValueError, "confidence"),
    (lambda: U.error_rate_interval(1, 10, method="agresti"), ValueError, "method"),
    (lambda: U.interval_coverage(10, 1.5), ValueError, "error_rate"),
    (lambda: U.interval_coverage(10, 0.1, n_trials=0), ValueError, "n_trials"),
    (lambda: U.coverage_curve(10, [0.1, np.nan]), ValueError, "error_rates"),
    (lambda: U.kfold_mean_interval([0.1]), ValueError, "scores"),
    (lambda: U.kfold_mean_interval([0.1, np.nan]), ValueError, "scores"),
    (lambda: U.kfold_mean_interval([0.1, 0.2], test_train_ratio=-1), ValueError, "test_train_ratio"),
    (lambda: U.roc_auc_interval([], []), ValueError, "empty"),
    (lambda: U.roc_auc_interval([1, 1, 1], [0.1, 0.2, 0.3]), ValueError, "one class"),
    (lambda: U.roc_auc_interval([1, 0, 1, 0], [0.1, 0.2, 0.3]), ValueError, "y_true has 4"),
    (lambda: U.roc_auc_interval([1, 0, 1, 0], [0.1, np.nan, 0.3, 0.2]), ValueError, "scores"),
    (lambda: U.roc_auc_interval([1, 0, 0, 0], [0.1, 0.2, 0.3, 0.4]), ValueError, "at least 2"),
    (lambda: U.roc_auc_interval([1, 0, 1, 0], [1, 2, 3, 4], confidence=1.5), ValueError, "confidence"),
    (lambda: U.delong_test([1, 0, 1, 0], [1, 2, 3, 4], [1, 2, 3]), ValueError, "scores_b has 3"),
    (lambda: U.delong_test([1, 0, 1, 0], [1, 2, 3, 4], [1, 2, np.inf, 3]), ValueError, "scores_b"),
    (lambda: U.delong_test([1, 0, 1, 0], [1, 2, 3], [1, 2, 3, 4]), ValueError, "scores_a has 3"),
    (lambda: U.delong_test([1, 0, 1, 2], [1, 2, 3, 4], [1, 2, 3, 4]), ValueError, "binary"),
    (lambda: U.bootstrap_632("tree", np.zeros((4, 1)), [0, 1, 0, 1]), TypeError, "model"),
    (lambda: U.bootstrap_632(DecisionTreeClassifier(), np.zeros((4, 1)), [0, 1, 0]), ValueError, "length"),
    (
        lambda: U.bootstrap_632(DecisionTreeClassifier(), np.zeros((4, 1)), [0, 1, 0, 1], method="632"),
        ValueError,
        "method",
    ),
    (
        lambda: U.bootstrap_632(DecisionTreeClassifier(), np.zeros((4, 1)), [0, 1, 0, 1], n_repeats=0),
        ValueError,
        "n_repeats",
    ),
    (lambda: U.bootstrap_632(DecisionTreeClassifier(), np.zeros((4, 1)), [0, 1, np.nan, 1]), ValueError, "y"),
    (lambda: U.bootstrap_interval(None, [0, 1], [0, 1]), TypeError, "metric"),
    (lambda: U.bootstrap_interval(el.metrics.error_rate, [0, 1], [0, 1, 1]), ValueError, "length"),
    (lambda: U.bootstrap_interval(el.metrics.error_rate, [], []), ValueError, "y_true"),
    (lambda: U.bootstrap_interval(el.metrics.error_rate, [0, 1], [0, 1], method="bca"), ValueError, "method"),
    (lambda: U.bootstrap_interval(el.metrics.error_rate, [0, 1], [0, 1], n_resamples=1), ValueError, "n_resamples"),
]


@pytest.mark.parametrize("call, exc, match", BAD)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_results_have_stable_one_line_reprs():
    r = U.error_rate_interval(3, 20)
    assert repr(r) == (
        "ErrorRateInterval(estimate=0.15, low=0.05237, high=0.3604, method='wilson', confidence=0.95, n_errors=3, m=20)"
    )
    assert "\n" not in repr(U.delong_test([1, 0, 1, 0], [1, 2, 3, 4], [2, 1, 4, 3]))
