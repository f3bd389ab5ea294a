"""Many learners over many data sets (西瓜书 §2.4.4; Demšar 2006): Friedman, Nemenyi, sign, Wilcoxon,
Holm, post-hoc tests against a control, pairwise Wilcoxon with Holm.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import stats

from .._validation import Options, as_finite_array, check_bool, check_mean_ranks, check_positive_int, validate_params
from ._checks import ALPHA, COUNT, NONNEGATIVE, _check_alpha, _check_bool, _check_pair, _check_scores_table, at_least
from ._results import (
    FriedmanResult,
    HolmResult,
    NemenyiResult,
    PairwiseWilcoxonResult,
    PosthocResult,
    SignTestResult,
    WilcoxonResult,
)


# ----------------------------------------------------------------------------------------------------
# Many learners, many data sets: Friedman and Nemenyi (§2.4.4)
# ----------------------------------------------------------------------------------------------------
@validate_params({"scores": ["array-like"], "lower_is_better": ["boolean"]})
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


@validate_params(
    {"scores": ["array-like"], "lower_is_better": ["boolean"], "alpha": ALPHA, "tie_correction": ["boolean"]}
)
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
        test="Friedman test (F form)",
        statistic=float(f_stat),
        pvalue=f_p,
        df=(df1, df2),
        alpha=alpha,
        critical_value=f_crit,
        reject=bool(f_stat > f_crit),
        distribution="F",
        mean_ranks=r,
        chi2=float(chi2),
        chi2_pvalue=float(stats.chi2.sf(chi2, df1)),
        chi2_df=df1,
        chi2_critical_value=float(stats.chi2.isf(alpha, df1)),
        F=float(f_stat),
        F_pvalue=f_p,
        n_datasets=n,
        n_algorithms=k,
        tie_correction=bool(tie_correction),
    )


@validate_params({"k": at_least(2), "alpha": ALPHA})
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


@validate_params({"k": at_least(2), "n_datasets": at_least(1), "alpha": ALPHA})
def critical_difference(k, n_datasets, alpha=0.05) -> float:
    """Nemenyi critical difference CD = q_α √(k(k+1) / (6N)) (西瓜书 式(2.36)).

    >>> round(critical_difference(3, 4), 3)
    1.657
    """
    k = check_positive_int(k, "k", minimum=2)
    n = check_positive_int(n_datasets, "n_datasets", minimum=1)
    return q_alpha(k, alpha) * float(np.sqrt(k * (k + 1) / (6 * n)))


@validate_params({"mean_ranks": ["array-like"], "cd": NONNEGATIVE})
def cd_groups(mean_ranks, cd) -> tuple[tuple[int, ...], ...]:
    """The bars of a CD diagram: maximal runs of algorithms (sorted by mean rank) whose mean ranks
    differ by at most ``cd``, as tuples of column indices in rank order (Demšar 2006).

    A run of one algorithm is not a group; a run inside a longer run is dropped.

    >>> cd_groups([1.0, 2.125, 2.875], 1.657)
    ((0, 1), (1, 2))
    """
    r = check_mean_ranks(mean_ranks)
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


@validate_params({"scores": ["array-like"], "lower_is_better": ["boolean"], "alpha": ALPHA})
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
        test="Nemenyi post-hoc test",
        statistic=diff,
        pvalue=p,
        df=None,
        alpha=alpha,
        critical_value=cd,
        reject=diff > cd,
        distribution="studentized_range",
        mean_ranks=r,
        names=names,
        cd=cd,
        q_alpha=q,
        n_datasets=n,
        groups=groups,
    )


@validate_params(
    {"scores_a": ["array-like"], "scores_b": ["array-like"], "alpha": ALPHA, "lower_is_better": ["boolean"]}
)
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
        return SignTestResult(
            test="sign test",
            statistic=0.0,
            pvalue=1.0,
            df=None,
            alpha=alpha,
            critical_value=1.0,
            reject=False,
            distribution="binom",
            wins=wins,
            losses=losses,
            ties=ties,
            n=0,
        )
    p = float(stats.binomtest(stat, n, 0.5).pvalue)
    w = np.arange((n + 1) // 2, n + 1)
    ok = np.flatnonzero(np.minimum(1.0, 2 * stats.binom.sf(w - 1, n, 0.5)) < alpha)
    crit = float(w[ok[0]]) if ok.size else float(n + 1)
    return SignTestResult(
        test="sign test",
        statistic=float(stat),
        pvalue=p,
        df=None,
        alpha=alpha,
        critical_value=crit,
        reject=bool(p < alpha),
        distribution="binom",
        wins=wins,
        losses=losses,
        ties=ties,
        n=n,
    )


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


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "alpha": ALPHA,
        "zero_method": [Options("zsplit", "wilcox", "pratt")],
        "method": [Options("auto", "exact", "approx")],
    }
)
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
        how = (
            method
            if method != "auto"
            else (
                "approx"
                if d.size > 50
                else "exact"
                if not (has_ties or n_zero)
                else "permutation"
                if d.size <= 13
                else "approx"
            )
        )
        z = _wilcoxon_z(d, zero_method, r_plus)
        if how == "approx":
            p = float(min(1.0, 2 * stats.norm.sf(abs(z))))
        elif how == "permutation":
            p = _wilcoxon_permutation_p(d, zero_method, r_plus)
        else:
            p = float(stats.wilcoxon(b, a, zero_method=zero_method, method="exact").pvalue)
    return WilcoxonResult(
        test="Wilcoxon signed-rank test",
        statistic=float(t),
        pvalue=min(p, 1.0),
        df=None,
        alpha=alpha,
        critical_value=crit,
        reject=bool(p < alpha),
        distribution="wilcoxon",
        r_plus=r_plus,
        r_minus=r_minus,
        n=n,
        n_zero=n_zero,
        z=z,
        zero_method=zero_method,
        method=how,
    )


@validate_params({"pvalues": ["array-like"], "alpha": ALPHA})
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


@validate_params(
    {
        "scores": ["array-like"],
        "control": COUNT,
        "method": [Options("holm", "bonferroni-dunn")],
        "lower_is_better": ["boolean"],
        "alpha": ALPHA,
    }
)
def posthoc_vs_control(
    scores, control, *, method="holm", lower_is_better=True, alpha=0.05, names=None
) -> PosthocResult:
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
    if not 0 <= int(control) < k:
        raise ValueError(f"control must be a column index in [0, {k - 1}], got {control}")
    control = int(control)
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
    return PosthocResult(
        test=f"{label} post-hoc test vs control {names[control]}",
        control=control,
        others=others,
        statistic=z,
        pvalue=p,
        adjusted_pvalue=adj,
        reject=rej,
        method=method,
        alpha=alpha,
        mean_ranks=r,
        names=names,
        n_datasets=n,
        critical_difference=cd,
    )


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


@validate_params({"scores": ["array-like"], "lower_is_better": ["boolean"], "alpha": ALPHA})
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
    return PairwiseWilcoxonResult(
        names=names,
        mean_ranks=r,
        groups=tuple(tuple(names[i] for i in g) for g in cl),
        alpha=alpha,
        pvalue=p,
        adjusted_pvalue=adj,
        reject=rej,
        cliques=cl,
    )
