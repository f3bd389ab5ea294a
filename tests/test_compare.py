"""Tests for evallib.compare against independent oracles: SciPy, statsmodels, the book's worked example
(西瓜书 表 2.5–2.7), published q_α values, brute-force definitions, and bad input for every function."""

import dataclasses
import math

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from evallib import compare as C

# The book's worked example (表 2.5): algorithm A ranks first everywhere, B and C tie on D2.
BOOK_RANKS = np.array([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]], dtype=float)
# Error rates producing exactly these ranks.
BOOK_ERRORS = np.array([[0.10, 0.20, 0.30], [0.12, 0.25, 0.25], [0.08, 0.15, 0.21], [0.20, 0.22, 0.24]])

# Published q_α rows (西瓜书 表 2.7; Demšar 2006, Table 5), k = 2..10. Test expectations only.
Q05 = [1.960, 2.344, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
Q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]


# ----------------------------------------------------------------------------------------------------
# Result objects
# ----------------------------------------------------------------------------------------------------
def test_results_are_frozen_with_common_fields_and_readable_repr():
    results = [
        C.binomial_test(3, 10, 0.3),
        C.ttest([0.1, 0.2, 0.15], 0.1),
        C.paired_ttest([0.1, 0.2, 0.15], [0.12, 0.25, 0.1]),
        C.ttest_5x2cv(np.arange(10).reshape(5, 2) / 100),
        C.combined_ftest_5x2cv(np.arange(10).reshape(5, 2) / 100),
        C.corrected_resampled_ttest([0.1, 0.2, 0.15], [0.12, 0.25, 0.1], test_train_ratio=0.5),
        C.mcnemar([[10, 5], [2, 3]]),
        C.friedman(BOOK_ERRORS),
        C.nemenyi(BOOK_ERRORS),
    ]
    for r in results:
        for name in ("statistic", "pvalue", "df", "alpha", "critical_value", "reject"):
            assert hasattr(r, name)
        assert 0 <= np.min(r.pvalue) <= np.max(r.pvalue) <= 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.statistic = 0
        text = repr(r)
        assert text.startswith(type(r).__name__ + "(") and "\n" not in text
        assert "np.float64" not in text and "pvalue=" in text
    assert "statistic=0.3," in repr(results[0]) and "reject=False" in repr(results[0])


# ----------------------------------------------------------------------------------------------------
# Binomial test
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "n_errors,m,eps0",
    [(0, 10, 0.3), (3, 10, 0.3), (6, 10, 0.3), (7, 10, 0.3), (12, 50, 0.1), (30, 200, 0.2), (5, 5, 0.5), (1, 17, 0.05)],
)
def test_binomial_test_pvalue_agrees_with_scipy_binomtest(n_errors, m, eps0):
    r = C.binomial_test(n_errors, m, eps0)
    ref = stats.binomtest(n_errors, m, eps0, alternative="greater").pvalue
    assert r.pvalue == pytest.approx(ref, rel=1e-10, abs=1e-15)
    assert r.statistic == n_errors / m
    assert r.reject == (r.pvalue < r.alpha)  # rejecting above the critical rate = tail below alpha


@given(
    m=st.integers(1, 300), eps0=st.floats(0, 1, allow_subnormal=False), alpha=st.sampled_from([0.01, 0.05, 0.1, 0.3])
)
@settings(max_examples=150, deadline=None)
def test_binomial_critical_count_is_the_smallest_count_with_tail_below_alpha(m, eps0, alpha):
    c = C.binomial_critical_count(m, eps0, alpha)
    # brute force by the definition: P(X > c) = sum_{i > c} pmf(i)
    pmf = np.array([math.comb(m, i) * eps0**i * (1 - eps0) ** (m - i) for i in range(m + 1)])
    tails = np.array([pmf[i + 1 :].sum() for i in range(m + 1)])
    assert tails[c] < alpha + 1e-12
    if c > 0:
        assert tails[c - 1] >= alpha - 1e-12
    r = C.binomial_test(min(c + 1, m), m, eps0, alpha)
    assert r.critical_value == c / m and r.critical_count == c


