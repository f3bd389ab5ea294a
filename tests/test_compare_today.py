"""Chapter 13 (beyond the book): Demšar's and Benavoli's tests against independent oracles.

Oracles: scipy.stats.wilcoxon and binomtest, statsmodels' multipletests(method="holm"), baycomp's
CorrelatedTTest (exact) and SignedRankTest (Monte Carlo), Demšar's (2006) tables and formulas by brute force.
"""

import itertools

import numpy as np
import pytest
from scipy import stats

from evallib import compare as cmp

baycomp = pytest.importorskip("baycomp")
multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests


def _pairs(seed, n, levels=5):
    """Paired scores on a coarse grid: many ties and zero differences, as real error rates have."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, levels, n) / 10, rng.integers(0, levels, n) / 10


# ------------------------------------------------------------------------------------------------ sign test
@pytest.mark.parametrize("seed", range(40))
def test_sign_test_matches_binomtest_with_ties_split(seed):
    a, b = _pairs(seed, int(np.random.default_rng(seed).integers(1, 30)))
    r = cmp.sign_test(a, b)
    wins, losses, ties = int(np.sum(a < b)), int(np.sum(a > b)), int(np.sum(a == b))
    assert (r.wins, r.losses, r.ties) == (wins, losses, ties)
    n = wins + losses + 2 * (ties // 2)
    assert r.n == n
    if n:
        assert r.pvalue == pytest.approx(stats.binomtest(wins + ties // 2, n, 0.5).pvalue, rel=1e-12)
        # critical value by brute force: the smallest number of wins whose two-sided p is below alpha
        ok = [w for w in range(n + 1) if w >= n / 2 and stats.binomtest(w, n, 0.5).pvalue < 0.05]
        assert r.critical_value == (ok[0] if ok else n + 1)
    assert r.reject == (r.pvalue < 0.05)


def test_sign_test_direction_and_tiny_samples():
    up = cmp.sign_test([0.9, 0.8, 0.7], [0.5, 0.4, 0.3], lower_is_better=False)
    down = cmp.sign_test([0.9, 0.8, 0.7], [0.5, 0.4, 0.3])
    assert (up.wins, up.losses) == (3, 0) and (down.wins, down.losses) == (0, 3)
    # five data sets can never reject at 0.05: even 5 wins of 5 give p = 2/32
    r = cmp.sign_test(np.zeros(5), np.ones(5))
    assert r.pvalue == pytest.approx(0.0625) and not r.reject and r.critical_value == 6
    # one tie alone: no information at all
    r = cmp.sign_test([0.1], [0.1])
    assert (r.n, r.pvalue, r.reject) == (0, 1.0, False)


# ------------------------------------------------------------------------------------------------ Wilcoxon
@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
@pytest.mark.parametrize("seed", range(25))
def test_wilcoxon_matches_scipy(seed, zero_method):
    n = int(np.random.default_rng(100 + seed).integers(2, 30))
    a, b = _pairs(seed, n, levels=4 + seed % 5)
    r = cmp.wilcoxon(a, b, zero_method=zero_method)
    d = b - a
    if zero_method == "wilcox" and not np.any(d) or r.r_plus == r.r_minus:
        assert (r.pvalue, r.reject) == (1.0, False)
        return
    ref = stats.wilcoxon(b, a, zero_method=zero_method)
    assert r.statistic == pytest.approx(float(ref.statistic), abs=1e-12)
    assert r.pvalue == pytest.approx(float(ref.pvalue), rel=1e-10)
    assert r.z == pytest.approx(float(stats.wilcoxon(b, a, zero_method=zero_method, method="asymptotic").zstatistic))
    # R+ and R- from the definition: ranks of |d|, zeros dropped (wilcox) or split (zsplit)
    keep = d != 0 if zero_method == "wilcox" else np.ones(n, bool)
    rk = stats.rankdata(np.abs(d[keep]))
    dk = d[keep]
    half = rk[dk == 0].sum() / 2 if zero_method == "zsplit" else 0
    assert (r.r_plus, r.r_minus) == (rk[dk > 0].sum() + half, rk[dk < 0].sum() + half)


def test_wilcoxon_critical_values_are_demsars_table():
    # Demšar 2006, Table 4 (two-tailed, alpha = 0.05): the largest T that rejects, N = 6..25
    table = {
        6: 0,
        7: 2,
        8: 3,
        9: 5,
        10: 8,
        11: 10,
        12: 13,
        13: 17,
        14: 21,
        15: 25,
        16: 29,
        17: 34,
        18: 40,
        19: 46,
        20: 52,
        21: 58,
        22: 65,
        23: 73,
        24: 81,
        25: 89,
    }
    for n, t in table.items():
        d = np.arange(1, n + 1, dtype=float)  # no ties
        assert cmp.wilcoxon(np.zeros(n), d).critical_value == t, n
    assert cmp.wilcoxon(np.zeros(5), np.arange(1.0, 6)).critical_value == -1  # N = 5 can never reject


def test_wilcoxon_exact_distribution_by_brute_force():
    # every sign pattern of ranks 1..8: P(T <= t) two-sided, compared with the p-value of a sample with T = t
    n = 8
    r_plus = np.array([sum(s) for k in range(n + 1) for s in itertools.combinations(range(1, n + 1), k)])
    for t in range(0, 10):
        signs = np.ones(n)
        # d with R+ = t: make the ranks of the positive ones sum to t (greedy from the largest rank below t)
        rem, pos = t, []
        for rank in range(n, 0, -1):
            if rank <= rem:
                pos.append(rank)
                rem -= rank
        signs[[p - 1 for p in pos]] = 1
        signs[[i for i in range(n) if i + 1 not in pos]] = -1
        d = signs * np.arange(1, n + 1)
        p = min(1.0, 2 * np.mean(r_plus <= t))
        assert cmp.wilcoxon(np.zeros(n), d).pvalue == pytest.approx(p, rel=1e-12)


# ------------------------------------------------------------------------------------------------ Holm
@pytest.mark.parametrize("seed", range(30))
def test_holm_matches_statsmodels(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 20))
    p = np.round(rng.random(m) ** 3, 3)  # rounding makes ties; cubing makes small p-values common
    if seed % 5 == 0:
        p[0] = 1.0
    alpha = (0.01, 0.05, 0.1)[seed % 3]
    rej, adj, _, _ = multipletests(p, alpha=alpha, method="holm")
    r = cmp.holm(p, alpha=alpha)
    np.testing.assert_allclose(r.adjusted_pvalue, adj, rtol=1e-12)
    np.testing.assert_array_equal(r.reject, rej)


# ------------------------------------------------------------------------------------------------ vs control
def _posthoc_brute(scores, control, method, alpha):
    """Demšar 2006 §3.2.2 step by step: ranks per data set, z against the control, Holm's sequential rule."""
    n, k = scores.shape
    ranks = np.array([[1 + np.sum(row < v) + (np.sum(row == v) - 1) / 2 for v in row] for row in scores])
    R = ranks.mean(axis=0)
    se = np.sqrt(k * (k + 1) / (6 * n))
    others = [j for j in range(k) if j != control]
    z = np.array([(R[j] - R[control]) / se for j in others])
    p = 2 * (1 - stats.norm.cdf(np.abs(z)))
    if method == "bonferroni-dunn":
        return z, p, p * (k - 1) <= alpha
    reject = np.zeros(k - 1, bool)
    for i, j in enumerate(
        np.argsort(p, kind="stable")
    ):  # compare p_(i) with alpha / (k - 1 - i), stop at first failure
        if p[j] > alpha / (k - 1 - i):
            break
        reject[j] = True
    return z, p, reject