def test_binomial_test_worked_example_from_notes():
    # Note 000: m = 10 samples, eps0 = 0.3. P(X >= 4) = 0.3504 is far above 0.05: 4 errors do not reject.
    r4 = C.binomial_test(4, 10, 0.3)
    assert round(r4.pvalue, 4) == 0.3504 and not r4.reject
    # P(X > 5) = 0.0473 < 0.05 <= P(X > 4) = 0.1503: the critical count is 5, so 6 errors reject.
    assert C.binomial_critical_count(10, 0.3) == 5
    assert C.binomial_test(6, 10, 0.3).reject and not C.binomial_test(5, 10, 0.3).reject


def test_binomial_test_edge_rates():
    assert C.binomial_test(1, 20, 0.0).reject  # eps0 = 0: a single error rejects
    assert not C.binomial_test(20, 20, 1.0).reject  # eps0 = 1: nothing rejects
    assert C.binomial_test(0, 20, 0.5).pvalue == 1.0


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(n_errors=11, m=10, eps0=0.3), "larger than m"),
        (dict(n_errors=-1, m=10, eps0=0.3), "n_errors"),
        (dict(n_errors=2.5, m=10, eps0=0.3), "n_errors"),
        (dict(n_errors=1, m=0, eps0=0.3), "'m' parameter"),
        (dict(n_errors=1, m=10, eps0=1.2), "eps0"),
        (dict(n_errors=1, m=10, eps0=-0.1), "eps0"),
        (dict(n_errors=1, m=10, eps0=float("nan")), "eps0"),
        (dict(n_errors=1, m=10, eps0=0.3, alpha=0.0), "alpha"),
        (dict(n_errors=1, m=10, eps0=0.3, alpha=1.5), "alpha"),
    ],
)
def test_binomial_test_bad_input(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        C.binomial_test(**kwargs)


@pytest.mark.parametrize(
    "args,match",
    [
        ((0, 0.3), "'m' parameter"),
        ((10, 1.5), "eps0"),
        ((10, 0.3, 0), "alpha"),
        ((10.0, 0.3), "'m' parameter"),
        ((10, None), "eps0"),
    ],
)
def test_binomial_critical_count_bad_input(args, match):
    with pytest.raises((ValueError, TypeError), match=match):
        C.binomial_critical_count(*args)


# ----------------------------------------------------------------------------------------------------
# t-tests
# ----------------------------------------------------------------------------------------------------
@given(st.lists(st.floats(0, 1), min_size=2, max_size=30), st.floats(0, 1))
@settings(max_examples=150, deadline=None)
def test_ttest_agrees_with_scipy_ttest_1samp(rates, eps0):
    x = np.array(rates)
    if x.std(ddof=1) < 1e-6:  # SciPy's degenerate case (nan or a precision warning)
        return
    r = C.ttest(x, eps0)
    ref = stats.ttest_1samp(x, eps0)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)
    assert r.df == len(x) - 1
    assert r.critical_value == pytest.approx(stats.t.ppf(1 - 0.025, len(x) - 1))
    assert r.reject == (r.pvalue < 0.05)


def test_ttest_by_hand_formula_2_28():
    x = np.array([0.12, 0.15, 0.11, 0.18, 0.14])
    mu, sd = x.mean(), np.sqrt(((x - x.mean()) ** 2).sum() / 4)
    r = C.ttest(x, 0.1)
    assert r.statistic == pytest.approx(np.sqrt(5) * (mu - 0.1) / sd)
    assert r.critical_value == pytest.approx(2.776, abs=5e-4)  # t_{0.025, 4}, every t table


def test_ttest_zero_spread_is_explicit_not_nan():
    assert C.ttest([0.2, 0.2, 0.2], 0.2).statistic == 0 and C.ttest([0.2, 0.2, 0.2], 0.2).pvalue == 1
    r = C.ttest([0.3, 0.3, 0.3], 0.2)
    assert r.statistic == np.inf and r.pvalue == 0 and r.reject


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=2, max_size=20))
@settings(max_examples=150, deadline=None)
def test_paired_ttest_agrees_with_scipy_ttest_rel(pairs):
    a, b = np.array(pairs).T
    if (a - b).std(ddof=1) < 1e-6:
        return
    r = C.paired_ttest(a, b)
    ref = stats.ttest_rel(a, b)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)
    assert r.df == len(a) - 1


def test_paired_ttest_identical_learners_no_difference():
    r = C.paired_ttest([0.1, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert (r.statistic, r.pvalue, r.reject) == (0.0, 1.0, False)


def _five_by_two(seed=0):
    return np.random.default_rng(seed).normal(0.01, 0.03, size=(5, 2))


def test_ttest_5x2cv_book_and_dietterich_by_hand():
    d = _five_by_two()
    s2 = [(d[i, 0] - d[i].mean()) ** 2 + (d[i, 1] - d[i].mean()) ** 2 for i in range(5)]
    denom = np.sqrt(0.2 * sum(s2))
    book = C.ttest_5x2cv(d)
    diet = C.ttest_5x2cv(d, variant="dietterich")
    assert book.statistic == pytest.approx(0.5 * (d[0, 0] + d[0, 1]) / denom)
    assert diet.statistic == pytest.approx(d[0, 0] / denom)
    for r in (book, diet):
        assert r.df == 5
        assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(r.statistic), 5))
        assert r.critical_value == pytest.approx(2.571, abs=5e-4)  # t_{0.025, 5}


def test_combined_ftest_5x2cv_by_hand():
    d = _five_by_two(1)
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    r = C.combined_ftest_5x2cv(d)
    f = (d**2).sum() / (2 * s2.sum())
    assert r.statistic == pytest.approx(f)
    assert r.pvalue == pytest.approx(stats.f.sf(f, 10, 5))
    assert r.df == (10, 5) and r.critical_value == pytest.approx(4.735, abs=5e-4)  # F_{0.05}(10, 5)


def test_corrected_resampled_ttest_by_hand_and_reduces_to_plain_t():
    rng = np.random.default_rng(3)
    a, b = rng.uniform(0.1, 0.3, 15), rng.uniform(0.1, 0.3, 15)
    d = a - b
    r = C.corrected_resampled_ttest(a, b, test_train_ratio=0.25)
    t = d.mean() / np.sqrt((1 / 15 + 0.25) * d.var(ddof=1))
    assert r.statistic == pytest.approx(t)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 14))
    # a vanishing ratio is the plain paired t-test
    tiny = C.corrected_resampled_ttest(a, b, test_train_ratio=1e-15)
    assert tiny.statistic == pytest.approx(stats.ttest_rel(a, b).statistic)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: C.ttest([0.1], 0.1), "at least 2"),
        (lambda: C.ttest([], 0.1), "empty"),
        (lambda: C.ttest([0.1, 1.2], 0.1), "error_rates"),
        (lambda: C.ttest([0.1, np.nan], 0.1), "NaN"),
        (lambda: C.ttest([[0.1, 0.2]], 0.1), "1-D"),
        (lambda: C.ttest([0.1, 0.2], 1.1), "eps0"),
        (lambda: C.ttest([0.1, 0.2], 0.1, alpha=1), "alpha"),
        (lambda: C.paired_ttest([0.1, 0.2], [0.1, 0.2, 0.3]), "length mismatch"),
        (lambda: C.paired_ttest([0.1], [0.2]), "at least 2"),
        (lambda: C.paired_ttest([0.1, np.inf], [0.2, 0.1]), "inf"),
        (lambda: C.paired_ttest([0.1, 0.2], [0.2, 0.1], alpha=-0.1), "alpha"),
        (lambda: C.ttest_5x2cv(np.zeros((2, 5))), "shape"),
        (lambda: C.ttest_5x2cv(np.zeros(10)), "shape"),
        (lambda: C.ttest_5x2cv(np.zeros((5, 2)), variant="paper"), "variant"),
        (lambda: C.ttest_5x2cv(np.full((5, 2), np.nan)), "NaN"),
        (lambda: C.combined_ftest_5x2cv(np.zeros((5, 3))), "shape"),
        (lambda: C.combined_ftest_5x2cv(np.zeros((5, 2)), alpha=2), "alpha"),
        (lambda: C.corrected_resampled_ttest([0.1, 0.2], [0.2, 0.1], test_train_ratio=0), "test_train_ratio"),
        (lambda: C.corrected_resampled_ttest([0.1, 0.2], [0.2, 0.1], test_train_ratio="a"), "test_train_ratio"),
        (lambda: C.corrected_resampled_ttest([0.1, 0.2], [0.2], test_train_ratio=0.5), "length mismatch"),
    ],
)
def test_ttests_bad_input(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# ----------------------------------------------------------------------------------------------------
# McNemar
# ----------------------------------------------------------------------------------------------------
def test_mcnemar_table_book_layout_by_brute_force():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 200)
    a = np.where(rng.random(200) < 0.8, y, (y + 1) % 3)
    b = np.where(rng.random(200) < 0.7, y, (y + 2) % 3)
    t = C.mcnemar_table(y, a, b)
    count = lambda b_ok, a_ok: sum((bi == yi) == b_ok and (ai == yi) == a_ok for yi, ai, bi in zip(y, a, b))
    # rows: B correct / wrong; columns: A correct / wrong
    assert t.tolist() == [[count(True, True), count(True, False)], [count(False, True), count(False, False)]]
    assert t.sum() == 200