@pytest.mark.parametrize("method", ["holm", "bonferroni-dunn"])
@pytest.mark.parametrize("seed", range(20))
def test_posthoc_vs_control_matches_demsar_by_brute_force(seed, method):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(5, 30)), int(rng.integers(3, 8))
    scores = np.round(rng.random((n, k)) + np.linspace(0, 0.6, k), 1)  # ties within rows
    control = int(rng.integers(0, k))
    z, p, reject = _posthoc_brute(scores, control, method, 0.05)
    r = cmp.posthoc_vs_control(scores, control, method=method)
    np.testing.assert_allclose(r.statistic, z, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r.pvalue, p, rtol=1e-9, atol=1e-15)
    np.testing.assert_array_equal(r.reject, reject)
    assert r.others.tolist() == [j for j in range(k) if j != control]


def test_bonferroni_dunn_critical_values_are_demsars_table():
    # Demšar 2006, Table 5(b): q_0.05 for Bonferroni-Dunn, k = 2..10; CD = q * sqrt(k(k+1)/(6N))
    # (k = 9 left out: the table prints 2.724, while z_{0.05/16} = 2.734 by its own formula)
    q = {2: 1.960, 3: 2.241, 4: 2.394, 5: 2.498, 6: 2.576, 7: 2.638, 8: 2.690, 10: 2.773}
    for k, qk in q.items():
        r = cmp.posthoc_vs_control(np.tile(np.arange(k, dtype=float), (6, 1)), 0, method="bonferroni-dunn")
        assert r.critical_difference / np.sqrt(k * (k + 1) / 36) == pytest.approx(qk, abs=1e-3)


def test_holm_vs_control_on_the_books_example():
    # 西瓜书 表 2.5: A ranks 1 everywhere; against control A, C (mean rank 2.875) differs, B (2.125) does not
    r = cmp.posthoc_vs_control([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]], 0)
    se = np.sqrt(3 * 4 / (6 * 4))
    np.testing.assert_allclose(r.statistic, [1.125 / se, 1.875 / se])
    assert r.reject.tolist() == [False, True]


# ------------------------------------------------------------------------------------------------ pairwise
def test_pairwise_wilcoxon_holm_against_scipy_statsmodels_and_brute_force_cliques():
    rng = np.random.default_rng(3)
    E = np.round(rng.random((15, 5)) * 0.1 + np.array([0.10, 0.11, 0.15, 0.20, 0.21]), 2)
    r = cmp.pairwise_wilcoxon_holm(E)
    pairs = list(itertools.combinations(range(5), 2))
    p = [stats.wilcoxon(E[:, j], E[:, i], zero_method="zsplit").pvalue for i, j in pairs]
    rej, adj, _, _ = multipletests(p, alpha=0.05, method="holm")
    for (i, j), pv, a, rj in zip(pairs, p, adj, rej):
        assert r.pvalue[i, j] == pytest.approx(pv) and r.adjusted_pvalue[j, i] == pytest.approx(a)
        assert r.reject[i, j] == rj == r.reject[j, i]
    # cliques: maximal runs in mean-rank order with no significant pair inside
    order = np.argsort(r.mean_ranks, kind="stable")
    runs = [
        tuple(order[i : j + 1])
        for i in range(5)
        for j in range(i + 1, 5)
        if not any(r.reject[a, b] for a, b in itertools.combinations(order[i : j + 1], 2))
    ]
    maximal = [g for g in runs if not any(set(g) < set(h) for h in runs)]
    assert sorted(r.cliques) == sorted(tuple(int(x) for x in g) for g in maximal)
    assert r.significant_pairs() and all(r.reject[r.names.index(a), r.names.index(b)] for a, b in r.significant_pairs())