def test_mcnemar_table_string_labels():
    t = C.mcnemar_table(["good", "bad", "good"], ["good", "good", "good"], ["bad", "bad", "good"])
    assert t.tolist() == [[1, 1], [1, 0]]


@pytest.mark.parametrize("e01,e10", [(12, 3), (3, 12), (0, 5), (20, 31), (7, 6), (100, 70), (1, 0)])
@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_chi2_agrees_with_statsmodels(e01, e10, correction):
    table = [[40, e01], [e10, 25]]
    r = C.mcnemar(table, correction=correction)
    ref = sm_mcnemar(np.array(table), exact=False, correction=correction)
    assert r.statistic == pytest.approx(ref.statistic)
    assert r.pvalue == pytest.approx(ref.pvalue)
    assert r.df == 1 and r.critical_value == pytest.approx(3.8415, abs=1e-4)
    assert (r.e01, r.e10) == (e01, e10)


@pytest.mark.parametrize("e01,e10", [(12, 3), (0, 5), (20, 31), (7, 6), (4, 4), (9, 1)])
def test_mcnemar_exact_agrees_with_statsmodels_and_binomtest(e01, e10):
    r = C.mcnemar([[40, e01], [e10, 25]], exact=True)
    ref = sm_mcnemar(np.array([[40, e01], [e10, 25]]), exact=True)
    assert r.pvalue == pytest.approx(ref.pvalue)
    assert r.pvalue == pytest.approx(stats.binomtest(e01, e01 + e10, 0.5).pvalue)
    assert r.statistic == min(e01, e10)
    assert r.reject == (r.pvalue < 0.05) == (r.statistic <= r.critical_value)


def test_mcnemar_exact_critical_count_by_brute_force():
    # 9 discordant pairs (note 000's exam example: 8 better, 1 worse): which min counts reject at 0.05?
    r = C.mcnemar([[6, 8], [1, 5]], exact=True)
    rejecting = [s for s in range(5) if stats.binomtest(s, 9, 0.5).pvalue < 0.05]
    assert r.critical_value == max(rejecting) == 1 and r.reject
    assert C.mcnemar([[6, 3], [1, 5]], exact=True).critical_value == -1  # 4 pairs can never reject


def test_mcnemar_no_discordant_pairs_and_correction_never_negative():
    for exact in (False, True):
        r = C.mcnemar([[30, 0], [0, 20]], exact=exact)
        assert (r.statistic, r.pvalue, r.reject) == (0.0, 1.0, False)
    r = C.mcnemar([[30, 5], [5, 20]])  # |e01 - e10| = 0: (0 - 1)^2 would wrongly give 0.1
    assert r.statistic == 0.0 and r.pvalue == 1.0


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: C.mcnemar_table([0, 1], [0, 1, 1], [0, 1]), "length mismatch"),
        (lambda: C.mcnemar_table([], [], []), "empty"),
        (lambda: C.mcnemar_table([0.0, np.nan], [0, 1], [0, 1]), "y_true"),
        (lambda: C.mcnemar_table([[0, 1]], [0, 1], [0, 1]), "1-D"),
        (lambda: C.mcnemar([[1, 2, 3], [4, 5, 6]]), "2×2"),
        (lambda: C.mcnemar([[1, -2], [3, 4]]), ">= 0"),
        (lambda: C.mcnemar([[1, 2.5], [3, 4]]), "whole numbers"),
        (lambda: C.mcnemar([[1, np.nan], [3, 4]]), "NaN"),
        (lambda: C.mcnemar([[1, 2], [3, 4]], alpha=0), "alpha"),
    ],
)
def test_mcnemar_bad_input(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# ----------------------------------------------------------------------------------------------------
# Ranks, Friedman
# ----------------------------------------------------------------------------------------------------
@given(st.lists(st.lists(st.integers(0, 4), min_size=4, max_size=4), min_size=1, max_size=8), st.booleans())
@settings(max_examples=100, deadline=None)
def test_rank_matrix_by_the_definition(rows, lower):
    s = np.array(rows, dtype=float)
    r = C.rank_matrix(s, lower_is_better=lower)
    better = (s[:, None, :] < s[:, :, None]) if lower else (s[:, None, :] > s[:, :, None])
    ties = (s[:, None, :] == s[:, :, None]).sum(axis=2) - 1
    expected = 1 + better.sum(axis=2) + ties / 2  # 1 + number better + half the ties
    assert np.array_equal(r, expected)
    assert np.allclose(r.sum(axis=1), 4 * 5 / 2)


def test_friedman_book_worked_example():
    for scores, lower in ((BOOK_ERRORS, True), (1 - BOOK_ERRORS, False), (BOOK_RANKS, True)):
        r = C.friedman(scores, lower_is_better=lower)
        assert np.allclose(r.mean_ranks, [1, 2.125, 2.875])
        assert r.chi2 == pytest.approx(7.125)
        assert round(r.F, 3) == 24.429 and r.statistic == r.F
        assert r.df == (2, 6) and r.chi2_df == 2
        assert round(r.critical_value, 3) == 5.143  # the book's F(2, 6) at alpha = 0.05 (表 2.6)
        assert r.reject
        assert r.pvalue == pytest.approx(stats.f.sf(r.F, 2, 6))
        assert r.chi2_pvalue == pytest.approx(stats.chi2.sf(7.125, 2))


def test_friedman_book_table_2_6_critical_values():
    # 西瓜书 表 2.6 (alpha = 0.05), a few cells: (N, k) -> F critical value
    book = {(4, 3): 5.143, (5, 3): 4.459, (10, 3): 3.555, (4, 5): 3.259, (10, 5): 2.634, (8, 4): 3.072}
    for (n, k), value in book.items():
        r = C.friedman(np.random.default_rng(n * k).random((n, k)))
        assert round(r.critical_value, 3) == value


@given(st.integers(2, 12), st.integers(2, 7), st.integers(0, 10**6))
@settings(max_examples=120, deadline=None)
def test_friedman_tie_correction_agrees_with_scipy(n, k, seed):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 4, size=(n, k)).astype(float)  # many ties
    ranks = C.rank_matrix(s)
    if np.all(ranks == (k + 1) / 2):  # every row fully tied: SciPy divides by zero
        return
    if k < 3:
        return  # scipy.stats.friedmanchisquare needs at least 3 groups
    r = C.friedman(s, tie_correction=True)
    ref = stats.friedmanchisquare(*s.T)
    assert r.chi2 == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
    assert r.chi2_pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)


@given(st.integers(2, 12), st.integers(3, 7), st.integers(0, 10**6))
@settings(max_examples=80, deadline=None)
def test_friedman_without_ties_equals_scipy_either_way(n, k, seed):
    s = np.random.default_rng(seed).random((n, k))
    ref = stats.friedmanchisquare(*s.T)
    for tc in (False, True):
        r = C.friedman(s, tie_correction=tc)
        assert r.chi2 == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)