# ------------------------------------------------------------------------------------------------ Bayesian
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_correlated_bayesian_ttest_equals_baycomp(seed, rope):
    rng = np.random.default_rng(seed)
    runs, k = 1 + seed % 3, (5, 10)[seed % 2]
    x = 0.8 + 0.03 * rng.standard_normal(runs * k)
    y = x + 0.01 * (seed % 4 - 1) + 0.02 * rng.standard_normal(runs * k)
    ref = baycomp.CorrelatedTTest(x, y, rope=rope, runs=runs).probs()
    r = cmp.correlated_bayesian_ttest(x, y, rho=1 / k, rope=rope)
    expect = (ref[0], 0.0, ref[1]) if rope == 0 else ref
    np.testing.assert_allclose(r.probs, expect, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("rope", [0.0, 0.01])
@pytest.mark.parametrize("shift", [-0.02, 0.0, 0.02])
def test_correlated_bayesian_ttest_zero_variance_as_baycomp(rope, shift):
    x = np.full(10, 0.8)
    y = x + shift
    ref = baycomp.CorrelatedTTest(x, y, rope=rope).probs()
    r = cmp.correlated_bayesian_ttest(x, y, rho=0.1, rope=rope)
    expect = (ref[0], 0.0, ref[1]) if rope == 0 else ref
    np.testing.assert_allclose(r.probs, expect, atol=1e-12)


def test_correlated_bayesian_ttest_with_rope_0_decides_as_the_corrected_ttest():
    # p_right = 1 - one-sided p of the Nadeau-Bengio corrected t-test (Corani & Benavoli 2015)
    rng = np.random.default_rng(0)
    for _ in range(50):
        a, b = rng.random(10), rng.random(10) + 0.1 * rng.standard_normal()
        ct = cmp.corrected_resampled_ttest(a, b, test_train_ratio=1 / 9)
        bt = cmp.correlated_bayesian_ttest(a, b, rho=0.1)
        assert 2 * min(bt.p_left, bt.p_right) == pytest.approx(ct.pvalue, rel=1e-9)


@pytest.mark.parametrize("prior", [None, 1.0])  # None: each library's default (0.5 in both)
@pytest.mark.parametrize("case", range(6))
def test_bayesian_signed_rank_matches_baycomp_within_monte_carlo_error(case, prior):
    # Two independent Monte Carlo estimates of each probability (ours: 50000 draws, baycomp's: 20000, its Python
    # loop is slow) differ with standard error sqrt(p (1 - p) (1/50000 + 1/20000)) <= 0.0042; we allow 5 standard
    # errors (plus 1e-3 for p near 0 or 1): a false alarm has probability about 6e-7 per comparison, while a wrong
    # prior weight or pair rule moves p by 0.02 or more.
    rng = np.random.default_rng(case)
    n = (5, 8, 12, 20, 30, 10)[case]
    x = np.round(0.8 + 0.05 * rng.standard_normal(n), 2)
    y = np.round(x + 0.01 * (case - 2) + 0.02 * rng.standard_normal(n), 2)  # rounding: ties and zeros
    rope = (0.0, 0.01, 0.01, 0.02, 0.005, 0.0)[case]
    kw = {} if prior is None else {"prior": prior}
    ref = baycomp.SignedRankTest(x, y, rope, nsamples=20000, random_state=case, **kw).probs(rope > 0)
    ref = (ref[0], 0.0, ref[1]) if rope == 0 else ref
    r = cmp.bayesian_signed_rank(x, y, rope=rope, n_samples=50000, random_state=case, **kw)
    assert r.prior == (0.5 if prior is None else prior)
    for mine, theirs in zip(r.probs, ref):
        pbar = (mine + theirs) / 2
        assert abs(mine - theirs) <= 5 * np.sqrt(pbar * (1 - pbar) * (1 / 50000 + 1 / 20000)) + 1e-3


def test_bayesian_signed_rank_samples_follow_benavolis_formula():
    # With the same Dirichlet draws, θ_right = Σ_ij w_i w_j H(z_i + z_j - 2 rope) pair by pair (baycomp's loop)
    x = np.array([0.80, 0.75, 0.90, 0.85, 0.70, 0.82])
    y = np.array([0.83, 0.77, 0.90, 0.86, 0.74, 0.81])
    rope = 0.01
    r = cmp.bayesian_signed_rank(x, y, rope=rope, n_samples=200, random_state=7)
    w = np.random.default_rng(7).dirichlet(np.r_[0.5, np.ones(6)], size=200)  # prior 0.5 on z_0 = 0
    z = np.concatenate([[0.0], y - x])
    for i in range(0, 200, 37):
        right = left = 0.0
        for p in range(7):
            for q in range(7):
                s = z[p] + z[q]
                right += w[i, p] * w[i, q] * ((s > 2 * rope) + 0.5 * (s == 2 * rope))
                left += w[i, p] * w[i, q] * ((-s > 2 * rope) + 0.5 * (-s == 2 * rope))
        np.testing.assert_allclose(r.samples[i], [left, 1 - left - right, right], atol=1e-12)
    assert r.p_left + r.p_rope + r.p_right == pytest.approx(1.0)


# ------------------------------------------------------------------------------------------------ simulation
def test_rejection_rates_uses_the_same_data_sets_as_chapter_08():
    r = cmp.rejection_rates(60, n_datasets=10, random_state=4)
    null = cmp.null_rejection_rates(60, random_state=4)
    np.testing.assert_array_equal(r.rates[:7], null.rates)
    assert r.tests[:7] == cmp.NULL_TESTS and r.tests == cmp.ALL_TESTS
    assert r.n_runs.tolist() == [60] * 8 + [6] * 8
    for decisions, rate in zip(r.rejections, r.rates):
        assert decisions.mean() == rate


def test_rejection_rates_power_exceeds_type_one_error_for_the_tests_over_data_sets():
    null = cmp.rejection_rates(300, n_datasets=10, random_state=1)
    power = cmp.rejection_rates(300, difference=0.04, n_datasets=10, random_state=1)
    over = slice(8, 16)
    assert np.all(power.rates[over] > null.rates[over])
    assert np.all(null.rates[over] <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 30) + 1e-12)  # valid tests, 30 groups
    assert power.difference == 0.04 and null.difference == 0.0


# ------------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: cmp.sign_test([0.1, 0.2], [0.1]), ValueError, "scores_a has 2, scores_b has 1"),
        (lambda: cmp.sign_test([0.1, np.nan], [0.1, 0.2]), ValueError, "scores_a"),
        (lambda: cmp.sign_test([0.1], [0.2], lower_is_better="yes"), TypeError, "lower_is_better"),
        (lambda: cmp.sign_test([0.1], [0.2], alpha=1.5), ValueError, "alpha"),
        (lambda: cmp.wilcoxon([0.1, 0.2], [0.1, 0.3], zero_method="split"), ValueError, "zero_method"),
        (lambda: cmp.wilcoxon([0.1, 0.2], [0.1, 0.3], method="perm"), ValueError, "method"),
        (lambda: cmp.wilcoxon([], []), ValueError, "scores_a"),
        (lambda: cmp.holm([0.1, 1.2]), ValueError, "pvalues"),
        (lambda: cmp.holm([[0.1, 0.2]]), ValueError, "pvalues"),
        (lambda: cmp.posthoc_vs_control(np.ones((4, 3)), 3), ValueError, "control"),
        (lambda: cmp.posthoc_vs_control(np.ones((4, 3)), 1.0), TypeError, "control"),
        (lambda: cmp.posthoc_vs_control(np.ones((4, 3)), 0, method="nemenyi"), ValueError, "method"),
        (lambda: cmp.posthoc_vs_control(np.ones(4), 0), ValueError, "scores"),
        (lambda: cmp.posthoc_vs_control(np.ones((4, 3)), 0, names=["a"]), ValueError, "names"),
        (lambda: cmp.pairwise_wilcoxon_holm(np.ones((4, 1))), ValueError, "scores"),
        (lambda: cmp.correlated_bayesian_ttest([0.1, 0.2], [0.2, 0.3], rho=1.0), ValueError, "rho"),
        (lambda: cmp.correlated_bayesian_ttest([0.1, 0.2], [0.2, 0.3], rho="0.1"), TypeError, "rho"),
        (lambda: cmp.correlated_bayesian_ttest([0.1, 0.2], [0.2, 0.3], rho=0.1, rope=-0.01), ValueError, "rope"),
        (lambda: cmp.correlated_bayesian_ttest([0.1], [0.2], rho=0.1), ValueError, "scores_a"),
        (lambda: cmp.bayesian_signed_rank([0.1, 0.2], [0.2, 0.3], n_samples=0), ValueError, "n_samples"),
        (lambda: cmp.bayesian_signed_rank([0.1, 0.2], [0.2, 0.3], prior=0), ValueError, "prior"),
        (lambda: cmp.bayesian_signed_rank([0.1, 0.2], [0.2, 0.3], random_state=1.5), TypeError, "random_state"),
        (lambda: cmp.rejection_rates(5, n_datasets=10), ValueError, "n_trials"),
        (lambda: cmp.rejection_rates(10, difference=0.2), ValueError, "difference"),
        (lambda: cmp.rejection_rates(10, n_datasets=3), ValueError, "n_datasets"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_rejection_rates_do_not_depend_on_n_jobs():
    one = cmp.rejection_rates(20, n_datasets=10, random_state=2)
    two = cmp.rejection_rates(20, n_datasets=10, random_state=2, n_jobs=2)
    for a, b in zip(one.rejections, two.rejections):
        np.testing.assert_array_equal(a, b)