def test_friedman_uncorrected_differs_from_scipy_with_ties():
    r = C.friedman(BOOK_ERRORS)
    ref = stats.friedmanchisquare(*BOOK_ERRORS.T)
    assert r.chi2 == pytest.approx(7.125) and ref.statistic == pytest.approx(7.6)  # 7.125 / (1 - 6/96)
    assert C.friedman(BOOK_ERRORS, tie_correction=True).chi2 == pytest.approx(7.6)


def test_friedman_perfect_agreement_gives_infinite_F():
    s = np.tile([0.1, 0.2, 0.3, 0.4], (6, 1))
    r = C.friedman(s)
    assert r.chi2 == pytest.approx(6 * 3)  # N (k - 1), its maximum
    assert r.F == np.inf and r.F_pvalue == 0.0 and r.reject
    assert r.chi2_pvalue == pytest.approx(stats.chi2.sf(18, 3))


def test_friedman_no_difference_gives_zero():
    s = np.array([[1, 2, 3], [3, 1, 2], [2, 3, 1]], dtype=float)  # each algorithm has mean rank 2
    r = C.friedman(s)
    assert r.chi2 == pytest.approx(0, abs=1e-12) and r.F == pytest.approx(0, abs=1e-12) and r.pvalue == pytest.approx(1)
    r = C.friedman(np.ones((4, 3)), tie_correction=True)  # all tied everywhere: no evidence, no NaN
    assert r.chi2 == 0 and r.pvalue == 1


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: C.friedman([[0.1, 0.2, 0.3]]), "at least 2"),  # one data set
        (lambda: C.friedman([[0.1], [0.2], [0.3]]), "algorithm"),  # one algorithm
        (lambda: C.friedman([0.1, 0.2, 0.3]), "2-D"),
        (lambda: C.friedman(np.zeros((2, 2, 2))), "2-D"),
        (lambda: C.friedman([[0.1, np.nan], [0.2, 0.3]]), "NaN"),
        (lambda: C.friedman([["a", "b"], ["c", "d"]]), "numeric"),
        (lambda: C.friedman(BOOK_ERRORS, alpha=1.0), "alpha"),
        (lambda: C.rank_matrix([[0.1], [0.2]]), "algorithm"),
        (lambda: C.rank_matrix([0.1, 0.2]), "2-D"),
        (lambda: C.rank_matrix(np.empty((0, 3))), "empty"),
    ],
)
def test_friedman_and_ranks_bad_input(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# ----------------------------------------------------------------------------------------------------
# q_alpha, CD, Nemenyi
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha,row", [(0.05, Q05), (0.10, Q10)])
def test_q_alpha_reproduces_published_rows(alpha, row):
    got = np.array([C.q_alpha(k, alpha) for k in range(2, 11)])
    # The published tables agree to the last printed digit, give or take one unit (SciPy's exact values
    # round to 2.948 for k = 7, alpha = 0.05, and 2.460 for k = 5, alpha = 0.10, where the book prints
    # 2.949 and 2.459).
    assert np.abs(got - np.array(row)).max() <= 0.001 + 1e-9
    assert np.mean(np.round(got, 3) == np.array(row)) >= 8 / 9


def test_q_alpha_for_two_algorithms_is_the_normal_quantile():
    assert C.q_alpha(2, 0.05) == pytest.approx(stats.norm.isf(0.025), rel=1e-6)


def test_critical_difference_book_example():
    assert round(C.critical_difference(3, 4), 3) == 1.657
    assert C.critical_difference(3, 4) == pytest.approx(C.q_alpha(3) * np.sqrt(3 * 4 / 24))
    # more data sets, smaller CD; smaller alpha, larger CD
    assert C.critical_difference(5, 20) < C.critical_difference(5, 10)
    assert C.critical_difference(5, 10, 0.01) > C.critical_difference(5, 10, 0.05)


def test_nemenyi_book_example():
    r = C.nemenyi(BOOK_ERRORS, names=["A", "B", "C"])
    assert round(r.cd, 3) == 1.657 and r.critical_value == r.cd and round(r.q_alpha, 3) == 2.344
    assert np.allclose(r.statistic, np.abs(np.subtract.outer([1, 2.125, 2.875], [1, 2.125, 2.875])))
    assert r.significant_pairs() == [("A", "C")]  # 1.875 > CD; 1.125 and 0.75 are not
    assert r.groups == (("A", "B"), ("B", "C"))
    assert np.array_equal(r.reject, r.reject.T) and not r.reject.diagonal().any()


def test_nemenyi_pvalues_are_consistent_with_cd():
    rng = np.random.default_rng(5)
    s = rng.random((12, 5)) + np.linspace(0, 0.6, 5)
    r = C.nemenyi(s)
    iu = np.triu_indices(5, 1)
    assert np.array_equal(r.pvalue[iu] < 0.05, r.reject[iu])
    # a pair exactly CD apart has p-value alpha (the studentized range quantile, inverted)
    se = np.sqrt(5 * 6 / (6 * 12))
    assert stats.studentized_range.sf(r.cd / se * np.sqrt(2), 5, np.inf) == pytest.approx(0.05, rel=1e-6)


def test_cd_groups_by_brute_force():
    rng = np.random.default_rng(7)
    for _ in range(200):
        r = np.round(rng.uniform(1, 6, 6), 2)
        cd = float(rng.uniform(0.2, 3))
        groups = C.cd_groups(r, cd)
        # brute force: every set of >= 2 algorithms contiguous in rank order with spread <= cd, maximal
        order = np.argsort(r, kind="stable")
        runs = [tuple(order[i : j + 1]) for i in range(6) for j in range(i + 1, 6) if r[order[j]] - r[order[i]] <= cd]
        maximal = [g for g in runs if not any(set(g) < set(h) for h in runs)]
        assert sorted(map(tuple, map(sorted, groups))) == sorted(map(tuple, map(sorted, maximal)))


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: C.q_alpha(1), "k"),
        (lambda: C.q_alpha(2.5), "k"),
        (lambda: C.q_alpha(3, 0), "alpha"),
        (lambda: C.q_alpha(3, 1.5), "alpha"),
        (lambda: C.critical_difference(3, 0), "n_datasets"),
        (lambda: C.critical_difference(1, 4), "k"),
        (lambda: C.nemenyi([[0.1, 0.2]]), "at least 2"),
        (lambda: C.nemenyi([[0.1], [0.2]]), "algorithm"),
        (lambda: C.nemenyi(BOOK_ERRORS, names=["A", "B"]), "names"),
        (lambda: C.nemenyi(BOOK_ERRORS, names=["A", "A", "B"]), "distinct"),
        (lambda: C.nemenyi(BOOK_ERRORS, alpha=-1), "alpha"),
        (lambda: C.cd_groups([1, 2], -1), "cd"),
        (lambda: C.cd_groups([1, np.nan], 1), "NaN"),
    ],
)
def test_nemenyi_bad_input(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# ----------------------------------------------------------------------------------------------------
# The Type-I-error experiment
# ----------------------------------------------------------------------------------------------------
def test_stump_minimises_training_error_by_brute_force():
    rng = np.random.default_rng(0)
    m = 40
    for _ in range(30):
        y = rng.integers(0, 2, m)
        x = rng.normal(size=m) + (2 * y - 1)
        train = rng.random((3, m)) < 0.6
        wrong = C._stump_wrong(x, y, train)
        for s in range(3):
            xt, yt = x[train[s]], y[train[s]]
            cands = np.concatenate(([-np.inf], np.sort(xt)))
            best = min(np.sum((xt > t) != (yt == 1)) for t in cands)
            assert wrong[s][train[s]].sum() == best


def test_null_rejection_rates_show_dietterichs_findings():
    r = C.null_rejection_rates(400, random_state=0)
    rates = r.as_dict()
    # the resampled t-test rejects a true null far more often than alpha ...
    assert rates["resampled t-test"] > 0.3
    # ... while the valid tests stay within about 3 standard errors of alpha = 0.05
    bound = 0.05 + 3 * np.sqrt(0.05 * 0.95 / 400)
    for name in ("corrected resampled t-test", "McNemar", "5x2cv t-test (Dietterich)", "5x2cv combined F-test"):
        assert rates[name] < bound
    assert np.allclose(r.rates, (r.pvalues < 0.05).mean(axis=0))


def test_null_pvalues_agree_with_the_public_tests_trial_by_trial():
    seeds = np.random.SeedSequence(11).spawn(25)
    diffs = [C._null_trial(s, 60, 1.0, 8, 5) for s in seeds]
    diffs.append((np.zeros(8), np.full(5, 0.1), np.zeros((5, 2)), 0, 0))  # degenerate: no spread, no discordance
    p = C._null_pvalues(diffs, 20 / 40)
    for row, (d_res, d_cv, d52, e01, e10) in zip(p, diffs):
        zeros = np.zeros_like(d_res)
        expected = [
            C.paired_ttest(d_res, zeros).pvalue,
            C.corrected_resampled_ttest(d_res, zeros, test_train_ratio=0.5).pvalue,
            C.paired_ttest(d_cv, np.zeros_like(d_cv)).pvalue,
            C.mcnemar([[0, e01], [e10, 0]]).pvalue,
            C.ttest_5x2cv(d52).pvalue,
            C.ttest_5x2cv(d52, variant="dietterich").pvalue,
            C.combined_ftest_5x2cv(d52).pvalue,
        ]
        assert np.allclose(row, expected, rtol=1e-10, atol=1e-14)
    assert p[-1, 2] == 0.0 and p[-1, 0] == 1.0 and p[-1, 3] == 1.0


def test_null_trial_differences_split_by_split():
    # Rebuild the trial's data and splits from the same seed, fit the stump one split at a time, and
    # compare every difference and McNemar count with the batched computation (layout, orientation).
    m, j, k = 60, 4, 5
    seed = np.random.SeedSequence(5)
    d_res, d_cv, d52, e01, e10 = C._null_trial(seed, m, 1.0, j, k)
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    X = rng.normal(size=(m, 2)) + (2 * y - 1)[:, None]
    holdout = np.argsort(rng.random((j, m)), axis=1).argsort(axis=1) < m // 3
    fold = np.empty(m, dtype=int)
    fold[rng.permutation(m)] = np.arange(m) % k
    half = np.argsort(rng.random((5, m)), axis=1).argsort(axis=1) < m // 2

    def diff(test):
        wa = C._stump_wrong(X[:, 0], y, ~test[None])[0]
        wb = C._stump_wrong(X[:, 1], y, ~test[None])[0]
        return (wa[test].mean() - wb[test].mean()), wa, wb

    assert np.allclose(d_res, [diff(t)[0] for t in holdout])
    assert np.allclose(d_cv, [diff(fold == f)[0] for f in range(k)])
    assert np.allclose(d52, [[diff(half[i])[0], diff(~half[i])[0]] for i in range(5)])
    _, wa, wb = diff(holdout[0])
    t0 = holdout[0]
    table = C.mcnemar_table(y[t0], np.where(wa[t0], 1 - y[t0], y[t0]), np.where(wb[t0], 1 - y[t0], y[t0]))
    assert (e01, e10) == (table[0, 1], table[1, 0])


def test_null_rejection_rates_reproducible_and_independent_of_n_jobs():
    a = C.null_rejection_rates(12, random_state=3)
    b = C.null_rejection_rates(12, random_state=3, n_jobs=2)
    assert np.array_equal(a.pvalues, b.pvalues)
    assert not np.array_equal(a.pvalues, C.null_rejection_rates(12, random_state=4).pvalues)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(n_trials=0), "n_trials"),
        (dict(n_trials=5, n_samples=10), "n_samples"),
        (dict(n_trials=5, separation=-1), "separation"),
        (dict(n_trials=5, alpha=1.0), "alpha"),
        (dict(n_trials=5, n_folds=1), "n_folds"),
        (dict(n_trials=5, n_samples=30, n_folds=20), "n_folds"),
        (dict(n_trials=5, n_resamples=1), "n_resamples"),
        (dict(n_trials=5, random_state="x"), "random_state"),
    ],
)
def test_null_rejection_rates_bad_input(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        C.null_rejection_rates(**kwargs)
